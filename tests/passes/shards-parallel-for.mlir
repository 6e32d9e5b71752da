// -async-parallel-for on a module run in parts (--mlir-shards=3) prints
// what the whole module does (checked against mlir-opt-14). The text is
// cut before @b and before @c. The driver meets the loops last function
// first, so @c's loops (the nested one included, rewritten in the
// compute function of the outer one) take the first names, and @a's
// the last; names taken by functions of other parts are skipped.
// RUN: mlir-opt %s --mlir-shards=3 -async-parallel-for | FileCheck %s
// RUN: mlir-opt %s --mlir-shards=3 -async-parallel-for 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PARTS

// PARTS-NOT: runs whole

// CHECK-LABEL: func @a(
// CHECK: call @parallel_compute_fn_5(
// CHECK: call @async_dispatch_fn_6(
func @a(%m: memref<?xf32>, %lb: index, %ub: index, %st: index) {
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%lb) to (%ub) step (%st) {
    %v = memref.load %m[%i] : memref<?xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %m[%i] : memref<?xf32>
  }
  return
}

// CHECK-LABEL: func @parallel_compute_fn_1(
// CHECK: call @parallel_compute_fn_4(
// CHECK: call @async_dispatch_fn_5(
func @parallel_compute_fn_1(%m: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// CHECK-LABEL: func @b(
// CHECK: call @parallel_compute_fn_with_aligned_loops(
// CHECK: call @async_dispatch_fn_3(
// CHECK: call @parallel_compute_fn_3(
// CHECK: call @async_dispatch_fn_4(
func @b(%m: memref<?x16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c16) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<?x16xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %m[%i, %j] : memref<?x16xf32>
  }
  return
}

// CHECK-LABEL: func @async_dispatch_fn(
func @async_dispatch_fn(%m: memref<?xf32>) {
  return
}

// CHECK-LABEL: func @c(
// CHECK: call @parallel_compute_fn_0(
// CHECK: call @async_dispatch_fn_1(
// CHECK: call @parallel_compute_fn(
// CHECK: call @async_dispatch_fn_0(
// The added functions come after @c: @c's, then @b's, then @a's, each
// in the order the rewrite adds them.
// CHECK-LABEL: func private @parallel_compute_fn(
// CHECK-LABEL: func private @async_dispatch_fn_0(
// CHECK:         call @async_dispatch_fn_0(
// CHECK:         call @parallel_compute_fn(
// CHECK-LABEL: func private @parallel_compute_fn_0(
// CHECK:         call @parallel_compute_fn_2(
// CHECK:         call @async_dispatch_fn_2(
// CHECK-LABEL: func private @async_dispatch_fn_1(
// CHECK-LABEL: func private @parallel_compute_fn_2(
// CHECK-LABEL: func private @async_dispatch_fn_2(
// CHECK-LABEL: func private @parallel_compute_fn_3(
// CHECK-LABEL: func private @parallel_compute_fn_with_aligned_loops(
// CHECK-LABEL: func private @async_dispatch_fn_3(
// CHECK-LABEL: func private @async_dispatch_fn_4(
// CHECK-LABEL: func private @parallel_compute_fn_4(
// CHECK-LABEL: func private @async_dispatch_fn_5(
// CHECK-LABEL: func private @parallel_compute_fn_5(
// CHECK-LABEL: func private @async_dispatch_fn_6(
// CHECK:         call @async_dispatch_fn_6(
// CHECK:         call @parallel_compute_fn_5(
func @c(%m: memref<?x?xf32>, %a: index, %b: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%a) step (%c1) {
    scf.parallel (%j) = (%c0) to (%b) step (%c1) {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      memref.store %v, %m[%j, %i] : memref<?x?xf32>
    }
  }
  scf.parallel (%i) = (%c0) to (%b) step (%c1) {
    %v = memref.load %m[%i, %i] : memref<?x?xf32>
    memref.store %v, %m[%i, %c0] : memref<?x?xf32>
  }
  return
}
