// RUN: mlir-async-opt %s -convert-memref-to-llvm | FileCheck %s

// Allocations fill a descriptor: sizes, row-major strides (a dynamic size
// is the stride of the dimension outside it), `malloc` of the byte size
// read off a null pointer's GEP, an `alignment` over-allocating and
// rounding the pointer up; `alloca` allocates that many bytes' worth of
// elements, as upstream does; accesses add index times stride to the
// aligned pointer (constant strides as constants); `dim` by a constant
// is a constant or a size field, by a value goes through the stack; a
// cast to unranked stores the descriptor on the stack, and `dim` of it
// reaches the sizes through a GEP whose struct index is an attribute;
// globals become `llvm.mlir.global` (an `uninitialized` one gets an undef
// initializer, `get_global` points the allocated pointer at 0xdeadbeef);
// `copy` of identity layouts is a `memcpy`; `dealloc` frees. Checked
// against mlir-opt-14 -convert-memref-to-llvm.

// CHECK: module {
// CHECK-NEXT:   llvm.func @free(!llvm.ptr<i8>)
// CHECK-NEXT:   llvm.func @malloc(i64) -> !llvm.ptr<i8>
// CHECK-NEXT:   llvm.mlir.global private constant @cst(dense<1.000000e+00> : tensor<2x3xf32>) : !llvm.array<2 x array<3 x f32>>
// CHECK-NEXT:   llvm.mlir.global external @scalar(7 : i32) : i32
// CHECK-NEXT:   llvm.mlir.global external @un() : !llvm.array<4 x i8> {
// CHECK-NEXT:     %0 = llvm.mlir.undef : !llvm.array<4 x i8>
// CHECK-NEXT:     llvm.return %0 : !llvm.array<4 x i8>
// CHECK-NEXT:   }
// CHECK-NEXT:   func @f(%arg0: index, %arg1: index, %arg2: index, %arg3: f32) -> f32 {
// CHECK-NEXT:     %0 = builtin.unrealized_conversion_cast %arg0 : index to i64
// CHECK-NEXT:     %1 = builtin.unrealized_conversion_cast %arg1 : index to i64
// CHECK-NEXT:     %2 = builtin.unrealized_conversion_cast %arg2 : index to i64
// CHECK-NEXT:     %3 = llvm.mlir.constant(4 : index) : i64
// CHECK-NEXT:     %4 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %5 = llvm.mul %3, %0  : i64
// CHECK-NEXT:     %6 = llvm.mlir.null : !llvm.ptr<f32>
// CHECK-NEXT:     %7 = llvm.getelementptr %6[%5] : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
// CHECK-NEXT:     %8 = llvm.ptrtoint %7 : !llvm.ptr<f32> to i64
// CHECK-NEXT:     %9 = llvm.call @malloc(%8) : (i64) -> !llvm.ptr<i8>
// CHECK-NEXT:     %10 = llvm.bitcast %9 : !llvm.ptr<i8> to !llvm.ptr<f32>
// CHECK-NEXT:     %11 = llvm.mlir.undef : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %12 = llvm.insertvalue %10, %11[0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %13 = llvm.insertvalue %10, %12[1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %14 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:     %15 = llvm.insertvalue %14, %13[2] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %16 = llvm.insertvalue %0, %15[3, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %17 = llvm.insertvalue %3, %16[3, 1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %18 = llvm.insertvalue %3, %17[4, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %19 = llvm.insertvalue %4, %18[4, 1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %20 = llvm.mlir.constant(8 : index) : i64
// CHECK-NEXT:     %21 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %22 = llvm.mlir.null : !llvm.ptr<i32>
// CHECK-NEXT:     %23 = llvm.getelementptr %22[%20] : (!llvm.ptr<i32>, i64) -> !llvm.ptr<i32>
// CHECK-NEXT:     %24 = llvm.ptrtoint %23 : !llvm.ptr<i32> to i64
// CHECK-NEXT:     %25 = llvm.alloca %24 x i32 : (i64) -> !llvm.ptr<i32>
// CHECK-NEXT:     %26 = llvm.mlir.undef : !llvm.struct<(ptr<i32>, ptr<i32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %27 = llvm.insertvalue %25, %26[0] : !llvm.struct<(ptr<i32>, ptr<i32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %28 = llvm.insertvalue %25, %27[1] : !llvm.struct<(ptr<i32>, ptr<i32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %29 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:     %30 = llvm.insertvalue %29, %28[2] : !llvm.struct<(ptr<i32>, ptr<i32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %31 = llvm.insertvalue %20, %30[3, 0] : !llvm.struct<(ptr<i32>, ptr<i32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %32 = llvm.insertvalue %21, %31[4, 0] : !llvm.struct<(ptr<i32>, ptr<i32>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:     %33 = llvm.mlir.constant(3 : index) : i64
// CHECK-NEXT:     %34 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %35 = llvm.mul %0, %33  : i64
// CHECK-NEXT:     %36 = llvm.mlir.null : !llvm.ptr<f32>
// CHECK-NEXT:     %37 = llvm.getelementptr %36[%35] : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
// CHECK-NEXT:     %38 = llvm.ptrtoint %37 : !llvm.ptr<f32> to i64
// CHECK-NEXT:     %39 = llvm.mlir.constant(32 : index) : i64
// CHECK-NEXT:     %40 = llvm.add %38, %39  : i64
// CHECK-NEXT:     %41 = llvm.call @malloc(%40) : (i64) -> !llvm.ptr<i8>
// CHECK-NEXT:     %42 = llvm.bitcast %41 : !llvm.ptr<i8> to !llvm.ptr<f32>
// CHECK-NEXT:     %43 = llvm.ptrtoint %42 : !llvm.ptr<f32> to i64
// CHECK-NEXT:     %44 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %45 = llvm.sub %39, %44  : i64
// CHECK-NEXT:     %46 = llvm.add %43, %45  : i64
// CHECK-NEXT:     %47 = llvm.urem %46, %39  : i64
// CHECK-NEXT:     %48 = llvm.sub %46, %47  : i64
// CHECK-NEXT:     %49 = llvm.inttoptr %48 : i64 to !llvm.ptr<f32>
// CHECK-NEXT:     %50 = llvm.mlir.undef : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %51 = llvm.insertvalue %42, %50[0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %52 = llvm.insertvalue %49, %51[1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %53 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:     %54 = llvm.insertvalue %53, %52[2] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %55 = llvm.insertvalue %33, %54[3, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %56 = llvm.insertvalue %0, %55[3, 1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %57 = llvm.insertvalue %0, %56[4, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %58 = llvm.insertvalue %34, %57[4, 1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %59 = llvm.extractvalue %19[1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %60 = llvm.mlir.constant(4 : index) : i64
// CHECK-NEXT:     %61 = llvm.mul %1, %60  : i64
// CHECK-NEXT:     %62 = llvm.add %61, %2  : i64
// CHECK-NEXT:     %63 = llvm.getelementptr %59[%62] : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
// CHECK-NEXT:     llvm.store %arg3, %63 : !llvm.ptr<f32>
// CHECK-NEXT:     %64 = llvm.extractvalue %58[1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %65 = llvm.extractvalue %58[4, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %66 = llvm.mul %1, %65  : i64
// CHECK-NEXT:     %67 = llvm.add %66, %2  : i64
// CHECK-NEXT:     %68 = llvm.getelementptr %64[%67] : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
// CHECK-NEXT:     %69 = llvm.load %68 : !llvm.ptr<f32>
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %70 = llvm.mlir.constant(4 : index) : i64
// CHECK-NEXT:     %71 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:     %72 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %73 = llvm.extractvalue %58[3] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %74 = llvm.alloca %72 x !llvm.array<2 x i64> : (i64) -> !llvm.ptr<array<2 x i64>>
// CHECK-NEXT:     llvm.store %73, %74 : !llvm.ptr<array<2 x i64>>
// CHECK-NEXT:     %75 = llvm.getelementptr %74[%71, %1] : (!llvm.ptr<array<2 x i64>>, i64, i64) -> !llvm.ptr<i64>
// CHECK-NEXT:     %76 = llvm.load %75 : !llvm.ptr<i64>
// CHECK-NEXT:     %77 = llvm.mlir.constant(2 : index) : i64
// CHECK-NEXT:     %78 = llvm.mlir.constant(3 : index) : i64
// CHECK-NEXT:     %79 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %80 = llvm.mlir.constant(6 : index) : i64
// CHECK-NEXT:     %81 = llvm.mlir.null : !llvm.ptr<f32>
// CHECK-NEXT:     %82 = llvm.getelementptr %81[%80] : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
// CHECK-NEXT:     %83 = llvm.ptrtoint %82 : !llvm.ptr<f32> to i64
// CHECK-NEXT:     %84 = llvm.mlir.addressof @cst : !llvm.ptr<array<2 x array<3 x f32>>>
// CHECK-NEXT:     %85 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:     %86 = llvm.getelementptr %84[%85, %85, %85] : (!llvm.ptr<array<2 x array<3 x f32>>>, i64, i64, i64) -> !llvm.ptr<f32>
// CHECK-NEXT:     %87 = llvm.mlir.constant(3735928559 : index) : i64
// CHECK-NEXT:     %88 = llvm.inttoptr %87 : i64 to !llvm.ptr<f32>
// CHECK-NEXT:     %89 = llvm.mlir.undef : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %90 = llvm.insertvalue %88, %89[0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %91 = llvm.insertvalue %86, %90[1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %92 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:     %93 = llvm.insertvalue %92, %91[2] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %94 = llvm.insertvalue %77, %93[3, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %95 = llvm.insertvalue %78, %94[3, 1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %96 = llvm.insertvalue %78, %95[4, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %97 = llvm.insertvalue %79, %96[4, 1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %98 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %99 = llvm.alloca %98 x !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)> : (i64) -> !llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>>
// CHECK-NEXT:     llvm.store %19, %99 : !llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>>
// CHECK-NEXT:     %100 = llvm.bitcast %99 : !llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>> to !llvm.ptr<i8>
// CHECK-NEXT:     %101 = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:     %102 = llvm.mlir.undef : !llvm.struct<(i64, ptr<i8>)>
// CHECK-NEXT:     %103 = llvm.insertvalue %101, %102[0] : !llvm.struct<(i64, ptr<i8>)>
// CHECK-NEXT:     %104 = llvm.insertvalue %100, %103[1] : !llvm.struct<(i64, ptr<i8>)>
// CHECK-NEXT:     %105 = llvm.extractvalue %104[0] : !llvm.struct<(i64, ptr<i8>)>
// CHECK-NEXT:     %106 = llvm.extractvalue %104[1] : !llvm.struct<(i64, ptr<i8>)>
// CHECK-NEXT:     %107 = llvm.bitcast %106 : !llvm.ptr<i8> to !llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64)>>
// CHECK-NEXT:     %108 = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:     %109 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:     %110 = llvm.getelementptr %107[%109, 2] : (!llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64)>>, i64) -> !llvm.ptr<i64>
// CHECK-NEXT:     %111 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %112 = llvm.add %111, %1  : i64
// CHECK-NEXT:     %113 = llvm.getelementptr %110[%112] : (!llvm.ptr<i64>, i64) -> !llvm.ptr<i64>
// CHECK-NEXT:     %114 = llvm.load %113 : !llvm.ptr<i64>
// CHECK-NEXT:     %115 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %116 = llvm.extractvalue %19[3, 0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %117 = llvm.mul %115, %116  : i64
// CHECK-NEXT:     %118 = llvm.extractvalue %19[3, 1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %119 = llvm.mul %117, %118  : i64
// CHECK-NEXT:     %120 = llvm.mlir.null : !llvm.ptr<f32>
// CHECK-NEXT:     %121 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:     %122 = llvm.getelementptr %120[%121] : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
// CHECK-NEXT:     %123 = llvm.ptrtoint %122 : !llvm.ptr<f32> to i64
// CHECK-NEXT:     %124 = llvm.mul %119, %123  : i64
// CHECK-NEXT:     %125 = llvm.extractvalue %19[1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %126 = llvm.extractvalue %19[1] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %127 = llvm.mlir.constant(false) : i1
// CHECK-NEXT:     "llvm.intr.memcpy"(%126, %125, %124, %127) : (!llvm.ptr<f32>, !llvm.ptr<f32>, i64, i1) -> ()
// CHECK-NEXT:     %128 = llvm.extractvalue %19[0] : !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:     %129 = llvm.bitcast %128 : !llvm.ptr<f32> to !llvm.ptr<i8>
// CHECK-NEXT:     llvm.call @free(%129) : (!llvm.ptr<i8>) -> ()
// CHECK-NEXT:     return %69 : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }

memref.global "private" constant @cst : memref<2x3xf32> = dense<1.0>
memref.global @scalar : memref<i32> = dense<7>
memref.global @un : memref<4xi8> = uninitialized
func @f(%n: index, %i: index, %j: index, %v: f32) -> f32 {
  %a = memref.alloc(%n) : memref<?x4xf32>
  %b = memref.alloca() : memref<8xi32>
  %c = memref.alloc(%n) {alignment = 32} : memref<3x?xf32>
  memref.store %v, %a[%i, %j] : memref<?x4xf32>
  %x = memref.load %c[%i, %j] : memref<3x?xf32>
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %a, %c1 : memref<?x4xf32>
  %d1 = memref.dim %c, %i : memref<3x?xf32>
  %g = memref.get_global @cst : memref<2x3xf32>
  %u = memref.cast %a : memref<?x4xf32> to memref<*xf32>
  %r = memref.rank %u : memref<*xf32>
  %dd = memref.dim %u, %i : memref<*xf32>
  %back = memref.cast %u : memref<*xf32> to memref<?x4xf32>
  memref.copy %a, %back : memref<?x4xf32> to memref<?x4xf32>
  memref.dealloc %a : memref<?x4xf32>
  return %x : f32
}
