// Attributes and types of a dialect no one registered are refused, as
// mlir-opt refuses them, unless -allow-unregistered-dialect asks for them
// (then they print back as written).
// RUN: mlir-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt %s -split-input-file -allow-unregistered-dialect | FileCheck %s

// CHECK: func.func @pretty() attributes {a = #foo.bar<"x">}
// expected-error @+1 {{#"foo"<"bar<"x">"> : 'none' attribute created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used}}
func.func @pretty() attributes {a = #foo.bar<"x">} {
  return
}

// -----

// The 15 syntax takes the text between the angle brackets verbatim.
// CHECK: func.func @opaque() attributes {a = #foo<"x">}
// expected-error @+1 {{#"foo"<""x""> : 'none' attribute created with unregistered dialect}}
func.func @opaque() attributes {a = #foo<"x">} {
  return
}

// -----

// A nested attribute is refused too.
// CHECK: func.func @nested() attributes {a = [1, {b = #foo.baz}]}
// expected-error @+1 {{#"foo"<"baz"> : 'none' attribute created with unregistered dialect}}
func.func @nested() attributes {a = [1, {b = #foo.baz}]} {
  return
}

// -----

// CHECK: func.func @type(%arg0: !foo.bar<"x">)
// expected-error @+1 {{`!"foo"<"bar<"x">">` type created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used}}
func.func @type(%a: !foo.bar<"x">) {
  return
}
