//! The verifier: structure (terminators, successors, isolation), every
//! registered op's own rules, then SSA dominance, in MLIR's order.

use crate::Registry;
use mlir_async_ir::dominance::DominanceInfo;
use mlir_async_ir::*;
use mlir_async_syntax::edition::{generic_name, Edition};

struct Verifier<'a> {
    ctx: &'a Context,
    reg: &'a Registry,
    edition: Edition,
}

impl Verifier<'_> {
    fn op_error(&self, op: Op, msg: impl std::fmt::Display) -> IrError {
        let name = generic_name(self.ctx.name(op), self.edition);
        IrError::new(self.ctx.op_loc(op), format!("'{name}' op {msg}"))
    }

    fn verify_op(&self, op: Op) -> Result<(), IrError> {
        let ctx = self.ctx;
        if let Some(f) = self.reg.get(ctx.name(op)).and_then(|d| d.verify) {
            f(ctx, op).map_err(|m| self.op_error(op, m))?;
        }
        let traits = ctx.traits_of(op);
        let registered = ctx.is_registered(ctx.op(op).name);
        for &r in ctx.regions_of(op) {
            let blocks = ctx.region_blocks(r);
            let Some(&entry) = blocks.first() else {
                continue;
            };
            if !ctx.pred_ops(entry).is_empty() {
                return Err(IrError::new(
                    ctx.op_loc(op),
                    "entry block of region may not have predecessors",
                ));
            }
            for &b in blocks {
                self.verify_block(b, registered && !traits.no_terminator)?;
            }
        }
        Ok(())
    }

    fn verify_block(&self, b: Block, needs_terminator: bool) -> Result<(), IrError> {
        let ctx = self.ctx;
        let ops = ctx.block_ops(b);
        let Some((&last, rest)) = ops.split_last() else {
            if needs_terminator {
                let parent = ctx.block_parent_op(b).expect("block in an op");
                return Err(self.op_error(parent, "empty block: expect at least a terminator"));
            }
            return Ok(());
        };
        for &o in rest {
            if !ctx.successors(o).is_empty() {
                return Err(IrError::new(
                    ctx.op_loc(o),
                    "operation with block successors must terminate its parent block",
                ));
            }
            self.verify_op(o)?;
        }
        self.verify_op(last)?;
        let region = ctx.parent_region(b);
        for &s in ctx.successors(last) {
            if ctx.parent_region(s) != region {
                return Err(IrError::new(
                    ctx.op_loc(last),
                    "branching to block of a different region",
                ));
            }
        }
        if needs_terminator && !ctx.traits_of(last).is_terminator {
            let name = generic_name(ctx.name(last), self.edition);
            return Err(IrError::new(
                ctx.op_loc(last),
                format!("block with no terminator, has \"{name}\""),
            ));
        }
        Ok(())
    }

    /// The isolated-from-above op enclosing `op` (not `op` itself).
    fn isolation_scope(&self, op: Op) -> Option<Op> {
        let p = self.ctx.parent_op(op)?;
        self.ctx
            .ancestor(p, |c, o| c.traits_of(o).isolated_from_above)
    }

    fn verify_dominance(&self, top: Op) -> Result<(), IrError> {
        let ctx = self.ctx;
        let mut dom = DominanceInfo::new();
        let mut err = None;
        ctx.walk_nested(top, &mut |op| {
            if err.is_some() {
                return;
            }
            let use_block = ctx.parent_block(op);
            for (i, &v) in ctx.operands(op).iter().enumerate() {
                // A value defined earlier in the user's own block (the
                // common case) shares its isolation scope and dominates
                // iff its op comes first; skip the ancestor walks.
                if ctx.value_block(v) == use_block {
                    if let ValueDef::Result(d, _) = ctx.value_def(v) {
                        let graph = ctx
                            .parent_op(op)
                            .is_some_and(|p| ctx.traits_of(p).graph_region);
                        if graph || (d != op && dom.value_dominates_use(ctx, v, op)) {
                            continue;
                        }
                    } else {
                        continue;
                    }
                }
                let def_scope = match ctx.value_def(v) {
                    ValueDef::Result(d, _) => self.isolation_scope(d),
                    ValueDef::BlockArg(b, _) => ctx
                        .block_parent_op(b)
                        .and_then(|o| ctx.ancestor(o, |c, x| c.traits_of(x).isolated_from_above)),
                };
                if def_scope != self.isolation_scope(op) {
                    let scope = self.isolation_scope(op).unwrap_or(top);
                    err = Some(
                        self.op_error(scope, "using value defined outside the region")
                            .with_note(ctx.op_loc(op), "required by region isolation constraints"),
                    );
                    return;
                }
                let graph = ctx
                    .parent_op(op)
                    .is_some_and(|p| ctx.traits_of(p).graph_region);
                if !graph && !dom.value_dominates_use(ctx, v, op) {
                    err = Some(
                        IrError::new(
                            ctx.op_loc(op),
                            format!("operand #{i} does not dominate this use"),
                        )
                        .with_note(ctx.value_loc(v), "operand defined here"),
                    );
                    return;
                }
            }
        });
        match err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Verifies `top` and everything nested in it.
pub fn verify(ctx: &Context, reg: &Registry, top: Op, edition: Edition) -> Result<(), IrError> {
    let v = Verifier {
        ctx,
        reg,
        edition,
    };
    v.verify_op(top)?;
    v.verify_dominance(top)
}
