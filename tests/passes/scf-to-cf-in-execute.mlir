// Lowering `scf` inside an `async.execute` (before -async-to-async-runtime
// outlined it) leaves several blocks in a region that holds one: an error
// at the execute, as mlir-opt-15 reports it, not IR that mlir-opt cannot
// read back.
// RUN: not mlir-opt %s -allow-unregistered-dialect -convert-scf-to-cf 2>&1 | FileCheck %s
// CHECK: scf-to-cf-in-execute.mlir:[[# @LINE + 3]]:8: error: 'async.execute' op expects region #0 to have 0 or 1 blocks
// CHECK-NOT: error
func.func @f(%c: i1) {
  %t = async.execute {
    scf.if %c {
      "test.op"() : () -> ()
    }
    async.yield
  }
  return
}
