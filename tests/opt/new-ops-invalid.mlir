// Invalid cf.switch and memref.atomic_rmw: mlir-opt-15 reports the same
// errors on this file (it passes its -verify-diagnostics too).
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func.func @flag_and_values_differ(%a: i32) {
  // expected-error@+1 {{'cf.switch' op 'flag' type ('i32') should match case value type ('i64')}}
  "cf.switch"(%a)[^bb1, ^bb1] {case_operand_segments = dense<0> : tensor<1xi32>, case_values = dense<[1]> : vector<1xi64>, operand_segment_sizes = dense<[1, 0, 0]> : vector<3xi32>} : (i32) -> ()
^bb1:
  return
}

// -----

func.func @too_few_values(%a: i32) {
  // expected-error@+1 {{'cf.switch' op number of case values (1) should match number of case destinations (2)}}
  "cf.switch"(%a)[^bb1, ^bb1, ^bb1] {case_operand_segments = dense<0> : tensor<2xi32>, case_values = dense<[1]> : vector<1xi32>, operand_segment_sizes = dense<[1, 0, 0]> : vector<3xi32>} : (i32) -> ()
^bb1:
  return
}

// -----

func.func @float_flag(%a: f32) {
  // expected-error@+1 {{'cf.switch' op operand #0 must be integer, but got 'f32'}}
  "cf.switch"(%a)[^bb1] {case_operand_segments = dense<> : tensor<0xi32>, operand_segment_sizes = dense<[1, 0, 0]> : vector<3xi32>} : (f32) -> ()
^bb1:
  return
}

// -----

func.func @float_kind_on_integers(%m: memref<10xi32>, %v: i32, %i: index) -> i32 {
  // expected-error@+1 {{'memref.atomic_rmw' op with kind 'addf' expects a floating-point type}}
  %x = memref.atomic_rmw addf %v, %m[%i] : (i32, memref<10xi32>) -> i32
  return %x : i32
}

// -----

func.func @subscripts(%m: memref<10x10xi32>, %v: i32, %i: index) -> i32 {
  // expected-error@+1 {{'memref.atomic_rmw' op expects the number of subscripts to be equal to memref rank}}
  %x = memref.atomic_rmw addi %v, %m[%i] : (i32, memref<10x10xi32>) -> i32
  return %x : i32
}

// -----

func.func @unknown_kind(%m: memref<10xi32>, %v: i32, %i: index) -> i32 {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'kind'}}
  %x = memref.atomic_rmw foo %v, %m[%i] : (i32, memref<10xi32>) -> i32
  return %x : i32
}

// -----

func.func @element_type(%m: memref<10xi32>, %v: i64, %i: index) -> i64 {
  // expected-error@+1 {{'memref.atomic_rmw' op failed to verify that value type matches element type of memref}}
  %x = memref.atomic_rmw addi %v, %m[%i] : (i64, memref<10xi32>) -> i64
  return %x : i64
}

// -----

func.func @kind_out_of_range(%m: memref<10xi32>, %v: i32, %i: index) -> i32 {
  // expected-error@+1 {{attribute 'kind' failed to satisfy constraint: allowed 64-bit signless integer cases}}
  %x = "memref.atomic_rmw"(%v, %m, %i) {kind = 13} : (i32, memref<10xi32>, index) -> i32
  return %x : i32
}

// -----

memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
func.func @global_type(%m: memref<10xf32>) {
  // expected-error@+1 {{'memref.get_global' op result type 'memref<3xf32>' does not match type 'memref<2xf32>' of the global memref @c}}
  %g = memref.get_global @c : memref<3xf32>
  return
}

// -----

func.func @no_global() {
  // expected-error@+1 {{'memref.get_global' op 'nope' does not reference a valid global memref}}
  %g = memref.get_global @nope : memref<3xf32>
  return
}

// -----

func.func @alignment(%m: memref<10xf32>) {
  // expected-error@+1 {{'memref.assume_alignment' op alignment must be power of 2}}
  memref.assume_alignment %m, 12 : memref<10xf32>
  return
}

// -----

func.func @yield_type(%m: memref<10xf32>, %i: index) {
  %x = memref.generic_atomic_rmw %m[%i] : memref<10xf32> {
  ^bb0(%cur: f32):
    %c = arith.constant 1 : i32
    // expected-error@+1 {{'memref.atomic_yield' op types mismatch between yield op: 'i32' and its parent: 'f32'}}
    memref.atomic_yield %c : i32
  }
  return
}
