// RUN: mlir-async-opt %s -canonicalize | FileCheck %s

// The greedy driver skips region simplification when one light walk
// shows it would find nothing: no unused effect-free op, every region one
// block, no op with results in a graph region. A dead cycle is what the
// walk cannot see by looking at uses: in the module's graph region the
// two additions use each other, so neither is unused, and only the
// liveness analysis of region simplification erases them (as mlir-opt
// does). The function's unused multiplication goes on the driver's own
// worklist.

// CHECK:      module {
// CHECK-NEXT:   func @f(%arg0: i32) -> i32 {
// CHECK-NEXT:     return %arg0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
module {
  %0 = arith.addi %1, %1 : i32
  %1 = arith.addi %0, %0 : i32
  func @f(%a: i32) -> i32 {
    %c = arith.constant 3 : i32
    %d = arith.muli %a, %c : i32
    return %a : i32
  }
}
