// `splat` (a `std` op until 15) and `memref.tensor_store` in the 14
// syntax; expected lines are mlir-opt-14's output.
// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GEN
// RUN: mlir-opt %s -mlir-print-op-generic | mlir-opt | FileCheck %s

// CHECK-LABEL: func @ops(%arg0: memref<10xf32>, %arg1: memref<*xf32>, %arg2: tensor<10xf32>, %arg3: tensor<*xf32>, %arg4: f32, %arg5: i32) {
// CHECK-NEXT:    %0 = splat %arg4 : vector<4xf32>
// CHECK-NEXT:    %1 = splat %arg5 : tensor<2x3xi32>
// CHECK-NEXT:    memref.tensor_store %arg2, %arg0 : memref<10xf32>
// CHECK-NEXT:    memref.tensor_store %arg3, %arg1 : memref<*xf32>
// CHECK-NEXT:    return
// GEN:      %0 = "std.splat"(%arg4) : (f32) -> vector<4xf32>
// GEN-NEXT: %1 = "std.splat"(%arg5) : (i32) -> tensor<2x3xi32>
// GEN-NEXT: "memref.tensor_store"(%arg2, %arg0) : (tensor<10xf32>, memref<10xf32>) -> ()
// GEN-NEXT: "memref.tensor_store"(%arg3, %arg1) : (tensor<*xf32>, memref<*xf32>) -> ()
func @ops(%m: memref<10xf32>, %u: memref<*xf32>, %t: tensor<10xf32>, %ut: tensor<*xf32>, %v: f32, %i: i32) {
  %s = splat %v : vector<4xf32>
  %s2 = splat %i : tensor<2x3xi32>
  memref.tensor_store %t, %m : memref<10xf32>
  memref.tensor_store %ut, %u : memref<*xf32>
  return
}
