// RUN: mlir-opt %s -split-input-file -verify-diagnostics

// `llvm.switch` in LLVM 13's format, as mlir-opt-13 reports it: case
// values are `int32_t` literals, and the flag an `i32`. The unprefixed
// `constant` makes each part 13's syntax.

func @anchor() {
  %0 = constant 0 : i32
  return
}

// Past 32 bits. (From 2^31 to 2^32 - 1, the unsigned spelling 13 itself
// prints for a negative value, we read where mlir-opt-13 refuses: see
// switch-13-round-trip.mlir.)
llvm.func @f(%x: i32) {
  // expected-error @+1 {{custom op 'llvm.switch' integer value too large}}
  llvm.switch %x, ^bb1 [4294967296: ^bb1]
^bb1:
  llvm.return
}

// -----

func @anchor() {
  %0 = constant 0 : i32
  return
}

llvm.func @f(%x: i32) {
  // expected-error @+1 {{expected ':'}}
  llvm.switch %x, ^bb1 [1 ^bb1]
^bb1:
  llvm.return
}

// -----

func @anchor() {
  %0 = constant 0 : i32
  return
}

// expected-note @+1 {{prior use here}}
llvm.func @f(%x: i64) {
  // expected-error @+1 {{use of value '%x' expects different type than prior uses: 'i32' vs 'i64'}}
  llvm.switch %x, ^bb1 [1: ^bb1]
^bb1:
  llvm.return
}
