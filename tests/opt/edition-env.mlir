// RUN: env MLIR_ASYNC_EDITION=13 mlir-async-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=THIRTEEN
// RUN: env MLIR_ASYNC_EDITION=13 mlir-async-opt %s --mlir-print-op-generic --mlir-edition=14 | FileCheck %s --check-prefix=FLAG
// RUN: mlir-async-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=FLAG
// RUN: env MLIR_ASYNC_EDITION=12 not mlir-async-opt %s 2>&1 | FileCheck %s --check-prefix=BAD

// Nothing below is spelled as only one release spells it, so the input
// alone reads as 14. MLIR_ASYNC_EDITION names the release a whole tree of
// tests belongs to (the conformance run sets it per generation, as LLVM
// 13's tests run LLVM 13's mlir-opt); the flag still wins over it.

// THIRTEEN:      "module"() ( {
// THIRTEEN-NEXT:   "func"() ( {
// THIRTEEN-NEXT:   ^bb0(%arg0: f32):  // no predecessors
// THIRTEEN-NEXT:     "std.return"(%arg0) : (f32) -> ()

// FLAG:      "builtin.module"() ({
// FLAG-NEXT:   "builtin.func"() ({
// FLAG-NEXT:   ^bb0(%arg0: f32):
// FLAG-NEXT:     "std.return"(%arg0) : (f32) -> ()

// BAD: unknown edition '12' in MLIR_ASYNC_EDITION: expected 13, 14 or 15

func @f(%a: f32) -> f32 {
  return %a : f32
}
