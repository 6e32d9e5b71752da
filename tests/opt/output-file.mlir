// -o is written only when everything succeeded, and the input is never
// touched.
// RUN: cp %s %t.in
// RUN: echo "previous contents" > %t.out
// RUN: not mlir-opt %t.in -o %t.out 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: FileCheck %s --check-prefix=KEPT --input-file=%t.out
// RUN: diff %s %t.in

// ERR: error: use of undeclared SSA value name
// KEPT: previous contents
func @broken() {
  async.await %missing : !async.token
  return
}
