// RUN: mlir-async-opt %s -convert-scf-to-std | FileCheck %s

// The conversion driver folds an illegal op before it lowers it: an
// `scf.if` on `xori %c, true` becomes one on `%c` with its branches
// swapped (`IfOp::fold`, LLVM 14 and 15), then branches. Checked against
// mlir-opt-14 (and mlir-opt-15's -convert-scf-to-cf); 13's `scf.if` had
// no folder (convert-scf-to-cf-fold-if-13.mlir).

// CHECK-LABEL: func @negated
// CHECK:         %0 = arith.xori %arg0, %true : i1
// CHECK-NEXT:    cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    br ^bb3(%arg2 : i32)
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    br ^bb3(%arg1 : i32)
func @negated(%c: i1, %a: i32, %b: i32) -> i32 {
  %t = arith.constant true
  %n = arith.xori %c, %t : i1
  %r = scf.if %n -> i32 {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  return %r : i32
}
