//! Rewrite patterns and the order they are tried in, as MLIR's
//! `RewritePattern`, `RewritePatternSet`, `FrozenRewritePatternSet` and
//! `PatternApplicator`.
//!
//! Order is part of the output: for one op, patterns are tried from the
//! highest benefit down, and among equal benefits in the order they were
//! added (MLIR's stable sort); op-specific and any-op patterns are
//! interleaved by benefit, op-specific first on a tie.

use crate::rewriter::{RewriteError, Rewriter};
use mlir_async_ir::entity::SecondaryMap;
use mlir_async_ir::{Context, Op, Symbol};

/// How much a pattern is worth relative to others on the same op.
pub type Benefit = u16;

/// A local rewrite rooted at one op.
pub trait RewritePattern: Send + Sync {
    /// The op name this pattern matches (`"arith.addi"`), or `None` for a
    /// pattern that looks at every op.
    fn root(&self) -> Option<&'static str>;
    fn benefit(&self) -> Benefit {
        1
    }
    /// A name for debugging and for enabling or disabling the pattern.
    fn name(&self) -> &'static str;
    /// Rewrites `op` if it matches: `Ok(true)` when the IR changed,
    /// `Ok(false)` when the pattern does not apply (and nothing changed).
    /// The rewriter's insertion point is set before `op`.
    fn match_and_rewrite(&self, op: Op, rw: &mut Rewriter) -> Result<bool, RewriteError>;
}

/// The signature of a pattern written as a plain function.
pub type RewriteFn = fn(Op, &mut Rewriter) -> Result<bool, RewriteError>;

/// A pattern that is a function: most canonicalizations need no state,
/// and a table of these reads like MLIR's `results.add<...>` lists.
pub struct FnPattern {
    pub root: Option<&'static str>,
    pub name: &'static str,
    pub benefit: Benefit,
    pub f: RewriteFn,
}

impl FnPattern {
    /// A benefit-1 pattern on ops named `root`.
    pub const fn new(root: &'static str, name: &'static str, f: RewriteFn) -> Self {
        FnPattern {
            root: Some(root),
            name,
            benefit: 1,
            f,
        }
    }
}

impl RewritePattern for FnPattern {
    fn root(&self) -> Option<&'static str> {
        self.root
    }
    fn benefit(&self) -> Benefit {
        self.benefit
    }
    fn name(&self) -> &'static str {
        self.name
    }
    fn match_and_rewrite(&self, op: Op, rw: &mut Rewriter) -> Result<bool, RewriteError> {
        (self.f)(op, rw)
    }
}

/// Patterns being collected (MLIR's `RewritePatternSet`).
#[derive(Default)]
pub struct PatternSet {
    patterns: Vec<Box<dyn RewritePattern>>,
}

impl PatternSet {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn add(&mut self, p: impl RewritePattern + 'static) -> &mut Self {
        self.patterns.push(Box::new(p));
        self
    }
    pub fn add_boxed(&mut self, p: Box<dyn RewritePattern>) -> &mut Self {
        self.patterns.push(p);
        self
    }
    pub fn len(&self) -> usize {
        self.patterns.len()
    }
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }
    /// Indexes the patterns by root op for one context (the root names are
    /// interned there), dropping those `keep` rejects.
    pub fn freeze(self, ctx: &mut Context) -> FrozenPatternSet {
        self.freeze_filtered(ctx, |_| true)
    }
    /// [`PatternSet::freeze`], keeping only the patterns `keep` accepts (by
    /// name: MLIR's `disable-patterns` / `enable-patterns`).
    pub fn freeze_filtered(
        self,
        ctx: &mut Context,
        keep: impl Fn(&str) -> bool,
    ) -> FrozenPatternSet {
        let patterns: Vec<_> = self
            .patterns
            .into_iter()
            .filter(|p| keep(p.name()))
            .collect();
        let mut by_root: SecondaryMap<Symbol, Vec<usize>> = SecondaryMap::default();
        let mut any = vec![];
        for (i, p) in patterns.iter().enumerate() {
            match p.root() {
                Some(name) => by_root.get_mut(ctx.sym(name)).push(i),
                None => any.push(i),
            }
        }
        let by_benefit = |list: &mut Vec<usize>| {
            list.sort_by_key(|&i| std::cmp::Reverse(patterns[i].benefit()));
        };
        for list in by_root.values_mut() {
            by_benefit(list);
        }
        by_benefit(&mut any);
        FrozenPatternSet {
            patterns,
            by_root,
            any,
        }
    }
}

/// Patterns indexed by root op and sorted by benefit, ready to apply.
pub struct FrozenPatternSet {
    patterns: Vec<Box<dyn RewritePattern>>,
    /// By the root's name (a table indexed by symbol: looked up for
    /// every op a driver visits).
    by_root: SecondaryMap<Symbol, Vec<usize>>,
    any: Vec<usize>,
}

impl FrozenPatternSet {
    /// An empty set: a driver with it only folds.
    pub fn empty() -> Self {
        FrozenPatternSet {
            patterns: vec![],
            by_root: SecondaryMap::default(),
            any: vec![],
        }
    }
    pub fn len(&self) -> usize {
        self.patterns.len()
    }
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }
    /// Whether some pattern could apply to `op` (one rooted at its name,
    /// or one for any op).
    pub fn has_patterns_for(&self, ctx: &Context, op: Op) -> bool {
        !self.any.is_empty() || !self.by_root.get(ctx.op_name(op)).is_empty()
    }
    /// Tries the patterns for `op` from the highest benefit down until one
    /// applies (MLIR's `PatternApplicator::matchAndRewrite`). Returns
    /// whether one did.
    pub fn match_and_rewrite(&self, op: Op, rw: &mut Rewriter) -> Result<bool, RewriteError> {
        let specific: &[usize] = self.by_root.get(rw.ctx.op_name(op));
        let (mut si, mut ai) = (0, 0);
        loop {
            let pick = match (specific.get(si), self.any.get(ai)) {
                (None, None) => return Ok(false),
                (Some(&s), None) => {
                    si += 1;
                    s
                }
                (None, Some(&a)) => {
                    ai += 1;
                    a
                }
                (Some(&s), Some(&a)) => {
                    if self.patterns[s].benefit() < self.patterns[a].benefit() {
                        ai += 1;
                        a
                    } else {
                        si += 1;
                        s
                    }
                }
            };
            rw.set_insertion_point(op);
            if self.patterns[pick].match_and_rewrite(op, rw)? {
                return Ok(true);
            }
        }
    }
}
