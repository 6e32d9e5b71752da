//! Typed op builders over any [`Builder`] (the plain rewriter or the
//! conversion rewriter), so a pass says `build::cmpi(b, loc, Sgt, x, y)`
//! instead of assembling names, attributes and result types by hand.

use crate::arith::{CMPF, CMPI};
use mlir_async_ir::{Location, Type, Value};
use mlir_async_rewrite::{Builder, RewriteError};

type R = Result<Value, RewriteError>;

/// `arith.constant` of integer (or index) type `ty`.
pub fn constant_int(b: &mut dyn Builder, loc: Location, ty: Type, v: i128) -> R {
    let ctx = b.context();
    let a = ctx.int_attr(v, ty);
    let (name, key) = (ctx.sym("arith.constant"), ctx.sym("value"));
    let op = b.build_op(name, loc, &[], &[ty], &[(key, a)])?;
    Ok(b.context().result(op, 0))
}

/// An op with operands `xs` and one result of the first operand's type
/// (`arith.addi`, `arith.divsi`, ...).
pub fn same_type(b: &mut dyn Builder, name: &str, loc: Location, xs: &[Value]) -> R {
    let ctx = b.context();
    let ty = ctx.value_type(xs[0]);
    let name = ctx.sym(name);
    let op = b.build_op(name, loc, xs, &[ty], &[])?;
    Ok(b.context().result(op, 0))
}

/// `arith.cmpi` with predicate `pred` (`"sgt"`, `"eq"`, ...).
pub fn cmpi(b: &mut dyn Builder, loc: Location, pred: &str, x: Value, y: Value) -> R {
    compare(b, "arith.cmpi", CMPI, loc, pred, x, y)
}

/// `arith.cmpf` with predicate `pred` (`"ugt"`, `"uno"`, ...).
pub fn cmpf(b: &mut dyn Builder, loc: Location, pred: &str, x: Value, y: Value) -> R {
    compare(b, "arith.cmpf", CMPF, loc, pred, x, y)
}

fn compare(
    b: &mut dyn Builder,
    name: &str,
    table: &[&str],
    loc: Location,
    pred: &str,
    x: Value,
    y: Value,
) -> R {
    let ctx = b.context();
    let i = table
        .iter()
        .position(|&p| p == pred)
        .ok_or_else(|| RewriteError::at(loc, format!("unknown predicate '{pred}'")))?;
    let i64t = ctx.int_type(64);
    let a = ctx.int_attr(i as i128, i64t);
    let xt = ctx.value_type(x);
    let rt = crate::arith::bool_like(ctx, xt);
    let (name, key) = (ctx.sym(name), ctx.sym("predicate"));
    let op = b.build_op(name, loc, &[x, y], &[rt], &[(key, a)])?;
    Ok(b.context().result(op, 0))
}

/// `arith.select` (`std.select` before LLVM 15).
pub fn select(b: &mut dyn Builder, loc: Location, cond: Value, x: Value, y: Value) -> R {
    let ctx = b.context();
    let ty = ctx.value_type(x);
    let name = ctx.sym("arith.select");
    let op = b.build_op(name, loc, &[cond, x, y], &[ty], &[])?;
    Ok(b.context().result(op, 0))
}
