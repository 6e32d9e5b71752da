// A function nested in a function body prints as each generation prints
// it: 15 drops the `func.` of the body's default dialect (`func @inner`),
// 14 spells it `builtin.func` away from a module's body, 13 `func` (and
// its generic form opens regions with `( {`). Each
// output reads back the same. Expected lines are mlir-opt-13/14/15's.
// RUN: mlir-opt %s -allow-unregistered-dialect | FileCheck %s --check-prefix=V15
// RUN: mlir-opt %s -allow-unregistered-dialect | mlir-opt -allow-unregistered-dialect | FileCheck %s --check-prefix=V15
// RUN: mlir-opt %s -allow-unregistered-dialect --mlir-edition=14 | FileCheck %s --check-prefix=V14
// RUN: mlir-opt %s -allow-unregistered-dialect --mlir-edition=14 | mlir-opt -allow-unregistered-dialect | FileCheck %s --check-prefix=V14
// RUN: mlir-opt %s -allow-unregistered-dialect --mlir-edition=13 | FileCheck %s --check-prefix=V13

// V15-LABEL: func.func @outer()
// V15-NEXT:    func @inner(%arg0: i32) -> i32 {
// V15-NEXT:      return %arg0 : i32
// V15-NEXT:    }
// V15-NEXT:    "test.region"() ({
// V15-NEXT:      func.func @in_region() {
// V14-LABEL: func @outer()
// V14-NEXT:    builtin.func @inner(%arg0: i32) -> i32 {
// V14-NEXT:      return %arg0 : i32
// V14-NEXT:    }
// V14-NEXT:    "test.region"() ({
// V14-NEXT:      builtin.func @in_region() {
// V13-LABEL: func @outer()
// V13-NEXT:    func @inner(%arg0: i32) -> i32 {
// V13-NEXT:      return %arg0 : i32
// V13-NEXT:    }
// V13-NEXT:    "test.region"() ( {
// V13-NEXT:      func @in_region() {
func.func @outer() {
  func.func @inner(%a: i32) -> i32 {
    return %a : i32
  }
  "test.region"() ({
    func.func @in_region() {
      return
    }
    "test.end"() : () -> ()
  }) : () -> ()
  return
}
