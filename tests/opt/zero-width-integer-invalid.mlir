// A zero-width integer holds only 0: any other literal is out of range,
// -1 included (it needs a sign bit), whatever the signedness. Found by
// fuzzing (the range check shifted by -1). mlir-opt-14 passes this
// file's -verify-diagnostics too.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func @minus_one() {
  // expected-error@+1 {{integer constant out of range for attribute}}
  %c = arith.constant -1 : i0
  return
}

// -----

func @one() {
  // expected-error@+1 {{integer constant out of range for attribute}}
  %c = arith.constant 1 : i0
  return
}

// -----

func @signed_zero_reaches_the_verifier() {
  // expected-error@+1 {{'arith.constant' op integer return type must be signless}}
  %c = arith.constant 0 : si0
  return
}

// -----

func @unsigned_one() {
  // expected-error@+1 {{integer constant out of range for attribute}}
  %c = arith.constant 1 : ui0
  return
}

// -----

func @hex_byte_for_no_bits() {
  // expected-error@+1 {{elements hex data size is invalid for provided type: 'tensor<3xi0>'}}
  %c = arith.constant dense<"0x00"> : tensor<3xi0>
  return
}
