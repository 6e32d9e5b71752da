// Every malformed module gets an MLIR-style error at the right place.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func @undefined() {
  // expected-error @+1 {{use of undeclared SSA value name}}
  async.await %nope : !async.token
  return
}

// -----

func @redefined(%a: i32) {
  // expected-note @+1 {{previously defined here}}
  %x = arith.addi %a, %a : i32
  // expected-error @+1 {{redefinition of SSA value '%x'}}
  %x = arith.addi %a, %a : i32
  return
}

// -----

// expected-note @+1 {{prior use here}}
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

func @bad_return(%a: i32) -> f32 {
  // expected-error @+1 {{type of return operand 0 ('i32') doesn't match function result type ('f32') in function @bad_return}}
  return %a : i32
}

// -----

func @short_return(%a: i32) -> f32 {
  // expected-error @+1 {{'std.return' op has 0 operands, but enclosing function (@short_return) returns 1}}
  return
}

// -----

func @no_dominance(%a: i32) -> i32 {
  br ^bb2
^bb1:
  // expected-note @+1 {{operand defined here (op in the same region)}}
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

// -----

// Only the generic form can give a binary op mixed types.
func @mixed_types(%a: index) {
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %a) : (index, index) -> i32
  return
}

// -----

// A successor at the top level is checked as in any region.
// expected-error @+1 {{reference to an undefined block}}
"std.br"()[^missing] : () -> ()
