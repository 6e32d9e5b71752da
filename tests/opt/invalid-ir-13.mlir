// The invalid IR of invalid-ir.mlir in the 13 syntax (this file passes
// `mlir-opt-13 -split-input-file -verify-diagnostics` unchanged).
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func @if_without_else(%c: i1) -> i32 {
  // expected-error @+1 {{'scf.if' op must have an else block if defining values}}
  %r = scf.if %c -> (i32) {
    %z = constant 0 : i32
    scf.yield %z : i32
  }
  return %r : i32
}

// -----

func @integer_for_float() -> f32 {
  %c = constant 0 : i32
  // expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
  // expected-note @+1 {{add a trailing dot to make the literal a float}}
  %0 = constant 1 : f32
  return %0 : f32
}

// -----

func @hex_out_of_range() -> f16 {
  %c = constant 0 : i32
  // expected-error @+1 {{hexadecimal float constant out of range for type}}
  %0 = constant 0x1FFFF : f16
  return %0 : f16
}

// -----

// 13 does not quote the dialect of an unregistered attribute. The parser
// words it so once the text has shown it is 13 (the `constant` above):
// a one-pass parser cannot know earlier.
func @f() {
  %c = constant 0 : i32
  return
}
// expected-error @+1 {{#foo<"bar"> : 'none' attribute created with unregistered dialect}}
func @opaque() attributes {a = #foo.bar} {
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
