// Casts the verifier must accept, at the edges of each rule: a dynamic
// size against a static one, unranked tensors, memrefs (scalars to the
// elementwise rule) for index_cast and bitcast, bitcast between equal
// widths and to its own type, zero-width integers.
// RUN: mlir-opt %s -allow-unregistered-dialect | FileCheck %s
// RUN: mlir-opt %s -allow-unregistered-dialect -canonicalize | FileCheck %s --check-prefix=FOLD

// CHECK-LABEL: func @casts
func @casts(%v: vector<2xi32>, %t: tensor<?xi32>, %u: tensor<*xf32>, %m: memref<2xindex>, %n: memref<4xi32>, %i: index, %z: i0) -> (i32, index, memref<4xi32>) {
  // CHECK: arith.extsi %{{.*}} : vector<2xi32> to vector<2xi64>
  %0 = arith.extsi %v : vector<2xi32> to vector<2xi64>
  // CHECK: arith.trunci %{{.*}} : tensor<?xi32> to tensor<4xi8>
  %1 = arith.trunci %t : tensor<?xi32> to tensor<4xi8>
  // CHECK: arith.fptosi %{{.*}} : tensor<*xf32> to tensor<*xi64>
  %2 = arith.fptosi %u : tensor<*xf32> to tensor<*xi64>
  // CHECK: arith.index_cast %{{.*}} : memref<2xindex> to memref<2xi32>
  %3 = arith.index_cast %m : memref<2xindex> to memref<2xi32>
  // CHECK: arith.bitcast %{{.*}} : memref<4xi32> to memref<4xf32>
  %4 = arith.bitcast %n : memref<4xi32> to memref<4xf32>
  // CHECK: arith.bitcast %{{.*}} : vector<2xi32> to vector<2xf32>
  %5 = arith.bitcast %v : vector<2xi32> to vector<2xf32>
  // CHECK: arith.bitcast %{{.*}} : index to index
  %6 = arith.bitcast %i : index to index
  // CHECK: arith.bitcast %{{.*}} : memref<4xi32> to memref<4xi32>
  %7 = arith.bitcast %n : memref<4xi32> to memref<4xi32>
  // CHECK: arith.extui %{{.*}} : i0 to i32
  %8 = arith.extui %z : i0 to i32
  "test.use"(%0, %1, %2, %3, %4, %5) : (vector<2xi64>, tensor<4xi8>, tensor<*xi64>, memref<2xi32>, memref<4xf32>, vector<2xf32>) -> ()
  return %8, %6, %7 : i32, index, memref<4xi32>
}

// A cast to its own type is its operand (CastOpInterface's fold).
// FOLD-LABEL: func @casts
// FOLD-SAME: (%[[V:.*]]: vector<2xi32>, %{{.*}}: tensor<?xi32>, %{{.*}}: tensor<*xf32>, %{{.*}}: memref<2xindex>, %[[N:.*]]: memref<4xi32>, %[[I:.*]]: index, %{{.*}}: i0)
// FOLD-NOT: arith.bitcast %[[I]]
// FOLD: %[[E:.*]] = arith.extui
// FOLD-NOT: arith.bitcast %[[I]]
// FOLD: return %[[E]], %[[I]], %[[N]] : i32, index, memref<4xi32>
