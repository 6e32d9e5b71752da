// RUN: mlir-async-opt %s -convert-linalg-to-loops | FileCheck %s
// RUN: mlir-async-opt %s -convert-linalg-to-parallel-loops | FileCheck %s --check-prefix=PAR

// linalg.generic and linalg.fill become loop nests over the operands'
// sizes (memref.dim, constants for static sizes) whose body loads the
// operands, runs the region and stores what it yields; the dead load of
// the output and the unused sizes go. The rewrite is greedy and visits
// ops bottom-up (MLIR's default), so in @ba the second fill is lowered
// first and the constants its loops need come first. Checked against
// mlir-opt-14 -convert-linalg-to-loops and -convert-linalg-to-parallel-loops.

// CHECK: module {
// CHECK-NEXT:   func @g(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %0 = memref.dim %arg0, %c0 : memref<?x?xf32>
// CHECK-NEXT:     %1 = memref.dim %arg0, %c1 : memref<?x?xf32>
// CHECK-NEXT:     scf.for %arg3 = %c0 to %0 step %c1 {
// CHECK-NEXT:       scf.for %arg4 = %c0 to %1 step %c1 {
// CHECK-NEXT:         %2 = memref.load %arg0[%arg3, %arg4] : memref<?x?xf32>
// CHECK-NEXT:         %3 = memref.load %arg1[%arg3, %arg4] : memref<?x?xf32>
// CHECK-NEXT:         %4 = arith.addf %2, %3 : f32
// CHECK-NEXT:         memref.store %4, %arg2[%arg3, %arg4] : memref<?x?xf32>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func @f(%arg0: memref<4xf32>, %arg1: memref<?x3xi32>, %arg2: f32, %arg3: i32) {
// CHECK-NEXT:     %c4 = arith.constant 4 : index
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c3 = arith.constant 3 : index
// CHECK-NEXT:     scf.for %arg4 = %c0 to %c4 step %c1 {
// CHECK-NEXT:       memref.store %arg2, %arg0[%arg4] : memref<4xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %0 = memref.dim %arg1, %c0 : memref<?x3xi32>
// CHECK-NEXT:     scf.for %arg4 = %c0 to %0 step %c1 {
// CHECK-NEXT:       scf.for %arg5 = %c0 to %c3 step %c1 {
// CHECK-NEXT:         memref.store %arg3, %arg1[%arg4, %arg5] : memref<?x3xi32>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func @ab(%arg0: memref<4xf32>, %arg1: f32, %arg2: memref<?x3xi32>, %arg3: i32) {
// CHECK-NEXT:     %c4 = arith.constant 4 : index
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c3 = arith.constant 3 : index
// CHECK-NEXT:     scf.for %arg4 = %c0 to %c4 step %c1 {
// CHECK-NEXT:       memref.store %arg1, %arg0[%arg4] : memref<4xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %0 = memref.dim %arg2, %c0 : memref<?x3xi32>
// CHECK-NEXT:     scf.for %arg4 = %c0 to %0 step %c1 {
// CHECK-NEXT:       scf.for %arg5 = %c0 to %c3 step %c1 {
// CHECK-NEXT:         memref.store %arg3, %arg2[%arg4, %arg5] : memref<?x3xi32>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func @ba(%arg0: memref<4xf32>, %arg1: f32, %arg2: memref<?x3xi32>, %arg3: i32) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c3 = arith.constant 3 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c4 = arith.constant 4 : index
// CHECK-NEXT:     %0 = memref.dim %arg2, %c0 : memref<?x3xi32>
// CHECK-NEXT:     scf.for %arg4 = %c0 to %0 step %c1 {
// CHECK-NEXT:       scf.for %arg5 = %c0 to %c3 step %c1 {
// CHECK-NEXT:         memref.store %arg3, %arg2[%arg4, %arg5] : memref<?x3xi32>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.for %arg4 = %c0 to %c4 step %c1 {
// CHECK-NEXT:       memref.store %arg1, %arg0[%arg4] : memref<4xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func @aa(%arg0: memref<4xf32>, %arg1: f32, %arg2: memref<6xf32>) {
// CHECK-NEXT:     %c4 = arith.constant 4 : index
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c6 = arith.constant 6 : index
// CHECK-NEXT:     scf.for %arg3 = %c0 to %c4 step %c1 {
// CHECK-NEXT:       memref.store %arg1, %arg0[%arg3] : memref<4xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.for %arg3 = %c0 to %c6 step %c1 {
// CHECK-NEXT:       memref.store %arg1, %arg2[%arg3] : memref<6xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// PAR:     scf.parallel (%arg3, %arg4) = (%c0, %c0) to (%0, %1) step (%c1, %c1) {
// PAR:       scf.yield
// PAR:     scf.parallel (%arg4) = (%c0) to (%c4) step (%c1) {
// PAR:       scf.yield
// PAR:     scf.parallel (%arg4, %arg5) = (%c0, %c0) to (%0, %c3) step (%c1, %c1) {
// PAR:       scf.yield
// PAR:     scf.parallel (%arg4) = (%c0) to (%c4) step (%c1) {
// PAR:       scf.yield
// PAR:     scf.parallel (%arg4, %arg5) = (%c0, %c0) to (%0, %c3) step (%c1, %c1) {
// PAR:       scf.yield
// PAR:     scf.parallel (%arg4, %arg5) = (%c0, %c0) to (%0, %c3) step (%c1, %c1) {
// PAR:       scf.yield
// PAR:     scf.parallel (%arg4) = (%c0) to (%c4) step (%c1) {
// PAR:       scf.yield
// PAR:     scf.parallel (%arg3) = (%c0) to (%c4) step (%c1) {
// PAR:       scf.yield
// PAR:     scf.parallel (%arg3) = (%c0) to (%c6) step (%c1) {
// PAR:       scf.yield

#map0 = affine_map<(d0, d1) -> (d0, d1)>
func @g(%lhs: memref<?x?xf32>, %rhs: memref<?x?xf32>, %sum: memref<?x?xf32>) {
  linalg.generic { indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel"] }
    ins(%lhs, %rhs : memref<?x?xf32>, memref<?x?xf32>) outs(%sum : memref<?x?xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %0 = arith.addf %a, %b : f32
      linalg.yield %0 : f32
  }
  return
}
func @f(%A: memref<4xf32>, %B: memref<?x3xi32>, %x: f32, %y: i32) {
  linalg.fill(%x, %A) : f32, memref<4xf32>
  linalg.fill(%y, %B) : i32, memref<?x3xi32>
  return
}
func @ab(%A: memref<4xf32>, %x: f32, %B: memref<?x3xi32>, %y: i32) {
  linalg.fill(%x, %A) : f32, memref<4xf32>
  linalg.fill(%y, %B) : i32, memref<?x3xi32>
  return
}
func @ba(%A: memref<4xf32>, %x: f32, %B: memref<?x3xi32>, %y: i32) {
  linalg.fill(%y, %B) : i32, memref<?x3xi32>
  linalg.fill(%x, %A) : f32, memref<4xf32>
  return
}
func @aa(%A: memref<4xf32>, %x: f32, %B: memref<6xf32>) {
  linalg.fill(%x, %A) : f32, memref<4xf32>
  linalg.fill(%x, %B) : f32, memref<6xf32>
  return
}
