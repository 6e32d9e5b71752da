// RUN: mlir-async-opt %s -std-expand | FileCheck %s

// LLVM 13's -std-expand: `floordivi_signed` and `ceildivi_signed` become
// divisions, compares and selects; one of constants folds instead. The
// std and memref ops are legal there, so `memref.dim` of a static size
// stays (14's -arith-expand folds it). Checked against mlir-opt-13.

// CHECK-LABEL: func @expand(%arg0: i32, %arg1: i32, %arg2: memref<8xi32>) -> i32
// CHECK:         %{{.*}} = memref.dim %arg2, %c0 : memref<8xi32>
// CHECK-NEXT:    %[[C4:.*]] = constant 4 : i32
// CHECK-NEXT:    %[[ONE:.*]] = constant 1 : i32
// CHECK-NEXT:    %[[ZERO:.*]] = constant 0 : i32
// CHECK-NEXT:    %[[MONE:.*]] = constant -1 : i32
// CHECK-NEXT:    %[[NEG:.*]] = cmpi slt, %arg1, %[[ZERO]] : i32
// CHECK-NEXT:    %[[X:.*]] = select %[[NEG]], %[[ONE]], %[[MONE]] : i32
// CHECK-NEXT:    %[[T:.*]] = subi %[[X]], %arg0 : i32
// CHECK-NEXT:    %[[TD:.*]] = divi_signed %[[T]], %arg1 : i32
// CHECK-NEXT:    %[[NEGQ:.*]] = subi %[[MONE]], %[[TD]] : i32
// CHECK-NEXT:    %[[Q:.*]] = divi_signed %arg0, %arg1 : i32
// CHECK:         %[[R:.*]] = select %{{.*}}, %[[NEGQ]], %[[Q]] : i32
// CHECK-NEXT:    %[[S:.*]] = addi %[[R]], %[[C4]] : i32
// CHECK-NEXT:    return %[[S]] : i32
func @expand(%a: i32, %b: i32, %m: memref<8xi32>) -> i32 {
  %c0 = constant 0 : index
  %c7 = constant 7 : i32
  %c2 = constant 2 : i32
  %n = memref.dim %m, %c0 : memref<8xi32>
  %folded = ceildivi_signed %c7, %c2 : i32
  %q = floordivi_signed %a, %b : i32
  %s = addi %q, %folded : i32
  return %s : i32
}
