// A module that does not verify is rejected before anything runs, with the
// verifier's message and mlir-cpu-runner-14's closing line.
// RUN: not mlir-async-run %s -e main -entry-point-result=void 2>&1 | FileCheck %s
// CHECK: invalid.mlir:[[# @LINE + 6]]:10: error: 'llvm.fadd' op requires the same type for all operands and results
// CHECK: could not parse the input IR
"builtin.module"() ({
  "llvm.func"() ({
    %2 = "llvm.mlir.constant"() {value = 1.0 : f32} : () -> f32
    %3 = "llvm.mlir.constant"() {value = 1.0 : f64} : () -> f64
    %4 = "llvm.fadd"(%2, %3) : (f32, f64) -> f32
    "llvm.return"() : () -> ()
  }) {linkage = #llvm.linkage<external>, sym_name = "main", type = !llvm.func<void ()>} : () -> ()
}) : () -> ()
