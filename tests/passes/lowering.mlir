// async-to-async-runtime without the option: outlining, groups, values,
// errors, in the 15 syntax.
// RUN: mlir-opt %s -split-input-file -async-to-async-runtime | FileCheck %s

// Groups become runtime groups; await_all outside a coroutine blocks and
// checks the error state.
// CHECK-LABEL: func.func @groups
// CHECK: %[[G:.*]] = async.runtime.create_group %{{.*}} : !async.group
// CHECK: %[[T:.*]] = call @async_execute_fn() : () -> !async.token
// CHECK: async.runtime.add_to_group %[[T]], %[[G]] : !async.token
// CHECK: async.runtime.await %[[G]] : !async.group
// CHECK: %[[ERR:.*]] = async.runtime.is_error %[[G]] : !async.group
// CHECK: cf.assert
// CHECK-NOT: async.await_all
func.func @groups() {
  %c1 = arith.constant 1 : index
  %g = async.create_group %c1 : !async.group
  %t = async.execute {
    async.yield
  }
  %i = async.add_to_group %t, %g : !async.token
  async.await_all %g
  return
}

// -----

// A yielded value is stored into the returned !async.value; the caller's
// await loads it. Constants are cloned into the body, other captured
// values become arguments.
// CHECK-LABEL: func.func @values
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[R:.*]]:2 = call @async_execute_fn(%[[X]]) : (f32) -> (!async.token, !async.value<f32>)
// CHECK: async.runtime.await %[[R]]#1 : !async.value<f32>
// CHECK: async.runtime.load %[[R]]#1 : <f32>
// CHECK-LABEL: func.func private @async_execute_fn
// CHECK-SAME: (%[[A:.*]]: f32) -> (!async.token, !async.value<f32>)
// CHECK-SAME: attributes {passthrough = ["presplitcoroutine"]}
// CHECK: %[[TOKEN:.*]] = async.runtime.create : !async.token
// CHECK: %[[VALUE:.*]] = async.runtime.create : !async.value<f32>
// CHECK: async.runtime.resume
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[P:.*]] = arith.mulf %[[A]], %[[TWO]] : f32
// CHECK: async.runtime.store %[[P]], %[[VALUE]] : <f32>
// CHECK: async.runtime.set_available %[[VALUE]] : !async.value<f32>
// CHECK: async.runtime.set_available %[[TOKEN]] : !async.token
func.func @values(%x: f32) -> f32 {
  %two = arith.constant 2.0 : f32
  %t, %v = async.execute -> !async.value<f32> {
    %p = arith.mulf %x, %two : f32
    async.yield %p : f32
  }
  %r = async.await %v : !async.value<f32>
  return %r : f32
}

// -----

// An assert inside a coroutine branches to the set_error block instead of
// aborting the program.
// CHECK-LABEL: func.func private @async_execute_fn
// CHECK: cf.cond_br %arg0, ^[[OK:.*]], ^[[ERROR:.*]]
// CHECK: ^[[ERROR]]:
// CHECK-NEXT: async.runtime.set_error %{{.*}} : !async.token
// CHECK-NOT: cf.assert
func.func @asserts(%c: i1) {
  %t = async.execute {
    cf.assert %c, "must hold"
    async.yield
  }
  return
}

// -----

// Nested executes are outlined innermost first: the inner one gets the
// first name and the outer coroutine calls it.
// CHECK-LABEL: func.func @nested
// CHECK: call @async_execute_fn_0(
// CHECK-LABEL: func.func private @async_execute_fn(
// CHECK-LABEL: func.func private @async_execute_fn_0(
// CHECK: call @async_execute_fn(
func.func @nested(%x: f32, %m: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %outer = async.execute {
    %inner = async.execute {
      memref.store %x, %m[%c0] : memref<1xf32>
      async.yield
    }
    async.await %inner : !async.token
    async.yield
  }
  return
}
