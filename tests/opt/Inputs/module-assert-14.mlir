// Used by module-blocks.mlir: module-assert.mlir in 14's syntax.
%c = arith.constant true
assert %c, "holds"
func @f() {
  return
}
