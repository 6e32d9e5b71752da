//! `-cse`: eliminates common subexpressions, as MLIR's CSE pass does.
//!
//! Walks each region's dominator tree in pre-order with a scoped table of
//! the effect-free, region-free ops seen on the way down: an op equal to
//! one in scope (same name, attributes, result types and operands) is
//! replaced by it; an unused effect-free op is dropped. Ops whose regions
//! are isolated from above start an empty table. Which of two sibling
//! subtrees is walked first cannot change the result (a table entry only
//! serves the subtree below it), so the order of the dominator tree's
//! children does not matter.

use crate::{Pass, PassContext, PassInfo};
use mlir_async_ir::dominance::DominanceInfo;
use mlir_async_ir::fxhash::FxHashMap;
use mlir_async_ir::{Attribute, Block, Context, IrError, Op, Region, Symbol, Type, Value};
use mlir_async_rewrite::greedy::is_op_trivially_dead;

pub fn info() -> PassInfo {
    PassInfo {
        arg: "cse",
        summary: "Eliminate common sub-expressions",
        options: &[],
        anchor: "",
        make: |_| Ok(Box::new(Cse)),
    }
}

pub struct Cse;

impl Pass for Cse {
    fn name(&self) -> &'static str {
        "cse"
    }
    fn display_name(&self) -> &'static str {
        "CSE"
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let mut walk = Walk {
            llvm15: pc.edition == mlir_async_syntax::Edition::V15,
            known: FxHashMap::default(),
            scopes: vec![],
            // Kept from an earlier run that left it true.
            dom: pc.analyses.get::<DominanceInfo>(pc.ctx, op),
            to_erase: vec![],
            changed: false,
        };
        walk.scopes.push(vec![]);
        for r in pc.ctx.regions_of(op).to_vec() {
            walk.region(pc.ctx, r);
        }
        let changed = walk.changed;
        for o in walk.to_erase {
            pc.ctx
                .erase_op(o)
                .map_err(|m| IrError::new(pc.ctx.op_loc(o), m))?;
        }
        // As upstream: erasing ops and redirecting uses leaves every
        // block where it was, so dominance holds.
        if changed {
            pc.mark_analysis_preserved::<DominanceInfo>();
        } else {
            pc.mark_all_analyses_preserved();
        }
        Ok(())
    }
}

/// What makes two ops compute the same values.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    name: Symbol,
    attrs: Vec<(Symbol, Attribute)>,
    results: Vec<Type>,
    operands: Vec<Value>,
}

fn key(ctx: &Context, op: Op) -> Key {
    Key {
        name: ctx.op_name(op),
        attrs: ctx.attrs(op).to_vec(),
        results: ctx.results(op).iter().map(|&r| ctx.value_type(r)).collect(),
        operands: ctx.operands(op).to_vec(),
    }
}

struct Walk<'a> {
    /// LLVM 15 also merges memory reads in one block with no write
    /// between them.
    llvm15: bool,
    /// The ops in scope by key; a later insertion shadows an earlier one
    /// until its scope closes (LLVM's `ScopedHashTable`).
    known: FxHashMap<Key, Vec<Op>>,
    /// Keys added in each open scope, removed when it closes.
    scopes: Vec<Vec<Key>>,
    dom: &'a mut DominanceInfo,
    to_erase: Vec<Op>,
    /// Whether an op was replaced or erased.
    changed: bool,
}

impl Walk<'_> {
    fn open(&mut self) {
        self.scopes.push(vec![]);
    }
    fn close(&mut self) {
        for k in self.scopes.pop().unwrap_or_default().into_iter().rev() {
            if let Some(v) = self.known.get_mut(&k) {
                v.pop();
                if v.is_empty() {
                    self.known.remove(&k);
                }
            }
        }
    }
    fn lookup(&self, k: &Key) -> Option<Op> {
        self.known.get(k).and_then(|v| v.last().copied())
    }
    fn insert(&mut self, k: Key, op: Op) {
        self.known.entry(k.clone()).or_default().push(op);
        if let Some(s) = self.scopes.last_mut() {
            s.push(k);
        }
    }
    /// Whether an op between `from` and `to` (same block) may write
    /// memory: anything but effect-free ops, reads and allocations.
    fn write_between(ctx: &Context, from: Op, to: Op) -> bool {
        let mut cur = ctx.next_op(from);
        while let Some(o) = cur {
            if o == to {
                return false;
            }
            let t = ctx.traits_of(o);
            if !(t.pure || t.dead_if_unused) {
                return true;
            }
            cur = ctx.next_op(o);
        }
        false
    }
    fn replace(&mut self, ctx: &mut Context, op: Op, existing: Op, ssa_dominance: bool) {
        self.changed = true;
        let pairs: Vec<(Value, Value)> = ctx
            .results(op)
            .iter()
            .copied()
            .zip(ctx.results(existing).iter().copied())
            .collect();
        if ssa_dominance {
            for (old, new) in pairs {
                ctx.replace_all_uses_with(old, new);
            }
            self.to_erase.push(op);
        } else {
            // In a graph region a user may come first: only users not
            // yet visited (not in the table) switch over.
            let visited: Vec<Op> = self.known.values().flatten().copied().collect();
            for (old, new) in pairs {
                ctx.replace_uses_if(old, new, |_, u| !visited.contains(&u.op));
            }
            if ctx.results(op).iter().all(|&r| !ctx.has_uses(r)) {
                self.to_erase.push(op);
            }
        }
        let unknown = ctx.unknown_loc();
        if ctx.op_loc(existing) == unknown && ctx.op_loc(op) != unknown {
            ctx.op_mut(existing).loc = ctx.op_loc(op);
        }
    }

    /// Whether `op` was replaced or found dead (then its regions are not
    /// visited).
    fn simplify(&mut self, ctx: &mut Context, op: Op, ssa_dominance: bool) -> bool {
        let t = ctx.traits_of(op);
        if t.is_terminator {
            return false;
        }
        if is_op_trivially_dead(ctx, op) {
            self.to_erase.push(op);
            self.changed = true;
            return true;
        }
        if !ctx.regions_of(op).is_empty() {
            return false;
        }
        if !t.pure {
            if !(self.llvm15 && t.read_only) {
                return false;
            }
            let k = key(ctx, op);
            if let Some(existing) = self.lookup(&k) {
                if ctx.parent_block(existing) == ctx.parent_block(op)
                    && !Self::write_between(ctx, existing, op)
                {
                    self.replace(ctx, op, existing, ssa_dominance);
                    return true;
                }
            }
            self.insert(k, op);
            return false;
        }
        let k = key(ctx, op);
        if let Some(existing) = self.lookup(&k) {
            self.replace(ctx, op, existing, ssa_dominance);
            return true;
        }
        self.insert(k, op);
        false
    }

    fn block(&mut self, ctx: &mut Context, b: Block, ssa_dominance: bool) {
        let mut cur = ctx.first_op(b);
        while let Some(op) = cur {
            cur = ctx.next_op(op);
            if self.simplify(ctx, op, ssa_dominance) {
                continue;
            }
            let regions = ctx.regions_of(op).to_vec();
            if regions.is_empty() {
                continue;
            }
            let isolated =
                ctx.traits_of(op).isolated_from_above || !ctx.is_registered(ctx.op_name(op));
            if isolated {
                let outer_known = std::mem::take(&mut self.known);
                let outer_scopes = std::mem::replace(&mut self.scopes, vec![vec![]]);
                for r in regions {
                    self.region(ctx, r);
                }
                self.known = outer_known;
                self.scopes = outer_scopes;
                continue;
            }
            for r in regions {
                self.region(ctx, r);
            }
        }
    }

    fn region(&mut self, ctx: &mut Context, r: Region) {
        let blocks = ctx.region_blocks(r).to_vec();
        let Some(&entry) = blocks.first() else { return };
        // Graph regions (a module body) have no SSA dominance.
        let ssa_dominance = !ctx
            .region_parent(r)
            .is_some_and(|p| ctx.traits_of(p).graph_region);
        if blocks.len() == 1 {
            self.open();
            self.block(ctx, entry, ssa_dominance);
            self.close();
            return;
        }
        if !ssa_dominance {
            return;
        }
        let order = self.dom.dominator_tree_preorder(ctx, r);
        let base = self.scopes.len();
        for (b, depth) in order {
            while self.scopes.len() > base + depth as usize {
                self.close();
            }
            self.open();
            self.block(ctx, b, ssa_dominance);
        }
        while self.scopes.len() > base {
            self.close();
        }
    }
}
