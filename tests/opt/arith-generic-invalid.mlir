// The arith ops written in the generic form, where nothing holds their
// types together but the verifier: ODS's constraints (a signed integer
// is not signless-integer-like), the operands of a compare, the mask of
// a select, the elementwise rule. Our verifier used to accept all
// of these but two. The messages and their order are mlir-opt-14's (this file
// passes its -verify-diagnostics).
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func @addi_of_signed(%x: si32) {
  // expected-error@+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'si32'}}
  %0 = "arith.addi"(%x, %x) : (si32, si32) -> si32
  return
}

// -----

func @addf_vector_and_tensor(%x: vector<2xf32>, %y: tensor<2xf32>) {
  // expected-error@+1 {{'arith.addf' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "arith.addf"(%x, %y) : (vector<2xf32>, tensor<2xf32>) -> vector<2xf32>
  return
}

// -----

func @negf_to_bool(%x: f32) {
  // expected-error@+1 {{'arith.negf' op requires the same type for all operands and results}}
  %0 = "arith.negf"(%x) : (f32) -> i1
  return
}

// -----

func @cmpi_of_two_widths(%x: i32, %y: i64) {
  // expected-error@+1 {{'arith.cmpi' op requires all operands to have the same type}}
  %0 = "arith.cmpi"(%x, %y) {predicate = 0 : i64} : (i32, i64) -> i1
  return
}

// -----

func @cmpf_to_integer(%x: f32) {
  // expected-error@+1 {{'arith.cmpf' op result #0 must be bool-like, but got 'i32'}}
  %0 = "arith.cmpf"(%x, %x) {predicate = 1 : i64} : (f32, f32) -> i32
  return
}

// -----

func @cmpi_vector_to_scalar(%x: vector<2xi32>) {
  // expected-error@+1 {{'arith.cmpi' op if an operand is non-scalar, then there must be at least one non-scalar result}}
  %0 = "arith.cmpi"(%x, %x) {predicate = 0 : i64} : (vector<2xi32>, vector<2xi32>) -> i1
  return
}

// -----

func @select_on_an_integer(%c: i32, %x: f32) {
  // expected-error@+1 {{'std.select' op operand #0 must be bool-like, but got 'i32'}}
  %0 = "std.select"(%c, %x, %x) : (i32, f32, f32) -> f32
  return
}

// -----

// 14 infers the result's type from the false value.
func @select_of_two_types(%c: i1, %x: i32, %y: i64) {
  // expected-error@+1 {{'std.select' op inferred type(s) 'i64' are incompatible with return type(s) of operation 'i32'}}
  %0 = "std.select"(%c, %x, %y) : (i1, i32, i64) -> i32
  return
}

// -----

func @select_mask_of_another_shape(%c: tensor<2xi1>, %x: tensor<?xf32>) {
  // expected-error@+1 {{'std.select' op expected condition type to have the same shape as the result type, expected 'tensor<?xi1>', but got 'tensor<2xi1>'}}
  %0 = "std.select"(%c, %x, %x) : (tensor<2xi1>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return
}

