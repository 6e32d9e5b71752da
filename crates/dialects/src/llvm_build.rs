//! Typed builders of LLVM dialect ops over any [`Builder`], creating each
//! op in the stored form the LLVM dialect reads and prints (LLVM 15's
//! attribute names, see `llvm::ops`) and with exactly the attributes
//! MLIR's C++ builders give it: a lowering's output is compared with
//! mlir-opt's byte for byte, generic form included, so `llvm.fcmp` gets
//! its default `fastmathFlags` (MLIR's ODS builder adds it) while an
//! `llvm.fadd` made from another op's attributes does not.

use crate::llvm::types as llvm;
use mlir_async_ir::{AttrKind, Attribute, Block, Context, DenseElem, Location, Op, Type, TypeKind};
use mlir_async_ir::{OperationState, Region, Value};
use mlir_async_rewrite::{Builder, RewriteError};

type R = Result<Value, RewriteError>;

/// `llvm.getelementptr`'s marker of an index given by an operand (MLIR's
/// `GEPOp::kDynamicIndex`).
pub const GEP_DYNAMIC: i32 = i32::MIN;

fn one_result(b: &mut dyn Builder, op: Op) -> Value {
    b.context().result(op, 0)
}

fn make(
    b: &mut dyn Builder,
    name: &str,
    loc: Location,
    operands: &[Value],
    results: &[Type],
    attrs: &[(&str, Attribute)],
) -> Result<Op, RewriteError> {
    let ctx = b.context();
    let name = ctx.sym(name);
    let mut attrs: Vec<_> = attrs.iter().map(|&(k, a)| (ctx.sym(k), a)).collect();
    ctx.sort_attrs(&mut attrs);
    b.build_op(name, loc, operands, results, &attrs)
}

/// An op with one result from its parts.
pub fn op1(
    b: &mut dyn Builder,
    name: &str,
    loc: Location,
    operands: &[Value],
    result: Type,
    attrs: &[(&str, Attribute)],
) -> R {
    let op = make(b, name, loc, operands, &[result], attrs)?;
    Ok(one_result(b, op))
}

/// `llvm.mlir.constant` of `value` as a `ty`.
pub fn constant(b: &mut dyn Builder, loc: Location, ty: Type, value: Attribute) -> R {
    op1(b, "llvm.mlir.constant", loc, &[], ty, &[("value", value)])
}

/// `llvm.mlir.constant(v : index) : ty`: MLIR's `createIndexAttrConstant`,
/// the attribute typed `index` whatever `ty` is.
pub fn index_constant(b: &mut dyn Builder, loc: Location, ty: Type, v: i64) -> R {
    let ctx = b.context();
    let index = ctx.index_type();
    let a = ctx.int_attr(i128::from(v), index);
    constant(b, loc, ty, a)
}

/// `llvm.mlir.constant(v : ty) : ty` of an integer type.
pub fn int_constant(b: &mut dyn Builder, loc: Location, ty: Type, v: i64) -> R {
    let a = b.context().int_attr(i128::from(v), ty);
    constant(b, loc, ty, a)
}

/// `llvm.mlir.constant(false) : i1` (a `BoolAttr`).
pub fn bool_constant(b: &mut dyn Builder, loc: Location, v: bool) -> R {
    let ctx = b.context();
    let a = ctx.attr(AttrKind::Bool(v));
    let i1 = ctx.int_type(1);
    constant(b, loc, i1, a)
}

pub fn undef(b: &mut dyn Builder, loc: Location, ty: Type) -> R {
    op1(b, "llvm.mlir.undef", loc, &[], ty, &[])
}

pub fn null(b: &mut dyn Builder, loc: Location, ty: Type) -> R {
    op1(b, "llvm.mlir.null", loc, &[], ty, &[])
}

/// The `position` attribute of `insertvalue`/`extractvalue`: an array of
/// `i64` integers.
pub fn position_attr(ctx: &mut Context, pos: &[i64]) -> Attribute {
    let i64t = ctx.int_type(64);
    let elems = pos
        .iter()
        .map(|&p| ctx.int_attr(i128::from(p), i64t))
        .collect();
    ctx.attr(AttrKind::Array(elems))
}

/// The type at `pos` inside an LLVM struct or array (or a builtin vector
/// array element), `None` if there is none.
pub fn element_type_at(ctx: &Context, mut t: Type, pos: &[i64]) -> Option<Type> {
    for &p in pos {
        t = if let Some(s) = llvm::as_struct(ctx, t) {
            *s.body?.get(usize::try_from(p).ok()?)?
        } else if let Some((e, _)) = llvm::as_array(ctx, t) {
            e
        } else {
            return None;
        };
    }
    Some(t)
}

pub fn insert_value(
    b: &mut dyn Builder,
    loc: Location,
    container: Value,
    value: Value,
    pos: &[i64],
) -> R {
    let ctx = b.context();
    let ty = ctx.value_type(container);
    let p = position_attr(ctx, pos);
    op1(
        b,
        "llvm.insertvalue",
        loc,
        &[container, value],
        ty,
        &[("position", p)],
    )
}

pub fn extract_value(b: &mut dyn Builder, loc: Location, container: Value, pos: &[i64]) -> R {
    let ctx = b.context();
    let ct = ctx.value_type(container);
    let ty = element_type_at(ctx, ct, pos)
        .ok_or_else(|| RewriteError::at(loc, "'llvm.extractvalue' position out of bounds"))?;
    let p = position_attr(ctx, pos);
    op1(
        b,
        "llvm.extractvalue",
        loc,
        &[container],
        ty,
        &[("position", p)],
    )
}

/// The `structIndices` attribute: `dense<...> : tensor<Nxi32>`.
pub fn gep_indices_attr(ctx: &mut Context, indices: &[i32]) -> Attribute {
    let i32t = ctx.int_type(32);
    let t = ctx.ty(TypeKind::Tensor {
        shape: vec![Some(indices.len() as i64)],
        elem: i32t,
        encoding: None,
    });
    let splat = indices.iter().all(|&v| v == indices[0]);
    let elems = if splat {
        indices
            .first()
            .map(|&v| DenseElem::Int(i128::from(v)))
            .into_iter()
            .collect()
    } else {
        indices
            .iter()
            .map(|&v| DenseElem::Int(i128::from(v)))
            .collect()
    };
    ctx.attr(AttrKind::Dense(elems, t, splat))
}

/// The integer an `llvm.mlir.constant` (or `arith.constant`) defines.
fn constant_int(ctx: &Context, v: Value) -> Option<i64> {
    let def = ctx.defining_op(v)?;
    if !matches!(ctx.name(def), "llvm.mlir.constant" | "arith.constant") {
        return None;
    }
    match ctx.attr_kind(ctx.get_attr(def, "value")?) {
        AttrKind::Integer(v, _) => i64::try_from(*v).ok(),
        AttrKind::Bool(b) => Some(i64::from(*b)),
        _ => None,
    }
}

/// `llvm.getelementptr` with every index an operand, as MLIR's builder
/// makes it: an index into a struct must be a constant and becomes a
/// static entry of `structIndices`, its operand dropped (LLVM 14 and 15;
/// `refine_struct_indices: false` keeps every operand, as 13 does).
pub fn gep(
    b: &mut dyn Builder,
    loc: Location,
    result: Type,
    base: Value,
    indices: &[Value],
    refine_struct_indices: bool,
) -> R {
    let ctx = b.context();
    let mut structure = vec![GEP_DYNAMIC; indices.len()];
    let mut operands = vec![base];
    if let Some(&first) = indices.first() {
        operands.push(first);
    }
    let base_ty = ctx.value_type(base);
    let mut t = llvm::pointee(ctx, base_ty);
    for (i, &idx) in indices.iter().enumerate().skip(1) {
        let Some(cur) = t else {
            operands.push(idx);
            continue;
        };
        if let Some(s) = llvm::as_struct(ctx, cur) {
            let k = if refine_struct_indices {
                constant_int(ctx, idx)
            } else {
                None
            };
            match k {
                Some(k) => {
                    structure[i] = k as i32;
                    t = s.body.and_then(|b| b.get(k as usize).copied());
                }
                None => {
                    operands.push(idx);
                    t = None;
                }
            }
        } else if let Some((e, _)) = llvm::as_array(ctx, cur) {
            operands.push(idx);
            t = Some(e);
        } else if let TypeKind::Vector { elem, .. } = ctx.kind(cur) {
            let e = *elem;
            operands.push(idx);
            t = Some(e);
        } else {
            operands.push(idx);
            t = None;
        }
    }
    let a = gep_indices_attr(ctx, &structure);
    op1(
        b,
        "llvm.getelementptr",
        loc,
        &operands,
        result,
        &[("structIndices", a)],
    )
}

/// `llvm.load` of the pointee of `ptr`.
pub fn load(b: &mut dyn Builder, loc: Location, ptr: Value) -> R {
    let ctx = b.context();
    let pt = ctx.value_type(ptr);
    let ty = llvm::pointee(ctx, pt)
        .ok_or_else(|| RewriteError::at(loc, "'llvm.load' of an opaque pointer"))?;
    op1(b, "llvm.load", loc, &[ptr], ty, &[])
}

/// `llvm.atomicrmw` with `bin_op` and `ordering` named as the op prints them.
pub fn atomicrmw(
    b: &mut dyn Builder,
    loc: Location,
    bin_op: &str,
    ptr: Value,
    value: Value,
    ordering: &str,
) -> R {
    let index = |table: &[&str], name: &str| {
        table
            .iter()
            .position(|&n| !n.is_empty() && n == name)
            .ok_or_else(|| RewriteError::at(loc, format!("no LLVM atomic '{name}'")))
    };
    let (op_i, ord_i) = (
        index(crate::llvm::ops::ATOMIC_BIN_OPS, bin_op)?,
        index(crate::llvm::ops::ATOMIC_ORDERINGS, ordering)?,
    );
    let ctx = b.context();
    let ty = ctx.value_type(value);
    let i64t = ctx.int_type(64);
    let (bin_op, ordering) = (
        ctx.int_attr(op_i as i128, i64t),
        ctx.int_attr(ord_i as i128, i64t),
    );
    op1(
        b,
        "llvm.atomicrmw",
        loc,
        &[ptr, value],
        ty,
        &[("bin_op", bin_op), ("ordering", ordering)],
    )
}

/// `llvm.cmpxchg ptr, cmp, value` with its two orderings: a `{T, i1}`
/// of the value found and whether it was swapped.
pub fn cmpxchg(
    b: &mut dyn Builder,
    loc: Location,
    ptr: Value,
    cmp: Value,
    value: Value,
    success: &str,
    failure: &str,
) -> R {
    let index = |name: &str| {
        crate::llvm::ops::ATOMIC_ORDERINGS
            .iter()
            .position(|&n| !n.is_empty() && n == name)
            .ok_or_else(|| RewriteError::at(loc, format!("no LLVM atomic ordering '{name}'")))
    };
    let (s, f) = (index(success)?, index(failure)?);
    let ctx = b.context();
    let ty = ctx.value_type(value);
    let i1 = ctx.int_type(1);
    let pair = crate::llvm::types::literal_struct(ctx, &[ty, i1], false);
    let i64t = ctx.int_type(64);
    let (s, f) = (ctx.int_attr(s as i128, i64t), ctx.int_attr(f as i128, i64t));
    op1(
        b,
        "llvm.cmpxchg",
        loc,
        &[ptr, cmp, value],
        pair,
        &[("failure_ordering", f), ("success_ordering", s)],
    )
}

pub fn store(
    b: &mut dyn Builder,
    loc: Location,
    value: Value,
    ptr: Value,
) -> Result<Op, RewriteError> {
    make(b, "llvm.store", loc, &[value, ptr], &[], &[])
}

/// `llvm.alloca` of `size` elements; an `alignment` of 0 is left out.
pub fn alloca(b: &mut dyn Builder, loc: Location, result: Type, size: Value, alignment: u64) -> R {
    if alignment == 0 {
        return op1(b, "llvm.alloca", loc, &[size], result, &[]);
    }
    let ctx = b.context();
    let i64t = ctx.int_type(64);
    let a = ctx.int_attr(i128::from(alignment), i64t);
    op1(b, "llvm.alloca", loc, &[size], result, &[("alignment", a)])
}

/// A cast op (`llvm.bitcast`, `llvm.ptrtoint`, ...) of `v` to `ty`.
pub fn cast(b: &mut dyn Builder, name: &str, loc: Location, ty: Type, v: Value) -> R {
    op1(b, name, loc, &[v], ty, &[])
}

/// A binary op whose result has its operands' type (`llvm.add`, ...).
pub fn binary(b: &mut dyn Builder, name: &str, loc: Location, x: Value, y: Value) -> R {
    let ty = b.context().value_type(x);
    op1(b, name, loc, &[x, y], ty, &[])
}

/// The predicates of `llvm.icmp`, by stored value.
pub const ICMP: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

/// `llvm.icmp` with predicate `pred`, as the typed builder makes it.
pub fn icmp(b: &mut dyn Builder, loc: Location, pred: &str, x: Value, y: Value) -> R {
    let p = ICMP.iter().position(|&p| p == pred).unwrap_or(0);
    let ctx = b.context();
    let i64t = ctx.int_type(64);
    let a = ctx.int_attr(p as i128, i64t);
    let i1 = ctx.int_type(1);
    op1(b, "llvm.icmp", loc, &[x, y], i1, &[("predicate", a)])
}

/// A direct `llvm.call` of `callee` returning `results`.
pub fn call(
    b: &mut dyn Builder,
    loc: Location,
    callee: &str,
    results: &[Type],
    args: &[Value],
) -> Result<Op, RewriteError> {
    let ctx = b.context();
    let s = ctx.sym(callee);
    let a = ctx.attr(AttrKind::SymbolRef(s, vec![]));
    make(b, "llvm.call", loc, args, results, &[("callee", a)])
}

/// A direct `llvm.call` as MLIR's ODS builder from a callee attribute
/// makes it: with the default `fastmathFlags` (`createLLVMCall` and the
/// `free` of `memref.dealloc`; the builder from an `LLVMFuncOp` adds none).
pub fn call_fmf(
    b: &mut dyn Builder,
    loc: Location,
    callee: &str,
    results: &[Type],
    args: &[Value],
) -> Result<Op, RewriteError> {
    let ctx = b.context();
    let s = ctx.sym(callee);
    let a = ctx.attr(AttrKind::SymbolRef(s, vec![]));
    let f = ctx.attr(AttrKind::Opaque("#llvm.fastmath<>".into()));
    make(
        b,
        "llvm.call",
        loc,
        args,
        results,
        &[("callee", a), ("fastmathFlags", f)],
    )
}

pub fn ret(b: &mut dyn Builder, loc: Location, vals: &[Value]) -> Result<Op, RewriteError> {
    make(b, "llvm.return", loc, vals, &[], &[])
}

/// `llvm.br` to `dest` with `args`.
pub fn br(
    b: &mut dyn Builder,
    loc: Location,
    dest: Block,
    args: &[Value],
) -> Result<Op, RewriteError> {
    let ctx = b.context();
    let mut st = OperationState::new(ctx.sym("llvm.br"), loc);
    st.operands = args.to_vec();
    st.successors = vec![dest];
    b.build(st)
}

/// `llvm.cond_br` with its operand segments.
pub fn cond_br(
    b: &mut dyn Builder,
    loc: Location,
    cond: Value,
    t: Block,
    t_args: &[Value],
    f: Block,
    f_args: &[Value],
) -> Result<Op, RewriteError> {
    let ctx = b.context();
    let seg = crate::util::segment_sizes(ctx, &[1, t_args.len(), f_args.len()]);
    let mut st = OperationState::new(ctx.sym("llvm.cond_br"), loc);
    st.operands = [&[cond][..], t_args, f_args].concat();
    st.successors = vec![t, f];
    st.attrs = vec![(ctx.sym("operand_segment_sizes"), seg)];
    b.build(st)
}

/// The `#llvm.linkage<...>` attribute.
pub fn linkage_attr(ctx: &mut Context, linkage: &str) -> Attribute {
    ctx.attr(AttrKind::Opaque(format!("#llvm.linkage<{linkage}>")))
}

/// `llvm.func @name` of LLVM function type `ty`, with `linkage` and the
/// further attributes `attrs` (sorted into place), as `LLVMFuncOp::build`
/// makes it; its body region is empty (an external function) until
/// blocks are added.
pub fn func(
    b: &mut dyn Builder,
    loc: Location,
    name: &str,
    ty: Type,
    linkage: &str,
    attrs: &[(mlir_async_ir::Symbol, Attribute)],
) -> Result<Op, RewriteError> {
    let ctx = b.context();
    let mut st = OperationState::new(ctx.sym("llvm.func"), loc);
    let l = linkage_attr(ctx, linkage);
    let n = ctx.string_attr(name);
    let t = ctx.type_attr(ty);
    st.attrs = vec![
        (ctx.sym("linkage"), l),
        (ctx.sym("sym_name"), n),
        (ctx.sym("function_type"), t),
    ];
    for &(k, v) in attrs {
        match st.attrs.iter_mut().find(|e| e.0 == k) {
            Some(e) => e.1 = v,
            None => st.attrs.push((k, v)),
        }
    }
    ctx.sort_attrs(&mut st.attrs);
    let region: Region = ctx.create_region();
    st.regions = vec![region];
    b.build(st)
}

/// Adds the entry block of an `llvm.func` with arguments of its
/// parameter types, at the function's location (MLIR's `addEntryBlock`).
pub fn add_entry_block(ctx: &mut Context, f: Op) -> Option<Block> {
    let ft = match ctx.attr_kind(ctx.get_attr(f, "function_type")?) {
        AttrKind::Type(t) => *t,
        _ => return None,
    };
    let params = llvm::as_function(ctx, ft)?.params.to_vec();
    let region = *ctx.regions_of(f).first()?;
    let blk = ctx.create_block(&params);
    let loc = ctx.op_loc(f);
    for a in ctx.block_args(blk).to_vec() {
        ctx.set_value_loc(a, loc);
    }
    ctx.append_block(region, blk);
    Some(blk)
}
