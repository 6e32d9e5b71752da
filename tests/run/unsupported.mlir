// Every op the executor cannot run is reported with its name and place,
// all of them, and nothing runs. A value of a type it cannot hold is
// reported where it is made, not again at each use.
// RUN: not mlir-async-run %s -e main -entry-point-result=void 2>&1 | FileCheck %s
// CHECK: unsupported.mlir:[[# @LINE + 8]]:10: error: 'llvm.intr.vscale' is not supported by mlir-async-run
// CHECK: unsupported.mlir:[[# @LINE + 8]]:10: error: 'llvm.inline_asm' is not supported by mlir-async-run
// CHECK: unsupported.mlir:[[# @LINE + 8]]:10: error: values of type i128 are not supported by mlir-async-run
// CHECK-NOT: error
// CHECK-NOT: ran
"builtin.module"() ({
  "llvm.func"() ({
    %0 = "llvm.mlir.constant"() {value = 1 : i64} : () -> i64
    %5 = "llvm.intr.vscale"() : () -> i64
    %1 = "llvm.inline_asm"(%0) {asm_string = "", constraints = "=r,r"} : (i64) -> i64
    %2 = "llvm.mlir.constant"() {value = 1 : i128} : () -> i128
    %3 = "llvm.mul"(%2, %2) : (i128, i128) -> i128
    %4 = "llvm.trunc"(%3) : (i128) -> i64
    "llvm.call"() {callee = @ran} : () -> ()
    "llvm.return"() : () -> ()
  }) {linkage = #llvm.linkage<external>, sym_name = "main", type = !llvm.func<void ()>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "ran", type = !llvm.func<void ()>} : () -> ()
}) : () -> ()
