// RUN: mlir-opt %s -verify-diagnostics

// An initializer region without its `llvm.return`, as mlir-opt-14 reports
// it: the custom form adds no terminator, and 14 checks the op's region
// traits before the blocks inside (15 reports the block first). The
// unprefixed `func` makes this 14's syntax.

func @anchor() {
  return
}

// expected-error @+2 {{'llvm.mlir.global' op expects regions to end with 'llvm.return', found 'llvm.mlir.constant'}}
// expected-note @+1 {{in custom textual format, the absence of terminator implies 'llvm.return'}}
llvm.mlir.global internal @g() : i32 {
  %0 = llvm.mlir.constant(1 : i32) : i32
}
