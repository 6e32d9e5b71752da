// RUN: mlir-opt %s -async-to-async-runtime=eliminate-blocking-await-ops=true | FileCheck %s

// An await inside scf.parallel in a function that becomes a coroutine:
// the loop is lowered to a scf.for nest and then to branches (as
// upstream's SCFToControlFlow patterns lower it), and the await suspends
// inside the loop body. mlir-opt-15 fails here: "failed to legalize
// operation 'async.await' that was explicitly marked illegal".

// CHECK-LABEL: func.func @await_in_parallel
// CHECK-SAME:    -> !async.token
// CHECK:         cf.br ^bb2(%c0 : index)
// CHECK:       ^bb2(%[[I:.*]]: index):  // 2 preds: ^bb1, ^bb5
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi slt, %[[I]], %arg1 : index
// CHECK-NEXT:    cf.cond_br %[[C]], ^bb3, ^bb6
// CHECK:       ^bb3:
// CHECK:         async.runtime.await_and_resume %arg0
// CHECK-NEXT:    async.coro.suspend
// CHECK:       ^bb5:
// CHECK-NEXT:    memref.store %c7_i32, %arg2[%[[I]]] : memref<8xi32>
// CHECK-NEXT:    %[[N:.*]] = arith.addi %[[I]], %c1 : index
// CHECK-NEXT:    cf.br ^bb2(%[[N]] : index)
// CHECK-NOT:     scf.
func.func @await_in_parallel(%t: !async.token, %n: index, %m: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 7 : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    async.await %t : !async.token
    memref.store %v, %m[%i] : memref<8xi32>
    scf.yield
  }
  return
}
