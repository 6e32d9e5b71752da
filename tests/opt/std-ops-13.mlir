// The ops mlir-opt-13 registers that were missing here: the float ops of
// `std` (14 moved them to `math`), `rank` and `splat`, the atomic ops
// (in `std` until 14 moved them to `memref`; 13 prints
// `std.generic_atomic_rmw` with its prefix), and `memref`'s
// bufferization casts of 13. Expected lines are mlir-opt-13's output.
// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GEN
// RUN: mlir-opt %s -mlir-print-op-generic | mlir-opt | FileCheck %s

// CHECK-LABEL: func @ops(%arg0: memref<10xf32>, %arg1: memref<*xf32>, %arg2: tensor<10xf32>, %arg3: tensor<*xf32>, %arg4: f32, %arg5: index, %arg6: vector<4xf32>) {
// CHECK-NEXT:    %0 = absf %arg4 : f32
// CHECK-NEXT:    %1 = ceilf %arg4 : f32
// CHECK-NEXT:    %2 = floorf %arg4 : f32
// CHECK-NEXT:    %3 = copysign %arg4, %arg4 : f32
// CHECK-NEXT:    %4 = fmaf %arg4, %arg4, %arg4 : f32
// CHECK-NEXT:    %5 = absf %arg6 : vector<4xf32>
// CHECK-NEXT:    %6 = atomic_rmw addf %arg4, %arg0[%arg5] : (f32, memref<10xf32>) -> f32
// CHECK-NEXT:    %7 = std.generic_atomic_rmw %arg0[%arg5] : memref<10xf32> {
// CHECK-NEXT:    ^bb0(%arg7: f32):  // no predecessors
// CHECK-NEXT:      atomic_yield %arg7 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %8 = rank %arg1 : memref<*xf32>
// CHECK-NEXT:    %9 = rank %arg3 : tensor<*xf32>
// CHECK-NEXT:    %10 = splat %arg4 : vector<4xf32>
// CHECK-NEXT:    %11 = splat %arg4 : tensor<4xf32>
// CHECK-NEXT:    %12 = memref.buffer_cast %arg2 : memref<10xf32>
// CHECK-NEXT:    %13 = memref.tensor_load %arg0 : memref<10xf32>
// CHECK-NEXT:    %14 = memref.clone %arg0 : memref<10xf32> to memref<10xf32>
// CHECK-NEXT:    memref.tensor_store %arg2, %arg0 : memref<10xf32>
// CHECK-NEXT:    return

// GEN:      %0 = "std.absf"(%arg4) : (f32) -> f32
// GEN-NEXT: %1 = "std.ceilf"(%arg4) : (f32) -> f32
// GEN-NEXT: %2 = "std.floorf"(%arg4) : (f32) -> f32
// GEN-NEXT: %3 = "std.copysign"(%arg4, %arg4) : (f32, f32) -> f32
// GEN-NEXT: %4 = "std.fmaf"(%arg4, %arg4, %arg4) : (f32, f32, f32) -> f32
// GEN-NEXT: %5 = "std.absf"(%arg6) : (vector<4xf32>) -> vector<4xf32>
// GEN-NEXT: %6 = "std.atomic_rmw"(%arg4, %arg0, %arg5) {kind = 0 : i64} : (f32, memref<10xf32>, index) -> f32
// GEN-NEXT: %7 = "std.generic_atomic_rmw"(%arg0, %arg5) ( {
// GEN:        "std.atomic_yield"(%arg7) : (f32) -> ()
// GEN:      %8 = "std.rank"(%arg1) : (memref<*xf32>) -> index
// GEN-NEXT: %9 = "std.rank"(%arg3) : (tensor<*xf32>) -> index
// GEN-NEXT: %10 = "std.splat"(%arg4) : (f32) -> vector<4xf32>
// GEN-NEXT: %11 = "std.splat"(%arg4) : (f32) -> tensor<4xf32>
// GEN-NEXT: %12 = "memref.buffer_cast"(%arg2) : (tensor<10xf32>) -> memref<10xf32>
// GEN-NEXT: %13 = "memref.tensor_load"(%arg0) : (memref<10xf32>) -> tensor<10xf32>
// GEN-NEXT: %14 = "memref.clone"(%arg0) : (memref<10xf32>) -> memref<10xf32>
// GEN-NEXT: "memref.tensor_store"(%arg2, %arg0) : (tensor<10xf32>, memref<10xf32>) -> ()
func @ops(%m: memref<10xf32>, %u: memref<*xf32>, %t: tensor<10xf32>, %ut: tensor<*xf32>, %v: f32, %i: index, %w: vector<4xf32>) {
  %a = absf %v : f32
  %b = ceilf %v : f32
  %c = floorf %v : f32
  %d = copysign %v, %v : f32
  %e = fmaf %v, %v, %v : f32
  %aw = absf %w : vector<4xf32>
  %x = atomic_rmw "addf" %v, %m[%i] : (f32, memref<10xf32>) -> f32
  %y = generic_atomic_rmw %m[%i] : memref<10xf32> {
  ^bb0(%cur: f32):
    atomic_yield %cur : f32
  }
  %r = rank %u : memref<*xf32>
  %r2 = rank %ut : tensor<*xf32>
  %s = splat %v : vector<4xf32>
  %s2 = splat %v : tensor<4xf32>
  %bc = memref.buffer_cast %t : memref<10xf32>
  %tl = memref.tensor_load %m : memref<10xf32>
  %cl = memref.clone %m : memref<10xf32> to memref<10xf32>
  memref.tensor_store %t, %m : memref<10xf32>
  return
}
