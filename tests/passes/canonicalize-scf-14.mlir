// RUN: mlir-async-opt %s -canonicalize | FileCheck %s

// Where LLVM 14's scf canonicalizations differ from 15's
// (canonicalize-scf.mlir); checked against mlir-opt-14.

// 14 turns an `if` into selects only when both branches do nothing but
// yield.
// CHECK-LABEL: func @to_select
// CHECK-NEXT:    %0:2 = scf.if %arg0 -> (i32, i32) {
// CHECK-NEXT:      %1 = memref.load %arg3[%arg4]
// CHECK-NEXT:      scf.yield %arg1, %1 : i32, i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %arg2, %arg2 : i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0#0, %0#1 : i32, i32
func @to_select(%c: i1, %x: i32, %y: i32, %m: memref<4xi32>, %i: index) -> (i32, i32) {
  %r:2 = scf.if %c -> (i32, i32) {
    %l = memref.load %m[%i] : memref<4xi32>
    scf.yield %x, %l : i32, i32
  } else {
    scf.yield %y, %y : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

// CHECK-LABEL: func @trivial_to_select
// CHECK-NEXT:    %0 = select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT:    return %0, %arg2 : i32, i32
func @trivial_to_select(%c: i1, %x: i32, %y: i32) -> (i32, i32) {
  %r:2 = scf.if %c -> (i32, i32) {
    scf.yield %x, %y : i32, i32
  } else {
    scf.yield %y, %y : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

// 14 combines `if`s on the same condition only.
// CHECK-LABEL: func @combine_negated_ifs
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %0 = arith.xori %arg0, %true : i1
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      memref.store %arg3, %arg1[%arg2]
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %0 {
// CHECK-NEXT:      memref.store %arg4, %arg1[%arg2]
// CHECK-NEXT:    }
func @combine_negated_ifs(%c: i1, %m: memref<4xi32>, %i: index, %x: i32, %y: i32) {
  %true = arith.constant true
  %n = arith.xori %c, %true : i1
  scf.if %c {
    memref.store %x, %m[%i] : memref<4xi32>
  }
  scf.if %n {
    memref.store %y, %m[%i] : memref<4xi32>
  }
  return
}

// 14 joins nested `if`s only without results and `else`.
// CHECK-LABEL: func @nested_ifs_with_results
// CHECK-NEXT:    %0 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      %1 = scf.if %arg1 -> (i32) {
// CHECK:         return %0 : i32
func @nested_ifs_with_results(%a: i1, %b: i1, %m: memref<4xi32>, %i: index, %x: i32, %y: i32) -> i32 {
  %r = scf.if %a -> (i32) {
    %s = scf.if %b -> (i32) {
      %l = memref.load %m[%i] : memref<4xi32>
      scf.yield %l : i32
    } else {
      scf.yield %y : i32
    }
    scf.yield %s : i32
  } else {
    scf.yield %y : i32
  }
  return %r : i32
}

// 14 keeps a loop that runs several times even when its body only yields
// a value from outside.
// CHECK-LABEL: func @loop_yielding_outside_value
// CHECK:         %0 = scf.for %arg2 = %c0 to %c4 step %c1 iter_args(%arg3 = %arg0) -> (i32) {
// CHECK-NEXT:      scf.yield %arg1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0 : i32
func @loop_yielding_outside_value(%x: i32, %y: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %d = scf.for %iv = %c0 to %c4 step %c1 iter_args(%t = %x) -> (i32) {
    scf.yield %y : i32
  }
  return %d : i32
}
