// An identified struct that points to itself (a list node) as a value, a
// function argument and a pointee: the executor converts its type once
// (the inner reference is not followed again) and the field offsets are
// LLVM's. mlir-cpu-runner-14 prints the same 7.
// RUN: mlir-async-run %s -e main -entry-point-result=i32 | FileCheck %s
// CHECK: {{^}}7{{$}}
llvm.func @first(%n: !llvm.struct<"list", (i32, ptr<struct<"list">>)>) -> i32 {
  %v = llvm.extractvalue %n[0] : !llvm.struct<"list", (i32, ptr<struct<"list">>)>
  llvm.return %v : i32
}

llvm.func @main() -> i32 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %seven = llvm.mlir.constant(7 : i32) : i32
  %p = llvm.alloca %one x !llvm.struct<"list", (i32, ptr<struct<"list">>)> : (i64) -> !llvm.ptr<struct<"list", (i32, ptr<struct<"list">>)>>
  %f0 = llvm.getelementptr %p[0, 0] : (!llvm.ptr<struct<"list", (i32, ptr<struct<"list">>)>>) -> !llvm.ptr<i32>
  llvm.store %seven, %f0 : !llvm.ptr<i32>
  %f1 = llvm.getelementptr %p[0, 1] : (!llvm.ptr<struct<"list", (i32, ptr<struct<"list">>)>>) -> !llvm.ptr<ptr<struct<"list", (i32, ptr<struct<"list">>)>>>
  llvm.store %p, %f1 : !llvm.ptr<ptr<struct<"list", (i32, ptr<struct<"list">>)>>>
  %next = llvm.load %f1 : !llvm.ptr<ptr<struct<"list", (i32, ptr<struct<"list">>)>>>
  %node = llvm.load %next : !llvm.ptr<struct<"list", (i32, ptr<struct<"list">>)>>
  %r = llvm.call @first(%node) : (!llvm.struct<"list", (i32, ptr<struct<"list">>)>) -> i32
  llvm.return %r : i32
}
