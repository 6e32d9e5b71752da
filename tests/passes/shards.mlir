// A module run in parts (--mlir-shards=3) lowers as the whole module does.
// The text is cut at the first function after a third and after two
// thirds: @top alone in the first part; @blocker, @spawner and @mid in
// the second; @plain, @leaf and @async_execute_fn_1 in the last.
// RUN: mlir-opt %s --mlir-shards=3 \
// RUN:   -async-to-async-runtime="eliminate-blocking-await-ops=true" \
// RUN:   | FileCheck %s
// RUN: mlir-opt %s --mlir-shards=3 -async-to-async-runtime \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
// RUN: mlir-opt %s --mlir-shards=3 \
// RUN:   -async-to-async-runtime="eliminate-blocking-await-ops=true" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PARTS
// RUN: mlir-opt %s --mlir-shards=3 -async-to-async-runtime 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PARTS

// It did run in parts: there is no note saying it ran whole.
// PARTS-NOT: runs whole

// The await in @leaf makes @mid a coroutine, and @mid makes @top one,
// although no part holds two of them.
// CHECK-LABEL: func.func @top(%arg0: f32) -> (!async.token, !async.value<f32>)
// CHECK:   call @async_execute_fn() : () -> !async.token
// CHECK:   %[[C:.*]]:2 = call @mid(%arg0) : (f32) -> (!async.token, !async.value<f32>)
// CHECK:   async.runtime.await_and_resume %[[C]]#0
// DEFAULT-LABEL: func.func @top(%arg0: f32) -> f32 {
// DEFAULT:   call @async_execute_fn() : () -> !async.token
// DEFAULT:   call @mid(%arg0) : (f32) -> f32
func.func @top(%x: f32) -> f32 {
  %t = async.execute {
    async.yield
  }
  %r = func.call @mid(%x) : (f32) -> f32
  return %r : f32
}

// Allowed to block: it keeps its signature and waits for @mid.
// CHECK-LABEL: func.func @blocker(%arg0: f32) -> f32
// CHECK:   %[[B:.*]]:2 = call @mid(%arg0) : (f32) -> (!async.token, !async.value<f32>)
// CHECK:   async.runtime.await %[[B]]#0 : !async.token
func.func @blocker(%x: f32) -> f32 attributes {async.allowed_to_block} {
  %r = func.call @mid(%x) : (f32) -> f32
  return %r : f32
}

// It awaits and calls @leaf only inside an execute: the execute's body
// becomes the coroutine, and @spawner stays a plain function.
// CHECK-LABEL: func.func @spawner(%arg0: f32) {
// CHECK-NEXT:    call @async_execute_fn_0(%arg0) : (f32) -> !async.token
// CHECK-NEXT:    return
func.func @spawner(%x: f32) {
  %t = async.execute {
    %r = func.call @leaf(%x) : (f32) -> f32
    async.yield
  }
  return
}

// Its first execute would be @async_execute_fn_1, a name the last part
// defines: the numbering skips it here too.
// CHECK-LABEL: func.func @mid(%arg0: f32) -> (!async.token, !async.value<f32>)
// CHECK:   call @async_execute_fn_2(%arg0) : (f32) -> (!async.token, !async.value<f32>)
// CHECK:   call @async_execute_fn_3(%arg0) : (f32) -> !async.token
// CHECK:   call @leaf(%arg0) : (f32) -> (!async.token, !async.value<f32>)
// DEFAULT-LABEL: func.func @mid(%arg0: f32) -> f32 {
// DEFAULT:   call @async_execute_fn_2(%arg0) : (f32) -> (!async.token, !async.value<f32>)
// DEFAULT:   call @async_execute_fn_3(%arg0) : (f32) -> !async.token
func.func @mid(%x: f32) -> f32 {
  %t, %v = async.execute -> !async.value<f32> {
    async.yield %x : f32
  }
  %u = async.execute {
    %y = arith.mulf %x, %x : f32
    async.yield
  }
  %r = func.call @leaf(%x) : (f32) -> f32
  return %r : f32
}

// CHECK-LABEL: func.func @plain(%arg0: f32) -> f32 {
// CHECK-NEXT:    arith.addf %arg0, %arg0 : f32
// CHECK-NEXT:    return %arg0 : f32
func.func @plain(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %x : f32
}

// CHECK-LABEL: func.func @leaf(%arg0: f32) -> (!async.token, !async.value<f32>)
// CHECK:   call @async_execute_fn_4(%arg0) : (f32) -> (!async.token, !async.value<f32>)
// DEFAULT-LABEL: func.func @leaf(%arg0: f32) -> f32 {
// DEFAULT:   call @async_execute_fn_4(%arg0)
// DEFAULT:   async.runtime.await %{{.*}} : !async.value<f32>
func.func @leaf(%x: f32) -> f32 {
  %t, %v = async.execute -> !async.value<f32> {
    async.yield %x : f32
  }
  %r = async.await %v : !async.value<f32>
  return %r : f32
}

// CHECK-LABEL: func.func @async_execute_fn_1() {
// DEFAULT-LABEL: func.func @async_execute_fn_1() {
func.func @async_execute_fn_1() {
  return
}

// Outlined functions follow, numbered in module order across the parts.
// CHECK-LABEL: func.func private @async_execute_fn()
// CHECK-LABEL: func.func private @async_execute_fn_0(%arg0: f32)
// CHECK-LABEL: func.func private @async_execute_fn_2(%arg0: f32)
// CHECK-LABEL: func.func private @async_execute_fn_3(%arg0: f32)
// CHECK-LABEL: func.func private @async_execute_fn_4(%arg0: f32)
// DEFAULT-LABEL: func.func private @async_execute_fn()
// DEFAULT-LABEL: func.func private @async_execute_fn_0(%arg0: f32)
// DEFAULT-LABEL: func.func private @async_execute_fn_2(%arg0: f32)
// DEFAULT-LABEL: func.func private @async_execute_fn_3(%arg0: f32)
// DEFAULT-LABEL: func.func private @async_execute_fn_4(%arg0: f32)
