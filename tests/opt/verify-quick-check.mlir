// Ops whose definitions declare nothing the verifier must look at but
// counts, attributes and operand kinds are accepted by a quick check of
// those; an op that fails it goes through every rule in order. These are
// the errors the quick check must leave to the rules, with mlir-opt-15's
// messages; the last two, the dominance errors the walk must not take for
// valid, first in the order of mlir-opt's dominance walk.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func.func @mulf_one_operand(%a: f32) -> f32 {
  // expected-error @+1 {{'arith.mulf' op expected 2 operands, but found 1}}
  %0 = "arith.mulf"(%a) : (f32) -> f32
  return %0 : f32
}

// -----

func.func @mulf_two_results(%a: f32) {
  // expected-error @+1 {{'arith.mulf' op requires one result}}
  %0:2 = "arith.mulf"(%a, %a) : (f32, f32) -> (f32, f32)
  return
}

// -----

func.func @mulf_region(%a: f32) -> f32 {
  // expected-error @+1 {{'arith.mulf' op requires zero regions}}
  %0 = "arith.mulf"(%a, %a) ({
  }) : (f32, f32) -> f32
  return %0 : f32
}

// -----

func.func @mulf_types(%a: f32, %b: f64) -> f32 {
  // expected-error @+1 {{'arith.mulf' op requires the same type for all operands and results}}
  %0 = "arith.mulf"(%a, %b) : (f32, f64) -> f32
  return %0 : f32
}

// -----

llvm.func @unreachable_not_last() {
  // expected-error @+1 {{'llvm.unreachable' op must be the last operation in the parent block}}
  llvm.unreachable
  llvm.return
}

// -----

func.func @call_without_callee() {
  // expected-error @+1 {{'func.call' op requires attribute 'callee'}}
  "func.call"() : () -> ()
  return
}

// -----

func.func @cmpi_predicate_out_of_range(%a: i32) -> i1 {
  // expected-error @+1 {{'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
  %0 = "arith.cmpi"(%a, %a) {predicate = 42 : i64} : (i32, i32) -> i1
  return %0 : i1
}

// -----

// The nested use comes first in the walk, though its value is defined
// before the other's.
func.func @first_in_walk_order(%n: index, %b: i1) {
  scf.if %b {
    // expected-error @+1 {{operand #0 does not dominate this use}}
    %y = arith.addi %x, %n : index
  }
  %z = arith.addi %w, %n : index
  // expected-note @+1 {{operand defined here (op in a parent region)}}
  %x = arith.addi %n, %n : index
  %w = arith.addi %n, %n : index
  return
}

// -----

// A rule's error comes before any dominance error of the function.
func.func @rules_first(%n: index) -> f32 {
  %y = arith.addi %x, %n : index
  %x = arith.addi %n, %n : index
  %a = arith.constant 1.0 : f32
  %b = arith.constant 2.0 : f64
  // expected-error @+1 {{'arith.mulf' op requires the same type for all operands and results}}
  %0 = "arith.mulf"(%a, %b) : (f32, f64) -> f32
  return %0 : f32
}
