//! The subset of `memref`, `linalg` and `vector` used by the async tests.

use crate::util::*;
use crate::OpDef;
use mlir_async_ir::*;
use mlir_async_syntax::printer::print_dict_entries;
use mlir_async_syntax::{Edition, PResult, Parser, Printer};

pub fn ops() -> Vec<OpDef> {
    vec![
        OpDef::new("memref.alloc").syntax(parse_alloc, print_alloc),
        OpDef::new("memref.alloca").syntax(parse_alloc, print_alloc),
        OpDef::new("memref.dealloc").syntax(parse_operand_attrs_type, print_operand_attrs_type),
        OpDef::new("memref.load").syntax(parse_load, print_load),
        OpDef::new("memref.store").syntax(parse_store, print_store),
        OpDef::new("memref.cast")
            .syntax(crate::arith::parse_cast, crate::arith::print_cast)
            .pure(),
        OpDef::new("memref.dim").syntax(parse_dim, print_dim).pure(),
        OpDef::new("memref.atomic_rmw")
            .syntax(parse_atomic_rmw, print_atomic_rmw)
            .verify(verify_atomic_rmw),
        OpDef::new("linalg.fill").syntax(parse_fill, print_fill),
        OpDef::new("linalg.yield")
            .syntax(parse_plain_yield, print_plain_yield)
            .terminator(),
        OpDef::new("linalg.generic").syntax(parse_generic, print_generic),
        OpDef::new("vector.print").syntax(parse_operand_attrs_type, print_operand_attrs_type),
    ]
}

fn elem_of(ctx: &Context, t: Type) -> Option<Type> {
    ctx.kind(t).element_type()
}

fn parse_alloc(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    p.expect("(")?;
    let dyns = p.parse_operand_list()?;
    p.expect(")")?;
    let mut syms = vec![];
    if p.eat("[") {
        syms = p.parse_operand_list()?;
        p.expect("]")?;
    }
    attr_dict(p, st)?;
    let t = colon_type(p)?;
    let index = p.index_type();
    let mut ops = resolve_same(p, &dyns, index)?;
    ops.extend(resolve_same(p, &syms, index)?);
    let seg = segment_sizes(p.ctx, &[dyns.len(), syms.len()]);
    let s = p.ctx.sym("operand_segment_sizes");
    st.attrs.push((s, seg));
    st.operands = ops;
    st.result_types.push(t);
    Ok(())
}

fn print_alloc(p: &mut Printer, op: Op) {
    let segs = segments(p.ctx, op, 2);
    p.w("(");
    p.operands(&segs[0]);
    p.w(")");
    if !segs[1].is_empty() {
        p.w("[");
        p.operands(&segs[1]);
        p.w("]");
    }
    p.attr_dict(op, &["operand_segment_sizes"]);
    p.w(" : ");
    let t = p.ctx.value_type(p.ctx.result(op, 0));
    p.ty(t);
}

/// `%m[%i, ...] attrs : memref-type`: the memref and its indices as
/// operands (in that order), and the element type.
fn parse_indexed(p: &mut Parser, st: &mut OperationState) -> PResult<(Vec<Value>, Type)> {
    let m = p.parse_operand_ref()?;
    p.expect("[")?;
    let ids = p.parse_operand_list()?;
    p.expect("]")?;
    attr_dict(p, st)?;
    let tpos = p.pos;
    let t = colon_type(p)?;
    let Some(e) = elem_of(p.ctx, t) else {
        return p.err(tpos, "expected memref type");
    };
    let index = p.index_type();
    let mut ops = vec![p.resolve_operand(&m, t)?];
    ops.extend(resolve_same(p, &ids, index)?);
    Ok((ops, e))
}

fn parse_load(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let (ops, e) = parse_indexed(p, st)?;
    st.operands = ops;
    st.result_types.push(e);
    Ok(())
}

fn print_load(p: &mut Printer, op: Op) {
    print_indexed(p, op, 0);
}

/// ` [%v, ]%m[%i, ...] attrs : memref-type`, the memref being operand `m`.
fn print_indexed(p: &mut Printer, op: Op, m: usize) {
    let ops = p.ctx.operands(op);
    p.w(" ");
    for &v in &ops[..m] {
        p.operand(v);
        p.w(", ");
    }
    p.operand(ops[m]);
    p.w("[");
    p.operands(&ops[m + 1..]);
    p.w("]");
    p.attr_dict(op, &[]);
    p.w(" : ");
    let t = p.ctx.value_type(ops[m]);
    p.ty(t);
}

fn parse_store(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let v = p.parse_operand_ref()?;
    p.expect(",")?;
    let (rest, e) = parse_indexed(p, st)?;
    let mut ops = vec![p.resolve_operand(&v, e)?];
    ops.extend(rest);
    st.operands = ops;
    Ok(())
}

fn print_store(p: &mut Printer, op: Op) {
    print_indexed(p, op, 1);
}

fn parse_dim(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let m = p.parse_operand_ref()?;
    p.expect(",")?;
    let i = p.parse_operand_ref()?;
    attr_dict(p, st)?;
    let t = colon_type(p)?;
    let index = p.index_type();
    st.operands
        .extend([p.resolve_operand(&m, t)?, p.resolve_operand(&i, index)?]);
    st.result_types.push(index);
    Ok(())
}

fn print_dim(p: &mut Printer, op: Op) {
    print_operands_attrs_type(p, op, 0);
}

fn parse_fill(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    if p.eat("(") {
        // 14: `linalg.fill(%v, %m) : f32, memref<...>`
        let ops = p.parse_operand_list()?;
        p.expect(")")?;
        attr_dict(p, st)?;
        p.expect(":")?;
        let tys = p.parse_type_list_no_parens()?;
        st.operands = resolve(p, &ops, &tys)?;
    } else {
        // 15: `linalg.fill ins(%v : f32) outs(%m : memref<...>)`
        p.note_edition(Edition::V15);
        p.expect_keyword("ins")?;
        p.expect("(")?;
        parse_operands_and_types(p, &mut st.operands)?;
        p.expect(")")?;
        p.expect_keyword("outs")?;
        p.expect("(")?;
        parse_operands_and_types(p, &mut st.operands)?;
        p.expect(")")?;
        attr_dict(p, st)?;
    }
    Ok(())
}

fn print_fill(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    if p.edition() == Edition::V15 {
        p.w(" ins(");
        p.operand(ops[0]);
        p.w(" : ");
        let t = p.ctx.value_type(ops[0]);
        p.ty(t);
        p.w(") outs(");
        p.operand(ops[1]);
        p.w(" : ");
        let t = p.ctx.value_type(ops[1]);
        p.ty(t);
        p.w(")");
        p.attr_dict(op, &[]);
    } else {
        p.w("(");
        p.operands(ops);
        p.w(")");
        p.attr_dict(op, &[]);
        p.w(" : ");
        let tys = types_of(p.ctx, ops);
        p.types(&tys);
        // 14's printer leaves a space after the types.
        p.w(" ");
    }
}

fn parse_plain_yield(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    attr_dict(p, st)?;
    parse_operands_and_types(p, &mut st.operands)
}

fn print_plain_yield(p: &mut Printer, op: Op) {
    p.attr_dict(op, &[]);
    let ops = p.ctx.operands(op);
    print_operands_and_types(p, ops);
}

/// The attributes `linalg.generic` prints in its leading dictionary.
const GENERIC_TRAITS: [&str; 4] = ["doc", "indexing_maps", "iterator_types", "library_call"];

/// `ins(%a, %b : T, U)` or `outs(...)` if the keyword is next.
fn parse_ins_outs(p: &mut Parser, kw: &str) -> PResult<Vec<Value>> {
    if !p.eat_keyword(kw) {
        return Ok(vec![]);
    }
    p.expect("(")?;
    let ops = p.parse_operand_list()?;
    p.expect(":")?;
    let tys = p.parse_type_list_no_parens()?;
    p.expect(")")?;
    resolve(p, &ops, &tys)
}

/// `linalg.generic {traits} ins(...) outs(...) attrs = {...} {region} -> T`,
/// the same in 14 and 15.
fn parse_generic(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let traits = p.parse_attr_dict()?;
    st.attrs.extend(traits);
    attr_dict(p, st)?;
    let ins = parse_ins_outs(p, "ins")?;
    let outs = parse_ins_outs(p, "outs")?;
    let seg = segment_sizes(p.ctx, &[ins.len(), outs.len()]);
    let s = p.ctx.sym("operand_segment_sizes");
    st.attrs.push((s, seg));
    st.operands = ins;
    st.operands.extend(outs);
    if p.eat_keyword("attrs") {
        p.expect("=")?;
        attr_dict(p, st)?;
    }
    let r = p.parse_region(&[], false)?;
    st.regions.push(r);
    st.result_types = optional_arrow_types(p)?;
    Ok(())
}

fn print_generic(p: &mut Printer, op: Op) {
    p.w(" ");
    let traits: Vec<(Symbol, Attribute)> = p
        .ctx
        .attrs(op)
        .iter()
        .filter(|(k, _)| GENERIC_TRAITS.contains(&p.ctx.str(*k)))
        .copied()
        .collect();
    if !traits.is_empty() {
        p.w("{");
        print_dict_entries(p.ctx, &traits, &mut p.out);
        p.w("}");
    }
    let segs = segments(p.ctx, op, 2);
    for (kw, vs) in [(" ins(", &segs[0]), (" outs(", &segs[1])] {
        if !vs.is_empty() {
            p.w(kw);
            p.operands(vs);
            p.w(" : ");
            let tys = types_of(p.ctx, vs);
            p.types(&tys);
            p.w(")");
        }
    }
    let mut elided = GENERIC_TRAITS.to_vec();
    elided.push("operand_segment_sizes");
    let extra = p
        .ctx
        .attrs(op)
        .iter()
        .any(|(k, _)| !elided.contains(&p.ctx.str(*k)));
    if extra {
        // MLIR prints " attrs = " and then the dictionary with its own
        // leading space.
        p.w(" attrs = ");
        p.attr_dict(op, &elided);
    }
    if let Some(&r) = p.ctx.regions_of(op).first() {
        if !p.ctx.region_blocks(r).is_empty() {
            p.w(" ");
            p.region(r, true, true);
        }
    }
    let results = types_of(p.ctx, p.ctx.results(op));
    if !results.is_empty() {
        p.w(" -> ");
        p.result_types(&results);
    }
}

/// `arith::AtomicRMWKind` (14 and 15), by value.
const RMW_KINDS: [&str; 13] = [
    "addf", "addi", "assign", "maxf", "maxs", "maxu", "minf", "mins", "minu", "mulf", "muli",
    "ori", "andi",
];

/// The kind of a `memref.atomic_rmw`, if its `kind` is one.
fn rmw_kind(ctx: &Context, op: Op) -> Option<&'static str> {
    match ctx.attr_kind(ctx.get_attr(op, "kind")?) {
        AttrKind::Integer(i, _) => usize::try_from(*i)
            .ok()
            .and_then(|i| RMW_KINDS.get(i).copied()),
        _ => None,
    }
}

/// `kind %value, %memref[%i, ...] attrs : (T, memref-type) -> T`.
fn parse_atomic_rmw(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    p.skip_ws();
    let kpos = p.pos;
    // A keyword or a string (`"addf"`), as an enum attribute reads.
    let kind = if p.peek() == b'"' {
        Some(p.string_lit()?)
    } else {
        p.ident().map(str::to_string)
    };
    let Some(k) = kind.and_then(|k| RMW_KINDS.iter().position(|&n| n == k)) else {
        return p.err(
            kpos,
            format!(
                "custom op 'memref.atomic_rmw' expected string or keyword containing one of the following enum values for attribute 'kind' [{}]",
                RMW_KINDS.join(", ")
            ),
        );
    };
    let v = p.parse_operand_ref()?;
    p.expect(",")?;
    let m = p.parse_operand_ref()?;
    p.expect("[")?;
    let ids = p.parse_operand_list()?;
    p.expect("]")?;
    attr_dict(p, st)?;
    p.expect(":")?;
    p.expect("(")?;
    let vt = p.parse_type()?;
    p.expect(",")?;
    let mt = p.parse_type()?;
    p.expect(")")?;
    p.expect("->")?;
    let rt = p.parse_type()?;
    let index = p.index_type();
    st.operands.push(p.resolve_operand(&v, vt)?);
    st.operands.push(p.resolve_operand(&m, mt)?);
    st.operands.extend(resolve_same(p, &ids, index)?);
    st.result_types.push(rt);
    let i64t = p.ctx.int_type(64);
    let a = p.ctx.int_attr(k as i128, i64t);
    let s = p.ctx.sym("kind");
    st.attrs.push((s, a));
    Ok(())
}

fn print_atomic_rmw(p: &mut Printer, op: Op) {
    let ops = p.ctx.operands(op);
    p.w(" ");
    p.w(rmw_kind(p.ctx, op).unwrap_or("addf"));
    p.w(" ");
    p.operand(ops[0]);
    p.w(", ");
    p.operand(ops[1]);
    p.w("[");
    p.operands(&ops[2..]);
    p.w("]");
    p.attr_dict(op, &["kind"]);
    p.w(" : (");
    let (vt, mt) = (p.ctx.value_type(ops[0]), p.ctx.value_type(ops[1]));
    p.ty(vt);
    p.w(", ");
    p.ty(mt);
    p.w(") -> ");
    let rt = p.ctx.value_type(p.ctx.result(op, 0));
    p.ty(rt);
}

/// ODS's checks and `AtomicRMWOp::verify`, in upstream's order and words.
fn verify_atomic_rmw(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    if ops.len() < 2 {
        return Err(format!(
            "expected 2 or more operands, but found {}",
            ops.len()
        ));
    }
    if ctx.results(op).len() != 1 {
        return Err(format!(
            "requires one result, but found {}",
            ctx.results(op).len()
        ));
    }
    if ctx.get_attr(op, "kind").is_none() {
        return Err("requires attribute 'kind'".into());
    }
    if rmw_kind(ctx, op).is_none() {
        return Err("attribute 'kind' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12".into());
    }
    let scalar = |t: Type| {
        let k = ctx.kind(t);
        k.is_float() || matches!(k, TypeKind::Integer(_, Signedness::Signless))
    };
    let (vt, mt) = (ctx.value_type(ops[0]), ctx.value_type(ops[1]));
    if !scalar(vt) {
        return Err(format!(
            "operand #0 must be signless integer or floating-point, but got '{}'",
            tyname(ctx, vt)
        ));
    }
    let (rank, elem) = match ctx.kind(mt) {
        TypeKind::MemRef { shape, elem, .. } if scalar(*elem) => (shape.len(), *elem),
        _ => {
            return Err(format!(
            "operand #1 must be memref of signless integer or floating-point values, but got '{}'",
            tyname(ctx, mt)
        ))
        }
    };
    for (i, &x) in ops.iter().enumerate().skip(2) {
        if ctx.kind(ctx.value_type(x)) != &TypeKind::Index {
            return Err(format!(
                "operand #{i} must be index, but got '{}'",
                tyname(ctx, ctx.value_type(x))
            ));
        }
    }
    let rt = ctx.value_type(ctx.result(op, 0));
    if !scalar(rt) {
        return Err(format!(
            "result #0 must be signless integer or floating-point, but got '{}'",
            tyname(ctx, rt)
        ));
    }
    if vt != elem {
        return Err("failed to verify that value type matches element type of memref".into());
    }
    if vt != rt {
        return Err("failed to verify that all of {value, result} have same type".into());
    }
    if rank != ops.len() - 2 {
        return Err("expects the number of subscripts to be equal to memref rank".into());
    }
    let kind = rmw_kind(ctx, op).unwrap_or("assign");
    let float = ctx.kind(vt).is_float();
    match kind {
        "addf" | "maxf" | "minf" | "mulf" if !float => {
            Err(format!("with kind '{kind}' expects a floating-point type"))
        }
        "addi" | "maxs" | "maxu" | "mins" | "minu" | "muli" | "ori" | "andi" if float => {
            Err(format!("with kind '{kind}' expects an integer type"))
        }
        _ => Ok(()),
    }
}
