// Where `func` is the default dialect in the 15 syntax: directly in a
// `func.func` body, and in the regions of an op spelled in the generic
// form there (a generic op does not change the default). The 14 syntax
// knows `call` everywhere.
// RUN: mlir-opt %s -split-input-file | FileCheck %s
// RUN: mlir-opt %s -split-input-file --mlir-edition=14 | FileCheck %s --check-prefix=V14

// CHECK-LABEL: func.func @generic_if
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: func.call @callee() : () -> ()
// CHECK: call @callee() : () -> ()
// V14-LABEL: func @generic_if
// V14: scf.if %{{.*}} {
// V14-NEXT: call @callee() : () -> ()
func.func @callee() {
  return
}
func.func @generic_if(%c: i1) {
  "scf.if"(%c) ({
    call @callee() : () -> ()
    scf.yield
  }, {
  }) : (i1) -> ()
  call @callee() : () -> ()
  return
}

// -----

// V14-LABEL: func @legacy_nested
// V14: scf.if %{{.*}} {
// V14-NEXT: call @callee() : () -> ()
func @callee() {
  return
}
func @legacy_nested(%c: i1) {
  scf.if %c {
    call @callee() : () -> ()
  }
  return
}
