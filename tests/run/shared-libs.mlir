// -shared-libs: upstream's runner utilities and async runtime are built in
// whatever path names them; another library is loaded and must exist.
// RUN: mlir-async-run %s -e main -entry-point-result=i32 -shared-libs=/no/such/dir/libmlir_c_runner_utils.so | FileCheck %s --check-prefix=BUILTIN
// BUILTIN: {{^}}7{{$}}
// RUN: not mlir-async-run %s -e main -entry-point-result=i32 -shared-libs=/no/such/dir/libother.so 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: Error: cannot load library '/no/such/dir/libother.so': /no/such/dir/libother.so: cannot open shared object file: No such file or directory
llvm.func @main() -> i32 {
  %0 = llvm.mlir.constant(7 : i32) : i32
  llvm.return %0 : i32
}
