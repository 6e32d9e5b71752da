// A function with a block no branch reaches. Upstream's conversion driver
// stops with "unreachable blocks were not converted" (LLVM 14 and 15);
// mlir-async lowers the function and keeps the block, lowered like the
// others.
// RUN: mlir-opt %s -async-to-async-runtime | FileCheck %s
// RUN: mlir-opt %s -async-to-async-runtime="eliminate-blocking-await-ops=true" \
// RUN:   | FileCheck %s --check-prefix=ELIM

// CHECK-LABEL: func.func @unreachable_tail(%arg0: !async.token) {
// CHECK:         async.runtime.await %arg0 : !async.token
// CHECK:         cf.assert
// CHECK-NEXT:    return
// CHECK-NEXT:  ^bb1:  // no predecessors
// CHECK-NEXT:    return

// As a coroutine, the unreachable return completes the token too.
// ELIM-LABEL: func.func @unreachable_tail(%arg0: !async.token) -> !async.token
// ELIM:         async.runtime.await_and_resume %arg0
// ELIM:       ^[[DEAD:bb[0-9]+]]:  // no predecessors
// ELIM-NEXT:    async.runtime.set_available %0 : !async.token
// ELIM-NEXT:    cf.br ^[[CLEANUP:bb[0-9]+]]
// ELIM:       ^[[CLEANUP]]:  // 4 preds: {{.*}}^[[DEAD]]
// ELIM-NEXT:    async.coro.free
func.func @unreachable_tail(%t: !async.token) {
  async.await %t : !async.token
  return
^bb1:
  return
}
