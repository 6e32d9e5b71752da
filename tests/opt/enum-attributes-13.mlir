// 13's enum attributes: the same constraint as in 14 and 15, but 13
// checks attributes in the op adaptor, at the op's location only, so
// mlir-opt-13 shows no "see current operation" note for them; and
// atomic_rmw has two kinds fewer (no `ori`, `andi`). Expected lines are
// mlir-opt-13's.
// RUN: not mlir-opt %s -split-input-file 2>&1 | FileCheck %s

func @past_the_cases(%a: i32, %b: i32) {
  // CHECK: :[[# @LINE + 3]]:8: error: 'std.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9{{$}}
  // CHECK-NEXT: "std.cmpi"
  // CHECK-NEXT: ^
  %0 = "std.cmpi"(%a, %b) {predicate = 10 : i64} : (i32, i32) -> i1
  return
}

// -----

// CHECK-NOT: see current operation
func @missing(%a: i32, %b: i32) {
  // CHECK: :8: error: 'std.cmpi' op requires attribute 'predicate'
  // CHECK-NEXT: "std.cmpi"
  // CHECK-NEXT: ^
  %0 = "std.cmpi"(%a, %b) : (i32, i32) -> i1
  return
}

// -----

// CHECK-NOT: see current operation
// CHECK: :19: error: custom op 'std.atomic_rmw' expected string or keyword containing one of the following enum values for attribute 'kind' [addf, addi, assign, maxf, maxs, maxu, minf, mins, minu, mulf, muli]
func @rmw(%v: i32, %m: memref<10xi32>, %i: index) {
  %x = atomic_rmw ori %v, %m[%i] : (i32, memref<10xi32>) -> i32
  return
}

// -----

// CHECK: error: 'std.atomic_rmw' op attribute 'kind' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10{{$}}
// CHECK-NOT: see current operation
func @rmw_generic(%v: i32, %m: memref<10xi32>, %i: index) {
  %x = "std.atomic_rmw"(%v, %m, %i) {kind = 11 : i64} : (i32, memref<10xi32>, index) -> i32
  return
}
