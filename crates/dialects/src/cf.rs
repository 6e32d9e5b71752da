//! The `cf` dialect (`br`, `cond_br`, `assert` of `std` before 15).

use crate::format::{CArg, Custom, Frame, Var, View};
use crate::ods::{AttrClass, Shape, N};
use crate::util::*;
use crate::OpDef;
use mlir_async_ir::*;
use mlir_async_rewrite::{Builder, RewriteError};
use mlir_async_syntax::{PResult, Parser, Printer};

fn i1(ctx: &mut Context) -> Type {
    ctx.int_type(1)
}

crate::op! {
    /// `cf.br` (13 and 14: `br`): jumps to a block with its arguments.
    pub struct BranchOp = "cf.br" {
        operands: [destOperands: Variadic],
        results: [],
        successors: [dest],
        format: "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `cf.cond_br` (13 and 14: `cond_br`).
    pub struct CondBranchOp = "cf.cond_br" {
        operands: [
            condition: One = Fixed(i1),
            trueDestOperands: Variadic,
            falseDestOperands: Variadic,
        ],
        results: [],
        successors: [trueDest, falseDest],
        format: "$condition `,` $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `cf.assert` (13 and 14: `assert`).
    pub struct AssertOp = "cf.assert" {
        operands: [arg: One = Fixed(i1)],
        results: [],
        attrs: [msg: Str],
        format: "$arg `,` $msg attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `cf.switch` (13 and 14: `switch`).
    pub struct SwitchOp = "cf.switch" {
        operands: [flag: One, defaultOperands: Variadic, caseOperands: Variadic],
        results: [],
        attrs: [case_values: Any, case_operand_segments: Any],
        successors: [defaultDestination, caseDestinations: Variadic],
        customs: [SWITCH_OP_CASES],
        format: "$flag `:` type($flag) `,` `[` `\\n` custom<SwitchOpCases>(ref(type($flag)), $defaultDestination, $defaultOperands, type($defaultOperands), $case_values, $caseDestinations, $caseOperands, type($caseOperands)) `]` attr-dict",
        infer: Spelled,
    }
}

pub fn ops() -> Vec<OpDef> {
    vec![
        BranchOp::def()
            .shape(Shape::new(N::AtLeast(0), N::Exactly(0)).successors(1))
            .successor_operands(successor_operand_range)
            .terminator(),
        CondBranchOp::def()
            .shape(Shape::new(N::AtLeast(1), N::Exactly(0)).successors(2))
            .successor_operands(successor_operand_range)
            .terminator(),
        AssertOp::def()
            .shape(Shape::new(N::Exactly(1), N::Exactly(0)).attrs(&[("msg", AttrClass::Str)])),
        SwitchOp::def()
            .successor_operands(successor_operand_range)
            .verify(verify_switch)
            .terminator(),
    ]
}

/// The operands an op forwards to its successor `i`, as an index range
/// into its operand list.
pub fn successor_operand_range(ctx: &Context, op: Op, i: usize) -> std::ops::Range<usize> {
    let n = ctx.operands(op).len();
    match ctx.name(op) {
        "cf.br" => 0..n,
        "cf.cond_br" => {
            let s = get_segment_array::<3>(ctx, op).unwrap_or_else(|| [1, n.saturating_sub(1), 0]);
            if i == 0 {
                1..1 + s[1]
            } else {
                1 + s[1]..1 + s[1] + s[2]
            }
        }
        "cf.switch" => {
            let Some(s) = get_segment_array::<3>(ctx, op) else {
                return 0..0;
            };
            if i == 0 {
                return s[0].min(n)..(s[0] + s[1]).min(n);
            }
            let cases = switch_case_sizes(ctx, op).unwrap_or_default();
            let start = s[0] + s[1] + cases.iter().take(i - 1).sum::<usize>();
            let len = cases.get(i - 1).copied().unwrap_or(0);
            start.min(n)..(start + len).min(n)
        }
        _ => 0..0,
    }
}

/// The state of `cf.br ^dest(args)`.
pub fn br_state(ctx: &mut Context, loc: Location, dest: Block, args: Vec<Value>) -> OperationState {
    let mut st = OperationState::new(ctx.sym("cf.br"), loc);
    st.operands = args;
    st.successors = vec![dest];
    st
}

/// Builds `cf.br ^dest(args)`.
pub fn build_br(
    ctx: &mut Context,
    ip: InsertPoint,
    loc: Location,
    dest: Block,
    args: Vec<Value>,
) -> Op {
    let st = br_state(ctx, loc, dest, args);
    ctx.build(ip, st)
}

/// The state of `cf.cond_br %c, ^t(targs), ^f(fargs)`.
pub fn cond_br_state(
    ctx: &mut Context,
    loc: Location,
    cond: Value,
    (t, targs): (Block, &[Value]),
    (f, fargs): (Block, &[Value]),
) -> OperationState {
    let mut st = OperationState::new(ctx.sym("cf.cond_br"), loc);
    let seg = segment_sizes(ctx, &[1, targs.len(), fargs.len()]);
    st.operands = vec![cond];
    st.operands.extend_from_slice(targs);
    st.operands.extend_from_slice(fargs);
    st.successors = vec![t, f];
    st.attrs = vec![(ctx.sym("operand_segment_sizes"), seg)];
    st
}

/// Builds `cf.cond_br` as [`cond_br_state`] describes it, with the op name
/// and each shape's `operand_segment_sizes` interned once and the operand
/// list reused: a lowering that builds one per await (thousands in a large
/// module) otherwise interns a dense attribute, its vector type and two
/// names, and allocates three lists, every time.
#[derive(Default)]
pub struct CondBrCache {
    names: Option<(Symbol, Symbol)>,
    segments: mlir_async_ir::fxhash::FxHashMap<(usize, usize), Attribute>,
    operands: Vec<Value>,
}

impl CondBrCache {
    /// Builds `cf.cond_br %c, ^t(targs), ^f(fargs)` with `b`.
    pub fn build(
        &mut self,
        b: &mut dyn Builder,
        loc: Location,
        cond: Value,
        (t, targs): (Block, &[Value]),
        (f, fargs): (Block, &[Value]),
    ) -> Result<Op, RewriteError> {
        let ctx = b.context();
        let (name, key) = *self
            .names
            .get_or_insert_with(|| (ctx.sym("cf.cond_br"), ctx.sym("operand_segment_sizes")));
        let shape = (targs.len(), fargs.len());
        let seg = *self
            .segments
            .entry(shape)
            .or_insert_with(|| segment_sizes(ctx, &[1, shape.0, shape.1]));
        self.operands.clear();
        self.operands.push(cond);
        self.operands.extend_from_slice(targs);
        self.operands.extend_from_slice(fargs);
        b.build_branch(name, loc, &self.operands, &[(key, seg)], &[t, f])
    }
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
    let st = cond_br_state(ctx, loc, cond, (t, &targs), (f, &fargs));
    ctx.build(ip, st)
}

/// The operand counts of `cf.switch`'s cases (`case_operand_segments`).
fn switch_case_sizes(ctx: &Context, op: Op) -> Option<Vec<usize>> {
    let a = ctx.get_attr(op, "case_operand_segments")?;
    match ctx.attr_kind(a) {
        AttrKind::Dense(elems, t, splat) => {
            let n = match ctx.kind(*t) {
                TypeKind::Tensor { shape, .. } if shape.len() == 1 => shape[0]? as usize,
                TypeKind::Vector { shape, .. } if shape.len() == 1 => shape[0] as usize,
                _ => return None,
            };
            // A splat may claim any count: no list longer than a switch's.
            if n > 1 << 24 {
                return None;
            }
            let at = |i: usize| match elems.get(if *splat { 0 } else { i }) {
                Some(DenseElem::Int(v)) => usize::try_from(*v).ok(),
                _ => None,
            };
            (0..n).map(at).collect()
        }
        _ => None,
    }
}

/// `cf.switch`'s case values as written in its custom form: the value's
/// bits read unsigned (`-42 : i32` prints as `4294967254`).
fn switch_case_values(ctx: &Context, op: Op) -> Option<Vec<i128>> {
    let a = ctx.get_attr(op, "case_values")?;
    match ctx.attr_kind(a) {
        AttrKind::Dense(elems, t, splat) => {
            let n = match ctx.kind(*t) {
                TypeKind::Vector { shape, .. } if shape.len() == 1 => shape[0] as usize,
                TypeKind::Tensor { shape, .. } if shape.len() == 1 => shape[0]? as usize,
                _ => return None,
            };
            // A splat may claim any count: no list longer than a switch's.
            if n > 1 << 24 {
                return None;
            }
            let at = |i: usize| match elems.get(if *splat { 0 } else { i }) {
                Some(DenseElem::Int(v)) => Some(*v),
                _ => None,
            };
            (0..n).map(at).collect()
        }
        _ => None,
    }
}

/// `custom<SwitchOpCases>(ref(type($flag)), $defaultDestination,
/// $defaultOperands, type($defaultOperands), $case_values,
/// $caseDestinations, $caseOperands, type($caseOperands))`:
/// `default: ^bb(args), 1: ^bb(args), ...`, one form in every generation.
const SWITCH_OP_CASES: Custom = Custom {
    name: "SwitchOpCases",
    parse: parse_switch_cases,
    print: print_switch_cases,
};

/// The operand groups of `cf.switch`.
const DEFAULT_OPERANDS: usize = 1;
const CASE_OPERANDS: usize = 2;

fn parse_switch_cases(p: &mut Parser, fr: &mut Frame, _: &[CArg]) -> PResult<()> {
    let ft = fr.types(p, Var::Operand(0)).first().copied();
    let Some(width) = ft.and_then(|t| match p.ctx.kind(t) {
        TypeKind::Integer(w, _) => Some(*w),
        _ => None,
    }) else {
        return p.err_here("expected integer value");
    };
    p.skip_ws();
    let at = p.pos;
    if !p.eat_keyword("default") {
        let d = <SwitchOp as crate::format::Declared>::decl();
        return crate::format::op_err(p, d, at, "expected 'default'");
    }
    p.expect(":")?;
    let default = p.parse_successor()?;
    fr.st.successors.push(default);
    fr.begin_group(p, DEFAULT_OPERANDS, at);
    let mut default_types = vec![];
    fr.parse_successor_operands(p, DEFAULT_OPERANDS, &mut default_types)?;
    let mut values = vec![];
    let mut sizes = vec![];
    let mut case_types = vec![];
    fr.begin_group(p, CASE_OPERANDS, at);
    while p.eat(",") {
        p.skip_ws();
        let vpos = p.pos;
        // MLIR reads a case value as an `int64_t`, then keeps its low
        // `width` bits.
        let v = match p.int_lit() {
            Some(v) if i64::try_from(v).is_ok() || u64::try_from(v).is_ok() => v,
            _ => return p.err(vpos, "expected integer value"),
        };
        p.expect(":")?;
        let b = p.parse_successor()?;
        let before = fr.operand_count(CASE_OPERANDS);
        fr.parse_successor_operands(p, CASE_OPERANDS, &mut case_types)?;
        values.push(DenseElem::Int(sign_extend(v as i64 as i128, width)));
        fr.st.successors.push(b);
        sizes.push(fr.operand_count(CASE_OPERANDS) - before);
    }
    fr.set_types(p, Var::Operand(DEFAULT_OPERANDS), &default_types);
    fr.set_types(p, Var::Operand(CASE_OPERANDS), &case_types);
    let i32t = p.ctx.int_type(32);
    let n = sizes.len();
    let splat = sizes.iter().all(|&s| s == sizes[0]);
    let seg_elems: Vec<DenseElem> = if splat {
        sizes
            .first()
            .map(|&s| DenseElem::Int(s as i128))
            .into_iter()
            .collect()
    } else {
        sizes.iter().map(|&s| DenseElem::Int(s as i128)).collect()
    };
    let tt = p.ctx.ty(TypeKind::Tensor {
        shape: vec![Some(n as i64)],
        elem: i32t,
        encoding: None,
    });
    let cases = p.ctx.attr(AttrKind::Dense(seg_elems, tt, splat));
    let s = p.ctx.sym("case_operand_segments");
    fr.st.attrs.push((s, cases));
    if let (true, Some(ft)) = (n > 0, ft) {
        let vt = p.ctx.ty(TypeKind::Vector {
            shape: vec![n as i64],
            scalable: 0,
            elem: ft,
        });
        let splat = values.iter().all(|v| *v == values[0]);
        if splat {
            values.truncate(1);
        }
        let a = p.ctx.attr(AttrKind::Dense(values, vt, splat));
        let s = p.ctx.sym("case_values");
        fr.st.attrs.push((s, a));
    }
    Ok(())
}

/// `v`'s low `width` bits read as a signed number (how dense attributes
/// store a value).
fn sign_extend(v: i128, width: u32) -> i128 {
    if width == 0 || width >= 128 {
        return v;
    }
    let shift = 128 - width;
    (v << shift) >> shift
}

fn print_switch_cases(p: &mut Printer, v: &View, _: &[CArg]) {
    let op = v.op;
    let ops = p.ctx.operands(op);
    let succ = p.ctx.successors(op);
    let (Some(&flag), Some(&default)) = (ops.first(), succ.first()) else {
        return;
    };
    p.w("  default: ");
    let r = successor_operand_range(p.ctx, op, 0);
    p.successor_with_args(default, &ops[r]);
    let ft = p.ctx.value_type(flag);
    let width = p.ctx.kind(ft).bit_width().unwrap_or(64);
    let values = switch_case_values(p.ctx, op).unwrap_or_default();
    for (i, v) in values.iter().enumerate() {
        p.w(",");
        p.newline_indented(2);
        // `APInt::getLimitedValue`: the bits as unsigned, at most 64.
        let bits = if width >= 64 {
            *v as u64
        } else {
            (*v as u64) & ((1u64 << width) - 1)
        };
        p.w(&bits.to_string());
        p.w(": ");
        let r = successor_operand_range(p.ctx, op, i + 1);
        p.successor_with_args(succ[i + 1], &ops[r]);
    }
    if !values.is_empty() {
        p.newline_indented(0);
    }
}

/// What ODS and `SwitchOp::verify` check, in their order and words; the
/// custom printer relies on all of it.
fn verify_switch(ctx: &Context, op: Op) -> Result<(), String> {
    let ops = ctx.operands(op);
    let nsucc = ctx.successors(op).len();
    if nsucc == 0 {
        return Err("requires at least 1 successor, but found 0".into());
    }
    let Some(seg) = get_segments(ctx, op, 3) else {
        return Err("requires attribute 'operand_segment_sizes'".into());
    };
    if seg.iter().sum::<usize>() != ops.len() {
        return Err(format!(
            "operand count ({}) does not match with the total size ({}) specified in attribute 'operand_segment_sizes'",
            ops.len(),
            seg.iter().sum::<usize>()
        ));
    }
    if seg[0] != 1 {
        return Err(format!(
            "operand group starting at #0 requires 1 element, but found {}",
            seg[0]
        ));
    }
    let flag_t = ctx.value_type(ops[0]);
    if !matches!(ctx.kind(flag_t), TypeKind::Integer(..)) {
        return Err(format!(
            "operand #0 must be integer, but got '{}'",
            tyname(ctx, flag_t)
        ));
    }
    let Some(sizes) = switch_case_sizes(ctx, op) else {
        return Err("requires attribute 'case_operand_segments'".into());
    };
    if sizes.len() != nsucc - 1 || sizes.iter().sum::<usize>() != seg[2] {
        return Err(format!(
            "expects as many case operand segments as case destinations ({}) summing to the case operand count ({})",
            nsucc - 1,
            seg[2]
        ));
    }
    let values = match ctx.get_attr(op, "case_values") {
        None => None,
        Some(a) => {
            let et = match ctx.attr_kind(a) {
                AttrKind::Dense(_, t, _) => ctx.kind(*t).element_type(),
                _ => None,
            };
            let Some(vals) = switch_case_values(ctx, op) else {
                return Err("attribute 'case_values' failed to satisfy constraint: integer elements attribute".into());
            };
            if et != Some(flag_t) {
                return Err(format!(
                    "'flag' type ('{}') should match case value type ('{}')",
                    tyname(ctx, flag_t),
                    et.map(|t| tyname(ctx, t)).unwrap_or_default()
                ));
            }
            Some(vals)
        }
    };
    let nvals = values.as_ref().map_or(0, |v| v.len());
    if nvals != nsucc - 1 {
        return Err(format!(
            "number of case values ({nvals}) should match number of case destinations ({})",
            nsucc - 1
        ));
    }
    Ok(())
}
