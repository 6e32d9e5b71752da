// The split marker (two slashes, a space, five dashes) splits wherever it
// stands, as mlir-opt splits: in the middle of a line too, the rest of the
// line starting the next chunk. A marker with too few dashes, or followed
// by the digit zero, is a near miss: warned about and kept in the text.
// An empty input has no chunk at all, so nothing is printed.
// RUN: mlir-opt %s -split-input-file | FileCheck %s
// RUN: mlir-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: echo -n "" > %t.empty
// RUN: mlir-opt %t.empty -split-input-file | count 0
// RUN: mlir-opt %t.empty | FileCheck %s --check-prefix=WHOLE

// WARN: split-markers.mlir:[[@LINE+23]]:7: warning: near miss with file split marker
// WARN: split-markers.mlir:[[@LINE+26]]:7: warning: near miss with file split marker
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @a()
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK: {{//}} -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @b()
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @c()
// CHECK: {{//}} -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @d()
// CHECK: func.func @e()
// CHECK-NOT: func.func
// CHECK-NOT: {{//}} -----

// WHOLE: module {
// WHOLE-NEXT: }
func.func @a() { return } // ----- func.func @b() { return }
// ----
func.func @c() { return }
// -----
func.func @d() { return }
// -----0
func.func @e() { return }
