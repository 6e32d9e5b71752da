// The one value of a zero-width integer, as mlir-opt prints it.
// RUN: mlir-opt %s | FileCheck %s

// CHECK-LABEL: func @zero
// CHECK-NEXT: %c0_i0 = arith.constant 0 : i0
func @zero() {
  %c = arith.constant 0 : i0
  return
}
