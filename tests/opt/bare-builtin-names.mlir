// The bare names of builtin ops, `module` and `func`: 13 registered its
// builtin ops under them, so they parse anywhere (a function or a module
// nested in a function body or in an unknown op's region), and 13's own
// output of nested functions reads back; 14 and 15 find them through the
// default dialect, `builtin` only in a module body, and reject them
// elsewhere (bare-builtin-names-invalid.mlir). `constant` makes this
// input 13's. Expected lines are mlir-opt-13's output.
// RUN: mlir-opt %s -allow-unregistered-dialect | FileCheck %s
// RUN: mlir-opt %s -allow-unregistered-dialect | mlir-opt -allow-unregistered-dialect | FileCheck %s
// RUN: mlir-opt %S/nested-func.mlir -allow-unregistered-dialect --mlir-edition=13 | mlir-opt -allow-unregistered-dialect | FileCheck %s --check-prefix=BACK

// CHECK-LABEL: func @f(%arg0: index) {
// CHECK-NEXT:    %c0 = constant 0 : index
// CHECK-NEXT:    %c1 = constant 1 : index
// CHECK-NEXT:    func @in_body() {
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:    module @m  {
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %arg1 = %c0 to %arg0 step %c1 {
// CHECK-NEXT:      module  {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    "test.region"() ( {
// CHECK-NEXT:      func @in_region() {
// CHECK-NEXT:        return
// CHECK-NEXT:      }
// CHECK-NEXT:      "test.end"() : () -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    return
// CHECK-NEXT:  }

// BACK-LABEL: func @outer()
// BACK-NEXT:    func @inner(%arg0: i32) -> i32 {
// BACK:         "test.region"() ( {
// BACK-NEXT:      func @in_region() {

func @f(%n: index) {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  func @in_body() {
    return
  }
  module @m {
  }
  scf.for %i = %c0 to %n step %c1 {
    module {
    }
  }
  "test.region"() ({
    func @in_region() {
      return
    }
    "test.end"() : () -> ()
  }) : () -> ()
  return
}
