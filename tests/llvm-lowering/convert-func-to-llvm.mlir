// RUN: mlir-async-opt %s -convert-func-to-llvm | FileCheck %s

// 15's func lowering also lowers arith and cf: argument attributes go to
// every field a memref argument became; several results' attributes
// become one `llvm.struct_attrs`, and move to the C wrapper's first
// argument when the result is returned through it; `cf.switch` keeps its
// cases, `cf.assert` calls `abort`. Checked against mlir-opt-15
// -convert-func-to-llvm.

// CHECK: module attributes {llvm.data_layout = ""} {
// CHECK-NEXT:   llvm.func @abort()
// CHECK-NEXT:   llvm.func @ext(i32) -> !llvm.struct<(i32, f32)> attributes {sym_visibility = "private"}
// CHECK-NEXT:   llvm.func @h(%arg0: !llvm.ptr<f32> {llvm.noalias}, %arg1: !llvm.ptr<f32> {llvm.noalias}, %arg2: i64 {llvm.noalias}, %arg3: i64 {llvm.noalias}, %arg4: i64 {llvm.noalias}, %arg5: i64, %arg6: !llvm.ptr<i8>) -> (!llvm.struct<(struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i32)> {llvm.struct_attrs = [{llvm.align = 8 : i64}, {}]}) attributes {llvm.emit_c_interface} {
// CHECK-NEXT:     %0 = llvm.mlir.undef : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %1 = llvm.insertvalue %arg0, %0[0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %2 = llvm.insertvalue %arg1, %1[1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %3 = llvm.insertvalue %arg2, %2[2] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %4 = llvm.insertvalue %arg3, %3[3, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %5 = llvm.insertvalue %arg4, %4[4, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %6 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:     %7 = llvm.mlir.undef : !llvm.struct<(struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i32)>
// CHECK-NEXT:     %8 = llvm.insertvalue %5, %7[0] : !llvm.struct<(struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i32)>
// CHECK-NEXT:     %9 = llvm.insertvalue %6, %8[1] : !llvm.struct<(struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i32)>
// CHECK-NEXT:     llvm.return %9 : !llvm.struct<(struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i32)>
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.func @_mlir_ciface_h(%arg0: !llvm.ptr<struct<(struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i32)>> {llvm.struct_attrs = [{llvm.align = 8 : i64}, {}]}, %arg1: !llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>> {llvm.noalias}, %arg2: !llvm.ptr<struct<(i64, ptr<i8>)>>) attributes {llvm.emit_c_interface} {
// CHECK-NEXT:     %0 = llvm.load %arg1 : !llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>>
// CHECK-NEXT:     %1 = llvm.extractvalue %0[0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %2 = llvm.extractvalue %0[1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %3 = llvm.extractvalue %0[2] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %4 = llvm.extractvalue %0[3, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %5 = llvm.extractvalue %0[4, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %6 = llvm.load %arg2 : !llvm.ptr<struct<(i64, ptr<i8>)>>
// CHECK-NEXT:     %7 = llvm.extractvalue %6[0] : !llvm.struct<(i64, ptr<i8>)>
// CHECK-NEXT:     %8 = llvm.extractvalue %6[1] : !llvm.struct<(i64, ptr<i8>)>
// CHECK-NEXT:     %9 = llvm.call @h(%1, %2, %3, %4, %5, %7, %8) : (!llvm.ptr<f32>, !llvm.ptr<f32>, i64, i64, i64, i64, !llvm.ptr<i8>) -> !llvm.struct<(struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i32)>
// CHECK-NEXT:     llvm.store %9, %arg0 : !llvm.ptr<struct<(struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i32)>>
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.func @f(%arg0: i32, %arg1: i1) -> i32 {
// CHECK-NEXT:     %0 = llvm.call @ext(%arg0) : (i32) -> !llvm.struct<(i32, f32)>
// CHECK-NEXT:     %1 = llvm.extractvalue %0[0] : !llvm.struct<(i32, f32)>
// CHECK-NEXT:     %2 = llvm.extractvalue %0[1] : !llvm.struct<(i32, f32)>
// CHECK-NEXT:     %3 = llvm.add %1, %arg0  : i32
// CHECK-NEXT:     llvm.switch %arg0 : i32, ^bb1(%arg0 : i32) [
// CHECK-NEXT:       4: ^bb1(%3 : i32),
// CHECK-NEXT:       7: ^bb2
// CHECK-NEXT:     ]
// CHECK-NEXT:   ^bb1(%4: i32):  // 2 preds: ^bb0, ^bb0
// CHECK-NEXT:     %5 = llvm.select %arg1, %4, %1 : i1, i32
// CHECK-NEXT:     llvm.return %5 : i32
// CHECK-NEXT:   ^bb2:  // pred: ^bb0
// CHECK-NEXT:     llvm.cond_br %arg1, ^bb3, ^bb4
// CHECK-NEXT:   ^bb3:  // pred: ^bb2
// CHECK-NEXT:     llvm.return %arg0 : i32
// CHECK-NEXT:   ^bb4:  // pred: ^bb2
// CHECK-NEXT:     llvm.call @abort() : () -> ()
// CHECK-NEXT:     llvm.unreachable
// CHECK-NEXT:   }
// CHECK-NEXT: }

func.func private @ext(i32) -> (i32, f32)
func.func @h(%a: memref<?xf32> {llvm.noalias}, %u: memref<*xf32>) -> (memref<?xf32> {llvm.align = 8 : i64}, i32) attributes {llvm.emit_c_interface} {
  %c = arith.constant 1 : i32
  return %a, %c : memref<?xf32>, i32
}
func.func @f(%x: i32, %b: i1) -> i32 {
  %r:2 = call @ext(%x) : (i32) -> (i32, f32)
  %q = arith.addi %r#0, %x : i32
  cf.switch %x : i32, [ default: ^bb1(%x : i32), 4: ^bb1(%q : i32), 7: ^bb2 ]
^bb1(%y: i32):
  %s = arith.select %b, %y, %r#0 : i32
  return %s : i32
^bb2:
  cf.assert %b, "boom"
  return %x : i32
}
