// memref.alloca_scope's return hands the scope its results
// (RegionBranchOpInterface): as many as it declares, of its types. A
// scope with results and an empty body (its return implicit, with none)
// was accepted, and lowering it branched out without the values
// ("branch has 0 operands for successor #0, but target block has 1").
// Expected lines are mlir-opt-15's and -14's (lines within each split).
// RUN: not mlir-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not mlir-opt %s -split-input-file --mlir-edition=14 2>&1 | FileCheck %s

// CHECK: :12:8: error: 'memref.alloca_scope' op  region control flow edge from Region #0 to parent results: source has 0 operands, but target successor needs 1
func.func @implicit() -> index {
  %r = memref.alloca_scope -> (index) {
  }
  return %r : index
}

// -----

// CHECK: :5:8: error: 'memref.alloca_scope' op  along control flow edge from Region #0 to parent results: source type #0 'i32' should match input type #0 'index'
func.func @mismatch(%v: i32) -> index {
  %r = memref.alloca_scope -> (index) {
    memref.alloca_scope.return %v : i32
  }
  return %r : index
}
