//! `builtin.module` and the `func` dialect (`func`/`func.func`, `call`,
//! `call_indirect`, `return`, `constant`).

use crate::format::TypeClass;
use crate::ods::{AttrClass, OperandKind, Shape, N};
use crate::util::*;
use crate::OpDef;
use mlir_async_ir::*;
use mlir_async_syntax::{Edition, PResult, Parser, Printer, RegionArg};

crate::op! {
    /// `builtin.unrealized_conversion_cast`: values seen as other types
    /// until a conversion finishes.
    pub struct UnrealizedConversionCastOp = "builtin.unrealized_conversion_cast" {
        operands: [inputs: Variadic],
        results: [outputs: Variadic],
        format: "($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict",
        infer: Spelled,
    }
}

crate::op! {
    /// `func.return` (13 and 14: `return`).
    pub struct ReturnOp = "func.return" {
        operands: [operands: Variadic],
        results: [],
        format: "attr-dict ($operands^ `:` type($operands))?",
        infer: Spelled,
    }
}

crate::op! {
    /// `func.call` (13 and 14: `call`).
    pub struct CallOp = "func.call" {
        operands: [operands: Variadic],
        results: [results: Variadic],
        attrs: [callee: FlatSymbolRef],
        format: "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)",
        infer: Spelled,
    }
}

/// `FunctionType`.
static FUNCTION: TypeClass = TypeClass {
    is: |ctx, t| matches!(ctx.kind(t), TypeKind::Function(..)),
    short: None,
    summary: "function type",
    cpp: Some(Edition::V14),
};

/// The inputs of a function type, as `call_indirect` passes them.
fn callee_inputs(ctx: &Context, t: Type) -> Option<Vec<Type>> {
    match ctx.kind(t) {
        TypeKind::Function(ins, _) => Some(ins.clone()),
        _ => None,
    }
}

/// The results of a function type.
fn callee_results(ctx: &Context, t: Type) -> Option<Vec<Type>> {
    match ctx.kind(t) {
        TypeKind::Function(_, outs) => Some(outs.clone()),
        _ => None,
    }
}

crate::op! {
    /// `func.call_indirect` (13 and 14: `call_indirect`).
    pub struct CallIndirectOp = "func.call_indirect" {
        operands: [
            callee: One = Class(&FUNCTION),
            callee_operands: Variadic = LikeList("callee", callee_inputs),
        ],
        results: [results: Variadic = LikeList("callee", callee_results)],
        format: "$callee `(` $callee_operands `)` attr-dict `:` type($callee)",
        infer: Spelled,
    }
}

crate::op! {
    /// `func.constant` (13 and 14: `constant`, written in C++).
    pub struct ConstantOp = "func.constant" {
        operands: [],
        results: [result],
        attrs: [value: FlatSymbolRef],
        syntax: {
            V13: Hand(parse_func_constant, print_func_constant),
            V14: Hand(parse_func_constant, print_func_constant),
            V15: Format("attr-dict $value `:` type(results)"),
        },
        infer: Spelled,
    }
}

crate::op! {
    /// `builtin.module` (13: `module`). 13 printed two spaces before its
    /// body, as before every region of a declared format.
    pub struct ModuleOp = "builtin.module" {
        operands: [],
        results: [],
        attrs: [sym_name: Optional(&SymbolName)],
        regions: [body],
        format: "($sym_name^)? attr-dict-with-keyword $body",
        infer: Spelled,
    }
}

pub fn ops() -> Vec<OpDef> {
    let mut module = ModuleOp::def()
        .shape(Shape::new(N::Exactly(0), N::Exactly(0)).regions(1, &[]))
        .isolated()
        .symbol()
        .no_region_arguments()
        .verify(verify_module);
    module.traits.symbol_table = true;
    module.traits.no_terminator = true;
    module.traits.graph_region = true;
    let mut unrealized =
        UnrealizedConversionCastOp::def().folder(crate::fold::fold_unrealized_cast);
    unrealized.traits.pure = true;
    vec![
        module,
        unrealized,
        OpDef::new("func.func")
            .shape(
                Shape::new(N::Exactly(0), N::Exactly(0))
                    .regions(1, &[])
                    .attrs(&[
                        ("sym_name", AttrClass::Str),
                        ("function_type", AttrClass::FuncType),
                    ]),
            )
            .syntax(parse_func, print_func)
            .isolated()
            .symbol()
            .verify(verify_func),
        ReturnOp::def()
            .parents(&["func.func"])
            .pure()
            .return_like()
            .terminator()
            .verify(verify_return),
        CallOp::def()
            .shape(Shape::new(N::AtLeast(0), N::AtLeast(0)).attrs(&[("callee", AttrClass::SymRef)]))
            .verify(verify_call),
        CallIndirectOp::def()
            .shape(Shape::new(N::AtLeast(1), N::AtLeast(0)).kinds(&[(0, OperandKind::Function)])),
        ConstantOp::def()
            .shape(
                Shape::new(N::Exactly(0), N::Exactly(1)).attrs(&[("value", AttrClass::FlatSymRef)]),
            )
            .constant_like()
            .verify(verify_func_constant)
            .pure()
            .names(|_, _, _, set| set(0, "f")),
    ]
}

/// The signature of a function: (inputs, results).
pub fn func_type(ctx: &Context, op: Op) -> (Vec<Type>, Vec<Type>) {
    match ctx.get_attr(op, "function_type").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Type(t)) => match ctx.kind(*t) {
            TypeKind::Function(i, o) => (i.clone(), o.clone()),
            _ => (vec![], vec![]),
        },
        _ => (vec![], vec![]),
    }
}

/// [`func_type`] without the copies, for checks at every call.
fn func_type_ref(ctx: &Context, op: Op) -> (&[Type], &[Type]) {
    match ctx.get_attr(op, "function_type").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Type(t)) => match ctx.kind(*t) {
            TypeKind::Function(i, o) => (i, o),
            _ => (&[], &[]),
        },
        _ => (&[], &[]),
    }
}

/// Per-argument or per-result attribute dictionaries (`arg_attrs`/`res_attrs`).
pub fn func_arg_attrs(ctx: &Context, op: Op, key: &str, n: usize) -> Vec<Vec<(Symbol, Attribute)>> {
    let mut out = vec![vec![]; n];
    if let Some(a) = ctx.get_attr(op, key) {
        if let AttrKind::Array(xs) = ctx.attr_kind(a) {
            for (i, &x) in xs.iter().enumerate().take(n) {
                if let AttrKind::Dictionary(d) = ctx.attr_kind(x) {
                    out[i] = d.clone();
                }
            }
        }
    }
    out
}

/// Stores per-argument/result dictionaries, dropping the attribute when all
/// are empty (as MLIR does).
pub fn set_func_arg_attrs(
    ctx: &mut Context,
    op: Op,
    key: &str,
    dicts: Vec<Vec<(Symbol, Attribute)>>,
) {
    if dicts.iter().all(|d| d.is_empty()) {
        ctx.remove_attr(op, key);
        return;
    }
    let arr: Vec<Attribute> = dicts
        .into_iter()
        .map(|d| ctx.attr(AttrKind::Dictionary(d)))
        .collect();
    let a = ctx.attr(AttrKind::Array(arr));
    ctx.set_attr(op, key, a);
}

fn parse_func(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    if let Some(v) = p.peek_ident() {
        if v == "private" || v == "public" || v == "nested" {
            p.ident();
            let a = p.ctx.string_attr(v);
            let s = p.ctx.sym("sym_visibility");
            st.attrs.push((s, a));
        }
    }
    let name = p.symbol_name()?;
    let a = p.ctx.string_attr(&name);
    let s = p.ctx.sym("sym_name");
    st.attrs.push((s, a));
    p.expect("(")?;
    let mut args: Vec<RegionArg> = vec![];
    let mut inputs = vec![];
    let mut arg_attrs = vec![];
    // Locations written after argument types, set once the body's entry
    // block (which holds the arguments) exists.
    let mut arg_locs = vec![];
    let mut named = None;
    if !p.eat(")") {
        loop {
            p.skip_ws();
            let pos = p.pos;
            let is_named = p.peek_operand();
            if *named.get_or_insert(is_named) != is_named {
                return p.err(pos, "expected SSA identifier");
            }
            if is_named {
                let u = p.parse_operand_ref()?;
                p.expect(":")?;
                let t = p.parse_type()?;
                args.push(RegionArg {
                    name: u.name,
                    ty: t,
                    pos,
                });
                inputs.push(t);
            } else {
                inputs.push(p.parse_type()?);
            }
            arg_attrs.push(p.parse_optional_attr_dict()?);
            if p.peek_ident() == Some("loc") {
                let l = p.parse_location_body()?;
                // 13 read the location and kept the argument's position
                // (undone at the end if the input turns out to be 13's).
                if p.seen != Some(Edition::V13) {
                    arg_locs.push((inputs.len() - 1, l));
                }
            }
            if !p.eat(",") {
                break;
            }
        }
        p.expect(")")?;
    }
    let mut results = vec![];
    let mut res_attrs = vec![];
    if p.eat("->") {
        if p.eat("(") {
            if !p.eat(")") {
                loop {
                    results.push(p.parse_type()?);
                    res_attrs.push(p.parse_optional_attr_dict()?);
                    if !p.eat(",") {
                        break;
                    }
                }
                p.expect(")")?;
            }
        } else {
            results.push(p.parse_type()?);
            res_attrs.push(vec![]);
        }
    }
    let ft = p.ctx.function_type(inputs, results);
    let fa = p.ctx.type_attr(ft);
    let s = p.ctx.sym("function_type");
    st.attrs.push((s, fa));
    for (key, dicts) in [("arg_attrs", arg_attrs), ("res_attrs", res_attrs)] {
        if dicts.iter().any(|d| !d.is_empty()) {
            let arr: Vec<Attribute> = dicts
                .into_iter()
                .map(|d| p.ctx.attr(AttrKind::Dictionary(d)))
                .collect();
            let a = p.ctx.attr(AttrKind::Array(arr));
            let s = p.ctx.sym(key);
            st.attrs.push((s, a));
        }
    }
    attr_dict_kw(p, st)?;
    if p.peek() == b'{' {
        if named == Some(false) {
            return p.err_here(
                "expected SSA identifiers for function arguments when a body is present",
            );
        }
        let r = p.parse_region(&args, true)?;
        if let Some(entry) = p.ctx.entry_block(r) {
            for (i, l) in arg_locs {
                if let Some(&a) = p.ctx.block_args(entry).get(i) {
                    let at_name = p.ctx.value_loc(a);
                    p.ctx.set_value_loc(a, l);
                    p.arg_locs_before_13.push((a, at_name));
                }
            }
        }
        st.regions.push(r);
    } else {
        let r = p.ctx.create_region();
        st.regions.push(r);
    }
    Ok(())
}

fn print_func(p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    p.w(" ");
    if let Some(v) = ctx.get_attr(op, "sym_visibility") {
        if let AttrKind::String(s, _) = ctx.attr_kind(v) {
            if s != b"public" {
                p.w(&String::from_utf8_lossy(s));
                p.w(" ");
            }
        }
    }
    let sym = ctx.symbol_name(op).unwrap_or("").to_string();
    let mut name = String::new();
    mlir_async_syntax::printer::print_symbol(&sym, &mut name);
    p.w(&name);
    let (ins, outs) = func_type_ref(ctx, op);
    let arg_attrs = func_arg_attrs(ctx, op, "arg_attrs", ins.len());
    let res_attrs = func_arg_attrs(ctx, op, "res_attrs", outs.len());
    let body = ctx.regions_of(op)[0];
    let entry = ctx.entry_block(body);
    p.w("(");
    for (i, &t) in ins.iter().enumerate() {
        if i > 0 {
            p.w(", ");
        }
        if let Some(b) = entry {
            let a = ctx.block_args(b)[i];
            p.operand(a);
            p.w(": ");
        }
        p.ty(t);
        p.attr_entries(&arg_attrs[i], false);
        if p.opts.debug_info {
            if let Some(b) = entry {
                let l = ctx.value_loc(ctx.block_args(b)[i]);
                p.w(" ");
                p.arg_location(l);
            }
        }
    }
    p.w(")");
    if !outs.is_empty() {
        p.w(" -> ");
        let wrap = outs.len() > 1
            || matches!(ctx.kind(outs[0]), TypeKind::Function(..))
            || !res_attrs[0].is_empty();
        if wrap {
            p.w("(");
        }
        for (i, &t) in outs.iter().enumerate() {
            if i > 0 {
                p.w(", ");
            }
            p.ty(t);
            p.attr_entries(&res_attrs[i], false);
        }
        if wrap {
            p.w(")");
        }
    }
    p.attr_dict_kw(
        op,
        &[
            "sym_name",
            "function_type",
            "sym_visibility",
            "arg_attrs",
            "res_attrs",
        ],
    );
    if entry.is_some() {
        p.w(" ");
        p.region(body, false, true);
    }
}

fn verify_func(ctx: &Context, op: Op) -> Result<(), String> {
    let (ins, _) = func_type_ref(ctx, op);
    let body = ctx.regions_of(op)[0];
    if let Some(b) = ctx.entry_block(body) {
        let args = ctx.block_args(b);
        if args.len() != ins.len() {
            return Err(format!(
                "entry block must have {} arguments to match function signature",
                ins.len()
            ));
        }
        for (i, (&a, &t)) in args.iter().zip(ins).enumerate() {
            if ctx.value_type(a) != t {
                return Err(format!(
                    "type of entry block argument #{i}({}) must match the type of the corresponding argument in function signature({})",
                    tyname(ctx, ctx.value_type(a)),
                    tyname(ctx, t)
                ));
            }
        }
    } else if ctx.get_attr(op, "sym_visibility").is_none() {
        return Err("symbol declaration cannot have public visibility".into());
    }
    Ok(())
}

fn verify_return(ctx: &Context, op: Op) -> Result<(), String> {
    let Some(f) = ctx.parent_op(op) else {
        return Ok(());
    };
    if ctx.name(f) != "func.func" {
        return Err("expects parent op 'func.func'".to_string());
    }
    let (_, outs) = func_type_ref(ctx, f);
    let ops = ctx.operands(op);
    if ops.len() != outs.len() {
        return Err(format!(
            "has {} operands, but enclosing function (@{}) returns {}",
            ops.len(),
            ctx.symbol_name(f).unwrap_or(""),
            outs.len()
        ));
    }
    for (i, (&v, &t)) in ops.iter().zip(outs).enumerate() {
        if ctx.value_type(v) != t {
            return Err(format!(
                "{}type of return operand {i} ('{}') doesn't match function result type ('{}') in function @{}",
                crate::PLAIN_ERROR,
                tyname(ctx, ctx.value_type(v)),
                tyname(ctx, t),
                ctx.symbol_name(f).unwrap_or("")
            ));
        }
    }
    Ok(())
}

fn verify_call(ctx: &Context, op: Op) -> Result<(), String> {
    let Some(c) = ctx.get_attr(op, "callee") else {
        return Err("requires attribute 'callee'".into());
    };
    let AttrKind::SymbolRef(root, _) = ctx.attr_kind(c) else {
        return Err("requires attribute 'callee'".into());
    };
    let name = ctx.str(*root);
    let Some(table) = ctx.nearest_symbol_table(op) else {
        return Ok(());
    };
    let Some(f) = ctx.lookup_symbol_id(table, *root) else {
        return Err(format!("'{name}' does not reference a valid function"));
    };
    if ctx.name(f) != "func.func" {
        return Err(format!("'{name}' does not reference a valid function"));
    }
    let (ins, outs) = func_type_ref(ctx, f);
    let ops = ctx.operands(op);
    if ins.len() != ops.len() {
        return Err("incorrect number of operands for callee".into());
    }
    for (i, (&v, &t)) in ops.iter().zip(ins).enumerate() {
        if ctx.value_type(v) != t {
            return Err(format!("operand type mismatch: expected operand type {}, but provided {} for operand number {i}", tyname(ctx, t), tyname(ctx, ctx.value_type(v))));
        }
    }
    let res = ctx.results(op);
    if outs.len() != res.len() {
        return Err("incorrect number of results for callee".into());
    }
    for (i, (&v, &t)) in res.iter().zip(outs).enumerate() {
        if ctx.value_type(v) != t {
            return Err(format!("result type mismatch at index {i}"));
        }
    }
    Ok(())
}

/// A function constant stands for a function of its module: the name must
/// be one (a flat reference; nested ones are refused with the attribute,
/// see `verify.rs`) and the type its signature, or `call_indirect` through
/// it calls with the wrong signature.
/// A module's own attributes belong to a dialect (`llvm.data_layout`),
/// but for its symbol name and visibility: an unprefixed name would mean
/// nothing to any pass, so every generation rejects it.
fn verify_module(ctx: &Context, op: Op) -> Result<(), String> {
    for &(name, _) in ctx.attrs(op) {
        let name = ctx.str(name);
        if !name.contains('.') && name != "sym_name" && name != "sym_visibility" {
            return Err(format!(
                "can only contain attributes with dialect-prefixed names, found: '{name}'"
            ));
        }
    }
    Ok(())
}

fn verify_func_constant(ctx: &Context, op: Op) -> Result<(), String> {
    let Some(AttrKind::SymbolRef(root, _)) = ctx.get_attr(op, "value").map(|a| ctx.attr_kind(a))
    else {
        return Ok(());
    };
    let name = ctx.str(*root);
    let Some(table) = ctx.nearest_symbol_table(op) else {
        return Ok(());
    };
    let f = ctx
        .lookup_symbol_id(table, *root)
        .filter(|&f| ctx.name(f) == "func.func");
    let Some(f) = f else {
        return Err(format!("reference to undefined function '{name}'"));
    };
    let (ins, outs) = func_type_ref(ctx, f);
    let t = ctx.value_type(ctx.result(op, 0));
    let same = match ctx.kind(t) {
        TypeKind::Function(i, o) => i[..] == *ins && o[..] == *outs,
        _ => false,
    };
    if !same {
        return Err("reference to function with mismatched type".into());
    }
    Ok(())
}

/// 13's and 14's `std.constant` of a symbol: the dictionary, any
/// symbol reference (a nested one is the verifier's to refuse), its type.
fn parse_func_constant(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    attr_dict(p, st)?;
    let (root, nested) = p.parse_symbol_ref_parts()?;
    let r = p.ctx.sym(&root);
    let n = nested.iter().map(|s| p.ctx.sym(s)).collect();
    let v = p.ctx.attr(AttrKind::SymbolRef(r, n));
    let s = p.ctx.sym("value");
    st.attrs.push((s, v));
    let t = colon_type(p)?;
    st.result_types.push(t);
    Ok(())
}

/// 13's and 14's printer: a space, the dictionary (with its own leading
/// space), a space before the value only after a dictionary.
fn print_func_constant(p: &mut Printer, op: Op) {
    p.w(" ");
    p.attr_dict(op, &["value"]);
    if p.ctx.attrs(op).len() > 1 {
        p.w(" ");
    }
    let v = p.ctx.get_attr(op, "value").expect("constant has a value");
    p.attr(v);
    p.w(" : ");
    let t = p.ctx.value_type(p.ctx.result(op, 0));
    p.ty(t);
}

/// The `passthrough` attribute that marks a coroutine for LLVM, in the
/// spelling of the edition (LLVM 13 did not mark coroutines).
pub fn coroutine_passthrough(ctx: &mut Context, ed: Edition) -> Option<Attribute> {
    Some(match ed {
        Edition::V13 => return None,
        Edition::V15 => {
            let s = ctx.string_attr("presplitcoroutine");
            ctx.attr(AttrKind::Array(vec![s]))
        }
        _ => {
            let a = ctx.string_attr("coroutine.presplit");
            let b = ctx.string_attr("0");
            let inner = ctx.attr(AttrKind::Array(vec![a, b]));
            ctx.attr(AttrKind::Array(vec![inner]))
        }
    })
}
