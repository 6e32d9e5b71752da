//! The LLVM dialect of our IR to LIR.
//!
//! Aggregates (`!llvm.struct`, `!llvm.array`) are split into their scalars
//! here, so a memref descriptor is five to a dozen SSA values and
//! `insertvalue` / `extractvalue` are renamings that cost nothing at run
//! time; `load`/`store` of an aggregate become one access per scalar at
//! its offset in the C layout; `getelementptr` becomes address arithmetic.
//!
//! Every op the executor cannot run is reported with its name and
//! location, all of them, before anything is compiled.
//!
//! Types are read through the LLVM dialect's accessors
//! ([`llvm::classify`]). Ops are read through their generic structure (name, operands,
//! attributes as upstream names them, successors), which is the same
//! whether the op was parsed from the custom or the generic form, and in
//! all three generations (13's `linkage = 10 : i64` and switch
//! `case_operand_offsets`, 15's `function_type`).

use crate::lir::{
    self, BinOp, Block, Callee, CastOp, FloatCC, FunctionBuilder, InstKind, IntCC, Sig, Target,
    Terminator, Ty, UnOp, Value,
};
use mlir_async_dialects::llvm::{self, LlvmType};
use mlir_async_ir::{AttrKind, Attribute, Context, DenseElem, Location, Op, Type, TypeKind};
use mlir_async_syntax::{Diagnostic, Severity};
use std::collections::HashMap;

/// An LLVM dialect (or builtin) type, as far as the executor cares.
#[derive(Clone, Debug, PartialEq)]
pub enum LType {
    Int(u32),
    F16,
    BF16,
    F32,
    F64,
    /// A pointer; the pointee of a typed pointer (LLVM 13-15's default).
    Ptr(Option<Box<LType>>),
    Struct(Vec<LType>, bool),
    Array(Box<LType>, u64),
    Vector(Box<LType>, u64),
    Void,
    Token,
    Func(Box<LType>, Vec<LType>, bool),
    /// Anything else, with its spelling for the diagnostic.
    Other(String),
}

impl LType {
    /// Appends the scalar types this type splits into.
    pub fn scalars(&self, out: &mut Vec<Ty>) -> Result<(), String> {
        match self {
            LType::Int(1) => out.push(Ty::I1),
            LType::Int(8) => out.push(Ty::I8),
            LType::Int(16) => out.push(Ty::I16),
            LType::Int(32) => out.push(Ty::I32),
            LType::Int(64) => out.push(Ty::I64),
            LType::F32 => out.push(Ty::F32),
            LType::F64 => out.push(Ty::F64),
            LType::Ptr(_) => out.push(Ty::Ptr),
            LType::Token => out.push(Ty::I64),
            LType::Void => {}
            LType::Struct(fs, _) => {
                for f in fs {
                    f.scalars(out)?;
                }
            }
            LType::Array(e, n) => {
                if *n > 4096 {
                    return Err(format!("an array of {n} elements as an SSA value"));
                }
                for _ in 0..*n {
                    e.scalars(out)?;
                }
            }
            t => {
                return Err(format!(
                    "values of type {} are not supported by mlir-async-run",
                    t.spelling()
                ))
            }
        }
        Ok(())
    }

    pub fn scalar_types(&self) -> Result<Vec<Ty>, String> {
        let mut v = Vec::new();
        self.scalars(&mut v)?;
        Ok(v)
    }

    /// Number of scalars.
    pub fn width(&self) -> Result<usize, String> {
        Ok(self.scalar_types()?.len())
    }

    /// Size and alignment in memory (x86-64 / AArch64 data layout).
    pub fn size_align(&self) -> (u64, u64) {
        match self {
            LType::Int(w) => {
                let s = u64::from(w.div_ceil(8)).next_power_of_two().max(1);
                (s, s.min(16))
            }
            LType::F16 | LType::BF16 => (2, 2),
            LType::F32 => (4, 4),
            LType::F64 | LType::Ptr(_) | LType::Token => (8, 8),
            LType::Struct(fs, packed) => {
                let (mut off, mut align) = (0u64, 1u64);
                for f in fs {
                    let (s, a) = f.size_align();
                    let a = if *packed { 1 } else { a };
                    off = off.div_ceil(a) * a + s;
                    align = align.max(a);
                }
                (off.div_ceil(align) * align, align)
            }
            LType::Array(e, n) => {
                let (s, a) = e.size_align();
                (s * n, a)
            }
            LType::Vector(e, n) => {
                let (s, _) = e.size_align();
                let t = (s * n).next_power_of_two();
                (t, t)
            }
            _ => (0, 1),
        }
    }

    pub fn size(&self) -> u64 {
        self.size_align().0
    }

    /// Offset in memory of struct field `i` (or array element `i`).
    pub fn field_offset(&self, i: u64) -> Option<(u64, &LType)> {
        match self {
            LType::Struct(fs, packed) => {
                let mut off = 0u64;
                for (k, f) in fs.iter().enumerate() {
                    let (s, a) = f.size_align();
                    let a = if *packed { 1 } else { a };
                    off = off.div_ceil(a) * a;
                    if k as u64 == i {
                        return Some((off, f));
                    }
                    off += s;
                }
                None
            }
            LType::Array(e, n) if i < *n => Some((e.size() * i, e)),
            _ => None,
        }
    }

    /// Each scalar with its offset in memory.
    pub fn scalar_layout(&self, base: u64, out: &mut Vec<(Ty, u64)>) -> Result<(), String> {
        match self {
            LType::Struct(fs, _) => {
                for i in 0..fs.len() {
                    let (off, f) = self.field_offset(i as u64).ok_or("bad field")?;
                    f.scalar_layout(base + off, out)?;
                }
            }
            LType::Array(e, n) => {
                for i in 0..*n {
                    e.scalar_layout(base + i * e.size(), out)?;
                }
            }
            t => {
                for s in t.scalar_types()? {
                    out.push((s, base));
                }
            }
        }
        Ok(())
    }

    /// The scalars of the element at `path` (insertvalue/extractvalue
    /// positions): their range in the split value, and its type.
    pub fn flat_range(&self, path: &[i64]) -> Result<(usize, usize, LType), String> {
        let Some((&first, rest)) = path.split_first() else {
            return Ok((0, self.width()?, self.clone()));
        };
        let (start, elem) = match self {
            LType::Struct(fs, _) => {
                let i = usize::try_from(first).map_err(|_| "negative position")?;
                let f = fs.get(i).ok_or("position out of range")?;
                let mut start = 0;
                for g in &fs[..i] {
                    start += g.width()?;
                }
                (start, f)
            }
            LType::Array(e, n) => {
                if first < 0 || first as u64 >= *n {
                    return Err("position out of range".into());
                }
                (first as usize * e.width()?, e.as_ref())
            }
            _ => return Err("position into a non-aggregate".into()),
        };
        let (s, w, t) = elem.flat_range(rest)?;
        Ok((start + s, w, t))
    }

    /// The type as the LLVM dialect spells it (for messages).
    pub fn spelling(&self) -> String {
        match self {
            LType::Int(w) => format!("i{w}"),
            LType::F16 => "f16".into(),
            LType::BF16 => "bf16".into(),
            LType::F32 => "f32".into(),
            LType::F64 => "f64".into(),
            LType::Ptr(None) => "!llvm.ptr".into(),
            LType::Ptr(Some(t)) => format!("!llvm.ptr<{}>", t.spelling()),
            LType::Struct(fs, _) => format!(
                "!llvm.struct<({})>",
                fs.iter()
                    .map(|f| f.spelling())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            LType::Array(e, n) => format!("!llvm.array<{n} x {}>", e.spelling()),
            LType::Vector(e, n) => format!("vector<{n}x{}>", e.spelling()),
            LType::Void => "!llvm.void".into(),
            LType::Token => "!llvm.token".into(),
            LType::Func(..) => "!llvm.func<...>".into(),
            LType::Other(s) => s.clone(),
        }
    }
}

/// The [`LType`] of an IR type.
pub fn ltype(ctx: &Context, t: Type) -> LType {
    ltype_in(ctx, t, &mut Vec::new())
}

/// [`ltype`], with the identified structs being converted on `open`: an
/// identified struct may point to itself (`!llvm.struct<"list", (i32,
/// ptr<struct<"list">>)>`), and following that pointer again would never
/// end. The inner reference becomes an opaque pointee; nothing looks
/// through it (a GEP walks only its own pointer's element type, and a value
/// loaded from the field gets its type from the IR again).
fn ltype_in(ctx: &Context, t: Type, open: &mut Vec<Type>) -> LType {
    match ctx.kind(t) {
        TypeKind::Integer(w, _) => LType::Int(*w),
        TypeKind::Index => LType::Int(64),
        TypeKind::F16 => LType::F16,
        TypeKind::BF16 => LType::BF16,
        TypeKind::F32 => LType::F32,
        TypeKind::F64 => LType::F64,
        TypeKind::Vector { shape, elem, .. } if shape.len() == 1 => {
            LType::Vector(Box::new(ltype_in(ctx, *elem, open)), shape[0] as u64)
        }
        TypeKind::Dialect(_) => match llvm::classify(ctx, t) {
            Some(LlvmType::Void) => LType::Void,
            Some(LlvmType::Token) => LType::Token,
            Some(LlvmType::Pointer { pointee, .. }) => {
                LType::Ptr(pointee.map(|p| Box::new(ltype_in(ctx, p, open))))
            }
            Some(LlvmType::Array { element, count }) => {
                LType::Array(Box::new(ltype_in(ctx, element, open)), count)
            }
            Some(LlvmType::Vector {
                element,
                count,
                scalable: false,
            }) => LType::Vector(Box::new(ltype_in(ctx, element, open)), u64::from(count)),
            Some(LlvmType::Function(f)) => LType::Func(
                Box::new(ltype_in(ctx, f.result, open)),
                f.params.iter().map(|p| ltype_in(ctx, *p, open)).collect(),
                f.vararg,
            ),
            Some(LlvmType::Struct(st)) if st.body.is_some() => {
                if st.name.is_some() && open.contains(&t) {
                    return LType::Other(type_text(ctx, t));
                }
                open.push(t);
                let fields = st
                    .elements()
                    .iter()
                    .map(|e| ltype_in(ctx, *e, open))
                    .collect();
                open.pop();
                LType::Struct(fields, st.packed)
            }
            _ => LType::Other(type_text(ctx, t)),
        },
        _ => LType::Other(type_text(ctx, t)),
    }
}

/// The type as the printer spells it (for messages).
fn type_text(ctx: &Context, t: Type) -> String {
    let mut s = String::new();
    mlir_async_syntax::printer::print_type_into(ctx, t, &mut s);
    s
}

/// A function's LLVM type from its `type` (13, 14) or `function_type` (15)
/// attribute.
fn func_type(ctx: &Context, op: Op) -> Option<(LType, Vec<LType>, bool)> {
    let a = ctx
        .get_attr(op, "function_type")
        .or_else(|| ctx.get_attr(op, "type"))?;
    let AttrKind::Type(t) = ctx.attr_kind(a) else {
        return None;
    };
    match ltype(ctx, *t) {
        LType::Func(r, ps, v) => Some((*r, ps, v)),
        _ => None,
    }
}

fn flat_sig(result: &LType, params: &[LType]) -> Result<Sig, String> {
    let mut p = Vec::new();
    for t in params {
        t.scalars(&mut p)?;
    }
    let r = result.scalar_types()?;
    Ok(Sig::new(p, r))
}

fn int_attr(ctx: &Context, a: Attribute) -> Option<i128> {
    match ctx.attr_kind(a) {
        AttrKind::Integer(i, _) => Some(*i),
        AttrKind::Bool(b) => Some(i128::from(*b)),
        _ => None,
    }
}

/// The integers of an array or dense attribute.
fn int_list(ctx: &Context, a: Attribute) -> Option<Vec<i64>> {
    match ctx.attr_kind(a) {
        AttrKind::Array(xs) => xs
            .iter()
            .map(|x| int_attr(ctx, *x).map(|i| i as i64))
            .collect(),
        AttrKind::Dense(es, t, _) => {
            let n = match ctx.kind(*t) {
                TypeKind::Vector { shape, .. } => shape.iter().product::<i64>().max(0) as usize,
                TypeKind::Tensor { shape, .. } => {
                    shape.iter().map(|d| d.unwrap_or(1)).product::<i64>().max(0) as usize
                }
                _ => es.len(),
            };
            let vals: Option<Vec<i64>> = es
                .iter()
                .map(|e| match e {
                    DenseElem::Int(i) => Some(*i as i64),
                    DenseElem::Bool(b) => Some(i64::from(*b)),
                    DenseElem::Float(_) | DenseElem::WideFloat(_) => None,
                })
                .collect();
            let vals = vals?;
            if vals.len() == 1 && n > 1 {
                Some(vec![vals[0]; n])
            } else {
                Some(vals)
            }
        }
        _ => None,
    }
}

/// `getelementptr`'s marker for "the next dynamic index" in
/// `structIndices`.
const DYNAMIC_INDEX: i64 = i32::MIN as i64;

/// Lowers the module: every LLVM-dialect function and global. Returns all
/// the diagnostics when something cannot be run.
pub fn lower(ctx: &Context, module: Op) -> Result<lir::Module, Vec<Diagnostic>> {
    let mut l = Lowerer {
        ctx,
        m: lir::Module::new(),
        errors: Vec::new(),
        functions: HashMap::new(),
    };
    let Some(&region) = ctx.regions_of(module).first() else {
        return Ok(l.m);
    };
    let body: Vec<Op> = ctx
        .region_blocks(region)
        .flat_map(|b| ctx.block_ops_iter(b).collect::<Vec<_>>())
        .collect();
    // Symbols first: calls and addresses refer to them by name.
    for &op in &body {
        let name = ctx.name(op);
        if name == "llvm.func" {
            let Some(sym) = symbol_name(ctx, op) else {
                l.error(op, "'llvm.func' without a name");
                continue;
            };
            match func_type(ctx, op) {
                Some((r, ps, vararg)) => match flat_sig(&r, &ps) {
                    Ok(sig) => {
                        l.functions.insert(sym.clone(), (sig, vararg, r, ps));
                    }
                    Err(e) => l.error(op, &format!("function '{sym}': {e}")),
                },
                None => l.error(op, &format!("function '{sym}' has no function type")),
            }
        }
    }
    for &op in &body {
        match ctx.name(op) {
            "llvm.func" => l.function(op),
            "llvm.mlir.global" => l.global(op),
            // Module-level bookkeeping with no code.
            "llvm.mlir.global_ctors" | "llvm.mlir.global_dtors" | "llvm.metadata" => {}
            "func.func" | "builtin.func" | "func" => l.error(
                op,
                "the input is not in the LLVM dialect: 'func.func' (lower it with \
                 -convert-std-to-llvm / -convert-func-to-llvm first)",
            ),
            n => {
                let n = n.to_string();
                l.error(op, &format!("unsupported op '{n}' at module level"))
            }
        }
    }
    if l.errors.is_empty() {
        Ok(l.m)
    } else {
        Err(l.errors)
    }
}

fn symbol_name(ctx: &Context, op: Op) -> Option<String> {
    let a = ctx.get_attr(op, "sym_name")?;
    match ctx.attr_kind(a) {
        AttrKind::String(s, _) => Some(String::from_utf8_lossy(s).into_owned()),
        _ => None,
    }
}

fn symbol_ref(ctx: &Context, a: Attribute) -> Option<String> {
    match ctx.attr_kind(a) {
        AttrKind::SymbolRef(s, nested) if nested.is_empty() => Some(ctx.str(*s).to_string()),
        _ => None,
    }
}

struct Lowerer<'a> {
    ctx: &'a Context,
    m: lir::Module,
    errors: Vec<Diagnostic>,
    /// Function name -> (split signature, vararg, LLVM result, params).
    functions: HashMap<String, (Sig, bool, LType, Vec<LType>)>,
}

impl Lowerer<'_> {
    fn error(&mut self, op: Op, msg: &str) {
        let loc = self.ctx.op_loc(op);
        self.error_at(loc, msg);
    }

    fn error_at(&mut self, loc: Location, msg: &str) {
        self.errors
            .push(Diagnostic::at(self.ctx, loc, Severity::Error, msg));
    }

    fn global(&mut self, op: Op) {
        let ctx = self.ctx;
        let Some(name) = symbol_name(ctx, op) else {
            self.error(op, "'llvm.mlir.global' without a name");
            return;
        };
        let ty = ctx
            .get_attr(op, "global_type")
            .or_else(|| ctx.get_attr(op, "type"))
            .and_then(|a| match ctx.attr_kind(a) {
                AttrKind::Type(t) => Some(ltype(ctx, *t)),
                _ => None,
            });
        let Some(ty) = ty else {
            self.error(op, &format!("global '{name}' has no type"));
            return;
        };
        let (size, align) = ty.size_align();
        let has_init_region = ctx
            .regions_of(op)
            .first()
            .is_some_and(|r| !ctx.region_is_empty(*r));
        if has_init_region {
            self.error(
                op,
                &format!("global '{name}' with an initializer region: not supported"),
            );
            return;
        }
        let value = ctx.get_attr(op, "value");
        let mut init = Vec::new();
        let mut external = false;
        match value.map(|a| ctx.attr_kind(a)) {
            None => {
                // A declaration is external; a definition without a value is
                // zero-initialized (undef) memory.
                let linkage = ctx
                    .get_attr(op, "linkage")
                    .map(|a| ctx.attr_kind(a).clone());
                let is_external = match linkage {
                    Some(AttrKind::Integer(i, _)) => i == 10,
                    Some(AttrKind::Opaque(s)) => s.contains("external"),
                    _ => true,
                };
                external = is_external;
            }
            Some(AttrKind::String(bytes, _)) => init = bytes.clone(),
            Some(k) => {
                let mut layout = Vec::new();
                if ty.scalar_layout(0, &mut layout).is_err() {
                    self.error(op, &format!("global '{name}' of type {}", ty.spelling()));
                    return;
                }
                let elems: Vec<DenseElem> = match k {
                    AttrKind::Integer(i, _) => vec![DenseElem::Int(*i)],
                    AttrKind::Bool(b) => vec![DenseElem::Bool(*b)],
                    AttrKind::Float(bits, _) => vec![DenseElem::Float(*bits)],
                    AttrKind::Dense(es, _, _) => es.clone(),
                    _ => {
                        self.error(op, &format!("global '{name}': initial value not supported"));
                        return;
                    }
                };
                init = vec![0u8; size as usize];
                for (i, (t, off)) in layout.iter().enumerate() {
                    let e = if elems.len() == 1 {
                        &elems[0]
                    } else {
                        &elems[i.min(elems.len() - 1)]
                    };
                    let bytes: Vec<u8> = match (t, e) {
                        (Ty::F32, DenseElem::Float(b)) => {
                            (f64::from_bits(*b) as f32).to_le_bytes().to_vec()
                        }
                        (Ty::F64, DenseElem::Float(b)) => b.to_le_bytes().to_vec(),
                        (t, DenseElem::Int(v)) => {
                            (*v as i64).to_le_bytes()[..t.size() as usize].to_vec()
                        }
                        (t, DenseElem::Bool(v)) => {
                            i64::from(*v).to_le_bytes()[..t.size() as usize].to_vec()
                        }
                        _ => {
                            self.error(
                                op,
                                &format!("global '{name}': initial value not supported"),
                            );
                            return;
                        }
                    };
                    let o = *off as usize;
                    init[o..o + bytes.len()].copy_from_slice(&bytes);
                }
            }
        }
        let align = ctx
            .get_attr(op, "alignment")
            .and_then(|a| int_attr(ctx, a))
            .map_or(align, |a| a as u64);
        self.m.globals.push(lir::Global {
            name,
            size: size as u32,
            align: align.max(1) as u32,
            init,
            external,
        });
    }

    fn function(&mut self, op: Op) {
        let ctx = self.ctx;
        let Some(name) = symbol_name(ctx, op) else {
            return;
        };
        let Some((sig, vararg, result, params)) = self.functions.get(&name).cloned() else {
            return;
        };
        let region = ctx.regions_of(op).first().copied();
        let blocks = region
            .map(|r| ctx.region_blocks(r).to_vec())
            .unwrap_or_default();
        if blocks.is_empty() {
            let is_aggregate = |t: &LType| matches!(t, LType::Struct(..) | LType::Array(..));
            if is_aggregate(&result) || params.iter().any(is_aggregate) {
                self.error(
                    op,
                    &format!(
                        "external function '{name}' takes or returns an aggregate by value: \
                         its C calling convention is not supported"
                    ),
                );
                return;
            }
            let mut f = lir::Function::declaration(name, sig);
            f.loc = self.m.loc(loc_text(ctx, ctx.op_loc(op)));
            self.m.functions.push(f);
            return;
        }
        if vararg {
            self.error(
                op,
                &format!("variadic function '{name}' defined in the module"),
            );
            return;
        }
        let mut fl = FnLowerer {
            l: self,
            b: FunctionBuilder::new(name.clone(), sig.clone()),
            vals: HashMap::new(),
            blocks: HashMap::new(),
            consts: HashMap::new(),
            poisoned: std::collections::HashSet::new(),
            ok: true,
        };
        fl.body(op, &blocks, &sig);
        if fl.ok {
            let mut f = fl.b.finish();
            f.loc = self.m.loc(loc_text(ctx, ctx.op_loc(op)));
            self.m.functions.push(f);
        }
    }
}

fn loc_text(ctx: &Context, l: Location) -> String {
    ctx.file_line_col(l)
        .map(|(f, line, col)| format!("{f}:{line}:{col}"))
        .unwrap_or_default()
}

struct FnLowerer<'a, 'b> {
    l: &'a mut Lowerer<'b>,
    b: FunctionBuilder,
    vals: HashMap<mlir_async_ir::Value, Vec<Value>>,
    blocks: HashMap<mlir_async_ir::Block, Block>,
    /// Integer constants (`llvm.mlir.constant`), for operands that must be
    /// constant (struct indices, alloca counts).
    consts: HashMap<mlir_async_ir::Value, i128>,
    /// Results of ops that could not be lowered: an op using one is not
    /// reported again (its error would only repeat the first).
    poisoned: std::collections::HashSet<mlir_async_ir::Value>,
    ok: bool,
}

/// Why an op could not be lowered.
type Fail = String;

impl FnLowerer<'_, '_> {
    fn ctx(&self) -> &Context {
        self.l.ctx
    }

    fn body(&mut self, func: Op, blocks: &[mlir_async_ir::Block], sig: &Sig) {
        let ctx = self.l.ctx;
        // Blocks: the entry is LIR block 0 (its arguments are the function's
        // parameters), the others get their split arguments.
        for (i, &blk) in blocks.iter().enumerate() {
            let lb = if i == 0 {
                Block(0)
            } else {
                let mut tys = Vec::new();
                for &a in ctx.block_args(blk) {
                    if let Err(e) = ltype(ctx, ctx.value_type(a)).scalars(&mut tys) {
                        let loc = ctx.value_loc(a);
                        self.l.error_at(loc, &format!("a block argument: {e}"));
                        self.ok = false;
                        return;
                    }
                }
                self.b.create_block(&tys)
            };
            self.blocks.insert(blk, lb);
            let params = self.b.params(lb).to_vec();
            let mut k = 0;
            for &a in ctx.block_args(blk) {
                let w = ltype(ctx, ctx.value_type(a)).width().unwrap_or(0);
                let vs = params.get(k..k + w).map(|s| s.to_vec()).unwrap_or_default();
                k += w;
                self.vals.insert(a, vs);
            }
            if i == 0 && k != sig.params.len() {
                self.l
                    .error(func, "entry block arguments do not match the function type");
                self.ok = false;
                return;
            }
        }
        for &blk in blocks {
            self.b.switch_to(self.blocks[&blk]);
            for op in ctx.block_ops_iter(blk) {
                if self.b.current().is_none() {
                    self.l.error(op, "an op after the block's terminator");
                    self.ok = false;
                    break;
                }
                if let Err(msg) = self.op(op) {
                    if !ctx.operands(op).iter().any(|v| self.poisoned.contains(v)) {
                        self.l.error(op, &msg);
                    }
                    self.poisoned.extend(ctx.results(op).iter().copied());
                    self.ok = false;
                    // Keep going: report every unsupported op.
                    if self.b.current().is_none() {
                        let dead = self.b.create_block(&[]);
                        self.b.switch_to(dead);
                    }
                    for &r in ctx.results(op) {
                        let tys = ltype(ctx, ctx.value_type(r))
                            .scalar_types()
                            .unwrap_or_default();
                        let vs = tys.iter().map(|t| self.b.new_value(*t)).collect();
                        self.vals.insert(r, vs);
                    }
                }
            }
            if self.b.current().is_some() {
                self.b.terminate(Terminator::Unreachable);
            }
        }
    }

    fn get(&self, v: mlir_async_ir::Value) -> Result<Vec<Value>, Fail> {
        self.vals
            .get(&v)
            .cloned()
            .ok_or_else(|| "an operand defined after its use (in a block not yet seen)".into())
    }

    fn get1(&self, v: mlir_async_ir::Value) -> Result<Value, Fail> {
        match self.get(v)?.as_slice() {
            [x] => Ok(*x),
            vs => Err(format!(
                "an operand of {} scalars where one is expected",
                vs.len()
            )),
        }
    }

    fn lt(&self, v: mlir_async_ir::Value) -> LType {
        ltype(self.ctx(), self.ctx().value_type(v))
    }

    fn set(&mut self, v: mlir_async_ir::Value, vs: Vec<Value>) {
        self.vals.insert(v, vs);
    }

    fn scalar_ty(&self, v: mlir_async_ir::Value) -> Result<Ty, Fail> {
        match self.lt(v).scalar_types()?.as_slice() {
            [t] => Ok(*t),
            _ => Err(format!(
                "values of type {} are not supported by mlir-async-run",
                self.lt(v).spelling()
            )),
        }
    }

    fn target(
        &self,
        blk: mlir_async_ir::Block,
        args: &[mlir_async_ir::Value],
    ) -> Result<Target, Fail> {
        let mut flat = Vec::new();
        for a in args {
            flat.extend(self.get(*a)?);
        }
        Ok(Target {
            block: self.blocks[&blk],
            args: flat,
        })
    }

    fn attr(&self, op: Op, name: &str) -> Option<Attribute> {
        self.ctx().get_attr(op, name)
    }

    fn op(&mut self, op: Op) -> Result<(), Fail> {
        let ctx = self.l.ctx;
        let name = ctx.name(op);
        let operands = ctx.operands(op).to_vec();
        let results = ctx.results(op).to_vec();
        let res = results.first().copied();
        let opnd = |i: usize| -> Result<mlir_async_ir::Value, Fail> {
            operands
                .get(i)
                .copied()
                .ok_or_else(|| format!("'{name}' with too few operands"))
        };
        let res0 = || -> Result<mlir_async_ir::Value, Fail> {
            results
                .first()
                .copied()
                .ok_or_else(|| format!("'{name}' without a result"))
        };
        let succ_n = |i: usize| -> Result<mlir_async_ir::Block, Fail> {
            ctx.successors(op)
                .get(i)
                .copied()
                .ok_or_else(|| format!("'{name}' with too few successors"))
        };
        let bin = |op: BinOp| Some(op);
        let binop = match name {
            "llvm.add" => bin(BinOp::Add),
            "llvm.sub" => bin(BinOp::Sub),
            "llvm.mul" => bin(BinOp::Mul),
            "llvm.sdiv" => bin(BinOp::SDiv),
            "llvm.udiv" => bin(BinOp::UDiv),
            "llvm.srem" => bin(BinOp::SRem),
            "llvm.urem" => bin(BinOp::URem),
            "llvm.and" => bin(BinOp::And),
            "llvm.or" => bin(BinOp::Or),
            "llvm.xor" => bin(BinOp::Xor),
            "llvm.shl" => bin(BinOp::Shl),
            "llvm.lshr" => bin(BinOp::LShr),
            "llvm.ashr" => bin(BinOp::AShr),
            "llvm.fadd" => bin(BinOp::FAdd),
            "llvm.fsub" => bin(BinOp::FSub),
            "llvm.fmul" => bin(BinOp::FMul),
            "llvm.fdiv" => bin(BinOp::FDiv),
            "llvm.frem" => bin(BinOp::FRem),
            "llvm.intr.smax" => bin(BinOp::SMax),
            "llvm.intr.smin" => bin(BinOp::SMin),
            "llvm.intr.umax" => bin(BinOp::UMax),
            "llvm.intr.umin" => bin(BinOp::UMin),
            "llvm.intr.minnum" => bin(BinOp::FMinNum),
            "llvm.intr.maxnum" => bin(BinOp::FMaxNum),
            "llvm.intr.minimum" => bin(BinOp::FMinimum),
            "llvm.intr.maximum" => bin(BinOp::FMaximum),
            "llvm.intr.copysign" => bin(BinOp::FCopySign),
            "llvm.intr.pow" => bin(BinOp::FPow),
            _ => None,
        };
        if let Some(bop) = binop {
            let (a, b) = (self.get1(opnd(0)?)?, self.get1(opnd(1)?)?);
            let t = self.scalar_ty(res.ok_or("no result")?)?;
            if self.b.ty(a) != t || self.b.ty(b) != t || bop.is_float() != t.is_float() {
                return Err(format!("'{name}' of operands of mismatched types"));
            }
            let r = self.b.inst1(InstKind::Binary(bop, a, b), t);
            self.set(res0()?, vec![r]);
            return Ok(());
        }
        let unop = match name {
            "llvm.fneg" => Some(UnOp::FNeg),
            "llvm.intr.fabs" => Some(UnOp::FAbs),
            "llvm.intr.sqrt" => Some(UnOp::FSqrt),
            "llvm.intr.floor" => Some(UnOp::FFloor),
            "llvm.intr.ceil" => Some(UnOp::FCeil),
            "llvm.intr.trunc" => Some(UnOp::FTrunc),
            "llvm.intr.roundeven" => Some(UnOp::FRoundEven),
            "llvm.intr.round" => Some(UnOp::FRound),
            "llvm.intr.exp" => Some(UnOp::FExp),
            "llvm.intr.exp2" => Some(UnOp::FExp2),
            "llvm.intr.log" => Some(UnOp::FLog),
            "llvm.intr.log2" => Some(UnOp::FLog2),
            "llvm.intr.log10" => Some(UnOp::FLog10),
            "llvm.intr.sin" => Some(UnOp::FSin),
            "llvm.intr.cos" => Some(UnOp::FCos),
            "llvm.intr.ctlz" => Some(UnOp::Ctlz),
            "llvm.intr.cttz" => Some(UnOp::Cttz),
            "llvm.intr.ctpop" => Some(UnOp::Ctpop),
            "llvm.intr.abs" => Some(UnOp::IAbs),
            "llvm.intr.bswap" => Some(UnOp::BSwap),
            _ => None,
        };
        if let Some(u) = unop {
            let a = self.get1(opnd(0)?)?;
            let t = self.scalar_ty(res.ok_or("no result")?)?;
            let float_op = !matches!(
                u,
                UnOp::Ctlz | UnOp::Cttz | UnOp::Ctpop | UnOp::IAbs | UnOp::BSwap
            );
            if self.b.ty(a) != t || float_op != t.is_float() || (u == UnOp::BSwap && t == Ty::I1) {
                return Err(format!("'{name}' of an operand of mismatched type"));
            }
            let r = self.b.inst1(InstKind::Unary(u, a), t);
            self.set(res0()?, vec![r]);
            return Ok(());
        }
        let cast = match name {
            "llvm.sext" => Some(CastOp::SExt),
            "llvm.zext" => Some(CastOp::ZExt),
            "llvm.trunc" => Some(CastOp::Trunc),
            "llvm.sitofp" => Some(CastOp::SIToFP),
            "llvm.uitofp" => Some(CastOp::UIToFP),
            "llvm.fptosi" => Some(CastOp::FPToSI),
            "llvm.fptoui" => Some(CastOp::FPToUI),
            "llvm.fpext" => Some(CastOp::FPExt),
            "llvm.fptrunc" => Some(CastOp::FPTrunc),
            "llvm.ptrtoint" => Some(CastOp::PtrToInt),
            "llvm.inttoptr" => Some(CastOp::IntToPtr),
            _ => None,
        };
        if let Some(c) = cast {
            let a = self.get1(opnd(0)?)?;
            let t = self.scalar_ty(res.ok_or("no result")?)?;
            let f = self.b.ty(a);
            let ok = match c {
                CastOp::SExt | CastOp::ZExt => f.is_int() && t.is_int() && t.bits() >= f.bits(),
                CastOp::Trunc => f.is_int() && t.is_int() && t.bits() <= f.bits(),
                CastOp::SIToFP | CastOp::UIToFP => f.is_int() && t.is_float(),
                CastOp::FPToSI | CastOp::FPToUI => f.is_float() && t.is_int(),
                CastOp::FPExt => f.is_float() && t.is_float() && t.bits() >= f.bits(),
                CastOp::FPTrunc => f.is_float() && t.is_float() && t.bits() <= f.bits(),
                CastOp::PtrToInt | CastOp::IntToPtr | CastOp::Bitcast => f.is_int() && t.is_int(),
            };
            if !ok {
                return Err(format!("'{name}' from {f} to {t}"));
            }
            let r = self.b.cast(c, a, t);
            self.set(res0()?, vec![r]);
            return Ok(());
        }
        match name {
            "llvm.mlir.constant" => {
                let r = res.ok_or("no result")?;
                let t = self.scalar_ty(r)?;
                let a = self.attr(op, "value").ok_or("a constant without a value")?;
                let v = match (ctx.attr_kind(a), t) {
                    (AttrKind::Integer(i, _), t) if t.is_int() => {
                        self.consts.insert(r, *i);
                        self.b.iconst(t, *i as i64)
                    }
                    (AttrKind::Bool(bv), t) if t.is_int() => {
                        self.consts.insert(r, i128::from(*bv));
                        self.b.iconst(t, i64::from(*bv))
                    }
                    (AttrKind::Float(bits, _), Ty::F32) => {
                        self.b.f32const(f64::from_bits(*bits) as f32)
                    }
                    (AttrKind::Float(bits, _), Ty::F64) => self.b.f64const(f64::from_bits(*bits)),
                    (AttrKind::Integer(i, _), Ty::F32) => self.b.f32const(*i as f32),
                    (AttrKind::Integer(i, _), Ty::F64) => self.b.f64const(*i as f64),
                    _ => {
                        return Err(
                            "'llvm.mlir.constant' of this value and type is not supported".into(),
                        )
                    }
                };
                self.set(r, vec![v]);
            }
            "llvm.mlir.undef" | "llvm.mlir.poison" => {
                let r = res.ok_or("no result")?;
                let tys = self.lt(r).scalar_types()?;
                let vs = tys.iter().map(|t| self.zero(*t)).collect();
                self.set(r, vs);
            }
            "llvm.mlir.null" => {
                let v = self.b.iconst(Ty::Ptr, 0);
                self.set(res.ok_or("no result")?, vec![v]);
            }
            "llvm.mlir.addressof" => {
                let a = self
                    .attr(op, "global_name")
                    .and_then(|a| symbol_ref(ctx, a))
                    .ok_or("'llvm.mlir.addressof' without a symbol")?;
                let kind = if self.l.functions.contains_key(&a) {
                    InstKind::FuncAddr(a)
                } else {
                    InstKind::GlobalAddr(a)
                };
                let v = self.b.inst1(kind, Ty::Ptr);
                self.set(res.ok_or("no result")?, vec![v]);
            }
            "llvm.bitcast" | "llvm.addrspacecast" => {
                let r = res.ok_or("no result")?;
                let (from, to) = (self.lt(opnd(0)?), self.lt(r));
                let vs = self.get(opnd(0)?)?;
                let out = match (&from, &to) {
                    (LType::Ptr(_), LType::Ptr(_)) => vs,
                    _ => {
                        let (ft, tt) = (self.scalar_ty(opnd(0)?)?, self.scalar_ty(r)?);
                        if ft.size() != tt.size() {
                            return Err(format!(
                                "'{name}' from {} to {}",
                                from.spelling(),
                                to.spelling()
                            ));
                        }
                        vec![self.b.cast(CastOp::Bitcast, vs[0], tt)]
                    }
                };
                self.set(r, out);
            }
            "llvm.icmp" | "llvm.fcmp" => {
                let p = self
                    .attr(op, "predicate")
                    .and_then(|a| int_attr(ctx, a))
                    .ok_or("a comparison without a predicate")?;
                let (a, b) = (self.get1(opnd(0)?)?, self.get1(opnd(1)?)?);
                if self.b.ty(a) != self.b.ty(b) || (name == "llvm.icmp") == self.b.ty(a).is_float()
                {
                    return Err(format!("'{name}' of operands of mismatched types"));
                }
                let kind = if name == "llvm.icmp" {
                    let cc = [
                        IntCC::Eq,
                        IntCC::Ne,
                        IntCC::Slt,
                        IntCC::Sle,
                        IntCC::Sgt,
                        IntCC::Sge,
                        IntCC::Ult,
                        IntCC::Ule,
                        IntCC::Ugt,
                        IntCC::Uge,
                    ];
                    InstKind::Icmp(*cc.get(p as usize).ok_or("bad predicate")?, a, b)
                } else {
                    let cc = [
                        FloatCC::False,
                        FloatCC::Oeq,
                        FloatCC::Ogt,
                        FloatCC::Oge,
                        FloatCC::Olt,
                        FloatCC::Ole,
                        FloatCC::One,
                        FloatCC::Ord,
                        FloatCC::Ueq,
                        FloatCC::Ugt,
                        FloatCC::Uge,
                        FloatCC::Ult,
                        FloatCC::Ule,
                        FloatCC::Une,
                        FloatCC::Uno,
                        FloatCC::True,
                    ];
                    InstKind::Fcmp(*cc.get(p as usize).ok_or("bad predicate")?, a, b)
                };
                let r = self.b.inst1(kind, Ty::I1);
                self.set(res0()?, vec![r]);
            }
            "llvm.select" => {
                let c = self.get1(opnd(0)?)?;
                let (a, b) = (self.get(opnd(1)?)?, self.get(opnd(2)?)?);
                let same = a.len() == b.len()
                    && a.iter()
                        .zip(&b)
                        .all(|(x, y)| self.b.ty(*x) == self.b.ty(*y));
                if self.b.ty(c) != Ty::I1 || !same {
                    return Err("'llvm.select' of operands of mismatched types".into());
                }
                let mut out = Vec::new();
                for (x, y) in a.iter().zip(&b) {
                    let t = self.b.ty(*x);
                    out.push(self.b.inst1(InstKind::Select(c, *x, *y), t));
                }
                self.set(res0()?, out);
            }
            "llvm.insertvalue" => {
                let r = res.ok_or("no result")?;
                let pos = self
                    .attr(op, "position")
                    .and_then(|a| int_list(ctx, a))
                    .ok_or("'llvm.insertvalue' without a position")?;
                let (start, w, _) = self.lt(r).flat_range(&pos)?;
                let mut agg = self.get(opnd(0)?)?;
                let v = self.get(opnd(1)?)?;
                if v.len() != w || start + w > agg.len() {
                    return Err("'llvm.insertvalue' of a value of the wrong type".into());
                }
                agg[start..start + w].copy_from_slice(&v);
                self.set(r, agg);
            }
            "llvm.extractvalue" => {
                let pos = self
                    .attr(op, "position")
                    .and_then(|a| int_list(ctx, a))
                    .ok_or("'llvm.extractvalue' without a position")?;
                let (start, w, _) = self.lt(opnd(0)?).flat_range(&pos)?;
                let agg = self.get(opnd(0)?)?;
                let v = agg
                    .get(start..start + w)
                    .ok_or("position out of range")?
                    .to_vec();
                self.set(res0()?, v);
            }
            "llvm.load" => {
                let r = res.ok_or("no result")?;
                let addr = self.get1(opnd(0)?)?;
                let mut layout = Vec::new();
                self.lt(r).scalar_layout(0, &mut layout)?;
                let vs = layout
                    .iter()
                    .map(|(t, off)| self.b.load(*t, addr, *off as i32))
                    .collect();
                self.set(r, vs);
            }
            "llvm.store" => {
                let vs = self.get(opnd(0)?)?;
                let addr = self.get1(opnd(1)?)?;
                let mut layout = Vec::new();
                self.lt(opnd(0)?).scalar_layout(0, &mut layout)?;
                for (v, (_, off)) in vs.iter().zip(&layout) {
                    self.b.store(*v, addr, *off as i32);
                }
            }
            "llvm.alloca" => {
                let r = res.ok_or("no result")?;
                let elem = match self.attr(op, "elem_type").map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::Type(t)) => ltype(ctx, *t),
                    _ => match self.lt(r) {
                        LType::Ptr(Some(t)) => *t,
                        _ => return Err("'llvm.alloca' of an unknown element type".into()),
                    },
                };
                let n = *self
                    .consts
                    .get(&opnd(0)?)
                    .ok_or("'llvm.alloca' with a count that is not a constant")?;
                let (size, align) = elem.size_align();
                let align = self
                    .attr(op, "alignment")
                    .and_then(|a| int_attr(ctx, a))
                    .filter(|a| *a > 0)
                    .map_or(align, |a| a as u64);
                let total = size
                    .checked_mul(n.max(0) as u64)
                    .filter(|t| *t < (1 << 30))
                    .ok_or("'llvm.alloca' of more than 1 GiB")?;
                let v = self.b.inst1(
                    InstKind::StackAlloc {
                        size: total as u32,
                        align: align as u32,
                    },
                    Ty::Ptr,
                );
                self.set(r, vec![v]);
            }
            "llvm.getelementptr" => {
                opnd(0)?;
                self.gep(op, &operands, res0()?)?
            }
            "llvm.call" => self.call(op, &operands, &results)?,
            "llvm.return" => {
                let mut vs = Vec::new();
                for o in &operands {
                    vs.extend(self.get(*o)?);
                }
                self.b.ret(vs);
            }
            "llvm.br" => {
                let t = self.target(succ_n(0)?, &operands)?;
                self.b.terminate(Terminator::Br(t));
            }
            "llvm.cond_br" => {
                let seg = self
                    .attr(op, "operand_segment_sizes")
                    .and_then(|a| int_list(ctx, a))
                    .unwrap_or_else(|| vec![1, 0, 0]);
                let (nt, _) = (seg.get(1).copied().unwrap_or(0) as usize, 0);
                let c = self.get1(opnd(0)?)?;
                let args = operands
                    .get(1..)
                    .ok_or("'llvm.cond_br' without a condition")?;
                let (ta, ea) = (args.get(..nt), args.get(nt..));
                let t = self.target(succ_n(0)?, ta.ok_or("bad 'llvm.cond_br' operands")?)?;
                let e = self.target(succ_n(1)?, ea.ok_or("bad 'llvm.cond_br' operands")?)?;
                self.b.terminate(Terminator::CondBr(c, t, e));
            }
            "llvm.switch" => {
                let seg = self
                    .attr(op, "operand_segment_sizes")
                    .and_then(|a| int_list(ctx, a))
                    .unwrap_or_else(|| vec![1, 0, 0]);
                let nd = seg.get(1).copied().unwrap_or(0) as usize;
                let v = self.get1(opnd(0)?)?;
                let succ = ctx.successors(op).to_vec();
                let args = operands.get(1..).ok_or("'llvm.switch' without a value")?;
                let default_args = args.get(..nd).ok_or("bad 'llvm.switch' operands")?;
                let default = self.target(succ_n(0)?, default_args)?;
                let case_ops = &args[nd..];
                let values = self
                    .attr(op, "case_values")
                    .and_then(|a| int_list(ctx, a))
                    .unwrap_or_default();
                let ncases = succ.len().saturating_sub(1);
                // Per case: operand counts (14, 15) or start offsets (13).
                let ranges: Vec<(usize, usize)> = if let Some(sizes) = self
                    .attr(op, "case_operand_segments")
                    .and_then(|a| int_list(ctx, a))
                {
                    let mut st = 0;
                    (0..ncases)
                        .map(|i| {
                            let n = sizes.get(i).copied().unwrap_or(0) as usize;
                            let r = (st, st + n);
                            st += n;
                            r
                        })
                        .collect()
                } else if let Some(offs) = self
                    .attr(op, "case_operand_offsets")
                    .and_then(|a| int_list(ctx, a))
                {
                    (0..ncases)
                        .map(|i| {
                            let st = offs.get(i).copied().unwrap_or(0) as usize;
                            let en = offs.get(i + 1).map_or(case_ops.len(), |x| *x as usize);
                            (st, en)
                        })
                        .collect()
                } else {
                    vec![(0, 0); ncases]
                };
                let mut cases = Vec::new();
                for (i, (st, en)) in ranges.into_iter().enumerate() {
                    let args = case_ops.get(st..en).ok_or("bad switch operands")?;
                    let t = self.target(succ[i + 1], args)?;
                    cases.push((*values.get(i).ok_or("a switch case without a value")?, t));
                }
                self.b.terminate(Terminator::Switch {
                    value: v,
                    default,
                    cases,
                });
            }
            "llvm.unreachable" => self.b.terminate(Terminator::Unreachable),
            "llvm.atomicrmw" => {
                let (addr, v) = (self.get1(opnd(0)?)?, self.get1(opnd(1)?)?);
                let code = self
                    .attr(op, "bin_op")
                    .and_then(|a| int_attr(ctx, a))
                    .ok_or("'llvm.atomicrmw' without an operation")?;
                use lir::AtomicOp as A;
                let aop = match code {
                    0 => A::Xchg,
                    1 => A::Add,
                    2 => A::Sub,
                    3 => A::And,
                    4 => A::Nand,
                    5 => A::Or,
                    6 => A::Xor,
                    7 => A::SMax,
                    8 => A::SMin,
                    9 => A::UMax,
                    10 => A::UMin,
                    _ => return Err("'llvm.atomicrmw' on floats is not supported".into()),
                };
                let t = self.b.ty(v);
                if !t.is_int() || t == Ty::I1 {
                    return Err(format!("'llvm.atomicrmw' on {t}"));
                }
                let r = self.b.inst1(
                    InstKind::AtomicRmw {
                        op: aop,
                        addr,
                        value: v,
                    },
                    t,
                );
                self.set(res0()?, vec![r]);
            }
            "llvm.cmpxchg" => {
                let (addr, e, n) = (
                    self.get1(opnd(0)?)?,
                    self.get1(opnd(1)?)?,
                    self.get1(opnd(2)?)?,
                );
                let t = self.b.ty(e);
                if !t.is_int() || t == Ty::I1 || self.b.ty(n) != t {
                    return Err(format!("'llvm.cmpxchg' on {t}"));
                }
                let old = self.b.inst1(
                    InstKind::AtomicCas {
                        addr,
                        expected: e,
                        new: n,
                    },
                    t,
                );
                let ok = self.b.icmp(IntCC::Eq, old, e);
                self.set(res0()?, vec![old, ok]);
            }
            "llvm.fence" => {
                self.b.inst(InstKind::Fence, &[]);
            }
            "llvm.intr.coro.id" => {
                let v = self.b.inst1(InstKind::CoroId, Ty::I64);
                self.set(res0()?, vec![v]);
            }
            "llvm.intr.coro.size" | "llvm.intr.coro.align" => {
                let t = self.scalar_ty(res0()?)?;
                let k = if name == "llvm.intr.coro.size" {
                    InstKind::CoroSize
                } else {
                    InstKind::CoroAlign
                };
                let v = self.with_loc(op, |b| b.inst1(k, t));
                self.set(res0()?, vec![v]);
            }
            "llvm.intr.coro.begin" => {
                let mem = self.get1(opnd(1)?)?;
                let v = self.with_loc(op, |b| b.inst1(InstKind::CoroBegin(mem), Ty::Ptr));
                self.set(res0()?, vec![v]);
            }
            "llvm.intr.coro.save" => {
                let h = self.get1(opnd(0)?)?;
                let v = self.with_loc(op, |b| b.inst1(InstKind::CoroSave(h), Ty::I64));
                self.set(res0()?, vec![v]);
            }
            "llvm.intr.coro.suspend" => {
                let save = self.get1(opnd(0)?)?;
                let is_final = match operands.get(1) {
                    Some(f) => {
                        *self.consts.get(f).ok_or(
                            "'llvm.intr.coro.suspend' whose 'final' flag is not a constant",
                        )? != 0
                    }
                    None => false,
                };
                let l = self.l.m.loc(loc_text(ctx, ctx.op_loc(op)));
                self.b.loc = l;
                let r = self.b.coro_suspend(save, is_final);
                self.b.loc = lir::Loc(0);
                self.set(res0()?, vec![r]);
            }
            "llvm.intr.coro.free" => {
                let h = self.get1(opnd(1)?)?;
                let v = self.b.inst1(InstKind::CoroFree(h), Ty::Ptr);
                self.set(res0()?, vec![v]);
            }
            "llvm.intr.coro.end" => {
                let h = self.get1(opnd(0)?)?;
                let tys: Vec<Ty> = match res {
                    Some(r) => vec![self.scalar_ty(r)?],
                    None => vec![],
                };
                let vs = self.with_loc(op, |b| b.inst(InstKind::CoroEnd(h), &tys));
                if let Some(r) = res {
                    self.set(r, vs);
                }
            }
            "llvm.intr.coro.resume" | "llvm.intr.coro.destroy" => {
                let h = self.get1(opnd(0)?)?;
                let k = if name == "llvm.intr.coro.resume" {
                    InstKind::CoroResume(h)
                } else {
                    InstKind::CoroDestroy(h)
                };
                self.b.inst(k, &[]);
            }
            "llvm.intr.memcpy" | "llvm.intr.memmove" | "llvm.intr.memset" => {
                let d = self.get1(opnd(0)?)?;
                let s = self.get1(opnd(1)?)?;
                let n = self.get1(opnd(2)?)?;
                let n = self.widen(n, Ty::I64);
                if name == "llvm.intr.memset" {
                    let s = self.widen(s, Ty::I32);
                    self.b.call(
                        "memset",
                        Sig::new(vec![Ty::Ptr, Ty::I32, Ty::I64], vec![Ty::Ptr]),
                        vec![d, s, n],
                    );
                } else {
                    let f = if name == "llvm.intr.memcpy" {
                        "memcpy"
                    } else {
                        "memmove"
                    };
                    self.b.call(
                        f,
                        Sig::new(vec![Ty::Ptr, Ty::Ptr, Ty::I64], vec![Ty::Ptr]),
                        vec![d, s, n],
                    );
                }
            }
            "llvm.intr.fma" | "llvm.intr.fmuladd" => {
                let (a, b, c) = (
                    self.get1(opnd(0)?)?,
                    self.get1(opnd(1)?)?,
                    self.get1(opnd(2)?)?,
                );
                let t = self.scalar_ty(res0()?)?;
                let f = if t == Ty::F32 { "fmaf" } else { "fma" };
                let r = if name == "llvm.intr.fmuladd" {
                    let m = self.b.bin(BinOp::FMul, a, b);
                    self.b.bin(BinOp::FAdd, m, c)
                } else {
                    self.b
                        .call(f, Sig::new(vec![t, t, t], vec![t]), vec![a, b, c])[0]
                };
                self.set(res0()?, vec![r]);
            }
            "llvm.intr.stacksave" => {
                let v = self.b.iconst(Ty::Ptr, 0);
                self.set(res0()?, vec![v]);
            }
            "llvm.intr.stackrestore"
            | "llvm.intr.assume"
            | "llvm.intr.prefetch"
            | "llvm.intr.lifetime.start"
            | "llvm.intr.lifetime.end" => {}
            _ => return Err(format!("'{name}' is not supported by mlir-async-run")),
        }
        Ok(())
    }

    fn with_loc<R>(&mut self, op: Op, f: impl FnOnce(&mut FunctionBuilder) -> R) -> R {
        let ctx = self.l.ctx;
        let l = self.l.m.loc(loc_text(ctx, ctx.op_loc(op)));
        self.b.loc = l;
        let r = f(&mut self.b);
        self.b.loc = lir::Loc(0);
        r
    }

    fn zero(&mut self, t: Ty) -> Value {
        match t {
            Ty::F32 => self.b.f32const(0.0),
            Ty::F64 => self.b.f64const(0.0),
            t => self.b.iconst(t, 0),
        }
    }

    /// Sign- or zero-extends an integer to `to` (no-op if as wide).
    fn widen(&mut self, v: Value, to: Ty) -> Value {
        let t = self.b.ty(v);
        if t.bits() >= to.bits() {
            v
        } else {
            self.b.cast(CastOp::ZExt, v, to)
        }
    }

    fn sext64(&mut self, v: Value) -> Value {
        let t = self.b.ty(v);
        if t.bits() >= 64 {
            v
        } else {
            self.b.cast(CastOp::SExt, v, Ty::I64)
        }
    }

    fn gep(
        &mut self,
        op: Op,
        operands: &[mlir_async_ir::Value],
        result: mlir_async_ir::Value,
    ) -> Result<(), Fail> {
        let ctx = self.l.ctx;
        let base = self.get1(operands[0])?;
        let dynamic = &operands[1..];
        // The indices: constants and operands, in order.
        enum Idx {
            Const(i64),
            Dyn(mlir_async_ir::Value),
        }
        let idxs: Vec<Idx> = match self
            .attr(op, "structIndices")
            .or_else(|| self.attr(op, "rawConstantIndices"))
            .and_then(|a| int_list(ctx, a))
        {
            Some(list) => {
                let mut k = 0;
                let mut out = Vec::new();
                for x in list {
                    if x == DYNAMIC_INDEX {
                        out.push(Idx::Dyn(*dynamic.get(k).ok_or("too few GEP indices")?));
                        k += 1;
                    } else {
                        out.push(Idx::Const(x));
                    }
                }
                out
            }
            None => dynamic.iter().map(|v| Idx::Dyn(*v)).collect(),
        };
        let elem = match self.attr(op, "elem_type").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::Type(t)) => ltype(ctx, *t),
            _ => match self.lt(operands[0]) {
                LType::Ptr(Some(t)) => *t,
                t => {
                    return Err(format!(
                        "'llvm.getelementptr' on {} with no element type",
                        t.spelling()
                    ))
                }
            },
        };
        let mut cur = elem;
        let mut offset: i64 = 0;
        let mut addr = base;
        for (k, idx) in idxs.iter().enumerate() {
            // The first index steps over whole elements; the others into them.
            let (scale, next) = if k == 0 {
                (cur.size() as i64, cur.clone())
            } else {
                match &cur {
                    LType::Struct(..) => {
                        let i = match idx {
                            Idx::Const(c) => *c,
                            Idx::Dyn(v) => *self
                                .consts
                                .get(v)
                                .ok_or("a struct index that is not a constant")?
                                as i64,
                        };
                        let (off, f) = cur
                            .field_offset(i.max(0) as u64)
                            .ok_or("struct index out of range")?;
                        offset += off as i64;
                        cur = f.clone();
                        continue;
                    }
                    LType::Array(e, _) | LType::Vector(e, _) => (e.size() as i64, (**e).clone()),
                    t => return Err(format!("'llvm.getelementptr' into {}", t.spelling())),
                }
            };
            match idx {
                Idx::Const(c) => offset += c * scale,
                Idx::Dyn(v) => {
                    if let Some(c) = self.consts.get(v) {
                        offset += *c as i64 * scale;
                    } else {
                        let i = self.get1(*v)?;
                        let i = self.sext64(i);
                        let s = self.b.iconst(Ty::I64, scale);
                        let m = self.b.bin(BinOp::Mul, i, s);
                        addr = self.b.inst1(InstKind::Binary(BinOp::Add, addr, m), Ty::Ptr);
                    }
                }
            }
            cur = next;
        }
        if offset != 0 {
            let c = self.b.iconst(Ty::I64, offset);
            addr = self.b.inst1(InstKind::Binary(BinOp::Add, addr, c), Ty::Ptr);
        }
        self.set(result, vec![addr]);
        Ok(())
    }

    fn call(
        &mut self,
        op: Op,
        operands: &[mlir_async_ir::Value],
        results: &[mlir_async_ir::Value],
    ) -> Result<(), Fail> {
        let ctx = self.l.ctx;
        let callee = self.attr(op, "callee").and_then(|a| symbol_ref(ctx, a));
        let (callee, args) = match callee {
            Some(n) => (Callee::Direct(n), operands),
            None => {
                let p = self.get1(
                    *operands
                        .first()
                        .ok_or("an indirect call without a callee")?,
                )?;
                (Callee::Indirect(p), &operands[1..])
            }
        };
        let mut flat = Vec::new();
        let mut ptys = Vec::new();
        for a in args {
            flat.extend(self.get(*a)?);
            self.lt(*a).scalars(&mut ptys)?;
        }
        let mut rtys = Vec::new();
        for r in results {
            self.lt(*r).scalars(&mut rtys)?;
        }
        if let Callee::Direct(n) = &callee {
            match self.l.functions.get(n) {
                Some((_, true, _, fixed)) => {
                    // A variadic callee: fine for integer and pointer
                    // arguments; floats would need the x86-64 vector
                    // register count in %al, which is not set.
                    let nfixed = fixed.len();
                    if args[nfixed.min(args.len())..]
                        .iter()
                        .any(|a| matches!(self.lt(*a), LType::F32 | LType::F64))
                    {
                        return Err(format!(
                            "a call of variadic function '{n}' with floating-point variadic \
                             arguments is not supported"
                        ));
                    }
                }
                Some(_) => {}
                None => return Err(format!("a call of undeclared function '{n}'")),
            }
        }
        let vs = self.b.inst(
            InstKind::Call {
                callee,
                args: flat,
                sig: Sig::new(ptys, rtys.clone()),
            },
            &rtys,
        );
        let mut k = 0;
        for r in results {
            let w = self.lt(*r).width()?;
            self.set(*r, vs[k..k + w].to_vec());
            k += w;
        }
        Ok(())
    }
}
