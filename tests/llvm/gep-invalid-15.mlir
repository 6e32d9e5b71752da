// RUN: mlir-opt %s -split-input-file -verify-diagnostics

// `llvm.getelementptr` as mlir-opt-15 verifies it: the element type in
// the pointer type or in `elem_type`, never both nor neither; struct
// indices checked along the type indexed.

llvm.func @f(%p: !llvm.ptr, %a: i64) {
  // expected-error @+1 {{'llvm.getelementptr' op expected 'elem_type' attribute if opaque pointer type is used}}
  %0 = llvm.getelementptr %p[%a] : (!llvm.ptr, i64) -> !llvm.ptr
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr<f32>, %a: i64) {
  // expected-error @+1 {{'llvm.getelementptr' op unexpected 'elem_type' attribute when non-opaque pointer type is used}}
  %0 = llvm.getelementptr %p[%a] : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>, f32
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr, %a: i64) {
  // expected-error @+1 {{'llvm.getelementptr' op index 2 indexing a struct is out of bounds}}
  %0 = llvm.getelementptr %p[%a, 1, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, struct<(f32)>)>
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr, %a: i64) {
  // expected-error @+1 {{'llvm.getelementptr' op expected index 2 indexing a struct to be constant}}
  %0 = llvm.getelementptr %p[%a, 1, %a] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.struct<(i32, struct<(f32)>)>
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr, %a: i64) {
  // expected-error @+1 {{integer literal not valid for specified type}}
  %0 = llvm.getelementptr %p[%a] : (!llvm.ptr, i64) -> !llvm.ptr, 3
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr, %a: i64) {
  // expected-error @+1 {{custom op 'llvm.getelementptr' integer value too large}}
  %0 = llvm.getelementptr %p[%a, 2147483648] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr, %a: i64) {
  // expected-error @+1 {{expected integer value}}
  %0 = llvm.getelementptr %p[%a, -] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.return
}
