// RUN: mlir-async-opt %s -async-parallel-for="target-block-size=10 num-workers=2" | FileCheck %s
// RUN: not mlir-async-opt %s -async-parallel-for=min-task-size=10 2>&1 | FileCheck %s --check-prefix=OPTION

// LLVM 13's lowering (checked against mlir-opt-13): the block size comes
// from `target-block-size` through compares and selects, and is
// rebalanced over the block count; the group is created before the
// single-block check. Constants the body uses are passed to the compute
// function (14 clones them into it). With 2 workers, at most 2 * 8
// blocks. 13 has no `min-task-size`.
// OPTION: <Pass-Options-Parser>: no such option min-task-size

// CHECK-LABEL: func @captured_constant(
// CHECK:         %[[CST:.*]] = constant 1.000000e+00 : f32
// CHECK:         %[[TC:.*]] = muli %arg1, %arg2 : index
// CHECK:         } else {
// CHECK-NEXT:      %[[BS0:.*]] = ceildivi_signed %[[TC]], %c16 : index
// CHECK-NEXT:      %[[GE:.*]] = cmpi sge, %[[BS0]], %c10 : index
// CHECK-NEXT:      %[[BS1:.*]] = select %[[GE]], %[[BS0]], %c10 : index
// CHECK-NEXT:      %[[LE:.*]] = cmpi sle, %[[TC]], %[[BS1]] : index
// CHECK-NEXT:      %[[BS2:.*]] = select %[[LE]], %[[TC]], %[[BS1]] : index
// CHECK-NEXT:      %[[N0:.*]] = ceildivi_signed %[[TC]], %[[BS2]] : index
// CHECK-NEXT:      %[[BS:.*]] = ceildivi_signed %[[TC]], %[[N0]] : index
// CHECK-NEXT:      %[[N:.*]] = ceildivi_signed %[[TC]], %[[BS]] : index
// CHECK-NEXT:      %[[SIZE:.*]] = subi %[[N]], %c1 : index
// CHECK-NEXT:      %[[G:.*]] = async.create_group %[[SIZE]] : !async.group
// CHECK-NEXT:      %[[ONE:.*]] = cmpi eq, %[[N]], %c1 : index
// CHECK-NEXT:      scf.if %[[ONE]] {
// CHECK-NEXT:        call @parallel_compute_fn(%c0, %[[BS]], {{.*}}, %[[CST]], %arg0)
// CHECK-NEXT:      } else {
// CHECK-NEXT:        call @async_dispatch_fn(%[[G]], %c0, %[[N]], %[[BS]], {{.*}}, %[[CST]], %arg0)
// CHECK-NEXT:      }
// CHECK-NEXT:      async.await_all %[[G]]

// CHECK-LABEL: func private @parallel_compute_fn(
// CHECK-SAME:      %[[V:arg[0-9]+]]: f32, %[[M:arg[0-9]+]]: memref<?x?xf32>) {
// CHECK:         remi_signed
// CHECK:         divi_signed
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             memref.store %[[V]], %[[M]]

// CHECK-LABEL: func private @async_dispatch_fn(
// CHECK:         divi_signed %{{.*}}, %c2 : index

func @captured_constant(%m: memref<?x?xf32>, %n: index, %k: index) {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %one = constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %k) step (%c1, %c1) {
    memref.store %one, %m[%i, %j] : memref<?x?xf32>
  }
  return
}
