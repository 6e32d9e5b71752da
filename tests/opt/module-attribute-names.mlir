// A module's attributes must be a dialect's (`llvm.data_layout`), except
// its symbol name and visibility: every generation rejects a bare name.
// It was accepted and printed back. Expected lines are mlir-opt-15's and
// -13's.
// RUN: not mlir-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=V15
// RUN: not mlir-opt %s -split-input-file --mlir-edition=13 2>&1 | FileCheck %s --check-prefix=V13
// RUN: mlir-opt %S/Inputs/module-dialect-attributes.mlir | FileCheck %s --check-prefix=OK

// V15: :13:1: error: 'builtin.module' op can only contain attributes with dialect-prefixed names, found: 'foo'
// V15: note: see current operation: "builtin.module"() ({
// V13: :13:1: error: 'module' op can only contain attributes with dialect-prefixed names, found: 'foo'
// V13: note: see current operation: "module"() ( {
module attributes {foo = 1 : i32} {
}

// -----

// The symbol attributes are allowed; the first bad name is reported.
// V15: error: 'builtin.module' op can only contain attributes with dialect-prefixed names, found: 'sym_name2'
// V15: {sym_name = "a", sym_name2 = 1 : i64, sym_visibility = "private"}
module @a attributes {sym_visibility = "private", sym_name2 = 1} {
}

// OK: module attributes {foo.bar = 1 : i32, llvm.data_layout = ""} {
