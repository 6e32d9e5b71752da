// More memref ops (and arith.ceildivui) of 14 and 15 read and print as
// mlir-opt-15 prints them; the CHECK lines are its output on this file.
// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s -mlir-print-op-generic | mlir-opt | FileCheck %s

// CHECK: module {
// CHECK-NEXT:   memref.global "private" constant @c : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK-NEXT:   memref.global @x : memref<2xf32> = uninitialized
// CHECK-NEXT:   memref.global "private" @y : memref<4xi32>
// CHECK-NEXT:   memref.global @z : memref<f32> = dense<1.000000e+00> {alignment = 64 : i64}
// CHECK-NEXT:   func.func @f(%arg0: memref<10xf32>, %arg1: memref<*xf32>, %arg2: index, %arg3: i32, %arg4: i32) -> (f32, index, i32) {
// CHECK-NEXT:     %0 = memref.get_global @c : memref<2xf32>
// CHECK-NEXT:     %1 = memref.alloc() : memref<10xf32>
// CHECK-NEXT:     memref.copy %arg0, %1 : memref<10xf32> to memref<10xf32>
// CHECK-NEXT:     %2 = memref.rank %arg1 : memref<*xf32>
// CHECK-NEXT:     memref.assume_alignment %arg0, 16 : memref<10xf32>
// CHECK-NEXT:     memref.alloca_scope  {
// CHECK-NEXT:       %6 = memref.alloca() : memref<4xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %3 = memref.alloca_scope  -> (f32) {
// CHECK-NEXT:       %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:       memref.alloca_scope.return %cst : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     %4 = memref.generic_atomic_rmw %arg0[%arg2] : memref<10xf32> {
// CHECK-NEXT:     ^bb0(%arg5: f32):
// CHECK-NEXT:       %6 = arith.addf %arg5, %3 : f32
// CHECK-NEXT:       memref.atomic_yield %6 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     %5 = arith.ceildivui %arg3, %arg4 : i32
// CHECK-NEXT:     return %4, %2, %5 : f32, index, i32
// CHECK-NEXT:   }
// CHECK-NEXT: }

memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
memref.global @x : memref<2xf32> = uninitialized
memref.global "private" @y : memref<4xi32>
memref.global @z : memref<f32> = dense<1.0> {alignment = 64 : i64}
func.func @f(%m: memref<10xf32>, %u: memref<*xf32>, %i: index, %a: i32, %b: i32) -> (f32, index, i32) {
  %g = memref.get_global @c : memref<2xf32>
  %n = memref.alloc() : memref<10xf32>
  memref.copy %m, %n : memref<10xf32> to memref<10xf32>
  %r = memref.rank %u : memref<*xf32>
  memref.assume_alignment %m, 16 : memref<10xf32>
  memref.alloca_scope {
    %t = memref.alloca() : memref<4xf32>
  }
  %s = memref.alloca_scope -> (f32) {
    %c = arith.constant 1.0 : f32
    memref.alloca_scope.return %c : f32
  }
  %x = memref.generic_atomic_rmw %m[%i] : memref<10xf32> {
  ^bb0(%cur: f32):
    %inc = arith.addf %cur, %s : f32
    memref.atomic_yield %inc : f32
  }
  %d = arith.ceildivui %a, %b : i32
  return %x, %r, %d : f32, index, i32
}
