// RUN: mlir-opt %s | FileCheck %s

// LLVM dialect types print as mlir-opt-14 prints them: LLVM types nested in
// LLVM types in the short form, other types in full; an identified struct
// that refers to itself names itself only inside its own body.

// CHECK-LABEL: func @pointers
// CHECK-SAME: %arg0: !llvm.ptr<i8>, %arg1: !llvm.ptr<ptr<i32>>, %arg2: !llvm.ptr<i8, 3>, %arg3: !llvm.ptr<f32>
func @pointers(%a: !llvm.ptr<i8>, %b: !llvm.ptr<!llvm.ptr<i32>>, %c: !llvm.ptr<i8, 3>, %d: !llvm.ptr<f32, 0>) {
  return
}

// CHECK-LABEL: func @aggregates
// CHECK-SAME: %arg0: !llvm.struct<(ptr<i8>, i64, array<2 x i64>)>
// CHECK-SAME: %arg1: !llvm.struct<packed (i8, i32)>
// CHECK-SAME: %arg2: !llvm.array<4 x array<2 x f32>>
// CHECK-SAME: %arg3: !llvm.struct<()>
// CHECK-SAME: %arg4: !llvm.vec<4 x ptr<i8>>
// CHECK-SAME: %arg5: !llvm.vec<? x 4 x i32>
// CHECK-SAME: %arg6: vector<4xf32>
func @aggregates(%a: !llvm.struct<(ptr<i8>, i64, array<2xi64>)>, %b: !llvm.struct<packed (i8, i32)>,
                 %c: !llvm.array<4 x !llvm.array<2 x f32>>, %d: !llvm.struct<()>,
                 %e: !llvm.vec<4 x ptr<i8>>, %f: !llvm.vec<? x 4 x i32>, %g: vector<4xf32>) {
  return
}

// CHECK-LABEL: func @functions
// CHECK-SAME: %arg0: !llvm.func<void ()>, %arg1: !llvm.func<i32 (ptr<i8>, ...)>, %arg2: !llvm.ptr<func<void (...)>>
func @functions(%a: !llvm.func<void ()>, %b: !llvm.func<i32 (ptr<i8>, ...)>, %c: !llvm.ptr<func<void (...)>>) {
  return
}

// CHECK-LABEL: func @others
// CHECK-SAME: %arg0: !llvm.token, %arg1: !llvm.metadata, %arg2: !llvm.label
func @others(%a: !llvm.token, %b: !llvm.metadata, %c: !llvm.label) {
  return
}

// An element LLVM cannot hold makes the struct print in full where nested.
// CHECK-LABEL: func @incompatible
// CHECK-SAME: %arg0: !llvm.struct<(index)>, %arg1: !llvm.ptr<!llvm.struct<(index)>>
func @incompatible(%a: !llvm.struct<(index)>, %b: !llvm.ptr<struct<(index)>>) {
  return
}

// CHECK-LABEL: func @identified
// CHECK-SAME: %arg0: !llvm.struct<"list", (i32, ptr<struct<"list">>)>
// CHECK-SAME: %arg1: !llvm.ptr<struct<"list", (i32, ptr<struct<"list">>)>>
// CHECK-SAME: %arg2: !llvm.struct<"handle", opaque>
// CHECK-SAME: %arg3: !llvm.struct<"pair", packed (i8, i8)>
func @identified(%a: !llvm.struct<"list", (i32, ptr<struct<"list">>)>, %b: !llvm.ptr<struct<"list", (i32, ptr<struct<"list">>)>>,
                 %c: !llvm.struct<"handle", opaque>, %d: !llvm.struct<"pair", packed (i8, i8)>) {
  return
}
