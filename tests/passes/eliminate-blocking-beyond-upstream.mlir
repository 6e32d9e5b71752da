// Cases where upstream's eliminate-blocking-await-ops fails ("failed to
// legalize"), or rejects the module, and mlir-async lowers them.
// RUN: mlir-opt %s -split-input-file \
// RUN:   -async-to-async-runtime="eliminate-blocking-await-ops=true" | FileCheck %s

// An await nested in scf.if still makes the function a coroutine; the
// scf.if becomes branches so that the await can suspend.
// CHECK-LABEL: func.func @await_under_if
// CHECK-SAME: -> (!async.token, !async.value<f32>)
// CHECK: %[[HDL:.*]] = async.coro.begin
// CHECK: cf.cond_br %arg0, ^[[THEN:.*]], ^[[JOIN:.*]]
// CHECK: ^[[THEN]]:
// CHECK:   async.runtime.await_and_resume %arg1, %[[HDL]] : !async.token
// CHECK:   async.coro.suspend
// CHECK-NOT: async.runtime.await %
// CHECK-NOT: scf.if
// CHECK: return
func.func @await_under_if(%c: i1, %t: !async.token) -> f32 {
  %x = arith.constant 1.0 : f32
  scf.if %c {
    async.await %t : !async.token
  }
  return %x : f32
}

// -----

// A loop that awaits in every iteration: the loop-carried value flows
// through block arguments across the suspension point.
// CHECK-LABEL: func.func @await_in_loop
// CHECK: cf.br ^[[HEAD:.*]](%c0, %cst : index, f32)
// CHECK: ^[[HEAD]](%[[IV:.*]]: index, %[[ACC:.*]]: f32):
// CHECK:   %[[CMP:.*]] = arith.cmpi slt, %[[IV]], %arg0 : index
// CHECK:   cf.cond_br %[[CMP]], ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK: ^[[BODY]]:
// CHECK:   async.runtime.await_and_resume %arg1
// CHECK:   %[[LOADED:.*]] = async.runtime.load %arg1 : <f32>
// CHECK:   %[[SUM:.*]] = arith.addf %[[ACC]], %[[LOADED]] : f32
// CHECK:   %[[NEXT:.*]] = arith.addi %[[IV]], %c1 : index
// CHECK:   cf.br ^[[HEAD]](%[[NEXT]], %[[SUM]] : index, f32)
// CHECK: ^[[EXIT]]:
// CHECK:   async.runtime.store %[[ACC]], %{{.*}} : <f32>
func.func @await_in_loop(%n: index, %v: !async.value<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    %e = async.await %v : !async.value<f32>
    %s = arith.addf %acc, %e : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// -----

// scf.if whose result is produced by an await: the join block takes the
// result as an argument.
// CHECK-LABEL: func.func @await_feeds_if_result
// CHECK: async.runtime.await_and_resume %arg1
// CHECK: %[[V:.*]] = async.runtime.load %arg1 : <f32>
// CHECK: cf.br ^[[JOIN:.*]](%[[V]] : f32)
// CHECK: cf.br ^[[JOIN]](%cst : f32)
// CHECK: ^[[JOIN]](%[[R:.*]]: f32):
// CHECK: async.runtime.store %[[R]], %{{.*}} : <f32>
func.func @await_feeds_if_result(%c: i1, %v: !async.value<f32>) -> f32 {
  %r = scf.if %c -> (f32) {
    %e = async.await %v : !async.value<f32>
    scf.yield %e : f32
  } else {
    %z = arith.constant 0.0 : f32
    scf.yield %z : f32
  }
  return %r : f32
}

// -----

// A function referenced by func.constant keeps its coroutine form for
// direct calls; the reference moves to a blocking wrapper with the
// original signature (upstream: "Unexpected reference to func").
// CHECK-LABEL: func.func @referenced
// CHECK-SAME: (%arg0: !async.token) -> !async.token
// CHECK-LABEL: func.func @takes_ref
// CHECK: constant @referenced_blocking : (!async.token) -> ()
// CHECK-LABEL: func.func private @referenced_blocking
// CHECK-SAME: (%arg0: !async.token) attributes {async.allowed_to_block}
// CHECK: %[[T:.*]] = call @referenced(%arg0) : (!async.token) -> !async.token
// CHECK: async.runtime.await %[[T]] : !async.token
func.func @referenced(%t: !async.token) {
  async.await %t : !async.token
  return
}

func.func @takes_ref() -> ((!async.token) -> ()) {
  %f = func.constant @referenced : (!async.token) -> ()
  return %f : (!async.token) -> ()
}

// -----

// Functions marked async.allowed_to_block keep blocking awaits and their
// signature, even when called from a coroutine.
// CHECK-LABEL: func.func @blocker
// CHECK-SAME: (%arg0: !async.token) -> i32 attributes {async.allowed_to_block}
// CHECK: async.runtime.await %arg0 : !async.token
// CHECK-NOT: async.coro
// CHECK: return
func.func @blocker(%t: !async.token) -> i32 attributes {async.allowed_to_block} {
  async.await %t : !async.token
  %c = arith.constant 7 : i32
  return %c : i32
}
