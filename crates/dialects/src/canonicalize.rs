//! Canonicalization patterns of the registered ops, as LLVM 14 and 15
//! define them (`getCanonicalizationPatterns` / `canonicalize` of each
//! op), in the order MLIR adds them.

use crate::cf::{br_state, cond_br_state, successor_operand_range};
use mlir_async_ir::{AttrKind, Block, Context, DenseElem, Op, OperationState, Value};
use mlir_async_rewrite::{FnPattern, PatternSet, RewriteError, Rewriter};

type R = Result<bool, RewriteError>;

/// Every pattern, by op name (MLIR adds each registered op's patterns in
/// name order; the order only matters among patterns of one op).
pub fn patterns(edition: mlir_async_syntax::Edition) -> PatternSet {
    let mut set = PatternSet::new();
    arith_patterns(&mut set, edition == mlir_async_syntax::Edition::V15);
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
