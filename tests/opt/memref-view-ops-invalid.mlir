// Malformed memref view ops: mlir-opt-15 reports the same errors on this
// file (it passes its -verify-diagnostics too).
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func.func @f1(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{'memref.view' op requires one result}}
  "memref.view"() : () -> ()
  return
}

// -----

func.func @f2(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{'memref.view' op expected 2 or more operands, but found 1}}
  %0 = "memref.view"(%b) : (memref<16xi8>) -> memref<4xf32>
  return
}

// -----

func.func @f3(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{'memref.subview' op requires 1D i32 elements attribute 'operand_segment_sizes'}}
  %0 = "memref.subview"(%m) : (memref<4x4xf32>) -> memref<4x4xf32>
  return
}

// -----

func.func @f4(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{'memref.subview' op operand count (1) does not match with the total size (2) specified in attribute 'operand_segment_sizes'}}
  %0 = "memref.subview"(%m) {operand_segment_sizes = dense<[1, 1, 0, 0]> : vector<4xi32>, static_offsets = [0, 0], static_sizes = [4, 4], static_strides = [1, 1]} : (memref<4x4xf32>) -> memref<4x4xf32>
  return
}

// -----

func.func @f5(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{expected 0 dynamic offset values}}
  %0 = "memref.subview"(%m, %i) {operand_segment_sizes = dense<[1, 1, 0, 0]> : vector<4xi32>, static_offsets = [0, 0], static_sizes = [4, 4], static_strides = [1, 1]} : (memref<4x4xf32>, index) -> memref<4x4xf32>
  return
}

// -----

func.func @f6(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{'memref.transpose' op requires attribute 'permutation'}}
  %0 = "memref.transpose"(%m) : (memref<4x4xf32>) -> memref<4x4xf32>
  return
}

// -----

func.func @f7(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{'memref.reshape' op expected 2 operands, but found 1}}
  %0 = "memref.reshape"(%m) : (memref<4x4xf32>) -> memref<16xf32>
  return
}

// -----

func.func @f8(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{'memref.collapse_shape' op requires attribute 'reassociation'}}
  %0 = "memref.collapse_shape"(%m) : (memref<4x4xf32>) -> memref<16xf32>
  return
}

// -----

func.func @f9(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{'memref.prefetch' op too few indices}}
  "memref.prefetch"(%m) {isDataCache = true, isWrite = false, localityHint = 3 : i32} : (memref<4x4xf32>) -> ()
  return
}

// -----

func.func @f10(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{'memref.dma_wait' op expected 2 or more operands, but found 1}}
  "memref.dma_wait"(%m) : (memref<4x4xf32>) -> ()
  return
}

// -----

func.func @f11(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{'memref.dma_wait' op expected tagIndices to have the same number of elements as the tagMemRef rank, expected 2, but got 1}}
  memref.dma_wait %m[%i], %i : memref<4x4xf32>
  return
}

// -----

func.func @f12(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{'memref.dma_start' op requires zero results}}
  %0 = "memref.dma_start"(%m) : (memref<4x4xf32>) -> f32
  return
}

// -----

func.func @f13(%m: memref<4x4xf32>, %i: index, %b: memref<16xi8>) {
  // expected-error@+1 {{'memref.dma_start' op expected at least 4 operands}}
  "memref.dma_start"(%m, %i) : (memref<4x4xf32>, index) -> ()
  return
}

// -----

func.func @not_a_permutation(%d: memref<?x?xf32>) {
  // expected-error@+1 {{'memref.transpose' op expected a permutation map}}
  %0 = memref.transpose %d (i, j) -> (i, i) : memref<?x?xf32> to memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>>
  return
}

// -----

func.func @wrong_rank(%d: memref<?x?xf32>) {
  // expected-error@+1 {{'memref.transpose' op expected a permutation map of same rank as the input}}
  %0 = memref.transpose %d (i) -> (i) : memref<?x?xf32> to memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>>
  return
}

// -----

func.func @one_stride_operand(%m: memref<4xf32>, %t: memref<1xi32>, %i: index) {
  // expected-error@+1 {{custom op 'memref.dma_start' expected two stride related operands}}
  memref.dma_start %m[%i], %m[%i], %i, %t[%i], %i : memref<4xf32>, memref<4xf32>, memref<1xi32>
  return
}

// -----

func.func @bad_rw_specifier(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{custom op 'memref.prefetch' rw specifier has to be 'read' or 'write'}}
  memref.prefetch %m[%i], rd, locality<3>, data : memref<4xf32>
  return
}
