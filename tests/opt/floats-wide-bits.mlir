// f80 and f128 values no double holds keep their bits and print as
// mlir-opt-14/15 print them (checked against both): a hex literal (at
// most 64 bits: the type's subnormals, f80's pseudo-denormals), raw
// dense bytes (80 bits an element for f80: more precision than a double),
// and hex elements of a
// dense list (the element's bits, as a scalar's). The six-digit form is
// used when it reads back at the type's own precision, else the natural
// form (21 digits for f80, 36 for f128). Printed, they do not read back:
// a decimal literal is read as a double (upstream alike), where these are
// zero or lose their last bits.
// RUN: mlir-opt %s -allow-unregistered-dialect | FileCheck %s
// RUN: mlir-opt %s -allow-unregistered-dialect | mlir-opt -allow-unregistered-dialect | FileCheck %s --check-prefix=BACK

// BACK-LABEL: func.func @hex_subnormals
// BACK-NEXT: {v = 0.000000e+00 : f80}
// BACK-LABEL: func.func @raw_bytes
// BACK-NEXT: dense<[1.000000e+00, -3.000000e+00]> : tensor<2xf80>

// CHECK-LABEL: func.func @hex_subnormals
// CHECK-NEXT: {v = 1.175830e-4946 : f80}
// CHECK-NEXT: {v = 3.36210314311209350663E-4932 : f80}
// CHECK-NEXT: {v = 3.645200e-4951 : f80}
// CHECK-NEXT: {v = 6.475180e-4966 : f128}
// CHECK-NEXT: {v = 1.19445898260724927769175630513403123E-4946 : f128}
func.func @hex_subnormals() {
  "test.use"() {v = 0x7E01 : f80} : () -> ()
  "test.use"() {v = 0x8000000000000001 : f80} : () -> ()
  "test.use"() {v = 0x1 : f80} : () -> ()
  "test.use"() {v = 0x1 : f128} : () -> ()
  "test.use"() {v = 0xFFFFFFFFFFFFFFFF : f128} : () -> ()
  return
}

// CHECK-LABEL: func.func @raw_bytes
// CHECK-NEXT: dense<[1.00000000000000000011, -3.000000e+00]> : tensor<2xf80>
// CHECK-NEXT: dense<1.00000000000000000000000000000000019> : tensor<1xf128>
func.func @raw_bytes() {
  "test.use"() {v = dense<"0x0100000000000080FF3F00000000000000C000C0"> : tensor<2xf80>} : () -> ()
  "test.use"() {v = dense<"0x0100000000000000000000000000FF3F"> : tensor<1xf128>} : () -> ()
  return
}

// CHECK-LABEL: func.func @hex_in_lists
// CHECK-NEXT: dense<[1.175830e-4946, 2.500000e+00]> : tensor<2xf80>
// CHECK-NEXT: dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>
func.func @hex_in_lists() {
  "test.use"() {v = dense<[0x7E01, 2.5]> : tensor<2xf80>} : () -> ()
  "test.use"() {v = dense<[0x3F800000, 2.5]> : tensor<2xf32>} : () -> ()
  return
}
