//! `-convert-arith-to-llvm` (LLVM 14, 15): each `arith` op becomes its
//! LLVM instruction, as upstream's `ArithmeticToLLVM`. A partial
//! conversion to the LLVM target, so an op whose types LLVM cannot hold
//! stays, bridged by casts; ops with constant operands fold first.
//! `arith.select` is `std.select` in 14 and lowered by
//! `-convert-std-to-llvm` there.

use crate::llvm_common::{
    element_type_or_self, handle_multidimensional_vectors, llvm_target, one_to_one,
    vector_one_to_one, LowerToLlvmOptions, Lowering,
};
use crate::{OptionKind, Pass, PassContext, PassInfo, PassOption, PassOptions};
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_dialects::llvm::types as llvm;
use mlir_async_ir::{AttrKind, IrError, Op, TypeKind, Value};
use mlir_async_rewrite::{
    apply_partial_conversion, ConversionPatternSet, ConversionRewriter, RewriteError,
};
use mlir_async_syntax::Edition;
use std::rc::Rc;

type R = Result<bool, RewriteError>;

pub const INDEX_BITWIDTH: PassOption = PassOption::new(
    "index-bitwidth",
    OptionKind::Int,
    "0",
    "Bitwidth of the index type, 0 to use size of machine word",
);

pub fn info() -> PassInfo {
    PassInfo {
        arg: "convert-arith-to-llvm",
        summary: "Convert Arithmetic dialect to LLVM dialect",
        options: &[INDEX_BITWIDTH],
        anchor: "",
        make: |o| {
            Ok(Box::new(ArithToLlvm {
                opts: options_from(o),
            }))
        },
    }
}

/// The lowering options an `index-bitwidth` option sets.
pub fn options_from(o: &PassOptions) -> LowerToLlvmOptions {
    let mut opts = LowerToLlvmOptions::default();
    let w = o.int("index-bitwidth");
    if w > 0 {
        opts.index_bitwidth = w as u32;
    }
    opts
}

pub struct ArithToLlvm {
    opts: LowerToLlvmOptions,
}

impl Pass for ArithToLlvm {
    fn name(&self) -> &'static str {
        "convert-arith-to-llvm"
    }
    fn display_name(&self) -> &'static str {
        "ConvertArithmeticToLLVM"
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let l = Lowering::new(self.opts, pc.edition);
        let mut patterns = ConversionPatternSet::new();
        populate(&l, &mut patterns);
        let ifaces = Interfaces::new(pc.registry, pc.edition);
        apply_partial_conversion(
            pc.ctx,
            op,
            &llvm_target(),
            &patterns,
            Some(l.conv.clone()),
            &ifaces,
        )
        .map_err(|e| e.into_ir_error(pc.ctx))
    }
}

/// The one-to-one lowerings: `arith` op, LLVM op.
pub const ONE_TO_ONE: &[(&str, &str)] = &[
    ("arith.addi", "llvm.add"),
    ("arith.subi", "llvm.sub"),
    ("arith.muli", "llvm.mul"),
    ("arith.divui", "llvm.udiv"),
    ("arith.divsi", "llvm.sdiv"),
    ("arith.remui", "llvm.urem"),
    ("arith.remsi", "llvm.srem"),
    ("arith.andi", "llvm.and"),
    ("arith.ori", "llvm.or"),
    ("arith.xori", "llvm.xor"),
    ("arith.shli", "llvm.shl"),
    ("arith.shrui", "llvm.lshr"),
    ("arith.shrsi", "llvm.ashr"),
    ("arith.negf", "llvm.fneg"),
    ("arith.addf", "llvm.fadd"),
    ("arith.subf", "llvm.fsub"),
    ("arith.mulf", "llvm.fmul"),
    ("arith.divf", "llvm.fdiv"),
    ("arith.remf", "llvm.frem"),
    ("arith.extui", "llvm.zext"),
    ("arith.extsi", "llvm.sext"),
    ("arith.extf", "llvm.fpext"),
    ("arith.trunci", "llvm.trunc"),
    ("arith.truncf", "llvm.fptrunc"),
    ("arith.uitofp", "llvm.uitofp"),
    ("arith.sitofp", "llvm.sitofp"),
    ("arith.fptoui", "llvm.fptoui"),
    ("arith.fptosi", "llvm.fptosi"),
    ("arith.bitcast", "llvm.bitcast"),
    ("arith.select", "llvm.select"),
];

/// Adds the lowerings of `arith` (MLIR's
/// `populateArithmeticToLLVMConversionPatterns`); `arith.select` only
/// from 15 on, where it belongs to `arith`.
pub fn populate(l: &Rc<Lowering>, set: &mut ConversionPatternSet) {
    l.add(
        set,
        "arith.constant",
        "ConstantOpLowering",
        |l, op, ops, rw| one_to_one(l, op, "llvm.mlir.constant", ops, rw),
    );
    for &(from, _) in ONE_TO_ONE {
        if from == "arith.select" && l.edition != Edition::V15 {
            continue;
        }
        l.add(set, from, "VectorConvertToLLVMPattern", one_to_one_lowering);
    }
    l.add(set, "arith.index_cast", "IndexCastOpLowering", index_cast);
    l.add(set, "arith.cmpi", "CmpIOpLowering", compare);
    l.add(set, "arith.cmpf", "CmpFOpLowering", compare);
}

/// The `std.select` lowering of 13 and 14 (MLIR's `SelectOpLowering` in
/// `StandardToLLVM`).
pub fn add_select(l: &Rc<Lowering>, set: &mut ConversionPatternSet) {
    l.add(set, "arith.select", "SelectOpLowering", one_to_one_lowering);
}

fn one_to_one_lowering(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let name = rw.ctx_ref().name(op);
    let Some(&(_, to)) = ONE_TO_ONE.iter().find(|e| e.0 == name) else {
        return Ok(false);
    };
    vector_one_to_one(l, op, to, operands, rw)
}

fn index_cast(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let res = ctx.value_type(ctx.result(op, 0));
    let Some(target) = l.convert(ctx, res) else {
        return Ok(false);
    };
    let res_elem = element_type_or_self(ctx, res);
    let Some(target_elem) = l.convert(ctx, res_elem) else {
        return Ok(false);
    };
    let src_elem = element_type_or_self(ctx, ctx.value_type(operands[0]));
    let (TypeKind::Integer(tw, _), TypeKind::Integer(sw, _)) =
        (ctx.kind(target_elem).clone(), ctx.kind(src_elem).clone())
    else {
        return Ok(false);
    };
    if tw == sw {
        rw.replace_op(op, &[operands[0]])?;
        return Ok(true);
    }
    let name = if tw < sw { "llvm.trunc" } else { "llvm.sext" };
    let loc = ctx.op_loc(op);
    rw.set_insertion_point(op);
    let v = mlir_async_dialects::llvm_build::cast(rw, name, loc, target, operands[0])?;
    rw.replace_op(op, &[v])?;
    Ok(true)
}

/// `arith.cmpi`/`cmpf` become `llvm.icmp`/`fcmp` with the same predicate
/// (the enums number them alike); `fcmp`'s builder adds its default
/// fast-math flags.
fn compare(l: &Lowering, op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx();
    let float = ctx.name(op) == "arith.cmpf";
    let target = if float { "llvm.fcmp" } else { "llvm.icmp" };
    let Some(pred) = ctx.get_attr(op, "predicate") else {
        return Ok(false);
    };
    let i64t = ctx.int_type(64);
    let pred = match ctx.attr_kind(pred) {
        AttrKind::Integer(v, _) => ctx.int_attr(*v, i64t),
        _ => return Ok(false),
    };
    let mut attrs = vec![(ctx.sym("predicate"), pred)];
    if float {
        let fmf = ctx.attr(AttrKind::Opaque("#llvm.fastmath<>".into()));
        attrs.insert(0, (ctx.sym("fastmathFlags"), fmf));
    }
    let loc = ctx.op_loc(op);
    let name = ctx.sym(target);
    let lhs_ty = ctx.value_type(operands[0]);
    if llvm::as_array(ctx, lhs_ty).is_none() {
        let res = ctx.value_type(ctx.result(op, 0));
        let Some(rt) = l.convert(ctx, res) else {
            return Ok(false);
        };
        rw.set_insertion_point(op);
        let new = rw.create_op(name, loc, operands, &[rt], &attrs)?;
        let r = rw.ctx_ref().result(new, 0);
        rw.replace_op(op, &[r])?;
        return Ok(true);
    }
    let res = ctx.value_type(ctx.result(op, 0));
    if !matches!(ctx.kind(res), TypeKind::Vector { .. }) {
        return Ok(false);
    }
    handle_multidimensional_vectors(l, op, operands, rw, &mut |rw, ty, ops| {
        let o = rw.create_op(name, loc, ops, &[ty], &attrs)?;
        Ok(rw.ctx_ref().result(o, 0))
    })
}
