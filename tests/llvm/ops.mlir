// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s | mlir-opt | FileCheck %s

// The custom forms of the LLVM dialect's ops, as mlir-opt-14 prints them
// (15 prints the same): integer and float arithmetic keep a second space
// before their type, where their attribute dictionary would go.

// CHECK-LABEL: llvm.mlir.global internal constant @greeting("hi\00")
// CHECK-NEXT: llvm.mlir.global external @counter(7 : i64) {alignment = 8 : i64} : i64
// CHECK-NEXT: llvm.mlir.global private @counter_ptr() : !llvm.ptr<i64> {
// CHECK-NEXT:   %0 = llvm.mlir.addressof @counter : !llvm.ptr<i64>
// CHECK-NEXT:   llvm.return %0 : !llvm.ptr<i64>
// CHECK-NEXT: }
llvm.mlir.global internal constant @greeting("hi\00")
llvm.mlir.global @counter(7 : i64) {alignment = 8 : i64} : i64
llvm.mlir.global private @counter_ptr() : !llvm.ptr<i64> {
  %0 = llvm.mlir.addressof @counter : !llvm.ptr<i64>
  llvm.return %0 : !llvm.ptr<i64>
}

// External declarations: types only, varargs, and a non-default linkage.
// CHECK: llvm.func @malloc(i64) -> !llvm.ptr<i8>
// CHECK: llvm.func @printf(!llvm.ptr<i8>, ...) -> i32
// CHECK: llvm.func extern_weak @maybe(i32 {llvm.signext})
llvm.func @malloc(i64) -> !llvm.ptr<i8>
llvm.func @printf(!llvm.ptr<i8>, ...) -> i32
llvm.func extern_weak @maybe(i32 {llvm.signext})

// CHECK: llvm.func internal @wrapper(%arg0: !llvm.ptr<i8>) attributes {llvm.emit_c_interface, passthrough = ["noinline", ["frame-pointer", "all"]], sym_visibility = "private"} {
llvm.func internal @wrapper(%p: !llvm.ptr<i8>) attributes {llvm.emit_c_interface, passthrough = ["noinline", ["frame-pointer", "all"]], sym_visibility = "private"} {
  llvm.return
}

// CHECK-LABEL: llvm.func @arith
llvm.func @arith(%a: i32, %b: i32, %f: f64) -> i1 {
  // CHECK: %0 = llvm.add %arg0, %arg1  : i32
  // CHECK: %1 = llvm.udiv %0, %arg1  : i32
  // CHECK: %2 = llvm.ashr %1, %arg0  : i32
  // CHECK: %3 = llvm.fmul %arg2, %arg2  : f64
  // CHECK: %4 = llvm.fneg %3  : f64
  // CHECK: %5 = llvm.fadd %4, %arg2  {fastmathFlags = #llvm.fastmath<fast>} : f64
  // CHECK: %6 = llvm.icmp "uge" %2, %arg1 : i32
  // CHECK: %7 = llvm.fcmp "_true" %5, %arg2 : f64
  // CHECK: %8 = llvm.select %6, %arg0, %arg1 : i1, i32
  // CHECK: %9 = llvm.xor %6, %7  : i1
  %0 = llvm.add %a, %b : i32
  %1 = llvm.udiv %0, %b : i32
  %2 = llvm.ashr %1, %a : i32
  %3 = llvm.fmul %f, %f : f64
  %4 = llvm.fneg %3 : f64
  %5 = llvm.fadd %4, %f {fastmathFlags = #llvm.fastmath<fast>} : f64
  %6 = llvm.icmp "uge" %2, %b : i32
  %7 = llvm.fcmp "_true" %5, %f : f64
  %8 = llvm.select %6, %a, %b : i1, i32
  %9 = llvm.xor %6, %7 : i1
  llvm.return %9 : i1
}

// CHECK-LABEL: llvm.func @memory
llvm.func @memory(%n: i64, %v: f32) -> f32 {
  // CHECK: %0 = llvm.alloca %arg0 x !llvm.struct<(i32, array<4 x f32>)> {alignment = 16 : i64} : (i64) -> !llvm.ptr<struct<(i32, array<4 x f32>)>>
  // CHECK: %1 = llvm.getelementptr %0[%arg0, 1, 2] : (!llvm.ptr<struct<(i32, array<4 x f32>)>>, i64) -> !llvm.ptr<f32>
  // CHECK: llvm.store %arg1, %1 : !llvm.ptr<f32>
  // CHECK: %2 = llvm.load volatile %1 : !llvm.ptr<f32>
  // CHECK: %3 = llvm.bitcast %1 : !llvm.ptr<f32> to !llvm.ptr<i8>
  // CHECK: %4 = llvm.ptrtoint %3 : !llvm.ptr<i8> to i64
  // CHECK: %5 = llvm.inttoptr %4 : i64 to !llvm.ptr<i8>
  // CHECK: %6 = llvm.mlir.null : !llvm.ptr<i8>
  // The alignment 0 is no alignment.
  // CHECK: %7 = llvm.alloca %arg0 x i8 : (i64) -> !llvm.ptr<i8>
  %0 = llvm.alloca %n x !llvm.struct<(i32, array<4 x f32>)> {alignment = 16 : i64} : (i64) -> !llvm.ptr<struct<(i32, array<4 x f32>)>>
  %1 = llvm.getelementptr %0[%n, 1, 2] : (!llvm.ptr<struct<(i32, array<4 x f32>)>>, i64) -> !llvm.ptr<f32>
  llvm.store %v, %1 : !llvm.ptr<f32>
  %2 = llvm.load volatile %1 : !llvm.ptr<f32>
  %3 = llvm.bitcast %1 : !llvm.ptr<f32> to !llvm.ptr<i8>
  %4 = llvm.ptrtoint %3 : !llvm.ptr<i8> to i64
  %5 = llvm.inttoptr %4 : i64 to !llvm.ptr<i8>
  %6 = llvm.mlir.null : !llvm.ptr<i8>
  %7 = llvm.alloca %n x i8 {alignment = 0 : i64} : (i64) -> !llvm.ptr<i8>
  llvm.return %2 : f32
}

// CHECK-LABEL: llvm.func @aggregates
llvm.func @aggregates(%a: i64, %p: !llvm.ptr<i8>) -> !llvm.struct<(ptr<i8>, array<2 x i64>)> {
  // CHECK: %0 = llvm.mlir.undef : !llvm.struct<(ptr<i8>, array<2 x i64>)>
  // CHECK: %1 = llvm.insertvalue %arg1, %0[0] : !llvm.struct<(ptr<i8>, array<2 x i64>)>
  // CHECK: %2 = llvm.insertvalue %arg0, %1[1, 1] : !llvm.struct<(ptr<i8>, array<2 x i64>)>
  // CHECK: %3 = llvm.extractvalue %2[1, 0] : !llvm.struct<(ptr<i8>, array<2 x i64>)>
  // CHECK: %4 = llvm.mlir.constant(dense<[1, 2]> : vector<2xi32>) : vector<2xi32>
  // CHECK: %5 = llvm.mlir.constant(true) : i1
  // CHECK: %6 = llvm.mlir.constant(2.500000e-01 : f32) : f32
  // CHECK: %7 = llvm.mlir.constant(1 : index) : i64
  %0 = llvm.mlir.undef : !llvm.struct<(ptr<i8>, array<2 x i64>)>
  %1 = llvm.insertvalue %p, %0[0] : !llvm.struct<(ptr<i8>, array<2 x i64>)>
  %2 = llvm.insertvalue %a, %1[1, 1] : !llvm.struct<(ptr<i8>, array<2 x i64>)>
  %3 = llvm.extractvalue %2[1, 0] : !llvm.struct<(ptr<i8>, array<2 x i64>)>
  %4 = llvm.mlir.constant(dense<[1, 2]> : vector<2xi32>) : vector<2xi32>
  %5 = llvm.mlir.constant(true) : i1
  %6 = llvm.mlir.constant(0.25 : f32) : f32
  %7 = llvm.mlir.constant(1 : index) : i64
  llvm.return %2 : !llvm.struct<(ptr<i8>, array<2 x i64>)>
}

// CHECK-LABEL: llvm.func @calls
llvm.func @calls(%n: i64, %f: !llvm.ptr<func<i32 (i64)>>) {
  // CHECK: %0 = llvm.call @malloc(%arg0) : (i64) -> !llvm.ptr<i8>
  // CHECK: %1 = llvm.call %arg1(%arg0) : (i64) -> i32
  // CHECK: %2 = llvm.call @printf(%0, %1) : (!llvm.ptr<i8>, i32) -> i32
  // CHECK: %3 = llvm.mlir.addressof @malloc : !llvm.ptr<func<ptr<i8> (i64)>>
  %0 = llvm.call @malloc(%n) : (i64) -> !llvm.ptr<i8>
  %1 = llvm.call %f(%n) : (i64) -> i32
  %2 = llvm.call @printf(%0, %1) : (!llvm.ptr<i8>, i32) -> i32
  %3 = llvm.mlir.addressof @malloc : !llvm.ptr<func<ptr<i8> (i64)>>
  llvm.return
}

// CHECK-LABEL: llvm.func @branches
llvm.func @branches(%c: i1, %x: i32) {
  // CHECK: llvm.cond_br %arg0 weights(dense<[3, 1]> : vector<2xi32>), ^bb1(%arg1 : i32), ^bb2
  llvm.cond_br %c weights(dense<[3, 1]> : vector<2xi32>), ^bb1(%x : i32), ^bb2
// CHECK: ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb1
^bb1(%y: i32):
  // Case values print as their bits read unsigned.
  // CHECK-NEXT: llvm.switch %0 : i32, ^bb2 [
  // CHECK-NEXT:   4294967295: ^bb1(%0 : i32),
  // CHECK-NEXT:   2: ^bb3
  // CHECK-NEXT: ]
  llvm.switch %y : i32, ^bb2 [
    -1: ^bb1(%y : i32),
    2: ^bb3
  ]
^bb2:
  // CHECK: llvm.br ^bb3
  llvm.br ^bb3
^bb3:
  // CHECK: llvm.unreachable
  llvm.unreachable
}

// CHECK-LABEL: llvm.func @coroutine
llvm.func @coroutine(%mem: !llvm.ptr<i8>) {
  // CHECK: %2 = llvm.intr.coro.id %0, %1, %1, %1 : !llvm.token
  // CHECK: %3 = llvm.intr.coro.size : i64
  // CHECK: %4 = llvm.intr.coro.align : i64
  // CHECK: %5 = llvm.intr.coro.begin %2, %arg0 : !llvm.ptr<i8>
  // CHECK: %6 = llvm.intr.coro.save %5 : !llvm.token
  // CHECK: %8 = llvm.intr.coro.suspend %6, %7 : i8
  // CHECK: %9 = llvm.intr.coro.free %2, %5 : !llvm.ptr<i8>
  // CHECK: %10 = llvm.intr.coro.end %5, %7 : i1
  // CHECK: llvm.intr.coro.resume %5
  // Intrinsics without a custom form print generically.
  // CHECK: "llvm.intr.memcpy"(%arg0, %arg0, %3, %7) : (!llvm.ptr<i8>, !llvm.ptr<i8>, i64, i1) -> ()
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.null : !llvm.ptr<i8>
  %id = llvm.intr.coro.id %c0, %null, %null, %null : !llvm.token
  %size = llvm.intr.coro.size : i64
  %align = llvm.intr.coro.align : i64
  %hdl = llvm.intr.coro.begin %id, %mem : !llvm.ptr<i8>
  %save = llvm.intr.coro.save %hdl : !llvm.token
  %false = llvm.mlir.constant(false) : i1
  %s = llvm.intr.coro.suspend %save, %false : i8
  %free = llvm.intr.coro.free %id, %hdl : !llvm.ptr<i8>
  %end = llvm.intr.coro.end %hdl, %false : i1
  llvm.intr.coro.resume %hdl
  "llvm.intr.memcpy"(%mem, %mem, %size, %false) : (!llvm.ptr<i8>, !llvm.ptr<i8>, i64, i1) -> ()
  llvm.return
}

// CHECK-LABEL: llvm.func @atomics
llvm.func @atomics(%p: !llvm.ptr<f32>, %v: f32, %q: !llvm.ptr<i32>, %i: i32) {
  // The ordering keeps a space after it, where the attributes would go.
  // CHECK: %0 = llvm.atomicrmw fadd %arg0, %arg1 acq_rel  : f32
  // CHECK: %1 = llvm.atomicrmw _xor %arg2, %arg3 seq_cst  : i32
  // CHECK: %2 = llvm.cmpxchg %arg2, %arg3, %arg3 acq_rel monotonic : i32
  // CHECK: %3 = llvm.extractvalue %2[1] : !llvm.struct<(i32, i1)>
  // CHECK: %4 = llvm.intr.stacksave : !llvm.ptr<i8>
  // CHECK: llvm.intr.stackrestore %4
  %0 = llvm.atomicrmw fadd %p, %v acq_rel : f32
  %1 = llvm.atomicrmw _xor %q, %i seq_cst : i32
  %2 = llvm.cmpxchg %q, %i, %i acq_rel monotonic : i32
  %3 = llvm.extractvalue %2[1] : !llvm.struct<(i32, i1)>
  %4 = llvm.intr.stacksave : !llvm.ptr<i8>
  llvm.intr.stackrestore %4
  llvm.return
}

// CHECK-LABEL: llvm.func @vectors
llvm.func @vectors(%v: vector<4xf32>, %i: i32, %f: f32, %pv: !llvm.vec<2 x ptr<i8>>) {
  // CHECK: %0 = llvm.extractelement %arg0[%arg1 : i32] : vector<4xf32>
  // CHECK: %1 = llvm.insertelement %arg2, %arg0[%arg1 : i32] : vector<4xf32>
  // CHECK: %2 = llvm.shufflevector %arg0, %arg0 [0 : i32, 1 : i32, 0 : i32] : vector<4xf32>, vector<4xf32>
  // CHECK: %3 = llvm.freeze %arg2 : f32
  // Pointers shuffle into an LLVM vector.
  // CHECK: %4 = llvm.shufflevector %arg3, %arg3 [1 : i32, 0 : i32] : !llvm.vec<2 x ptr<i8>>, !llvm.vec<2 x ptr<i8>>
  // CHECK: %5 = llvm.extractelement %4[%arg1 : i32] : !llvm.vec<2 x ptr<i8>>
  %0 = llvm.extractelement %v[%i : i32] : vector<4xf32>
  %1 = llvm.insertelement %f, %v[%i : i32] : vector<4xf32>
  %2 = llvm.shufflevector %v, %v [0 : i32, 1 : i32, 0 : i32] : vector<4xf32>, vector<4xf32>
  %3 = llvm.freeze %f : f32
  %4 = llvm.shufflevector %pv, %pv [1 : i32, 0 : i32] : !llvm.vec<2 x ptr<i8>>, !llvm.vec<2 x ptr<i8>>
  %5 = llvm.extractelement %4[%i : i32] : !llvm.vec<2 x ptr<i8>>
  llvm.return
}
