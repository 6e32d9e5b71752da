// RUN: mlir-async-opt %s -convert-arith-to-llvm | FileCheck %s

// In 15 `arith.select` belongs to arith and is lowered with it; `fcmp`
// carries its default fast-math flags in the generic form. Checked
// against mlir-opt-15 -convert-arith-to-llvm (and its generic form).
// RUN: mlir-async-opt %s -convert-arith-to-llvm --mlir-print-op-generic | FileCheck %s --check-prefix=GEN

// CHECK-LABEL: func.func @sel(%arg0: i32, %arg1: i32, %arg2: f32)
// CHECK-NEXT:    %0 = llvm.fcmp "olt" %arg2, %arg2 : f32
// CHECK-NEXT:    %1 = llvm.select %0, %arg0, %arg1 : i1, i32
// CHECK-NEXT:    return %1 : i32
// GEN:           "llvm.fcmp"(%arg2, %arg2) {fastmathFlags = #llvm.fastmath<>, predicate = 4 : i64} : (f32, f32) -> i1
// GEN-NEXT:      "llvm.select"(%0, %arg0, %arg1) : (i1, i32, i32) -> i32
func.func @sel(%x: i32, %y: i32, %f: f32) -> i32 {
  %lt = arith.cmpf olt, %f, %f : f32
  %s = arith.select %lt, %x, %y : i32
  return %s : i32
}
