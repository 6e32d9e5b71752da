//! Pieces shared by the custom forms of several dialects.

use mlir_async_ir::*;
use mlir_async_syntax::{PResult, Parser, Printer, UnresolvedOperand};

/// Resolves operands against types, one for one.
pub fn resolve<'a>(
    p: &mut Parser<'a, '_>,
    ops: &[UnresolvedOperand<'a>],
    tys: &[Type],
) -> PResult<Vec<Value>> {
    if ops.len() != tys.len() {
        let pos = ops.first().map(|o| o.pos).unwrap_or(p.pos);
        return p.err(
            pos,
            format!("{} operands present, but expected {}", ops.len(), tys.len()),
        );
    }
    ops.iter()
        .zip(tys)
        .map(|(o, &t)| p.resolve_operand(o, t))
        .collect()
}

/// Resolves all operands against one type.
pub fn resolve_same<'a>(
    p: &mut Parser<'a, '_>,
    ops: &[UnresolvedOperand<'a>],
    t: Type,
) -> PResult<Vec<Value>> {
    ops.iter().map(|o| p.resolve_operand(o, t)).collect()
}

/// `: T`.
pub fn colon_type(p: &mut Parser) -> PResult<Type> {
    p.expect(":")?;
    p.parse_type()
}

/// Optional attr dict (merged into the state).
#[inline]
pub fn attr_dict(p: &mut Parser, st: &mut OperationState) -> PResult<()> {
    // Nearly every op has none: a byte compare, no call, no `Vec`.
    if p.peek() != b'{' {
        return Ok(());
    }
    let a = p.parse_attr_dict()?;
    st.attrs.extend(a);
    Ok(())
}

/// `attributes {...}` if present.
pub fn attr_dict_kw(p: &mut Parser, st: &mut OperationState) -> PResult<()> {
    if p.eat_keyword("attributes") {
        let a = p.parse_attr_dict()?;
        st.attrs.extend(a);
    }
    Ok(())
}

/// `-> T` or `-> (T, U)` if present.
pub fn optional_arrow_types(p: &mut Parser) -> PResult<Vec<Type>> {
    if p.eat("->") {
        p.parse_function_result_types()
    } else {
        Ok(vec![])
    }
}

/// Parses a region whose single-block terminator may be elided; inserts
/// `terminator` (no operands) when missing.
pub fn region_with_implicit_terminator<'a>(
    p: &mut Parser<'a, '_>,
    args: &[mlir_async_syntax::RegionArg<'a>],
    terminator: &str,
) -> PResult<Region> {
    let r = p.parse_region(args, false)?;
    ensure_terminator(p.ctx, r, terminator);
    Ok(r)
}

/// Adds an operand-less terminator to a region's single block if missing.
pub fn ensure_terminator(ctx: &mut Context, r: Region, terminator: &str) {
    let b = match ctx.entry_block(r) {
        Some(b) => b,
        None => {
            let b = ctx.create_block(&[]);
            ctx.append_block(r, b);
            b
        }
    };
    let has = ctx
        .last_op(b)
        .is_some_and(|o| ctx.traits_of(o).is_terminator);
    if !has {
        let name = ctx.sym(terminator);
        let loc = ctx.unknown_loc();
        ctx.build(InsertPoint::AtEnd(b), OperationState::new(name, loc));
    }
}

/// Does a region's single block end with an operand-less terminator that
/// the custom form may elide?
pub fn can_elide_terminator(ctx: &Context, r: Region) -> bool {
    let Some(b) = ctx.single_block(r) else {
        return false;
    };
    match ctx.last_op(b) {
        Some(t) => {
            ctx.traits_of(t).is_terminator && ctx.operands(t).is_empty() && ctx.attrs(t).is_empty()
        }
        None => true,
    }
}

/// The types of a list of values.
pub fn types_of(ctx: &Context, vs: &[Value]) -> Vec<Type> {
    vs.iter().map(|&v| ctx.value_type(v)).collect()
}

/// Prints `%a, %b : T, U` (nothing for no operands).
pub fn print_operands_and_types(p: &mut Printer, vs: &[Value]) {
    if vs.is_empty() {
        return;
    }
    p.w(" ");
    p.operands(vs);
    p.w(" : ");
    let tys = types_of(p.ctx, vs);
    p.types(&tys);
}

/// Parses `%a, %b : T, U` or nothing, appending the operands to `out`.
pub fn parse_operands_and_types(p: &mut Parser, out: &mut Vec<Value>) -> PResult<()> {
    // On the parser's pending stacks: no lists of our own per op.
    let om = p.parse_operand_list_pending()?;
    let n = p.pending(om).len();
    if n == 0 {
        return Ok(());
    }
    p.expect(":")?;
    let tm = p.parse_type_list_pending()?;
    let nt = p.pending_types(tm).len();
    if n != nt {
        let pos = p.pending(om)[0].pos;
        p.drop_pending(om);
        p.drop_pending_types(tm);
        return p.err(pos, format!("{n} operands present, but expected {nt}"));
    }
    p.resolve_pending_typed(om, tm, out)
}

/// A `vector<3xi32>` dense attribute `dense<[a, b, c]>` of segment sizes.
pub fn segment_sizes(ctx: &mut Context, sizes: &[usize]) -> Attribute {
    let i32t = ctx.int_type(32);
    let vt = ctx.ty(TypeKind::Vector {
        shape: vec![sizes.len() as i64],
        scalable: 0,
        elem: i32t,
    });
    let splat = sizes.len() > 1 && sizes.iter().all(|&s| s == sizes[0]);
    let elems = if splat {
        vec![DenseElem::Int(sizes[0] as i128)]
    } else {
        sizes.iter().map(|&s| DenseElem::Int(s as i128)).collect()
    };
    ctx.attr(AttrKind::Dense(elems, vt, splat))
}

/// Reads the segment sizes of an op with `operand_segment_sizes`.
/// [`get_segments`] for a fixed number of groups, without allocating
/// (asked at every branch by the verifier and the drivers).
pub fn get_segment_array<const N: usize>(ctx: &Context, op: Op) -> Option<[usize; N]> {
    let a = ctx.get_attr(op, "operand_segment_sizes")?;
    let AttrKind::Dense(elems, _, splat) = ctx.attr_kind(a) else {
        return None;
    };
    let size = |e: Option<&DenseElem>| match e {
        Some(DenseElem::Int(i)) => *i as usize,
        _ => 0,
    };
    if *splat {
        return Some([size(elems.first()); N]);
    }
    if elems.len() != N {
        return None;
    }
    let mut out = [0; N];
    for (o, e) in out.iter_mut().zip(elems) {
        *o = size(Some(e));
    }
    Some(out)
}

pub fn get_segments(ctx: &Context, op: Op, n: usize) -> Option<Vec<usize>> {
    let a = ctx.get_attr(op, "operand_segment_sizes")?;
    match ctx.attr_kind(a) {
        AttrKind::Dense(elems, _, splat) => {
            let v: Vec<usize> = elems
                .iter()
                .map(|e| match e {
                    DenseElem::Int(i) => *i as usize,
                    _ => 0,
                })
                .collect();
            if *splat {
                Some(vec![v.first().copied().unwrap_or(0); n])
            } else if v.len() == n {
                Some(v)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Splits the operands of an op by its segment sizes.
pub fn segments(ctx: &Context, op: Op, n: usize) -> Vec<Vec<Value>> {
    let ops = ctx.operands(op);
    // As `get_segments`, without its list of sizes: printers and the
    // async lowering split operands at every op with segments.
    let dense = ctx
        .get_attr(op, "operand_segment_sizes")
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::Dense(elems, _, splat) if *splat || elems.len() == n => Some((elems, *splat)),
            _ => None,
        });
    let size =
        |elems: &[DenseElem], splat: bool, i: usize| match elems.get(if splat { 0 } else { i }) {
            Some(DenseElem::Int(v)) => *v as usize,
            _ => 0,
        };
    match dense {
        Some((elems, splat))
            if (0..n).map(|i| size(elems, splat, i)).sum::<usize>() == ops.len() =>
        {
            let mut out = Vec::with_capacity(n);
            let mut at = 0;
            for i in 0..n {
                let s = size(elems, splat, i);
                out.push(ops[at..at + s].to_vec());
                at += s;
            }
            out
        }
        _ => {
            let mut out = vec![ops.to_vec()];
            out.resize(n, vec![]);
            out
        }
    }
}

/// Type name as used in verifier messages: `'f32'`.
pub fn tyname(ctx: &Context, t: Type) -> String {
    mlir_async_syntax::print_type(ctx, t)
}

/// ` %a, %b {attrs} : T`, T the type of operand `k`: ODS's
/// `operands attr-dict : type(operand)`, shared by many ops.
pub fn print_operands_attrs_type(p: &mut Printer, op: Op, k: usize) {
    let ops = p.ctx.operands(op);
    p.w(" ");
    p.operands(ops);
    p.attr_dict(op, &[]);
    p.w(" : ");
    let t = p.ctx.value_type(ops[k]);
    p.ty(t);
}
