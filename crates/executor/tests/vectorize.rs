//! The loop vectorizer: the memref-loop shape `-convert-scf-to-std`
//! produces, run vectorized (-O3) against not (-O0) on many trip counts and
//! on overlapping buffers, where the runtime check must fall back to the
//! scalar loop.

use mlir_async_executor::codegen::OptLevel;
use mlir_async_executor::engine;
use mlir_async_executor::lir::{BinOp, Block, FunctionBuilder, InstKind, IntCC, Module, Sig, Ty};
use mlir_async_executor::symbols::Symbols;

/// `kernel(dst, a, b, j0, n)`: for j in j0..n: dst[j] = a[j] * 2.5 + b[j]
/// (f32, addresses computed as the memref lowering does:
/// ptr + (0 * stride + j) * 4).
fn kernel() -> Module {
    let mut m = Module::new();
    let sig = Sig::new(vec![Ty::Ptr, Ty::Ptr, Ty::Ptr, Ty::I64, Ty::I64], vec![]);
    let mut b = FunctionBuilder::new("kernel", sig);
    let p = b.params(Block(0)).to_vec();
    let (dst, a, bb, j0, n) = (p[0], p[1], p[2], p[3], p[4]);
    let header = b.create_block(&[Ty::I64]);
    let body = b.create_block(&[]);
    let exit = b.create_block(&[]);
    b.br(header, vec![j0]);
    b.switch_to(header);
    let j = b.params(header)[0];
    let c = b.icmp(IntCC::Slt, j, n);
    b.cond_br(c, body, vec![], exit, vec![]);
    b.switch_to(body);
    let zero = b.iconst(Ty::I64, 0);
    let stride = b.iconst(Ty::I64, 1000);
    let row = b.bin(BinOp::Mul, zero, stride);
    let idx = b.bin(BinOp::Add, row, j);
    let four = b.iconst(Ty::I64, 4);
    let off = b.bin(BinOp::Mul, idx, four);
    let pa = b.inst1(InstKind::Binary(BinOp::Add, a, off), Ty::Ptr);
    let pb = b.inst1(InstKind::Binary(BinOp::Add, bb, off), Ty::Ptr);
    let pd = b.inst1(InstKind::Binary(BinOp::Add, dst, off), Ty::Ptr);
    let x = b.load(Ty::F32, pa, 0);
    let y = b.load(Ty::F32, pb, 0);
    let k = b.f32const(2.5);
    let xk = b.bin(BinOp::FMul, x, k);
    let s = b.bin(BinOp::FAdd, xk, y);
    b.store(s, pd, 0);
    let one = b.iconst(Ty::I64, 1);
    let jn = b.bin(BinOp::Add, j, one);
    b.br(header, vec![jn]);
    b.switch_to(exit);
    b.ret(vec![]);
    m.functions.push(b.finish());
    m
}

type Kernel = extern "C" fn(*mut f32, *const f32, *const f32, i64, i64);

fn compiled(opt: OptLevel) -> (mlir_async_executor::Compiled, Kernel) {
    let c = engine::jit(&kernel(), opt, &Symbols::new()).expect("compiles");
    // SAFETY: `kernel` has this signature.
    let k: Kernel = unsafe { std::mem::transmute(c.function_address("kernel").unwrap()) };
    (c, k)
}

#[test]
fn the_kernel_is_vectorized() {
    let mut f = kernel().functions.remove(0);
    assert_eq!(mlir_async_executor::vectorize::vectorize(&mut f), 1);
    assert!(f.values.contains(&Ty::F32X4));
}

#[test]
fn same_results_as_scalar_for_every_trip_count_and_overlap() {
    let (_c0, scalar) = compiled(OptLevel::O0);
    let (_c3, vector) = compiled(OptLevel::O3);
    let init: Vec<f32> = (0..64).map(|i| (i * 7 % 13) as f32 - 3.0).collect();
    // dst relative to a: disjoint buffer, in place, and shifted by -2..2.
    for shift in [
        None,
        Some(0isize),
        Some(1),
        Some(-1),
        Some(2),
        Some(-2),
        Some(5),
    ] {
        for j0 in [0i64, 1, 3] {
            for n in 0..30i64 {
                let run = |k: Kernel| {
                    let mut mem = init.clone();
                    let mut other = vec![0f32; 64];
                    let b: Vec<f32> = (0..64).map(|i| i as f32 * 0.5).collect();
                    let base = mem.as_mut_ptr();
                    // SAFETY: all offsets stay within the 64-element buffers
                    // (a starts at 8, j < 30, |shift| <= 5).
                    let a = unsafe { base.add(8) };
                    let dst = match shift {
                        None => other.as_mut_ptr(),
                        // SAFETY: as above.
                        Some(s) => unsafe { a.offset(s) },
                    };
                    k(dst, a, b.as_ptr(), j0, n);
                    (mem, other)
                };
                assert_eq!(run(scalar), run(vector), "shift {shift:?} j0 {j0} n {n}");
            }
        }
    }
}

/// Loops it must leave alone: a non-consecutive access (stride 2).
#[test]
fn strided_access_is_not_vectorized() {
    let mut m = kernel();
    let f = &mut m.functions[0];
    // Make the index 2*j.
    for b in &mut f.blocks {
        for inst in &mut b.insts {
            if let InstKind::Iconst(4) = inst.kind {
                inst.kind = InstKind::Iconst(8);
            }
        }
    }
    let mut f = m.functions.remove(0);
    assert_eq!(mlir_async_executor::vectorize::vectorize(&mut f), 0);
}
