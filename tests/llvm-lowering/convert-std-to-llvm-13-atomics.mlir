// RUN: mlir-async-opt %s | FileCheck %s --check-prefix=ROUND
// RUN: mlir-async-opt %s -convert-memref-to-llvm | FileCheck %s --check-prefix=MEMREF
// RUN: mlir-async-opt %s -convert-memref-to-llvm -convert-std-to-llvm | FileCheck %s

// In LLVM 13 `atomic_rmw`, `generic_atomic_rmw` (printed with its `std.`
// prefix even in custom form), `atomic_yield` and `rank` were std ops:
// -convert-memref-to-llvm leaves them (casting their operands for them),
// -convert-std-to-llvm lowers them. A generic atomic becomes a
// compare-and-swap loop: the block splits after it, the loop block
// recomputes the body from the value found, and what followed the atomic
// continues in the block the loop exits to. Checked against mlir-opt-13.

// ROUND:       %[[A:.*]] = atomic_rmw addi %arg3, %arg0[%arg2] : (i32, memref<8xi32>) -> i32
// ROUND-NEXT:  %{{.*}} = std.generic_atomic_rmw %arg0[%arg2] : memref<8xi32> {
// ROUND-NEXT:  ^bb0(%[[CUR:.*]]: i32):  // no predecessors
// ROUND:         atomic_yield %{{.*}} : i32
// ROUND:       %{{.*}} = rank %arg1 : memref<*xf32>

// MEMREF-NOT:  llvm.atomicrmw
// MEMREF:      atomic_rmw addi
// MEMREF:      std.generic_atomic_rmw
// MEMREF:      rank %{{.*}} : memref<*xf32>
// MEMREF:      rank %{{.*}} : memref<8xi32>

// CHECK-LABEL: llvm.func @atomics(
// CHECK:         %[[P:.*]] = llvm.getelementptr %{{.*}}[%arg7] : (!llvm.ptr<i32>, i64) -> !llvm.ptr<i32>
// CHECK-NEXT:    %[[OLD:.*]] = llvm.atomicrmw add %[[P]], %arg8 acq_rel  : i32
// CHECK:         %[[Q:.*]] = llvm.getelementptr %{{.*}}[%arg7] : (!llvm.ptr<i32>, i64) -> !llvm.ptr<i32>
// CHECK-NEXT:    %[[INIT:.*]] = llvm.load %[[Q]] : !llvm.ptr<i32>
// CHECK-NEXT:    llvm.br ^bb1(%[[INIT]] : i32)
// CHECK-NEXT:  ^bb1(%[[LOADED:.*]]: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    %[[N:.*]] = llvm.add %[[LOADED]], %arg8  : i32
// CHECK-NEXT:    %[[K:.*]] = llvm.mul %[[N]], %[[OLD]]  : i32
// CHECK-NEXT:    %[[PAIR:.*]] = llvm.cmpxchg %[[Q]], %[[LOADED]], %[[K]] acq_rel monotonic : i32
// CHECK-NEXT:    %[[NEW:.*]] = llvm.extractvalue %[[PAIR]][0] : !llvm.struct<(i32, i1)>
// CHECK-NEXT:    %[[OK:.*]] = llvm.extractvalue %[[PAIR]][1] : !llvm.struct<(i32, i1)>
// CHECK-NEXT:    llvm.cond_br %[[OK]], ^bb2, ^bb1(%[[NEW]] : i32)
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK-NEXT:    %[[RANK:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(i64, ptr<i8>)>
// CHECK-NEXT:    %[[RANK2:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:    %[[SUM:.*]] = llvm.add %[[NEW]], %[[OLD]]  : i32
// CHECK:         llvm.return
func @atomics(%m: memref<8xi32>, %u: memref<*xf32>, %i: index, %v: i32) -> (i32, index, index) {
  %a = atomic_rmw addi %v, %m[%i] : (i32, memref<8xi32>) -> i32
  %b = generic_atomic_rmw %m[%i] : memref<8xi32> {
  ^bb0(%cur: i32):
    %n = addi %cur, %v : i32
    %k = muli %n, %a : i32
    atomic_yield %k : i32
  }
  %r = rank %u : memref<*xf32>
  %r2 = rank %m : memref<8xi32>
  %s = addi %b, %a : i32
  return %s, %r, %r2 : i32, index, index
}
