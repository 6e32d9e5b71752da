// Used by ../verify-directives.mlir: two expected diagnostics never emitted.
func @f() {
  // expected-error @+1 {{first}}
  "test.op"() : () -> () // expected-warning {{second one}}
  return
}
