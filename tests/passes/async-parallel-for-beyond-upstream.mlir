// RUN: mlir-async-opt %s -split-input-file -async-parallel-for -verify-diagnostics | FileCheck %s

// Where upstream (LLVM 14, 15) miscompiles, crashes or says nothing,
// async-parallel-for lowers correctly or reports at the loop (see
// docs/async-parallel-for.md).

// A loop with reductions is left sequential, as upstream leaves it, but
// not silently.
// CHECK-LABEL: func @reduction(
// CHECK:         scf.parallel {{.*}} init
// CHECK:           scf.reduce(%{{.*}})  : f32 {
func @reduction(%m: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  // expected-warning @+1 {{'scf.parallel' op with reductions is left sequential}}
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

// -----

// Both dimensions run backwards (5 to 0): no iteration. Upstream multiplies
// the trip counts -5 x -5 and runs the body 25 times; here the loop goes.
// CHECK-LABEL: func @backwards(
// CHECK-NEXT:    return
// CHECK-NOT:   parallel_compute_fn
func @backwards(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c5, %c5) to (%c0, %c0) step (%c1, %c1) {
    memref.store %one, %m[%i] : memref<?xf32>
  }
  return
}

// -----

// 2^32 x 2^32 iterations do not fit the index arithmetic of the block
// sizes (upstream's folded constants wrap around).
func @huge(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 4294967296 : index
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{'scf.parallel' op iteration space (4294967296 x 4294967296) overflows index}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%big, %big) step (%c1, %c1) {
    memref.store %one, %m[%i] : memref<?xf32>
  }
  return
}

// -----

func @range(%m: memref<?xf32>) {
  %lo = arith.constant -9223372036854775808 : index
  %hi = arith.constant 9223372036854775807 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{upper bound minus lower bound of dimension 0 (9223372036854775807 - -9223372036854775808) overflows index}}
  scf.parallel (%i) = (%lo) to (%hi) step (%c1) {
    memref.store %one, %m[%i] : memref<?xf32>
  }
  return
}

// -----

// A constant step must be positive (the verifier says so, as upstream's).
func @negative_step(%m: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %cm1 = arith.constant -1 : index
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{'scf.parallel' op constant step operand must be positive}}
  scf.parallel (%i) = (%n) to (%c0) step (%cm1) {
    memref.store %one, %m[%i] : memref<?xf32>
  }
  return
}
