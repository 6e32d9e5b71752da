// RUN: mlir-async-opt %s -arith-expand | FileCheck %s

// The ops LLVM has no instruction for become compares and selects; the
// float min/max keep a NaN in either operand. Checked against
// mlir-opt-14 -arith-expand.

// CHECK-LABEL: func @min_max_float
// CHECK-NEXT:    %[[GT:.*]] = arith.cmpf ugt, %arg0, %arg1 : f32
// CHECK-NEXT:    %[[SEL:.*]] = select %[[GT]], %arg0, %arg1 : f32
// CHECK-NEXT:    %[[NAN:.*]] = arith.cmpf uno, %arg1, %arg1 : f32
// CHECK-NEXT:    %[[MAX:.*]] = select %[[NAN]], %arg1, %[[SEL]] : f32
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpf ult, %arg0, %arg1 : f32
// CHECK-NEXT:    %[[SEL2:.*]] = select %[[LT]], %arg0, %arg1 : f32
// CHECK-NEXT:    %[[NAN2:.*]] = arith.cmpf uno, %arg1, %arg1 : f32
// CHECK-NEXT:    %[[MIN:.*]] = select %[[NAN2]], %arg1, %[[SEL2]] : f32
// CHECK-NEXT:    return %[[MAX]], %[[MIN]]
func @min_max_float(%x: f32, %y: f32) -> (f32, f32) {
  %0 = arith.maxf %x, %y : f32
  %1 = arith.minf %x, %y : f32
  return %0, %1 : f32, f32
}

// An expansion whose operands are constants is folded, not expanded: the
// conversion tries folding before patterns.

// CHECK-LABEL: func @folded_first
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : index
// CHECK-NEXT:    %[[C3B:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[CMP:.*]] = arith.cmpi ult, %[[C3B]], %arg0 : index
// CHECK-NEXT:    %[[MIN:.*]] = select %[[CMP]], %[[C3B]], %arg0 : index
// CHECK-NEXT:    return %[[MIN]]
func @folded_first(%i: index) -> index {
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %0 = arith.ceildivsi %c7, %c3 : index
  %1 = arith.minui %0, %i : index
  return %1 : index
}

// The expansions reach into nested regions.

// CHECK-LABEL: func @nested
// CHECK:         scf.for
// CHECK:           arith.cmpi slt
// CHECK-NOT:       arith.maxsi
// CHECK:           select
func @nested(%lb: index, %ub: index, %a: i32) -> i32 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %a) -> (i32) {
    %m = arith.minsi %acc, %a : i32
    scf.yield %m : i32
  }
  return %r : i32
}

// CHECK-LABEL: func @nothing_to_expand
// CHECK-NEXT:    arith.addi
func @nothing_to_expand(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
