// 13 read a function argument's `loc(...)` and kept the position of the
// argument's name instead (a block argument keeps the one written), even
// when the input shows it is 13's only after the signature (`addi`).
// Expected lines are mlir-opt-13's output.
// RUN: mlir-opt %s --mlir-print-debuginfo | FileCheck %s

// CHECK:      #loc2 = loc("{{.*}}debuginfo-13-args.mlir":11:9)
// CHECK-NEXT: #loc3 = loc("{{.*}}debuginfo-13-args.mlir":11:33)
// CHECK-NEXT: #loc5 = loc("blk":5:6)
// CHECK:        ^bb1(%0: i32 loc("blk":5:6)):  // pred: ^bb0
func @f(%a: i32 loc("arg":3:4), %b: i32) -> i32 {
  br ^bb1(%a : i32)
^bb1(%x: i32 loc("blk":5:6)):
  %0 = addi %x, %b : i32
  return %0 : i32
}
