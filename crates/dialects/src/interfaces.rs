//! The dialects' side of the rewrite layer's [`OpInterfaces`]: what an
//! op folds to (the folders in [`crate::fold`]), how each dialect
//! materialises a constant, and what a branch forwards to its
//! successors.

use crate::cf::successor_operand_range;
use crate::fold::{self, Folded as DialectFold};
use crate::util::segment_sizes;
use mlir_async_ir::{
    AttrKind, Attribute, Context, InsertPoint, Location, Op, Type, TypeKind, Value,
};
use mlir_async_rewrite::fold::{FoldResult, Folded, OpInterfaces};
use mlir_async_syntax::Edition;
use std::ops::Range;

/// The interfaces of every registered op, for one syntax generation (14
/// and 15 fold a few ops differently).
pub struct Interfaces {
    pub edition: Edition,
}

impl Interfaces {
    pub fn new(edition: Edition) -> Self {
        Interfaces { edition }
    }
}

/// Whether `arith.constant` can hold `value` as a `ty` (MLIR's
/// `arith::ConstantOp::isBuildableWith`): a scalar or dense attribute of
/// exactly that type.
fn arith_buildable(ctx: &Context, value: Attribute, ty: Type) -> bool {
    match ctx.attr_kind(value) {
        AttrKind::Integer(_, t)
        | AttrKind::Float(_, t)
        | AttrKind::WideFloat(_, t)
        | AttrKind::Dense(_, t, _) => *t == ty,
        AttrKind::Bool(_) => matches!(ctx.kind(ty), TypeKind::Integer(1, _)),
        _ => false,
    }
}

impl OpInterfaces for Interfaces {
    fn llvm_release(&self) -> u32 {
        match self.edition {
            Edition::V13 => 13,
            Edition::V14 => 14,
            Edition::V15 => 15,
        }
    }
    fn is_commutative(&self, ctx: &Context, op: Op) -> bool {
        // 13's std dialect marked only these integer ops commutative (not
        // `addf` and `mulf`).
        if self.edition == Edition::V13 && ctx.name(op).starts_with("arith.") {
            return matches!(
                ctx.name(op),
                "arith.addi" | "arith.andi" | "arith.muli" | "arith.ori" | "arith.xori"
            );
        }
        ctx.traits_of(op).commutative
            || (self.edition == Edition::V15
                && matches!(
                    ctx.name(op),
                    "arith.maxsi" | "arith.maxui" | "arith.minsi" | "arith.minui"
                ))
    }
    fn may_fold(&self, ctx: &Context, op: Op) -> bool {
        // The ops `fold` below dispatches to a folder.
        let name = ctx.name(op);
        let dot = name.bytes().position(|c| c == b'.').unwrap_or(name.len());
        match &name[..dot] {
            "builtin" => name == "builtin.unrealized_conversion_cast",
            "scf" => name == "scf.if" && self.edition != Edition::V13,
            "llvm" | "memref" | "linalg" | "arith" => true,
            _ => false,
        }
    }

    fn fold(&self, ctx: &mut Context, op: Op, _operands: &[Option<Attribute>]) -> Folded {
        // Each dialect's folders know only its ops: the name's prefix picks
        // them (asked of every op the greedy driver visits).
        let name = ctx.name(op);
        let dot = name.bytes().position(|c| c == b'.').unwrap_or(name.len());
        match &name[..dot] {
            "builtin" if name == "builtin.unrealized_conversion_cast" => {
                return match fold_unrealized_cast(ctx, op) {
                    Some(vals) => {
                        Folded::Results(vals.into_iter().map(FoldResult::Value).collect())
                    }
                    None => Folded::No,
                };
            }
            // `IfOp::fold` came with LLVM 14.
            "scf" if name == "scf.if" && self.edition != Edition::V13 => {
                return match fold::fold_if(ctx, op) {
                    true => Folded::InPlace,
                    false => Folded::No,
                };
            }
            "llvm" => {
                return match fold::fold_llvm(ctx, op, self.edition) {
                    Some(fold::LlvmFold::Value(v)) => Folded::Results(vec![FoldResult::Value(v)]),
                    Some(fold::LlvmFold::InPlace) => Folded::InPlace,
                    None => Folded::No,
                };
            }
            "memref" | "linalg" => {
                return match fold::fold_memref(ctx, op) {
                    Some(fold::MemrefFold::InPlace) => Folded::InPlace,
                    Some(fold::MemrefFold::Value(v)) => Folded::Results(vec![FoldResult::Value(v)]),
                    Some(fold::MemrefFold::Index(n)) => {
                        let index = ctx.index_type();
                        let a = ctx.int_attr(i128::from(n), index);
                        Folded::Results(vec![FoldResult::Attr(a)])
                    }
                    None => Folded::No,
                };
            }
            // The folders read constant operands from the IR themselves;
            // they cover `arith` ops only (most ops of a module are not).
            "arith" => {}
            _ => return Folded::No,
        }
        let Some(f) = fold::fold(ctx, op, self.edition) else {
            return Folded::No;
        };
        match f {
            DialectFold::Value(v) => Folded::Results(vec![FoldResult::Value(v)]),
            DialectFold::SwapOperands(p) => {
                let ops = ctx.operands(op).to_vec();
                let [l, r] = ops[..] else { return Folded::No };
                ctx.set_operands(op, vec![r, l]);
                let i64t = ctx.int_type(64);
                let a = ctx.int_attr(p as i128, i64t);
                ctx.set_attr(op, "predicate", a);
                Folded::InPlace
            }
            DialectFold::SetOperand(v) => {
                ctx.set_operand(op, 0, v);
                Folded::InPlace
            }
            c => {
                let t = ctx.value_type(ctx.result(op, 0));
                match fold::constant_value(ctx, c, t) {
                    Some(k) => Folded::Results(vec![FoldResult::Attr(ctx.attr(k))]),
                    None => Folded::No,
                }
            }
        }
    }

    /// Every folder here reads the op and its operands' defining ops
    /// only, but `llvm.extractvalue`'s, which follows a chain of
    /// `insertvalue`s as deep as it goes, and `scf.if`'s, which reads its
    /// regions.
    fn fold_is_local(&self, ctx: &Context, op: Op) -> bool {
        !matches!(ctx.name(op), "llvm.extractvalue" | "scf.if")
    }

    fn materialize_constant(
        &self,
        ctx: &mut Context,
        dialect: &str,
        value: Attribute,
        ty: Type,
        loc: Location,
        ip: InsertPoint,
    ) -> Option<Op> {
        let name = match dialect {
            "arith" | "memref" | "scf" | "cf" | "func" | "std"
                if arith_buildable(ctx, value, ty) =>
            {
                "arith.constant"
            }
            "func" | "std" if matches!(ctx.attr_kind(value), AttrKind::SymbolRef(..)) => {
                "func.constant"
            }
            _ => return None,
        };
        let name = ctx.sym(name);
        let key = ctx.sym("value");
        let c = ctx.create_op_from(name, loc, &[], &[ty], &[(key, value)], &[], &[]);
        ctx.insert_op(ip, c);
        Some(c)
    }

    fn successor_operands(&self, ctx: &Context, op: Op, i: usize) -> Option<Range<usize>> {
        match ctx.name(op) {
            "cf.br" | "cf.cond_br" => Some(successor_operand_range(ctx, op, i)),
            "llvm.br" | "llvm.cond_br" | "llvm.switch" => {
                Some(crate::llvm::ops::successor_operand_range(ctx, op, i))
            }
            _ => None,
        }
    }

    fn set_successor_operands(&self, ctx: &mut Context, op: Op, i: usize, vals: &[Value]) {
        let Some(range) = self.successor_operands(ctx, op, i) else {
            return;
        };
        let mut ops = ctx.operands(op).to_vec();
        ops.splice(range, vals.iter().copied());
        if ctx.name(op) == "llvm.switch" {
            crate::llvm::ops::set_switch_segments(ctx, op, i, vals.len());
        }
        if ctx.name(op) == "cf.cond_br" || ctx.name(op) == "llvm.cond_br" {
            let t = successor_operand_range(ctx, op, 0).len();
            let f = successor_operand_range(ctx, op, 1).len();
            let (t, f) = if i == 0 {
                (vals.len(), f)
            } else {
                (t, vals.len())
            };
            let seg = segment_sizes(ctx, &[1, t, f]);
            ctx.set_attr(op, "operand_segment_sizes", seg);
        }
        ctx.set_operands(op, ops);
    }
}

/// A cast to the types it casts from is its operands; a cast undoing the
/// cast that produced all its operands is that cast's operands.
fn fold_unrealized_cast(ctx: &Context, op: Op) -> Option<Vec<Value>> {
    let ins = ctx.operands(op);
    let outs = ctx.results(op);
    let types_of = |vs: &[Value]| vs.iter().map(|&v| ctx.value_type(v)).collect::<Vec<_>>();
    if types_of(ins) == types_of(outs) {
        return Some(ins.to_vec());
    }
    let first = *ins.first()?;
    let def = ctx.defining_op(first)?;
    if ctx.name(def) != "builtin.unrealized_conversion_cast"
        || ctx.results(def) != ins
        || types_of(ctx.operands(def)) != types_of(outs)
    {
        return None;
    }
    Some(ctx.operands(def).to_vec())
}
