//! The greedy pattern driver: MLIR's `applyPatternsAndFoldGreedily`.
//!
//! Each iteration seeds a worklist with every op nested in the regions
//! (top-down: pre-order, processed first to last; bottom-up: post-order,
//! processed last to first), then pops ops one at a time: an unused op
//! without effects is erased, otherwise it is folded, otherwise the
//! patterns are tried. Changes put the affected ops back on the list (the
//! users of a replaced op, the defining ops of operands that lost a use,
//! new ops). After the list drains, the regions' control flow is
//! simplified. Iterations repeat until nothing changes or the limit is
//! reached.
//!
//! The visiting order decides which of two overlapping rewrites wins and
//! where folded constants land, so it follows LLVM 14 and 15 step by step
//! (including which changes re-queue ops: an in-place modification does
//! not, in those versions).

use crate::fold::{FoldOutcome, OpInterfaces, OperationFolder};
use crate::pattern::FrozenPatternSet;
use crate::region::{nothing_to_simplify, simplify_regions};
use crate::rewriter::{Listener, RewriteError, Rewriter};
use mlir_async_ir::entity::SecondaryMap;
use mlir_async_ir::{ChangeMark, Context, Op, Region, Value};

/// How the greedy driver runs (MLIR's `GreedyRewriteConfig` and the
/// `-canonicalize` options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GreedyConfig {
    /// Seed the worklist in pre-order and process it in order
    /// (`top-down`, the default); otherwise post-order, last first.
    pub top_down: bool,
    /// Simplify the regions' control flow after each round
    /// (`region-simplify`).
    pub region_simplification: bool,
    /// Rounds before giving up (`max-iterations`); `None` for no limit.
    pub max_iterations: Option<u32>,
    /// Pattern applications allowed in one round on the ops of one block,
    /// as a multiple of the block's size (plus a constant); past it, the
    /// block's ops are only folded until the round ends. Beyond upstream,
    /// which has no such bound and never returns when patterns cycle (LLVM
    /// 14 and 15 collapse a branch round a cycle of forwarding blocks
    /// forever); a bound per block keeps such a cycle from stopping the
    /// rewriting of everything else. `None` for no bound.
    pub max_rewrites_per_op: Option<u32>,
    /// LLVM 15's driver: constants already in the IR are adopted by the
    /// folder while the worklist is seeded (duplicates merged, the rest
    /// hoisted), so their order is kept rather than reversed; LLVM 14 folds
    /// each one when it is visited.
    pub llvm15: bool,
    /// LLVM 13's folder: a constant reused for an op of the entry block
    /// stays where it is (14 and 15 move it to the block's front).
    pub llvm13: bool,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig {
            top_down: true,
            region_simplification: true,
            max_iterations: Some(10),
            max_rewrites_per_op: Some(64),
            llvm15: false,
            llvm13: false,
        }
    }
}

/// Whether `op` may be erased once unused: not a terminator, and every
/// effect of it (and, for ops with recursive effects, of its nested ops)
/// is at most reading memory or allocating its own results (MLIR's
/// `wouldOpBeTriviallyDead`).
#[inline]
pub fn would_op_be_trivially_dead(ctx: &Context, op: Op) -> bool {
    let t = ctx.traits_of(op);
    if t.is_terminator {
        return false;
    }
    // Most ops answer from their own traits: no walk, no stack.
    if !t.recursive_effects || ctx.regions_of(op).is_empty() {
        return t.pure || t.dead_if_unused || t.recursive_effects;
    }
    nested_ops_trivially_dead(ctx, op)
}

/// Whether the ops nested in `op` (which has recursive effects) are all
/// free of effects but reads and allocations.
fn nested_ops_trivially_dead(ctx: &Context, op: Op) -> bool {
    // Each nested op is judged by its own traits as its block is scanned,
    // last op first (where a block's stores and terminators are), so an
    // effect ends the scan early; ops with recursive effects are scanned
    // in turn.
    let mut stack = vec![op];
    while let Some(o) = stack.pop() {
        for &r in ctx.regions_of(o) {
            for b in ctx.region_blocks(r) {
                let mut cur = ctx.last_op(b);
                while let Some(n) = cur {
                    let t = ctx.traits_of(n);
                    if !(t.pure || t.dead_if_unused || t.recursive_effects) {
                        return false;
                    }
                    if t.recursive_effects && !ctx.regions_of(n).is_empty() {
                        stack.push(n);
                    }
                    cur = ctx.prev_op(n);
                }
            }
        }
    }
    true
}

/// An unused op that [`would_op_be_trivially_dead`].
pub fn is_op_trivially_dead(ctx: &Context, op: Op) -> bool {
    ctx.results(op).iter().all(|&r| !ctx.has_uses(r)) && would_op_be_trivially_dead(ctx, op)
}

/// A dense table by op handle that reads as the default where nothing was
/// written. Unlike a [`SecondaryMap`], which grows to the key written, it
/// grows to twice its size: the driver writes the handle of every op it
/// creates, one past the last, and growing by one was a tenth of its own
/// time.
struct OpTable<T> {
    items: Vec<T>,
}

impl<T: Copy + Default> OpTable<T> {
    fn new() -> Self {
        OpTable { items: Vec::new() }
    }
    #[inline]
    fn get(&self, op: Op) -> T {
        self.items.get(op.index()).copied().unwrap_or_default()
    }
    #[inline]
    fn set(&mut self, op: Op, v: T) {
        let i = op.index();
        if i >= self.items.len() {
            self.grow(i);
        }
        self.items[i] = v;
    }
    #[cold]
    fn grow(&mut self, i: usize) {
        let n = (i + 1).max(self.items.len() * 2).max(64);
        self.items.resize(n, T::default());
    }
}

/// The ops waiting to be visited, each at most once.
struct Queue {
    list: Vec<Option<Op>>,
    /// Position + 1 in `list` of each queued op; 0 when not queued.
    pos: OpTable<u32>,
}

impl Queue {
    #[inline]
    fn add(&mut self, op: Op) {
        if self.pos.get(op) != 0 {
            return;
        }
        self.list.push(Some(op));
        self.pos.set(op, self.list.len() as u32);
    }
    #[inline]
    fn pop(&mut self) -> Option<Option<Op>> {
        let op = self.list.pop()?;
        if let Some(o) = op {
            self.pos.set(o, 0);
        }
        Some(op)
    }
    /// Empties the queue. Only the ops in the list have a position.
    fn clear(&mut self) {
        for op in self.list.drain(..).flatten() {
            self.pos.set(op, 0);
        }
    }
    fn remove(&mut self, op: Op) {
        let p = self.pos.get(op);
        if p != 0 {
            self.list[p as usize - 1] = None;
            self.pos.set(op, 0);
        }
    }
    /// Re-queues the defining ops of `operands` that have at most one use
    /// left: they may now be dead, or simpler to rewrite.
    fn add_operands(&mut self, ctx: &Context, operands: &[Value]) {
        for &v in operands {
            if ctx.uses(v).len() > 1 {
                continue;
            }
            if let Some(d) = ctx.defining_op(v) {
                self.add(d);
            }
        }
    }
    fn add_users(&mut self, ctx: &Context, op: Op) {
        for &r in ctx.results(op) {
            for u in ctx.users(r) {
                self.add(u);
            }
        }
    }
    /// `op` and its nested ops are going away: requeue what feeds it,
    /// forget them.
    fn removed(&mut self, ctx: &Context, op: Op) {
        self.add_operands(ctx, ctx.operands(op));
        ctx.walk_post(op, &mut |o| self.remove(o));
        self.remove(op);
    }
}

/// The driver's ears on the rewriter: every change updates the queue and
/// the folder's constant table.
struct DriverListener<'q, 'h> {
    queue: &'q mut Queue,
    folder: &'q mut OperationFolder,
    hooks: &'h dyn OpInterfaces,
}

impl Listener for DriverListener<'_, '_> {
    fn notify_inserted(&mut self, _ctx: &Context, op: Op) {
        self.queue.add(op);
    }
    fn notify_replaced(&mut self, ctx: &Context, op: Op, _with: &[Value]) {
        self.queue.add_users(ctx, op);
    }
    fn notify_erased(&mut self, ctx: &Context, op: Op) {
        self.queue.removed(ctx, op);
        self.folder.forget_nested(ctx, self.hooks, op);
    }
    fn notify_moved_away(&mut self, ctx: &Context, op: Op) {
        ctx.walk_post(op, &mut |o| self.queue.remove(o));
        self.queue.remove(op);
        self.folder.forget_nested(ctx, self.hooks, op);
    }
}

/// The ops of `r` in the order the worklist is seeded (pre-order when
/// `top_down`, else post-order). With `llvm15`, each constant met is
/// first offered to the folder, which may move it or erase it as a
/// duplicate (then it is left out, and so are its regions).
fn seed_region(
    ctx: &mut Context,
    hooks: &dyn OpInterfaces,
    folder: &mut OperationFolder,
    r: Region,
    llvm15: bool,
    top_down: bool,
    out: &mut Vec<Op>,
) {
    for b in ctx.region_blocks(r).to_vec() {
        let mut cur = ctx.first_op(b);
        while let Some(o) = cur {
            // Taken before `o` may move or go.
            cur = ctx.next_op(o);
            if !top_down && !ctx.regions_of(o).is_empty() {
                for nested in ctx.regions_of(o).to_vec() {
                    seed_region(ctx, hooks, folder, nested, llvm15, top_down, out);
                }
            }
            if llvm15 {
                if let Some(value) = hooks.constant_value(ctx, o) {
                    if !folder.insert_known_constant(ctx, hooks, o, value) {
                        continue;
                    }
                }
            }
            out.push(o);
            if top_down && !ctx.regions_of(o).is_empty() {
                for nested in ctx.regions_of(o).to_vec() {
                    seed_region(ctx, hooks, folder, nested, llvm15, top_down, out);
                }
            }
        }
    }
}

/// Folds and rewrites the ops nested in `regions` until a fixed point.
/// The regions' parent must be isolated from above (the driver creates
/// constants at the top of such regions). Returns whether the rewrite
/// converged within the iteration limit.
pub fn apply_patterns_and_fold_greedily(
    ctx: &mut Context,
    regions: &[Region],
    patterns: &FrozenPatternSet,
    hooks: &dyn OpInterfaces,
    config: GreedyConfig,
) -> Result<bool, RewriteError> {
    if regions.is_empty() {
        return Ok(true);
    }
    let mut queue = Queue {
        list: vec![],
        pos: OpTable::new(),
    };
    let mut folder = OperationFolder::new();
    folder.keep_reused_in_place = config.llvm13;
    let mut iteration = 0u32;
    // When each op last failed to fold (for ops whose folder is local).
    let mut failed_fold: OpTable<ChangeMark> = OpTable::new();
    loop {
        queue.clear();
        folder.moved = false;
        if config.top_down {
            let mut seed = vec![];
            for &r in regions {
                seed_region(ctx, hooks, &mut folder, r, config.llvm15, true, &mut seed);
            }
            seed.reverse();
            for (i, &o) in seed.iter().enumerate() {
                queue.pos.set(o, i as u32 + 1);
            }
            queue.list = seed.into_iter().map(Some).collect();
        } else {
            let mut seed = vec![];
            for &r in regions {
                seed_region(ctx, hooks, &mut folder, r, config.llvm15, false, &mut seed);
            }
            for o in seed {
                queue.add(o);
            }
        }

        let mut changed = false;
        // Pattern applications left per block this round (0: not yet
        // counted; the count is set on first use).
        let mut budget: SecondaryMap<mlir_async_ir::Block, u64> = SecondaryMap::default();
        let mut exhausted = false;
        // The operands of the op being folded, kept in one buffer.
        let mut original_operands: Vec<Value> = vec![];
        while let Some(slot) = queue.pop() {
            let Some(op) = slot else { continue };
            if is_op_trivially_dead(ctx, op) {
                queue.removed(ctx, op);
                folder.forget_nested(ctx, hooks, op);
                // Unused and effect-free: erasing cannot fail.
                let _ = ctx.erase_op(op);
                changed = true;
                continue;
            }

            // A fold that failed and whose inputs did not change since
            // fails again: the round that confirms a fixed point, and ops
            // queued twice, skip it.
            let known_unfoldable = {
                let mark = failed_fold.get(op);
                mark != ChangeMark::default()
                    && !ctx.changed_since(op, mark)
                    && ctx.operands(op).iter().all(|&v| {
                        ctx.defining_op(v)
                            .is_none_or(|d| !ctx.changed_since(d, mark))
                    })
            };
            let outcome = if known_unfoldable {
                FoldOutcome::Failed
            } else {
                // Before the fold: a folder may change them and still
                // replace the op (15's `llvm.extractvalue`).
                original_operands.clear();
                for &v in ctx.operands(op) {
                    original_operands.push(v);
                }
                let q = std::cell::RefCell::new(&mut queue);
                folder.try_to_fold(
                    ctx,
                    hooks,
                    op,
                    config.llvm15,
                    &mut |_, c| q.borrow_mut().add(c),
                    &mut |ctx, op| {
                        let mut q = q.borrow_mut();
                        q.add_operands(ctx, &original_operands);
                        q.add_users(ctx, op);
                        q.removed(ctx, op);
                    },
                )
            };
            match outcome {
                FoldOutcome::Failed => {
                    if !known_unfoldable
                        && ctx.regions_of(op).is_empty()
                        && !ctx.traits_of(op).constant_like
                        && !folder.is_uniqued(op)
                        && hooks.fold_is_local(ctx, op)
                    {
                        failed_fold.set(op, ctx.change_mark());
                    }
                }
                FoldOutcome::InPlace => changed = true,
                FoldOutcome::Replaced => {
                    changed = true;
                    continue;
                }
            }

            // Most ops have no pattern: no budget to count, no rewriter.
            if !patterns.has_patterns_for(ctx, op) {
                continue;
            }
            let block = ctx.parent_block(op);
            if let (Some(k), Some(b)) = (config.max_rewrites_per_op, block) {
                if budget[b] == 0 {
                    let size = ctx.block_ops_iter(b).count() as u64;
                    budget[b] = u64::from(k) * (size + 16) + 1;
                }
                if budget[b] == 1 {
                    exhausted = true;
                    continue;
                }
            }
            let mut listener = DriverListener {
                queue: &mut queue,
                folder: &mut folder,
                hooks,
            };
            let mut rw = Rewriter::new(ctx, &mut listener);
            let applied = patterns.match_and_rewrite(op, &mut rw)?;
            if let (true, Some(b)) = (applied, block) {
                if budget[b] > 1 {
                    budget[b] -= 1;
                }
            }
            changed |= applied;
        }
        changed |= exhausted;

        // A round that changed nothing leaves the IR the last round's
        // simplification produced, and simplifying is idempotent: it
        // would change nothing either (MLIR runs it anyway; skipping it
        // saves a walk of every region in the common last round).
        let unchanged = iteration > 0 && !changed && !folder.moved;
        if config.region_simplification && !unchanged && !nothing_to_simplify(ctx, regions) {
            let mut listener = DriverListener {
                queue: &mut queue,
                folder: &mut folder,
                hooks,
            };
            let mut rw = Rewriter::new(ctx, &mut listener);
            changed |= simplify_regions(&mut rw, hooks, regions)?;
        }
        iteration += 1;
        let more = config.max_iterations.is_none_or(|m| iteration < m);
        if !(changed && more) {
            return Ok(!changed);
        }
    }
}
