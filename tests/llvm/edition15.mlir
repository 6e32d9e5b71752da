// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: mlir-opt %s --mlir-print-op-generic | mlir-opt | FileCheck %s

// LLVM 15's additions: opaque pointers (the loaded, stored, allocated or
// indexed type then written out), calling conventions, thread-local
// globals; as mlir-opt-15 prints them.

// CHECK: llvm.mlir.global internal thread_local @slot(0 : i64) : i64
llvm.mlir.global internal thread_local @slot(0 : i64) : i64

// CHECK-LABEL: llvm.func fastcc @opaque(%arg0: !llvm.ptr, %arg1: i64) -> f64 {
// GENERIC: "llvm.func"() ({
// GENERIC: %0 = "llvm.alloca"(%arg1) {alignment = 8 : i64, elem_type = i64} : (i64) -> !llvm.ptr
// GENERIC: "llvm.getelementptr"(%arg0, %arg1) {elem_type = !llvm.struct<(i32, f64)>, structIndices = dense<[-2147483648, 1]> : tensor<2xi32>} : (!llvm.ptr, i64) -> !llvm.ptr
// GENERIC: }) {CConv = #llvm.cconv<fastcc>, function_type = !llvm.func<f64 (ptr, i64)>, linkage = #llvm.linkage<external>, sym_name = "opaque"} : () -> ()
llvm.func fastcc @opaque(%p: !llvm.ptr, %n: i64) -> f64 {
  // CHECK-NEXT: %0 = llvm.alloca %arg1 x i64 {alignment = 8 : i64} : (i64) -> !llvm.ptr
  // CHECK-NEXT: llvm.store %arg1, %0 : i64, !llvm.ptr
  // CHECK-NEXT: %1 = llvm.getelementptr %arg0[%arg1, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f64)>
  // CHECK-NEXT: %2 = llvm.load %1 {alignment = 4 : i64} : !llvm.ptr -> f64
  // CHECK-NEXT: %3 = llvm.mlir.null : !llvm.ptr<1>
  // CHECK-NEXT: %4 = llvm.icmp "ne" %arg0, %arg0 : !llvm.ptr
  %a = llvm.alloca %n x i64 {alignment = 8 : i64} : (i64) -> !llvm.ptr
  llvm.store %n, %a : i64, !llvm.ptr
  %f = llvm.getelementptr %p[%n, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f64)>
  %v = llvm.load %f {alignment = 4 : i64} : !llvm.ptr -> f64
  %z = llvm.mlir.null : !llvm.ptr<1>
  %c = llvm.icmp "ne" %p, %p : !llvm.ptr
  llvm.return %v : f64
}

// The default convention is not spelled, in the custom form.
// CHECK: llvm.func @plain()
// GENERIC: {CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<external>, sym_name = "plain"}
llvm.func ccc @plain()
