// The checks of the ops of std-ops-13.mlir, in mlir-opt-13's words (it
// passes this file's -verify-diagnostics unchanged), and an op of a
// dialect whose ops are all known that is none of them.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func @absf_of_int(%i: i32) {
  // expected-error @+1 {{'std.absf' op operand #0 must be floating-point-like, but got 'i32'}}
  %a = "std.absf"(%i) : (i32) -> i32
  return
}

// -----

func @fmaf_type(%v: f32) {
  // expected-error @+1 {{'std.fmaf' op requires the same type for all operands and results}}
  %a = "std.fmaf"(%v, %v, %v) : (f32, f32, f32) -> f64
  return
}

// -----

func @copysign_arity(%v: f32) {
  // expected-error @+1 {{'std.copysign' op expected 2 operands, but found 1}}
  %a = "std.copysign"(%v) : (f32) -> f32
  return
}

// -----

func @splat_elem(%v: f32) {
  // expected-error @+1 {{'std.splat' op failed to verify that operand type matches element type of result}}
  %a = "std.splat"(%v) : (f32) -> vector<4xf64>
  return
}

// -----

func @splat_dynamic(%v: f32) {
  // expected-error @+1 {{'std.splat' op result #0 must be vector of any type values or statically shaped tensor of any type values, but got 'tensor<?xf32>'}}
  %a = "std.splat"(%v) : (f32) -> tensor<?xf32>
  return
}

// -----

func @splat_scalar(%v: f32) {
  // expected-error @+1 {{custom op 'std.splat' 'aggregate' must be vector of any type values or statically shaped tensor of any type values, but got 'f32'}}
  %a = splat %v : f32
  return
}

// -----

func @rank_of_scalar(%v: f32) {
  // expected-error @+1 {{'std.rank' op operand #0 must be any memref or tensor type, but got 'f32'}}
  %a = "std.rank"(%v) : (f32) -> index
  return
}

// -----

func @buffer_cast_shape(%t: tensor<10xf32>) {
  // expected-error @+1 {{'memref.buffer_cast' op requires the same shape for all operands and results}}
  %a = "memref.buffer_cast"(%t) : (tensor<10xf32>) -> memref<11xf32>
  return
}

// -----

func @tensor_load_of_tensor(%t: tensor<10xf32>) {
  // expected-error @+1 {{'memref.tensor_load' op operand #0 must be unranked.memref of any type values or memref of any type values, but got 'tensor<10xf32>'}}
  %a = "memref.tensor_load"(%t) : (tensor<10xf32>) -> tensor<10xf32>
  return
}

// -----

func @clone_to_tensor(%m: memref<10xf32>) {
  // expected-error @+1 {{'memref.clone' op result #0 must be unranked.memref of any type values or memref of any type values, but got 'tensor<10xf32>'}}
  %a = "memref.clone"(%m) : (memref<10xf32>) -> tensor<10xf32>
  return
}

// -----

func @tensor_store_shape(%t: tensor<10xf32>, %m: memref<11xf32>) {
  // expected-error @+1 {{'memref.tensor_store' op requires the same shape for all operands}}
  "memref.tensor_store"(%t, %m) : (tensor<10xf32>, memref<11xf32>) -> ()
  return
}

// -----

func @tensor_store_elem(%t: tensor<10xf32>, %m: memref<10xf64>) {
  // expected-error @+1 {{'memref.tensor_store' op requires the same element type for all operands}}
  "memref.tensor_store"(%t, %m) : (tensor<10xf32>, memref<10xf64>) -> ()
  return
}

// -----

func @atomic_rmw_subscripts(%v: f32, %m: memref<10xf32>) {
  // expected-error @+1 {{'std.atomic_rmw' op expects the number of subscripts to be equal to memref rank}}
  %a = "std.atomic_rmw"(%v, %m) {kind = 0 : i64} : (f32, memref<10xf32>) -> f32
  return
}

// -----

func @unknown_memref_op() {
  // expected-error @+1 {{unregistered operation 'memref.nope' found in dialect ('memref') that does not allow unknown operations}}
  "memref.nope"() : () -> ()
  return
}

// -----

func @named_without_results() {
  // expected-error @+1 {{cannot name an operation with no results}}
  %a = "memref.nope"() : () -> ()
  return
}

// -----

// A declared format's enum errors name the op as 13 does.
func @unknown_predicate(%i: i32) {
  // expected-error @+1 {{custom op 'std.cmpi' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %c = cmpi bigger, %i, %i : i32
  return
}

// -----

func @unknown_quoted_predicate(%f: f32) {
  // expected-error @+1 {{custom op 'std.cmpf' invalid predicate attribute specification: "equal"}}
  %c = cmpf "equal", %f, %f : f32
  return
}
