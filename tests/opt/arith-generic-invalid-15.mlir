// The arith ops written in the generic form, where nothing holds their
// types together but the verifier: ODS's constraints (a signed integer
// is not signless-integer-like), the operands of a compare, the mask of
// a select, the elementwise rule. Our verifier used to accept all
// of these but two. The messages and their order are mlir-opt-15's (this file
// passes its -verify-diagnostics): 15 checks ODS's constraints and
// predicates first.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func.func @addi_of_signed(%x: si32) {
  // expected-error@+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'si32'}}
  %0 = "arith.addi"(%x, %x) : (si32, si32) -> si32
  return
}

// -----

func.func @addf_vector_and_tensor(%x: vector<2xf32>, %y: tensor<2xf32>) {
  // expected-error@+1 {{'arith.addf' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "arith.addf"(%x, %y) : (vector<2xf32>, tensor<2xf32>) -> vector<2xf32>
  return
}

// -----

func.func @negf_to_bool(%x: f32) {
  // expected-error@+1 {{'arith.negf' op result #0 must be floating-point-like, but got 'i1'}}
  %0 = "arith.negf"(%x) : (f32) -> i1
  return
}

// -----

func.func @cmpi_of_two_widths(%x: i32, %y: i64) {
  // expected-error@+1 {{'arith.cmpi' op requires all operands to have the same type}}
  %0 = "arith.cmpi"(%x, %y) {predicate = 0 : i64} : (i32, i64) -> i1
  return
}

// -----

func.func @cmpf_to_integer(%x: f32) {
  // expected-error@+1 {{'arith.cmpf' op result #0 must be bool-like, but got 'i32'}}
  %0 = "arith.cmpf"(%x, %x) {predicate = 1 : i64} : (f32, f32) -> i32
  return
}

// -----

func.func @cmpi_vector_to_scalar(%x: vector<2xi32>) {
  // expected-error@+1 {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%x, %x) {predicate = 0 : i64} : (vector<2xi32>, vector<2xi32>) -> i1
  return
}

// -----

func.func @select_on_an_integer(%c: i32, %x: f32) {
  // expected-error@+1 {{'arith.select' op operand #0 must be bool-like, but got 'i32'}}
  %0 = "arith.select"(%c, %x, %x) : (i32, f32, f32) -> f32
  return
}

// -----

func.func @select_of_two_types(%c: i1, %x: i32, %y: i64) {
  // expected-error@+1 {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "arith.select"(%c, %x, %y) : (i1, i32, i64) -> i32
  return
}

// -----

func.func @select_mask_of_another_shape(%c: tensor<2xi1>, %x: tensor<?xf32>) {
  // expected-error@+1 {{'arith.select' op expected condition type to have the same shape as the result type, expected 'tensor<?xi1>', but got 'tensor<2xi1>'}}
  %0 = "arith.select"(%c, %x, %x) : (tensor<2xi1>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return
}

