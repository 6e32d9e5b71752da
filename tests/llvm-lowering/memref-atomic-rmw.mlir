// RUN: mlir-async-opt %s -convert-memref-to-llvm | FileCheck %s

// memref.atomic_rmw of a kind LLVM has as one operation becomes an
// `llvm.atomicrmw` (acq_rel) on the element's address; `mulf` has none and
// stays for -memref-expand to rewrite. Checked against mlir-opt-14 (and
// mlir-opt-15 on the func.func spelling: the same ops).

// CHECK-LABEL: func @rmw(
// CHECK-SAME:      %[[F:.*]]: f32, %[[I:.*]]: i32, %[[MF:.*]]: memref<10xf32>, %[[MI:.*]]: memref<4x5xi32>, %[[K:.*]]: index)
// CHECK:         %[[DF:.*]] = builtin.unrealized_conversion_cast %[[MF]] : memref<10xf32> to !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK:         %[[KI:.*]] = builtin.unrealized_conversion_cast %[[K]] : index to i64
// CHECK:         %[[BF:.*]] = llvm.extractvalue %[[DF]][1]
// CHECK-NEXT:    %[[PF:.*]] = llvm.getelementptr %[[BF]][%[[KI]]] : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
// CHECK-NEXT:    llvm.atomicrmw fadd %[[PF]], %[[F]] acq_rel  : f32
// CHECK:         %[[C5:.*]] = llvm.mlir.constant(5 : index) : i64
// CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %[[KI]], %[[C5]]  : i64
// CHECK-NEXT:    %[[OFF:.*]] = llvm.add %[[ROW]], %[[KI]]  : i64
// CHECK-NEXT:    %[[PI:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]] : (!llvm.ptr<i32>, i64) -> !llvm.ptr<i32>
// CHECK-NEXT:    llvm.atomicrmw add %[[PI]], %[[I]] acq_rel  : i32
// CHECK:         llvm.atomicrmw xchg %{{.*}}, %[[I]] acq_rel  : i32
// CHECK:         llvm.atomicrmw max %{{.*}}, %[[I]] acq_rel  : i32
// CHECK:         llvm.atomicrmw umax %{{.*}}, %[[I]] acq_rel  : i32
// CHECK:         llvm.atomicrmw min %{{.*}}, %[[I]] acq_rel  : i32
// CHECK:         llvm.atomicrmw umin %{{.*}}, %[[I]] acq_rel  : i32
// CHECK:         llvm.atomicrmw _or %{{.*}}, %[[I]] acq_rel  : i32
// CHECK:         llvm.atomicrmw _and %{{.*}}, %[[I]] acq_rel  : i32
// CHECK-NEXT:    memref.atomic_rmw mulf %[[F]], %[[MF]][%[[K]]] : (f32, memref<10xf32>) -> f32
// CHECK-NEXT:    return

func @rmw(%f: f32, %i: i32, %mf: memref<10xf32>, %mi: memref<4x5xi32>, %k: index) {
  %0 = memref.atomic_rmw addf %f, %mf[%k] : (f32, memref<10xf32>) -> f32
  %1 = memref.atomic_rmw addi %i, %mi[%k, %k] : (i32, memref<4x5xi32>) -> i32
  %2 = memref.atomic_rmw assign %i, %mi[%k, %k] : (i32, memref<4x5xi32>) -> i32
  %3 = memref.atomic_rmw maxs %i, %mi[%k, %k] : (i32, memref<4x5xi32>) -> i32
  %4 = memref.atomic_rmw maxu %i, %mi[%k, %k] : (i32, memref<4x5xi32>) -> i32
  %5 = memref.atomic_rmw mins %i, %mi[%k, %k] : (i32, memref<4x5xi32>) -> i32
  %6 = memref.atomic_rmw minu %i, %mi[%k, %k] : (i32, memref<4x5xi32>) -> i32
  %7 = memref.atomic_rmw ori %i, %mi[%k, %k] : (i32, memref<4x5xi32>) -> i32
  %8 = memref.atomic_rmw andi %i, %mi[%k, %k] : (i32, memref<4x5xi32>) -> i32
  %9 = memref.atomic_rmw mulf %f, %mf[%k] : (f32, memref<10xf32>) -> f32
  return
}
