// An async.execute may list the same token twice among its dependencies
// and the same async value twice among its operands (upstream 13-15
// crash on it). The outlined function takes each once, awaits each once,
// and every body argument of a repeated operand reads the same payload.
// RUN: mlir-opt %s -split-input-file -async-to-async-runtime | FileCheck %s
// RUN: mlir-opt %s -split-input-file -async-to-async-runtime=eliminate-blocking-await-ops=true | FileCheck %s

// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%[[T:.*]]: !async.token, %[[V:.*]]: !async.value<f32>)
// CHECK: call @async_execute_fn(%[[T]], %[[V]]) : (!async.token, !async.value<f32>) -> (!async.token, !async.value<f32>)
// CHECK-LABEL: func.func private @async_execute_fn
// CHECK-SAME: (%[[A0:.*]]: !async.token, %[[A1:.*]]: !async.value<f32>)
// CHECK: async.runtime.await_and_resume %[[A0]]
// CHECK-NOT: async.runtime.await_and_resume %[[A0]]
// CHECK: async.runtime.await_and_resume %[[A1]]
// CHECK-NOT: async.runtime.await_and_resume
// CHECK: %[[P:.*]] = async.runtime.load %[[A1]] : <f32>
// CHECK-NEXT: arith.addf %[[P]], %[[P]] : f32
func.func @twice(%t: !async.token, %v: !async.value<f32>) -> f32 {
  %tok, %r = async.execute [%t, %t] (%v as %a: !async.value<f32>, %v as %b: !async.value<f32>) -> !async.value<f32> {
    %s = arith.addf %a, %b : f32
    async.yield %s : f32
  }
  %x = async.await %r : !async.value<f32>
  return %x : f32
}

// -----

// Repeats interleaved with distinct operands keep each body argument bound
// to its own operand: %a and %c read %v, %b reads %w.
// CHECK-LABEL: func.func @interleaved
// CHECK-SAME: (%[[T:.*]]: !async.token, %[[U:.*]]: !async.token, %[[V:.*]]: !async.value<i32>, %[[W:.*]]: !async.value<i64>)
// CHECK: call @async_execute_fn(%[[U]], %[[T]], %[[V]], %[[W]])
// CHECK-LABEL: func.func private @async_execute_fn
// CHECK-SAME: (%[[A0:.*]]: !async.token, %[[A1:.*]]: !async.token, %[[A2:.*]]: !async.value<i32>, %[[A3:.*]]: !async.value<i64>)
// CHECK: async.runtime.await_and_resume %[[A0]]
// CHECK: async.runtime.await_and_resume %[[A1]]
// CHECK: async.runtime.await_and_resume %[[A2]]
// CHECK: %[[PV:.*]] = async.runtime.load %[[A2]] : <i32>
// CHECK: async.runtime.await_and_resume %[[A3]]
// CHECK-NOT: async.runtime.await_and_resume
// CHECK: %[[PW:.*]] = async.runtime.load %[[A3]] : <i64>
// CHECK-NEXT: %[[E:.*]] = arith.trunci %[[PW]] : i64 to i32
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[PV]], %[[E]] : i32
// CHECK-NEXT: arith.muli %[[S]], %[[PV]] : i32
func.func @interleaved(%t: !async.token, %u: !async.token, %v: !async.value<i32>, %w: !async.value<i64>) -> i32 {
  %tok, %r = async.execute [%u, %t, %u, %t] (%v as %a: !async.value<i32>, %w as %b: !async.value<i64>, %v as %c: !async.value<i32>) -> !async.value<i32> {
    %e = arith.trunci %b : i64 to i32
    %s = arith.addi %a, %e : i32
    %m = arith.muli %s, %c : i32
    async.yield %m : i32
  }
  %x = async.await %r : !async.value<i32>
  return %x : i32
}
