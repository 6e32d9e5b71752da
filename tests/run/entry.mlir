// The entry point checks and messages of mlir-cpu-runner-14, and the
// printed result of each entry type (checked against mlir-cpu-runner-14).
// RUN: not mlir-async-run %s -e nope -entry-point-result=void 2>&1 | FileCheck %s --check-prefix=NOENTRY
// NOENTRY: Error: entry point not found
// RUN: not mlir-async-run %s -e main -entry-point-result=i32 2>&1 | FileCheck %s --check-prefix=I32
// I32: Error: only single i32 function result supported
// RUN: not mlir-async-run %s -e answer -entry-point-result=i64 2>&1 | FileCheck %s --check-prefix=I64
// I64: Error: only single i64 function result supported
// RUN: not mlir-async-run %s -e main -entry-point-result=f16 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: Error: unsupported function type
// RUN: mlir-async-run %s -e answer -entry-point-result=i32 | FileCheck %s --check-prefix=ANSWER
// ANSWER: {{^}}42{{$}}
// The default result type is f32, printed as LLVM's raw_ostream prints it.
// RUN: mlir-async-run %s -e half | FileCheck %s --check-prefix=HALF
// HALF: {{^}}5.000000e-01{{$}}
// RUN: mlir-async-run %s -e main -entry-point-result=void | count 0
llvm.func @main() {
  llvm.return
}
llvm.func @answer() -> i32 {
  %0 = llvm.mlir.constant(42 : i32) : i32
  llvm.return %0 : i32
}
llvm.func @half() -> f32 {
  %0 = llvm.mlir.constant(0.5 : f32) : f32
  llvm.return %0 : f32
}
llvm.func @no_such_function(i64) -> i64
