// Ops whose regions hold one block (MLIR's SingleBlock trait, or ODS's
// SizedRegion<1>) reject more, in mlir-opt-15's words (it passes this
// file's -verify-diagnostics).
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func.func @execute() {
  // expected-error @+1 {{'async.execute' op expects region #0 to have 0 or 1 blocks}}
  %t = "async.execute"() ({
    "async.yield"() : () -> ()
  ^bb1:
    "async.yield"() : () -> ()
  }) {operand_segment_sizes = dense<0> : vector<2xi32>} : () -> !async.token
  return
}

// -----

func.func @for(%i: index) {
  // expected-error @+1 {{'scf.for' op expects region #0 to have 0 or 1 blocks}}
  "scf.for"(%i, %i, %i) ({
  ^bb0(%x: index):
    "scf.yield"() : () -> ()
  ^bb1:
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @else(%c: i1) {
  // expected-error @+1 {{'scf.if' op expects region #1 to have 0 or 1 blocks}}
  "scf.if"(%c) ({
    "scf.yield"() : () -> ()
  }, {
    "scf.yield"() : () -> ()
  ^bb1:
    "scf.yield"() : () -> ()
  }) : (i1) -> ()
  return
}

// -----

func.func @while(%c: i1) {
  // expected-error @+1 {{'scf.while' op region #0 ('before') failed to verify constraint: region with 1 blocks}}
  "scf.while"() ({
    "scf.condition"(%c) : (i1) -> ()
  ^bb1:
    "scf.condition"(%c) : (i1) -> ()
  }, {
    "scf.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @reduce(%i: index, %f: f32) {
  %r = "scf.parallel"(%i, %i, %i, %f) ({
  ^bb0(%x: index):
    // expected-error @+1 {{'scf.reduce' op region #0 ('reductionOperator') failed to verify constraint: region with 1 blocks}}
    "scf.reduce"(%f) ({
    ^bb0(%a: f32, %b: f32):
      "scf.reduce.return"(%a) : (f32) -> ()
    ^bb1:
      "scf.reduce.return"(%a) : (f32) -> ()
    }) : (f32) -> ()
    "scf.yield"() : () -> ()
  }) {operand_segment_sizes = dense<[1, 1, 1, 1]> : vector<4xi32>} : (index, index, index, f32) -> f32
  return
}

// -----

func.func @alloca_scope() {
  // expected-error @+1 {{'memref.alloca_scope' op expects region #0 to have 0 or 1 blocks}}
  "memref.alloca_scope"() ({
    "memref.alloca_scope.return"() : () -> ()
  ^bb1:
    "memref.alloca_scope.return"() : () -> ()
  }) : () -> ()
  return
}
