// Every malformed module gets an MLIR-style error at the right place.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func @undefined() {
  // expected-error @+1 {{use of undeclared SSA value name}}
  async.await %nope : !async.token
  return
}

// -----

func @redefined(%a: i32) {
  %x = arith.addi %a, %a : i32
  // expected-error @+1 {{redefinition of SSA value '%x'}}
  %x = arith.addi %a, %a : i32
  return
}

// -----

func @type_mismatch(%a: i32) {
  // expected-error @+1 {{use of value '%a' expects different type than prior uses: 'f32' vs 'i32'}}
  %x = arith.addf %a, %a : f32
  return
}

// -----

func @unknown_op() {
  // expected-error @+1 {{custom op 'frobnicate' is unknown}}
  frobnicate
  return
}

// -----

func @wrong_await(%a: f32) {
  // expected-error @+1 {{'async.await' op operand #0 must be async value type or async token type, but got 'f32'}}
  async.await %a : f32
  return
}

// -----

func @no_dominance(%a: i32) -> i32 {
  br ^bb2
^bb1:
  %x = arith.addi %a, %a : i32
  br ^bb2
^bb2:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  return %x : i32
}

// -----

func @undefined_block() {
  // expected-error @+1 {{reference to an undefined block}}
  br ^nowhere
}
