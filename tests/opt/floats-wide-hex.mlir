// f80 and f128 infinities and NaNs print as their bits in hex, 20 and 32
// digits, as mlir-opt-14/15 print them; neither reads such a literal back
// (a float's hex literal is read as a 64-bit integer: "hexadecimal float
// constant out of range for type"). We print and parse as they do; the
// pipeline mutation campaign lists this among the texts upstream cannot
// read back.
// RUN: mlir-opt %s -allow-unregistered-dialect | FileCheck %s
// RUN: mlir-opt %s -allow-unregistered-dialect | not mlir-opt -allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=BACK

// CHECK-LABEL: func.func @wide
// CHECK-NEXT: {v = 0x7FFF8000000000000000 : f80}
// CHECK-NEXT: {v = 0xFFFF8000000000000000 : f80}
// CHECK-NEXT: {v = 0x7FFF0000000000000000000000000000 : f128}
// BACK: <stdin>:3:23: error: hexadecimal float constant out of range for type
func.func @wide() {
  "test.use"() {v = 1.0e5000 : f80} : () -> ()
  "test.use"() {v = -1.0e5000 : f80} : () -> ()
  "test.use"() {v = 1.0e5000 : f128} : () -> ()
  return
}

// An f80 "unnormal" (an exponent without the integer bit) is a NaN to
// APFloat: its significand under an all-ones exponent.
// CHECK-LABEL: func.func @unnormal
// CHECK-NEXT: {v = dense<0x7FFF0000000000000001> : tensor<1xf80>}
func.func @unnormal() {
  "test.use"() {v = dense<"0x01000000000000001F2A"> : tensor<1xf80>} : () -> ()
  return
}
