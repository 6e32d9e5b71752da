//! Typed op builders over any [`Builder`] (the plain rewriter or the
//! conversion rewriter), so a pass says `build::cmpi(b, loc, Sgt, x, y)`
//! instead of assembling names, attributes and result types by hand; and
//! functions made whole before they are inserted ([`FuncBuilder`], MLIR's
//! `func::FuncOp::create`).

use crate::arith::{CMPF, CMPI};
use mlir_async_ir::{Attribute, Block, Context, Location, Op, Region, Symbol, Type, Value};
use mlir_async_rewrite::{Builder, RewriteError};

type R = Result<Value, RewriteError>;

/// `arith.constant` of integer (or index) type `ty`.
pub fn constant_int(b: &mut dyn Builder, loc: Location, ty: Type, v: i128) -> R {
    let ctx = b.context();
    let a = ctx.int_attr(v, ty);
    let (name, key) = (ctx.sym("arith.constant"), ctx.sym("value"));
    b.build_value(name, loc, &[], ty, &[(key, a)])
}

/// An op with operands `xs` and one result of the first operand's type
/// (`arith.addi`, `arith.divsi`, ...).
pub fn same_type(b: &mut dyn Builder, name: &str, loc: Location, xs: &[Value]) -> R {
    let ctx = b.context();
    let ty = ctx.value_type(xs[0]);
    let name = ctx.sym(name);
    b.build_value(name, loc, xs, ty, &[])
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
    b.build_value(name, loc, &[x, y], rt, &[(key, a)])
}

/// `arith.select` (`std.select` before LLVM 15).
pub fn select(b: &mut dyn Builder, loc: Location, cond: Value, x: Value, y: Value) -> R {
    let ctx = b.context();
    let ty = ctx.value_type(x);
    let name = ctx.sym("arith.select");
    b.build_value(name, loc, &[cond, x, y], ty, &[])
}

/// What building `func.func`s takes, interned once: a pass that adds a
/// function per outlined region names each without a lookup.
#[derive(Clone, Copy)]
pub struct FuncBuilder {
    pub func_func: Symbol,
    pub function_type: Symbol,
    pub sym_name: Symbol,
    pub sym_visibility: Symbol,
    /// `"private"`.
    pub private: Attribute,
}

impl FuncBuilder {
    pub fn new(ctx: &mut Context) -> Self {
        FuncBuilder {
            func_func: ctx.sym("func.func"),
            function_type: ctx.sym("function_type"),
            sym_name: ctx.sym("sym_name"),
            sym_visibility: ctx.sym("sym_visibility"),
            private: ctx.string_attr("private"),
        }
    }

    /// A private `func.func @name` of type `(ins) -> (outs)` over `body`
    /// (a new region: empty for a declaration, or with an entry block from
    /// [`add_entry_block`]), with the attributes `extra` besides, not
    /// inserted (MLIR's `FuncOp::create`, then `setPrivate`): the caller
    /// puts it where its symbol table wants it
    /// (`Context::symbol_insertion_point`), announced or not.
    #[allow(clippy::too_many_arguments)]
    pub fn private_func(
        &self,
        ctx: &mut Context,
        loc: Location,
        name: &str,
        ins: &[Type],
        outs: &[Type],
        extra: &[(Symbol, Attribute)],
        body: Region,
    ) -> Op {
        let ft = ctx.function_type(ins.to_vec(), outs.to_vec());
        let ft = ctx.type_attr(ft);
        let name = ctx.string_attr(name);
        let base = [
            (self.function_type, ft),
            (self.sym_name, name),
            (self.sym_visibility, self.private),
        ];
        if extra.is_empty() {
            return ctx.create_op_from(self.func_func, loc, &[], &[], &base, &[body], &[]);
        }
        let mut attrs = Vec::with_capacity(base.len() + extra.len());
        attrs.extend_from_slice(&base);
        attrs.extend_from_slice(extra);
        ctx.create_op_from(self.func_func, loc, &[], &[], &attrs, &[body], &[])
    }
}

/// Appends to `body` an entry block taking `ins`, its arguments at `loc`
/// (MLIR's `FuncOp::addEntryBlock`, which gives them the function's
/// location).
pub fn add_entry_block(ctx: &mut Context, body: Region, ins: &[Type], loc: Location) -> Block {
    let entry = ctx.create_block(ins);
    ctx.append_block(body, entry);
    for i in 0..ins.len() {
        let a = ctx.block_args(entry)[i];
        ctx.set_value_loc(a, loc);
    }
    entry
}
