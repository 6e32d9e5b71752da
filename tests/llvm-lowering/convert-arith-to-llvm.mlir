// RUN: mlir-async-opt %s -convert-arith-to-llvm | FileCheck %s

// Each arith op becomes its LLVM instruction; an add of constants folds
// first (the conversion tries folding before patterns), `muli` by one
// folds away, index casts become a sign extension and nothing; the n-D
// vector add is unrolled over the outer array; std's `select` (14) and
// `maxf` (for -arith-expand) stay, bridged by casts. Checked against
// mlir-opt-14 -convert-arith-to-llvm.

// CHECK-LABEL: func @ops(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: vector<2x4xf32>)
// CHECK-NEXT:    %0 = builtin.unrealized_conversion_cast %arg3 : vector<2x4xf32> to !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %1 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %2 = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    %3 = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT:    %4 = llvm.add %3, %arg0  : i32
// CHECK-NEXT:    %5 = llvm.ashr %4, %arg1  : i32
// CHECK-NEXT:    %6 = llvm.sext %5 : i32 to i64
// CHECK-NEXT:    %7 = builtin.unrealized_conversion_cast %6 : i64 to index
// CHECK-NEXT:    %8 = llvm.sitofp %6 : i64 to f32
// CHECK-NEXT:    %9 = llvm.fmul %8, %arg2  : f32
// CHECK-NEXT:    %10 = llvm.fcmp "olt" %9, %arg2 : f32
// CHECK-NEXT:    %11 = llvm.icmp "eq" %arg0, %arg1 : i32
// CHECK-NEXT:    %12 = llvm.and %10, %11  : i1
// CHECK-NEXT:    %13 = select %12, %5, %arg0 : i32
// CHECK-NEXT:    %14 = llvm.mlir.undef : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %15 = llvm.extractvalue %0[0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %16 = llvm.extractvalue %0[0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %17 = llvm.fadd %15, %16  : vector<4xf32>
// CHECK-NEXT:    %18 = llvm.insertvalue %17, %14[0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %19 = llvm.extractvalue %0[1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %20 = llvm.extractvalue %0[1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %21 = llvm.fadd %19, %20  : vector<4xf32>
// CHECK-NEXT:    %22 = llvm.insertvalue %21, %18[1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %23 = builtin.unrealized_conversion_cast %22 : !llvm.array<2 x vector<4xf32>> to vector<2x4xf32>
// CHECK-NEXT:    %24 = arith.maxf %arg2, %9 : f32
// CHECK-NEXT:    return %13, %24, %23, %7 : i32, f32, vector<2x4xf32>, index
func @ops(%x: i32, %y: i32, %f: f32, %v: vector<2x4xf32>) -> (i32, f32, vector<2x4xf32>, index) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %s = arith.addi %c1, %c2 : i32
  %t = arith.addi %s, %x : i32
  %u = arith.muli %t, %c1 : i32
  %w = arith.shrsi %u, %y : i32
  %i = arith.index_cast %w : i32 to index
  %e = arith.index_cast %i : index to i64
  %g = arith.sitofp %e : i64 to f32
  %h = arith.mulf %g, %f : f32
  %lt = arith.cmpf olt, %h, %f : f32
  %eq = arith.cmpi eq, %x, %y : i32
  %z = arith.andi %lt, %eq : i1
  %sel = select %z, %w, %x : i32
  %vv = arith.addf %v, %v : vector<2x4xf32>
  %m = arith.maxf %f, %h : f32
  return %sel, %m, %vv, %i : i32, f32, vector<2x4xf32>, index
}
