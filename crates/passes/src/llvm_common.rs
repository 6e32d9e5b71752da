//! What every lowering to the LLVM dialect shares, as MLIR's `LLVMCommon`:
//! the type converter (`index` to `i64`, a memref to its descriptor
//! struct, builtin types LLVM can hold kept, function signatures with
//! memrefs expanded into their fields), the memref descriptors
//! ([`desc`], [`unranked`]), the patterns' common steps (one-to-one
//! rewrites, n-D vectors unrolled into arrays, strided element pointers,
//! allocation sizes) and the conversion target.

use mlir_async_dialects::llvm::types as llvm;
use mlir_async_dialects::llvm_build as lb;
use mlir_async_ir::{AttrKind, Attribute, Context, Location, Op, Type, TypeKind, Value};
use mlir_async_rewrite::{
    conversion::Conv, Builder, ConversionPattern, ConversionPatternSet, ConversionRewriter,
    ConversionTarget, RewriteError, Rewriter, SignatureConversion, TypeConversion, TypeConverter,
};
use mlir_async_syntax::Edition;
use std::rc::Rc;

type R = Result<Value, RewriteError>;

/// How `memref.alloc` gets its memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocLowering {
    Malloc,
    AlignedAlloc,
}

/// Options of the lowering (MLIR's `LowerToLLVMOptions`).
#[derive(Clone, Copy, Debug)]
pub struct LowerToLlvmOptions {
    /// The width `index` becomes.
    pub index_bitwidth: u32,
    pub alloc: AllocLowering,
    /// `emit-c-wrappers`: every function gets its `_mlir_ciface_` wrapper.
    pub emit_c_wrappers: bool,
}

impl Default for LowerToLlvmOptions {
    fn default() -> Self {
        LowerToLlvmOptions {
            index_bitwidth: 64,
            alloc: AllocLowering::Malloc,
            emit_c_wrappers: false,
        }
    }
}

/// The width of a pointer in the default data layout.
const POINTER_BITS: u32 = 64;

/// MLIR's `LLVMTypeConverter`. Later conversions are tried first, so the
/// catch-all "LLVM-compatible types stay" comes before the specific ones.
/// Its casts are source and target materializations; LLVM 14's driver
/// also falls back to a cast where no argument materialization applies,
/// LLVM 13's keeps the new argument itself.
pub fn llvm_type_converter(opts: LowerToLlvmOptions, edition: Edition) -> TypeConverter {
    let mut conv = TypeConverter::new();
    conv.add_conversion(move |c, ctx, t| {
        let converted = match ctx.kind(t).clone() {
            TypeKind::Index => Some(ctx.int_type(opts.index_bitwidth)),
            TypeKind::Integer(w, _) => Some(ctx.int_type(w)),
            k if k.is_float() => Some(t),
            TypeKind::Complex(e) => c
                .convert_type(ctx, e)
                .map(|e| llvm::literal_struct(ctx, &[e, e], false)),
            TypeKind::Function(ins, outs) => {
                convert_function_signature(c, ctx, opts, &ins, &outs, false)
                    .map(|(f, _)| llvm::pointer_to(ctx, f))
            }
            TypeKind::MemRef { .. } => memref_descriptor_fields(c, ctx, opts, t, false)
                .map(|fields| llvm::literal_struct(ctx, &fields, false)),
            TypeKind::UnrankedMemRef { elem, .. } => c.convert_type(ctx, elem).map(|_| {
                let fields = unranked_descriptor_fields(ctx, opts);
                llvm::literal_struct(ctx, &fields, false)
            }),
            TypeKind::Vector { shape, elem, .. } => convert_vector(c, ctx, &shape, elem),
            _ => return TypeConversion::Next,
        };
        match converted {
            Some(t) => TypeConversion::To(vec![t]),
            None => TypeConversion::Fail,
        }
    });
    conv.add_conversion(|_, ctx, t| {
        if llvm::is_compatible(ctx, t) {
            TypeConversion::To(vec![t])
        } else {
            TypeConversion::Next
        }
    });
    // LLVM containers of types still to convert.
    conv.add_conversion(|c, ctx, t| {
        let Some((Some(pointee), space)) = llvm::as_pointer(ctx, t) else {
            return TypeConversion::Next;
        };
        match c.convert_type(ctx, pointee) {
            Some(p) => TypeConversion::To(vec![llvm::pointer_in(ctx, p, space)]),
            None => TypeConversion::Fail,
        }
    });
    conv.add_conversion(|c, ctx, t| {
        let Some(s) = llvm::as_struct(ctx, t) else {
            return TypeConversion::Next;
        };
        if s.name.is_some() || llvm::is_compatible(ctx, t) {
            return TypeConversion::Next;
        }
        let (body, packed) = (s.body.unwrap_or(&[]).to_vec(), s.packed);
        match c.convert_types(ctx, &body) {
            Some(b) => TypeConversion::To(vec![llvm::literal_struct(ctx, &b, packed)]),
            None => TypeConversion::Fail,
        }
    });
    conv.add_conversion(|c, ctx, t| {
        let Some((e, n)) = llvm::as_array(ctx, t) else {
            return TypeConversion::Next;
        };
        match c.convert_type(ctx, e) {
            Some(e) => TypeConversion::To(vec![llvm::array_of(ctx, e, n)]),
            None => TypeConversion::Fail,
        }
    });
    conv.add_conversion(|c, ctx, t| {
        let Some(f) = llvm::as_function(ctx, t) else {
            return TypeConversion::Next;
        };
        let (r, ps, va) = (f.result, f.params.to_vec(), f.vararg);
        let (Some(r), Some(ps)) = (c.convert_type(ctx, r), c.convert_types(ctx, &ps)) else {
            return TypeConversion::Fail;
        };
        TypeConversion::To(vec![llvm::function(ctx, r, &ps, va)])
    });
    // A memref's fields become its descriptor where a block's arguments
    // were expanded (the function signature).
    conv.add_argument_materialization(|rw, ty, inputs, loc| {
        if inputs.len() == 1 {
            return None;
        }
        let ranked = matches!(rw.ctx.kind(ty), TypeKind::MemRef { .. });
        let unranked = matches!(rw.ctx.kind(ty), TypeKind::UnrankedMemRef { .. });
        if !ranked && !unranked {
            return None;
        }
        let b: &mut dyn Builder = rw;
        if ranked {
            desc::pack_fields(b, loc, inputs).ok()
        } else {
            unranked::pack(b, loc, inputs).ok()
        }
    });
    if edition == Edition::V13 {
        conv.add_source_and_target_casts();
    } else {
        conv.add_cast_materializations();
    }
    conv
}

/// `vector<...xT>` becomes nested arrays of 1-D vectors; a 0-D vector a
/// one-element vector.
fn convert_vector(c: &TypeConverter, ctx: &mut Context, shape: &[i64], elem: Type) -> Option<Type> {
    let e = c.convert_type(ctx, elem)?;
    let Some((&last, outer)) = shape.split_last() else {
        return Some(ctx.ty(TypeKind::Vector {
            shape: vec![1],
            scalable: 0,
            elem: e,
        }));
    };
    let mut t = ctx.ty(TypeKind::Vector {
        shape: vec![last],
        scalable: 0,
        elem: e,
    });
    for &d in outer.iter().rev() {
        t = llvm::array_of(ctx, t, d as u64);
    }
    Some(t)
}

/// The memory space of a memref type as an integer (0 when absent).
pub fn memory_space(ctx: &Context, t: Type) -> Option<u32> {
    let ms = match ctx.kind(t) {
        TypeKind::MemRef { memory_space, .. } | TypeKind::UnrankedMemRef { memory_space, .. } => {
            *memory_space
        }
        _ => return None,
    };
    match ms.map(|a| ctx.attr_kind(a)) {
        None => Some(0),
        Some(AttrKind::Integer(v, _)) => u32::try_from(*v).ok(),
        Some(_) => None,
    }
}

/// The fields of a ranked memref's descriptor: allocated and aligned
/// pointers, the offset, then sizes and strides as two arrays or, with
/// `unpack`, one integer each (a function signature's form).
pub fn memref_descriptor_fields(
    c: &TypeConverter,
    ctx: &mut Context,
    opts: LowerToLlvmOptions,
    t: Type,
    unpack: bool,
) -> Option<Vec<Type>> {
    let TypeKind::MemRef { shape, elem, .. } = ctx.kind(t).clone() else {
        return None;
    };
    let e = c.convert_type(ctx, elem)?;
    let space = memory_space(ctx, t)?;
    let ptr = llvm::pointer_in(ctx, e, space);
    let index = ctx.int_type(opts.index_bitwidth);
    let mut fields = vec![ptr, ptr, index];
    let rank = shape.len();
    if rank > 0 {
        if unpack {
            fields.extend(std::iter::repeat_n(index, 2 * rank));
        } else {
            let arr = llvm::array_of(ctx, index, rank as u64);
            fields.push(arr);
            fields.push(arr);
        }
    }
    Some(fields)
}

/// The fields of an unranked memref's descriptor: the rank and a pointer
/// to a ranked descriptor.
pub fn unranked_descriptor_fields(ctx: &mut Context, opts: LowerToLlvmOptions) -> Vec<Type> {
    let index = ctx.int_type(opts.index_bitwidth);
    let i8p = llvm::i8_pointer(ctx);
    vec![index, i8p]
}

/// MLIR's `convertFunctionSignature`: memref arguments expanded into their
/// descriptor fields, no result `void`, several packed into a struct.
pub fn convert_function_signature(
    c: &TypeConverter,
    ctx: &mut Context,
    opts: LowerToLlvmOptions,
    inputs: &[Type],
    results: &[Type],
    vararg: bool,
) -> Option<(Type, SignatureConversion)> {
    let mut sig = SignatureConversion::new(inputs.len());
    for (i, &t) in inputs.iter().enumerate() {
        let converted = match ctx.kind(t) {
            TypeKind::MemRef { .. } => memref_descriptor_fields(c, ctx, opts, t, true)?,
            TypeKind::UnrankedMemRef { elem, .. } => {
                let elem = *elem;
                c.convert_type(ctx, elem)?;
                unranked_descriptor_fields(ctx, opts)
            }
            _ => vec![c.convert_type(ctx, t)?],
        };
        sig.add_inputs(i, &converted);
    }
    let result = if results.is_empty() {
        llvm::void(ctx)
    } else {
        pack_function_results(c, ctx, results)?
    };
    let params = sig.converted_types().to_vec();
    // An argument LLVM cannot pass (an `!llvm.func` type taken as is) has
    // no LLVM function type: the signature does not convert, so the
    // function stays as it is (partial conversion), where MLIR 13-15 build
    // an `!llvm.func` whose generic form their parser refuses and LLVM
    // rejects ("Function arguments must have first-class types").
    if !params.iter().all(|&p| llvm::is_valid_argument(ctx, p))
        || !llvm::is_valid_result(ctx, result)
    {
        return None;
    }
    Some((llvm::function(ctx, result, &params, vararg), sig))
}

/// One result converted, several packed into a literal struct.
pub fn pack_function_results(c: &TypeConverter, ctx: &mut Context, types: &[Type]) -> Option<Type> {
    if let [one] = types {
        return c.convert_type(ctx, *one);
    }
    let mut fields = vec![];
    for &t in types {
        let f = c.convert_type(ctx, t)?;
        if !llvm::is_compatible(ctx, f) {
            return None;
        }
        fields.push(f);
    }
    Some(llvm::literal_struct(ctx, &fields, false))
}

/// The type of a C wrapper (`_mlir_ciface_`) of a function: memrefs passed
/// by pointer, a struct result returned through a first pointer argument
/// (then `true`).
pub fn convert_function_type_c_wrapper(
    c: &TypeConverter,
    ctx: &mut Context,
    inputs: &[Type],
    results: &[Type],
) -> Option<(Type, bool)> {
    let mut params = vec![];
    let mut result = if results.is_empty() {
        llvm::void(ctx)
    } else {
        pack_function_results(c, ctx, results)?
    };
    let mut result_is_arg = false;
    if llvm::as_struct(ctx, result).is_some() {
        params.push(llvm::pointer_to(ctx, result));
        result = llvm::void(ctx);
        result_is_arg = true;
    }
    for &t in inputs {
        let mut converted = c.convert_type(ctx, t)?;
        if !llvm::is_compatible(ctx, converted) {
            return None;
        }
        if matches!(
            ctx.kind(t),
            TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }
        ) {
            converted = llvm::pointer_to(ctx, converted);
        }
        params.push(converted);
    }
    Some((llvm::function(ctx, result, &params, false), result_is_arg))
}

// ----------------------------------------------------------------------
// The lowering's state and its patterns

/// What the patterns of one lowering share: the type converter, the
/// options and the syntax generation (LLVM 13 builds some ops
/// differently).
pub struct Lowering {
    pub conv: Conv,
    pub opts: LowerToLlvmOptions,
    pub edition: Edition,
}

/// A pattern of a lowering to LLVM, as a function given the lowering.
pub type LlvmFn =
    fn(&Lowering, Op, &[Value], &mut ConversionRewriter) -> Result<bool, RewriteError>;

/// MLIR's `ConvertOpToLLVMPattern`: converts its operands with the
/// lowering's converter and hands the lowering to its function.
pub struct LlvmPattern {
    root: &'static str,
    name: &'static str,
    f: LlvmFn,
    lowering: Rc<Lowering>,
}

impl ConversionPattern for LlvmPattern {
    fn root(&self) -> Option<&str> {
        Some(self.root)
    }
    fn name(&self) -> &str {
        self.name
    }
    fn match_and_rewrite(
        &self,
        op: Op,
        operands: &[Value],
        rw: &mut ConversionRewriter,
    ) -> Result<bool, RewriteError> {
        (self.f)(&self.lowering, op, operands, rw)
    }
    fn type_converter(&self) -> Option<Conv> {
        Some(self.lowering.conv.clone())
    }
}

impl Lowering {
    pub fn new(opts: LowerToLlvmOptions, edition: Edition) -> Rc<Self> {
        Rc::new(Lowering {
            conv: Rc::new(llvm_type_converter(opts, edition)),
            opts,
            edition,
        })
    }
    /// Adds the pattern `f` for ops named `root`.
    pub fn add(
        self: &Rc<Self>,
        set: &mut ConversionPatternSet,
        root: &'static str,
        name: &'static str,
        f: LlvmFn,
    ) {
        set.add(LlvmPattern {
            root,
            name,
            f,
            lowering: self.clone(),
        });
    }
    pub fn index_type(&self, ctx: &mut Context) -> Type {
        ctx.int_type(self.opts.index_bitwidth)
    }
    pub fn convert(&self, ctx: &mut Context, t: Type) -> Option<Type> {
        self.conv.convert_type(ctx, t)
    }
    /// 14 and 15 turn constant struct indices of a GEP into attributes.
    pub fn refine_gep(&self) -> bool {
        self.edition != Edition::V13
    }
    /// `!llvm.ptr<i8>`.
    pub fn void_ptr(&self, ctx: &mut Context) -> Type {
        llvm::i8_pointer(ctx)
    }
    /// The pointer to a memref's elements.
    pub fn element_ptr_type(&self, ctx: &mut Context, memref: Type) -> Option<Type> {
        let (TypeKind::MemRef { elem, .. } | TypeKind::UnrankedMemRef { elem, .. }) =
            ctx.kind(memref).clone()
        else {
            return None;
        };
        let e = self.convert(ctx, elem)?;
        let space = memory_space(ctx, memref)?;
        Some(llvm::pointer_in(ctx, e, space))
    }
    pub fn index_constant(&self, b: &mut dyn Builder, loc: Location, v: i64) -> R {
        let t = self.index_type(b.context());
        lb::index_constant(b, loc, t, v)
    }
}

/// MLIR's `LLVMConversionTarget`: the LLVM dialect and the casts between
/// converted and unconverted values are legal.
pub fn llvm_target() -> ConversionTarget {
    let mut t = ConversionTarget::new();
    t.add_legal_dialect("llvm")
        .add_legal_op(mlir_async_rewrite::conversion::UNREALIZED_CAST);
    t
}

/// The types of `vs`.
pub fn types_of(ctx: &Context, vs: &[Value]) -> Vec<Type> {
    vs.iter().map(|&v| ctx.value_type(v)).collect()
}

/// The element type of a vector (or the type itself).
pub fn element_type_or_self(ctx: &Context, t: Type) -> Type {
    match ctx.kind(t) {
        TypeKind::Vector { elem, .. } => *elem,
        _ => t,
    }
}

/// MLIR's `oneToOneRewrite`: `op` becomes `target` with the converted
/// operands, its attributes and its results packed (several results come
/// back out of a struct).
pub fn one_to_one(
    l: &Lowering,
    op: Op,
    target: &str,
    operands: &[Value],
    rw: &mut ConversionRewriter,
) -> Result<bool, RewriteError> {
    let ctx = rw.ctx();
    let result_types = types_of(ctx, ctx.results(op));
    let packed = if result_types.is_empty() {
        None
    } else {
        match pack_function_results(&l.conv, ctx, &result_types) {
            Some(t) => Some(t),
            None => return Ok(false),
        }
    };
    let loc = ctx.op_loc(op);
    let attrs = ctx.attrs(op).to_vec();
    let name = ctx.sym(target);
    rw.set_insertion_point(op);
    let new = rw.create_op(
        name,
        loc,
        operands,
        &packed.into_iter().collect::<Vec<_>>(),
        &attrs,
    )?;
    match result_types.len() {
        0 => rw.erase_op(op)?,
        1 => {
            let r = rw.ctx_ref().result(new, 0);
            rw.replace_op(op, &[r])?;
        }
        n => {
            let packed = rw.ctx_ref().result(new, 0);
            let mut results = vec![];
            for i in 0..n {
                results.push(lb::extract_value(rw, loc, packed, &[i as i64])?);
            }
            rw.replace_op(op, &results)?;
        }
    }
    Ok(true)
}

/// MLIR's `vectorOneToOneRewrite`: as [`one_to_one`], n-D vectors done one
/// 1-D vector at a time; not applicable to operands LLVM cannot hold.
pub fn vector_one_to_one(
    l: &Lowering,
    op: Op,
    target: &str,
    operands: &[Value],
    rw: &mut ConversionRewriter,
) -> Result<bool, RewriteError> {
    let ctx = rw.ctx_ref();
    if operands.is_empty()
        || !operands
            .iter()
            .all(|&v| llvm::is_compatible(ctx, ctx.value_type(v)))
    {
        return Ok(false);
    }
    if llvm::as_array(ctx, ctx.value_type(operands[0])).is_none() {
        return one_to_one(l, op, target, operands, rw);
    }
    let attrs = ctx.attrs(op).to_vec();
    let target = target.to_string();
    handle_multidimensional_vectors(l, op, operands, rw, &mut |rw, ty, ops| {
        let ctx = rw.ctx();
        let name = ctx.sym(&target);
        let loc = ctx.op_loc(op);
        let o = rw.create_op(name, loc, ops, &[ty], &attrs)?;
        Ok(rw.ctx_ref().result(o, 0))
    })
}

/// The array sizes and the 1-D vector type of an n-D vector's LLVM type.
fn nd_vector_info(ctx: &Context, mut t: Type) -> (Vec<u64>, Type) {
    let mut sizes = vec![];
    while let Some((e, n)) = llvm::as_array(ctx, t) {
        sizes.push(n);
        t = e;
    }
    (sizes, t)
}

/// MLIR's `handleMultidimensionalVectors`: the result starts `undef`; for
/// each position of the outer arrays, the operands' 1-D vectors are taken
/// out, `create` combines them, and the result goes in.
pub fn handle_multidimensional_vectors(
    l: &Lowering,
    op: Op,
    operands: &[Value],
    rw: &mut ConversionRewriter,
    create: &mut dyn FnMut(&mut ConversionRewriter, Type, &[Value]) -> R,
) -> Result<bool, RewriteError> {
    let ctx = rw.ctx();
    let loc = ctx.op_loc(op);
    let res_ty = ctx.value_type(ctx.result(op, 0));
    let Some(nd) = l.convert(ctx, res_ty) else {
        return Ok(false);
    };
    let (sizes, one_d) = nd_vector_info(rw.ctx_ref(), nd);
    rw.set_insertion_point(op);
    let mut acc = lb::undef(rw, loc, nd)?;
    let total: u64 = sizes.iter().product();
    for linear in 0..total {
        let mut pos = vec![0i64; sizes.len()];
        let mut rest = linear;
        for (k, &s) in sizes.iter().enumerate().rev() {
            pos[k] = (rest % s) as i64;
            rest /= s;
        }
        let mut extracted = vec![];
        for &o in operands {
            extracted.push(lb::extract_value(rw, loc, o, &pos)?);
        }
        let v = create(rw, one_d, &extracted)?;
        acc = lb::insert_value(rw, loc, acc, v, &pos)?;
    }
    rw.replace_op(op, &[acc])?;
    Ok(true)
}

/// Declares the external function `name` at the start of the module
/// unless an `llvm.func` of that name exists (MLIR's `lookupOrCreateFn`).
pub fn lookup_or_create_fn(
    ctx: &mut Context,
    from: Op,
    name: &str,
    params: &[Type],
    result: Type,
) -> Result<(), RewriteError> {
    let module = ctx
        .ancestor(from, |c, o| c.name(o) == "builtin.module")
        .ok_or_else(|| RewriteError::at(ctx.op_loc(from), "no enclosing module"))?;
    let body = ctx
        .regions_of(module)
        .first()
        .and_then(|&r| ctx.entry_block(r));
    let Some(body) = body else {
        return Err(RewriteError::at(
            ctx.op_loc(module),
            "module without a body",
        ));
    };
    let exists = ctx
        .block_ops_iter(body)
        .any(|o| ctx.name(o) == "llvm.func" && ctx.symbol_name(o) == Some(name));
    if exists {
        return Ok(());
    }
    let ty = llvm::function(ctx, result, params, false);
    let loc = ctx.op_loc(module);
    let mut listener = mlir_async_rewrite::rewriter::NoListener;
    let mut rw = Rewriter::new(ctx, &mut listener);
    rw.set_insertion_point_to_start(body);
    lb::func(&mut rw, loc, name, ty, "external", &[])?;
    Ok(())
}

// ----------------------------------------------------------------------
// Memref descriptors

/// The ranked memref descriptor `{ptr, ptr, index, [rank x index],
/// [rank x index]}` (MLIR's `MemRefDescriptor`), field by field.
pub mod desc {
    use super::*;

    pub const ALLOCATED: i64 = 0;
    pub const ALIGNED: i64 = 1;
    pub const OFFSET: i64 = 2;
    pub const SIZES: i64 = 3;
    pub const STRIDES: i64 = 4;

    pub fn allocated_ptr(b: &mut dyn Builder, loc: Location, d: Value) -> R {
        lb::extract_value(b, loc, d, &[ALLOCATED])
    }
    pub fn aligned_ptr(b: &mut dyn Builder, loc: Location, d: Value) -> R {
        lb::extract_value(b, loc, d, &[ALIGNED])
    }
    pub fn offset(b: &mut dyn Builder, loc: Location, d: Value) -> R {
        lb::extract_value(b, loc, d, &[OFFSET])
    }
    pub fn size(b: &mut dyn Builder, loc: Location, d: Value, i: usize) -> R {
        lb::extract_value(b, loc, d, &[SIZES, i as i64])
    }
    pub fn stride(b: &mut dyn Builder, loc: Location, d: Value, i: usize) -> R {
        lb::extract_value(b, loc, d, &[STRIDES, i as i64])
    }
    pub fn set_allocated_ptr(b: &mut dyn Builder, loc: Location, d: Value, v: Value) -> R {
        lb::insert_value(b, loc, d, v, &[ALLOCATED])
    }
    pub fn set_aligned_ptr(b: &mut dyn Builder, loc: Location, d: Value, v: Value) -> R {
        lb::insert_value(b, loc, d, v, &[ALIGNED])
    }
    pub fn set_offset(b: &mut dyn Builder, loc: Location, d: Value, v: Value) -> R {
        lb::insert_value(b, loc, d, v, &[OFFSET])
    }
    pub fn set_size(b: &mut dyn Builder, loc: Location, d: Value, i: usize, v: Value) -> R {
        lb::insert_value(b, loc, d, v, &[SIZES, i as i64])
    }
    pub fn set_stride(b: &mut dyn Builder, loc: Location, d: Value, i: usize, v: Value) -> R {
        lb::insert_value(b, loc, d, v, &[STRIDES, i as i64])
    }
    /// The index type of a descriptor (its offset's).
    pub fn index_type(ctx: &Context, d: Value) -> Option<Type> {
        lb::element_type_at(ctx, ctx.value_type(d), &[OFFSET])
    }
    pub fn element_ptr_type(ctx: &Context, d: Value) -> Option<Type> {
        lb::element_type_at(ctx, ctx.value_type(d), &[ALIGNED])
    }
    pub fn set_constant_offset(b: &mut dyn Builder, loc: Location, d: Value, v: i64) -> R {
        let t = index_type(b.context(), d).ok_or_else(|| bad(loc))?;
        let c = lb::index_constant(b, loc, t, v)?;
        set_offset(b, loc, d, c)
    }
    pub fn set_constant_size(b: &mut dyn Builder, loc: Location, d: Value, i: usize, v: i64) -> R {
        let t = index_type(b.context(), d).ok_or_else(|| bad(loc))?;
        let c = lb::index_constant(b, loc, t, v)?;
        set_size(b, loc, d, i, c)
    }
    pub fn set_constant_stride(
        b: &mut dyn Builder,
        loc: Location,
        d: Value,
        i: usize,
        v: i64,
    ) -> R {
        let t = index_type(b.context(), d).ok_or_else(|| bad(loc))?;
        let c = lb::index_constant(b, loc, t, v)?;
        set_stride(b, loc, d, i, c)
    }
    fn bad(loc: Location) -> RewriteError {
        RewriteError::at(loc, "not a memref descriptor")
    }

    /// The size of dimension `pos` given as a value: the sizes go to the
    /// stack and the one wanted is loaded back.
    pub fn size_at(
        b: &mut dyn Builder,
        loc: Location,
        d: Value,
        pos: Value,
        rank: usize,
        refine: bool,
    ) -> R {
        let ctx = b.context();
        let index = index_type(ctx, d).ok_or_else(|| bad(loc))?;
        let index_ptr = llvm::pointer_to(ctx, index);
        let arr = llvm::array_of(ctx, index, rank as u64);
        let arr_ptr = llvm::pointer_to(ctx, arr);
        let zero = lb::index_constant(b, loc, index, 0)?;
        let one = lb::index_constant(b, loc, index, 1)?;
        let sizes = lb::extract_value(b, loc, d, &[SIZES])?;
        let p = lb::alloca(b, loc, arr_ptr, one, 0)?;
        lb::store(b, loc, sizes, p)?;
        let r = lb::gep(b, loc, index_ptr, p, &[zero, pos], refine)?;
        lb::load(b, loc, r)
    }

    /// A descriptor of type `ty` from its fields, as a function's
    /// arguments hold them: pointers, offset, sizes, then strides.
    pub fn pack(b: &mut dyn Builder, loc: Location, ty: Type, values: &[Value]) -> R {
        let rank = (values.len().saturating_sub(3)) / 2;
        let mut d = lb::undef(b, loc, ty)?;
        d = set_allocated_ptr(b, loc, d, values[0])?;
        d = set_aligned_ptr(b, loc, d, values[1])?;
        d = set_offset(b, loc, d, values[2])?;
        for i in 0..rank {
            d = set_size(b, loc, d, i, values[3 + i])?;
            d = set_stride(b, loc, d, i, values[3 + rank + i])?;
        }
        Ok(d)
    }

    /// [`pack`] with the descriptor type read off the fields' types.
    pub fn pack_fields(b: &mut dyn Builder, loc: Location, values: &[Value]) -> R {
        let ctx = b.context();
        if values.len() < 3 {
            return Err(bad(loc));
        }
        let rank = (values.len() - 3) / 2;
        let mut fields = types_of(ctx, &values[..3]);
        if rank > 0 {
            let index = fields[2];
            let arr = llvm::array_of(ctx, index, rank as u64);
            fields.push(arr);
            fields.push(arr);
        }
        let ty = llvm::literal_struct(ctx, &fields, false);
        pack(b, loc, ty, values)
    }

    /// The fields of a descriptor, in a function's argument order.
    pub fn unpack(
        b: &mut dyn Builder,
        loc: Location,
        d: Value,
        rank: usize,
    ) -> Result<Vec<Value>, RewriteError> {
        let mut out = vec![
            allocated_ptr(b, loc, d)?,
            aligned_ptr(b, loc, d)?,
            offset(b, loc, d)?,
        ];
        for i in 0..rank {
            out.push(size(b, loc, d, i)?);
        }
        for i in 0..rank {
            out.push(stride(b, loc, d, i)?);
        }
        Ok(out)
    }
}

/// The unranked memref descriptor `{index, ptr<i8>}` (MLIR's
/// `UnrankedMemRefDescriptor`): the rank and a pointer to a ranked
/// descriptor, whose fields are reached through that pointer.
pub mod unranked {
    use super::*;

    pub fn rank(b: &mut dyn Builder, loc: Location, d: Value) -> R {
        lb::extract_value(b, loc, d, &[0])
    }
    pub fn memref_desc_ptr(b: &mut dyn Builder, loc: Location, d: Value) -> R {
        lb::extract_value(b, loc, d, &[1])
    }
    pub fn set_rank(b: &mut dyn Builder, loc: Location, d: Value, v: Value) -> R {
        lb::insert_value(b, loc, d, v, &[0])
    }
    pub fn set_memref_desc_ptr(b: &mut dyn Builder, loc: Location, d: Value, v: Value) -> R {
        lb::insert_value(b, loc, d, v, &[1])
    }
    /// A descriptor from its two fields.
    pub fn pack(b: &mut dyn Builder, loc: Location, values: &[Value]) -> R {
        let ctx = b.context();
        let [r, p] = values[..] else {
            return Err(RewriteError::at(
                loc,
                "an unranked descriptor has two fields",
            ));
        };
        let fields = types_of(ctx, &[r, p]);
        let ty = llvm::literal_struct(ctx, &fields, false);
        let d = lb::undef(b, loc, ty)?;
        let d = set_rank(b, loc, d, r)?;
        set_memref_desc_ptr(b, loc, d, p)
    }
    pub fn unpack(
        b: &mut dyn Builder,
        loc: Location,
        d: Value,
    ) -> Result<Vec<Value>, RewriteError> {
        Ok(vec![rank(b, loc, d)?, memref_desc_ptr(b, loc, d)?])
    }

    /// The bytes of each ranked descriptor behind `descs`:
    /// `2 * sizeof(ptr) + (1 + 2 * rank) * sizeof(index)`.
    pub fn compute_sizes(
        l: &Lowering,
        b: &mut dyn Builder,
        loc: Location,
        descs: &[Value],
    ) -> Result<Vec<Value>, RewriteError> {
        if descs.is_empty() {
            return Ok(vec![]);
        }
        let index = l.index_type(b.context());
        let one = lb::index_constant(b, loc, index, 1)?;
        let two = lb::index_constant(b, loc, index, 2)?;
        let ptr_size = lb::index_constant(b, loc, index, i64::from(POINTER_BITS.div_ceil(8)))?;
        let index_size =
            lb::index_constant(b, loc, index, i64::from(l.opts.index_bitwidth.div_ceil(8)))?;
        let mut out = vec![];
        for &d in descs {
            let double_ptr = lb::binary(b, "llvm.mul", loc, two, ptr_size)?;
            let r = rank(b, loc, d)?;
            let double_rank = lb::binary(b, "llvm.mul", loc, two, r)?;
            let inc = lb::binary(b, "llvm.add", loc, double_rank, one)?;
            let rank_size = lb::binary(b, "llvm.mul", loc, inc, index_size)?;
            out.push(lb::binary(b, "llvm.add", loc, double_ptr, rank_size)?);
        }
        Ok(out)
    }

    /// The allocated pointer of the ranked descriptor at `desc_ptr`.
    pub fn allocated_ptr(
        b: &mut dyn Builder,
        loc: Location,
        desc_ptr: Value,
        elem_ptr_ptr: Type,
    ) -> R {
        let p = lb::cast(b, "llvm.bitcast", loc, elem_ptr_ptr, desc_ptr)?;
        lb::load(b, loc, p)
    }
    pub fn set_allocated_ptr(
        b: &mut dyn Builder,
        loc: Location,
        desc_ptr: Value,
        elem_ptr_ptr: Type,
        v: Value,
    ) -> Result<(), RewriteError> {
        let p = lb::cast(b, "llvm.bitcast", loc, elem_ptr_ptr, desc_ptr)?;
        lb::store(b, loc, v, p)?;
        Ok(())
    }
    /// The field `k` (1: aligned pointer, 2: offset) behind `desc_ptr`.
    fn field_ptr(
        l: &Lowering,
        b: &mut dyn Builder,
        loc: Location,
        desc_ptr: Value,
        elem_ptr_ptr: Type,
        k: i64,
    ) -> R {
        let p = lb::cast(b, "llvm.bitcast", loc, elem_ptr_ptr, desc_ptr)?;
        let c = l.index_constant(b, loc, k)?;
        let g = lb::gep(b, loc, elem_ptr_ptr, p, &[c], l.refine_gep())?;
        if k == 2 {
            let index = l.index_type(b.context());
            let ip = llvm::pointer_to(b.context(), index);
            return lb::cast(b, "llvm.bitcast", loc, ip, g);
        }
        Ok(g)
    }
    pub fn aligned_ptr(
        l: &Lowering,
        b: &mut dyn Builder,
        loc: Location,
        desc_ptr: Value,
        elem_ptr_ptr: Type,
    ) -> R {
        let g = field_ptr(l, b, loc, desc_ptr, elem_ptr_ptr, 1)?;
        lb::load(b, loc, g)
    }
    pub fn set_aligned_ptr(
        l: &Lowering,
        b: &mut dyn Builder,
        loc: Location,
        desc_ptr: Value,
        elem_ptr_ptr: Type,
        v: Value,
    ) -> Result<(), RewriteError> {
        let g = field_ptr(l, b, loc, desc_ptr, elem_ptr_ptr, 1)?;
        lb::store(b, loc, v, g)?;
        Ok(())
    }
    pub fn offset(
        l: &Lowering,
        b: &mut dyn Builder,
        loc: Location,
        desc_ptr: Value,
        elem_ptr_ptr: Type,
    ) -> R {
        let g = field_ptr(l, b, loc, desc_ptr, elem_ptr_ptr, 2)?;
        lb::load(b, loc, g)
    }
    pub fn set_offset(
        l: &Lowering,
        b: &mut dyn Builder,
        loc: Location,
        desc_ptr: Value,
        elem_ptr_ptr: Type,
        v: Value,
    ) -> Result<(), RewriteError> {
        let g = field_ptr(l, b, loc, desc_ptr, elem_ptr_ptr, 2)?;
        lb::store(b, loc, v, g)?;
        Ok(())
    }
    /// The address of the first size behind `desc_ptr`.
    pub fn size_base_ptr(
        l: &Lowering,
        b: &mut dyn Builder,
        loc: Location,
        desc_ptr: Value,
        elem_ptr_ptr: Type,
    ) -> R {
        let ctx = b.context();
        let elem_ptr = llvm::pointee(ctx, elem_ptr_ptr)
            .ok_or_else(|| RewriteError::at(loc, "an element pointer pointer has a pointee"))?;
        let index = l.index_type(ctx);
        let st = llvm::literal_struct(ctx, &[elem_ptr, elem_ptr, index, index], false);
        let stp = llvm::pointer_to(ctx, st);
        let ip = llvm::pointer_to(ctx, index);
        let i32t = ctx.int_type(32);
        let s = lb::cast(b, "llvm.bitcast", loc, stp, desc_ptr)?;
        let zero = l.index_constant(b, loc, 0)?;
        let three = lb::int_constant(b, loc, i32t, 3)?;
        lb::gep(b, loc, ip, s, &[zero, three], l.refine_gep())
    }
    pub fn stride_base_ptr(
        l: &Lowering,
        b: &mut dyn Builder,
        loc: Location,
        size_base: Value,
        rank: Value,
    ) -> R {
        let index = l.index_type(b.context());
        let ip = llvm::pointer_to(b.context(), index);
        lb::gep(b, loc, ip, size_base, &[rank], l.refine_gep())
    }
    /// Stores `v` at `base[i]` (a size or a stride).
    pub fn set_at(
        l: &Lowering,
        b: &mut dyn Builder,
        loc: Location,
        base: Value,
        i: Value,
        v: Value,
    ) -> Result<(), RewriteError> {
        let index = l.index_type(b.context());
        let ip = llvm::pointer_to(b.context(), index);
        let g = lb::gep(b, loc, ip, base, &[i], l.refine_gep())?;
        lb::store(b, loc, v, g)?;
        Ok(())
    }
}

/// MLIR's `promoteOperands`: a call's memref operands go as their fields.
pub fn promote_operands(
    b: &mut dyn Builder,
    loc: Location,
    orig_types: &[Type],
    operands: &[Value],
) -> Result<Vec<Value>, RewriteError> {
    let mut out = vec![];
    for (&t, &v) in orig_types.iter().zip(operands) {
        match b.context().kind(t).clone() {
            TypeKind::UnrankedMemRef { .. } => out.extend(unranked::unpack(b, loc, v)?),
            TypeKind::MemRef { shape, .. } => out.extend(desc::unpack(b, loc, v, shape.len())?),
            _ => out.push(v),
        }
    }
    Ok(out)
}

/// MLIR's `promoteOneMemRefDescriptor`: `v` stored on the stack.
pub fn promote_one_descriptor(b: &mut dyn Builder, loc: Location, v: Value) -> R {
    let ctx = b.context();
    let i64t = ctx.int_type(64);
    let vt = ctx.value_type(v);
    let pt = llvm::pointer_to(ctx, vt);
    let index = ctx.index_type();
    let a = ctx.int_attr(1, index);
    let one = lb::constant(b, loc, i64t, a)?;
    let p = lb::alloca(b, loc, pt, one, 0)?;
    lb::store(b, loc, v, p)?;
    Ok(p)
}

/// MLIR's `copyUnrankedDescriptors`: the ranked descriptors behind the
/// unranked memrefs among `values` are copied, to the heap (`to_dynamic`,
/// what a function returns) or from it onto the stack (what a call
/// returned, the heap copy freed).
pub fn copy_unranked_descriptors(
    l: &Lowering,
    rw: &mut ConversionRewriter,
    loc: Location,
    anchor: Op,
    orig_types: &[Type],
    values: &mut [Value],
    to_dynamic: bool,
) -> Result<(), RewriteError> {
    let positions: Vec<usize> = orig_types
        .iter()
        .enumerate()
        .filter(|(_, &t)| matches!(rw.ctx_ref().kind(t), TypeKind::UnrankedMemRef { .. }))
        .map(|(i, _)| i)
        .collect();
    if positions.is_empty() {
        return Ok(());
    }
    let descs: Vec<Value> = positions.iter().map(|&i| values[i]).collect();
    let sizes = unranked::compute_sizes(l, rw, loc, &descs)?;
    let index = l.index_type(rw.ctx());
    let void_ptr = l.void_ptr(rw.ctx());
    let void = llvm::void(rw.ctx());
    if to_dynamic {
        lookup_or_create_fn(rw.ctx(), anchor, "malloc", &[index], void_ptr)?;
    } else {
        lookup_or_create_fn(rw.ctx(), anchor, "free", &[void_ptr], void)?;
    }
    let zero = lb::bool_constant(rw, loc, false)?;
    for (k, &i) in positions.iter().enumerate() {
        let size = sizes[k];
        let memory = if to_dynamic {
            let c = lb::call(rw, loc, "malloc", &[void_ptr], &[size])?;
            rw.ctx_ref().result(c, 0)
        } else {
            lb::alloca(rw, loc, void_ptr, size, 0)?
        };
        let source = unranked::memref_desc_ptr(rw, loc, values[i])?;
        memcpy(rw, loc, memory, source, size, zero)?;
        if !to_dynamic {
            lb::call(rw, loc, "free", &[], &[source])?;
        }
        let ty = rw
            .convert_type(orig_types[i])
            .ok_or_else(|| RewriteError::at(loc, "cannot convert an unranked memref type"))?;
        let d = lb::undef(rw, loc, ty)?;
        let r = unranked::rank(rw, loc, values[i])?;
        let d = unranked::set_rank(rw, loc, d, r)?;
        values[i] = unranked::set_memref_desc_ptr(rw, loc, d, memory)?;
    }
    Ok(())
}

/// `llvm.intr.memcpy`.
pub fn memcpy(
    b: &mut dyn Builder,
    loc: Location,
    dst: Value,
    src: Value,
    len: Value,
    is_volatile: Value,
) -> Result<Op, RewriteError> {
    let name = b.context().sym("llvm.intr.memcpy");
    b.build_op(name, loc, &[dst, src, len, is_volatile], &[], &[])
}

/// An integer attribute's value.
pub fn int_of(ctx: &Context, a: Attribute) -> Option<i128> {
    match ctx.attr_kind(a) {
        AttrKind::Integer(v, _) => Some(*v),
        AttrKind::Bool(b) => Some(i128::from(*b)),
        _ => None,
    }
}
