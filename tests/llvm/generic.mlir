// RUN: mlir-opt %s --mlir-print-op-generic --mlir-edition=13 | FileCheck %s --check-prefix=G13
// RUN: mlir-opt %s --mlir-print-op-generic --mlir-edition=14 | FileCheck %s --check-prefix=G14
// RUN: mlir-opt %s --mlir-print-op-generic --mlir-edition=15 | FileCheck %s --check-prefix=G15

// The generic forms of the LLVM dialect's ops in each generation, as
// mlir-opt-13, -14 and -15 print this file: 13 names a function's
// signature and a global's type `type` and its linkage by number, and has
// no `structIndices`; 14 keeps `type` for functions; 15 says
// `function_type` and adds the calling convention.

// G13: "llvm.mlir.global"() ( {
// G13-NEXT: }) {constant, linkage = 1 : i64, sym_name = "name", type = !llvm.array<3 x i8>, unnamed_addr = 0 : i64, value = "abc"} : () -> ()
// G14: "llvm.mlir.global"() ({
// G14-NEXT: }) {constant, global_type = !llvm.array<3 x i8>, linkage = #llvm.linkage<internal>, sym_name = "name", unnamed_addr = 0 : i64, value = "abc"} : () -> ()
// G15: "llvm.mlir.global"() ({
// G15-NEXT: }) {constant, global_type = !llvm.array<3 x i8>, linkage = #llvm.linkage<internal>, sym_name = "name", unnamed_addr = 0 : i64, value = "abc"} : () -> ()
llvm.mlir.global internal constant @name("abc")

// G13: "llvm.func"() ( {
// G13-NEXT: }) {linkage = 10 : i64, sym_name = "puts", type = !llvm.func<i32 (ptr<i8>)>} : () -> ()
// G14: "llvm.func"() ({
// G14-NEXT: }) {linkage = #llvm.linkage<external>, sym_name = "puts", type = !llvm.func<i32 (ptr<i8>)>} : () -> ()
// G15: "llvm.func"() ({
// G15-NEXT: }) {CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 (ptr<i8>)>, linkage = #llvm.linkage<external>, sym_name = "puts"} : () -> ()
llvm.func @puts(!llvm.ptr<i8>) -> i32

llvm.func @main(%p: !llvm.ptr<struct<(i32, f32)>>, %i: i64) {
  // G13: "llvm.getelementptr"(%arg0, %arg1) : (!llvm.ptr<struct<(i32, f32)>>, i64) -> !llvm.ptr<struct<(i32, f32)>>
  // G14: "llvm.getelementptr"(%arg0, %arg1) {structIndices = dense<-2147483648> : tensor<1xi32>} : (!llvm.ptr<struct<(i32, f32)>>, i64) -> !llvm.ptr<struct<(i32, f32)>>
  // G15: "llvm.getelementptr"(%arg0, %arg1) {structIndices = dense<-2147483648> : tensor<1xi32>} : (!llvm.ptr<struct<(i32, f32)>>, i64) -> !llvm.ptr<struct<(i32, f32)>>
  %0 = llvm.getelementptr %p[%i] : (!llvm.ptr<struct<(i32, f32)>>, i64) -> !llvm.ptr<struct<(i32, f32)>>
  // G13: "llvm.icmp"(%arg1, %arg1) {predicate = 7 : i64} : (i64, i64) -> i1
  // G14: "llvm.icmp"(%arg1, %arg1) {predicate = 7 : i64} : (i64, i64) -> i1
  %1 = llvm.icmp "ule" %i, %i : i64
  // G13: "llvm.cond_br"(%1, %arg1)[^bb1, ^bb2] {operand_segment_sizes = dense<[1, 1, 0]> : vector<3xi32>} : (i1, i64) -> ()
  // G15: "llvm.cond_br"(%1, %arg1)[^bb1, ^bb2] {operand_segment_sizes = dense<[1, 1, 0]> : vector<3xi32>} : (i1, i64) -> ()
  llvm.cond_br %1, ^bb1(%i : i64), ^bb2
^bb1(%x: i64):
  llvm.br ^bb2
^bb2:
  llvm.return
// G13: }) {linkage = 10 : i64, sym_name = "main", type = !llvm.func<void (ptr<struct<(i32, f32)>>, i64)>} : () -> ()
// G14: }) {linkage = #llvm.linkage<external>, sym_name = "main", type = !llvm.func<void (ptr<struct<(i32, f32)>>, i64)>} : () -> ()
// G15: }) {CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (ptr<struct<(i32, f32)>>, i64)>, linkage = #llvm.linkage<external>, sym_name = "main"} : () -> ()
}
