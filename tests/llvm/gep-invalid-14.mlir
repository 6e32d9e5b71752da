// RUN: mlir-opt %s -verify-diagnostics

// `llvm.getelementptr` as mlir-opt-14 verifies it: every place a struct
// may be at is checked, whatever the indices before it select, so `[%a,
// 0, 1]` is out of bounds at the nested struct (15 follows the index
// into the `i32` and accepts it). The unprefixed `func` makes this 14's
// syntax.

func @anchor() {
  return
}

llvm.func @f(%s: !llvm.ptr<struct<(i32, struct<(f32)>)>>, %a: i64) {
  // expected-error @+1 {{'llvm.getelementptr' op index 2 indexing a struct is out of bounds}}
  %0 = llvm.getelementptr %s[%a, 0, 1] : (!llvm.ptr<struct<(i32, struct<(f32)>)>>, i64) -> !llvm.ptr<i32>
  llvm.return
}
