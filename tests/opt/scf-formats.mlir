// scf's terminators are their ODS formats: `scf.reduce.return` takes its
// attribute dictionary after the operand, `scf.yield` and `scf.condition`
// before the operands. mlir-opt-15 prints the same (checked with
// FileCheck-15).
// RUN: mlir-opt %s | FileCheck %s

// CHECK-LABEL: func.func @f
func.func @f(%lb: index, %ub: index, %x: f32, %c: i1) -> f32 {
  // CHECK: scf.reduce.return %{{.*}} {k} : f32
  %0 = scf.parallel (%i) = (%lb) to (%ub) step (%lb) init (%x) -> f32 {
    scf.reduce(%x) : f32 {
    ^bb0(%l: f32, %r: f32):
      scf.reduce.return %l {k} : f32
    }
  }
  // CHECK: scf.condition(%{{.*}}) {q} %{{.*}} : f32
  %1 = scf.while (%a = %0) : (f32) -> f32 {
    scf.condition(%c) {q} %a : f32
  } do {
  ^bb0(%b: f32):
    // CHECK: scf.yield {y} %{{.*}} : f32
    scf.yield {y} %b : f32
  }
  return %1 : f32
}
