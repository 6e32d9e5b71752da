// The one value of a zero-width integer, as mlir-opt prints it.
// RUN: mlir-opt %s -allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func @zero
// CHECK-NEXT: %c0_i0 = arith.constant 0 : i0
func @zero() {
  %c = arith.constant 0 : i0
  return
}

// 14 and 15 keep no bits for zero-width elements, so they never see a
// splat of them: every element is listed, an empty shape lists none and
// above 100 elements the raw storage is printed, empty. (13 accepts no
// i0 literal at all, not even 0; we accept 0 there too.)
// CHECK-LABEL: func @dense
// CHECK-NEXT: arith.constant dense<[0, 0, 0]> : vector<3xi0>
// CHECK-NEXT: "test.c"() {value = dense<[{{\[}}0, 0], [0, 0]]> : tensor<2x2xui0>}
// CHECK-NEXT: arith.constant dense<> : tensor<2x0xi0>
// CHECK-NEXT: arith.constant dense<"0x"> : tensor<101xi0>
// CHECK-NEXT: "test.use"
func @dense() {
  %a = arith.constant dense<0> : vector<3xi0>
  %b = "test.c"() {value = dense<[[0, 0], [0, 0]]> : tensor<2x2xui0>} : () -> tensor<2x2xui0>
  %c = arith.constant dense<0> : tensor<2x0xi0>
  %d = arith.constant dense<0> : tensor<101xi0>
  "test.use"(%a, %b, %c, %d) : (vector<3xi0>, tensor<2x2xui0>, tensor<2x0xi0>, tensor<101xi0>) -> ()
  return
}

// The empty raw storage reads back, for any number of elements; a byte
// of it is too much.
// CHECK-LABEL: func @hex
// CHECK-NEXT: arith.constant dense<"0x"> : tensor<200xi0>
// CHECK-NEXT: arith.constant dense<[0, 0]> : vector<2xi0>
func @hex() {
  %a = arith.constant dense<"0x"> : tensor<200xi0>
  %b = arith.constant dense<"0x"> : vector<2xi0>
  "test.use"(%a, %b) : (tensor<200xi0>, vector<2xi0>) -> ()
  return
}

// The element count of a huge shape wraps as upstream's int64_t does (it
// comes to 0 here); a debug build used to panic on the overflow.
// CHECK-LABEL: func @huge
// CHECK-NEXT: "test.c"() {w = dense<> : tensor<4294967296x4294967296x4294967296xi0>}
// CHECK-NEXT: "test.c"() {w = dense<0> : tensor<4294967296x4294967296x4294967296xi32>}
func @huge() {
  "test.c"() {w = dense<0> : tensor<4294967296x4294967296x4294967296xi0>} : () -> ()
  "test.c"() {w = dense<0> : tensor<4294967296x4294967296x4294967296xi32>} : () -> ()
  return
}
