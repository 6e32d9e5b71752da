//! `-convert-std-to-llvm` (LLVM 13, 14), `-convert-func-to-llvm` and
//! `-convert-cf-to-llvm` (15), as upstream's `StandardToLLVM`,
//! `FuncToLLVM` and `ControlFlowToLLVM`: functions become `llvm.func`
//! with memref arguments expanded into their descriptor fields (and, with
//! `llvm.emit_c_interface`, a `_mlir_ciface_` wrapper taking descriptors
//! by pointer), calls and returns pack several results into a struct,
//! branches become LLVM branches, `cf.assert` a call to `abort`. The
//! std/func pass also runs the `arith` lowering (and, in 15, the `cf`
//! one), in one partial conversion of the module, which then gets its
//! `llvm.data_layout`.

use crate::arith_to_llvm::{self, INDEX_BITWIDTH};
use crate::llvm_common::{
    convert_function_signature, convert_function_type_c_wrapper, copy_unranked_descriptors, desc,
    llvm_target, pack_function_results, promote_operands, types_of, unranked, LowerToLlvmOptions,
    Lowering,
};
use crate::{OptionKind, Pass, PassContext, PassInfo, PassOption};
use mlir_async_dialects::builtin::func_type;
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_dialects::llvm::types as llvm;
use mlir_async_dialects::llvm_build as lb;
use mlir_async_ir::{AttrKind, Attribute, IrError, Op, Symbol, Type, TypeKind, Value};
use mlir_async_rewrite::conversion::UNREALIZED_CAST;
use mlir_async_rewrite::{
    apply_partial_conversion, ConversionPatternSet, ConversionRewriter, RewriteError,
};
use mlir_async_syntax::Edition;
use std::rc::Rc;

type R = Result<bool, RewriteError>;

const EMIT_C_WRAPPERS: PassOption = PassOption::new(
    "emit-c-wrappers",
    OptionKind::Bool,
    "false",
    "Emit wrappers for C-compatible pointer-to-struct memref descriptors",
);
const DATA_LAYOUT: PassOption = PassOption::new(
    "data-layout",
    OptionKind::StringList,
    "",
    "String description (LLVM format) of the data layout that is expected on the produced module",
);

pub fn info_std() -> PassInfo {
    PassInfo {
        arg: "convert-std-to-llvm",
        summary: "Convert scalar and vector operations from the Standard to the LLVM dialect",
        options: &[DATA_LAYOUT, EMIT_C_WRAPPERS, INDEX_BITWIDTH],
        anchor: "builtin.module",
        make: |o| {
            let mut opts = arith_to_llvm::options_from(o);
            opts.emit_c_wrappers = o.bool("emit-c-wrappers");
            Ok(Box::new(FuncToLlvm {
                kind: Kind::Std,
                opts,
                data_layout: o.list("data-layout").join(","),
            }))
        },
    }
}

pub fn info_func() -> PassInfo {
    PassInfo {
        arg: "convert-func-to-llvm",
        summary: "Convert from the Func dialect to the LLVM dialect",
        options: &[DATA_LAYOUT, INDEX_BITWIDTH],
        anchor: "builtin.module",
        make: |o| {
            Ok(Box::new(FuncToLlvm {
                kind: Kind::Func,
                opts: arith_to_llvm::options_from(o),
                data_layout: o.list("data-layout").join(","),
            }))
        },
    }
}

pub fn info_cf() -> PassInfo {
    PassInfo {
        arg: "convert-cf-to-llvm",
        summary: "Convert ControlFlow operations to the LLVM dialect",
        options: &[INDEX_BITWIDTH],
        anchor: "",
        make: |o| {
            Ok(Box::new(FuncToLlvm {
                kind: Kind::Cf,
                opts: arith_to_llvm::options_from(o),
                data_layout: String::new(),
            }))
        },
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Std,
    Func,
    Cf,
}

pub struct FuncToLlvm {
    kind: Kind,
    opts: LowerToLlvmOptions,
    data_layout: String,
}

impl Pass for FuncToLlvm {
    fn name(&self) -> &'static str {
        match self.kind {
            Kind::Std => "convert-std-to-llvm",
            Kind::Func => "convert-func-to-llvm",
            Kind::Cf => "convert-cf-to-llvm",
        }
    }
    fn display_name(&self) -> &'static str {
        match self.kind {
            Kind::Std => "ConvertStandardToLLVM",
            Kind::Func => "ConvertFuncToLLVM",
            Kind::Cf => "ConvertControlFlowToLLVM",
        }
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let l = Lowering::new(self.opts, pc.edition);
        let mut patterns = ConversionPatternSet::new();
        match self.kind {
            Kind::Cf => populate_cf(&l, &mut patterns),
            Kind::Func => {
                populate_func(&l, &mut patterns);
                arith_to_llvm::populate(&l, &mut patterns);
                populate_cf(&l, &mut patterns);
            }
            Kind::Std => {
                populate_func(&l, &mut patterns);
                populate_cf(&l, &mut patterns);
                arith_to_llvm::add_select(&l, &mut patterns);
                arith_to_llvm::populate(&l, &mut patterns);
            }
        }
        let mut target = llvm_target();
        if pc.edition == Edition::V13 && self.kind == Kind::Std {
            crate::memref_to_llvm::populate_std_13(&l, &mut patterns);
            // 13 had no -reconcile-unrealized-casts: this pass removed the
            // casts whose two sides convert to the same type.
            l.add(
                &mut patterns,
                UNREALIZED_CAST,
                "UnrealizedConversionCastOpLowering",
                unrealized_cast,
            );
            target.add_illegal_op(UNREALIZED_CAST);
        }
        let ifaces = Interfaces::new(pc.registry, pc.edition);
        apply_partial_conversion(
            pc.ctx,
            op,
            &target,
            &patterns,
            Some(l.conv.clone()),
            &ifaces,
        )
        .map_err(|e| e.into_ir_error(pc.ctx))?;
        if self.kind != Kind::Cf {
            let dl = pc.ctx.string_attr(&self.data_layout);
            pc.ctx.set_attr(op, "llvm.data_layout", dl);
        }
        Ok(())
    }
}

/// The function, call, return and constant lowerings (MLIR's
/// `populateFuncToLLVMConversionPatterns`).
pub fn populate_func(l: &Rc<Lowering>, set: &mut ConversionPatternSet) {
    l.add(set, "func.func", "FuncOpConversion", func_op);
    l.add(set, "func.call", "CallOpLowering", call);
    l.add(set, "func.call_indirect", "CallIndirectOpLowering", call);
    l.add(set, "func.constant", "ConstantOpLowering", constant);
    l.add(set, "func.return", "ReturnOpLowering", ret);
}

/// The branch and assert lowerings (MLIR's
/// `populateControlFlowToLLVMConversionPatterns`).
pub fn populate_cf(l: &Rc<Lowering>, set: &mut ConversionPatternSet) {
    l.add(set, "cf.assert", "AssertOpLowering", assert);
    l.add(set, "cf.br", "BranchOpLowering", branch);
    l.add(set, "cf.cond_br", "CondBranchOpLowering", branch);
    l.add(set, "cf.switch", "SwitchOpLowering", branch);
}

/// The attributes `llvm.func` does not take over from a function: its
/// name, type and varargs flag, and (for the function itself, whose
/// arguments change) its argument and result attributes.
fn filter_func_attributes(
    l: &Lowering,
    ctx: &mut mlir_async_ir::Context,
    f: Op,
    filter_arg_attrs: bool,
) -> Vec<(Symbol, Attribute)> {
    let varargs = if l.edition == Edition::V15 {
        "func.varargs"
    } else {
        "std.varargs"
    };
    ctx.attrs(f)
        .iter()
        .filter(|(k, _)| {
            let k = ctx.str(*k);
            !(k == "sym_name"
                || k == "function_type"
                || k == varargs
                || (filter_arg_attrs
                    && (k == "arg_attrs" || (l.edition == Edition::V15 && k == "res_attrs"))))
        })
        .copied()
        .collect()
}

fn func_op(l: &Lowering, f: Op, _: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let (ins, outs) = func_type(ctx, f);
    let varargs = if l.edition == Edition::V15 {
        "func.varargs"
    } else {
        "std.varargs"
    };
    let vararg = ctx
        .get_attr(f, varargs)
        .is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::Bool(true)));
    let Some((llvm_ty, sig)) =
        convert_function_signature(&l.conv, ctx, l.opts, &ins, &outs, vararg)
    else {
        return Ok(false);
    };
    let loc = ctx.op_loc(f);
    let name = ctx.symbol_name(f).unwrap_or_default().to_string();
    let mut attrs = filter_func_attributes(l, ctx, f, true);
    // Argument attributes go to every argument an argument became.
    if let Some(a) = ctx.get_attr(f, "arg_attrs") {
        if let AttrKind::Array(dicts) = ctx.attr_kind(a).clone() {
            let mut per_new = vec![];
            for (i, &t) in ins.iter().enumerate() {
                let n = match ctx.kind(t) {
                    TypeKind::MemRef { shape, .. } => 3 + 2 * shape.len(),
                    TypeKind::UnrankedMemRef { .. } => 2,
                    _ => 1,
                };
                let d = dicts
                    .get(i)
                    .copied()
                    .unwrap_or_else(|| ctx.attr(AttrKind::Dictionary(vec![])));
                per_new.extend(std::iter::repeat_n(d, n));
            }
            let arr = ctx.attr(AttrKind::Array(per_new));
            attrs.push((ctx.sym("arg_attrs"), arr));
        }
    }
    if l.edition == Edition::V15 {
        if let Some(a) = ctx.get_attr(f, "res_attrs") {
            let v = if outs.len() == 1 {
                a
            } else {
                let d = struct_attrs(ctx, a);
                ctx.attr(AttrKind::Array(vec![d]))
            };
            attrs.push((ctx.sym("res_attrs"), v));
        }
    }
    let mut linkage = "external".to_string();
    if let Some(i) = attrs
        .iter()
        .position(|(k, _)| ctx.str(*k) == "llvm.linkage")
    {
        let a = attrs.remove(i).1;
        match ctx.attr_kind(a) {
            AttrKind::Opaque(s) if s.starts_with("#llvm.linkage<") && s.ends_with('>') => {
                linkage = s["#llvm.linkage<".len()..s.len() - 1].trim().to_string();
            }
            _ => {
                return Err(RewriteError::at(
                    loc,
                    "Contains llvm.linkage attribute not of type LLVM::LinkageAttr",
                ))
            }
        }
    }
    rw.set_insertion_point(f);
    let new = lb::func(rw, loc, &name, llvm_ty, &linkage, &attrs)?;
    let body = rw.ctx_ref().regions_of(f)[0];
    let new_body = rw.ctx_ref().regions_of(new)[0];
    rw.inline_region_at_end(body, new_body);
    rw.convert_region_types(new_body, Some(&sig))?;
    let ctx = rw.ctx();
    let emit = l.opts.emit_c_wrappers
        || ctx
            .get_attr(f, "llvm.emit_c_interface")
            .is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::Unit));
    if emit {
        if l.edition == Edition::V15 && vararg {
            return Err(RewriteError::at(
                loc,
                "C interface for variadic functions is not supported yet.",
            ));
        }
        if ctx.region_is_empty(new_body) {
            wrap_external_function(l, rw, f, new, &name, &ins, &outs)?;
        } else {
            wrap_for_external_callers(l, rw, f, new, &name, &ins, &outs)?;
        }
    }
    rw.erase_op(f)?;
    Ok(true)
}

/// `{llvm.struct_attrs = [...]}`: several results' attributes as one
/// struct result's (15).
fn struct_attrs(ctx: &mut mlir_async_ir::Context, arr: Attribute) -> Attribute {
    let k = ctx.sym("llvm.struct_attrs");
    ctx.attr(AttrKind::Dictionary(vec![(k, arr)]))
}

/// The attributes of a C wrapper: the function's, with (15) the result
/// attributes moved in front of the argument attributes when the result
/// became the first argument.
fn wrapper_attrs(
    l: &Lowering,
    ctx: &mut mlir_async_ir::Context,
    f: Op,
    n_args: usize,
    result_is_arg: bool,
) -> Vec<(Symbol, Attribute)> {
    let mut attrs = filter_func_attributes(l, ctx, f, false);
    if l.edition != Edition::V15 || !result_is_arg {
        return attrs;
    }
    let empty = ctx.attr(AttrKind::Dictionary(vec![]));
    let mut all = vec![empty; n_args + 1];
    let mut arg_pos = None;
    let mut i = 0;
    while i < attrs.len() {
        let k = ctx.str(attrs[i].0).to_string();
        if k == "arg_attrs" {
            if let AttrKind::Array(xs) = ctx.attr_kind(attrs[i].1) {
                for (j, &x) in xs.iter().enumerate().take(n_args) {
                    all[j + 1] = x;
                }
            }
            arg_pos = Some(i);
        } else if k == "res_attrs" {
            if let AttrKind::Array(xs) = ctx.attr_kind(attrs[i].1).clone() {
                if let [one] = xs[..] {
                    all[0] = one;
                } else if !xs.is_empty() {
                    all[0] = struct_attrs(ctx, attrs[i].1);
                }
            }
            attrs.remove(i);
            if arg_pos.is_some_and(|p| p > i) {
                arg_pos = arg_pos.map(|p| p - 1);
            }
            continue;
        }
        i += 1;
    }
    let arr = ctx.attr(AttrKind::Array(all));
    match arg_pos {
        Some(p) => attrs[p].1 = arr,
        None => attrs.push((ctx.sym("arg_attrs"), arr)),
    }
    attrs
}

/// The `_mlir_ciface_` function of a function with a body: it takes
/// memrefs by pointer to their descriptor, loads and unpacks them, and
/// calls the function.
fn wrap_for_external_callers(
    l: &Lowering,
    rw: &mut ConversionRewriter,
    f: Op,
    new: Op,
    name: &str,
    ins: &[Type],
    outs: &[Type],
) -> Result<(), RewriteError> {
    let ctx = rw.ctx();
    let loc = ctx.op_loc(f);
    let Some((wty, result_is_arg)) = convert_function_type_c_wrapper(&l.conv, ctx, ins, outs)
    else {
        return Err(RewriteError::at(loc, "cannot convert the C wrapper's type"));
    };
    let attrs = wrapper_attrs(l, ctx, f, ins.len(), result_is_arg);
    rw.set_insertion_point(f);
    let w = lb::func(
        rw,
        loc,
        &format!("_mlir_ciface_{name}"),
        wty,
        "external",
        &attrs,
    )?;
    let entry = lb::add_entry_block(rw.ctx(), w)
        .ok_or_else(|| RewriteError::at(loc, "a wrapper has a function type"))?;
    rw.set_insertion_point_to_start(entry);
    let wargs = rw.ctx_ref().block_args(entry).to_vec();
    let offset = usize::from(result_is_arg);
    let mut args = vec![];
    for (i, &t) in ins.iter().enumerate() {
        let a = wargs[i + offset];
        match rw.ctx_ref().kind(t).clone() {
            TypeKind::MemRef { shape, .. } => {
                let loaded = lb::load(rw, loc, a)?;
                args.extend(desc::unpack(rw, loc, loaded, shape.len())?);
            }
            TypeKind::UnrankedMemRef { .. } => {
                let loaded = lb::load(rw, loc, a)?;
                args.extend(unranked::unpack(rw, loc, loaded)?);
            }
            _ => args.push(a),
        }
    }
    let results = callee_results(rw.ctx(), new);
    let call = lb::call(rw, loc, name, &results, &args)?;
    let call_results = rw.ctx_ref().results(call).to_vec();
    if result_is_arg {
        lb::store(rw, loc, call_results[0], wargs[0])?;
        lb::ret(rw, loc, &[])?;
    } else {
        lb::ret(rw, loc, &call_results)?;
    }
    Ok(())
}

/// What a call of the `llvm.func` `f` returns: its result, unless `void`.
fn callee_results(ctx: &mut mlir_async_ir::Context, f: Op) -> Vec<Type> {
    let ft = match ctx.get_attr(f, "function_type").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Type(t)) => *t,
        _ => return vec![],
    };
    match llvm::as_function(ctx, ft) {
        Some(ft) if !llvm::is_void(ctx, ft.result) => vec![ft.result],
        _ => vec![],
    }
}

/// For an external function: the `_mlir_ciface_` declaration, and a body
/// for the function that packs its descriptor arguments onto the stack
/// and calls it.
fn wrap_external_function(
    l: &Lowering,
    rw: &mut ConversionRewriter,
    f: Op,
    new: Op,
    name: &str,
    ins: &[Type],
    outs: &[Type],
) -> Result<(), RewriteError> {
    let ctx = rw.ctx();
    let loc = ctx.op_loc(f);
    let Some((wty, result_is_arg)) = convert_function_type_c_wrapper(&l.conv, ctx, ins, outs)
    else {
        return Err(RewriteError::at(loc, "cannot convert the C wrapper's type"));
    };
    let attrs = wrapper_attrs(l, ctx, f, ins.len(), result_is_arg);
    let wname = format!("_mlir_ciface_{name}");
    rw.set_insertion_point(f);
    let w = lb::func(rw, loc, &wname, wty, "external", &attrs)?;
    let entry = lb::add_entry_block(rw.ctx(), new)
        .ok_or_else(|| RewriteError::at(loc, "a function has a function type"))?;
    rw.set_insertion_point_to_start(entry);
    let fargs = rw.ctx_ref().block_args(entry).to_vec();
    let mut args = vec![];
    if result_is_arg {
        let ctx = rw.ctx();
        let pt = llvm::as_function(ctx, wty).map(|f| f.params[0]);
        let pt = pt.ok_or_else(|| RewriteError::at(loc, "a wrapper takes its result first"))?;
        let one = l.index_constant(rw, loc, 1)?;
        args.push(lb::alloca(rw, loc, pt, one, 0)?);
    }
    let mut k = 0;
    for &t in ins {
        match rw.ctx_ref().kind(t).clone() {
            TypeKind::MemRef { shape, .. } => {
                let n = 3 + 2 * shape.len();
                let ty = rw
                    .convert_type(t)
                    .ok_or_else(|| RewriteError::at(loc, "cannot convert a memref type"))?;
                let packed = desc::pack(rw, loc, ty, &fargs[k..k + n])?;
                k += n;
                args.push(stack_copy(l, rw, loc, packed)?);
            }
            TypeKind::UnrankedMemRef { .. } => {
                let packed = unranked::pack(rw, loc, &fargs[k..k + 2])?;
                k += 2;
                args.push(stack_copy(l, rw, loc, packed)?);
            }
            _ => {
                args.push(fargs[k]);
                k += 1;
            }
        }
    }
    let results = callee_results(rw.ctx(), w);
    let call = lb::call(rw, loc, &wname, &results, &args)?;
    if result_is_arg {
        let r = lb::load(rw, loc, args[0])?;
        lb::ret(rw, loc, &[r])?;
    } else {
        let rs = rw.ctx_ref().results(call).to_vec();
        lb::ret(rw, loc, &rs)?;
    }
    Ok(())
}

/// `v` stored in a one-element stack slot (the wrapper's argument).
fn stack_copy(
    l: &Lowering,
    rw: &mut ConversionRewriter,
    loc: mlir_async_ir::Location,
    v: Value,
) -> Result<Value, RewriteError> {
    let ctx = rw.ctx();
    let vt = ctx.value_type(v);
    let pt = llvm::pointer_to(ctx, vt);
    let one = l.index_constant(rw, loc, 1)?;
    let p = lb::alloca(rw, loc, pt, one, 0)?;
    lb::store(rw, loc, v, p)?;
    Ok(p)
}

fn call(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let result_types = types_of(ctx, ctx.results(op));
    let packed = if result_types.is_empty() {
        vec![]
    } else {
        match pack_function_results(&l.conv, ctx, &result_types) {
            Some(t) => vec![t],
            None => return Ok(false),
        }
    };
    // A call passing what an LLVM function cannot take stays, as its
    // callee does (`convert_function_signature`).
    let passable = packed.iter().all(|&t| llvm::is_valid_result(ctx, t))
        && operands
            .iter()
            .all(|&v| llvm::is_valid_argument(ctx, ctx.value_type(v)));
    if !passable {
        return Ok(false);
    }
    let loc = ctx.op_loc(op);
    let orig = types_of(ctx, ctx.operands(op));
    let attrs = ctx.attrs(op).to_vec();
    rw.set_insertion_point(op);
    let promoted = promote_operands(rw, loc, &orig, operands)?;
    let name = rw.ctx().sym("llvm.call");
    let new = rw.create_op(name, loc, &promoted, &packed, &attrs)?;
    let mut results = rw.ctx_ref().results(new).to_vec();
    if result_types.len() >= 2 {
        let packed = results[0];
        results = vec![];
        for i in 0..result_types.len() {
            results.push(lb::extract_value(rw, loc, packed, &[i as i64])?);
        }
    }
    copy_unranked_descriptors(l, rw, loc, op, &result_types, &mut results, false)?;
    rw.replace_op(op, &results)?;
    Ok(true)
}

fn ret(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let loc = ctx.op_loc(op);
    let orig = types_of(ctx, ctx.operands(op));
    let attrs = ctx.attrs(op).to_vec();
    let mut updated = operands.to_vec();
    rw.set_insertion_point(op);
    copy_unranked_descriptors(l, rw, loc, op, &orig, &mut updated, true)?;
    let name = rw.ctx().sym("llvm.return");
    if updated.len() <= 1 {
        rw.create_op(name, loc, &updated, &[], &attrs)?;
        rw.erase_op(op)?;
        return Ok(true);
    }
    let Some(packed_ty) = pack_function_results(&l.conv, rw.ctx(), &orig) else {
        return Ok(false);
    };
    let mut packed = lb::undef(rw, loc, packed_ty)?;
    for (i, &v) in updated.iter().enumerate() {
        packed = lb::insert_value(rw, loc, packed, v, &[i as i64])?;
    }
    rw.create_op(name, loc, &[packed], &[], &attrs)?;
    rw.erase_op(op)?;
    Ok(true)
}

/// A reference to a function becomes the address of the `llvm.func`.
fn constant(l: &Lowering, op: Op, _: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let res = ctx.value_type(ctx.result(op, 0));
    let Some(ty) = l.convert(ctx, res) else {
        return Ok(false);
    };
    if !llvm::is_compatible(ctx, ty) {
        return Ok(false);
    }
    let Some(value) = ctx.get_attr(op, "value") else {
        return Ok(false);
    };
    if !matches!(ctx.attr_kind(value), AttrKind::SymbolRef(_, nested) if nested.is_empty()) {
        return Ok(false);
    }
    let mut attrs: Vec<(Symbol, Attribute)> = ctx
        .attrs(op)
        .iter()
        .filter(|(k, _)| ctx.str(*k) != "value")
        .copied()
        .collect();
    attrs.push((ctx.sym("global_name"), value));
    ctx.sort_attrs(&mut attrs);
    let loc = ctx.op_loc(op);
    let name = ctx.sym("llvm.mlir.addressof");
    rw.set_insertion_point(op);
    let new = rw.create_op(name, loc, &[], &[ty], &attrs)?;
    let r = rw.ctx_ref().result(new, 0);
    rw.replace_op(op, &[r])?;
    Ok(true)
}

/// A branch becomes the LLVM branch of the same shape, attributes kept.
fn branch(_: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let target = match ctx.name(op) {
        "cf.br" => "llvm.br",
        "cf.cond_br" => "llvm.cond_br",
        _ => "llvm.switch",
    };
    let mut st = mlir_async_ir::OperationState::new(ctx.sym(target), ctx.op_loc(op));
    st.operands = operands.to_vec();
    st.attrs = ctx.attrs(op).to_vec();
    let successors = ctx.successors(op).to_vec();
    for s in successors {
        st.successors.push(rw.convert_successor_types(s)?);
    }
    rw.set_insertion_point(op);
    rw.create(st)?;
    rw.erase_op(op)?;
    Ok(true)
}

/// `cf.assert %c`: the block splits at the assert, a block calling
/// `abort` is added at the end of the region, and a conditional branch
/// picks between them.
fn assert(_: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let loc = ctx.op_loc(op);
    let module = ctx
        .ancestor(op, |c, o| c.name(o) == "builtin.module")
        .ok_or_else(|| RewriteError::at(loc, "no enclosing module"))?;
    let body = ctx.regions_of(module)[0];
    let mbody = ctx
        .entry_block(body)
        .ok_or_else(|| RewriteError::at(loc, "module without a body"))?;
    let exists = ctx
        .block_ops_iter(mbody)
        .any(|o| ctx.name(o) == "llvm.func" && ctx.symbol_name(o) == Some("abort"));
    let ip = rw.insertion_point();
    if !exists {
        let void = llvm::void(rw.ctx());
        let ft = llvm::function(rw.ctx(), void, &[], false);
        let unknown = rw.ctx().unknown_loc();
        rw.set_insertion_point_to_start(mbody);
        lb::func(rw, unknown, "abort", ft, "external", &[])?;
    }
    rw.restore_insertion_point(ip);
    let ctx = rw.ctx();
    let block = ctx
        .parent_block(op)
        .ok_or_else(|| RewriteError::at(loc, "an assert in no block"))?;
    let region = ctx
        .parent_region(block)
        .ok_or_else(|| RewriteError::at(loc, "a block in no region"))?;
    let cont = rw.split_block(block, op);
    let fail = rw.create_block(region, None, &[]);
    lb::call(rw, loc, "abort", &[], &[])?;
    let name = rw.ctx().sym("llvm.unreachable");
    rw.create_op(name, loc, &[], &[], &[])?;
    rw.set_insertion_point_to_end(block);
    lb::cond_br(rw, loc, operands[0], cont, &[], fail, &[])?;
    rw.erase_op(op)?;
    Ok(true)
}

/// A cast between a value and its converted type goes away: its input
/// (converted) already has the type its result converts to, or converts to
/// the result's type (LLVM 13's `UnrealizedConversionCastOpLowering`).
fn unrealized_cast(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let outs = types_of(ctx, ctx.results(op));
    let ins = types_of(ctx, operands);
    let forwards = l.conv.convert_types(ctx, &outs).as_deref() == Some(&ins[..])
        || l.conv.convert_types(ctx, &ins).as_deref() == Some(&outs[..]);
    if !forwards {
        return Ok(false);
    }
    rw.replace_op(op, operands)?;
    Ok(true)
}
