// The reference-counting passes change each function by what it holds
// alone, so a module lowered in parts is reference counted in its parts
// too, and prints as the whole module does (checked against mlir-opt-15).
// RUN: mlir-opt %s --mlir-shards=2 -async-to-async-runtime \
// RUN:   -async-runtime-ref-counting -async-runtime-ref-counting-opt \
// RUN:   | FileCheck %s
// RUN: mlir-opt %s --mlir-shards=2 -async-to-async-runtime \
// RUN:   -async-runtime-ref-counting -async-runtime-ref-counting-opt 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PARTS
// A pass that may look across functions after them: the module runs whole.
// RUN: mlir-opt %s --mlir-shards=2 -async-to-async-runtime \
// RUN:   -async-runtime-ref-counting -canonicalize 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WHOLE

// PARTS-NOT: runs whole
// WHOLE: mlir-async-opt: note: --mlir-shards: the module runs whole: the pipeline is not -async-to-async-runtime or -async-parallel-for followed by passes local to functions

// The token is returned: its reference goes to the caller.
// CHECK-LABEL: func.func @producer(%arg0: f32) -> !async.token {
// CHECK-NEXT:    %0 = call @async_execute_fn(%arg0) : (f32) -> !async.token
// CHECK-NEXT:    return %0 : !async.token
func.func @producer(%x: f32) -> !async.token {
  %t = async.execute {
    %y = arith.mulf %x, %x : f32
    async.yield
  }
  return %t : !async.token
}

// The argument's reference is dropped after its last use.
// CHECK-LABEL: func.func @consumer(%arg0: !async.token) {
// CHECK-NEXT:    async.runtime.await %arg0 : !async.token
// CHECK-NEXT:    %0 = async.runtime.is_error %arg0 : !async.token
// CHECK-NEXT:    async.runtime.drop_ref %arg0 {count = 1 : i64} : !async.token
func.func @consumer(%t: !async.token) {
  async.await %t : !async.token
  return
}

// In the other part: a reference is added for the callee that takes the
// token, and the caller's own is dropped after its last use.
// CHECK-LABEL: func.func @both(%arg0: f32) {
// CHECK-NEXT:    %0 = call @producer(%arg0) : (f32) -> !async.token
// CHECK-NEXT:    async.runtime.add_ref %0 {count = 1 : i64} : !async.token
// CHECK-NEXT:    call @consumer(%0) : (!async.token) -> ()
// CHECK-NEXT:    async.runtime.await %0 : !async.token
// CHECK-NEXT:    %1 = async.runtime.is_error %0 : !async.token
// CHECK-NEXT:    async.runtime.drop_ref %0 {count = 1 : i64} : !async.token
func.func @both(%x: f32) {
  %t = func.call @producer(%x) : (f32) -> !async.token
  func.call @consumer(%t) : (!async.token) -> ()
  async.await %t : !async.token
  return
}

// The outlined coroutine is counted in the part that outlined it.
// CHECK-LABEL: func.func private @async_execute_fn(%arg0: f32) -> !async.token
// CHECK:         %0 = async.runtime.create : !async.token
// CHECK:         async.runtime.set_available %0 : !async.token
// CHECK:         return %0 : !async.token
