// What the cf ops' declared parsers report, in upstream's words: the
// operand and type counts of a successor compared when the op is read
// (at the operand list, or at `default` for `cf.switch`'s cases), a
// message that is no string, operands missing after a comma.
// mlir-opt-15 passes this file's -verify-diagnostics too.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func.func @types_without_operands(%c: i1, %a: i32) {
  // expected-error@+1 {{custom op 'cf.cond_br' 0 operands present, but expected 1}}
  cf.cond_br %c, ^bb1, ^bb2( : i32)
^bb1:
  return
^bb2(%x: i32):
  return
}

// -----

func.func @switch_case_counts(%f: i32, %a: i32) {
  cf.switch %f : i32, [
    // expected-error@+1 {{custom op 'cf.switch' 2 operands present, but expected 1}}
    default: ^bb1(%a, %a : i32)
  ]
^bb1(%x: i32):
  return
}

// -----

func.func @message_is_a_string(%c: i1) {
  // expected-error@+1 {{custom op 'cf.assert' invalid kind of attribute specified}}
  cf.assert %c, i32
  return
}

// -----

func.func @operand_after_comma(%a: i32) {
  // expected-error@+1 {{expected SSA operand}}
  cf.br ^bb1(%a, : i32, i32)
^bb1(%x: i32, %y: i32):
  return
}
