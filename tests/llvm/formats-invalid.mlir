// What the LLVM dialect's declared parsers report, in upstream's words:
// a null that is no pointer (15 reads the type as LLVMPointerType), branch
// weights that are no elements attribute, an SSA name that is a number
// then a word (`%12i32` is `%12`, then `i32`).
// mlir-opt-15 passes this file's -verify-diagnostics too.
// RUN: mlir-opt %s -split-input-file -verify-diagnostics

llvm.func @null_of_no_pointer() {
  // expected-error@+1 {{custom op 'llvm.mlir.null' invalid kind of type specified}}
  %0 = llvm.mlir.null : i32
  llvm.return
}

// -----

llvm.func @weights(%c: i1) {
  // expected-error@+1 {{custom op 'llvm.cond_br' invalid kind of attribute specified}}
  llvm.cond_br %c weights(5 : i32), ^bb1, ^bb1
^bb1:
  llvm.return
}

// -----

llvm.func @numeric_name(%p: !llvm.ptr<i8>) {
  %0 = llvm.mlir.constant(0 : i32) : i32
  // expected-error@+1 {{expected ','}}
  %1 = llvm.intr.coro.id %0i32 %p, %p, %p : !llvm.token
  llvm.return
}
