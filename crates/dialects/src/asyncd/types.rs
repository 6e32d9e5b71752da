//! The `async` dialect's types, owned by the dialect as MLIR's
//! `AsyncTypes.td` declares them: `!async.token`, `!async.value<T>`,
//! `!async.group` and the coroutine types of the runtime form
//! (`!async.coro.id`, `!async.coro.handle`, `!async.coro.state`). They are
//! [`TypeKind::Dialect`] types of dialect `async` (the IR core knows no
//! async type), built and read through the functions here, parsed and
//! printed by this module through the dialect hooks.
//!
//! How each type is held (mnemonic: parameters): `value`: `[Type(T)]`;
//! the others: none.

use mlir_async_ir::*;
use mlir_async_syntax::printer::print_type_into;
use mlir_async_syntax::{PResult, Parser};

/// The dialect's name.
pub const DIALECT: &str = "async";

/// An async dialect type, read through [`classify`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsyncType {
    Token,
    /// `!async.value<T>`, with `T`.
    Value(Type),
    Group,
    CoroId,
    CoroHandle,
    CoroState,
}

impl AsyncType {
    /// The runtime objects that are reference-counted.
    pub fn is_ref_counted(self) -> bool {
        matches!(
            self,
            AsyncType::Token | AsyncType::Value(_) | AsyncType::Group
        )
    }
}

/// What async type `t` is, if any.
pub fn classify(ctx: &Context, t: Type) -> Option<AsyncType> {
    let d = ctx.as_dialect_type(t)?;
    if ctx.str(d.dialect) != DIALECT {
        return None;
    }
    Some(match ctx.str(d.mnemonic) {
        "token" => AsyncType::Token,
        "value" => AsyncType::Value(d.params.first()?.as_type()?),
        "group" => AsyncType::Group,
        "coro.id" => AsyncType::CoroId,
        "coro.handle" => AsyncType::CoroHandle,
        "coro.state" => AsyncType::CoroState,
        _ => return None,
    })
}

/// The type of `k`.
pub fn get(ctx: &mut Context, k: AsyncType) -> Type {
    let (mnemonic, inner) = match k {
        AsyncType::Token => ("token", None),
        AsyncType::Value(t) => ("value", Some(t)),
        AsyncType::Group => ("group", None),
        AsyncType::CoroId => ("coro.id", None),
        AsyncType::CoroHandle => ("coro.handle", None),
        AsyncType::CoroState => ("coro.state", None),
    };
    ctx.static_dialect_type(DIALECT, mnemonic, inner)
}

pub fn token(ctx: &mut Context) -> Type {
    get(ctx, AsyncType::Token)
}
/// `!async.value<inner>`.
pub fn value(ctx: &mut Context, inner: Type) -> Type {
    get(ctx, AsyncType::Value(inner))
}
pub fn group(ctx: &mut Context) -> Type {
    get(ctx, AsyncType::Group)
}
pub fn coro_id(ctx: &mut Context) -> Type {
    get(ctx, AsyncType::CoroId)
}
pub fn coro_handle(ctx: &mut Context) -> Type {
    get(ctx, AsyncType::CoroHandle)
}
pub fn coro_state(ctx: &mut Context) -> Type {
    get(ctx, AsyncType::CoroState)
}

pub fn is_token(ctx: &Context, t: Type) -> bool {
    classify(ctx, t) == Some(AsyncType::Token)
}
pub fn is_group(ctx: &Context, t: Type) -> bool {
    classify(ctx, t) == Some(AsyncType::Group)
}
/// `T` for `!async.value<T>`.
pub fn value_inner(ctx: &Context, t: Type) -> Option<Type> {
    match classify(ctx, t) {
        Some(AsyncType::Value(inner)) => Some(inner),
        _ => None,
    }
}

/// Parses an async type after `!async` (the parser at the `.`).
pub fn parse_type(p: &mut Parser, start: usize) -> PResult<Option<Type>> {
    if !p.eat(".") {
        return Ok(None);
    }
    let id = p.suffix_id();
    let k = match id {
        "token" => AsyncType::Token,
        "group" => AsyncType::Group,
        "coro.id" => AsyncType::CoroId,
        "coro.handle" => AsyncType::CoroHandle,
        "coro.state" => AsyncType::CoroState,
        "value" => {
            p.expect("<")?;
            let t = p.parse_type()?;
            p.expect(">")?;
            return Ok(Some(value(p.ctx, t)));
        }
        _ => return p.err(start, format!("unknown async type: {id}")),
    };
    Ok(Some(get(p.ctx, k)))
}

/// Prints an async type (the context's printer for dialect `async`).
pub fn print_type(ctx: &Context, t: Type, out: &mut String) {
    let Some(k) = classify(ctx, t) else {
        return;
    };
    out.push_str(match k {
        AsyncType::Token => "!async.token",
        AsyncType::Group => "!async.group",
        AsyncType::CoroId => "!async.coro.id",
        AsyncType::CoroHandle => "!async.coro.handle",
        AsyncType::CoroState => "!async.coro.state",
        AsyncType::Value(inner) => {
            out.push_str("!async.value<");
            print_type_into(ctx, inner, out);
            out.push('>');
            return;
        }
    });
}

/// Registers the printer of the dialect's types in `ctx`.
pub fn register(ctx: &mut Context) {
    ctx.register_type_printer(DIALECT, print_type);
}
