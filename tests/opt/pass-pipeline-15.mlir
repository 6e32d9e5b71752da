// --pass-pipeline as mlir-opt 15 reads it: a function is `func.func`;
// `builtin.func` (14's name) and `builtin.module` (modules nested in the
// top-level one) match nothing here.
// RUN: mlir-opt %s --pass-pipeline="func.func(canonicalize)" | FileCheck %s --check-prefix=FOLDED
// RUN: mlir-opt %s --pass-pipeline="builtin.func(canonicalize)" | FileCheck %s --check-prefix=KEPT
// RUN: mlir-opt %s --pass-pipeline="builtin.module(func.func(canonicalize))" | FileCheck %s --check-prefix=KEPT
// RUN: not mlir-opt %s --pass-pipeline="func.func(async-to-async-runtime)" 2>&1 | FileCheck %s --check-prefix=NEST

// FOLDED-LABEL: func.func @f
// FOLDED-NEXT:    return %arg0 : i32

// KEPT-LABEL: func.func @f
// KEPT-NEXT:    %c0_i32 = arith.constant 0 : i32

// NEST: <unknown>:0: error: Can't add pass 'AsyncToAsyncRuntime' restricted to 'builtin.module' on a PassManager intended to run on 'func.func', did you intend to nest?
// NEST-NEXT: <unknown>:0: error: failed to add `async-to-async-runtime` with options ``
// NEST-NEXT: <unknown>:0: error: failed to add `func.func` with options `` to inner pipeline

func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  return %0 : i32
}
