//! Structured control flow to branches, as MLIR's `SCFToControlFlow`
//! patterns lower it (`scf.if`, `scf.for`, `scf.while` with its do-while
//! form, `scf.execute_region`, `scf.parallel`), as conversion patterns
//! that any conversion can add ([`populate_scf_to_cf_patterns`], MLIR's
//! `populateSCFToControlFlowConversionPatterns`): `-convert-scf-to-cf`
//! (15) / `-convert-scf-to-std` (13, 14) runs them with every `scf` loop
//! and branch illegal, `async-to-async-runtime` with those that hold an
//! async op inside a coroutine illegal.
//!
//! The dialect-conversion driver visits ops outermost first and legalizes
//! the ops a pattern creates at once (the `scf.for` nest of an
//! `scf.parallel`); replacing and erasing are recorded and applied when
//! it is done, so a pattern builds the new branch at the end of a block
//! whose old terminator is still there, and reads the values it forwards
//! from the IR as it stands, as upstream's `RewritePattern`s do.

use crate::{Pass, PassContext, PassInfo};
use mlir_async_dialects::cf::{br_state, cond_br_state};
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_ir::{Block, Context, InsertPoint, IrError, Location, Op, Region, Type, Value};
use mlir_async_rewrite::conversion::FnConversionPattern;
use mlir_async_rewrite::{
    apply_partial_conversion, ConversionPatternSet, ConversionRewriter, ConversionTarget,
    RewriteError,
};

/// The ops these patterns lower.
pub const STRUCTURED: [&str; 5] = [
    "scf.if",
    "scf.for",
    "scf.while",
    "scf.execute_region",
    "scf.parallel",
];

/// Adds the lowering of each structured op to branches, as upstream
/// registers them: the do-while form of `scf.while` first (benefit 2).
pub fn populate_scf_to_cf_patterns(set: &mut ConversionPatternSet) {
    set.add_fn("scf.for", "ForLowering", lower_for)
        .add_fn("scf.if", "IfLowering", lower_if)
        .add_fn("scf.parallel", "ParallelLowering", lower_parallel)
        .add_fn("scf.while", "WhileLowering", lower_while)
        .add_fn(
            "scf.execute_region",
            "ExecuteRegionLowering",
            lower_execute_region,
        )
        .add(FnConversionPattern {
            benefit: 2,
            ..FnConversionPattern::new("scf.while", "DoWhileLowering", lower_do_while)
        });
}

type R = Result<bool, RewriteError>;

/// `cf.br ^dest(args)` at `ip`.
fn br(
    rw: &mut ConversionRewriter,
    ip: InsertPoint,
    loc: Location,
    dest: Block,
    args: Vec<Value>,
) -> Result<Op, RewriteError> {
    let st = br_state(rw.ctx(), loc, dest, args);
    rw.restore_insertion_point(Some(ip));
    rw.create(st)
}

/// `cf.cond_br cond, ^t(targs), ^f(fargs)` at `ip`.
fn cond_br(
    rw: &mut ConversionRewriter,
    ip: InsertPoint,
    loc: Location,
    cond: Value,
    t: (Block, &[Value]),
    f: (Block, &[Value]),
) -> Result<Op, RewriteError> {
    let st = cond_br_state(rw.ctx(), loc, cond, t, f);
    rw.restore_insertion_point(Some(ip));
    rw.create(st)
}

/// The terminator ending `b`, or an error at `loc` for a block without one.
fn terminator(ctx: &Context, b: Block, loc: Location) -> Result<Op, RewriteError> {
    ctx.last_op(b)
        .ok_or_else(|| RewriteError::at(loc, "a region's block has no terminator"))
}

/// `op`'s block, or an error for an op in none.
fn parent_block(ctx: &Context, op: Op) -> Result<Block, RewriteError> {
    ctx.parent_block(op)
        .ok_or_else(|| RewriteError::at(ctx.op_loc(op), "the op is in no block"))
}

/// `op`'s region `i` and its entry block.
fn region_entry(ctx: &Context, op: Op, i: usize) -> Result<(Region, Block), RewriteError> {
    let r = ctx.regions_of(op).get(i).copied();
    match r.and_then(|r| Some((r, ctx.entry_block(r)?))) {
        Some(x) => Ok(x),
        None => Err(RewriteError::at(
            ctx.op_loc(op),
            format!("'{}' op has an empty region", ctx.name(op)),
        )),
    }
}

/// Ends `b` with a branch to `dest` forwarding its terminator's operands,
/// at `loc` (upstream gives the branch the lowered op's location), and
/// erases the terminator.
fn terminator_to_branch(
    rw: &mut ConversionRewriter,
    b: Block,
    dest: Block,
    loc: Location,
) -> Result<(), RewriteError> {
    let t = terminator(rw.ctx_ref(), b, loc)?;
    let operands = rw.ctx_ref().operands(t).to_vec();
    br(rw, InsertPoint::AtEnd(b), loc, dest, operands)?;
    rw.erase_op(t)
}

fn result_types(ctx: &Context, op: Op) -> Vec<Type> {
    ctx.results(op).iter().map(|&v| ctx.value_type(v)).collect()
}

/// Moves a region's blocks before `cont`, its last block's terminator
/// becoming a branch to `cont` (regions from `scf` are single-entry,
/// single-exit); returns its first block.
fn inline_region_branching_to(
    rw: &mut ConversionRewriter,
    r: Region,
    cont: Block,
    loc: Location,
) -> Result<Option<Block>, RewriteError> {
    let ctx = rw.ctx_ref();
    let (Some(first), Some(last)) = (ctx.first_block(r), ctx.last_block(r)) else {
        return Ok(None);
    };
    terminator_to_branch(rw, last, cont, loc)?;
    rw.inline_region_before(r, cont);
    Ok(Some(first))
}

fn lower_if(op: Op, _: &[Value], rw: &mut ConversionRewriter) -> R {
    let loc = rw.ctx_ref().op_loc(op);
    let regions = rw.ctx_ref().regions_of(op).to_vec();
    let Some(&then_r) = regions.first() else {
        return Ok(false);
    };
    let cond_block = parent_block(rw.ctx_ref(), op)?;
    let remaining = rw.split_block(cond_block, op);
    let types = result_types(rw.ctx_ref(), op);
    let cont = if types.is_empty() {
        remaining
    } else {
        let ctx = rw.ctx();
        let c = ctx.create_block(&types);
        ctx.insert_block_before(remaining, c);
        br(rw, InsertPoint::AtEnd(c), loc, remaining, vec![])?;
        c
    };
    let then_first = inline_region_branching_to(rw, then_r, cont, loc)?;
    let else_first = match regions.get(1) {
        Some(&r) => inline_region_branching_to(rw, r, cont, loc)?.unwrap_or(cont),
        None => cont,
    };
    let cond = rw.ctx_ref().operand(op, 0);
    cond_br(
        rw,
        InsertPoint::AtEnd(cond_block),
        loc,
        cond,
        (then_first.unwrap_or(cont), &[]),
        (else_first, &[]),
    )?;
    let args = rw.ctx_ref().block_args(cont).to_vec();
    rw.replace_op(op, &args)?;
    Ok(true)
}

fn lower_for(op: Op, _: &[Value], rw: &mut ConversionRewriter) -> R {
    let loc = rw.ctx_ref().op_loc(op);
    let init_block = parent_block(rw.ctx_ref(), op)?;
    let (r, cond_block) = region_entry(rw.ctx_ref(), op, 0)?;
    let operands = rw.ctx_ref().operands(op).to_vec();
    let &[lb, ub, step, ..] = &operands[..] else {
        return Ok(false);
    };
    let Some(first) = rw.ctx_ref().first_op(cond_block) else {
        return Err(RewriteError::at(loc, "'scf.for' op has an empty body"));
    };
    let end_block = rw.split_block(init_block, op);
    let first_body = rw.split_block(cond_block, first);
    let last_body = rw.ctx_ref().last_block(r).unwrap_or(first_body);
    rw.inline_region_before(r, end_block);
    let iv = rw.ctx_ref().block_args(cond_block)[0];
    // Step and loop back.
    let term = terminator(rw.ctx_ref(), last_body, loc)?;
    let index = rw.ctx().index_type();
    let addi = rw.ctx().sym("arith.addi");
    rw.set_insertion_point_to_end(last_body);
    let add = rw.create_op(addi, loc, &[iv, step], &[index], &[])?;
    let mut carried = vec![rw.ctx_ref().result(add, 0)];
    carried.extend_from_slice(rw.ctx_ref().operands(term));
    br(rw, InsertPoint::AtEnd(last_body), loc, cond_block, carried)?;
    rw.erase_op(term)?;
    // Enter the loop.
    let mut dest = vec![lb];
    dest.extend_from_slice(&operands[3..]);
    br(rw, InsertPoint::AtEnd(init_block), loc, cond_block, dest)?;
    // The condition.
    let ctx = rw.ctx();
    let i1 = ctx.int_type(1);
    let i64t = ctx.int_type(64);
    let slt = ctx.int_attr(2, i64t);
    let (cmpi, predicate) = (ctx.sym("arith.cmpi"), ctx.sym("predicate"));
    rw.set_insertion_point_to_end(cond_block);
    let cmp = rw.create_op(cmpi, loc, &[iv, ub], &[i1], &[(predicate, slt)])?;
    let c = rw.ctx_ref().result(cmp, 0);
    cond_br(
        rw,
        InsertPoint::AtEnd(cond_block),
        loc,
        c,
        (first_body, &[]),
        (end_block, &[]),
    )?;
    let args = rw.ctx_ref().block_args(cond_block)[1..].to_vec();
    rw.replace_op(op, &args)?;
    Ok(true)
}

/// Whether the "after" region only hands its arguments back (a
/// do-while loop): then only the "before" region is inlined.
fn is_do_while(ctx: &Context, op: Op) -> bool {
    let Some(&after) = ctx.regions_of(op).get(1) else {
        return false;
    };
    let Some(b) = ctx.single_block(after) else {
        return false;
    };
    let Some(y) = ctx.first_op(b) else {
        return false;
    };
    ctx.next_op(y).is_none() && ctx.name(y) == "scf.yield" && ctx.operands(y) == ctx.block_args(b)
}

/// MLIR's `DoWhileLowering`: a loop whose "after" region only forwards
/// its arguments branches from the condition back to the "before" region.
fn lower_do_while(op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    if !is_do_while(rw.ctx_ref(), op) {
        return Ok(false);
    }
    lower_while_loop(op, operands, rw, true)
}

/// MLIR's `WhileLowering`.
fn lower_while(op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    lower_while_loop(op, operands, rw, false)
}

fn lower_while_loop(op: Op, _: &[Value], rw: &mut ConversionRewriter, do_while: bool) -> R {
    let loc = rw.ctx_ref().op_loc(op);
    let (before_r, before) = region_entry(rw.ctx_ref(), op, 0)?;
    let (after_r, after) = region_entry(rw.ctx_ref(), op, 1)?;
    let current = parent_block(rw.ctx_ref(), op)?;
    let cont = rw.split_block(current, op);
    let before_last = rw.ctx_ref().last_block(before_r).unwrap_or(before);
    // Where the condition leads when it holds: back to the start of the
    // "before" region for a do-while, else into the "after" one.
    let on_true = if do_while {
        rw.inline_region_before(before_r, cont);
        before
    } else {
        let after_last = rw.ctx_ref().last_block(after_r).unwrap_or(after);
        rw.inline_region_before(after_r, cont);
        rw.inline_region_before(before_r, after);
        // The "after" region loops back.
        let y = terminator(rw.ctx_ref(), after_last, loc)?;
        let yl = rw.ctx_ref().op_loc(y);
        terminator_to_branch(rw, after_last, before, yl)?;
        after
    };
    let inits = rw.ctx_ref().operands(op).to_vec();
    br(rw, InsertPoint::AtEnd(current), loc, before, inits)?;
    let c = terminator(rw.ctx_ref(), before_last, loc)?;
    let cl = rw.ctx_ref().op_loc(c);
    let ops = rw.ctx_ref().operands(c).to_vec();
    let Some((&flag, forwarded)) = ops.split_first() else {
        return Err(RewriteError::at(cl, "'scf.condition' op has no condition"));
    };
    cond_br(
        rw,
        InsertPoint::AtEnd(before_last),
        cl,
        flag,
        (on_true, forwarded),
        (cont, &[]),
    )?;
    rw.erase_op(c)?;
    // The results are the values the condition forwards, which dominate
    // the continuation.
    rw.replace_op(op, forwarded)?;
    Ok(true)
}

fn lower_execute_region(op: Op, _: &[Value], rw: &mut ConversionRewriter) -> R {
    let loc = rw.ctx_ref().op_loc(op);
    let (r, first) = region_entry(rw.ctx_ref(), op, 0)?;
    let current = parent_block(rw.ctx_ref(), op)?;
    let remaining = rw.split_block(current, op);
    br(rw, InsertPoint::AtEnd(current), loc, first, vec![])?;
    for b in rw.ctx_ref().region_blocks(r).collect::<Vec<_>>() {
        let ctx = rw.ctx_ref();
        if ctx.last_op(b).is_some_and(|t| ctx.name(t) == "scf.yield") {
            terminator_to_branch(rw, b, remaining, loc)?;
        }
    }
    rw.inline_region_before(r, remaining);
    let mut args = vec![];
    for t in result_types(rw.ctx_ref(), op) {
        args.push(rw.ctx().add_block_arg(remaining, t));
    }
    rw.replace_op(op, &args)?;
    Ok(true)
}

/// Creates `scf.for %iv = lb to ub step st iter_args(inits)` at `ip`,
/// its body holding an empty `scf.yield` when it carries nothing (as
/// `scf::ForOp::build` makes it).
fn create_for(
    rw: &mut ConversionRewriter,
    ip: InsertPoint,
    loc: Location,
    (lb, ub, step): (Value, Value, Value),
    inits: &[Value],
) -> Result<Op, RewriteError> {
    let ctx = rw.ctx();
    let index = ctx.index_type();
    let types: Vec<Type> = inits.iter().map(|&v| ctx.value_type(v)).collect();
    let mut arg_types = vec![index];
    arg_types.extend_from_slice(&types);
    let region = ctx.create_region();
    let body = ctx.create_block(&arg_types);
    ctx.append_block(region, body);
    let yield_name = ctx.sym("scf.yield");
    if inits.is_empty() {
        let y = ctx.create_op_from(yield_name, loc, &[], &[], &[], &[], &[]);
        ctx.insert_op(InsertPoint::AtEnd(body), y);
    }
    let mut operands = vec![lb, ub, step];
    operands.extend_from_slice(inits);
    let name = ctx.sym("scf.for");
    let f = ctx.create_op_from(name, loc, &operands, &types, &[], &[region], &[]);
    rw.restore_insertion_point(Some(ip));
    rw.insert(f)
}

/// `scf.parallel` becomes a nest of `scf.for`, reductions carried down
/// the nest as iteration arguments and yielded back up (MLIR's
/// `ParallelLowering`); the driver then lowers the loops in the order
/// they were made, outermost first.
fn lower_parallel(op: Op, _: &[Value], rw: &mut ConversionRewriter) -> R {
    let loc = rw.ctx_ref().op_loc(op);
    let segs = mlir_async_dialects::util::segments(rw.ctx_ref(), op, 4);
    let [lbs, ubs, steps, inits] = &segs[..] else {
        return Err(RewriteError::at(
            loc,
            "'scf.parallel' op has malformed operand segments",
        ));
    };
    let (_, body) = region_entry(rw.ctx_ref(), op, 0)?;
    let yield_name = rw.ctx().sym("scf.yield");
    let mut iter_args = inits.clone();
    let mut loop_results = iter_args.clone();
    let mut ivs = vec![];
    let mut ip = InsertPoint::Before(op);
    // The block the insertion point is in (MLIR's insertion block).
    let mut ip_block = parent_block(rw.ctx_ref(), op)?;
    for k in 0..lbs.len().min(ubs.len()).min(steps.len()) {
        let f = create_for(rw, ip, loc, (lbs[k], ubs[k], steps[k]), &iter_args)?;
        let (_, fbody) = region_entry(rw.ctx_ref(), f, 0)?;
        let ctx = rw.ctx_ref();
        ivs.push(ctx.block_args(fbody)[0]);
        iter_args = ctx.block_args(fbody)[1..].to_vec();
        let results = ctx.results(f).to_vec();
        if k == 0 {
            loop_results = results;
        } else if !results.is_empty() {
            rw.set_insertion_point_to_end(ip_block);
            rw.create_op(yield_name, loc, &results, &[], &[])?;
        }
        ip = match rw.ctx_ref().first_op(fbody) {
            Some(first) => InsertPoint::Before(first),
            None => InsertPoint::AtEnd(fbody),
        };
        ip_block = fbody;
    }
    // Reductions merge into the body, their results yielded.
    let mut yields = vec![];
    for o in rw.ctx_ref().block_ops(body) {
        let ctx = rw.ctx_ref();
        if ctx.name(o) != "scf.reduce" {
            continue;
        }
        let rb = ctx.regions_of(o).first().and_then(|&r| ctx.entry_block(r));
        let (Some(rb), Some(&arg)) = (rb, iter_args.get(yields.len())) else {
            return Err(RewriteError::at(
                ctx.op_loc(o),
                "'scf.reduce' op without a reduction to carry",
            ));
        };
        let ret = terminator(ctx, rb, ctx.op_loc(o))?;
        let Some(&reduced) = ctx.operands(ret).first() else {
            return Err(RewriteError::at(
                ctx.op_loc(ret),
                "'scf.reduce.return' op returns nothing",
            ));
        };
        yields.push(reduced);
        let operand = ctx.operand(o, 0);
        rw.erase_op(ret)?;
        rw.ctx()
            .inline_block(rb, InsertPoint::Before(o), &[arg, operand]);
        rw.erase_op(o)?;
    }
    let term = terminator(rw.ctx_ref(), body, loc)?;
    rw.erase_op(term)?;
    // The innermost body's own `scf.yield` (one carrying nothing) stays
    // last: the body goes before it. Ops erased above still stand in the
    // body until the conversion ends, and move with it.
    let ctx = rw.ctx();
    match ctx.last_op(ip_block) {
        Some(t) => ctx.inline_block(body, InsertPoint::Before(t), &ivs),
        None => ctx.inline_block(body, InsertPoint::AtEnd(ip_block), &ivs),
    }
    if !yields.is_empty() {
        rw.set_insertion_point_to_end(ip_block);
        rw.create_op(yield_name, loc, &yields, &[], &[])?;
    }
    rw.replace_op(op, &loop_results)?;
    Ok(true)
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
        // As upstream: the structured ops are illegal, everything else
        // legal (so nothing else is folded).
        let mut target = ConversionTarget::new();
        for name in STRUCTURED {
            target.add_illegal_op(name);
        }
        target.mark_unknown_op_dynamically_legal(|_, _| true);
        let mut patterns = ConversionPatternSet::new();
        populate_scf_to_cf_patterns(&mut patterns);
        let ifaces = Interfaces::new(pc.registry, pc.edition);
        apply_partial_conversion(pc.ctx, op, &target, &patterns, None, &ifaces)
            .map_err(|e| e.into_ir_error(pc.ctx))
    }
}
