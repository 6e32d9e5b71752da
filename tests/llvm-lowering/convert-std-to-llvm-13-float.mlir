// RUN: mlir-async-opt %s -convert-std-to-llvm | FileCheck %s
// RUN: mlir-async-opt %s -convert-vector-to-llvm -convert-std-to-llvm | FileCheck %s --check-prefix=CANON

// LLVM 13's std float ops, casts and vectors to LLVM. Two 13 folders show:
// `trunci` of `sexti` folds to the narrower value underneath (of another
// type: 13's conversion takes it, so an unused truncation disappears),
// and `addf` is not commutative in 13 (the greedy phase of
// -convert-vector-to-llvm leaves a constant on the left, where 14 moves
// it right). A 2-D vector op is applied row by row. Checked against
// mlir-opt-13.

// CHECK-LABEL: llvm.func @fl(
// CHECK:         %[[R:.*]] = llvm.frem %{{.*}}, %{{.*}}  : f32
// CHECK-NEXT:    %[[N:.*]] = llvm.fneg %[[R]]  : f32
// CHECK-NEXT:    %[[LT:.*]] = llvm.fcmp "olt" %[[N]], %arg0 : f32
// CHECK-NEXT:    %[[F:.*]] = llvm.sitofp %arg2 : i32 to f32
// CHECK-NEXT:    %[[D:.*]] = llvm.fpext %[[F]] : f32 to f64
// CHECK-NEXT:    %[[S:.*]] = llvm.fadd %[[D]], %arg1  : f64
// CHECK-NEXT:    %{{.*}} = llvm.fptrunc %[[S]] : f64 to f32
// CHECK-NEXT:    %{{.*}} = llvm.fptosi %{{.*}} : f32 to i32
// CHECK-NEXT:    %{{.*}} = llvm.uitofp %{{.*}} : i32 to f32
// CHECK-NEXT:    %{{.*}} = llvm.zext %arg5 : i8 to i32
// CHECK-NEXT:    %{{.*}} = llvm.sext %arg5 : i8 to i64
// CHECK-NEXT:    %{{.*}} = llvm.shl %arg2, %{{.*}}  : i32
// CHECK:         %[[W0:.*]] = llvm.extractvalue %arg4[0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %[[W1:.*]] = llvm.extractvalue %arg4[0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %{{.*}} = llvm.fmul %[[W0]], %[[W1]]  : vector<4xf32>

// CANON:         %[[NINE:.*]] = llvm.mlir.constant(9.000000e+00 : f32) : f32
// CANON:         %[[SEL:.*]] = llvm.select
// CANON:         %{{.*}} = llvm.fadd %[[NINE]], %[[SEL]]  : f32
func @fl(%a: f32, %b: f64, %i: i32, %v: vector<4xf32>, %w: vector<2x4xf32>, %k: i8) -> (f32, vector<4xi1>, vector<2x4xf32>) {
  %c = constant 2.5 : f32
  %0 = addf %a, %c : f32
  %1 = subf %0, %a : f32
  %2 = mulf %1, %1 : f32
  %3 = divf %2, %c : f32
  %4 = remf %3, %c : f32
  %5 = negf %4 : f32
  %6 = cmpf olt, %5, %a : f32
  %7 = sitofp %i : i32 to f32
  %8 = fpext %7 : f32 to f64
  %9 = addf %8, %b : f64
  %10 = fptrunc %9 : f64 to f32
  %11 = fptosi %10 : f32 to i32
  %12 = uitofp %11 : i32 to f32
  %14 = zexti %k : i8 to i32
  %15 = sexti %k : i8 to i64
  %16 = trunci %15 : i64 to i16
  %17 = shift_left %i, %14 : i32
  %22 = select %6, %10, %12 : f32
  %vc = constant dense<1.0> : vector<4xf32>
  %v1 = addf %v, %vc : vector<4xf32>
  %v2 = cmpf ogt, %v1, %v : vector<4xf32>
  %w1 = mulf %w, %w : vector<2x4xf32>
  %w2 = negf %w1 : vector<2x4xf32>
  %cf = constant 3.0 : f32
  %f3 = mulf %cf, %cf : f32
  %f4 = addf %f3, %22 : f32
  return %f4, %v2, %w2 : f32, vector<4xi1>, vector<2x4xf32>
}
