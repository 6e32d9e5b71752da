// Used by module-blocks.mlir: an scf op at module level, lowered to
// several blocks of the module once the execute below is outlined.
scf.execute_region {
  scf.yield
}
func.func @f(%c: i1) {
  %t = async.execute {
    cf.assert %c, "holds"
    async.yield
  }
  return
}
