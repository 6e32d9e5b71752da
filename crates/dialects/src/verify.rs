//! The verifier: structure (terminators, successors, isolation), every
//! registered op's own rules, then SSA dominance, in MLIR's order.
//!
//! One walk does both: as it goes through the ops for their rules, it
//! finds nearly every operand defined in a block it is inside of, by an
//! op it is done with (or as the block's argument), and such an operand
//! dominates its use. The others it puts aside, in the order the
//! dominance walk of MLIR meets them, and checks once the rules found
//! nothing: the first error is the one a rules walk and then a dominance
//! walk would report.

use crate::ods::{AttrClass, OperandKind, Shape, Structure, N};
use crate::{Arity, OpDef, Registry, VerifyHook};
use mlir_async_ir::dominance::DominanceInfo;
use mlir_async_ir::parallel;
use mlir_async_ir::*;
use mlir_async_syntax::edition::{generic_name, Edition};

struct Verifier<'a> {
    ctx: &'a Context,
    reg: &'a Registry,
    edition: Edition,
    /// The op whose body's ops are verified in parallel (the root of a
    /// `verify` call): they are functions, independent of each other
    /// but for symbol lookups, which only read.
    par_root: Option<Op>,
    /// Where the dominance checks riding along the walk are.
    walk: DomWalk,
}

/// An op without a definition (unregistered) declares nothing.
const UNDECLARED: Structure = OpDef::new("").structure;

impl<'a> Verifier<'a> {
    /// A verifier of `top` and what is nested in it, `scope` being
    /// `top`'s isolation scope.
    fn new(
        ctx: &'a Context,
        reg: &'a Registry,
        edition: Edition,
        par_root: Option<Op>,
        top: Op,
        scope: Option<Op>,
    ) -> Self {
        Verifier {
            ctx,
            reg,
            edition,
            par_root,
            walk: DomWalk::new(ctx, top, scope),
        }
    }

    /// Is `b` a block whose ops are checked on several threads?
    fn parallel_block(&self, b: Block) -> bool {
        self.par_root.is_some()
            && self.ctx.block_parent_op(b) == self.par_root
            && self.ctx.first_op(b) != self.ctx.last_op(b)
    }

    fn op_error(&self, op: Op, msg: impl std::fmt::Display) -> IrError {
        let name = generic_name(self.ctx.name(op), self.edition);
        let msg = format!("'{name}' op {msg}");
        // 13's ODS checks attributes in the op adaptor, which reports at
        // the op's location, not on the op: no "see current operation".
        if self.edition == Edition::V13 && is_ods_attribute_message(&msg) {
            return IrError::new(self.ctx.op_loc(op), msg);
        }
        IrError::on_op(self.ctx, op, msg)
    }

    /// The op's definition, found by the index of its name's symbol.
    fn def(&self, op: Op) -> Option<&'a OpDef> {
        self.reg.get_by_symbol(self.ctx.op(op).name)
    }

    fn verify_op(&mut self, op: Op) -> Result<(), IrError> {
        if self.accepts_quickly(op) {
            return Ok(());
        }
        self.verify_op_rule_by_rule(op)
    }

    /// Whether `op` passes every rule by its [`QuickCheck`]: the rules
    /// found nothing to say of nearly every op, and asking each of them
    /// cost more than the op's own verifier. `false` is no verdict: the
    /// op then goes through every rule, which finds the first error.
    #[inline]
    fn accepts_quickly(&self, op: Op) -> bool {
        let ctx = self.ctx;
        let data = ctx.op(op);
        let Some(q) = self.reg.quick_check(data.name) else {
            return false;
        };
        let Some(traits) = ctx.op_traits(data.name) else {
            return false;
        };
        q.counts_fit(data)
            && !(traits.is_terminator && data.next_op().is_some())
            && (q.counts_only || q.attrs_and_kinds_fit(ctx, op, self.edition))
            && q.hook.is_none_or(|h| h.run(ctx, op, self.edition).is_ok())
    }

    #[inline(never)]
    fn verify_op_rule_by_rule(&mut self, op: Op) -> Result<(), IrError> {
        let ctx = self.ctx;
        let def = self.def(op);
        let st = def.map_or(&UNDECLARED, |d| &d.structure);
        let traits = ctx.traits_of(op);
        if let Some(shape) = &st.shape {
            check_shape(ctx, op, shape, st, self.edition).map_err(|m| self.op_error(op, m))?;
        }
        if let Some(inv) = def.and_then(|d| d.invariants.as_ref()) {
            inv.check(ctx, op).map_err(|m| self.op_error(op, m))?;
        }
        // ODS's trait order: the parent before the terminator's place,
        // except `scf.yield` in 13 and 14 (its `ParentOneOf` came last).
        if self.edition == Edition::V15 || !st.parent_checked_last_before_15 {
            self.check_parent(op, st)?;
            check_terminator_last(ctx, op, traits).map_err(|m| self.op_error(op, m))?;
        } else {
            check_terminator_last(ctx, op, traits).map_err(|m| self.op_error(op, m))?;
            self.check_parent(op, st)?;
        }
        check_single_block_regions(ctx, op, st).map_err(|m| self.op_error(op, m))?;
        // `NoRegionArguments`: after SingleBlock in `memref.alloca_scope`'s
        // trait list, before the SymbolTable and SingleBlock traits of
        // `builtin.module` (checked below).
        if st.no_region_arguments
            && ctx.regions_of(op).iter().any(|&r| {
                ctx.entry_block(r)
                    .is_some_and(|b| !ctx.block_args(b).is_empty())
            })
        {
            return Err(self.op_error(op, "region should have no arguments"));
        }
        // A symbol table (a module) holds one block: 15 says so by
        // `builtin.module`'s SingleBlock trait and its SizedRegion<1>
        // `bodyRegion`, 13 and 14 by the SymbolTable trait, all before the
        // ops inside. A module of several blocks is what lowering `scf` at
        // module level leaves.
        if traits.symbol_table {
            if let Some(&r) = ctx.regions_of(op).first() {
                let n = ctx.region_blocks(r).len();
                let msg = match (self.edition, n) {
                    (_, 1) => None,
                    (Edition::V15, 0) => Some(
                        "region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks",
                    ),
                    (Edition::V15, _) => Some("expects region #0 to have 0 or 1 blocks"),
                    _ => Some("Operations with a 'SymbolTable' must have exactly one block"),
                };
                if let Some(m) = msg {
                    return Err(self.op_error(op, m));
                }
            }
        }
        // 15 checks the implicit terminator once the regions verified.
        if self.edition != Edition::V15 {
            self.check_implicit_terminator(op, st)?;
        }
        if let Some(hook) = def.and_then(|d| d.verify) {
            hook.run(ctx, op, self.edition).map_err(|m| {
                let (m, note) = crate::split_note(&m);
                let e = match m.strip_prefix(crate::PLAIN_ERROR) {
                    Some(plain) => IrError::on_op(ctx, op, plain),
                    None => self.op_error(op, m),
                };
                match note {
                    Some((at, note)) => e.with_note(ctx.op_loc(at), note),
                    None => e,
                }
            })?;
        }
        if let Some(range) = st.successor_operands {
            check_successor_operands(ctx, op, range)?;
        }
        let registered = ctx.is_registered(ctx.op(op).name);
        if !ctx.regions_of(op).is_empty() {
            // The blocks inside are in `op`'s scope if it is isolated,
            // else in the scope `op` is in.
            let outer = (self.walk.scope, self.walk.graph);
            if traits.isolated_from_above {
                self.walk.scope = Some(op);
            }
            self.walk.graph = traits.graph_region;
            let inside = self.verify_regions(op, registered && !traits.no_terminator);
            (self.walk.scope, self.walk.graph) = outer;
            inside?;
        }
        if traits.symbol_table {
            self.verify_symbol_table(op)?;
        }
        if self.edition == Edition::V15 {
            self.check_implicit_terminator(op, st)?;
        }
        if !registered {
            self.verify_unknown_op(op)?;
        }
        Ok(())
    }

    fn verify_regions(&mut self, op: Op, needs_terminator: bool) -> Result<(), IrError> {
        let ctx = self.ctx;
        for &r in ctx.regions_of(op) {
            let Some(entry) = ctx.entry_block(r) else {
                continue;
            };
            if !ctx.pred_ops(entry).is_empty() {
                return Err(IrError::new(
                    ctx.op_loc(op),
                    "entry block of region may not have predecessors",
                ));
            }
            for b in ctx.region_blocks(r) {
                self.verify_block(b, needs_terminator)?;
            }
        }
        Ok(())
    }

    /// ODS's `HasParent` / `ParentOneOf`, the parents named as the
    /// generation names them.
    #[inline]
    fn check_parent(&self, op: Op, st: &Structure) -> Result<(), IrError> {
        if st.parents.is_empty() {
            return Ok(());
        }
        self.check_parent_of(op, st)
    }

    #[inline(never)]
    fn check_parent_of(&self, op: Op, st: &Structure) -> Result<(), IrError> {
        let ctx = self.ctx;
        let parents = st.parents;
        let parent = ctx.parent_op(op).map(|p| ctx.name(p));
        if parent.is_some_and(|p| parents.contains(&p)) {
            return Ok(());
        }
        let names: Vec<String> = parents
            .iter()
            .map(|p| generic_name(p, self.edition))
            .collect();
        let m = match names.as_slice() {
            [one] => format!("expects parent op '{one}'"),
            _ => format!("expects parent op to be one of '{}'", names.join(", ")),
        };
        Err(self.op_error(op, m))
    }

    /// `SingleBlockImplicitTerminator<T>`: the block of each region ends
    /// with T.
    #[inline]
    fn check_implicit_terminator(&self, op: Op, st: &Structure) -> Result<(), IrError> {
        match st.implicit_terminator {
            None => Ok(()),
            Some(want) => self.check_implicit_terminator_is(op, want),
        }
    }

    #[inline(never)]
    fn check_implicit_terminator_is(&self, op: Op, want: &'static str) -> Result<(), IrError> {
        let ctx = self.ctx;
        for &r in ctx.regions_of(op) {
            let Some(b) = ctx.entry_block(r) else {
                continue;
            };
            let Some(last) = ctx.last_op(b) else {
                continue;
            };
            if ctx.name(last) == want {
                continue;
            }
            let want = generic_name(want, self.edition);
            let found = generic_name(ctx.name(last), self.edition);
            return Err(self
                .op_error(
                    op,
                    format!("expects regions to end with '{want}', found '{found}'"),
                )
                .with_note(
                    ctx.op_loc(op),
                    format!("in custom textual format, the absence of terminator implies '{want}'"),
                ));
        }
        Ok(())
    }

    /// An op the registry does not know, in a dialect it knows: an error
    /// even with `-allow-unregistered-dialect` (which is about dialects),
    /// except in `llvm`, which allows unknown ops. Checked after the op's
    /// regions, as MLIR's verifier does.
    fn verify_unknown_op(&self, op: Op) -> Result<(), IrError> {
        let name = self.ctx.name(op);
        match name.split_once('.') {
            Some((d, _)) if d != "llvm" && crate::COMPLETE_DIALECTS.contains(&d) => Err(IrError::on_op(
                self.ctx,
                op,
                format!(
                    "unregistered operation '{name}' found in dialect ('{d}') that does not allow unknown operations"
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Two symbols of one name in one table make every reference to it
    /// ambiguous (and a pass that looks one up then emits a module
    /// `mlir-opt` rejects). As MLIR's `SymbolTable` region trait, checked
    /// once the nested ops verified.
    fn verify_symbol_table(&self, op: Op) -> Result<(), IrError> {
        let ctx = self.ctx;
        let mut first: mlir_async_ir::fxhash::FxHashMap<&str, Op> = Default::default();
        for &r in ctx.regions_of(op) {
            for b in ctx.region_blocks(r) {
                for o in ctx.block_ops_iter(b) {
                    let Some(name) = ctx.symbol_name(o) else {
                        continue;
                    };
                    if let Some(&prev) = first.get(name) {
                        return Err(IrError::on_op(
                            ctx,
                            o,
                            format!("redefinition of symbol named '{name}'"),
                        )
                        .with_note(ctx.op_loc(prev), "see existing symbol definition here"));
                    }
                    first.insert(name, o);
                }
            }
        }
        Ok(())
    }

    fn verify_block(&mut self, b: Block, needs_terminator: bool) -> Result<(), IrError> {
        let ctx = self.ctx;
        let code = scope_code(self.walk.scope);
        self.walk.block_scope[b.index()] = code;
        let Some(last) = ctx.last_op(b) else {
            if needs_terminator {
                // At the region's location (its op's), not on the op:
                // no op name, no note.
                let parent = ctx.block_parent_op(b).expect("block in an op");
                return Err(IrError::new(
                    ctx.op_loc(parent),
                    "empty block: expect at least a terminator",
                ));
            }
            return Ok(());
        };
        if self.parallel_block(b) {
            // The same first error as the loop below: a successor error
            // at op i comes before op i's own errors (checked by the
            // threads too: a scan of every op first was a serial pass of
            // cache misses over the whole module).
            let ops: Vec<Op> = ctx.block_ops_iter(b).collect();
            let (reg, edition) = (self.reg, self.edition);
            let top = ctx.block_parent_op(b).expect("a body block has a parent");
            let (scope, graph) = (self.walk.scope, self.walk.graph);
            if let Some((_, e)) = parallel::first_in_order(
                ops.len(),
                || {
                    let mut v = Verifier::new(ctx, reg, edition, None, top, scope);
                    v.walk.graph = graph;
                    v.walk.block_scope[b.index()] = code;
                    v
                },
                |v, i| {
                    let o = ops[i];
                    if i + 1 < ops.len() && ctx.op(o).num_successors() != 0 {
                        return Some(misplaced_successors(ctx, o));
                    }
                    // Each op (a function) is verified whole, its rules
                    // then its dominance, as mlir-opt verifies isolated
                    // ops: the first function with an error reports it,
                    // whatever its kind.
                    v.walk.deferred.clear();
                    v.walk.note_operands(ctx, o, b);
                    v.verify_op(o).and_then(|()| v.check_deferred()).err()
                },
            ) {
                return Err(e);
            }
        } else {
            self.walk.on_path[b.index()] = code;
            let ops = self.verify_ops_of(b, last);
            self.walk.on_path[b.index()] = UNVISITED;
            ops?;
        }
        let region = ctx.parent_region(b);
        for &s in ctx.successors(last) {
            if ctx.parent_region(s) != region {
                return Err(IrError::on_op(
                    ctx,
                    last,
                    "branching to block of a different region",
                ));
            }
        }
        if needs_terminator && !ctx.traits_of(last).is_terminator {
            // The op is printed into the message: 13 and 14 in its custom
            // form, 15 in the generic form (the diagnostic's own printing).
            let text = mlir_async_syntax::print_op_for_diagnostic(
                ctx,
                self.reg,
                last,
                self.edition,
                self.edition == Edition::V15,
            );
            return Err(IrError::on_op(
                ctx,
                last,
                format!("block with no terminator, has {text}"),
            ));
        }
        Ok(())
    }

    /// The ops of `b` (which ends with `last`), each with its operands
    /// noted for dominance before its nested ops'.
    fn verify_ops_of(&mut self, b: Block, last: Op) -> Result<(), IrError> {
        let ctx = self.ctx;
        for o in ctx.block_ops_iter(b) {
            if o == last {
                break;
            }
            if ctx.op(o).num_successors() != 0 {
                return Err(misplaced_successors(ctx, o));
            }
            self.walk.note_operands(ctx, o, b);
            self.verify_op(o)?;
            self.walk.done[o.index()] = true;
        }
        self.walk.note_operands(ctx, last, b);
        self.verify_op(last)?;
        self.walk.done[last.index()] = true;
        Ok(())
    }

    /// Checks the operands put aside by [`DomWalk::note_operands`], in
    /// the order they were met, once the rules found nothing.
    fn check_deferred(&mut self) -> Result<(), IrError> {
        let mut deferred = std::mem::take(&mut self.walk.deferred);
        let checked = deferred.iter().try_for_each(|d| self.check_operand(d));
        deferred.clear();
        self.walk.deferred = deferred;
        checked
    }

    /// Isolation, then dominance, for an operand the walk could not tell
    /// dominates (MLIR's messages).
    fn check_operand(&mut self, d: &Deferred) -> Result<(), IrError> {
        let ctx = self.ctx;
        let (op, i) = (d.user, d.index as usize);
        let v = ctx.operand(op, i);
        let def_block = ctx.value_block(v);
        // A value defined in the user's own block shares its isolation
        // scope and dominates iff its op comes first.
        if def_block == Some(d.block) {
            match ctx.value_def(v) {
                ValueDef::Result(def, _) => {
                    if d.graph || (def != op && self.walk.dom.value_dominates_use(ctx, v, op)) {
                        return Ok(());
                    }
                }
                ValueDef::BlockArg(..) => return Ok(()),
            }
        }
        let cached = def_block.map_or(UNVISITED, |b| self.walk.block_scope[b.index()]);
        let def_scope = if cached != UNVISITED {
            (cached != 1).then(|| Op::from_index(cached as usize - 2))
        } else {
            match ctx.value_def(v) {
                ValueDef::Result(def, _) => isolation_scope(ctx, def),
                ValueDef::BlockArg(b, _) => ctx
                    .block_parent_op(b)
                    .and_then(|o| ctx.ancestor(o, |c, x| c.traits_of(x).isolated_from_above)),
            }
        };
        if def_scope != d.scope {
            // On the user, with the isolated op in a note (MLIR's
            // `verifyIsIsolatedFromAbove`).
            let at = d.scope.unwrap_or(self.walk.top);
            return Err(self
                .op_error(op, "using value defined outside the region")
                .with_note(ctx.op_loc(at), "required by region isolation constraints"));
        }
        if !d.graph && !self.walk.dom.value_dominates_use(ctx, v, op) {
            return Err(IrError::on_op(
                ctx,
                op,
                format!("operand #{i} does not dominate this use"),
            )
            .with_note(
                match ctx.value_def(v) {
                    // mlir-opt points at the block's parent op.
                    ValueDef::BlockArg(b, _) => ctx
                        .block_parent_op(b)
                        .map(|p| ctx.op_loc(p))
                        .unwrap_or_else(|| ctx.unknown_loc()),
                    ValueDef::Result(..) => ctx.value_loc(v),
                },
                dominance_note(ctx, v, op),
            ));
        }
        Ok(())
    }
}

/// The isolated-from-above op enclosing `op` (not `op` itself).
fn isolation_scope(ctx: &Context, op: Op) -> Option<Op> {
    let p = ctx.parent_op(op)?;
    ctx.ancestor(p, |c, o| c.traits_of(o).isolated_from_above)
}

/// An isolation scope as the walk's tables keep it: 1 for none, else the
/// scope op's index + 2 (never `UNVISITED`).
fn scope_code(scope: Option<Op>) -> u32 {
    scope.map_or(1, |o| o.index() as u32 + 2)
}

/// What a branch forwards to each successor matches the successor's
/// arguments, in number and type (MLIR's `BranchOpInterface` verifier);
/// a lowering that changes the types of one but not the other is caught
/// here, as upstream catches it.
fn check_successor_operands(
    ctx: &Context,
    op: Op,
    range: crate::ods::SuccessorOperandsFn,
) -> Result<(), IrError> {
    for (i, &dest) in ctx.successors(op).iter().enumerate() {
        let r = range(ctx, op, i);
        let args = ctx.block_args(dest);
        if r.len() != args.len() {
            return Err(IrError::on_op(
                ctx,
                op,
                format!(
                    "branch has {} operands for successor #{i}, but target block has {}",
                    r.len(),
                    args.len()
                ),
            ));
        }
        for (k, idx) in r.enumerate() {
            if ctx.value_type(ctx.operand(op, idx)) != ctx.value_type(args[k]) {
                return Err(IrError::on_op(
                    ctx,
                    op,
                    format!("type mismatch for bb argument #{k} of successor #{i}"),
                ));
            }
        }
    }
    Ok(())
}

fn misplaced_successors(ctx: &Context, op: Op) -> IrError {
    IrError::on_op(
        ctx,
        op,
        "operation with block successors must terminate its parent block",
    )
}

/// How the verifier accepts an op whose definition declares no parents,
/// no regions, no successors and no operand segments (`arith.mulf`,
/// `memref.load`): when the op has no regions and no successors, every
/// rule but the counts, the required attributes, the operands' kinds, a
/// terminator's place and the op's own verifier has nothing to check.
/// Only ever a shortcut to "valid": an op it does not accept goes through
/// every rule in order, so errors are found and worded as before.
#[derive(Clone, Copy)]
pub(crate) struct QuickCheck {
    /// The operand and result counts the definition allows (inclusive).
    operands: (usize, usize),
    results: (usize, usize),
    /// The shape's attributes and operand kinds, ODS's required attributes.
    attrs: &'static [(&'static str, AttrClass)],
    operand_kinds: &'static [(usize, OperandKind)],
    required_attrs: &'static [&'static str],
    /// None of the three above: nothing to look at but counts.
    counts_only: bool,
    hook: Option<VerifyHook>,
}

impl QuickCheck {
    /// The quick check of `def`, if it declares nothing more than counts.
    pub(crate) fn of(def: &OpDef) -> Option<QuickCheck> {
        let st = &def.structure;
        if !st.parents.is_empty() {
            return None;
        }
        let mut q = QuickCheck {
            operands: (0, usize::MAX),
            results: (0, usize::MAX),
            attrs: &[],
            operand_kinds: &[],
            required_attrs: &[],
            counts_only: false,
            hook: def.verify,
        };
        if let Some(s) = &st.shape {
            if s.regions != 0 || s.successors != 0 || !s.entry.is_empty() {
                return None;
            }
            q.attrs = s.attrs;
            q.operand_kinds = s.operand_kinds;
            let range = |n: N| match n {
                N::Exactly(k) => (k, k),
                N::AtLeast(k) => (k, usize::MAX),
                N::AtMost(k) => (0, k),
            };
            q.operands = meet(q.operands, range(s.operands));
            q.results = meet(q.results, range(s.results));
        }
        if let Some(inv) = &def.invariants {
            let range = |a: Arity| match a {
                Arity::Exactly(k) => (k, k),
                Arity::AtLeast(k) => (k, usize::MAX),
                Arity::Any => (0, usize::MAX),
            };
            let fits_none = |a: Arity| range(a).0 == 0;
            if inv.operand_segments.is_some()
                || !fits_none(inv.regions)
                || !fits_none(inv.successors)
            {
                return None;
            }
            q.required_attrs = inv.required_attrs;
            q.operands = meet(q.operands, range(inv.operands));
            q.results = meet(q.results, range(inv.results));
        }
        q.counts_only =
            q.attrs.is_empty() && q.operand_kinds.is_empty() && q.required_attrs.is_empty();
        Some(q)
    }

    #[inline]
    fn counts_fit(&self, data: &OperationData) -> bool {
        let within = |n: usize, (lo, hi): (usize, usize)| lo <= n && n <= hi;
        data.num_regions() == 0
            && data.num_successors() == 0
            && within(data.num_operands(), self.operands)
            && within(data.num_results(), self.results)
    }

    /// The required attributes are there, of their classes, and the
    /// operands of their kinds (the counts fit).
    #[inline(never)]
    fn attrs_and_kinds_fit(&self, ctx: &Context, op: Op, edition: Edition) -> bool {
        check_attrs(ctx, op, self.attrs, edition).is_ok()
            && check_operand_kinds(ctx, op, self.operand_kinds).is_ok()
            && self
                .required_attrs
                .iter()
                .all(|name| ctx.get_attr(op, name).is_some())
    }
}

/// The counts two ranges both allow (empty if none: then no op fits).
fn meet(a: (usize, usize), b: (usize, usize)) -> (usize, usize) {
    (a.0.max(b.0), a.1.min(b.1))
}

/// A block the dominance walk has not entered yet (its scope is unknown).
/// Zero, so that a thread's table (sized for the whole IR) is allocated
/// zeroed and only mapped where the thread's functions are.
const UNVISITED: u32 = 0;

/// The dominance checks riding along the rules' walk.
struct DomWalk {
    dom: DominanceInfo,
    /// Isolation scope of each entered block, by block: `UNVISITED`, else
    /// its [`scope_code`].
    block_scope: Vec<u32>,
    /// The ops the walk is done with, nested ops included: it goes
    /// through each block in order, so such an op of a block enclosing
    /// the user comes before the user's ancestor there.
    done: Vec<bool>,
    /// The blocks the walk is inside of (those holding an ancestor of the
    /// op being checked), by block: their isolation scope as in
    /// `block_scope`, `UNVISITED` for the others.
    on_path: Vec<u32>,
    top: Op,
    /// The isolation scope of the blocks being walked, and whether they
    /// are a graph region's.
    scope: Option<Op>,
    graph: bool,
    /// The operands [`DomWalk::note_operands`] could not tell dominate,
    /// in the order MLIR's dominance walk meets them.
    deferred: Vec<Deferred>,
}

/// An operand whose dominance is checked after the rules.
struct Deferred {
    user: Op,
    index: u32,
    /// The user's block, its graph-region-ness and isolation scope.
    block: Block,
    graph: bool,
    scope: Option<Op>,
}

impl DomWalk {
    fn new(ctx: &Context, top: Op, scope: Option<Op>) -> Self {
        DomWalk {
            dom: DominanceInfo::new(),
            block_scope: vec![UNVISITED; ctx.num_blocks()],
            done: vec![false; ctx.num_ops()],
            on_path: vec![UNVISITED; ctx.num_blocks()],
            top,
            scope,
            graph: false,
            deferred: Vec::new(),
        }
    }

    /// Notes the operands of `op` (in block `b`, the walk inside `b`)
    /// that need checking: not those defined in a block enclosing `op`,
    /// of `op`'s isolation scope, before the ancestor of `op` in that
    /// block (a block's argument, or the result of an op the walk is done
    /// with). These dominate the use, and are nearly all: the user's
    /// block's earlier ops, and the values a loop or a branch reads from
    /// outside.
    #[inline]
    fn note_operands(&mut self, ctx: &Context, op: Op, b: Block) {
        let code = scope_code(self.scope);
        let operands = ctx.operands(op);
        // Asked first with nothing written, so that the tables stay in
        // registers through the loop.
        if !operands.iter().all(|&v| self.dominates(ctx, v, code)) {
            self.defer_operands(ctx, op, b, code);
        }
    }

    /// Whether the walk tells `v` dominates a use in the blocks it is in,
    /// of isolation scope `code` (see [`DomWalk::note_operands`]).
    #[inline]
    fn dominates(&self, ctx: &Context, v: Value, code: u32) -> bool {
        let (def_block, done) = match ctx.value_def(v) {
            ValueDef::Result(d, _) => (ctx.op(d).parent_block(), self.done[d.index()]),
            ValueDef::BlockArg(db, _) => (Some(db), true),
        };
        done && def_block.is_some_and(|db| self.on_path[db.index()] == code)
    }

    #[inline(never)]
    fn defer_operands(&mut self, ctx: &Context, op: Op, b: Block, code: u32) {
        for (i, &v) in ctx.operands(op).iter().enumerate() {
            if !self.dominates(ctx, v, code) {
                self.deferred.push(Deferred {
                    user: op,
                    index: i as u32,
                    block: b,
                    graph: self.graph,
                    scope: self.scope,
                });
            }
        }
    }
}

/// Verifies `top` and everything nested in it; the ops of `top`'s body
/// (a module's functions) on several threads.
pub fn verify(ctx: &Context, reg: &Registry, top: Op, edition: Edition) -> Result<(), IrError> {
    let mut v = Verifier::new(ctx, reg, edition, Some(top), top, isolation_scope(ctx, top));
    v.verify_op(top)?;
    v.check_deferred()
}

/// MLIR's `IsTerminator` trait: a terminator ends its block.
fn check_terminator_last(ctx: &Context, op: Op, traits: OpTraits) -> Result<(), String> {
    if traits.is_terminator && ctx.next_op(op).is_some() {
        return Err("must be the last operation in the parent block".into());
    }
    Ok(())
}

fn check_single_block_regions(ctx: &Context, op: Op, st: &Structure) -> Result<(), String> {
    let regions = ctx.regions_of(op);
    for spec in st.regions {
        let i = spec.index;
        let Some(&r) = regions.get(i) else {
            continue;
        };
        let n = ctx.region_blocks(r).len();
        let sized = if spec.single_block { None } else { spec.sized };
        match sized {
            None if !spec.single_block => {}
            None if n > 1 => {
                return Err(format!("expects region #{i} to have 0 or 1 blocks"));
            }
            None if n == 1
                && !ctx.traits_of(op).no_terminator
                && ctx.entry_block(r).and_then(|b| ctx.last_op(b)).is_none() =>
            {
                return Err("expects a non-empty block".into());
            }
            Some(rname) if n != 1 => {
                return Err(format!(
                    "region #{i} ('{rname}') failed to verify constraint: region with 1 blocks"
                ));
            }
            _ => {}
        }
    }
    // ODS's `SizedRegion<1>`, after the trait: no block at all.
    for (i, &r) in regions.iter().enumerate() {
        if let Some(rname) = sized_region_name(st, i) {
            if ctx.region_is_empty(r) {
                return Err(format!(
                    "region #{i} ('{rname}') failed to verify constraint: region with 1 blocks"
                ));
            }
        }
    }
    Ok(())
}

/// ODS's name of region `i` when it is a `SizedRegion<1>`: an empty one
/// "failed to verify constraint: region with 1 blocks".
fn sized_region_name(st: &Structure, i: usize) -> Option<&'static str> {
    st.regions
        .iter()
        .find(|r| r.index == i)
        .and_then(|r| r.sized)
}

/// Checks an op against its [`Shape`]; the message follows ODS's wording.
fn check_shape(
    ctx: &Context,
    op: Op,
    s: &Shape,
    st: &Structure,
    edition: Edition,
) -> Result<(), String> {
    // ODS's trait checks, in its order (regions, results, successors,
    // operands) and words; an optional value (`AtMost`) is no trait but
    // a segment check of its own.
    let (nops, nres) = (ctx.operands(op).len(), ctx.results(op).len());
    let arity = |n: N| match n {
        N::Exactly(k) => Some(crate::Arity::Exactly(k)),
        N::AtLeast(k) => Some(crate::Arity::AtLeast(k)),
        N::AtMost(_) => None,
    };
    let counts = crate::Invariants {
        regions: crate::Arity::Exactly(s.regions),
        results: arity(s.results).unwrap_or(crate::Arity::Any),
        successors: crate::Arity::Exactly(s.successors),
        operands: arity(s.operands).unwrap_or(crate::Arity::Any),
        operand_segments: None,
        required_attrs: &[],
    };
    counts.check(ctx, op)?;
    if !s.operands.ok(nops) {
        return Err(format!(
            "{}, but found {nops}",
            s.operands.describe("operand")
        ));
    }
    if !s.results.ok(nres) {
        return Err(format!(
            "{}, but found {nres}",
            s.results.describe("result")
        ));
    }
    let regions = ctx.regions_of(op);
    for &(i, nargs) in s.entry {
        match ctx.entry_block(regions[i]) {
            None => {
                return Err(match sized_region_name(st, i) {
                    Some(rname) => format!(
                        "region #{i} ('{rname}') failed to verify constraint: region with 1 blocks"
                    ),
                    None => format!(
                        "region #{i} ('body') failed to verify constraint: region with at least 1 blocks"
                    ),
                })
            }
            Some(b) if ctx.block_args(b).len() < nargs => {
                return Err(format!(
                    "expects region #{i} to have at least {nargs} argument{}",
                    if nargs == 1 { "" } else { "s" }
                ))
            }
            _ => {}
        }
    }
    check_attrs(ctx, op, s.attrs, edition)?;
    check_operand_kinds(ctx, op, s.operand_kinds)
}

/// The attributes a [`Shape`] requires, each of its class.
fn check_attrs(
    ctx: &Context,
    op: Op,
    attrs: &[(&'static str, AttrClass)],
    edition: Edition,
) -> Result<(), String> {
    for &(name, class) in attrs {
        let ok = ctx
            .get_attr(op, name)
            .is_some_and(|a| match (ctx.attr_kind(a), class) {
                (AttrKind::String(..), AttrClass::Str) => true,
                (AttrKind::Integer(..), AttrClass::Int) => true,
                (AttrKind::SymbolRef(..), AttrClass::SymRef) => true,
                (AttrKind::SymbolRef(_, nested), AttrClass::FlatSymRef) => nested.is_empty(),
                (AttrKind::Integer(v, t), AttrClass::I64Enum(cases)) => {
                    *ctx.kind(*t) == TypeKind::Integer(64, Signedness::Signless)
                        && usize::try_from(*v).is_ok_and(|v| v < cases.len())
                }
                (AttrKind::Type(t), AttrClass::FuncType) => {
                    matches!(ctx.kind(*t), TypeKind::Function(..))
                }
                _ => false,
            });
        if !ok {
            let nested_ref = matches!(
                ctx.get_attr(op, name).map(|a| ctx.attr_kind(a)),
                Some(AttrKind::SymbolRef(..))
            );
            if class == AttrClass::FlatSymRef && nested_ref {
                // 15's ODS constraint, or 13/14's hand-written verifier.
                return Err(if edition == Edition::V15 {
                    format!("attribute '{name}' failed to satisfy constraint: flat symbol reference attribute")
                } else {
                    format!("requires '{name}' to be a function reference")
                });
            }
            if let (AttrClass::I64Enum(cases), Some(_)) = (class, ctx.get_attr(op, name)) {
                return Err(crate::ods::enum_constraint_message(name, cases.len()));
            }
            return Err(format!("requires attribute '{name}'"));
        }
    }
    Ok(())
}

/// The types a [`Shape`] requires of some operands.
fn check_operand_kinds(
    ctx: &Context,
    op: Op,
    kinds: &[(usize, OperandKind)],
) -> Result<(), String> {
    for &(i, kind) in kinds {
        let t = ctx.value_type(ctx.operand(op, i));
        let ok = match kind {
            OperandKind::AsyncValue => crate::asyncd::types::value_inner(ctx, t).is_some(),
            OperandKind::MemRef => matches!(
                ctx.kind(t),
                TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }
            ),
            OperandKind::Function => matches!(ctx.kind(t), TypeKind::Function(..)),
        };
        if !ok {
            return Err(format!("operand #{i} must be of a different type"));
        }
    }
    Ok(())
}

/// Is this one of ODS's attribute checks (a required attribute, a
/// constraint)? `msg` starts with the op's quoted name.
fn is_ods_attribute_message(msg: &str) -> bool {
    let rest = msg.split_once(" op ").map_or("", |(_, r)| r);
    rest.starts_with("requires attribute '")
        || (rest.starts_with("attribute '") && rest.contains("' failed to satisfy constraint: "))
}

/// Where a non-dominating operand comes from, in mlir-opt's words.
fn dominance_note(ctx: &Context, v: Value, user: Op) -> String {
    let use_block = ctx.parent_block(user);
    let use_region = use_block.and_then(|b| ctx.parent_region(b));
    let region_is_ancestor = |anc: Option<Region>, of: Option<Region>| -> bool {
        // Is `anc` a proper ancestor of `of`?
        let (Some(anc), Some(mut r)) = (anc, of) else {
            return false;
        };
        while let Some(p) = ctx.region_parent(r) {
            match ctx.parent_block(p).and_then(|b| ctx.parent_region(b)) {
                Some(pr) if pr == anc => return true,
                Some(pr) => r = pr,
                None => return false,
            }
        }
        false
    };
    match ctx.value_def(v) {
        ValueDef::Result(def, _) => {
            let def_block = ctx.parent_block(def);
            let def_region = def_block.and_then(|b| ctx.parent_region(b));
            let why = if def_block == use_block {
                "the same block"
            } else if def_region == use_region {
                "the same region"
            } else if region_is_ancestor(def_region, use_region) {
                "a parent region"
            } else if region_is_ancestor(use_region, def_region) {
                "a child region"
            } else {
                return "operand defined here (op is neither in a parent nor in a child region)"
                    .into();
            };
            format!("operand defined here (op in {why})")
        }
        ValueDef::BlockArg(b, _) => {
            let def_region = ctx.parent_region(b);
            let index = def_region.map(|_| ctx.block_index(b)).unwrap_or(0);
            let why = if def_region == use_region {
                "in the same region"
            } else if region_is_ancestor(def_region, use_region) {
                "in a parent region"
            } else if region_is_ancestor(use_region, def_region) {
                "in a child region"
            } else {
                "neither in a parent nor in a child region"
            };
            format!("operand defined as a block argument (block #{index} {why})")
        }
    }
}
