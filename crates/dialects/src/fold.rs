//! Folding, as MLIR's dialect conversion does it to every op whose
//! legality the conversion target leaves open: before trying patterns on
//! such an op, `OperationLegalizer` asks the op to fold with the values of
//! its constant operands, and replaces it by an existing value or by a
//! constant materialized just before it. A pass lowering with dialect
//! conversion (`async-to-async-runtime`) therefore folds `arith.addi %x,
//! %c0` to `%x` on the way, and `mlir-opt`'s output shows it.
//!
//! These are the folders of LLVM 14 and 15 for scalar integer (up to 128
//! bits), index and float (`f16`, `bf16`, `f32`, `f64`) `arith` ops (14
//! and 15 differ in constant shifts, the `cmpi` operand order,
//! `mulf(1.0, x)`, and 15's `negf` and `remf`); each rule was checked
//! against `mlir-opt-14` and `mlir-opt-15`, in the order the folder tries
//! them, trait folds (`Idempotent`) after the op's own. Vectors and
//! tensors fold as splats or element by element. Ops not covered here
//! (`f80`/`f128` arithmetic, other dialects) are left as they are.

use crate::arith::{CMPF, CMPI};
use mlir_async_ir::{AttrKind, Context, DenseElem, Op, Type, TypeKind, Value, ValueDef};
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

/// The `value` attribute of the `arith.constant` defining `v`.
fn constant_attr(ctx: &Context, v: Value) -> Option<&AttrKind> {
    let ValueDef::Result(d, 0) = ctx.value_def(v) else {
        return None;
    };
    // Any constant-like op (MLIR's `m_Constant`): an operand a lowering
    // already turned into `llvm.mlir.constant` still folds.
    // The trait first: a table lookup, where the name is a string compare.
    if !ctx.traits_of(d).constant_like && ctx.name(d) != "arith.constant" {
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
/// it); `None` for anything else or above 128 bits.
pub(crate) fn width(ctx: &Context, t: Type) -> Option<u32> {
    match ctx.kind(scalar_of(ctx, t)) {
        TypeKind::Integer(w, _) if (1..=128).contains(w) => Some(*w),
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

/// What `op` folds to, if it is one of the ops covered and it folds, in
/// the release `ed` stands for (15 moves a constant `cmpi` operand to the
/// right, 14 does not).
pub fn fold(ctx: &Context, op: Op, ed: Edition) -> Option<Folded> {
    if let Some(f) = fold_in(Cx { ctx, elem: None }, op, ed) {
        return Some(f);
    }
    fold_elementwise(ctx, op, ed)
}

/// `scf.if` on `xori(c, true)` with an `else`: the `if` on `c` with its
/// branches swapped (`IfOp::fold`, the same in LLVM 14 and 15), done in
/// place.
pub fn fold_if(ctx: &mut Context, op: Op) -> bool {
    let &[then_r, else_r] = ctx.regions_of(op) else {
        return false;
    };
    let Some(else_b) = ctx.entry_block(else_r) else {
        return false;
    };
    let Some(&[x, one]) = defined_by(ctx, ctx.operand(op, 0), "arith.xori") else {
        return false;
    };
    if !constant_attr(ctx, one).is_some_and(|a| match a {
        AttrKind::Bool(b) => *b,
        AttrKind::Integer(i, _) => *i == 1,
        _ => false,
    }) {
        return false;
    }
    let Some(then_b) = ctx.entry_block(then_r) else {
        return false;
    };
    ctx.set_operand(op, 0, x);
    ctx.detach_block(then_b);
    ctx.detach_block(else_b);
    ctx.append_block(then_r, else_b);
    ctx.append_block(else_r, then_b);
    true
}

/// What a `memref` op folds to (LLVM 14 and 15 alike).
pub enum MemrefFold {
    /// Changed in place: an operand that was a `memref.cast` is now the
    /// cast's source.
    InPlace,
    /// An existing value (`dim` of an allocation: its size operand).
    Value(Value),
    /// A constant index (`dim` of a static dimension).
    Index(i64),
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

/// The folders of `memref.dim`, `memref.cast`, `memref.load`,
/// `memref.store`, `memref.dealloc`, `linalg.generic` and `linalg.fill`;
/// `None` for other ops or no fold.
pub fn fold_memref(ctx: &mut Context, op: Op) -> Option<MemrefFold> {
    let folded = match ctx.name(op) {
        "memref.dim" => return fold_dim(ctx, op),
        // Linalg's structured ops fold casts into their operands too.
        "memref.cast" | "memref.load" | "memref.dealloc" | "linalg.generic" | "linalg.fill" => {
            fold_memref_cast(ctx, op, None)
        }
        "memref.store" => {
            let value = ctx.operands(op).first().copied();
            fold_memref_cast(ctx, op, value)
        }
        _ => false,
    };
    folded.then_some(MemrefFold::InPlace)
}

/// `memref.dim` at a constant index: the static size, the dynamic size
/// an allocation was given, or the `dim` of what a cast hid.
fn fold_dim(ctx: &mut Context, op: Op) -> Option<MemrefFold> {
    let &[src, idx] = ctx.operands(op) else {
        return None;
    };
    let AttrKind::Integer(i, _) = *constant_attr(ctx, idx)? else {
        return None;
    };
    let TypeKind::MemRef { shape, .. } = ctx.kind(ctx.value_type(src)) else {
        return None;
    };
    // Past the rank upstream reads out of bounds; no fold here.
    let i = usize::try_from(i).ok().filter(|&i| i < shape.len())?;
    if let Some(n) = shape[i] {
        return Some(MemrefFold::Index(n));
    }
    let dynamic_before = shape[..i].iter().filter(|d| d.is_none()).count();
    if let Some(d) = ctx.defining_op(src) {
        if matches!(ctx.name(d), "memref.alloc" | "memref.alloca") {
            return ctx
                .operands(d)
                .get(dynamic_before)
                .map(|&v| MemrefFold::Value(v));
        }
    }
    fold_memref_cast(ctx, op, None).then_some(MemrefFold::InPlace)
}

/// A vector or tensor op over constants of which one at least is not a
/// splat: MLIR's constant folders apply the scalar rule to each element.
/// An identity a rule finds for one element (`addi(x, 0)`) stands for that
/// element's value.
fn fold_elementwise(ctx: &Context, op: Op, ed: Edition) -> Option<Folded> {
    let &[result] = ctx.results(op) else {
        return None;
    };
    let rt = ctx.value_type(result);
    let name = ctx.name(op);
    // These fold scalars (or splat conditions) only.
    if !is_shaped(ctx, rt)
        || matches!(
            name,
            "arith.select" | "arith.cmpi" | "arith.cmpf" | "arith.truncf" | "arith.index_cast"
        )
    {
        return None;
    }
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
        let e = match fold_in(cx, op, ed)? {
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

fn fold_in(ctx: Cx, op: Op, ed: Edition) -> Option<Folded> {
    let &[result] = ctx.results(op) else {
        return None;
    };
    let name = ctx.name(op);
    let ops = ctx.operands(op);
    let shaped = is_shaped(&ctx, ctx.value_type(result));
    if ed == Edition::V13 {
        if let Some(folded) = fold_13(ctx, op, name, ops, result) {
            return folded;
        }
    }
    if name == "arith.select" {
        return fold_select(ctx, ops, width(&ctx, ctx.value_type(result)) == Some(1));
    }
    let rt = ctx.value_type(result);
    match name {
        "arith.addf" | "arith.subf" | "arith.mulf" | "arith.divf" => {
            let f = &name["arith.".len()..name.len() - 1];
            return fold_float(ctx, f, ops, rt, ed);
        }
        "arith.maxf" | "arith.minf" => return fold_min_max_float(ctx, name, ops, rt),
        // 14 has no folder for these two.
        "arith.negf" | "arith.remf" if ed != Edition::V15 => return None,
        "arith.negf" => {
            let &[x] = ops else {
                return None;
            };
            // negf(negf(x)) -> x
            if let Some(&[y]) = defined_by(&ctx, x, "arith.negf") {
                return Some(Folded::Value(y));
            }
            float_kind(&ctx, rt)?;
            return Some(Folded::Float(-const_float(ctx, x)?));
        }
        "arith.remf" => {
            let &[l, r] = ops else {
                return None;
            };
            float_kind(&ctx, rt)?;
            let (a, b) = (const_float(ctx, l)?, const_float(ctx, r)?);
            return Some(Folded::Float(ieee_remainder(a, b)?));
        }
        // These read scalar constants only.
        "arith.cmpf" | "arith.truncf" | "arith.index_cast" if shaped => return None,
        // 14 folds no casts of vectors or tensors but bit casts.
        "arith.sitofp" | "arith.uitofp" | "arith.fptosi" | "arith.fptoui" | "arith.extsi"
        | "arith.extui" | "arith.trunci"
            if shaped && ed != Edition::V15 =>
        {
            return None
        }
        "arith.cmpf" => return fold_cmpf(ctx, op, ops),
        "arith.truncf" => {
            let &[x] = ops else {
                return None;
            };
            let k = ctx.kind(rt);
            float_kind(&ctx, rt)?;
            // Only when the value survives the trip through the narrower
            // type (a NaN never compares equal, so it stays).
            let v = const_float(ctx, x)?;
            let t = round_float(k, v);
            return (t == v).then_some(Folded::Float(t));
        }
        "arith.sitofp" | "arith.uitofp" => {
            let &[x] = ops else {
                return None;
            };
            let k = float_kind(&ctx, rt)?;
            let w = width(&ctx, ctx.value_type(x))?;
            let a = const_bits(ctx, x)?;
            // Rust's integer-to-float casts round to nearest, ties to even,
            // as `APFloat::convertFromAPInt`; narrower types go through
            // `f64`, exact for every integer they can hold finitely.
            let v = match (name == "arith.sitofp", &k) {
                (true, TypeKind::F32) => f64::from(signed(a, w) as f32),
                (false, TypeKind::F32) => f64::from(a as f32),
                (true, _) => round_float(k, signed(a, w) as f64),
                (false, _) => round_float(k, a as f64),
            };
            return Some(Folded::Float(v));
        }
        "arith.fptosi" | "arith.fptoui" => {
            let &[x] = ops else {
                return None;
            };
            let w = width(&ctx, rt)?;
            float_kind(&ctx, ctx.value_type(x))?;
            let v = const_float(ctx, x)?.trunc();
            // Out of range (NaN, infinities included) is an invalid
            // conversion, which the folder refuses.
            let (lo, hi) = if name == "arith.fptosi" {
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
            return Some(Folded::Const(bits & mask(w)));
        }
        "arith.bitcast" => {
            let &[x] = ops else {
                return None;
            };
            let xt = scalar_of(&ctx, ctx.value_type(x));
            let bits = match const_bits(ctx, x) {
                Some(b) => b,
                None => float_to_bits(ctx.kind(xt), const_float(ctx, x)?),
            };
            if ctx.kind(scalar_of(&ctx, rt)).is_float() {
                let k = float_kind(&ctx, rt)?;
                return Some(Folded::Float(float_from_bits(k, bits)));
            }
            width(&ctx, rt)?;
            return Some(Folded::Const(bits));
        }
        _ => {}
    }
    let rw = width(&ctx, ctx.value_type(result))?;
    let c = |i: usize| ops.get(i).and_then(|&v| const_bits(ctx, v));
    let m = mask(rw);
    let binary = || -> Option<(Value, Value, Option<u128>, Option<u128>)> {
        match ops {
            &[l, r] => Some((l, r, c(0), c(1))),
            _ => None,
        }
    };
    use Folded::{Const, Value as V};
    match name {
        "arith.addi" => {
            let (l, r, a, b) = binary()?;
            if b == Some(0) {
                return Some(V(l));
            }
            // addi(subi(a, b), b) -> a; addi(b, subi(a, b)) -> a
            if let Some(&[x, y]) = defined_by(&ctx, l, "arith.subi") {
                if y == r {
                    return Some(V(x));
                }
            }
            if let Some(&[x, y]) = defined_by(&ctx, r, "arith.subi") {
                if y == l {
                    return Some(V(x));
                }
            }
            Some(Const(a?.wrapping_add(b?) & m))
        }
        "arith.subi" => {
            let (l, r, a, b) = binary()?;
            if l == r {
                return Some(Const(0));
            }
            if b == Some(0) {
                return Some(V(l));
            }
            Some(Const(a?.wrapping_sub(b?) & m))
        }
        "arith.muli" => {
            let (l, r, a, b) = binary()?;
            match b {
                Some(0) => return Some(V(r)),
                Some(1) => return Some(V(l)),
                _ => {}
            }
            Some(Const(a?.wrapping_mul(b?) & m))
        }
        "arith.andi" => {
            let (l, r, a, b) = binary()?;
            if b == Some(0) {
                return Some(V(r));
            }
            if b == Some(m) {
                return Some(V(l));
            }
            if let (Some(a), Some(b)) = (a, b) {
                return Some(Const(a & b));
            }
            // The `Idempotent` trait's fold, tried after the op's own (which
            // folds constants, element by element if need be).
            (l == r && constant_attr(&ctx, l).is_none()).then_some(V(l))
        }
        "arith.ori" => {
            let (l, r, a, b) = binary()?;
            if b == Some(0) {
                return Some(V(l));
            }
            // Read from an `IntegerAttr`: scalars only.
            if b == Some(m) && !shaped {
                return Some(Const(m));
            }
            if let (Some(a), Some(b)) = (a, b) {
                return Some(Const(a | b));
            }
            (l == r && constant_attr(&ctx, l).is_none()).then_some(V(l))
        }
        "arith.xori" => {
            let (l, r, a, b) = binary()?;
            if b == Some(0) {
                return Some(V(l));
            }
            if l == r {
                return Some(Const(0));
            }
            // xori(xori(x, y), y) -> x: a `not` undone.
            if let Some(&[x, y]) = defined_by(&ctx, l, "arith.xori") {
                if y == r {
                    return Some(V(x));
                }
            }
            Some(Const(a? ^ b?))
        }
        "arith.divui" | "arith.divsi" => {
            let (l, _, a, b) = binary()?;
            if b == Some(1) {
                return Some(V(l));
            }
            let (a, b) = (a?, b?);
            if b == 0 {
                return None;
            }
            if name == "arith.divui" {
                return Some(Const(a / b));
            }
            let (sa, sb) = (signed(a, rw), signed(b, rw));
            // Overflow (the most negative number over -1) is not folded.
            if sa == signed(1 << (rw - 1), rw) && sb == -1 {
                return None;
            }
            Some(Const((sa / sb) as u128 & m))
        }
        // 14 folds remainders of scalars only.
        "arith.remui" | "arith.remsi" if shaped && ed != Edition::V15 => None,
        "arith.remui" | "arith.remsi" => {
            let (_, _, a, b) = binary()?;
            if b == Some(1) {
                return Some(Const(0));
            }
            let (a, b) = (a?, b?);
            if b == 0 {
                return None;
            }
            if name == "arith.remui" {
                return Some(Const(a % b));
            }
            let (sa, sb) = (signed(a, rw), signed(b, rw));
            Some(Const(sa.wrapping_rem(sb) as u128 & m))
        }
        // 15 folds constant shifts by at most the width; 14 does not.
        "arith.shli" | "arith.shrsi" | "arith.shrui" if ed == Edition::V15 => {
            let (_, _, a, b) = binary()?;
            let (a, b) = (a?, b?);
            // The folder keeps whether the last element's shift is in
            // range; the others shift as `APInt` does, saturating.
            let last = ctx.elem.is_none_or(|(i, n)| i + 1 == n);
            if b > u128::from(rw) && last {
                return None;
            }
            let sign_fill = if signed(a, rw) < 0 { m } else { 0 };
            Some(Const(match (name, b >= u128::from(rw)) {
                ("arith.shli", true) | ("arith.shrui", true) => 0,
                ("arith.shrsi", true) => sign_fill,
                ("arith.shli", false) => (a << b) & m,
                ("arith.shrui", false) => a >> b,
                _ => (signed(a, rw) >> b) as u128 & m,
            }))
        }
        "arith.maxsi" | "arith.maxui" | "arith.minsi" | "arith.minui" => {
            let (l, r, a, b) = binary()?;
            if l == r {
                return Some(V(r));
            }
            let smax = m >> 1;
            let smin = smax + 1;
            // The bound that always wins returns it; the one that never
            // does returns the other operand.
            let (wins, loses) = match name {
                "arith.maxsi" => (smax, smin),
                "arith.maxui" => (m, 0),
                "arith.minsi" => (smin, smax),
                _ => (0, m),
            };
            if b == Some(wins) {
                return Some(V(r));
            }
            if b == Some(loses) {
                return Some(V(l));
            }
            let (a, b) = (a?, b?);
            let (sa, sb) = (signed(a, rw), signed(b, rw));
            Some(Const(match name {
                "arith.maxsi" => {
                    if sa >= sb {
                        a
                    } else {
                        b
                    }
                }
                "arith.maxui" => a.max(b),
                "arith.minsi" => {
                    if sa <= sb {
                        a
                    } else {
                        b
                    }
                }
                _ => a.min(b),
            }))
        }
        "arith.ceildivui" => {
            let (l, _, a, b) = binary()?;
            if b == Some(1) {
                return Some(V(l));
            }
            let (a, b) = (a?, b?);
            if b == 0 {
                return None;
            }
            let q = a / b;
            if a % b == 0 {
                return Some(Const(q));
            }
            // q + 1 overflowing the width is not folded.
            (q < m).then_some(Const(q + 1))
        }
        "arith.ceildivsi" | "arith.floordivsi" => {
            let (l, _, a, b) = binary()?;
            if b == Some(1) {
                return Some(V(l));
            }
            let (a, b) = (a?, b?);
            if b == 0 {
                return None;
            }
            let ceil = name == "arith.ceildivsi";
            signed_div_round(a, b, rw, ceil).map(Const)
        }
        "arith.cmpi" => {
            let (l, r, a, b) = binary()?;
            let p = predicate(&ctx, op)?;
            let w = width(&ctx, ctx.value_type(l))?;
            if l == r {
                return Some(Const(u128::from(compare(p, 0, 0, w)?)));
            }
            if shaped {
                // Only the operand order changes for vectors and tensors:
                // a constant of any kind moves to the right.
                let (cl, cr) = (
                    constant_attr(&ctx, l).is_some(),
                    constant_attr(&ctx, r).is_some(),
                );
                if ed == Edition::V15 && cl && !cr {
                    return Some(Folded::SwapOperands(mirror(p)?));
                }
                return None;
            }
            // ext(%x : i1) != 0 -> %x
            if b == Some(0) && p == "ne" {
                for ext in ["arith.extsi", "arith.extui"] {
                    if let Some(&[x]) = defined_by(&ctx, l, ext) {
                        if width(&ctx, ctx.value_type(x)) == Some(1) {
                            return Some(V(x));
                        }
                    }
                }
            }
            // A constant moves to the right, the predicate mirrored.
            if ed == Edition::V15 && a.is_some() && b.is_none() {
                return Some(Folded::SwapOperands(mirror(p)?));
            }
            Some(Const(u128::from(compare(p, a?, b?, w)?)))
        }
        "arith.extui" | "arith.extsi" | "arith.trunci" | "arith.index_cast" => {
            let &[x] = ops else {
                return None;
            };
            // trunci(extsi(a)) -> a and trunci(extui(a)) -> a, of one type
            if name == "arith.trunci" {
                for ext in ["arith.extsi", "arith.extui"] {
                    if let Some(&[y]) = defined_by(&ctx, x, ext) {
                        if ctx.value_type(y) == ctx.value_type(result) {
                            return Some(V(y));
                        }
                    }
                }
            }
            // extui(extui(a)), extsi(extsi(a)), trunci(trunci(a)): the op
            // reads `a` itself, changed in place.
            if name != "arith.index_cast" {
                if let Some(&[y]) = defined_by(&ctx, x, name) {
                    return Some(Folded::SetOperand(y));
                }
            }
            let a = c(0)?;
            let w = width(&ctx, ctx.value_type(x))?;
            Some(Const(match name {
                "arith.extui" => a,
                // Through a signed integer: sign-extended, then cut.
                _ => signed(a, w) as u128 & m,
            }))
        }
        _ => None,
    }
}

/// The folders LLVM 13's `std` ops had where they differ from the
/// `arith` ones of 14 (`None`: as 14): fewer identities (no `addi` of a
/// `subi`, no float identities, no `extsi`/`trunci` chains, no casts
/// between integers and floats, `select` of `true`/`false` kept), but
/// `andi`/`ori` of one value twice fold before their constants do, and
/// an `index_cast` of an `index_cast` back to the first type folds.
fn fold_13(ctx: Cx, op: Op, name: &str, ops: &[Value], result: Value) -> Option<Option<Folded>> {
    use Folded::{Const, Value as V};
    let rt = ctx.value_type(result);
    let shaped = is_shaped(&ctx, rt);
    let c = |i: usize| ops.get(i).and_then(|&v| const_bits(ctx, v));
    let binary = || match ops {
        &[l, r] => Some((l, r, c(0), c(1))),
        _ => None,
    };
    Some(match name {
        "arith.addi" => (|| {
            let (l, _, a, b) = binary()?;
            if b == Some(0) {
                return Some(V(l));
            }
            Some(Const(a?.wrapping_add(b?) & mask(width(&ctx, rt)?)))
        })(),
        "arith.andi" => (|| {
            let (l, r, a, b) = binary()?;
            let m = mask(width(&ctx, rt)?);
            if b == Some(0) {
                return Some(V(r));
            }
            if b == Some(m) {
                return Some(V(l));
            }
            if l == r {
                return Some(V(r));
            }
            Some(Const(a? & b?))
        })(),
        "arith.ori" => (|| {
            let (l, r, a, b) = binary()?;
            if b == Some(0) {
                return Some(V(l));
            }
            if l == r {
                return Some(V(r));
            }
            Some(Const(a? | b?))
        })(),
        "arith.xori" => (|| {
            let (l, r, a, b) = binary()?;
            if b == Some(0) {
                return Some(V(l));
            }
            if l == r {
                return Some(Const(0));
            }
            Some(Const(a? ^ b?))
        })(),
        // Scalars only: the folder reads `IntegerAttr`s and answers with
        // a `BoolAttr`.
        "arith.cmpi" if shaped => None,
        "arith.cmpi" => (|| {
            let (l, r, a, b) = binary()?;
            let p = predicate(&ctx, op)?;
            let w = width(&ctx, ctx.value_type(l))?;
            if l == r {
                return Some(Const(u128::from(compare(p, 0, 0, w)?)));
            }
            Some(Const(u128::from(compare(p, a?, b?, w)?)))
        })(),
        "arith.cmpf" if shaped => None,
        "arith.cmpf" => (|| {
            let &[l, r] = ops else {
                return None;
            };
            const_float(ctx, l)?;
            const_float(ctx, r)?;
            fold_cmpf(ctx, op, ops)
        })(),
        "arith.index_cast" => (|| {
            let &[x] = ops else {
                return None;
            };
            if let Some(&[y]) = defined_by(&ctx, x, "arith.index_cast") {
                if ctx.value_type(y) == rt {
                    return Some(V(y));
                }
            }
            if shaped {
                return None;
            }
            let a = c(0)?;
            let w = width(&ctx, ctx.value_type(x))?;
            Some(Const(signed(a, w) as u128 & mask(width(&ctx, rt)?)))
        })(),
        "arith.select" => (|| {
            let &[cond, t, f] = ops else {
                return None;
            };
            if t == f {
                return Some(V(t));
            }
            match const_bits(ctx, cond) {
                Some(1) => return Some(V(t)),
                Some(0) => return Some(V(f)),
                _ => {}
            }
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
                "eq" => Some(V(f)),
                "ne" => Some(V(t)),
                _ => None,
            }
        })(),
        "arith.extsi" | "arith.trunci" if shaped => None,
        "arith.extsi" | "arith.trunci" => (|| {
            let &[x] = ops else {
                return None;
            };
            // trunci(zexti(a)) -> a, trunci(sexti(a)) -> a, whatever a's
            // type (the greedy folder then refuses another type, 13's
            // conversion driver takes it).
            if name == "arith.trunci" {
                let d = ctx.defining_op(x);
                if let Some(d) = d.filter(|&d| matches!(ctx.name(d), "arith.extsi" | "arith.extui"))
                {
                    return Some(V(ctx.operand(d, 0)));
                }
            }
            let a = c(0)?;
            let w = width(&ctx, ctx.value_type(x))?;
            Some(Const(signed(a, w) as u128 & mask(width(&ctx, rt)?)))
        })(),
        "arith.extui" | "arith.sitofp" | "arith.uitofp" | "arith.fptosi" | "arith.fptoui"
        | "arith.extf" | "arith.truncf" => None,
        "arith.addf" | "arith.subf" | "arith.mulf" | "arith.divf" => (|| {
            let &[l, r] = ops else {
                return None;
            };
            // Constants only: no identities in 13.
            const_float(ctx, l)?;
            const_float(ctx, r)?;
            let f = &name["arith.".len()..name.len() - 1];
            fold_float(ctx, f, ops, rt, Edition::V14)
        })(),
        _ => return None,
    })
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
fn fold_min_max_float(ctx: Cx, name: &str, ops: &[Value], t: Type) -> Option<Folded> {
    let &[l, r] = ops else {
        return None;
    };
    if l == r {
        return Some(Folded::Value(r));
    }
    let max = name == "arith.maxf";
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
fn fold_cmpf(ctx: Cx, op: Op, ops: &[Value]) -> Option<Folded> {
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
    match constant_attr(&cx, v)? {
        AttrKind::Float(bits, _) => Some(f64::from_bits(*bits)),
        AttrKind::Dense(elems, _, splat) => match dense_elem(cx, elems, *splat)? {
            DenseElem::Float(b) => Some(f64::from_bits(b)),
            _ => None,
        },
        _ => None,
    }
}

/// `arith.addf`, `subf`, `mulf`, `divf` (`op` without its prefix and
/// `f`) on `f32` or `f64`: the identity the folder knows, then the two
/// constants computed in the type's precision (IEEE, to nearest, as
/// `APFloat`). NaN operands are not folded (`APFloat` would carry their
/// payload).
fn fold_float(ctx: Cx, op: &str, ops: &[Value], t: Type, ed: Edition) -> Option<Folded> {
    let k = float_kind(&ctx, t)?;
    let single = *k == TypeKind::F32;
    let &[l, r] = ops else {
        return None;
    };
    let (a, b) = (const_float(ctx, l), const_float(ctx, r));
    let identity = match op {
        // addf(x, -0.0) -> x, subf(x, +0.0) -> x
        "add" => b.is_some_and(|b| b == 0.0 && b.is_sign_negative()),
        "sub" => b.is_some_and(|b| b == 0.0 && b.is_sign_positive()),
        // mulf(x, 1.0) -> x, divf(x, 1.0) -> x
        "mul" | "div" => b == Some(1.0),
        _ => return None,
    };
    if identity {
        return Some(Folded::Value(l));
    }
    // 14 also knows mulf(1.0, x) -> x; 15 does not.
    if op == "mul" && ed != Edition::V15 && a == Some(1.0) {
        return Some(Folded::Value(r));
    }
    let (a, b) = (a?, b?);
    fn apply<
        T: std::ops::Add<Output = T>
            + std::ops::Sub<Output = T>
            + std::ops::Mul<Output = T>
            + std::ops::Div<Output = T>,
    >(
        op: &str,
        a: T,
        b: T,
    ) -> T {
        match op {
            "add" => a + b,
            "sub" => a - b,
            "mul" => a * b,
            _ => a / b,
        }
    }
    // f16 and bf16 results are exact in `f64` (or, for a quotient, round
    // twice to the same value: 53 bits are more than twice theirs), then
    // round once to the type.
    let v = if single {
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

/// `arith.select`'s folder (any type: most of its rules pick a value).
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
    // select(cmpi eq %a, %b, %a, %b) -> %b; with ne -> %a (either order)
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

/// What an LLVM dialect op folds to.
pub enum LlvmFold {
    /// An existing value.
    Value(Value),
    /// Changed in place (15's `extractvalue` skips the insertions it
    /// cannot see through).
    InPlace,
}

/// The folders of the LLVM dialect ops a lowering leaves where a later
/// conversion folds them (`-reconcile-unrealized-casts` sees every op):
/// `extractvalue` of a chain of `insertvalue`s, casts undone, a GEP by
/// zero.
pub fn fold_llvm(ctx: &mut Context, op: Op, ed: Edition) -> Option<LlvmFold> {
    match ctx.name(op) {
        "llvm.extractvalue" => fold_extractvalue(ctx, op, ed),
        "llvm.bitcast" | "llvm.addrspacecast" => {
            let arg = ctx.operand(op, 0);
            let ty = ctx.value_type(ctx.result(op, 0));
            if ctx.value_type(arg) == ty {
                return Some(LlvmFold::Value(arg));
            }
            let prev = ctx.defining_op(arg)?;
            if ctx.name(prev) != ctx.name(op) {
                return None;
            }
            let src = ctx.operand(prev, 0);
            (ctx.value_type(src) == ty).then_some(LlvmFold::Value(src))
        }
        "llvm.getelementptr" => {
            let &[base, index] = ctx.operands(op) else {
                return None;
            };
            let zero = ctx.defining_op(index).is_some_and(|d| {
                ctx.traits_of(d).constant_like
                    && ctx
                        .get_attr(d, "value")
                        .is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::Integer(0, _)))
            });
            (zero && ctx.value_type(base) == ctx.value_type(ctx.result(op, 0)))
                .then_some(LlvmFold::Value(base))
        }
        _ => None,
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

/// `extractvalue` of an `insertvalue` at the same position is the value
/// inserted; insertions at unrelated positions are looked through (15
/// makes the container the value they inserted into), one whose position
/// is a prefix of the other's, or the other way round, stops the search.
fn fold_extractvalue(ctx: &mut Context, op: Op, ed: Edition) -> Option<LlvmFold> {
    let pos = llvm_position(ctx, op)?;
    let mut changed = false;
    let mut container = ctx.operand(op, 0);
    while let Some(ins) = ctx
        .defining_op(container)
        .filter(|&d| ctx.name(d) == "llvm.insertvalue")
    {
        let ipos = llvm_position(ctx, ins)?;
        if ipos == pos {
            return Some(LlvmFold::Value(ctx.operand(ins, 1)));
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
    changed.then_some(LlvmFold::InPlace)
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
