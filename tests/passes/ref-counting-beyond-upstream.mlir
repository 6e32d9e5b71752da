// RUN: mlir-opt %s -async-runtime-ref-counting | FileCheck %s

// Upstream's miscompile, fixed: the token %0 is live into both successors
// of the entry block, %arg0 only into ^bb1. Handling %arg0 first adds a
// block on the edge to ^bb2 that drops it. LLVM 14 and 15 then look at %0
// with liveness computed before that block existed, take the new block
// for a successor %0 is not live into, and drop %0 there: the await in
// ^bb3 then reads a freed token on that path. Here the new block knows
// what is live through it, and only %arg0 is dropped on that edge.

// CHECK-LABEL: func @token_live_through_new_block
// CHECK:         %[[T:.*]] = async.runtime.create : !async.token
// CHECK:         cond_br %arg1, ^bb1, ^bb2
// CHECK:       ^bb1:
// CHECK-NEXT:    async.runtime.await %arg0 : !async.token
// CHECK-NEXT:    async.runtime.drop_ref %arg0 {count = 1 : i64} : !async.token
// CHECK-NEXT:    br ^bb3
// CHECK:       ^bb2:
// CHECK-NEXT:    async.runtime.drop_ref %arg0 {count = 1 : i64} : !async.token
// CHECK-NEXT:    br ^bb3
// CHECK:       ^bb3:
// CHECK-NEXT:    async.runtime.await %[[T]] : !async.token
// CHECK-NEXT:    async.runtime.drop_ref %[[T]] {count = 1 : i64} : !async.token
// CHECK-NEXT:    return
func @token_live_through_new_block(%a: !async.token, %c: i1) {
  %b = async.runtime.create : !async.token
  cond_br %c, ^bb1, ^bb2
^bb1:
  async.runtime.await %a : !async.token
  br ^bb2
^bb2:
  async.runtime.await %b : !async.token
  return
}
