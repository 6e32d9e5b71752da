// An enum attribute (ODS's I64EnumAttr: cmpi's and cmpf's predicate,
// atomic_rmw's kind) must be an i64 naming one of the cases. We used to
// accept any integer and print `?` for the keyword. Expected lines are
// mlir-opt-15's and -14's (13: enum-attributes-13.mlir).
// RUN: not mlir-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=V15
// RUN: not mlir-opt %s -split-input-file --mlir-edition=14 2>&1 | FileCheck %s --check-prefix=V14

func.func @past_the_cases(%a: i32, %b: i32) {
  // V15: :[[# @LINE + 4]]:8: error: 'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9{{$}}
  // V15: note: see current operation: %0 = "arith.cmpi"(%arg0, %arg1) {predicate = 10 : i64}
  // V14: :[[# @LINE + 2]]:8: error: 'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9{{$}}
  // V14: note: see current operation
  %0 = "arith.cmpi"(%a, %b) {predicate = 10 : i64} : (i32, i32) -> i1
  return
}

// -----

// The value is a case, but not an i64.
func.func @not_i64(%a: i32, %b: i32) {
  // V15: :8: error: 'arith.cmpi' op attribute 'predicate' failed to satisfy constraint
  // V14: :8: error: 'arith.cmpi' op attribute 'predicate' failed to satisfy constraint
  %0 = "arith.cmpi"(%a, %b) {predicate = 1 : i32} : (i32, i32) -> i1
  return
}

// -----

func.func @negative(%a: f32, %b: f32) {
  // V15: error: 'arith.cmpf' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15{{$}}
  %0 = "arith.cmpf"(%a, %b) {predicate = -1 : i64} : (f32, f32) -> i1
  return
}

// -----

func.func @missing(%a: i32, %b: i32) {
  // V15: error: 'arith.cmpi' op requires attribute 'predicate'
  // V15: note: see current operation
  %0 = "arith.cmpi"(%a, %b) : (i32, i32) -> i1
  return
}

// -----

func.func @rmw_kind(%v: f32, %m: memref<10xf32>, %i: index) {
  // V15: error: 'memref.atomic_rmw' op attribute 'kind' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12{{$}}
  %x = "memref.atomic_rmw"(%v, %m, %i) {kind = 13 : i64} : (f32, memref<10xf32>, index) -> f32
  return
}
