// cf.switch, scf.while without values and memref.atomic_rmw read, print
// and print generically as mlir-opt-15 does (expected lines are its own).
// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GEN
// RUN: mlir-opt %s -mlir-print-op-generic | mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @switch(%arg0: i32, %arg1: i64) {
// CHECK-NEXT:    cf.switch %arg0 : i32, [
// CHECK-NEXT:      default: ^bb1(%arg1 : i64),
// CHECK-NEXT:      1: ^bb2,
// CHECK-NEXT:      4294967254: ^bb1(%arg1 : i64)
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^bb1(%0: i64):  // 2 preds: ^bb0, ^bb0
// CHECK-NEXT:    return
// CHECK-NEXT:  ^bb2:  // 2 preds: ^bb0, ^bb2
// CHECK-NEXT:    cf.switch %arg0 : i32, [
// CHECK-NEXT:      default: ^bb2]
// CHECK-NEXT:  }
// GEN-LABEL: "func.func"() ({
// GEN: "cf.switch"(%arg0, %arg1, %arg1)[^bb1, ^bb2, ^bb1] {case_operand_segments = dense<[0, 1]> : tensor<2xi32>, case_values = dense<[1, -42]> : vector<2xi32>, operand_segment_sizes = dense<1> : vector<3xi32>} : (i32, i64, i64) -> ()
// GEN: "cf.switch"(%arg0)[^bb2] {case_operand_segments = dense<> : tensor<0xi32>, operand_segment_sizes = dense<[1, 0, 0]> : vector<3xi32>} : (i32) -> ()
func.func @switch(%a: i32, %x: i64) {
  cf.switch %a : i32, [
    default: ^bb1(%x : i64),
    1: ^bb2,
    -42: ^bb1(%x : i64)
  ]
^bb1(%y: i64):
  return
^bb2:
  cf.switch %a : i32, [
    default: ^bb2
  ]
}

// CHECK-LABEL: func.func @while_without_values() {
// CHECK-NEXT:    scf.while : () -> () {
// CHECK-NEXT:      %true = arith.constant true
// CHECK-NEXT:      scf.condition(%true)
// CHECK-NEXT:    } do {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// GEN: "scf.while"() ({
func.func @while_without_values() {
  scf.while () : () -> () {
    %c = arith.constant true
    scf.condition(%c)
  } do {
    scf.yield
  }
  return
}

// CHECK-LABEL: func.func @rmw(%arg0: memref<10xf32>, %arg1: f32, %arg2: index, %arg3: memref<4x4xi32>, %arg4: i32) -> f32 {
// CHECK-NEXT:    %0 = memref.atomic_rmw addf %arg1, %arg0[%arg2] : (f32, memref<10xf32>) -> f32
// CHECK-NEXT:    %1 = memref.atomic_rmw andi %arg4, %arg3[%arg2, %arg2] : (i32, memref<4x4xi32>) -> i32
// CHECK-NEXT:    %2 = memref.atomic_rmw assign %arg4, %arg3[%arg2, %arg2] : (i32, memref<4x4xi32>) -> i32
// GEN: "memref.atomic_rmw"(%arg1, %arg0, %arg2) {kind = 0 : i64} : (f32, memref<10xf32>, index) -> f32
// GEN: "memref.atomic_rmw"(%arg4, %arg3, %arg2, %arg2) {kind = 12 : i64} : (i32, memref<4x4xi32>, index, index) -> i32
// GEN: "memref.atomic_rmw"(%arg4, %arg3, %arg2, %arg2) {kind = 2 : i64} : (i32, memref<4x4xi32>, index, index) -> i32
func.func @rmw(%m: memref<10xf32>, %v: f32, %i: index, %n: memref<4x4xi32>, %w: i32) -> f32 {
  %x = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<10xf32>) -> f32
  %y = memref.atomic_rmw "andi" %w, %n[%i, %i] : (i32, memref<4x4xi32>) -> i32
  %z = memref.atomic_rmw assign %w, %n[%i, %i] : (i32, memref<4x4xi32>) -> i32
  return %x : f32
}
