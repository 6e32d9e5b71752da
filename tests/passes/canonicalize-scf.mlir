// RUN: mlir-async-opt %s -canonicalize | FileCheck %s
// RUN: mlir-async-opt %s -canonicalize -canonicalize | FileCheck %s

// The scf.if and scf.for canonicalizations of LLVM 15 (checked against
// mlir-opt-15; canonicalize-scf-14.mlir has what LLVM 14 does otherwise).

// A constant condition: the branch taken replaces the `if`.
// CHECK-LABEL: func.func @static_condition
// CHECK-NEXT:    memref.store %arg2, %arg0[%arg1]
// CHECK-NEXT:    return %arg2 : i32
func.func @static_condition(%m: memref<4xi32>, %i: index, %x: i32) -> i32 {
  %true = arith.constant true
  %r = scf.if %true -> (i32) {
    memref.store %x, %m[%i] : memref<4xi32>
    scf.yield %x : i32
  } else {
    %l = memref.load %m[%i] : memref<4xi32>
    scf.yield %l : i32
  }
  return %r : i32
}

// Results both branches compute outside the `if` become selects (15
// hoists them even when a branch does more; 14 needs both branches empty).
// CHECK-LABEL: func.func @to_select
// CHECK-NEXT:    %0 = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT:    %1 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      %2 = memref.load %arg3[%arg4]
// CHECK-NEXT:      scf.yield %2 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %arg2 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0, %1 : i32, i32
func.func @to_select(%c: i1, %x: i32, %y: i32, %m: memref<4xi32>, %i: index) -> (i32, i32) {
  %r:2 = scf.if %c -> (i32, i32) {
    %l = memref.load %m[%i] : memref<4xi32>
    scf.yield %x, %l : i32, i32
  } else {
    scf.yield %y, %y : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

// Inside the branches the condition is known; a result yielding the
// condition on both sides is the condition.
// CHECK-LABEL: func.func @condition_propagation
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      memref.store %true, %arg1[%arg2]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %false, %arg1[%arg2]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %arg0 : i1
func.func @condition_propagation(%c: i1, %m: memref<4xi1>, %i: index) -> i1 {
  %r = scf.if %c -> (i1) {
    memref.store %c, %m[%i] : memref<4xi1>
    scf.yield %c : i1
  } else {
    memref.store %c, %m[%i] : memref<4xi1>
    scf.yield %c : i1
  }
  return %r : i1
}

// Yielding true/false is the condition; false/true its negation.
// CHECK-LABEL: func.func @yield_condition
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %0 = arith.xori %arg0, %true : i1
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      memref.store %arg3, %arg1[%arg2]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %arg0, %0 : i1, i1
func.func @yield_condition(%c: i1, %m: memref<4xi32>, %i: index, %x: i32) -> (i1, i1) {
  %true = arith.constant true
  %false = arith.constant false
  %r:2 = scf.if %c -> (i1, i1) {
    memref.store %x, %m[%i] : memref<4xi32>
    scf.yield %true, %false : i1, i1
  } else {
    scf.yield %false, %true : i1, i1
  }
  return %r#0, %r#1 : i1, i1
}

// The fold: an `if` on a negation swaps its branches.
// CHECK-LABEL: func.func @negated_condition
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      memref.store %arg4, %arg1[%arg2]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %arg3, %arg1[%arg2]
// CHECK-NEXT:    }
func.func @negated_condition(%c: i1, %m: memref<4xi32>, %i: index, %x: i32, %y: i32) {
  %true = arith.constant true
  %n = arith.xori %c, %true : i1
  scf.if %n {
    memref.store %x, %m[%i] : memref<4xi32>
  } else {
    memref.store %y, %m[%i] : memref<4xi32>
  }
  return
}

// Two `if`s in a row on one condition become one.
// CHECK-LABEL: func.func @combine_ifs
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      memref.store %arg3, %arg1[%arg2]
// CHECK-NEXT:      memref.store %arg4, %arg1[%arg2]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %arg3, %arg1[%arg2]
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @combine_ifs(%c: i1, %m: memref<4xi32>, %i: index, %x: i32, %y: i32) {
  scf.if %c {
    memref.store %x, %m[%i] : memref<4xi32>
  }
  scf.if %c {
    memref.store %y, %m[%i] : memref<4xi32>
  } else {
    memref.store %x, %m[%i] : memref<4xi32>
  }
  return
}

// 15 also combines an `if` on the negated condition, as the `else`.
// CHECK-LABEL: func.func @combine_negated_ifs
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      memref.store %arg3, %arg1[%arg2]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %arg4, %arg1[%arg2]
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @combine_negated_ifs(%c: i1, %m: memref<4xi32>, %i: index, %x: i32, %y: i32) {
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

// CHECK-LABEL: func.func @nested_ifs
// CHECK-NEXT:    %0 = arith.andi %arg0, %arg1 : i1
// CHECK-NEXT:    scf.if %0 {
// CHECK-NEXT:      memref.store %arg4, %arg2[%arg3]
// CHECK-NEXT:    }
func.func @nested_ifs(%a: i1, %b: i1, %m: memref<4xi32>, %i: index, %x: i32) {
  scf.if %a {
    scf.if %b {
      memref.store %x, %m[%i] : memref<4xi32>
    }
  }
  return
}

// 15 also joins nested `if`s with results when the `else`s yield alike.
// CHECK-LABEL: func.func @nested_ifs_with_results
// CHECK-NEXT:    %0 = arith.andi %arg0, %arg1 : i1
// CHECK-NEXT:    %1 = scf.if %0 -> (i32) {
// CHECK-NEXT:      %2 = memref.load %arg2[%arg3]
// CHECK-NEXT:      scf.yield %2 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %arg5 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %1 : i32
func.func @nested_ifs_with_results(%a: i1, %b: i1, %m: memref<4xi32>, %i: index, %x: i32, %y: i32) -> i32 {
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

// An unused result goes; the load that computed it is dead then.
// CHECK-LABEL: func.func @unused_results
// CHECK-NEXT:    %0 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      memref.store %arg3, %arg1[%arg2]
// CHECK-NEXT:      scf.yield %arg3 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %1 = memref.load %arg1[%arg2]
// CHECK-NEXT:      scf.yield %1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0 : i32
func.func @unused_results(%c: i1, %m: memref<4xi32>, %i: index, %x: i32, %y: i32) -> i32 {
  %r:2 = scf.if %c -> (i32, i32) {
    %l = memref.load %m[%i] : memref<4xi32>
    memref.store %x, %m[%i] : memref<4xi32>
    scf.yield %l, %x : i32, i32
  } else {
    %l = memref.load %m[%i] : memref<4xi32>
    scf.yield %y, %l : i32, i32
  }
  return %r#1 : i32
}

// CHECK-LABEL: func.func @loops
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    memref.store %arg2, %arg0[%c0]
// CHECK-NEXT:    %0 = scf.for %arg4 = %c0 to %arg1 step %c1 iter_args(%arg5 = %arg3) -> (i32) {
// CHECK-NEXT:      memref.store %arg5, %arg0[%arg4]
// CHECK-NEXT:      %1 = memref.load %arg0[%arg4]
// CHECK-NEXT:      scf.yield %1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %arg2, %arg3, %arg2, %arg3 : i32, i32, i32, i32
func.func @loops(%m: memref<4xi32>, %i: index, %x: i32, %y: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // Zero trips.
  %a = scf.for %iv = %c4 to %c1 step %c1 iter_args(%t = %x) -> (i32) {
    memref.store %t, %m[%iv] : memref<4xi32>
    scf.yield %y : i32
  }
  // One trip: the body, with the induction variable at the lower bound.
  %b = scf.for %iv = %c0 to %c4 step %c4 iter_args(%t = %x) -> (i32) {
    memref.store %t, %m[%iv] : memref<4xi32>
    scf.yield %y : i32
  }
  // Only passes its arguments on.
  %c:2 = scf.for %iv = %c0 to %i step %c1 iter_args(%t = %x, %u = %y) -> (i32, i32) {
    memref.store %u, %m[%iv] : memref<4xi32>
    %l = memref.load %m[%iv] : memref<4xi32>
    scf.yield %t, %l : i32, i32
  }
  // Yields only values from outside (LLVM 15 drops the loop).
  %d = scf.for %iv = %c0 to %c4 step %c1 iter_args(%t = %x) -> (i32) {
    scf.yield %y : i32
  }
  return %a, %b, %c#0, %d : i32, i32, i32, i32
}
