func.func @f() {
  "foo.op"() {a = dense<[-128, 255]> : tensor<2xi8>, b = dense<[65535, 3]> : tensor<2xi16>, c = dense<[255, 0]> : tensor<2xui8>, d = dense<[1, 0, -1]> : tensor<3xi1>, e = dense<[0x3F800000, 2.0]> : tensor<2xf32>} : () -> ()
  return
}
