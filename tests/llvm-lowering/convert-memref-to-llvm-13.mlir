// RUN: mlir-async-opt %s -convert-memref-to-llvm | FileCheck %s

// LLVM 13's -convert-memref-to-llvm casts the memref and the index for
// each op that uses them, right before it; a std op with a folder is
// folded on the way (13's `and` of one value twice is that value), since
// only the LLVM dialect is legal. Checked against mlir-opt-13.

// CHECK-LABEL: func @buf(%arg0: memref<?xi32>, %arg1: index, %arg2: i32) -> i32
// CHECK-NEXT:    %[[D0:.*]] = unrealized_conversion_cast %arg0 : memref<?xi32> to !llvm.struct<(ptr<i32>, ptr<i32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:    %[[I0:.*]] = unrealized_conversion_cast %arg1 : index to i64
// CHECK:         %[[N:.*]] = llvm.load %{{.*}} : !llvm.ptr<i64>
// CHECK-NEXT:    %[[D1:.*]] = unrealized_conversion_cast %arg0 : memref<?xi32> to !llvm.struct<(ptr<i32>, ptr<i32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:    %[[B1:.*]] = llvm.extractvalue %[[D1]][1] : !llvm.struct<(ptr<i32>, ptr<i32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:    %[[P1:.*]] = llvm.getelementptr %[[B1]][%[[N]]] : (!llvm.ptr<i32>, i64) -> !llvm.ptr<i32>
// CHECK-NEXT:    llvm.store %arg2, %[[P1]] : !llvm.ptr<i32>
// CHECK-NEXT:    %[[D2:.*]] = unrealized_conversion_cast %arg0 : memref<?xi32> to !llvm.struct<(ptr<i32>, ptr<i32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:    %[[I2:.*]] = unrealized_conversion_cast %arg1 : index to i64
// CHECK-NEXT:    %[[B2:.*]] = llvm.extractvalue %[[D2]][1] : !llvm.struct<(ptr<i32>, ptr<i32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:    %[[P2:.*]] = llvm.getelementptr %[[B2]][%[[I2]]] : (!llvm.ptr<i32>, i64) -> !llvm.ptr<i32>
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[P2]] : !llvm.ptr<i32>
// CHECK-NEXT:    return %[[V]] : i32
func @buf(%m: memref<?xi32>, %i: index, %x: i32) -> i32 {
  %y = and %x, %x : i32
  %n = memref.dim %m, %i : memref<?xi32>
  memref.store %y, %m[%n] : memref<?xi32>
  %v = memref.load %m[%i] : memref<?xi32>
  return %v : i32
}
