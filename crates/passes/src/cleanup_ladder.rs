//! `-async-runtime-ref-counting{linear-cleanup=true}`: the blocks the
//! pass adds on edges where many values die at once (a coroutine's error
//! edges, one per suspension point, each dropping every token, value and
//! group live there) become one cleanup ladder per successor, so the
//! output grows as values + edges instead of edges × live values.
//!
//! A value live at the end of an edge's source block is defined in a block
//! that dominates it (strict SSA). The ladder has one step per block that
//! defines a value some edge drops, chained along the dominator tree
//! towards the successor; an edge enters the ladder at the step of its
//! nearest dominating defining block, passing its number. Each step drops
//! each of its values when the edge number falls in one of the runs of
//! edges (numbered in region order) that dropped it, then goes on to the
//! step of the nearest dominating defining block, the last one to the
//! successor. A step is dominated by its values' definitions (its
//! predecessors are the edges below its block and the steps below it), so
//! the IR verifies, and each edge drops exactly what it dropped before.

use mlir_async_dialects::build;
use mlir_async_dialects::cf::{build_br, build_cond_br};
use mlir_async_ir::dominance::DominanceInfo;
use mlir_async_ir::fxhash::FxHashMap;
use mlir_async_ir::{Block, Context, InsertPoint, IrError, Location, Op, Region, Symbol, Value};
use mlir_async_rewrite::rewriter::NoListener;
use mlir_async_rewrite::{Builder, RewriteError, Rewriter};

/// One edge block the pass added: its single predecessor block, and the
/// values it drops (each once, `count = 1`).
struct Edge {
    block: Block,
    pred: Block,
    drops: Vec<Value>,
}

/// Rewrites the edge blocks of every region under `root`. `is_new` says
/// which blocks the pass added; `drop_ref` is the op's name, `count` its
/// attribute's key, `count_ty` the attribute's type.
pub fn build_ladders(
    ctx: &mut Context,
    root: Op,
    is_new: &dyn Fn(Block) -> bool,
    drop_ref: Symbol,
) -> Result<(), IrError> {
    let mut ops = vec![root];
    ctx.walk_nested(root, &mut |op| ops.push(op));
    let regions: Vec<Region> = ops
        .iter()
        .flat_map(|&op| ctx.regions_of(op).to_vec())
        .collect();
    for r in regions {
        ladders_in(ctx, r, is_new, drop_ref)?;
    }
    Ok(())
}

/// The edge block `b` (added by the pass: drops only, then an unconditional
/// branch without operands), with its successor.
fn as_edge(ctx: &Context, b: Block, drop_ref: Symbol) -> Option<(Block, Edge)> {
    let preds = ctx.pred_ops(b);
    let [pred_op] = preds else {
        return None;
    };
    let pred = ctx.parent_block(*pred_op)?;
    let term = ctx.last_op(b)?;
    if ctx.name(term) != "cf.br" || !ctx.operands(term).is_empty() {
        return None;
    }
    let succ = *ctx.successors(term).first()?;
    let mut drops = vec![];
    for o in ctx.block_ops_iter(b) {
        if o == term {
            break;
        }
        if ctx.op(o).name != drop_ref || ctx.operands(o).len() != 1 {
            return None;
        }
        let count = ctx
            .attrs(o)
            .iter()
            .find_map(|&(_, a)| match ctx.attr_kind(a) {
                mlir_async_ir::AttrKind::Integer(v, _) => Some(*v),
                _ => None,
            });
        if count != Some(1) {
            return None;
        }
        drops.push(ctx.operand(o, 0));
    }
    if drops.is_empty() {
        return None;
    }
    Some((
        succ,
        Edge {
            block: b,
            pred,
            drops,
        },
    ))
}

fn ladders_in(
    ctx: &mut Context,
    r: Region,
    is_new: &dyn Fn(Block) -> bool,
    drop_ref: Symbol,
) -> Result<(), IrError> {
    // Edges by successor, in region order (successors in first-seen order).
    let mut groups: Vec<(Block, Vec<Edge>)> = vec![];
    for b in ctx.region_blocks(r) {
        if !is_new(b) {
            continue;
        }
        if let Some((succ, e)) = as_edge(ctx, b, drop_ref) {
            match groups.iter_mut().find(|g| g.0 == succ) {
                Some(g) => g.1.push(e),
                None => groups.push((succ, vec![e])),
            }
        }
    }
    groups.retain(|g| g.1.len() >= 2);
    if groups.is_empty() {
        return Ok(());
    }
    // The dominator tree: each reachable block's parent.
    let mut dom = DominanceInfo::new();
    let pre = dom.dominator_tree_preorder(ctx, r);
    let mut parent: FxHashMap<Block, Option<Block>> = FxHashMap::default();
    let mut stack: Vec<(Block, u32)> = vec![];
    for &(b, depth) in &pre {
        while stack.last().is_some_and(|&(_, d)| d >= depth) {
            stack.pop();
        }
        parent.insert(b, stack.last().map(|&(p, _)| p));
        stack.push((b, depth));
    }
    let position: FxHashMap<Block, usize> = ctx
        .region_blocks(r)
        .enumerate()
        .map(|(i, b)| (b, i))
        .collect();
    for (succ, mut edges) in groups {
        if edges.iter().any(|e| !parent.contains_key(&e.pred)) {
            // An unreachable source: keep the blocks as they are.
            continue;
        }
        edges.sort_by_key(|e| position[&e.pred]);
        ladder(ctx, succ, &edges, &parent, drop_ref)?;
    }
    Ok(())
}

/// The defining block of `v`.
fn def_block(ctx: &Context, v: Value) -> Option<Block> {
    ctx.value_block(v)
}

/// A step of the ladder: its defining block, and its values, each with the
/// numbers of the edges that drop it.
type Step = (Block, Vec<(Value, Vec<usize>)>);

fn ladder(
    ctx: &mut Context,
    succ: Block,
    edges: &[Edge],
    parent: &FxHashMap<Block, Option<Block>>,
    drop_ref: Symbol,
) -> Result<(), IrError> {
    // Steps: defining blocks, each with its values in first-dropped order
    // and, per value, the edges that drop it.
    let mut steps: Vec<Step> = vec![];
    let mut step_of: FxHashMap<Block, usize> = FxHashMap::default();
    for (j, e) in edges.iter().enumerate() {
        for &v in &e.drops {
            let Some(d) = def_block(ctx, v) else {
                return Ok(());
            };
            if !parent.contains_key(&d) {
                return Ok(());
            }
            let s = *step_of.entry(d).or_insert_with(|| {
                steps.push((d, vec![]));
                steps.len() - 1
            });
            match steps[s].1.iter_mut().find(|x| x.0 == v) {
                Some(x) => x.1.push(j),
                None => steps[s].1.push((v, vec![j])),
            }
        }
    }
    // The nearest defining block strictly dominating `b` (None: the
    // successor comes next), or dominating or equal with `or_self`.
    let up = |b: Block, or_self: bool| -> Option<Block> {
        let mut cur = if or_self { Some(b) } else { parent[&b] };
        while let Some(x) = cur {
            if step_of.contains_key(&x) {
                return Some(x);
            }
            cur = parent[&x];
        }
        None
    };
    let index = ctx.index_type();
    let loc = ctx
        .first_op(edges[0].block)
        .map(|o| ctx.op_loc(o))
        .unwrap_or_else(|| ctx.unknown_loc());
    // The head block of each step, before the successor, in step order.
    let heads: Vec<Block> = steps
        .iter()
        .map(|_| {
            let h = ctx.create_block(&[index]);
            ctx.insert_block_before(succ, h);
            h
        })
        .collect();
    for (s, (d, values)) in steps.iter().enumerate() {
        let j = ctx.block_args(heads[s])[0];
        let mut cur = heads[s];
        for (v, js) in values {
            let cond = in_runs(ctx, cur, loc, j, js).map_err(|e| e.into_ir_error(ctx))?;
            let drop = ctx.create_block(&[]);
            ctx.insert_block_before(succ, drop);
            let next = ctx.create_block(&[]);
            ctx.insert_block_before(succ, next);
            build_cond_br(
                ctx,
                InsertPoint::AtEnd(cur),
                loc,
                cond,
                drop,
                vec![],
                next,
                vec![],
            );
            drop_one(ctx, drop_ref, *v, InsertPoint::AtEnd(drop), loc);
            build_br(ctx, InsertPoint::AtEnd(drop), loc, next, vec![]);
            cur = next;
        }
        match up(*d, false) {
            Some(p) => {
                build_br(
                    ctx,
                    InsertPoint::AtEnd(cur),
                    loc,
                    heads[step_of[&p]],
                    vec![j],
                );
            }
            None => {
                build_br(ctx, InsertPoint::AtEnd(cur), loc, succ, vec![]);
            }
        }
    }
    // Each edge: its number, then its entry step.
    for (j, e) in edges.iter().enumerate() {
        let entry = up(e.pred, true).expect("an edge drops a value defined above it");
        let ops: Vec<Op> = ctx.block_ops_iter(e.block).collect();
        for o in ops.into_iter().rev() {
            ctx.erase_op(o).map_err(|m| IrError::new(loc, m))?;
        }
        let mut listener = NoListener;
        let mut rw = Rewriter::new(ctx, &mut listener);
        rw.set_insertion_point_to_end(e.block);
        let n = build::constant_int(&mut rw, loc, index, j as i128)
            .map_err(|e| e.into_ir_error(rw.context()))?;
        build_br(
            ctx,
            InsertPoint::AtEnd(e.block),
            loc,
            heads[step_of[&entry]],
            vec![n],
        );
    }
    Ok(())
}

fn drop_one(ctx: &mut Context, drop_ref: Symbol, v: Value, ip: InsertPoint, loc: Location) {
    let count_key = ctx.sym("count");
    let i64t = ctx.int_type(64);
    let one = ctx.int_attr(1, i64t);
    let op = ctx.create_op_from(drop_ref, loc, &[v], &[], &[(count_key, one)], &[], &[]);
    ctx.insert_op(ip, op);
}

/// `j` in any of the runs of consecutive numbers in `js` (sorted), as an
/// `i1` built at the end of `b`.
fn in_runs(
    ctx: &mut Context,
    b: Block,
    loc: Location,
    j: Value,
    js: &[usize],
) -> Result<Value, RewriteError> {
    let mut runs: Vec<(usize, usize)> = vec![];
    for &x in js {
        match runs.last_mut() {
            Some(r) if r.1 + 1 == x => r.1 = x,
            _ => runs.push((x, x)),
        }
    }
    let index = ctx.index_type();
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, &mut listener);
    rw.set_insertion_point_to_end(b);
    let mut acc: Option<Value> = None;
    for (lo, hi) in runs {
        let c = if lo == hi {
            let k = build::constant_int(&mut rw, loc, index, lo as i128)?;
            build::cmpi(&mut rw, loc, "eq", j, k)?
        } else {
            let l = build::constant_int(&mut rw, loc, index, lo as i128)?;
            let h = build::constant_int(&mut rw, loc, index, hi as i128)?;
            let a = build::cmpi(&mut rw, loc, "uge", j, l)?;
            let z = build::cmpi(&mut rw, loc, "ule", j, h)?;
            build::same_type(&mut rw, "arith.andi", loc, &[a, z])?
        };
        acc = Some(match acc {
            None => c,
            Some(p) => build::same_type(&mut rw, "arith.ori", loc, &[p, c])?,
        });
    }
    Ok(acc.expect("a value dropped by some edge"))
}
