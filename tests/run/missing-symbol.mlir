// A function the module declares and nothing defines is named before
// anything runs.
// RUN: not mlir-async-run %s -e main -entry-point-result=void 2>&1 | FileCheck %s
// CHECK: Error: Symbols not found: [ no_such_function ]
"builtin.module"() ({
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "no_such_function", type = !llvm.func<i64 (i64)>} : () -> ()
  "llvm.func"() ({
    %0 = "llvm.mlir.constant"() {value = 1 : i64} : () -> i64
    %1 = "llvm.call"(%0) {callee = @no_such_function} : (i64) -> i64
    "llvm.return"() : () -> ()
  }) {linkage = #llvm.linkage<external>, sym_name = "main", type = !llvm.func<void ()>} : () -> ()
}) : () -> ()
