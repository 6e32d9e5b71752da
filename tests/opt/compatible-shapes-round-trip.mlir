// A binary op's operands may differ from its result in compatible shapes
// (a dynamic size for a static one): valid, but not what its custom form
// can spell, which gives every operand the result's type. mlir-opt-14 and
// -15 print the custom form anyway, and their output does not parse back
// ("use of value '%arg1' expects different type than prior uses"); we
// print such an op in the generic form, and the output reads back.
// RUN: mlir-opt %s | mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @mixed
// CHECK-NEXT: "arith.addi"(%arg0, %arg1) : (tensor<2xi32>, tensor<?xi32>) -> tensor<2xi32>
// CHECK-NEXT: arith.cmpi slt, %arg1, %arg1 : tensor<?xi32>
// CHECK-NEXT: arith.addi %arg0, %arg0 : tensor<2xi32>
func.func @mixed(%x: tensor<2xi32>, %y: tensor<?xi32>) -> (tensor<2xi32>, tensor<?xi1>, tensor<2xi32>) {
  %0 = "arith.addi"(%x, %y) : (tensor<2xi32>, tensor<?xi32>) -> tensor<2xi32>
  %1 = arith.cmpi slt, %y, %y : tensor<?xi32>
  %2 = arith.addi %x, %x : tensor<2xi32>
  return %0, %1, %2 : tensor<2xi32>, tensor<?xi1>, tensor<2xi32>
}
