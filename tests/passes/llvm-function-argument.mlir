// An LLVM function type taken as a value (`!llvm.func<...>` itself, not a
// pointer to one) cannot be an LLVM function's argument or result: LLVM
// passes no function by value ("Function arguments must have first-class
// types"). A builtin function may take one, so the standard lowering leaves
// such a function, and the calls passing one, unconverted, as it leaves a
// function over tensors (the conversion is partial); the rest converts.
// mlir-opt-13/14/15 build an `llvm.func` of that signature instead, which
// mlir-translate rejects and whose type their own parser refuses ("invalid
// function argument type": in the generic form, and for a function-typed
// argument's `!llvm.ptr<func<void (func<void ()>)>>` in the custom form
// too). We differ on purpose: docs/robustness.md.
// RUN: mlir-opt %s -convert-func-to-llvm | FileCheck %s
// RUN: mlir-opt %s -convert-func-to-llvm -mlir-print-op-generic | mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @takes(%arg0: !llvm.func<void ()>, %arg1: i32)
// CHECK-NEXT:    llvm.return
func.func @takes(%a: !llvm.func<void ()>, %b: i32) {
  return
}

// CHECK-LABEL: func.func private @returns() -> !llvm.func<void ()>
func.func private @returns() -> !llvm.func<void ()>

// CHECK-LABEL: func.func @indirect(%arg0: (!llvm.func<void ()>) -> ())
func.func @indirect(%f: (!llvm.func<void ()>) -> ()) {
  return
}

// CHECK-LABEL: llvm.func @caller(%arg0: i32)
// CHECK-NEXT:    %[[F:.*]] = func.call @returns() : () -> !llvm.func<void ()>
// CHECK-NEXT:    func.call @takes(%[[F]], %arg0) : (!llvm.func<void ()>, i32) -> ()
// CHECK-NEXT:    llvm.return
func.func @caller(%b: i32) {
  %f = call @returns() : () -> !llvm.func<void ()>
  call @takes(%f, %b) : (!llvm.func<void ()>, i32) -> ()
  return
}

// A pointer to an LLVM function type is a value LLVM passes.
// CHECK-LABEL: llvm.func @pointer(%arg0: !llvm.ptr<func<void ()>>)
func.func @pointer(%p: !llvm.ptr<func<void ()>>) {
  return
}
