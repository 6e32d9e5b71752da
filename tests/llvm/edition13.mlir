// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | mlir-opt | FileCheck %s

// LLVM-dialect text as mlir-opt-13 prints it: two spaces before the
// module's body (the only mark of its generation such a module may
// carry), an empty `unnamed_addr` keyword keeping its space, and
// `llvm.switch` on an i32 without its type. Read back from 13's generic
// form too (integer linkage, `type`, case operand offsets, no
// `structIndices`).

// CHECK: module attributes {llvm.data_layout = ""}  {
// CHECK-NEXT: llvm.mlir.global private  @table(dense<[1, 2, 3]> : tensor<3xi32>) : !llvm.array<3 x i32>
// CHECK-NEXT: llvm.func @pick(%arg0: i32, %arg1: !llvm.ptr<i32>) -> i32 {
// CHECK-NEXT:   llvm.switch %arg0, ^bb1(%arg0 : i32) [
// CHECK-NEXT:     0: ^bb2(%arg1 : !llvm.ptr<i32>),
// CHECK-NEXT:     1: ^bb1(%arg0 : i32),
// CHECK-NEXT:     7: ^bb2(%arg1 : !llvm.ptr<i32>)
// CHECK-NEXT:   ]
// CHECK-NEXT: ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb0
// CHECK-NEXT:   llvm.return %0 : i32
// CHECK-NEXT: ^bb2(%1: !llvm.ptr<i32>):  // 2 preds: ^bb0, ^bb0
// CHECK-NEXT:   %2 = llvm.getelementptr %1[%arg0] : (!llvm.ptr<i32>, i32) -> !llvm.ptr<i32>
// CHECK-NEXT:   %3 = llvm.load %2 : !llvm.ptr<i32>
// CHECK-NEXT:   llvm.return %3 : i32
// CHECK-NEXT: }
module attributes {llvm.data_layout = ""}  {
  llvm.mlir.global private @table(dense<[1, 2, 3]> : tensor<3xi32>) : !llvm.array<3 x i32>
  llvm.func @pick(%x: i32, %p: !llvm.ptr<i32>) -> i32 {
    llvm.switch %x, ^bb1(%x : i32) [
      0: ^bb2(%p : !llvm.ptr<i32>),
      1: ^bb1(%x : i32),
      7: ^bb2(%p : !llvm.ptr<i32>)
    ]
  ^bb1(%y: i32):
    llvm.return %y : i32
  ^bb2(%q: !llvm.ptr<i32>):
    %0 = llvm.getelementptr %q[%x] : (!llvm.ptr<i32>, i32) -> !llvm.ptr<i32>
    %1 = llvm.load %0 : !llvm.ptr<i32>
    llvm.return %1 : i32
  }
}
