//! Dominance, for SSA verification: does a value's definition dominate a
//! use? Dominator trees are computed per region, lazily (Cooper, Harvey and
//! Kennedy's iterative algorithm: simple and fast on the small CFGs of MLIR
//! regions).

use crate::fxhash::{FxHashMap as HashMap, FxHashSet};
use crate::{Block, Context, Op, Region, Value, ValueDef};

#[derive(Default)]
pub struct DominanceInfo {
    /// Immediate dominator of each reachable block; the entry maps to itself.
    idom: HashMap<Region, HashMap<Block, Block>>,
    /// Position of each op in its block, indexed by op: asked for nearly
    /// every operand, so it must be an array lookup, not a hash.
    order: Vec<u32>,
    /// Blocks whose ops are numbered in `order`, indexed by block.
    numbered: Vec<bool>,
}

impl DominanceInfo {
    pub fn new() -> Self {
        Self::default()
    }

    fn region_idoms(&mut self, ctx: &Context, r: Region) -> &HashMap<Block, Block> {
        self.idom.entry(r).or_insert_with(|| compute_idoms(ctx, r))
    }

    fn position(&mut self, ctx: &Context, op: Op) -> u32 {
        let b = ctx.parent_block(op).expect("op in a block");
        if self.numbered.len() <= b.index() {
            self.numbered.resize(ctx.num_blocks(), false);
        }
        if !self.numbered[b.index()] {
            if self.order.len() < ctx.num_ops() {
                self.order.resize(ctx.num_ops(), 0);
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
        let idoms = self.region_idoms(ctx, r);
        if !idoms.contains_key(&b) {
            return true;
        }
        let mut cur = b;
        loop {
            let d = idoms[&cur];
            if d == a {
                return true;
            }
            if d == cur {
                return false;
            }
            cur = d;
        }
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
        self.block_dominates(ctx, def_block, use_block)
    }
}

fn successors(ctx: &Context, b: Block) -> Vec<Block> {
    ctx.last_op(b)
        .map(|t| ctx.successors(t).to_vec())
        .unwrap_or_default()
}

fn compute_idoms(ctx: &Context, r: Region) -> HashMap<Block, Block> {
    let blocks = ctx.region_blocks(r);
    let Some(&entry) = blocks.first() else {
        return HashMap::default();
    };
    // Reverse post-order over reachable blocks.
    let mut rpo = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack = vec![(entry, 0usize)];
    seen.insert(entry);
    while let Some((b, i)) = stack.pop() {
        let succ = successors(ctx, b);
        if i < succ.len() {
            stack.push((b, i + 1));
            let s = succ[i];
            if ctx.parent_region(s) == Some(r) && seen.insert(s) {
                stack.push((s, 0));
            }
        } else {
            rpo.push(b);
        }
    }
    rpo.reverse();
    let index: HashMap<Block, usize> = rpo.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let mut preds: HashMap<Block, Vec<Block>> = HashMap::default();
    for &b in &rpo {
        for s in successors(ctx, b) {
            if index.contains_key(&s) {
                preds.entry(s).or_default().push(b);
            }
        }
    }
    let mut idom: Vec<Option<usize>> = vec![None; rpo.len()];
    idom[0] = Some(0);
    let mut changed = true;
    while changed {
        changed = false;
        for i in 1..rpo.len() {
            let mut new: Option<usize> = None;
            for p in preds.get(&rpo[i]).into_iter().flatten() {
                let pi = index[p];
                if idom[pi].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => pi,
                    Some(mut a) => {
                        let mut b = pi;
                        while a != b {
                            while a > b {
                                a = idom[a].expect("processed");
                            }
                            while b > a {
                                b = idom[b].expect("processed");
                            }
                        }
                        a
                    }
                });
            }
            if new.is_some() && idom[i] != new {
                idom[i] = new;
                changed = true;
            }
        }
    }
    rpo.iter()
        .enumerate()
        .filter_map(|(i, &b)| idom[i].map(|d| (b, rpo[d])))
        .collect()
}
