// The casts of 13's std dialect check their types in their own way: the
// elementwise rule first, then (for the integer width casts) ODS's
// "signless-integer-like", a hand-written refusal of index and a width
// check naming the element types. The int/float conversions know
// scalars and vectors, not tensors. This file passes mlir-opt-13's
// -verify-diagnostics.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func @sexti_not_wider(%x: vector<2xi64>) {
  // expected-error@+1 {{result type 'i32' must be wider than operand type 'i64'}}
  %0 = sexti %x : vector<2xi64> to vector<2xi32>
  return
}

// -----

func @trunci_not_narrower(%x: i8) {
  // expected-error@+1 {{operand type 'i8' must be wider than result type 'i8'}}
  %0 = trunci %x : i8 to i8
  return
}

// -----

func @zexti_of_index(%x: vector<2xindex>) {
  // expected-error@+1 {{'index' is not a valid operand type}}
  %0 = zexti %x : vector<2xindex> to vector<2xi64>
  return
}

// -----

func @sexti_of_signed(%x: si32) {
  // expected-error@+1 {{'std.sexti' op operand #0 must be signless-integer-like, but got 'si32'}}
  %0 = sexti %x : si32 to i64
  return
}

// -----

func @scalar_to_vector(%x: i32) {
  // expected-error@+1 {{'std.sexti' op if a result is non-scalar, then at least one operand must be non-scalar}}
  %0 = sexti %x : i32 to vector<2xi64>
  return
}

// -----

func @sitofp_of_a_tensor(%x: tensor<2xi32>) {
  // expected-error@+1 {{'std.sitofp' op operand type 'tensor<2xi32>' and result type 'tensor<2xf32>' are cast incompatible}}
  %0 = sitofp %x : tensor<2xi32> to tensor<2xf32>
  return
}

// -----

func @fptoui_to_signed(%x: f16) {
  // expected-error@+1 {{'std.fptoui' op operand type 'f16' and result type 'si32' are cast incompatible}}
  %0 = fptoui %x : f16 to si32
  return
}

// -----

func @fpext_changes_shape(%x: f32) {
  // expected-error@+1 {{'std.fpext' op requires the same shape for all operands and results}}
  %0 = fpext %x : f32 to memref<2xf64>
  return
}

// -----

func @index_cast_vector_to_tensor(%x: vector<2xindex>) {
  // expected-error@+1 {{'std.index_cast' op all non-scalar operands/results must have the same shape and base type}}
  %0 = index_cast %x : vector<2xindex> to tensor<2xi32>
  return
}
