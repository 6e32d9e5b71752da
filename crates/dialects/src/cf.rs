//! The `cf` dialect (`br`, `cond_br`, `assert` of `std` before 15).

use crate::util::*;
use crate::OpDef;
use mlir_async_ir::*;
use mlir_async_syntax::{PResult, Parser, Printer};

pub fn ops() -> Vec<OpDef> {
    vec![
        OpDef::new("cf.br").syntax(parse_br, print_br).terminator(),
        OpDef::new("cf.cond_br")
            .syntax(parse_cond_br, print_cond_br)
            .terminator(),
        OpDef::new("cf.assert").syntax(parse_assert, print_assert),
        OpDef::new("cf.switch").terminator(),
    ]
}

/// The operands an op forwards to its successor `i`, as an index range
/// into its operand list.
pub fn successor_operand_range(ctx: &Context, op: Op, i: usize) -> std::ops::Range<usize> {
    let n = ctx.operands(op).len();
    match ctx.name(op) {
        "cf.br" => 0..n,
        "cf.cond_br" => {
            let s = get_segments(ctx, op, 3).unwrap_or_else(|| vec![1, n - 1, 0]);
            if i == 0 {
                1..1 + s[1]
            } else {
                1 + s[1]..1 + s[1] + s[2]
            }
        }
        _ => 0..0,
    }
}

/// Builds `cf.br ^dest(args)`.
pub fn build_br(
    ctx: &mut Context,
    ip: InsertPoint,
    loc: Location,
    dest: Block,
    args: Vec<Value>,
) -> Op {
    let mut st = OperationState::new(ctx.sym("cf.br"), loc);
    st.operands = args;
    st.successors = vec![dest];
    ctx.build(ip, st)
}

/// Builds `cf.cond_br %c, ^t(targs), ^f(fargs)`.
#[allow(clippy::too_many_arguments)]
pub fn build_cond_br(
    ctx: &mut Context,
    ip: InsertPoint,
    loc: Location,
    cond: Value,
    t: Block,
    targs: Vec<Value>,
    f: Block,
    fargs: Vec<Value>,
) -> Op {
    let mut st = OperationState::new(ctx.sym("cf.cond_br"), loc);
    let seg = segment_sizes(ctx, &[1, targs.len(), fargs.len()]);
    st.operands = vec![cond];
    st.operands.extend(targs);
    st.operands.extend(fargs);
    st.successors = vec![t, f];
    st.attrs = vec![(ctx.sym("operand_segment_sizes"), seg)];
    ctx.build(ip, st)
}

fn parse_br(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let (b, args) = p.parse_successor_and_args()?;
    st.successors = vec![b];
    st.operands = args;
    attr_dict(p, st)
}

fn print_br(p: &mut Printer, op: Op) {
    p.w(" ");
    let b = p.ctx.successors(op)[0];
    let args = p.ctx.operands(op);
    p.successor_with_args(b, args);
    p.attr_dict(op, &[]);
}

fn parse_cond_br(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let c = p.parse_operand_ref()?;
    let i1 = p.i1_type();
    let c = p.resolve_operand(&c, i1)?;
    p.expect(",")?;
    let (t, targs) = p.parse_successor_and_args()?;
    p.expect(",")?;
    let (f, fargs) = p.parse_successor_and_args()?;
    let seg = segment_sizes(p.ctx, &[1, targs.len(), fargs.len()]);
    st.operands.push(c);
    st.operands.extend(targs);
    st.operands.extend(fargs);
    st.successors = vec![t, f];
    let s = p.ctx.sym("operand_segment_sizes");
    st.attrs.push((s, seg));
    attr_dict(p, st)
}

fn print_cond_br(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    p.w(" ");
    p.operand(ops[0]);
    p.w(", ");
    let succ = p.ctx.successors(op);
    for (i, &dest) in succ.iter().enumerate().take(2) {
        if i == 1 {
            p.w(", ");
        }
        let r = successor_operand_range(p.ctx, op, i);
        p.successor_with_args(dest, &ops[r]);
    }
    p.attr_dict(op, &["operand_segment_sizes"]);
}

fn parse_assert(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let c = p.parse_operand_ref()?;
    let i1 = p.i1_type();
    st.operands.push(p.resolve_operand(&c, i1)?);
    p.expect(",")?;
    let m = p.string_lit_bytes()?;
    let a = p.ctx.bytes_attr(&m);
    let s = p.ctx.sym("msg");
    st.attrs.push((s, a));
    attr_dict(p, st)
}

fn print_assert(p: &mut Printer, op: Op) {
    p.w(" ");
    let c = p.ctx.operand(op, 0);
    p.operand(c);
    p.w(", ");
    let m = p.ctx.get_attr(op, "msg").expect("assert has a message");
    p.attr(m);
    p.attr_dict(op, &["msg"]);
}
