//! Folding, as MLIR's dialect conversion does it to every op whose
//! legality the conversion target leaves open: before trying patterns on
//! such an op, `OperationLegalizer` asks the op to fold with the values of
//! its constant operands, and replaces it by an existing value or by a
//! constant materialized just before it. A pass lowering with dialect
//! conversion (`async-to-async-runtime`) therefore folds `arith.addi %x,
//! %c0` to `%x` on the way, and `mlir-opt`'s output shows it.
//!
//! These are the folders of LLVM 14 and 15 for scalar integer, index,
//! `f32` and `f64` `arith` ops (they differ in three: constant shifts,
//! the `cmpi` operand order, `mulf(1.0, x)`); each rule was checked
//! against `mlir-opt-14` and `mlir-opt-15`, in the order the folder tries
//! them, trait folds (`Idempotent`) after the op's own. Ops not covered
//! here (other float ops, vectors, other dialects) are left as they are.

use crate::arith::CMPI;
use mlir_async_ir::{AttrKind, Context, Op, Type, TypeKind, Value, ValueDef};
use mlir_async_syntax::Edition;

/// The ops [`fold`] covers.
pub const FOLDABLE: &[&str] = &[
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.andi",
    "arith.ori",
    "arith.divui",
    "arith.divsi",
    "arith.remui",
    "arith.remsi",
    "arith.shli",
    "arith.shrsi",
    "arith.shrui",
    "arith.cmpi",
    "arith.select",
    "arith.extui",
    "arith.extsi",
    "arith.trunci",
    "arith.index_cast",
    "arith.addf",
    "arith.subf",
    "arith.mulf",
    "arith.divf",
];

/// What an op folds to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Folded {
    /// An existing value.
    Value(Value),
    /// A new constant of the op's result type, as bits of its width (a
    /// `true`/`false` for `i1`).
    Const(u64),
    /// A new floating-point constant of the op's result type (`f32` or
    /// `f64`, computed in that precision), as an `f64`.
    Float(f64),
    /// Not folded, but changed in place (and the change stays, as in
    /// MLIR): the two operands swapped and the predicate set to this one
    /// (an index into [`CMPI`]).
    SwapOperands(usize),
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

/// The bit width of a scalar integer or index type (index is 64 bits
/// wide, as MLIR folds it); `None` for anything else or above 64 bits.
fn width(ctx: &Context, t: Type) -> Option<u32> {
    match ctx.kind(t) {
        TypeKind::Integer(w, _) if (1..=64).contains(w) => Some(*w),
        TypeKind::Index => Some(64),
        _ => None,
    }
}

fn mask(w: u32) -> u64 {
    if w == 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// `bits` (of width `w`) read as a signed number.
fn signed(bits: u64, w: u32) -> i64 {
    let shift = 64 - w;
    ((bits << shift) as i64) >> shift
}

/// The bits of `v` if an `arith.constant` defines it.
fn const_bits(ctx: &Context, v: Value) -> Option<u64> {
    let ValueDef::Result(d, 0) = ctx.value_def(v) else {
        return None;
    };
    if ctx.name(d) != "arith.constant" {
        return None;
    }
    let w = width(ctx, ctx.value_type(v))?;
    match ctx.attr_kind(ctx.get_attr(d, "value")?) {
        AttrKind::Integer(i, _) => Some(*i as u64 & mask(w)),
        AttrKind::Bool(b) => Some(u64::from(*b)),
        _ => None,
    }
}

/// The `value` of the `arith.constant` that materializes `f` in type `t`
/// (`None` for a value or an in-place change): integers signed, as MLIR
/// prints them, `i1` as `true`/`false`.
pub fn constant_value(ctx: &Context, f: Folded, t: Type) -> Option<AttrKind> {
    match f {
        Folded::Const(bits) => Some(match ctx.kind(t) {
            TypeKind::Integer(1, _) => AttrKind::Bool(bits != 0),
            _ => AttrKind::Integer(i128::from(signed(bits, width(ctx, t)?)), t),
        }),
        Folded::Float(v) => Some(AttrKind::Float(v.to_bits(), t)),
        Folded::Value(_) | Folded::SwapOperands(_) => None,
    }
}

/// Whether predicate `p` (an index into [`CMPI`]) holds for `a` and `b`.
fn compare(p: &str, a: u64, b: u64, w: u32) -> Option<bool> {
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
    let &[result] = ctx.results(op) else {
        return None;
    };
    let name = ctx.name(op);
    let ops = ctx.operands(op);
    if name == "arith.select" {
        return fold_select(ctx, ops, width(ctx, ctx.value_type(result)) == Some(1));
    }
    if let Some(f) = name
        .strip_suffix('f')
        .and_then(|n| n.strip_prefix("arith."))
    {
        return fold_float(ctx, f, ops, ctx.value_type(result), ed);
    }
    let rw = width(ctx, ctx.value_type(result))?;
    let c = |i: usize| ops.get(i).and_then(|&v| const_bits(ctx, v));
    let m = mask(rw);
    let binary = || -> Option<(Value, Value, Option<u64>, Option<u64>)> {
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
            if let Some(&[x, y]) = defined_by(ctx, l, "arith.subi") {
                if y == r {
                    return Some(V(x));
                }
            }
            if let Some(&[x, y]) = defined_by(ctx, r, "arith.subi") {
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
            // The `Idempotent` trait's fold, tried after the op's own.
            (l == r).then_some(V(l))
        }
        "arith.ori" => {
            let (l, r, a, b) = binary()?;
            if b == Some(0) {
                return Some(V(l));
            }
            if b == Some(m) {
                return Some(Const(m));
            }
            if let (Some(a), Some(b)) = (a, b) {
                return Some(Const(a | b));
            }
            (l == r).then_some(V(l))
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
            Some(Const((sa / sb) as u64 & m))
        }
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
            Some(Const(sa.wrapping_rem(sb) as u64 & m))
        }
        // 15 folds constant shifts by at most the width; 14 does not.
        "arith.shli" | "arith.shrsi" | "arith.shrui" if ed == Edition::V15 => {
            let (_, _, a, b) = binary()?;
            let (a, b) = (a?, b?);
            if b > u64::from(rw) {
                return None;
            }
            let sign_fill = if signed(a, rw) < 0 { m } else { 0 };
            Some(Const(match (name, b == u64::from(rw)) {
                ("arith.shli", true) | ("arith.shrui", true) => 0,
                ("arith.shrsi", true) => sign_fill,
                ("arith.shli", false) => (a << b) & m,
                ("arith.shrui", false) => a >> b,
                _ => (signed(a, rw) >> b) as u64 & m,
            }))
        }
        "arith.cmpi" => {
            let (l, r, a, b) = binary()?;
            let p = predicate(ctx, op)?;
            let w = width(ctx, ctx.value_type(l))?;
            if l == r {
                return Some(Const(u64::from(compare(p, 0, 0, w)?)));
            }
            // ext(%x : i1) != 0 -> %x
            if b == Some(0) && p == "ne" {
                for ext in ["arith.extsi", "arith.extui"] {
                    if let Some(&[x]) = defined_by(ctx, l, ext) {
                        if width(ctx, ctx.value_type(x)) == Some(1) {
                            return Some(V(x));
                        }
                    }
                }
            }
            // A constant moves to the right, the predicate mirrored.
            if ed == Edition::V15 && a.is_some() && b.is_none() {
                return Some(Folded::SwapOperands(mirror(p)?));
            }
            Some(Const(u64::from(compare(p, a?, b?, w)?)))
        }
        "arith.extui" | "arith.extsi" | "arith.trunci" | "arith.index_cast" => {
            let &[x] = ops else {
                return None;
            };
            // trunci(extsi(a)) -> a and trunci(extui(a)) -> a, of one type
            if name == "arith.trunci" {
                for ext in ["arith.extsi", "arith.extui"] {
                    if let Some(&[y]) = defined_by(ctx, x, ext) {
                        if ctx.value_type(y) == ctx.value_type(result) {
                            return Some(V(y));
                        }
                    }
                }
            }
            let a = c(0)?;
            let w = width(ctx, ctx.value_type(x))?;
            Some(Const(match name {
                "arith.extui" => a,
                // Through a signed integer: sign-extended, then cut.
                _ => signed(a, w) as u64 & m,
            }))
        }
        _ => None,
    }
}

/// The value of `v` if an `arith.constant` defines it as a float.
fn const_float(ctx: &Context, v: Value) -> Option<f64> {
    let d = ctx.defining_op(v)?;
    if ctx.name(d) != "arith.constant" {
        return None;
    }
    match ctx.attr_kind(ctx.get_attr(d, "value")?) {
        AttrKind::Float(bits, _) => Some(f64::from_bits(*bits)),
        _ => None,
    }
}

/// `arith.addf`, `subf`, `mulf`, `divf` (`op` without its prefix and
/// `f`) on `f32` or `f64`: the identity the folder knows, then the two
/// constants computed in the type's precision (IEEE, to nearest, as
/// `APFloat`). NaN operands are not folded (`APFloat` would carry their
/// payload).
fn fold_float(ctx: &Context, op: &str, ops: &[Value], t: Type, ed: Edition) -> Option<Folded> {
    let single = match ctx.kind(t) {
        TypeKind::F32 => true,
        TypeKind::F64 => false,
        _ => return None,
    };
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
    let v = if single {
        f64::from(apply(op, a as f32, b as f32))
    } else {
        apply(op, a, b)
    };
    if a.is_nan() || b.is_nan() {
        return None;
    }
    // An invalid operation (0/0, inf - inf) gives `APFloat`'s default NaN,
    // positive and quiet, whatever the machine's.
    Some(Folded::Float(if v.is_nan() { f64::NAN } else { v }))
}

/// `arith.select`'s folder (any type: most of its rules pick a value).
fn fold_select(ctx: &Context, ops: &[Value], boolean: bool) -> Option<Folded> {
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
    match predicate(ctx, d)? {
        "eq" => Some(Folded::Value(f)),
        "ne" => Some(Folded::Value(t)),
        _ => None,
    }
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
        assert_eq!(signed(0x7fff_ffff, 32), i32::MAX as i64);
        assert_eq!(compare("slt", 0xffff_ffff, 5, 32), Some(true));
        assert_eq!(compare("ult", 0xffff_ffff, 5, 32), Some(false));
        assert_eq!(compare("nope", 0, 0, 8), None);
    }
}
