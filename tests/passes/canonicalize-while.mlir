// RUN: mlir-async-opt %s -canonicalize | FileCheck %s

// Canonicalizations the async-parallel-for output needs (checked against
// mlir-opt-14; the 15 forms are in canonicalize-while-15.mlir): a group
// only awaited goes with its awaits, an indirect call of a function
// constant becomes a direct call, and LLVM 14's `scf.while` patterns.

// CHECK-LABEL: func @group_only_awaited(
// CHECK-NEXT:    return
// CHECK-LABEL: func @indirect(
// CHECK-NEXT:    %[[R:.*]] = call @callee(%arg0) : (i32) -> i32
// CHECK-NEXT:    return %[[R]]

// A result nothing reads, passed to an `after` argument nothing reads,
// goes (`WhileUnusedResult`).
// CHECK-LABEL: func @unused_result(
// CHECK:         %[[W:.*]] = scf.while (%[[A:.*]] = %arg0, %[[B:.*]] = %arg1) : (i32, i32) -> i32 {
// CHECK:           scf.condition(%{{.*}}) %[[A]] : i32
// CHECK:         } do {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32):
// CHECK:           scf.yield %{{.*}}, %arg1 : i32, i32
// CHECK:         return %[[W]] : i32

// A `before` argument nothing reads goes, with its initial and yielded
// values (`WhileUnusedArg`, 14 only).
// CHECK-LABEL: func @unused_arg(
// CHECK:         scf.while (%[[A:.*]] = %arg0) : (i32) -> i32 {
// CHECK:           scf.yield %{{.*}} : i32

// 14 keeps loop-invariant values in the loop.
// CHECK-LABEL: func @invariant(
// CHECK:         %[[W:.*]]:3 = scf.while (%{{.*}} = %arg0, %{{.*}} = %arg1) : (i32, i32) -> (i32, i32, i32) {
// CHECK:         return %[[W]]#0, %[[W]]#2 : i32, i32

func @group_only_awaited(%n: index) {
  %g = async.create_group %n : !async.group
  async.await_all %g
  async.await_all %g
  return
}
func @indirect(%a: i32) -> i32 {
  %f = constant @callee : (i32) -> i32
  %0 = call_indirect %f(%a) : (i32) -> i32
  return %0 : i32
}
func private @callee(%a: i32) -> i32
func @unused_result(%lo: i32, %hi: i32) -> i32 {
  %r:2 = scf.while (%a = %lo, %b = %hi) : (i32, i32) -> (i32, i32) {
    %c = arith.cmpi slt, %a, %b : i32
    scf.condition(%c) %a, %b : i32, i32
  } do {
  ^bb0(%x: i32, %y: i32):
    %one = arith.constant 1 : i32
    %n = arith.addi %x, %one : i32
    scf.yield %n, %hi : i32, i32
  }
  return %r#0 : i32
}
func @unused_arg(%lo: i32, %hi: i32, %k: i32) -> i32 {
  %r = scf.while (%a = %lo, %u = %k) : (i32, i32) -> (i32) {
    %c = arith.cmpi slt, %a, %hi : i32
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    %n = arith.addi %x, %one : i32
    scf.yield %n, %x : i32, i32
  }
  return %r : i32
}
func @invariant(%lo: i32, %hi: i32, %k: i32) -> (i32, i32) {
  %r:3 = scf.while (%a = %lo, %b = %hi) : (i32, i32) -> (i32, i32, i32) {
    %c = arith.cmpi slt, %a, %b : i32
    scf.condition(%c) %a, %b, %k : i32, i32, i32
  } do {
  ^bb0(%x: i32, %y: i32, %kk: i32):
    %n = arith.addi %x, %kk : i32
    scf.yield %n, %y : i32, i32
  }
  return %r#0, %r#2 : i32, i32
}
