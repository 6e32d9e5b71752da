// A constant's attribute dictionary comes before its value: 15's format
// `attr-dict $value`, and 13's and 14's C++ printer, which leaves a
// second space before the dictionary. An untyped value gets the type
// `none` in 14 and 15, and their verifier names the kinds it takes.
// Expected lines are mlir-opt-15's, -14's and -13's.
// RUN: mlir-opt %s -split-input-file | FileCheck %s --check-prefix=V15
// RUN: mlir-opt %s -split-input-file --mlir-edition=14 | FileCheck %s --check-prefix=V14
// RUN: mlir-opt %s -split-input-file --mlir-edition=13 | FileCheck %s --check-prefix=V13

func.func @g() {
  return
}
func.func @f() {
  // V15: %f = constant {a} @g : () -> ()
  // V14: %f = constant  {a} @g : () -> ()
  // V13: %f = constant  {a} @g : () -> ()
  %0 = func.constant {a} @g : () -> ()
  // V15: %c1_i32 = arith.constant {b} 1 : i32
  // V14: %c1_i32 = arith.constant {b} 1 : i32
  // V13: %c1_i32 = constant  {b} 1 : i32
  %1 = arith.constant {b} 1 : i32
  return
}
