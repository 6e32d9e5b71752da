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
