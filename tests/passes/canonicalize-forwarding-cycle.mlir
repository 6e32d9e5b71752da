// RUN: mlir-async-opt %s -canonicalize | FileCheck %s
// RUN: mlir-async-opt %s -canonicalize -canonicalize | FileCheck %s

// Two blocks that only branch to each other: the program loops forever
// once it enters them. LLVM 14 and 15 never return on this input: they
// collapse the conditional branch's successor through the forwarding
// block, and the branch they build can be collapsed again, forever. Ours
// rewrites as they do until the block's rewrite budget (a multiple of its
// size) runs out for the round; the other ops go on, and the loop ends up
// as one block branching to itself, as LLVM 14 leaves such a loop when it
// does finish.

// CHECK-LABEL: func @loop_of_forwarders
// CHECK-NEXT:    cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    br ^bb1
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    return
func @loop_of_forwarders(%c: i1) {
  cond_br %c, ^bb1, ^bb2
^bb1:
  br ^bb3
^bb3:
  br ^bb1
^bb2:
  return
}

// The same with values passed around the loop.
// CHECK-LABEL: func @loop_with_arguments
// CHECK-NEXT:    cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    br ^bb1
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    return %arg1 : index
func @loop_with_arguments(%c: i1, %i: index) -> index {
  cond_br %c, ^bb1(%i : index), ^bb2
^bb1(%x: index):
  br ^bb3(%x : index)
^bb3(%y: index):
  br ^bb1(%y : index)
^bb2:
  return %i : index
}

// A forwarding chain that ends is collapsed, as upstream does (and the
// branch to one block with two values becomes a select).
// CHECK-LABEL: func @chain_that_ends
// CHECK-NEXT:    %0 = select %arg0, %arg1, %arg2 : index
// CHECK-NEXT:    return %0 : index
func @chain_that_ends(%c: i1, %i: index, %j: index) -> index {
  cond_br %c, ^bb1(%i : index), ^bb3(%j : index)
^bb1(%x: index):
  br ^bb2(%x : index)
^bb2(%y: index):
  br ^bb3(%y : index)
^bb3(%z: index):
  return %z : index
}
