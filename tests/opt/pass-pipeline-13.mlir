// --pass-pipeline as mlir-opt 13 reads it: a module is `module` and a
// function `func` there, so `module(...)` nests on modules inside the
// top-level one (none here: nothing is lowered) and a module pass nested
// on anything is reported with 13's names. The generation comes from the
// input (`constant` is 13's) when --mlir-edition does not give it.
// Expected lines are mlir-opt-13's.
// RUN: mlir-opt %s --pass-pipeline="module(async-to-async-runtime)" | FileCheck %s --check-prefix=KEPT
// RUN: mlir-opt %s --pass-pipeline="async-to-async-runtime" | FileCheck %s --check-prefix=LOWERED
// RUN: not mlir-opt %s --pass-pipeline="builtin.module(async-to-async-runtime)" 2>&1 | FileCheck %s --check-prefix=BUILTIN
// RUN: not mlir-opt %s --pass-pipeline="module(func(async-to-async-runtime))" 2>&1 | FileCheck %s --check-prefix=FUNC

// KEPT:      %token = async.execute {

// LOWERED:   %0 = call @async_execute_fn() : () -> !async.token

// BUILTIN:      <unknown>:0: error: Can't add pass 'AsyncToAsyncRuntime' restricted to 'module' on a PassManager intended to run on 'builtin.module', did you intend to nest?
// BUILTIN-NEXT: <unknown>:0: error: failed to add `async-to-async-runtime` with options ``
// BUILTIN-NEXT: <unknown>:0: error: failed to add `builtin.module` with options `` to inner pipeline

// FUNC:      <unknown>:0: error: Can't add pass 'AsyncToAsyncRuntime' restricted to 'module' on a PassManager intended to run on 'func', did you intend to nest?
// FUNC-NEXT: <unknown>:0: error: failed to add `async-to-async-runtime` with options ``
// FUNC-NEXT: <unknown>:0: error: failed to add `func` with options `` to inner pipeline
// FUNC-NEXT: <unknown>:0: error: failed to add `module` with options `` to inner pipeline

func @f() -> i32 {
  %c = constant 1 : i32
  %t = async.execute {
    async.yield
  }
  return %c : i32
}
