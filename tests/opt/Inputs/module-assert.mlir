// Used by module-blocks.mlir: an assert at module level (valid: it names
// no parent), whose lowering splits its block, here the module's.
%c = arith.constant true
cf.assert %c, "holds"
func.func @f() {
  return
}
