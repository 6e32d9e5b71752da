//! Canonicalization patterns of the registered ops, as LLVM 14 and 15
//! define them (`getCanonicalizationPatterns` / `canonicalize` of each
//! op), in the order MLIR adds them.

use crate::cf::{br_state, cond_br_state, successor_operand_range};
use mlir_async_ir::{AttrKind, Block, Context, DenseElem, Op, OperationState, Value};
use mlir_async_rewrite::{FnPattern, PatternSet, RewriteError, Rewriter};

type R = Result<bool, RewriteError>;

/// Every pattern, by op name (MLIR adds each registered op's patterns in
/// name order; the order only matters among patterns of one op).
pub fn patterns() -> PatternSet {
    let mut set = PatternSet::new();
    for p in [
        FnPattern::new("cf.br", "BranchOp::canonicalize", br_canonicalize),
        FnPattern::new(
            "cf.cond_br",
            "SimplifyConstCondBranchPred",
            cond_br_const_pred,
        ),
        FnPattern::new(
            "cf.cond_br",
            "SimplifyPassThroughCondBranch",
            cond_br_pass_through,
        ),
        FnPattern::new(
            "cf.cond_br",
            "SimplifyCondBranchIdenticalSuccessors",
            cond_br_identical_successors,
        ),
        FnPattern::new(
            "cf.cond_br",
            "SimplifyCondBranchFromCondBranchOnSameCondition",
            cond_br_same_condition,
        ),
        FnPattern::new(
            "cf.cond_br",
            "CondBranchTruthPropagation",
            cond_br_truth_propagation,
        ),
        FnPattern::new("arith.select", "SelectI1Simplify", select_i1_simplify),
        FnPattern::new("arith.select", "SelectToExtUI", select_to_extui),
    ] {
        set.add(p);
    }
    set
}

// ----- matchers -----

/// The integer value of a constant (`m_ConstantInt`), splats included.
fn const_int(ctx: &Context, v: Value) -> Option<i128> {
    let d = ctx.defining_op(v)?;
    if !ctx.traits_of(d).constant_like {
        return None;
    }
    match ctx.attr_kind(ctx.get_attr(d, "value")?) {
        AttrKind::Integer(i, _) => Some(*i),
        AttrKind::Bool(b) => Some(*b as i128),
        AttrKind::Dense(elems, _, true) => match elems.first()? {
            DenseElem::Int(i) => Some(*i),
            _ => None,
        },
        _ => None,
    }
}

/// The only predecessor edge of `b`, if it has exactly one.
fn single_predecessor(ctx: &Context, b: Block) -> Option<Block> {
    match ctx.pred_ops(b) {
        [p] => ctx.parent_block(*p),
        _ => None,
    }
}

/// The block all predecessor edges of `b` come from, if there is one.
fn unique_predecessor(ctx: &Context, b: Block) -> Option<Block> {
    let mut it = ctx.pred_ops(b).iter().map(|&p| ctx.parent_block(p));
    let first = it.next()??;
    it.all(|p| p == Some(first)).then_some(first)
}

// ----- cf.br -----

/// If `succ` only forwards to another block with an unconditional branch
/// (its arguments used by that branch alone), the block and operands a
/// branch to it can go to instead (MLIR's `collapseBranch`).
///
/// On a cycle of forwarding blocks, LLVM 14 and 15 may collapse a
/// conditional branch's successors round the cycle forever, and
/// `-canonicalize` never returns; we collapse as they do (their output is
/// the reference wherever they finish), and the greedy driver's rewrite
/// budget ends the cycle (`tests/passes/canonicalize-forwarding-cycle.mlir`).
fn collapse_branch(ctx: &Context, succ: Block, operands: &[Value]) -> Option<(Block, Vec<Value>)> {
    let br = forwarding_branch(ctx, succ)?;
    let args = ctx.block_args(succ);
    if args.iter().any(|&a| ctx.users(a).any(|u| u != br)) {
        return None;
    }
    let dest = ctx.successors(br)[0];
    if dest == succ {
        return None;
    }
    let fwd = ctx.operands(br);
    let new = fwd
        .iter()
        .map(|&v| match ctx.value_def(v) {
            mlir_async_ir::ValueDef::BlockArg(b, i) if b == succ => operands[i as usize],
            _ => v,
        })
        .collect();
    Some((dest, new))
}

/// The `cf.br` that is all of `b`, if it is.
fn forwarding_branch(ctx: &Context, b: Block) -> Option<Op> {
    let br = ctx.first_op(b)?;
    (ctx.next_op(br).is_none() && ctx.name(br) == "cf.br").then_some(br)
}

fn br_canonicalize(op: Op, rw: &mut Rewriter) -> R {
    let succ = rw.ctx.successors(op)[0];
    let parent = rw.ctx.parent_block(op).expect("branch in a block");
    // A branch to a block only it reaches: merge the two blocks.
    if succ != parent && rw.ctx.pred_ops(succ).len() == 1 {
        let args = rw.ctx.operands(op).to_vec();
        rw.merge_blocks(succ, parent, &args);
        rw.erase_op(op)?;
        return Ok(true);
    }
    // A branch to a block that only branches on: go straight there.
    if succ == parent {
        return Ok(false);
    }
    let Some((dest, operands)) = collapse_branch(rw.ctx, succ, rw.ctx.operands(op)) else {
        return Ok(false);
    };
    let loc = rw.ctx.op_loc(op);
    let st = br_state(rw.ctx, loc, dest, operands);
    rw.replace_op_with_new(op, st)?;
    Ok(true)
}

// ----- cf.cond_br -----

struct CondBr {
    cond: Value,
    t: Block,
    targs: Vec<Value>,
    f: Block,
    fargs: Vec<Value>,
}

fn cond_br(ctx: &Context, op: Op) -> CondBr {
    let ops = ctx.operands(op);
    let succ = ctx.successors(op);
    CondBr {
        cond: ops[0],
        t: succ[0],
        targs: ops[successor_operand_range(ctx, op, 0)].to_vec(),
        f: succ[1],
        fargs: ops[successor_operand_range(ctx, op, 1)].to_vec(),
    }
}

fn replace_with_br(rw: &mut Rewriter, op: Op, dest: Block, args: Vec<Value>) -> R {
    let loc = rw.ctx.op_loc(op);
    let st = br_state(rw.ctx, loc, dest, args);
    rw.replace_op_with_new(op, st)?;
    Ok(true)
}

fn cond_br_const_pred(op: Op, rw: &mut Rewriter) -> R {
    let c = cond_br(rw.ctx, op);
    match const_int(rw.ctx, c.cond) {
        Some(0) => replace_with_br(rw, op, c.f, c.fargs),
        Some(_) => replace_with_br(rw, op, c.t, c.targs),
        None => Ok(false),
    }
}

fn cond_br_pass_through(op: Op, rw: &mut Rewriter) -> R {
    let mut c = cond_br(rw.ctx, op);
    let t = collapse_branch(rw.ctx, c.t, &c.targs);
    let f = collapse_branch(rw.ctx, c.f, &c.fargs);
    if t.is_none() && f.is_none() {
        return Ok(false);
    }
    if let Some((b, a)) = t {
        (c.t, c.targs) = (b, a);
    }
    if let Some((b, a)) = f {
        (c.f, c.fargs) = (b, a);
    }
    let loc = rw.ctx.op_loc(op);
    let st = cond_br_state(rw.ctx, loc, c.cond, (c.t, &c.targs), (c.f, &c.fargs));
    rw.replace_op_with_new(op, st)?;
    Ok(true)
}

fn cond_br_identical_successors(op: Op, rw: &mut Rewriter) -> R {
    let c = cond_br(rw.ctx, op);
    if c.t != c.f {
        return Ok(false);
    }
    if c.targs == c.fargs {
        return replace_with_br(rw, op, c.t, c.targs);
    }
    if unique_predecessor(rw.ctx, c.t) != rw.ctx.parent_block(op) {
        return Ok(false);
    }
    let loc = rw.ctx.op_loc(op);
    let select = rw.ctx.sym("arith.select");
    let mut merged = Vec::with_capacity(c.targs.len());
    for (&a, &b) in c.targs.iter().zip(&c.fargs) {
        if a == b {
            merged.push(a);
            continue;
        }
        let t = rw.ctx.value_type(a);
        let s = rw.create_op(select, loc, &[c.cond, a, b], &[t], &[])?;
        merged.push(rw.ctx.result(s, 0));
    }
    replace_with_br(rw, op, c.t, merged)
}

fn cond_br_same_condition(op: Op, rw: &mut Rewriter) -> R {
    let block = rw.ctx.parent_block(op).expect("branch in a block");
    let Some(pred) = single_predecessor(rw.ctx, block) else {
        return Ok(false);
    };
    let Some(pt) = rw.ctx.last_op(pred) else {
        return Ok(false);
    };
    if rw.ctx.name(pt) != "cf.cond_br" {
        return Ok(false);
    }
    let c = cond_br(rw.ctx, op);
    let p = cond_br(rw.ctx, pt);
    if c.cond != p.cond {
        return Ok(false);
    }
    if block == p.t {
        replace_with_br(rw, op, c.t, c.targs)
    } else {
        replace_with_br(rw, op, c.f, c.fargs)
    }
}

fn bool_constant(rw: &mut Rewriter, op: Op, v: bool) -> Result<Value, RewriteError> {
    let loc = rw.ctx.op_loc(op);
    let i1 = rw.ctx.int_type(1);
    let a = rw.ctx.attr(AttrKind::Bool(v));
    let name = rw.ctx.sym("arith.constant");
    let key = rw.ctx.sym("value");
    let c = rw.create_op(name, loc, &[], &[i1], &[(key, a)])?;
    Ok(rw.ctx.result(c, 0))
}

fn cond_br_truth_propagation(op: Op, rw: &mut Rewriter) -> R {
    let c = cond_br(rw.ctx, op);
    let mut replaced = false;
    for (dest, value) in [(c.t, true), (c.f, false)] {
        if single_predecessor(rw.ctx, dest).is_none() {
            continue;
        }
        let mut constant = None;
        // Newest use first, as MLIR walks the use-list.
        let uses: Vec<_> = rw.ctx.uses(c.cond).iter().rev().copied().collect();
        for u in uses {
            if rw.ctx.parent_block(u.op) != Some(dest) {
                continue;
            }
            replaced = true;
            let k = match constant {
                Some(k) => k,
                None => *constant.insert(bool_constant(rw, op, value)?),
            };
            rw.modify_op_in_place(u.op, |ctx| ctx.set_operand(u.op, u.index as usize, k));
        }
    }
    Ok(replaced)
}

// ----- select -----

fn select_i1_simplify(op: Op, rw: &mut Rewriter) -> R {
    let t = rw.ctx.value_type(rw.ctx.result(op, 0));
    if !matches!(rw.ctx.kind(t), mlir_async_ir::TypeKind::Integer(1, _)) {
        return Ok(false);
    }
    let [cond, a, b] = rw.ctx.operands(op)[..] else {
        return Ok(false);
    };
    let loc = rw.ctx.op_loc(op);
    let one = bool_constant(rw, op, true)?;
    let (xori, andi, ori) = (
        rw.ctx.sym("arith.xori"),
        rw.ctx.sym("arith.andi"),
        rw.ctx.sym("arith.ori"),
    );
    let not = rw.create_op(xori, loc, &[cond, one], &[t], &[])?;
    let not = rw.ctx.result(not, 0);
    let tv = rw.create_op(andi, loc, &[cond, a], &[t], &[])?;
    let tv = rw.ctx.result(tv, 0);
    let fv = rw.create_op(andi, loc, &[not, b], &[t], &[])?;
    let fv = rw.ctx.result(fv, 0);
    let mut st = OperationState::new(ori, loc);
    st.operands = vec![tv, fv];
    st.result_types = vec![t];
    rw.replace_op_with_new(op, st)?;
    Ok(true)
}

fn select_to_extui(op: Op, rw: &mut Rewriter) -> R {
    let t = rw.ctx.value_type(rw.ctx.result(op, 0));
    match rw.ctx.kind(t) {
        mlir_async_ir::TypeKind::Integer(w, _) if *w != 1 => {}
        _ => return Ok(false),
    }
    let [cond, a, b] = rw.ctx.operands(op)[..] else {
        return Ok(false);
    };
    let loc = rw.ctx.op_loc(op);
    let extui = rw.ctx.sym("arith.extui");
    let (ca, cb) = (const_int(rw.ctx, a), const_int(rw.ctx, b));
    let input = match (ca, cb) {
        (Some(1), Some(0)) => cond,
        (Some(0), Some(1)) => {
            let one = bool_constant(rw, op, true)?;
            let i1 = rw.ctx.value_type(cond);
            let xori = rw.ctx.sym("arith.xori");
            let x = rw.create_op(xori, loc, &[cond, one], &[i1], &[])?;
            rw.ctx.result(x, 0)
        }
        _ => return Ok(false),
    };
    let mut st = OperationState::new(extui, loc);
    st.operands = vec![input];
    st.result_types = vec![t];
    rw.replace_op_with_new(op, st)?;
    Ok(true)
}
