// builtin.module and memref.alloca_scope have the NoRegionArguments trait:
// an entry block taking arguments is an error (it was accepted, the
// module's arguments dropped when printed; lowering such an alloca_scope
// branched into its body without them). The trait is checked before the
// module's SymbolTable/SingleBlock traits and after the alloca_scope's
// SingleBlock, their places in the ops' trait lists. Expected lines are
// mlir-opt-15's and mlir-opt-14's (lines within each split).
// RUN: not mlir-opt %s -split-input-file -allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=V15
// RUN: not mlir-opt %s -split-input-file -allow-unregistered-dialect --mlir-edition=14 2>&1 | FileCheck %s --check-prefix=V14

// V15: :13:1: error: 'builtin.module' op region should have no arguments
// V14: :13:1: error: 'builtin.module' op region should have no arguments
"builtin.module"() ({
^bb0(%x: index):
}) : () -> ()

// -----

// V15: :6:3: error: 'builtin.module' op region should have no arguments
// V14: :6:3: error: 'builtin.module' op region should have no arguments
"test.wrap"() ({
  "builtin.module"() ({
  ^bb0(%x: index):
    "test.a"() [^bb1] : () -> ()
  ^bb1:
    "test.b"() : () -> ()
  }) : () -> ()
  "test.end"() : () -> ()
}) : () -> ()

// -----

// V15: :6:3: error: 'memref.alloca_scope' op region should have no arguments
// V14: :6:3: error: 'memref.alloca_scope' op region should have no arguments
"test.wrap"() ({
  "memref.alloca_scope"() ({
  ^bb0(%x: index):
    "memref.alloca_scope.return"() : () -> ()
  }) : () -> ()
  "test.end"() : () -> ()
}) : () -> ()

// -----

// V15: :6:3: error: 'memref.alloca_scope' op expects region #0 to have 0 or 1 blocks
// V14: :6:3: error: 'memref.alloca_scope' op expects region #0 to have 0 or 1 blocks
"test.wrap"() ({
  "memref.alloca_scope"() ({
  ^bb0(%x: index):
    "test.br"() [^bb1] : () -> ()
  ^bb1:
    "memref.alloca_scope.return"() : () -> ()
  }) : () -> ()
  "test.end"() : () -> ()
}) : () -> ()
