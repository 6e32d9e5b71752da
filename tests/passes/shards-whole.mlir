// What the parts cannot decide alone runs on the whole module, with a note
// when --mlir-shards was asked for.
// RUN: mlir-opt %s --mlir-shards=2 \
// RUN:   -async-to-async-runtime="eliminate-blocking-await-ops=true" \
// RUN:   | FileCheck %s
// RUN: mlir-opt %s --mlir-shards=2 \
// RUN:   -async-to-async-runtime="eliminate-blocking-await-ops=true" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTE

// @waits becomes a coroutine, and its reference by func.constant in the
// other part needs a blocking wrapper, named from the counter of the
// whole module.
// NOTE: mlir-async-opt: note: --mlir-shards: the module runs whole: the pass needs the whole module
// CHECK-LABEL: func.func @waits(%arg0: !async.token) -> !async.token
func.func @waits(%t: !async.token) {
  async.await %t : !async.token
  return
}

// CHECK-LABEL: func.func @refers()
// CHECK:   constant @waits_blocking : (!async.token) -> ()
func.func @refers() -> ((!async.token) -> ()) {
  %f = func.constant @waits : (!async.token) -> ()
  return %f : (!async.token) -> ()
}

// CHECK-LABEL: func.func private @waits_blocking(%arg0: !async.token) attributes {async.allowed_to_block}
