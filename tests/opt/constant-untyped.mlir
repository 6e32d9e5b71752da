// 14 and 15 read any attribute as arith.constant's value, an untyped one
// (a string, a symbol) with the type `none`; their verifier then names
// the kinds it takes. We used to refuse it while parsing, in words of
// our own. Expected lines are mlir-opt-15's and -14's (14 with `func`).
// RUN: not mlir-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not mlir-opt %s -split-input-file --mlir-edition=14 2>&1 | FileCheck %s

func.func @string() {
  // CHECK: error: 'arith.constant' op value must be an integer, float, or elements attribute
  %0 = arith.constant "s"
  return
}

// -----

func.func @symbol() {
  // CHECK: error: 'arith.constant' op value must be an integer, float, or elements attribute
  %0 = arith.constant @g
  return
}
