// Ops whose custom form is a declared assembly format report what
// upstream's generated parsers report: the token the format expected
// next, an unknown enum keyword with the list of valid ones (an unknown
// or unlexable quoted one as upstream reads a string there), and an
// attribute given both by the format and in the attribute dictionary.
// mlir-opt-15 passes this file's -verify-diagnostics too.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics | FileCheck %s

func.func @three_operands(%a: i32) {
  // expected-error@+1 {{expected ':'}}
  %0 = arith.addi %a, %a, %a : i32
  return
}

// -----

func.func @one_operand(%a: i32) {
  // expected-error@+1 {{expected ','}}
  %0 = arith.subi %a : i32
  return
}

// -----

func.func @cast_of_two(%a: i32) {
  // expected-error@+1 {{expected ':'}}
  %0 = arith.index_cast %a, %a : i32 to index
  return
}

// -----

func.func @unknown_predicate(%a: i32) {
  // expected-error@+1 {{custom op 'arith.cmpi' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = arith.cmpi bigger, %a, %a : i32
  return
}

// -----

// A predicate string that does not lex is the lexer's error, at the end
// of the line (unterminated) or at the escape.
func.func @unterminated_predicate(%a: i32) {
  // expected-error@+1 {{expected '"' in string literal}}
  %0 = arith.cmpi "eq, %a, %a : i32
  return
}

// -----

func.func @bad_escape_in_predicate(%a: f32) {
  // expected-error@+1 {{unknown escape in string literal}}
  %0 = arith.cmpf "o\qlt", %a, %a : f32
  return
}

// -----

// A string that is no predicate is named as the attribute read.
func.func @unknown_quoted_predicate(%a: i32) {
  // expected-error@+1 {{custom op 'arith.cmpi' invalid predicate attribute specification: "bigger"}}
  %0 = arith.cmpi "bigger", %a, %a : i32
  return
}

// -----

func.func @predicate_twice(%a: f32) {
  // expected-error@+1 {{custom op 'arith.cmpf' attribute 'predicate' occurs more than once in the attribute list}}
  %0 = arith.cmpf olt, %a, %a {predicate = 4 : i64} : f32
  return
}

// -----

llvm.func @cast_without_to(%a: i32) {
  // expected-error@+1 {{expected 'to'}}
  %0 = llvm.sext %a : i32 into i64
  llvm.return
}

// -----

// A predicate may also be a string; it prints as a keyword.
// CHECK-LABEL: func.func @quoted_predicate
// CHECK: arith.cmpi uge, %arg0, %arg0 : i32
func.func @quoted_predicate(%a: i32) -> i1 {
  %0 = arith.cmpi "uge", %a, %a : i32
  return %0 : i1
}
