// A task tree: four tasks in a group each write their slot of a buffer,
// then a task returning an !async.value reads one slot; lowered by
// mlir-opt-14 (-async-to-async-runtime, ref counting, -convert-async-to-llvm,
// generic form) from:
//   scf.for %i = 0 to 4 { async.execute { buf[i] = float(i) * 10.0 } in %group }
//   async.await_all %group
//   %v = async.execute -> !async.value<f32> { yield buf[1] + buf[1] }
//   buf[0] = async.await %v;  print_memref_f32(buf)
// Output checked against mlir-cpu-runner-14.
// RUN: mlir-async-run %s -e main -entry-point-result=void -O0 | FileCheck %s
// RUN: mlir-async-run %s -e main -entry-point-result=void -O3 -shared-libs=/nowhere/libmlir_runner_utils.so,/nowhere/libmlir_async_runtime.so | FileCheck %s
// The same run traced: each task created on the main thread, resumed on a
// worker, completed.
// RUN: mlir-async-run %s -e main -entry-point-result=void -O3 --trace=%t.json > /dev/null
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// TRACE: {"displayTimeUnit":"ns","traceEvents":[
// TRACE-DAG: {"ph":"M","name":"thread_name","pid":1,"tid":{{[0-9]+}},"args":{"name":"mlir-async-worker
// TRACE-DAG: {"ph":"i","name":"async_execute_fn","cat":"task","ts":{{[0-9.]+}},"pid":1,"tid":{{[0-9]+}},"s":"t","args":{"task":"0x{{[0-9a-f]+}}","event":"created"}}
// TRACE-DAG: {"ph":"B","name":"async_execute_fn_0","cat":"task",{{.*}}"event":"resumed"}}
// TRACE-DAG: {"ph":"E","name":"async_execute_fn_0","cat":"task",{{.*}}"event":"completed"}}
// TRACE: ]}
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [20,  10,  20,  30]
"builtin.module"() ({
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "abort", type = !llvm.func<void ()>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "malloc", type = !llvm.func<ptr<i8> (i64)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "free", type = !llvm.func<void (ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "aligned_alloc", type = !llvm.func<ptr<i8> (i64, i64)>} : () -> ()
  "llvm.func"() ({
    %0 = "llvm.mlir.constant"() {value = 0 : index} : () -> i64
    %1 = "llvm.mlir.constant"() {value = 1 : index} : () -> i64
    %2 = "llvm.mlir.constant"() {value = 4 : index} : () -> i64
    %3 = "llvm.mlir.constant"() {value = 1.000000e+01 : f32} : () -> f32
    %4 = "llvm.mlir.constant"() {value = 4 : index} : () -> i64
    %5 = "llvm.mlir.constant"() {value = 1 : index} : () -> i64
    %6 = "llvm.mlir.null"() : () -> !llvm.ptr<f32>
    %7 = "llvm.getelementptr"(%6, %4) {structIndices = dense<-2147483648> : tensor<1xi32>} : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
    %8 = "llvm.ptrtoint"(%7) : (!llvm.ptr<f32>) -> i64
    %9 = "llvm.call"(%8) {callee = @malloc, fastmathFlags = #llvm.fastmath<>} : (i64) -> !llvm.ptr<i8>
    %10 = "llvm.bitcast"(%9) : (!llvm.ptr<i8>) -> !llvm.ptr<f32>
    %11 = "llvm.mlir.undef"() : () -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %12 = "llvm.insertvalue"(%11, %10) {position = [0]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr<f32>) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %13 = "llvm.insertvalue"(%12, %10) {position = [1]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr<f32>) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %14 = "llvm.mlir.constant"() {value = 0 : index} : () -> i64
    %15 = "llvm.insertvalue"(%13, %14) {position = [2]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i64) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %16 = "llvm.insertvalue"(%15, %4) {position = [3, 0]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i64) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %17 = "llvm.insertvalue"(%16, %5) {position = [4, 0]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i64) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %18 = "llvm.call"(%2) {callee = @mlirAsyncRuntimeCreateGroup} : (i64) -> !llvm.ptr<i8>
    "llvm.br"(%0)[^bb1] : (i64) -> ()
  ^bb1(%19: i64):  // 2 preds: ^bb0, ^bb2
    %20 = "llvm.icmp"(%19, %2) {predicate = 2 : i64} : (i64, i64) -> i1
    "llvm.cond_br"(%20)[^bb2, ^bb3] {operand_segment_sizes = dense<[1, 0, 0]> : vector<3xi32>} : (i1) -> ()
  ^bb2:  // pred: ^bb1
    %21 = "llvm.call"(%19, %10, %10, %14, %4, %5) {callee = @async_execute_fn} : (i64, !llvm.ptr<f32>, !llvm.ptr<f32>, i64, i64, i64) -> !llvm.ptr<i8>
    %22 = "llvm.call"(%21, %18) {callee = @mlirAsyncRuntimeAddTokenToGroup} : (!llvm.ptr<i8>, !llvm.ptr<i8>) -> i64
    %23 = "llvm.mlir.constant"() {value = 1 : i64} : () -> i64
    "llvm.call"(%21, %23) {callee = @mlirAsyncRuntimeDropRef} : (!llvm.ptr<i8>, i64) -> ()
    %24 = "llvm.add"(%19, %1) : (i64, i64) -> i64
    "llvm.br"(%24)[^bb1] : (i64) -> ()
  ^bb3:  // pred: ^bb1
    "llvm.call"(%18) {callee = @mlirAsyncRuntimeAwaitAllInGroup} : (!llvm.ptr<i8>) -> ()
    %25 = "llvm.call"(%18) {callee = @mlirAsyncRuntimeIsGroupError} : (!llvm.ptr<i8>) -> i1
    %26 = "llvm.mlir.constant"() {value = 1 : i64} : () -> i64
    "llvm.call"(%18, %26) {callee = @mlirAsyncRuntimeDropRef} : (!llvm.ptr<i8>, i64) -> ()
    %27 = "llvm.mlir.constant"() {value = true} : () -> i1
    %28 = "llvm.xor"(%25, %27) : (i1, i1) -> i1
    "llvm.cond_br"(%28)[^bb4, ^bb6] {operand_segment_sizes = dense<[1, 0, 0]> : vector<3xi32>} : (i1) -> ()
  ^bb4:  // pred: ^bb3
    %29 = "llvm.call"(%10, %10, %14, %4, %5) {callee = @async_execute_fn_0} : (!llvm.ptr<f32>, !llvm.ptr<f32>, i64, i64, i64) -> !llvm.struct<(ptr<i8>, ptr<i8>)>
    %30 = "llvm.extractvalue"(%29) {position = [0]} : (!llvm.struct<(ptr<i8>, ptr<i8>)>) -> !llvm.ptr<i8>
    %31 = "llvm.extractvalue"(%29) {position = [1]} : (!llvm.struct<(ptr<i8>, ptr<i8>)>) -> !llvm.ptr<i8>
    %32 = "llvm.mlir.constant"() {value = 1 : i64} : () -> i64
    "llvm.call"(%30, %32) {callee = @mlirAsyncRuntimeDropRef} : (!llvm.ptr<i8>, i64) -> ()
    "llvm.call"(%31) {callee = @mlirAsyncRuntimeAwaitValue} : (!llvm.ptr<i8>) -> ()
    %33 = "llvm.call"(%31) {callee = @mlirAsyncRuntimeIsValueError} : (!llvm.ptr<i8>) -> i1
    %34 = "llvm.mlir.constant"() {value = true} : () -> i1
    %35 = "llvm.xor"(%33, %34) : (i1, i1) -> i1
    "llvm.cond_br"(%35)[^bb5, ^bb7] {operand_segment_sizes = dense<[1, 0, 0]> : vector<3xi32>} : (i1) -> ()
  ^bb5:  // pred: ^bb4
    %36 = "llvm.call"(%31) {callee = @mlirAsyncRuntimeGetValueStorage} : (!llvm.ptr<i8>) -> !llvm.ptr<i8>
    %37 = "llvm.bitcast"(%36) : (!llvm.ptr<i8>) -> !llvm.ptr<f32>
    %38 = "llvm.load"(%37) : (!llvm.ptr<f32>) -> f32
    %39 = "llvm.mlir.constant"() {value = 1 : i64} : () -> i64
    "llvm.call"(%31, %39) {callee = @mlirAsyncRuntimeDropRef} : (!llvm.ptr<i8>, i64) -> ()
    %40 = "llvm.getelementptr"(%10, %0) {structIndices = dense<-2147483648> : tensor<1xi32>} : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
    "llvm.store"(%38, %40) : (f32, !llvm.ptr<f32>) -> ()
    %41 = "llvm.mlir.constant"() {value = 1 : index} : () -> i64
    %42 = "llvm.alloca"(%41) : (i64) -> !llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>>
    "llvm.store"(%17, %42) : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>>) -> ()
    %43 = "llvm.bitcast"(%42) : (!llvm.ptr<struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>>) -> !llvm.ptr<i8>
    %44 = "llvm.mlir.constant"() {value = 1 : i64} : () -> i64
    %45 = "llvm.mlir.undef"() : () -> !llvm.struct<(i64, ptr<i8>)>
    %46 = "llvm.insertvalue"(%45, %44) {position = [0]} : (!llvm.struct<(i64, ptr<i8>)>, i64) -> !llvm.struct<(i64, ptr<i8>)>
    %47 = "llvm.insertvalue"(%46, %43) {position = [1]} : (!llvm.struct<(i64, ptr<i8>)>, !llvm.ptr<i8>) -> !llvm.struct<(i64, ptr<i8>)>
    "llvm.call"(%44, %43) {callee = @print_memref_f32} : (i64, !llvm.ptr<i8>) -> ()
    %48 = "llvm.bitcast"(%10) : (!llvm.ptr<f32>) -> !llvm.ptr<i8>
    "llvm.call"(%48) {callee = @free, fastmathFlags = #llvm.fastmath<>} : (!llvm.ptr<i8>) -> ()
    "llvm.return"() : () -> ()
  ^bb6:  // pred: ^bb3
    "llvm.call"() {callee = @abort} : () -> ()
    "llvm.unreachable"() : () -> ()
  ^bb7:  // pred: ^bb4
    "llvm.call"() {callee = @abort} : () -> ()
    "llvm.unreachable"() : () -> ()
  }) {linkage = #llvm.linkage<external>, sym_name = "main", type = !llvm.func<void ()>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "print_memref_f32", sym_visibility = "private", type = !llvm.func<void (i64, ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  ^bb0(%arg0: i64, %arg1: !llvm.ptr<f32>, %arg2: !llvm.ptr<f32>, %arg3: i64, %arg4: i64, %arg5: i64):
    %0 = "llvm.mlir.undef"() : () -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %1 = "llvm.insertvalue"(%0, %arg1) {position = [0]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr<f32>) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %2 = "llvm.insertvalue"(%1, %arg2) {position = [1]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr<f32>) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %3 = "llvm.insertvalue"(%2, %arg3) {position = [2]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i64) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %4 = "llvm.insertvalue"(%3, %arg4) {position = [3, 0]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i64) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %5 = "llvm.insertvalue"(%4, %arg5) {position = [4, 0]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i64) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %6 = "llvm.call"() {callee = @mlirAsyncRuntimeCreateToken} : () -> !llvm.ptr<i8>
    %7 = "llvm.mlir.constant"() {value = 0 : i32} : () -> i32
    %8 = "llvm.mlir.null"() : () -> !llvm.ptr<i8>
    %9 = "llvm.intr.coro.id"(%7, %8, %8, %8) : (i32, !llvm.ptr<i8>, !llvm.ptr<i8>, !llvm.ptr<i8>) -> !llvm.token
    %10 = "llvm.intr.coro.size"() : () -> i64
    %11 = "llvm.intr.coro.align"() : () -> i64
    %12 = "llvm.add"(%10, %11) : (i64, i64) -> i64
    %13 = "llvm.mlir.constant"() {value = 1 : i64} : () -> i64
    %14 = "llvm.sub"(%12, %13) : (i64, i64) -> i64
    %15 = "llvm.mlir.constant"() {value = 0 : i64} : () -> i64
    %16 = "llvm.sub"(%15, %11) : (i64, i64) -> i64
    %17 = "llvm.and"(%14, %16) : (i64, i64) -> i64
    %18 = "llvm.call"(%11, %17) {callee = @aligned_alloc, fastmathFlags = #llvm.fastmath<>} : (i64, i64) -> !llvm.ptr<i8>
    %19 = "llvm.intr.coro.begin"(%9, %18) : (!llvm.token, !llvm.ptr<i8>) -> !llvm.ptr<i8>
    %20 = "llvm.intr.coro.save"(%19) : (!llvm.ptr<i8>) -> !llvm.token
    %21 = "llvm.mlir.addressof"() {global_name = @__resume} : () -> !llvm.ptr<func<void (ptr<i8>)>>
    "llvm.call"(%19, %21) {callee = @mlirAsyncRuntimeExecute} : (!llvm.ptr<i8>, !llvm.ptr<func<void (ptr<i8>)>>) -> ()
    %22 = "llvm.mlir.constant"() {value = false} : () -> i1
    %23 = "llvm.intr.coro.suspend"(%20, %22) : (!llvm.token, i1) -> i8
    %24 = "llvm.sext"(%23) : (i8) -> i32
    "llvm.switch"(%24)[^bb3, ^bb1, ^bb2] {case_operand_segments = dense<0> : tensor<2xi32>, case_values = dense<[0, 1]> : vector<2xi32>, operand_segment_sizes = dense<[1, 0, 0]> : vector<3xi32>} : (i32) -> ()
  ^bb1:  // pred: ^bb0
    %25 = "llvm.mlir.constant"() {value = 1.000000e+01 : f32} : () -> f32
    %26 = "llvm.sitofp"(%arg0) : (i64) -> f32
    %27 = "llvm.fmul"(%26, %25) : (f32, f32) -> f32
    %28 = "llvm.extractvalue"(%5) {position = [1]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>) -> !llvm.ptr<f32>
    %29 = "llvm.getelementptr"(%28, %arg0) {structIndices = dense<-2147483648> : tensor<1xi32>} : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
    "llvm.store"(%27, %29) : (f32, !llvm.ptr<f32>) -> ()
    "llvm.call"(%6) {callee = @mlirAsyncRuntimeEmplaceToken} : (!llvm.ptr<i8>) -> ()
    "llvm.br"()[^bb2] : () -> ()
  ^bb2:  // 2 preds: ^bb0, ^bb1
    %30 = "llvm.intr.coro.free"(%9, %19) : (!llvm.token, !llvm.ptr<i8>) -> !llvm.ptr<i8>
    "llvm.call"(%30) {callee = @free, fastmathFlags = #llvm.fastmath<>} : (!llvm.ptr<i8>) -> ()
    "llvm.br"()[^bb3] : () -> ()
  ^bb3:  // 2 preds: ^bb0, ^bb2
    %31 = "llvm.mlir.constant"() {value = false} : () -> i1
    %32 = "llvm.intr.coro.end"(%19, %31) : (!llvm.ptr<i8>, i1) -> i1
    "llvm.return"(%6) : (!llvm.ptr<i8>) -> ()
  }) {linkage = #llvm.linkage<external>, passthrough = [["coroutine.presplit", "0"]], sym_name = "async_execute_fn", sym_visibility = "private", type = !llvm.func<ptr<i8> (i64, ptr<f32>, ptr<f32>, i64, i64, i64)>} : () -> ()
  "llvm.func"() ({
  ^bb0(%arg0: !llvm.ptr<f32>, %arg1: !llvm.ptr<f32>, %arg2: i64, %arg3: i64, %arg4: i64):
    %0 = "llvm.mlir.undef"() : () -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %1 = "llvm.insertvalue"(%0, %arg0) {position = [0]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr<f32>) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %2 = "llvm.insertvalue"(%1, %arg1) {position = [1]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr<f32>) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %3 = "llvm.insertvalue"(%2, %arg2) {position = [2]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i64) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %4 = "llvm.insertvalue"(%3, %arg3) {position = [3, 0]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i64) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %5 = "llvm.insertvalue"(%4, %arg4) {position = [4, 0]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>, i64) -> !llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>
    %6 = "llvm.call"() {callee = @mlirAsyncRuntimeCreateToken} : () -> !llvm.ptr<i8>
    %7 = "llvm.mlir.null"() : () -> !llvm.ptr<f32>
    %8 = "llvm.mlir.constant"() {value = 1 : i64} : () -> i64
    %9 = "llvm.getelementptr"(%7, %8) {structIndices = dense<-2147483648> : tensor<1xi32>} : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
    %10 = "llvm.ptrtoint"(%9) : (!llvm.ptr<f32>) -> i64
    %11 = "llvm.call"(%10) {callee = @mlirAsyncRuntimeCreateValue} : (i64) -> !llvm.ptr<i8>
    %12 = "llvm.mlir.constant"() {value = 0 : i32} : () -> i32
    %13 = "llvm.mlir.null"() : () -> !llvm.ptr<i8>
    %14 = "llvm.intr.coro.id"(%12, %13, %13, %13) : (i32, !llvm.ptr<i8>, !llvm.ptr<i8>, !llvm.ptr<i8>) -> !llvm.token
    %15 = "llvm.intr.coro.size"() : () -> i64
    %16 = "llvm.intr.coro.align"() : () -> i64
    %17 = "llvm.add"(%15, %16) : (i64, i64) -> i64
    %18 = "llvm.mlir.constant"() {value = 1 : i64} : () -> i64
    %19 = "llvm.sub"(%17, %18) : (i64, i64) -> i64
    %20 = "llvm.mlir.constant"() {value = 0 : i64} : () -> i64
    %21 = "llvm.sub"(%20, %16) : (i64, i64) -> i64
    %22 = "llvm.and"(%19, %21) : (i64, i64) -> i64
    %23 = "llvm.call"(%16, %22) {callee = @aligned_alloc, fastmathFlags = #llvm.fastmath<>} : (i64, i64) -> !llvm.ptr<i8>
    %24 = "llvm.intr.coro.begin"(%14, %23) : (!llvm.token, !llvm.ptr<i8>) -> !llvm.ptr<i8>
    %25 = "llvm.intr.coro.save"(%24) : (!llvm.ptr<i8>) -> !llvm.token
    %26 = "llvm.mlir.addressof"() {global_name = @__resume} : () -> !llvm.ptr<func<void (ptr<i8>)>>
    "llvm.call"(%24, %26) {callee = @mlirAsyncRuntimeExecute} : (!llvm.ptr<i8>, !llvm.ptr<func<void (ptr<i8>)>>) -> ()
    %27 = "llvm.mlir.constant"() {value = false} : () -> i1
    %28 = "llvm.intr.coro.suspend"(%25, %27) : (!llvm.token, i1) -> i8
    %29 = "llvm.sext"(%28) : (i8) -> i32
    "llvm.switch"(%29)[^bb3, ^bb1, ^bb2] {case_operand_segments = dense<0> : tensor<2xi32>, case_values = dense<[0, 1]> : vector<2xi32>, operand_segment_sizes = dense<[1, 0, 0]> : vector<3xi32>} : (i32) -> ()
  ^bb1:  // pred: ^bb0
    %30 = "llvm.mlir.constant"() {value = 1 : index} : () -> i64
    %31 = "llvm.extractvalue"(%5) {position = [1]} : (!llvm.struct<(ptr<f32>, ptr<f32>, i64, array<1 x i64>, array<1 x i64>)>) -> !llvm.ptr<f32>
    %32 = "llvm.getelementptr"(%31, %30) {structIndices = dense<-2147483648> : tensor<1xi32>} : (!llvm.ptr<f32>, i64) -> !llvm.ptr<f32>
    %33 = "llvm.load"(%32) : (!llvm.ptr<f32>) -> f32
    %34 = "llvm.fadd"(%33, %33) : (f32, f32) -> f32
    %35 = "llvm.call"(%11) {callee = @mlirAsyncRuntimeGetValueStorage} : (!llvm.ptr<i8>) -> !llvm.ptr<i8>
    %36 = "llvm.bitcast"(%35) : (!llvm.ptr<i8>) -> !llvm.ptr<f32>
    "llvm.store"(%34, %36) : (f32, !llvm.ptr<f32>) -> ()
    "llvm.call"(%11) {callee = @mlirAsyncRuntimeEmplaceValue} : (!llvm.ptr<i8>) -> ()
    "llvm.call"(%6) {callee = @mlirAsyncRuntimeEmplaceToken} : (!llvm.ptr<i8>) -> ()
    "llvm.br"()[^bb2] : () -> ()
  ^bb2:  // 2 preds: ^bb0, ^bb1
    %37 = "llvm.intr.coro.free"(%14, %24) : (!llvm.token, !llvm.ptr<i8>) -> !llvm.ptr<i8>
    "llvm.call"(%37) {callee = @free, fastmathFlags = #llvm.fastmath<>} : (!llvm.ptr<i8>) -> ()
    "llvm.br"()[^bb3] : () -> ()
  ^bb3:  // 2 preds: ^bb0, ^bb2
    %38 = "llvm.mlir.constant"() {value = false} : () -> i1
    %39 = "llvm.intr.coro.end"(%24, %38) : (!llvm.ptr<i8>, i1) -> i1
    %40 = "llvm.mlir.undef"() : () -> !llvm.struct<(ptr<i8>, ptr<i8>)>
    %41 = "llvm.insertvalue"(%40, %6) {position = [0]} : (!llvm.struct<(ptr<i8>, ptr<i8>)>, !llvm.ptr<i8>) -> !llvm.struct<(ptr<i8>, ptr<i8>)>
    %42 = "llvm.insertvalue"(%41, %11) {position = [1]} : (!llvm.struct<(ptr<i8>, ptr<i8>)>, !llvm.ptr<i8>) -> !llvm.struct<(ptr<i8>, ptr<i8>)>
    "llvm.return"(%42) : (!llvm.struct<(ptr<i8>, ptr<i8>)>) -> ()
  }) {linkage = #llvm.linkage<external>, passthrough = [["coroutine.presplit", "0"]], sym_name = "async_execute_fn_0", sym_visibility = "private", type = !llvm.func<struct<(ptr<i8>, ptr<i8>)> (ptr<f32>, ptr<f32>, i64, i64, i64)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeAddRef", sym_visibility = "private", type = !llvm.func<void (ptr<i8>, i64)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeDropRef", sym_visibility = "private", type = !llvm.func<void (ptr<i8>, i64)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeCreateToken", sym_visibility = "private", type = !llvm.func<ptr<i8> ()>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeCreateValue", sym_visibility = "private", type = !llvm.func<ptr<i8> (i64)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeCreateGroup", sym_visibility = "private", type = !llvm.func<ptr<i8> (i64)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeEmplaceToken", sym_visibility = "private", type = !llvm.func<void (ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeEmplaceValue", sym_visibility = "private", type = !llvm.func<void (ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeSetTokenError", sym_visibility = "private", type = !llvm.func<void (ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeSetValueError", sym_visibility = "private", type = !llvm.func<void (ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeIsTokenError", sym_visibility = "private", type = !llvm.func<i1 (ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeIsValueError", sym_visibility = "private", type = !llvm.func<i1 (ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeIsGroupError", sym_visibility = "private", type = !llvm.func<i1 (ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeAwaitToken", sym_visibility = "private", type = !llvm.func<void (ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeAwaitValue", sym_visibility = "private", type = !llvm.func<void (ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeAwaitAllInGroup", sym_visibility = "private", type = !llvm.func<void (ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeExecute", sym_visibility = "private", type = !llvm.func<void (ptr<i8>, ptr<func<void (ptr<i8>)>>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeGetValueStorage", sym_visibility = "private", type = !llvm.func<ptr<i8> (ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeAddTokenToGroup", sym_visibility = "private", type = !llvm.func<i64 (ptr<i8>, ptr<i8>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeAwaitTokenAndExecute", sym_visibility = "private", type = !llvm.func<void (ptr<i8>, ptr<i8>, ptr<func<void (ptr<i8>)>>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeAwaitValueAndExecute", sym_visibility = "private", type = !llvm.func<void (ptr<i8>, ptr<i8>, ptr<func<void (ptr<i8>)>>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimeAwaitAllInGroupAndExecute", sym_visibility = "private", type = !llvm.func<void (ptr<i8>, ptr<i8>, ptr<func<void (ptr<i8>)>>)>} : () -> ()
  "llvm.func"() ({
  }) {linkage = #llvm.linkage<external>, sym_name = "mlirAsyncRuntimGetNumWorkerThreads", sym_visibility = "private", type = !llvm.func<i64 ()>} : () -> ()
  "llvm.func"() ({
  ^bb0(%arg0: !llvm.ptr<i8>):
    "llvm.intr.coro.resume"(%arg0) : (!llvm.ptr<i8>) -> ()
    "llvm.return"() : () -> ()
  }) {linkage = #llvm.linkage<external>, sym_name = "__resume", sym_visibility = "private", type = !llvm.func<void (ptr<i8>)>} : () -> ()
}) {llvm.data_layout = ""} : () -> ()

