// Uses inside nested regions of values from the blocks around them: a value
// defined before the op holding the region dominates every use inside it; one
// defined after it, or the op's own result, does not. (The verifier answers
// the first case without a dominator tree: these pin both answers.) Messages
// and notes as mlir-opt-15 prints them.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func.func @defined_after_the_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{operand #0 does not dominate this use}}
    %y = arith.addi %x, %i : index
  }
  // expected-note @+1 {{operand defined here (op in a parent region)}}
  %x = arith.addi %n, %n : index
  return
}

// -----

func.func @result_of_the_enclosing_op(%n: index, %b: i1) {
  // expected-note @+1 {{operand defined here (op in a parent region)}}
  %r = scf.if %b -> (index) {
    // expected-error @+1 {{operand #0 does not dominate this use}}
    %y = arith.addi %r, %n : index
    scf.yield %y : index
  } else {
    scf.yield %n : index
  }
  return
}

// -----

// Two regions deep: the value from the function's block is fine, the one
// defined later in the loop's body is not.
func.func @two_levels(%n: index, %b: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.addi %n, %n : index
  scf.for %i = %c0 to %n step %c1 {
    scf.if %b {
      %y = arith.addi %x, %i : index
      // expected-error @+1 {{operand #1 does not dominate this use}}
      %z = arith.addi %y, %w : index
    }
    // expected-note @+1 {{operand defined here (op in a parent region)}}
    %w = arith.addi %i, %i : index
  }
  return
}

// -----

// Values of every enclosing block, arguments and results, used two levels
// down: valid.
func.func @from_every_level(%n: index, %b: i1) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.addi %n, %n : index
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (index) {
    %w = arith.addi %i, %acc : index
    %t = scf.if %b -> (index) {
      %y = arith.addi %x, %w : index
      %v = arith.addi %y, %acc : index
      scf.yield %v : index
    } else {
      scf.yield %c1 : index
    }
    scf.yield %t : index
  }
  return %s : index
}
