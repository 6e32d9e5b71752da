// RUN: mlir-async-opt %s -convert-vector-to-llvm | FileCheck %s

// vector.print calls the runner library per element: f32 by printF32,
// index by printU64, i1 zero-extended and i32 sign-extended (by arith ops,
// which stay) to printI64, vectors in printOpen/printComma/printClose,
// n-D ones through their outer array; a newline after each. The greedy
// phase before the conversion folds the constant add and drops the dead
// multiply. Declarations go to the top of the module, newest first.
// Checked against mlir-opt-14 -convert-vector-to-llvm.

// CHECK: module {
// CHECK-NEXT:   llvm.func @printClose()
// CHECK-NEXT:   llvm.func @printComma()
// CHECK-NEXT:   llvm.func @printOpen()
// CHECK-NEXT:   llvm.func @printI64(i64)
// CHECK-NEXT:   llvm.func @printU64(i64)
// CHECK-NEXT:   llvm.func @printNewline()
// CHECK-NEXT:   llvm.func @printF32(f32)
// CHECK-NEXT:   func @f(%arg0: f32, %arg1: index, %arg2: i1, %arg3: i32, %arg4: vector<4xf32>, %arg5: vector<2x3xi32>) {
// CHECK-NEXT:     %0 = builtin.unrealized_conversion_cast %arg1 : index to i64
// CHECK-NEXT:     %1 = builtin.unrealized_conversion_cast %arg5 : vector<2x3xi32> to !llvm.array<2 x vector<3xi32>>
// CHECK-NEXT:     %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:     llvm.call @printF32(%arg0) : (f32) -> ()
// CHECK-NEXT:     llvm.call @printNewline() : () -> ()
// CHECK-NEXT:     llvm.call @printU64(%0) : (i64) -> ()
// CHECK-NEXT:     llvm.call @printNewline() : () -> ()
// CHECK-NEXT:     %2 = arith.extui %arg2 : i1 to i64
// CHECK-NEXT:     llvm.call @printI64(%2) : (i64) -> ()
// CHECK-NEXT:     llvm.call @printNewline() : () -> ()
// CHECK-NEXT:     %3 = arith.extsi %c3_i32 : i32 to i64
// CHECK-NEXT:     llvm.call @printI64(%3) : (i64) -> ()
// CHECK-NEXT:     llvm.call @printNewline() : () -> ()
// CHECK-NEXT:     llvm.call @printOpen() : () -> ()
// CHECK-NEXT:     %4 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:     %5 = llvm.extractelement %arg4[%4 : i64] : vector<4xf32>
// CHECK-NEXT:     llvm.call @printF32(%5) : (f32) -> ()
// CHECK-NEXT:     llvm.call @printComma() : () -> ()
// CHECK-NEXT:     %6 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %7 = llvm.extractelement %arg4[%6 : i64] : vector<4xf32>
// CHECK-NEXT:     llvm.call @printF32(%7) : (f32) -> ()
// CHECK-NEXT:     llvm.call @printComma() : () -> ()
// CHECK-NEXT:     %8 = llvm.mlir.constant(2 : index) : i64
// CHECK-NEXT:     %9 = llvm.extractelement %arg4[%8 : i64] : vector<4xf32>
// CHECK-NEXT:     llvm.call @printF32(%9) : (f32) -> ()
// CHECK-NEXT:     llvm.call @printComma() : () -> ()
// CHECK-NEXT:     %10 = llvm.mlir.constant(3 : index) : i64
// CHECK-NEXT:     %11 = llvm.extractelement %arg4[%10 : i64] : vector<4xf32>
// CHECK-NEXT:     llvm.call @printF32(%11) : (f32) -> ()
// CHECK-NEXT:     llvm.call @printClose() : () -> ()
// CHECK-NEXT:     llvm.call @printNewline() : () -> ()
// CHECK-NEXT:     llvm.call @printOpen() : () -> ()
// CHECK-NEXT:     %12 = llvm.extractvalue %1[0] : !llvm.array<2 x vector<3xi32>>
// CHECK-NEXT:     llvm.call @printOpen() : () -> ()
// CHECK-NEXT:     %13 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:     %14 = llvm.extractelement %12[%13 : i64] : vector<3xi32>
// CHECK-NEXT:     %15 = arith.extsi %14 : i32 to i64
// CHECK-NEXT:     llvm.call @printI64(%15) : (i64) -> ()
// CHECK-NEXT:     llvm.call @printComma() : () -> ()
// CHECK-NEXT:     %16 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %17 = llvm.extractelement %12[%16 : i64] : vector<3xi32>
// CHECK-NEXT:     %18 = arith.extsi %17 : i32 to i64
// CHECK-NEXT:     llvm.call @printI64(%18) : (i64) -> ()
// CHECK-NEXT:     llvm.call @printComma() : () -> ()
// CHECK-NEXT:     %19 = llvm.mlir.constant(2 : index) : i64
// CHECK-NEXT:     %20 = llvm.extractelement %12[%19 : i64] : vector<3xi32>
// CHECK-NEXT:     %21 = arith.extsi %20 : i32 to i64
// CHECK-NEXT:     llvm.call @printI64(%21) : (i64) -> ()
// CHECK-NEXT:     llvm.call @printClose() : () -> ()
// CHECK-NEXT:     llvm.call @printComma() : () -> ()
// CHECK-NEXT:     %22 = llvm.extractvalue %1[1] : !llvm.array<2 x vector<3xi32>>
// CHECK-NEXT:     llvm.call @printOpen() : () -> ()
// CHECK-NEXT:     %23 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:     %24 = llvm.extractelement %22[%23 : i64] : vector<3xi32>
// CHECK-NEXT:     %25 = arith.extsi %24 : i32 to i64
// CHECK-NEXT:     llvm.call @printI64(%25) : (i64) -> ()
// CHECK-NEXT:     llvm.call @printComma() : () -> ()
// CHECK-NEXT:     %26 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %27 = llvm.extractelement %22[%26 : i64] : vector<3xi32>
// CHECK-NEXT:     %28 = arith.extsi %27 : i32 to i64
// CHECK-NEXT:     llvm.call @printI64(%28) : (i64) -> ()
// CHECK-NEXT:     llvm.call @printComma() : () -> ()
// CHECK-NEXT:     %29 = llvm.mlir.constant(2 : index) : i64
// CHECK-NEXT:     %30 = llvm.extractelement %22[%29 : i64] : vector<3xi32>
// CHECK-NEXT:     %31 = arith.extsi %30 : i32 to i64
// CHECK-NEXT:     llvm.call @printI64(%31) : (i64) -> ()
// CHECK-NEXT:     llvm.call @printClose() : () -> ()
// CHECK-NEXT:     llvm.call @printClose() : () -> ()
// CHECK-NEXT:     llvm.call @printNewline() : () -> ()
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }

func @f(%x: f32, %i: index, %b: i1, %s: i32, %v: vector<4xf32>, %w: vector<2x3xi32>) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %d = arith.addi %c1, %c2 : i32
  %dead = arith.muli %s, %s : i32
  vector.print %x : f32
  vector.print %i : index
  vector.print %b : i1
  vector.print %d : i32
  vector.print %v : vector<4xf32>
  vector.print %w : vector<2x3xi32>
  return
}
