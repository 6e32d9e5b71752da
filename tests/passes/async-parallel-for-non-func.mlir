// RUN: mlir-async-opt %s -allow-unregistered-dialect -async-parallel-for | FileCheck %s

// A loop inside an op other than `func.func` (here `llvm.func`, written in
// generic form): upstream asserts ("Invalid index!", llvm-project issue
// 71281); here the loop is lowered as anywhere else. The dispatch's
// constants gather at the top of the `llvm.func`'s region (the nearest
// isolated-from-above op bounds constants, as in MLIR), the compute
// functions are `func.func`s of the module.

// CHECK:       llvm.func @func1() {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[M:.*]] = memref.alloc() : memref<22xf32>
// CHECK:         call @parallel_compute_fn(%[[C0]], {{.*}}, %[[M]])
// CHECK:         call @async_dispatch_fn(
// CHECK:         llvm.return
// CHECK-NEXT:  }
// CHECK:       func private @parallel_compute_fn(
// CHECK:         scf.for
// CHECK:           memref.load
// CHECK-NEXT:      memref.store
// CHECK:       func private @async_dispatch_fn(

"llvm.func"() ({
  %c0 = arith.constant 0 : index
  %c22 = arith.constant 22 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<22xf32>
  scf.parallel (%arg0) = (%c0) to (%c22) step (%c1) {
    %v = memref.load %m[%arg0] : memref<22xf32>
    memref.store %v, %m[%arg0] : memref<22xf32>
  }
  "llvm.return"() : () -> ()
}) {sym_name = "func1", function_type = !llvm.func<void ()>} : () -> ()
