// Invalid IR that mlir-opt rejects and we used to accept, in the 15
// syntax. Every diagnostic here is mlir-opt-15's (this file passes
// `mlir-opt-15 -split-input-file -verify-diagnostics` unchanged).
// RUN: mlir-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// Two symbols of one name make every reference ambiguous.
// expected-note @+1 {{see existing symbol definition here}}
func.func private @twice()
func.func @other() {
  return
}
// expected-error @+1 {{redefinition of symbol named 'twice'}}
func.func @twice() {
  return
}

// -----

// Only the symbol table a symbol sits in counts: the same name in a nested
// module is another symbol.
module {
  func.func @inner() {
    return
  }
  module @nested {
    func.func @inner() {
      return
    }
    // expected-note @+1 {{see existing symbol definition here}}
    func.func private @x()
    // expected-error @+1 {{redefinition of symbol named 'x'}}
    func.func private @x()
  }
}

// -----

// Results need an else branch to come from when the condition is false.
func.func @if_without_else(%c: i1) -> i32 {
  // expected-error @+1 {{'scf.if' op must have an else block if defining values}}
  %r = scf.if %c -> (i32) {
    %z = arith.constant 0 : i32
    scf.yield %z : i32
  }
  return %r : i32
}

// -----

// Function bodies do not start a new name scope: a module-level name is
// still taken inside them.
// expected-note @+1 {{previously defined here}}
%x = "test.source"() : () -> i32
func.func @shadows() {
  // expected-error @+1 {{redefinition of SSA value '%x'}}
  %x = arith.constant 0 : i32
  return
}

// -----

// expected-note @+1 {{previously referenced here}}
%y = "test.source"() : () -> i32
// expected-error @+1 {{region entry argument '%y' is already in use}}
func.func @shadows_by_argument(%y: i32) {
  return
}

// -----

// A custom form's region argument gets its own wording.
// expected-note @+1 {{previously referenced here}}
func.func @loop_argument(%i: index) {
  // expected-error @+1 {{region entry argument '%i' is already in use}}
  scf.for %i = %i to %i step %i {
  }
  return
}

// -----

// In the 15 syntax, `func` is the default dialect only directly in a
// `func.func` body: an unprefixed `call` in a nested region is unknown.
func.func @callee() {
  return
}
func.func @nested_call(%c: i1) {
  scf.if %c {
    // expected-error @+1 {{custom op 'call' is unknown (tried '.call' as well)}}
    call @callee() : () -> ()
  }
  return
}

// -----

func.func @callee() {
  return
}
// expected-error @+1 {{custom op 'call' is unknown (tried 'builtin.call' as well)}}
call @callee() : () -> ()

// -----

// A function constant names a function of its own symbol table.
module {
  module @m {
    func.func @g() {
      return
    }
  }
  func.func @nested_reference() {
    // expected-error @+1 {{custom op 'func.constant' invalid kind of attribute specified}}
    %0 = func.constant @m::@g : () -> ()
    return
  }
}

// -----

module @m {
  func.func @g() {
    return
  }
}
func.func @nested_reference_generic() {
  // expected-error @+1 {{'func.constant' op attribute 'value' failed to satisfy constraint: flat symbol reference attribute}}
  %0 = "func.constant"() {value = @m::@g} : () -> (() -> ())
  return
}

// -----

func.func @undefined_reference() {
  // expected-error @+1 {{'func.constant' op reference to undefined function 'nope'}}
  %0 = constant @nope : () -> ()
  return
}

// -----

func.func @takes_i32(%a: i32) {
  return
}
func.func @mismatched_reference() {
  // expected-error @+1 {{'func.constant' op reference to function with mismatched type}}
  %0 = constant @takes_i32 : () -> ()
  return
}

// -----

func.func @integer_for_float() -> f32 {
  // expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
  // expected-note @+1 {{add a trailing dot to make the literal a float}}
  %0 = arith.constant 1 : f32
  return %0 : f32
}

// -----

func.func @negative_hex() -> f16 {
  // expected-error @+1 {{hexadecimal float literal should not have a leading minus}}
  %0 = arith.constant -0x7C00 : f16
  return %0 : f16
}

// -----

func.func @hex_out_of_range() -> f16 {
  // expected-error @+1 {{hexadecimal float constant out of range for type}}
  %0 = arith.constant 0x1FFFF : f16
  return %0 : f16
}

// -----

func.func @hex_out_of_range_f32() -> f32 {
  // expected-error @+1 {{hexadecimal float constant out of range for type}}
  %0 = arith.constant 0x100000000 : f32
  return %0 : f32
}

// -----

func.func @signed_constant() -> si32 {
  // expected-error @+1 {{'arith.constant' op integer return type must be signless}}
  %0 = arith.constant 1 : si32
  return %0 : si32
}

// -----

func.func @if_yields_too_few(%c: i1) -> i32 {
  // expected-error @+1 {{'scf.if' op  region control flow edge from Region #0 to parent results: source has 0 operands, but target successor needs 1}}
  %r = "scf.if"(%c) ({
    "scf.yield"() : () -> ()
  }, {
    "scf.yield"() : () -> ()
  }) : (i1) -> i32
  return %r : i32
}

// -----

func.func @if_yields_wrong_type(%c: i1, %v: i64) -> i32 {
  // expected-error @+1 {{'scf.if' op  along control flow edge from Region #0 to parent results: source type #0 'i64' should match input type #0 'i32'}}
  %r = "scf.if"(%c) ({
    "scf.yield"(%v) : (i64) -> ()
  }, {
    "scf.yield"(%v) : (i64) -> ()
  }) : (i1) -> i32
  return %r : i32
}

// -----

func.func @for_yields_too_few(%n: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op  region control flow edge from Region #0 to Region #0: source has 0 operands, but target successor needs 1}}
  %r = "scf.for"(%c0, %n, %c1, %x) ({
  ^bb0(%i: index, %acc: i32):
    "scf.yield"() : () -> ()
  }) : (index, index, index, i32) -> i32
  return %r : i32
}

// -----

func.func @foreach_thread_missing_region() {
  // expected-error @+1 {{'scf.foreach_thread' op requires one region}}
  "scf.foreach_thread"() : () -> ()
  return
}

// -----

func.func @foreach_thread_empty_body(%n: index) {
  // expected-error @+1 {{'scf.foreach_thread' op expects a non-empty block}}
  "scf.foreach_thread"(%n) ({
  ^bb0(%x: index):
  }) : (index) -> ()
  return
}
