// What the declared parsers of func's call, call_indirect and return and
// of builtin.unrealized_conversion_cast report, in upstream's words: a
// keyword the format expects is reported through the op's parser
// (`custom op '<name>'`), operand counts against the callee's type, a
// nested symbol where a flat one belongs.
// mlir-opt-15 passes this file's -verify-diagnostics too.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func.func @cast_needs_to(%a: i32) {
  // expected-error@+1 {{custom op 'builtin.unrealized_conversion_cast' expected 'to'}}
  %0 = builtin.unrealized_conversion_cast %a : i32 into i64
  return
}

// -----

func.func @indirect_counts(%f: (i32) -> (), %a: i32) {
  // expected-error@+1 {{custom op 'func.call_indirect' 2 operands present, but expected 1}}
  func.call_indirect %f(%a, %a) : (i32) -> ()
  return
}

// -----

func.func @indirect_needs_a_function(%f: i32) {
  // expected-error@+1 {{custom op 'func.call_indirect' invalid kind of type specified}}
  func.call_indirect %f() : i32
  return
}

// -----

func.func @flat_callee() {
  // expected-error@+1 {{custom op 'func.call' invalid kind of attribute specified}}
  func.call @a::@b() : () -> ()
  return
}

// -----

func.func @function_type_arrow(%a: i32) {
  // expected-error@+1 {{expected '->' in function type}}
  func.call @f(%a) : (i32)
  return
}
