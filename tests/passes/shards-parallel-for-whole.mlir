// What the parts cannot do alone runs on the whole module, with a note
// when --mlir-shards was asked for: here a loop with a reduction, which
// the pass leaves alone with a warning (beyond upstream), given once and
// in the whole run's order.
// RUN: mlir-opt %s --mlir-shards=2 -async-parallel-for 2>/dev/null \
// RUN:   | FileCheck %s
// RUN: mlir-opt %s --mlir-shards=2 -async-parallel-for 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTE

// NOTE: mlir-async-opt: note: --mlir-shards: the module runs whole: the pass needs the whole module
// NOTE-NEXT: warning: 'scf.parallel' op with reductions is left sequential
// NOTE-NOT: warning

// CHECK-LABEL: func @sum(
// CHECK: scf.parallel
// CHECK: scf.reduce
func @sum(%m: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %m[%i] : memref<?xf32>
    scf.reduce(%v) : f32 {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}

// CHECK-LABEL: func @copy(
// CHECK: call @parallel_compute_fn(
func @copy(%m: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}
// CHECK-LABEL: func private @parallel_compute_fn(
