// The folds of upstream's conversion driver beyond plain arithmetic:
// min/max, rounding divisions, int/float casts, bit casts, truncf, cmpf,
// maxf/minf, negf/remf (15 only), f16/bf16 and i128. Every CHECK line is
// mlir-opt-15's output for this file.
// RUN: mlir-opt %s -async-to-async-runtime | FileCheck %s

// A bound that always wins is returned as it is (no new constant); one
// that never wins returns the other operand.
// CHECK-LABEL: func.func @minmax
// CHECK:         %c5_i32_0 = arith.constant 5 : i32
// CHECK-NEXT:    %c-7_i32_1 = arith.constant -7 : i32
// CHECK-NEXT:    %c5_i32_2 = arith.constant 5 : i32
// CHECK-NEXT:    return %c5_i32_0, %c-7_i32_1, %arg0, %c2147483647_i32, %arg0, %c5_i32_2
func.func @minmax(%x: i32) -> (i32, i32, i32, i32, i32, i32) {
  %c5 = arith.constant 5 : i32
  %cm7 = arith.constant -7 : i32
  %max = arith.constant 2147483647 : i32
  %umax = arith.constant -1 : i32
  %a = arith.maxsi %c5, %cm7 : i32
  %b = arith.maxui %c5, %cm7 : i32
  %c = arith.minui %x, %umax : i32
  %d = arith.maxsi %x, %max : i32
  %e = arith.minsi %x, %x : i32
  %f = arith.minui %c5, %cm7 : i32
  return %a, %b, %c, %d, %e, %f : i32, i32, i32, i32, i32, i32
}

// ceil(-7/5) = -1, floor(-7/5) = -2; the least i32 over -1 overflows,
// but floordivsi's last step does not see it (the folder keeps only the
// last step's overflow flag); -7 as unsigned, divided by 5, rounded up.
// CHECK-LABEL: func.func @rounding_division
// CHECK:         %c-1_i32_0 = arith.constant -1 : i32
// CHECK-NEXT:    %c-2_i32 = arith.constant -2 : i32
// CHECK-NEXT:    %c306783379_i32 = arith.constant 306783379 : i32
// CHECK-NEXT:    %c-2147483648_i32_1 = arith.constant -2147483648 : i32
// CHECK-NEXT:    %c858993458_i32 = arith.constant 858993458 : i32
func.func @rounding_division(%x: i32) -> (i32, i32, i32, i32, i32) {
  %c5 = arith.constant 5 : i32
  %cm7 = arith.constant -7 : i32
  %min = arith.constant -2147483648 : i32
  %cm1 = arith.constant -1 : i32
  %a = arith.ceildivsi %cm7, %c5 : i32
  %b = arith.floordivsi %cm7, %c5 : i32
  %c = arith.ceildivsi %min, %cm7 : i32
  %d = arith.floordivsi %min, %cm1 : i32
  %e = arith.ceildivui %cm7, %c5 : i32
  return %a, %b, %c, %d, %e : i32, i32, i32, i32, i32
}

// 70000 is too large for f16: infinity. 3.0e9 does not fit an i32 and
// -2.5 no unsigned integer: not folded. A truncf folds only when exact.
// CHECK-LABEL: func.func @casts
// CHECK:         %cst_3 = arith.constant 0x7C00 : f16
// CHECK-NEXT:    %c-2_i32 = arith.constant -2 : i32
// CHECK-NEXT:    %0 = arith.fptosi %cst_0 : f32 to i32
// CHECK-NEXT:    %c1069547520_i32 = arith.constant 1069547520 : i32
// CHECK-NEXT:    %cst_4 = arith.constant 7.006490e-45 : f32
// CHECK-NEXT:    %cst_5 = arith.constant 1.500000e+00 : f16
// CHECK-NEXT:    %1 = arith.truncf %cst_2 : f32 to f16
// CHECK-NEXT:    %2 = arith.fptoui %cst : f32 to i32
func.func @casts(%f: f32) -> (f16, i32, i32, i32, f32, f16, f16, i32) {
  %big = arith.constant 70000 : i32
  %neg = arith.constant -2.5 : f32
  %huge = arith.constant 3.0e9 : f32
  %half = arith.constant 1.5 : f32
  %tenth = arith.constant 0.1 : f32
  %c5 = arith.constant 5 : i32
  %a = arith.sitofp %big : i32 to f16
  %b = arith.fptosi %neg : f32 to i32
  %c = arith.fptosi %huge : f32 to i32
  %d = arith.bitcast %half : f32 to i32
  %e = arith.bitcast %c5 : i32 to f32
  %g = arith.truncf %half : f32 to f16
  %h = arith.truncf %tenth : f32 to f16
  %i = arith.fptoui %neg : f32 to i32
  return %a, %b, %c, %d, %e, %g, %h, %i : f16, i32, i32, i32, f32, f16, f16, i32
}

// A constant NaN decides a comparison alone; maxf/minf order -0 below +0
// and let a NaN win; maxf with -inf is the other operand.
// CHECK-LABEL: func.func @float_compare_and_select
// CHECK:         %true = arith.constant true
// CHECK-NEXT:    %true_5 = arith.constant true
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    %cst_6 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %cst_7 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    %cst_8 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:    return %true, %true_5, %false, %cst_6, %cst_7, %arg0, %cst_8
func.func @float_compare_and_select(%f: f32) -> (i1, i1, i1, f32, f32, f32, f32) {
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %a = arith.cmpf uno, %f, %nan : f32
  %b = arith.cmpf olt, %one, %two : f32
  %c = arith.cmpf one, %f, %nan : f32
  %d = arith.maxf %nz, %pz : f32
  %e = arith.minf %nz, %pz : f32
  %g = arith.maxf %f, %ninf : f32
  %h = arith.minf %one, %nan : f32
  return %a, %b, %c, %d, %e, %g, %h : i1, i1, i1, f32, f32, f32, f32
}

// f16 and bf16 compute in their own precision; i128 in 128 bits, named
// by its whole value in 15.
// CHECK-LABEL: func.func @narrow_and_wide
// CHECK:         %cst_3 = arith.constant 3.099610e+00 : f16
// CHECK-NEXT:    %cst_4 = arith.constant 3.344730e-02 : bf16
// CHECK-NEXT:    %c55340232221128654848_i128 = arith.constant 55340232221128654848 : i128
// CHECK-NEXT:    %c18446744073709551616_i128_5 = arith.constant 18446744073709551616 : i128
func.func @narrow_and_wide() -> (f16, bf16, i128, i128) {
  %a = arith.constant 0.1 : f16
  %b = arith.constant 3.0 : f16
  %c = arith.constant 0.1 : bf16
  %d = arith.constant 3.0 : bf16
  %e = arith.constant 18446744073709551616 : i128
  %f = arith.constant 3 : i128
  %s = arith.addf %a, %b : f16
  %t = arith.divf %c, %d : bf16
  %u = arith.muli %e, %f : i128
  %v = arith.maxsi %e, %f : i128
  return %s, %t, %u, %v : f16, bf16, i128, i128
}

// 15 folds negf and remf (IEEE remainder: 1.5 - (-1)(-2.5) = -1.0), and
// negf of negf.
// CHECK-LABEL: func.func @negate_and_remainder
// CHECK:         %cst_1 = arith.constant -1.500000e+00 : f32
// CHECK-NEXT:    %cst_2 = arith.constant -1.000000e+00 : f32
// CHECK-NEXT:    %0 = arith.negf %arg0 : f32
// CHECK-NEXT:    return %cst_1, %cst_2, %arg0
func.func @negate_and_remainder(%f: f32) -> (f32, f32, f32) {
  %a = arith.constant 1.5 : f32
  %b = arith.constant -2.5 : f32
  %n = arith.negf %a : f32
  %r = arith.remf %a, %b : f32
  %m = arith.negf %f : f32
  %mm = arith.negf %m : f32
  return %n, %r, %mm : f32, f32, f32
}

// Vectors and tensors fold whole when their constants are splats and
// element by element otherwise (a result whose elements are all equal is a
// splat); comparisons and truncf read scalars only; a shift's range check
// is the last element's (the first shifts by 40 and gives 0).
// CHECK-LABEL: func.func @shaped
// CHECK:         %cst_5 = arith.constant dense<[6, 7, 8, 9]> : vector<4xi32>
// CHECK-NEXT:    %cst_6 = arith.constant dense<[3.000000e+00, -5.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %0 = arith.cmpi slt, %cst, %cst_0 : vector<4xi32>
// CHECK-NEXT:    %cst_7 = arith.constant dense<5> : vector<4xi32>
// CHECK-NEXT:    %cst_8 = arith.constant dense<[1, -2]> : tensor<2xi32>
// CHECK-NEXT:    %cst_9 = arith.constant dense<[1069547520, -1071644672]> : tensor<2xi32>
// CHECK-NEXT:    %cst_10 = arith.constant dense<[0, 8, 12, 16]> : vector<4xi32>
// CHECK-NEXT:    return %cst_5, %arg0, %cst_6, %0, %cst_7, %cst_8, %cst_9, %cst_10
func.func @shaped(%x: vector<4xi32>) -> (vector<4xi32>, vector<4xi32>, tensor<2xf32>, vector<4xi1>, vector<4xi32>, tensor<2xi32>, tensor<2xi32>, vector<4xi32>) {
  %a = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %b = arith.constant dense<5> : vector<4xi32>
  %z = arith.constant dense<0> : vector<4xi32>
  %f = arith.constant dense<[1.5, -2.5]> : tensor<2xf32>
  %g = arith.constant dense<2.0> : tensor<2xf32>
  %sh = arith.constant dense<[40, 2, 2, 2]> : vector<4xi32>
  %0 = arith.addi %a, %b : vector<4xi32>
  %1 = arith.addi %x, %z : vector<4xi32>
  %2 = arith.mulf %f, %g : tensor<2xf32>
  %3 = arith.cmpi slt, %a, %b : vector<4xi32>
  %4 = arith.maxsi %a, %b : vector<4xi32>
  %5 = arith.fptosi %f : tensor<2xf32> to tensor<2xi32>
  %6 = arith.bitcast %f : tensor<2xf32> to tensor<2xi32>
  %7 = arith.shli %a, %sh : vector<4xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : vector<4xi32>, vector<4xi32>, tensor<2xf32>, vector<4xi1>, vector<4xi32>, tensor<2xi32>, tensor<2xi32>, vector<4xi32>
}

// A cast of the same cast reads the first one's operand, changed in place
// (the op stays); the driver makes such changes at once, so the next link
// of the chain reads the chain's start too.
// CHECK-LABEL: func.func @cast_chains
// CHECK-NEXT:    %0 = arith.extui %arg0 : i8 to i32
// CHECK-NEXT:    %1 = arith.extui %arg0 : i8 to i64
// CHECK-NEXT:    %2 = arith.extsi %arg0 : i8 to i32
// CHECK-NEXT:    %3 = arith.extsi %arg0 : i8 to i64
// CHECK-NEXT:    %4 = arith.extsi %arg0 : i8 to i128
// CHECK-NEXT:    %5 = arith.trunci %4 : i128 to i32
// CHECK-NEXT:    %6 = arith.trunci %4 : i128 to i16
// CHECK-NEXT:    return %1, %3, %6 : i64, i64, i16
func.func @cast_chains(%x: i8) -> (i64, i64, i16) {
  %a = arith.extui %x : i8 to i32
  %b = arith.extui %a : i32 to i64
  %c = arith.extsi %x : i8 to i32
  %d = arith.extsi %c : i32 to i64
  %y = arith.extsi %d : i64 to i128
  %t = arith.trunci %y : i128 to i32
  %u = arith.trunci %t : i32 to i16
  return %b, %d, %u : i64, i64, i16
}
