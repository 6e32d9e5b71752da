// LLVM 13 printed "no predecessors" on entry blocks that show a header.
// RUN: mlir-opt %s -allow-unregistered-dialect | FileCheck %s
// RUN: mlir-opt %s -allow-unregistered-dialect --mlir-edition=14 | FileCheck %s --check-prefix=V14

// CHECK: module  {
// CHECK: ^bb0(%arg0: i32):  // no predecessors
// V14: module {
// V14: ^bb0(%arg0: i32):{{$}}
func @f() {
  %c = constant 1 : i32
  "test.region"() ({
  ^bb0(%x: i32):
    "test.use"(%x) : (i32) -> ()
  }) : () -> ()
  return
}
