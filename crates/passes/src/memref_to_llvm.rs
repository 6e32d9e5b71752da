//! `-convert-memref-to-llvm` (LLVM 13-15), as upstream's `MemRefToLLVM`:
//! a memref becomes its descriptor struct; allocations call `malloc`
//! (or `aligned_alloc`) and fill a descriptor, accesses compute the
//! element's address from the aligned pointer, offset and strides, casts
//! to and from unranked memrefs go through a descriptor on the stack,
//! globals become `llvm.mlir.global`. A partial conversion in which
//! functions stay legal: their memref arguments meet the descriptors
//! through casts, resolved once the functions are lowered.

use crate::arith_to_llvm::INDEX_BITWIDTH;
use crate::llvm_common::{
    desc, int_of, llvm_target, lookup_or_create_fn, memcpy, promote_one_descriptor, types_of,
    unranked, AllocLowering, LowerToLlvmOptions, Lowering,
};
use crate::{OptionKind, Pass, PassContext, PassInfo, PassOption};
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_dialects::llvm::types as llvm;
use mlir_async_dialects::llvm_build as lb;
use mlir_async_ir::affine::{parse_map, AffineExpr, BinKind};
use mlir_async_ir::{AttrKind, Context, IrError, Location, Op, Type, TypeKind, Value};
use mlir_async_rewrite::{
    apply_partial_conversion, Builder, ConversionPatternSet, ConversionRewriter, RewriteError,
};
use mlir_async_syntax::Edition;
use std::rc::Rc;

type R = Result<bool, RewriteError>;
type V = Result<Value, RewriteError>;

/// A dynamic stride or offset (MLIR's `kDynamicStrideOrOffset`).
pub const DYNAMIC: i64 = i64::MIN;

const USE_ALIGNED_ALLOC: PassOption = PassOption::new(
    "use-aligned-alloc",
    OptionKind::Bool,
    "false",
    "Use aligned_alloc in place of malloc for heap allocations",
);

pub fn info() -> PassInfo {
    PassInfo {
        arg: "convert-memref-to-llvm",
        summary: "Convert operations from the MemRef dialect to the LLVM dialect",
        options: &[INDEX_BITWIDTH, USE_ALIGNED_ALLOC],
        anchor: "",
        make: |o| {
            let mut opts = crate::arith_to_llvm::options_from(o);
            if o.bool("use-aligned-alloc") {
                opts.alloc = AllocLowering::AlignedAlloc;
            }
            Ok(Box::new(MemRefToLlvm { opts }))
        },
    }
}

pub struct MemRefToLlvm {
    opts: LowerToLlvmOptions,
}

impl Pass for MemRefToLlvm {
    fn name(&self) -> &'static str {
        "convert-memref-to-llvm"
    }
    fn display_name(&self) -> &'static str {
        "ConvertMemRefToLLVM"
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let l = Lowering::new(self.opts, pc.edition);
        let mut patterns = ConversionPatternSet::new();
        populate(&l, &mut patterns);
        let mut target = llvm_target();
        target.add_legal_op("func.func");
        let ifaces = Interfaces::new(pc.registry, pc.edition);
        apply_partial_conversion(
            pc.ctx,
            op,
            &target,
            &patterns,
            Some(l.conv.clone()),
            &ifaces,
        )
        .map_err(|e| e.into_ir_error(pc.ctx))
    }
}

/// MLIR's `populateMemRefToLLVMConversionPatterns`. In 13 `rank` and the
/// atomics were `std` ops, lowered by `-convert-std-to-llvm`
/// ([`populate_std_13`]).
pub fn populate(l: &Rc<Lowering>, set: &mut ConversionPatternSet) {
    l.add(set, "memref.alloca", "AllocaOpLowering", alloc_like);
    if l.edition != Edition::V13 {
        l.add(set, "memref.atomic_rmw", "AtomicRMWOpLowering", atomic_rmw);
    }
    l.add(
        set,
        "memref.alloca_scope",
        "AllocaScopeOpLowering",
        alloca_scope,
    );
    l.add(set, "memref.dim", "DimOpLowering", dim);
    l.add(set, "memref.global", "GlobalMemrefOpLowering", global);
    l.add(
        set,
        "memref.get_global",
        "GetGlobalMemrefOpLowering",
        alloc_like,
    );
    l.add(set, "memref.load", "LoadOpLowering", load);
    l.add(set, "memref.cast", "MemRefCastOpLowering", cast);
    l.add(set, "memref.copy", "MemRefCopyOpLowering", copy);
    l.add(
        set,
        "memref.reinterpret_cast",
        "MemRefReinterpretCastOpLowering",
        reinterpret_cast,
    );
    if l.edition != Edition::V13 {
        l.add(set, "memref.rank", "RankOpLowering", rank);
    }
    l.add(set, "memref.store", "StoreOpLowering", store);
    l.add(set, "memref.subview", "SubViewOpLowering", subview);
    l.add(set, "memref.transpose", "TransposeOpLowering", transpose);
    l.add(set, "memref.alloc", "AllocOpLowering", alloc_like);
    l.add(set, "memref.dealloc", "DeallocOpLowering", dealloc);
}

/// The `memref` ops that were `std` ops in LLVM 13, as its
/// `-convert-std-to-llvm` lowers them. (14 and 15 list the
/// `generic_atomic_rmw` lowering in `-convert-memref-to-llvm`, where the
/// ops it moves into the loop's blocks never legalize and upstream undoes
/// it: it is not added there.)
pub fn populate_std_13(l: &Rc<Lowering>, set: &mut ConversionPatternSet) {
    l.add(set, "memref.atomic_rmw", "AtomicRMWOpLowering", atomic_rmw);
    l.add(
        set,
        "memref.generic_atomic_rmw",
        "GenericAtomicRMWOpLowering",
        generic_atomic_rmw,
    );
    // 13's `rank` took memrefs and tensors; 14 split it in two.
    l.add(set, "std.rank", "RankOpLowering", rank);
}

// ----------------------------------------------------------------------
// Layouts

/// The memref type's shape (`-1` dynamic), element type and layout.
fn memref_parts(
    ctx: &Context,
    t: Type,
) -> Option<(Vec<i64>, Type, Option<mlir_async_ir::Attribute>)> {
    match ctx.kind(t) {
        TypeKind::MemRef {
            shape,
            elem,
            layout,
            ..
        } => Some((
            shape.iter().map(|d| d.unwrap_or(-1)).collect(),
            *elem,
            *layout,
        )),
        _ => None,
    }
}

/// The layout's affine map, `None` for the identity layout.
fn layout_map(
    ctx: &Context,
    layout: Option<mlir_async_ir::Attribute>,
) -> Option<Option<mlir_async_ir::affine::AffineMap>> {
    let Some(a) = layout else {
        return Some(None);
    };
    let AttrKind::Affine(text) = ctx.attr_kind(a) else {
        return None;
    };
    let body = text.strip_prefix("affine_map<")?.strip_suffix('>')?;
    let map = parse_map(body).ok()?;
    Some(if map.is_identity() { None } else { Some(map) })
}

/// Is the memref's layout the identity (and its element convertible)?
fn has_identity_layout(l: &Lowering, ctx: &mut Context, t: Type) -> bool {
    let Some((_, elem, layout)) = memref_parts(ctx, t) else {
        return false;
    };
    l.convert(ctx, elem).is_some() && matches!(layout_map(ctx, layout), Some(None))
}

/// MLIR's `getStridesAndOffset`: the strides and offset of a strided
/// layout ([`DYNAMIC`] where a symbol gives them), `None` if not strided.
pub fn strides_and_offset(ctx: &Context, t: Type) -> Option<(Vec<i64>, i64)> {
    let (shape, _, layout) = memref_parts(ctx, t)?;
    match layout_map(ctx, layout)? {
        None => {
            // The canonical row-major layout: a dynamic size makes every
            // stride outside it dynamic; a zero size has no stride.
            let mut strides = vec![0; shape.len()];
            let mut running = 1i64;
            let mut poisoned = false;
            for (i, &s) in shape.iter().enumerate().rev() {
                if s == 0 {
                    continue;
                }
                strides[i] = if poisoned { DYNAMIC } else { running };
                if s > 0 {
                    running = running.saturating_mul(s);
                } else {
                    poisoned = true;
                }
            }
            Some((strides, 0))
        }
        Some(map) => {
            let [expr] = &map.results[..] else {
                return None;
            };
            let mut strides = vec![0i64; shape.len()];
            let mut offset = 0i64;
            add_terms(expr, &mut strides, &mut offset)?;
            Some((strides, offset))
        }
    }
}

fn add_dyn(acc: &mut i64, v: i64) {
    *acc = if *acc == DYNAMIC || v == DYNAMIC {
        DYNAMIC
    } else {
        acc.saturating_add(v)
    };
}

/// Adds the linear terms of `e` to the strides and the offset.
fn add_terms(e: &AffineExpr, strides: &mut [i64], offset: &mut i64) -> Option<()> {
    match e {
        AffineExpr::Const(c) => add_dyn(offset, *c),
        AffineExpr::Sym(_) => *offset = DYNAMIC,
        AffineExpr::Dim(d) => add_dyn(strides.get_mut(*d as usize)?, 1),
        AffineExpr::Bin(BinKind::Add, a, b) => {
            add_terms(a, strides, offset)?;
            add_terms(b, strides, offset)?;
        }
        AffineExpr::Bin(BinKind::Mul, a, b) => {
            let (dim, k) = match (&**a, &**b) {
                (AffineExpr::Dim(d), k) | (k, AffineExpr::Dim(d)) => (Some(*d), k),
                _ => (None, &**b),
            };
            let coeff = match k {
                AffineExpr::Const(c) => *c,
                AffineExpr::Sym(_) => DYNAMIC,
                _ if k.is_symbolic_or_constant() => DYNAMIC,
                _ => return None,
            };
            match dim {
                Some(d) => add_dyn(strides.get_mut(d as usize)?, coeff),
                None if e.is_symbolic_or_constant() => *offset = DYNAMIC,
                None => return None,
            }
        }
        _ if e.is_symbolic_or_constant() => *offset = DYNAMIC,
        _ => return None,
    }
    Some(())
}

// ----------------------------------------------------------------------
// Shared steps

/// MLIR's `getStridedElementPtr`: the address of the element at
/// `indices`, from the aligned pointer, the offset and the strides
/// (constants where the type knows them).
fn strided_element_ptr(
    l: &Lowering,
    b: &mut dyn Builder,
    loc: Location,
    t: Type,
    d: Value,
    indices: &[Value],
) -> V {
    let ctx = b.context();
    let (strides, offset) = strides_and_offset(ctx, t)
        .ok_or_else(|| RewriteError::at(loc, "unexpected non-strided memref"))?;
    let base = desc::aligned_ptr(b, loc, d)?;
    let mut index = None;
    if offset != 0 {
        index = Some(if offset == DYNAMIC {
            desc::offset(b, loc, d)?
        } else {
            l.index_constant(b, loc, offset)?
        });
    }
    for (i, &idx) in indices.iter().enumerate() {
        let mut inc = idx;
        if strides[i] != 1 {
            let s = if strides[i] == DYNAMIC {
                desc::stride(b, loc, d, i)?
            } else {
                l.index_constant(b, loc, strides[i])?
            };
            inc = lb::binary(b, "llvm.mul", loc, inc, s)?;
        }
        index = Some(match index {
            Some(x) => lb::binary(b, "llvm.add", loc, x, inc)?,
            None => inc,
        });
    }
    let ptr_ty = desc::element_ptr_type(b.context(), d)
        .ok_or_else(|| RewriteError::at(loc, "not a memref descriptor"))?;
    match index {
        Some(i) => lb::gep(b, loc, ptr_ty, base, &[i], l.refine_gep()),
        None => Ok(base),
    }
}

/// `sizeof(t)`: the address of element 1 from a null pointer.
fn size_in_bytes(l: &Lowering, b: &mut dyn Builder, loc: Location, t: Type) -> V {
    let ctx = b.context();
    let e = l
        .convert(ctx, t)
        .ok_or_else(|| RewriteError::at(loc, "cannot convert the element type"))?;
    let pt = llvm::pointer_to(ctx, e);
    let null = lb::null(b, loc, pt)?;
    let one = l.index_constant(b, loc, 1)?;
    let g = lb::gep(b, loc, pt, null, &[one], l.refine_gep())?;
    let index = l.index_type(b.context());
    lb::cast(b, "llvm.ptrtoint", loc, index, g)
}

/// `(input + alignment - 1) - (input + alignment - 1) % alignment`.
fn create_aligned(
    l: &Lowering,
    b: &mut dyn Builder,
    loc: Location,
    input: Value,
    alignment: Value,
) -> V {
    let _ = l;
    let ty = b.context().value_type(alignment);
    let one = lb::index_constant(b, loc, ty, 1)?;
    let bump = lb::binary(b, "llvm.sub", loc, alignment, one)?;
    let bumped = lb::binary(b, "llvm.add", loc, input, bump)?;
    let m = lb::binary(b, "llvm.urem", loc, bumped, alignment)?;
    lb::binary(b, "llvm.sub", loc, bumped, m)
}

fn is_scalar_type(ctx: &Context, t: Type) -> bool {
    matches!(
        ctx.kind(t),
        TypeKind::Integer(_, mlir_async_ir::Signedness::Signless) | TypeKind::Index
    ) || ctx.kind(t).is_float()
}

/// The bytes of an element in the default data layout (MLIR's
/// `getDefaultTypeSizeInBits`, rounded up to bytes).
fn type_size(l: &Lowering, ctx: &Context, t: Type) -> Option<u64> {
    type_bits(l, ctx, t).map(|b| b.div_ceil(8))
}

fn type_bits(l: &Lowering, ctx: &Context, t: Type) -> Option<u64> {
    Some(match ctx.kind(t) {
        TypeKind::Index => u64::from(l.opts.index_bitwidth),
        TypeKind::Integer(w, _) => u64::from(*w),
        TypeKind::F16 | TypeKind::BF16 => 16,
        TypeKind::F32 => 32,
        TypeKind::F64 => 64,
        TypeKind::F80 => 80,
        TypeKind::F128 => 128,
        TypeKind::Vector { shape, elem, .. } => {
            let n: u64 = shape.iter().map(|&d| d.max(0) as u64).product();
            let last = shape.last().copied().unwrap_or(1).max(1) as u64;
            n / last * (last * type_bits(l, ctx, *elem)?).next_power_of_two()
        }
        _ => return None,
    })
}

/// The `i`th integer of an `i64` array attribute.
fn i64_array(ctx: &Context, op: Op, name: &str) -> Option<Vec<i64>> {
    match ctx.attr_kind(ctx.get_attr(op, name)?) {
        AttrKind::Array(xs) => xs
            .iter()
            .map(|&x| int_of(ctx, x).and_then(|v| i64::try_from(v).ok()))
            .collect(),
        _ => None,
    }
}

/// The operand groups of an op with `operand_segment_sizes`.
fn segments(ctx: &Context, op: Op, operands: &[Value], n: usize) -> Option<Vec<Vec<Value>>> {
    let sizes = mlir_async_dialects::util::get_segments(ctx, op, n)?;
    let mut out = vec![];
    let mut k = 0;
    for s in sizes {
        out.push(operands.get(k..k + s)?.to_vec());
        k += s;
    }
    Some(out)
}

// ----------------------------------------------------------------------
// Allocations

/// `memref.alloc`, `memref.alloca` and `memref.get_global` (MLIR's
/// `AllocLikeOpLLVMLowering`): sizes and strides, the buffer, then the
/// descriptor.
fn alloc_like(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let t = ctx.value_type(ctx.result(op, 0));
    if !has_identity_layout(l, ctx, t) {
        return Ok(false);
    }
    let name = ctx.name(op).to_string();
    let dynamic = if name == "memref.get_global" {
        vec![]
    } else {
        match segments(ctx, op, operands, 2) {
            Some(s) => s[0].clone(),
            None => operands.to_vec(),
        }
    };
    let loc = ctx.op_loc(op);
    let (shape, elem, _) = memref_parts(ctx, t).expect("a memref type");
    let elem_ptr = l
        .element_ptr_type(ctx, t)
        .ok_or_else(|| RewriteError::at(loc, "cannot convert the element type"))?;
    let desc_ty = l
        .convert(ctx, t)
        .ok_or_else(|| RewriteError::at(loc, "cannot convert the memref type"))?;
    rw.set_insertion_point(op);
    // Sizes, strides and the size in bytes.
    let mut sizes = vec![];
    let mut k = 0;
    for &s in &shape {
        if s < 0 {
            sizes.push(
                *dynamic
                    .get(k)
                    .ok_or_else(|| RewriteError::at(loc, "missing dynamic size"))?,
            );
            k += 1;
        } else {
            sizes.push(l.index_constant(rw, loc, s)?);
        }
    }
    let mut stride = 1i64;
    let mut running = l.index_constant(rw, loc, 1)?;
    let mut out_strides = vec![running; shape.len()];
    for i in (0..shape.len()).rev() {
        out_strides[i] = running;
        let size = shape[i];
        if size == 0 {
            continue;
        }
        let use_size = stride == 1;
        if size < 0 {
            stride = DYNAMIC;
        }
        if stride != DYNAMIC {
            stride *= size;
        }
        running = if use_size {
            sizes[i]
        } else if stride == DYNAMIC {
            lb::binary(rw, "llvm.mul", loc, running, sizes[i])?
        } else {
            l.index_constant(rw, loc, stride)?
        };
    }
    let null = lb::null(rw, loc, elem_ptr)?;
    let g = lb::gep(rw, loc, elem_ptr, null, &[running], l.refine_gep())?;
    let index = l.index_type(rw.ctx());
    let mut size_bytes = lb::cast(rw, "llvm.ptrtoint", loc, index, g)?;
    // The buffer.
    let (allocated, aligned) = match name.as_str() {
        "memref.alloca" => {
            let align = alignment_attr(rw.ctx_ref(), op).unwrap_or(0);
            let p = lb::alloca(rw, loc, elem_ptr, size_bytes, align as u64)?;
            (p, p)
        }
        "memref.get_global" => {
            let ctx = rw.ctx();
            let space = crate::llvm_common::memory_space(ctx, t).unwrap_or(0);
            let arr = global_type(l, ctx, t)
                .ok_or_else(|| RewriteError::at(loc, "cannot convert the global's type"))?;
            let arr_ptr = llvm::pointer_in(ctx, arr, space);
            let gname = ctx
                .get_attr(op, "name")
                .ok_or_else(|| RewriteError::at(loc, "a get_global without a name"))?;
            let addr = lb::op1(
                rw,
                "llvm.mlir.addressof",
                loc,
                &[],
                arr_ptr,
                &[("global_name", gname)],
            )?;
            let zero = l.index_constant(rw, loc, 0)?;
            let zeros = vec![zero; shape.len() + 1];
            let gep = lb::gep(rw, loc, elem_ptr, addr, &zeros, l.refine_gep())?;
            let int_ptr = rw.ctx().int_type(64);
            let dead = lb::index_constant(rw, loc, int_ptr, 0xdeadbeef)?;
            let dead_ptr = lb::cast(rw, "llvm.inttoptr", loc, elem_ptr, dead)?;
            (dead_ptr, gep)
        }
        _ if l.opts.alloc == AllocLowering::AlignedAlloc => {
            aligned_alloc(l, rw, op, loc, t, elem, &shape, elem_ptr, size_bytes)?
        }
        _ => {
            let void_ptr = l.void_ptr(rw.ctx());
            let alignment = if let Some(a) = alignment_attr(rw.ctx_ref(), op) {
                Some(l.index_constant(rw, loc, a)?)
            } else if !is_scalar_type(rw.ctx_ref(), elem) {
                Some(size_in_bytes(l, rw, loc, elem)?)
            } else {
                None
            };
            if let Some(a) = alignment {
                size_bytes = lb::binary(rw, "llvm.add", loc, size_bytes, a)?;
            }
            lookup_or_create_fn(rw.ctx(), op, "malloc", &[index], void_ptr)?;
            let c = lb::call_fmf(rw, loc, "malloc", &[void_ptr], &[size_bytes])?;
            let raw = rw.ctx_ref().result(c, 0);
            let allocated = lb::cast(rw, "llvm.bitcast", loc, elem_ptr, raw)?;
            let mut aligned = allocated;
            if let Some(a) = alignment {
                let as_int = lb::cast(rw, "llvm.ptrtoint", loc, index, allocated)?;
                let al = create_aligned(l, rw, loc, as_int, a)?;
                aligned = lb::cast(rw, "llvm.inttoptr", loc, elem_ptr, al)?;
            }
            (allocated, aligned)
        }
    };
    // The descriptor.
    let mut d = lb::undef(rw, loc, desc_ty)?;
    d = desc::set_allocated_ptr(rw, loc, d, allocated)?;
    d = desc::set_aligned_ptr(rw, loc, d, aligned)?;
    let zero = l.index_constant(rw, loc, 0)?;
    d = desc::set_offset(rw, loc, d, zero)?;
    for (i, &s) in sizes.iter().enumerate() {
        d = desc::set_size(rw, loc, d, i, s)?;
    }
    for (i, &s) in out_strides.iter().enumerate() {
        d = desc::set_stride(rw, loc, d, i, s)?;
    }
    rw.replace_op(op, &[d])?;
    Ok(true)
}

fn alignment_attr(ctx: &Context, op: Op) -> Option<i64> {
    int_of(ctx, ctx.get_attr(op, "alignment")?).and_then(|v| i64::try_from(v).ok())
}

/// `aligned_alloc(alignment, size)`, the size padded to a multiple of the
/// alignment unless the type says it is one.
#[allow(clippy::too_many_arguments)]
fn aligned_alloc(
    l: &Lowering,
    rw: &mut ConversionRewriter,
    op: Op,
    loc: Location,
    t: Type,
    elem: Type,
    shape: &[i64],
    elem_ptr: Type,
    mut size_bytes: Value,
) -> Result<(Value, Value), RewriteError> {
    let _ = t;
    let elt = type_size(l, rw.ctx_ref(), elem).unwrap_or(1);
    let alignment = match alignment_attr(rw.ctx_ref(), op) {
        Some(a) => a,
        None => 16i64.max(elt.next_power_of_two() as i64),
    };
    let align_v = l.index_constant(rw, loc, alignment)?;
    let mut divisor = elt;
    for &s in shape {
        if s >= 0 {
            divisor = divisor.wrapping_mul(s as u64);
        }
    }
    if alignment == 0 || !divisor.is_multiple_of(alignment as u64) {
        size_bytes = create_aligned(l, rw, loc, size_bytes, align_v)?;
    }
    let index = l.index_type(rw.ctx());
    let void_ptr = l.void_ptr(rw.ctx());
    lookup_or_create_fn(rw.ctx(), op, "aligned_alloc", &[index, index], void_ptr)?;
    let c = lb::call_fmf(
        rw,
        loc,
        "aligned_alloc",
        &[void_ptr],
        &[align_v, size_bytes],
    )?;
    let raw = rw.ctx_ref().result(c, 0);
    let p = lb::cast(rw, "llvm.bitcast", loc, elem_ptr, raw)?;
    Ok((p, p))
}

/// `memref.dealloc`: `free` of the allocated pointer.
fn dealloc(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let loc = ctx.op_loc(op);
    let void_ptr = l.void_ptr(ctx);
    let void = llvm::void(ctx);
    lookup_or_create_fn(ctx, op, "free", &[void_ptr], void)?;
    rw.set_insertion_point(op);
    let p = desc::allocated_ptr(rw, loc, operands[0])?;
    let c = lb::cast(rw, "llvm.bitcast", loc, void_ptr, p)?;
    lb::call_fmf(rw, loc, "free", &[], &[c])?;
    rw.erase_op(op)?;
    Ok(true)
}

/// `memref.alloca_scope`: its body inlined between a stack save and a
/// stack restore.
fn alloca_scope(_: &Lowering, op: Op, _: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let loc = ctx.op_loc(op);
    let Some(block) = ctx.parent_block(op) else {
        return Ok(false);
    };
    let body = ctx.regions_of(op)[0];
    let (Some(first), Some(last)) = (ctx.first_block(body), ctx.last_block(body)) else {
        return Ok(false);
    };
    let result_types = types_of(ctx, ctx.results(op));
    let remaining = rw.split_block(block, op);
    let region = rw
        .ctx_ref()
        .parent_region(block)
        .expect("a block in a region");
    let cont = if result_types.is_empty() {
        remaining
    } else {
        let c = rw.create_block(region, Some(remaining), &result_types);
        let args = rw.ctx_ref().block_args(c).to_vec();
        for a in args {
            rw.ctx().set_value_loc(a, loc);
        }
        lb::br(rw, loc, remaining, &[])?;
        c
    };
    rw.inline_region_before(body, cont);
    rw.set_insertion_point_to_end(block);
    let vp = llvm::i8_pointer(rw.ctx());
    let save = lb::op1(rw, "llvm.intr.stacksave", loc, &[], vp, &[])?;
    lb::br(rw, loc, first, &[])?;
    let Some(ret) = rw.ctx_ref().terminator(last) else {
        return Ok(false);
    };
    let results = rw.ctx_ref().operands(ret).to_vec();
    // The branch out stands for the return (and has its location, as
    // upstream's `replaceOpWithNewOp`); the stack restore is the scope's.
    let ret_loc = rw.ctx_ref().op_loc(ret);
    rw.set_insertion_point(ret);
    let name = rw.ctx().sym("llvm.intr.stackrestore");
    rw.create_op(name, loc, &[save], &[], &[])?;
    lb::br(rw, ret_loc, cont, &results)?;
    rw.erase_op(ret)?;
    let args = rw.ctx_ref().block_args(cont).to_vec();
    if result_types.is_empty() {
        rw.erase_op(op)?;
    } else {
        rw.replace_op(op, &args)?;
    }
    Ok(true)
}

// ----------------------------------------------------------------------
// Accesses

fn load(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let t = ctx.value_type(ctx.operand(op, 0));
    if !has_identity_layout(l, ctx, t) {
        return Ok(false);
    }
    let loc = ctx.op_loc(op);
    rw.set_insertion_point(op);
    let p = strided_element_ptr(l, rw, loc, t, operands[0], &operands[1..])?;
    let v = lb::load(rw, loc, p)?;
    rw.replace_op(op, &[v])?;
    Ok(true)
}

fn store(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let t = ctx.value_type(ctx.operand(op, 1));
    if !has_identity_layout(l, ctx, t) {
        return Ok(false);
    }
    let loc = ctx.op_loc(op);
    rw.set_insertion_point(op);
    let p = strided_element_ptr(l, rw, loc, t, operands[1], &operands[2..])?;
    lb::store(rw, loc, operands[0], p)?;
    rw.erase_op(op)?;
    Ok(true)
}

/// `memref.atomic_rmw` kinds that are one `llvm.atomicrmw` operation; the
/// others (`mulf`, `muli`, `maxf`, `minf`) are left for `-memref-expand`'s
/// compare-and-swap loop, as MLIR's `matchSimpleAtomicOp` leaves them.
fn simple_atomic_op(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "addf" => "fadd",
        "addi" => "add",
        "assign" => "xchg",
        "maxs" => "max",
        "maxu" => "umax",
        "mins" => "min",
        "minu" => "umin",
        "ori" => "_or",
        "andi" => "_and",
        _ => return None,
    })
}

fn atomic_rmw(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let t = ctx.value_type(ctx.operand(op, 1));
    if !has_identity_layout(l, ctx, t) {
        return Ok(false);
    }
    let Some(bin_op) = mlir_async_dialects::memref::rmw_kind(ctx, op).and_then(simple_atomic_op)
    else {
        return Ok(false);
    };
    let loc = ctx.op_loc(op);
    rw.set_insertion_point(op);
    let p = strided_element_ptr(l, rw, loc, t, operands[1], &operands[2..])?;
    let v = lb::atomicrmw(rw, loc, bin_op, p, operands[0], "acq_rel")?;
    rw.replace_op(op, &[v])?;
    Ok(true)
}

/// `generic_atomic_rmw` as a compare-and-swap loop: the block splits
/// after the op, a loop block (the loaded value its argument) holds the
/// body's ops and an `llvm.cmpxchg` of their result, branching back with
/// the value found until the swap succeeds, and the ops after the atomic
/// move to an end block (cloned there, the originals erased).
fn generic_atomic_rmw(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let t = ctx.value_type(ctx.operand(op, 0));
    if !has_identity_layout(l, ctx, t) {
        return Ok(false);
    }
    let loc = ctx.op_loc(op);
    let result = ctx.result(op, 0);
    let rt = ctx.value_type(result);
    let Some(value_ty) = l.convert(ctx, rt) else {
        return Ok(false);
    };
    let (Some(init_block), Some(&body)) = (ctx.parent_block(op), ctx.regions_of(op).first()) else {
        return Ok(false);
    };
    let Some(entry) = ctx.entry_block(body) else {
        return Ok(false);
    };
    let Some(region) = ctx.parent_region(init_block) else {
        return Ok(false);
    };
    let current = ctx.block_args(entry)[0];
    let body_ops = ctx.block_ops(entry);
    let Some((&yield_op, body_ops)) = body_ops.split_last() else {
        return Ok(false);
    };
    let yielded = ctx.operand(yield_op, 0);
    let mut after = vec![];
    let mut cur = ctx.next_op(op);
    while let Some(o) = cur {
        after.push(o);
        cur = ctx.next_op(o);
    }
    let next = if ctx.parent_region(init_block) == Some(region) {
        ctx.next_block(init_block)
    } else {
        None
    };
    let loop_block = rw.create_block(region, next, &[value_ty]);
    let end_block = rw.create_block(region, next, &[]);
    rw.set_insertion_point_to_end(init_block);
    let ptr = strided_element_ptr(l, rw, loc, t, operands[0], &operands[1..])?;
    let init = lb::load(rw, loc, ptr)?;
    lb::br(rw, loc, loop_block, &[init])?;
    rw.set_insertion_point_to_start(loop_block);
    let loop_arg = rw.ctx_ref().block_args(loop_block)[0];
    let mut map = std::collections::HashMap::new();
    map.insert(current, loop_arg);
    for &o in body_ops {
        rw.clone_op(o, &mut map)?;
    }
    let new_value = map.get(&yielded).copied().unwrap_or(yielded);
    let pair = lb::cmpxchg(rw, loc, ptr, loop_arg, new_value, "acq_rel", "monotonic")?;
    let loaded = lb::extract_value(rw, loc, pair, &[0])?;
    let ok = lb::extract_value(rw, loc, pair, &[1])?;
    lb::cond_br(rw, loc, ok, end_block, &[], loop_block, &[loaded])?;
    rw.set_insertion_point_to_end(end_block);
    let mut map = std::collections::HashMap::new();
    map.insert(result, loaded);
    for &o in &after {
        rw.clone_op(o, &mut map)?;
    }
    for &o in &after {
        rw.erase_op(o)?;
    }
    rw.replace_op(op, &[loaded])?;
    Ok(true)
}

/// The constant a dim's index operand holds, if it is one.
fn constant_index(ctx: &Context, v: Value) -> Option<i64> {
    let d = ctx.defining_op(v)?;
    if !matches!(ctx.name(d), "arith.constant" | "llvm.mlir.constant") {
        return None;
    }
    int_of(ctx, ctx.get_attr(d, "value")?).and_then(|v| i64::try_from(v).ok())
}

fn dim(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let t = ctx.value_type(ctx.operand(op, 0));
    let loc = ctx.op_loc(op);
    let kind = ctx.kind(t).clone();
    rw.set_insertion_point(op);
    if let TypeKind::UnrankedMemRef { elem, .. } = kind {
        let ctx = rw.ctx();
        let space = crate::llvm_common::memory_space(ctx, t).unwrap_or(0);
        let scalar = ctx.ty(TypeKind::MemRef {
            shape: vec![],
            elem,
            layout: None,
            memory_space: None,
        });
        let Some(scalar_desc) = l.convert(ctx, scalar) else {
            return Ok(false);
        };
        let scalar_ptr = llvm::pointer_in(ctx, scalar_desc, space);
        let index = l.index_type(ctx);
        let index_ptr = llvm::pointer_in(ctx, index, space);
        let i32t = ctx.int_type(32);
        let under = unranked::memref_desc_ptr(rw, loc, operands[0])?;
        let p = lb::cast(rw, "llvm.bitcast", loc, scalar_ptr, under)?;
        let two = lb::int_constant(rw, loc, i32t, 2)?;
        let zero = l.index_constant(rw, loc, 0)?;
        let offset_ptr = lb::gep(rw, loc, index_ptr, p, &[zero, two], l.refine_gep())?;
        let one = l.index_constant(rw, loc, 1)?;
        let idx = lb::binary(rw, "llvm.add", loc, one, operands[1])?;
        let size_ptr = lb::gep(rw, loc, index_ptr, offset_ptr, &[idx], l.refine_gep())?;
        let v = lb::load(rw, loc, size_ptr)?;
        rw.replace_op(op, &[v])?;
        return Ok(true);
    }
    let ctx = rw.ctx_ref();
    let Some((shape, _, _)) = memref_parts(ctx, t) else {
        return Ok(false);
    };
    let v = match constant_index(ctx, ctx.operand(op, 1)) {
        Some(i) => {
            let Some(&size) = usize::try_from(i).ok().and_then(|i| shape.get(i)) else {
                return Ok(false);
            };
            if size < 0 {
                desc::size(rw, loc, operands[0], i as usize)?
            } else {
                l.index_constant(rw, loc, size)?
            }
        }
        None => desc::size_at(
            rw,
            loc,
            operands[0],
            operands[1],
            shape.len(),
            l.refine_gep(),
        )?,
    };
    rw.replace_op(op, &[v])?;
    Ok(true)
}

fn rank(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let t = ctx.value_type(ctx.operand(op, 0));
    let loc = ctx.op_loc(op);
    let kind = ctx.kind(t).clone();
    rw.set_insertion_point(op);
    let v = match kind {
        TypeKind::UnrankedMemRef { .. } => unranked::rank(rw, loc, operands[0])?,
        TypeKind::MemRef { shape, .. } => l.index_constant(rw, loc, shape.len() as i64)?,
        _ => return Ok(false),
    };
    rw.replace_op(op, &[v])?;
    Ok(true)
}

/// `memref.cast`: ranked to ranked keeps the descriptor; to unranked the
/// descriptor goes to the stack; from unranked it is loaded back.
fn cast(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let src = ctx.value_type(ctx.operand(op, 0));
    let dst = ctx.value_type(ctx.result(op, 0));
    let ranked = |ctx: &Context, t| matches!(ctx.kind(t), TypeKind::MemRef { .. });
    let loc = ctx.op_loc(op);
    match (ranked(ctx, src), ranked(ctx, dst)) {
        (true, true) => {
            if l.convert(ctx, src) != l.convert(ctx, dst) {
                return Ok(false);
            }
            rw.replace_op(op, &[operands[0]])?;
        }
        (true, false) => {
            let Some(target) = l.convert(ctx, dst) else {
                return Ok(false);
            };
            let r = memref_parts(ctx, src).map_or(0, |p| p.0.len()) as i64;
            rw.set_insertion_point(op);
            let p = promote_one_descriptor(rw, loc, operands[0])?;
            let vp = l.void_ptr(rw.ctx());
            let v = lb::cast(rw, "llvm.bitcast", loc, vp, p)?;
            let rank_v = if l.edition == Edition::V15 {
                l.index_constant(rw, loc, r)?
            } else {
                let i64t = rw.ctx().int_type(64);
                lb::int_constant(rw, loc, i64t, r)?
            };
            let d = lb::undef(rw, loc, target)?;
            let d = unranked::set_rank(rw, loc, d, rank_v)?;
            let d = unranked::set_memref_desc_ptr(rw, loc, d, v)?;
            rw.replace_op(op, &[d])?;
        }
        (false, true) => {
            let Some(target) = l.convert(ctx, dst) else {
                return Ok(false);
            };
            let pt = llvm::pointer_to(ctx, target);
            rw.set_insertion_point(op);
            let p = unranked::memref_desc_ptr(rw, loc, operands[0])?;
            let c = lb::cast(rw, "llvm.bitcast", loc, pt, p)?;
            let v = lb::load(rw, loc, c)?;
            rw.replace_op(op, &[v])?;
        }
        (false, false) => return Ok(false),
    }
    Ok(true)
}

/// Is the memref contiguous enough for `memcpy` (14: an identity layout;
/// 15 also takes a static, non-empty, row-major strided one)?
fn is_contiguous(l: &Lowering, ctx: &Context, t: Type) -> bool {
    let Some((shape, _, layout)) = memref_parts(ctx, t) else {
        return false;
    };
    match layout_map(ctx, layout) {
        Some(None) => true,
        Some(Some(_)) if l.edition == Edition::V15 => {
            if shape.iter().any(|&s| s < 0) || shape.iter().product::<i64>() <= 0 {
                return false;
            }
            let Some((strides, _)) = strides_and_offset(ctx, t) else {
                return false;
            };
            // Row-major: each stride the product of the sizes inside it
            // (unit dimensions may have any stride).
            let mut running = 1i64;
            for (i, &s) in shape.iter().enumerate().rev() {
                if s != 1 && strides[i] != running {
                    return false;
                }
                running *= s;
            }
            true
        }
        _ => false,
    }
}

fn copy(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let src_t = ctx.value_type(ctx.operand(op, 0));
    let dst_t = ctx.value_type(ctx.operand(op, 1));
    let loc = ctx.op_loc(op);
    let contiguous = is_contiguous(l, ctx, src_t) && is_contiguous(l, ctx, dst_t);
    rw.set_insertion_point(op);
    if contiguous {
        let ctx = rw.ctx();
        let (shape, elem, _) = memref_parts(ctx, src_t).expect("a ranked memref");
        let index = l.index_type(ctx);
        let ia = {
            let it = ctx.index_type();
            ctx.int_attr(1, it)
        };
        let mut n = lb::constant(rw, loc, index, ia)?;
        for pos in 0..shape.len() {
            let s = desc::size(rw, loc, operands[0], pos)?;
            n = lb::binary(rw, "llvm.mul", loc, n, s)?;
        }
        let elem_size = size_in_bytes(l, rw, loc, elem)?;
        let total = lb::binary(rw, "llvm.mul", loc, n, elem_size)?;
        let mut src = desc::aligned_ptr(rw, loc, operands[0])?;
        if l.edition == Edition::V15 {
            let off = desc::offset(rw, loc, operands[0])?;
            let pt = rw.ctx_ref().value_type(src);
            src = lb::gep(rw, loc, pt, src, &[off], true)?;
        }
        let mut dst = desc::aligned_ptr(rw, loc, operands[1])?;
        if l.edition == Edition::V15 {
            let off = desc::offset(rw, loc, operands[1])?;
            let pt = rw.ctx_ref().value_type(dst);
            dst = lb::gep(rw, loc, pt, dst, &[off], true)?;
        }
        let volatile = lb::bool_constant(rw, loc, false)?;
        memcpy(rw, loc, dst, src, total, volatile)?;
        rw.erase_op(op)?;
        return Ok(true);
    }
    // The generic `memrefCopy(elemSize, src*, dst*)` on unranked
    // descriptors.
    let mut descs = vec![];
    for (k, t) in [(0, src_t), (1, dst_t)] {
        let v = operands[k];
        let d = match rw.ctx_ref().kind(t).clone() {
            TypeKind::MemRef { shape, .. } => {
                let index = l.index_type(rw.ctx());
                let ia = {
                    let it = rw.ctx().index_type();
                    rw.ctx().int_attr(shape.len() as i128, it)
                };
                let r = lb::constant(rw, loc, index, ia)?;
                let p = promote_one_descriptor(rw, loc, v)?;
                let vp = l.void_ptr(rw.ctx());
                let vptr = lb::cast(rw, "llvm.bitcast", loc, vp, p)?;
                unranked::pack(rw, loc, &[r, vptr])?
            }
            _ => v,
        };
        descs.push(d);
    }
    let index = l.index_type(rw.ctx());
    let ia = {
        let it = rw.ctx().index_type();
        rw.ctx().int_attr(1, it)
    };
    let one = lb::constant(rw, loc, index, ia)?;
    let mut ptrs = vec![];
    for d in descs {
        let dt = rw.ctx_ref().value_type(d);
        let pt = llvm::pointer_to(rw.ctx(), dt);
        let p = lb::alloca(rw, loc, pt, one, 0)?;
        lb::store(rw, loc, d, p)?;
        ptrs.push(p);
    }
    let elem = match rw.ctx_ref().kind(src_t) {
        TypeKind::MemRef { elem, .. } | TypeKind::UnrankedMemRef { elem, .. } => *elem,
        _ => return Ok(false),
    };
    let size = type_size(l, rw.ctx_ref(), elem).unwrap_or(0) as i128;
    let ia = {
        let it = rw.ctx().index_type();
        rw.ctx().int_attr(size, it)
    };
    let elem_size = lb::constant(rw, loc, index, ia)?;
    let pt = rw.ctx_ref().value_type(ptrs[0]);
    let void = llvm::void(rw.ctx());
    lookup_or_create_fn(rw.ctx(), op, "memrefCopy", &[index, pt, pt], void)?;
    lb::call(rw, loc, "memrefCopy", &[], &[elem_size, ptrs[0], ptrs[1]])?;
    rw.erase_op(op)?;
    Ok(true)
}

// ----------------------------------------------------------------------
// Globals

/// The LLVM type of a global memref: nested arrays of the element.
fn global_type(l: &Lowering, ctx: &mut Context, t: Type) -> Option<Type> {
    let (shape, elem, _) = memref_parts(ctx, t)?;
    let mut ty = l.convert(ctx, elem)?;
    for &d in shape.iter().rev() {
        ty = llvm::array_of(ctx, ty, d.max(0) as u64);
    }
    Some(ty)
}

fn global(l: &Lowering, op: Op, _: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let Some(t) = ctx
        .get_attr(op, "type")
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::Type(t) => Some(*t),
            _ => None,
        })
    else {
        return Ok(false);
    };
    if !has_identity_layout(l, ctx, t) {
        return Ok(false);
    }
    let Some(arr) = global_type(l, ctx, t) else {
        return Ok(false);
    };
    let loc = ctx.op_loc(op);
    let public = ctx
        .get_attr(op, "sym_visibility")
        .is_none_or(|a| matches!(ctx.attr_kind(a), AttrKind::String(s, _) if s == b"public"));
    let linkage = if public { "external" } else { "private" };
    let init = ctx.get_attr(op, "initial_value");
    let uninitialized = init.is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::Unit));
    let mut value = None;
    if let Some(a) = init.filter(|_| !uninitialized) {
        value = Some(a);
        let rank0 = memref_parts(ctx, t).is_some_and(|p| p.0.is_empty());
        if rank0 {
            if let AttrKind::Dense(elems, dt, _) = ctx.attr_kind(a).clone() {
                let et = match ctx.kind(dt) {
                    TypeKind::Tensor { elem, .. } | TypeKind::Vector { elem, .. } => *elem,
                    _ => dt,
                };
                value = match elems.first() {
                    Some(mlir_async_ir::DenseElem::Int(v)) => Some(ctx.int_attr(*v, et)),
                    Some(mlir_async_ir::DenseElem::Float(bits)) => {
                        Some(ctx.attr(AttrKind::Float(*bits, et)))
                    }
                    _ => Some(a),
                };
            }
        }
    }
    let mut attrs = vec![];
    let name = ctx.get_attr(op, "sym_name").expect("a global has a name");
    attrs.push((ctx.sym("sym_name"), name));
    let ta = ctx.type_attr(arr);
    attrs.push((ctx.sym("global_type"), ta));
    if ctx.get_attr(op, "constant").is_some() {
        let u = ctx.unit_attr();
        attrs.push((ctx.sym("constant"), u));
    }
    if let Some(v) = value {
        attrs.push((ctx.sym("value"), v));
    }
    if let Some(a) = alignment_attr(ctx, op).filter(|&a| a != 0) {
        let i64t = ctx.int_type(64);
        let av = ctx.int_attr(i128::from(a), i64t);
        attrs.push((ctx.sym("alignment"), av));
    }
    let la = lb::linkage_attr(ctx, linkage);
    attrs.push((ctx.sym("linkage"), la));
    let space = crate::llvm_common::memory_space(ctx, t).unwrap_or(0);
    if space != 0 {
        let i32t = ctx.int_type(32);
        let sa = ctx.int_attr(i128::from(space), i32t);
        attrs.push((ctx.sym("addr_space"), sa));
    }
    ctx.sort_attrs(&mut attrs);
    let mut st = mlir_async_ir::OperationState::new(ctx.sym("llvm.mlir.global"), loc);
    st.attrs = attrs;
    let region = ctx.create_region();
    st.regions = vec![region];
    rw.set_insertion_point(op);
    rw.create(st)?;
    if init.is_some() && uninitialized {
        let b = rw.create_block(region, None, &[]);
        rw.set_insertion_point_to_start(b);
        let u = lb::undef(rw, loc, arr)?;
        lb::ret(rw, loc, &[u])?;
    }
    rw.erase_op(op)?;
    Ok(true)
}

// ----------------------------------------------------------------------
// Views

/// The allocated and aligned pointers (and offset) of a ranked or
/// unranked memref.
fn pointers_and_offset(
    l: &Lowering,
    rw: &mut ConversionRewriter,
    loc: Location,
    orig_ty: Type,
    d: Value,
    with_offset: bool,
) -> Result<(Value, Value, Option<Value>), RewriteError> {
    if let TypeKind::UnrankedMemRef { elem, .. } = rw.ctx_ref().kind(orig_ty).clone() {
        let ctx = rw.ctx();
        let space = crate::llvm_common::memory_space(ctx, orig_ty).unwrap_or(0);
        let e = l
            .convert(ctx, elem)
            .ok_or_else(|| RewriteError::at(loc, "cannot convert the element type"))?;
        let ep = llvm::pointer_in(ctx, e, space);
        let epp = llvm::pointer_to(ctx, ep);
        let under = unranked::memref_desc_ptr(rw, loc, d)?;
        let a = unranked::allocated_ptr(rw, loc, under, epp)?;
        let b = unranked::aligned_ptr(l, rw, loc, under, epp)?;
        let o = if with_offset {
            Some(unranked::offset(l, rw, loc, under, epp)?)
        } else {
            None
        };
        return Ok((a, b, o));
    }
    let a = desc::allocated_ptr(rw, loc, d)?;
    let b = desc::aligned_ptr(rw, loc, d)?;
    let o = if with_offset {
        Some(desc::offset(rw, loc, d)?)
    } else {
        None
    };
    Ok((a, b, o))
}

fn reinterpret_cast(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let t = ctx.value_type(ctx.result(op, 0));
    let Some(desc_ty) = l
        .convert(ctx, t)
        .filter(|&d| llvm::as_struct(ctx, d).is_some())
    else {
        return Ok(false);
    };
    let (Some(segs), Some(offs), Some(sizes), Some(strides)) = (
        segments(ctx, op, operands, 4),
        i64_array(ctx, op, "static_offsets"),
        i64_array(ctx, op, "static_sizes"),
        i64_array(ctx, op, "static_strides"),
    ) else {
        return Ok(false);
    };
    let src_t = ctx.value_type(ctx.operand(op, 0));
    let loc = ctx.op_loc(op);
    let rank = memref_parts(ctx, t).map_or(0, |p| p.0.len());
    rw.set_insertion_point(op);
    let mut d = lb::undef(rw, loc, desc_ty)?;
    let (a, b, _) = pointers_and_offset(l, rw, loc, src_t, operands[0], false)?;
    d = desc::set_allocated_ptr(rw, loc, d, a)?;
    d = desc::set_aligned_ptr(rw, loc, d, b)?;
    d = match offs.first() {
        Some(&o) if o == DYNAMIC => desc::set_offset(rw, loc, d, segs[1][0])?,
        Some(&o) => desc::set_constant_offset(rw, loc, d, o)?,
        None => d,
    };
    let (mut ds, mut dt) = (0, 0);
    for i in 0..rank {
        d = if sizes.get(i) == Some(&-1) {
            ds += 1;
            desc::set_size(rw, loc, d, i, segs[2][ds - 1])?
        } else {
            desc::set_constant_size(rw, loc, d, i, sizes.get(i).copied().unwrap_or(0))?
        };
        d = if strides.get(i) == Some(&DYNAMIC) {
            dt += 1;
            desc::set_stride(rw, loc, d, i, segs[3][dt - 1])?
        } else {
            desc::set_constant_stride(rw, loc, d, i, strides.get(i).copied().unwrap_or(0))?
        };
    }
    rw.replace_op(op, &[d])?;
    Ok(true)
}

fn transpose(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let Some(perm) = ctx
        .get_attr(op, "permutation")
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::Affine(t) => t
                .strip_prefix("affine_map<")
                .and_then(|s| s.strip_suffix('>'))
                .and_then(|s| parse_map(s).ok()),
            _ => None,
        })
    else {
        return Ok(false);
    };
    if perm.is_identity() {
        rw.replace_op(op, &[operands[0]])?;
        return Ok(true);
    }
    let t = ctx.value_type(ctx.result(op, 0));
    let Some(desc_ty) = l.convert(ctx, t) else {
        return Ok(false);
    };
    let loc = ctx.op_loc(op);
    rw.set_insertion_point(op);
    let src = operands[0];
    let mut d = lb::undef(rw, loc, desc_ty)?;
    let a = desc::allocated_ptr(rw, loc, src)?;
    d = desc::set_allocated_ptr(rw, loc, d, a)?;
    let b = desc::aligned_ptr(rw, loc, src)?;
    d = desc::set_aligned_ptr(rw, loc, d, b)?;
    let o = desc::offset(rw, loc, src)?;
    d = desc::set_offset(rw, loc, d, o)?;
    for (i, e) in perm.results.iter().enumerate() {
        let AffineExpr::Dim(target) = e else {
            return Ok(false);
        };
        let s = desc::size(rw, loc, src, i)?;
        d = desc::set_size(rw, loc, d, *target as usize, s)?;
        let st = desc::stride(rw, loc, src, i)?;
        d = desc::set_stride(rw, loc, d, *target as usize, st)?;
    }
    rw.replace_op(op, &[d])?;
    Ok(true)
}

/// `memref.subview`: a descriptor over the source's buffer with the
/// offset, sizes and strides of the view.
fn subview(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let src_t = ctx.value_type(ctx.operand(op, 0));
    let view_t = ctx.value_type(ctx.result(op, 0));
    let (Some((src_shape, src_elem, _)), Some((view_shape, view_elem, _))) =
        (memref_parts(ctx, src_t), memref_parts(ctx, view_t))
    else {
        return Ok(false);
    };
    let (Some(segs), Some(offs), Some(sizes), Some(strides_attr)) = (
        segments(ctx, op, operands, 4),
        i64_array(ctx, op, "static_offsets"),
        i64_array(ctx, op, "static_sizes"),
        i64_array(ctx, op, "static_strides"),
    ) else {
        return Ok(false);
    };
    let (Some(_), Some(target_elem), Some(desc_ty)) = (
        l.convert(ctx, src_elem),
        l.convert(ctx, view_elem),
        l.convert(ctx, view_t),
    ) else {
        return Ok(false);
    };
    // The type the subview would have without rank reduction.
    let Some((src_strides, src_offset)) = strides_and_offset(ctx, src_t) else {
        return Ok(false);
    };
    let rank = src_shape.len();
    let mut inferred_offset = src_offset;
    let mut inferred_strides = vec![0i64; rank];
    for i in 0..rank {
        let o = offs.get(i).copied().unwrap_or(0);
        let s = strides_attr.get(i).copied().unwrap_or(1);
        if inferred_offset != DYNAMIC {
            inferred_offset = if o == DYNAMIC || src_strides[i] == DYNAMIC {
                DYNAMIC
            } else {
                inferred_offset + o * src_strides[i]
            };
        }
        inferred_strides[i] = if s == DYNAMIC || src_strides[i] == DYNAMIC {
            DYNAMIC
        } else {
            s * src_strides[i]
        };
    }
    let dropped = dropped_dims(&sizes, &view_shape, rank);
    let space = crate::llvm_common::memory_space(ctx, view_t).unwrap_or(0);
    let target_ptr = llvm::pointer_in(ctx, target_elem, space);
    let index = l.index_type(ctx);
    let loc = ctx.op_loc(op);
    let src = operands[0];
    rw.set_insertion_point(op);
    let mut d = lb::undef(rw, loc, desc_ty)?;
    let a = desc::allocated_ptr(rw, loc, src)?;
    let a = lb::cast(rw, "llvm.bitcast", loc, target_ptr, a)?;
    d = desc::set_allocated_ptr(rw, loc, d, a)?;
    let b = desc::aligned_ptr(rw, loc, src)?;
    let b = lb::cast(rw, "llvm.bitcast", loc, target_ptr, b)?;
    d = desc::set_aligned_ptr(rw, loc, d, b)?;
    let mut stride_values = vec![];
    for i in 0..rank {
        stride_values.push(desc::stride(rw, loc, src, i)?);
    }
    let i64t = rw.ctx().int_type(64);
    let cst = |rw: &mut ConversionRewriter, v: i64| {
        let a = rw.ctx().int_attr(i128::from(v), i64t);
        lb::constant(rw, loc, index, a)
    };
    if inferred_offset != DYNAMIC {
        d = desc::set_constant_offset(rw, loc, d, inferred_offset)?;
    } else {
        let mut base = desc::offset(rw, loc, src)?;
        let mut dyn_k = 0;
        for (i, &sv) in stride_values.iter().enumerate().take(offs.len().min(rank)) {
            let o = if offs[i] == DYNAMIC {
                dyn_k += 1;
                segs[1][dyn_k - 1]
            } else {
                cst(rw, offs[i])?
            };
            let m = lb::binary(rw, "llvm.mul", loc, o, sv)?;
            base = lb::binary(rw, "llvm.add", loc, base, m)?;
        }
        d = desc::set_offset(rw, loc, d, base)?;
    }
    let dyn_size_index = |i: usize| sizes[..i].iter().filter(|&&s| s == -1).count();
    let dyn_stride_index = |i: usize| strides_attr[..i].iter().filter(|&&s| s == DYNAMIC).count();
    let mut j = view_shape.len() as i64 - 1;
    for i in (0..rank).rev() {
        if j < 0 {
            break;
        }
        if dropped.contains(&i) {
            continue;
        }
        let (size, stride) = if i >= sizes.len() {
            let s = src_shape[i];
            let size = if s >= 0 {
                cst(rw, s)?
            } else {
                return Ok(false);
            };
            (size, cst(rw, 1)?)
        } else {
            let size = if sizes[i] == -1 {
                segs[2][dyn_size_index(i)]
            } else {
                cst(rw, sizes[i])?
            };
            let stride = if inferred_strides[i] != DYNAMIC {
                cst(rw, inferred_strides[i])?
            } else {
                let s = if strides_attr[i] == DYNAMIC {
                    segs[3][dyn_stride_index(i)]
                } else {
                    cst(rw, strides_attr[i])?
                };
                lb::binary(rw, "llvm.mul", loc, s, stride_values[i])?
            };
            (size, stride)
        };
        d = desc::set_size(rw, loc, d, j as usize, size)?;
        d = desc::set_stride(rw, loc, d, j as usize, stride)?;
        j -= 1;
    }
    rw.replace_op(op, &[d])?;
    Ok(true)
}

/// The dimensions a rank-reducing subview drops: unit sizes the result
/// shape does not have, matched from the front as MLIR's
/// `computeRankReductionMask` does.
fn dropped_dims(sizes: &[i64], view_shape: &[i64], rank: usize) -> Vec<usize> {
    if view_shape.len() == rank {
        return vec![];
    }
    let mut dropped = vec![];
    let mut j = 0;
    for (i, &s) in sizes.iter().enumerate() {
        if j < view_shape.len() && (view_shape[j] == s || (s == -1 && view_shape[j] == -1)) {
            j += 1;
        } else if s == 1 {
            dropped.push(i);
        } else {
            j += 1;
        }
    }
    dropped
}
