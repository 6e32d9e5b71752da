// Float constants of every width print as mlir-opt-15 prints them (each
// line checked against it): a value rounds to its type when read, too
// large is infinite, specials print as the type's own bits, and f80/f128
// print a double's exact digits up to their precision.
// RUN: mlir-opt %s -allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @widths
func.func @widths() {
  // CHECK-NEXT: {v = 0x7C00 : f16}
  "test.use"() {v = 1.0e5 : f16} : () -> ()
  // CHECK-NEXT: {v = 0x7C00 : f16}
  "test.use"() {v = 65520.0 : f16} : () -> ()
  // CHECK-NEXT: {v = 6.550400e+04 : f16}
  "test.use"() {v = 65519.0 : f16} : () -> ()
  // CHECK-NEXT: {v = 9.997550e-02 : f16}
  "test.use"() {v = 0.1 : f16} : () -> ()
  // CHECK-NEXT: {v = 5.960460e-08 : f16}
  "test.use"() {v = 6.0e-8 : f16} : () -> ()
  // CHECK-NEXT: {v = 0xFC00 : f16}
  "test.use"() {v = -1.0e9 : f16} : () -> ()
  // CHECK-NEXT: {v = 0x7E01 : f16}
  "test.use"() {v = 0x7E01 : f16} : () -> ()
  // CHECK-NEXT: {v = 1.000980e-01 : bf16}
  "test.use"() {v = 0.1 : bf16} : () -> ()
  // CHECK-NEXT: {v = 0x7F80 : bf16}
  "test.use"() {v = 1.0e39 : bf16} : () -> ()
  // CHECK-NEXT: {v = 0x7FC0 : bf16}
  "test.use"() {v = 0x7FC0 : bf16} : () -> ()
  // CHECK-NEXT: {v = 0.100000000000000005551 : f80}
  "test.use"() {v = 0.1 : f80} : () -> ()
  // CHECK-NEXT: {v = 1.500000e+00 : f80}
  "test.use"() {v = 1.5 : f80} : () -> ()
  // CHECK-NEXT: {v = 0.100000000000000005551115123125782702 : f128}
  "test.use"() {v = 0.1 : f128} : () -> ()
  // CHECK-NEXT: {v = 1.00000000000000005250476025520442025E+300 : f128}
  "test.use"() {v = 1.0e300 : f128} : () -> ()
  // CHECK-NEXT: {v = 0x7F800001 : f32}
  "test.use"() {v = 0x7F800001 : f32} : () -> ()
  return
}
