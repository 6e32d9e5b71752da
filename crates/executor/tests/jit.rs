//! LIR functions built in Rust, compiled and called: the code generator
//! on its own (no coroutines).

use mlir_async_executor::codegen::OptLevel;
use mlir_async_executor::engine;
use mlir_async_executor::lir::{
    BinOp, CastOp, FloatCC, FunctionBuilder, Global, InstKind, IntCC, Module, Sig, Target,
    Terminator, Ty,
};
use mlir_async_executor::symbols::Symbols;

const LEVELS: [OptLevel; 2] = [OptLevel::O0, OptLevel::O3];

fn compile(m: &Module, opt: OptLevel) -> mlir_async_executor::Compiled {
    engine::jit(m, opt, &Symbols::new()).expect("compiles")
}

/// `sum(n) = 0 + 1 + ... + (n-1)` with a loop carrying two block arguments.
fn sum_module() -> Module {
    let mut m = Module::new();
    let mut b = FunctionBuilder::new("sum", Sig::new(vec![Ty::I64], vec![Ty::I64]));
    let n = b.params(mlir_async_executor::lir::Block(0))[0];
    let header = b.create_block(&[Ty::I64, Ty::I64]);
    let body = b.create_block(&[]);
    let exit = b.create_block(&[]);
    let zero = b.iconst(Ty::I64, 0);
    b.br(header, vec![zero, zero]);
    b.switch_to(header);
    let (i, acc) = (b.params(header)[0], b.params(header)[1]);
    let c = b.icmp(IntCC::Slt, i, n);
    b.cond_br(c, body, vec![], exit, vec![]);
    b.switch_to(body);
    let acc2 = b.bin(BinOp::Add, acc, i);
    let one = b.iconst(Ty::I64, 1);
    let i2 = b.bin(BinOp::Add, i, one);
    b.br(header, vec![i2, acc2]);
    b.switch_to(exit);
    b.ret(vec![acc]);
    m.functions.push(b.finish());
    m
}

#[test]
fn loop_with_block_arguments() {
    let m = sum_module();
    for opt in LEVELS {
        let c = compile(&m, opt);
        let p = c.function_address("sum").unwrap();
        // SAFETY: `sum` is `fn(i64) -> i64` in the system convention.
        let f: extern "C" fn(i64) -> i64 = unsafe { std::mem::transmute(p) };
        assert_eq!(f(0), 0);
        assert_eq!(f(10), 45);
        assert_eq!(f(100_000), 4_999_950_000);
    }
}

/// i1 arithmetic, signed compares of i1, sext/zext/trunc, select, a switch
/// whose cases pass block arguments, int<->float casts.
#[test]
fn scalars_casts_and_switch() {
    let mut m = Module::new();
    // f(x: i32) -> i64: switch x { 0 => 10, 1 => sext(true) (= -1), 7 => trunc(x+249 to i8) zext, _ => fptosi(sitofp(x) * 2.5) }
    let mut b = FunctionBuilder::new("f", Sig::new(vec![Ty::I32], vec![Ty::I64]));
    let x = b.params(mlir_async_executor::lir::Block(0))[0];
    let done = b.create_block(&[Ty::I64]);
    let (c0, c1, c7, dflt) = (
        b.create_block(&[]),
        b.create_block(&[]),
        b.create_block(&[]),
        b.create_block(&[]),
    );
    let ten = b.iconst(Ty::I64, 10);
    b.terminate(Terminator::Switch {
        value: x,
        default: Target {
            block: dflt,
            args: vec![],
        },
        cases: vec![
            (
                0,
                Target {
                    block: done,
                    args: vec![ten],
                },
            ),
            (
                1,
                Target {
                    block: c1,
                    args: vec![],
                },
            ),
            (
                7,
                Target {
                    block: c7,
                    args: vec![],
                },
            ),
        ],
    });
    b.switch_to(c0);
    b.terminate(Terminator::Unreachable);
    b.switch_to(c1);
    let t = b.iconst(Ty::I1, 1);
    let f = b.iconst(Ty::I1, 0);
    // i1: 1 + 1 = 0; signed 1 (= -1) < 0.
    let s = b.bin(BinOp::Add, t, t);
    let lt = b.icmp(IntCC::Slt, t, f);
    let both = b.bin(BinOp::Xor, lt, s); // 1 ^ 0 = 1
    let r = b.cast(CastOp::SExt, both, Ty::I64);
    b.br(done, vec![r]);
    b.switch_to(c7);
    let k = b.iconst(Ty::I32, 249);
    let y = b.bin(BinOp::Add, x, k); // 256
    let y8 = b.cast(CastOp::Trunc, y, Ty::I8); // 0
    let one8 = b.iconst(Ty::I8, 255);
    let z = b.bin(BinOp::Or, y8, one8); // 255
    let r = b.cast(CastOp::ZExt, z, Ty::I64);
    b.br(done, vec![r]);
    b.switch_to(dflt);
    let xf = b.cast(CastOp::SIToFP, x, Ty::F64);
    let k = b.f64const(2.5);
    let p = b.bin(BinOp::FMul, xf, k);
    let big = b.f64const(1e6);
    let gt = b.inst1(InstKind::Fcmp(FloatCC::Ogt, p, big), Ty::I1);
    let neg = b.inst1(
        InstKind::Unary(mlir_async_executor::lir::UnOp::FNeg, p),
        Ty::F64,
    );
    let sel = b.inst1(InstKind::Select(gt, neg, p), Ty::F64);
    let r = b.cast(CastOp::FPToSI, sel, Ty::I64);
    b.br(done, vec![r]);
    b.switch_to(done);
    let v = b.params(done)[0];
    b.ret(vec![v]);
    m.functions.push(b.finish());
    for opt in LEVELS {
        let c = compile(&m, opt);
        // SAFETY: `f` is `fn(i32) -> i64`.
        let f: extern "C" fn(i32) -> i64 =
            unsafe { std::mem::transmute(c.function_address("f").unwrap()) };
        assert_eq!(f(0), 10);
        assert_eq!(f(1), -1);
        assert_eq!(f(7), 255);
        assert_eq!(f(4), 10);
        assert_eq!(f(-3), -7);
        assert_eq!(f(1_000_000), -2_500_000);
    }
}

/// Direct, indirect and external calls; a stack slot; a global with data.
#[test]
fn calls_memory_and_globals() {
    let mut m = Module::new();
    m.globals.push(Global {
        name: "table".into(),
        size: 16,
        align: 8,
        init: [5i64.to_le_bytes(), 7i64.to_le_bytes()].concat(),
        external: false,
    });
    let sq = Sig::new(vec![Ty::I64], vec![Ty::I64]);
    let mut b = FunctionBuilder::new("square", sq.clone());
    let x = b.params(mlir_async_executor::lir::Block(0))[0];
    let y = b.bin(BinOp::Mul, x, x);
    b.ret(vec![y]);
    m.functions.push(b.finish());
    m.functions
        .push(mlir_async_executor::lir::Function::declaration(
            "labs",
            sq.clone(),
        ));

    // g(x) = square(x) + (*square)(table[1]) + labs(-x) + table[0] via a stack slot.
    let mut b = FunctionBuilder::new("g", sq.clone());
    let x = b.params(mlir_async_executor::lir::Block(0))[0];
    let a = b.call("square", sq.clone(), vec![x])[0];
    let fp = b.inst1(InstKind::FuncAddr("square".into()), Ty::Ptr);
    let t = b.inst1(InstKind::GlobalAddr("table".into()), Ty::Ptr);
    let t1 = b.load(Ty::I64, t, 8);
    let c = b.inst(
        InstKind::Call {
            callee: mlir_async_executor::lir::Callee::Indirect(fp),
            args: vec![t1],
            sig: sq.clone(),
        },
        &[Ty::I64],
    )[0];
    let zero = b.iconst(Ty::I64, 0);
    let nx = b.bin(BinOp::Sub, zero, x);
    let l = b.call("labs", sq.clone(), vec![nx])[0];
    let slot = b.inst1(InstKind::StackAlloc { size: 8, align: 8 }, Ty::Ptr);
    let t0 = b.load(Ty::I64, t, 0);
    b.store(t0, slot, 0);
    let t0b = b.load(Ty::I64, slot, 0);
    let s1 = b.bin(BinOp::Add, a, c);
    let s2 = b.bin(BinOp::Add, s1, l);
    let s3 = b.bin(BinOp::Add, s2, t0b);
    b.ret(vec![s3]);
    m.functions.push(b.finish());
    for opt in LEVELS {
        let c = compile(&m, opt);
        // SAFETY: `g` is `fn(i64) -> i64`.
        let g: extern "C" fn(i64) -> i64 =
            unsafe { std::mem::transmute(c.function_address("g").unwrap()) };
        assert_eq!(g(3), 9 + 49 + 3 + 5);
    }
}

#[test]
fn missing_symbols_are_named() {
    let mut m = Module::new();
    let sig = Sig::new(vec![], vec![]);
    m.functions
        .push(mlir_async_executor::lir::Function::declaration(
            "no_such_fn_xyz",
            sig.clone(),
        ));
    let mut b = FunctionBuilder::new("main", sig.clone());
    b.call("no_such_fn_xyz", sig, vec![]);
    b.ret(vec![]);
    m.functions.push(b.finish());
    let e = engine::jit(&m, OptLevel::O0, &Symbols::new())
        .err()
        .unwrap();
    assert_eq!(e.to_string(), "Symbols not found: [ no_such_fn_xyz ]");
}

#[test]
fn entry_checks_say_what_was_found() {
    let m = sum_module();
    let err = |entry: &str, r| {
        engine::check_entry(&m, entry, r)
            .err()
            .map(|e| e.to_string())
    };
    assert_eq!(
        err("nope", engine::EntryResult::Void).as_deref(),
        Some("entry point not found")
    );
    assert_eq!(
        err("sum", engine::EntryResult::I64).as_deref(),
        Some("function inputs not supported")
    );
}

/// `llvm.atomicrmw` / `cmpxchg` / `fence` on a shared counter.
#[test]
fn atomics() {
    use mlir_async_executor::lir::AtomicOp;
    let mut m = Module::new();
    let mut b = FunctionBuilder::new("bump", Sig::new(vec![Ty::Ptr], vec![Ty::I64]));
    let p = b.params(mlir_async_executor::lir::Block(0))[0];
    let five = b.iconst(Ty::I64, 5);
    let old = b.inst1(
        InstKind::AtomicRmw {
            op: AtomicOp::Add,
            addr: p,
            value: five,
        },
        Ty::I64,
    );
    b.inst(InstKind::Fence, &[]);
    let seven = b.iconst(Ty::I64, 7);
    let new = b.bin(BinOp::Add, old, seven);
    let expected = b.bin(BinOp::Add, old, five);
    // *p == old + 5: swapped to old + 7.
    let prev = b.inst1(
        InstKind::AtomicCas {
            addr: p,
            expected,
            new,
        },
        Ty::I64,
    );
    b.ret(vec![prev]);
    m.functions.push(b.finish());
    for opt in LEVELS {
        let c = compile(&m, opt);
        // SAFETY: `bump` is `fn(ptr) -> i64`.
        let f: extern "C" fn(*mut i64) -> i64 =
            unsafe { std::mem::transmute(c.function_address("bump").unwrap()) };
        let mut x = 10i64;
        assert_eq!(f(&mut x), 15);
        assert_eq!(x, 17);
    }
}
