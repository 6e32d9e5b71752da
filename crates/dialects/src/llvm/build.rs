//! Builders of the LLVM dialect's ops, for the conversions: each returns
//! the [`OperationState`] of one op, in the form the custom parser builds
//! (so it prints as mlir-opt prints the same op), to hand to
//! `Rewriter::create` or `Context::build`.

use super::ops::{gep_indices_attr, linkage_attr, GEP_DYNAMIC_INDEX};
use super::types as ty;
use crate::util::segment_sizes;
use mlir_async_ir::*;

fn state(ctx: &mut Context, name: &str, loc: Location) -> OperationState {
    OperationState::new(ctx.sym(name), loc)
}

fn with_attr(ctx: &mut Context, st: &mut OperationState, key: &str, a: Attribute) {
    let k = ctx.sym(key);
    st.attrs.push((k, a));
}

/// `llvm.func @name` of `func_type` (an `!llvm.func`) with `linkage`
/// (`"external"`, `"internal"`, ...). `with_body`: an entry block whose
/// arguments are the parameters; else an external declaration.
pub fn func(
    ctx: &mut Context,
    loc: Location,
    name: &str,
    func_type: Type,
    linkage: &str,
    with_body: bool,
) -> OperationState {
    let mut st = state(ctx, "llvm.func", loc);
    let n = ctx.string_attr(name);
    with_attr(ctx, &mut st, "sym_name", n);
    let t = ctx.type_attr(func_type);
    with_attr(ctx, &mut st, "function_type", t);
    let l = linkage_attr(ctx, linkage);
    with_attr(ctx, &mut st, "linkage", l);
    let r = ctx.create_region();
    if with_body {
        let params = ty::as_function(ctx, func_type)
            .map(|f| f.params.to_vec())
            .unwrap_or_default();
        let b = ctx.create_block(&params);
        ctx.append_block(r, b);
    }
    st.regions.push(r);
    st
}

/// `llvm.mlir.global linkage constant? @name(value) : ty`, without an
/// initializer region.
pub fn global(
    ctx: &mut Context,
    loc: Location,
    name: &str,
    global_type: Type,
    linkage: &str,
    constant: bool,
    value: Option<Attribute>,
) -> OperationState {
    let mut st = state(ctx, "llvm.mlir.global", loc);
    let l = linkage_attr(ctx, linkage);
    with_attr(ctx, &mut st, "linkage", l);
    let i64t = ctx.int_type(64);
    let u = ctx.int_attr(0, i64t);
    with_attr(ctx, &mut st, "unnamed_addr", u);
    if constant {
        let u = ctx.unit_attr();
        with_attr(ctx, &mut st, "constant", u);
    }
    let n = ctx.string_attr(name);
    with_attr(ctx, &mut st, "sym_name", n);
    if let Some(v) = value {
        with_attr(ctx, &mut st, "value", v);
    }
    let t = ctx.type_attr(global_type);
    with_attr(ctx, &mut st, "global_type", t);
    let r = ctx.create_region();
    st.regions.push(r);
    st
}

/// `llvm.mlir.constant(value) : ty`.
pub fn constant(
    ctx: &mut Context,
    loc: Location,
    value: Attribute,
    result: Type,
) -> OperationState {
    let mut st = state(ctx, "llvm.mlir.constant", loc);
    with_attr(ctx, &mut st, "value", value);
    st.result_types.push(result);
    st
}

/// `llvm.mlir.constant(v : ty) : ty` of an integer type.
pub fn int_constant(ctx: &mut Context, loc: Location, v: i128, int_type: Type) -> OperationState {
    let a = ctx.int_attr(v, int_type);
    constant(ctx, loc, a, int_type)
}

/// `llvm.mlir.undef : ty`.
pub fn undef(ctx: &mut Context, loc: Location, result: Type) -> OperationState {
    let mut st = state(ctx, "llvm.mlir.undef", loc);
    st.result_types.push(result);
    st
}

/// `llvm.mlir.null : ty` (a pointer type).
pub fn null(ctx: &mut Context, loc: Location, result: Type) -> OperationState {
    let mut st = state(ctx, "llvm.mlir.null", loc);
    st.result_types.push(result);
    st
}

/// `llvm.mlir.addressof @name : ty`.
pub fn addressof(ctx: &mut Context, loc: Location, name: &str, result: Type) -> OperationState {
    let mut st = state(ctx, "llvm.mlir.addressof", loc);
    let s = ctx.sym(name);
    let a = ctx.attr(AttrKind::SymbolRef(s, vec![]));
    with_attr(ctx, &mut st, "global_name", a);
    st.result_types.push(result);
    st
}

/// `llvm.call @callee(args) : (...) -> result`.
pub fn call(
    ctx: &mut Context,
    loc: Location,
    callee: &str,
    args: &[Value],
    result: Option<Type>,
) -> OperationState {
    let mut st = state(ctx, "llvm.call", loc);
    let s = ctx.sym(callee);
    let a = ctx.attr(AttrKind::SymbolRef(s, vec![]));
    with_attr(ctx, &mut st, "callee", a);
    st.operands = args.to_vec();
    st.result_types.extend(result);
    st
}

/// `llvm.call %callee(args)`: `callee` a pointer to an `!llvm.func`.
pub fn call_indirect(
    ctx: &mut Context,
    loc: Location,
    callee: Value,
    args: &[Value],
    result: Option<Type>,
) -> OperationState {
    let mut st = state(ctx, "llvm.call", loc);
    st.operands.push(callee);
    st.operands.extend_from_slice(args);
    st.result_types.extend(result);
    st
}

fn position_attr(ctx: &mut Context, position: &[i64]) -> Attribute {
    let i64t = ctx.int_type(64);
    let xs = position
        .iter()
        .map(|&p| ctx.int_attr(p as i128, i64t))
        .collect();
    ctx.attr(AttrKind::Array(xs))
}

/// The type at `position` in an LLVM struct or array type.
pub fn element_type(ctx: &Context, container: Type, position: &[i64]) -> Option<Type> {
    let mut t = container;
    for &p in position {
        t = match ty::classify(ctx, t)? {
            ty::LlvmType::Struct(s) => *s.elements().get(usize::try_from(p).ok()?)?,
            ty::LlvmType::Array { element, count } if (p as u64) < count => element,
            _ => return None,
        };
    }
    Some(t)
}

/// `llvm.insertvalue value, container[position]`.
pub fn insertvalue(
    ctx: &mut Context,
    loc: Location,
    container: Value,
    value: Value,
    position: &[i64],
) -> OperationState {
    let mut st = state(ctx, "llvm.insertvalue", loc);
    let a = position_attr(ctx, position);
    with_attr(ctx, &mut st, "position", a);
    st.operands = vec![container, value];
    st.result_types.push(ctx.value_type(container));
    st
}

/// `llvm.extractvalue container[position]`; `None` when `position` is not
/// inside the container's type.
pub fn extractvalue(
    ctx: &mut Context,
    loc: Location,
    container: Value,
    position: &[i64],
) -> Option<OperationState> {
    let t = element_type(ctx, ctx.value_type(container), position)?;
    let mut st = state(ctx, "llvm.extractvalue", loc);
    let a = position_attr(ctx, position);
    with_attr(ctx, &mut st, "position", a);
    st.operands.push(container);
    st.result_types.push(t);
    Some(st)
}

/// An index of `llvm.getelementptr`.
#[derive(Clone, Copy, Debug)]
pub enum GepIndex {
    Value(Value),
    Const(i32),
}

/// `llvm.getelementptr base[indices] : (...) -> result`. Struct fields
/// must be indexed by constants.
pub fn gep(
    ctx: &mut Context,
    loc: Location,
    result: Type,
    base: Value,
    indices: &[GepIndex],
) -> OperationState {
    let mut st = state(ctx, "llvm.getelementptr", loc);
    st.operands.push(base);
    let mut raw = vec![];
    for i in indices {
        match *i {
            GepIndex::Value(v) => {
                st.operands.push(v);
                raw.push(GEP_DYNAMIC_INDEX);
            }
            GepIndex::Const(c) => raw.push(c),
        }
    }
    let a = gep_indices_attr(ctx, &raw);
    with_attr(ctx, &mut st, "structIndices", a);
    st.result_types.push(result);
    st
}

/// `llvm.load addr` of a typed pointer.
pub fn load(ctx: &mut Context, loc: Location, addr: Value) -> OperationState {
    let mut st = state(ctx, "llvm.load", loc);
    let t = ctx.value_type(addr);
    st.operands.push(addr);
    st.result_types.extend(ty::pointee(ctx, t));
    st
}

/// `llvm.store value, addr`.
pub fn store(ctx: &mut Context, loc: Location, value: Value, addr: Value) -> OperationState {
    let mut st = state(ctx, "llvm.store", loc);
    st.operands = vec![value, addr];
    st
}

/// `llvm.alloca count x T : (...) -> result` (`result` a pointer to T);
/// `alignment` 0 is none.
pub fn alloca(
    ctx: &mut Context,
    loc: Location,
    result: Type,
    count: Value,
    alignment: u64,
) -> OperationState {
    let mut st = state(ctx, "llvm.alloca", loc);
    if alignment != 0 {
        let i64t = ctx.int_type(64);
        let a = ctx.int_attr(alignment as i128, i64t);
        with_attr(ctx, &mut st, "alignment", a);
    }
    st.operands.push(count);
    st.result_types.push(result);
    st
}

/// A cast (`"llvm.bitcast"`, `"llvm.ptrtoint"`, `"llvm.sext"`, ...).
pub fn cast(
    ctx: &mut Context,
    loc: Location,
    name: &str,
    value: Value,
    to: Type,
) -> OperationState {
    let mut st = state(ctx, name, loc);
    st.operands.push(value);
    st.result_types.push(to);
    st
}

/// A binary op of one type (`"llvm.add"`, `"llvm.fmul"`, ...).
pub fn binary(
    ctx: &mut Context,
    loc: Location,
    name: &str,
    lhs: Value,
    rhs: Value,
) -> OperationState {
    let mut st = state(ctx, name, loc);
    st.operands = vec![lhs, rhs];
    st.result_types.push(ctx.value_type(lhs));
    st
}

/// `llvm.icmp "predicate" lhs, rhs`; `None` for an unknown predicate.
pub fn icmp(
    ctx: &mut Context,
    loc: Location,
    predicate: &str,
    lhs: Value,
    rhs: Value,
) -> Option<OperationState> {
    let p = super::ops::ICMP_PREDICATES
        .iter()
        .position(|&n| n == predicate)?;
    let mut st = state(ctx, "llvm.icmp", loc);
    let i64t = ctx.int_type(64);
    let a = ctx.int_attr(p as i128, i64t);
    with_attr(ctx, &mut st, "predicate", a);
    st.operands = vec![lhs, rhs];
    st.result_types.push(ctx.int_type(1));
    Some(st)
}

/// `llvm.select cond, a, b`.
pub fn select(ctx: &mut Context, loc: Location, cond: Value, a: Value, b: Value) -> OperationState {
    let mut st = state(ctx, "llvm.select", loc);
    st.operands = vec![cond, a, b];
    st.result_types.push(ctx.value_type(a));
    st
}

/// `llvm.br ^dest(args)`.
pub fn br(ctx: &mut Context, loc: Location, dest: Block, args: &[Value]) -> OperationState {
    let mut st = state(ctx, "llvm.br", loc);
    st.operands = args.to_vec();
    st.successors.push(dest);
    st
}

/// `llvm.cond_br cond, ^t(targs), ^f(fargs)`.
pub fn cond_br(
    ctx: &mut Context,
    loc: Location,
    cond: Value,
    (t, targs): (Block, &[Value]),
    (f, fargs): (Block, &[Value]),
) -> OperationState {
    let mut st = state(ctx, "llvm.cond_br", loc);
    let seg = segment_sizes(ctx, &[1, targs.len(), fargs.len()]);
    with_attr(ctx, &mut st, "operand_segment_sizes", seg);
    st.operands.push(cond);
    st.operands.extend_from_slice(targs);
    st.operands.extend_from_slice(fargs);
    st.successors = vec![t, f];
    st
}

/// `llvm.return value?`.
pub fn ret(ctx: &mut Context, loc: Location, value: Option<Value>) -> OperationState {
    let mut st = state(ctx, "llvm.return", loc);
    st.operands.extend(value);
    st
}

/// `llvm.unreachable`.
pub fn unreachable(ctx: &mut Context, loc: Location) -> OperationState {
    state(ctx, "llvm.unreachable", loc)
}

/// `llvm.intr.<name>` (`"coro.id"`, `"coro.suspend"`, `"memcpy"`, ...).
pub fn intrinsic(
    ctx: &mut Context,
    loc: Location,
    name: &str,
    operands: &[Value],
    result: Option<Type>,
) -> OperationState {
    let mut st = state(ctx, &format!("llvm.intr.{name}"), loc);
    st.operands = operands.to_vec();
    st.result_types.extend(result);
    st
}
