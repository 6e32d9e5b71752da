// The async ops' custom forms are their ODS assembly formats: an
// attribute dictionary sits where the format puts it (after the type for
// `async.add_to_group` and the group creations, before it elsewhere),
// types the format does not spell come from the op's declaration, and
// 14 writes `!async.value<T>` short where the format types it.
// mlir-opt-14 prints the same (checked with FileCheck-14).
// RUN: mlir-opt %s | FileCheck %s

// CHECK-LABEL: func @groups
func @groups(%t: !async.token, %g: !async.group, %n: index) {
  // CHECK: async.create_group %{{.*}} : !async.group {a}
  %0 = async.create_group %n : !async.group {a}
  // CHECK: async.add_to_group %{{.*}}, %{{.*}} : !async.token {b}
  %1 = async.add_to_group %t, %g : !async.token {b}
  // CHECK: async.runtime.create_group %{{.*}} : !async.group {c}
  %2 = async.runtime.create_group %n : !async.group {c}
  // CHECK: async.runtime.add_to_group %{{.*}}, %{{.*}} {d} : !async.token
  %3 = async.runtime.add_to_group %t, %g {d} : !async.token
  // CHECK: async.await_all %{{.*}} {e}
  async.await_all %g {e}
  // CHECK: async.await %{{.*}} : !async.token {f}
  async.await %t : !async.token {f}
  return
}

// CHECK-LABEL: func @values
func @values(%v: !async.value<f32>, %x: f32) {
  // CHECK: async.runtime.store %{{.*}}, %{{.*}} {a} : <f32>
  async.runtime.store %x, %v {a} : !async.value<f32>
  // CHECK: %{{.*}} = async.runtime.load %{{.*}} {b} : <f32>
  %0 = async.runtime.load %v {b} : <f32>
  // CHECK: %{{.*}} = async.await %{{.*}} : !async.value<f32>
  %1 = async.await %v : !async.value<f32>
  // CHECK: async.execute
  // CHECK-NEXT: async.yield {c}
  %t = async.execute {
    async.yield {c}
  }
  // CHECK: async.execute
  // CHECK-NEXT: async.yield %{{.*}}, %{{.*}} : f32, f32 {d}
  %u:3 = async.execute -> (!async.value<f32>, !async.value<f32>) {
    async.yield %x, %x : f32, f32 {d}
  }
  return
}

// CHECK-LABEL: func @coro
func @coro() {
  // CHECK: %[[ID:.*]] = async.coro.id {a}
  %id = async.coro.id {a}
  // CHECK: %[[H:.*]] = async.coro.begin %[[ID]]
  %h = async.coro.begin %id
  // CHECK: %[[S:.*]] = async.coro.save %[[H]] {b}
  %s = async.coro.save %h {b}
  // CHECK: async.runtime.resume %[[H]] {c}
  async.runtime.resume %h {c}
  // CHECK: async.coro.suspend %[[S]], ^bb1, ^bb2, ^bb2 {d}
  async.coro.suspend %s, ^suspend, ^cleanup, ^cleanup {d}
^suspend:
  // CHECK: async.coro.free %[[ID]], %[[H]]
  async.coro.free %id, %h
  // CHECK: async.coro.end %[[H]] {e}
  async.coro.end %h {e}
  return
^cleanup:
  return
}
