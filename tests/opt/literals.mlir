// Integer literals wider than 64 bits (and wider than 128) and the hex
// form of dense attributes read and print as mlir-opt-15 prints them (the
// CHECK lines are its output on this file).
// RUN: mlir-opt %s -allow-unregistered-dialect | FileCheck %s
// RUN: mlir-opt %s -allow-unregistered-dialect -mlir-print-op-generic | mlir-opt -allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @wide() -> (i1024, i128, i128, i128, i256, i200) {
// CHECK-NEXT:    %c123456789012345678901234567890123456789012345678901234567890_i1024 = arith.constant 123456789012345678901234567890123456789012345678901234567890 : i1024
// CHECK-NEXT:    %c170141183460469231731687303715884105727_i128 = arith.constant 170141183460469231731687303715884105727 : i128
// CHECK-NEXT:    %c-170141183460469231731687303715884105728_i128 = arith.constant -170141183460469231731687303715884105728 : i128
// CHECK-NEXT:    %c-1_i128 = arith.constant -1 : i128
// CHECK-NEXT:    %c-1_i256 = arith.constant -1 : i256
// CHECK-NEXT:    %c5_i200 = arith.constant 5 : i200
// CHECK-NEXT:    return %c123456789012345678901234567890123456789012345678901234567890_i1024, %c170141183460469231731687303715884105727_i128, %c-170141183460469231731687303715884105728_i128, %c-1_i128, %c-1_i256, %c5_i200 : i1024, i128, i128, i128, i256, i200
func.func @wide() -> (i1024, i128, i128, i128, i256, i200) {
  %c = arith.constant 123456789012345678901234567890123456789012345678901234567890 : i1024
  %d = arith.constant 170141183460469231731687303715884105727 : i128
  %e = arith.constant -170141183460469231731687303715884105728 : i128
  %f = arith.constant 340282366920938463463374607431768211455 : i128
  %g = arith.constant 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF : i256
  %j = arith.constant 5 : i200
  return %c, %d, %e, %f, %g, %j : i1024, i128, i128, i128, i256, i200
}

// CHECK: "x.y"() {a = 803469022129495137770981046170581301261101496891396417650688 : ui200, b = -1 : si300, c = -1 : i200, d = -803469022129495137770981046170581301261101496891396417650688 : i200} : () -> ()
"x.y"() {a = 0x80000000000000000000000000000000000000000000000000 : ui200, b = -0x1 : si300, c = 1606938044258990275541962092341162602522202993782792835301375 : i200, d = -803469022129495137770981046170581301261101496891396417650688 : i200} : () -> ()

// CHECK: "x.y"() {a = dense<[1, 2]> : tensor<2xi32>, b = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, c = dense<-1> : tensor<4xi32>, d = dense<[true, false, true]> : vector<3xi1>, e = dense<true> : vector<9xi1>, f = dense<[32767, -32768]> : tensor<2xi16>, g = dense<[1.000000e+00, -2.000000e+00]> : tensor<2xf16>, h = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xbf16>, i = dense<1.000000e+00> : tensor<1xf64>, j = dense<65535> : tensor<2xui16>, k = dense<{{\[\[}}513, 1027], [1541, 2055]]> : tensor<2x2xi16>, l = dense<1> : tensor<1xindex>, m = dense<[-1, 1]> : tensor<2xi7>} : () -> ()
"x.y"() {
  a = dense<"0x0100000002000000"> : tensor<2xi32>,
  b = dense<"0x0000803F00000040"> : tensor<2xf32>,
  c = dense<"0xFFFFFFFF"> : tensor<4xi32>,
  d = dense<"0x05"> : vector<3xi1>,
  e = dense<"0xFF"> : vector<9xi1>,
  f = dense<"0xFF7F0080"> : tensor<2xi16>,
  g = dense<"0x003C00C0"> : tensor<2xf16>,
  h = dense<"0x803F0040"> : tensor<2xbf16>,
  i = dense<"0x000000000000F03F"> : tensor<1xf64>,
  j = dense<"0xFFFFFFFF"> : tensor<2xui16>,
  k = dense<"0x0102030405060708"> : tensor<2x2xi16>,
  l = dense<"0x0100000000000000"> : tensor<1xindex>,
  m = dense<"0xFF01"> : tensor<2xi7>
} : () -> ()
