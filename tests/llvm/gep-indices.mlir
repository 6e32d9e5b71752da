// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: mlir-opt %s --mlir-print-op-generic | mlir-opt | FileCheck %s
// RUN: mlir-opt %s --mlir-edition=13 | FileCheck %s --check-prefix=V13

// `llvm.getelementptr`'s indices as 14's and 15's `custom<GEPIndices>`
// reads them (`int32_t` literals, hexadecimal too, or operands), and
// 15's `elem_type` after an opaque pointer, as mlir-opt-15 prints this
// file. 15 checks struct indices along the indexed type: `[%a, 0, 1]`
// steps into the `i32` and stops (14 rejects it, see
// gep-invalid-14.mlir). Printed in 13's syntax, which has operand
// indices alone and no element type, a GEP keeps the syntax of the first
// generation that can say what it holds.

// CHECK-LABEL: llvm.func @gep(
llvm.func @gep(%p: !llvm.ptr<f32>, %a: i64, %b: i32, %s: !llvm.ptr<struct<(i32, struct<(f32)>)>>, %o: !llvm.ptr, %v: !llvm.vec<2 x ptr<f32>>, %i: vector<2xi64>) {
  // CHECK-NEXT: %0 = llvm.getelementptr %arg0[-2147483647, %arg1, 2147483647] : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
  // GENERIC: "llvm.getelementptr"(%arg0, %arg1) {structIndices = dense<[-2147483647, -2147483648, 2147483647]> : tensor<3xi32>} : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
  // V13: %0 = llvm.getelementptr %arg0[-2147483647, %arg1, 2147483647] : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
  %0 = llvm.getelementptr %p[-0x7fffffff, %a, 0x7fffffff] : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
  // CHECK-NEXT: %1 = llvm.getelementptr %arg3[%arg2, 0, 1] : (!llvm.ptr<struct<(i32, struct<(f32)>)>>, i32) -> !llvm.ptr<i32>
  %1 = llvm.getelementptr %s[%b, 0, 1] : (!llvm.ptr<struct<(i32, struct<(f32)>)>>, i32) -> !llvm.ptr<i32>
  // CHECK-NEXT: %2 = llvm.getelementptr %arg4[%arg1, 1, 0] {inbounds} : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, struct<(f32)>)>
  // GENERIC: "llvm.getelementptr"(%arg4, %arg1) {elem_type = !llvm.struct<(i32, struct<(f32)>)>, inbounds, structIndices = dense<[-2147483648, 1, 0]> : tensor<3xi32>} : (!llvm.ptr, i64) -> !llvm.ptr
  // V13: %2 = llvm.getelementptr %arg4[%arg1, 1, 0] {inbounds} : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, struct<(f32)>)>
  %2 = llvm.getelementptr %o[%a, 1, 0] {inbounds} : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, struct<(f32)>)>
  // CHECK-NEXT: %3 = llvm.getelementptr %arg5[%arg6] : (!llvm.vec<2 x ptr<f32>>, vector<2xi64>) -> !llvm.vec<2 x ptr<f32>>
  // V13-NEXT: %3 = llvm.getelementptr %arg5[%arg6] : (!llvm.vec<2 x ptr<f32>>, vector<2xi64>) -> !llvm.vec<2 x ptr<f32>>
  %3 = llvm.getelementptr %v[%i] : (!llvm.vec<2 x ptr<f32>>, vector<2xi64>) -> !llvm.vec<2 x ptr<f32>>
  llvm.return
}
