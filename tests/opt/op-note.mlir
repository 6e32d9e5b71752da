// An error emitted on an op carries a note with the op in the generic
// form, named as in its function, as mlir-opt-15 prints it (checked
// against it); a diagnostic at a bare location does not.
// (Split chunks: locations are chunk-relative, so the checks match the
// messages, and each caret line's source.)
// RUN: not mlir-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: : error: 'arith.addi' op requires the same type for all operands and results
// CHECK: : note: see current operation: %1 = "arith.addi"(%arg1, %arg1) {tag = "x"} : (i32, i32) -> i64
// CHECK-NOT: note:
func.func @nested(%c: i1, %a: i32) -> i32 {
  %r = scf.if %c -> (i32) {
    %w = "arith.addi"(%a, %a) {tag = "x"} : (i32, i32) -> i64
    scf.yield %a : i32
  } else {
    scf.yield %a : i32
  }
  return %r : i32
}

// -----

// An op with regions is printed whole, at the left margin.
// CHECK: : error: 'scf.if' op  region control flow edge from Region #0 to parent results: source has 2 operands, but target successor needs 1
// CHECK-NEXT: %r = scf.if
// CHECK-NEXT: ^
// CHECK-NEXT: : note: see current operation: %0 = "scf.if"(%arg0) ({
// CHECK-NEXT: {{^}}  %1 = "arith.muli"(%arg1, %arg1) : (i32, i32) -> i32
// CHECK-NEXT: {{^}}  "scf.yield"(%1, %1) : (i32, i32) -> ()
// CHECK-NEXT: {{^}}}, {
// CHECK-NEXT: {{^}}  "scf.yield"(%arg1) : (i32) -> ()
// CHECK-NEXT: {{^}}}) {note = [1, 2]} : (i1) -> i32
func.func @regions(%c: i1, %a: i32) -> i32 {
  %r = scf.if %c -> (i32) {
    %m = arith.muli %a, %a : i32
    scf.yield %m, %m : i32, i32
  } else {
    scf.yield %a : i32
  } {note = [1, 2]}
  return %r : i32
}

// -----

// The op's note comes before the verifier's own.
// CHECK: : error: operand #1 does not dominate this use
// CHECK: : note: see current operation: %1 = "arith.addi"(%arg0, %2) : (i32, i32) -> i32
// CHECK-NEXT: : note: operand defined here (op in the same block)
func.func @dominance(%a: i32) -> i32 {
  %0 = arith.constant 7 : i32
  %x = arith.addi %a, %y : i32
  %y = arith.addi %a, %a : i32
  return %x : i32
}

// -----

// A symbol defined twice: the second function is shown, then the first.
// CHECK: : error: redefinition of symbol named 'twice'
// CHECK: : note: see current operation: "func.func"() ({
// CHECK-NEXT: {{^}}^bb0(%arg0: f32):
// CHECK-NEXT: {{^}}  "func.return"(%arg0) : (f32) -> ()
// CHECK-NEXT: {{^}}}) {function_type = (f32) -> f32, sym_name = "twice", sym_visibility = "private"} : () -> ()
// CHECK-NEXT: : note: see existing symbol definition here
func.func private @twice(%a: f32) -> f32
func.func private @twice(%a: f32) -> f32 {
  return %a : f32
}

// -----

// 15 prints the op of "no terminator" in the generic form.
// CHECK: : error: block with no terminator, has %0 = "arith.addi"(%arg0, %arg0) : (i32, i32) -> i32
// CHECK: note: see current operation: %0 = "arith.addi"(%arg0, %arg0) : (i32, i32) -> i32
func.func @unterminated(%a: i32) {
  cf.br ^bb1
^bb1:
  %s = arith.addi %a, %a : i32
}

// -----

// An empty block is reported at its region's op, without an op name or
// a note.
// CHECK: : error: empty block: expect at least a terminator
// CHECK-NOT: note:
func.func @empty(%a: i32) {
  cf.br ^bb1
^bb1:
}

// -----

// Dense elements of more than 16 values (not splats) are elided.
// CHECK: : error: 'scf.if' op expected 2 regions
// CHECK: note: see current operation: "scf.if"(%arg0) ({
// CHECK-NEXT: }) {big = opaque<"elided_large_const", "0xDEADBEEF"> : tensor<17xi8>, in_array = [dense<1.500000e+00> : tensor<2x9xf32>, opaque<"elided_large_const", "0xDEADBEEF"> : tensor<2x9xf32>], small = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]> : tensor<16xi8>, splat = dense<3> : tensor<40xi8>} : (i1) -> ()
func.func @elided(%c: i1) {
  "scf.if"(%c) ({
  }) {big = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]> : tensor<17xi8>,
      small = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]> : tensor<16xi8>,
      splat = dense<3> : tensor<40xi8>,
      in_array = [dense<1.5> : tensor<2x9xf32>, dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.5]]> : tensor<2x9xf32>]} : (i1) -> ()
  return
}

// -----

// A pass's error on an op shows it too.
// RUN: not mlir-opt %s -split-input-file --pass-pipeline='func.func(symbol-dce)' 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: : error: 'func.func' op  was scheduled to run under SymbolDCE, but does not define a symbol table
// PASS-NEXT: func.func @not_a_table
// PASS-NEXT: ^
// PASS-NEXT: : note: see current operation: "func.func"() ({
// PASS-NEXT: {{^}}  "func.return"() : () -> ()
func.func @not_a_table() {
  return
}
