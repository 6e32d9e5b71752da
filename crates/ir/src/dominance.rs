//! Dominance, for SSA verification: does a value's definition dominate a
//! use? Dominator trees are computed per region, lazily (Cooper, Harvey and
//! Kennedy's iterative algorithm: simple and fast on the small CFGs of MLIR
//! regions).

use crate::{grow_zeroed, Block, Context, Op, Region, Value, ValueDef};

/// Marks a block the entry cannot reach: dominated by everything.
const UNREACHABLE: (u32, u32) = (u32::MAX, 0);

#[derive(Default)]
pub struct DominanceInfo {
    /// Pre- and post-order numbers of each reachable block in its region's
    /// dominator tree, indexed by block: `a` dominates `b` iff `b`'s
    /// interval lies in `a`'s, one comparison instead of a walk up the
    /// idom chain (a coroutine split at every await is one long chain).
    interval: Vec<(u32, u32)>,
    /// Regions whose blocks are numbered in `interval`, indexed by region.
    done: Vec<bool>,
    /// Position of each op in its block, indexed by op: asked for nearly
    /// every operand, so it must be an array lookup, not a hash.
    order: Vec<u32>,
    /// Blocks whose ops are numbered in `order`, indexed by block.
    numbered: Vec<bool>,
    /// Position of each block in its region, for the region being numbered.
    local: Vec<u32>,
    /// Buffers reused for every region: a coroutine function has dozens of
    /// blocks, and allocating per region was most of the verifier's time.
    scratch: Scratch,
}

#[derive(Default)]
struct Scratch {
    rpo: Vec<Block>,
    idom: Vec<u32>,
    seen: Vec<bool>,
    dfs: Vec<(Block, u32)>,
    index: Vec<u32>,
    pred_first: Vec<u32>,
    fill_preds: Vec<u32>,
    preds: Vec<u32>,
    first: Vec<u32>,
    fill: Vec<u32>,
    kids: Vec<u32>,
    stack: Vec<(u32, u32)>,
}

impl DominanceInfo {
    pub fn new() -> Self {
        Self::default()
    }

    fn number_region(&mut self, ctx: &Context, r: Region) {
        if self.done.len() <= r.index() {
            grow_zeroed(&mut self.done, ctx.num_regions().max(r.index() + 1), false);
        }
        if self.done[r.index()] {
            return;
        }
        self.done[r.index()] = true;
        // Entries are set for a region's blocks before they are read.
        if self.interval.len() < ctx.num_blocks() {
            grow_zeroed(&mut self.interval, ctx.num_blocks(), (0, 0));
            grow_zeroed(&mut self.local, ctx.num_blocks(), 0);
        }
        let Some(entry) = ctx.entry_block(r) else {
            return;
        };
        for (i, b) in ctx.region_blocks(r).enumerate() {
            self.interval[b.index()] = UNREACHABLE;
            self.local[b.index()] = i as u32;
        }
        let s = &mut self.scratch;
        compute_idoms(ctx, r, entry, &self.local, s);
        let n = s.rpo.len();
        // Children lists of the dominator tree, as ranges into one array.
        s.first.clear();
        s.first.resize(n + 1, 0);
        for &d in &s.idom[1..] {
            s.first[d as usize + 1] += 1;
        }
        for i in 0..n {
            s.first[i + 1] += s.first[i];
        }
        s.fill.clear();
        s.fill.extend_from_slice(&s.first);
        s.kids.clear();
        s.kids.resize(n.saturating_sub(1), 0);
        for i in 1..n {
            let d = s.idom[i] as usize;
            s.kids[s.fill[d] as usize] = i as u32;
            s.fill[d] += 1;
        }
        let mut clock = 0u32;
        s.stack.clear();
        s.stack.push((0, s.first[0]));
        self.interval[s.rpo[0].index()].0 = clock;
        clock += 1;
        while let Some(&mut (node, ref mut next)) = s.stack.last_mut() {
            if *next < s.first[node as usize + 1] {
                let child = s.kids[*next as usize];
                *next += 1;
                self.interval[s.rpo[child as usize].index()].0 = clock;
                clock += 1;
                s.stack.push((child, s.first[child as usize]));
            } else {
                self.interval[s.rpo[node as usize].index()].1 = clock;
                clock += 1;
                s.stack.pop();
            }
        }
    }

    fn position(&mut self, ctx: &Context, op: Op) -> u32 {
        let b = ctx.parent_block(op).expect("op in a block");
        if self.numbered.len() <= b.index() {
            grow_zeroed(&mut self.numbered, ctx.num_blocks(), false);
        }
        if !self.numbered[b.index()] {
            if self.order.len() < ctx.num_ops() {
                grow_zeroed(&mut self.order, ctx.num_ops(), 0);
            }
            for (i, o) in ctx.block_ops_iter(b).enumerate() {
                self.order[o.index()] = i as u32;
            }
            self.numbered[b.index()] = true;
        }
        self.order[op.index()]
    }

    /// Does block `a` dominate block `b` (same region)? Unreachable blocks
    /// are dominated by everything, as in MLIR.
    pub fn block_dominates(&mut self, ctx: &Context, a: Block, b: Block) -> bool {
        if a == b {
            return true;
        }
        let r = ctx.parent_region(b).expect("block in a region");
        self.number_region(ctx, r);
        let ib = self.interval[b.index()];
        if ib == UNREACHABLE {
            return true;
        }
        let ia = self.interval[a.index()];
        ia != UNREACHABLE && ia.0 <= ib.0 && ib.1 <= ia.1
    }

    /// The blocks of `r` the entry reaches, in a pre-order walk of the
    /// dominator tree, each with the number of its ancestors in the tree:
    /// what a pass with scoped facts (CSE) walks, leaving a scope when the
    /// depth drops.
    pub fn dominator_tree_preorder(&mut self, ctx: &Context, r: Region) -> Vec<(Block, u32)> {
        let Some(entry) = ctx.entry_block(r) else {
            return vec![];
        };
        if self.local.len() < ctx.num_blocks() {
            grow_zeroed(&mut self.local, ctx.num_blocks(), 0);
        }
        for (i, b) in ctx.region_blocks(r).enumerate() {
            self.local[b.index()] = i as u32;
        }
        let s = &mut self.scratch;
        compute_idoms(ctx, r, entry, &self.local, s);
        let n = s.rpo.len();
        let mut kids: Vec<Vec<u32>> = vec![vec![]; n];
        for i in 1..n {
            kids[s.idom[i] as usize].push(i as u32);
        }
        let mut out = Vec::with_capacity(n);
        let mut stack = vec![(0u32, 0u32)];
        while let Some((node, depth)) = stack.pop() {
            out.push((s.rpo[node as usize], depth));
            for &k in kids[node as usize].iter().rev() {
                stack.push((k, depth + 1));
            }
        }
        out
    }

    /// Is `v` usable as an operand of `user`?
    pub fn value_dominates_use(&mut self, ctx: &Context, v: Value, user: Op) -> bool {
        let Some(def_block) = ctx.value_block(v) else {
            return false;
        };
        let Some(def_region) = ctx.parent_region(def_block) else {
            return false;
        };
        // Climb from the user to the op that sits in the definition's region.
        let mut anc = user;
        loop {
            let Some(b) = ctx.parent_block(anc) else {
                return false;
            };
            if ctx.parent_region(b) == Some(def_region) {
                break;
            }
            match ctx.parent_op(anc) {
                Some(p) => anc = p,
                None => return false,
            }
        }
        let use_block = ctx.parent_block(anc).expect("checked above");
        if use_block == def_block {
            return match ctx.value_def(v) {
                ValueDef::BlockArg(..) => true,
                ValueDef::Result(def, _) => {
                    def != anc && self.position(ctx, def) < self.position(ctx, anc)
                }
            };
        }
        // The entry block dominates every block of its region (reachable
        // ones by definition, unreachable ones as MLIR defines them): no
        // dominator tree needed for the values of a function's prologue,
        // which its later blocks use the most.
        if ctx.entry_block(def_region) == Some(def_block) {
            return true;
        }
        // A block reached from one predecessor only is dominated by it:
        // climbing such a chain to the definition's block answers without
        // the region's dominator tree. (Lowered coroutines are mostly such
        // chains, one block per suspension point.)
        let mut b = use_block;
        for _ in 0..SINGLE_PREDECESSOR_CLIMB {
            let &[pred] = ctx.pred_ops(b) else {
                break;
            };
            match ctx.parent_block(pred) {
                Some(p) if p == def_block => return true,
                Some(p) if p != b => b = p,
                _ => break,
            }
        }
        self.block_dominates(ctx, def_block, use_block)
    }
}

fn successors(ctx: &Context, b: Block) -> &[Block] {
    ctx.last_op(b).map(|t| ctx.successors(t)).unwrap_or(&[])
}

/// How far [`DominanceInfo::value_dominates_use`] climbs single
/// predecessors before it asks the dominator tree.
const SINGLE_PREDECESSOR_CLIMB: usize = 8;

/// Fills `s.rpo` with the blocks `entry` reaches, in reverse post-order,
/// and `s.idom` with each one's immediate dominator as an index into
/// that order (the entry's is itself). `local` maps the region's blocks to
/// their position in it.
fn compute_idoms(ctx: &Context, r: Region, entry: Block, local: &[u32], s: &mut Scratch) {
    let len = ctx.region_num_blocks(r);
    s.rpo.clear();
    s.idom.clear();
    if len == 1 {
        s.rpo.push(entry);
        s.idom.push(0);
        return;
    }
    let in_region =
        |b: Block| (ctx.parent_region(b) == Some(r)).then_some(local[b.index()] as usize);
    s.seen.clear();
    s.seen.resize(len, false);
    s.dfs.clear();
    s.dfs.push((entry, 0));
    s.seen[0] = true;
    while let Some((b, i)) = s.dfs.pop() {
        let succ = successors(ctx, b);
        if (i as usize) < succ.len() {
            s.dfs.push((b, i + 1));
            let t = succ[i as usize];
            if let Some(li) = in_region(t) {
                if !s.seen[li] {
                    s.seen[li] = true;
                    s.dfs.push((t, 0));
                }
            }
        } else {
            s.rpo.push(b);
        }
    }
    s.rpo.reverse();
    let n = s.rpo.len();
    // Position in reverse post-order, by local index (MAX: unreachable).
    s.index.clear();
    s.index.resize(len, u32::MAX);
    for (i, b) in s.rpo.iter().enumerate() {
        s.index[local[b.index()] as usize] = i as u32;
    }
    // Predecessors in reverse post-order numbers, as ranges of one array.
    s.pred_first.clear();
    s.pred_first.resize(n + 1, 0);
    s.preds.clear();
    for pass in 0..2 {
        for (i, &b) in s.rpo.iter().enumerate() {
            for &t in successors(ctx, b) {
                let Some(li) = in_region(t) else { continue };
                let ti = s.index[li];
                if ti == u32::MAX {
                    continue;
                }
                if pass == 0 {
                    s.pred_first[ti as usize + 1] += 1;
                } else {
                    let at = s.fill_preds[ti as usize] as usize;
                    s.preds[at] = i as u32;
                    s.fill_preds[ti as usize] += 1;
                }
            }
        }
        if pass == 0 {
            for i in 0..n {
                s.pred_first[i + 1] += s.pred_first[i];
            }
            s.preds.resize(s.pred_first[n] as usize, 0);
            s.fill_preds.clear();
            s.fill_preds.extend_from_slice(&s.pred_first);
        }
    }
    const NONE: u32 = u32::MAX;
    s.idom.resize(n, NONE);
    s.idom[0] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for i in 1..n {
            let mut new = NONE;
            for k in s.pred_first[i]..s.pred_first[i + 1] {
                let pi = s.preds[k as usize];
                if s.idom[pi as usize] == NONE {
                    continue;
                }
                new = if new == NONE {
                    pi
                } else {
                    let (mut a, mut b) = (new, pi);
                    while a != b {
                        while a > b {
                            a = s.idom[a as usize];
                        }
                        while b > a {
                            b = s.idom[b as usize];
                        }
                    }
                    a
                };
            }
            if new != NONE && s.idom[i] != new {
                s.idom[i] = new;
                changed = true;
            }
        }
    }
}
