// terminators.mlir in the 14 syntax, where some checks come in another
// order: scf.yield's place before its parent, and the implicit terminator
// of an op before the ops inside. mlir-opt-14 passes this file.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func @yield_in_function() {
  %c = arith.constant 0 : index
  // expected-error @+1 {{'scf.yield' op must be the last operation in the parent block}}
  "scf.yield"() : () -> ()
  return
}

// -----

func @return_outside_function() {
  %c = arith.constant 0 : index
  "scf.execute_region"() ({
    // expected-error @+1 {{'std.return' op expects parent op 'builtin.func'}}
    "std.return"() : () -> ()
  }) : () -> ()
  return
}

// -----

func @nested_yield_later() {
  %c = arith.constant 0 : index
  // expected-error @+2 {{'async.execute' op expects regions to end with 'async.yield', found 'scf.yield'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'async.yield'}}
  %t = "async.execute"() ({
    "scf.yield"() : () -> ()
  }) {operand_segment_sizes = dense<0> : vector<2xi32>} : () -> !async.token
  return
}
