//! The `async` dialect: `execute`, `await`, groups, and the lowered
//! `runtime.*` and `coro.*` ops.

use crate::ods::{AttrClass, OperandKind, RegionSpec, Shape, N, NULLARY, SINK, UNARY};
pub mod types;

use crate::format::{CArg, Custom, ShortForm, TypeClass};
use crate::util::*;
use crate::OpDef;
use mlir_async_ir::*;
use mlir_async_syntax::{edition, PResult, Parser, Printer, RegionArg};

/// `!async.value<T>` where ODS names its class (`Async_ValueType`): the
/// type is checked where it is read, and 14 and 15 print and read it
/// short (`<f32>`), as an ODS-defined type.
static VALUE_TYPE: TypeClass = TypeClass {
    is: |ctx, t| value_inner(ctx, t).is_some(),
    summary: "async value type",
    cpp: Some(edition::Edition::V14),
    short: Some(ShortForm {
        print: print_value_type_short,
        parse: parse_value_type_short,
    }),
};

/// The value type of an `!async.value<T>` (ODS's `TypesMatchWith`).
fn inner(ctx: &mut Context, t: Type) -> Option<Type> {
    value_inner(ctx, t)
}

fn index(ctx: &mut Context) -> Type {
    ctx.index_type()
}

fn i1(ctx: &mut Context) -> Type {
    ctx.int_type(1)
}

/// `custom<AwaitResultType>(type($operand), type($result))`: the awaited
/// type; a value's result has its value type, a token's has none.
const AWAIT_RESULT_TYPE: Custom = Custom {
    name: "AwaitResultType",
    parse: |p, fr, args| {
        let t = p.parse_type()?;
        let (CArg::Type(operand), CArg::Type(result)) = (args[0], args[1]) else {
            unreachable!("declared with two types")
        };
        fr.set_types(p, operand, &[t]);
        match value_inner(p.ctx, t) {
            Some(i) => fr.set_types(p, result, &[i]),
            None => fr.set_types(p, result, &[]),
        }
        Ok(())
    },
    print: |p, v, _| {
        let ctx = p.ctx;
        if let Some(&x) = v.operands(ctx, 0).first() {
            p.ty(ctx.value_type(x));
        }
    },
};

crate::op! {
    /// `async.yield`: the values an `async.execute` body hands back.
    pub struct YieldOp = "async.yield" {
        operands: [operands: Variadic],
        results: [],
        format: "($operands^ `:` type($operands))? attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.await`: blocks until a token or value is ready.
    pub struct AwaitOp = "async.await" {
        operands: [operand: One],
        results: [result: Optional],
        customs: [AWAIT_RESULT_TYPE],
        format: "$operand `:` custom<AwaitResultType>(type($operand), type($result)) attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.create_group`: a group of the given size.
    pub struct CreateGroupOp = "async.create_group" {
        operands: [size: One = Fixed(index)],
        results: [result],
        format: "$size `:` type($result) attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.add_to_group`: adds a token or value to a group; gives its
    /// rank there.
    pub struct AddToGroupOp = "async.add_to_group" {
        operands: [operand: One, group: One = Fixed(types::group)],
        results: [rank = Fixed(index)],
        format: "$operand `,` $group `:` type($operand) attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.await_all`: blocks until every member of a group is ready.
    pub struct AwaitAllOp = "async.await_all" {
        operands: [operand: One = Fixed(types::group)],
        results: [],
        format: "$operand attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.coro.id`
    pub struct CoroIdOp = "async.coro.id" {
        operands: [],
        results: [id = Fixed(types::coro_id)],
        format: "attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.coro.begin`
    pub struct CoroBeginOp = "async.coro.begin" {
        operands: [id: One = Fixed(types::coro_id)],
        results: [handle = Fixed(types::coro_handle)],
        format: "$id attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.coro.free`
    pub struct CoroFreeOp = "async.coro.free" {
        operands: [id: One = Fixed(types::coro_id), handle: One = Fixed(types::coro_handle)],
        results: [],
        format: "$id `,` $handle attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.coro.end`
    pub struct CoroEndOp = "async.coro.end" {
        operands: [handle: One = Fixed(types::coro_handle)],
        results: [],
        format: "$handle attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.coro.save`
    pub struct CoroSaveOp = "async.coro.save" {
        operands: [handle: One = Fixed(types::coro_handle)],
        results: [state = Fixed(types::coro_state)],
        format: "$handle attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.coro.suspend`: branches to suspend, resume or clean up.
    pub struct CoroSuspendOp = "async.coro.suspend" {
        operands: [state: One = Fixed(types::coro_state)],
        results: [],
        successors: [suspendDest, resumeDest, cleanupDest],
        format: "$state `,` $suspendDest `,` $resumeDest `,` $cleanupDest attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.runtime.create`: a token or value, not yet available.
    pub struct RuntimeCreateOp = "async.runtime.create" {
        operands: [],
        results: [result],
        format: "attr-dict `:` type($result)",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.runtime.create_group`
    pub struct RuntimeCreateGroupOp = "async.runtime.create_group" {
        operands: [size: One = Fixed(index)],
        results: [result],
        format: "$size `:` type($result) attr-dict ",
        infer: Spelled,
    }
}

/// `$operand attr-dict : type($operand)`, no results.
macro_rules! runtime_unary_ops {
    ($($ty:ident = $name:literal;)*) => {
        $(crate::op! {
            #[doc = concat!("`", $name, "`")]
            pub struct $ty = $name {
                operands: [operand: One],
                results: [],
                format: "$operand attr-dict `:` type($operand)",
                infer: Spelled,
            }
        })*
    };
}

runtime_unary_ops! {
    RuntimeSetAvailableOp = "async.runtime.set_available";
    RuntimeSetErrorOp = "async.runtime.set_error";
    RuntimeAwaitOp = "async.runtime.await";
    RuntimeAddRefOp = "async.runtime.add_ref";
    RuntimeDropRefOp = "async.runtime.drop_ref";
}

crate::op! {
    /// `async.runtime.is_error`
    pub struct RuntimeIsErrorOp = "async.runtime.is_error" {
        operands: [operand: One],
        results: [is_error = Fixed(i1)],
        format: "$operand attr-dict `:` type($operand)",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.runtime.resume`
    pub struct RuntimeResumeOp = "async.runtime.resume" {
        operands: [handle: One = Fixed(types::coro_handle)],
        results: [],
        format: "$handle attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.runtime.await_and_resume`
    pub struct RuntimeAwaitAndResumeOp = "async.runtime.await_and_resume" {
        operands: [operand: One, handle: One = Fixed(types::coro_handle)],
        results: [],
        format: "$operand `,` $handle attr-dict `:` type($operand)",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.runtime.store`: stores a value into its storage.
    pub struct RuntimeStoreOp = "async.runtime.store" {
        operands: [value: One = Like("storage", inner), storage: One = Class(&VALUE_TYPE)],
        results: [],
        format: "$value `,` $storage attr-dict `:` type($storage)",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.runtime.load`: loads the value stored.
    pub struct RuntimeLoadOp = "async.runtime.load" {
        operands: [storage: One = Class(&VALUE_TYPE)],
        results: [result = Like("storage", inner)],
        format: "$storage attr-dict `:` type($storage)",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.runtime.add_to_group`
    pub struct RuntimeAddToGroupOp = "async.runtime.add_to_group" {
        operands: [operand: One, group: One = Fixed(types::group)],
        results: [rank = Fixed(index)],
        format: "$operand `,` $group attr-dict `:` type($operand)",
        infer: Spelled,
    }
}

crate::op! {
    /// `async.runtime.num_worker_threads`
    pub struct RuntimeNumWorkerThreadsOp = "async.runtime.num_worker_threads" {
        operands: [],
        results: [result],
        format: "attr-dict `:` type($result)",
        infer: Spelled,
    }
}

pub fn ops() -> Vec<OpDef> {
    vec![
        OpDef::new("async.execute")
            .shape(Shape::new(N::AtLeast(0), N::AtLeast(1)).regions(1, &[(0, 0)]))
            .region_specs(const { &[RegionSpec::single(0, "body")] })
            .implicit_terminator("async.yield")
            .syntax(parse_execute, print_execute)
            .names(|ctx, op, _, set| {
                set(0, "token");
                if ctx.results(op).len() > 1 {
                    set(1, "results");
                }
            })
            .verify(verify_execute),
        YieldOp::def()
            .parents(&["async.execute"])
            .pure()
            .return_like()
            .terminator()
            .verify(verify_yield),
        AwaitOp::def()
            .shape(Shape::new(N::Exactly(1), N::AtMost(1)))
            .verify(verify_await),
        CreateGroupOp::def().shape(UNARY),
        AddToGroupOp::def()
            .shape(Shape::new(N::Exactly(2), N::Exactly(1)))
            .verify(verify_value_or_token_operand),
        AwaitAllOp::def().shape(SINK),
        RuntimeCreateOp::def().shape(NULLARY),
        RuntimeCreateGroupOp::def().shape(UNARY),
        RuntimeSetAvailableOp::def().shape(SINK),
        RuntimeSetErrorOp::def().shape(SINK),
        RuntimeIsErrorOp::def().shape(UNARY),
        RuntimeAwaitOp::def().shape(SINK),
        RuntimeAddRefOp::def().shape(SINK.attrs(&[("count", AttrClass::Int)])),
        RuntimeDropRefOp::def().shape(SINK.attrs(&[("count", AttrClass::Int)])),
        RuntimeAwaitAndResumeOp::def().shape(Shape::new(N::Exactly(2), N::Exactly(0))),
        RuntimeResumeOp::def(),
        RuntimeStoreOp::def()
            .shape(Shape::new(N::Exactly(2), N::Exactly(0)).kinds(&[(1, OperandKind::AsyncValue)])),
        RuntimeLoadOp::def().shape(UNARY.kinds(&[(0, OperandKind::AsyncValue)])),
        RuntimeAddToGroupOp::def()
            .shape(Shape::new(N::Exactly(2), N::Exactly(1)))
            .verify(verify_value_or_token_operand),
        RuntimeNumWorkerThreadsOp::def().shape(NULLARY),
        CoroIdOp::def(),
        CoroBeginOp::def(),
        CoroFreeOp::def(),
        CoroEndOp::def(),
        CoroSaveOp::def(),
        CoroSuspendOp::def().shape(SINK.successors(3)).terminator(),
    ]
}

pub use types::value_inner;

fn parse_execute(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    let token = types::token(p.ctx);
    // Operands go straight into the state: dependencies, then values.
    if p.eat("[") {
        let ds = p.parse_operand_list_pending()?;
        p.expect("]")?;
        p.resolve_pending_same(ds, token, &mut st.operands)?;
    }
    let ndeps = st.operands.len();
    let mut args = vec![];
    if p.eat("(") && !p.eat(")") {
        {
            loop {
                let v = p.parse_operand_ref()?;
                p.expect_keyword("as")?;
                p.skip_ws();
                let apos = p.pos;
                let a = p.parse_operand_ref()?;
                p.expect(":")?;
                let tpos = p.pos;
                let t = p.parse_type()?;
                let Some(inner) = value_inner(p.ctx, t) else {
                    return p.err(tpos, "expected async value type");
                };
                st.operands.push(p.resolve_operand(&v, t)?);
                args.push(RegionArg {
                    name: a.name,
                    ty: inner,
                    pos: apos,
                });
                if !p.eat(",") {
                    break;
                }
            }
            p.expect(")")?;
        }
    }
    let nvals = st.operands.len() - ndeps;
    st.result_types.push(token);
    if p.eat("->") {
        p.parse_function_result_types_into(&mut st.result_types)?;
    }
    attr_dict_kw(p, st)?;
    let r = p.parse_region(&args, false)?;
    let key = (ndeps as u64) << 32 | nvals as u64;
    let seg = p.memo_attr("operand_segment_sizes", key, |ctx| {
        segment_sizes(ctx, &[ndeps, nvals])
    });
    st.regions.push(r);
    let s = p.static_sym("operand_segment_sizes");
    st.attrs.push((s, seg));
    Ok(())
}

fn print_execute(p: &mut Printer, op: Op) {
    let segs = segments(p.ctx, op, 2);
    if !segs[0].is_empty() {
        p.w(" [");
        p.operands(&segs[0]);
        p.w("]");
    }
    let r = p.ctx.regions_of(op)[0];
    if !segs[1].is_empty() {
        p.w(" (");
        let entry = p.ctx.entry_block(r);
        for (i, &v) in segs[1].iter().enumerate() {
            if i > 0 {
                p.w(", ");
            }
            p.operand(v);
            if let Some(a) = entry.and_then(|b| p.ctx.block_args(b).get(i).copied()) {
                p.w(" as ");
                p.operand(a);
            }
            p.w(": ");
            let t = p.ctx.value_type(v);
            p.ty(t);
        }
        p.w(")");
    }
    let results = types_of(p.ctx, &p.ctx.results(op)[1..]);
    if !results.is_empty() {
        p.w(" -> ");
        p.result_types(&results);
    }
    p.attr_dict_kw(op, &["operand_segment_sizes"]);
    p.w(" ");
    p.region(r, false, true);
}

fn verify_execute(ctx: &Context, op: Op) -> Result<(), String> {
    let segs = segments(ctx, op, 2);
    let r = ctx.regions_of(op)[0];
    let Some(b) = ctx.entry_block(r) else {
        return Ok(());
    };
    let args = ctx.block_args(b);
    if args.len() != segs[1].len() {
        return Err("requires the same number of body arguments and operands".into());
    }
    for (&v, &a) in segs[1].iter().zip(args) {
        if value_inner(ctx, ctx.value_type(v)) != Some(ctx.value_type(a)) {
            return Err("requires that body arguments types match unwrapped operand types".into());
        }
    }
    for &res in &ctx.results(op)[1..] {
        if value_inner(ctx, ctx.value_type(res)).is_none() {
            return Err(format!(
                "result #{} must be async value type, but got '{}'",
                1,
                tyname(ctx, ctx.value_type(res))
            ));
        }
    }
    Ok(())
}

fn verify_yield(ctx: &Context, op: Op) -> Result<(), String> {
    let Some(parent) = ctx.parent_op(op) else {
        return Ok(());
    };
    if ctx.name(parent) != "async.execute" {
        return Err("expects parent op 'async.execute'".into());
    }
    let types: Vec<Option<Type>> = ctx.results(parent)[1..]
        .iter()
        .map(|&r| value_inner(ctx, ctx.value_type(r)))
        .collect();
    let ops = ctx.operands(op);
    if ops.len() != types.len()
        || ops
            .iter()
            .zip(&types)
            .any(|(&v, t)| Some(ctx.value_type(v)) != *t)
    {
        return Err(
            "operand types do not match the types returned from the parent ExecuteOp".into(),
        );
    }
    Ok(())
}

fn verify_await(ctx: &Context, op: Op) -> Result<(), String> {
    let t = ctx.value_type(ctx.operand(op, 0));
    match types::classify(ctx, t) {
        Some(types::AsyncType::Token) => {
            if !ctx.results(op).is_empty() {
                return Err("awaiting a token must have empty result".into());
            }
        }
        Some(types::AsyncType::Value(inner)) => {
            let Some(&r) = ctx.results(op).first() else {
                return Err("awaiting a value must have a result".into());
            };
            let rt = ctx.value_type(r);
            if rt != inner {
                return Err(format!(
                    "result type '{}' does not match async value type '{}'",
                    tyname(ctx, rt),
                    tyname(ctx, inner)
                ));
            }
        }
        _ => {
            return Err(format!(
                "operand #0 must be async value type or async token type, but got '{}'",
                tyname(ctx, t)
            ))
        }
    }
    Ok(())
}

/// The short form `<T>` of `!async.value<T>` (14, 15; read in any
/// generation, which then is 14 at least).
fn parse_value_type_short(p: &mut Parser) -> PResult<Type> {
    p.expect("<")?;
    let t = p.parse_type()?;
    p.expect(">")?;
    p.note_edition(mlir_async_syntax::Edition::V14);
    Ok(types::value(p.ctx, t))
}

/// Prints `<T>` for `!async.value<T>` where the generation does.
fn print_value_type_short(p: &mut Printer, t: Type) -> bool {
    if edition::runtime_value_type_in_full(p.edition()) {
        return false;
    }
    let Some(inner) = value_inner(p.ctx, t) else {
        return false;
    };
    p.w("<");
    p.ty(inner);
    p.w(">");
    true
}

/// The type of the `count` of `async.runtime.add_ref` / `drop_ref`: `i32`
/// in LLVM 13, `i64` from 14 on (passes that build these ops ask here).
pub fn ref_count_type(ctx: &mut Context, edition: mlir_async_syntax::Edition) -> Type {
    if edition == mlir_async_syntax::Edition::V13 {
        ctx.int_type(32)
    } else {
        ctx.int_type(64)
    }
}

/// `Async_AnyValueOrTokenType:$operand` (the `add_to_group` ops).
fn verify_value_or_token_operand(ctx: &Context, op: Op) -> Result<(), String> {
    let t = ctx.value_type(ctx.operand(op, 0));
    if types::is_token(ctx, t) || types::value_inner(ctx, t).is_some() {
        return Ok(());
    }
    Err(format!(
        "operand #0 must be async value type or async token type, but got '{}'",
        crate::util::tyname(ctx, t)
    ))
}
