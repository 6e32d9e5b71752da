//! Structured control flow to branches, as MLIR's `SCFToControlFlow`
//! patterns lower it (`scf.if`, `scf.for`, `scf.while`,
//! `scf.execute_region`), shared by `-convert-scf-to-cf` (15) /
//! `-convert-scf-to-std` (13, 14) and by `async-to-async-runtime`, which
//! lowers the `scf` ops holding awaits inside coroutines the same way.
//!
//! Ops are lowered outermost first, in pre-order, as the conversion driver
//! legalizes them: lowering an op moves the ops nested in it into its
//! parent region, so the inner ones, collected before, are still there to
//! lower next. Other ops are legal and left alone (the driver folds
//! nothing here).

use crate::{Pass, PassContext, PassInfo};
use mlir_async_dialects::util::segment_sizes;
use mlir_async_ir::fxhash::FxHashMap;
use mlir_async_ir::{
    Attribute, Block, Context, InsertPoint, IrError, Location, Op, Region, Symbol, Type, Value,
};

/// The lowering, with the names it builds interned once.
pub struct ScfLowering {
    cf_br: Symbol,
    cf_cond_br: Symbol,
    arith_addi: Symbol,
    arith_cmpi: Symbol,
    predicate: Symbol,
    operand_segment_sizes: Symbol,
    scf_yield: Symbol,
    /// `cond_br` segment attributes by (true, false) operand counts.
    segments: FxHashMap<(usize, usize), Attribute>,
}

/// The ops this lowering handles (and `scf.parallel`, which it rejects:
/// it is lowered to `scf.for` first).
pub fn is_structured(name: &str) -> bool {
    matches!(
        name,
        "scf.if" | "scf.for" | "scf.while" | "scf.execute_region" | "scf.parallel"
    )
}

impl ScfLowering {
    pub fn new(ctx: &mut Context) -> Self {
        ScfLowering {
            cf_br: ctx.sym("cf.br"),
            cf_cond_br: ctx.sym("cf.cond_br"),
            arith_addi: ctx.sym("arith.addi"),
            arith_cmpi: ctx.sym("arith.cmpi"),
            predicate: ctx.sym("predicate"),
            operand_segment_sizes: ctx.sym("operand_segment_sizes"),
            scf_yield: ctx.sym("scf.yield"),
            segments: FxHashMap::default(),
        }
    }

    /// Lowers one structured op to branches.
    pub fn lower(&mut self, ctx: &mut Context, op: Op) -> Result<(), IrError> {
        match ctx.name(op) {
            "scf.if" => self.lower_if(ctx, op),
            "scf.for" => self.lower_for(ctx, op),
            "scf.while" => self.lower_while(ctx, op),
            "scf.execute_region" => self.lower_execute_region(ctx, op),
            "scf.parallel" => self.lower_parallel(ctx, op),
            name => Err(IrError::on_op(
                ctx,
                op,
                format!("failed to legalize operation '{name}'"),
            )),
        }
    }

    fn br(&self, ctx: &mut Context, ip: InsertPoint, loc: Location, dest: Block, args: &[Value]) {
        let op = ctx.create_op_from(self.cf_br, loc, args, &[], &[], &[], &[dest]);
        ctx.insert_op(ip, op);
    }

    #[allow(clippy::too_many_arguments)]
    fn cond_br(
        &mut self,
        ctx: &mut Context,
        ip: InsertPoint,
        loc: Location,
        cond: Value,
        (t, targs): (Block, &[Value]),
        (f, fargs): (Block, &[Value]),
    ) {
        let shape = (targs.len(), fargs.len());
        let seg = *self
            .segments
            .entry(shape)
            .or_insert_with(|| segment_sizes(ctx, &[1, shape.0, shape.1]));
        let mut operands = Vec::with_capacity(1 + targs.len() + fargs.len());
        operands.push(cond);
        operands.extend_from_slice(targs);
        operands.extend_from_slice(fargs);
        let key = self.operand_segment_sizes;
        let op = ctx.create_op_from(
            self.cf_cond_br,
            loc,
            &operands,
            &[],
            &[(key, seg)],
            &[],
            &[t, f],
        );
        ctx.insert_op(ip, op);
    }

    /// Replaces the terminator of `b` by a branch to `dest` forwarding its
    /// operands, at `loc` (upstream gives the branch the lowered op's
    /// location).
    fn terminator_to_branch(
        &self,
        ctx: &mut Context,
        b: Block,
        dest: Block,
        loc: Location,
    ) -> Result<(), IrError> {
        let t = ctx.last_op(b).expect("region block has a terminator");
        let operands = ctx.operands(t).to_vec();
        self.br(ctx, InsertPoint::AtEnd(b), loc, dest, &operands);
        let tl = ctx.op_loc(t);
        ctx.erase_op(t).map_err(|m| IrError::new(tl, m))
    }

    /// Replaces `op`'s results by `with` and erases it.
    pub fn replace_results(ctx: &mut Context, op: Op, with: &[Value]) -> Result<(), IrError> {
        for (i, &n) in with.iter().enumerate() {
            let Some(&r) = ctx.results(op).get(i) else {
                break;
            };
            ctx.replace_all_uses_with(r, n);
        }
        let loc = ctx.op_loc(op);
        ctx.erase_op(op).map_err(|m| IrError::new(loc, m))
    }

    fn result_types(ctx: &Context, op: Op) -> Vec<Type> {
        ctx.results(op).iter().map(|&v| ctx.value_type(v)).collect()
    }

    /// Moves a region's blocks before `cont`, its last block's terminator
    /// becoming a branch to `cont` (regions from `scf` are single-entry,
    /// single-exit); returns its first block.
    fn inline_region_branching_to(
        &self,
        ctx: &mut Context,
        r: Region,
        cont: Block,
        loc: Location,
    ) -> Result<Option<Block>, IrError> {
        let (Some(first), Some(last)) = (ctx.first_block(r), ctx.last_block(r)) else {
            return Ok(None);
        };
        self.terminator_to_branch(ctx, last, cont, loc)?;
        ctx.inline_region_before(r, cont);
        Ok(Some(first))
    }

    fn lower_if(&mut self, ctx: &mut Context, op: Op) -> Result<(), IrError> {
        let loc = ctx.op_loc(op);
        let cond_block = ctx.parent_block(op).expect("op in a block");
        let remaining = ctx.split_block(cond_block, op);
        let result_types = Self::result_types(ctx, op);
        let cont = if result_types.is_empty() {
            remaining
        } else {
            let c = ctx.create_block(&result_types);
            ctx.insert_block_before(remaining, c);
            self.br(ctx, InsertPoint::AtEnd(c), loc, remaining, &[]);
            c
        };
        let regions = ctx.regions_of(op).to_vec();
        let then_first = self.inline_region_branching_to(ctx, regions[0], cont, loc)?;
        let else_first = match regions.get(1) {
            Some(&r) => self
                .inline_region_branching_to(ctx, r, cont, loc)?
                .unwrap_or(cont),
            None => cont,
        };
        let cond = ctx.operand(op, 0);
        self.cond_br(
            ctx,
            InsertPoint::AtEnd(cond_block),
            loc,
            cond,
            (then_first.unwrap_or(cont), &[]),
            (else_first, &[]),
        );
        let args = ctx.block_args(cont).to_vec();
        Self::replace_results(ctx, op, &args)
    }

    fn lower_for(&mut self, ctx: &mut Context, op: Op) -> Result<(), IrError> {
        let loc = ctx.op_loc(op);
        let init_block = ctx.parent_block(op).expect("op in a block");
        let end_block = ctx.split_block(init_block, op);
        let r = ctx.regions_of(op)[0];
        let cond_block = ctx.entry_block(r).expect("scf.for has a body");
        let first = ctx.first_op(cond_block).expect("body has a terminator");
        let first_body = ctx.split_block(cond_block, first);
        let last_body = ctx.last_block(r).expect("non-empty");
        ctx.inline_region_before(r, end_block);
        let iv = ctx.block_args(cond_block)[0];
        let operands = ctx.operands(op).to_vec();
        let (lb, ub, step) = (operands[0], operands[1], operands[2]);
        // Step and loop back.
        let term = ctx.last_op(last_body).expect("body has a terminator");
        let index = ctx.index_type();
        let add = ctx.create_op_from(self.arith_addi, loc, &[iv, step], &[index], &[], &[], &[]);
        ctx.insert_op(InsertPoint::AtEnd(last_body), add);
        let mut carried = vec![ctx.result(add, 0)];
        carried.extend(ctx.operands(term).to_vec());
        self.br(
            ctx,
            InsertPoint::AtEnd(last_body),
            loc,
            cond_block,
            &carried,
        );
        ctx.erase_op(term).map_err(|m| IrError::new(loc, m))?;
        // Enter the loop.
        let mut dest = vec![lb];
        dest.extend(&operands[3..]);
        self.br(ctx, InsertPoint::AtEnd(init_block), loc, cond_block, &dest);
        // The condition.
        let i1 = ctx.int_type(1);
        let i64t = ctx.int_type(64);
        let slt = ctx.int_attr(2, i64t);
        let cmp = ctx.create_op_from(
            self.arith_cmpi,
            loc,
            &[iv, ub],
            &[i1],
            &[(self.predicate, slt)],
            &[],
            &[],
        );
        ctx.insert_op(InsertPoint::AtEnd(cond_block), cmp);
        let c = ctx.result(cmp, 0);
        self.cond_br(
            ctx,
            InsertPoint::AtEnd(cond_block),
            loc,
            c,
            (first_body, &[]),
            (end_block, &[]),
        );
        let args = ctx.block_args(cond_block)[1..].to_vec();
        Self::replace_results(ctx, op, &args)
    }

    /// Whether the "after" region only hands its arguments back (a
    /// do-while loop): then only the "before" region is inlined (MLIR's
    /// `DoWhileLowering`, tried first at benefit 2).
    fn is_do_while(ctx: &Context, op: Op) -> bool {
        let after = ctx.regions_of(op)[1];
        let Some(b) = ctx.single_block(after) else {
            return false;
        };
        let Some(y) = ctx.first_op(b) else {
            return false;
        };
        ctx.next_op(y).is_none()
            && ctx.name(y) == "scf.yield"
            && ctx.operands(y) == ctx.block_args(b)
    }

    fn lower_while(&mut self, ctx: &mut Context, op: Op) -> Result<(), IrError> {
        let loc = ctx.op_loc(op);
        let current = ctx.parent_block(op).expect("op in a block");
        let cont = ctx.split_block(current, op);
        let regions = ctx.regions_of(op).to_vec();
        let before = ctx.entry_block(regions[0]).expect("before region");
        let before_last = ctx.last_block(regions[0]).expect("before region");
        let do_while = Self::is_do_while(ctx, op);
        // Where the condition leads when it holds: back to the start of
        // the "before" region for a do-while, else into the "after" one.
        let on_true = if do_while {
            ctx.inline_region_before(regions[0], cont);
            before
        } else {
            let after = ctx.entry_block(regions[1]).expect("after region");
            let after_last = ctx.last_block(regions[1]).expect("after region");
            ctx.inline_region_before(regions[1], cont);
            ctx.inline_region_before(regions[0], after);
            // The "after" region loops back.
            let y = ctx
                .last_op(after_last)
                .expect("after region has a terminator");
            let yl = ctx.op_loc(y);
            self.terminator_to_branch(ctx, after_last, before, yl)?;
            after
        };
        let inits = ctx.operands(op).to_vec();
        self.br(ctx, InsertPoint::AtEnd(current), loc, before, &inits);
        let c = ctx
            .last_op(before_last)
            .expect("before region has a terminator");
        let cl = ctx.op_loc(c);
        let ops = ctx.operands(c).to_vec();
        self.cond_br(
            ctx,
            InsertPoint::AtEnd(before_last),
            cl,
            ops[0],
            (on_true, &ops[1..]),
            (cont, &[]),
        );
        ctx.erase_op(c).map_err(|m| IrError::new(cl, m))?;
        // The results are the values the condition forwards, which
        // dominate the continuation.
        Self::replace_results(ctx, op, &ops[1..])
    }

    fn lower_execute_region(&mut self, ctx: &mut Context, op: Op) -> Result<(), IrError> {
        let loc = ctx.op_loc(op);
        let current = ctx.parent_block(op).expect("op in a block");
        let remaining = ctx.split_block(current, op);
        let r = ctx.regions_of(op)[0];
        let first = ctx.entry_block(r).expect("execute_region has a body");
        self.br(ctx, InsertPoint::AtEnd(current), loc, first, &[]);
        for b in ctx.region_blocks(r).to_vec() {
            let is_yield = ctx
                .last_op(b)
                .is_some_and(|t| ctx.op(t).name == self.scf_yield);
            if is_yield {
                self.terminator_to_branch(ctx, b, remaining, loc)?;
            }
        }
        ctx.inline_region_before(r, remaining);
        let mut args = vec![];
        for t in Self::result_types(ctx, op) {
            args.push(ctx.add_block_arg(remaining, t));
        }
        Self::replace_results(ctx, op, &args)
    }
}

impl ScfLowering {
    /// Creates `scf.for %iv = lb to ub step st iter_args(inits)` at `ip`,
    /// its body holding an empty `scf.yield` when it carries nothing (as
    /// `scf::ForOp::build` makes it).
    fn create_for(
        &mut self,
        ctx: &mut Context,
        ip: InsertPoint,
        loc: Location,
        (lb, ub, step): (Value, Value, Value),
        inits: &[Value],
    ) -> Op {
        let index = ctx.index_type();
        let types: Vec<Type> = inits.iter().map(|&v| ctx.value_type(v)).collect();
        let mut arg_types = vec![index];
        arg_types.extend_from_slice(&types);
        let region = ctx.create_region();
        let body = ctx.create_block(&arg_types);
        ctx.append_block(region, body);
        if inits.is_empty() {
            let y = ctx.create_op_from(self.scf_yield, loc, &[], &[], &[], &[], &[]);
            ctx.insert_op(InsertPoint::AtEnd(body), y);
        }
        let mut operands = vec![lb, ub, step];
        operands.extend_from_slice(inits);
        let name = ctx.sym("scf.for");
        let f = ctx.create_op_from(name, loc, &operands, &types, &[], &[region], &[]);
        ctx.insert_op(ip, f);
        f
    }

    /// `scf.parallel` becomes a nest of `scf.for`, reductions carried down
    /// the nest as iteration arguments and yielded back up (MLIR's
    /// `ParallelLowering`); the loops are then lowered in the order they
    /// were made, outermost first, as the driver legalizes created ops.
    fn lower_parallel(&mut self, ctx: &mut Context, op: Op) -> Result<(), IrError> {
        let loc = ctx.op_loc(op);
        let segs = mlir_async_dialects::util::segments(ctx, op, 4);
        let [lbs, ubs, steps, inits] = &segs[..] else {
            return Err(IrError::new(
                loc,
                "'scf.parallel' op has malformed operand segments",
            ));
        };
        let body = ctx.regions_of(op).first().and_then(|&r| ctx.entry_block(r));
        let Some(body) = body else {
            return Err(IrError::new(loc, "'scf.parallel' op has no body"));
        };
        let mut iter_args = inits.clone();
        let mut loop_results = iter_args.clone();
        let mut ivs = vec![];
        let mut fors = vec![];
        let mut ip = InsertPoint::Before(op);
        // The block the insertion point is in (MLIR's insertion block).
        let mut ip_block = ctx.parent_block(op).expect("op in a block");
        for k in 0..lbs.len() {
            let f = self.create_for(ctx, ip, loc, (lbs[k], ubs[k], steps[k]), &iter_args);
            fors.push(f);
            let fbody = ctx.entry_block(ctx.regions_of(f)[0]).expect("for body");
            ivs.push(ctx.block_args(fbody)[0]);
            iter_args = ctx.block_args(fbody)[1..].to_vec();
            let results = ctx.results(f).to_vec();
            if k == 0 {
                loop_results = results;
            } else if !results.is_empty() {
                let y = ctx.create_op_from(self.scf_yield, loc, &results, &[], &[], &[], &[]);
                ctx.insert_op(InsertPoint::AtEnd(ip_block), y);
            }
            ip = match ctx.first_op(fbody) {
                Some(first) => InsertPoint::Before(first),
                None => InsertPoint::AtEnd(fbody),
            };
            ip_block = fbody;
        }
        // Reductions merge into the body, their results yielded.
        let mut yields = vec![];
        for o in ctx.block_ops(body) {
            if ctx.name(o) != "scf.reduce" {
                continue;
            }
            let rb = ctx.regions_of(o).first().and_then(|&r| ctx.entry_block(r));
            let (Some(rb), Some(&arg)) = (rb, iter_args.get(yields.len())) else {
                return Err(IrError::new(
                    ctx.op_loc(o),
                    "'scf.reduce' op without a reduction to carry",
                ));
            };
            let ret = ctx.last_op(rb).expect("reduction has a terminator");
            yields.push(ctx.operand(ret, 0));
            let rl = ctx.op_loc(ret);
            ctx.erase_op(ret).map_err(|m| IrError::new(rl, m))?;
            let operand = ctx.operand(o, 0);
            ctx.inline_block(rb, InsertPoint::Before(o), &[arg, operand]);
            let ol = ctx.op_loc(o);
            ctx.erase_op(o).map_err(|m| IrError::new(ol, m))?;
        }
        let term = ctx.last_op(body).expect("parallel body has a terminator");
        let tl = ctx.op_loc(term);
        ctx.erase_op(term).map_err(|m| IrError::new(tl, m))?;
        match ctx.last_op(ip_block) {
            Some(t) => ctx.inline_block(body, InsertPoint::Before(t), &ivs),
            None => ctx.inline_block(body, InsertPoint::AtEnd(ip_block), &ivs),
        }
        if !yields.is_empty() {
            let y = ctx.create_op_from(self.scf_yield, loc, &yields, &[], &[], &[], &[]);
            ctx.insert_op(InsertPoint::AtEnd(ip_block), y);
        }
        Self::replace_results(ctx, op, &loop_results)?;
        for f in fors {
            self.lower_for(ctx, f)?;
        }
        Ok(())
    }
}

/// `-convert-scf-to-cf` (15) and `-convert-scf-to-std` (13, 14).
pub fn info_cf() -> PassInfo {
    PassInfo {
        arg: "convert-scf-to-cf",
        summary: "Convert SCF dialect to ControlFlow dialect, replacing structured control flow with a CFG",
        options: &[],
        anchor: "",
        make: |_| Ok(Box::new(ConvertScf { std: false })),
    }
}

pub fn info_std() -> PassInfo {
    PassInfo {
        arg: "convert-scf-to-std",
        summary:
            "Convert SCF dialect to Standard dialect, replacing structured control flow with a CFG",
        options: &[],
        anchor: "",
        make: |_| Ok(Box::new(ConvertScf { std: true })),
    }
}

pub struct ConvertScf {
    std: bool,
}

impl Pass for ConvertScf {
    fn name(&self) -> &'static str {
        if self.std {
            "convert-scf-to-std"
        } else {
            "convert-scf-to-cf"
        }
    }
    fn display_name(&self) -> &'static str {
        if self.std {
            "SCFToStandard"
        } else {
            "SCFToControlFlow"
        }
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let ctx = &mut *pc.ctx;
        let mut targets = vec![];
        ctx.walk_nested(op, &mut |o| {
            if is_structured(ctx.name(o)) {
                targets.push(o);
            }
        });
        let mut lowering = ScfLowering::new(ctx);
        for t in targets {
            lowering.lower(ctx, t)?;
        }
        Ok(())
    }
}
