// A module has no terminator to elide: an op that terminates blocks
// elsewhere (llvm.return has no required parent) prints where it stands,
// at the end of a module, as mlir-opt-13/14/15 print it. Passes that add
// declarations after it leave it in the middle of the block, which the
// verifier then rejects as mlir-opt-13/14 do (15 aborts there).
// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s | mlir-opt | FileCheck %s
// RUN: mlir-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GEN
// RUN: mlir-opt %s --mlir-edition=14 | FileCheck %s
// RUN: mlir-opt %s --mlir-edition=13 | FileCheck %s
// RUN: not mlir-opt %s -convert-async-to-llvm 2>&1 | FileCheck %s --check-prefix=LAST

// CHECK:      llvm.func @f() -> i32
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// GEN:        "llvm.return"() : () -> ()
// GEN-NEXT:   }) : () -> ()
// LAST: module-terminator.mlir:[[# @LINE + 3]]:1: error: 'llvm.return' op must be the last operation in the parent block
llvm.func @f() -> i32 {
}
llvm.return
