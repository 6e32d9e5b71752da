//! `-reconcile-unrealized-casts`: the end of a chain of partial
//! lowerings. Every conversion leaves `builtin.unrealized_conversion_cast`
//! where a converted value met an op not yet converted; once all are
//! converted, those casts come in pairs that undo each other (`A -> B ->
//! A`) and vanish here, as upstream's pass. A cast that survives is one a
//! lowering left live, and is reported.

use crate::{Pass, PassContext, PassInfo};
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_ir::{Context, IrError, Op, Value};
use mlir_async_rewrite::{
    apply_partial_conversion, ConversionPatternSet, ConversionRewriter, ConversionTarget,
    RewriteError,
};

const CAST: &str = "builtin.unrealized_conversion_cast";

pub fn info() -> PassInfo {
    PassInfo {
        arg: "reconcile-unrealized-casts",
        summary: "Simplify and eliminate unrealized conversion casts",
        options: &[],
        anchor: "",
        make: |_| Ok(Box::new(ReconcileUnrealizedCasts)),
    }
}

pub struct ReconcileUnrealizedCasts;

impl Pass for ReconcileUnrealizedCasts {
    fn name(&self) -> &'static str {
        "reconcile-unrealized-casts"
    }
    fn display_name(&self) -> &'static str {
        "ReconcileUnrealizedCasts"
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let mut target = ConversionTarget::new();
        target.add_illegal_op(CAST);
        let mut patterns = ConversionPatternSet::new();
        patterns.add_fn(CAST, "UnrealizedConversionCastPassthrough", passthrough);
        let ifaces = Interfaces::new(pc.registry, pc.edition);
        apply_partial_conversion(pc.ctx, op, &target, &patterns, None, &ifaces)
            .map_err(|e| e.into_ir_error(pc.ctx))
    }
}

/// A cast used only by casts straight back (`A -> B -> A`): each of those
/// becomes the original values, and the cast goes.
fn passthrough(op: Op, _: &[Value], rw: &mut ConversionRewriter) -> Result<bool, RewriteError> {
    let ctx = rw.ctx_ref();
    let inputs = ctx.operands(op).to_vec();
    let mut users: Vec<Op> = vec![];
    for u in ctx.results(op).iter().flat_map(|&r| ctx.users(r)) {
        if !users.contains(&u) {
            users.push(u);
        }
    }
    if !users.iter().all(|&u| undoes(ctx, op, u)) {
        return Ok(false);
    }
    for u in users {
        rw.replace_op(u, &inputs)?;
    }
    rw.erase_op(op)?;
    Ok(true)
}

/// Does `user` cast all of `op`'s results back to `op`'s input types?
fn undoes(ctx: &Context, op: Op, user: Op) -> bool {
    let types = |vs: &[Value]| vs.iter().map(|&v| ctx.value_type(v)).collect::<Vec<_>>();
    ctx.name(user) == CAST
        && types(ctx.results(user)) == types(ctx.operands(op))
        && ctx.operands(user) == ctx.results(op)
}
