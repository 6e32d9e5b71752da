// The async passes work on the top-level module's symbol table: a function
// outlined from an async.execute, a runtime function a lowered async op
// calls, goes there, also for ops inside a module nested in it. The call
// left in the nested module then names nothing in its own symbol table,
// and the verifier says so, as mlir-opt-13/14/15 say it (15 with a note
// showing the call; 15 aborts on an async.execute standing directly in a
// module). The mutation campaign counts these as failures upstream shares.
// Lines and columns are within each split, as mlir-opt-15 gives them.
// RUN: not mlir-opt %s -split-input-file -async-to-async-runtime 2>&1 | FileCheck %s --check-prefix=OUTLINE
// RUN: not mlir-opt %s -split-input-file -convert-async-to-llvm 2>&1 | FileCheck %s --check-prefix=RUNTIME

// OUTLINE: :16:12: error: 'func.call' op 'async_execute_fn' does not reference a valid function
module {
  module @nested {
    func.func @f() {
      %t = async.execute {
        async.yield
      }
      async.await %t : !async.token
      return
    }
  }
}

// -----

// RUNTIME: :7:7: error: 'func.call' op 'mlirAsyncRuntimeDropRef' does not reference a valid function
module {
  module @nested {
    func.func @f(%t: !async.token) {
      async.runtime.drop_ref %t {count = 1 : i64} : !async.token
      return
    }
  }
}
