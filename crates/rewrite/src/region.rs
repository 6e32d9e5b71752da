//! Region simplification, as MLIR's `simplifyRegions` (the greedy
//! driver's last step of every round): erase unreachable blocks, erase
//! dead ops and dead block arguments (an optimistic liveness fixed point,
//! so dead cycles go too), and merge identical blocks; and what MLIR's
//! `RegionUtils` tells about a region's values
//! ([`used_values_defined_above`]).

use crate::fold::OpInterfaces;
use crate::greedy::{is_op_trivially_dead, would_op_be_trivially_dead};
use crate::rewriter::{RewriteError, Rewriter};
use mlir_async_ir::entity::SecondaryMap;
use mlir_async_ir::fxhash::{FxHashMap, FxHashSet};
use mlir_async_ir::{Block, Context, Op, Region, Type, Value, ValueDef};

/// Runs the three simplifications; whether any changed the IR.
pub fn simplify_regions(
    rw: &mut Rewriter,
    ifaces: &dyn OpInterfaces,
    regions: &[Region],
) -> Result<bool, RewriteError> {
    let erased = erase_unreachable_blocks(rw, regions)?;
    let dce = run_region_dce(rw, ifaces, regions)?;
    let merged = merge_identical_blocks(rw, ifaces, regions)?;
    Ok(erased || dce || merged)
}

/// Whether [`simplify_regions`] would leave `regions` as they are, found
/// by one light walk instead of its three: every region has at most one
/// block (no block is unreachable or mergeable, no block argument but
/// the entry's, which stay), no op has successors, no op is unused and
/// free of effects, and no op of a graph region has results.
///
/// Then the dead-code analysis proves every op live. A dead op's users
/// are all dead (a live user, terminators included, makes it live), and
/// outside graph regions a use comes after its definition, so among the
/// dead ops one has no dead user, hence no user at all: it would be
/// trivially dead, which the walk saw no op be. The greedy driver erases
/// such ops as it visits them, so after a round this is the common case.
pub fn nothing_to_simplify(ctx: &Context, regions: &[Region]) -> bool {
    let mut stack: Vec<(Region, bool)> = regions.iter().map(|&r| (r, false)).collect();
    // The regions' parent decides whether the top regions are graphs.
    if let Some(&r) = regions.first() {
        if let Some(p) = ctx.region_parent(r) {
            let graph = ctx.traits_of(p).graph_region;
            for e in &mut stack {
                e.1 = graph;
            }
        }
    }
    while let Some((r, graph)) = stack.pop() {
        if ctx.region_is_empty(r) {
            continue;
        }
        let Some(b) = ctx.single_block(r) else {
            return false;
        };
        for o in ctx.block_ops_iter(b) {
            if !ctx.successors(o).is_empty()
                || (graph && !ctx.results(o).is_empty())
                || is_op_trivially_dead(ctx, o)
            {
                return false;
            }
            let nested = ctx.regions_of(o);
            if !nested.is_empty() {
                let g = ctx.traits_of(o).graph_region;
                stack.extend(nested.iter().map(|&n| (n, g)));
            }
        }
    }
    true
}

/// The successors of `b`: those of its last op.
fn block_successors(ctx: &Context, b: Block) -> &[Block] {
    match ctx.last_op(b) {
        Some(t) => ctx.successors(t),
        None => &[],
    }
}

/// Blocks reachable from `entry`, in post-order of a depth-first walk
/// taking successors in order (LLVM's `post_order`).
pub fn post_order(ctx: &Context, entry: Block) -> Vec<Block> {
    // Most regions are one block: no walk, no set.
    if block_successors(ctx, entry).is_empty() {
        return vec![entry];
    }
    // A set sized by the region, not by the context's block count: a
    // table indexed by handle would be allocated and cleared for every
    // region, quadratic in a module of many small regions.
    let mut seen: FxHashSet<Block> = FxHashSet::default();
    let mut out = vec![];
    let mut stack = vec![(entry, 0usize)];
    seen.insert(entry);
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        let succs = block_successors(ctx, b);
        if *next < succs.len() {
            let s = succs[*next];
            *next += 1;
            if seen.insert(s) {
                stack.push((s, 0));
            }
        } else {
            out.push(b);
            stack.pop();
        }
    }
    out
}

/// Erases the blocks no path from the entry block reaches, in every
/// region and the regions nested in the blocks that stay.
pub fn erase_unreachable_blocks(
    rw: &mut Rewriter,
    regions: &[Region],
) -> Result<bool, RewriteError> {
    let mut erased_any = false;
    let mut worklist: Vec<Region> = regions.iter().rev().copied().collect();
    while let Some(region) = worklist.pop() {
        // Most regions are one block: nothing to copy.
        if let Some(entry) = rw.ctx.single_block(region) {
            let ctx = &*rw.ctx;
            for o in ctx.block_ops_iter(entry) {
                worklist.extend(ctx.regions_of(o).iter().copied());
            }
            continue;
        }
        let blocks = rw.ctx.region_blocks(region).to_vec();
        let Some(&entry) = blocks.first() else {
            continue;
        };
        let reachable: FxHashSet<Block> = post_order(rw.ctx, entry).into_iter().collect();
        let dead: Vec<Block> = blocks
            .iter()
            .copied()
            .filter(|b| !reachable.contains(b))
            .collect();
        // Dead blocks may branch to and use each other: cut every
        // reference among them before erasing any.
        for &b in &dead {
            for o in rw.ctx.block_ops(b) {
                rw.ctx.drop_all_references(o);
            }
        }
        for &b in &blocks {
            if !reachable.contains(&b) {
                rw.erase_block(b)?;
                erased_any = true;
                continue;
            }
            for o in rw.ctx.block_ops(b) {
                worklist.extend(rw.ctx.regions_of(o).iter().copied());
            }
        }
    }
    Ok(erased_any)
}

/// What the dead-code analysis has proven live so far: ops, and block
/// arguments (an op result is live when its op is).
///
/// MLIR repeats its walk until one proves nothing new live; the walk goes
/// users first (blocks in post-order, ops last to first), so without
/// back edges the first walk is already the fixed point, and a second one
/// only confirms it. What a walk decides depends only on the liveness it
/// reads, so the walk is repeated only when something it read as dead was
/// proven live afterwards: then a repeat may decide differently, and
/// otherwise it would not (the result is MLIR's).
struct LiveMap {
    /// By op handle: [`LIVE`] and [`READ_DEAD`].
    ops: Vec<u8>,
    /// By value handle, for block arguments: [`LIVE`] and [`READ_DEAD`].
    args: Vec<u8>,
    /// Something read as dead was proven live: walk again.
    again: bool,
}

/// Proven live.
const LIVE: u8 = 1;
/// Read as dead by some decision.
const READ_DEAD: u8 = 2;

impl LiveMap {
    /// Tables for every op and value of `ctx` (the analysis creates none,
    /// and the deletion that reads it afterwards neither), allocated
    /// zeroed: one table each, not one growing with every handle written.
    fn new(ctx: &Context) -> Self {
        LiveMap {
            ops: vec![0; ctx.num_ops()],
            args: vec![0; ctx.num_values()],
            again: false,
        }
    }
    #[inline]
    fn is_op_live(&self, o: Op) -> bool {
        self.ops.get(o.index()).is_some_and(|f| f & LIVE != 0)
    }
    #[inline]
    fn is_arg_live(&self, a: Value) -> bool {
        self.args.get(a.index()).is_some_and(|f| f & LIVE != 0)
    }
    fn set_value_live(&mut self, ctx: &Context, v: Value) {
        match ctx.value_def(v) {
            ValueDef::Result(o, _) => self.set_op_live(o),
            ValueDef::BlockArg(..) => {
                let f = &mut self.args[v.index()];
                if *f & LIVE == 0 {
                    *f |= LIVE;
                    self.again |= *f & READ_DEAD != 0;
                }
            }
        }
    }
    #[inline]
    fn set_op_live(&mut self, o: Op) {
        let f = &mut self.ops[o.index()];
        if *f & LIVE == 0 {
            *f |= LIVE;
            self.again |= *f & READ_DEAD != 0;
        }
    }
    #[inline]
    fn op_live(&mut self, o: Op) -> bool {
        let f = &mut self.ops[o.index()];
        if *f & LIVE == 0 {
            *f |= READ_DEAD;
            return false;
        }
        true
    }
    fn arg_live(&mut self, a: Value) -> bool {
        let f = &mut self.args[a.index()];
        if *f & LIVE == 0 {
            *f |= READ_DEAD;
            return false;
        }
        true
    }
}

/// The successor block argument operand `index` of a branch feeds, if any.
fn successor_arg(ctx: &Context, ifaces: &dyn OpInterfaces, op: Op, index: usize) -> Option<Value> {
    for (i, &s) in ctx.successors(op).iter().enumerate() {
        let r = ifaces.successor_operands(ctx, op, i)?;
        if r.contains(&index) {
            return ctx.block_args(s).get(index - r.start).copied();
        }
    }
    None
}

#[inline]
fn process_value(ctx: &Context, ifaces: &dyn OpInterfaces, v: Value, live: &mut LiveMap) {
    let proved = ctx.uses(v).iter().any(|u| {
        // A branch operand lives only if the argument it feeds does.
        if ctx.traits_of(u.op).is_terminator {
            if let Some(arg) = successor_arg(ctx, ifaces, u.op, u.index as usize) {
                return live.arg_live(arg);
            }
        }
        live.op_live(u.op)
    });
    if proved {
        live.set_value_live(ctx, v);
    }
}

fn propagate_op(ctx: &Context, ifaces: &dyn OpInterfaces, op: Op, live: &mut LiveMap) {
    for &r in ctx.regions_of(op) {
        propagate_region(ctx, ifaces, r, live);
    }
    if ctx.traits_of(op).is_terminator {
        live.set_op_live(op);
        for (i, &s) in ctx.successors(op).iter().enumerate() {
            if ifaces.successor_operands(ctx, op, i).is_none() {
                for &a in ctx.block_args(s) {
                    live.set_value_live(ctx, a);
                }
            }
        }
        return;
    }
    if live.is_op_live(op) {
        return;
    }
    if !would_op_be_trivially_dead(ctx, op) {
        live.set_op_live(op);
        return;
    }
    for &r in ctx.results(op) {
        process_value(ctx, ifaces, r, live);
    }
}

fn propagate_region(ctx: &Context, ifaces: &dyn OpInterfaces, r: Region, live: &mut LiveMap) {
    let Some(entry) = ctx.entry_block(r) else {
        return;
    };
    for b in post_order(ctx, entry) {
        let mut cur = ctx.last_op(b);
        while let Some(o) = cur {
            propagate_op(ctx, ifaces, o, live);
            cur = ctx.prev_op(o);
        }
        // Entry block arguments belong to the parent op's contract.
        if b == entry {
            continue;
        }
        for &a in ctx.block_args(b) {
            if !live.is_arg_live(a) {
                process_value(ctx, ifaces, a, live);
            }
        }
    }
}

fn delete_dead(
    rw: &mut Rewriter,
    ifaces: &dyn OpInterfaces,
    regions: &[Region],
    live: &LiveMap,
) -> Result<bool, RewriteError> {
    let mut erased_any = false;
    for &region in regions {
        let Some(entry) = rw.ctx.entry_block(region) else {
            continue;
        };
        let single = rw.ctx.region_blocks(region).len() == 1;
        let order = post_order(rw.ctx, entry);
        // Dead ops may use each other (graph regions): cut their
        // references first, as MLIR's `dropAllUses` does one by one.
        for &b in &order {
            let dead: Vec<Op> = rw
                .ctx
                .block_ops_iter(b)
                .filter(|&o| !live.is_op_live(o))
                .collect();
            for o in dead {
                rw.ctx.drop_all_references(o);
            }
        }
        for &b in &order {
            if !single {
                if let Some(t) = rw.ctx.last_op(b) {
                    erase_dead_successor_operands(rw.ctx, ifaces, t, live);
                }
            }
            let mut cur = rw.ctx.last_op(b);
            while let Some(o) = cur {
                cur = rw.ctx.prev_op(o);
                if !live.is_op_live(o) {
                    erased_any = true;
                    rw.erase_op(o)?;
                } else if !rw.ctx.regions_of(o).is_empty() {
                    let nested = rw.ctx.regions_of(o).to_vec();
                    erased_any |= delete_dead(rw, ifaces, &nested, live)?;
                }
            }
        }
        for &b in rw.ctx.region_blocks(region).to_vec().iter().skip(1) {
            let args = rw.ctx.block_args(b).to_vec();
            for (i, a) in args.iter().enumerate().rev() {
                if !live.is_arg_live(*a) {
                    rw.ctx
                        .erase_block_arg(b, i)
                        .map_err(|m| RewriteError::at(rw.ctx.unknown_loc(), m))?;
                }
            }
        }
    }
    Ok(erased_any)
}

fn erase_dead_successor_operands(
    ctx: &mut Context,
    ifaces: &dyn OpInterfaces,
    term: Op,
    live: &LiveMap,
) {
    let n = ctx.successors(term).len();
    for succ in (0..n).rev() {
        let Some(range) = ifaces.successor_operands(ctx, term, succ) else {
            continue;
        };
        let dest = ctx.successors(term)[succ];
        let vals = ctx.operands(term)[range.clone()].to_vec();
        let args = ctx.block_args(dest).to_vec();
        let kept: Vec<Value> = vals
            .iter()
            .zip(&args)
            .filter(|(_, a)| live.is_arg_live(**a))
            .map(|(v, _)| *v)
            .collect();
        if kept.len() != vals.len() {
            ifaces.set_successor_operands(ctx, term, succ, &kept);
        }
    }
}

/// Erases the ops no live op needs and the block arguments no live op
/// reads (MLIR's `runRegionDCE`).
pub fn run_region_dce(
    rw: &mut Rewriter,
    ifaces: &dyn OpInterfaces,
    regions: &[Region],
) -> Result<bool, RewriteError> {
    let mut live = LiveMap::new(rw.ctx);
    loop {
        live.again = false;
        for &r in regions {
            propagate_region(rw.ctx, ifaces, r, &mut live);
        }
        if !live.again {
            break;
        }
    }
    delete_dead(rw, ifaces, regions, &live)
}

/// A block's shape for merging: a hash of its ops (names, attributes,
/// result types) and the position of each value it defines.
struct BlockData {
    block: Block,
    hash: u64,
    /// Values defined before each result-producing op (arguments first).
    order: FxHashMap<Op, usize>,
}

impl BlockData {
    fn new(ctx: &Context, block: Block) -> Self {
        use std::hash::{Hash, Hasher};
        let mut order = FxHashMap::default();
        let mut n = ctx.block_args(block).len();
        let mut h = mlir_async_ir::fxhash::FxHasher::default();
        for o in ctx.block_ops_iter(block) {
            let results = ctx.results(o).len();
            if results > 0 {
                order.insert(o, n);
                n += results;
            }
            ctx.op_name(o).hash(&mut h);
            ctx.attrs(o).hash(&mut h);
            for &r in ctx.results(o) {
                ctx.value_type(r).hash(&mut h);
            }
        }
        BlockData {
            block,
            hash: h.finish(),
            order,
        }
    }
    fn order_of(&self, ctx: &Context, v: Value) -> usize {
        match ctx.value_def(v) {
            ValueDef::BlockArg(_, i) => i as usize,
            ValueDef::Result(o, i) => self.order[&o] + i as usize,
        }
    }
}

fn value_block(ctx: &Context, v: Value) -> Option<Block> {
    match ctx.value_def(v) {
        ValueDef::BlockArg(b, _) => Some(b),
        ValueDef::Result(o, _) => ctx.parent_block(o),
    }
}

fn same_shape(ctx: &Context, a: Op, b: Op) -> bool {
    let types = |vs: &[Value]| -> Vec<Type> { vs.iter().map(|&v| ctx.value_type(v)).collect() };
    ctx.op_name(a) == ctx.op_name(b)
        && ctx.attrs(a) == ctx.attrs(b)
        && ctx.regions_of(a).len() == ctx.regions_of(b).len()
        && ctx.successors(a).len() == ctx.successors(b).len()
        && types(ctx.operands(a)) == types(ctx.operands(b))
        && types(ctx.results(a)) == types(ctx.results(b))
}

fn used_outside(ctx: &Context, op: Op, block: Block) -> bool {
    ctx.results(op)
        .iter()
        .any(|&r| ctx.users(r).any(|u| ctx.parent_block(u) != Some(block)))
}

/// Blocks that may merge into a leader, and the operands that differ.
struct Cluster {
    leader: BlockData,
    members: Vec<Block>,
    /// (op position in the block, operand index), sorted.
    operands: std::collections::BTreeSet<(usize, usize)>,
}

impl Cluster {
    fn try_add(&mut self, ctx: &Context, data: &BlockData) -> bool {
        if self.leader.hash != data.hash {
            return false;
        }
        let (lb, rb) = (self.leader.block, data.block);
        let arg_types = |b: Block| -> Vec<Type> {
            ctx.block_args(b)
                .iter()
                .map(|&a| ctx.value_type(a))
                .collect()
        };
        if arg_types(lb) != arg_types(rb) {
            return false;
        }
        let lops = ctx.block_ops(lb);
        let rops = ctx.block_ops(rb);
        if lops.len() != rops.len() {
            return false;
        }
        let mut mismatched = vec![];
        if !self.pairs_match(ctx, data, &lops, &rops, &mut mismatched) {
            return false;
        }
        self.operands.extend(mismatched);
        self.members.push(rb);
        true
    }

    fn pairs_match(
        &self,
        ctx: &Context,
        data: &BlockData,
        lops: &[Op],
        rops: &[Op],
        mismatched: &mut Vec<(usize, usize)>,
    ) -> bool {
        let (lb, rb) = (self.leader.block, data.block);
        for (i, (&l, &r)) in lops.iter().zip(rops).enumerate() {
            if !same_shape(ctx, l, r) {
                return false;
            }
            for (k, (&lv, &rv)) in ctx.operands(l).iter().zip(ctx.operands(r)).enumerate() {
                if lv == rv {
                    continue;
                }
                let l_in = value_block(ctx, lv) == Some(lb);
                let r_in = value_block(ctx, rv) == Some(rb);
                if l_in != r_in {
                    return false;
                }
                if !l_in {
                    mismatched.push((i, k));
                    continue;
                }
                if self.leader.order_of(ctx, lv) != data.order_of(ctx, rv) {
                    return false;
                }
            }
            if used_outside(ctx, r, rb) || used_outside(ctx, l, lb) {
                return false;
            }
        }
        true
    }

    fn merge(self, rw: &mut Rewriter, ifaces: &dyn OpInterfaces) -> Result<bool, RewriteError> {
        if self.members.is_empty() {
            return Ok(false);
        }
        let leader = self.leader.block;
        if !self.operands.is_empty() {
            let updatable = |ctx: &Context, b: Block| {
                ctx.pred_ops(b).iter().all(|&p| {
                    ctx.successors(p)
                        .iter()
                        .enumerate()
                        .filter(|(_, &s)| s == b)
                        .all(|(i, _)| ifaces.successor_operands(ctx, p, i).is_some())
                })
            };
            if !updatable(rw.ctx, leader) || !self.members.iter().all(|&m| updatable(rw.ctx, m)) {
                return Ok(false);
            }
            let blocks: Vec<Block> = std::iter::once(leader)
                .chain(self.members.iter().copied())
                .collect();
            let ops: Vec<Vec<Op>> = blocks.iter().map(|&b| rw.ctx.block_ops(b)).collect();
            let mut new_args: Vec<Vec<Value>> =
                vec![Vec::with_capacity(self.operands.len()); blocks.len()];
            for &(oi, k) in &self.operands {
                for (bi, block_ops) in ops.iter().enumerate() {
                    let op = block_ops[oi];
                    let v = rw.ctx.operand(op, k);
                    new_args[bi].push(v);
                    if bi == 0 {
                        let t = rw.ctx.value_type(v);
                        let loc = rw.ctx.value_loc(v);
                        let a = rw.ctx.add_block_arg(leader, t);
                        rw.ctx.set_value_loc(a, loc);
                        rw.ctx.set_operand(op, k, a);
                    }
                }
            }
            for (bi, &b) in blocks.iter().enumerate() {
                for p in rw.ctx.pred_ops(b).to_vec() {
                    let succs = rw.ctx.successors(p).to_vec();
                    for (i, &s) in succs.iter().enumerate() {
                        if s != b {
                            continue;
                        }
                        let Some(r) = ifaces.successor_operands(rw.ctx, p, i) else {
                            continue;
                        };
                        let mut vals = rw.ctx.operands(p)[r].to_vec();
                        vals.extend_from_slice(&new_args[bi]);
                        ifaces.set_successor_operands(rw.ctx, p, i, &vals);
                    }
                }
            }
        }
        for &m in &self.members {
            for p in rw.ctx.pred_ops(m).to_vec() {
                let succs = rw.ctx.successors(p).to_vec();
                for (i, &s) in succs.iter().enumerate() {
                    if s == m {
                        rw.ctx.set_successor(p, i, leader);
                    }
                }
            }
            rw.erase_block(m)?;
        }
        Ok(true)
    }
}

fn merge_in_region(
    rw: &mut Rewriter,
    ifaces: &dyn OpInterfaces,
    region: Region,
) -> Result<bool, RewriteError> {
    let blocks = rw.ctx.region_blocks(region).to_vec();
    if blocks.len() <= 1 {
        return Ok(false);
    }
    // Group the non-entry blocks by their successor list, in order of
    // first appearance (MLIR's map is keyed by pointers; groups are
    // disjoint, so their order does not change the result).
    let mut groups: Vec<(Vec<Block>, Vec<Block>)> = vec![];
    let mut index: FxHashMap<Vec<Block>, usize> = FxHashMap::default();
    for &b in &blocks[1..] {
        let succs = block_successors(rw.ctx, b).to_vec();
        let gi = *index.entry(succs.clone()).or_insert_with(|| {
            groups.push((succs, vec![]));
            groups.len() - 1
        });
        groups[gi].1.push(b);
    }
    let mut merged = false;
    for (_, members) in groups {
        if members.len() == 1 {
            continue;
        }
        let mut clusters: Vec<Cluster> = vec![];
        for b in members {
            let has_region = rw.ctx.block_ops_iter(b).any(|o| {
                rw.ctx
                    .regions_of(o)
                    .iter()
                    .any(|&r| !rw.ctx.region_is_empty(r))
            });
            if has_region {
                continue;
            }
            let data = BlockData::new(rw.ctx, b);
            if !clusters.iter_mut().any(|c| c.try_add(rw.ctx, &data)) {
                clusters.push(Cluster {
                    leader: data,
                    members: vec![],
                    operands: Default::default(),
                });
            }
        }
        for c in clusters {
            merged |= c.merge(rw, ifaces)?;
        }
    }
    Ok(merged)
}

/// Merges blocks with the same ops and successors into one, passing the
/// values that differ as new block arguments (MLIR's
/// `mergeIdenticalBlocks`).
pub fn merge_identical_blocks(
    rw: &mut Rewriter,
    ifaces: &dyn OpInterfaces,
    regions: &[Region],
) -> Result<bool, RewriteError> {
    // A set used as a stack, as MLIR's `SmallSetVector`.
    let mut worklist: Vec<Region> = vec![];
    let mut queued: SecondaryMap<Region, bool> = SecondaryMap::default();
    let push = |w: &mut Vec<Region>, q: &mut SecondaryMap<Region, bool>, r: Region| {
        if !q[r] {
            q[r] = true;
            w.push(r);
        }
    };
    for &r in regions {
        push(&mut worklist, &mut queued, r);
    }
    let mut changed = false;
    while let Some(region) = worklist.pop() {
        queued[region] = false;
        if merge_in_region(rw, ifaces, region)? {
            push(&mut worklist, &mut queued, region);
            changed = true;
        }
        let ctx = &*rw.ctx;
        for b in ctx.region_blocks(region) {
            for o in ctx.block_ops_iter(b) {
                for &r in ctx.regions_of(o) {
                    push(&mut worklist, &mut queued, r);
                }
            }
        }
    }
    Ok(changed)
}

/// The values used in `region` but defined outside it, in the order MLIR's
/// `getUsedValuesDefinedAbove` finds them (ops in post-order, operands in
/// order, each value once).
pub fn used_values_defined_above(ctx: &Context, region: Region) -> Vec<Value> {
    let mut seen = FxHashSet::default();
    let mut out = vec![];
    // The last block found inside `region` and the last found outside:
    // an op's operands are mostly defined in its own block or in the one
    // around the region, and each answer walks up the region tree.
    let (mut last_in, mut last_out): (Option<Block>, Option<Block>) = (None, None);
    let mut visit = |o: Op| {
        for &v in ctx.operands(o) {
            let inside = match ctx.value_block(v) {
                None => false,
                Some(b) if last_in == Some(b) => true,
                Some(b) if last_out == Some(b) => false,
                Some(b) => {
                    let inside = ctx
                        .parent_region(b)
                        .is_some_and(|r| ctx.is_region_ancestor(region, r));
                    match inside {
                        true => last_in = Some(b),
                        false => last_out = Some(b),
                    }
                    inside
                }
            };
            if !inside && seen.insert(v) {
                out.push(v);
            }
        }
    };
    for b in ctx.region_blocks(region) {
        for o in ctx.block_ops_iter(b) {
            ctx.walk_post(o, &mut visit);
            visit(o);
        }
    }
    out
}
