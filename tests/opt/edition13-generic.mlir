// The generic form in the 13 syntax, as mlir-opt-13 prints it: the module
// and function ops have no dialect prefix yet (`"module"`, `"func"`), a
// region list opens with `( {` and regions are separated by `},  {`; the
// output reads back the same.
// RUN: mlir-opt %s --mlir-print-op-generic | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | mlir-opt --mlir-print-op-generic | FileCheck %s

// CHECK:      "module"() ( {
// CHECK-NEXT:   "func"() ( {
// CHECK-NEXT:   ^bb0(%arg0: i32, %arg1: i1):  // no predecessors
// CHECK-NEXT:     %0 = "std.addi"(%arg0, %arg0) : (i32, i32) -> i32
// CHECK-NEXT:     %1 = "scf.if"(%arg1) ( {
// CHECK-NEXT:       "scf.yield"(%0) : (i32) -> ()
// CHECK-NEXT:     },  {
// CHECK-NEXT:       "scf.yield"(%arg0) : (i32) -> ()
// CHECK-NEXT:     }) : (i1) -> i32
// CHECK-NEXT:     "std.br"(%1)[^bb1] : (i32) -> ()
// CHECK-NEXT:   ^bb1(%2: i32):  // pred: ^bb0
// CHECK-NEXT:     %3 = "async.execute"() ( {
// CHECK-NEXT:       "async.yield"() : () -> ()
// CHECK-NEXT:     }) {operand_segment_sizes = dense<0> : vector<2xi32>} : () -> !async.token
// CHECK-NEXT:     "std.return"(%2) : (i32) -> ()
// CHECK-NEXT:   }) {sym_name = "f", type = (i32, i1) -> i32} : () -> ()
// CHECK-NEXT: }) : () -> ()
func @f(%a: i32, %c: i1) -> i32 {
  %0 = addi %a, %a : i32
  %1 = scf.if %c -> (i32) {
    scf.yield %0 : i32
  } else {
    scf.yield %a : i32
  }
  br ^bb1(%1 : i32)
^bb1(%x: i32):
  %t = async.execute {
    async.yield
  }
  return %x : i32
}
