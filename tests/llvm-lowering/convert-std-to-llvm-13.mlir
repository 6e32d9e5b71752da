// RUN: mlir-async-opt %s -allow-unregistered-dialect -convert-std-to-llvm | FileCheck %s

// LLVM 13's -convert-std-to-llvm: the std arithmetic (unprefixed, under
// its 13 names), constants, branches, calls and returns become LLVM ops,
// several results travel in a struct, and, since 13 had no
// -reconcile-unrealized-casts, a cast whose input already has the type its
// result converts to is dropped. An op the pass does not know keeps using
// the converted values directly (13 forwards them; 14 would bridge them
// with casts). Checked against mlir-opt-13.

// CHECK-LABEL: llvm.func @arith(%arg0: i32, %arg1: i32, %arg2: i64) -> !llvm.struct<(i32, i64)>
// CHECK-NEXT:    %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT:    %[[ADD:.*]] = llvm.add %arg0, %[[C3]]  : i32
// CHECK-NEXT:    %[[DIV:.*]] = llvm.sdiv %[[ADD]], %arg1  : i32
// CHECK-NEXT:    %[[SHR:.*]] = llvm.lshr %[[DIV]], %arg1  : i32
// CHECK-NEXT:    %[[AND:.*]] = llvm.and %[[SHR]], %arg0  : i32
// CHECK-NEXT:    %[[CMP:.*]] = llvm.icmp "sle" %[[AND]], %arg1 : i32
// CHECK-NEXT:    %[[SEL:.*]] = llvm.select %[[CMP]], %[[AND]], %arg1 : i1, i32
// CHECK-NEXT:    %[[EXT:.*]] = llvm.sext %[[SEL]] : i32 to i64
// CHECK-NEXT:    %[[MUL:.*]] = llvm.mul %[[EXT]], %arg2  : i64
// CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(i32, i64)>
// CHECK-NEXT:    %[[I0:.*]] = llvm.insertvalue %[[SEL]], %[[U]][0] : !llvm.struct<(i32, i64)>
// CHECK-NEXT:    %[[I1:.*]] = llvm.insertvalue %[[MUL]], %[[I0]][1] : !llvm.struct<(i32, i64)>
// CHECK-NEXT:    llvm.return %[[I1]] : !llvm.struct<(i32, i64)>
func @arith(%a: i32, %b: i32, %i: index) -> (i32, index) {
  %c3 = constant 3 : i32
  %0 = addi %a, %c3 : i32
  %1 = divi_signed %0, %b : i32
  %2 = shift_right_unsigned %1, %b : i32
  %3 = and %2, %a : i32
  %4 = cmpi sle, %3, %b : i32
  %5 = select %4, %3, %b : i32
  %6 = index_cast %5 : i32 to index
  %7 = muli %6, %i : index
  return %5, %7 : i32, index
}

// Block arguments change type with their blocks.
// CHECK-LABEL: llvm.func @loop(%arg0: i64) -> i64
// CHECK:         llvm.br ^bb1(%{{.*}}, %{{.*}} : i64, i64)
// CHECK:       ^bb1(%[[IV:.*]]: i64, %[[ACC:.*]]: i64):  // 2 preds: ^bb0, ^bb2
// CHECK-NEXT:    %[[LT:.*]] = llvm.icmp "slt" %[[IV]], %arg0 : i64
// CHECK-NEXT:    llvm.cond_br %[[LT]], ^bb2, ^bb3(%[[ACC]] : i64)
// CHECK:       ^bb3(%[[R:.*]]: i64):  // pred: ^bb1
// CHECK-NEXT:    llvm.return %[[R]] : i64
func @loop(%n: index) -> index {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  br ^head(%c0, %c0 : index, index)
^head(%iv: index, %acc: index):
  %lt = cmpi slt, %iv, %n : index
  cond_br %lt, ^body, ^exit(%acc : index)
^body:
  %next = addi %iv, %c1 : index
  %sum = addi %acc, %iv : index
  br ^head(%next, %sum : index, index)
^exit(%r: index):
  return %r : index
}

// CHECK-LABEL: llvm.func @caller(%arg0: i32, %arg1: i64) -> i64
// CHECK-NEXT:    %[[S:.*]] = llvm.call @arith(%arg0, %arg0, %arg1) : (i32, i32, i64) -> !llvm.struct<(i32, i64)>
// CHECK-NEXT:    %{{.*}} = llvm.extractvalue %[[S]][0] : !llvm.struct<(i32, i64)>
// CHECK-NEXT:    %[[X:.*]] = llvm.extractvalue %[[S]][1] : !llvm.struct<(i32, i64)>
// CHECK-NEXT:    %[[F:.*]] = llvm.mlir.addressof @loop : !llvm.ptr<func<i64 (i64)>>
// CHECK-NEXT:    %[[R:.*]] = llvm.call %[[F]](%[[X]]) : (i64) -> i64
// CHECK-NEXT:    llvm.return %[[R]] : i64
func @caller(%a: i32, %i: index) -> index {
  %r:2 = call @arith(%a, %a, %i) : (i32, i32, index) -> (i32, index)
  %f = constant @loop : (index) -> index
  %s = call_indirect %f(%r#1) : (index) -> index
  return %s : index
}

// The cast -convert-async-to-llvm leaves on a constant goes: the
// constant's lowering already has its type.
// CHECK-LABEL: llvm.func @casts(%arg0: !llvm.ptr<i8>) -> !llvm.ptr<i8>
// CHECK-NEXT:    %[[C5:.*]] = llvm.mlir.constant(5 : index) : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.call @make(%[[C5]]) : (i64) -> !llvm.ptr<i8>
// CHECK-NEXT:    llvm.return %[[P]] : !llvm.ptr<i8>
func @casts(%p: !llvm.ptr<i8>) -> !llvm.ptr<i8> {
  %c5 = constant 5 : index
  %0 = unrealized_conversion_cast %c5 : index to i64
  %1 = llvm.call @make(%0) : (i64) -> !llvm.ptr<i8>
  return %1 : !llvm.ptr<i8>
}
llvm.func @make(i64) -> !llvm.ptr<i8>

// CHECK-LABEL: llvm.func @live(%arg0: i64) -> i64
// CHECK-NEXT:    %[[C:.*]] = llvm.mlir.constant(5 : index) : i64
// CHECK-NEXT:    %[[S:.*]] = llvm.add %arg0, %[[C]]  : i64
// CHECK-NEXT:    "test.use"(%[[S]], %arg0) : (i64, i64) -> ()
// CHECK-NEXT:    llvm.return %[[S]] : i64
func @live(%a: index) -> index {
  %c5 = constant 5 : index
  %s = addi %a, %c5 : index
  "test.use"(%s, %a) : (index, index) -> ()
  return %s : index
}
