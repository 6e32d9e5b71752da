// A module not yet in the LLVM dialect is lowered with our passes first
// (said with -v). While mlir-async-opt lacks some of the lowerings, the
// message names them instead; either way nothing crashes.
// RUN: mlir-async-run %s -v -e main -entry-point-result=void > %t.out 2>&1 || true
// RUN: FileCheck %s < %t.out
// CHECK: {{error: the input is not in the LLVM dialect, and our lowering to it lacks -|lowering it with -async-to-async-runtime}}
func.func @main() {
  %c = arith.constant 42 : i64
  func.call @printI64(%c) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
func.func private @printI64(i64)
func.func private @printNewline()
