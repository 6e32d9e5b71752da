//! The structural patterns of a type conversion, as MLIR's
//! `FuncConversions.cpp` and `populateFunctionOpInterfaceTypeConversionPattern`:
//! a function's signature and block arguments, `func.return`, `func.call`
//! and the branches' successor operands take the converted types. Every
//! conversion that changes the types of values crossing function or block
//! boundaries (the LLVM lowerings, async to LLVM) adds these.

use crate::builtin::func_type;
use crate::cf::successor_operand_range;
use mlir_async_ir::{Context, Op, OperationState, Value};
use mlir_async_rewrite::{ConversionPatternSet, ConversionRewriter, RewriteError, TypeConverter};
use std::rc::Rc;

type R = Result<bool, RewriteError>;

/// Adds the signature, return, call and branch patterns.
pub fn populate_func_and_branch_patterns(patterns: &mut ConversionPatternSet) {
    patterns
        .add_fn(
            "func.func",
            "FunctionSignatureConversion",
            convert_func_signature,
        )
        .add_fn("func.return", "ReturnOpTypeConversion", convert_return)
        .add_fn("func.call", "CallOpSignatureConversion", convert_call);
    for br in ["cf.br", "cf.cond_br", "cf.switch"] {
        patterns.add_fn(br, "BranchOpInterfaceTypeConversion", convert_branch);
    }
}

/// A function is legal when its signature and its body's block arguments
/// are (MLIR checks the signature and the body's types).
pub fn is_func_legal(conv: &TypeConverter, ctx: &mut Context, op: Op) -> bool {
    let (ins, outs) = func_type(ctx, op);
    if !conv.is_signature_legal(ctx, &ins, &outs) {
        return false;
    }
    let blocks: Vec<_> = ctx
        .regions_of(op)
        .iter()
        .flat_map(|&r| ctx.region_blocks(r))
        .collect();
    blocks.into_iter().all(|b| {
        let types: Vec<_> = ctx
            .block_args(b)
            .iter()
            .map(|&a| ctx.value_type(a))
            .collect();
        types.into_iter().all(|t| conv.is_legal(ctx, t))
    })
}

/// Are the operands a branch forwards to its successors legal?
pub fn is_branch_legal(conv: &TypeConverter, ctx: &mut Context, op: Op) -> bool {
    let n = ctx.successors(op).len();
    let types: Vec<_> = (0..n)
        .flat_map(|i| successor_operand_range(ctx, op, i))
        .map(|k| ctx.value_type(ctx.operand(op, k)))
        .collect();
    types.into_iter().all(|t| conv.is_legal(ctx, t))
}

fn converter(rw: &ConversionRewriter, op: Op) -> Result<Rc<TypeConverter>, RewriteError> {
    rw.type_converter().ok_or_else(|| {
        RewriteError::at(
            rw.ctx_ref().op_loc(op),
            "a type conversion pattern needs a type converter",
        )
    })
}

pub fn convert_func_signature(op: Op, _: &[Value], rw: &mut ConversionRewriter) -> R {
    let conv = converter(rw, op)?;
    let (ins, outs) = func_type(rw.ctx_ref(), op);
    let Some(sig) = conv.convert_signature_args(rw.ctx(), &ins) else {
        return Ok(false);
    };
    let Some(new_outs) = conv.convert_types(rw.ctx(), &outs) else {
        return Ok(false);
    };
    if let Some(&body) = rw.ctx_ref().regions_of(op).first() {
        rw.convert_region_types(body, Some(&sig))?;
    }
    let new_ins = sig.converted_types().to_vec();
    rw.update_root_in_place(op, |ctx| {
        let ft = ctx.function_type(new_ins, new_outs);
        let a = ctx.type_attr(ft);
        ctx.set_attr(op, "function_type", a);
    });
    Ok(true)
}

fn convert_return(op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let vals = operands.to_vec();
    rw.update_root_in_place(op, |ctx| ctx.set_operands(op, vals));
    Ok(true)
}

pub fn convert_call(op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let conv = converter(rw, op)?;
    let results: Vec<_> = {
        let ctx = rw.ctx_ref();
        ctx.results(op).iter().map(|&r| ctx.value_type(r)).collect()
    };
    let Some(new_results) = conv.convert_types(rw.ctx(), &results) else {
        return Ok(false);
    };
    let ctx = rw.ctx_ref();
    let mut st = OperationState::new(ctx.op_name(op), ctx.op_loc(op));
    st.operands = operands.to_vec();
    st.result_types = new_results;
    st.attrs = ctx.attrs(op).to_vec();
    rw.replace_op_with_new(op, st)?;
    Ok(true)
}

fn convert_branch(op: Op, operands: &[Value], rw: &mut ConversionRewriter) -> R {
    let ctx = rw.ctx_ref();
    let mut new = ctx.operands(op).to_vec();
    for i in 0..ctx.successors(op).len() {
        for k in successor_operand_range(ctx, op, i) {
            new[k] = operands[k];
        }
    }
    rw.update_root_in_place(op, |ctx| ctx.set_operands(op, new));
    Ok(true)
}
