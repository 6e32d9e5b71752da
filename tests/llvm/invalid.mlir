// RUN: mlir-opt %s -split-input-file -verify-diagnostics

// Malformed LLVM-dialect ops: mlir-opt-14's messages (15's are the same),
// at its positions.

// expected-note @+1 {{when returning from function}}
llvm.func @f(%a: i32) -> i64 {
  // expected-error @+1 {{'llvm.return' op mismatching result types}}
  llvm.return %a : i32
}

// -----

// expected-note @+1 {{when returning from function}}
llvm.func @f(%a: i32) {
  // expected-error @+1 {{'llvm.return' op expected no operands}}
  llvm.return %a : i32
}

// -----

// expected-note @+1 {{when returning from function}}
llvm.func @f() -> i32 {
  // expected-error @+1 {{'llvm.return' op expected 1 operand}}
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{'llvm.return' op expected at most 1 operand}}
  "llvm.return"(%a, %a) : (i32, i32) -> ()
}

// -----

llvm.func @g(i32) -> i32
llvm.func @f(%a: i64) {
  // expected-error @+1 {{'llvm.call' op operand type mismatch for operand 0: 'i64' != 'i32'}}
  %0 = llvm.call @g(%a) : (i64) -> i32
  llvm.return
}

// -----

llvm.func @g(i32) -> i32
llvm.func @f(%a: i32) {
  // expected-error @+1 {{'llvm.call' op incorrect number of operands (2) for callee (expecting: 1)}}
  %0 = "llvm.call"(%a, %a) {callee = @g} : (i32, i32) -> i32
  llvm.return
}

// -----

llvm.func @g(i32, ...)
llvm.func @f() {
  // expected-error @+1 {{'llvm.call' op incorrect number of operands (0) for varargs callee (expecting at least: 1)}}
  llvm.call @g() : () -> ()
  llvm.return
}

// -----

llvm.func @g()
llvm.func @f() {
  // expected-error @+1 {{'llvm.call' op calling function with void result must not produce values}}
  %0 = "llvm.call"() {callee = @g} : () -> i32
  llvm.return
}

// -----

llvm.func @g() -> i32
llvm.func @f() {
  // expected-error @+1 {{'llvm.call' op expected function call to produce a value}}
  llvm.call @g() : () -> ()
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{'llvm.call' op 'nope' does not reference a symbol in the current scope}}
  %0 = llvm.call @nope(%a) : (i32) -> i32
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{'llvm.call' op indirect call expects a pointer as callee: '<<NULL TYPE>>'}}
  %0 = "llvm.call"(%a) : (i32) -> i32
  llvm.return
}

// -----

llvm.func @f(%a: !llvm.struct<(i32, i64)>) {
  // expected-error @+1 {{custom op 'llvm.extractvalue' position out of bounds}}
  %0 = llvm.extractvalue %a[2] : !llvm.struct<(i32, i64)>
  llvm.return
}

// -----

llvm.func @f(%a: !llvm.array<4 x i32>) {
  // expected-error @+1 {{'llvm.extractvalue' op position out of bounds: 4}}
  %0 = "llvm.extractvalue"(%a) {position = [4]} : (!llvm.array<4 x i32>) -> i32
  llvm.return
}

// -----

llvm.func @f(%a: !llvm.struct<(i32, i64)>) {
  // expected-error @+1 {{'llvm.extractvalue' op Type mismatch: extracting from '!llvm.struct<(i32, i64)>' should produce 'i64' but this op returns 'i32'}}
  %0 = "llvm.extractvalue"(%a) {position = [1]} : (!llvm.struct<(i32, i64)>) -> i32
  llvm.return
}

// -----

llvm.func @f(%a: !llvm.struct<(i32, i64)>, %b: i32) {
  // expected-error @+1 {{'llvm.insertvalue' op Type mismatch: cannot insert 'i32' into '!llvm.struct<(i32, i64)>'}}
  %0 = "llvm.insertvalue"(%a, %b) {position = [1]} : (!llvm.struct<(i32, i64)>, i32) -> !llvm.struct<(i32, i64)>
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{custom op 'llvm.extractvalue' expected LLVM IR structure/array type}}
  %0 = llvm.extractvalue %a[0] : i32
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{'llvm.add' op requires the same type for all operands and results}}
  %0 = "llvm.add"(%a, %a) : (i32, i32) -> i64
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{'llvm.add' op expected 2 operands, but found 3}}
  %0 = "llvm.add"(%a, %a, %a) : (i32, i32, i32) -> i32
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{'llvm.icmp' op attribute 'predicate' failed to satisfy constraint: llvm.icmp comparison predicate}}
  %0 = "llvm.icmp"(%a, %a) {predicate = 12 : i64} : (i32, i32) -> i1
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{custom op 'llvm.icmp' 'less' is an incorrect value of the 'predicate' attribute}}
  %0 = llvm.icmp "less" %a, %a : i32
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{'llvm.br' op requires 1 successor but found 0}}
  "llvm.br"(%a) : (i32) -> ()
}

// -----

llvm.func @f(%a: i1) {
  // expected-error @+1 {{'llvm.cond_br' op requires 1D i32 elements attribute 'operand_segment_sizes'}}
  "llvm.cond_br"(%a)[^bb1, ^bb1] : (i1) -> ()
^bb1:
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr<struct<(i32, f32)>>, %i: i32) {
  // expected-error @+1 {{'llvm.getelementptr' op expected index 1 indexing a struct to be constant}}
  %0 = llvm.getelementptr %p[%i, %i] : (!llvm.ptr<struct<(i32, f32)>>, i32, i32) -> !llvm.ptr<f32>
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr<struct<(i32, f32)>>, %i: i32) {
  // expected-error @+1 {{'llvm.getelementptr' op index 1 indexing a struct is out of bounds}}
  %0 = llvm.getelementptr %p[%i, 2] : (!llvm.ptr<struct<(i32, f32)>>, i32) -> !llvm.ptr<f32>
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{custom op 'llvm.load' expected LLVM pointer type}}
  %0 = llvm.load %a : i32
  llvm.return
}

// -----

// expected-error @+1 {{'llvm.func' op external functions must have 'external' or 'extern_weak' linkage}}
llvm.func internal @decl()

// -----

// expected-error @+1 {{custom op 'llvm.func' failed to construct function type: expected zero or one function result}}
llvm.func @two() -> (i32, i32)

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.addressof' op must reference a global defined by 'llvm.mlir.global' or 'llvm.func'}}
  %0 = llvm.mlir.addressof @missing : !llvm.ptr<i32>
  llvm.return
}

// -----

llvm.mlir.global @g(1 : i32) : i32
llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.addressof' op the type must be a pointer to the type of the referenced global}}
  %0 = llvm.mlir.addressof @g : !llvm.ptr<i64>
  llvm.return
}

// -----

// expected-error @+1 {{'llvm.mlir.global' op requires an i8 array type of the length equal to that of the string attribute}}
llvm.mlir.global @s("abc") : !llvm.array<4 x i8>

// -----

// expected-error @+1 {{custom op 'llvm.mlir.global' type can only be omitted for string globals}}
llvm.mlir.global @n(1 : i32)

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op expected array type of 2 i8 elements for the string constant}}
  %0 = llvm.mlir.constant("ab") : !llvm.array<3 x i8>
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op requires attribute 'value'}}
  %0 = "llvm.mlir.constant"() : () -> i32
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr<i32>, %i: i32) {
  // expected-error @+1 {{'llvm.atomicrmw' op expected LLVM IR floating point type}}
  %0 = llvm.atomicrmw fadd %p, %i monotonic : i32
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr<i32>, %i: i32) {
  // expected-error @+1 {{'llvm.cmpxchg' op failure ordering cannot be 'release' or 'acq_rel'}}
  %0 = llvm.cmpxchg %p, %i, %i acq_rel acq_rel : i32
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr<i32>, %i: i32) {
  // expected-error @+1 {{custom op 'llvm.atomicrmw' 'plus' is an incorrect value of the 'bin_op' attribute}}
  %0 = llvm.atomicrmw plus %p, %i monotonic : i32
  llvm.return
}
