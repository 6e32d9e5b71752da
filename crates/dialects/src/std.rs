//! `std` ops that have no home under their name in a later generation
//! here: the float ops 14 moved to `math` (`absf`, `ceilf`, `floorf`,
//! `copysign`, `fmaf`), `rank` (13; 14 split it into `memref.rank` and
//! `tensor.rank`) and `splat` (13 and 14; 15 split it into `vector.splat`
//! and `tensor.splat`). Stored as `std.<name>` (see `edition::STD_ONLY`);
//! ODS's checks and words as mlir-opt-13/14 state them.

use crate::format::TypeClass;
use crate::util::*;
use crate::{Arity, Invariants, OpDef};
use mlir_async_ir::*;

/// 13's one-operand float ops: `$operand attr-dict : type($result)`.
macro_rules! unary_float_ops {
    ($($ty:ident = $name:literal;)*) => {
        $(crate::op! {
            #[doc = concat!("`", $name, "` (13).")]
            pub struct $ty = $name {
                operands: [operand: One],
                results: [result],
                format: "$operand attr-dict `:` type($result)",
                infer: AllSame,
            }
        })*
    };
}

unary_float_ops! {
    AbsFOp = "std.absf";
    CeilFOp = "std.ceilf";
    FloorFOp = "std.floorf";
}

crate::op! {
    /// `std.copysign` (13).
    pub struct CopySignOp = "std.copysign" {
        operands: [lhs: One, rhs: One],
        results: [result],
        format: "$lhs `,` $rhs attr-dict `:` type($result)",
        infer: AllSame,
    }
}
crate::op! {
    /// `std.fmaf` (13): `a * b + c`.
    pub struct FmaFOp = "std.fmaf" {
        operands: [a: One, b: One, c: One],
        results: [result],
        format: "$a `,` $b `,` $c attr-dict `:` type($result)",
        infer: AllSame,
    }
}

fn index(ctx: &mut Context) -> Type {
    ctx.index_type()
}

crate::op! {
    /// `std.rank` (13's `rank`).
    pub struct RankOp = "std.rank" {
        operands: [memrefOrTensor: One],
        results: [result = Fixed(index)],
        format: "$memrefOrTensor attr-dict `:` type($memrefOrTensor)",
        infer: Spelled,
    }
}

/// `AnyTypeOf<[AnyVector, AnyStaticShapeTensor]>`: the operand's type is
/// the element type of it.
static SPLAT_AGGREGATE: TypeClass = TypeClass {
    is: |ctx, t| match ctx.kind(t) {
        TypeKind::Vector { .. } => true,
        TypeKind::Tensor { shape, .. } => shape.iter().all(Option::is_some),
        _ => false,
    },
    short: None,
    summary: "vector of any type values or statically shaped tensor of any type values",
    cpp: None,
};

/// The element type of a vector or tensor (`TypesMatchWith`).
fn element(ctx: &mut Context, t: Type) -> Option<Type> {
    ctx.kind(t).element_type()
}

crate::op! {
    /// `std.splat` (13 and 14's `splat`).
    pub struct SplatOp = "std.splat" {
        operands: [input: One = Like("aggregate", element)],
        results: [aggregate = Class(&SPLAT_AGGREGATE)],
        format: "$input attr-dict `:` type($aggregate)",
        infer: Spelled,
    }
}

pub fn ops() -> Vec<OpDef> {
    let float = |def: OpDef, n| {
        def.invariants(Invariants::new(Arity::Exactly(n), Arity::Exactly(1)))
            .verify(verify_float)
            .pure()
    };
    vec![
        float(AbsFOp::def(), 1),
        float(CeilFOp::def(), 1),
        float(FloorFOp::def(), 1),
        float(CopySignOp::def(), 2),
        float(FmaFOp::def(), 3),
        RankOp::def()
            .invariants(Invariants::new(Arity::Exactly(1), Arity::Exactly(1)))
            .verify(verify_rank)
            .pure(),
        SplatOp::def()
            .invariants(Invariants::new(Arity::Exactly(1), Arity::Exactly(1)))
            .verify(verify_splat)
            .pure(),
    ]
}

/// `SameOperandsAndResultType`, then the operands' `FloatLike`.
fn verify_float(ctx: &Context, op: Op) -> Result<(), String> {
    let rt = ctx.value_type(ctx.result(op, 0));
    if ctx.operands(op).iter().any(|&v| ctx.value_type(v) != rt) {
        return Err("requires the same type for all operands and results".into());
    }
    let k = ctx.kind(rt);
    if !k
        .element_type()
        .map(|e| ctx.kind(e))
        .unwrap_or(k)
        .is_float()
    {
        return Err(format!(
            "operand #0 must be floating-point-like, but got '{}'",
            tyname(ctx, rt)
        ));
    }
    Ok(())
}

fn verify_rank(ctx: &Context, op: Op) -> Result<(), String> {
    let t = ctx.value_type(ctx.operands(op)[0]);
    if !matches!(
        ctx.kind(t),
        TypeKind::MemRef { .. }
            | TypeKind::UnrankedMemRef { .. }
            | TypeKind::Tensor { .. }
            | TypeKind::UnrankedTensor(_)
    ) {
        return Err(format!(
            "operand #0 must be any memref or tensor type, but got '{}'",
            tyname(ctx, t)
        ));
    }
    let rt = ctx.value_type(ctx.result(op, 0));
    if ctx.kind(rt) != &TypeKind::Index {
        return Err(format!(
            "result #0 must be index, but got '{}'",
            tyname(ctx, rt)
        ));
    }
    Ok(())
}

fn verify_splat(ctx: &Context, op: Op) -> Result<(), String> {
    let vt = ctx.value_type(ctx.operands(op)[0]);
    let k = ctx.kind(vt);
    let signless = matches!(
        k,
        TypeKind::Integer(_, Signedness::Signless) | TypeKind::Index
    );
    if !(signless || k.is_float()) {
        return Err(format!(
            "operand #0 must be integer/index/float type, but got '{}'",
            tyname(ctx, vt)
        ));
    }
    let rt = ctx.value_type(ctx.result(op, 0));
    let elem = match ctx.kind(rt) {
        TypeKind::Vector { elem, .. } => *elem,
        TypeKind::Tensor { shape, elem, .. } if shape.iter().all(Option::is_some) => *elem,
        _ => {
            return Err(format!(
                "result #0 must be vector of any type values or statically shaped tensor of any type values, but got '{}'",
                tyname(ctx, rt)
            ))
        }
    };
    if elem != vt {
        return Err("failed to verify that operand type matches element type of result".into());
    }
    Ok(())
}
