// RUN: mlir-async-opt %s -inline | FileCheck %s
// RUN: mlir-async-opt %s -inline -mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// MLIR's inliner (checked against mlir-opt-14): bottom-up over the call
// graph, each function canonicalized before and after calls are inlined
// into it; a private function with one use left is moved into its caller
// and erased, unused private functions are erased. Calls inside
// `async.execute` stay (the async dialect allows no inlining into its
// regions), recursive calls stay.

// CHECK-LABEL: func private @leaf(
// CHECK-NOT:   func private @mid
// CHECK-LABEL: func @top(
// CHECK-SAME:      %[[A:.*]]: i32, %[[C:.*]]: i1, %[[M:.*]]: memref<4xi32>)
// CHECK:         %[[TWO:.*]] = arith.constant 2 : i32
// CHECK:         %[[X:.*]] = arith.muli %[[A]], %[[TWO]] : i32
// CHECK-NEXT:    %[[Y:.*]] = arith.muli %[[X]], %[[TWO]] : i32
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[C]] -> (i32) {
// CHECK-NEXT:      arith.muli %[[Y]], %[[TWO]] : i32
// CHECK-NEXT:      arith.muli
// CHECK-NEXT:      scf.yield
// CHECK:         scf.for
// CHECK-NEXT:      %[[V:.*]] = arith.muli %[[R]], %[[TWO]] : i32
// CHECK-NEXT:      memref.store %[[V]], %[[M]]
// CHECK:         async.execute {
// CHECK-NEXT:      call @leaf(%[[A]])
// CHECK-NOT:   func private @unused
// CHECK-NOT:   func private @once
// CHECK-LABEL: func @uses_once(
// CHECK-NEXT:    arith.constant 5 : i32
// CHECK-NEXT:    arith.addi
// CHECK-LABEL: func @rec(
// CHECK-NEXT:    call @rec(
// A body of several blocks: the rest of the caller's block becomes a
// block taking the results, returns become branches to it.
// CHECK-LABEL: func @multi(
// CHECK-NEXT:    cond_br %arg0, ^bb1, ^bb2(%arg2 : i32)
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %[[P:.*]] = arith.muli %arg1, %arg2 : i32
// CHECK-NEXT:    br ^bb2(%[[P]] : i32)
// CHECK-NEXT:  ^bb2(%[[S:.*]]: i32):
// CHECK-NEXT:    arith.addi %[[S]], %arg1 : i32
// CHECK-NOT:   func private @mb
// CHECK-LABEL: func @calls_ext(
// CHECK-NEXT:    arith.constant 2 : i32
// CHECK-NEXT:    call @ext(
// CHECK-NEXT:    arith.muli
// An indirect call of a known function becomes a direct call
// (canonicalization), which is inlined.
// CHECK-LABEL: func @refd(
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NOT:   func private @refd_target

// Inlined ops get call-site locations: the callee's op at the call
// (twice nested for @leaf inlined into @mid inlined into @top).
// LOC:       func @uses_once(
// LOC-NEXT:    arith.constant
// LOC-NEXT:    arith.addi {{.*}} loc(#[[ADD:loc[0-9]+]])
// LOC:       = loc(callsite(callsite("{{.*}}inline.mlir":{{[0-9]+}}:{{[0-9]+}} at "{{.*}}inline.mlir":{{[0-9]+}}:8) at "{{.*}}inline.mlir":{{[0-9]+}}:8))
// LOC:       #[[ADD]] = loc(callsite("{{.*}}inline.mlir":{{[0-9]+}}:8 at "{{.*}}inline.mlir":{{[0-9]+}}:8))

func private @leaf(%a: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %0 = arith.muli %a, %c2 : i32
  return %0 : i32
}
func private @mid(%a: i32) -> i32 {
  %0 = call @leaf(%a) : (i32) -> i32
  %1 = call @leaf(%0) : (i32) -> i32
  return %1 : i32
}
func @top(%a: i32, %c: i1, %m: memref<4xi32>) -> i32 {
  %0 = call @mid(%a) : (i32) -> i32
  %r = scf.if %c -> (i32) {
    %1 = call @mid(%0) : (i32) -> i32
    scf.yield %1 : i32
  } else {
    scf.yield %0 : i32
  }
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = call @leaf(%r) : (i32) -> i32
    memref.store %v, %m[%i] : memref<4xi32>
  }
  %t = async.execute {
    %x = call @leaf(%a) : (i32) -> i32
    async.yield
  }
  async.await %t : !async.token
  return %r : i32
}
func private @unused(%a: i32) -> i32 {
  return %a : i32
}
func private @once(%a: i32) -> i32 {
  %c5 = arith.constant 5 : i32
  %0 = arith.addi %a, %c5 : i32
  return %0 : i32
}
func @uses_once(%a: i32) -> i32 {
  %0 = call @once(%a) : (i32) -> i32
  return %0 : i32
}
func @rec(%a: i32) -> i32 {
  %0 = call @rec(%a) : (i32) -> i32
  return %0 : i32
}
func @multi(%c: i1, %a: i32, %b: i32) -> i32 {
  %0 = call @mb(%c, %a, %b) : (i1, i32, i32) -> i32
  %1 = arith.addi %0, %a : i32
  return %1 : i32
}
func private @mb(%c: i1, %a: i32, %b: i32) -> i32 {
  cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.muli %a, %b : i32
  return %x : i32
^bb2:
  return %b : i32
}
func private @ext(i32) -> i32
func @calls_ext(%a: i32) -> i32 {
  %0 = call @ext(%a) : (i32) -> i32
  %1 = call @leaf(%0) : (i32) -> i32
  return %1 : i32
}
func @refd(%a: i32) -> (i32) {
  %f = constant @refd_target : (i32) -> i32
  %0 = call_indirect %f(%a) : (i32) -> i32
  return %0 : i32
}
func private @refd_target(%a: i32) -> i32 {
  return %a : i32
}
