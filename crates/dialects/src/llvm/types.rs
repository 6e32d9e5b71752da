//! The LLVM dialect's types: `!llvm.ptr<T>`, `!llvm.struct<(...)>`,
//! `!llvm.array<N x T>`, `!llvm.func<R (A, ...)>`, `!llvm.void` and the
//! rest, as [`TypeKind::Dialect`] types of dialect `llvm`. Typed
//! constructors and accessors for the conversions and the executor; the
//! parser and printer with MLIR's text (LLVM types nested in LLVM types
//! print in the short form, `!llvm.ptr<struct<(ptr<i8>, i64)>>`).
//!
//! How each type is held (mnemonic: parameters):
//! - `void`, `token`, `label`, `metadata`, `ppc_fp128`, `x86_mmx`: none;
//! - `ptr`: `[Type(pointee), Int(address space)]`, or `[Int(address space)]`
//!   for LLVM 15's opaque pointer;
//! - `array`: `[Type(element), Int(count)]`;
//! - `vec`: `[Type(element), Int(count), Flag(scalable)]`;
//! - `func`: `[Type(result), Types(params), Flag(vararg)]`;
//! - `struct`, literal: `[Types(body), Flag(packed)]`; identified:
//!   `[Str(name)]`, its body set once in the context
//!   ([`Context::set_type_body`]) as `[Types(body), Flag(packed)]`, or `[]`
//!   when intentionally opaque (an identified struct may refer to itself).

use mlir_async_ir::*;
use mlir_async_syntax::printer::{print_string, print_type_into};
use mlir_async_syntax::{Edition, PResult, Parser};
use std::cell::RefCell;
use std::fmt::Write;

/// The dialect's name.
pub const DIALECT: &str = "llvm";

/// An LLVM dialect type, read through [`classify`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LlvmType<'a> {
    Void,
    Token,
    Label,
    Metadata,
    PpcFp128,
    X86Mmx,
    /// `pointee` is `None` for an opaque pointer (LLVM 15).
    Pointer {
        pointee: Option<Type>,
        address_space: u32,
    },
    Array {
        element: Type,
        count: u64,
    },
    Vector {
        element: Type,
        count: u32,
        scalable: bool,
    },
    Function(FunctionType<'a>),
    Struct(StructType<'a>),
}

/// `!llvm.func<result (params...)>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FunctionType<'a> {
    pub result: Type,
    pub params: &'a [Type],
    pub vararg: bool,
}

/// `!llvm.struct<...>`, literal or identified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StructType<'a> {
    /// The name of an identified struct.
    pub name: Option<&'a str>,
    /// The element types; `None` for an opaque identified struct (or one
    /// whose body was never set).
    pub body: Option<&'a [Type]>,
    pub packed: bool,
}

impl StructType<'_> {
    /// The element types (none for an opaque struct).
    pub fn elements(&self) -> &[Type] {
        self.body.unwrap_or(&[])
    }
}

/// Reads `t` as an LLVM dialect type; `None` for any other type.
pub fn classify(ctx: &Context, t: Type) -> Option<LlvmType<'_>> {
    let d = ctx.as_dialect_type(t)?;
    if ctx.str(d.dialect) != DIALECT {
        return None;
    }
    let p = &d.params[..];
    Some(match ctx.str(d.mnemonic) {
        "void" => LlvmType::Void,
        "token" => LlvmType::Token,
        "label" => LlvmType::Label,
        "metadata" => LlvmType::Metadata,
        "ppc_fp128" => LlvmType::PpcFp128,
        "x86_mmx" => LlvmType::X86Mmx,
        "ptr" => match p {
            [TypeParam::Type(e), TypeParam::Int(a)] => LlvmType::Pointer {
                pointee: Some(*e),
                address_space: *a as u32,
            },
            [TypeParam::Int(a)] => LlvmType::Pointer {
                pointee: None,
                address_space: *a as u32,
            },
            _ => return None,
        },
        "array" => match p {
            [TypeParam::Type(e), TypeParam::Int(n)] => LlvmType::Array {
                element: *e,
                count: *n as u64,
            },
            _ => return None,
        },
        "vec" => match p {
            [TypeParam::Type(e), TypeParam::Int(n), TypeParam::Flag(s)] => LlvmType::Vector {
                element: *e,
                count: *n as u32,
                scalable: *s,
            },
            _ => return None,
        },
        "func" => match p {
            [TypeParam::Type(r), TypeParam::Types(ps), TypeParam::Flag(v)] => {
                LlvmType::Function(FunctionType {
                    result: *r,
                    params: ps,
                    vararg: *v,
                })
            }
            _ => return None,
        },
        "struct" => match p {
            [TypeParam::Types(body), TypeParam::Flag(packed)] => LlvmType::Struct(StructType {
                name: None,
                body: Some(body),
                packed: *packed,
            }),
            [TypeParam::Str(name)] => {
                let (body, packed) = match ctx.type_body(t) {
                    Some([TypeParam::Types(b), TypeParam::Flag(pk)]) => (Some(&b[..]), *pk),
                    _ => (None, false),
                };
                LlvmType::Struct(StructType {
                    name: Some(ctx.str(*name)),
                    body,
                    packed,
                })
            }
            _ => return None,
        },
        _ => return None,
    })
}

/// Is `t` a type of the LLVM dialect?
pub fn is_llvm_type(ctx: &Context, t: Type) -> bool {
    ctx.as_dialect_type(t)
        .is_some_and(|d| ctx.str(d.dialect) == DIALECT)
}

// ----- constructors -----

fn simple(ctx: &mut Context, mnemonic: &'static str) -> Type {
    ctx.static_dialect_type(DIALECT, mnemonic, None)
}
pub fn void(ctx: &mut Context) -> Type {
    simple(ctx, "void")
}
pub fn token(ctx: &mut Context) -> Type {
    simple(ctx, "token")
}
pub fn label(ctx: &mut Context) -> Type {
    simple(ctx, "label")
}
pub fn metadata(ctx: &mut Context) -> Type {
    simple(ctx, "metadata")
}
/// `!llvm.ptr<pointee>`.
pub fn pointer_to(ctx: &mut Context, pointee: Type) -> Type {
    pointer_in(ctx, pointee, 0)
}
/// `!llvm.ptr<pointee, address_space>`.
pub fn pointer_in(ctx: &mut Context, pointee: Type, address_space: u32) -> Type {
    ctx.dialect_type(
        DIALECT,
        "ptr",
        [
            TypeParam::Type(pointee),
            TypeParam::Int(address_space as i64),
        ],
    )
}
/// LLVM 15's opaque `!llvm.ptr` (`!llvm.ptr<address_space>`).
pub fn opaque_pointer(ctx: &mut Context, address_space: u32) -> Type {
    ctx.dialect_type(DIALECT, "ptr", [TypeParam::Int(address_space as i64)])
}
/// `!llvm.ptr<i8>`: the handle type of the async runtime's objects.
pub fn i8_pointer(ctx: &mut Context) -> Type {
    let i8t = ctx.int_type(8);
    pointer_to(ctx, i8t)
}
/// `!llvm.array<count x element>`.
pub fn array_of(ctx: &mut Context, element: Type, count: u64) -> Type {
    ctx.dialect_type(
        DIALECT,
        "array",
        [TypeParam::Type(element), TypeParam::Int(count as i64)],
    )
}
/// `!llvm.vec<count x element>` (`scalable`: `<? x count x element>`).
pub fn vector_of(ctx: &mut Context, element: Type, count: u32, scalable: bool) -> Type {
    ctx.dialect_type(
        DIALECT,
        "vec",
        [
            TypeParam::Type(element),
            TypeParam::Int(count as i64),
            TypeParam::Flag(scalable),
        ],
    )
}
/// `!llvm.func<result (params...)>`; a function returning nothing returns
/// [`void`].
pub fn function(ctx: &mut Context, result: Type, params: &[Type], vararg: bool) -> Type {
    ctx.dialect_type(
        DIALECT,
        "func",
        [
            TypeParam::Type(result),
            TypeParam::Types(params.into()),
            TypeParam::Flag(vararg),
        ],
    )
}
/// The literal `!llvm.struct<(elements...)>` (`packed`: `<packed (...)>`).
pub fn literal_struct(ctx: &mut Context, elements: &[Type], packed: bool) -> Type {
    ctx.dialect_type(
        DIALECT,
        "struct",
        [TypeParam::Types(elements.into()), TypeParam::Flag(packed)],
    )
}
/// The identified struct `name`, whose body may be set later.
pub fn identified_struct(ctx: &mut Context, name: &str) -> Type {
    let n = ctx.sym(name);
    ctx.dialect_type(DIALECT, "struct", [TypeParam::Str(n)])
}
/// Sets the body of an identified struct; an error if it already has a
/// different one (or was declared opaque).
pub fn set_struct_body(
    ctx: &mut Context,
    t: Type,
    elements: &[Type],
    packed: bool,
) -> Result<(), TypeBodyAlreadySet> {
    ctx.set_type_body(
        t,
        Box::new([TypeParam::Types(elements.into()), TypeParam::Flag(packed)]),
    )
}
/// The intentionally opaque identified struct `name`
/// (`!llvm.struct<"name", opaque>`); an error if it has a body.
pub fn opaque_struct(ctx: &mut Context, name: &str) -> Result<Type, TypeBodyAlreadySet> {
    let t = identified_struct(ctx, name);
    ctx.set_type_body(t, Box::new([]))?;
    Ok(t)
}

// ----- accessors -----

/// The pointee (`None` if opaque) and address space of a pointer type.
pub fn as_pointer(ctx: &Context, t: Type) -> Option<(Option<Type>, u32)> {
    match classify(ctx, t)? {
        LlvmType::Pointer {
            pointee,
            address_space,
        } => Some((pointee, address_space)),
        _ => None,
    }
}
/// The pointee of a typed pointer.
pub fn pointee(ctx: &Context, t: Type) -> Option<Type> {
    as_pointer(ctx, t)?.0
}
pub fn as_struct(ctx: &Context, t: Type) -> Option<StructType<'_>> {
    match classify(ctx, t)? {
        LlvmType::Struct(s) => Some(s),
        _ => None,
    }
}
pub fn as_function(ctx: &Context, t: Type) -> Option<FunctionType<'_>> {
    match classify(ctx, t)? {
        LlvmType::Function(f) => Some(f),
        _ => None,
    }
}
/// The element type and count of an array.
pub fn as_array(ctx: &Context, t: Type) -> Option<(Type, u64)> {
    match classify(ctx, t)? {
        LlvmType::Array { element, count } => Some((element, count)),
        _ => None,
    }
}
pub fn is_void(ctx: &Context, t: Type) -> bool {
    matches!(classify(ctx, t), Some(LlvmType::Void))
}
pub fn is_pointer(ctx: &Context, t: Type) -> bool {
    matches!(classify(ctx, t), Some(LlvmType::Pointer { .. }))
}

/// MLIR's `isCompatibleOuterType`: the builtin types LLVM takes as they
/// are (signless integers, floats, 1-D vectors) and the LLVM types.
pub fn is_compatible_outer(ctx: &Context, t: Type) -> bool {
    match ctx.kind(t) {
        TypeKind::Integer(_, s) => *s == Signedness::Signless,
        TypeKind::BF16
        | TypeKind::F16
        | TypeKind::F32
        | TypeKind::F64
        | TypeKind::F80
        | TypeKind::F128 => true,
        TypeKind::Vector { shape, .. } => shape.len() == 1,
        _ => is_llvm_type(ctx, t),
    }
}

/// MLIR's `isCompatibleType`: LLVM can hold `t`, all the way down.
pub fn is_compatible(ctx: &Context, t: Type) -> bool {
    let mut stack = vec![];
    compatible(ctx, t, &mut stack)
}

fn compatible(ctx: &Context, t: Type, stack: &mut Vec<Type>) -> bool {
    if stack.contains(&t) {
        return true;
    }
    match ctx.kind(t) {
        TypeKind::Integer(_, s) => return *s == Signedness::Signless,
        TypeKind::BF16
        | TypeKind::F16
        | TypeKind::F32
        | TypeKind::F64
        | TypeKind::F80
        | TypeKind::F128 => return true,
        TypeKind::Vector { shape, elem, .. } => {
            return shape.len() == 1 && compatible(ctx, *elem, stack)
        }
        _ => {}
    }
    let Some(k) = classify(ctx, t) else {
        return false;
    };
    stack.push(t);
    let ok = match k {
        LlvmType::Struct(s) => s.elements().iter().all(|&e| compatible(ctx, e, stack)),
        LlvmType::Function(f) => {
            compatible(ctx, f.result, stack) && f.params.iter().all(|&e| compatible(ctx, e, stack))
        }
        LlvmType::Pointer { pointee, .. } => pointee.is_none_or(|e| compatible(ctx, e, stack)),
        LlvmType::Array { element, .. } | LlvmType::Vector { element, .. } => {
            compatible(ctx, element, stack)
        }
        _ => true,
    };
    stack.pop();
    ok
}

fn is_one_of(k: Option<LlvmType>, void_label_meta_token: bool, func_scalable: bool) -> bool {
    match k {
        Some(LlvmType::Void | LlvmType::Label | LlvmType::Metadata | LlvmType::Token) => {
            void_label_meta_token
        }
        Some(LlvmType::Function(_)) => func_scalable,
        Some(LlvmType::Vector { scalable: true, .. }) => func_scalable,
        _ => false,
    }
}

/// Can `t` be an element of an array or a struct?
pub fn is_valid_element(ctx: &Context, t: Type) -> bool {
    !is_one_of(classify(ctx, t), true, true)
}
/// Can `t` be pointed to?
pub fn is_valid_pointee(ctx: &Context, t: Type) -> bool {
    is_compatible_outer(ctx, t) && !is_one_of(classify(ctx, t), true, false)
}
/// Can `t` be a function's argument?
pub fn is_valid_argument(ctx: &Context, t: Type) -> bool {
    !matches!(
        classify(ctx, t),
        Some(LlvmType::Void | LlvmType::Function(_))
    )
}
/// Can `t` be a function's result?
pub fn is_valid_result(ctx: &Context, t: Type) -> bool {
    !matches!(
        classify(ctx, t),
        Some(LlvmType::Function(_) | LlvmType::Label | LlvmType::Metadata)
    )
}

// ----- printing -----

thread_local! {
    /// The identified structs being printed, innermost last: a reference
    /// to one of them prints its name only (a struct may contain a pointer
    /// to itself). Per thread, as MLIR's, because the printing of a nested
    /// type may pass through the general printer (`!llvm.ptr<!llvm.struct<
    /// (index)>>`) and come back.
    static PRINTING: RefCell<Vec<Symbol>> = const { RefCell::new(Vec::new()) };
}

/// The printer of the dialect's types, registered with the context.
pub fn print_type(ctx: &Context, t: Type, out: &mut String) {
    out.push_str("!llvm.");
    print_short(ctx, t, out);
}

/// A type inside an LLVM type: an LLVM type LLVM can hold all the way
/// down in the short form, anything else in full.
fn print_nested(ctx: &Context, t: Type, out: &mut String) {
    if is_llvm_type(ctx, t) && is_compatible(ctx, t) {
        print_short(ctx, t, out)
    } else {
        print_type_into(ctx, t, out)
    }
}

fn print_list(ctx: &Context, ts: &[Type], out: &mut String) {
    for (i, &t) in ts.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        print_nested(ctx, t, out);
    }
}

/// An LLVM type without the `!llvm.` prefix.
fn print_short(ctx: &Context, t: Type, out: &mut String) {
    let Some(k) = classify(ctx, t) else {
        return print_type_into(ctx, t, out);
    };
    match k {
        LlvmType::Void => out.push_str("void"),
        LlvmType::Token => out.push_str("token"),
        LlvmType::Label => out.push_str("label"),
        LlvmType::Metadata => out.push_str("metadata"),
        LlvmType::PpcFp128 => out.push_str("ppc_fp128"),
        LlvmType::X86Mmx => out.push_str("x86_mmx"),
        LlvmType::Pointer {
            pointee,
            address_space,
        } => {
            out.push_str("ptr");
            match pointee {
                Some(p) => {
                    out.push('<');
                    print_nested(ctx, p, out);
                    if address_space != 0 {
                        let _ = write!(out, ", {address_space}");
                    }
                    out.push('>');
                }
                None if address_space != 0 => {
                    let _ = write!(out, "<{address_space}>");
                }
                None => {}
            }
        }
        LlvmType::Array { element, count } => {
            let _ = write!(out, "array<{count} x ");
            print_nested(ctx, element, out);
            out.push('>');
        }
        LlvmType::Vector {
            element,
            count,
            scalable,
        } => {
            out.push_str(if scalable { "vec<? x " } else { "vec<" });
            let _ = write!(out, "{count} x ");
            print_nested(ctx, element, out);
            out.push('>');
        }
        LlvmType::Function(f) => {
            out.push_str("func<");
            print_nested(ctx, f.result, out);
            out.push_str(" (");
            print_list(ctx, f.params, out);
            if f.vararg {
                if !f.params.is_empty() {
                    out.push_str(", ");
                }
                out.push_str("...");
            }
            out.push_str(")>");
        }
        LlvmType::Struct(s) => print_struct(ctx, t, s, out),
    }
}

fn print_struct(ctx: &Context, t: Type, s: StructType, out: &mut String) {
    out.push_str("struct<");
    let name = match ctx.as_dialect_type(t).map(|d| &d.params[..]) {
        Some([TypeParam::Str(n)]) => Some(*n),
        _ => None,
    };
    if let Some(n) = name {
        print_string(ctx.str(n), out);
        if PRINTING.with(|p| p.borrow().contains(&n)) {
            out.push('>');
            return;
        }
        out.push_str(", ");
        if s.body.is_none() {
            out.push_str("opaque>");
            return;
        }
    }
    if s.packed {
        out.push_str("packed ");
    }
    out.push('(');
    if let Some(n) = name {
        PRINTING.with(|p| p.borrow_mut().push(n));
    }
    print_list(ctx, s.elements(), out);
    if name.is_some() {
        PRINTING.with(|p| p.borrow_mut().pop());
    }
    out.push_str(")>");
}

// ----- parsing -----

thread_local! {
    /// The identified structs being parsed: `struct<"name">` inside one of
    /// them is a reference to it.
    static PARSING: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

const KEYWORDS: &[&str] = &[
    "void",
    "ppc_fp128",
    "x86_mmx",
    "token",
    "label",
    "metadata",
    "func",
    "ptr",
    "vec",
    "array",
    "struct",
];

/// Does `id` start a builtin type (so that MLIR's `parseOptionalType`
/// takes it)?
fn is_builtin_type_keyword(id: &str) -> bool {
    matches!(
        id,
        "index"
            | "none"
            | "bf16"
            | "f16"
            | "f32"
            | "f64"
            | "f80"
            | "f128"
            | "memref"
            | "tensor"
            | "vector"
            | "tuple"
            | "complex"
    ) || ["i", "si", "ui"].iter().any(|p| {
        id.strip_prefix(p)
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
    })
}

/// Parses an LLVM type after `!llvm` (the parser at the `.`); `start` is
/// the `!`.
pub fn parse_type(p: &mut Parser, start: usize) -> PResult<Option<Type>> {
    if !p.eat(".") {
        return Ok(None);
    }
    let at = p.pos;
    let Some(kw) = p.peek_ident() else {
        return p.err(at, "expected valid keyword");
    };
    if !KEYWORDS.contains(&kw) {
        if is_builtin_type_keyword(kw) {
            return p.err(at, "unexpected type, expected keyword");
        }
        return p.err(at, format!("unknown LLVM type: {kw}"));
    }
    let _ = start;
    parse_keyword_type(p).map(Some)
}

/// A type inside an LLVM type: any type in full, or an LLVM type in the
/// short form.
fn parse_nested(p: &mut Parser) -> PResult<Type> {
    p.nested(|p| {
        p.skip_ws();
        match p.peek_ident() {
            Some(kw) if !is_builtin_type_keyword(kw) => {
                if !KEYWORDS.contains(&kw) {
                    let at = p.pos;
                    return p.err(at, format!("unknown LLVM type: {kw}"));
                }
                parse_keyword_type(p)
            }
            _ => p.parse_type(),
        }
    })
}

fn type_error<T>(p: &Parser, at: usize, what: &str, t: Type) -> PResult<T> {
    let text = mlir_async_syntax::print_type(p.ctx, t);
    p.err(at, format!("{what}: '{text}'"))
}

/// An unsigned 32-bit integer as MLIR's `parseInteger(unsigned&)` reads it
/// (a negative one wraps).
fn parse_u32(p: &mut Parser) -> PResult<u32> {
    match p.int_lit() {
        Some(v) => Ok(v as u32),
        None => p.err_here("expected integer value"),
    }
}

/// The short form, at its keyword.
fn parse_keyword_type(p: &mut Parser) -> PResult<Type> {
    let at = p.pos;
    let kw = p.ident().unwrap_or("");
    Ok(match kw {
        "void" => void(p.ctx),
        "token" => token(p.ctx),
        "label" => label(p.ctx),
        "metadata" => metadata(p.ctx),
        "ppc_fp128" => simple(p.ctx, "ppc_fp128"),
        "x86_mmx" => simple(p.ctx, "x86_mmx"),
        "ptr" => parse_pointer(p)?,
        "array" => parse_array(p)?,
        "vec" => parse_vector(p)?,
        "func" => parse_function(p)?,
        "struct" => parse_struct(p)?,
        _ => return p.err(at, format!("unknown LLVM type: {kw}")),
    })
}

fn parse_pointer(p: &mut Parser) -> PResult<Type> {
    p.skip_ws();
    let loc = p.pos;
    if !p.eat("<") {
        // LLVM 15's opaque pointer.
        p.note_edition(Edition::V15);
        return Ok(opaque_pointer(p.ctx, 0));
    }
    p.skip_ws();
    if p.peek().is_ascii_digit() {
        let a = parse_u32(p)?;
        p.expect(">")?;
        p.note_edition(Edition::V15);
        return Ok(opaque_pointer(p.ctx, a));
    }
    let e = parse_nested(p)?;
    let mut a = 0;
    if p.eat(",") {
        a = parse_u32(p)?;
    }
    p.expect(">")?;
    if !is_valid_pointee(p.ctx, e) {
        return type_error(p, loc, "invalid pointer element type", e);
    }
    Ok(pointer_in(p.ctx, e, a))
}

/// `N x` dimensions as MLIR's `parseDimensionList` reads them, `?` as -1.
fn parse_dims(p: &mut Parser, allow_dynamic: bool) -> PResult<Vec<i64>> {
    let mut dims = vec![];
    loop {
        p.skip_ws();
        let at = p.pos;
        if p.peek() == b'?' {
            if !allow_dynamic {
                return p.err(at, "expected static shape");
            }
            p.pos += 1;
            dims.push(-1);
        } else if p.peek().is_ascii_digit() {
            // Digits only: `0 x i8` is no hex literal, and `4xi32` glues
            // the `x` to the number.
            let mut n: i64 = 0;
            while p.peek_at(0).is_ascii_digit() {
                let d = (p.peek_at(0) - b'0') as i64;
                n = match n.checked_mul(10).and_then(|n| n.checked_add(d)) {
                    Some(n) => n,
                    None => return p.err(at, "invalid dimension"),
                };
                p.pos += 1;
            }
            dims.push(n);
        } else {
            return Ok(dims);
        }
        p.skip_ws();
        if !p.eat_keyword("x") && !p.eat("x") {
            return p.err_here("expected 'x' in dimension list");
        }
    }
}

fn parse_array(p: &mut Parser) -> PResult<Type> {
    p.skip_ws();
    let loc = p.pos;
    p.expect("<")?;
    p.skip_ws();
    let size_at = p.pos;
    let dims = parse_dims(p, false)?;
    let e = parse_nested(p)?;
    p.expect(">")?;
    if dims.len() != 1 {
        return p.err(size_at, "expected ? x <type>");
    }
    if !is_valid_element(p.ctx, e) {
        return type_error(p, loc, "invalid array element type", e);
    }
    Ok(array_of(p.ctx, e, dims[0] as u32 as u64))
}

fn parse_vector(p: &mut Parser) -> PResult<Type> {
    p.skip_ws();
    let loc = p.pos;
    p.expect("<")?;
    p.skip_ws();
    let dim_at = p.pos;
    let dims = parse_dims(p, true)?;
    p.skip_ws();
    let type_at = p.pos;
    let e = parse_nested(p)?;
    p.expect(">")?;
    if dims.is_empty()
        || dims.len() > 2
        || ((dims.len() == 2) ^ (dims[0] == -1))
        || (dims.len() == 2 && dims[1] == -1)
    {
        return p.err(
            dim_at,
            "expected '? x <integer> x <type>' or '<integer> x <type>'",
        );
    }
    let scalable = dims.len() == 2;
    let count = dims[dims.len() - 1] as u32;
    let k = classify(p.ctx, e);
    let valid = if scalable {
        matches!(p.ctx.kind(e), TypeKind::Integer(_, Signedness::Signless))
            || p.ctx.kind(e).is_float()
            || matches!(k, Some(LlvmType::Pointer { .. }))
    } else {
        if matches!(p.ctx.kind(e), TypeKind::Integer(_, Signedness::Signless))
            || p.ctx.kind(e).is_float()
        {
            return p.err(
                type_at,
                "cannot use !llvm.vec for built-in primitives, use 'vector' instead",
            );
        }
        matches!(k, Some(LlvmType::Pointer { .. } | LlvmType::PpcFp128))
    };
    if !valid {
        return type_error(p, loc, "invalid vector element type", e);
    }
    Ok(vector_of(p.ctx, e, count, scalable))
}

fn parse_function(p: &mut Parser) -> PResult<Type> {
    p.skip_ws();
    let loc = p.pos;
    p.expect("<")?;
    let result = parse_nested(p)?;
    p.expect("(")?;
    let mut params = vec![];
    let mut vararg = false;
    if !p.eat(")") {
        loop {
            if p.eat("...") {
                vararg = true;
                p.expect(")")?;
                break;
            }
            params.push(parse_nested(p)?);
            if !p.eat(",") {
                p.expect(")")?;
                break;
            }
        }
    }
    p.expect(">")?;
    if !is_valid_result(p.ctx, result) {
        return type_error(p, loc, "invalid function result type", result);
    }
    if let Some(&a) = params.iter().find(|&&a| !is_valid_argument(p.ctx, a)) {
        return type_error(p, loc, "invalid function argument type", a);
    }
    Ok(function(p.ctx, result, &params, vararg))
}

fn parse_struct(p: &mut Parser) -> PResult<Type> {
    p.skip_ws();
    let loc = p.pos;
    p.expect("<")?;
    p.skip_ws();
    let mut name = None;
    if p.peek() == b'"' {
        let n = p.string_lit()?;
        if PARSING.with(|s| s.borrow().contains(&n)) {
            p.expect(">")?;
            return Ok(identified_struct(p.ctx, &n));
        }
        p.expect(",")?;
        name = Some(n);
    }
    p.skip_ws();
    let kw_at = p.pos;
    if p.eat_keyword("opaque") {
        let Some(n) = name else {
            return p.err(kw_at, "only identified structs can be opaque");
        };
        p.expect(">")?;
        return match opaque_struct(p.ctx, &n) {
            Ok(t) => Ok(t),
            Err(TypeBodyAlreadySet) => p.err(kw_at, "redeclaring defined struct as opaque"),
        };
    }
    let packed = p.eat_keyword("packed");
    p.expect("(")?;
    p.skip_ws();
    let body_at = p.pos;
    let mut body = vec![];
    if !p.eat(")") {
        if let Some(n) = &name {
            PARSING.with(|s| s.borrow_mut().push(n.clone()));
        }
        let r = (|| -> PResult<()> {
            loop {
                body.push(parse_nested(p)?);
                if !p.eat(",") {
                    return p.expect(")");
                }
            }
        })();
        if name.is_some() {
            PARSING.with(|s| s.borrow_mut().pop());
        }
        r?;
    }
    p.expect(">")?;
    let Some(n) = name else {
        if let Some(&e) = body.iter().find(|&&e| !is_valid_element(p.ctx, e)) {
            return type_error(p, loc, "invalid LLVM structure element type", e);
        }
        return Ok(literal_struct(p.ctx, &body, packed));
    };
    // An empty body is reported at the `(`, as upstream (its position
    // before the body's first type, which is then the keyword's).
    let at = if body.is_empty() { kw_at } else { body_at };
    if let Some(&e) = body.iter().find(|&&e| !is_valid_element(p.ctx, e)) {
        return type_error(p, at, "invalid LLVM structure element type", e);
    }
    let t = identified_struct(p.ctx, &n);
    match set_struct_body(p.ctx, t, &body, packed) {
        Ok(()) => Ok(t),
        Err(TypeBodyAlreadySet) => p.err(at, "identified type already used with a different body"),
    }
}
