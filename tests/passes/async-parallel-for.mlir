// RUN: mlir-async-opt %s -split-input-file -async-parallel-for=num-workers=-1 | FileCheck %s --check-prefix=RUNTIME
// RUN: mlir-async-opt %s -split-input-file -async-parallel-for=async-dispatch=false | FileCheck %s --check-prefix=SEQ
// RUN: not mlir-async-opt %s -async-parallel-for=target-block-size=10 2>&1 | FileCheck %s --check-prefix=OPTION

// LLVM 14's lowering (checked against mlir-opt-14). `target-block-size`
// is LLVM 13's option: a 14 input does not know it.
// OPTION: <Pass-Options-Parser>: no such option target-block-size

// A function named like the compute function is already there: the new
// ones are uniqued past it, and the nested loop (lowered inside the outer
// loop's compute function) gets the next free names.

// RUNTIME-LABEL: func @nested(
// RUNTIME:         scf.if %{{.*}} {
// RUNTIME-NEXT:    } else {
// RUNTIME-NEXT:      %[[W:.*]] = async.runtime.num_worker_threads : index
// RUNTIME-NEXT:      %{{.*}} = arith.cmpi sgt, %[[W]], %c4 : index
// RUNTIME:           arith.index_cast %[[W]] : index to i32
// RUNTIME:           call @parallel_compute_fn_0(
// RUNTIME:           call @async_dispatch_fn(
// RUNTIME-LABEL: func private @parallel_compute_fn_0(
// RUNTIME:         scf.for
// RUNTIME:           async.runtime.num_worker_threads
// RUNTIME:           call @parallel_compute_fn_1(
// RUNTIME:           call @async_dispatch_fn_0(
// RUNTIME-LABEL: func private @async_dispatch_fn(
// RUNTIME:         scf.while
// RUNTIME:           async.execute {
// RUNTIME-NEXT:        call @async_dispatch_fn(
// RUNTIME:         call @parallel_compute_fn_0(
// RUNTIME-LABEL: func private @parallel_compute_fn_1(
// RUNTIME:         memref.load
// RUNTIME:         memref.store
// RUNTIME-LABEL: func private @async_dispatch_fn_0(

// SEQ-LABEL: func @nested(
// SEQ:         %[[G:.*]] = async.create_group
// SEQ-NEXT:    scf.for %[[B:.*]] = %c1 to %{{.*}} step %c1 {
// SEQ-NEXT:      %[[T:.*]] = async.execute {
// SEQ-NEXT:        call @parallel_compute_fn_0(%[[B]],
// SEQ-NEXT:        async.yield
// SEQ-NEXT:      }
// SEQ-NEXT:      async.add_to_group %[[T]], %[[G]] : !async.token
// SEQ-NEXT:    }
// SEQ-NEXT:    call @parallel_compute_fn_0(%c0,
// SEQ-NEXT:    async.await_all %[[G]]
// SEQ-NOT:   async_dispatch_fn
// SEQ-LABEL: func private @parallel_compute_fn_0(
// SEQ:         call @parallel_compute_fn_1(%c0,
// SEQ-LABEL: func private @parallel_compute_fn_1(

func private @parallel_compute_fn()

func @nested(%m: memref<?x?xf32>, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.parallel (%j) = (%c0) to (%k) step (%c1) {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      memref.store %v, %m[%j, %i] : memref<?x?xf32>
    }
  }
  return
}

// -----

// The inner loop runs 10 times: with a block size of at least 512 the
// block-aligned compute function (created after the default one in 14)
// runs it whole. The constant the body uses is cloned into the compute
// functions, the static bounds are materialized there.

// SEQ-LABEL: func @aligned(
// SEQ:         %[[BS:.*]] = arith.minsi
// SEQ:         %[[USE:.*]] = arith.cmpi sge, %[[BS]], %c512 : index
// SEQ-NEXT:    scf.if %[[USE]] {
// SEQ-NEXT:      %[[D:.*]] = arith.ceildivsi %[[BS]], %c10 : index
// SEQ-NEXT:      %[[ABS:.*]] = arith.muli %[[D]], %c10 : index
// SEQ:           call @parallel_compute_fn_with_aligned_loops(%c0, %[[ABS]],
// SEQ:         } else {
// SEQ:           call @parallel_compute_fn(%c0, %[[BS]],
// SEQ-LABEL: func private @parallel_compute_fn(
// SEQ:         %[[C10:.*]] = arith.constant 10 : index
// SEQ:         %[[CST:.*]] = arith.constant 2.000000e+00 : f32
// SEQ:         scf.for
// SEQ:           select
// SEQ:           select
// SEQ:           scf.for
// SEQ-NEXT:        memref.store %[[CST]]
// SEQ-LABEL: func private @parallel_compute_fn_with_aligned_loops(
// SEQ-SAME:      %[[ARG2:arg[0-9]+]]: memref<?x10xf32>) {
// SEQ:         %[[C0:.*]] = arith.constant 0 : index
// SEQ:         %[[CST:.*]] = arith.constant 2.000000e+00 : f32
// SEQ:         scf.for
// SEQ-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %c10 step %c1 {
// SEQ-NEXT:        memref.store %[[CST]], %[[ARG2]][%{{.*}}, %[[J]]]

func @aligned(%m: memref<?x10xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %v = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c10) step (%c1, %c1) {
    memref.store %v, %m[%i, %j] : memref<?x10xf32>
  }
  return
}
