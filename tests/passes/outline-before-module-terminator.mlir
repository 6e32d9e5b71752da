// A module may end in an op that terminates blocks elsewhere (llvm.return
// names no parent, so it is valid there). The functions outlined from
// async.execute go before it, where SymbolTable::insert puts a symbol in a
// block that ends in a terminator (mlir-opt-13/14/15 alike); appended
// after it, they left the llvm.return mid-block, which the verifier
// rejects.
// RUN: mlir-opt %s -async-to-async-runtime | FileCheck %s
// RUN: mlir-opt %s -async-to-async-runtime | mlir-opt | FileCheck %s
// RUN: mlir-opt %s -async-to-async-runtime -mlir-print-op-generic | mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @f()
// CHECK:         call @async_execute_fn() : () -> !async.token
// CHECK-LABEL: func.func private @async_execute_fn() -> !async.token
// CHECK:         return
// CHECK-NEXT:  }
// CHECK-NEXT:  llvm.return
// CHECK-NEXT: }
func.func @f() {
  %t = async.execute {
    async.yield
  }
  async.await %t : !async.token
  return
}
llvm.return
