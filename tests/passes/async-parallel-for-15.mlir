// RUN: mlir-async-opt %s -async-parallel-for="async-dispatch=false min-task-size=64" | FileCheck %s
// RUN: mlir-async-opt %s -async-parallel-for=num-workers=-1 | FileCheck %s --check-prefix=RUNTIME

// LLVM 15's lowering (checked against mlir-opt-15). The two inner loops
// run 4 * 8 = 32 times: the block-aligned compute function is used when
// a block holds at least those 32 iterations (14 waits for 512), and 15
// builds it first, in the `then` branch. `arith.maxsi` is commutative in
// 15: the folder moves its constant operand last.

// CHECK-LABEL: func.func @aligned(
// CHECK:         %[[TC:.*]] = arith.muli %{{.*}}, %c8 : index
// CHECK:         } else {
// CHECK-NEXT:      %[[BS0:.*]] = arith.ceildivsi %[[TC]], %c32 : index
// CHECK-NEXT:      %[[BS1:.*]] = arith.maxsi %[[BS0]], %c64 : index
// CHECK-NEXT:      %[[BS:.*]] = arith.minsi %[[TC]], %[[BS1]] : index
// CHECK-NEXT:      %[[N:.*]] = arith.ceildivsi %[[TC]], %[[BS]] : index
// CHECK-NEXT:      %[[USE:.*]] = arith.cmpi sge, %[[BS]], %c32 : index
// CHECK-NEXT:      scf.if %[[USE]] {
// CHECK-NEXT:        %[[D:.*]] = arith.ceildivsi %[[BS]], %c32 : index
// CHECK-NEXT:        %[[ABS:.*]] = arith.muli %[[D]], %c32 : index
// CHECK:             func.call @parallel_compute_fn_with_aligned_loops(%{{.*}}, %[[ABS]],
// CHECK:           } else {
// CHECK:             func.call @parallel_compute_fn(%{{.*}}, %[[BS]],
// CHECK-LABEL: func.func private @parallel_compute_fn_with_aligned_loops(
// CHECK:         scf.for
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c4 step %c1 {
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK-LABEL: func.func private @parallel_compute_fn(
// CHECK:         scf.for
// CHECK:           arith.select
// CHECK:           scf.for
// CHECK:             arith.select
// CHECK:             scf.for

// RUNTIME-LABEL: func.func @aligned(
// RUNTIME:         async.runtime.num_worker_threads : index
// RUNTIME:         arith.maxsi %{{.*}}, %c1 : index
// RUNTIME:         call @async_dispatch_fn(
// RUNTIME:         call @async_dispatch_fn_0(
// RUNTIME-LABEL: func.func private @parallel_compute_fn_with_aligned_loops(
// RUNTIME-LABEL: func.func private @async_dispatch_fn(
// RUNTIME:         call @parallel_compute_fn_with_aligned_loops(
// RUNTIME-LABEL: func.func private @parallel_compute_fn(
// RUNTIME-LABEL: func.func private @async_dispatch_fn_0(
// RUNTIME:         call @parallel_compute_fn(

func.func @aligned(%m: memref<?x4x8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%n, %c4, %c8) step (%c1, %c1, %c1) {
    %v = memref.load %m[%i, %j, %k] : memref<?x4x8xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %m[%i, %j, %k] : memref<?x4x8xf32>
  }
  return
}
