// A zero-width integer has one value, 0, and folds like any other
// integer: arithmetic on two constants, the identities of 0 and the
// unsigned bounds (0 is both the least and the greatest i0). It has no
// signed bounds: maxsi/minsi with a constant stay, as in mlir-opt-15,
// whose -canonicalize this file's checks also pass.
// RUN: mlir-opt %s -canonicalize | FileCheck %s

// CHECK-LABEL: func.func @fold(
// CHECK-SAME: %[[X:.*]]: i0
func.func @fold(%x: i0) -> (i0, i0, i0, i0, i0, i8, i0, i0) {
  %c = arith.constant 0 : i0
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i0
  // CHECK-DAG: %[[C8:.*]] = arith.constant 0 : i8
  %0 = arith.addi %c, %c : i0
  %1 = arith.muli %x, %c : i0
  %2 = arith.subi %x, %c : i0
  %3 = arith.maxui %x, %c : i0
  %4 = arith.minui %x, %c : i0
  %5 = arith.extsi %c : i0 to i8
  // CHECK: %[[MAX:.*]] = arith.maxsi %[[X]], %[[C0]] : i0
  %6 = arith.maxsi %x, %c : i0
  // CHECK: %[[MIN:.*]] = arith.minsi %[[X]], %[[C0]] : i0
  %7 = arith.minsi %x, %c : i0
  // CHECK: return %[[C0]], %[[C0]], %[[X]], %[[C0]], %[[C0]], %[[C8]], %[[MAX]], %[[MIN]]
  return %0, %1, %2, %3, %4, %5, %6, %7 : i0, i0, i0, i0, i0, i8, i0, i0
}
