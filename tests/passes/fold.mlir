// MLIR's dialect conversion folds, on the way, every op whose legality the
// target leaves open; async-to-async-runtime lowers with it, so mlir-opt
// prints its output folded. The folds below print as mlir-opt-15 prints
// them (crates/tools/tests/fold_differential.rs compares random code with
// mlir-opt-14 and mlir-opt-15).
// RUN: mlir-opt %s -async-to-async-runtime | FileCheck %s

// CHECK-LABEL: func.func @identities(%arg0: i32, %arg1: i32) -> (i32, i32, i32, i32)
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// Folding erases only the op folded: the subi stays, unused.
// CHECK-NEXT:    %0 = arith.subi %arg0, %arg1 : i32
// CHECK-NEXT:    return %arg0, %arg0, %c0_i32, %arg0 : i32, i32, i32, i32
func.func @identities(%x: i32, %y: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = arith.addi %x, %c0 : i32
  %m = arith.muli %x, %c1 : i32
  // x * 0 is the zero operand itself, no new constant.
  %z = arith.muli %y, %c0 : i32
  %s = arith.subi %x, %y : i32
  %b = arith.addi %s, %y : i32
  return %a, %m, %z, %b : i32, i32, i32, i32
}

// Constant operands fold to a new constant, built where the op was.
// CHECK-LABEL: func.func @constants() -> (i32, i1, i8)
// CHECK-NEXT:    %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:    %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:    %c6_i32 = arith.constant 6 : i32
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT:    return %c6_i32, %true, %c-1_i8 : i32, i1, i8
func.func @constants() -> (i32, i1, i8) {
  %c7 = arith.constant 7 : i32
  %cm1 = arith.constant -1 : i32
  %s = arith.addi %c7, %cm1 : i32
  %p = arith.cmpi ugt, %cm1, %c7 : i32
  %t = arith.trunci %cm1 : i32 to i8
  return %s, %p, %t : i32, i1, i8
}

// The driver replaces values only once it is done: a fold never sees the
// constant another fold makes. 15 also moves a constant cmpi operand to
// the right, in place.
// CHECK-LABEL: func.func @one_at_a_time(%arg0: i32) -> (i32, i1)
// CHECK:         %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT:    %0 = arith.addi %c4_i32, %c2_i32 : i32
// CHECK-NEXT:    %1 = arith.cmpi sgt, %arg0, %c2_i32 : i32
// CHECK-NEXT:    return %0, %1 : i32, i1
func.func @one_at_a_time(%x: i32) -> (i32, i1) {
  %c2 = arith.constant 2 : i32
  %a = arith.muli %c2, %c2 : i32
  %b = arith.addi %a, %c2 : i32
  %p = arith.cmpi slt, %c2, %x : i32
  return %b, %p : i32, i1
}

// Inside an execute, folded in the outlined function.
// CHECK-LABEL: func.func private @async_execute_fn(%arg0: i32)
// CHECK-NOT:     arith.addi
// CHECK:         async.runtime.store %arg0, %1 : <i32>
func.func @in_execute(%x: i32) -> !async.value<i32> {
  %t, %v = async.execute -> !async.value<i32> {
    %c0 = arith.constant 0 : i32
    %y = arith.addi %x, %c0 : i32
    async.yield %y : i32
  }
  return %v : !async.value<i32>
}
