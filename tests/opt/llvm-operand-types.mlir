// The LLVM dialect's branches and return take values of LLVM-compatible
// types only (ODS's Variadic<LLVM_Type>; llvm.switch takes any type):
// `index` there is an error, as in mlir-opt-14/15 (it was accepted).
// -convert-memref-to-llvm alone leaves such a branch for an alloca_scope
// yielding an index (the scope's return becomes a branch with the values
// as they are); mlir-opt-14/15 fail the same way, at the return.
// Lines are within each split, as mlir-opt-15 gives them.
// RUN: not mlir-opt %s -split-input-file -allow-unregistered-dialect 2>&1 | FileCheck %s
// RUN: not mlir-opt %s -split-input-file -allow-unregistered-dialect --mlir-edition=14 2>&1 | FileCheck %s
// RUN: not mlir-opt %S/Inputs/alloca-scope-index.mlir -convert-memref-to-llvm 2>&1 | FileCheck %s --check-prefix=SCOPE
// SCOPE: alloca-scope-index.mlir:4:5: error: 'llvm.br' op operand #0 must be LLVM dialect-compatible type, but got 'index'

// CHECK: :16:3: error: 'llvm.br' op operand #0 must be LLVM dialect-compatible type, but got 'index'
llvm.func @br() {
  %c = "test.c"() : () -> index
  llvm.br ^bb1(%c : index)
^bb1(%x: index):
  llvm.return
}

// -----

// CHECK: :7:3: error: 'llvm.cond_br' op operand #2 must be LLVM dialect-compatible type, but got 'index'
llvm.func @cond_br(%b: i1) {
  %c = "test.c"() : () -> i32
  %d = "test.c"() : () -> index
  llvm.cond_br %b, ^bb1(%c : i32), ^bb2(%d : index)
^bb1(%x: i32):
  llvm.return
^bb2(%y: index):
  llvm.return
}

// -----

// CHECK: :6:3: error: 'llvm.return' op operand #0 must be LLVM dialect-compatible type, but got 'index'
llvm.func @ret() -> i64 {
  %c = "test.c"() : () -> index
  llvm.return %c : index
}

// -----

// CHECK: :4:11: error: custom op 'llvm.func' failed to construct function type: expected LLVM type for function results'index'
llvm.func @result() -> index

// -----

// Any type goes to a switch's destinations.
// CHECK-NOT: error
llvm.func @switch(%v: i32) {
  %c = "test.c"() : () -> index
  llvm.switch %v : i32, ^bb1(%c : index) [
    1: ^bb1(%c : index)
  ]
^bb1(%x: index):
  llvm.return
}
