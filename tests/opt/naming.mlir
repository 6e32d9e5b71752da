// The printer names values as mlir-opt does: hints from ops, uniqued with
// _N suffixes, numbered otherwise, result groups, block labels with
// predecessor comments.
// RUN: mlir-opt %s -allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func @names(%arg0: i32, %arg1: !async.token)
func @names(%a: i32, %t: !async.token) -> i32 {
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  // CHECK-NEXT: %c0_0 = arith.constant 0 : index
  // CHECK-NEXT: %c7_i32 = arith.constant 7 : i32
  // CHECK-NEXT: %cst = arith.constant 1.500000e+00 : f32
  // CHECK-NEXT: %false = arith.constant false
  %x = arith.constant 0 : index
  %y = arith.constant 0 : index
  %z = arith.constant 7 : i32
  %f = arith.constant 1.5 : f32
  %b = arith.constant false
  // CHECK-NEXT: %0:3 = "test.three"() : () -> (i32, i32, i32)
  %r:3 = "test.three"() : () -> (i32, i32, i32)
  // CHECK-NEXT: %token, %results:2 = async.execute [%arg1] -> (!async.value<i32>, !async.value<i32>) {
  // CHECK-NEXT:   async.yield %0#1, %0#2 : i32, i32
  // CHECK-NEXT: }
  %tok, %v:2 = async.execute [%t] -> (!async.value<i32>, !async.value<i32>) {
    async.yield %r#1, %r#2 : i32, i32
  }
  // CHECK-NEXT: br ^bb1(%0#0 : i32)
  br ^bb1(%r#0 : i32)
// CHECK-NEXT: ^bb1(%1: i32):  // 2 preds: ^bb0, ^bb1
^bb1(%k: i32):
  // CHECK-NEXT: %2 = arith.addi %1, %c7_i32 : i32
  %s = arith.addi %k, %z : i32
  // CHECK-NEXT: cond_br %false, ^bb1(%2 : i32), ^bb2
  cond_br %b, ^bb1(%s : i32), ^bb2
// CHECK-NEXT: ^bb2:  // pred: ^bb1
^bb2:
  // CHECK-NEXT: return %2 : i32
  return %s : i32
}
