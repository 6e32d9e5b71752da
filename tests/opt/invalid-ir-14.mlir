// The invalid IR of invalid-ir.mlir that the 14 syntax words differently
// (this file passes `mlir-opt-14 -split-input-file -verify-diagnostics`).
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

// 14's custom form reads any symbol reference; the verifier refuses a
// nested one.
module {
  module @m {
    func @g() {
      return
    }
  }
  func @nested_reference() {
    // expected-error @+1 {{'std.constant' op requires 'value' to be a function reference}}
    %0 = constant @m::@g : () -> ()
    return
  }
}

// -----

func @undefined_reference() {
  // expected-error @+1 {{'std.constant' op reference to undefined function 'nope'}}
  %0 = constant @nope : () -> ()
  return
}

// -----

// 14 knows `call` in any region.
func @callee() {
  return
}
func @nested_call(%c: i1) -> i32 {
  scf.if %c {
    call @callee() : () -> ()
  }
  // expected-error @+1 {{'scf.if' op must have an else block if defining values}}
  %r = scf.if %c -> (i32) {
    %z = arith.constant 0 : i32
    scf.yield %z : i32
  }
  return %r : i32
}

// -----

// 14 quotes the dialect and reads the text between the angle brackets as a
// string, pointing into it.
// expected-error @+1 {{#"foo"<"x"> : 'none' attribute created with unregistered dialect}}
func @opaque() attributes {a = #foo<"x">} {
  return
}

// -----

// expected-note @+1 {{see existing symbol definition here}}
func private @twice()
// expected-error @+1 {{redefinition of symbol named 'twice'}}
func @twice() {
  return
}

// -----

// A function body's default dialect is `std` in 14: `func` bare is unknown
// there (only a module body takes it). `arith.constant` makes this 14:
// 13 takes `func` anywhere (bare-builtin-names.mlir).
func @outer() {
  %c = arith.constant 0 : index
  // expected-error @+1 {{custom op 'func' is unknown}}
  func @inner() {
    return
  }
  return
}
