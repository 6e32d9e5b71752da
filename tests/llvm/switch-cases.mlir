// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: mlir-opt %s --mlir-print-op-generic | mlir-opt | FileCheck %s
// RUN: mlir-opt %s --mlir-edition=13 | FileCheck %s --check-prefix=V13

// `llvm.switch`'s case values as 14's and 15's `custom<SwitchOpCases>`
// reads them, as mlir-opt-15 prints this file (14 prints the same): an
// `int64_t` literal (any `uint64_t` too) kept at the flag's width, an
// `i1`'s as booleans, an `i128`'s 64 bits zero-extended; printed as
// unsigned bits of at most 64. Printed in 13's syntax, a switch on an
// `i32` loses its flag's type; one on another type keeps 14's syntax,
// which can say it.

// CHECK-LABEL: llvm.func @widths(
llvm.func @widths(%a: i1, %b: i8, %c: i64, %d: i128) {
  // CHECK-NEXT: llvm.switch %arg0 : i1, ^bb1 [
  // CHECK-NEXT:   1: ^bb1,
  // CHECK-NEXT:   0: ^bb1,
  // CHECK-NEXT:   1: ^bb1
  // CHECK-NEXT: ]
  // GENERIC: case_values = dense<[true, false, true]> : vector<3xi1>
  llvm.switch %a : i1, ^bb1 [
    1: ^bb1,
    0: ^bb1,
    -1: ^bb1
  ]
^bb1:
  // CHECK: llvm.switch %arg1 : i8, ^bb2 [
  // CHECK-NEXT:   0: ^bb1,
  // CHECK-NEXT:   127: ^bb2,
  // CHECK-NEXT:   128: ^bb1
  // CHECK-NEXT: ]
  // GENERIC: case_values = dense<[0, 127, -128]> : vector<3xi8>
  llvm.switch %b : i8, ^bb2 [
    256: ^bb1,
    -129: ^bb2,
    -0x80: ^bb1
  ]
^bb2:
  // V13: llvm.switch %arg2 : i64, ^bb3 [
  // CHECK: llvm.switch %arg2 : i64, ^bb3 [
  // CHECK-NEXT:   18446744073709551615: ^bb3,
  // CHECK-NEXT:   18437520701672696841: ^bb3,
  // CHECK-NEXT:   9223372036854775808: ^bb3
  // CHECK-NEXT: ]
  // GENERIC: case_values = dense<[-1, -9223372036854775, -9223372036854775808]> : vector<3xi64>
  llvm.switch %c : i64, ^bb3 [
    18446744073709551615: ^bb3,
    -9223372036854775: ^bb3,
    9223372036854775808: ^bb3
  ]
^bb3:
  // CHECK: llvm.switch %arg3 : i128, ^bb4 [
  // CHECK-NEXT:   18446744073709551615: ^bb4
  // CHECK-NEXT: ]
  // GENERIC: case_values = dense<18446744073709551615> : vector<1xi128>
  llvm.switch %d : i128, ^bb4 [
    -1: ^bb4
  ]
^bb4:
  llvm.return
}

// No case: no `case_values`, an empty `case_operand_segments`; operands
// for the default destination and for the cases.
// CHECK-LABEL: llvm.func @operands(
llvm.func @operands(%x: i32, %f: f32, %g: i64) {
  // CHECK-NEXT: llvm.switch %arg0 : i32, ^bb1(%arg1 : f32) [
  // CHECK-NEXT: ]
  // GENERIC: "llvm.switch"(%arg0, %arg1)[^bb1] {case_operand_segments = dense<> : tensor<0xi32>, operand_segment_sizes = dense<[1, 1, 0]> : vector<3xi32>} : (i32, f32) -> ()
  llvm.switch %x : i32, ^bb1(%f : f32) [
  ]
^bb1(%0: f32):
  // V13: llvm.switch %arg0, ^bb2 [
  // V13-NEXT:   0: ^bb1(%0 : f32),
  // CHECK: llvm.switch %arg0 : i32, ^bb2 [
  // CHECK-NEXT:   0: ^bb1(%0 : f32),
  // CHECK-NEXT:   1: ^bb3(%arg2, %arg0 : i64, i32),
  // CHECK-NEXT:   2: ^bb2
  // CHECK-NEXT: ] {branch_weights = dense<[1, 2, 3, 4]> : vector<4xi32>}
  // GENERIC: "llvm.switch"(%arg0, %0, %arg2, %arg0)[^bb2, ^bb1, ^bb3, ^bb2] {branch_weights = dense<[1, 2, 3, 4]> : vector<4xi32>, case_operand_segments = dense<[1, 2, 0]> : tensor<3xi32>, case_values = dense<[0, 1, 2]> : vector<3xi32>, operand_segment_sizes = dense<[1, 0, 3]> : vector<3xi32>} : (i32, f32, i64, i32) -> ()
  llvm.switch %x : i32, ^bb2 [
    0: ^bb1(%0 : f32),
    1: ^bb3(%g, %x : i64, i32),
    2: ^bb2
  ] {branch_weights = dense<[1, 2, 3, 4]> : vector<4xi32>}
^bb2:
  llvm.return
^bb3(%1: i64, %2: i32):
  llvm.return
}
