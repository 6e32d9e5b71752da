//! `-memref-expand` (LLVM 14, 15; in 13 part of `-std-expand`): the memref
//! ops the LLVM lowering cannot take as they are, rewritten as upstream's
//! `MemRef/Transforms/ExpandOps.cpp`: an `atomic_rmw` of `maxf`/`minf`
//! becomes a `generic_atomic_rmw` whose body compares and selects, a
//! `reshape` to a shape of static length becomes a `reinterpret_cast`
//! with sizes loaded from the shape and strides multiplied out.

use crate::{Pass, PassContext, PassInfo};
use mlir_async_dialects::build;
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_ir::{
    AttrKind, Attribute, Context, IrError, Op, OperationState, Type, TypeKind, Value,
};
use mlir_async_rewrite::{
    apply_partial_conversion, Builder, ConversionPatternSet, ConversionRewriter, ConversionTarget,
    RewriteError,
};
use mlir_async_syntax::edition::generic_name;
use mlir_async_syntax::Edition;

pub fn info() -> PassInfo {
    PassInfo {
        arg: "memref-expand",
        summary: "Legalize memref operations to be convertible to LLVM.",
        options: &[],
        anchor: "",
        make: |_| Ok(Box::new(MemRefExpand)),
    }
}

pub struct MemRefExpand;

impl Pass for MemRefExpand {
    fn name(&self) -> &'static str {
        "memref-expand"
    }
    fn display_name(&self) -> &'static str {
        "MemRefExpandOps"
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let mut target = ConversionTarget::new();
        target
            .add_legal_dialect("arith")
            .add_legal_dialect("memref");
        if pc.edition != Edition::V15 {
            let ed = pc.edition;
            target.mark_unknown_op_dynamically_legal(move |ctx, o| {
                generic_name(ctx.name(o), ed).starts_with("std.")
            });
        }
        add_legality(&mut target);
        let mut patterns = ConversionPatternSet::new();
        populate(&mut patterns);
        let ifaces = Interfaces::new(pc.registry, pc.edition);
        apply_partial_conversion(pc.ctx, op, &target, &patterns, None, &ifaces)
            .map_err(|e| e.into_ir_error(pc.ctx))
    }
}

/// `atomic_rmw` of `maxf`/`minf` and `reshape` by a static-length shape
/// are what the expansion removes.
pub fn add_legality(target: &mut ConversionTarget) {
    target.add_dynamically_legal_op("memref.atomic_rmw", |ctx, op| {
        !matches!(rmw_kind(ctx, op), Some(3 | 6))
    });
    target.add_dynamically_legal_op("memref.reshape", |ctx, op| !static_shape_operand(ctx, op));
}

pub fn populate(set: &mut ConversionPatternSet) {
    set.add_fn("memref.atomic_rmw", "AtomicRMWOpConverter", atomic_rmw);
    set.add_fn("memref.reshape", "MemRefReshapeOpConverter", reshape);
}

/// `arith::AtomicRMWKind` as stored (3: `maxf`, 6: `minf`).
fn rmw_kind(ctx: &Context, op: Op) -> Option<i128> {
    match ctx.attr_kind(ctx.get_attr(op, "kind")?) {
        AttrKind::Integer(v, _) => Some(*v),
        _ => None,
    }
}

fn static_shape_operand(ctx: &Context, op: Op) -> bool {
    let Some(&shape) = ctx.operands(op).get(1) else {
        return false;
    };
    matches!(ctx.kind(ctx.value_type(shape)), TypeKind::MemRef { shape, .. } if shape.iter().all(Option::is_some))
}

fn atomic_rmw(op: Op, _: &[Value], rw: &mut ConversionRewriter) -> Result<bool, RewriteError> {
    let ctx = rw.ctx();
    let pred = match rmw_kind(ctx, op) {
        Some(3) => "ogt",
        Some(6) => "olt",
        _ => return Ok(false),
    };
    let loc = ctx.op_loc(op);
    let operands = ctx.operands(op).to_vec();
    let (value, memref_and_indices) = (operands[0], &operands[1..]);
    let ty = ctx.value_type(ctx.result(op, 0));
    let region = ctx.create_region();
    let block = ctx.create_block(&[ty]);
    let current = ctx.block_args(block)[0];
    ctx.set_value_loc(current, loc);
    ctx.append_block(region, block);
    let mut st = OperationState::new(ctx.sym("memref.generic_atomic_rmw"), loc);
    st.operands = memref_and_indices.to_vec();
    st.result_types = vec![ty];
    st.regions = vec![region];
    rw.set_insertion_point(op);
    let generic = rw.create(st)?;
    rw.set_insertion_point_to_end(block);
    let b: &mut dyn Builder = rw;
    let cmp = build::cmpf(b, loc, pred, current, value)?;
    let sel = build::select(b, loc, cmp, current, value)?;
    let name = b.context().sym("memref.atomic_yield");
    b.build_op(name, loc, &[sel], &[], &[])?;
    let r = rw.ctx_ref().result(generic, 0);
    rw.replace_op(op, &[r])?;
    Ok(true)
}

fn i64_array(ctx: &mut Context, vs: &[i64]) -> Attribute {
    let i64t = ctx.int_type(64);
    let elems = vs
        .iter()
        .map(|&v| ctx.int_attr(i128::from(v), i64t))
        .collect();
    ctx.attr(AttrKind::Array(elems))
}

/// MLIR's `ShapedType::kDynamicStrideOrOffset`.
const DYNAMIC_STRIDE: i64 = i64::MIN;

fn reshape(op: Op, _: &[Value], rw: &mut ConversionRewriter) -> Result<bool, RewriteError> {
    let ctx = rw.ctx();
    let operands = ctx.operands(op).to_vec();
    let [source, shape] = operands[..] else {
        return Ok(false);
    };
    let rank = match ctx.kind(ctx.value_type(shape)) {
        TypeKind::MemRef { shape, .. } => match shape[..] {
            [Some(n)] => n as usize,
            _ => return Ok(false),
        },
        _ => return Ok(false),
    };
    let result_ty: Type = ctx.value_type(ctx.result(op, 0));
    let dims: Vec<Option<i64>> = match ctx.kind(result_ty) {
        TypeKind::MemRef { shape, .. } if shape.len() == rank => shape.clone(),
        _ => return Ok(false),
    };
    let loc = ctx.op_loc(op);
    let index = ctx.index_type();
    rw.set_insertion_point(op);
    let one = build::constant_int(rw, loc, index, 1)?;
    let mut stride = one;
    let mut sizes: Vec<Option<Value>> = vec![None; rank];
    let mut strides = vec![one; rank];
    for i in (0..rank).rev() {
        let size = match dims[i] {
            None => {
                let c = build::constant_int(rw, loc, index, i as i128)?;
                let elem = match rw.ctx_ref().kind(rw.ctx_ref().value_type(shape)) {
                    TypeKind::MemRef { elem, .. } => *elem,
                    _ => index,
                };
                let name = rw.ctx().sym("memref.load");
                let l = rw.create_op(name, loc, &[shape, c], &[elem], &[])?;
                let mut v = rw.ctx_ref().result(l, 0);
                if elem != index {
                    let name = rw.ctx().sym("arith.index_cast");
                    let c = rw.create_op(name, loc, &[v], &[index], &[])?;
                    v = rw.ctx_ref().result(c, 0);
                }
                sizes[i] = Some(v);
                v
            }
            Some(n) => build::constant_int(rw, loc, index, i128::from(n))?,
        };
        strides[i] = stride;
        if i > 0 {
            stride = build::same_type(rw, "arith.muli", loc, &[stride, size])?;
        }
    }
    let ctx = rw.ctx();
    let static_offsets = i64_array(ctx, &[0]);
    let static_sizes: Vec<i64> = dims.iter().map(|d| d.unwrap_or(-1)).collect();
    let static_sizes = i64_array(ctx, &static_sizes);
    let static_strides = i64_array(ctx, &vec![DYNAMIC_STRIDE; rank]);
    let dyn_sizes: Vec<Value> = sizes.iter().flatten().copied().collect();
    let seg = mlir_async_dialects::util::segment_sizes(ctx, &[1, 0, dyn_sizes.len(), rank]);
    let mut st = OperationState::new(ctx.sym("memref.reinterpret_cast"), loc);
    st.operands = [&[source][..], &dyn_sizes, &strides].concat();
    st.result_types = vec![result_ty];
    st.attrs = vec![
        (ctx.sym("operand_segment_sizes"), seg),
        (ctx.sym("static_offsets"), static_offsets),
        (ctx.sym("static_sizes"), static_sizes),
        (ctx.sym("static_strides"), static_strides),
    ];
    let new = rw.create(st)?;
    let r = rw.ctx_ref().result(new, 0);
    rw.replace_op(op, &[r])?;
    Ok(true)
}
