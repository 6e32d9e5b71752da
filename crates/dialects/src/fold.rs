//! The folders of the ops, hooks of their definitions (MLIR's
//! `hasFolder`: `OpDef::folder` names each op's, and the drivers find it
//! by the op name's symbol). Dialect conversion asks them of every op
//! whose legality the conversion target leaves open: before trying
//! patterns on such an op, `OperationLegalizer` asks the op to fold with
//! the values of its constant operands, and replaces it by an existing
//! value or by a constant materialized just before it. A pass lowering
//! with dialect conversion (`async-to-async-runtime`) therefore folds
//! `arith.addi %x, %c0` to `%x` on the way, and `mlir-opt`'s output shows
//! it; the greedy driver (`-canonicalize`) asks them of every op it
//! visits.
//!
//! The `arith` folders are those of LLVM 14 and 15 for scalar integer (up
//! to 128 bits), index and float (`f16`, `bf16`, `f32`, `f64`) ops (14
//! and 15 differ in constant shifts, the `cmpi` operand order,
//! `mulf(1.0, x)`, and 15's `negf` and `remf`), and 13's where they
//! differ; each rule was checked against `mlir-opt-14` and `mlir-opt-15`,
//! in the order the folder tries them, trait folds (`Idempotent`) after
//! the op's own. Each op's folder is its rule behind a shared prologue:
//! the one result, the operands' constants, and for vectors and tensors
//! the rule applied to splats or element by element. What is not covered
//! here (`f80`/`f128` arithmetic, ops without a hook) is left as it is.

use crate::arith::{CMPF, CMPI};
use mlir_async_ir::{AttrKind, Context, DenseElem, Op, Type, TypeKind, Value, ValueDef};
use mlir_async_rewrite::fold::{self as rw, FoldResult};
use mlir_async_syntax::printer::{float_from_bits, float_to_bits, round_float};
use mlir_async_syntax::Edition;

/// What an op folds to.
#[derive(Clone, Debug, PartialEq)]
pub enum Folded {
    /// An existing value.
    Value(Value),
    /// A new constant of the op's result type, as bits of its width (a
    /// `true`/`false` for `i1`).
    Const(u128),
    /// A new floating-point constant of the op's result type (computed in
    /// that type's precision), as an `f64` (which holds every value of
    /// the narrower types exactly, NaN payloads included).
    Float(f64),
    /// A new vector or tensor constant, element by element (a splat when
    /// they are all equal, as `DenseElementsAttr::get` makes it).
    Elements(Vec<DenseElem>),
    /// Not folded, but changed in place (and the change stays, as in
    /// MLIR): the two operands swapped and the predicate set to this one
    /// (an index into [`CMPI`]).
    SwapOperands(usize),
    /// Not folded, but changed in place: the operand replaced by this
    /// value (`extsi(extsi(x))` reads `x` directly).
    SetOperand(Value),
}

/// The predicate that holds for swapped operands, as an index into
/// [`CMPI`] (`eq` and `ne` stay).
fn mirror(p: &str) -> Option<usize> {
    let m = match p {
        "slt" => "sgt",
        "sgt" => "slt",
        "sle" => "sge",
        "sge" => "sle",
        "ult" => "ugt",
        "ugt" => "ult",
        "ule" => "uge",
        "uge" => "ule",
        same => same,
    };
    CMPI.iter().position(|&x| x == m)
}

/// The context the folders read constants through: `elem` is `Some((i,
/// n))` while a vector or tensor op is folded element by element (the
/// `i`-th of `n`), and constant operands then read as their `i`-th
/// element; otherwise a splat reads as its element, and other dense
/// constants as no constant at all (MLIR's matchers see splats only).
#[derive(Clone, Copy)]
struct Cx<'a> {
    ctx: &'a Context,
    elem: Option<(usize, usize)>,
}

impl std::ops::Deref for Cx<'_> {
    type Target = Context;
    fn deref(&self) -> &Context {
        self.ctx
    }
}

/// The element type of a vector or tensor, else `t` itself.
fn scalar_of(ctx: &Context, t: Type) -> Type {
    match ctx.kind(t) {
        TypeKind::Vector { elem, .. } | TypeKind::Tensor { elem, .. } => *elem,
        _ => t,
    }
}

fn is_shaped(ctx: &Context, t: Type) -> bool {
    matches!(
        ctx.kind(t),
        TypeKind::Vector { .. } | TypeKind::Tensor { .. }
    )
}

/// The `value` attribute of the constant-like op defining `v`.
fn constant_attr(ctx: &Context, v: Value) -> Option<&AttrKind> {
    let ValueDef::Result(d, 0) = ctx.value_def(v) else {
        return None;
    };
    // Any constant-like op (MLIR's `m_Constant`): an operand a lowering
    // already turned into `llvm.mlir.constant` still folds. The folders
    // run from a registry's table, whose context has the trait of every
    // op registered (`arith.constant`'s too): no name to compare.
    if !ctx.traits_of(d).constant_like {
        return None;
    }
    Some(ctx.attr_kind(ctx.get_attr(d, "value")?))
}

/// The element of a dense constant that `cx` reads (see [`Cx`]).
fn dense_elem(cx: Cx, elems: &[DenseElem], splat: bool) -> Option<DenseElem> {
    match (splat, cx.elem) {
        (true, _) => elems.first().cloned(),
        (false, Some((i, _))) => elems.get(i).cloned(),
        (false, None) => None,
    }
}

/// The bit width of a scalar integer or index type, or of the elements
/// of a vector or tensor of them (index is 64 bits wide, as MLIR folds
/// it); `None` for anything else or above 128 bits. A zero-width integer
/// folds too: its one value is 0.
pub(crate) fn width(ctx: &Context, t: Type) -> Option<u32> {
    match ctx.kind(scalar_of(ctx, t)) {
        TypeKind::Integer(w, _) if *w <= 128 => Some(*w),
        TypeKind::Index => Some(64),
        _ => None,
    }
}

pub(crate) fn mask(w: u32) -> u128 {
    if w == 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// `bits` (of width `w`) read as a signed number.
fn signed(bits: u128, w: u32) -> i128 {
    if w == 0 {
        return 0;
    }
    let shift = 128 - w;
    ((bits << shift) as i128) >> shift
}

/// The bits of `v` if an `arith.constant` defines it (for a vector or
/// tensor, the element `cx` reads).
fn const_bits(cx: Cx, v: Value) -> Option<u128> {
    let w = width(&cx, cx.value_type(v))?;
    match constant_attr(&cx, v)? {
        AttrKind::Integer(i, _) => Some(*i as u128 & mask(w)),
        AttrKind::Bool(b) => Some(u128::from(*b)),
        AttrKind::Dense(elems, _, splat) => match dense_elem(cx, elems, *splat)? {
            DenseElem::Int(i) => Some(i as u128 & mask(w)),
            DenseElem::Bool(b) => Some(u128::from(b)),
            DenseElem::Float(_) | DenseElem::WideFloat(_) => None,
        },
        _ => None,
    }
}

/// The `value` of the `arith.constant` that materializes `f` in type `t`
/// (`None` for a value or an in-place change): integers signed, as MLIR
/// prints them, `i1` as `true`/`false`.
pub fn constant_value(ctx: &Context, f: Folded, t: Type) -> Option<AttrKind> {
    if is_shaped(ctx, t) {
        let elems = match f {
            Folded::Const(bits) => vec![int_elem(ctx, bits, t)?],
            Folded::Float(v) => vec![DenseElem::Float(v.to_bits())],
            Folded::Elements(v) => v,
            Folded::Value(_) | Folded::SwapOperands(_) | Folded::SetOperand(_) => return None,
        };
        let splat = elems.iter().all(|e| *e == elems[0]);
        let elems = if splat { elems[..1].to_vec() } else { elems };
        return Some(AttrKind::Dense(elems, t, splat));
    }
    match f {
        Folded::Const(bits) => Some(match ctx.kind(t) {
            TypeKind::Integer(1, _) => AttrKind::Bool(bits != 0),
            _ => AttrKind::Integer(signed(bits, width(ctx, t)?), t),
        }),
        Folded::Float(v) => Some(AttrKind::Float(v.to_bits(), t)),
        Folded::Elements(_)
        | Folded::Value(_)
        | Folded::SwapOperands(_)
        | Folded::SetOperand(_) => None,
    }
}

/// An integer element of (the element type of) `t`, from its bits.
fn int_elem(ctx: &Context, bits: u128, t: Type) -> Option<DenseElem> {
    let w = width(ctx, t)?;
    Some(
        if w == 1 && *ctx.kind(scalar_of(ctx, t)) != TypeKind::Index {
            DenseElem::Bool(bits != 0)
        } else {
            DenseElem::Int(signed(bits, w))
        },
    )
}

/// Whether predicate `p` (an index into [`CMPI`]) holds for `a` and `b`.
fn compare(p: &str, a: u128, b: u128, w: u32) -> Option<bool> {
    let (sa, sb) = (signed(a, w), signed(b, w));
    Some(match p {
        "eq" => a == b,
        "ne" => a != b,
        "slt" => sa < sb,
        "sle" => sa <= sb,
        "sgt" => sa > sb,
        "sge" => sa >= sb,
        "ult" => a < b,
        "ule" => a <= b,
        "ugt" => a > b,
        "uge" => a >= b,
        _ => return None,
    })
}

fn predicate(ctx: &Context, op: Op) -> Option<&'static str> {
    match ctx.attr_kind(ctx.get_attr(op, "predicate")?) {
        AttrKind::Integer(i, _) => CMPI.get(usize::try_from(*i).ok()?).copied(),
        _ => None,
    }
}

/// The defining op of `v` if it is named `name`, with its operands.
fn defined_by<'c>(ctx: &'c Context, v: Value, name: &str) -> Option<&'c [Value]> {
    let d = ctx.defining_op(v)?;
    (ctx.name(d) == name).then(|| ctx.operands(d))
}

/// What an `arith` op's rule reads: the op, its operands, its one result
/// and that result's type, the generation, and through `cx` the constants
/// (of the element being folded, see [`Cx`]).
#[derive(Clone, Copy)]
struct Arith<'a> {
    cx: Cx<'a>,
    op: Op,
    ops: &'a [Value],
    result: Value,
    rt: Type,
    shaped: bool,
    ed: Edition,
}

impl<'a> Arith<'a> {
    /// `None` for an op without exactly one result (the generic form
    /// allows it; no rule folds it).
    fn new(cx: Cx<'a>, op: Op, ed: Edition) -> Option<Self> {
        let ctx = cx.ctx;
        let &[result] = ctx.results(op) else {
            return None;
        };
        let rt = ctx.value_type(result);
        Some(Arith {
            cx,
            op,
            ops: ctx.operands(op),
            result,
            rt,
            shaped: is_shaped(ctx, rt),
            ed,
        })
    }
    /// The bits of operand `i` if it is a constant (see [`const_bits`]).
    fn c(&self, i: usize) -> Option<u128> {
        self.ops.get(i).and_then(|&v| const_bits(self.cx, v))
    }
    /// The two operands of a binary op, and their bits where constant.
    fn binary(&self) -> Option<(Value, Value, Option<u128>, Option<u128>)> {
        match *self.ops {
            [l, r] => Some((l, r, self.c(0), self.c(1))),
            _ => None,
        }
    }
    /// The bit width of the result (of its elements) and its mask; `None`
    /// for a result that is no integer up to 128 bits wide.
    fn int_result(&self) -> Option<(u32, u128)> {
        let w = width(&self.cx, self.rt)?;
        Some((w, mask(w)))
    }
}

/// An `arith` op's folding rule: what the op (or, folded element by
/// element, one element of it) folds to. The hooks below are the ops'
/// folders; each hands its rule to the prologue the ops share.
type Rule = for<'a> fn(Arith<'a>) -> Option<Folded>;

/// The folder of an op whose rule reads scalar constants and splats only
/// (MLIR's folders of `select`, `cmpi`, `cmpf`, `truncf`, `index_cast`).
fn scalar_only(ctx: &mut Context, op: Op, ed: Edition, rule: Rule) -> rw::Folded {
    let f = Arith::new(Cx { ctx, elem: None }, op, ed).and_then(rule);
    outcome(ctx, op, f)
}

/// The folder of an op whose rule MLIR's constant folders apply to each
/// element of vector and tensor constants that are not splats.
fn elementwise(ctx: &mut Context, op: Op, ed: Edition, rule: Rule) -> rw::Folded {
    let Some(a) = Arith::new(Cx { ctx, elem: None }, op, ed) else {
        return rw::Folded::No;
    };
    let shaped = a.shaped;
    let f = match rule(a) {
        None if shaped => fold_elementwise(ctx, op, ed, rule),
        f => f,
    };
    outcome(ctx, op, f)
}

/// What the driver gets of a rule's answer: the value, the constant of
/// the result's type, or the in-place change made. (Most answers are
/// none: that one costs no call.)
#[inline]
fn outcome(ctx: &mut Context, op: Op, f: Option<Folded>) -> rw::Folded {
    match f {
        None => rw::Folded::No,
        Some(f) => outcome_of(ctx, op, f),
    }
}

/// [`outcome`] of an answer.
fn outcome_of(ctx: &mut Context, op: Op, f: Folded) -> rw::Folded {
    match f {
        Folded::Value(v) => rw::Folded::Results(vec![FoldResult::Value(v)]),
        Folded::SwapOperands(p) => {
            let ops = ctx.operands(op).to_vec();
            let [l, r] = ops[..] else {
                return rw::Folded::No;
            };
            ctx.set_operands(op, vec![r, l]);
            let i64t = ctx.int_type(64);
            let a = ctx.int_attr(p as i128, i64t);
            ctx.set_attr(op, "predicate", a);
            rw::Folded::InPlace
        }
        Folded::SetOperand(v) => {
            ctx.set_operand(op, 0, v);
            rw::Folded::InPlace
        }
        c => {
            let t = ctx.value_type(ctx.result(op, 0));
            match constant_value(ctx, c, t) {
                Some(k) => rw::Folded::Results(vec![FoldResult::Attr(ctx.attr(k))]),
                None => rw::Folded::No,
            }
        }
    }
}

/// A vector or tensor op (of one result) over constants of which one at
/// least is not a splat: MLIR's constant folders apply the scalar rule to
/// each element. An identity a rule finds for one element (`addi(x, 0)`)
/// stands for that element's value.
fn fold_elementwise(ctx: &Context, op: Op, ed: Edition, rule: Rule) -> Option<Folded> {
    let rt = ctx.value_type(ctx.result(op, 0));
    let ops = ctx.operands(op);
    let mut n = None;
    for &v in ops {
        match constant_attr(ctx, v)? {
            AttrKind::Dense(elems, _, false) => n = Some(elems.len()),
            AttrKind::Dense(..) => {}
            _ => return None,
        }
    }
    let n = n?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let cx = Cx {
            ctx,
            elem: Some((i, n)),
        };
        let e = match rule(Arith::new(cx, op, ed)?)? {
            Folded::Const(bits) => int_elem(ctx, bits, rt)?,
            Folded::Float(v) => DenseElem::Float(v.to_bits()),
            Folded::Value(v) if ops.contains(&v) => match const_bits(cx, v) {
                Some(bits) => int_elem(ctx, bits, rt)?,
                None => DenseElem::Float(const_float(cx, v)?.to_bits()),
            },
            _ => return None,
        };
        out.push(e);
    }
    Some(Folded::Elements(out))
}

// The `arith` ops' folders, hooks of their definitions in
// `crate::arith`. Each rule was checked against `mlir-opt-14` and
// `mlir-opt-15` in the order the folder tries it; 13's, where they
// differ, are the `*_13` rules further down. An op without a hook here
// (`arith.constant`, which the drivers read as a constant, and
// `arith.extf`) has no folder in any generation.

/// `addf(x, -0.0)`, then two constants (13: constants only).
pub fn fold_addf(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    float_binary_hook(ctx, op, ed, FloatOp::Add)
}

/// `subf(x, +0.0)`, then two constants (13: constants only).
pub fn fold_subf(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    float_binary_hook(ctx, op, ed, FloatOp::Sub)
}

/// `mulf(x, 1.0)` (and, before 15, `mulf(1.0, x)`), then two constants
/// (13: constants only).
pub fn fold_mulf(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    float_binary_hook(ctx, op, ed, FloatOp::Mul)
}

/// `divf(x, 1.0)`, then two constants (13: constants only).
pub fn fold_divf(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    float_binary_hook(ctx, op, ed, FloatOp::Div)
}

/// The folder of the four float operations of two operands. Each is
/// asked of every such op a round of the greedy driver visits (most of a
/// numeric loop body), and most do not fold: each operand's constant is
/// read once, an op with no constant operand (which no rule folds) stops
/// there, and a scalar goes straight to the rules with those constants,
/// without the prologue that vectors and tensors need.
fn float_binary_hook(ctx: &mut Context, op: Op, ed: Edition, f: FloatOp) -> rw::Folded {
    let &[l, r] = ctx.operands(op) else {
        // No rule folds another count of operands.
        return rw::Folded::No;
    };
    let (cl, cr) = (constant_attr(ctx, l), constant_attr(ctx, r));
    if cl.is_none() && cr.is_none() {
        return rw::Folded::No;
    }
    let cx = Cx { ctx, elem: None };
    let (a, b) = (attr_float(cx, cl), attr_float(cx, cr));
    // With a variable operand only an identity folds (also element by
    // element: the variable has no elements to read), and 13 knows none.
    if (cl.is_none() || cr.is_none())
        && (ed == Edition::V13 || float_identity(f, a, b, ed).is_none())
    {
        return rw::Folded::No;
    }
    let &[result] = ctx.results(op) else {
        return rw::Folded::No;
    };
    let rt = ctx.value_type(result);
    if !is_shaped(ctx, rt) {
        let folded = float_rules_of(cx, f, l, r, a, b, rt, ed);
        return outcome(ctx, op, folded);
    }
    let rule: Rule = match f {
        FloatOp::Add => |a| float_binary(a, FloatOp::Add),
        FloatOp::Sub => |a| float_binary(a, FloatOp::Sub),
        FloatOp::Mul => |a| float_binary(a, FloatOp::Mul),
        FloatOp::Div => |a| float_binary(a, FloatOp::Div),
    };
    elementwise(ctx, op, ed, rule)
}

/// The four float operations of two operands: 13 folds constants only,
/// and where it does computes as 14.
fn float_binary(f: Arith, op: FloatOp) -> Option<Folded> {
    let &[l, r] = f.ops else {
        return None;
    };
    let (a, b) = (const_float(f.cx, l), const_float(f.cx, r));
    float_rules_of(f.cx, op, l, r, a, b, f.rt, f.ed)
}

/// [`float_binary`] on what it reads: the operands `l` and `r` and their
/// constant values `a` and `b` (as `cx` reads them).
#[allow(clippy::too_many_arguments)]
#[inline]
fn float_rules_of(
    cx: Cx,
    op: FloatOp,
    l: Value,
    r: Value,
    a: Option<f64>,
    b: Option<f64>,
    rt: Type,
    ed: Edition,
) -> Option<Folded> {
    if ed == Edition::V13 {
        // Constants only: no identities in 13.
        a?;
        b?;
        return fold_float(cx, op, l, r, a, b, rt, Edition::V14);
    }
    fold_float(cx, op, l, r, a, b, rt, ed)
}

/// `maxf(x, x)`, `maxf(x, -inf)`, then two constants as
/// `llvm::maximum`.
pub fn fold_maxf(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| fold_min_max_float(f.cx, true, f.ops, f.rt))
}

/// `minf(x, x)`, `minf(x, +inf)`, then two constants as
/// `llvm::minimum`.
pub fn fold_minf(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| {
        fold_min_max_float(f.cx, false, f.ops, f.rt)
    })
}

/// `negf(negf(x))`, then a constant (15; 14 has no folder).
pub fn fold_negf(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| {
        let &[x] = f.ops else {
            return None;
        };
        // negf(negf(x)) -> x
        if let Some(&[y]) = defined_by(&f.cx, x, "arith.negf") {
            return Some(Folded::Value(y));
        }
        float_kind(&f.cx, f.rt)?;
        Some(Folded::Float(-const_float(f.cx, x)?))
    })
}

/// Two constants, IEEE's remainder (15; 14 has no folder).
pub fn fold_remf(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| {
        let &[l, r] = f.ops else {
            return None;
        };
        float_kind(&f.cx, f.rt)?;
        let (a, b) = (const_float(f.cx, l)?, const_float(f.cx, r)?);
        Some(Folded::Float(ieee_remainder(a, b)?))
    })
}

/// Scalar constants (13: both constant, see [`fold_cmpf`]).
pub fn fold_cmpf(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    scalar_only(ctx, op, ed, |f| {
        if f.shaped {
            return None;
        }
        if f.ed == Edition::V13 {
            let &[l, r] = f.ops else {
                return None;
            };
            const_float(f.cx, l)?;
            const_float(f.cx, r)?;
        }
        cmpf_constants(f.cx, f.op, f.ops)
    })
}

/// A scalar constant that survives the trip through the narrower type
/// (14 on).
pub fn fold_truncf(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    scalar_only(ctx, op, ed, |f| {
        if f.shaped {
            return None;
        }
        let &[x] = f.ops else {
            return None;
        };
        let k = f.cx.kind(f.rt);
        float_kind(&f.cx, f.rt)?;
        // Only when the value survives the trip through the narrower
        // type (a NaN never compares equal, so it stays).
        let v = const_float(f.cx, x)?;
        let t = round_float(k, v);
        (t == v).then_some(Folded::Float(t))
    })
}

/// A signed integer constant as a float (14 on; vectors and tensors 15
/// on).
pub fn fold_sitofp(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| int_to_float(f, true))
}

/// An unsigned integer constant as a float (14 on; vectors and tensors
/// 15 on).
pub fn fold_uitofp(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| int_to_float(f, false))
}

fn int_to_float(f: Arith, signed_in: bool) -> Option<Folded> {
    if f.shaped && f.ed != Edition::V15 {
        return None;
    }
    let &[x] = f.ops else {
        return None;
    };
    let k = float_kind(&f.cx, f.rt)?;
    let w = width(&f.cx, f.cx.value_type(x))?;
    let a = const_bits(f.cx, x)?;
    // Rust's integer-to-float casts round to nearest, ties to even, as
    // `APFloat::convertFromAPInt`; narrower types go through `f64`, exact
    // for every integer they can hold finitely.
    Some(Folded::Float(match (signed_in, &k) {
        (true, TypeKind::F32) => f64::from(signed(a, w) as f32),
        (false, TypeKind::F32) => f64::from(a as f32),
        (true, _) => round_float(k, signed(a, w) as f64),
        (false, _) => round_float(k, a as f64),
    }))
}

/// A float constant in range as a signed integer (14 on; vectors and
/// tensors 15 on).
pub fn fold_fptosi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| float_to_int(f, true))
}

/// A float constant in range as an unsigned integer (14 on; vectors and
/// tensors 15 on).
pub fn fold_fptoui(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| float_to_int(f, false))
}

fn float_to_int(f: Arith, signed_out: bool) -> Option<Folded> {
    if f.shaped && f.ed != Edition::V15 {
        return None;
    }
    let &[x] = f.ops else {
        return None;
    };
    let w = width(&f.cx, f.rt)?;
    float_kind(&f.cx, f.cx.value_type(x))?;
    let v = const_float(f.cx, x)?.trunc();
    // Out of range (NaN, infinities included) is an invalid conversion,
    // which the folder refuses.
    let (lo, hi) = if signed_out {
        (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1))
    } else {
        (0.0, 2f64.powi(w as i32))
    };
    if !(v >= lo && v < hi) {
        return None;
    }
    let bits = if v < 0.0 {
        (v as i128) as u128
    } else {
        v as u128
    };
    Some(Folded::Const(bits & mask(w)))
}

/// A constant's bits in the other type, or the operand itself when the
/// types are the same.
pub fn fold_bitcast(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    let folded = bitcast_constant(ctx, op, ed);
    // `CastOpInterface`'s own fold, tried after the op's: a cast to the
    // type it already has is its operand.
    match (&folded, ctx.operands(op), ctx.results(op)) {
        (rw::Folded::No, &[x], &[r]) if ctx.value_type(x) == ctx.value_type(r) => {
            rw::Folded::Results(vec![FoldResult::Value(x)])
        }
        _ => folded,
    }
}

/// The op's own fold: a constant's bits in the other type.
fn bitcast_constant(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| {
        let &[x] = f.ops else {
            return None;
        };
        let xt = scalar_of(&f.cx, f.cx.value_type(x));
        let bits = match const_bits(f.cx, x) {
            Some(b) => b,
            None => float_to_bits(f.cx.kind(xt), const_float(f.cx, x)?),
        };
        if f.cx.kind(scalar_of(&f.cx, f.rt)).is_float() {
            let k = float_kind(&f.cx, f.rt)?;
            return Some(Folded::Float(float_from_bits(k, bits)));
        }
        width(&f.cx, f.rt)?;
        Some(Folded::Const(bits))
    })
}

/// `select(c, x, x)`, a constant condition, `select(c, true, false)`
/// (not in 13), `select(cmpi eq/ne a, b, a, b)`.
pub fn fold_select_op(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    scalar_only(ctx, op, ed, |f| {
        if f.ed == Edition::V13 {
            return select_13(f);
        }
        fold_select(f.cx, f.ops, width(&f.cx, f.rt) == Some(1))
    })
}

/// `addi(x, 0)`, `addi(subi(a, b), b)`, `addi(b, subi(a, b))`, then two
/// constants (13: `addi(x, 0)` and constants only).
pub fn fold_addi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| {
        if f.ed == Edition::V13 {
            return addi_13(f);
        }
        let (_, m) = f.int_result()?;
        let (l, r, a, b) = f.binary()?;
        if b == Some(0) {
            return Some(Folded::Value(l));
        }
        // addi(subi(a, b), b) -> a; addi(b, subi(a, b)) -> a
        if let Some(&[x, y]) = defined_by(&f.cx, l, "arith.subi") {
            if y == r {
                return Some(Folded::Value(x));
            }
        }
        if let Some(&[x, y]) = defined_by(&f.cx, r, "arith.subi") {
            if y == l {
                return Some(Folded::Value(x));
            }
        }
        Some(Folded::Const(a?.wrapping_add(b?) & m))
    })
}

/// `subi(x, x)`, `subi(x, 0)`, then two constants.
pub fn fold_subi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| {
        let (_, m) = f.int_result()?;
        let (l, r, a, b) = f.binary()?;
        if l == r {
            return Some(Folded::Const(0));
        }
        if b == Some(0) {
            return Some(Folded::Value(l));
        }
        Some(Folded::Const(a?.wrapping_sub(b?) & m))
    })
}

/// `muli(x, 0)`, `muli(x, 1)`, then two constants.
pub fn fold_muli(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| {
        let (_, m) = f.int_result()?;
        let (l, r, a, b) = f.binary()?;
        match b {
            Some(0) => return Some(Folded::Value(r)),
            Some(1) => return Some(Folded::Value(l)),
            _ => {}
        }
        Some(Folded::Const(a?.wrapping_mul(b?) & m))
    })
}

/// `andi(x, 0)`, `andi(x, -1)`, two constants, then `andi(x, x)` (13:
/// `andi(x, x)` before the constants).
pub fn fold_andi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| {
        if f.ed == Edition::V13 {
            return andi_13(f);
        }
        let (_, m) = f.int_result()?;
        let (l, r, a, b) = f.binary()?;
        if b == Some(0) {
            return Some(Folded::Value(r));
        }
        if b == Some(m) {
            return Some(Folded::Value(l));
        }
        if let (Some(a), Some(b)) = (a, b) {
            return Some(Folded::Const(a & b));
        }
        // The `Idempotent` trait's fold, tried after the op's own (which
        // folds constants, element by element if need be).
        (l == r && constant_attr(&f.cx, l).is_none()).then_some(Folded::Value(l))
    })
}

/// `ori(x, 0)`, `ori(x, -1)` of scalars, two constants, then `ori(x, x)`
/// (13: no `ori(x, -1)`, `ori(x, x)` before the constants).
pub fn fold_ori(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| {
        if f.ed == Edition::V13 {
            return ori_13(f);
        }
        let (_, m) = f.int_result()?;
        let (l, r, a, b) = f.binary()?;
        if b == Some(0) {
            return Some(Folded::Value(l));
        }
        // Read from an `IntegerAttr`: scalars only.
        if b == Some(m) && !f.shaped {
            return Some(Folded::Const(m));
        }
        if let (Some(a), Some(b)) = (a, b) {
            return Some(Folded::Const(a | b));
        }
        (l == r && constant_attr(&f.cx, l).is_none()).then_some(Folded::Value(l))
    })
}

/// `xori(x, 0)`, `xori(x, x)`, `xori(xori(x, y), y)`, then two constants
/// (13: no `xori(xori(x, y), y)`).
pub fn fold_xori(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| {
        if f.ed == Edition::V13 {
            return xori_13(f);
        }
        f.int_result()?;
        let (l, r, a, b) = f.binary()?;
        if b == Some(0) {
            return Some(Folded::Value(l));
        }
        if l == r {
            return Some(Folded::Const(0));
        }
        // xori(xori(x, y), y) -> x: a `not` undone.
        if let Some(&[x, y]) = defined_by(&f.cx, l, "arith.xori") {
            if y == r {
                return Some(Folded::Value(x));
            }
        }
        Some(Folded::Const(a? ^ b?))
    })
}

/// `divui(x, 1)`, then two constants (not by zero).
pub fn fold_divui(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| div(f, false))
}

/// `divsi(x, 1)`, then two constants (not by zero, not overflowing).
pub fn fold_divsi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| div(f, true))
}

fn div(f: Arith, signed_div: bool) -> Option<Folded> {
    let (rw, m) = f.int_result()?;
    let (l, _, a, b) = f.binary()?;
    if b == Some(1) {
        return Some(Folded::Value(l));
    }
    let (a, b) = (a?, b?);
    if b == 0 {
        return None;
    }
    if !signed_div {
        return Some(Folded::Const(a / b));
    }
    let (sa, sb) = (signed(a, rw), signed(b, rw));
    // Overflow (the most negative number over -1) is not folded.
    if sa == signed(1 << (rw - 1), rw) && sb == -1 {
        return None;
    }
    Some(Folded::Const((sa / sb) as u128 & m))
}

/// `remui(x, 1)`, then two constants (not by zero; vectors and tensors
/// 15 on).
pub fn fold_remui(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| rem(f, false))
}

/// `remsi(x, 1)`, then two constants (not by zero; vectors and tensors
/// 15 on).
pub fn fold_remsi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| rem(f, true))
}

fn rem(f: Arith, signed_rem: bool) -> Option<Folded> {
    let (rw, m) = f.int_result()?;
    // 14 folds remainders of scalars only.
    if f.shaped && f.ed != Edition::V15 {
        return None;
    }
    let (_, _, a, b) = f.binary()?;
    if b == Some(1) {
        return Some(Folded::Const(0));
    }
    let (a, b) = (a?, b?);
    if b == 0 {
        return None;
    }
    if !signed_rem {
        return Some(Folded::Const(a % b));
    }
    let (sa, sb) = (signed(a, rw), signed(b, rw));
    Some(Folded::Const(sa.wrapping_rem(sb) as u128 & m))
}

/// The three shifts of the integer ops.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shift {
    Left,
    RightSigned,
    RightUnsigned,
}

/// A constant shifted left by a constant (15; 14 has no folder).
pub fn fold_shli(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| shift(f, Shift::Left))
}

/// A constant shifted right, signed, by a constant (15; 14 has no
/// folder).
pub fn fold_shrsi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| shift(f, Shift::RightSigned))
}

/// A constant shifted right, unsigned, by a constant (15; 14 has no
/// folder).
pub fn fold_shrui(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| shift(f, Shift::RightUnsigned))
}

/// 15 folds constant shifts by at most the width.
fn shift(f: Arith, kind: Shift) -> Option<Folded> {
    let (rw, m) = f.int_result()?;
    let (_, _, a, b) = f.binary()?;
    let (a, b) = (a?, b?);
    // The folder keeps whether the last element's shift is in range; the
    // others shift as `APInt` does, saturating.
    let last = f.cx.elem.is_none_or(|(i, n)| i + 1 == n);
    if b > u128::from(rw) && last {
        return None;
    }
    let sign_fill = if signed(a, rw) < 0 { m } else { 0 };
    Some(Folded::Const(match (kind, b >= u128::from(rw)) {
        (Shift::Left, true) | (Shift::RightUnsigned, true) => 0,
        (Shift::RightSigned, true) => sign_fill,
        (Shift::Left, false) => (a << b) & m,
        (Shift::RightUnsigned, false) => a >> b,
        (Shift::RightSigned, false) => (signed(a, rw) >> b) as u128 & m,
    }))
}

/// The integer maximum and minimum ops.
#[derive(Clone, Copy, PartialEq, Eq)]
enum MinMax {
    MaxS,
    MaxU,
    MinS,
    MinU,
}

/// `maxsi(x, x)`, the bound that always wins or never does, then two
/// constants.
pub fn fold_maxsi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| min_max(f, MinMax::MaxS))
}

/// `maxui(x, x)`, the bound that always wins or never does, then two
/// constants.
pub fn fold_maxui(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| min_max(f, MinMax::MaxU))
}

/// `minsi(x, x)`, the bound that always wins or never does, then two
/// constants.
pub fn fold_minsi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| min_max(f, MinMax::MinS))
}

/// `minui(x, x)`, the bound that always wins or never does, then two
/// constants.
pub fn fold_minui(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| min_max(f, MinMax::MinU))
}

/// The same value twice, the bound that always wins or never does, then
/// two constants.
fn min_max(f: Arith, kind: MinMax) -> Option<Folded> {
    let (rw, m) = f.int_result()?;
    let (l, r, a, b) = f.binary()?;
    if l == r {
        return Some(Folded::Value(r));
    }
    let smax = m >> 1;
    let smin = smax + 1;
    // The bound that always wins returns it; the one that never does
    // returns the other operand.
    let (wins, loses) = match kind {
        MinMax::MaxS => (smax, smin),
        MinMax::MaxU => (m, 0),
        MinMax::MinS => (smin, smax),
        MinMax::MinU => (0, m),
    };
    // A zero-width integer has no signed bounds (upstream's APInt checks
    // answer no), only unsigned ones.
    let signed_kind = matches!(kind, MinMax::MaxS | MinMax::MinS);
    if !(signed_kind && rw == 0) {
        if b == Some(wins) {
            return Some(Folded::Value(r));
        }
        if b == Some(loses) {
            return Some(Folded::Value(l));
        }
    }
    let (a, b) = (a?, b?);
    let (sa, sb) = (signed(a, rw), signed(b, rw));
    Some(Folded::Const(match kind {
        MinMax::MaxS => {
            if sa >= sb {
                a
            } else {
                b
            }
        }
        MinMax::MaxU => a.max(b),
        MinMax::MinS => {
            if sa <= sb {
                a
            } else {
                b
            }
        }
        MinMax::MinU => a.min(b),
    }))
}

/// `ceildivui(x, 1)`, then two constants (not by zero, not overflowing).
pub fn fold_ceildivui(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| {
        let (_, m) = f.int_result()?;
        let (l, _, a, b) = f.binary()?;
        if b == Some(1) {
            return Some(Folded::Value(l));
        }
        let (a, b) = (a?, b?);
        if b == 0 {
            return None;
        }
        let q = a / b;
        if a % b == 0 {
            return Some(Folded::Const(q));
        }
        // q + 1 overflowing the width is not folded.
        (q < m).then_some(Folded::Const(q + 1))
    })
}

/// `ceildivsi(x, 1)`, then two constants (not by zero, not overflowing).
pub fn fold_ceildivsi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| div_round(f, true))
}

/// `floordivsi(x, 1)`, then two constants (not by zero, not
/// overflowing).
pub fn fold_floordivsi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| div_round(f, false))
}

fn div_round(f: Arith, ceil: bool) -> Option<Folded> {
    let (rw, _) = f.int_result()?;
    let (l, _, a, b) = f.binary()?;
    if b == Some(1) {
        return Some(Folded::Value(l));
    }
    let (a, b) = (a?, b?);
    if b == 0 {
        return None;
    }
    signed_div_round(a, b, rw, ceil).map(Folded::Const)
}

/// The same value twice, `ext(%x : i1) != 0`, a constant moved to the
/// right (15), then two constants; of vectors and tensors only the move
/// (13: the same value twice or two constants, scalars only).
pub fn fold_cmpi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    scalar_only(ctx, op, ed, |f| {
        if f.ed == Edition::V13 {
            return cmpi_13(f);
        }
        f.int_result()?;
        let (l, r, a, b) = f.binary()?;
        let p = predicate(&f.cx, f.op)?;
        let w = width(&f.cx, f.cx.value_type(l))?;
        if l == r {
            return Some(Folded::Const(u128::from(compare(p, 0, 0, w)?)));
        }
        if f.shaped {
            // Only the operand order changes for vectors and tensors: a
            // constant of any kind moves to the right.
            let (cl, cr) = (
                constant_attr(&f.cx, l).is_some(),
                constant_attr(&f.cx, r).is_some(),
            );
            if f.ed == Edition::V15 && cl && !cr {
                return Some(Folded::SwapOperands(mirror(p)?));
            }
            return None;
        }
        // ext(%x : i1) != 0 -> %x
        if b == Some(0) && p == "ne" {
            for ext in ["arith.extsi", "arith.extui"] {
                if let Some(&[x]) = defined_by(&f.cx, l, ext) {
                    if width(&f.cx, f.cx.value_type(x)) == Some(1) {
                        return Some(Folded::Value(x));
                    }
                }
            }
        }
        // A constant moves to the right, the predicate mirrored.
        if f.ed == Edition::V15 && a.is_some() && b.is_none() {
            return Some(Folded::SwapOperands(mirror(p)?));
        }
        Some(Folded::Const(u128::from(compare(p, a?, b?, w)?)))
    })
}

/// The integer casts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum IntCast {
    ExtU,
    ExtS,
    TruncI,
    Index,
}

/// `extui(extui(a))` reads `a`, then a constant (14 on; vectors and
/// tensors 15 on).
pub fn fold_extui(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| ext_or_trunc(f, IntCast::ExtU))
}

/// `extsi(extsi(a))` reads `a`, then a constant (vectors and tensors 15
/// on; 13: a scalar constant only).
pub fn fold_extsi(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| ext_or_trunc(f, IntCast::ExtS))
}

/// `trunci(ext(a))` of `a`'s type is `a`, `trunci(trunci(a))` reads `a`,
/// then a constant (vectors and tensors 15 on; 13: `trunci(ext(a))` of
/// any type, a scalar constant).
pub fn fold_trunci(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    elementwise(ctx, op, ed, |f| ext_or_trunc(f, IntCast::TruncI))
}

/// The rules the three integer width casts share: 13's own, and vectors
/// and tensors only from 15 (`extui` has no folder before 14).
fn ext_or_trunc(f: Arith, cast: IntCast) -> Option<Folded> {
    if f.ed == Edition::V13 {
        return ext_trunc_13(f, cast);
    }
    if f.shaped && f.ed != Edition::V15 {
        return None;
    }
    int_cast(f, cast)
}

/// A scalar constant (13: an `index_cast` undone first, then a scalar
/// constant).
pub fn fold_index_cast(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    scalar_only(ctx, op, ed, |f| {
        if f.ed == Edition::V13 {
            return index_cast_13(f);
        }
        if f.shaped {
            return None;
        }
        int_cast(f, IntCast::Index)
    })
}

fn int_cast(f: Arith, kind: IntCast) -> Option<Folded> {
    let (_, m) = f.int_result()?;
    let &[x] = f.ops else {
        return None;
    };
    // trunci(extsi(a)) -> a and trunci(extui(a)) -> a, of one type
    if kind == IntCast::TruncI {
        for ext in ["arith.extsi", "arith.extui"] {
            if let Some(&[y]) = defined_by(&f.cx, x, ext) {
                if f.cx.value_type(y) == f.cx.value_type(f.result) {
                    return Some(Folded::Value(y));
                }
            }
        }
    }
    // extui(extui(a)), extsi(extsi(a)), trunci(trunci(a)): the op reads
    // `a` itself, changed in place.
    if kind != IntCast::Index {
        if let Some(&[y]) = defined_by(&f.cx, x, f.cx.name(f.op)) {
            return Some(Folded::SetOperand(y));
        }
    }
    let a = f.c(0)?;
    let w = width(&f.cx, f.cx.value_type(x))?;
    Some(Folded::Const(match kind {
        IntCast::ExtU => a,
        // Through a signed integer: sign-extended, then cut.
        _ => signed(a, w) as u128 & m,
    }))
}

// The folders LLVM 13's `std` ops had where they differ from the `arith`
// ones of 14: fewer identities (no `addi` of a `subi`, no float
// identities, no `extsi`/`trunci` chains, no casts between integers and
// floats, `select` of `true`/`false` kept), but `andi`/`ori` of one value
// twice fold before their constants do, and an `index_cast` of an
// `index_cast` back to the first type folds. The other ops fold in 13 as
// in 14.

fn addi_13(f: Arith) -> Option<Folded> {
    let (l, _, a, b) = f.binary()?;
    if b == Some(0) {
        return Some(Folded::Value(l));
    }
    Some(Folded::Const(
        a?.wrapping_add(b?) & mask(width(&f.cx, f.rt)?),
    ))
}

fn andi_13(f: Arith) -> Option<Folded> {
    let (l, r, a, b) = f.binary()?;
    let m = mask(width(&f.cx, f.rt)?);
    if b == Some(0) {
        return Some(Folded::Value(r));
    }
    if b == Some(m) {
        return Some(Folded::Value(l));
    }
    if l == r {
        return Some(Folded::Value(r));
    }
    Some(Folded::Const(a? & b?))
}

fn ori_13(f: Arith) -> Option<Folded> {
    let (l, r, a, b) = f.binary()?;
    if b == Some(0) {
        return Some(Folded::Value(l));
    }
    if l == r {
        return Some(Folded::Value(r));
    }
    Some(Folded::Const(a? | b?))
}

fn xori_13(f: Arith) -> Option<Folded> {
    let (l, r, a, b) = f.binary()?;
    if b == Some(0) {
        return Some(Folded::Value(l));
    }
    if l == r {
        return Some(Folded::Const(0));
    }
    Some(Folded::Const(a? ^ b?))
}

/// Scalars only: the folder reads `IntegerAttr`s and answers with a
/// `BoolAttr`.
fn cmpi_13(f: Arith) -> Option<Folded> {
    if f.shaped {
        return None;
    }
    let (l, r, a, b) = f.binary()?;
    let p = predicate(&f.cx, f.op)?;
    let w = width(&f.cx, f.cx.value_type(l))?;
    if l == r {
        return Some(Folded::Const(u128::from(compare(p, 0, 0, w)?)));
    }
    Some(Folded::Const(u128::from(compare(p, a?, b?, w)?)))
}

fn index_cast_13(f: Arith) -> Option<Folded> {
    let &[x] = f.ops else {
        return None;
    };
    if let Some(&[y]) = defined_by(&f.cx, x, "arith.index_cast") {
        if f.cx.value_type(y) == f.rt {
            return Some(Folded::Value(y));
        }
    }
    if f.shaped {
        return None;
    }
    let a = f.c(0)?;
    let w = width(&f.cx, f.cx.value_type(x))?;
    Some(Folded::Const(
        signed(a, w) as u128 & mask(width(&f.cx, f.rt)?),
    ))
}

/// 13's `select`: no `select(%c, true, false)`.
fn select_13(f: Arith) -> Option<Folded> {
    let &[cond, t, e] = f.ops else {
        return None;
    };
    if t == e {
        return Some(Folded::Value(t));
    }
    match const_bits(f.cx, cond) {
        Some(1) => return Some(Folded::Value(t)),
        Some(0) => return Some(Folded::Value(e)),
        _ => {}
    }
    select_of_cmpi(f.cx, cond, t, e)
}

/// `extsi` and `trunci` of scalars.
fn ext_trunc_13(f: Arith, kind: IntCast) -> Option<Folded> {
    if f.shaped {
        return None;
    }
    let &[x] = f.ops else {
        return None;
    };
    // trunci(zexti(a)) -> a, trunci(sexti(a)) -> a, whatever a's type
    // (the greedy folder then refuses another type, 13's conversion
    // driver takes it).
    if kind == IntCast::TruncI {
        let d = f.cx.defining_op(x);
        if let Some(d) = d.filter(|&d| matches!(f.cx.name(d), "arith.extsi" | "arith.extui")) {
            return Some(Folded::Value(f.cx.operand(d, 0)));
        }
    }
    let a = f.c(0)?;
    let w = width(&f.cx, f.cx.value_type(x))?;
    Some(Folded::Const(
        signed(a, w) as u128 & mask(width(&f.cx, f.rt)?),
    ))
}

/// `APInt`'s wrapping signed arithmetic with its overflow flag: each
/// `*_ov` call sets the flag anew (it does not accumulate), and the
/// folders of `ceildivsi`/`floordivsi` read it after their last step only.
struct Ov {
    w: u32,
    m: u128,
    overflow: bool,
}

impl Ov {
    fn sub(&mut self, a: u128, b: u128) -> u128 {
        let r = a.wrapping_sub(b) & self.m;
        let (sa, sb, sr) = (signed(a, self.w), signed(b, self.w), signed(r, self.w));
        self.overflow = (sa < 0) != (sb < 0) && (sr < 0) != (sa < 0);
        r
    }
    fn add(&mut self, a: u128, b: u128) -> u128 {
        let r = a.wrapping_add(b) & self.m;
        let (sa, sb, sr) = (signed(a, self.w), signed(b, self.w), signed(r, self.w));
        self.overflow = (sa < 0) == (sb < 0) && (sr < 0) != (sa < 0);
        r
    }
    fn div(&mut self, a: u128, b: u128) -> u128 {
        let (sa, sb) = (signed(a, self.w), signed(b, self.w));
        let min = signed(1 << (self.w - 1), self.w);
        self.overflow = sa == min && sb == -1;
        if self.overflow {
            return a;
        }
        (sa / sb) as u128 & self.m
    }
    /// `(a - 1) / b + 1`, for positive operands.
    fn ceil_nonneg(&mut self, a: u128, b: u128) -> u128 {
        let t = self.sub(a, 1);
        let t = self.div(t, b);
        self.add(t, 1)
    }
}

/// `ceildivsi` (`ceil`) or `floordivsi` of two constants (`b` not zero),
/// step by step as the folder computes it; `None` where its last step
/// overflows.
fn signed_div_round(a: u128, b: u128, w: u32, ceil: bool) -> Option<u128> {
    if a == 0 {
        return Some(0);
    }
    let mut o = Ov {
        w,
        m: mask(w),
        overflow: false,
    };
    let (pa, pb) = (signed(a, w) > 0, signed(b, w) > 0);
    let r = match (pa, pb, ceil) {
        (true, true, true) => o.ceil_nonneg(a, b),
        (true, true, false) => o.div(a, b),
        (false, false, _) => {
            let na = o.sub(0, a);
            let nb = o.sub(0, b);
            if ceil {
                o.ceil_nonneg(na, nb)
            } else {
                o.div(na, nb)
            }
        }
        (false, true, true) => {
            let na = o.sub(0, a);
            let d = o.div(na, b);
            o.sub(0, d)
        }
        (true, false, true) => {
            let nb = o.sub(0, b);
            let d = o.div(a, nb);
            o.sub(0, d)
        }
        (false, true, false) => {
            let na = o.sub(0, a);
            let c = o.ceil_nonneg(na, b);
            o.sub(0, c)
        }
        (true, false, false) => {
            let nb = o.sub(0, b);
            let c = o.ceil_nonneg(a, nb);
            o.sub(0, c)
        }
    };
    (!o.overflow).then_some(r)
}

/// The float types the folders compute in: `f16`, `bf16`, `f32`, `f64`
/// (`f80` and `f128` hold more than an `f64` computes).
fn float_kind(ctx: &Context, t: Type) -> Option<&TypeKind> {
    let k = ctx.kind(scalar_of(ctx, t));
    matches!(
        k,
        TypeKind::F16 | TypeKind::BF16 | TypeKind::F32 | TypeKind::F64
    )
    .then_some(k)
}

/// IEEE 754 `remainder` (`APFloat::remainder`): `a - n * b`, `n` the
/// quotient rounded to nearest, ties to even. Exact in `f64` for any
/// operands of the narrower types too. `None` for NaN operands.
fn ieee_remainder(a: f64, b: f64) -> Option<f64> {
    if a.is_nan() || b.is_nan() {
        return None;
    }
    if a.is_infinite() || b == 0.0 {
        return Some(f64::NAN);
    }
    if b.is_infinite() {
        return Some(a);
    }
    let r = a % b;
    let (ar, ab) = (r.abs(), b.abs());
    let half = ab / 2.0;
    let odd = ((a - r) / b).rem_euclid(2.0) == 1.0;
    let r = if ar > half || (ar == half && odd) {
        r - ab.copysign(r)
    } else {
        r
    };
    // A zero result keeps the sign of `a`.
    Some(if r == 0.0 { 0.0f64.copysign(a) } else { r })
}

/// `maxf`/`minf`: the same value twice, the bound that never wins, then
/// `llvm::maximum`/`minimum` of constants (a NaN wins, then -0 < +0).
fn fold_min_max_float(ctx: Cx, max: bool, ops: &[Value], t: Type) -> Option<Folded> {
    let &[l, r] = ops else {
        return None;
    };
    if l == r {
        return Some(Folded::Value(r));
    }
    let b = const_float(ctx, r);
    let never = if max {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    if b == Some(never) {
        return Some(Folded::Value(l));
    }
    float_kind(&ctx, t)?;
    let (a, b) = (const_float(ctx, l)?, b?);
    Some(Folded::Float(if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a == 0.0 && b == 0.0 && a.is_sign_negative() != b.is_sign_negative() {
        if a.is_sign_negative() == max {
            b
        } else {
            a
        }
    } else if max {
        if a < b {
            b
        } else {
            a
        }
    } else if b < a {
        b
    } else {
        a
    }))
}

/// `cmpf` of constants; a constant NaN on either side decides alone (the
/// comparison is unordered whatever the other operand).
fn cmpf_constants(ctx: Cx, op: Op, ops: &[Value]) -> Option<Folded> {
    let &[l, r] = ops else {
        return None;
    };
    let p = match ctx.attr_kind(ctx.get_attr(op, "predicate")?) {
        AttrKind::Integer(i, _) => CMPF.get(usize::try_from(*i).ok()?).copied()?,
        _ => return None,
    };
    let (mut a, mut b) = (const_float(ctx, l), const_float(ctx, r));
    if a.is_some_and(f64::is_nan) {
        b = a;
    }
    if b.is_some_and(f64::is_nan) {
        a = b;
    }
    let (a, b) = (a?, b?);
    let unordered = a.is_nan() || b.is_nan();
    let (lt, eq, gt) = (a < b, a == b, a > b);
    let v = match p {
        "false" => false,
        "oeq" => eq,
        "ogt" => gt,
        "oge" => gt || eq,
        "olt" => lt,
        "ole" => lt || eq,
        "one" => !unordered && !eq,
        "ord" => !unordered,
        "ueq" => unordered || eq,
        "ugt" => unordered || gt,
        "uge" => unordered || gt || eq,
        "ult" => unordered || lt,
        "ule" => unordered || lt || eq,
        "une" => !eq,
        "uno" => unordered,
        _ => true,
    };
    Some(Folded::Const(u128::from(v)))
}

/// The value of `v` if an `arith.constant` defines it as a float (for a
/// vector or tensor, the element `cx` reads).
fn const_float(cx: Cx, v: Value) -> Option<f64> {
    attr_float(cx, constant_attr(&cx, v))
}

/// [`const_float`] of the constant `k` an operand's defining op holds.
#[inline]
fn attr_float(cx: Cx, k: Option<&AttrKind>) -> Option<f64> {
    match k? {
        AttrKind::Float(bits, _) => Some(f64::from_bits(*bits)),
        AttrKind::Dense(elems, _, splat) => match dense_elem(cx, elems, *splat)? {
            DenseElem::Float(b) => Some(f64::from_bits(b)),
            _ => None,
        },
        _ => None,
    }
}

/// The float operations of two operands `fold_float` computes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// `arith.addf`, `subf`, `mulf`, `divf` on `f16`, `bf16`, `f32` or `f64`:
/// the identity the folder knows, then the two constants computed in the
/// type's precision (IEEE, to nearest, as `APFloat`). NaN operands are
/// not folded (`APFloat` would carry their payload). `a` and `b` are
/// the constant values of `l` and `r`, where they are constants.
#[allow(clippy::too_many_arguments)]
#[inline]
fn fold_float(
    ctx: Cx,
    op: FloatOp,
    l: Value,
    r: Value,
    a: Option<f64>,
    b: Option<f64>,
    t: Type,
    ed: Edition,
) -> Option<Folded> {
    let k = float_kind(&ctx, t)?;
    match float_identity(op, a, b, ed) {
        Some(Side::Left) => Some(Folded::Value(l)),
        Some(Side::Right) => Some(Folded::Value(r)),
        None => float_constants(k, op, a?, b?),
    }
}

/// Which operand of a float operation of two operands is its value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

/// The identity [`fold_float`] finds, given the operands' constant values.
#[inline]
fn float_identity(op: FloatOp, a: Option<f64>, b: Option<f64>, ed: Edition) -> Option<Side> {
    let identity = match op {
        // addf(x, -0.0) -> x, subf(x, +0.0) -> x
        FloatOp::Add => b.is_some_and(|b| b == 0.0 && b.is_sign_negative()),
        FloatOp::Sub => b.is_some_and(|b| b == 0.0 && b.is_sign_positive()),
        // mulf(x, 1.0) -> x, divf(x, 1.0) -> x
        FloatOp::Mul | FloatOp::Div => b == Some(1.0),
    };
    if identity {
        return Some(Side::Left);
    }
    // 14 also knows mulf(1.0, x) -> x; 15 does not.
    if op == FloatOp::Mul && ed != Edition::V15 && a == Some(1.0) {
        return Some(Side::Right);
    }
    None
}

/// [`fold_float`] of two constants of the float type `k`.
fn float_constants(k: &TypeKind, op: FloatOp, a: f64, b: f64) -> Option<Folded> {
    fn apply<
        T: std::ops::Add<Output = T>
            + std::ops::Sub<Output = T>
            + std::ops::Mul<Output = T>
            + std::ops::Div<Output = T>,
    >(
        op: FloatOp,
        a: T,
        b: T,
    ) -> T {
        match op {
            FloatOp::Add => a + b,
            FloatOp::Sub => a - b,
            FloatOp::Mul => a * b,
            FloatOp::Div => a / b,
        }
    }
    // f16 and bf16 results are exact in `f64` (or, for a quotient, round
    // twice to the same value: 53 bits are more than twice theirs), then
    // round once to the type.
    let v = if matches!(k, TypeKind::F32) {
        f64::from(apply(op, a as f32, b as f32))
    } else {
        round_float(k, apply(op, a, b))
    };
    if a.is_nan() || b.is_nan() {
        return None;
    }
    // An invalid operation (0/0, inf - inf) gives `APFloat`'s default NaN,
    // positive and quiet, whatever the machine's.
    Some(Folded::Float(if v.is_nan() { f64::NAN } else { v }))
}

/// `arith.select`'s rule (any type: most of its rules pick a value).
fn fold_select(ctx: Cx, ops: &[Value], boolean: bool) -> Option<Folded> {
    let &[cond, t, f] = ops else {
        return None;
    };
    if t == f {
        return Some(Folded::Value(t));
    }
    match const_bits(ctx, cond) {
        Some(1) => return Some(Folded::Value(t)),
        Some(0) => return Some(Folded::Value(f)),
        _ => {}
    }
    // select(%c, true, false) -> %c
    if boolean && const_bits(ctx, t) == Some(1) && const_bits(ctx, f) == Some(0) {
        return Some(Folded::Value(cond));
    }
    select_of_cmpi(ctx, cond, t, f)
}

/// select(cmpi eq %a, %b, %a, %b) -> %b; with ne -> %a (either order).
fn select_of_cmpi(ctx: Cx, cond: Value, t: Value, f: Value) -> Option<Folded> {
    let d = ctx.defining_op(cond)?;
    if ctx.name(d) != "arith.cmpi" {
        return None;
    }
    let &[x, y] = ctx.operands(d) else {
        return None;
    };
    if !((x == t && y == f) || (y == t && x == f)) {
        return None;
    }
    match predicate(&ctx, d)? {
        "eq" => Some(Folded::Value(f)),
        "ne" => Some(Folded::Value(t)),
        _ => None,
    }
}

/// `scf.if` on `xori(c, true)` with an `else`: the `if` on `c` with its
/// branches swapped (`IfOp::fold`, the same in LLVM 14 and 15; 13 has
/// none), done in place. It reads the op's regions: not local.
pub fn fold_if(ctx: &mut Context, op: Op, _: Edition) -> rw::Folded {
    let &[then_r, else_r] = ctx.regions_of(op) else {
        return rw::Folded::No;
    };
    let Some(else_b) = ctx.entry_block(else_r) else {
        return rw::Folded::No;
    };
    let Some(&[x, one]) = defined_by(ctx, ctx.operand(op, 0), "arith.xori") else {
        return rw::Folded::No;
    };
    if !constant_attr(ctx, one).is_some_and(|a| match a {
        AttrKind::Bool(b) => *b,
        AttrKind::Integer(i, _) => *i == 1,
        _ => false,
    }) {
        return rw::Folded::No;
    }
    let Some(then_b) = ctx.entry_block(then_r) else {
        return rw::Folded::No;
    };
    ctx.set_operand(op, 0, x);
    ctx.detach_block(then_b);
    ctx.detach_block(else_b);
    ctx.append_block(then_r, else_b);
    ctx.append_block(else_r, then_b);
    rw::Folded::InPlace
}

/// Replaces each operand of `op` defined by a ranked `memref.cast` with
/// the cast's source, except `keep` (MLIR's `foldMemRefCast`: the op works
/// on any layout the cast only hid). Whether any was.
fn fold_memref_cast(ctx: &mut Context, op: Op, keep: Option<Value>) -> bool {
    let mut folded = false;
    for i in 0..ctx.operands(op).len() {
        let v = ctx.operand(op, i);
        if Some(v) == keep {
            continue;
        }
        let Some(&[src]) = defined_by(ctx, v, "memref.cast") else {
            continue;
        };
        if matches!(
            ctx.kind(ctx.value_type(src)),
            TypeKind::UnrankedMemRef { .. }
        ) {
            continue;
        }
        ctx.set_operand(op, i, src);
        folded = true;
    }
    folded
}

/// The folder of `memref.cast`, `memref.load`, `memref.dealloc`,
/// `linalg.generic` and `linalg.fill` (LLVM 14 and 15 alike): the casts
/// that define their operands folded in (Linalg's structured ops fold
/// casts into their operands too).
pub fn fold_cast_operands(ctx: &mut Context, op: Op, _: Edition) -> rw::Folded {
    in_place(fold_memref_cast(ctx, op, None))
}

/// `memref.store`'s folder: the casts that define its memref and indices
/// folded in (not the value stored).
pub fn fold_store(ctx: &mut Context, op: Op, _: Edition) -> rw::Folded {
    let value = ctx.operands(op).first().copied();
    in_place(fold_memref_cast(ctx, op, value))
}

fn in_place(changed: bool) -> rw::Folded {
    match changed {
        true => rw::Folded::InPlace,
        false => rw::Folded::No,
    }
}

/// `memref.dim` at a constant index: the static size, the dynamic size
/// an allocation was given, or the `dim` of what a cast hid.
pub fn fold_dim(ctx: &mut Context, op: Op, _: Edition) -> rw::Folded {
    let &[src, idx] = ctx.operands(op) else {
        return rw::Folded::No;
    };
    let Some(&AttrKind::Integer(i, _)) = constant_attr(ctx, idx) else {
        return rw::Folded::No;
    };
    let TypeKind::MemRef { shape, .. } = ctx.kind(ctx.value_type(src)) else {
        return rw::Folded::No;
    };
    // Past the rank upstream reads out of bounds; no fold here.
    let Some(i) = usize::try_from(i).ok().filter(|&i| i < shape.len()) else {
        return rw::Folded::No;
    };
    if let Some(n) = shape[i] {
        let index = ctx.index_type();
        let a = ctx.int_attr(i128::from(n), index);
        return rw::Folded::Results(vec![FoldResult::Attr(a)]);
    }
    let dynamic_before = shape[..i].iter().filter(|d| d.is_none()).count();
    if let Some(d) = ctx.defining_op(src) {
        if matches!(ctx.name(d), "memref.alloc" | "memref.alloca") {
            return match ctx.operands(d).get(dynamic_before) {
                Some(&v) => rw::Folded::Results(vec![FoldResult::Value(v)]),
                None => rw::Folded::No,
            };
        }
    }
    in_place(fold_memref_cast(ctx, op, None))
}

/// `builtin.unrealized_conversion_cast`'s folder: a cast to the types it
/// casts from is its operands; a cast undoing the cast that produced all
/// its operands is that cast's operands.
pub fn fold_unrealized_cast(ctx: &mut Context, op: Op, _: Edition) -> rw::Folded {
    match unrealized_cast_sources(ctx, op) {
        Some(vals) => rw::Folded::Results(vals.into_iter().map(FoldResult::Value).collect()),
        None => rw::Folded::No,
    }
}

fn unrealized_cast_sources(ctx: &Context, op: Op) -> Option<Vec<Value>> {
    let ins = ctx.operands(op);
    let outs = ctx.results(op);
    let types_of = |vs: &[Value]| vs.iter().map(|&v| ctx.value_type(v)).collect::<Vec<_>>();
    if types_of(ins) == types_of(outs) {
        return Some(ins.to_vec());
    }
    let first = *ins.first()?;
    let def = ctx.defining_op(first)?;
    if ctx.name(def) != "builtin.unrealized_conversion_cast"
        || ctx.results(def) != ins
        || types_of(ctx.operands(def)) != types_of(outs)
    {
        return None;
    }
    Some(ctx.operands(def).to_vec())
}

// The folders of the LLVM dialect ops a lowering leaves where a later
// conversion folds them (`-reconcile-unrealized-casts` sees every op):
// `extractvalue` of a chain of `insertvalue`s, casts undone, a GEP by
// zero.

/// `llvm.bitcast` and `llvm.addrspacecast`: a cast to its operand's type,
/// or one undoing the same cast.
pub fn fold_llvm_cast(ctx: &mut Context, op: Op, _: Edition) -> rw::Folded {
    let arg = ctx.operand(op, 0);
    let ty = ctx.value_type(ctx.result(op, 0));
    if ctx.value_type(arg) == ty {
        return rw::Folded::Results(vec![FoldResult::Value(arg)]);
    }
    let Some(prev) = ctx.defining_op(arg) else {
        return rw::Folded::No;
    };
    if ctx.op_name(prev) != ctx.op_name(op) {
        return rw::Folded::No;
    }
    let src = ctx.operand(prev, 0);
    match ctx.value_type(src) == ty {
        true => rw::Folded::Results(vec![FoldResult::Value(src)]),
        false => rw::Folded::No,
    }
}

/// `llvm.getelementptr` of one constant index, zero, to the base's type.
pub fn fold_gep(ctx: &mut Context, op: Op, _: Edition) -> rw::Folded {
    let &[base, index] = ctx.operands(op) else {
        return rw::Folded::No;
    };
    let zero = ctx.defining_op(index).is_some_and(|d| {
        ctx.traits_of(d).constant_like
            && ctx
                .get_attr(d, "value")
                .is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::Integer(0, _)))
    });
    match zero && ctx.value_type(base) == ctx.value_type(ctx.result(op, 0)) {
        true => rw::Folded::Results(vec![FoldResult::Value(base)]),
        false => rw::Folded::No,
    }
}

fn llvm_position(ctx: &Context, op: Op) -> Option<Vec<i128>> {
    match ctx.attr_kind(ctx.get_attr(op, "position")?) {
        AttrKind::Array(xs) => xs
            .iter()
            .map(|&x| match ctx.attr_kind(x) {
                AttrKind::Integer(v, _) => Some(*v),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// `llvm.extractvalue` of an `insertvalue` at the same position is the
/// value inserted; insertions at unrelated positions are looked through
/// (15 makes the container the value they inserted into, in place), one
/// whose position is a prefix of the other's, or the other way round,
/// stops the search. It follows the chain as deep as it goes: not local.
pub fn fold_extractvalue(ctx: &mut Context, op: Op, ed: Edition) -> rw::Folded {
    let Some(pos) = llvm_position(ctx, op) else {
        return rw::Folded::No;
    };
    let mut changed = false;
    let mut container = ctx.operand(op, 0);
    while let Some(ins) = ctx
        .defining_op(container)
        .filter(|&d| ctx.name(d) == "llvm.insertvalue")
    {
        let Some(ipos) = llvm_position(ctx, ins) else {
            return rw::Folded::No;
        };
        if ipos == pos {
            return rw::Folded::Results(vec![FoldResult::Value(ctx.operand(ins, 1))]);
        }
        let min = pos.len().min(ipos.len());
        if pos[..min] == ipos[..min] {
            break;
        }
        container = ctx.operand(ins, 0);
        if ed == Edition::V15 {
            ctx.set_operand(op, 0, container);
            changed = true;
        }
    }
    in_place(changed)
}

#[cfg(test)]
mod tests {
    use super::{compare, mask, signed};

    #[test]
    fn widths_wrap_and_sign() {
        assert_eq!(mask(1), 1);
        assert_eq!(mask(32), 0xffff_ffff);
        assert_eq!(signed(0xffff_ffff, 32), -1);
        assert_eq!(signed(1, 1), -1);
        assert_eq!(signed(0x7fff_ffff, 32), i32::MAX as i128);
        assert_eq!(compare("slt", 0xffff_ffff, 5, 32), Some(true));
        assert_eq!(compare("ult", 0xffff_ffff, 5, 32), Some(false));
        assert_eq!(compare("nope", 0, 0, 8), None);
    }
}
