// The "see current operation" note in 13's syntax, as mlir-opt-13 prints
// it (checked against it): 13's generic regions `( {` and `},  {`, its
// "no predecessors" block comment, and no elided elements.
// RUN: not mlir-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: error: 'scf.if' op  region control flow edge from Region #0 to parent results: source has 2 operands, but target successor needs 1
// CHECK: : note: see current operation: %0 = "scf.if"(%arg0) ( {
// CHECK-NEXT: {{^}}  %1 = "std.muli"(%arg1, %arg1) : (i32, i32) -> i32
// CHECK-NEXT: {{^}}  "scf.yield"(%1, %1) : (i32, i32) -> ()
// CHECK-NEXT: {{^}}},  {
// CHECK-NEXT: {{^}}  "scf.yield"(%arg1) : (i32) -> ()
// CHECK-NEXT: {{^}}}) : (i1) -> i32
func @regions(%c: i1, %a: i32) -> i32 {
  %r = scf.if %c -> (i32) {
    %m = muli %a, %a : i32
    scf.yield %m, %m : i32, i32
  } else {
    scf.yield %a : i32
  }
  return %r : i32
}

// -----

// CHECK: error: redefinition of symbol named 'twice'
// CHECK: : note: see current operation: "func"() ( {
// CHECK-NEXT: {{^}}^bb0(%arg0: f32):  // no predecessors
// CHECK-NEXT: {{^}}  "std.return"(%arg0) : (f32) -> ()
// CHECK-NEXT: {{^}}}) {sym_name = "twice", sym_visibility = "private", type = (f32) -> f32} : () -> ()
func private @twice(%a: f32) -> f32
func private @twice(%a: f32) -> f32 {
  return %a : f32
}

// -----

// CHECK: error: block with no terminator, has %c3_i32 = constant 3 : i32
// CHECK: : note: see current operation: %0 = "std.constant"() {value = 3 : i32} : () -> i32
func @unterminated() {
  br ^bb1
^bb1:
  %s = constant 3 : i32
}

// -----

// CHECK: error: 'scf.if' op expected 2 regions
// CHECK: : note: see current operation: "scf.if"(%arg0) ( {
// CHECK-NEXT: }) {big = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]> : tensor<17xi8>} : (i1) -> ()
func @elided(%c: i1) {
  "scf.if"(%c) ({
  }) {big = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]> : tensor<17xi8>} : (i1) -> ()
  return
}
