// --pass-pipeline as mlir-opt 14 reads it: names are the ops' generic
// names of the generation (a function is `builtin.func`), nesting starts
// below the top-level module, and a pass tied to modules cannot be nested
// on functions.
// RUN: mlir-opt %s --pass-pipeline="builtin.func(canonicalize)" | FileCheck %s --check-prefix=FOLDED
// RUN: mlir-opt %s --pass-pipeline="canonicalize,cse" | FileCheck %s --check-prefix=FOLDED
// RUN: mlir-opt %s --pass-pipeline="func(canonicalize)" | FileCheck %s --check-prefix=KEPT
// RUN: mlir-opt %s --pass-pipeline="func.func(canonicalize)" | FileCheck %s --check-prefix=KEPT
// RUN: mlir-opt %s --pass-pipeline="builtin.module(canonicalize)" | FileCheck %s --check-prefix=KEPT
// RUN: mlir-opt %s --pass-pipeline="" | FileCheck %s --check-prefix=KEPT
// RUN: not mlir-opt %s --pass-pipeline="builtin.func(async-to-async-runtime)" 2>&1 | FileCheck %s --check-prefix=NEST
// RUN: not mlir-opt %s --pass-pipeline="builtin.func(canonicalize" 2>&1 | FileCheck %s --check-prefix=PAREN
// RUN: not mlir-opt %s --pass-pipeline="canonicalize,no-such-pass" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mlir-opt %s --pass-pipeline="canonicalize,," 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not mlir-opt %s --pass-pipeline="((((" 2>&1 | FileCheck %s --check-prefix=OPEN

// FOLDED-LABEL: func @f
// FOLDED-NEXT:    return %arg0 : i32

// KEPT-LABEL: func @f
// KEPT-NEXT:    %c0_i32 = arith.constant 0 : i32
// KEPT-NEXT:    %0 = arith.addi %arg0, %c0_i32 : i32

// NEST: <unknown>:0: error: Can't add pass 'AsyncToAsyncRuntime' restricted to 'builtin.module' on a PassManager intended to run on 'builtin.func', did you intend to nest?
// NEST-NEXT: <unknown>:0: error: failed to add `async-to-async-runtime` with options ``
// NEST-NEXT: <unknown>:0: error: failed to add `builtin.func` with options `` to inner pipeline

// PAREN: MLIR Textual PassPipeline Parser:1:14: error: encountered unbalanced parentheses while parsing pipeline
// PAREN-NEXT: builtin.func(canonicalize
// PAREN-NEXT: {{^             \^$}}

// EMPTY: MLIR Textual PassPipeline Parser:1:14: error: '' does not refer to a registered pass or pass pipeline

// OPEN: MLIR Textual PassPipeline Parser:1:5: error: encountered unbalanced parentheses while parsing pipeline

// UNKNOWN: MLIR Textual PassPipeline Parser:1:14: error: 'no-such-pass' does not refer to a registered pass or pass pipeline

func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  return %0 : i32
}
