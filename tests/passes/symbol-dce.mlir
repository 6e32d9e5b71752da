// RUN: mlir-async-opt %s -symbol-dce | FileCheck %s

// Private symbols nothing live refers to go, cycles among them too; a
// public symbol keeps what it calls; a nested table is visited through
// its own visibility (a private module and everything in it go).

// CHECK-LABEL: module {
// CHECK-NOT:     @unused
// CHECK:         func private @callee()
// CHECK:         func private @middle()
// CHECK-NEXT:      call @callee()
// CHECK:         func @entry()
// CHECK-NOT:     @ping
// CHECK-NOT:     @pong
// CHECK:         module @visible {
// CHECK-NEXT:      func @kept()
// CHECK-NOT:       @dropped
// CHECK-NOT:     module @private_table
// CHECK-NOT:     @inside_private
module {
  func private @unused() {
    return
  }
  func private @callee() {
    return
  }
  func private @middle() {
    call @callee() : () -> ()
    return
  }
  func @entry() {
    call @middle() : () -> ()
    return
  }
  func private @ping() {
    call @pong() : () -> ()
    return
  }
  func private @pong() {
    call @ping() : () -> ()
    return
  }
  module @visible {
    func @kept() { return }
    func private @dropped() { return }
  }
  module @private_table attributes {sym_visibility = "private"} {
    func @inside_private() { return }
  }
}
