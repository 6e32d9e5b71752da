// Bare builtin op names outside a module body in 14 and 15 (arith.constant
// makes the first two chunks 14 or later, func.func the others 15): the
// errors of mlir-opt-14 (first two chunks) and mlir-opt-15 (the rest).
// RUN: mlir-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

func @module_in_body() {
  %c = arith.constant 0 : index
  // expected-error @+1 {{custom op 'module' is unknown}}
  module {
  }
  return
}

// -----

func @func_in_region() {
  %c = arith.constant 0 : index
  "test.region"() ({
    // expected-error @+1 {{custom op 'func' is unknown}}
    func @g() {
      return
    }
    "test.end"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @module_in_body_15() {
  // expected-error @+1 {{custom op 'module' is unknown (tried 'func.module' as well)}}
  module {
  }
  return
}

// -----

func.func @module_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{custom op 'module' is unknown (tried '.module' as well)}}
    module {
    }
  }
  return
}
