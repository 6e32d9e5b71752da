// The add_to_group ops take an async value or a token: ODS's operand
// constraint, checked by the verifier (a float was accepted before).
// Expected lines are mlir-opt-15's and mlir-opt-14's (14 on this file
// with its `func`).
// RUN: not mlir-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not mlir-opt %s -split-input-file --mlir-edition=14 2>&1 | FileCheck %s

func.func @float_into_group(%x: f32, %n: index) {
  %g = async.create_group %n : !async.group
  // CHECK: error: 'async.add_to_group' op operand #0 must be async value type or async token type, but got 'f32'
  %r = async.add_to_group %x, %g : f32
  return
}

// -----

func.func @runtime_float_into_group(%x: i32, %g: !async.group) {
  // CHECK: error: 'async.runtime.add_to_group' op operand #0 must be async value type or async token type, but got 'i32'
  %r = async.runtime.add_to_group %x, %g : i32
  return
}
