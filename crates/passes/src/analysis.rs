//! The analysis manager, as MLIR's `AnalysisManager`: a pass asks for an
//! analysis of an op ([`AnalysisManager::get`]) and gets the one computed
//! before if nothing made it stale, so passes in a pipeline share
//! dominance, liveness and the op order index instead of each computing
//! its own.
//!
//! After a pass runs on an op, the pass runner ([`crate::run_entry`])
//! drops the analyses the pass did not declare preserved
//! ([`crate::PassContext::mark_all_analyses_preserved`],
//! [`crate::PassContext::mark_analysis_preserved`], as MLIR's
//! `markAllAnalysesPreserved` / `markAnalysesPreserved<A>`) of that op,
//! of the ops nested in it and of the ops around it (their IR holds the
//! op's). An analysis that follows the IR by itself says so in
//! [`Analysis::is_invalidated`] (MLIR's hook of the same name): the op
//! order index, which knows from each block's change counter when its
//! numbering is stale, is never dropped.
//!
//! Analyses are keyed by op handle, so a manager serves one `Context`.

use mlir_async_ir::dominance::DominanceInfo;
use mlir_async_ir::fxhash::{FxHashMap, FxHashSet};
use mlir_async_ir::liveness::Liveness;
use mlir_async_ir::order::OpOrder;
use mlir_async_ir::{Context, Op};
use std::any::{Any, TypeId};

/// An analysis of an op, as the manager computes and caches it.
pub trait Analysis: Any {
    /// Computes the analysis of `op` (MLIR's analysis constructor).
    fn compute(ctx: &Context, op: Op) -> Self
    where
        Self: Sized;

    /// Whether the analysis is stale after a pass that preserved
    /// `preserved`: unless it is among them, by default.
    fn is_invalidated(&self, preserved: &PreservedAnalyses) -> bool {
        !preserved.is_preserved_id(TypeId::of::<Self>())
    }
}

/// Unlike MLIR's, it numbers a block's ops once and never again: a pass
/// that inserts ops into a block it asked about must not declare it
/// preserved (one that only erases ops, as `cse`, may).
impl Analysis for DominanceInfo {
    /// Dominator trees are built per region when first asked.
    fn compute(_: &Context, _: Op) -> Self {
        DominanceInfo::new()
    }
}

impl Analysis for Liveness {
    fn compute(ctx: &Context, op: Op) -> Self {
        Liveness::new(ctx, op)
    }
}

impl Analysis for OpOrder {
    /// Blocks are numbered when first asked.
    fn compute(_: &Context, _: Op) -> Self {
        OpOrder::new()
    }
    /// Renumbers a block when its change counter moved: right whatever a
    /// pass did.
    fn is_invalidated(&self, _: &PreservedAnalyses) -> bool {
        false
    }
}

/// What a pass declared it left intact (MLIR's `PreservedAnalyses`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreservedAnalyses {
    all: bool,
    kinds: Vec<TypeId>,
}

impl PreservedAnalyses {
    /// Nothing preserved: what a pass that says nothing leaves.
    pub fn none() -> Self {
        Self::default()
    }
    /// Everything preserved: the pass changed nothing an analysis reads.
    pub fn all() -> Self {
        PreservedAnalyses {
            all: true,
            kinds: vec![],
        }
    }
    pub fn preserve_all(&mut self) {
        self.all = true;
    }
    pub fn preserve<A: Analysis>(&mut self) {
        let id = TypeId::of::<A>();
        if !self.kinds.contains(&id) {
            self.kinds.push(id);
        }
    }
    pub fn is_all(&self) -> bool {
        self.all
    }
    pub fn is_none(&self) -> bool {
        !self.all && self.kinds.is_empty()
    }
    pub fn is_preserved<A: Analysis>(&self) -> bool {
        self.is_preserved_id(TypeId::of::<A>())
    }
    pub fn is_preserved_id(&self, id: TypeId) -> bool {
        self.all || self.kinds.contains(&id)
    }
}

/// The analyses of one op, by type: a pass asks for one or two, so a
/// list beats a map.
type Entries = Vec<(TypeId, Box<dyn Analysis>)>;

/// Computed analyses by op (MLIR's `AnalysisManager`); see the module
/// documentation.
#[derive(Default)]
pub struct AnalysisManager {
    cache: FxHashMap<Op, Entries>,
}

impl AnalysisManager {
    pub fn new() -> Self {
        Self::default()
    }

    /// The analysis `A` of `op`: the cached one, or one computed now and
    /// cached (MLIR's `getAnalysis`). It describes the IR as it was when
    /// computed: a pass that changes what it reads must not trust it
    /// after the change.
    pub fn get<A: Analysis>(&mut self, ctx: &Context, op: Op) -> &mut A {
        let id = TypeId::of::<A>();
        let entries = self.cache.entry(op).or_default();
        let i = match entries.iter().position(|e| e.0 == id) {
            Some(i) => i,
            None => {
                entries.push((id, Box::new(A::compute(ctx, op))));
                entries.len() - 1
            }
        };
        let any: &mut dyn Any = entries[i].1.as_mut();
        any.downcast_mut::<A>()
            .expect("entries are keyed by their analysis's type")
    }

    /// The analysis `A` of `op` if it is cached (MLIR's
    /// `getCachedAnalysis`).
    pub fn cached<A: Analysis>(&mut self, op: Op) -> Option<&mut A> {
        let id = TypeId::of::<A>();
        let entry = self.cache.get_mut(&op)?.iter_mut().find(|e| e.0 == id)?;
        let any: &mut dyn Any = entry.1.as_mut();
        any.downcast_mut::<A>()
    }

    /// Whether the analysis `A` of `op` is cached.
    pub fn is_cached<A: Analysis>(&self, op: Op) -> bool {
        let id = TypeId::of::<A>();
        self.cache
            .get(&op)
            .is_some_and(|es| es.iter().any(|e| e.0 == id))
    }

    /// Drops every analysis.
    pub fn clear(&mut self) {
        self.cache.clear();
    }

    /// After a pass ran on `op` and preserved `preserved`: drops what may
    /// be stale among the analyses of `op`, of the ops nested in it and of
    /// the ops around it.
    pub fn invalidate(&mut self, ctx: &Context, op: Op, preserved: &PreservedAnalyses) {
        self.invalidate_op_and_ancestors(ctx, op, preserved);
        self.invalidate_nested(ctx, &[(op, preserved.clone())]);
    }

    /// The first half of [`AnalysisManager::invalidate`]: the analyses of
    /// `op` and of the ops around it, without looking at the rest of the
    /// cache. The pass runner does this after each op a pass ran on, and
    /// the nested half once for all of them
    /// ([`AnalysisManager::invalidate_nested`]): a pass run on every
    /// function of a large module must not scan the cache per function.
    pub fn invalidate_op_and_ancestors(
        &mut self,
        ctx: &Context,
        op: Op,
        preserved: &PreservedAnalyses,
    ) {
        if preserved.is_all() || self.cache.is_empty() {
            return;
        }
        let mut cur = Some(op);
        while let Some(o) = cur {
            self.invalidate_entries(o, preserved);
            cur = ctx.parent_op(o);
        }
    }

    /// The second half of [`AnalysisManager::invalidate`], for the ops a
    /// pass ran on, each with what it preserved there: the analyses of
    /// the ops nested in them (and of erased ops).
    pub fn invalidate_nested(&mut self, ctx: &Context, runs: &[(Op, PreservedAnalyses)]) {
        if self.cache.is_empty() {
            return;
        }
        let roots: FxHashMap<Op, &PreservedAnalyses> = runs
            .iter()
            .filter(|(_, p)| !p.is_all())
            .map(|(o, p)| (*o, p))
            .collect();
        if roots.is_empty() {
            return;
        }
        let mut gone: FxHashSet<Op> = FxHashSet::default();
        for (&op, entries) in self.cache.iter_mut() {
            if ctx.is_erased(op) {
                gone.insert(op);
                continue;
            }
            let mut cur = ctx.parent_op(op);
            while let Some(o) = cur {
                if let Some(p) = roots.get(&o) {
                    entries.retain(|e| !e.1.is_invalidated(p));
                }
                cur = ctx.parent_op(o);
            }
            if entries.is_empty() {
                gone.insert(op);
            }
        }
        self.cache.retain(|o, _| !gone.contains(o));
    }

    fn invalidate_entries(&mut self, op: Op, preserved: &PreservedAnalyses) {
        if let Some(entries) = self.cache.get_mut(&op) {
            entries.retain(|e| !e.1.is_invalidated(preserved));
            if entries.is_empty() {
                self.cache.remove(&op);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Analysis, AnalysisManager, PreservedAnalyses};
    use crate::{make_pass, run_entry, Pass, PassContext, PipelineEntry};
    use mlir_async_dialects::Registry;
    use mlir_async_ir::dominance::DominanceInfo;
    use mlir_async_ir::order::OpOrder;
    use mlir_async_ir::{Context, IrError, Op};
    use mlir_async_syntax::{parse_source, Edition};
    use std::cell::Cell;

    thread_local! {
        static COMPUTED: Cell<u32> = const { Cell::new(0) };
    }

    /// An analysis that counts how often it is computed, and numbers
    /// each computation.
    struct Counted(u32);

    impl Analysis for Counted {
        fn compute(_: &Context, _: Op) -> Self {
            COMPUTED.with(|c| {
                c.set(c.get() + 1);
                Counted(c.get())
            })
        }
    }

    fn computed() -> u32 {
        COMPUTED.with(Cell::get)
    }

    /// A pass that asks for [`Counted`] on the op it runs on and declares
    /// `preserve` preserved.
    struct Asks {
        preserve: fn(&mut PassContext),
    }

    impl Pass for Asks {
        fn name(&self) -> &'static str {
            "test-asks"
        }
        fn display_name(&self) -> &'static str {
            "TestAsks"
        }
        fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
            pc.analysis::<Counted>(op);
            (self.preserve)(pc);
            Ok(())
        }
    }

    fn entry(preserve: fn(&mut PassContext), nesting: &[&str]) -> PipelineEntry {
        PipelineEntry {
            pass: Box::new(Asks { preserve }),
            nesting: nesting.iter().map(|s| s.to_string()).collect(),
        }
    }

    const MODULE: &str = "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  %1 = arith.addi %a, %a : i32\n  %2 = arith.muli %0, %1 : i32\n  return %2 : i32\n}\nfunc.func @g() {\n  return\n}\n";

    fn parse(ctx: &mut Context, reg: &Registry) -> (Op, Vec<Op>) {
        let parsed = parse_source(ctx, reg, "t.mlir", MODULE, 0, false).expect("parses");
        let body = ctx.entry_block(ctx.regions_of(parsed.module)[0]).unwrap();
        let funcs = ctx.block_ops_iter(body).collect();
        (parsed.module, funcs)
    }

    #[test]
    fn cached_on_second_request() {
        let mut ctx = Context::new();
        let reg = Registry::new(&mut ctx);
        let (module, funcs) = parse(&mut ctx, &reg);
        let mut am = AnalysisManager::new();
        let before = computed();
        let first = am.get::<Counted>(&ctx, module).0;
        assert_eq!(am.get::<Counted>(&ctx, module).0, first);
        assert_eq!(computed(), before + 1);
        assert!(am.cached::<Counted>(module).is_some());
        // Another op has its own.
        assert!(am.cached::<Counted>(funcs[0]).is_none());
        assert_ne!(am.get::<Counted>(&ctx, funcs[0]).0, first);
        assert_eq!(computed(), before + 2);
    }

    #[test]
    fn dropped_after_a_pass_that_does_not_preserve_it() {
        let mut ctx = Context::new();
        let reg = Registry::new(&mut ctx);
        let (module, _) = parse(&mut ctx, &reg);
        let mut am = AnalysisManager::new();
        let mut pc = PassContext::new(&mut ctx, &reg, Edition::V15, &mut am);
        run_entry(&mut pc, &entry(|_| {}, &[]), module).unwrap();
        assert!(!pc.analyses.is_cached::<Counted>(module));
        // Preserving another analysis is not preserving this one.
        let e = entry(|pc| pc.mark_analysis_preserved::<DominanceInfo>(), &[]);
        run_entry(&mut pc, &e, module).unwrap();
        assert!(!pc.analyses.is_cached::<Counted>(module));
    }

    #[test]
    fn kept_when_preserved() {
        let mut ctx = Context::new();
        let reg = Registry::new(&mut ctx);
        let (module, _) = parse(&mut ctx, &reg);
        let mut am = AnalysisManager::new();
        let mut pc = PassContext::new(&mut ctx, &reg, Edition::V15, &mut am);
        run_entry(
            &mut pc,
            &entry(|pc| pc.mark_all_analyses_preserved(), &[]),
            module,
        )
        .unwrap();
        let first = pc.analyses.cached::<Counted>(module).map(|c| c.0);
        assert!(first.is_some());
        let e = entry(|pc| pc.mark_analysis_preserved::<Counted>(), &[]);
        run_entry(&mut pc, &e, module).unwrap();
        assert_eq!(pc.analyses.cached::<Counted>(module).map(|c| c.0), first);
    }

    #[test]
    fn a_pass_on_functions_drops_what_holds_them_and_keeps_the_rest() {
        let mut ctx = Context::new();
        let reg = Registry::new(&mut ctx);
        let (module, funcs) = parse(&mut ctx, &reg);
        let mut am = AnalysisManager::new();
        // One analysis per function, each kept by the pass that made it.
        let mut pc = PassContext::new(&mut ctx, &reg, Edition::V15, &mut am);
        let keep = entry(|pc| pc.mark_all_analyses_preserved(), &["func.func"]);
        run_entry(&mut pc, &keep, module).unwrap();
        assert!(funcs.iter().all(|&f| pc.analyses.is_cached::<Counted>(f)));
        // A module analysis, then a pass on the functions that keeps
        // nothing: the functions' go, and so does the module's, whose IR
        // holds theirs.
        pc.analyses.get::<Counted>(pc.ctx, module);
        let drop = entry(|_| {}, &["func.func"]);
        run_entry(&mut pc, &drop, module).unwrap();
        assert!(!pc.analyses.is_cached::<Counted>(module));
        // Each function's analysis was remade by the run, then dropped.
        assert!(funcs.iter().all(|&f| !pc.analyses.is_cached::<Counted>(f)));
        // A function analysis survives a pass on another function, and
        // goes with a pass on the module.
        let ctx = &*pc.ctx;
        pc.analyses.get::<Counted>(ctx, funcs[0]);
        pc.analyses.get::<Counted>(ctx, funcs[1]);
        pc.analyses
            .invalidate(ctx, funcs[1], &PreservedAnalyses::none());
        assert!(pc.analyses.is_cached::<Counted>(funcs[0]));
        assert!(!pc.analyses.is_cached::<Counted>(funcs[1]));
        pc.analyses
            .invalidate(ctx, module, &PreservedAnalyses::none());
        assert!(!pc.analyses.is_cached::<Counted>(funcs[0]));
    }

    #[test]
    fn the_op_order_index_outlives_any_pass() {
        let mut ctx = Context::new();
        let reg = Registry::new(&mut ctx);
        let (module, _) = parse(&mut ctx, &reg);
        let mut am = AnalysisManager::new();
        am.get::<OpOrder>(&ctx, module);
        am.invalidate(&ctx, module, &PreservedAnalyses::none());
        assert!(am.is_cached::<OpOrder>(module));
    }

    #[test]
    fn cse_keeps_dominance_and_reuses_it() {
        let mut ctx = Context::new();
        let reg = Registry::new(&mut ctx);
        let (module, funcs) = parse(&mut ctx, &reg);
        let mut am = AnalysisManager::new();
        let mut pc = PassContext::new(&mut ctx, &reg, Edition::V15, &mut am);
        let (pass, _) = make_pass("cse", "").unwrap();
        let cse = PipelineEntry {
            pass,
            nesting: vec!["func.func".into()],
        };
        // The first run merges the two additions; dominance stays.
        run_entry(&mut pc, &cse, module).unwrap();
        let body = pc.ctx.entry_block(pc.ctx.regions_of(funcs[0])[0]).unwrap();
        assert_eq!(pc.ctx.block_ops_iter(body).count(), 3);
        assert!(funcs
            .iter()
            .all(|&f| pc.analyses.is_cached::<DominanceInfo>(f)));
        // The second run works with the same dominator trees.
        let kept = pc.analyses.cached::<DominanceInfo>(funcs[0]).unwrap() as *const DominanceInfo;
        run_entry(&mut pc, &cse, module).unwrap();
        let after = pc.analyses.cached::<DominanceInfo>(funcs[0]).unwrap() as *const DominanceInfo;
        assert_eq!(kept, after);
        // Canonicalization keeps nothing.
        let (pass, _) = make_pass("canonicalize", "").unwrap();
        let canon = PipelineEntry {
            pass,
            nesting: vec![],
        };
        run_entry(&mut pc, &canon, module).unwrap();
        assert!(!pc.analyses.is_cached::<DominanceInfo>(funcs[0]));
    }

    #[test]
    fn reference_counting_passes_share_the_op_order() {
        let mut ctx = Context::new();
        let reg = Registry::new(&mut ctx);
        let (module, _) = parse(&mut ctx, &reg);
        let mut am = AnalysisManager::new();
        let mut pc = PassContext::new(&mut ctx, &reg, Edition::V15, &mut am);
        for name in [
            "async-runtime-ref-counting",
            "async-runtime-ref-counting-opt",
        ] {
            let (pass, _) = make_pass(name, "").unwrap();
            let e = PipelineEntry {
                pass,
                nesting: vec![],
            };
            run_entry(&mut pc, &e, module).unwrap();
            assert!(pc.analyses.is_cached::<OpOrder>(module));
        }
    }
}
