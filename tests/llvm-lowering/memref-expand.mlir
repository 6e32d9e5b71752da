// RUN: mlir-async-opt %s -memref-expand | FileCheck %s

// atomic_rmw maxf/minf become generic_atomic_rmw with a compare and a
// select (addf stays: LLVM has it); reshape by a shape of static length
// becomes reinterpret_cast: strides multiplied out from the innermost
// dimension, dynamic sizes loaded from the shape (and cast to index).
// Checked against mlir-opt-14 -memref-expand.

// CHECK: module {
// CHECK-NEXT:   func @f(%arg0: memref<10xf32>, %arg1: f32, %arg2: index, %arg3: memref<2xindex>, %arg4: memref<3xi32>, %arg5: memref<?xf32>) -> (f32, memref<4x?xf32>, memref<?x2x?xf32>) {
// CHECK-NEXT:     %0 = memref.generic_atomic_rmw %arg0[%arg2] : memref<10xf32> {
// CHECK-NEXT:     ^bb0(%arg6: f32):
// CHECK-NEXT:       %13 = arith.cmpf ogt, %arg6, %arg1 : f32
// CHECK-NEXT:       %14 = select %13, %arg6, %arg1 : f32
// CHECK-NEXT:       memref.atomic_yield %14 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     %1 = memref.atomic_rmw addf %arg1, %arg0[%arg2] : (f32, memref<10xf32>) -> f32
// CHECK-NEXT:     %2 = memref.generic_atomic_rmw %arg0[%arg2] : memref<10xf32> {
// CHECK-NEXT:     ^bb0(%arg6: f32):
// CHECK-NEXT:       %13 = arith.cmpf olt, %arg6, %arg1 : f32
// CHECK-NEXT:       %14 = select %13, %arg6, %arg1 : f32
// CHECK-NEXT:       memref.atomic_yield %14 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c1_0 = arith.constant 1 : index
// CHECK-NEXT:     %3 = memref.load %arg3[%c1_0] : memref<2xindex>
// CHECK-NEXT:     %4 = arith.muli %c1, %3 : index
// CHECK-NEXT:     %c4 = arith.constant 4 : index
// CHECK-NEXT:     %5 = memref.reinterpret_cast %arg5 to offset: [0], sizes: [4, %3], strides: [%4, %c1] : memref<?xf32> to memref<4x?xf32>
// CHECK-NEXT:     %c1_1 = arith.constant 1 : index
// CHECK-NEXT:     %c2 = arith.constant 2 : index
// CHECK-NEXT:     %6 = memref.load %arg4[%c2] : memref<3xi32>
// CHECK-NEXT:     %7 = arith.index_cast %6 : i32 to index
// CHECK-NEXT:     %8 = arith.muli %c1_1, %7 : index
// CHECK-NEXT:     %c2_2 = arith.constant 2 : index
// CHECK-NEXT:     %9 = arith.muli %8, %c2_2 : index
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %10 = memref.load %arg4[%c0] : memref<3xi32>
// CHECK-NEXT:     %11 = arith.index_cast %10 : i32 to index
// CHECK-NEXT:     %12 = memref.reinterpret_cast %arg5 to offset: [0], sizes: [%11, 2, %7], strides: [%9, %8, %c1_1] : memref<?xf32> to memref<?x2x?xf32>
// CHECK-NEXT:     return %0, %5, %12 : f32, memref<4x?xf32>, memref<?x2x?xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

func @f(%m: memref<10xf32>, %v: f32, %i: index, %s: memref<2xindex>, %s2: memref<3xi32>, %src: memref<?xf32>) -> (f32, memref<4x?xf32>, memref<?x2x?xf32>) {
  %x = memref.atomic_rmw maxf %v, %m[%i] : (f32, memref<10xf32>) -> f32
  %y = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<10xf32>) -> f32
  %z = memref.atomic_rmw minf %v, %m[%i] : (f32, memref<10xf32>) -> f32
  %r = memref.reshape %src(%s) : (memref<?xf32>, memref<2xindex>) -> memref<4x?xf32>
  %r2 = memref.reshape %src(%s2) : (memref<?xf32>, memref<3xi32>) -> memref<?x2x?xf32>
  return %x, %r, %r2 : f32, memref<4x?xf32>, memref<?x2x?xf32>
}
