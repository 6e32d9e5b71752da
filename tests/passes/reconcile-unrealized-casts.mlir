// RUN: mlir-async-opt %s -split-input-file -reconcile-unrealized-casts -verify-diagnostics | FileCheck %s

// Casts that undo each other vanish; so does a cast to the types it
// casts from (it folds). Checked against mlir-opt-14.

// CHECK-LABEL: func @pair
// CHECK-NEXT:    return %arg0 : i64
func @pair(%a: i64) -> i64 {
  %0 = builtin.unrealized_conversion_cast %a : i64 to i32
  %1 = builtin.unrealized_conversion_cast %0 : i32 to i64
  return %1 : i64
}

// CHECK-LABEL: func @identity
// CHECK-NEXT:    return %arg0 : i64
func @identity(%a: i64) -> i64 {
  %0 = builtin.unrealized_conversion_cast %a : i64 to i64
  return %0 : i64
}

// Several results, cast back twice.
// CHECK-LABEL: func @two_back
// CHECK-NEXT:    return %arg0, %arg1, %arg0 : i64, f32, i64
func @two_back(%a: i64, %b: f32) -> (i64, f32, i64) {
  %0:2 = builtin.unrealized_conversion_cast %a, %b : i64, f32 to i32, f64
  %1:2 = builtin.unrealized_conversion_cast %0#0, %0#1 : i32, f64 to i64, f32
  %2:2 = builtin.unrealized_conversion_cast %0#0, %0#1 : i32, f64 to i64, f32
  return %1#0, %1#1, %2#0 : i64, f32, i64
}

// -----

// A cast a lowering left live is an error, as upstream reports it.
func @live(%a: i64) -> i32 {
  // expected-error@+1 {{failed to legalize operation 'builtin.unrealized_conversion_cast' that was explicitly marked illegal}}
  %0 = builtin.unrealized_conversion_cast %a : i64 to i32
  return %0 : i32
}
