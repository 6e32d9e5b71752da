//! Canonicalization patterns of the registered ops, as LLVM 14 and 15
//! define them (`getCanonicalizationPatterns` / `canonicalize` of each
//! op), in the order MLIR adds them.

use crate::cf::{br_state, cond_br_state, successor_operand_range};
use mlir_async_ir::{AttrKind, Block, Context, DenseElem, Op, OperationState, Region, Value};
use mlir_async_rewrite::{FnPattern, PatternSet, RewriteError, Rewriter};

type R = Result<bool, RewriteError>;

/// Every pattern, by op name (MLIR adds each registered op's patterns in
/// name order; the order only matters among patterns of one op).
pub fn patterns(edition: mlir_async_syntax::Edition) -> PatternSet {
    let mut set = PatternSet::new();
    let edition15 = edition == mlir_async_syntax::Edition::V15;
    arith_patterns(&mut set, edition15);
    scf_patterns(&mut set, edition15);
    memref_patterns(&mut set);
    for p in [
        FnPattern::new(
            "async.create_group",
            "CreateGroupOp::canonicalize",
            create_group_only_awaited,
        ),
        FnPattern::new("cf.br", "BranchOp::canonicalize", br_canonicalize),
        FnPattern::new(
            "func.call_indirect",
            "CallIndirectOp::canonicalize",
            call_indirect_known_callee,
        ),
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

/// An indirect call of a function constant is a direct call.
fn call_indirect_known_callee(op: Op, rw: &mut Rewriter) -> R {
    let ops = rw.ctx.operands(op).to_vec();
    let Some((&callee, args)) = ops.split_first() else {
        return Ok(false);
    };
    let Some(d) = rw.ctx.defining_op(callee) else {
        return Ok(false);
    };
    if !rw.ctx.traits_of(d).constant_like {
        return Ok(false);
    }
    let Some(f) = rw.ctx.get_attr(d, "value") else {
        return Ok(false);
    };
    if !matches!(rw.ctx.attr_kind(f), AttrKind::SymbolRef(..)) {
        return Ok(false);
    }
    let loc = rw.ctx.op_loc(op);
    let mut st = OperationState::new(rw.ctx.sym("func.call"), loc);
    st.operands = args.to_vec();
    st.result_types = rw
        .ctx
        .results(op)
        .iter()
        .map(|&r| rw.ctx.value_type(r))
        .collect();
    st.attrs = vec![(rw.ctx.sym("callee"), f)];
    rw.replace_op_with_new(op, st)?;
    Ok(true)
}

/// A group nothing is added to, only awaited: the group and its awaits go.
fn create_group_only_awaited(op: Op, rw: &mut Rewriter) -> R {
    let g = rw.ctx.result(op, 0);
    let users: Vec<Op> = rw.ctx.users(g).collect();
    if users.iter().any(|&u| rw.ctx.name(u) != "async.await_all") {
        return Ok(false);
    }
    for u in users {
        rw.erase_op(u)?;
    }
    rw.erase_op(op)?;
    Ok(true)
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

// ----- arith (LLVM's DRR patterns of `ArithmeticCanonicalization.td`) -----

/// The op defining `v`, if it is named `name`.
fn def_of(ctx: &Context, v: Value, name: &str) -> Option<Op> {
    let d = ctx.defining_op(v)?;
    (ctx.name(d) == name).then_some(d)
}

/// The value of an `arith.constant` holding an integer attribute
/// (`APIntAttr`), as bits.
fn int_attr_bits(ctx: &Context, v: Value) -> Option<u128> {
    let d = def_of(ctx, v, "arith.constant")?;
    match ctx.attr_kind(ctx.get_attr(d, "value")?) {
        AttrKind::Integer(i, _) => Some(*i as u128),
        AttrKind::Bool(b) => Some(*b as u128),
        _ => None,
    }
}

/// Creates `arith.constant` of `bits` (wrapped to `t`'s width) at the
/// insertion point.
fn int_constant(
    rw: &mut Rewriter,
    loc: mlir_async_ir::Location,
    bits: u128,
    t: mlir_async_ir::Type,
) -> Result<Option<Value>, RewriteError> {
    let Some(w) = crate::fold::width(rw.ctx, t) else {
        return Ok(None);
    };
    let Some(kind) = crate::fold::constant_value(
        rw.ctx,
        crate::fold::Folded::Const(bits & crate::fold::mask(w)),
        t,
    ) else {
        return Ok(None);
    };
    let a = rw.ctx.attr(kind);
    let name = rw.ctx.sym("arith.constant");
    let key = rw.ctx.sym("value");
    let c = rw.create_op(name, loc, &[], &[t], &[(key, a)])?;
    Ok(Some(rw.ctx.result(c, 0)))
}

/// Replaces `op` by a new `name` op over `operands`, of `op`'s result type.
fn replace_with(rw: &mut Rewriter, op: Op, name: &str, operands: &[Value]) -> R {
    let t = rw.ctx.value_type(rw.ctx.result(op, 0));
    let loc = rw.ctx.op_loc(op);
    let mut st = OperationState::new(rw.ctx.sym(name), loc);
    st.operands = operands.to_vec();
    st.result_types = vec![t];
    rw.replace_op_with_new(op, st)?;
    Ok(true)
}

/// `outer(inner(x, c0) or inner(c0, x), c1)` or `outer(c1, inner(...))`:
/// the shapes of the add/sub constant-reassociation patterns. `lhs_inner`
/// says whether the inner op is the outer op's left operand; `x_first`
/// whether `x` is the inner op's left operand. On a match, builds
/// `result(x, constant)` or `result(constant, x)` as `x_left` says, with
/// the constant `combine(c_inner, c_outer)`.
#[allow(clippy::too_many_arguments)]
fn reassociate(
    op: Op,
    rw: &mut Rewriter,
    inner_name: &str,
    lhs_inner: bool,
    x_first: bool,
    result: &str,
    x_left: bool,
    combine: fn(u128, u128) -> u128,
) -> R {
    let [l, r] = rw.ctx.operands(op)[..] else {
        return Ok(false);
    };
    let (inner_v, outer_c) = if lhs_inner { (l, r) } else { (r, l) };
    let Some(c1) = int_attr_bits(rw.ctx, outer_c) else {
        return Ok(false);
    };
    let Some(inner) = def_of(rw.ctx, inner_v, inner_name) else {
        return Ok(false);
    };
    let [il, ir] = rw.ctx.operands(inner)[..] else {
        return Ok(false);
    };
    let (x, c0v) = if x_first { (il, ir) } else { (ir, il) };
    let Some(c0) = int_attr_bits(rw.ctx, c0v) else {
        return Ok(false);
    };
    let t = rw.ctx.value_type(rw.ctx.result(op, 0));
    let loc = rw.ctx.op_loc(op);
    let Some(c) = int_constant(rw, loc, combine(c0, c1), t)? else {
        return Ok(false);
    };
    let operands = if x_left { [x, c] } else { [c, x] };
    replace_with(rw, op, result, &operands)
}

fn add(a: u128, b: u128) -> u128 {
    a.wrapping_add(b)
}
fn sub(a: u128, b: u128) -> u128 {
    a.wrapping_sub(b)
}
fn sub_rev(a: u128, b: u128) -> u128 {
    b.wrapping_sub(a)
}

fn addi_addi_constant(op: Op, rw: &mut Rewriter) -> R {
    reassociate(op, rw, "arith.addi", true, true, "arith.addi", true, add)
}
fn addi_subi_constant_rhs(op: Op, rw: &mut Rewriter) -> R {
    // addi(subi(x, c0), c1) -> addi(x, c1 - c0)
    reassociate(
        op,
        rw,
        "arith.subi",
        true,
        true,
        "arith.addi",
        true,
        sub_rev,
    )
}
fn addi_subi_constant_lhs(op: Op, rw: &mut Rewriter) -> R {
    // addi(subi(c0, x), c1) -> subi(c0 + c1, x)
    reassociate(op, rw, "arith.subi", true, false, "arith.subi", false, add)
}
fn subi_rhs_addi_constant(op: Op, rw: &mut Rewriter) -> R {
    // subi(addi(x, c0), c1) -> addi(x, c0 - c1)
    reassociate(op, rw, "arith.addi", true, true, "arith.addi", true, sub)
}
fn subi_lhs_addi_constant(op: Op, rw: &mut Rewriter) -> R {
    // subi(c1, addi(x, c0)) -> subi(c1 - c0, x)
    reassociate(
        op,
        rw,
        "arith.addi",
        false,
        true,
        "arith.subi",
        false,
        sub_rev,
    )
}
fn subi_rhs_subi_constant_rhs(op: Op, rw: &mut Rewriter) -> R {
    // subi(subi(x, c0), c1) -> subi(x, c0 + c1)
    reassociate(op, rw, "arith.subi", true, true, "arith.subi", true, add)
}
fn subi_rhs_subi_constant_lhs(op: Op, rw: &mut Rewriter) -> R {
    // subi(subi(c0, x), c1) -> subi(c0 - c1, x)
    reassociate(op, rw, "arith.subi", true, false, "arith.subi", false, sub)
}
fn subi_lhs_subi_constant_rhs(op: Op, rw: &mut Rewriter) -> R {
    // subi(c1, subi(x, c0)) -> subi(c0 + c1, x)
    reassociate(op, rw, "arith.subi", false, true, "arith.subi", false, add)
}
fn subi_lhs_subi_constant_lhs(op: Op, rw: &mut Rewriter) -> R {
    // subi(c1, subi(c0, x)) -> addi(x, c1 - c0)
    reassociate(
        op,
        rw,
        "arith.subi",
        false,
        false,
        "arith.addi",
        true,
        sub_rev,
    )
}

fn xori_not_cmpi(op: Op, rw: &mut Rewriter) -> R {
    let [l, r] = rw.ctx.operands(op)[..] else {
        return Ok(false);
    };
    let Some(cmp) = def_of(rw.ctx, l, "arith.cmpi") else {
        return Ok(false);
    };
    let is_true = def_of(rw.ctx, r, "arith.constant")
        .and_then(|c| rw.ctx.get_attr(c, "value"))
        .is_some_and(|a| matches!(rw.ctx.attr_kind(a), AttrKind::Bool(true)));
    if !is_true {
        return Ok(false);
    }
    let Some(pred) = rw.ctx.get_attr(cmp, "predicate") else {
        return Ok(false);
    };
    let AttrKind::Integer(p, pt) = *rw.ctx.attr_kind(pred) else {
        return Ok(false);
    };
    // eq<->ne, slt<->sge, sle<->sgt, ult<->uge, ule<->ugt.
    let inverted = match p {
        0 => 1,
        1 => 0,
        2 => 5,
        3 => 4,
        4 => 3,
        5 => 2,
        6 => 9,
        7 => 8,
        8 => 7,
        9 => 6,
        _ => return Ok(false),
    };
    let a = rw.ctx.attr(AttrKind::Integer(inverted, pt));
    let ops = rw.ctx.operands(cmp).to_vec();
    let t = rw.ctx.value_type(rw.ctx.result(op, 0));
    let loc = rw.ctx.op_loc(op);
    let mut st = OperationState::new(rw.ctx.sym("arith.cmpi"), loc);
    st.operands = ops;
    st.result_types = vec![t];
    st.attrs = vec![(rw.ctx.sym("predicate"), a)];
    rw.replace_op_with_new(op, st)?;
    Ok(true)
}

/// `outer(inner(x))` -> `x` when the types agree.
fn cast_of_cast_identity(op: Op, rw: &mut Rewriter, inner: &str, check_type: bool) -> R {
    let v = rw.ctx.operand(op, 0);
    let Some(d) = def_of(rw.ctx, v, inner) else {
        return Ok(false);
    };
    let x = rw.ctx.operand(d, 0);
    let res = rw.ctx.result(op, 0);
    if check_type && rw.ctx.value_type(res) != rw.ctx.value_type(x) {
        return Ok(false);
    }
    rw.replace_op(op, &[x])?;
    Ok(true)
}

fn index_cast_of_index_cast(op: Op, rw: &mut Rewriter) -> R {
    cast_of_cast_identity(op, rw, "arith.index_cast", true)
}
fn bitcast_of_bitcast(op: Op, rw: &mut Rewriter) -> R {
    cast_of_cast_identity(op, rw, "arith.bitcast", false)
}

/// `outer(inner(x))` -> `replacement(x)` of `op`'s result type.
fn skip_inner(op: Op, rw: &mut Rewriter, inner: &str, replacement: &str) -> R {
    let v = rw.ctx.operand(op, 0);
    let Some(d) = def_of(rw.ctx, v, inner) else {
        return Ok(false);
    };
    let x = rw.ctx.operand(d, 0);
    replace_with(rw, op, replacement, &[x])
}

fn index_cast_of_extsi(op: Op, rw: &mut Rewriter) -> R {
    skip_inner(op, rw, "arith.extsi", "arith.index_cast")
}
fn extsi_of_extui(op: Op, rw: &mut Rewriter) -> R {
    skip_inner(op, rw, "arith.extui", "arith.extui")
}

/// `logic(ext(x), ext(y))` -> `ext(logic(x, y))` when `x` and `y` have
/// one type.
fn logic_of_ext(op: Op, rw: &mut Rewriter, ext: &str) -> R {
    let [l, r] = rw.ctx.operands(op)[..] else {
        return Ok(false);
    };
    let (Some(a), Some(b)) = (def_of(rw.ctx, l, ext), def_of(rw.ctx, r, ext)) else {
        return Ok(false);
    };
    let (x, y) = (rw.ctx.operand(a, 0), rw.ctx.operand(b, 0));
    let xt = rw.ctx.value_type(x);
    if xt != rw.ctx.value_type(y) {
        return Ok(false);
    }
    let loc = rw.ctx.op_loc(op);
    let name = rw.ctx.op_name(op);
    let inner = rw.create_op(name, loc, &[x, y], &[xt], &[])?;
    let inner = rw.ctx.result(inner, 0);
    replace_with(rw, op, ext, &[inner])
}

fn and_of_extui(op: Op, rw: &mut Rewriter) -> R {
    logic_of_ext(op, rw, "arith.extui")
}
fn and_of_extsi(op: Op, rw: &mut Rewriter) -> R {
    logic_of_ext(op, rw, "arith.extsi")
}

/// `cmpi eq/ne (ext a), (ext b)` -> `cmpi eq/ne a, b` (LLVM 15).
fn cmpi_of_ext(op: Op, rw: &mut Rewriter, ext: &str) -> R {
    let Some(pred) = rw.ctx.get_attr(op, "predicate") else {
        return Ok(false);
    };
    if !matches!(rw.ctx.attr_kind(pred), AttrKind::Integer(0 | 1, _)) {
        return Ok(false);
    }
    let [l, r] = rw.ctx.operands(op)[..] else {
        return Ok(false);
    };
    let (Some(a), Some(b)) = (def_of(rw.ctx, l, ext), def_of(rw.ctx, r, ext)) else {
        return Ok(false);
    };
    let (x, y) = (rw.ctx.operand(a, 0), rw.ctx.operand(b, 0));
    if rw.ctx.value_type(x) != rw.ctx.value_type(y) {
        return Ok(false);
    }
    let t = rw.ctx.value_type(rw.ctx.result(op, 0));
    let loc = rw.ctx.op_loc(op);
    let mut st = OperationState::new(rw.ctx.sym("arith.cmpi"), loc);
    st.operands = vec![x, y];
    st.result_types = vec![t];
    st.attrs = vec![(rw.ctx.sym("predicate"), pred)];
    rw.replace_op_with_new(op, st)?;
    Ok(true)
}
fn cmpi_of_extsi(op: Op, rw: &mut Rewriter) -> R {
    cmpi_of_ext(op, rw, "arith.extsi")
}
fn cmpi_of_extui(op: Op, rw: &mut Rewriter) -> R {
    cmpi_of_ext(op, rw, "arith.extui")
}

/// `binary(negf x, negf y)` -> `binary(x, y)` (LLVM 15's `mulf`, `divf`).
fn binary_of_negf(op: Op, rw: &mut Rewriter) -> R {
    let [l, r] = rw.ctx.operands(op)[..] else {
        return Ok(false);
    };
    let (Some(a), Some(b)) = (
        def_of(rw.ctx, l, "arith.negf"),
        def_of(rw.ctx, r, "arith.negf"),
    ) else {
        return Ok(false);
    };
    let (x, y) = (rw.ctx.operand(a, 0), rw.ctx.operand(b, 0));
    if rw.ctx.value_type(x) != rw.ctx.value_type(y) {
        return Ok(false);
    }
    let name = rw.ctx.name(op).to_string();
    replace_with(rw, op, &name, &[x, y])
}

/// The arith patterns of LLVM 14 (`edition` 13 and 14) or 15, with the
/// benefit DRR gives them (the number of ops they match).
pub fn arith_patterns(set: &mut PatternSet, edition15: bool) {
    let p = |root, name, benefit, f| FnPattern {
        root: Some(root),
        name,
        benefit,
        f,
    };
    for pat in [
        p(
            "arith.addi",
            "AddIAddConstant",
            4,
            addi_addi_constant as mlir_async_rewrite::RewriteFn,
        ),
        p(
            "arith.addi",
            "AddISubConstantRHS",
            4,
            addi_subi_constant_rhs,
        ),
        p(
            "arith.addi",
            "AddISubConstantLHS",
            4,
            addi_subi_constant_lhs,
        ),
        p(
            "arith.subi",
            "SubIRHSAddConstant",
            4,
            subi_rhs_addi_constant,
        ),
        p(
            "arith.subi",
            "SubILHSAddConstant",
            4,
            subi_lhs_addi_constant,
        ),
        p(
            "arith.subi",
            "SubIRHSSubConstantRHS",
            4,
            subi_rhs_subi_constant_rhs,
        ),
        p(
            "arith.subi",
            "SubIRHSSubConstantLHS",
            4,
            subi_rhs_subi_constant_lhs,
        ),
        p(
            "arith.subi",
            "SubILHSSubConstantRHS",
            4,
            subi_lhs_subi_constant_rhs,
        ),
        p(
            "arith.subi",
            "SubILHSSubConstantLHS",
            4,
            subi_lhs_subi_constant_lhs,
        ),
        p("arith.xori", "XOrINotCmpI", 3, xori_not_cmpi),
        p("arith.extsi", "ExtSIOfExtUI", 2, extsi_of_extui),
        p("arith.andi", "AndOfExtUI", 3, and_of_extui),
        p("arith.andi", "AndOfExtSI", 3, and_of_extsi),
        p("arith.ori", "OrOfExtUI", 3, and_of_extui),
        p("arith.ori", "OrOfExtSI", 3, and_of_extsi),
        p(
            "arith.index_cast",
            "IndexCastOfIndexCast",
            2,
            index_cast_of_index_cast,
        ),
        p(
            "arith.index_cast",
            "IndexCastOfExtSI",
            2,
            index_cast_of_extsi,
        ),
        p("arith.bitcast", "BitcastOfBitcast", 2, bitcast_of_bitcast),
    ] {
        set.add(pat);
    }
    if edition15 {
        for pat in [
            p(
                "arith.mulf",
                "MulFOfNegF",
                3,
                binary_of_negf as mlir_async_rewrite::RewriteFn,
            ),
            p("arith.divf", "DivFOfNegF", 3, binary_of_negf),
            p("arith.cmpi", "CmpIExtSI", 3, cmpi_of_extsi),
            p("arith.cmpi", "CmpIExtUI", 3, cmpi_of_extui),
        ] {
            set.add(pat);
        }
    }
}

// ----- scf (LLVM 14's `SCF.cpp`, 15's `SCF/IR/SCF.cpp`) -----

/// The last block of a region (`Region::back`), if it has one.
fn back_block(ctx: &Context, r: Region) -> Option<Block> {
    ctx.last_block(r)
}

/// The `then` and `else` regions of an `scf.if`.
fn if_regions(ctx: &Context, op: Op) -> (Region, Region) {
    let rs = ctx.regions_of(op);
    (rs[0], rs[1])
}

/// The region holding `v`'s definition (`Value::getParentRegion`).
fn value_region(ctx: &Context, v: Value) -> Option<Region> {
    ctx.parent_region(ctx.value_block(v)?)
}

/// Whether `op` is nested, at any depth, in region `r`
/// (`r.isAncestor(op->getParentRegion())`).
fn region_holds(ctx: &Context, r: Region, op: Op) -> bool {
    let mut cur = op;
    loop {
        let Some(region) = ctx.parent_block(cur).and_then(|b| ctx.parent_region(b)) else {
            return false;
        };
        if region == r {
            return true;
        }
        match ctx.region_parent(region) {
            Some(p) => cur = p,
            None => return false,
        }
    }
}

/// Whether `v` is defined in region `r` or in a region nested in it.
fn value_in_region(ctx: &Context, r: Region, v: Value) -> bool {
    match ctx.value_def(v) {
        mlir_async_ir::ValueDef::Result(d, _) => region_holds(ctx, r, d),
        mlir_async_ir::ValueDef::BlockArg(b, _) => {
            let mut reg = ctx.parent_region(b);
            while let Some(x) = reg {
                if x == r {
                    return true;
                }
                reg = ctx
                    .region_parent(x)
                    .and_then(|p| ctx.parent_block(p))
                    .and_then(|pb| ctx.parent_region(pb));
            }
            false
        }
    }
}

/// A block holding only its terminator (`hasSingleElement`).
fn only_terminator(ctx: &Context, b: Block) -> bool {
    ctx.first_op(b).is_some() && ctx.first_op(b) == ctx.last_op(b)
}

/// An `scf.yield` of `vals`, built in place without telling the driver:
/// the terminator a builder adds on its own (`ensureTerminator`).
fn silent_yield(ctx: &mut Context, b: Block, loc: mlir_async_ir::Location, vals: &[Value]) {
    let name = ctx.sym("scf.yield");
    let y = ctx.create_op_from(name, loc, vals, &[], &[], &[], &[]);
    ctx.append_op(b, y);
}

/// A new block at the end of `r`.
fn new_block(ctx: &mut Context, r: Region, args: &[mlir_async_ir::Type]) -> Block {
    let b = ctx.create_block(args);
    ctx.append_block(r, b);
    b
}

/// How a builder fills a region of a new `scf.if`.
#[derive(Clone, Copy, PartialEq)]
enum Body {
    /// No block.
    None,
    /// An empty block.
    Empty,
    /// A block with an empty `scf.yield`.
    Yield,
}

/// Creates an `scf.if` at the insertion point (announcing only the `if`,
/// as a builder does).
fn create_if(
    rw: &mut Rewriter,
    loc: mlir_async_ir::Location,
    types: &[mlir_async_ir::Type],
    cond: Value,
    then: Body,
    els: Body,
) -> Result<Op, RewriteError> {
    let (tr, er) = (rw.ctx.create_region(), rw.ctx.create_region());
    for (r, body) in [(tr, then), (er, els)] {
        if body != Body::None {
            let b = new_block(rw.ctx, r, &[]);
            if body == Body::Yield {
                silent_yield(rw.ctx, b, loc, &[]);
            }
        }
    }
    let mut st = OperationState::new(rw.ctx.sym("scf.if"), loc);
    st.operands = vec![cond];
    st.result_types = types.to_vec();
    st.regions = vec![tr, er];
    rw.create(st)
}

/// `IfOp::build(types, cond, withElse)`: a `then` block (and an `else`
/// one), each with an `scf.yield` when there are no results.
fn build_if(
    rw: &mut Rewriter,
    loc: mlir_async_ir::Location,
    types: &[mlir_async_ir::Type],
    cond: Value,
    with_else: bool,
) -> Result<Op, RewriteError> {
    let body = if types.is_empty() {
        Body::Yield
    } else {
        Body::Empty
    };
    create_if(
        rw,
        loc,
        types,
        cond,
        body,
        if with_else { body } else { Body::None },
    )
}

fn create_yield(
    rw: &mut Rewriter,
    loc: mlir_async_ir::Location,
    vals: &[Value],
) -> Result<Op, RewriteError> {
    let name = rw.ctx.sym("scf.yield");
    rw.create_op(name, loc, vals, &[], &[])
}

fn create_select(
    rw: &mut Rewriter,
    loc: mlir_async_ir::Location,
    cond: Value,
    a: Value,
    b: Value,
) -> Result<Value, RewriteError> {
    let t = rw.ctx.value_type(a);
    let name = rw.ctx.sym("arith.select");
    let s = rw.create_op(name, loc, &[cond, a, b], &[t], &[])?;
    Ok(rw.ctx.result(s, 0))
}

/// MLIR's `replaceOpWithRegion`: the region's only block is moved before
/// `op` (its arguments replaced by `args`), and `op` is replaced by what
/// the block's terminator yielded.
fn replace_op_with_region(rw: &mut Rewriter, op: Op, r: Region, args: &[Value]) -> R {
    let Some(b) = rw.ctx.entry_block(r) else {
        return Ok(false);
    };
    let Some(term) = rw.ctx.last_op(b) else {
        return Ok(false);
    };
    rw.inline_block_before(b, op, args);
    // Read after the merge: a yielded block argument is now its value.
    let results = rw.ctx.operands(term).to_vec();
    rw.replace_op(op, &results)?;
    rw.erase_op(term)?;
    Ok(true)
}

/// The `then` and `else` yields of an `scf.if` that has both, each
/// yielding one value per result; other shapes (which the verifier lets
/// through in generic form) are left alone.
fn if_yields(ctx: &Context, op: Op) -> Option<(Op, Op)> {
    let (t, e) = if_regions(ctx, op);
    let ty = ctx.last_op(back_block(ctx, t)?)?;
    let ey = ctx.last_op(back_block(ctx, e)?)?;
    let n = ctx.results(op).len();
    (ctx.operands(ty).len() == n && ctx.operands(ey).len() == n).then_some((ty, ey))
}

/// Whether each branch of an `scf.if` there is yields one value per
/// result.
fn yields_match(ctx: &Context, op: Op) -> bool {
    let n = ctx.results(op).len();
    let (t, e) = if_regions(ctx, op);
    [t, e].into_iter().all(|r| {
        back_block(ctx, r)
            .and_then(|b| ctx.last_op(b))
            .is_none_or(|y| ctx.operands(y).len() == n)
    })
}

/// The `true` or `false` of an `arith.constant` (`BoolAttr`).
fn bool_const(ctx: &Context, v: Value) -> Option<bool> {
    let d = def_of(ctx, v, "arith.constant")?;
    match ctx.attr_kind(ctx.get_attr(d, "value")?) {
        AttrKind::Bool(b) => Some(*b),
        AttrKind::Integer(i, _) => Some(*i != 0),
        _ => None,
    }
}

/// `xori(x, true)`: the `x` it negates (`m_One` on an `i1`).
fn negation_of(ctx: &Context, v: Value) -> Option<Value> {
    let x = def_of(ctx, v, "arith.xori")?;
    let [l, r] = ctx.operands(x)[..] else {
        return None;
    };
    (const_int(ctx, r) == Some(1)).then_some(l)
}

/// `CombineIfs` of LLVM 14: an `scf.if` right after one on the same
/// condition joins it, unless it uses the first one's results.
fn if_combine14(op: Op, rw: &mut Rewriter) -> R {
    let Some(prev) = rw.ctx.prev_op(op) else {
        return Ok(false);
    };
    if rw.ctx.name(prev) != "scf.if" || rw.ctx.operand(prev, 0) != rw.ctx.operand(op, 0) {
        return Ok(false);
    }
    let used_inside = rw
        .ctx
        .results(prev)
        .iter()
        .any(|&r| rw.ctx.users(r).any(|u| rw.ctx.is_ancestor(op, u)));
    if used_inside {
        return Ok(false);
    }
    let cond = rw.ctx.operand(op, 0);
    combine_ifs(op, prev, rw, cond, Some(0), Some(1))
}

/// `CombineIfs` of LLVM 15: also when one condition is the other's
/// negation (the second `if`'s branches swap); uses of the first `if`'s
/// results in the second become the values the first yielded.
fn if_combine15(op: Op, rw: &mut Rewriter) -> R {
    let Some(prev) = rw.ctx.prev_op(op) else {
        return Ok(false);
    };
    if rw.ctx.name(prev) != "scf.if" {
        return Ok(false);
    }
    let (pc, nc) = (rw.ctx.operand(prev, 0), rw.ctx.operand(op, 0));
    let (_, next_else_r) = if_regions(rw.ctx, op);
    let has_else = !rw.ctx.region_is_empty(next_else_r);
    // Which of the second `if`'s regions (0: then, 1: else) runs when the
    // first's condition holds, and which when it does not.
    let (mut then_of, mut else_of) = (None, None);
    if nc == pc {
        then_of = Some(0);
        else_of = has_else.then_some(1);
    }
    if negation_of(rw.ctx, nc) == Some(pc) {
        else_of = Some(0);
        then_of = has_else.then_some(1);
    }
    if negation_of(rw.ctx, pc) == Some(nc) {
        else_of = Some(0);
        then_of = has_else.then_some(1);
    }
    if then_of.is_none() && else_of.is_none() {
        return Ok(false);
    }
    let Some((then_yield, else_yield)) = if_yields(rw.ctx, prev) else {
        // Without an `else`, the first `if` has no results to replace.
        return combine_ifs(op, prev, rw, pc, then_of, else_of);
    };
    let regions = rw.ctx.regions_of(op).to_vec();
    let results = rw.ctx.results(prev).to_vec();
    for (k, &r) in results.iter().enumerate() {
        let (tv, ev) = (rw.ctx.operand(then_yield, k), rw.ctx.operand(else_yield, k));
        let uses: Vec<_> = rw.ctx.uses(r).iter().rev().copied().collect();
        for u in uses {
            let with = if then_of.is_some_and(|i| region_holds(rw.ctx, regions[i], u.op)) {
                tv
            } else if else_of.is_some_and(|i| region_holds(rw.ctx, regions[i], u.op)) {
                ev
            } else {
                continue;
            };
            rw.modify_op_in_place(u.op, |ctx| ctx.set_operand(u.op, u.index as usize, with));
        }
    }
    combine_ifs(op, prev, rw, pc, then_of, else_of)
}

/// Moves `prev`'s and `next`'s branches into one `scf.if` on `cond`:
/// `next`'s region `then_of` after `prev`'s `then`, its region `else_of`
/// after `prev`'s `else`.
fn combine_ifs(
    next: Op,
    prev: Op,
    rw: &mut Rewriter,
    cond: Value,
    then_of: Option<usize>,
    else_of: Option<usize>,
) -> R {
    let loc = rw.ctx.op_loc(next);
    let mut types: Vec<_> = rw
        .ctx
        .results(prev)
        .iter()
        .map(|&r| rw.ctx.value_type(r))
        .collect();
    types.extend(rw.ctx.results(next).iter().map(|&r| rw.ctx.value_type(r)));
    let combined = build_if(rw, loc, &types, cond, false)?;
    let (ct, ce) = if_regions(rw.ctx, combined);
    if let Some(b) = back_block(rw.ctx, ct) {
        rw.erase_block(b)?;
    }
    let (pt, pe) = if_regions(rw.ctx, prev);
    let next_regions = rw.ctx.regions_of(next).to_vec();
    rw.ctx.take_body(ct, pt);
    if let Some(i) = then_of {
        if let (Some(dst), Some(src)) =
            (back_block(rw.ctx, ct), back_block(rw.ctx, next_regions[i]))
        {
            join_blocks(rw, src, dst)?;
        }
    }
    rw.ctx.take_body(ce, pe);
    if let Some(i) = else_of {
        match back_block(rw.ctx, ce) {
            None => rw.ctx.take_body(ce, next_regions[i]),
            Some(dst) => {
                if let Some(src) = back_block(rw.ctx, next_regions[i]) {
                    join_blocks(rw, src, dst)?;
                }
            }
        }
    }
    let all = rw.ctx.results(combined).to_vec();
    let np = rw.ctx.results(prev).len();
    rw.replace_op(prev, &all[..np])?;
    rw.replace_op(next, &all[np..])?;
    Ok(true)
}

/// Appends `src` to `dst`, both ending in `scf.yield`, with one yield of
/// both lists.
fn join_blocks(rw: &mut Rewriter, src: Block, dst: Block) -> Result<(), RewriteError> {
    let (Some(y1), Some(y2)) = (rw.ctx.last_op(dst), rw.ctx.last_op(src)) else {
        return Ok(());
    };
    rw.merge_blocks(src, dst, &[]);
    rw.set_insertion_point_to_end(dst);
    let mut vals = rw.ctx.operands(y1).to_vec();
    vals.extend_from_slice(rw.ctx.operands(y2));
    let loc = rw.ctx.op_loc(y2);
    create_yield(rw, loc, &vals)?;
    rw.erase_op(y1)?;
    rw.erase_op(y2)?;
    Ok(())
}

/// The `scf.if` that is all of `op`'s `then` block but its terminator.
fn nested_if(ctx: &Context, op: Op) -> Option<Op> {
    let (t, _) = if_regions(ctx, op);
    let b = back_block(ctx, t)?;
    let first = ctx.first_op(b)?;
    if ctx.next_op(first) != ctx.last_op(b) || ctx.last_op(b) == Some(first) {
        return None;
    }
    (ctx.name(first) == "scf.if").then_some(first)
}

/// `CombineNestedIfs` of LLVM 14: `if a { if b { .. } }`, neither with
/// results nor `else`, becomes `if (a and b) { .. }`.
fn if_combine_nested14(op: Op, rw: &mut Rewriter) -> R {
    let has_else = |ctx: &Context, o: Op| !ctx.region_is_empty(if_regions(ctx, o).1);
    if !rw.ctx.results(op).is_empty() || has_else(rw.ctx, op) {
        return Ok(false);
    }
    let Some(inner) = nested_if(rw.ctx, op) else {
        return Ok(false);
    };
    if !rw.ctx.results(inner).is_empty() || has_else(rw.ctx, inner) {
        return Ok(false);
    }
    let loc = rw.ctx.op_loc(op);
    let andi = rw.ctx.sym("arith.andi");
    let (a, b) = (rw.ctx.operand(op, 0), rw.ctx.operand(inner, 0));
    let i1 = rw.ctx.value_type(a);
    let c = rw.create_op(andi, loc, &[a, b], &[i1], &[])?;
    let c = rw.ctx.result(c, 0);
    let new = build_if(rw, loc, &[], c, false)?;
    let nb = back_block(rw.ctx, if_regions(rw.ctx, new).0).expect("built with a block");
    if let Some(t) = rw.ctx.last_op(nb) {
        rw.erase_op(t)?;
    }
    let ib = back_block(rw.ctx, if_regions(rw.ctx, inner).0).expect("parsed with a block");
    rw.merge_blocks(ib, nb, &[]);
    rw.erase_op(op)?;
    Ok(true)
}

/// `CombineNestedIfs` of LLVM 15: also with results and `else` branches
/// that only yield, as long as what each branch yields stays the same.
fn if_combine_nested15(op: Op, rw: &mut Rewriter) -> R {
    let Some(inner) = nested_if(rw.ctx, op) else {
        return Ok(false);
    };
    if !yields_match(rw.ctx, op) || !yields_match(rw.ctx, inner) {
        return Ok(false);
    }
    let else_block = |ctx: &Context, o: Op| back_block(ctx, if_regions(ctx, o).1);
    if else_block(rw.ctx, op).is_some_and(|b| !only_terminator(rw.ctx, b)) {
        return Ok(false);
    }
    if else_block(rw.ctx, inner).is_some_and(|b| !only_terminator(rw.ctx, b)) {
        return Ok(false);
    }
    let (ot, _) = if_regions(rw.ctx, op);
    let yield_of = |ctx: &Context, b: Option<Block>| b.and_then(|b| ctx.last_op(b));
    let outer_then_yield =
        yield_of(rw.ctx, back_block(rw.ctx, ot)).expect("then block has a terminator");
    let mut then_vals = rw.ctx.operands(outer_then_yield).to_vec();
    let else_vals = yield_of(rw.ctx, else_block(rw.ctx, op))
        .map(|y| rw.ctx.operands(y).to_vec())
        .unwrap_or_default();
    let inner_then = yield_of(rw.ctx, back_block(rw.ctx, if_regions(rw.ctx, inner).0));
    let inner_else = yield_of(rw.ctx, else_block(rw.ctx, inner));
    let mut to_select = vec![];
    for (k, v) in then_vals.clone().into_iter().enumerate() {
        if rw.ctx.defining_op(v) == Some(inner) {
            let mlir_async_ir::ValueDef::Result(_, n) = rw.ctx.value_def(v) else {
                return Ok(false);
            };
            let (Some(it), Some(ie)) = (inner_then, inner_else) else {
                return Ok(false);
            };
            if Some(&rw.ctx.operand(ie, n as usize)) != else_vals.get(k) {
                return Ok(false);
            }
            then_vals[k] = rw.ctx.operand(it, n as usize);
            continue;
        }
        if value_region(rw.ctx, v) == Some(ot) {
            return Ok(false);
        }
        to_select.push(k);
    }
    let loc = rw.ctx.op_loc(op);
    let andi = rw.ctx.sym("arith.andi");
    let (a, b) = (rw.ctx.operand(op, 0), rw.ctx.operand(inner, 0));
    let i1 = rw.ctx.value_type(a);
    let c = rw.create_op(andi, loc, &[a, b], &[i1], &[])?;
    let c = rw.ctx.result(c, 0);
    let types: Vec<_> = rw
        .ctx
        .results(op)
        .iter()
        .map(|&r| rw.ctx.value_type(r))
        .collect();
    let new = build_if(rw, loc, &types, c, false)?;
    let mut results = rw.ctx.results(new).to_vec();
    rw.set_insertion_point(new);
    for &k in &to_select {
        results[k] = create_select(rw, loc, a, then_vals[k], else_vals[k])?;
    }
    let (nt, ne) = if_regions(rw.ctx, new);
    let nb = back_block(rw.ctx, nt).expect("built with a block");
    // With results, the new block has no terminator (LLVM 15 then erases
    // what is not there, to no effect).
    if let Some(t) = rw.ctx.terminator(nb) {
        rw.erase_op(t)?;
    }
    let ib = back_block(rw.ctx, if_regions(rw.ctx, inner).0).expect("parsed with a block");
    rw.merge_blocks(ib, nb, &[]);
    rw.set_insertion_point_to_end(nb);
    if let Some(old) = rw.ctx.last_op(nb) {
        create_yield(rw, loc, &then_vals)?;
        rw.replace_op(old, &[])?;
    }
    if !else_vals.is_empty() {
        rw.create_block(ne, None, &[]);
        create_yield(rw, loc, &else_vals)?;
    }
    rw.replace_op(op, &results)?;
    Ok(true)
}

/// `ConditionPropagation`: in the `then` region the condition is `true`,
/// in the `else` region `false`.
fn if_condition_propagation(op: Op, rw: &mut Rewriter) -> R {
    let cond = rw.ctx.operand(op, 0);
    if def_of(rw.ctx, cond, "arith.constant").is_some() {
        return Ok(false);
    }
    let (t, e) = if_regions(rw.ctx, op);
    let (mut yes, mut no) = (None, None);
    let mut changed = false;
    let uses: Vec<_> = rw.ctx.uses(cond).iter().rev().copied().collect();
    for u in uses {
        let value = if region_holds(rw.ctx, t, u.op) {
            true
        } else if region_holds(rw.ctx, e, u.op) {
            false
        } else {
            continue;
        };
        changed = true;
        let slot = if value { &mut yes } else { &mut no };
        let k = match *slot {
            Some(k) => k,
            None => {
                let k = bool_constant(rw, op, value)?;
                if value {
                    yes = Some(k);
                } else {
                    no = Some(k);
                }
                k
            }
        };
        rw.modify_op_in_place(u.op, |ctx| ctx.set_operand(u.op, u.index as usize, k));
    }
    Ok(changed)
}

/// `ConvertTrivialIfToSelect` of LLVM 14: an `if` whose branches only
/// yield becomes `select`s.
fn if_to_select14(op: Op, rw: &mut Rewriter) -> R {
    if rw.ctx.results(op).is_empty() {
        return Ok(false);
    }
    let (t, e) = if_regions(rw.ctx, op);
    let (Some(tb), Some(eb)) = (rw.ctx.entry_block(t), rw.ctx.entry_block(e)) else {
        return Ok(false);
    };
    if !only_terminator(rw.ctx, tb) || !only_terminator(rw.ctx, eb) {
        return Ok(false);
    }
    let cond = rw.ctx.operand(op, 0);
    let Some((ty, ey)) = if_yields(rw.ctx, op) else {
        return Ok(false);
    };
    let pairs: Vec<(Value, Value)> = rw
        .ctx
        .operands(ty)
        .iter()
        .copied()
        .zip(rw.ctx.operands(ey).iter().copied())
        .collect();
    let loc = rw.ctx.op_loc(op);
    let mut results = vec![];
    for (a, b) in pairs {
        results.push(if a == b {
            a
        } else {
            create_select(rw, loc, cond, a, b)?
        });
    }
    rw.replace_op(op, &results)?;
    Ok(true)
}

/// `ConvertTrivialIfToSelect` of LLVM 15: results whose yielded values
/// are both defined outside the `if` become `select`s; the `if` keeps the
/// others.
fn if_to_select15(op: Op, rw: &mut Rewriter) -> R {
    let n = rw.ctx.results(op).len();
    if n == 0 {
        return Ok(false);
    }
    let (t, e) = if_regions(rw.ctx, op);
    let (Some(tb), Some(eb)) = (back_block(rw.ctx, t), back_block(rw.ctx, e)) else {
        return Ok(false);
    };
    let Some((ty, ey)) = if_yields(rw.ctx, op) else {
        return Ok(false);
    };
    let pairs: Vec<(Value, Value)> = rw
        .ctx
        .operands(ty)
        .iter()
        .copied()
        .zip(rw.ctx.operands(ey).iter().copied())
        .collect();
    let inside = |ctx: &Context, a: Value, b: Value| {
        value_region(ctx, a) == Some(t) || value_region(ctx, b) == Some(e)
    };
    // Decided before the branches move to the new `if`.
    let stays: Vec<bool> = pairs.iter().map(|&(a, b)| inside(rw.ctx, a, b)).collect();
    let kept: Vec<_> = pairs
        .iter()
        .zip(&stays)
        .filter(|(_, &s)| s)
        .map(|(&(a, _), _)| rw.ctx.value_type(a))
        .collect();
    if kept.len() == n {
        return Ok(false);
    }
    let loc = rw.ctx.op_loc(op);
    let cond = rw.ctx.operand(op, 0);
    let new = build_if(rw, loc, &kept, cond, false)?;
    let (nt, ne) = if_regions(rw.ctx, new);
    if let Some(b) = back_block(rw.ctx, nt) {
        rw.erase_block(b)?;
    }
    rw.ctx.take_body(nt, t);
    rw.ctx.take_body(ne, e);
    let mut results = vec![];
    let (mut tv, mut ev) = (vec![], vec![]);
    rw.set_insertion_point(new);
    for ((a, b), stay) in pairs.into_iter().zip(stays) {
        if stay {
            results.push(rw.ctx.result(new, tv.len()));
            tv.push(a);
            ev.push(b);
        } else if a == b {
            results.push(a);
        } else {
            results.push(create_select(rw, loc, cond, a, b)?);
        }
    }
    for (b, vals, old) in [(tb, tv, ty), (eb, ev, ey)] {
        rw.set_insertion_point_to_end(b);
        let yl = rw.ctx.op_loc(old);
        create_yield(rw, yl, &vals)?;
        rw.replace_op(old, &[])?;
    }
    rw.replace_op(op, &results)?;
    Ok(true)
}

/// `RemoveEmptyElseBranch`: an `else` that only yields, on an `if`
/// without results, goes.
fn if_remove_empty_else(op: Op, rw: &mut Rewriter) -> R {
    if !rw.ctx.results(op).is_empty() {
        return Ok(false);
    }
    let (t, e) = if_regions(rw.ctx, op);
    let Some(eb) = back_block(rw.ctx, e) else {
        return Ok(false);
    };
    if !only_terminator(rw.ctx, eb) {
        return Ok(false);
    }
    let loc = rw.ctx.op_loc(op);
    let cond = rw.ctx.operand(op, 0);
    let new = create_if(rw, loc, &[], cond, Body::None, Body::None)?;
    let attrs = rw.ctx.attrs(op).to_vec();
    for (k, v) in attrs {
        rw.ctx.set_attr_sym(new, k, v);
    }
    let (nt, _) = if_regions(rw.ctx, new);
    rw.ctx.take_body(nt, t);
    rw.erase_op(op)?;
    Ok(true)
}

/// `RemoveStaticCondition`: an `if` on a constant is the branch taken.
fn if_static_condition(op: Op, rw: &mut Rewriter) -> R {
    let Some(c) = bool_const(rw.ctx, rw.ctx.operand(op, 0)) else {
        return Ok(false);
    };
    let (t, e) = if_regions(rw.ctx, op);
    if c {
        replace_op_with_region(rw, op, t, &[])
    } else if !rw.ctx.region_is_empty(e) {
        replace_op_with_region(rw, op, e, &[])
    } else {
        rw.erase_op(op)?;
        Ok(true)
    }
}

/// `RemoveUnusedResults`: an `if` with unused results becomes one
/// without them.
fn if_remove_unused_results(op: Op, rw: &mut Rewriter) -> R {
    if !yields_match(rw.ctx, op) {
        return Ok(false);
    }
    let results = rw.ctx.results(op).to_vec();
    let used: Vec<usize> = (0..results.len())
        .filter(|&k| rw.ctx.has_uses(results[k]))
        .collect();
    if used.len() == results.len() {
        return Ok(false);
    }
    let types: Vec<_> = used
        .iter()
        .map(|&k| rw.ctx.value_type(results[k]))
        .collect();
    let loc = rw.ctx.op_loc(op);
    let cond = rw.ctx.operand(op, 0);
    let new = create_if(rw, loc, &types, cond, Body::Empty, Body::Empty)?;
    let (ot, oe) = if_regions(rw.ctx, op);
    let (nt, ne) = if_regions(rw.ctx, new);
    for (src, dst) in [(ot, nt), (oe, ne)] {
        let (Some(s), Some(d)) = (rw.ctx.entry_block(src), rw.ctx.entry_block(dst)) else {
            continue;
        };
        rw.merge_blocks(s, d, &[]);
        if let Some(y) = rw.ctx.last_op(d) {
            let vals: Vec<Value> = used.iter().map(|&k| rw.ctx.operand(y, k)).collect();
            rw.modify_op_in_place(y, |ctx| ctx.set_operands(y, vals));
        }
    }
    let mut rep = results.clone();
    for (i, &k) in used.iter().enumerate() {
        rep[k] = rw.ctx.result(new, i);
    }
    rw.replace_op(op, &rep)?;
    Ok(true)
}

/// `ReplaceIfYieldWithConditionOrValue`: a result both branches yield
/// alike is that value; one yielding `true`/`false` is the condition (or
/// its negation). Uses are replaced directly, as upstream does (the
/// driver is not told).
fn if_yield_condition_or_value(op: Op, rw: &mut Rewriter) -> R {
    let results = rw.ctx.results(op).to_vec();
    if results.is_empty() {
        return Ok(false);
    }
    let Some((ty, ey)) = if_yields(rw.ctx, op) else {
        return Ok(false);
    };
    rw.set_insertion_point(op);
    let loc = rw.ctx.op_loc(op);
    let cond = rw.ctx.operand(op, 0);
    let mut changed = false;
    for (k, &r) in results.iter().enumerate() {
        let (a, b) = (rw.ctx.operand(ty, k), rw.ctx.operand(ey, k));
        if a == b {
            if rw.ctx.has_uses(r) {
                rw.ctx.replace_all_uses_with(r, a);
                changed = true;
            }
            continue;
        }
        let is_i1 = matches!(
            rw.ctx.kind(rw.ctx.value_type(a)),
            mlir_async_ir::TypeKind::Integer(1, _)
        );
        if def_of(rw.ctx, a, "arith.constant").is_none() || !is_i1 {
            continue;
        }
        let (Some(x), Some(y)) = (bool_const(rw.ctx, a), bool_const(rw.ctx, b)) else {
            continue;
        };
        if !x && y && rw.ctx.has_uses(r) {
            let one = bool_constant(rw, op, true)?;
            let xori = rw.ctx.sym("arith.xori");
            let i1 = rw.ctx.value_type(cond);
            let not = rw.create_op(xori, loc, &[cond, one], &[i1], &[])?;
            let not = rw.ctx.result(not, 0);
            rw.ctx.replace_all_uses_with(r, not);
            changed = true;
        }
        if x && !y && rw.ctx.has_uses(r) {
            rw.ctx.replace_all_uses_with(r, cond);
            changed = true;
        }
    }
    Ok(changed)
}

/// The integer value of an `arith.constant` as a 64-bit index.
fn index_const(ctx: &Context, v: Value) -> Option<i64> {
    let d = def_of(ctx, v, "arith.constant")?;
    match ctx.attr_kind(ctx.get_attr(d, "value")?) {
        AttrKind::Integer(i, _) => Some(*i as i64),
        _ => None,
    }
}

/// `ForOpIterArgsFolder`: loop-carried values the loop only passes on
/// (yielded as they came, or unused inside and either yielded from their
/// initial value or unused outside) become the initial values.
fn for_iter_args_folder(op: Op, rw: &mut Rewriter) -> R {
    let Some(old) = rw.ctx.entry_block(rw.ctx.regions_of(op)[0]) else {
        return Ok(false);
    };
    let Some(y) = rw.ctx.last_op(old) else {
        return Ok(false);
    };
    let ops = rw.ctx.operands(op).to_vec();
    let Some(inits) = ops.get(3..) else {
        return Ok(false);
    };
    let Some(args) = rw.ctx.block_args(old).get(1..).map(<[Value]>::to_vec) else {
        return Ok(false);
    };
    let results = rw.ctx.results(op).to_vec();
    let yields = rw.ctx.operands(y).to_vec();
    // One argument, result and yielded value per initial value (generic
    // forms the verifier lets through are left alone).
    if [args.len(), results.len(), yields.len()] != [inits.len(); 3] {
        return Ok(false);
    }
    let mut keep = vec![];
    for k in 0..inits.len() {
        let (init, arg, res, yv) = (inits[k], args[k], results[k], yields[k]);
        let unused = !rw.ctx.has_uses(arg);
        keep.push(!(arg == yv || (unused && (init == yv || !rw.ctx.has_uses(res)))));
    }
    if keep.iter().all(|&k| k) {
        return Ok(false);
    }
    let new_inits: Vec<Value> = (0..inits.len())
        .filter(|&k| keep[k])
        .map(|k| inits[k])
        .collect();
    let loc = rw.ctx.op_loc(op);
    let types: Vec<_> = new_inits.iter().map(|&v| rw.ctx.value_type(v)).collect();
    let r = rw.ctx.create_region();
    let mut arg_types = vec![rw.ctx.index_type()];
    arg_types.extend_from_slice(&types);
    let nb = new_block(rw.ctx, r, &arg_types);
    if new_inits.is_empty() {
        silent_yield(rw.ctx, nb, loc, &[]);
    }
    let mut st = OperationState::new(rw.ctx.sym("scf.for"), loc);
    st.operands = ops[..3].to_vec();
    st.operands.extend_from_slice(&new_inits);
    st.result_types = types;
    st.regions = vec![r];
    let new = rw.create(st)?;
    let new_args = rw.ctx.block_args(nb).to_vec();
    let mut transfer = vec![new_args[0]];
    let mut replacement = vec![];
    let mut kept = 0;
    for k in 0..inits.len() {
        if keep[k] {
            transfer.push(new_args[1 + kept]);
            replacement.push(rw.ctx.result(new, kept));
            kept += 1;
        } else {
            transfer.push(inits[k]);
            replacement.push(inits[k]);
        }
    }
    if new_inits.is_empty() {
        let ny = rw.ctx.last_op(nb).expect("built with a yield");
        rw.inline_block_before(old, ny, &transfer);
        if let Some(merged) = rw.ctx.prev_op(ny) {
            rw.erase_op(merged)?;
        }
        rw.replace_op(op, &replacement)?;
        return Ok(true);
    }
    rw.merge_blocks(old, nb, &transfer);
    let merged = rw.ctx.last_op(nb).expect("merged a yield");
    rw.set_insertion_point(merged);
    let vals: Vec<Value> = (0..keep.len())
        .filter(|&k| keep[k])
        .map(|k| rw.ctx.operand(merged, k))
        .collect();
    let yl = rw.ctx.op_loc(merged);
    create_yield(rw, yl, &vals)?;
    rw.erase_op(merged)?;
    rw.replace_op(op, &replacement)?;
    Ok(true)
}

/// `SimplifyTrivialLoops`: a loop known not to run is its initial
/// values, one known to run once is its body; LLVM 15 also replaces a
/// loop whose body only yields values from outside by them.
fn for_trivial(op: Op, rw: &mut Rewriter, edition15: bool) -> R {
    let ops = rw.ctx.operands(op).to_vec();
    let [lb, ub, step, ref inits @ ..] = ops[..] else {
        return Ok(false);
    };
    let inits = inits.to_vec();
    if inits.len() != rw.ctx.results(op).len() {
        return Ok(false);
    }
    if lb == ub {
        rw.replace_op(op, &inits)?;
        return Ok(true);
    }
    let (Some(l), Some(u)) = (index_const(rw.ctx, lb), index_const(rw.ctx, ub)) else {
        return Ok(false);
    };
    if l >= u {
        rw.replace_op(op, &inits)?;
        return Ok(true);
    }
    let Some(s) = index_const(rw.ctx, step) else {
        return Ok(false);
    };
    let body = rw.ctx.regions_of(op)[0];
    if l.wrapping_add(s) >= u {
        let mut args = vec![lb];
        args.extend_from_slice(&inits);
        return replace_op_with_region(rw, op, body, &args);
    }
    if !edition15 {
        return Ok(false);
    }
    let Some(b) = rw.ctx.entry_block(body) else {
        return Ok(false);
    };
    if !only_terminator(rw.ctx, b) {
        return Ok(false);
    }
    let Some(y) = rw.ctx.last_op(b) else {
        return Ok(false);
    };
    let vals = rw.ctx.operands(y).to_vec();
    if vals.len() != inits.len() {
        return Ok(false);
    }
    if vals.iter().any(|&v| value_in_region(rw.ctx, body, v)) {
        return Ok(false);
    }
    rw.replace_op(op, &vals)?;
    Ok(true)
}
fn for_trivial14(op: Op, rw: &mut Rewriter) -> R {
    for_trivial(op, rw, false)
}
fn for_trivial15(op: Op, rw: &mut Rewriter) -> R {
    for_trivial(op, rw, true)
}

/// The `scf` patterns, in the order LLVM 14 and 15 add them (all of
/// benefit 1).
fn scf_patterns(set: &mut PatternSet, edition15: bool) {
    let list: [(&'static str, &'static str, mlir_async_rewrite::RewriteFn); 10] = [
        ("scf.for", "ForOpIterArgsFolder", for_iter_args_folder),
        (
            "scf.for",
            "SimplifyTrivialLoops",
            if edition15 {
                for_trivial15
            } else {
                for_trivial14
            },
        ),
        (
            "scf.if",
            "CombineIfs",
            if edition15 {
                if_combine15
            } else {
                if_combine14
            },
        ),
        (
            "scf.if",
            "CombineNestedIfs",
            if edition15 {
                if_combine_nested15
            } else {
                if_combine_nested14
            },
        ),
        ("scf.if", "ConditionPropagation", if_condition_propagation),
        (
            "scf.if",
            "ConvertTrivialIfToSelect",
            if edition15 {
                if_to_select15
            } else {
                if_to_select14
            },
        ),
        ("scf.if", "RemoveEmptyElseBranch", if_remove_empty_else),
        ("scf.if", "RemoveStaticCondition", if_static_condition),
        ("scf.if", "RemoveUnusedResults", if_remove_unused_results),
        (
            "scf.if",
            "ReplaceIfYieldWithConditionOrValue",
            if_yield_condition_or_value,
        ),
    ];
    for (root, name, f) in list {
        set.add(FnPattern::new(root, name, f));
    }
    // `scf.while`: LLVM 15 added the loop-invariant patterns and dropped
    // `WhileUnusedArg`.
    let whiles: &[(&'static str, mlir_async_rewrite::RewriteFn)] = if edition15 {
        &[
            (
                "RemoveLoopInvariantArgsFromBeforeBlock",
                while_invariant_args,
            ),
            ("RemoveLoopInvariantValueYielded", while_invariant_yielded),
            ("WhileConditionTruth", while_condition_truth),
            ("WhileCmpCond", while_cmp_cond),
            ("WhileUnusedResult", while_unused_result),
        ]
    } else {
        &[
            ("WhileConditionTruth", while_condition_truth),
            ("WhileUnusedResult", while_unused_result),
            ("WhileCmpCond", while_cmp_cond),
            ("WhileUnusedArg", while_unused_arg),
        ]
    };
    for &(name, f) in whiles {
        set.add(FnPattern::new("scf.while", name, f));
    }
}

// ----- scf.while -----

/// The parts of an `scf.while`: its `before` and `after` blocks, the
/// `scf.condition` ending the first and the `scf.yield` ending the second.
struct While {
    before: Block,
    after: Block,
    cond: Op,
    yield_: Op,
}

fn while_parts(ctx: &Context, op: Op) -> Option<While> {
    let rs = ctx.regions_of(op);
    let before = ctx.entry_block(*rs.first()?)?;
    let after = ctx.entry_block(*rs.get(1)?)?;
    Some(While {
        before,
        after,
        cond: ctx.last_op(before)?,
        yield_: ctx.last_op(after)?,
    })
}

/// `rewriter.create<WhileOp>(loc, types, inits)`: both regions empty.
fn create_while(
    rw: &mut Rewriter,
    loc: mlir_async_ir::Location,
    types: &[mlir_async_ir::Type],
    inits: &[Value],
) -> Result<Op, RewriteError> {
    let (b, a) = (rw.ctx.create_region(), rw.ctx.create_region());
    let mut st = OperationState::new(rw.ctx.sym("scf.while"), loc);
    st.operands = inits.to_vec();
    st.result_types = types.to_vec();
    st.regions = vec![b, a];
    rw.create(st)
}

/// A new block at the end of `r` taking `types` (at `locs`).
fn create_block_with_locs(
    rw: &mut Rewriter,
    r: Region,
    types: &[mlir_async_ir::Type],
    locs: &[mlir_async_ir::Location],
) -> Block {
    let b = rw.create_block(r, None, types);
    for (&a, &l) in rw.ctx.block_args(b).to_vec().iter().zip(locs) {
        rw.ctx.set_value_loc(a, l);
    }
    b
}

/// Replaces terminator `t` by a new op named `name` with `operands`.
fn replace_terminator(
    rw: &mut Rewriter,
    t: Op,
    name: &str,
    operands: Vec<Value>,
) -> Result<(), RewriteError> {
    let loc = rw.ctx.op_loc(t);
    let attrs = rw.ctx.attrs(t).to_vec();
    let mut st = OperationState::new(rw.ctx.sym(name), loc);
    st.operands = operands;
    st.attrs = attrs;
    let ip = rw.insertion_point();
    rw.replace_op_with_new(t, st)?;
    rw.restore_insertion_point(ip);
    Ok(())
}

/// `WhileConditionTruth`: where the condition is passed on to the `after`
/// block, it is `true` there.
fn while_condition_truth(op: Op, rw: &mut Rewriter) -> R {
    let Some(w) = while_parts(rw.ctx, op) else {
        return Ok(false);
    };
    let ops = rw.ctx.operands(w.cond).to_vec();
    let Some((&c, args)) = ops.split_first() else {
        return Ok(false);
    };
    let after_args = rw.ctx.block_args(w.after).to_vec();
    let mut truth = None;
    let mut replaced = false;
    for (&v, &a) in args.iter().zip(&after_args) {
        if v != c || !rw.ctx.has_uses(a) {
            continue;
        }
        let t = match truth {
            Some(t) => t,
            None => *truth.insert(bool_constant(rw, op, true)?),
        };
        rw.ctx.replace_all_uses_with(a, t);
        replaced = true;
    }
    Ok(replaced)
}

/// `WhileUnusedResult`: values passed to the `after` block that neither
/// it nor the loop's users read are dropped.
fn while_unused_result(op: Op, rw: &mut Rewriter) -> R {
    let Some(w) = while_parts(rw.ctx, op) else {
        return Ok(false);
    };
    let results = rw.ctx.results(op).to_vec();
    let after_args = rw.ctx.block_args(w.after).to_vec();
    let term_args = rw.ctx.operands(w.cond)[1..].to_vec();
    let mut kept = vec![];
    for (i, ((&r, &a), _)) in results.iter().zip(&after_args).zip(&term_args).enumerate() {
        if rw.ctx.has_uses(r) || rw.ctx.has_uses(a) {
            kept.push(i);
        }
    }
    if kept.len() == results.len().min(after_args.len()).min(term_args.len()) {
        return Ok(false);
    }
    let cond_val = rw.ctx.operand(w.cond, 0);
    let mut new_args = vec![cond_val];
    new_args.extend(kept.iter().map(|&i| term_args[i]));
    rw.set_insertion_point(w.cond);
    replace_terminator(rw, w.cond, "scf.condition", new_args)?;
    let types: Vec<_> = kept
        .iter()
        .map(|&i| rw.ctx.value_type(results[i]))
        .collect();
    let locs: Vec<_> = kept.iter().map(|&i| rw.ctx.value_loc(results[i])).collect();
    let loc = rw.ctx.op_loc(op);
    let inits = rw.ctx.operands(op).to_vec();
    rw.set_insertion_point(op);
    let new = create_while(rw, loc, &types, &inits)?;
    let nrs = rw.ctx.regions_of(new).to_vec();
    let new_after = create_block_with_locs(rw, nrs[1], &types, &locs);
    let mut new_results = results.clone();
    let mut new_after_args = after_args.clone();
    for (j, &i) in kept.iter().enumerate() {
        new_results[i] = rw.ctx.result(new, j);
        new_after_args[i] = rw.ctx.block_args(new_after)[j];
    }
    let old_before = rw.ctx.regions_of(op)[0];
    if let Some(first) = rw.ctx.entry_block(nrs[0]) {
        rw.inline_region_before(old_before, first);
    } else {
        rw.ctx.take_body(nrs[0], old_before);
    }
    rw.merge_blocks(w.after, new_after, &new_after_args);
    rw.replace_op(op, &new_results)?;
    Ok(true)
}

/// `WhileCmpCond`: in the `after` block, a compare equal to the loop's
/// condition (or its inverse) on the values passed on is known.
fn while_cmp_cond(op: Op, rw: &mut Rewriter) -> R {
    let Some(w) = while_parts(rw.ctx, op) else {
        return Ok(false);
    };
    let c = rw.ctx.operand(w.cond, 0);
    let Some(cmp) = rw.ctx.defining_op(c) else {
        return Ok(false);
    };
    if rw.ctx.name(cmp) != "arith.cmpi" {
        return Ok(false);
    }
    let pred = cmp_predicate(rw.ctx, cmp);
    let cmp_ops = rw.ctx.operands(cmp).to_vec();
    let args = rw.ctx.operands(w.cond)[1..].to_vec();
    let after_args = rw.ctx.block_args(w.after).to_vec();
    let mut changed = false;
    for (&v, &a) in args.iter().zip(&after_args) {
        for idx in 0..2 {
            if v != cmp_ops[idx] {
                continue;
            }
            // Newest use first, as MLIR walks a use-list.
            let users: Vec<Op> = rw.ctx.users(a).collect();
            for u in users {
                if rw.ctx.is_erased(u) || rw.ctx.name(u) != "arith.cmpi" {
                    continue;
                }
                if rw.ctx.operand(u, 1 - idx) != cmp_ops[1 - idx] {
                    continue;
                }
                let p2 = cmp_predicate(rw.ctx, u);
                let same = if p2 == pred {
                    true
                } else if Some(p2) == invert_predicate(pred) {
                    false
                } else {
                    continue;
                };
                rw.set_insertion_point(u);
                let k = bool_constant(rw, u, same)?;
                rw.replace_op(u, &[k])?;
                changed = true;
            }
        }
    }
    Ok(changed)
}

fn cmp_predicate(ctx: &Context, cmp: Op) -> i128 {
    match ctx.get_attr(cmp, "predicate").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer(p, _)) => *p,
        _ => -1,
    }
}

/// `arith::invertPredicate`: the predicate true exactly when `p` is false.
fn invert_predicate(p: i128) -> Option<i128> {
    // eq ne slt sle sgt sge ult ule ugt uge
    Some(match p {
        0 => 1,
        1 => 0,
        2 => 5,
        3 => 4,
        4 => 3,
        5 => 2,
        6 => 9,
        7 => 8,
        8 => 7,
        9 => 6,
        _ => return None,
    })
}

/// `WhileUnusedArg` (LLVM 14): `before` arguments nothing reads go, with
/// their initial and yielded values.
fn while_unused_arg(op: Op, rw: &mut Rewriter) -> R {
    let Some(w) = while_parts(rw.ctx, op) else {
        return Ok(false);
    };
    let before_args = rw.ctx.block_args(w.before).to_vec();
    if !before_args.iter().any(|&a| !rw.ctx.has_uses(a)) {
        return Ok(false);
    }
    let yields = rw.ctx.operands(w.yield_).to_vec();
    let inits = rw.ctx.operands(op).to_vec();
    let mut new_yields = vec![];
    let mut new_inits = vec![];
    let mut erase = vec![];
    for (i, ((&a, &y), &init)) in before_args.iter().zip(&yields).zip(&inits).enumerate() {
        if rw.ctx.has_uses(a) {
            new_yields.push(y);
            new_inits.push(init);
        } else {
            erase.push(i);
        }
    }
    if erase.is_empty() {
        return Ok(false);
    }
    rw.modify_op_in_place(op, |ctx| {
        for &i in erase.iter().rev() {
            let _ = ctx.erase_block_arg(w.before, i);
        }
    });
    let loc = rw.ctx.op_loc(op);
    let types: Vec<_> = rw
        .ctx
        .results(op)
        .iter()
        .map(|&r| rw.ctx.value_type(r))
        .collect();
    rw.set_insertion_point(op);
    let new = create_while(rw, loc, &types, &new_inits)?;
    let (old_rs, new_rs) = (
        rw.ctx.regions_of(op).to_vec(),
        rw.ctx.regions_of(new).to_vec(),
    );
    rw.ctx.take_body(new_rs[0], old_rs[0]);
    rw.ctx.take_body(new_rs[1], old_rs[1]);
    let results: Vec<Value> = rw.ctx.results(new).to_vec();
    rw.replace_op(op, &results)?;
    rw.set_insertion_point(w.yield_);
    replace_terminator(rw, w.yield_, "scf.yield", new_yields)?;
    Ok(true)
}

/// `RemoveLoopInvariantArgsFromBeforeBlock` (LLVM 15): a `before`
/// argument that always receives its initial value is that value.
fn while_invariant_args(op: Op, rw: &mut Rewriter) -> R {
    let Some(w) = while_parts(rw.ctx, op) else {
        return Ok(false);
    };
    let before_args = rw.ctx.block_args(w.before).to_vec();
    let cond_args = rw.ctx.operands(w.cond)[1..].to_vec();
    let yields = rw.ctx.operands(w.yield_).to_vec();
    let inits = rw.ctx.operands(op).to_vec();
    let invariant = |ctx: &Context, i: usize, init: Value, y: Value| -> bool {
        if y == init {
            return true;
        }
        if let mlir_async_ir::ValueDef::BlockArg(b, k) = ctx.value_def(y) {
            if b == w.after {
                let c = cond_args[k as usize];
                return c == before_args[i] || c == init;
            }
        }
        false
    };
    let inv: Vec<bool> = inits
        .iter()
        .zip(&yields)
        .enumerate()
        .map(|(i, (&init, &y))| invariant(rw.ctx, i, init, y))
        .collect();
    if !inv.iter().any(|&x| x) {
        return Ok(false);
    }
    let mut new_inits = vec![];
    let mut new_yields = vec![];
    let mut new_locs = vec![];
    for (i, (&init, &y)) in inits.iter().zip(&yields).enumerate() {
        if !inv[i] {
            new_inits.push(init);
            new_yields.push(y);
            new_locs.push(rw.ctx.value_loc(before_args[i]));
        }
    }
    rw.set_insertion_point(w.yield_);
    replace_terminator(rw, w.yield_, "scf.yield", new_yields.clone())?;
    let loc = rw.ctx.op_loc(op);
    let types: Vec<_> = rw
        .ctx
        .results(op)
        .iter()
        .map(|&r| rw.ctx.value_type(r))
        .collect();
    rw.set_insertion_point(op);
    let new = create_while(rw, loc, &types, &new_inits)?;
    let nrs = rw.ctx.regions_of(new).to_vec();
    let arg_types: Vec<_> = new_yields.iter().map(|&v| rw.ctx.value_type(v)).collect();
    let new_before = create_block_with_locs(rw, nrs[0], &arg_types, &new_locs);
    let nb_args = rw.ctx.block_args(new_before).to_vec();
    let mut j = 0;
    let mut repl = vec![];
    for i in 0..before_args.len() {
        if inv[i] {
            repl.push(inits[i]);
        } else {
            repl.push(nb_args[j]);
            j += 1;
        }
    }
    rw.merge_blocks(w.before, new_before, &repl);
    let old_after = rw.ctx.regions_of(op)[1];
    rw.ctx.take_body(nrs[1], old_after);
    let results: Vec<Value> = rw.ctx.results(new).to_vec();
    rw.replace_op(op, &results)?;
    Ok(true)
}

/// `RemoveLoopInvariantValueYielded` (LLVM 15): a value the condition
/// passes on that is defined outside the `before` block is used directly.
fn while_invariant_yielded(op: Op, rw: &mut Rewriter) -> R {
    let Some(w) = while_parts(rw.ctx, op) else {
        return Ok(false);
    };
    let cond_args = rw.ctx.operands(w.cond)[1..].to_vec();
    let outside = |ctx: &Context, v: Value| ctx.value_block(v) != Some(w.before);
    if !cond_args.iter().any(|&v| outside(rw.ctx, v)) {
        return Ok(false);
    }
    let after_args = rw.ctx.block_args(w.after).to_vec();
    let mut new_cond_args = vec![];
    let mut types = vec![];
    let mut locs = vec![];
    for (i, &v) in cond_args.iter().enumerate() {
        if !outside(rw.ctx, v) {
            new_cond_args.push(v);
            types.push(rw.ctx.value_type(v));
            locs.push(rw.ctx.value_loc(after_args[i]));
        }
    }
    let c = rw.ctx.operand(w.cond, 0);
    let mut ops = vec![c];
    ops.extend(new_cond_args);
    rw.set_insertion_point(w.cond);
    replace_terminator(rw, w.cond, "scf.condition", ops)?;
    let loc = rw.ctx.op_loc(op);
    let inits = rw.ctx.operands(op).to_vec();
    rw.set_insertion_point(op);
    let new = create_while(rw, loc, &types, &inits)?;
    let nrs = rw.ctx.regions_of(new).to_vec();
    let new_after = create_block_with_locs(rw, nrs[1], &types, &locs);
    let na = rw.ctx.block_args(new_after).to_vec();
    let mut j = 0;
    let mut repl = vec![];
    let mut results = vec![];
    for &v in &cond_args {
        if outside(rw.ctx, v) {
            repl.push(v);
            results.push(v);
        } else {
            repl.push(na[j]);
            results.push(rw.ctx.result(new, j));
            j += 1;
        }
    }
    rw.merge_blocks(w.after, new_after, &repl);
    let old_before = rw.ctx.regions_of(op)[0];
    rw.ctx.take_body(nrs[0], old_before);
    rw.replace_op(op, &results)?;
    Ok(true)
}

// ----- memref -----

/// `SimplifyAllocConst`: dynamic sizes given by constants become static,
/// and a cast gives the users the type they had.
fn alloc_const_sizes(op: Op, rw: &mut Rewriter) -> R {
    let t = rw.ctx.value_type(rw.ctx.result(op, 0));
    let mlir_async_ir::TypeKind::MemRef {
        shape,
        elem,
        layout,
        memory_space,
    } = rw.ctx.kind(t).clone()
    else {
        return Ok(false);
    };
    let n_dyn = shape.iter().filter(|d| d.is_none()).count();
    let ops = rw.ctx.operands(op).to_vec();
    if ops.len() < n_dyn {
        return Ok(false);
    }
    let (dyn_sizes, symbols) = ops.split_at(n_dyn);
    let index = rw.ctx.index_type();
    let is_const_index =
        |ctx: &Context, v: Value| const_int(ctx, v).is_some() && ctx.value_type(v) == index;
    if !dyn_sizes.iter().any(|&v| is_const_index(rw.ctx, v)) {
        return Ok(false);
    }
    let mut new_shape = vec![];
    let mut kept = vec![];
    let mut next = dyn_sizes.iter();
    for d in &shape {
        if d.is_some() {
            new_shape.push(*d);
            continue;
        }
        let &v = next.next().expect("one size per dynamic dimension");
        match index_const(rw.ctx, v).filter(|_| rw.ctx.value_type(v) == index) {
            Some(n) => new_shape.push(Some(n)),
            None => {
                new_shape.push(None);
                kept.push(v);
            }
        }
    }
    let new_t = rw.ctx.ty(mlir_async_ir::TypeKind::MemRef {
        shape: new_shape,
        elem,
        layout,
        memory_space,
    });
    let loc = rw.ctx.op_loc(op);
    let mut operands = kept.clone();
    operands.extend_from_slice(symbols);
    let seg = crate::util::segment_sizes(rw.ctx, &[kept.len(), symbols.len()]);
    let mut attrs = vec![];
    if let Some(a) = rw.ctx.get_attr(op, "alignment") {
        attrs.push((rw.ctx.sym("alignment"), a));
    }
    attrs.push((rw.ctx.sym("operand_segment_sizes"), seg));
    let name = rw.ctx.op_name(op);
    let alloc = rw.create_op(name, loc, &operands, &[new_t], &attrs)?;
    let alloc = rw.ctx.result(alloc, 0);
    let cast = rw.ctx.sym("memref.cast");
    let c = rw.create_op(cast, loc, &[alloc], &[t], &[])?;
    let c = rw.ctx.result(c, 0);
    rw.replace_op(op, &[c])?;
    Ok(true)
}

/// `SimplifyDeadAlloc`: a buffer only stored into and deallocated goes,
/// with those stores and deallocations.
fn alloc_dead(op: Op, rw: &mut Rewriter) -> R {
    let buf = rw.ctx.result(op, 0);
    let users: Vec<Op> = rw.ctx.users(buf).collect();
    let only_written = users.iter().all(|&u| match rw.ctx.name(u) {
        "memref.store" => rw.ctx.operand(u, 0) != buf,
        "memref.dealloc" => true,
        _ => false,
    });
    if !only_written {
        return Ok(false);
    }
    let mut seen = vec![];
    for u in users {
        if !seen.contains(&u) {
            seen.push(u);
            rw.erase_op(u)?;
        }
    }
    rw.erase_op(op)?;
    Ok(true)
}

/// The `memref` patterns (benefit 1, in upstream's order).
fn memref_patterns(set: &mut PatternSet) {
    for root in ["memref.alloc", "memref.alloca"] {
        set.add(FnPattern::new(
            root,
            "SimplifyAllocConst",
            alloc_const_sizes,
        ));
        set.add(FnPattern::new(root, "SimplifyDeadAlloc", alloc_dead));
    }
}
