// --mlir-print-debuginfo names locations as mlir-opt (13 to 15) does:
// each distinct location is #locN in the order the printer meets it (an
// op's before its regions), op locations print as aliases defined after
// the module, argument locations print in full and their aliases are
// defined before it (with other aliases, sorted by name); the module
// mlir-opt makes up is at 0:0. Expected lines are mlir-opt-15's; 14 and
// 13 print the same (13 ignores a location written on a function
// argument).
// RUN: mlir-opt %s --mlir-print-debuginfo | FileCheck %s

// CHECK:      #loc2 = loc("argloc")
// CHECK-NEXT: #loc3 = loc("{{.*}}debuginfo.mlir":27:37)
// CHECK-NEXT: #loc6 = loc("bbarg")
// CHECK-NEXT: #loc11 = loc("{{.*}}debuginfo.mlir":58:14)
// CHECK-NEXT: #map = affine_map<(d0) -> (d0 + 1)>
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @f(%arg0: i32 loc("argloc"), %arg1: i1 loc("{{.*}}debuginfo.mlir":27:37)) -> i32 {
// CHECK-NEXT:     %0 = arith.addi %arg0, %arg0 : i32 loc(#loc4)
// CHECK-NEXT:     cf.cond_br %arg1, ^bb1(%0 : i32), ^bb2 loc(#loc5)
// CHECK-NEXT:   ^bb1(%1: i32 loc("bbarg")):  // pred: ^bb0
// CHECK-NEXT:     %2 = scf.if %arg1 -> (i32) {
// CHECK-NEXT:       scf.yield %1 : i32 loc(#loc5)
// CHECK-NEXT:     } else {
// CHECK-NEXT:       scf.yield %arg0 : i32 loc(#loc8)
// CHECK-NEXT:     } loc(#loc7)
#map = affine_map<(d0) -> (d0 + 1)>
func.func @f(%a: i32 loc("argloc"), %c: i1) -> i32 {
  %0 = arith.addi %a, %a : i32 loc(unknown)
  cf.cond_br %c, ^bb1(%0 : i32), ^bb2 loc("x.c":9:9)
^bb1(%x: i32 loc("bbarg"(unknown))):
  %1 = scf.if %c -> (i32) {
    scf.yield %x : i32 loc("x.c":9:9)
  } else {
    scf.yield %a : i32
  }
  return %1 : i32 loc(fused<"meta">["p", "q"])
^bb2:
  return %a : i32 loc("argloc")
}
// CHECK-NEXT:     return %2 : i32 loc(#loc9)
// CHECK-NEXT:   ^bb2:  // pred: ^bb0
// CHECK-NEXT:     return %arg0 : i32 loc(#loc2)
// CHECK-NEXT:   } loc(#loc1)
// CHECK-NEXT:   func.func @g(%arg0: memref<4xf32, #map> loc("{{.*}}debuginfo.mlir":58:14)) {
// CHECK-NEXT:     return loc(#loc12)
// CHECK-NEXT:   } loc(#loc10)
// CHECK-NEXT: } loc(#loc0)
// CHECK-NEXT: #loc0 = loc("{{.*}}debuginfo.mlir":0:0)
// CHECK-NEXT: #loc1 = loc("{{.*}}debuginfo.mlir":27:1)
// CHECK-NEXT: #loc4 = loc(unknown)
// CHECK-NEXT: #loc5 = loc("x.c":9:9)
// CHECK-NEXT: #loc7 = loc("{{.*}}debuginfo.mlir":31:8)
// CHECK-NEXT: #loc8 = loc("{{.*}}debuginfo.mlir":34:5)
// CHECK-NEXT: #loc9 = loc(fused<"meta">["p", "q"])
// CHECK-NEXT: #loc10 = loc("{{.*}}debuginfo.mlir":58:1)
// CHECK-NEXT: #loc12 = loc("{{.*}}debuginfo.mlir":59:3)
// CHECK-EMPTY:
func.func @g(%m: memref<4xf32, #map>) {
  return
}
