//! The `async` dialect: `execute`, `await`, groups, and the lowered
//! `runtime.*` and `coro.*` ops.

use crate::ods::{AttrClass, OperandKind, RegionSpec, Shape, N, NULLARY, SINK, UNARY};
pub mod types;

use crate::util::*;
use crate::OpDef;
use mlir_async_ir::*;
use mlir_async_syntax::{edition, PResult, Parser, Printer, RegionArg};

pub fn ops() -> Vec<OpDef> {
    let unary = |n| OpDef::new(n).syntax(parse_unary_typed, print_operand_attrs_type);
    vec![
        OpDef::new("async.execute")
            .shape(Shape::new(N::AtLeast(0), N::AtLeast(1)).regions(1, &[(0, 0)]))
            .region_specs(const { &[RegionSpec::single(0, "body")] })
            .implicit_terminator("async.yield")
            .syntax(parse_execute, print_execute)
            .names(|ctx, op, _, set| {
                set(0, "token");
                if ctx.results(op).len() > 1 {
                    set(1, "results");
                }
            })
            .verify(verify_execute),
        OpDef::new("async.yield")
            .parents(&["async.execute"])
            .pure()
            .return_like()
            .syntax(parse_yield, print_yield)
            .terminator()
            .verify(verify_yield),
        OpDef::new("async.await")
            .shape(Shape::new(N::Exactly(1), N::AtMost(1)))
            .syntax(parse_await, print_await)
            .verify(verify_await),
        OpDef::new("async.create_group")
            .shape(UNARY)
            .syntax(parse_size_group, print_size_group),
        OpDef::new("async.add_to_group")
            .shape(Shape::new(N::Exactly(2), N::Exactly(1)))
            .syntax(parse_add_to_group, print_add_to_group),
        OpDef::new("async.await_all")
            .shape(SINK)
            .syntax(parse_await_all, print_await_all),
        OpDef::new("async.runtime.create")
            .shape(NULLARY)
            .syntax(parse_create, print_create),
        OpDef::new("async.runtime.create_group")
            .shape(UNARY)
            .syntax(parse_size_group, print_size_group),
        unary("async.runtime.set_available").shape(SINK),
        unary("async.runtime.set_error").shape(SINK),
        unary("async.runtime.is_error").shape(UNARY),
        unary("async.runtime.await").shape(SINK),
        unary("async.runtime.add_ref").shape(SINK.attrs(&[("count", AttrClass::Int)])),
        unary("async.runtime.drop_ref").shape(SINK.attrs(&[("count", AttrClass::Int)])),
        OpDef::new("async.runtime.await_and_resume")
            .shape(Shape::new(N::Exactly(2), N::Exactly(0)))
            .syntax(parse_await_and_resume, print_await_and_resume),
        OpDef::new("async.runtime.resume").syntax(parse_handle_only, print_operands_only),
        OpDef::new("async.runtime.store")
            .shape(Shape::new(N::Exactly(2), N::Exactly(0)).kinds(&[(1, OperandKind::AsyncValue)]))
            .syntax(parse_store, print_store),
        OpDef::new("async.runtime.load")
            .shape(UNARY.kinds(&[(0, OperandKind::AsyncValue)]))
            .syntax(parse_load, print_load),
        OpDef::new("async.runtime.add_to_group")
            .shape(Shape::new(N::Exactly(2), N::Exactly(1)))
            .syntax(parse_add_to_group, print_add_to_group),
        OpDef::new("async.runtime.num_worker_threads")
            .shape(NULLARY)
            .syntax(parse_create, print_create),
        OpDef::new("async.coro.id").syntax(parse_coro, print_operands_only),
        OpDef::new("async.coro.begin").syntax(parse_coro, print_operands_only),
        OpDef::new("async.coro.free").syntax(parse_coro, print_operands_only),
        OpDef::new("async.coro.end").syntax(parse_coro, print_operands_only),
        OpDef::new("async.coro.save").syntax(parse_coro, print_operands_only),
        OpDef::new("async.coro.suspend")
            .shape(SINK.successors(3))
            .syntax(parse_suspend, print_suspend)
            .terminator(),
    ]
}

pub use types::value_inner;

fn parse_execute(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let token = types::token(p.ctx);
    // Operands go straight into the state: dependencies, then values.
    if p.eat("[") {
        let ds = p.parse_operand_list_pending()?;
        p.expect("]")?;
        p.resolve_pending_same(ds, token, &mut st.operands)?;
    }
    let ndeps = st.operands.len();
    let mut args = vec![];
    if p.eat("(") && !p.eat(")") {
        {
            loop {
                let v = p.parse_operand_ref()?;
                p.expect_keyword("as")?;
                p.skip_ws();
                let apos = p.pos;
                let a = p.parse_operand_ref()?;
                p.expect(":")?;
                let tpos = p.pos;
                let t = p.parse_type()?;
                let Some(inner) = value_inner(p.ctx, t) else {
                    return p.err(tpos, "expected async value type");
                };
                st.operands.push(p.resolve_operand(&v, t)?);
                args.push(RegionArg {
                    name: a.name,
                    ty: inner,
                    pos: apos,
                });
                if !p.eat(",") {
                    break;
                }
            }
            p.expect(")")?;
        }
    }
    let nvals = st.operands.len() - ndeps;
    st.result_types.push(token);
    if p.eat("->") {
        p.parse_function_result_types_into(&mut st.result_types)?;
    }
    attr_dict_kw(p, st)?;
    let r = p.parse_region(&args, false)?;
    let key = (ndeps as u64) << 32 | nvals as u64;
    let seg = p.memo_attr("operand_segment_sizes", key, |ctx| {
        segment_sizes(ctx, &[ndeps, nvals])
    });
    st.regions.push(r);
    let s = p.static_sym("operand_segment_sizes");
    st.attrs.push((s, seg));
    Ok(())
}

fn print_execute(p: &mut Printer, op: Op) {
    let segs = segments(p.ctx, op, 2);
    if !segs[0].is_empty() {
        p.w(" [");
        p.operands(&segs[0]);
        p.w("]");
    }
    let r = p.ctx.regions_of(op)[0];
    if !segs[1].is_empty() {
        p.w(" (");
        let entry = p.ctx.entry_block(r);
        for (i, &v) in segs[1].iter().enumerate() {
            if i > 0 {
                p.w(", ");
            }
            p.operand(v);
            if let Some(a) = entry.and_then(|b| p.ctx.block_args(b).get(i).copied()) {
                p.w(" as ");
                p.operand(a);
            }
            p.w(": ");
            let t = p.ctx.value_type(v);
            p.ty(t);
        }
        p.w(")");
    }
    let results = types_of(p.ctx, &p.ctx.results(op)[1..]);
    if !results.is_empty() {
        p.w(" -> ");
        p.result_types(&results);
    }
    p.attr_dict_kw(op, &["operand_segment_sizes"]);
    p.w(" ");
    p.region(r, false, true);
}

fn verify_execute(ctx: &Context, op: Op) -> Result<(), String> {
    let segs = segments(ctx, op, 2);
    let r = ctx.regions_of(op)[0];
    let Some(b) = ctx.entry_block(r) else {
        return Ok(());
    };
    let args = ctx.block_args(b);
    if args.len() != segs[1].len() {
        return Err("requires the same number of body arguments and operands".into());
    }
    for (&v, &a) in segs[1].iter().zip(args) {
        if value_inner(ctx, ctx.value_type(v)) != Some(ctx.value_type(a)) {
            return Err("requires that body arguments types match unwrapped operand types".into());
        }
    }
    for &res in &ctx.results(op)[1..] {
        if value_inner(ctx, ctx.value_type(res)).is_none() {
            return Err(format!(
                "result #{} must be async value type, but got '{}'",
                1,
                tyname(ctx, ctx.value_type(res))
            ));
        }
    }
    Ok(())
}

fn parse_yield(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    parse_operands_and_types(p, &mut st.operands)?;
    attr_dict(p, st)
}

fn print_yield(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    print_operands_and_types(p, ops);
    p.attr_dict(op, &[]);
}

fn verify_yield(ctx: &Context, op: Op) -> Result<(), String> {
    let Some(parent) = ctx.parent_op(op) else {
        return Ok(());
    };
    if ctx.name(parent) != "async.execute" {
        return Err("expects parent op 'async.execute'".into());
    }
    let types: Vec<Option<Type>> = ctx.results(parent)[1..]
        .iter()
        .map(|&r| value_inner(ctx, ctx.value_type(r)))
        .collect();
    let ops = ctx.operands(op);
    if ops.len() != types.len()
        || ops
            .iter()
            .zip(&types)
            .any(|(&v, t)| Some(ctx.value_type(v)) != *t)
    {
        return Err(
            "operand types do not match the types returned from the parent ExecuteOp".into(),
        );
    }
    Ok(())
}

fn parse_await(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let v = p.parse_operand_ref()?;
    let t = colon_type(p)?;
    st.operands.push(p.resolve_operand(&v, t)?);
    if let Some(i) = value_inner(p.ctx, t) {
        st.result_types.push(i);
    }
    attr_dict(p, st)
}

fn print_await(p: &mut Printer, op: Op) {
    p.w(" ");
    let v = p.ctx.operand(op, 0);
    p.operand(v);
    p.w(" : ");
    let t = p.ctx.value_type(v);
    p.ty(t);
    p.attr_dict(op, &[]);
}

fn verify_await(ctx: &Context, op: Op) -> Result<(), String> {
    let t = ctx.value_type(ctx.operand(op, 0));
    match types::classify(ctx, t) {
        Some(types::AsyncType::Token) => {
            if !ctx.results(op).is_empty() {
                return Err("awaiting a token must have empty result".into());
            }
        }
        Some(types::AsyncType::Value(inner)) => {
            let Some(&r) = ctx.results(op).first() else {
                return Err("awaiting a value must have a result".into());
            };
            let rt = ctx.value_type(r);
            if rt != inner {
                return Err(format!(
                    "result type '{}' does not match async value type '{}'",
                    tyname(ctx, rt),
                    tyname(ctx, inner)
                ));
            }
        }
        _ => {
            return Err(format!(
                "operand #0 must be async value type or async token type, but got '{}'",
                tyname(ctx, t)
            ))
        }
    }
    Ok(())
}

fn parse_size_group(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let s = p.parse_operand_ref()?;
    let t = colon_type(p)?;
    let index = p.index_type();
    st.operands.push(p.resolve_operand(&s, index)?);
    st.result_types.push(t);
    attr_dict(p, st)
}

fn print_size_group(p: &mut Printer, op: Op) {
    p.w(" ");
    let v = p.ctx.operand(op, 0);
    p.operand(v);
    p.w(" : ");
    let t = p.ctx.value_type(p.ctx.result(op, 0));
    p.ty(t);
    p.attr_dict(op, &[]);
}

fn parse_add_to_group(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let v = p.parse_operand_ref()?;
    p.expect(",")?;
    let g = p.parse_operand_ref()?;
    attr_dict(p, st)?;
    let t = colon_type(p)?;
    let gt = types::group(p.ctx);
    st.operands
        .extend([p.resolve_operand(&v, t)?, p.resolve_operand(&g, gt)?]);
    st.result_types.push(p.index_type());
    Ok(())
}

fn print_add_to_group(p: &mut Printer, op: Op) {
    print_operands_attrs_type(p, op, 0);
}

fn parse_await_all(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let g = p.parse_operand_ref()?;
    let gt = types::group(p.ctx);
    st.operands.push(p.resolve_operand(&g, gt)?);
    attr_dict(p, st)
}

fn print_operands_only(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    if !ops.is_empty() {
        p.w(" ");
        p.operands(ops);
    }
    p.attr_dict(op, &[]);
}

fn print_await_all(p: &mut Printer, op: Op) {
    print_operands_only(p, op)
}

fn parse_create(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    attr_dict(p, st)?;
    let t = colon_type(p)?;
    st.result_types.push(t);
    Ok(())
}

fn print_create(p: &mut Printer, op: Op) {
    p.attr_dict(op, &[]);
    p.w(" : ");
    let t = p.ctx.value_type(p.ctx.result(op, 0));
    p.ty(t);
}

/// `%x attr-dict : type($x)`; `is_error` yields `i1`.
fn parse_unary_typed(p: &mut Parser, st: &mut OperationState, n: usize) -> PResult<()> {
    parse_operand_attrs_type(p, st, n)?;
    if p.ctx.str(st.name) == "async.runtime.is_error" {
        st.result_types.push(p.i1_type());
    }
    Ok(())
}

fn parse_await_and_resume(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let v = p.parse_operand_ref()?;
    p.expect(",")?;
    let h = p.parse_operand_ref()?;
    attr_dict(p, st)?;
    let t = colon_type(p)?;
    let ht = types::coro_handle(p.ctx);
    st.operands
        .extend([p.resolve_operand(&v, t)?, p.resolve_operand(&h, ht)?]);
    Ok(())
}

fn print_await_and_resume(p: &mut Printer, op: Op) {
    print_operands_attrs_type(p, op, 0);
}

fn parse_handle_only(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let h = p.parse_operand_ref()?;
    let ht = types::coro_handle(p.ctx);
    st.operands.push(p.resolve_operand(&h, ht)?);
    attr_dict(p, st)
}

/// `: !async.value<T>` or the 14/15 short form `: <T>`.
fn parse_value_type(p: &mut Parser) -> PResult<Type> {
    p.expect(":")?;
    if p.peek() == b'<' {
        p.eat("<");
        let t = p.parse_type()?;
        p.expect(">")?;
        p.note_edition(mlir_async_syntax::Edition::V14);
        return Ok(types::value(p.ctx, t));
    }
    let pos = p.pos;
    let t = p.parse_type()?;
    if value_inner(p.ctx, t).is_none() {
        return p.err(pos, "expected async value type");
    }
    Ok(t)
}

fn print_value_type(p: &mut Printer, t: Type) {
    p.w(" : ");
    if edition::runtime_value_type_in_full(p.edition()) {
        p.ty(t);
    } else {
        let inner = value_inner(p.ctx, t).expect("verified async value type");
        p.w("<");
        p.ty(inner);
        p.w(">");
    }
}

fn parse_store(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let v = p.parse_operand_ref()?;
    p.expect(",")?;
    let s = p.parse_operand_ref()?;
    attr_dict(p, st)?;
    let t = parse_value_type(p)?;
    let inner = value_inner(p.ctx, t).expect("checked by parse_value_type");
    st.operands
        .extend([p.resolve_operand(&v, inner)?, p.resolve_operand(&s, t)?]);
    Ok(())
}

fn print_store(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    p.w(" ");
    p.operands(ops);
    p.attr_dict(op, &[]);
    let t = p.ctx.value_type(ops[1]);
    print_value_type(p, t);
}

fn parse_load(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let s = p.parse_operand_ref()?;
    attr_dict(p, st)?;
    let t = parse_value_type(p)?;
    let inner = value_inner(p.ctx, t).expect("checked by parse_value_type");
    st.operands.push(p.resolve_operand(&s, t)?);
    st.result_types.push(inner);
    Ok(())
}

fn print_load(p: &mut Printer, op: Op) {
    let v = p.ctx.operand(op, 0);
    p.w(" ");
    p.operand(v);
    p.attr_dict(op, &[]);
    let t = p.ctx.value_type(v);
    print_value_type(p, t);
}

/// The coro ops: operand and result types are implied by the op.
fn parse_coro(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let name = p.ctx.str(st.name).to_string();
    let id = types::coro_id(p.ctx);
    let hdl = types::coro_handle(p.ctx);
    let state = types::coro_state(p.ctx);
    let (ins, outs): (Vec<Type>, Vec<Type>) = match name.as_str() {
        "async.coro.id" => (vec![], vec![id]),
        "async.coro.begin" => (vec![id], vec![hdl]),
        "async.coro.free" => (vec![id, hdl], vec![]),
        "async.coro.end" => (vec![hdl], vec![]),
        "async.coro.save" => (vec![hdl], vec![state]),
        _ => (vec![], vec![]),
    };
    let mut ops = vec![];
    for (i, &t) in ins.iter().enumerate() {
        if i > 0 {
            p.expect(",")?;
        }
        let u = p.parse_operand_ref()?;
        ops.push(p.resolve_operand(&u, t)?);
    }
    st.operands = ops;
    st.result_types = outs;
    attr_dict(p, st)
}

fn parse_suspend(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let s = p.parse_operand_ref()?;
    let state = types::coro_state(p.ctx);
    st.operands.push(p.resolve_operand(&s, state)?);
    for _ in 0..3 {
        p.expect(",")?;
        let b = p.parse_successor()?;
        st.successors.push(b);
    }
    attr_dict(p, st)
}

fn print_suspend(p: &mut Printer, op: Op) {
    p.w(" ");
    let s = p.ctx.operand(op, 0);
    p.operand(s);
    for b in p.ctx.successors(op) {
        p.w(", ");
        p.block_name(*b);
    }
    p.attr_dict(op, &[]);
}

/// The type of the `count` of `async.runtime.add_ref` / `drop_ref`: `i32`
/// in LLVM 13, `i64` from 14 on (passes that build these ops ask here).
pub fn ref_count_type(ctx: &mut Context, edition: mlir_async_syntax::Edition) -> Type {
    if edition == mlir_async_syntax::Edition::V13 {
        ctx.int_type(32)
    } else {
        ctx.int_type(64)
    }
}
