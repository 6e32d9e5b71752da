// Where terminators may stand, in mlir-opt-15's words (it passes this
// file's -verify-diagnostics): the ops a terminator belongs to
// (HasParent / ParentOneOf), a terminator ends its block, the implicit
// terminator of single-block ops, scf.while's two terminators, and empty
// regions of ops that need one block. terminators-14.mlir has 14's
// order and names.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

func.func @yield_in_function() {
  // expected-error @+1 {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.parallel, scf.while'}}
  "scf.yield"() : () -> ()
  return
}

// -----

func.func @condition_outside_while(%c: i1) {
  // expected-error @+1 {{'scf.condition' op expects parent op 'scf.while'}}
  "scf.condition"(%c) : (i1) -> ()
  return
}

// -----

func.func @scope_return_outside_scope() {
  // expected-error @+1 {{'memref.alloca_scope.return' op expects parent op 'memref.alloca_scope'}}
  "memref.alloca_scope.return"() : () -> ()
  return
}

// -----

func.func @return_not_last() {
  // expected-error @+1 {{'func.return' op must be the last operation in the parent block}}
  return
  "test.after"() : () -> ()
}

// -----

func.func @execute_ends_wrong() {
  // expected-error @+2 {{'async.execute' op expects regions to end with 'async.yield', found 'llvm.return'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'async.yield'}}
  %t = "async.execute"() ({
    "llvm.return"() : () -> ()
  }) {operand_segment_sizes = dense<0> : vector<2xi32>} : () -> !async.token
  return
}

// -----

func.func @nested_yield_first() {
  // 15 checks the implicit terminator after the ops inside.
  %t = "async.execute"() ({
    // expected-error @+1 {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.parallel, scf.while'}}
    "scf.yield"() : () -> ()
  }) {operand_segment_sizes = dense<0> : vector<2xi32>} : () -> !async.token
  return
}

// -----

func.func @while_after(%c: i1) {
  // expected-error @+1 {{'scf.while' op expects the 'after' region to terminate with 'scf.yield'}}
  "scf.while"() ({
    "scf.condition"(%c) : (i1) -> ()
  }, {
    // expected-note @+1 {{terminator here}}
    "llvm.return"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @empty_execute() {
  // expected-error @+1 {{'async.execute' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %t = "async.execute"() ({
  }) {operand_segment_sizes = dense<0> : vector<2xi32>} : () -> !async.token
  return
}

// -----

func.func @empty_block() {
  // expected-error @+1 {{'async.execute' op expects a non-empty block}}
  %t = "async.execute"() ({
  ^bb0:
  }) {operand_segment_sizes = dense<0> : vector<2xi32>} : () -> !async.token
  return
}

// -----

func.func @empty_for(%i: index) {
  // expected-error @+1 {{'scf.for' op region #0 ('region') failed to verify constraint: region with 1 blocks}}
  "scf.for"(%i, %i, %i) ({
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @execute_region_arguments() {
  // expected-error @+1 {{'scf.execute_region' op region cannot have any arguments}}
  "scf.execute_region"() ({
  ^bb0(%q: i32):
    "scf.yield"() : () -> ()
  }) : () -> ()
  return
}
