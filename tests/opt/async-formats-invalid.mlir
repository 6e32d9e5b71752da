// What the async ops' declared parsers report, in upstream's words:
// `custom op '<name>'` and the complaint of ODS's generated parser.
// mlir-opt-14 passes this file's -verify-diagnostics too.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func @token_is_no_value(%t: !async.token) {
  // expected-error@+1 {{custom op 'async.runtime.load' invalid kind of Type specified}}
  %0 = async.runtime.load %t : !async.token
  return
}

// -----

func @more_values_than_types(%x: f32) {
  %t = async.execute {
    // expected-error@+1 {{custom op 'async.yield' 2 operands present, but expected 1}}
    async.yield %x, %x : f32
  }
  return
}

// -----

func @group_type_is_fixed(%t: !async.token, %g: !async.group) {
  // expected-error@+1 {{expected ':'}}
  %0 = async.add_to_group %t, %g, %g : !async.token
  return
}
