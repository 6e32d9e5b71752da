// RUN: mlir-async-opt %s -convert-std-to-llvm | FileCheck %s
// RUN: mlir-async-opt %s -convert-std-to-llvm -reconcile-unrealized-casts | mlir-async-opt | FileCheck %s --check-prefix=READ

// A branch inside an `llvm.func` (already legal, so nothing converts its
// blocks) into a block taking an `index`: mlir-opt-14 and -15 make an
// `llvm.br` passing an `i64` to the `index` argument and fail the verifier
// ("type mismatch for bb argument #0 of successor #0"). Here the branch
// converts the block it leads to, as later MLIR's `getConvertedBlock`
// does, and the function stays valid.

// CHECK-LABEL: llvm.func @count(%arg0: i64)
// CHECK:         %[[Z:.*]] = llvm.mlir.constant(0 : index) : i64
// CHECK:         llvm.br ^bb1(%[[Z]] : i64)
// CHECK:       ^bb1(%[[I:.*]]: i64):
// CHECK:         %[[LT:.*]] = llvm.icmp "slt" %[[I]], %arg0 : i64
// CHECK:         llvm.cond_br %[[LT]], ^bb2, ^bb3
// CHECK:       ^bb2:
// CHECK:         %[[N:.*]] = llvm.add %[[I]], %{{.*}} : i64
// CHECK:         llvm.br ^bb1(%[[N]] : i64)
// CHECK:       ^bb3:
// CHECK-NEXT:    llvm.return

// READ: llvm.func @count
// READ-NOT: unrealized_conversion_cast
// READ: llvm.return

llvm.func @count(%n: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %limit = builtin.unrealized_conversion_cast %n : i64 to index
  br ^loop(%c0 : index)
^loop(%i: index):
  %lt = arith.cmpi slt, %i, %limit : index
  cond_br %lt, ^body, ^exit
^body:
  %next = arith.addi %i, %c1 : index
  br ^loop(%next : index)
^exit:
  llvm.return
}
