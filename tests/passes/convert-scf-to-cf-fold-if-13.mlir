// RUN: mlir-async-opt %s -convert-scf-to-std | FileCheck %s

// LLVM 13's `scf.if` had no folder: the condition stays negated
// (checked against mlir-opt-13; 14 and 15 in convert-scf-to-cf-fold-if.mlir).

// CHECK-LABEL: func @negated
// CHECK:         %0 = xor %arg0, %true : i1
// CHECK-NEXT:    cond_br %0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    br ^bb3(%arg1 : i32)
func @negated(%c: i1, %a: i32, %b: i32) -> i32 {
  %t = constant true
  %n = xor %c, %t : i1
  %r = scf.if %n -> i32 {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  return %r : i32
}
