func.func @f() -> index {
  %r = memref.alloca_scope -> (index) {
    %c = arith.constant 1 : index
    memref.alloca_scope.return %c : index
  }
  return %r : index
}
