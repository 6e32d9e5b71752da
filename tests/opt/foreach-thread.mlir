// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | mlir-opt | FileCheck %s

// LLVM 15's scf.foreach_thread: the empty perform_concurrently terminator
// is implied and not printed; the result list is always printed.

// CHECK-LABEL: func.func @threads
// CHECK-NEXT:    %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:    scf.foreach_thread (%arg2) in (%arg0) -> () {
// CHECK-NEXT:      memref.store %c7_i32, %arg1[%arg2] : memref<8xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.foreach_thread (%arg2, %arg3) in (%arg0, %arg0) -> () {
// CHECK-NEXT:      memref.store %c7_i32, %arg1[%arg3] : memref<8xi32>
// CHECK-NEXT:    } {thread_dim_mapping = [1, 0]}
// CHECK-NEXT:    return
func.func @threads(%n: index, %m: memref<8xi32>) {
  %c = arith.constant 7 : i32
  scf.foreach_thread (%i) in (%n) {
    memref.store %c, %m[%i] : memref<8xi32>
  }
  scf.foreach_thread (%i, %j) in (%n, %n) {
    memref.store %c, %m[%j] : memref<8xi32>
    scf.foreach_thread.perform_concurrently {
    }
  } {thread_dim_mapping = [1, 0]}
  return
}
