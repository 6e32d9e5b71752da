//! Liveness, as MLIR's `Liveness` analysis: for every block nested in an
//! op, the values live on entry and on exit, and from them, where in a
//! block a value is last needed (`is_dead_after`).
//!
//! Sets are kept sorted by value handle, so iterating them is
//! deterministic. (MLIR's are pointer-hashed sets: the async
//! ref-counting pass walks them, which is why upstream's output changes
//! from run to run.)

use crate::entity::SecondaryMap;
use crate::order::OpOrder;
use crate::{Block, Context, Op, Value, ValueDef};

/// A set of values, sorted by handle.
pub type ValueSet = Vec<Value>;

fn union_into(a: &mut ValueSet, b: &[Value]) -> bool {
    if b.iter().all(|v| a.binary_search(v).is_ok()) {
        return false;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x == y => {
                out.push(*x);
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => {
                out.push(*x);
                i += 1;
            }
            (Some(_), Some(y)) | (None, Some(y)) => {
                out.push(*y);
                j += 1;
            }
            (Some(x), None) => {
                out.push(*x);
                i += 1;
            }
            (None, None) => unreachable!(),
        }
    }
    *a = out;
    true
}

fn subtract(a: &[Value], b: &[Value]) -> ValueSet {
    a.iter()
        .copied()
        .filter(|v| b.binary_search(v).is_err())
        .collect()
}

fn sorted(mut v: Vec<Value>) -> ValueSet {
    v.sort_unstable();
    v.dedup();
    v
}

/// Liveness of one block.
#[derive(Clone, Debug, Default)]
pub struct BlockLiveness {
    pub live_in: ValueSet,
    pub live_out: ValueSet,
}

impl BlockLiveness {
    pub fn is_live_in(&self, v: Value) -> bool {
        self.live_in.binary_search(&v).is_ok()
    }
    pub fn is_live_out(&self, v: Value) -> bool {
        self.live_out.binary_search(&v).is_ok()
    }
}

/// The liveness of every block nested in an op.
pub struct Liveness {
    blocks: SecondaryMap<Block, Option<Box<BlockLiveness>>>,
    order: OpOrder,
}

/// What the fixed point works on for one block.
#[derive(Clone)]
struct Builder {
    defs: ValueSet,
    uses: ValueSet,
    live_in: ValueSet,
    live_out: ValueSet,
}

impl Builder {
    fn new(ctx: &Context, b: Block) -> Self {
        let region = ctx.parent_region(b);
        let escapes = |v: Value| {
            ctx.users(v).any(|u| {
                let ub = ctx.parent_block(u);
                let owner = match (region, ub) {
                    (Some(r), Some(ub)) => ctx.ancestor_block_in_region(r, ub),
                    _ => None,
                };
                owner != Some(b)
            })
        };
        let mut defs = vec![];
        let mut out = vec![];
        for &a in ctx.block_args(b) {
            defs.push(a);
            if escapes(a) {
                out.push(a);
            }
        }
        for o in ctx.block_ops_iter(b) {
            for &r in ctx.results(o) {
                if escapes(r) {
                    out.push(r);
                }
            }
        }
        let mut uses = vec![];
        let mut visit = |o: Op| {
            defs.extend_from_slice(ctx.results(o));
            uses.extend_from_slice(ctx.operands(o));
        };
        for o in ctx.block_ops_iter(b) {
            visit(o);
            ctx.walk_nested(o, &mut visit);
        }
        let defs = sorted(defs);
        let uses = subtract(&sorted(uses), &defs);
        Builder {
            defs,
            uses,
            live_in: vec![],
            live_out: sorted(out),
        }
    }

    fn update_live_in(&mut self) -> bool {
        let mut n = self.uses.clone();
        union_into(&mut n, &self.live_out);
        let n = subtract(&n, &self.defs);
        // Live-in only grows: a size check suffices.
        if n.len() == self.live_in.len() {
            return false;
        }
        self.live_in = n;
        true
    }
}

fn successors(ctx: &Context, b: Block) -> &[Block] {
    ctx.last_op(b).map_or(&[], |t| ctx.successors(t))
}

impl Liveness {
    /// Computes liveness for every block nested in `op`.
    pub fn new(ctx: &Context, op: Op) -> Self {
        let mut blocks_in_order = vec![];
        let mut collect = |o: Op| {
            for &r in ctx.regions_of(o) {
                blocks_in_order.extend(ctx.region_blocks(r));
            }
        };
        collect(op);
        ctx.walk_nested(op, &mut collect);
        let mut builders: SecondaryMap<Block, Option<Builder>> = SecondaryMap::default();
        let mut work: Vec<Block> = vec![];
        let mut queued: SecondaryMap<Block, bool> = SecondaryMap::default();
        let enqueue_preds =
            |b: Block, work: &mut Vec<Block>, queued: &mut SecondaryMap<Block, bool>| {
                for &p in ctx.pred_ops(b) {
                    if let Some(pb) = ctx.parent_block(p) {
                        if !queued[pb] {
                            queued[pb] = true;
                            work.push(pb);
                        }
                    }
                }
            };
        for &b in &blocks_in_order {
            let mut bl = Builder::new(ctx, b);
            if bl.update_live_in() {
                enqueue_preds(b, &mut work, &mut queued);
            }
            builders[b] = Some(bl);
        }
        while let Some(b) = work.pop() {
            queued[b] = false;
            let mut add = vec![];
            for &s in successors(ctx, b) {
                if let Some(sb) = &builders[s] {
                    add.extend_from_slice(&sb.live_in);
                }
            }
            let Some(bl) = builders[b].as_mut() else {
                continue;
            };
            union_into(&mut bl.live_out, &sorted(add));
            if bl.update_live_in() {
                enqueue_preds(b, &mut work, &mut queued);
            }
        }
        let mut blocks = SecondaryMap::default();
        for &b in &blocks_in_order {
            if let Some(bl) = builders[b].take() {
                blocks[b] = Some(Box::new(BlockLiveness {
                    live_in: bl.live_in,
                    live_out: bl.live_out,
                }));
            }
        }
        Liveness {
            blocks,
            order: OpOrder::new(),
        }
    }

    /// The liveness of `b`, if `b` was nested in the analysed op when the
    /// analysis ran (blocks created since have none, as in MLIR).
    pub fn block(&self, b: Block) -> Option<&BlockLiveness> {
        self.blocks[b].as_deref()
    }
    /// Records the liveness of a block a pass has just created (a pass
    /// that keeps using the analysis while it adds blocks must say what
    /// they hold, or later queries see an empty block).
    pub fn set_block(&mut self, b: Block, l: BlockLiveness) {
        self.blocks[b] = Some(Box::new(l));
    }
    pub fn live_in(&self, b: Block) -> &[Value] {
        self.block(b).map_or(&[], |l| &l.live_in)
    }
    pub fn live_out(&self, b: Block) -> &[Value] {
        self.block(b).map_or(&[], |l| &l.live_out)
    }

    /// Where `v`'s live range starts in `b`: the first op if it is live
    /// on entry or a block argument, else its definition.
    pub fn start_op(&self, ctx: &Context, b: Block, v: Value) -> Option<Op> {
        let live_in = self.block(b).is_some_and(|l| l.is_live_in(v));
        match ctx.value_def(v) {
            ValueDef::Result(d, _) if !live_in => Some(d),
            _ => ctx.first_op(b),
        }
    }

    /// Where `v`'s live range ends in `b`, starting from `start`: the last
    /// op if `v` is live on exit, else its last user in `b` (counting
    /// users nested in `b`'s ops) after `start`.
    pub fn end_op(&mut self, ctx: &Context, b: Block, v: Value, start: Op) -> Op {
        if self.block(b).is_some_and(|l| l.is_live_out(v)) {
            return ctx.last_op(b).unwrap_or(start);
        }
        let mut end = start;
        for u in ctx.users(v) {
            if let Some(a) = ctx.ancestor_in_block(b, u) {
                if self.order.is_before_in_block(ctx, end, a) {
                    end = a;
                }
            }
        }
        end
    }

    /// Whether `v` is no longer needed after `op` (MLIR's `isDeadAfter`).
    pub fn is_dead_after(&mut self, ctx: &Context, v: Value, op: Op) -> bool {
        let Some(b) = ctx.parent_block(op) else {
            return true;
        };
        if self.block(b).is_some_and(|l| l.is_live_out(v)) {
            return false;
        }
        let end = self.end_op(ctx, b, v, op);
        end == op || self.order.is_before_in_block(ctx, end, op)
    }

    /// The ops over which `v` is live, block by block from its definition
    /// (MLIR's `resolveLiveness`).
    pub fn resolve(&mut self, ctx: &Context, v: Value) -> Vec<Op> {
        let def_block = match ctx.value_def(v) {
            ValueDef::Result(d, _) => ctx.parent_block(d),
            ValueDef::BlockArg(b, _) => Some(b),
        };
        let Some(def_block) = def_block else {
            return vec![];
        };
        let mut visited: SecondaryMap<Block, bool> = SecondaryMap::default();
        let mut work = vec![def_block];
        visited[def_block] = true;
        for u in ctx.users(v) {
            if let Some(ub) = ctx.parent_block(u) {
                if !visited[ub] {
                    visited[ub] = true;
                    work.push(ub);
                }
            }
        }
        let mut out = vec![];
        while let Some(b) = work.pop() {
            let Some(start) = self.start_op(ctx, b, v) else {
                continue;
            };
            let end = self.end_op(ctx, b, v, start);
            let mut cur = Some(start);
            while let Some(o) = cur {
                out.push(o);
                if o == end {
                    break;
                }
                cur = ctx.next_op(o);
            }
            for &s in successors(ctx, b) {
                if self.block(s).is_some_and(|l| l.is_live_in(v)) && !visited[s] {
                    visited[s] = true;
                    work.push(s);
                }
            }
        }
        out
    }
}

/// Where one value is live: the blocks that have it live on entry and
/// on exit, found from its uses alone (each use's block and the blocks
/// around it up to the defining region are live on entry, and so,
/// backwards, is every predecessor until the defining block). In the
/// defining region and the regions nested in it, this is exactly what
/// [`Liveness`] says of the value. (Around them, MLIR's analysis also
/// reports a block argument live into the blocks that enclose its block,
/// since its walk counts nested ops' results as defined there but not
/// nested blocks' arguments; nobody asks that of a value outside the
/// region it is defined in, and it is not reproduced here.)
///
/// A pass that asks about a few kinds of values (the async
/// reference-counting pass asks about tokens, values and groups only)
/// pays for their live ranges instead of for every value's, and since it
/// is computed when asked, blocks the pass added before are seen as they
/// are. The tables are reused from one value to the next.
#[derive(Default)]
pub struct ValueLiveness {
    /// The value's number (`epoch`) where it is live on entry / exit.
    live_in_at: SecondaryMap<Block, u32>,
    live_out_at: SecondaryMap<Block, u32>,
    epoch: u32,
    live_in: Vec<Block>,
    live_out: Vec<Block>,
    work: Vec<Block>,
}

impl ValueLiveness {
    pub fn new() -> Self {
        Self::default()
    }

    /// Computes where `v` is live, replacing what was computed before.
    pub fn compute(&mut self, ctx: &Context, v: Value) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.live_in_at.clear();
            self.live_out_at.clear();
            self.epoch = 1;
        }
        self.live_in.clear();
        self.live_out.clear();
        self.work.clear();
        let Some(def) = ctx.value_block(v) else {
            return;
        };
        let Some(def_region) = ctx.parent_region(def) else {
            return;
        };
        // Whether a use is outside `def` (MLIR's initial live-out set).
        let mut escapes = false;
        for u in ctx.users(v) {
            // The use's block and each block around it, up to the
            // defining region: the value is used there and defined
            // elsewhere.
            let mut b = ctx.parent_block(u);
            loop {
                let Some(ub) = b else {
                    escapes = true;
                    break;
                };
                if ub == def {
                    break;
                }
                self.mark_live_in(ub);
                let r = ctx.parent_region(ub);
                if r == Some(def_region) {
                    escapes = true;
                    break;
                }
                b = r
                    .and_then(|r| ctx.region_parent(r))
                    .and_then(|o| ctx.parent_block(o));
            }
        }
        if escapes {
            self.mark_live_out(def);
        }
        while let Some(b) = self.work.pop() {
            for &t in ctx.pred_ops(b) {
                let Some(p) = ctx.parent_block(t) else {
                    continue;
                };
                self.mark_live_out(p);
                if p != def {
                    self.mark_live_in(p);
                }
            }
        }
    }

    fn mark_live_in(&mut self, b: Block) {
        let e = self.epoch;
        let at = &mut self.live_in_at[b];
        if *at != e {
            *at = e;
            self.live_in.push(b);
            self.work.push(b);
        }
    }

    fn mark_live_out(&mut self, b: Block) {
        let e = self.epoch;
        let at = &mut self.live_out_at[b];
        if *at != e {
            *at = e;
            self.live_out.push(b);
        }
    }

    pub fn is_live_in(&self, b: Block) -> bool {
        self.epoch != 0 && self.live_in_at[b] == self.epoch
    }
    pub fn is_live_out(&self, b: Block) -> bool {
        self.epoch != 0 && self.live_out_at[b] == self.epoch
    }
    /// The blocks where the value is live on entry, in no useful order.
    pub fn live_in_blocks(&self) -> &[Block] {
        &self.live_in
    }
    /// The blocks where the value is live on exit, in no useful order.
    pub fn live_out_blocks(&self) -> &[Block] {
        &self.live_out
    }
}
