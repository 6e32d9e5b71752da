// memref's declared formats put the attribute dictionary where ODS
// does: before the operands of `memref.dim` and `memref.alloca_scope.return`,
// after the type of `memref.get_global`. Types the format leaves out
// come from the declaration (`index` operands, the element type of a
// load). mlir-opt-14 prints the same (checked with FileCheck-14).
// RUN: mlir-opt %s | FileCheck %s

memref.global "private" constant @g : memref<2xi32> = dense<[3, 4]>

// CHECK-LABEL: func @f
func @f(%m: memref<?xf32>, %i: index) -> f32 {
  // CHECK: memref.dim {a} %{{.*}}, %{{.*}} : memref<?xf32>
  %0 = memref.dim {a} %m, %i : memref<?xf32>
  // CHECK: memref.get_global @g : memref<2xi32> {b}
  %1 = memref.get_global @g : memref<2xi32> {b}
  // CHECK: memref.alloc(%{{.*}})[%{{.*}}] {c} : memref<?xf32, #map>
  %2 = memref.alloc(%0)[%i] {c} : memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  // CHECK: memref.load %{{.*}}[%{{.*}}] {d} : memref<?xf32>
  %3 = memref.load %m[%i] {d} : memref<?xf32>
  // CHECK: memref.alloca_scope.return {e} %{{.*}} : f32
  %4 = memref.alloca_scope -> (f32) {
    memref.alloca_scope.return {e} %3 : f32
  }
  // CHECK: memref.subview %{{.*}}[%{{.*}}] [4] [1] {f} : memref<?xf32> to memref<4xf32, #map{{.*}}>
  %5 = memref.subview %m[%i] [4] [1] {f} : memref<?xf32> to memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  return %4 : f32
}
