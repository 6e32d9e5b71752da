// RUN: mlir-opt %s | FileCheck %s

// Affine maps and sets print in MLIR's canonical form: the parser builds
// them with MLIR's simplifications, and a memref layout that is the
// identity map is no layout at all.

// CHECK-DAG: #[[TWICE:.*]] = affine_map<(d0) -> (d0 * 2)>
// CHECK-DAG: #[[NAMED:.*]] = affine_map<(d0, d1)[s0] -> (d0 + d1 * 4 - 1, s0)>
// CHECK-DAG: #[[CONST:.*]] = affine_map<(d0) -> (d0 + 3)>
// CHECK-DAG: #[[FOLDS:.*]] = affine_map<(d0) -> (d0, 0, d0 * 2)>
// CHECK-DAG: #[[MOD:.*]] = affine_map<(d0) -> (d0 mod 4)>
// CHECK-DAG: #[[NEST:.*]] = affine_map<(d0, d1) -> (d0 - (d1 + 1))>
// CHECK-DAG: #[[PERM:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[STATIC:.*]] = affine_map<(d0, d1) -> (d0 * 4 + d1)>
// CHECK-DAG: #[[DYN:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0 * s1 + s0 + d1)>
// CHECK-DAG: #[[MIXED:.*]] = affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 * s0 + 5)>
// CHECK-DAG: #[[SET:.*]] = affine_set<(d0)[s0] : (d0 - 10 >= 0, -d0 + s0 >= 0, -d0 + 3 == 0)>
// CHECK-LABEL: func @maps()
// CHECK-SAME: a = #[[TWICE]], b = #[[NAMED]], c = #[[CONST]], f = #[[FOLDS]], g = #[[MOD]], h = #[[NEST]], j = #[[SET]]
func @maps() attributes {
  a = affine_map<(d0) -> (d0 + d0)>,
  b = affine_map<(i, j)[n] -> (i + j * 4 - 1, n)>,
  c = affine_map<(d0) -> (3 + d0)>,
  f = affine_map<(d0) -> (d0 floordiv 1, d0 mod 1, (d0 * 4) floordiv 2)>,
  g = affine_map<(d0) -> (d0 - (d0 floordiv 4) * 4)>,
  h = affine_map<(d0, d1) -> (d0 - (d1 + 1))>,
  j = affine_set<(d0)[s0] : (d0 + -10 >= 0, s0 - d0 * 1 >= 0, 3 - d0 == 0)>
} {
  return
}

// CHECK-LABEL: func @layouts
// CHECK-SAME: (%arg0: memref<4xf32>, %arg1: memref<4x4xf32>, %arg2: memref<4x4xf32, #[[PERM]]>, %arg3: memref<4xf32, #[[TWICE]]>)
func @layouts(%a: memref<4xf32, affine_map<(d0) -> (d0)>>, %b: memref<4x4xf32, affine_map<(i, j) -> (i, j)>>, %c: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, %d: memref<4xf32, affine_map<(d0) -> (d0 + d0)>>) {
  return
}

// The strided layout syntax is the map MLIR builds from it: the offset,
// then each dimension times its stride, `?` a new symbol; offset 0 with
// unit strides in one dimension is the identity, so no layout.
// CHECK-LABEL: func @strided
// CHECK-SAME: (%arg0: memref<4x4xf32, #[[STATIC]]>, %arg1: memref<4x4xf32, #[[DYN]]>, %arg2: memref<?x4xf32, #[[MIXED]]>, %arg3: memref<4xf32>)
func @strided(%a: memref<4x4xf32, offset: 0, strides: [4, 1]>, %b: memref<4x4xf32, offset: ?, strides: [?, 1]>, %c: memref<?x4xf32, offset: 5, strides: [4, ?]>, %d: memref<4xf32, offset: 0, strides: [1]>) {
  return
}
