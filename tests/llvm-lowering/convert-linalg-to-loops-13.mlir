// RUN: mlir-async-opt %s -convert-linalg-to-loops | FileCheck %s
// RUN: mlir-async-opt %s -convert-linalg-to-parallel-loops | FileCheck %s --check-prefix=PAR
// RUN: not mlir-async-opt %s -convert-linalg-to-llvm 2>&1 | FileCheck %s --check-prefix=LEFT

// LLVM 13's linalg lowerings on its std spellings: each structured op
// becomes a loop nest over its operands' sizes (constants for static
// ones, `memref.dim` for dynamic ones, the constants gathered at the top
// as 13's folder leaves them), a transposed map reads the transposed
// element. -convert-linalg-to-llvm alone lowers the body's yield but not
// the generic op, which then fails to verify, as upstream. Checked
// against mlir-opt-13.

// CHECK-LABEL: func @lin(
// CHECK-NEXT:    %[[ONE:.*]] = constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[C4:.*]] = constant 4 : index
// CHECK-NEXT:    %[[C8:.*]] = constant 8 : index
// CHECK-NEXT:    %[[C0:.*]] = constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = constant 1 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[C8]] step %[[C1]] {
// CHECK-NEXT:        memref.store %[[ONE]], %arg2[%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK:         %[[D0:.*]] = memref.dim %arg3, %[[C0]] : memref<?x?xf32>
// CHECK-NEXT:    %[[D1:.*]] = memref.dim %arg3, %[[C1]] : memref<?x?xf32>
// CHECK-NEXT:    scf.for %{{.*}} = %[[C0]] to %[[D0]] step %[[C1]] {
// CHECK-NEXT:      scf.for %{{.*}} = %[[C0]] to %[[D1]] step %[[C1]] {
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[C8]] step %[[C1]] {
// CHECK-NEXT:        %[[X:.*]] = memref.load %arg0[%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[Y:.*]] = memref.load %arg1[%[[J]], %[[I]]] : memref<8x4xf32>
// CHECK-NEXT:        %[[Z:.*]] = memref.load %arg2[%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[S:.*]] = addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        %[[M:.*]] = mulf %[[S]], %[[Z]] : f32
// CHECK-NEXT:        memref.store %[[M]], %arg2[%[[I]], %[[J]]] : memref<4x8xf32>

// PAR:         scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[C0:.*]], %[[C0]]) to (%[[C4:.*]], %[[C8:.*]]) step (%[[C1:.*]], %[[C1]]) {
// PAR-NEXT:      memref.store %{{.*}}, %arg2[%[[I]], %[[J]]] : memref<4x8xf32>
// PAR-NEXT:      scf.yield
// PAR:         scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[C0]], %[[C0]]) to (%[[C4]], %[[C8]]) step (%[[C1]], %[[C1]]) {
// PAR-NEXT:      %{{.*}} = memref.load %arg0[%[[I]], %[[J]]] : memref<4x8xf32>
// PAR-NEXT:      %{{.*}} = memref.load %arg1[%[[J]], %[[I]]] : memref<8x4xf32>

// LEFT: error: 'linalg.generic' op expects regions to end with 'linalg.yield', found 'llvm.return'

#map = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
func @lin(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x8xf32>, %d: memref<?x?xf32>) {
  %cst = constant 1.0 : f32
  linalg.fill(%cst, %c) : f32, memref<4x8xf32>
  linalg.fill(%cst, %d) : f32, memref<?x?xf32>
  linalg.generic {indexing_maps = [#map, #t, #map], iterator_types = ["parallel", "parallel"]}
    ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = addf %x, %y : f32
    %m = mulf %s, %z : f32
    linalg.yield %m : f32
  }
  return
}
