// RUN: mlir-async-opt %s -convert-std-to-llvm | FileCheck %s

// Functions become llvm.func with memref arguments expanded into their
// descriptor fields; `llvm.emit_c_interface` adds a `_mlir_ciface_`
// wrapper (for an external function, the function gets a body that
// packs the fields onto the stack and calls the wrapper; for a defined
// one, the wrapper loads, unpacks and calls it, a struct result returned
// through its first argument); several results travel as a struct;
// `assert` branches to a block calling `abort`, declared at the top of
// the module; a function reference becomes its address. Checked against
// mlir-opt-14 -convert-std-to-llvm.

// CHECK: module attributes {llvm.data_layout = ""} {
// CHECK-NEXT:   llvm.func @abort()
// CHECK-NEXT:   llvm.func @ext(i32, i64) -> !llvm.struct<(i32, f32)> attributes {sym_visibility = "private"}
// CHECK-NEXT:   llvm.func @print(%arg0: i64, %arg1: !llvm.ptr<i8>) attributes {llvm.emit_c_interface, sym_visibility = "private"} {
// CHECK-NEXT:     %0 = llvm.mlir.undef : !llvm.struct<(i64, ptr<i8>)>
// CHECK-NEXT:     %1 = llvm.insertvalue %arg0, %0[0] : !llvm.struct<(i64, ptr<i8>)>
// CHECK-NEXT:     %2 = llvm.insertvalue %arg1, %1[1] : !llvm.struct<(i64, ptr<i8>)>
// CHECK-NEXT:     %3 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %4 = llvm.alloca %3 x !llvm.struct<(i64, ptr<i8>)> : (i64) -> !llvm.ptr<struct<(i64, ptr<i8>)>>
// CHECK-NEXT:     llvm.store %2, %4 : !llvm.ptr<struct<(i64, ptr<i8>)>>
// CHECK-NEXT:     llvm.call @_mlir_ciface_print(%4) : (!llvm.ptr<struct<(i64, ptr<i8>)>>) -> ()
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.func @_mlir_ciface_print(!llvm.ptr<struct<(i64, ptr<i8>)>>) attributes {llvm.emit_c_interface, sym_visibility = "private"}
// CHECK-NEXT:   llvm.func @id(%arg0: !llvm.ptr<f32>, %arg1: !llvm.ptr<f32>, %arg2: i64, %arg3: i64, %arg4: i64) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)> attributes {llvm.emit_c_interface} {
// CHECK-NEXT:     %0 = llvm.mlir.undef : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %1 = llvm.insertvalue %arg0, %0[0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %2 = llvm.insertvalue %arg1, %1[1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %3 = llvm.insertvalue %arg2, %2[2] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %4 = llvm.insertvalue %arg3, %3[3, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %5 = llvm.insertvalue %arg4, %4[4, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     llvm.return %5 : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.func @_mlir_ciface_id(%arg0: !llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>>, %arg1: !llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>>) attributes {llvm.emit_c_interface} {
// CHECK-NEXT:     %0 = llvm.load %arg1 : !llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>>
// CHECK-NEXT:     %1 = llvm.extractvalue %0[0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %2 = llvm.extractvalue %0[1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %3 = llvm.extractvalue %0[2] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %4 = llvm.extractvalue %0[3, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %5 = llvm.extractvalue %0[4, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %6 = llvm.call @id(%1, %2, %3, %4, %5) : (!llvm.ptr<f32>, !llvm.ptr<f32>, i64, i64, i64) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     llvm.store %6, %arg0 : !llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>>
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.func @f(%arg0: i32, %arg1: i1) -> !llvm.struct<(i32, i64)> {
// CHECK-NEXT:     %0 = llvm.mlir.constant(3 : index) : i64
// CHECK-NEXT:     %1 = llvm.call @ext(%arg0, %0) : (i32, i64) -> !llvm.struct<(i32, f32)>
// CHECK-NEXT:     %2 = llvm.extractvalue %1[0] : !llvm.struct<(i32, f32)>
// CHECK-NEXT:     %3 = llvm.extractvalue %1[1] : !llvm.struct<(i32, f32)>
// CHECK-NEXT:     llvm.cond_br %arg1, ^bb1(%arg0 : i32), ^bb2
// CHECK-NEXT:   ^bb1(%4: i32):  // pred: ^bb0
// CHECK-NEXT:     %5 = llvm.select %arg1, %4, %2 : i1, i32
// CHECK-NEXT:     llvm.br ^bb2
// CHECK-NEXT:   ^bb2:  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:     llvm.cond_br %arg1, ^bb3, ^bb4
// CHECK-NEXT:   ^bb3:  // pred: ^bb2
// CHECK-NEXT:     %6 = llvm.mlir.addressof @ext : !llvm.ptr<func<struct<(i32, f32)> (i32, i64)>>
// CHECK-NEXT:     %7 = llvm.mlir.undef : !llvm.struct<(i32, i64)>
// CHECK-NEXT:     %8 = llvm.insertvalue %arg0, %7[0] : !llvm.struct<(i32, i64)>
// CHECK-NEXT:     %9 = llvm.insertvalue %0, %8[1] : !llvm.struct<(i32, i64)>
// CHECK-NEXT:     llvm.return %9 : !llvm.struct<(i32, i64)>
// CHECK-NEXT:   ^bb4:  // pred: ^bb2
// CHECK-NEXT:     llvm.call @abort() : () -> ()
// CHECK-NEXT:     llvm.unreachable
// CHECK-NEXT:   }
// CHECK-NEXT: }

func private @ext(i32, index) -> (i32, f32)
func private @print(memref<*xf32>) attributes {llvm.emit_c_interface}
func @id(%a: memref<?xf32>) -> memref<?xf32> attributes {llvm.emit_c_interface} {
  return %a : memref<?xf32>
}
func @f(%x: i32, %b: i1) -> (i32, index) {
  %c = arith.constant 3 : index
  %r:2 = call @ext(%x, %c) : (i32, index) -> (i32, f32)
  cond_br %b, ^bb1(%x : i32), ^bb2
^bb1(%y: i32):
  %s = select %b, %y, %r#0 : i32
  br ^bb2
^bb2:
  assert %b, "boom"
  %fc = constant @ext : (i32, index) -> (i32, f32)
  return %x, %c : i32, index
}
