// What memref's declared parsers report, in upstream's words: a type of
// the wrong class where the format reads it, a type others are computed
// from checked against its constraint at the op's name, an attribute of
// the wrong kind, a global whose type is not a static memref.
// mlir-opt-14 passes this file's -verify-diagnostics too.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func @load_from_no_memref(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{custom op 'memref.load' invalid kind of type specified}}
  %0 = memref.load %m[%i] : f32
  return
}

// -----

func @tensor_of_no_memref(%t: tensor<4xf32>, %m: memref<4xf32>) {
  // expected-error@+1 {{custom op 'memref.tensor_store' 'memref' must be unranked.memref of any type values or memref of any type values, but got 'i32'}}
  memref.tensor_store %t, %m : i32
  return
}

// -----

func @alignment_is_an_integer(%m: memref<4xf32>) {
  // expected-error@+1 {{custom op 'memref.assume_alignment' invalid kind of attribute specified}}
  memref.assume_alignment %m, f32 : memref<4xf32>
  return
}

// -----

// expected-error@+1 {{custom op 'memref.global' type should be static shaped memref, but got 'memref<?xf32>'}}
memref.global @dynamic : memref<?xf32>

// -----

func @reshape_types(%m: memref<4xf32>, %s: memref<1xindex>) {
  // expected-error@+1 {{custom op 'memref.reshape' 2 operands present, but expected 1}}
  %0 = memref.reshape %m(%s) : (memref<4xf32>) -> memref<4xf32>
  return
}
