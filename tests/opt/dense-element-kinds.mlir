// Each element of a dense literal is checked against the element type,
// as upstream's tensor literal parser does: we used to accept integers
// and booleans for floats (printing `true` in a float tensor), floats
// for integers, and integers out of the type's range (`[1, 2]` as i1).
// Integer mismatches are reported at the element; float ones at the
// token after the literal's type (the `}`, or the next line's first). Expected lines are mlir-opt-15's (13 and
// 14 say the same).
// RUN: not mlir-opt %s -split-input-file -allow-unregistered-dialect 2>&1 | FileCheck %s
// RUN: mlir-opt %S/Inputs/dense-signless.mlir -allow-unregistered-dialect | FileCheck %s --check-prefix=OK

// CHECK: :13:57: error: expected floating-point elements, but parsed integer
func.func @int_for_float() {
  "foo.op"() {a = dense<[0x3F800000, 2]> : tensor<2xf32>} // the hex one is bits
  : () -> ()
  return
}

// -----

// CHECK: :5:53: error: expected floating-point elements, but parsed integer
func.func @bool_for_float() {
  "foo.op"() {a = dense<[true, 1.0]> : tensor<2xf32>}
  : () -> ()
  return
}

// -----

// CHECK: :5:30: error: expected integer elements, but parsed floating-point
func.func @float_for_int() {
  "foo.op"() {a = dense<[2, -1.0]> : tensor<2xi32>} : () -> ()
  return
}

// -----

// CHECK: :5:26: error: expected i1 type for 'true' or 'false' values
func.func @bool_for_index() {
  "foo.op"() {a = dense<[true, 2]> : tensor<2xindex>} : () -> ()
  return
}

// -----

// CHECK: :5:29: error: integer constant out of range for type
func.func @two_as_i1() {
  "foo.op"() {a = dense<[1, 2]> : tensor<2xi1>} : () -> ()
  return
}

// -----

// A negative value is checked at its digits.
// CHECK: :6:27: error: integer constant out of range for type
func.func @below_i8() {
  "foo.op"() {a = dense<[-129, 1]> : tensor<2xi8>} : () -> ()
  return
}

// -----

// CHECK: :5:26: error: integer constant out of range for type
func.func @above_si8() {
  "foo.op"() {a = dense<[128, 1]> : tensor<2xsi8>} : () -> ()
  return
}

// -----

// CHECK: :5:27: error: expected unsigned integer elements, but parsed negative value
func.func @negative_unsigned() {
  "foo.op"() {a = dense<[-1, 2]> : tensor<2xui8>} : () -> ()
  return
}

// -----

// Upstream's rule negates a negative value and wants its sign bit: `-0`
// has none.
// CHECK: :7:27: error: integer constant out of range for type
func.func @minus_zero() {
  "foo.op"() {a = dense<[-0, 1]> : tensor<2xi8>} : () -> ()
  return
}

// -----

// CHECK: :5:26: error: integer constant out of range for type
func.func @index_is_signed() {
  "foo.op"() {a = dense<[9223372036854775808, 1]> : tensor<2xindex>} : () -> ()
  return
}

// OK: "foo.op"() {a = dense<[-128, -1]> : tensor<2xi8>, b = dense<[-1, 3]> : tensor<2xi16>, c = dense<[255, 0]> : tensor<2xui8>, d = dense<[true, false, true]> : tensor<3xi1>, e = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>} : () -> ()
