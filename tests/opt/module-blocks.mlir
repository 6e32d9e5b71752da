// A module holds exactly one block. mlir-opt-15 says so with the traits of
// `builtin.module` (SingleBlock, then the SizedRegion<1> 'bodyRegion'),
// mlir-opt-13/14 with the SymbolTable trait, in both cases before looking
// at the ops inside (so not as a call's "does not reference a valid
// function"). Lowering scf at module level is one way to get there.
// Expected lines are mlir-opt-15's and mlir-opt-14's (within each split).
// RUN: not mlir-opt %s -split-input-file -allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=V15
// RUN: not mlir-opt %s -split-input-file -allow-unregistered-dialect --mlir-edition=14 2>&1 | FileCheck %s --check-prefix=V14
// RUN: not mlir-opt %S/Inputs/module-scf.mlir -async-to-async-runtime -convert-scf-to-cf 2>&1 | FileCheck %s --check-prefix=LOWER

// V15: :14:3: error: 'builtin.module' op expects region #0 to have 0 or 1 blocks
// V14: :14:3: error: 'builtin.module' op Operations with a 'SymbolTable' must have exactly one block
"test.wrap"() ({
  "builtin.module"() ({
    "test.a"() [^bb1] : () -> ()
  ^bb1:
    "test.b"() : () -> ()
  }) : () -> ()
  "test.end"() : () -> ()
}) : () -> ()

// -----

// V15: :6:3: error: 'builtin.module' op region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks
// V14: :6:3: error: 'builtin.module' op Operations with a 'SymbolTable' must have exactly one block
"test.wrap"() ({
  "builtin.module"() ({
  }) : () -> ()
  "test.end"() : () -> ()
}) : () -> ()

// LOWER: module-scf.mlir:0:0: error: 'builtin.module' op expects region #0 to have 0 or 1 blocks
// LOWER-NOT: error:

// Lowering an assert at module level (valid there: it names no parent)
// splits the module's block; mlir-opt-14 and -15 alike, in the standard
// lowering of either.
// RUN: not mlir-opt %S/Inputs/module-assert.mlir -convert-func-to-llvm 2>&1 | FileCheck %s --check-prefix=ASSERT15
// RUN: not mlir-opt %S/Inputs/module-assert-14.mlir -convert-std-to-llvm 2>&1 | FileCheck %s --check-prefix=ASSERT14
// ASSERT15: module-assert.mlir:0:0: error: 'builtin.module' op expects region #0 to have 0 or 1 blocks
// ASSERT14: module-assert-14.mlir:0:0: error: 'builtin.module' op Operations with a 'SymbolTable' must have exactly one block
