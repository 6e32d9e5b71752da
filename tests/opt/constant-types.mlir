// arith.constant's value must have the result's type, in each
// generation's words: 13's hand-written verifier quotes both types (and
// calls an untyped value unsupported), 14 and 15 report ODS's
// AllTypesMatch, each worded its way. We used to give a fourth wording
// (newer upstream's hand-written one, unreachable behind ODS's check).
// Expected lines are mlir-opt-15's, -14's and -13's (13 and 14 on this
// file with their `func` and 13's `std.constant`).
// RUN: not mlir-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=V15
// RUN: not mlir-opt %s -split-input-file --mlir-edition=14 2>&1 | FileCheck %s --check-prefix=V14
// RUN: not mlir-opt %s -split-input-file --mlir-edition=13 2>&1 | FileCheck %s --check-prefix=V13

func.func @int_width() {
  // V15: error: 'arith.constant' op failed to verify that all of {value, result} have same type
  // V14: error: 'arith.constant' op failed to verify that result and attribute have the same type
  // V13: error: 'std.constant' op requires attribute's type ('i64') to match op's return type ('i32')
  %0 = "arith.constant"() {value = 1 : i64} : () -> i32
  return
}

// -----

func.func @bool_for_i32() {
  // V15: error: 'arith.constant' op failed to verify that all of {value, result} have same type
  // V14: error: 'arith.constant' op failed to verify that result and attribute have the same type
  // V13: error: 'std.constant' op requires attribute's type ('i1') to match op's return type ('i32')
  %0 = "arith.constant"() {value = true} : () -> i32
  return
}

// -----

func.func @string() {
  // V15: error: 'arith.constant' op failed to verify that all of {value, result} have same type
  // V14: error: 'arith.constant' op failed to verify that result and attribute have the same type
  // V13: error: 'std.constant' op unsupported 'value' attribute: "s"
  %0 = "arith.constant"() {value = "s"} : () -> i32
  return
}

// -----

func.func @unsigned() {
  // V15: error: 'arith.constant' op integer return type must be signless
  // V14: error: 'arith.constant' op integer return type must be signless
  // V13: error: 'std.constant' op requires integer result types to be signless
  %0 = "arith.constant"() {value = 1 : ui32} : () -> ui32
  return
}

// -----

// An integer literal is no float, a float literal no integer: reported
// at the token after the type.
func.func @float_literal_for_i32() -> i32 {
  %0 = arith.constant 1.0 : i32
  // V15: :8:3: error: floating point value not valid for specified type
  return %0 : i32
}
