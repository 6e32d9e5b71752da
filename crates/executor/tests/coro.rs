//! Coroutines in the shape `-convert-async-to-llvm` produces, built in
//! LIR, split and run on our runtime.

use mlir_async_executor::codegen::OptLevel;
use mlir_async_executor::engine;
use mlir_async_executor::lir::{
    BinOp, Block, CastOp, FunctionBuilder, InstKind, IntCC, Module, Sig, Target, Terminator, Ty,
    Value,
};
use mlir_async_executor::symbols::Symbols;
use mlir_async_runtime::capi;

fn sig(p: &[Ty], r: &[Ty]) -> Sig {
    Sig::new(p.to_vec(), r.to_vec())
}

/// `__resume(h)`: `llvm.intr.coro.resume h`, as the lowering emits it.
fn resume_fn(m: &mut Module) {
    let mut b = FunctionBuilder::new("__resume", sig(&[Ty::Ptr], &[]));
    let h = b.params(Block(0))[0];
    b.inst(InstKind::CoroResume(h), &[]);
    b.ret(vec![]);
    m.functions.push(b.finish());
}

/// The coroutine prologue: id, size, align, `aligned_alloc`, begin.
fn prologue(b: &mut FunctionBuilder) -> Value {
    let _id = b.inst1(InstKind::CoroId, Ty::I64);
    let size = b.inst1(InstKind::CoroSize, Ty::I64);
    let align = b.inst1(InstKind::CoroAlign, Ty::I64);
    let s = b.bin(BinOp::Add, size, align);
    let one = b.iconst(Ty::I64, 1);
    let s = b.bin(BinOp::Sub, s, one);
    let zero = b.iconst(Ty::I64, 0);
    let mask = b.bin(BinOp::Sub, zero, align);
    let padded = b.bin(BinOp::And, s, mask);
    let mem = b.call(
        "aligned_alloc",
        sig(&[Ty::I64, Ty::I64], &[Ty::Ptr]),
        vec![align, padded],
    )[0];
    b.inst1(InstKind::CoroBegin(mem), Ty::Ptr)
}

/// save; `call(handle, @__resume)`; suspend; `switch sext(r) [0: resume,
/// 1: cleanup], default: suspend`.
fn suspend(
    b: &mut FunctionBuilder,
    handle: Value,
    call: impl FnOnce(&mut FunctionBuilder, Value, Value),
    resume: Block,
    cleanup: Block,
    end: Block,
) {
    let save = b.inst1(InstKind::CoroSave(handle), Ty::I64);
    let f = b.inst1(InstKind::FuncAddr("__resume".into()), Ty::Ptr);
    call(b, handle, f);
    let r = b.coro_suspend(save, false);
    let r = b.cast(CastOp::SExt, r, Ty::I32);
    let t = |block| Target {
        block,
        args: vec![],
    };
    b.terminate(Terminator::Switch {
        value: r,
        default: t(end),
        cases: vec![(0, t(resume)), (1, t(cleanup))],
    });
}

fn execute(b: &mut FunctionBuilder, h: Value, f: Value) {
    b.call(
        "mlirAsyncRuntimeExecute",
        sig(&[Ty::Ptr, Ty::Ptr], &[]),
        vec![h, f],
    );
}

fn await_and_execute(b: &mut FunctionBuilder, token: Value, h: Value, f: Value) {
    b.call(
        "mlirAsyncRuntimeAwaitTokenAndExecute",
        sig(&[Ty::Ptr, Ty::Ptr, Ty::Ptr], &[]),
        vec![token, h, f],
    );
}

/// cleanup: free(coro.free(h)); br end.  end: coro.end; return tok.
fn epilogue(b: &mut FunctionBuilder, cleanup: Block, end: Block, handle: Value, tok: Value) {
    b.switch_to(cleanup);
    let mem = b.inst1(InstKind::CoroFree(handle), Ty::Ptr);
    b.call("free", sig(&[Ty::Ptr], &[]), vec![mem]);
    b.br(end, vec![]);
    b.switch_to(end);
    b.inst1(InstKind::CoroEnd(handle), Ty::I1);
    b.ret(vec![tok]);
}

fn create_token(b: &mut FunctionBuilder) -> Value {
    b.call("mlirAsyncRuntimeCreateToken", sig(&[], &[Ty::Ptr]), vec![])[0]
}

fn emplace(b: &mut FunctionBuilder, tok: Value) {
    b.call(
        "mlirAsyncRuntimeEmplaceToken",
        sig(&[Ty::Ptr], &[]),
        vec![tok],
    );
}

fn compile(m: &Module, opt: OptLevel) -> mlir_async_executor::Compiled {
    engine::jit(m, opt, &Symbols::new()).expect("compiles")
}

/// `async.execute { *out = 42 }`: the argument and the token live across
/// the first suspend point (in the frame), resumed by a worker.
#[test]
fn execute_writes_through_a_spilled_pointer() {
    let mut m = Module::new();
    resume_fn(&mut m);
    let mut b = FunctionBuilder::new("task", sig(&[Ty::Ptr], &[Ty::Ptr]));
    let out = b.params(Block(0))[0];
    let tok = create_token(&mut b);
    let h = prologue(&mut b);
    let (body, cleanup, end) = (
        b.create_block(&[]),
        b.create_block(&[]),
        b.create_block(&[]),
    );
    suspend(&mut b, h, execute, body, cleanup, end);
    b.switch_to(body);
    let v = b.iconst(Ty::I64, 42);
    b.store(v, out, 0);
    emplace(&mut b, tok);
    b.br(cleanup, vec![]);
    epilogue(&mut b, cleanup, end, h, tok);
    m.functions.push(b.finish());

    for opt in [OptLevel::O0, OptLevel::O3] {
        let c = compile(&m, opt);
        // SAFETY: `task` is `fn(ptr) -> ptr` (returns the token).
        let task: extern "C" fn(*mut i64) -> *mut std::ffi::c_void =
            unsafe { std::mem::transmute(c.function_address("task").unwrap()) };
        let mut out = 0i64;
        let t = task(&mut out);
        capi::mlirAsyncRuntimeAwaitToken(t);
        assert!(!capi::mlirAsyncRuntimeIsTokenError(t));
        capi::mlirAsyncRuntimeDropRef(t, 1);
        assert_eq!(out, 42);
        mlir_async_runtime::shutdown();
    }
}

/// A loop whose body suspends (yields to the scheduler) each iteration,
/// with the induction variable and the accumulator (block arguments) live
/// across the suspend: the resume part re-enters the loop.
#[test]
fn suspend_inside_a_loop_keeps_loop_state() {
    let mut m = Module::new();
    resume_fn(&mut m);
    let mut b = FunctionBuilder::new("squares", sig(&[Ty::I64, Ty::Ptr], &[Ty::Ptr]));
    let (n, out) = (b.params(Block(0))[0], b.params(Block(0))[1]);
    let tok = create_token(&mut b);
    let h = prologue(&mut b);
    let (start, cleanup, end) = (
        b.create_block(&[]),
        b.create_block(&[]),
        b.create_block(&[]),
    );
    suspend(&mut b, h, execute, start, cleanup, end);
    let header = b.create_block(&[Ty::I64, Ty::I64]);
    let body = b.create_block(&[]);
    let after = b.create_block(&[]);
    let exit = b.create_block(&[]);
    b.switch_to(start);
    let z = b.iconst(Ty::I64, 0);
    b.br(header, vec![z, z]);
    b.switch_to(header);
    let (i, acc) = (b.params(header)[0], b.params(header)[1]);
    let c = b.icmp(IntCC::Slt, i, n);
    b.cond_br(c, body, vec![], exit, vec![]);
    b.switch_to(body);
    suspend(&mut b, h, execute, after, cleanup, end);
    b.switch_to(after);
    let sq = b.bin(BinOp::Mul, i, i);
    let acc2 = b.bin(BinOp::Add, acc, sq);
    let one = b.iconst(Ty::I64, 1);
    let i2 = b.bin(BinOp::Add, i, one);
    b.br(header, vec![i2, acc2]);
    b.switch_to(exit);
    b.store(acc, out, 0);
    emplace(&mut b, tok);
    b.br(cleanup, vec![]);
    epilogue(&mut b, cleanup, end, h, tok);
    m.functions.push(b.finish());

    for opt in [OptLevel::O0, OptLevel::O3] {
        let c = compile(&m, opt);
        // SAFETY: `squares` is `fn(i64, ptr) -> ptr`.
        let f: extern "C" fn(i64, *mut i64) -> *mut std::ffi::c_void =
            unsafe { std::mem::transmute(c.function_address("squares").unwrap()) };
        let mut out = -1i64;
        let t = f(100, &mut out);
        capi::mlirAsyncRuntimeAwaitToken(t);
        capi::mlirAsyncRuntimeDropRef(t, 1);
        assert_eq!(out, (0..100).map(|i| i * i).sum::<i64>());
        mlir_async_runtime::shutdown();
    }
}

/// The frame holds only what crosses a suspend: here the token, the two
/// arguments and nothing else (constants are recomputed).
#[test]
fn frame_layout_keeps_only_live_values() {
    let mut b = FunctionBuilder::new("w", sig(&[Ty::Ptr, Ty::Ptr, Ty::I64], &[Ty::Ptr]));
    let (gate, arr, i) = (
        b.params(Block(0))[0],
        b.params(Block(0))[1],
        b.params(Block(0))[2],
    );
    let tok = create_token(&mut b);
    let h = prologue(&mut b);
    let (body, cleanup, end) = (
        b.create_block(&[]),
        b.create_block(&[]),
        b.create_block(&[]),
    );
    suspend(
        &mut b,
        h,
        |b, h, f| await_and_execute(b, gate, h, f),
        body,
        cleanup,
        end,
    );
    b.switch_to(body);
    let eight = b.iconst(Ty::I64, 8);
    let off = b.bin(BinOp::Mul, i, eight);
    let a = b.bin(BinOp::Add, arr, off);
    b.store(i, a, 0);
    emplace(&mut b, tok);
    b.br(cleanup, vec![]);
    epilogue(&mut b, cleanup, end, h, tok);
    let f = b.finish();
    let l = mlir_async_executor::coro::layout(&f).unwrap();
    assert_eq!(l.suspends.len(), 1);
    let mut spills = l.suspends[0].spills.clone();
    spills.sort();
    let mut want = vec![arr, i, tok];
    want.sort();
    assert_eq!(spills, want);
    // 3 ABI words (resume, destroy, index) + 3 values.
    assert_eq!(l.frame_size, 48);
}

fn waiter_module() -> Module {
    let mut m = Module::new();
    resume_fn(&mut m);
    let mut b = FunctionBuilder::new("waiter", sig(&[Ty::Ptr, Ty::Ptr, Ty::I64], &[Ty::Ptr]));
    let (gate, arr, i) = (
        b.params(Block(0))[0],
        b.params(Block(0))[1],
        b.params(Block(0))[2],
    );
    let tok = create_token(&mut b);
    let h = prologue(&mut b);
    let (body, cleanup, end) = (
        b.create_block(&[]),
        b.create_block(&[]),
        b.create_block(&[]),
    );
    suspend(
        &mut b,
        h,
        |b, h, f| await_and_execute(b, gate, h, f),
        body,
        cleanup,
        end,
    );
    b.switch_to(body);
    let eight = b.iconst(Ty::I64, 8);
    let off = b.bin(BinOp::Mul, i, eight);
    let a = b.bin(BinOp::Add, arr, off);
    b.store(i, a, 0);
    emplace(&mut b, tok);
    b.br(cleanup, vec![]);
    epilogue(&mut b, cleanup, end, h, tok);
    m.functions.push(b.finish());

    // spawn(gate, arr, n) -> group: n waiters, their tokens in a group.
    let mut b = FunctionBuilder::new("spawn", sig(&[Ty::Ptr, Ty::Ptr, Ty::I64], &[Ty::Ptr]));
    let (gate, arr, n) = (
        b.params(Block(0))[0],
        b.params(Block(0))[1],
        b.params(Block(0))[2],
    );
    let g = b.call(
        "mlirAsyncRuntimeCreateGroup",
        sig(&[Ty::I64], &[Ty::Ptr]),
        vec![n],
    )[0];
    let header = b.create_block(&[Ty::I64]);
    let body = b.create_block(&[]);
    let exit = b.create_block(&[]);
    let z = b.iconst(Ty::I64, 0);
    b.br(header, vec![z]);
    b.switch_to(header);
    let i = b.params(header)[0];
    let c = b.icmp(IntCC::Slt, i, n);
    b.cond_br(c, body, vec![], exit, vec![]);
    b.switch_to(body);
    let t = b.call(
        "waiter",
        sig(&[Ty::Ptr, Ty::Ptr, Ty::I64], &[Ty::Ptr]),
        vec![gate, arr, i],
    )[0];
    b.call(
        "mlirAsyncRuntimeAddTokenToGroup",
        sig(&[Ty::Ptr, Ty::Ptr], &[Ty::I64]),
        vec![t, g],
    );
    let one = b.iconst(Ty::I64, 1);
    b.call(
        "mlirAsyncRuntimeDropRef",
        sig(&[Ty::Ptr, Ty::I64], &[]),
        vec![t, one],
    );
    let i2 = b.bin(BinOp::Add, i, one);
    b.br(header, vec![i2]);
    b.switch_to(exit);
    b.ret(vec![g]);
    m.functions.push(b.finish());
    m
}

fn rss_kib() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Coroutines suspended on one token, then all resumed by emplacing it.
/// With `n` = 10^6 (`--ignored`, release build) it shows that a million
/// suspended coroutines fit in memory: the frames are 48 bytes.
fn many_waiters(n: i64) -> u64 {
    let m = waiter_module();
    let c = compile(&m, OptLevel::O2);
    // SAFETY: `spawn` is `fn(ptr, ptr, i64) -> ptr`.
    let spawn: extern "C" fn(*mut std::ffi::c_void, *mut i64, i64) -> *mut std::ffi::c_void =
        unsafe { std::mem::transmute(c.function_address("spawn").unwrap()) };
    let mut arr = vec![-1i64; n as usize];
    let gate = capi::mlirAsyncRuntimeCreateToken();
    let before = rss_kib();
    let g = spawn(gate, arr.as_mut_ptr(), n);
    let suspended = rss_kib().saturating_sub(before);
    capi::mlirAsyncRuntimeEmplaceToken(gate);
    capi::mlirAsyncRuntimeAwaitAllInGroup(g);
    assert!(!capi::mlirAsyncRuntimeIsGroupError(g));
    capi::mlirAsyncRuntimeDropRef(g, 1);
    capi::mlirAsyncRuntimeDropRef(gate, 1);
    mlir_async_runtime::shutdown();
    assert!(arr.iter().enumerate().all(|(i, v)| *v == i as i64));
    suspended
}

#[test]
fn thousands_of_suspended_coroutines_resume() {
    many_waiters(20_000);
}

#[test]
#[ignore = "a million coroutines: run with --release -- --ignored"]
fn a_million_suspended_coroutines_fit() {
    let kib = many_waiters(1_000_000);
    eprintln!(
        "RSS growth with 10^6 suspended coroutines: {} MiB",
        kib / 1024
    );
    // Frame, token and awaiter registration per coroutine: well under
    // 512 bytes each.
    assert!(kib < 500 * 1024, "{kib} KiB");
}

/// A value defined before the first suspend point and used only after the
/// second must stay in the frame across both (the first resumption stores
/// it again at the second save).
#[test]
fn value_live_across_two_suspends() {
    let mut m = Module::new();
    resume_fn(&mut m);
    let mut b = FunctionBuilder::new("two", sig(&[Ty::Ptr, Ty::I64], &[Ty::Ptr]));
    let (out, x) = (b.params(Block(0))[0], b.params(Block(0))[1]);
    let tok = create_token(&mut b);
    let h = prologue(&mut b);
    let (first, second, cleanup, end) = (
        b.create_block(&[]),
        b.create_block(&[]),
        b.create_block(&[]),
        b.create_block(&[]),
    );
    suspend(&mut b, h, execute, first, cleanup, end);
    b.switch_to(first);
    suspend(&mut b, h, execute, second, cleanup, end);
    b.switch_to(second);
    b.store(x, out, 0);
    emplace(&mut b, tok);
    b.br(cleanup, vec![]);
    epilogue(&mut b, cleanup, end, h, tok);
    let f = b.finish();
    let l = mlir_async_executor::coro::layout(&f).unwrap();
    let mut s0 = l.suspends[0].spills.clone();
    s0.sort();
    let mut want = vec![out, x, tok];
    want.sort();
    assert_eq!(s0, want);
    m.functions.push(f);
    for opt in [OptLevel::O0, OptLevel::O3] {
        let c = compile(&m, opt);
        // SAFETY: `two` is `fn(ptr, i64) -> ptr`.
        let two: extern "C" fn(*mut i64, i64) -> *mut std::ffi::c_void =
            unsafe { std::mem::transmute(c.function_address("two").unwrap()) };
        let mut out = 0i64;
        let t = two(&mut out, 77);
        capi::mlirAsyncRuntimeAwaitToken(t);
        capi::mlirAsyncRuntimeDropRef(t, 1);
        assert_eq!(out, 77);
        mlir_async_runtime::shutdown();
    }
}
