// RUN: mlir-async-opt %s -convert-async-to-llvm | FileCheck %s
// RUN: mlir-async-opt %s -convert-async-to-llvm -convert-std-to-llvm | FileCheck %s --check-prefix=STD

// LLVM 13's conversion driver: the cast an operand of another type needs
// is built right before the op that uses it, once per use (14 builds one,
// right after the value); an argument whose type changes one to one has
// no cast at all, its uses take the new argument. -convert-std-to-llvm
// then drops the casts. Checked against mlir-opt-13.

// CHECK-LABEL: func @groups(%arg0: index)
// CHECK-NEXT:    %[[C1:.*]] = constant 1 : index
// CHECK-NEXT:    %[[C4:.*]] = constant 4 : index
// CHECK-NEXT:    %[[N4:.*]] = unrealized_conversion_cast %[[C4]] : index to i64
// CHECK-NEXT:    %{{.*}} = call @mlirAsyncRuntimeCreateGroup(%[[N4]]) : (i64) -> !llvm.ptr<i8>
// CHECK-NEXT:    %[[A:.*]] = unrealized_conversion_cast %[[C1]] : index to i64
// CHECK-NEXT:    %[[G1:.*]] = call @mlirAsyncRuntimeCreateGroup(%[[A]]) : (i64) -> !llvm.ptr<i8>
// CHECK-NEXT:    %[[B:.*]] = unrealized_conversion_cast %[[C1]] : index to i64
// CHECK-NEXT:    %{{.*}} = call @mlirAsyncRuntimeCreateGroup(%[[B]]) : (i64) -> !llvm.ptr<i8>
// CHECK-NEXT:    call @mlirAsyncRuntimeAwaitAllInGroup(%[[G1]]) : (!llvm.ptr<i8>) -> ()
// CHECK-NEXT:    return

// STD-LABEL: llvm.func @groups(%arg0: i64)
// STD-NEXT:    %[[C1:.*]] = llvm.mlir.constant(1 : index) : i64
// STD-NEXT:    %[[C4:.*]] = llvm.mlir.constant(4 : index) : i64
// STD-NEXT:    %{{.*}} = llvm.call @mlirAsyncRuntimeCreateGroup(%[[C4]]) : (i64) -> !llvm.ptr<i8>
// STD-NEXT:    %[[G1:.*]] = llvm.call @mlirAsyncRuntimeCreateGroup(%[[C1]]) : (i64) -> !llvm.ptr<i8>
// STD-NEXT:    %{{.*}} = llvm.call @mlirAsyncRuntimeCreateGroup(%[[C1]]) : (i64) -> !llvm.ptr<i8>
// STD-NEXT:    llvm.call @mlirAsyncRuntimeAwaitAllInGroup(%[[G1]]) : (!llvm.ptr<i8>) -> ()
// STD-NEXT:    llvm.return
func @groups(%n: index) {
  %c1 = constant 1 : index
  %c4 = constant 4 : index
  %g0 = async.runtime.create_group %c4 : !async.group
  %g1 = async.runtime.create_group %c1 : !async.group
  %g2 = async.runtime.create_group %c1 : !async.group
  async.runtime.await %g1 : !async.group
  return
}

// CHECK-LABEL: func @await(%arg0: !llvm.ptr<i8>, %arg1: !llvm.ptr<i8>) -> f32
// CHECK-NEXT:    call @mlirAsyncRuntimeAwaitToken(%arg0) : (!llvm.ptr<i8>) -> ()
// CHECK-NEXT:    %[[S:.*]] = call @mlirAsyncRuntimeGetValueStorage(%arg1) : (!llvm.ptr<i8>) -> !llvm.ptr<i8>
// CHECK-NEXT:    %[[P:.*]] = llvm.bitcast %[[S]] : !llvm.ptr<i8> to !llvm.ptr<f32>
// CHECK-NEXT:    %[[X:.*]] = llvm.load %[[P]] : !llvm.ptr<f32>
// CHECK-NEXT:    %[[Y:.*]] = addf %[[X]], %[[X]] : f32
// CHECK-NEXT:    return %[[Y]] : f32
func @await(%t: !async.token, %v: !async.value<f32>) -> f32 {
  async.runtime.await %t : !async.token
  %x = async.runtime.load %v : !async.value<f32>
  %y = addf %x, %x : f32
  return %y : f32
}
