// RUN: mlir-opt %s -async-to-async-runtime --mlir-print-debuginfo | FileCheck %s

// The arguments of an outlined function are at the function's location,
// which is the async.execute's (as MLIR's addEntryBlock places them).

// CHECK-LABEL: func.func private @async_execute_fn
// CHECK-SAME:    (%arg0: i32 loc("{{.*}}debuginfo-outlined.mlir":9:8))
func.func @f(%x: i32) -> !async.token {
  %t = async.execute {
    %y = arith.addi %x, %x : i32
    async.yield
  }
  return %t : !async.token
}
