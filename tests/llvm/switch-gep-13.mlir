// RUN: mlir-opt %s --mlir-edition=13 | FileCheck %s
// RUN: mlir-opt %s --mlir-edition=13 --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: mlir-opt %s --mlir-edition=13 --mlir-print-op-generic | mlir-opt --mlir-edition=13 | FileCheck %s

// `llvm.switch` and `llvm.getelementptr` in LLVM 13's formats, as
// mlir-opt-13 prints this file: the switch's flag an `i32` with its type
// unwritten, its case values `int32_t` literals, where each case's
// operands start an attribute (`case_operand_offsets`, set only with a
// case); every index of a GEP an operand, no `structIndices`, and a
// struct indexed by an operand is no error.

// CHECK-LABEL: llvm.func @f(
llvm.func @f(%x: i32, %f: f32, %g: i64, %s: !llvm.ptr<struct<(i32, f32)>>) {
  // CHECK-NEXT: llvm.switch %arg0, ^bb1(%arg1 : f32) [
  // CHECK-NEXT: ]
  // GENERIC: "llvm.switch"(%arg0, %arg1)[^bb1] {operand_segment_sizes = dense<[1, 1, 0]> : vector<3xi32>} : (i32, f32) -> ()
  llvm.switch %x, ^bb1(%f : f32) [
  ]
^bb1(%0: f32):
  // CHECK: llvm.switch %arg0, ^bb2 [
  // CHECK-NEXT:   2147483647: ^bb1(%0 : f32),
  // CHECK-NEXT:   2147483648: ^bb3(%arg2, %arg0 : i64, i32),
  // CHECK-NEXT:   4294967295: ^bb2
  // CHECK-NEXT: ] {branch_weights = dense<[1, 2, 3, 4]> : vector<4xi32>}
  // GENERIC: "llvm.switch"(%arg0, %0, %arg2, %arg0)[^bb2, ^bb1, ^bb3, ^bb2] {branch_weights = dense<[1, 2, 3, 4]> : vector<4xi32>, case_operand_offsets = dense<[0, 1, 3]> : vector<3xi32>, case_values = dense<[2147483647, -2147483648, -1]> : vector<3xi32>, operand_segment_sizes = dense<[1, 0, 3]> : vector<3xi32>} : (i32, f32, i64, i32) -> ()
  llvm.switch %x, ^bb2 [
    2147483647: ^bb1(%0 : f32),
    -0x80000000: ^bb3(%g, %x : i64, i32),
    -1: ^bb2
  ] {branch_weights = dense<[1, 2, 3, 4]> : vector<4xi32>}
^bb2:
  // CHECK: %1 = llvm.getelementptr %arg3[%arg2, %arg0] {inbounds} : (!llvm.ptr<struct<(i32, f32)>>, i64, i32) -> !llvm.ptr<f32>
  // GENERIC: %1 = "llvm.getelementptr"(%arg3, %arg2, %arg0) {inbounds} : (!llvm.ptr<struct<(i32, f32)>>, i64, i32) -> !llvm.ptr<f32>
  %1 = llvm.getelementptr %s[%g, %x] {inbounds} : (!llvm.ptr<struct<(i32, f32)>>, i64, i32) -> !llvm.ptr<f32>
  llvm.return
^bb3(%2: i64, %3: i32):
  llvm.return
}
