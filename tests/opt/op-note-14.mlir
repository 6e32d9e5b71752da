// The "see current operation" note in 14's syntax, as mlir-opt-14 prints
// it (checked against it): `builtin.func` and `std.return` in the generic
// form, and the op in "block with no terminator" in its custom form.
// RUN: not mlir-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: error: 'arith.addi' op requires the same type for all operands and results
// CHECK: : note: see current operation: %1 = "arith.addi"(%arg1, %arg1) {tag = "x"} : (i32, i32) -> i64
func @nested(%c: i1, %a: i32) -> i32 {
  %r = scf.if %c -> (i32) {
    %w = "arith.addi"(%a, %a) {tag = "x"} : (i32, i32) -> i64
    scf.yield %a : i32
  } else {
    scf.yield %a : i32
  }
  return %r : i32
}

// -----

// CHECK: error: redefinition of symbol named 'twice'
// CHECK: : note: see current operation: "builtin.func"() ({
// CHECK-NEXT: {{^}}^bb0(%arg0: f32):
// CHECK-NEXT: {{^}}  "std.return"(%arg0) : (f32) -> ()
// CHECK-NEXT: {{^}}}) {sym_name = "twice", sym_visibility = "private", type = (f32) -> f32} : () -> ()
// CHECK-NEXT: : note: see existing symbol definition here
func private @twice(%a: f32) -> f32
func private @twice(%a: f32) -> f32 {
  return %a : f32
}

// -----

// CHECK: error: block with no terminator, has %c3_i32 = arith.constant 3 : i32
// CHECK: : note: see current operation: %0 = "arith.constant"() {value = 3 : i32} : () -> i32
func @unterminated() {
  br ^bb1
^bb1:
  %s = arith.constant 3 : i32
}

// -----

// CHECK: error: 'scf.if' op expected 2 regions
// CHECK: : note: see current operation: "scf.if"(%arg0) ({
// CHECK-NEXT: }) {big = opaque<"elided_large_const", "0xDEADBEEF"> : tensor<17xi8>} : (i1) -> ()
func @elided(%c: i1) {
  "scf.if"(%c) ({
  }) {big = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]> : tensor<17xi8>} : (i1) -> ()
  return
}
