//! The `arith` dialect (unprefixed `std` ops in the 13 edition).

use crate::util::*;
use crate::{fold, ods, FoldHook, OpDef};
use mlir_async_ir::*;
use mlir_async_syntax::{Edition, PResult, Parser, Printer};

/// `$lhs, $rhs attr-dict : type($result)` with `SameOperandsAndResultType`.
macro_rules! binary_ops {
    ($($ty:ident = $name:literal;)*) => {
        $(crate::op! {
            #[doc = concat!("`", $name, "`: two operands and a result of one type.")]
            pub struct $ty = $name {
                operands: [lhs: One, rhs: One],
                results: [result],
                format: "$lhs `,` $rhs attr-dict `:` type($result)",
                infer: AllSame,
            }
        })*
    };
}

binary_ops! {
    AddFOp = "arith.addf";
    SubFOp = "arith.subf";
    MulFOp = "arith.mulf";
    DivFOp = "arith.divf";
    RemFOp = "arith.remf";
    AddIOp = "arith.addi";
    SubIOp = "arith.subi";
    MulIOp = "arith.muli";
    DivSIOp = "arith.divsi";
    DivUIOp = "arith.divui";
    RemSIOp = "arith.remsi";
    RemUIOp = "arith.remui";
    AndIOp = "arith.andi";
    OrIOp = "arith.ori";
    XOrIOp = "arith.xori";
    MaxFOp = "arith.maxf";
    MinFOp = "arith.minf";
    ShLIOp = "arith.shli";
    ShRSIOp = "arith.shrsi";
    ShRUIOp = "arith.shrui";
    CeilDivSIOp = "arith.ceildivsi";
    CeilDivUIOp = "arith.ceildivui";
    FloorDivSIOp = "arith.floordivsi";
    MaxSIOp = "arith.maxsi";
    MinSIOp = "arith.minsi";
    MaxUIOp = "arith.maxui";
    MinUIOp = "arith.minui";
}

/// `$in attr-dict : type($in) to type($out)`.
macro_rules! cast_ops {
    ($($ty:ident = $name:literal;)*) => {
        $(crate::op! {
            #[doc = concat!("`", $name, "`: a value converted to another type.")]
            pub struct $ty = $name {
                operands: [input: One],
                results: [output],
                format: "$input attr-dict `:` type($input) `to` type($output)",
                infer: Spelled,
            }
        })*
    };
}

cast_ops! {
    IndexCastOp = "arith.index_cast";
    SIToFPOp = "arith.sitofp";
    UIToFPOp = "arith.uitofp";
    FPToSIOp = "arith.fptosi";
    FPToUIOp = "arith.fptoui";
    ExtFOp = "arith.extf";
    TruncFOp = "arith.truncf";
    ExtSIOp = "arith.extsi";
    ExtUIOp = "arith.extui";
    TruncIOp = "arith.trunci";
    BitcastOp = "arith.bitcast";
}

crate::op! {
    /// `arith.negf`: one operand and a result of its type.
    pub struct NegFOp = "arith.negf" {
        operands: [operand: One],
        results: [result],
        format: "$operand attr-dict `:` type($result)",
        infer: AllSame,
    }
}

crate::op! {
    /// `arith.cmpi`: the predicate spelled as a keyword, stored as `i64`.
    pub struct CmpIOp = "arith.cmpi" {
        operands: [lhs: One, rhs: One],
        results: [result],
        attrs: [predicate: Enum(CMPI)],
        format: "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)",
        infer: SameOperands(bool_like),
    }
}

crate::op! {
    /// `arith.cmpf`: as `arith.cmpi`, with the ordered and unordered
    /// predicates.
    pub struct CmpFOp = "arith.cmpf" {
        operands: [lhs: One, rhs: One],
        results: [result],
        attrs: [predicate: Enum(CMPF)],
        format: "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)",
        infer: SameOperands(bool_like),
    }
}

/// What a comparison of `t`s gives (MLIR's `getI1SameShape`): `i1`, or
/// a vector or tensor of `i1` of the same shape (a tensor without its
/// encoding).
pub(crate) fn bool_like(ctx: &mut Context, t: Type) -> Type {
    let i1 = ctx.int_type(1);
    match ctx.kind(t).clone() {
        TypeKind::Vector {
            shape, scalable, ..
        } => ctx.ty(TypeKind::Vector {
            shape,
            scalable,
            elem: i1,
        }),
        TypeKind::Tensor { shape, .. } => ctx.ty(TypeKind::Tensor {
            shape,
            elem: i1,
            encoding: None,
        }),
        TypeKind::UnrankedTensor(_) => ctx.ty(TypeKind::UnrankedTensor(i1)),
        _ => i1,
    }
}

pub const CMPI: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];
pub const CMPF: &[&str] = &[
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

crate::op! {
    /// `arith.constant` (13: `constant`, written in C++).
    pub struct ConstantOp = "arith.constant" {
        operands: [],
        results: [result = FromAttr("value", value_type)],
        attrs: [value: Any],
        syntax: {
            V13: Hand(parse_constant, print_constant),
            V14: Format("attr-dict $value"),
            V15: Format("attr-dict $value"),
        },
        infer: Spelled,
    }
}

/// The type of a constant's value: `i1` for a boolean, `none` for an
/// attribute without a type (a string, a symbol).
fn value_type(ctx: &mut Context, a: Attribute) -> Type {
    match ctx.attr_kind(a) {
        AttrKind::Integer(_, t)
        | AttrKind::WideInteger(_, t)
        | AttrKind::Float(_, t)
        | AttrKind::WideFloat(_, t)
        | AttrKind::Dense(_, t, _) => *t,
        AttrKind::Bool(_) => ctx.int_type(1),
        _ => ctx.none_type(),
    }
}

pub fn ops() -> Vec<OpDef> {
    let mut v = vec![
        ConstantOp::def()
            .shape(ods::NULLARY)
            .pure()
            .constant_like()
            .names(constant_names)
            .verify_in_edition(verify_constant),
        CmpIOp::def()
            .shape(ods::BINARY.attrs(&[("predicate", ods::AttrClass::I64Enum(CMPI))]))
            .pure()
            .folder(fold::fold_cmpi)
            .verify_in_edition(verify_cmpi),
        CmpFOp::def()
            .shape(ods::BINARY.attrs(&[("predicate", ods::AttrClass::I64Enum(CMPF))]))
            .pure()
            .folder(fold::fold_cmpf)
            .verify_in_edition(verify_cmpf),
        OpDef::new("arith.select")
            .shape(ods::Shape::new(ods::N::Exactly(3), ods::N::Exactly(1)))
            .syntax(parse_select, print_select)
            .pure()
            .verify_in_edition(verify_select)
            .folder(fold::fold_select_op),
        NegFOp::def()
            .shape(ods::UNARY)
            .pure()
            .verify_in_edition(verify_negf)
            .fold_hook(FoldHook::new(fold::fold_negf).since(Edition::V15)),
    ];
    // Each with its folder (an op new to a release's folders says since
    // which), and MLIR's `Commutative` trait from the release that gave
    // it: 13's `std` dialect gave it to the integer `addi`, `muli`,
    // `andi`, `ori`, `xori` only, 15 to the integer max and min.
    let binary = |def: fn() -> OpDef| {
        def()
            .shape(ods::BINARY)
            .pure()
            .verify_in_edition(verify_int_binary)
    };
    let float_binary = |def: fn() -> OpDef| {
        def()
            .shape(ods::BINARY)
            .pure()
            .verify_in_edition(verify_float_binary)
    };
    let since = |ed: Edition, f: crate::FoldFn| FoldHook::new(f).since(ed);
    v.extend([
        float_binary(AddFOp::def)
            .folder(fold::fold_addf)
            .commutative_since(Edition::V14),
        float_binary(SubFOp::def).folder(fold::fold_subf),
        float_binary(MulFOp::def)
            .folder(fold::fold_mulf)
            .commutative_since(Edition::V14),
        float_binary(DivFOp::def).folder(fold::fold_divf),
        float_binary(RemFOp::def).fold_hook(since(Edition::V15, fold::fold_remf)),
        binary(AddIOp::def).folder(fold::fold_addi).commutative(),
        binary(SubIOp::def).folder(fold::fold_subi),
        binary(MulIOp::def).folder(fold::fold_muli).commutative(),
        binary(DivSIOp::def).folder(fold::fold_divsi),
        binary(DivUIOp::def).folder(fold::fold_divui),
        binary(RemSIOp::def).folder(fold::fold_remsi),
        binary(RemUIOp::def).folder(fold::fold_remui),
        binary(AndIOp::def).folder(fold::fold_andi).commutative(),
        binary(OrIOp::def).folder(fold::fold_ori).commutative(),
        binary(XOrIOp::def).folder(fold::fold_xori).commutative(),
        float_binary(MaxFOp::def)
            .folder(fold::fold_maxf)
            .commutative_since(Edition::V14),
        float_binary(MinFOp::def)
            .folder(fold::fold_minf)
            .commutative_since(Edition::V14),
        binary(ShLIOp::def).fold_hook(since(Edition::V15, fold::fold_shli)),
        binary(ShRSIOp::def).fold_hook(since(Edition::V15, fold::fold_shrsi)),
        binary(ShRUIOp::def).fold_hook(since(Edition::V15, fold::fold_shrui)),
        binary(CeilDivSIOp::def).folder(fold::fold_ceildivsi),
        binary(CeilDivUIOp::def).folder(fold::fold_ceildivui),
        binary(FloorDivSIOp::def).folder(fold::fold_floordivsi),
        binary(MaxSIOp::def)
            .folder(fold::fold_maxsi)
            .commutative_since(Edition::V15),
        binary(MinSIOp::def)
            .folder(fold::fold_minsi)
            .commutative_since(Edition::V15),
        binary(MaxUIOp::def)
            .folder(fold::fold_maxui)
            .commutative_since(Edition::V15),
        binary(MinUIOp::def)
            .folder(fold::fold_minui)
            .commutative_since(Edition::V15),
    ]);
    // `extf` has no folder in 13, 14 or 15.
    let cast = |def: fn() -> OpDef, check: crate::EditionVerifyFn| {
        def().shape(ods::UNARY).pure().verify_in_edition(check)
    };
    v.extend([
        cast(IndexCastOp::def, verify_index_cast).folder(fold::fold_index_cast),
        cast(SIToFPOp::def, verify_int_to_float).fold_hook(since(Edition::V14, fold::fold_sitofp)),
        cast(UIToFPOp::def, verify_int_to_float).fold_hook(since(Edition::V14, fold::fold_uitofp)),
        cast(FPToSIOp::def, verify_float_to_int).fold_hook(since(Edition::V14, fold::fold_fptosi)),
        cast(FPToUIOp::def, verify_float_to_int).fold_hook(since(Edition::V14, fold::fold_fptoui)),
        cast(ExtFOp::def, verify_float_ext),
        cast(TruncFOp::def, verify_float_trunc).fold_hook(since(Edition::V14, fold::fold_truncf)),
        cast(ExtSIOp::def, verify_int_ext).folder(fold::fold_extsi),
        cast(ExtUIOp::def, verify_int_ext).fold_hook(since(Edition::V14, fold::fold_extui)),
        cast(TruncIOp::def, verify_int_trunc).folder(fold::fold_trunci),
        cast(BitcastOp::def, verify_bitcast).folder(fold::fold_bitcast),
    ]);
    v
}

fn parse_constant(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    attr_dict(p, st)?;
    let a = p.parse_attribute(None)?;
    let t = match p.ctx.attr_kind(a) {
        AttrKind::Integer(_, t)
        | AttrKind::WideInteger(_, t)
        | AttrKind::Float(_, t)
        | AttrKind::WideFloat(_, t)
        | AttrKind::Dense(_, t, _) => *t,
        AttrKind::Bool(_) => p.i1_type(),
        AttrKind::Type(_) | AttrKind::String(..) | AttrKind::SymbolRef(..) => {
            return p.err_here("unsupported 'value' attribute for arith.constant");
        }
        _ => return p.err_here("expected constant attribute"),
    };
    let s = p.static_sym("value");
    st.attrs.push((s, a));
    st.result_types.push(t);
    Ok(())
}

/// 13's printer: a space, the dictionary (with its own leading space),
/// and a space before the value only after a dictionary.
fn print_constant(p: &mut Printer, op: Op) {
    p.w(" ");
    p.attr_dict(op, &["value"]);
    if p.ctx.attrs(op).len() > 1 {
        p.w(" ");
    }
    let v = p.ctx.get_attr(op, "value").expect("constant has a value");
    p.attr(v);
}

/// The value's type must be the result's, and an integer result
/// signless. 13's hand-written verifier words it its own way; 14 and 15
/// check the types with ODS's `AllTypesMatch` first, each in its words.
fn verify_constant(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    let Some(v) = ctx.get_attr(op, "value") else {
        return Err("requires attribute 'value'".into());
    };
    let rt = ctx.value_type(ctx.result(op, 0));
    // Untyped attributes (strings, symbol references) have no type: they
    // never match a result type.
    let at = match ctx.attr_kind(v) {
        AttrKind::Integer(_, t)
        | AttrKind::WideInteger(_, t)
        | AttrKind::Float(_, t)
        | AttrKind::WideFloat(_, t)
        | AttrKind::Dense(_, t, _) => Some((*t == rt, tyname(ctx, *t))),
        AttrKind::Bool(_) => Some((
            *ctx.kind(rt) == TypeKind::Integer(1, Signedness::Signless),
            "i1".to_string(),
        )),
        _ => None,
    };
    // 14 and 15 give an attribute without a type the type `none`: with
    // a `none` result it passes `AllTypesMatch`, and the verifier names
    // the kinds it takes.
    if at.is_none() && ed != Edition::V13 && *ctx.kind(rt) == TypeKind::None {
        return Err("value must be an integer, float, or elements attribute".into());
    }
    if !at.as_ref().is_some_and(|(same, _)| *same) {
        return Err(match (ed, at) {
            (Edition::V13, Some((_, at))) => format!(
                "requires attribute's type ('{at}') to match op's return type ('{}')",
                tyname(ctx, rt)
            ),
            (Edition::V13, None) => {
                let mut text = String::new();
                mlir_async_syntax::printer::print_attr_into(ctx, v, &mut text, false);
                format!("unsupported 'value' attribute: {text}")
            }
            (Edition::V14, _) => {
                "failed to verify that result and attribute have the same type".into()
            }
            (Edition::V15, _) => {
                "failed to verify that all of {value, result} have same type".into()
            }
        });
    }
    if matches!(ctx.kind(rt), TypeKind::Integer(_, s) if *s != Signedness::Signless) {
        return Err(match ed {
            Edition::V13 => "requires integer result types to be signless",
            _ => "integer return type must be signless",
        }
        .into());
    }
    Ok(())
}

fn constant_names(ctx: &Context, op: Op, ed: Edition, set: &mut dyn FnMut(usize, &str)) {
    let Some(v) = ctx.get_attr(op, "value") else {
        return;
    };
    match ctx.attr_kind(v) {
        AttrKind::Bool(b) => set(0, if *b { "true" } else { "false" }),
        AttrKind::Integer(i, t) => match ctx.kind(*t) {
            TypeKind::Integer(1, _) => set(0, if *i != 0 { "true" } else { "false" }),
            TypeKind::Index => set(0, &format!("c{}", *i as i64)),
            // The value in full, as MLIR names it (`%c170141..._i128`).
            _ => {
                // 15 prints the whole value; 13 and 14 its low 64 bits, as
                // a signed number (`getInt()`).
                let v = if ed == Edition::V15 {
                    *i
                } else {
                    i128::from(*i as i64)
                };
                let n = format!("c{}_{}", v, tyname(ctx, *t));
                set(0, &n)
            }
        },
        AttrKind::WideInteger(..) => {
            let mut v = String::new();
            mlir_async_syntax::printer::print_attr_into(ctx, v_attr(ctx, op), &mut v, true);
            set(0, &format!("c{}_{}", v, tyname(ctx, attr_type(ctx, op))))
        }
        _ => set(0, "cst"),
    }
}

/// The verifier of the floating-point binary ops (`addf`, `mulf`, ...).
fn verify_float_binary(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    verify_same_type_op(ctx, op, ed, Like::Float)
}

/// `negf`: 13's lists the elementwise trait first.
fn verify_negf(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    if ed == Edition::V13 {
        verify_elementwise_op(ctx, op)?;
    }
    verify_same_type_op(ctx, op, ed, Like::Float)
}

/// The verifier of the integer binary ops (`addi`, `shli`, ...).
fn verify_int_binary(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    verify_same_type_op(ctx, op, ed, Like::SignlessInt)
}

/// The ODS type constraints of the arith ops' operands and results.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Like {
    /// `SignlessIntegerLike`: a signless integer or index, or a vector or
    /// tensor of them.
    SignlessInt,
    /// `FloatLike`.
    Float,
    /// `BoolLike`: `i1`, or a vector or tensor of it.
    Bool,
}

impl Like {
    fn name(self) -> &'static str {
        match self {
            Like::SignlessInt => "signless-integer-like",
            Like::Float => "floating-point-like",
            Like::Bool => "bool-like",
        }
    }

    fn holds(self, ctx: &Context, t: Type) -> bool {
        let k = like_element(ctx, t);
        match self {
            Like::SignlessInt => {
                matches!(
                    k,
                    TypeKind::Integer(_, Signedness::Signless) | TypeKind::Index
                )
            }
            Like::Float => k.is_float(),
            Like::Bool => *k == TypeKind::Integer(1, Signedness::Signless),
        }
    }
}

/// ODS's constraints on each operand, then on the result.
fn ods_constraints(ctx: &Context, op: Op, operands: &[Like], result: Like) -> Result<(), String> {
    let operand_types = ctx.operands(op).iter().map(|&v| ctx.value_type(v));
    for (i, (t, like)) in operand_types.zip(operands).enumerate() {
        if !like.holds(ctx, t) {
            return Err(format!(
                "operand #{i} must be {}, but got '{}'",
                like.name(),
                tyname(ctx, t)
            ));
        }
    }
    for (i, &r) in ctx.results(op).iter().enumerate() {
        let t = ctx.value_type(r);
        if !result.holds(ctx, t) {
            return Err(format!(
                "result #{i} must be {}, but got '{}'",
                result.name(),
                tyname(ctx, t)
            ));
        }
    }
    Ok(())
}

/// The ops whose operands and result share one type (the binary ops,
/// `negf`): 15 checks ODS's constraints first, then the traits
/// (`SameOperandsAndResultType`, which lets a dynamic size stand for a
/// static one; `ElementwiseMappable`; the inferred type, operand #0's,
/// must be the result's); 13 and 14 the traits first (no inferred type)
/// and the constraints last.
fn verify_same_type_op(ctx: &Context, op: Op, ed: Edition, like: Like) -> Result<(), String> {
    let &[r] = ctx.results(op) else {
        return Ok(());
    };
    let rt = ctx.value_type(r);
    // What nearly every op is: one type throughout, of the right kind.
    if ctx.operands(op).iter().all(|&v| ctx.value_type(v) == rt) && like.holds(ctx, rt) {
        return Ok(());
    }
    let likes = [like; 2];
    let likes = &likes[..ctx.operands(op).len().min(2)];
    if ed == Edition::V15 {
        ods_constraints(ctx, op, likes, like)?;
    }
    let compatible = |t: Type| {
        let elem = |t: Type| ctx.kind(t).element_type().unwrap_or(t);
        elem(t) == elem(rt) && cast_shapes_compatible(ctx, t, rt)
    };
    if !ctx
        .operands(op)
        .iter()
        .all(|&v| compatible(ctx.value_type(v)))
    {
        return Err("requires the same type for all operands and results".into());
    }
    verify_elementwise_op(ctx, op)?;
    if ed == Edition::V15 {
        if let Some(&x) = ctx.operands(op).first() {
            let xt = ctx.value_type(x);
            if xt != rt {
                return Err(format!(
                    "inferred type(s) '{}' are incompatible with return type(s) of operation '{}'",
                    tyname(ctx, xt),
                    tyname(ctx, rt)
                ));
            }
        }
    } else {
        ods_constraints(ctx, op, likes, like)?;
    }
    Ok(())
}

fn verify_cmpi(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    verify_cmp(ctx, op, ed, Like::SignlessInt)
}

fn verify_cmpf(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    verify_cmp(ctx, op, ed, Like::Float)
}

/// `cmpi` and `cmpf`: two operands of one type (`SameTypeOperands`) and
/// an `i1` result of their shape (a `TypesMatchWith`, checked with ODS's
/// constraints: first in 15, last in 13 and 14).
fn verify_cmp(ctx: &Context, op: Op, ed: Edition, like: Like) -> Result<(), String> {
    let (&[a, b], &[r]) = (ctx.operands(op), ctx.results(op)) else {
        return Ok(());
    };
    let (at, bt, rt) = (ctx.value_type(a), ctx.value_type(b), ctx.value_type(r));
    let ods = || -> Result<(), String> {
        ods_constraints(ctx, op, &[like, like], Like::Bool)?;
        if !i1_same_shape(ctx, at, rt) {
            return Err(
                "failed to verify that result type has i1 element type and same shape as operands"
                    .into(),
            );
        }
        Ok(())
    };
    if ed == Edition::V15 {
        ods()?;
    }
    if at != bt {
        return Err("requires all operands to have the same type".into());
    }
    verify_elementwise_op(ctx, op)?;
    if ed != Edition::V15 {
        ods()?;
    }
    Ok(())
}

/// `select`: a `BoolLike` condition, the two values and the result of
/// one type (`AllTypesMatch`), elementwise, and a condition that is `i1`
/// or a mask of the result's shape. 15 checks the constraints first; 13
/// and 14 the elementwise trait first, and 14 then the type it infers
/// (the false value's).
fn verify_select(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    let (&[c, x, y], &[r]) = (ctx.operands(op), ctx.results(op)) else {
        return Ok(());
    };
    let [ct, xt, yt, rt] = [c, x, y, r].map(|v| ctx.value_type(v));
    if *ctx.kind(ct) == TypeKind::Integer(1, Signedness::Signless) && xt == rt && yt == rt {
        return Ok(());
    }
    let constraints = || -> Result<(), String> {
        if !Like::Bool.holds(ctx, ct) {
            return Err(format!(
                "operand #0 must be bool-like, but got '{}'",
                tyname(ctx, ct)
            ));
        }
        if xt != rt || yt != rt {
            return Err(
                "failed to verify that all of {true_value, false_value, result} have same type"
                    .into(),
            );
        }
        Ok(())
    };
    if ed == Edition::V15 {
        constraints()?;
        verify_elementwise_op(ctx, op)?;
    } else {
        verify_elementwise_op(ctx, op)?;
        if ed == Edition::V14 && yt != rt {
            return Err(format!(
                "inferred type(s) '{}' are incompatible with return type(s) of operation '{}'",
                tyname(ctx, yt),
                tyname(ctx, rt)
            ));
        }
        constraints()?;
    }
    if *ctx.kind(ct) == TypeKind::Integer(1, Signedness::Signless) {
        return Ok(());
    }
    let mask = match ctx.kind(rt) {
        TypeKind::Vector { .. } | TypeKind::Tensor { .. } | TypeKind::UnrankedTensor(_) => {
            i1_same_shape(ctx, rt, ct)
        }
        _ => {
            return Err(format!(
                "expected condition to be a signless i1, but got '{}'",
                tyname(ctx, ct)
            ))
        }
    };
    if !mask {
        return Err(format!(
            "expected condition type to have the same shape as the result type, expected '{}', but got '{}'",
            i1_same_shape_name(ctx, rt),
            tyname(ctx, ct)
        ));
    }
    Ok(())
}

/// The spelling of `getI1SameShape(t)` for a vector or tensor `t` (the
/// verifier cannot make the type: it only reads the context).
fn i1_same_shape_name(ctx: &Context, t: Type) -> String {
    let dims = |ds: &mut dyn Iterator<Item = String>| ds.map(|d| d + "x").collect::<String>();
    match ctx.kind(t) {
        TypeKind::Vector { shape, .. } => {
            format!(
                "vector<{}i1>",
                dims(&mut shape.iter().map(|d| d.to_string()))
            )
        }
        TypeKind::Tensor { shape, .. } => format!(
            "tensor<{}i1>",
            dims(
                &mut shape
                    .iter()
                    .map(|d| d.map_or("?".into(), |n| n.to_string()))
            )
        ),
        TypeKind::UnrankedTensor(_) => "tensor<*xi1>".into(),
        _ => "i1".into(),
    }
}

/// Is `r` MLIR's `getI1SameShape(t)`: `i1` in the vector or tensor shape
/// of `t` (a tensor without its encoding), plain `i1` for anything else?
fn i1_same_shape(ctx: &Context, t: Type, r: Type) -> bool {
    let i1 = |e: &Type| *ctx.kind(*e) == TypeKind::Integer(1, Signedness::Signless);
    match (ctx.kind(t), ctx.kind(r)) {
        (
            TypeKind::Vector {
                shape, scalable, ..
            },
            TypeKind::Vector {
                shape: rs,
                scalable: rsc,
                elem,
            },
        ) => i1(elem) && shape == rs && scalable == rsc,
        (
            TypeKind::Tensor { shape, .. },
            TypeKind::Tensor {
                shape: rs,
                elem,
                encoding: None,
            },
        ) => i1(elem) && shape == rs,
        (TypeKind::UnrankedTensor(_), TypeKind::UnrankedTensor(elem)) => i1(elem),
        (TypeKind::Vector { .. } | TypeKind::Tensor { .. } | TypeKind::UnrankedTensor(_), _) => {
            false
        }
        _ => i1(&r),
    }
}

/// The `ElementwiseMappable` trait over all of an op's operands and
/// results.
fn verify_elementwise_op(ctx: &Context, op: Op) -> Result<(), String> {
    let operands: Vec<Type> = ctx
        .operands(op)
        .iter()
        .map(|&v| ctx.value_type(v))
        .collect();
    let results: Vec<Type> = ctx.results(op).iter().map(|&v| ctx.value_type(v)).collect();
    verify_elementwise(ctx, &operands, &results)
}

/// The element kinds an `arith` cast converts between, as its
/// `areCastCompatible` and its ODS operand and result constraints read
/// them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cast {
    /// `extsi`, `extui` (`true`: wider) and `trunci` (`false`).
    IntWidth(bool),
    /// `extf` and `truncf`.
    FloatWidth(bool),
    IntToFloat,
    FloatToInt,
    Index,
    Bitcast,
}

fn verify_int_ext(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    verify_cast(ctx, op, ed, Cast::IntWidth(true))
}
fn verify_int_trunc(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    verify_cast(ctx, op, ed, Cast::IntWidth(false))
}
fn verify_float_ext(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    verify_cast(ctx, op, ed, Cast::FloatWidth(true))
}
fn verify_float_trunc(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    verify_cast(ctx, op, ed, Cast::FloatWidth(false))
}
fn verify_int_to_float(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    verify_cast(ctx, op, ed, Cast::IntToFloat)
}
fn verify_float_to_int(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    verify_cast(ctx, op, ed, Cast::FloatToInt)
}
fn verify_index_cast(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    verify_cast(ctx, op, ed, Cast::Index)
}
fn verify_bitcast(ctx: &Context, op: Op, ed: Edition) -> Result<(), String> {
    verify_cast(ctx, op, ed, Cast::Bitcast)
}

/// A cast's checks: ODS's operand and result constraints, the
/// `SameOperandsAndResultShape` trait, `CastOpInterface`'s
/// `areCastCompatible` and the `ElementwiseMappable` trait. Each
/// generation runs them in its own order: 15 the constraints first (its
/// `OpInvariants` trait), 14 the traits and the interface first and the
/// constraints last, 13 (`std`'s casts) the elementwise trait first and
/// then its own per-op checks.
fn verify_cast(ctx: &Context, op: Op, ed: Edition, cast: Cast) -> Result<(), String> {
    let (&[x], &[r]) = (ctx.operands(op), ctx.results(op)) else {
        return Ok(());
    };
    let (from, to) = (ctx.value_type(x), ctx.value_type(r));
    if ed == Edition::V13 {
        verify_elementwise(ctx, &[from], &[to])?;
        return verify_cast13(ctx, cast, from, to);
    }
    if ed == Edition::V15 {
        cast_constraints(ctx, cast, from, to)?;
    }
    if !cast_shapes_compatible(ctx, from, to) {
        return Err("requires the same shape for all operands and results".into());
    }
    if !cast_compatible(ctx, cast, from, to) {
        return Err(cast_incompatible(ctx, from, to));
    }
    verify_elementwise(ctx, &[from], &[to])?;
    if ed != Edition::V15 {
        cast_constraints(ctx, cast, from, to)?;
    }
    Ok(())
}

fn cast_incompatible(ctx: &Context, from: Type, to: Type) -> String {
    format!(
        "operand type '{}' and result type '{}' are cast incompatible",
        tyname(ctx, from),
        tyname(ctx, to)
    )
}

/// 13's `std` casts: the integer width casts check their types by hand
/// (index is "signless-integer-like" to ODS but not valid here); the
/// int/float conversions know scalars and vectors only, not tensors.
fn verify_cast13(ctx: &Context, cast: Cast, from: Type, to: Type) -> Result<(), String> {
    let elem = |t: Type| like_element(ctx, t);
    let Cast::IntWidth(ext) = cast else {
        if !cast_shapes_compatible(ctx, from, to) {
            return Err("requires the same shape for all operands and results".into());
        }
        let vector_or_scalar = |t: Type| match ctx.kind(t) {
            TypeKind::Vector { elem, .. } => Some(ctx.kind(*elem)),
            k if k.element_type().is_none() => Some(k),
            _ => None,
        };
        let ok = match cast {
            Cast::IntToFloat | Cast::FloatToInt => {
                let (a, b) = match (vector_or_scalar(from), vector_or_scalar(to)) {
                    (Some(a), Some(b)) if cast == Cast::IntToFloat => (a, b),
                    (Some(a), Some(b)) => (b, a),
                    _ => return Err(cast_incompatible(ctx, from, to)),
                };
                cast_shapes_compatible(ctx, from, to)
                    && matches!(a, TypeKind::Integer(_, Signedness::Signless))
                    && b.is_float()
            }
            _ => cast_shapes_compatible(ctx, from, to) && cast_compatible(ctx, cast, from, to),
        };
        return if ok {
            Ok(())
        } else {
            Err(cast_incompatible(ctx, from, to))
        };
    };
    for (what, t) in [("operand", from), ("result", to)] {
        if !matches!(
            elem(t),
            TypeKind::Integer(_, Signedness::Signless) | TypeKind::Index
        ) {
            return Err(format!(
                "{what} #0 must be signless-integer-like, but got '{}'",
                tyname(ctx, t)
            ));
        }
    }
    for (what, t) in [("operand", from), ("result", to)] {
        if *elem(t) == TypeKind::Index {
            return Err(format!(
                "{}'index' is not a valid {what} type",
                crate::PLAIN_ERROR
            ));
        }
    }
    if !cast_shapes_compatible(ctx, from, to) {
        return Err("requires the same shape for all operands and results".into());
    }
    // 13 names the element types here.
    let scalar = |t: Type| ctx.kind(t).element_type().unwrap_or(t);
    let (from, to) = (scalar(from), scalar(to));
    let (narrow, wide, msg) = if ext {
        (
            from,
            to,
            "result type '{w}' must be wider than operand type '{n}'",
        )
    } else {
        (
            to,
            from,
            "operand type '{w}' must be wider than result type '{n}'",
        )
    };
    if ctx.kind(wide).bit_width() <= ctx.kind(narrow).bit_width() {
        return Err(format!(
            "{}{}",
            crate::PLAIN_ERROR,
            msg.replace("{w}", &tyname(ctx, wide))
                .replace("{n}", &tyname(ctx, narrow))
        ));
    }
    Ok(())
}

/// MLIR's `ElementwiseMappable` check: vectors and tensors are mapped,
/// everything else (memrefs too) is a scalar; if any operand is mapped,
/// every result is; mapped types share their kind (vector, ranked or
/// unranked tensor) and compatible shapes.
fn verify_elementwise(ctx: &Context, operands: &[Type], results: &[Type]) -> Result<(), String> {
    let mapped = |t: &&Type| {
        matches!(
            ctx.kind(**t),
            TypeKind::Vector { .. } | TypeKind::Tensor { .. } | TypeKind::UnrankedTensor(_)
        )
    };
    let mapped_results = results.iter().filter(mapped).count();
    let mapped_operands = operands.iter().filter(mapped).count();
    if mapped_results == 0 && mapped_operands == 0 {
        return Ok(());
    }
    if mapped_operands == 0 {
        return Err(
            "if a result is non-scalar, then at least one operand must be non-scalar".into(),
        );
    }
    if mapped_results == 0 {
        return Err(
            "if an operand is non-scalar, then there must be at least one non-scalar result".into(),
        );
    }
    if mapped_results != results.len() {
        return Err("if an operand is non-scalar, then all results must be non-scalar".into());
    }
    let all: Vec<Type> = operands
        .iter()
        .chain(results)
        .filter(mapped)
        .copied()
        .collect();
    let kind = |t: Type| std::mem::discriminant(ctx.kind(t));
    let first = all[0];
    if all
        .iter()
        .all(|&t| kind(t) == kind(first) && all.iter().all(|&u| cast_shapes_compatible(ctx, t, u)))
    {
        Ok(())
    } else {
        Err("all non-scalar operands/results must have the same shape and base type".into())
    }
}

/// MLIR's `verifyCompatibleShape` of two types: both shaped or neither;
/// ranks equal unless one is unranked; static sizes equal where both are
/// static.
fn cast_shapes_compatible(ctx: &Context, a: Type, b: Type) -> bool {
    fn dims(k: &TypeKind) -> Option<Option<Vec<Option<i64>>>> {
        Some(match k {
            TypeKind::MemRef { shape, .. } | TypeKind::Tensor { shape, .. } => Some(shape.clone()),
            TypeKind::Vector { shape, .. } => Some(shape.iter().map(|&d| Some(d)).collect()),
            TypeKind::UnrankedMemRef { .. } | TypeKind::UnrankedTensor(_) => None,
            _ => return None,
        })
    }
    match (dims(ctx.kind(a)), dims(ctx.kind(b))) {
        (None, None) => true,
        (Some(Some(x)), Some(Some(y))) => {
            x.len() == y.len()
                && x.iter()
                    .zip(&y)
                    .all(|(p, q)| p.is_none() || q.is_none() || p == q)
        }
        (Some(_), Some(_)) => true,
        _ => false,
    }
}

/// The element type of `t` if it is a vector or tensor (or, with
/// `memref`, a memref) of one, `t` itself if it is not shaped; `None`
/// for any other shaped type (MLIR's `getTypeIfLike`).
fn cast_element(ctx: &Context, t: Type, memref: bool) -> Option<&TypeKind> {
    match ctx.kind(t) {
        TypeKind::MemRef { elem, .. } | TypeKind::UnrankedMemRef { elem, .. } => {
            memref.then(|| ctx.kind(*elem))
        }
        _ => Some(like_element(ctx, t)),
    }
}

/// The element type of a vector or tensor, any other type itself: what
/// ODS's `...Like` constraints and the elementwise rule read (a memref
/// is not a container to them).
fn like_element(ctx: &Context, t: Type) -> &TypeKind {
    match ctx.kind(t) {
        TypeKind::Vector { elem, .. }
        | TypeKind::Tensor { elem, .. }
        | TypeKind::UnrankedTensor(elem) => ctx.kind(*elem),
        k => k,
    }
}

/// `areCastCompatible` of each cast (shapes aside).
fn cast_compatible(ctx: &Context, cast: Cast, from: Type, to: Type) -> bool {
    let memref = matches!(cast, Cast::Index | Cast::Bitcast);
    let (Some(a), Some(b)) = (
        cast_element(ctx, from, memref),
        cast_element(ctx, to, memref),
    ) else {
        return false;
    };
    let int = |k: &TypeKind| matches!(k, TypeKind::Integer(..));
    let signless = |k: &TypeKind| matches!(k, TypeKind::Integer(_, Signedness::Signless));
    let wider = |wider: bool| match (a.bit_width(), b.bit_width()) {
        (Some(x), Some(y)) if wider => y > x,
        (Some(x), Some(y)) => y < x,
        _ => false,
    };
    match cast {
        Cast::IntWidth(ext) => int(a) && int(b) && wider(ext),
        Cast::FloatWidth(ext) => a.is_float() && b.is_float() && wider(ext),
        Cast::IntToFloat => int(a) && b.is_float(),
        Cast::FloatToInt => a.is_float() && int(b),
        Cast::Index => {
            (*a == TypeKind::Index && signless(b)) || (signless(a) && *b == TypeKind::Index)
        }
        Cast::Bitcast => {
            a == b
                || (int(a) || a.is_float())
                    && (int(b) || b.is_float())
                    && a.bit_width() == b.bit_width()
        }
    }
}

/// ODS's constraints on a cast's operand, then its result.
fn cast_constraints(ctx: &Context, cast: Cast, from: Type, to: Type) -> Result<(), String> {
    const INT: &str = "signless-fixed-width-integer-like";
    const FLOAT: &str = "floating-point-like";
    const INDEX: &str = "signless-integer-like or memref of signless-integer";
    const BITS: &str = "signless-integer-or-float-like or memref of signless-integer or float";
    let (of_from, of_to) = match cast {
        Cast::IntWidth(_) => (INT, INT),
        Cast::FloatWidth(_) => (FLOAT, FLOAT),
        Cast::IntToFloat => (INT, FLOAT),
        Cast::FloatToInt => (FLOAT, INT),
        Cast::Index => (INDEX, INDEX),
        Cast::Bitcast => (BITS, BITS),
    };
    for (what, t, of) in [("operand", from, of_from), ("result", to, of_to)] {
        if !satisfies(ctx, t, of) {
            return Err(format!(
                "{what} #0 must be {of}, but got '{}'",
                tyname(ctx, t)
            ));
        }
    }
    Ok(())
}

/// Whether `t` is of the ODS type constraint described as `of` (one of
/// [`cast_constraints`]'s).
fn satisfies(ctx: &Context, t: Type, of: &str) -> bool {
    let signless = |k: &TypeKind| matches!(k, TypeKind::Integer(_, Signedness::Signless));
    let memref = matches!(
        ctx.kind(t),
        TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }
    );
    let elem = match ctx.kind(t).element_type() {
        Some(e) => ctx.kind(e),
        None => ctx.kind(t),
    };
    let scalar_or_shaped = |ok: bool| ok && !memref;
    match of {
        "signless-fixed-width-integer-like" => scalar_or_shaped(signless(elem)),
        "floating-point-like" => scalar_or_shaped(elem.is_float()),
        "signless-integer-like or memref of signless-integer" => {
            signless(elem) || *elem == TypeKind::Index
        }
        _ => signless(elem) || *elem == TypeKind::Index || elem.is_float(),
    }
}

fn parse_select(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let ops = p.parse_operand_list()?;
    attr_dict(p, st)?;
    let t = colon_type(p)?;
    if ops.len() != 3 {
        return p.err_here("expected 3 operands");
    }
    let i1 = p.i1_type();
    let c = p.resolve_operand(&ops[0], i1)?;
    let a = p.resolve_operand(&ops[1], t)?;
    let b = p.resolve_operand(&ops[2], t)?;
    st.operands.extend([c, a, b]);
    st.result_types.push(t);
    Ok(())
}

fn print_select(p: &mut Printer, op: Op) {
    p.w(" ");
    let ops = p.ctx.operands(op);
    p.operands(ops);
    p.attr_dict(op, &[]);
    p.w(" : ");
    let t = p.ctx.value_type(ops[1]);
    p.ty(t);
}

fn v_attr(ctx: &Context, op: Op) -> Attribute {
    ctx.get_attr(op, "value").expect("constant has a value")
}

fn attr_type(ctx: &Context, op: Op) -> Type {
    match ctx.attr_kind(v_attr(ctx, op)) {
        AttrKind::WideInteger(_, t) => *t,
        _ => ctx.value_type(ctx.result(op, 0)),
    }
}
