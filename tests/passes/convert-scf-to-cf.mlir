// RUN: mlir-opt %s -convert-scf-to-cf | FileCheck %s

// Structured control flow to branches, as LLVM 15 lowers it: a do-while
// loop (the "after" region only hands its arguments back) loops on its
// "before" region alone, and the loop's result is the value the condition
// forwards; a loop nest enters each body through its condition block; a
// multi-block execute_region returns through the block after it.

// CHECK-LABEL: func.func @shapes
// CHECK:         cf.br ^bb1(%arg0 : i32)
// CHECK-NEXT:  ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    %1 = arith.subi %0, %c1_i32 : i32
// CHECK-NEXT:    %2 = arith.cmpi sgt, %1, %c0_i32 : i32
// CHECK-NEXT:    cf.cond_br %2, ^bb1(%1 : i32), ^bb2
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK:         cf.br ^bb3(%c0 : index)
// CHECK-NEXT:  ^bb3(%[[I:.*]]: index):  // 2 preds: ^bb2, ^bb[[LATCH:[0-9]+]]
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi slt, %[[I]], %c4 : index
// CHECK-NEXT:    cf.cond_br %[[C]], ^bb4, ^bb[[EXIT:[0-9]+]]
// CHECK:       ^bb7:  // pred: ^bb6
// CHECK-NEXT:    cf.br ^bb8
// CHECK-NEXT:  ^bb8:  // pred: ^bb7
// CHECK-NEXT:    cf.br ^bb9(%1, %c0_i32 : i32, i32)
// CHECK-NEXT:  ^bb9(%{{.*}}: i32, %{{.*}}: i32):  // pred: ^bb8
// CHECK:       ^bb[[LATCH]]:
// CHECK:         cf.br ^bb3(
// CHECK:       ^bb[[EXIT]]:
// CHECK:         cf.cond_br %{{.*}}, ^bb{{[0-9]+}}, ^bb{{[0-9]+}}
// CHECK:         return %{{.*}} : i32
// CHECK-NOT:   scf.
func.func @shapes(%n: i32, %m: memref<8xi32>) -> i32 {
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %w = scf.while (%x = %n) : (i32) -> i32 {
    %y = arith.subi %x, %one : i32
    %cond = arith.cmpi sgt, %y, %z : i32
    scf.condition(%cond) %y : i32
  } do {
  ^bb0(%a: i32):
    scf.yield %a : i32
  }
  %cc = arith.cmpi eq, %w, %n : i32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %i step %c1 {
      %e:2 = scf.execute_region -> (i32, i32) {
        cf.br ^bb1
      ^bb1:
        scf.yield %w, %z : i32, i32
      }
      memref.store %e#0, %m[%j] : memref<8xi32>
    }
  }
  %r = scf.if %cc -> (i32) {
    scf.yield %w : i32
  } else {
    scf.yield %n : i32
  }
  return %r : i32
}
