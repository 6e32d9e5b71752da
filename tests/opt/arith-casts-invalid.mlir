// Each arith cast checks its operand and result: the element kinds it
// converts between, widening or narrowing, matching shapes, and the
// elementwise rule that vectors and tensors map to the same kind of
// container. Our verifier used to accept all of these. The messages and
// their order are mlir-opt-14's (this file passes its -verify-diagnostics).
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func @extsi_not_wider(%x: i32) {
  // expected-error@+1 {{'arith.extsi' op operand type 'i32' and result type 'i16' are cast incompatible}}
  %0 = arith.extsi %x : i32 to i16
  return
}

// -----

func @trunci_not_narrower(%x: i32) {
  // expected-error@+1 {{'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.trunci %x : i32 to i64
  return
}

// -----

func @index_cast_to_itself(%x: index) {
  // expected-error@+1 {{'arith.index_cast' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = arith.index_cast %x : index to index
  return
}

// -----

func @bitcast_changes_width(%x: i32) {
  // expected-error@+1 {{'arith.bitcast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.bitcast %x : i32 to i64
  return
}

// -----

func @index_has_no_bit_width(%x: index) {
  // expected-error@+1 {{'arith.bitcast' op operand type 'index' and result type 'i64' are cast incompatible}}
  %0 = arith.bitcast %x : index to i64
  return
}

// -----

func @sitofp_of_a_float(%x: f32) {
  // expected-error@+1 {{'arith.sitofp' op operand type 'f32' and result type 'f64' are cast incompatible}}
  %0 = arith.sitofp %x : f32 to f64
  return
}

// -----

// 14 checks the types' kinds after the cast rules: a signed integer
// passes `areCastCompatible` and fails ODS's constraint.
func @sitofp_of_signed(%x: si32) {
  // expected-error@+1 {{'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'si32'}}
  %0 = arith.sitofp %x : si32 to f32
  return
}

// -----

func @bitcast_of_signed_memref(%x: memref<2xsi32>) {
  // expected-error@+1 {{'arith.bitcast' op operand #0 must be signless-integer-or-float-like or memref of signless-integer or float, but got 'memref<2xsi32>'}}
  %0 = arith.bitcast %x : memref<2xsi32> to memref<2xi32>
  return
}

// -----

func @extf_changes_shape(%x: vector<2xf32>) {
  // expected-error@+1 {{'arith.extf' op requires the same shape for all operands and results}}
  %0 = arith.extf %x : vector<2xf32> to vector<3xf64>
  return
}

// -----

func @scalar_to_vector(%x: i32) {
  // expected-error@+1 {{'arith.extsi' op requires the same shape for all operands and results}}
  %0 = arith.extsi %x : i32 to vector<2xi64>
  return
}

// -----

// A dynamic size is compatible with a static one, but a vector does
// not map to a tensor.
func @vector_to_tensor(%x: vector<2xi32>) {
  // expected-error@+1 {{'arith.extsi' op all non-scalar operands/results must have the same shape and base type}}
  %0 = arith.extsi %x : vector<2xi32> to tensor<?xi64>
  return
}

// -----

// Nor does a ranked tensor to an unranked one.
func @ranked_to_unranked(%x: tensor<2xf32>) {
  // expected-error@+1 {{'arith.fptosi' op all non-scalar operands/results must have the same shape and base type}}
  %0 = arith.fptosi %x : tensor<2xf32> to tensor<*xi32>
  return
}

// -----

// A memref is a scalar to the elementwise rule.
func @vector_to_memref(%x: vector<2xi32>) {
  // expected-error@+1 {{'arith.index_cast' op if an operand is non-scalar, then there must be at least one non-scalar result}}
  %0 = arith.index_cast %x : vector<2xi32> to memref<2xindex>
  return
}

// -----

func @memref_to_tensor(%x: memref<2xindex>) {
  // expected-error@+1 {{'arith.index_cast' op if a result is non-scalar, then at least one operand must be non-scalar}}
  %0 = arith.index_cast %x : memref<2xindex> to tensor<2xi32>
  return
}
