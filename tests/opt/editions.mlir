// The printer speaks the generation of its input; --mlir-edition forces one.
// RUN: mlir-opt %s | FileCheck %s --check-prefix=SAME
// RUN: mlir-opt %s --mlir-edition=15 | FileCheck %s --check-prefix=V15
// RUN: mlir-opt %s --mlir-edition=13 | FileCheck %s --check-prefix=V13

// SAME: func @edition(%arg0: !async.value<f32>, %arg1: f32)
// SAME:   async.runtime.store %arg1, %arg0 : <f32>
// SAME:   %[[S:.*]] = arith.addf %arg1, %arg1 : f32
// SAME:   br ^bb1

// V15: func.func @edition(%arg0: !async.value<f32>, %arg1: f32)
// V15:   async.runtime.store %arg1, %arg0 : <f32>
// V15:   cf.br ^bb1
// V15:   return

// V13: func @edition(%arg0: !async.value<f32>, %arg1: f32)
// V13:   async.runtime.store %arg1, %arg0 : !async.value<f32>
// V13:   %[[S:.*]] = addf %arg1, %arg1 : f32
// V13:   br ^bb1
func @edition(%v: !async.value<f32>, %x: f32) {
  async.runtime.store %x, %v : <f32>
  %s = arith.addf %x, %x : f32
  br ^bb1
^bb1:
  return
}
