// Arithmetic, a loop, the runner's print utilities and an i64 entry
// result, as mlir-cpu-runner-14 runs them (its output, checked below, is
// the same at -O0 and -O3; the result line comes first in a pipe, as LLVM's
// stream is flushed before C stdio's buffer).
// The module is mlir-opt-14's lowering (generic form) of:
//   %sum = sum of i*i for i in 0..10 (285), printed with printI64;
//   printF64(-0.333333333333), printComma, printF32(1.5e10);
//   return %sum + (-7 / 3) * (-7 % 3)   (285 + (-2) * (-1) = 287)
// RUN: mlir-async-run %s -e main -entry-point-result=i64 -O0 | FileCheck %s
// RUN: mlir-async-run %s -e main -entry-point-result=i64 -O3 | FileCheck %s
// CHECK: 287
// CHECK-NEXT: 285
// CHECK-NEXT: -0.333333, 1.5e+10
// CHECK-NOT: {{.}}
"builtin.module"() ({
  "llvm.func"() ({
    %0 = "llvm.mlir.constant"() {value = 0 : index} : () -> i64
    %1 = "llvm.mlir.constant"() {value = 1 : index} : () -> i64
    %2 = "llvm.mlir.constant"() {value = 10 : index} : () -> i64
    %3 = "llvm.mlir.constant"() {value = 0 : i64} : () -> i64
    "llvm.br"(%0, %3)[^bb1] : (i64, i64) -> ()
  ^bb1(%4: i64, %5: i64):  // 2 preds: ^bb0, ^bb2
    %6 = "llvm.icmp"(%4, %2) {predicate = 2 : i64} : (i64, i64) -> i1
    "llvm.cond_br"(%6)[^bb2, ^bb3] {operand_segment_sizes = dense<[1, 0, 0]> : vector<3xi32>} : (i1) -> ()
  ^bb2:  // pred: ^bb1
    %7 = "llvm.mul"(%4, %4) : (i64, i64) -> i64
    %8 = "llvm.add"(%5, %7) : (i64, i64) -> i64
    %9 = "llvm.add"(%4, %1) : (i64, i64) -> i64
    "llvm.br"(%9, %8)[^bb1] : (i64, i64) -> ()
  ^bb3:  // pred: ^bb1
    "llvm.call"(%5) {callee = @printI64} : (i64) -> ()
    "llvm.call"() {callee = @printNewline} : () -> ()
    %10 = "llvm.mlir.constant"() {value = 0.33333333333300003 : f64} : () -> f64
    %11 = "llvm.fneg"(%10) : (f64) -> f64
    "llvm.call"(%11) {callee = @printF64} : (f64) -> ()
    "llvm.call"() {callee = @printComma} : () -> ()
    %12 = "llvm.mlir.constant"() {value = 1.500000e+10 : f32} : () -> f32
    "llvm.call"(%12) {callee = @printF32} : (f32) -> ()
    "llvm.call"() {callee = @printNewline} : () -> ()
    %13 = "llvm.mlir.constant"() {value = -7 : i64} : () -> i64
    %14 = "llvm.mlir.constant"() {value = 3 : i64} : () -> i64
    %15 = "llvm.mlir.constant"() {value = -2 : i64} : () -> i64
    %16 = "llvm.mlir.constant"() {value = -1 : i64} : () -> i64
    %17 = "llvm.mul"(%15, %16) : (i64, i64) -> i64
    %18 = "llvm.add"(%5, %17) : (i64, i64) -> i64
    "llvm.return"(%18) : (i64) -> ()
  }) {linkage = #llvm.linkage<external>, sym_name = "main", type = !llvm.func<i64 ()>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "printI64", sym_visibility = "private", type = !llvm.func<void (i64)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "printF64", sym_visibility = "private", type = !llvm.func<void (f64)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "printF32", sym_visibility = "private", type = !llvm.func<void (f32)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "printComma", sym_visibility = "private", type = !llvm.func<void ()>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "printNewline", sym_visibility = "private", type = !llvm.func<void ()>} : () -> ()
}) {llvm.data_layout = ""} : () -> ()

