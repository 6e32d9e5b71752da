// LLVM 13 prints a negative `llvm.switch` case value as its unsigned 32-bit
// spelling (-1 as 4294967295, as the first RUN line pins), and its parser,
// reading `int32_t`, refuses that spelling: mlir-opt-13 cannot read back what
// it printed. Where upstream is wrong we read it (the second RUN line goes
// round twice); a value past 32 bits is still refused, as 13 refuses it
// (switch-invalid-13.mlir).
// RUN: mlir-opt %s --mlir-edition=13 | FileCheck %s
// RUN: mlir-opt %s --mlir-edition=13 | mlir-opt --mlir-edition=13 | mlir-opt --mlir-edition=13 | FileCheck %s

// CHECK-LABEL: llvm.func @negative_cases(
llvm.func @negative_cases(%x: i32) {
  // CHECK: llvm.switch %arg0, ^bb1 [
  // CHECK-NEXT:   4294967295: ^bb1,
  // CHECK-NEXT:   2147483648: ^bb2,
  // CHECK-NEXT:   7: ^bb1
  // CHECK-NEXT: ]
  llvm.switch %x, ^bb1 [
    -1: ^bb1,
    -2147483648: ^bb2,
    7: ^bb1
  ]
^bb1:
  llvm.return
^bb2:
  llvm.return
}
