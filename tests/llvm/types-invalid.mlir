// RUN: mlir-opt %s -split-input-file -verify-diagnostics

// Malformed LLVM types: mlir-opt-14's messages, at its positions.

// expected-error @+1 {{unknown LLVM type: foo}}
func @f(%x: !llvm.foo) { return }

// -----

// expected-error @+1 {{invalid pointer element type: 'index'}}
func @f(%x: !llvm.ptr<index>) { return }

// -----

// expected-error @+1 {{invalid pointer element type: '!llvm.void'}}
func @f(%x: !llvm.ptr<void>) { return }

// -----

// expected-error @+1 {{cannot use !llvm.vec for built-in primitives, use 'vector' instead}}
func @f(%x: !llvm.vec<4 x i32>) { return }

// -----

// expected-error @+1 {{invalid array element type: '!llvm.void'}}
func @f(%x: !llvm.array<4 x void>) { return }

// -----

// expected-error @+1 {{invalid LLVM structure element type: '!llvm.void'}}
func @f(%x: !llvm.struct<(void)>) { return }

// -----

// expected-error @+1 {{only identified structs can be opaque}}
func @f(%x: !llvm.struct<opaque>) { return }

// -----

// expected-error @+1 {{unexpected type, expected keyword}}
func @f(%x: !llvm.i32) { return }

// -----

// expected-error @+1 {{identified type already used with a different body}}
func @f(%x: !llvm.struct<"a", (i32)>, %y: !llvm.struct<"a", (i64)>) { return }

// -----

// expected-error @+1 {{identified type already used with a different body}}
func @f(%x: !llvm.struct<"b", opaque>, %y: !llvm.struct<"b", (i32)>) { return }

// -----

// expected-error @+1 {{redeclaring defined struct as opaque}}
func @f(%x: !llvm.struct<"c", (i32)>, %y: !llvm.struct<"c", opaque>) { return }

// -----

// expected-error @+1 {{invalid function argument type: '!llvm.void'}}
func @f(%x: !llvm.func<i32 (void)>) { return }

// -----

// expected-error @+1 {{expected ? x <type>}}
func @f(%x: !llvm.array<2 x 3 x i32>) { return }
