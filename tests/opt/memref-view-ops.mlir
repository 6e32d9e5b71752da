// memref.subview, expand_shape, collapse_shape, reinterpret_cast, reshape,
// view, transpose, prefetch, dma_start and dma_wait read, print and print
// generically as mlir-opt-15 does (the expected lines are its output on
// this file; the 14 spellings were diffed against mlir-opt-14 by hand).
// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GEN
// RUN: mlir-opt %s -mlir-print-op-generic | mlir-opt | FileCheck %s

// CHECK: #map0 = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 * 64 + s0 + d1 * s1 + d2 * s2)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1) -> (d0 * 4 + d1 + 75)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1)[s0] -> (d0 * 4 + s0 + d1)>
// CHECK-NEXT: #map3 = affine_map<(d0)[s0, s1] -> (d0 * s1 + s0)>
// CHECK-NEXT: #map4 = affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @views(%arg0: memref<8x16x4xf32>, %arg1: index, %arg2: index, %arg3: index, %arg4: memref<1x1xf32>, %arg5: memref<?x?xf32>, %arg6: memref<?x4xf32>, %arg7: memref<*xf32>) {
// CHECK-NEXT:     %0 = memref.subview %arg0[0, 0, 0] [8, 16, 4] [1, 1, 1] : memref<8x16x4xf32> to memref<8x16x4xf32>
// CHECK-NEXT:     %1 = memref.subview %arg0[%arg1, %arg2, 0] [%arg3, 4, 2] [1, %arg1, 1] : memref<8x16x4xf32> to memref<?x4x2xf32, #map0>
// CHECK-NEXT:     %2 = memref.subview %arg0[1, 2, 3] [1, 4, 2] [1, 1, 1] {foo} : memref<8x16x4xf32> to memref<4x2xf32, #map1>
// CHECK-NEXT:     %3 = memref.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : memref<8x16x4xf32> into memref<128x4xf32>
// CHECK-NEXT:     %4 = memref.expand_shape %3 {{\[\[}}0, 1], [2]] {foo = 1 : i32} : memref<128x4xf32> into memref<8x16x4xf32>
// CHECK-NEXT:     %5 = memref.collapse_shape %arg5 {{\[\[}}0, 1]] : memref<?x?xf32> into memref<?xf32>
// CHECK-NEXT:     %6 = memref.expand_shape %arg6 {{\[\[}}0, 1], [2]] : memref<?x4xf32> into memref<?x2x4xf32>
// CHECK-NEXT:     %7 = memref.collapse_shape %arg4 [] : memref<1x1xf32> into memref<f32>
// CHECK-NEXT:     %8 = memref.expand_shape %7 [] : memref<f32> into memref<1x1xf32>
// CHECK-NEXT:     %9 = memref.reinterpret_cast %arg0 to offset: [0], sizes: [128, 4], strides: [4, 1] : memref<8x16x4xf32> to memref<128x4xf32>
// CHECK-NEXT:     %10 = memref.reinterpret_cast %arg0 to offset: [%arg1], sizes: [%arg2, 4], strides: [4, 1] {bar} : memref<8x16x4xf32> to memref<?x4xf32, #map2>
// CHECK-NEXT:     %11 = memref.reinterpret_cast %arg7 to offset: [%arg1], sizes: [10], strides: [%arg2] : memref<*xf32> to memref<10xf32, #map3>
// CHECK-NEXT:     %12 = memref.reinterpret_cast %arg7 to offset: [0], sizes: [], strides: [] : memref<*xf32> to memref<f32>
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @more(%arg0: memref<4x1xf32>, %arg1: memref<1xi32>, %arg2: memref<?xindex>, %arg3: memref<2048xi8>, %arg4: index, %arg5: index, %arg6: memref<?x?xf32>, %arg7: memref<?x?xf32, #map4>, %arg8: memref<400x400xi32>) {
// CHECK-NEXT:     %0 = memref.reshape %arg0(%arg1) : (memref<4x1xf32>, memref<1xi32>) -> memref<4xf32>
// CHECK-NEXT:     %1 = memref.reshape %arg0(%arg2) {foo} : (memref<4x1xf32>, memref<?xindex>) -> memref<*xf32>
// CHECK-NEXT:     %2 = memref.view %arg3[%arg4][] : memref<2048xi8> to memref<64x4xf32>
// CHECK-NEXT:     %3 = memref.view %arg3[%arg4][%arg5, %arg4] {bar} : memref<2048xi8> to memref<?x4x?xf32>
// CHECK-NEXT:     %4 = memref.transpose %arg6 (d0, d1) -> (d1, d0) : memref<?x?xf32> to memref<?x?xf32, #map4>
// CHECK-NEXT:     memref.prefetch %arg8[%arg4, %arg5], read, locality<3>, data : memref<400x400xi32>
// CHECK-NEXT:     memref.prefetch %arg8[%arg4, %arg5], write, locality<0>, instr : memref<400x400xi32>
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @dma(%arg0: memref<256xf32>, %arg1: memref<256xf32, 1>, %arg2: memref<1xi32>, %arg3: memref<i32>, %arg4: index, %arg5: index, %arg6: memref<40x128xf32>) {
// CHECK-NEXT:     memref.dma_start %arg0[%arg4], %arg1[%arg4], %arg5, %arg2[%arg4] : memref<256xf32>, memref<256xf32, 1>, memref<1xi32>
// CHECK-NEXT:     memref.dma_wait %arg2[%arg4], %arg5 : memref<1xi32>
// CHECK-NEXT:     memref.dma_start %arg6[%arg4, %arg4], %arg1[%arg5], %arg5, %arg3[], %arg4, %arg5 : memref<40x128xf32>, memref<256xf32, 1>, memref<i32>
// CHECK-NEXT:     memref.dma_wait %arg3[], %arg5 {bar = 2 : i64} : memref<i32>
// CHECK-NEXT:     memref.dma_start %arg0[%arg4], %arg1[%arg4], %arg5, %arg2[%arg4] {foo} : memref<256xf32>, memref<256xf32, 1>, memref<1xi32>
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GEN: #map0 = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 * 64 + s0 + d1 * s1 + d2 * s2)>
// GEN-NEXT: #map1 = affine_map<(d0, d1) -> (d0 * 4 + d1 + 75)>
// GEN-NEXT: #map2 = affine_map<(d0, d1)[s0] -> (d0 * 4 + s0 + d1)>
// GEN-NEXT: #map3 = affine_map<(d0)[s0, s1] -> (d0 * s1 + s0)>
// GEN-NEXT: #map4 = affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>
// GEN-NEXT: #map5 = affine_map<(d0, d1) -> (d1, d0)>
// GEN:     %0 = "memref.subview"(%arg0) {operand_segment_sizes = dense<[1, 0, 0, 0]> : vector<4xi32>, static_offsets = [0, 0, 0], static_sizes = [8, 16, 4], static_strides = [1, 1, 1]} : (memref<8x16x4xf32>) -> memref<8x16x4xf32>
// GEN:     %1 = "memref.subview"(%arg0, %arg1, %arg2, %arg3, %arg1) {operand_segment_sizes = dense<[1, 2, 1, 1]> : vector<4xi32>, static_offsets = [-9223372036854775808, -9223372036854775808, 0], static_sizes = [-1, 4, 2], static_strides = [1, -9223372036854775808, 1]} : (memref<8x16x4xf32>, index, index, index, index) -> memref<?x4x2xf32, #map0>
// GEN:     %2 = "memref.subview"(%arg0) {foo, operand_segment_sizes = dense<[1, 0, 0, 0]> : vector<4xi32>, static_offsets = [1, 2, 3], static_sizes = [1, 4, 2], static_strides = [1, 1, 1]} : (memref<8x16x4xf32>) -> memref<4x2xf32, #map1>
// GEN:     %3 = "memref.collapse_shape"(%arg0) {reassociation = {{\[\[}}0, 1], [2]]} : (memref<8x16x4xf32>) -> memref<128x4xf32>
// GEN:     %4 = "memref.expand_shape"(%3) {foo = 1 : i32, reassociation = {{\[\[}}0, 1], [2]]} : (memref<128x4xf32>) -> memref<8x16x4xf32>
// GEN:     %5 = "memref.collapse_shape"(%arg5) {reassociation = {{\[\[}}0, 1]]} : (memref<?x?xf32>) -> memref<?xf32>
// GEN:     %6 = "memref.expand_shape"(%arg6) {reassociation = {{\[\[}}0, 1], [2]]} : (memref<?x4xf32>) -> memref<?x2x4xf32>
// GEN:     %7 = "memref.collapse_shape"(%arg4) {reassociation = []} : (memref<1x1xf32>) -> memref<f32>
// GEN:     %8 = "memref.expand_shape"(%7) {reassociation = []} : (memref<f32>) -> memref<1x1xf32>
// GEN:     %9 = "memref.reinterpret_cast"(%arg0) {operand_segment_sizes = dense<[1, 0, 0, 0]> : vector<4xi32>, static_offsets = [0], static_sizes = [128, 4], static_strides = [4, 1]} : (memref<8x16x4xf32>) -> memref<128x4xf32>
// GEN:     %10 = "memref.reinterpret_cast"(%arg0, %arg1, %arg2) {bar, operand_segment_sizes = dense<[1, 1, 1, 0]> : vector<4xi32>, static_offsets = [-9223372036854775808], static_sizes = [-1, 4], static_strides = [4, 1]} : (memref<8x16x4xf32>, index, index) -> memref<?x4xf32, #map2>
// GEN:     %11 = "memref.reinterpret_cast"(%arg7, %arg1, %arg2) {operand_segment_sizes = dense<[1, 1, 0, 1]> : vector<4xi32>, static_offsets = [-9223372036854775808], static_sizes = [10], static_strides = [-9223372036854775808]} : (memref<*xf32>, index, index) -> memref<10xf32, #map3>
// GEN:     %12 = "memref.reinterpret_cast"(%arg7) {operand_segment_sizes = dense<[1, 0, 0, 0]> : vector<4xi32>, static_offsets = [0], static_sizes = [], static_strides = []} : (memref<*xf32>) -> memref<f32>
// GEN:     %0 = "memref.reshape"(%arg0, %arg1) : (memref<4x1xf32>, memref<1xi32>) -> memref<4xf32>
// GEN:     %1 = "memref.reshape"(%arg0, %arg2) {foo} : (memref<4x1xf32>, memref<?xindex>) -> memref<*xf32>
// GEN:     %2 = "memref.view"(%arg3, %arg4) : (memref<2048xi8>, index) -> memref<64x4xf32>
// GEN:     %3 = "memref.view"(%arg3, %arg4, %arg5, %arg4) {bar} : (memref<2048xi8>, index, index, index) -> memref<?x4x?xf32>
// GEN:     %4 = "memref.transpose"(%arg6) {permutation = #map5} : (memref<?x?xf32>) -> memref<?x?xf32, #map4>
// GEN:     "memref.prefetch"(%arg8, %arg4, %arg5) {isDataCache = true, isWrite = false, localityHint = 3 : i32} : (memref<400x400xi32>, index, index) -> ()
// GEN:     "memref.prefetch"(%arg8, %arg4, %arg5) {isDataCache = false, isWrite = true, localityHint = 0 : i32} : (memref<400x400xi32>, index, index) -> ()
// GEN:     "memref.dma_start"(%arg0, %arg4, %arg1, %arg4, %arg5, %arg2, %arg4) : (memref<256xf32>, index, memref<256xf32, 1>, index, index, memref<1xi32>, index) -> ()
// GEN:     "memref.dma_wait"(%arg2, %arg4, %arg5) : (memref<1xi32>, index, index) -> ()
// GEN:     "memref.dma_start"(%arg6, %arg4, %arg4, %arg1, %arg5, %arg5, %arg3, %arg4, %arg5) : (memref<40x128xf32>, index, index, memref<256xf32, 1>, index, index, memref<i32>, index, index) -> ()
// GEN:     "memref.dma_wait"(%arg3, %arg5) {bar = 2 : i64} : (memref<i32>, index) -> ()
// GEN:     "memref.dma_start"(%arg0, %arg4, %arg1, %arg4, %arg5, %arg2, %arg4) {foo} : (memref<256xf32>, index, memref<256xf32, 1>, index, index, memref<1xi32>, index) -> ()

func.func @views(%m: memref<8x16x4xf32>, %i: index, %j: index, %k: index, %o: memref<1x1xf32>, %d: memref<?x?xf32>, %e: memref<?x4xf32>, %u: memref<*xf32>) {
  %0 = memref.subview %m[0, 0, 0] [8, 16, 4] [1, 1, 1] : memref<8x16x4xf32> to memref<8x16x4xf32>
  %1 = memref.subview %m[%i, %j, 0] [%k, 4, 2] [1, %i, 1] : memref<8x16x4xf32> to memref<?x4x2xf32, affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 * 64 + s0 + d1 * s1 + d2 * s2)>>
  %2 = memref.subview %m[1, 2, 3] [1, 4, 2] [1, 1, 1] {foo} : memref<8x16x4xf32> to memref<4x2xf32, affine_map<(d0, d1) -> (d0 * 4 + d1 + 75)>>
  %3 = memref.collapse_shape %m [[0, 1], [2]] : memref<8x16x4xf32> into memref<128x4xf32>
  %4 = memref.expand_shape %3 [[0, 1], [2]] {foo = 1 : i32} : memref<128x4xf32> into memref<8x16x4xf32>
  %5 = memref.collapse_shape %d [[0, 1]] : memref<?x?xf32> into memref<?xf32>
  %6 = memref.expand_shape %e [[0, 1], [2]] : memref<?x4xf32> into memref<?x2x4xf32>
  %7 = memref.collapse_shape %o [] : memref<1x1xf32> into memref<f32>
  %8 = memref.expand_shape %7 [] : memref<f32> into memref<1x1xf32>
  %9 = memref.reinterpret_cast %m to offset: [0], sizes: [128, 4], strides: [4, 1] : memref<8x16x4xf32> to memref<128x4xf32>
  %10 = memref.reinterpret_cast %m to offset: [%i], sizes: [%j, 4], strides: [4, 1] {bar} : memref<8x16x4xf32> to memref<?x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + s0 + d1)>>
  %11 = memref.reinterpret_cast %u to offset: [%i], sizes: [10], strides: [%j] : memref<*xf32> to memref<10xf32, affine_map<(d0)[s0, s1] -> (d0 * s1 + s0)>>
  %12 = memref.reinterpret_cast %u to offset: [0], sizes: [], strides: [] : memref<*xf32> to memref<f32>
  return
}
// The transposed type is an argument's too, so that its map is met before
// the permutation's in both forms.
func.func @more(%m: memref<4x1xf32>, %s: memref<1xi32>, %x: memref<?xindex>, %b: memref<2048xi8>, %i: index, %j: index, %d: memref<?x?xf32>, %t: memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>>, %p: memref<400x400xi32>) {
  %0 = memref.reshape %m(%s) : (memref<4x1xf32>, memref<1xi32>) -> memref<4xf32>
  %1 = memref.reshape %m(%x) {foo} : (memref<4x1xf32>, memref<?xindex>) -> memref<*xf32>
  %2 = memref.view %b[%i][] : memref<2048xi8> to memref<64x4xf32>
  %3 = memref.view %b[%i][%j, %i] {bar} : memref<2048xi8> to memref<?x4x?xf32>
  %4 = memref.transpose %d (i, j) -> (j, i) : memref<?x?xf32> to memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>>
  memref.prefetch %p[%i, %j], read, locality<3>, data : memref<400x400xi32>
  memref.prefetch %p[%i, %j], write, locality<0>, instr : memref<400x400xi32>
  return
}
func.func @dma(%A: memref<256xf32>, %Ah: memref<256xf32, 1>, %tag: memref<1xi32>, %t0: memref<i32>, %i: index, %n: index, %M: memref<40x128xf32>) {
  memref.dma_start %A[%i], %Ah[%i], %n, %tag[%i] : memref<256xf32>, memref<256xf32, 1>, memref<1xi32>
  memref.dma_wait %tag[%i], %n : memref<1xi32>
  memref.dma_start %M[%i, %i], %Ah[%n], %n, %t0[], %i, %n : memref<40x128xf32>, memref<256xf32, 1>, memref<i32>
  memref.dma_wait %t0[], %n {bar = 2 : i64} : memref<i32>
  "memref.dma_start"(%A, %i, %Ah, %i, %n, %tag, %i) {foo} : (memref<256xf32>, index, memref<256xf32, 1>, index, index, memref<1xi32>, index) -> ()
  return
}
