// RUN: mlir-async-opt %s -split-input-file -convert-async-to-llvm -verify-diagnostics | FileCheck %s

// Where upstream's -convert-async-to-llvm fails, ours lowers or says why.

// mlir-opt-14 crashes on a module without async ops; it only gains the
// runtime API's declarations.
// CHECK-LABEL: func @main
// CHECK-NEXT:    %[[C:.*]] = arith.constant 42 : i64
// CHECK-NEXT:    call @printI64(%[[C]]) : (i64) -> ()
// CHECK:       func private @mlirAsyncRuntimeAddRef(!llvm.ptr<i8>, i64)
func private @printI64(i64)
func @main() {
  %c = arith.constant 42 : i64
  call @printI64(%c) : (i64) -> ()
  return
}

// -----

// The index `add_to_group` returns, used by arithmetic that keeps its
// type, is bridged by a cast (upstream: "failed to materialize
// conversion"); the worker count lowers to the (misspelled) API call.
// CHECK-LABEL: func @group_index
// CHECK:         %[[G:.*]] = call @mlirAsyncRuntimeCreateGroup
// CHECK-NEXT:    %[[I64:.*]] = call @mlirAsyncRuntimeAddTokenToGroup(%arg0, %[[G]]) : (!llvm.ptr<i8>, !llvm.ptr<i8>) -> i64
// CHECK-NEXT:    %[[I:.*]] = builtin.unrealized_conversion_cast %[[I64]] : i64 to index
// CHECK-NEXT:    %[[N:.*]] = call @mlirAsyncRuntimGetNumWorkerThreads() : () -> index
// CHECK-NEXT:    arith.addi %[[I]], %[[N]] : index
func @group_index(%t: !async.token) -> index {
  %c1 = arith.constant 1 : index
  %g = async.runtime.create_group %c1 : !async.group
  %i = async.runtime.add_to_group %t, %g : !async.token
  %n = async.runtime.num_worker_threads : index
  %s = arith.addi %i, %n : index
  return %s : index
}

// -----

// A value whose payload has no LLVM type (upstream crashes).
func @tensor_value() {
  // expected-error@+1 {{'async.runtime.create' op cannot lower a value of type 'tensor<4xf32>': it has no LLVM type}}
  %0 = async.runtime.create : !async.value<tensor<4xf32>>
  return
}
