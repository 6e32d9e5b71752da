// RUN: mlir-async-opt %s -canonicalize | FileCheck %s

// LLVM 15's `scf.while` canonicalization (checked against mlir-opt-15):
// the loop-invariant patterns come first, `WhileUnusedArg` is gone.

// CHECK-LABEL: func.func @group_only_awaited(
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @indirect(
// CHECK-NEXT:    %[[R:.*]] = call @callee(%arg0) : (i32) -> i32

// A `before` argument that always gets its initial value back is that
// value (`RemoveLoopInvariantArgsFromBeforeBlock`).
// CHECK-LABEL: func.func @unused_result(
// CHECK:         scf.while (%[[A:.*]] = %arg0) : (i32) -> i32 {
// CHECK-NEXT:      arith.cmpi slt, %[[A]], %arg1 : i32
// CHECK:           scf.yield %{{.*}} : i32

// The unused `before` argument stays in 15.
// CHECK-LABEL: func.func @unused_arg(
// CHECK:         scf.while (%{{.*}} = %arg0, %{{.*}} = %arg2) : (i32, i32) -> i32 {

// A value passed on from outside the loop is used directly
// (`RemoveLoopInvariantValueYielded`), and the invariant `%arg1` too.
// CHECK-LABEL: func.func @invariant(
// CHECK:         %[[W:.*]] = scf.while (%[[A:.*]] = %arg0) : (i32) -> i32 {
// CHECK-NEXT:      arith.cmpi slt, %[[A]], %arg1 : i32
// CHECK:           arith.addi %{{.*}}, %arg2 : i32
// CHECK:         return %[[W]], %arg2 : i32, i32

func.func @group_only_awaited(%n: index) {
  %g = async.create_group %n : !async.group
  async.await_all %g
  async.await_all %g
  return
}
func.func @indirect(%a: i32) -> i32 {
  %f = func.constant @callee : (i32) -> i32
  %0 = func.call_indirect %f(%a) : (i32) -> i32
  return %0 : i32
}
func.func private @callee(%a: i32) -> i32
func.func @unused_result(%lo: i32, %hi: i32) -> i32 {
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
func.func @unused_arg(%lo: i32, %hi: i32, %k: i32) -> i32 {
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
func.func @invariant(%lo: i32, %hi: i32, %k: i32) -> (i32, i32) {
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
