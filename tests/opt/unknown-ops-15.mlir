// An op no dialect registered, in a dialect whose ops are all known here,
// is rejected by the verifier as mlir-opt-15 rejects it, also with
// -allow-unregistered-dialect (which is about dialects, not ops); the
// LLVM dialect allows unknown ops. mlir-opt-15 passes this file.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

func.func @unknown_in_arith() {
  // expected-error @+1 {{unregistered operation 'arith.nope' found in dialect ('arith') that does not allow unknown operations}}
  "arith.nope"() : () -> ()
  return
}

// -----

func.func @unknown_nested(%c: i1) {
  scf.if %c {
    // expected-error @+1 {{unregistered operation 'scf.nope' found in dialect ('scf') that does not allow unknown operations}}
    "scf.nope"() : () -> ()
  }
  return
}

// -----

func.func @llvm_allows_unknown_ops() {
  "llvm.nope"() : () -> ()
  return
}

// -----

func.func @tensor_store(%t: tensor<*xf32>, %m: memref<*xf32>) {
  memref.tensor_store %t, %m : memref<*xf32>
  return
}
