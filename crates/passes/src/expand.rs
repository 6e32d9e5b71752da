//! `-arith-expand` (LLVM 14, 15) and `-std-expand` (13): the `arith` ops
//! the LLVM lowering has no instruction for (`ceildivsi`, `floordivsi`,
//! `maxf`, `minsi`, ...) rewritten into ones it has, as upstream's
//! `ArithmeticExpandOps`. A dialect conversion: the listed ops are
//! illegal, everything else in `arith` legal, so an expansion whose
//! operands are constants is folded first and never expanded, as upstream
//! does.

use crate::{Pass, PassContext, PassInfo};
use mlir_async_dialects::build;
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_ir::{IrError, Op, Value};
use mlir_async_rewrite::{
    apply_partial_conversion, Builder, ConversionPatternSet, ConversionRewriter, ConversionTarget,
    RewriteError,
};
use mlir_async_syntax::Edition;

pub fn info_arith() -> PassInfo {
    PassInfo {
        arg: "arith-expand",
        summary: "Legalize Arithmetic ops to be convertible to LLVM.",
        options: &[],
        anchor: "",
        make: |_| {
            Ok(Box::new(ArithExpand {
                name: "arith-expand",
            }))
        },
    }
}

pub fn info_std() -> PassInfo {
    PassInfo {
        arg: "std-expand",
        summary: "Legalize std operations to be convertible to LLVM.",
        options: &[],
        anchor: "",
        make: |_| Ok(Box::new(ArithExpand { name: "std-expand" })),
    }
}

pub struct ArithExpand {
    name: &'static str,
}

/// The ops the expansion removes, each with its rewrite.
const EXPANSIONS: &[(&str, Expansion)] = &[
    ("arith.ceildivsi", Expansion::CeilDivSI),
    ("arith.ceildivui", Expansion::CeilDivUI),
    ("arith.floordivsi", Expansion::FloorDivSI),
    ("arith.maxf", Expansion::MinMaxF("ugt")),
    ("arith.minf", Expansion::MinMaxF("ult")),
    ("arith.maxsi", Expansion::MinMaxI("sgt")),
    ("arith.maxui", Expansion::MinMaxI("ugt")),
    ("arith.minsi", Expansion::MinMaxI("slt")),
    ("arith.minui", Expansion::MinMaxI("ult")),
];

#[derive(Clone, Copy)]
enum Expansion {
    CeilDivSI,
    CeilDivUI,
    FloorDivSI,
    /// `maxf`/`minf` by an unordered compare, NaN in `rhs` propagated.
    MinMaxF(&'static str),
    MinMaxI(&'static str),
}

impl Pass for ArithExpand {
    fn name(&self) -> &'static str {
        self.name
    }
    fn display_name(&self) -> &'static str {
        if self.name == "std-expand" {
            "StdExpandOps"
        } else {
            "ArithmeticExpandOps"
        }
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let mut target = ConversionTarget::new();
        target.add_legal_dialect("arith").add_legal_dialect("std");
        let mut patterns = ConversionPatternSet::new();
        for &(name, _) in EXPANSIONS {
            target.add_illegal_op(name);
            patterns.add_fn(name, name, expand);
        }
        // 13's `std` dialect held what became `func` and `cf` too, and
        // `memref` was legal: none of those fold here.
        if pc.edition == Edition::V13 {
            target
                .add_legal_dialect("func")
                .add_legal_dialect("cf")
                .add_legal_dialect("memref");
        }
        // 13's std-expand also did what 14 moved to -memref-expand.
        if self.name == "std-expand" {
            crate::memref_expand::add_legality(&mut target);
            crate::memref_expand::populate(&mut patterns);
        }
        let ifaces = Interfaces::new(pc.registry, pc.edition);
        // Before LLVM 15 the pass runs on each function (the first failure
        // ends it, as a sequential pass manager stops); from 15 on the op
        // it is given.
        let roots = if pc.edition == Edition::V15 {
            vec![op]
        } else {
            pc.ctx.collect(op, |c, o| c.name(o) == "func.func")
        };
        for root in roots {
            apply_partial_conversion(pc.ctx, root, &target, &patterns, None, &ifaces)
                .map_err(|e| e.into_ir_error(pc.ctx))?;
        }
        Ok(())
    }
}

fn expand(op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> Result<bool, RewriteError> {
    let name = rw.ctx_ref().name(op);
    let Some(&(_, how)) = EXPANSIONS.iter().find(|e| e.0 == name) else {
        return Ok(false);
    };
    let [a, b] = operands[..] else {
        return Ok(false);
    };
    let loc = rw.ctx_ref().op_loc(op);
    let ty = rw.ctx_ref().value_type(a);
    let r = {
        let bd: &mut dyn Builder = rw;
        match how {
            Expansion::CeilDivUI => {
                // a == 0 ? 0 : (a - 1) / b + 1
                let zero = build::constant_int(bd, loc, ty, 0)?;
                let is_zero = build::cmpi(bd, loc, "eq", a, zero)?;
                let one = build::constant_int(bd, loc, ty, 1)?;
                let a1 = build::same_type(bd, "arith.subi", loc, &[a, one])?;
                let q = build::same_type(bd, "arith.divui", loc, &[a1, b])?;
                let q1 = build::same_type(bd, "arith.addi", loc, &[q, one])?;
                build::select(bd, loc, is_zero, zero, q1)?
            }
            Expansion::CeilDivSI => {
                let plus_one = build::constant_int(bd, loc, ty, 1)?;
                let zero = build::constant_int(bd, loc, ty, 0)?;
                let minus_one = build::constant_int(bd, loc, ty, -1)?;
                // x = b > 0 ? -1 : 1; positive: 1 + (x + a) / b;
                // negative: -(-a / b).
                let b_pos = build::cmpi(bd, loc, "sgt", b, zero)?;
                let x = build::select(bd, loc, b_pos, minus_one, plus_one)?;
                let xa = build::same_type(bd, "arith.addi", loc, &[x, a])?;
                let xab = build::same_type(bd, "arith.divsi", loc, &[xa, b])?;
                let pos = build::same_type(bd, "arith.addi", loc, &[plus_one, xab])?;
                let neg_a = build::same_type(bd, "arith.subi", loc, &[zero, a])?;
                let nab = build::same_type(bd, "arith.divsi", loc, &[neg_a, b])?;
                let neg = build::same_type(bd, "arith.subi", loc, &[zero, nab])?;
                let same_sign = signs(bd, loc, a, b, zero, true)?;
                build::select(bd, loc, same_sign, pos, neg)?
            }
            Expansion::FloorDivSI => {
                let plus_one = build::constant_int(bd, loc, ty, 1)?;
                let zero = build::constant_int(bd, loc, ty, 0)?;
                let minus_one = build::constant_int(bd, loc, ty, -1)?;
                // x = b < 0 ? 1 : -1; negative: -1 - (x - a) / b;
                // positive: a / b.
                let b_neg = build::cmpi(bd, loc, "slt", b, zero)?;
                let x = build::select(bd, loc, b_neg, plus_one, minus_one)?;
                let xa = build::same_type(bd, "arith.subi", loc, &[x, a])?;
                let xab = build::same_type(bd, "arith.divsi", loc, &[xa, b])?;
                let neg = build::same_type(bd, "arith.subi", loc, &[minus_one, xab])?;
                let pos = build::same_type(bd, "arith.divsi", loc, &[a, b])?;
                let opposite = signs(bd, loc, a, b, zero, false)?;
                build::select(bd, loc, opposite, neg, pos)?
            }
            Expansion::MinMaxF(pred) => {
                let cmp = build::cmpf(bd, loc, pred, a, b)?;
                let sel = build::select(bd, loc, cmp, a, b)?;
                let is_nan = build::cmpf(bd, loc, "uno", b, b)?;
                build::select(bd, loc, is_nan, b, sel)?
            }
            Expansion::MinMaxI(pred) => {
                let cmp = build::cmpi(bd, loc, pred, a, b)?;
                build::select(bd, loc, cmp, a, b)?
            }
        }
    };
    rw.replace_op(op, &[r])?;
    Ok(true)
}

/// `(a < 0 && b < 0) || (a > 0 && b > 0)` when `same`, else
/// `(a < 0 && b > 0) || (a > 0 && b < 0)`: the sign test of the division
/// expansions, without the product that could overflow.
fn signs(
    bd: &mut dyn Builder,
    loc: mlir_async_ir::Location,
    a: Value,
    b: Value,
    zero: Value,
    same: bool,
) -> Result<Value, RewriteError> {
    let a_neg = build::cmpi(bd, loc, "slt", a, zero)?;
    let a_pos = build::cmpi(bd, loc, "sgt", a, zero)?;
    let b_neg = build::cmpi(bd, loc, "slt", b, zero)?;
    let b_pos = build::cmpi(bd, loc, "sgt", b, zero)?;
    let (first, second) = if same {
        (
            build::same_type(bd, "arith.andi", loc, &[a_neg, b_neg])?,
            build::same_type(bd, "arith.andi", loc, &[a_pos, b_pos])?,
        )
    } else {
        (
            build::same_type(bd, "arith.andi", loc, &[a_neg, b_pos])?,
            build::same_type(bd, "arith.andi", loc, &[a_pos, b_neg])?,
        )
    };
    build::same_type(bd, "arith.ori", loc, &[first, second])
}
