//! `-symbol-dce`: erases the symbols nothing can reach, as MLIR's
//! SymbolDCE. A symbol is live if it may be used from outside (public in
//! a table that is visible) or if a live op refers to it; everything in a
//! symbol table that is not a symbol is live. Nested symbol tables are
//! visited when they are live, hidden when they are private.

use crate::{Pass, PassContext, PassInfo};
use mlir_async_ir::entity::SecondaryMap;
use mlir_async_ir::{Context, IrError, Op, Symbol};

pub fn info() -> PassInfo {
    PassInfo {
        arg: "symbol-dce",
        summary: "Eliminate dead symbols",
        options: &[],
        anchor: "",
        make: |_| Ok(Box::new(SymbolDce)),
    }
}

pub struct SymbolDce;

impl Pass for SymbolDce {
    fn name(&self) -> &'static str {
        "symbol-dce"
    }
    fn display_name(&self) -> &'static str {
        "SymbolDCE"
    }
    fn run(&self, pc: &mut PassContext, table: Op) -> Result<(), IrError> {
        let ctx = &mut *pc.ctx;
        if !ctx.traits_of(table).symbol_table {
            return Err(IrError::on_op(
                ctx, table,
                format!(
                    "'{}' op  was scheduled to run under SymbolDCE, but does not define a symbol table",
                    ctx.name(table)
                ),
            ));
        }
        let hidden = match ctx.parent_op(table) {
            Some(_) if ctx.traits_of(table).is_symbol => ctx.symbol_visibility(table) == "private",
            _ => true,
        };
        let mut live: SecondaryMap<Op, bool> = SecondaryMap::default();
        compute_liveness(ctx, table, hidden, &mut live)?;
        let mut tables = vec![table];
        ctx.walk_nested(table, &mut |o| {
            if ctx.traits_of(o).symbol_table {
                tables.push(o);
            }
        });
        for t in tables {
            if ctx.is_erased(t) {
                continue;
            }
            let Some(&r) = ctx.regions_of(t).first() else {
                continue;
            };
            for b in ctx.region_blocks(r).to_vec() {
                for o in ctx.block_ops(b) {
                    if ctx.traits_of(o).is_symbol && !live[o] {
                        ctx.erase_op(o)
                            .map_err(|m| IrError::new(ctx.op_loc(o), m))?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The symbols `op` (and the ops nested in it, short of nested symbol
/// tables) refer to.
fn symbol_uses(ctx: &Context, op: Op) -> Vec<(Symbol, Vec<Symbol>)> {
    let mut uses = vec![];
    let mut visit = |o: Op| {
        for &(_, a) in ctx.attrs(o) {
            ctx.for_each_symbol_ref(a, &mut |root, nested| uses.push((root, nested.to_vec())));
        }
    };
    visit(op);
    let mut stack: Vec<Op> = vec![];
    for &r in ctx.regions_of(op) {
        for b in ctx.region_blocks(r) {
            stack.extend(ctx.block_ops_iter(b));
        }
    }
    while let Some(o) = stack.pop() {
        visit(o);
        if ctx.traits_of(o).symbol_table {
            continue;
        }
        for &r in ctx.regions_of(o) {
            for b in ctx.region_blocks(r) {
                stack.extend(ctx.block_ops_iter(b));
            }
        }
    }
    uses
}

/// The symbols a reference names, from the root down its nested path,
/// looked up in `table`.
fn resolve(ctx: &Context, table: Op, root: Symbol, nested: &[Symbol]) -> Vec<Op> {
    if !ctx.traits_of(table).symbol_table {
        return vec![];
    }
    let mut table = table;
    let mut out = vec![];
    let Some(mut cur) = ctx.lookup_symbol_id(table, root) else {
        return vec![];
    };
    out.push(cur);
    for &n in nested {
        table = cur;
        let Some(next) = ctx.lookup_symbol_id(table, n) else {
            return vec![];
        };
        cur = next;
        out.push(cur);
    }
    out
}

fn compute_liveness(
    ctx: &Context,
    table: Op,
    hidden: bool,
    live: &mut SecondaryMap<Op, bool>,
) -> Result<(), IrError> {
    let mut work = vec![];
    if let Some(&r) = ctx.regions_of(table).first() {
        for b in ctx.region_blocks(r) {
            for o in ctx.block_ops_iter(b) {
                if !ctx.traits_of(o).is_symbol {
                    work.push(o);
                    continue;
                }
                // MLIR's `canDiscardOnUseEmpty` holds for private symbols
                // only, so in a hidden table too only they may go.
                let discardable = ctx.symbol_visibility(o) == "private";
                if !discardable && !live[o] {
                    live[o] = true;
                    work.push(o);
                }
            }
        }
    }
    while let Some(op) = work.pop() {
        if ctx.traits_of(op).symbol_table {
            let hidden_inner =
                hidden || !ctx.traits_of(op).is_symbol || ctx.symbol_visibility(op) == "private";
            compute_liveness(ctx, op, hidden_inner, live)?;
        }
        for (root, nested) in symbol_uses(ctx, op) {
            // The lookup starts at the op's parent, as MLIR's.
            let Some(parent) = ctx.parent_op(op) else {
                continue;
            };
            for s in resolve(ctx, parent, root, &nested) {
                if !live[s] {
                    live[s] = true;
                    work.push(s);
                }
            }
        }
    }
    Ok(())
}
