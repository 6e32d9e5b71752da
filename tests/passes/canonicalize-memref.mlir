// RUN: mlir-async-opt %s -canonicalize | FileCheck %s

// memref folds and patterns under -canonicalize (the same in LLVM 14 and
// 15; checked against mlir-opt-15 and, in 14 syntax, mlir-opt-14).

// A static size is a constant.
// CHECK-LABEL: func.func @dim_static
// CHECK-NEXT:    %c8 = arith.constant 8 : index
// CHECK-NEXT:    return %c8 : index
func.func @dim_static(%m: memref<8xi32>) -> index {
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<8xi32>
  return %d : index
}

// A dynamic size is what the allocation was given.
// CHECK-LABEL: func.func @dim_of_alloc
// CHECK-NEXT:    %0 = memref.alloc(%arg0) : memref<?xi32>
// CHECK-NEXT:    return %arg0, %0
func.func @dim_of_alloc(%n: index) -> (index, memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc(%n) : memref<?xi32>
  %d = memref.dim %a, %c0 : memref<?xi32>
  return %d, %a : index, memref<?xi32>
}

// Loads, stores and dims see through a cast to the buffer it hid.
// CHECK-LABEL: func.func @through_cast
// CHECK-NEXT:    %c8 = arith.constant 8 : index
// CHECK-NEXT:    %0 = memref.load %arg0[%arg1] : memref<8xi32>
// CHECK-NEXT:    memref.store %arg2, %arg0[%arg1] : memref<8xi32>
// CHECK-NEXT:    return %0, %c8 : i32, index
func.func @through_cast(%m: memref<8xi32>, %i: index, %x: i32) -> (i32, index) {
  %c0 = arith.constant 0 : index
  %c = memref.cast %m : memref<8xi32> to memref<?xi32>
  %l = memref.load %c[%i] : memref<?xi32>
  memref.store %x, %c[%i] : memref<?xi32>
  %d = memref.dim %c, %c0 : memref<?xi32>
  return %l, %d : i32, index
}

// A constant size makes the type static (a cast back, then folded away
// by its users).
// CHECK-LABEL: func.func @constant_size
// CHECK-NEXT:    %0 = memref.alloc() : memref<4xi32>
// CHECK-NEXT:    memref.store %arg1, %0[%arg0] : memref<4xi32>
// CHECK-NEXT:    %1 = memref.load %0[%arg0] : memref<4xi32>
// CHECK-NEXT:    memref.dealloc %0 : memref<4xi32>
// CHECK-NEXT:    return %1 : i32
func.func @constant_size(%i: index, %x: i32) -> i32 {
  %c4 = arith.constant 4 : index
  %a = memref.alloc(%c4) : memref<?xi32>
  memref.store %x, %a[%i] : memref<?xi32>
  %l = memref.load %a[%i] : memref<?xi32>
  memref.dealloc %a : memref<?xi32>
  return %l : i32
}

// A buffer only written and freed goes, with its stores.
// CHECK-LABEL: func.func @dead_buffer
// CHECK-NEXT:    return
func.func @dead_buffer(%i: index, %x: i32) {
  %a = memref.alloc(%i) : memref<?xi32>
  memref.store %x, %a[%i] : memref<?xi32>
  memref.dealloc %a : memref<?xi32>
  return
}
