//! `-convert-async-to-llvm`, as upstream's `AsyncToLLVM.cpp`: async
//! runtime objects become opaque `!llvm.ptr<i8>` handles, runtime ops
//! calls to the `mlirAsyncRuntime*` C API (declared as private functions,
//! lowered with the rest of `func` later), and the coroutine ops LLVM's
//! `llvm.intr.coro.*` intrinsics with the frame from `aligned_alloc`.
//!
//! A dialect conversion: the `async` dialect is illegal, each op has a
//! pattern, and functions, calls and returns take the converted types.
//! Two type converters, as upstream: the async one (async types to
//! handles, all else kept) for most patterns, the LLVM one (which also
//! lowers the stored value's type, `memref` to its descriptor) for the
//! patterns that size, store and load a value's payload.
//!
//! Beyond upstream: the async converter materializes casts where a
//! converted value meets an op that keeps its type, so the `index` of
//! `async.runtime.add_to_group` used by arithmetic lowers (upstream fails
//! to materialize it); a value whose payload has no LLVM type (a tensor)
//! is a diagnostic at the op, where upstream crashes.

use crate::llvm_common::{llvm_type_converter, LowerToLlvmOptions};
use crate::{Pass, PassContext, PassInfo};
use mlir_async_dialects::asyncd::types::{self, AsyncType};
use mlir_async_dialects::build::FuncBuilder;
use mlir_async_dialects::builtin::func_type;
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_dialects::llvm::types as llvm;
use mlir_async_ir::{
    AttrKind, Attribute, Context, DenseElem, InsertPoint, IrError, Location, Op, Symbol, Type,
    TypeKind, Value,
};
use mlir_async_rewrite::{
    apply_partial_conversion, ConversionPattern, ConversionPatternSet, ConversionRewriter,
    ConversionTarget, RewriteError, TypeConversion, TypeConverter,
};
use mlir_async_syntax::Edition;
use std::rc::Rc;

pub fn info() -> PassInfo {
    PassInfo {
        arg: "convert-async-to-llvm",
        summary: "Convert the operations from the async dialect into the LLVM dialect",
        options: &[],
        anchor: "builtin.module",
        make: |_| Ok(Box::new(ConvertAsyncToLlvm)),
    }
}

pub struct ConvertAsyncToLlvm;

const ADD_REF: &str = "mlirAsyncRuntimeAddRef";
const DROP_REF: &str = "mlirAsyncRuntimeDropRef";
const CREATE_TOKEN: &str = "mlirAsyncRuntimeCreateToken";
const CREATE_VALUE: &str = "mlirAsyncRuntimeCreateValue";
const CREATE_GROUP: &str = "mlirAsyncRuntimeCreateGroup";
const EMPLACE_TOKEN: &str = "mlirAsyncRuntimeEmplaceToken";
const EMPLACE_VALUE: &str = "mlirAsyncRuntimeEmplaceValue";
const SET_TOKEN_ERROR: &str = "mlirAsyncRuntimeSetTokenError";
const SET_VALUE_ERROR: &str = "mlirAsyncRuntimeSetValueError";
const IS_TOKEN_ERROR: &str = "mlirAsyncRuntimeIsTokenError";
const IS_VALUE_ERROR: &str = "mlirAsyncRuntimeIsValueError";
const IS_GROUP_ERROR: &str = "mlirAsyncRuntimeIsGroupError";
const AWAIT_TOKEN: &str = "mlirAsyncRuntimeAwaitToken";
const AWAIT_VALUE: &str = "mlirAsyncRuntimeAwaitValue";
const AWAIT_GROUP: &str = "mlirAsyncRuntimeAwaitAllInGroup";
const EXECUTE: &str = "mlirAsyncRuntimeExecute";
const GET_VALUE_STORAGE: &str = "mlirAsyncRuntimeGetValueStorage";
const ADD_TOKEN_TO_GROUP: &str = "mlirAsyncRuntimeAddTokenToGroup";
const AWAIT_TOKEN_AND_EXECUTE: &str = "mlirAsyncRuntimeAwaitTokenAndExecute";
const AWAIT_VALUE_AND_EXECUTE: &str = "mlirAsyncRuntimeAwaitValueAndExecute";
const AWAIT_ALL_AND_EXECUTE: &str = "mlirAsyncRuntimeAwaitAllInGroupAndExecute";
/// Misspelled upstream, and so in every runtime library.
const GET_NUM_WORKER_THREADS: &str = "mlirAsyncRuntimGetNumWorkerThreads";
/// The function the runtime calls to resume a coroutine.
const RESUME: &str = "__resume";

/// The kinds of async type the API's signatures are written in.
#[derive(Clone, Copy)]
enum A {
    Token,
    Group,
    Ptr,
    I1,
    I64,
    /// A reference count or a value's size: `i32` in LLVM 13, `i64` after.
    Count,
    Index,
    /// `!llvm.ptr<func<void (ptr<i8>)>>`, the resume function.
    Resume,
}

/// The runtime API in the order upstream declares it: name, inputs,
/// results.
const API: &[(&str, &[A], &[A])] = &[
    (ADD_REF, &[A::Ptr, A::Count], &[]),
    (DROP_REF, &[A::Ptr, A::Count], &[]),
    (CREATE_TOKEN, &[], &[A::Token]),
    (CREATE_VALUE, &[A::Count], &[A::Ptr]),
    (CREATE_GROUP, &[A::I64], &[A::Group]),
    (EMPLACE_TOKEN, &[A::Token], &[]),
    (EMPLACE_VALUE, &[A::Ptr], &[]),
    (SET_TOKEN_ERROR, &[A::Token], &[]),
    (SET_VALUE_ERROR, &[A::Ptr], &[]),
    (IS_TOKEN_ERROR, &[A::Token], &[A::I1]),
    (IS_VALUE_ERROR, &[A::Ptr], &[A::I1]),
    (IS_GROUP_ERROR, &[A::Group], &[A::I1]),
    (AWAIT_TOKEN, &[A::Token], &[]),
    (AWAIT_VALUE, &[A::Ptr], &[]),
    (AWAIT_GROUP, &[A::Group], &[]),
    (EXECUTE, &[A::Ptr, A::Resume], &[]),
    (GET_VALUE_STORAGE, &[A::Ptr], &[A::Ptr]),
    (ADD_TOKEN_TO_GROUP, &[A::Token, A::Group], &[A::I64]),
    (AWAIT_TOKEN_AND_EXECUTE, &[A::Token, A::Ptr, A::Resume], &[]),
    (AWAIT_VALUE_AND_EXECUTE, &[A::Ptr, A::Ptr, A::Resume], &[]),
    (AWAIT_ALL_AND_EXECUTE, &[A::Group, A::Ptr, A::Resume], &[]),
    (GET_NUM_WORKER_THREADS, &[], &[A::Index]),
];

fn api_type(ctx: &mut Context, a: A, edition: Edition) -> Type {
    match a {
        A::Token => types::token(ctx),
        A::Group => types::group(ctx),
        A::Ptr => llvm::i8_pointer(ctx),
        A::I1 => ctx.int_type(1),
        A::I64 => ctx.int_type(64),
        A::Count => count_type(ctx, edition),
        A::Index => ctx.index_type(),
        A::Resume => resume_pointer_type(ctx),
    }
}

/// LLVM 13 counts references and sizes values in `i32`.
fn count_type(ctx: &mut Context, edition: Edition) -> Type {
    ctx.int_type(if edition == Edition::V13 { 32 } else { 64 })
}

fn resume_function_type(ctx: &mut Context) -> Type {
    let void = llvm::void(ctx);
    let i8p = llvm::i8_pointer(ctx);
    llvm::function(ctx, void, &[i8p], false)
}

fn resume_pointer_type(ctx: &mut Context) -> Type {
    let f = resume_function_type(ctx);
    llvm::pointer_to(ctx, f)
}

/// Async types to runtime handles; `None` for any other type.
fn convert_async_type(ctx: &mut Context, t: Type) -> Option<Type> {
    Some(match types::classify(ctx, t)? {
        AsyncType::Token | AsyncType::Group | AsyncType::Value(_) => llvm::i8_pointer(ctx),
        AsyncType::CoroId | AsyncType::CoroState => llvm::token(ctx),
        AsyncType::CoroHandle => llvm::i8_pointer(ctx),
    })
}

fn async_types(_: &TypeConverter, ctx: &mut Context, t: Type) -> TypeConversion {
    match convert_async_type(ctx, t) {
        Some(c) => TypeConversion::To(vec![c]),
        None => TypeConversion::Next,
    }
}

/// Upstream's `AsyncRuntimeTypeConverter`: async types to handles, every
/// other type kept. It has no materializations: LLVM 14's driver leaves
/// its own casts where they are needed (as ours does with casts from the
/// converter), LLVM 13's builds none.
fn async_runtime_converter(edition: Edition) -> TypeConverter {
    let mut conv = TypeConverter::new();
    conv.add_conversion(|_, _, t| TypeConversion::To(vec![t]));
    conv.add_conversion(async_types);
    if edition != Edition::V13 {
        conv.add_cast_materializations();
    }
    conv
}

impl Pass for ConvertAsyncToLlvm {
    fn name(&self) -> &'static str {
        "convert-async-to-llvm"
    }
    fn display_name(&self) -> &'static str {
        "ConvertAsyncToLLVM"
    }
    fn run(&self, pc: &mut PassContext, module: Op) -> Result<(), IrError> {
        add_api_declarations(pc.ctx, module, pc.edition);
        let conv = Rc::new(async_runtime_converter(pc.edition));
        let mut llvm_conv = llvm_type_converter(LowerToLlvmOptions::default(), pc.edition);
        llvm_conv.add_conversion(async_types);
        let llvm_conv = Rc::new(llvm_conv);

        let ed = pc.edition;
        let mut patterns = ConversionPatternSet::new();
        let mut add = |root: &'static str, f: Lowering, conv: &Rc<TypeConverter>| {
            patterns.add(Lowered {
                root,
                f,
                conv: conv.clone(),
                edition: ed,
            });
        };
        add("func.func", convert_func, &conv);
        add("func.call", convert_call, &conv);
        add("func.return", convert_return, &conv);
        for (root, f) in [
            (
                "async.runtime.set_available",
                lower_set_available as Lowering,
            ),
            ("async.runtime.set_error", lower_set_error),
            ("async.runtime.is_error", lower_is_error),
            ("async.runtime.await", lower_await),
            ("async.runtime.await_and_resume", lower_await_and_resume),
            ("async.runtime.resume", lower_resume),
            ("async.runtime.add_to_group", lower_add_to_group),
            ("async.runtime.num_worker_threads", lower_num_worker_threads),
            ("async.runtime.add_ref", lower_add_ref),
            ("async.runtime.drop_ref", lower_drop_ref),
        ] {
            add(root, f, &conv);
        }
        for (root, f) in [
            ("async.runtime.create", lower_create as Lowering),
            ("async.runtime.create_group", lower_create_group),
            ("async.runtime.store", lower_store),
            ("async.runtime.load", lower_load),
        ] {
            add(root, f, &llvm_conv);
        }
        for (root, f) in [
            ("async.coro.id", lower_coro_id as Lowering),
            ("async.coro.begin", lower_coro_begin),
            ("async.coro.free", lower_coro_free),
            ("async.coro.end", lower_coro_end),
            ("async.coro.save", lower_coro_save),
            ("async.coro.suspend", lower_coro_suspend),
        ] {
            add(root, f, &conv);
        }

        let mut target = ConversionTarget::new();
        target
            .add_legal_op("arith.constant")
            .add_legal_op("func.constant")
            .add_legal_op("builtin.unrealized_conversion_cast")
            .add_legal_dialect("llvm")
            .add_illegal_dialect("async");
        let c = conv.clone();
        target.add_dynamically_legal_op("func.func", move |ctx, op| {
            let (ins, outs) = func_type(ctx, op);
            c.is_signature_legal(ctx, &ins, &outs)
        });
        let c = conv.clone();
        target.add_dynamically_legal_op("func.return", move |ctx, op| {
            let types: Vec<Type> = ctx
                .operands(op)
                .iter()
                .map(|&v| ctx.value_type(v))
                .collect();
            types.into_iter().all(|t| c.is_legal(ctx, t))
        });
        let c = conv.clone();
        target.add_dynamically_legal_op("func.call", move |ctx, op| c.is_legal_op(ctx, op));

        let ifaces = Interfaces::new(pc.registry, pc.edition);
        apply_partial_conversion(pc.ctx, module, &target, &patterns, None, &ifaces)
            .map_err(|e| e.into_ir_error(pc.ctx))
    }
}

type Lowering = fn(Op, &[Value], &mut ConversionRewriter, Edition) -> R;

/// A lowering with its type converter and the generation it lowers for
/// (LLVM 13 sizes values in `i32` and allocates frames with `malloc`).
struct Lowered {
    root: &'static str,
    f: Lowering,
    conv: Rc<TypeConverter>,
    edition: Edition,
}

impl ConversionPattern for Lowered {
    fn root(&self) -> Option<&str> {
        Some(self.root)
    }
    fn name(&self) -> &str {
        self.root
    }
    fn match_and_rewrite(&self, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
        (self.f)(op, operands, rw, self.edition)
    }
    fn type_converter(&self) -> Option<Rc<TypeConverter>> {
        Some(self.conv.clone())
    }
}
type R = Result<bool, RewriteError>;

/// Declares the runtime API at the end of the module, each function not
/// already there.
fn add_api_declarations(ctx: &mut Context, module: Op, edition: Edition) {
    let Some(&body) = ctx.regions_of(module).first() else {
        return;
    };
    let Some(block) = ctx.entry_block(body) else {
        return;
    };
    let loc = ctx.op_loc(module);
    let funcs = FuncBuilder::new(ctx);
    for &(name, ins, outs) in API {
        // The worker-count query came with LLVM 14.
        let absent = edition == Edition::V13 && name == GET_NUM_WORKER_THREADS;
        if absent || ctx.lookup_symbol(module, name).is_some() {
            continue;
        }
        let ins: Vec<Type> = ins.iter().map(|&a| api_type(ctx, a, edition)).collect();
        let outs: Vec<Type> = outs.iter().map(|&a| api_type(ctx, a, edition)).collect();
        let region = ctx.create_region();
        let op = funcs.private_func(ctx, loc, name, &ins, &outs, &[], region);
        ctx.insert_op(InsertPoint::AtEnd(block), op);
    }
    // LLVM 13 declares the C allocator after the API, used or not.
    if edition == Edition::V13 {
        let (i8p, i64t, void) = (llvm::i8_pointer(ctx), ctx.int_type(64), llvm::void(ctx));
        for (name, result, param) in [("malloc", i8p, i64t), ("free", void, i8p)] {
            if ctx.lookup_symbol(module, name).is_none() {
                let ft = llvm::function(ctx, result, &[param], false);
                let f = new_llvm_func(ctx, module, name, ft);
                ctx.insert_op(InsertPoint::AtEnd(block), f);
            }
        }
    }
}

// ----- small builders -----

fn sym_ref(ctx: &mut Context, name: &str) -> Attribute {
    let s = ctx.sym(name);
    ctx.attr(AttrKind::SymbolRef(s, vec![]))
}

fn create(
    rw: &mut ConversionRewriter,
    name: &str,
    loc: Location,
    operands: &[Value],
    results: &[Type],
    attrs: &[(&str, Attribute)],
) -> Result<Op, RewriteError> {
    let ctx = rw.ctx();
    let name = ctx.sym(name);
    let attrs: Vec<(Symbol, Attribute)> = attrs.iter().map(|&(k, a)| (ctx.sym(k), a)).collect();
    rw.create_op(name, loc, operands, results, &attrs)
}

fn create_value(
    rw: &mut ConversionRewriter,
    name: &str,
    loc: Location,
    operands: &[Value],
    result: Type,
    attrs: &[(&str, Attribute)],
) -> Result<Value, RewriteError> {
    let op = create(rw, name, loc, operands, &[result], attrs)?;
    Ok(rw.ctx_ref().result(op, 0))
}

fn llvm_constant(
    rw: &mut ConversionRewriter,
    loc: Location,
    ty: Type,
    v: i128,
) -> Result<Value, RewriteError> {
    let a = rw.ctx().int_attr(v, ty);
    create_value(rw, "llvm.mlir.constant", loc, &[], ty, &[("value", a)])
}

fn llvm_false(rw: &mut ConversionRewriter, loc: Location) -> Result<Value, RewriteError> {
    let ctx = rw.ctx();
    let i1 = ctx.int_type(1);
    let a = ctx.attr(AttrKind::Bool(false));
    create_value(rw, "llvm.mlir.constant", loc, &[], i1, &[("value", a)])
}

/// `func.call @name(args) : results`, replacing `op` when given.
fn call(
    rw: &mut ConversionRewriter,
    loc: Location,
    name: &str,
    args: &[Value],
    results: &[Type],
) -> Result<Op, RewriteError> {
    let callee = sym_ref(rw.ctx(), name);
    create(rw, "func.call", loc, args, results, &[("callee", callee)])
}

fn replace_with_call(
    rw: &mut ConversionRewriter,
    op: Op,
    name: &str,
    args: &[Value],
    results: &[Type],
) -> R {
    let loc = rw.ctx_ref().op_loc(op);
    rw.set_insertion_point(op);
    let c = call(rw, loc, name, args, results)?;
    let vals = rw.ctx_ref().results(c).to_vec();
    rw.replace_op(op, &vals)?;
    Ok(true)
}

/// `llvm.call @name`, with no fast-math flags.
fn llvm_call(
    rw: &mut ConversionRewriter,
    loc: Location,
    name: &str,
    args: &[Value],
    results: &[Type],
) -> Result<Op, RewriteError> {
    let ctx = rw.ctx();
    let callee = sym_ref(ctx, name);
    let fm = ctx.attr(AttrKind::Opaque("#llvm.fastmath<>".into()));
    create(
        rw,
        "llvm.call",
        loc,
        args,
        results,
        &[("callee", callee), ("fastmathFlags", fm)],
    )
}

/// The nearest module around `op`.
fn module_of(ctx: &Context, op: Op) -> Option<Op> {
    ctx.ancestor(op, |c, o| c.name(o) == "builtin.module")
}

/// `llvm.func @name` declared at the start of the module unless there
/// (MLIR's `lookupOrCreateFn`: each new one before those already there).
fn lookup_or_create_llvm_fn(
    ctx: &mut Context,
    module: Op,
    name: &str,
    result: Type,
    params: &[Type],
) {
    if ctx.lookup_symbol(module, name).is_some() {
        return;
    }
    let Some(block) = ctx
        .regions_of(module)
        .first()
        .and_then(|&r| ctx.entry_block(r))
    else {
        return;
    };
    let ft = llvm::function(ctx, result, params, false);
    let op = new_llvm_func(ctx, module, name, ft);
    let ip = match ctx.first_op(block) {
        Some(f) => InsertPoint::Before(f),
        None => InsertPoint::AtEnd(block),
    };
    ctx.insert_op(ip, op);
}

fn new_llvm_func(ctx: &mut Context, module: Op, name: &str, ft: Type) -> Op {
    let loc = ctx.op_loc(module);
    let attrs = [
        (ctx.sym("function_type"), ctx.type_attr(ft)),
        (
            ctx.sym("linkage"),
            ctx.attr(AttrKind::Opaque("#llvm.linkage<external>".into())),
        ),
        (ctx.sym("sym_name"), ctx.string_attr(name)),
    ];
    let region = ctx.create_region();
    let f = ctx.sym("llvm.func");
    ctx.create_op_from(f, loc, &[], &[], &attrs, &[region], &[])
}

/// `llvm.func private @__resume(%arg0: !llvm.ptr<i8>)` resuming its
/// argument, at the end of the module, once.
fn add_resume_function(ctx: &mut Context, module: Op) {
    if ctx.lookup_symbol(module, RESUME).is_some() {
        return;
    }
    let Some(block) = ctx
        .regions_of(module)
        .first()
        .and_then(|&r| ctx.entry_block(r))
    else {
        return;
    };
    let ft = resume_function_type(ctx);
    let f = new_llvm_func(ctx, module, RESUME, ft);
    let private = ctx.string_attr("private");
    ctx.set_attr(f, "sym_visibility", private);
    ctx.insert_op(InsertPoint::AtEnd(block), f);
    let region = ctx.regions_of(f)[0];
    let i8p = llvm::i8_pointer(ctx);
    let entry = ctx.create_block(&[i8p]);
    ctx.append_block(region, entry);
    let loc = ctx.op_loc(module);
    ctx.set_value_loc(ctx.block_args(entry)[0], loc);
    let arg = ctx.block_args(entry)[0];
    let resume = ctx.sym("llvm.intr.coro.resume");
    let r = ctx.create_op_from(resume, loc, &[arg], &[], &[], &[], &[]);
    ctx.insert_op(InsertPoint::AtEnd(entry), r);
    let ret = ctx.sym("llvm.return");
    let r = ctx.create_op_from(ret, loc, &[], &[], &[], &[], &[]);
    ctx.insert_op(InsertPoint::AtEnd(entry), r);
}

fn resume_pointer(rw: &mut ConversionRewriter, op: Op) -> Result<Value, RewriteError> {
    let ctx = rw.ctx();
    if let Some(m) = module_of(ctx, op) {
        add_resume_function(ctx, m);
    }
    let loc = ctx.op_loc(op);
    let ty = resume_pointer_type(ctx);
    let name = sym_ref(ctx, RESUME);
    create_value(
        rw,
        "llvm.mlir.addressof",
        loc,
        &[],
        ty,
        &[("global_name", name)],
    )
}

/// The type of the operand `op` was built with (before conversion).
fn operand_kind(ctx: &Context, op: Op) -> Option<AsyncType> {
    let v = *ctx.operands(op).first()?;
    types::classify(ctx, ctx.value_type(v))
}

fn no_results() -> &'static [Type] {
    &[]
}

// ----- functions, calls, returns -----

fn convert_func(op: Op, operands: &[Value], rw: &mut ConversionRewriter, ed: Edition) -> R {
    let _ = ed;
    mlir_async_dialects::type_conversion::convert_func_signature(op, operands, rw)
}

fn convert_call(op: Op, operands: &[Value], rw: &mut ConversionRewriter, ed: Edition) -> R {
    let _ = ed;
    mlir_async_dialects::type_conversion::convert_call(op, operands, rw)
}

/// Upstream replaces the return (rather than updating it in place).
fn convert_return(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let loc = rw.ctx_ref().op_loc(op);
    rw.set_insertion_point(op);
    create(rw, "func.return", loc, operands, &[], &[])?;
    rw.replace_op(op, &[])?;
    Ok(true)
}

// ----- runtime ops -----

fn lower_create(op: Op, _: &[Value], rw: &mut ConversionRewriter, ed: Edition) -> R {
    let ctx = rw.ctx_ref();
    let result = ctx.value_type(ctx.result(op, 0));
    let loc = ctx.op_loc(op);
    match types::classify(ctx, result) {
        Some(AsyncType::Token) => {
            let Some(t) = rw.convert_type(result) else {
                return Ok(false);
            };
            replace_with_call(rw, op, CREATE_TOKEN, &[], &[t])
        }
        Some(AsyncType::Value(inner)) => {
            // The payload's size: the address of element 1 of a null
            // array of it.
            let Some(stored) = rw.convert_type(inner) else {
                return Err(RewriteError::at(
                    loc,
                    format!(
                        "'async.runtime.create' op cannot lower a value of type '{}': it has no LLVM type",
                        mlir_async_syntax::print_type(rw.ctx_ref(), inner)
                    ),
                ));
            };
            rw.set_insertion_point(op);
            let ctx = rw.ctx();
            let ptr = llvm::pointer_to(ctx, stored);
            let int = count_type(ctx, ed);
            let null = create_value(rw, "llvm.mlir.null", loc, &[], ptr, &[])?;
            let one = llvm_constant(rw, loc, int, 1)?;
            // (LLVM 13 prints no `structIndices`; the op holds them.)
            let indices = gep_dynamic_indices(rw.ctx(), 1);
            let gep = create_value(
                rw,
                "llvm.getelementptr",
                loc,
                &[null, one],
                ptr,
                &[("structIndices", indices)],
            )?;
            let size = create_value(rw, "llvm.ptrtoint", loc, &[gep], int, &[])?;
            // The call's result keeps the async type: the function and
            // call patterns convert it with the rest.
            replace_with_call(rw, op, CREATE_VALUE, &[size], &[result])
        }
        _ => Ok(false),
    }
}

/// `structIndices` of a GEP whose `n` indices are all dynamic.
fn gep_dynamic_indices(ctx: &mut Context, n: usize) -> Attribute {
    let i32t = ctx.int_type(32);
    let tt = ctx.ty(TypeKind::Tensor {
        shape: vec![Some(n as i64)],
        elem: i32t,
        encoding: None,
    });
    let dynamic = DenseElem::Int(i128::from(i32::MIN));
    ctx.attr(AttrKind::Dense(vec![dynamic], tt, true))
}

fn lower_create_group(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let ctx = rw.ctx_ref();
    let result = ctx.value_type(ctx.result(op, 0));
    let Some(t) = rw.convert_type(result) else {
        return Ok(false);
    };
    replace_with_call(rw, op, CREATE_GROUP, operands, &[t])
}

fn by_operand(
    rw: &ConversionRewriter,
    op: Op,
    token: &'static str,
    value: &'static str,
    group: Option<&'static str>,
) -> Option<&'static str> {
    match operand_kind(rw.ctx_ref(), op)? {
        AsyncType::Token => Some(token),
        AsyncType::Value(_) => Some(value),
        AsyncType::Group => group,
        _ => None,
    }
}

fn lower_set_available(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let Some(f) = by_operand(rw, op, EMPLACE_TOKEN, EMPLACE_VALUE, None) else {
        return Ok(false);
    };
    replace_with_call(rw, op, f, operands, no_results())
}

fn lower_set_error(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let Some(f) = by_operand(rw, op, SET_TOKEN_ERROR, SET_VALUE_ERROR, None) else {
        return Ok(false);
    };
    replace_with_call(rw, op, f, operands, no_results())
}

fn lower_is_error(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let Some(f) = by_operand(rw, op, IS_TOKEN_ERROR, IS_VALUE_ERROR, Some(IS_GROUP_ERROR)) else {
        return Ok(false);
    };
    let i1 = rw.ctx().int_type(1);
    replace_with_call(rw, op, f, operands, &[i1])
}

fn lower_await(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let Some(f) = by_operand(rw, op, AWAIT_TOKEN, AWAIT_VALUE, Some(AWAIT_GROUP)) else {
        return Ok(false);
    };
    let loc = rw.ctx_ref().op_loc(op);
    rw.set_insertion_point(op);
    call(rw, loc, f, operands, no_results())?;
    rw.erase_op(op)?;
    Ok(true)
}

fn lower_await_and_resume(
    op: Op,
    operands: &[Value],
    rw: &mut ConversionRewriter,
    _ed: Edition,
) -> R {
    let Some(f) = by_operand(
        rw,
        op,
        AWAIT_TOKEN_AND_EXECUTE,
        AWAIT_VALUE_AND_EXECUTE,
        Some(AWAIT_ALL_AND_EXECUTE),
    ) else {
        return Ok(false);
    };
    let [operand, handle] = operands[..] else {
        return Ok(false);
    };
    rw.set_insertion_point(op);
    let resume = resume_pointer(rw, op)?;
    let loc = rw.ctx_ref().op_loc(op);
    call(rw, loc, f, &[operand, handle, resume], no_results())?;
    rw.erase_op(op)?;
    Ok(true)
}

fn lower_resume(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let [handle] = operands[..] else {
        return Ok(false);
    };
    rw.set_insertion_point(op);
    let resume = resume_pointer(rw, op)?;
    replace_with_call(rw, op, EXECUTE, &[handle, resume], no_results())
}

fn lower_store(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let [value, storage] = operands[..] else {
        return Ok(false);
    };
    let ctx = rw.ctx_ref();
    let loc = ctx.op_loc(op);
    let value_type = ctx.value_type(ctx.operand(op, 0));
    rw.set_insertion_point(op);
    let i8p = llvm::i8_pointer(rw.ctx());
    let storage_ptr = call(rw, loc, GET_VALUE_STORAGE, &[storage], &[i8p])?;
    let storage_ptr = rw.ctx_ref().result(storage_ptr, 0);
    let Some(llvm_value_type) = rw.convert_type(value_type) else {
        return Ok(false);
    };
    let ptr = llvm::pointer_to(rw.ctx(), llvm_value_type);
    let cast = create_value(rw, "llvm.bitcast", loc, &[storage_ptr], ptr, &[])?;
    create(rw, "llvm.store", loc, &[value, cast], &[], &[])?;
    rw.erase_op(op)?;
    Ok(true)
}

fn lower_load(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let [storage] = operands[..] else {
        return Ok(false);
    };
    let ctx = rw.ctx_ref();
    let loc = ctx.op_loc(op);
    let value_type = ctx.value_type(ctx.result(op, 0));
    rw.set_insertion_point(op);
    let i8p = llvm::i8_pointer(rw.ctx());
    let storage_ptr = call(rw, loc, GET_VALUE_STORAGE, &[storage], &[i8p])?;
    let storage_ptr = rw.ctx_ref().result(storage_ptr, 0);
    let Some(llvm_value_type) = rw.convert_type(value_type) else {
        return Ok(false);
    };
    let ptr = llvm::pointer_to(rw.ctx(), llvm_value_type);
    let cast = create_value(rw, "llvm.bitcast", loc, &[storage_ptr], ptr, &[])?;
    let load = create_value(rw, "llvm.load", loc, &[cast], llvm_value_type, &[])?;
    rw.replace_op(op, &[load])?;
    Ok(true)
}

fn lower_add_to_group(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    if !matches!(operand_kind(rw.ctx_ref(), op), Some(AsyncType::Token)) {
        return Ok(false);
    }
    let i64t = rw.ctx().int_type(64);
    replace_with_call(rw, op, ADD_TOKEN_TO_GROUP, operands, &[i64t])
}

fn lower_num_worker_threads(op: Op, _: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let index = rw.ctx().index_type();
    replace_with_call(rw, op, GET_NUM_WORKER_THREADS, &[], &[index])
}

fn lower_ref_counting(
    op: Op,
    operands: &[Value],
    rw: &mut ConversionRewriter,
    f: &str,
    ed: Edition,
) -> R {
    let ctx = rw.ctx_ref();
    let loc = ctx.op_loc(op);
    let count = match ctx.get_attr(op, "count").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer(v, _)) => *v,
        _ => return Ok(false),
    };
    rw.set_insertion_point(op);
    let int = count_type(rw.ctx(), ed);
    let a = rw.ctx().int_attr(count, int);
    let c = create_value(rw, "arith.constant", loc, &[], int, &[("value", a)])?;
    let [operand] = operands[..] else {
        return Ok(false);
    };
    replace_with_call(rw, op, f, &[operand, c], no_results())
}

fn lower_add_ref(op: Op, operands: &[Value], rw: &mut ConversionRewriter, ed: Edition) -> R {
    lower_ref_counting(op, operands, rw, ADD_REF, ed)
}

fn lower_drop_ref(op: Op, operands: &[Value], rw: &mut ConversionRewriter, ed: Edition) -> R {
    lower_ref_counting(op, operands, rw, DROP_REF, ed)
}

// ----- coroutines -----

fn lower_coro_id(op: Op, _: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let loc = rw.ctx_ref().op_loc(op);
    rw.set_insertion_point(op);
    let ctx = rw.ctx();
    let (i32t, i8p, token) = (ctx.int_type(32), llvm::i8_pointer(ctx), llvm::token(ctx));
    let zero = llvm_constant(rw, loc, i32t, 0)?;
    let null = create_value(rw, "llvm.mlir.null", loc, &[], i8p, &[])?;
    let id = create_value(
        rw,
        "llvm.intr.coro.id",
        loc,
        &[zero, null, null, null],
        token,
        &[],
    )?;
    rw.replace_op(op, &[id])?;
    Ok(true)
}

fn lower_coro_begin(op: Op, operands: &[Value], rw: &mut ConversionRewriter, ed: Edition) -> R {
    let loc = rw.ctx_ref().op_loc(op);
    rw.set_insertion_point(op);
    let ctx = rw.ctx();
    let (i64t, i8p) = (ctx.int_type(64), llvm::i8_pointer(ctx));
    // The frame's size rounded up to its alignment, as `aligned_alloc`
    // requires.
    let size = create_value(rw, "llvm.intr.coro.size", loc, &[], i64t, &[])?;
    let [id] = operands[..] else {
        return Ok(false);
    };
    if ed == Edition::V13 {
        // LLVM 13 takes the frame from `malloc` (declared up front).
        let mem = llvm_call(rw, loc, "malloc", &[size], &[i8p])?;
        let mem = rw.ctx_ref().result(mem, 0);
        let begin = create_value(rw, "llvm.intr.coro.begin", loc, &[id, mem], i8p, &[])?;
        rw.replace_op(op, &[begin])?;
        return Ok(true);
    }
    let align = create_value(rw, "llvm.intr.coro.align", loc, &[], i64t, &[])?;
    let size = create_value(rw, "llvm.add", loc, &[size, align], i64t, &[])?;
    let one = llvm_constant(rw, loc, i64t, 1)?;
    let size = create_value(rw, "llvm.sub", loc, &[size, one], i64t, &[])?;
    let zero = llvm_constant(rw, loc, i64t, 0)?;
    let neg_align = create_value(rw, "llvm.sub", loc, &[zero, align], i64t, &[])?;
    let size = create_value(rw, "llvm.and", loc, &[size, neg_align], i64t, &[])?;
    if let Some(m) = module_of(rw.ctx_ref(), op) {
        lookup_or_create_llvm_fn(rw.ctx(), m, "aligned_alloc", i8p, &[i64t, i64t]);
    }
    let alloc = llvm_call(rw, loc, "aligned_alloc", &[align, size], &[i8p])?;
    let alloc = rw.ctx_ref().result(alloc, 0);
    let begin = create_value(rw, "llvm.intr.coro.begin", loc, &[id, alloc], i8p, &[])?;
    rw.replace_op(op, &[begin])?;
    Ok(true)
}

fn lower_coro_free(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let loc = rw.ctx_ref().op_loc(op);
    rw.set_insertion_point(op);
    let ctx = rw.ctx();
    let (i8p, void) = (llvm::i8_pointer(ctx), llvm::void(ctx));
    let mem = create_value(rw, "llvm.intr.coro.free", loc, operands, i8p, &[])?;
    if let Some(m) = module_of(rw.ctx_ref(), op) {
        lookup_or_create_llvm_fn(rw.ctx(), m, "free", void, &[i8p]);
    }
    llvm_call(rw, loc, "free", &[mem], &[])?;
    rw.replace_op(op, &[])?;
    Ok(true)
}

fn lower_coro_end(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let loc = rw.ctx_ref().op_loc(op);
    rw.set_insertion_point(op);
    let f = llvm_false(rw, loc)?;
    let [handle] = operands[..] else {
        return Ok(false);
    };
    let i1 = rw.ctx().int_type(1);
    create(rw, "llvm.intr.coro.end", loc, &[handle, f], &[i1], &[])?;
    rw.erase_op(op)?;
    Ok(true)
}

fn lower_coro_save(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let loc = rw.ctx_ref().op_loc(op);
    rw.set_insertion_point(op);
    let token = llvm::token(rw.ctx());
    let save = create_value(rw, "llvm.intr.coro.save", loc, operands, token, &[])?;
    rw.replace_op(op, &[save])?;
    Ok(true)
}

/// `async.coro.suspend %state, ^suspend, ^resume, ^cleanup` becomes the
/// suspend intrinsic and a switch on its result: 0 resumes, 1 cleans up,
/// anything else (-1) suspends.
fn lower_coro_suspend(op: Op, operands: &[Value], rw: &mut ConversionRewriter, _ed: Edition) -> R {
    let ctx = rw.ctx_ref();
    let loc = ctx.op_loc(op);
    let &[suspend, resume, cleanup] = ctx.successors(op) else {
        return Ok(false);
    };
    let [state] = operands[..] else {
        return Ok(false);
    };
    rw.set_insertion_point(op);
    let f = llvm_false(rw, loc)?;
    let ctx = rw.ctx();
    let (i8t, i32t) = (ctx.int_type(8), ctx.int_type(32));
    let s = create_value(rw, "llvm.intr.coro.suspend", loc, &[state, f], i8t, &[])?;
    let ext = create_value(rw, "llvm.sext", loc, &[s], i32t, &[])?;
    let ctx = rw.ctx();
    let case_values = dense_i32(ctx, &[0, 1], false);
    let case_segments = dense_i32(ctx, &[0, 0], true);
    let segments = mlir_async_dialects::util::segment_sizes(ctx, &[1, 0, 0]);
    let attrs = [
        (ctx.sym("case_operand_segments"), case_segments),
        (ctx.sym("case_values"), case_values),
        (ctx.sym("operand_segment_sizes"), segments),
    ];
    let name = ctx.sym("llvm.switch");
    let sw = ctx.create_op_from(
        name,
        loc,
        &[ext],
        &[],
        &attrs,
        &[],
        &[suspend, resume, cleanup],
    );
    ctx.insert_op(InsertPoint::Before(op), sw);
    rw.replace_op(op, &[])?;
    Ok(true)
}

/// A dense `i32` attribute of `vals`, a tensor or a vector.
fn dense_i32(ctx: &mut Context, vals: &[i128], tensor: bool) -> Attribute {
    let i32t = ctx.int_type(32);
    let shape = vals.len() as i64;
    let ty = if tensor {
        ctx.ty(TypeKind::Tensor {
            shape: vec![Some(shape)],
            elem: i32t,
            encoding: None,
        })
    } else {
        ctx.ty(TypeKind::Vector {
            shape: vec![shape],
            scalable: 0,
            elem: i32t,
        })
    };
    let splat = vals.len() > 1 && vals.iter().all(|&v| v == vals[0]);
    let elems = if splat {
        vec![DenseElem::Int(vals[0])]
    } else {
        vals.iter().map(|&v| DenseElem::Int(v)).collect()
    };
    ctx.attr(AttrKind::Dense(elems, ty, splat))
}
