// With eliminate-blocking-await-ops, a blocking wait written as
// async.runtime.await (the option only rewrites async.await and
// async.await_all) is an error unless its function may block.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics \
// RUN:   -async-to-async-runtime="eliminate-blocking-await-ops=true"

func.func @runtime_wait(%t: !async.token) {
  // expected-error @+1 {{'async.runtime.await' op blocks in a function that is not allowed to block}}
  async.runtime.await %t : !async.token
  return
}

// -----

// Only the first offender is reported, as the pass stops there.
func.func @first(%t: !async.token) {
  // expected-error @+1 {{'async.runtime.await' op blocks in a function that is not allowed to block}}
  async.runtime.await %t : !async.token
  async.runtime.await %t : !async.token
  return
}

// -----

// Allowed to block: kept as it is.
func.func @may_block(%t: !async.token) attributes {async.allowed_to_block} {
  async.runtime.await %t : !async.token
  return
}

// -----

// An async.await elsewhere is rewritten first; the runtime wait still fails.
func.func @mixed(%t: !async.token) {
  async.await %t : !async.token
  // expected-error @+1 {{'async.runtime.await' op blocks in a function that is not allowed to block}}
  async.runtime.await %t : !async.token
  return
}
