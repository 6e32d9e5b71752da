//! Comparison up to block order: upstream's reference-counting passes
//! place the blocks they add in pointer-hash order, so the same input
//! gives a different block order from run to run. Normalizing reorders
//! every region's blocks depth-first from the entry (successors in order,
//! unreachable blocks after, in their order) and prints again, which
//! renumbers blocks and values.

use mlir_async_dialects::Registry;
use mlir_async_ir::entity::SecondaryMap;
use mlir_async_ir::{Block, Context, Op};
use mlir_async_syntax::{parse_source, print_op, PrintOptions};

fn reorder(ctx: &mut Context, op: Op) {
    for r in ctx.regions_of(op).to_vec() {
        let blocks = ctx.region_blocks(r).to_vec();
        if let Some(&entry) = blocks.first() {
            let mut order: Vec<Block> = vec![];
            let mut placed: SecondaryMap<Block, bool> = SecondaryMap::default();
            let mut stack = vec![entry];
            while let Some(b) = stack.pop() {
                if placed[b] {
                    continue;
                }
                placed[b] = true;
                order.push(b);
                let succs = ctx
                    .last_op(b)
                    .map(|t| ctx.successors(t).to_vec())
                    .unwrap_or_default();
                for s in succs.into_iter().rev() {
                    if !placed[s] {
                        stack.push(s);
                    }
                }
            }
            for &b in &blocks {
                if !placed[b] {
                    placed[b] = true;
                    order.push(b);
                }
            }
            for &b in &order {
                ctx.detach_block(b);
            }
            for &b in &order {
                ctx.append_block(r, b);
            }
        }
        for b in ctx.region_blocks(r).to_vec() {
            for o in ctx.block_ops(b) {
                reorder(ctx, o);
            }
        }
    }
}

/// `text` with every region's blocks in depth-first order; `None` if it
/// does not parse.
pub fn normalize(text: &str) -> Option<String> {
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    let parsed = parse_source(&mut ctx, &reg, "x.mlir", text, 0, false).ok()?;
    reorder(&mut ctx, parsed.module);
    let opts = PrintOptions {
        edition: parsed.edition,
        generic: false,
        debug_info: false,
    };
    Some(print_op(&ctx, &reg, parsed.module, opts))
}

/// Whether `up` is `ours` with extra `async.runtime.drop_ref` lines (both
/// normalized): upstream's known miscompile, where liveness gone stale
/// after it added blocks drops references still in use (see
/// `docs/ref-counting.md`). The number of extra lines if so.
pub fn only_extra_drops(up: &str, ours: &str) -> Option<usize> {
    let mut o = ours.lines().peekable();
    let mut extra = 0;
    for l in up.lines() {
        if o.peek() == Some(&l) {
            o.next();
        } else if l.trim_start().starts_with("async.runtime.drop_ref") {
            extra += 1;
        } else {
            return None;
        }
    }
    (o.next().is_none() && extra > 0).then_some(extra)
}
