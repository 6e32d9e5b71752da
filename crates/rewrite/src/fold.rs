//! Folding: what the dialects tell the rewrite layer about constants
//! ([`OpInterfaces`]), and MLIR's `OperationFolder`, which folds an op and
//! keeps one constant per (dialect, value, type) at the top of the
//! nearest isolated region.
//!
//! Where a constant lands is visible in the output: folded and visited
//! constants are (re)created at the start of the entry block of the
//! closest region whose parent is isolated from above (a function body),
//! each new one before those already there, so a canonicalized function
//! lists its constants in reverse order of first visit, as `mlir-opt`
//! prints them.

use mlir_async_ir::entity::SecondaryMap;
use mlir_async_ir::fxhash::FxHashMap;
use mlir_async_ir::{
    Attribute, Block, Context, InsertPoint, Location, Op, Region, Symbol, Type, Value,
};

/// One result of a fold: an existing value, or a constant to materialize.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FoldResult {
    Value(Value),
    Attr(Attribute),
}

/// What an op's folder did (MLIR's `fold` hook: failure, success with no
/// results for an in-place update, or one result per op result).
#[derive(Clone, Debug, PartialEq)]
pub enum Folded {
    /// Not folded, and not changed.
    No,
    /// Changed in place (an operand swap, an attribute); stays in the IR.
    InPlace,
    /// Replaced: one entry per result of the op.
    Results(Vec<FoldResult>),
}

/// What the dialects tell the rewrite layer about their ops (MLIR's op
/// and dialect interfaces the drivers use: folding, constant
/// materialisation, `BranchOpInterface`), handed to the drivers.
pub trait OpInterfaces: Sync {
    /// Folds `op`. `operands` holds the constant value of each operand
    /// (`None` where the operand is not a constant) where the caller looked
    /// them up, and is empty where it did not: the greedy driver does not,
    /// as the dialects' folders read their operands' constants themselves
    /// (looking them up for every op it visited was a tenth of its time).
    /// May update `op` in place.
    fn fold(&self, ctx: &mut Context, op: Op, operands: &[Option<Attribute>]) -> Folded;

    /// Whether ops of `op`'s name have a folder at all (MLIR asks the
    /// op's `fold` hook, which most ops do not define). The conversion
    /// driver asks it once per op name and skips the fold attempt, with
    /// its look at every operand, for the others. `true` by default.
    fn may_fold(&self, _ctx: &Context, _op: Op) -> bool {
        true
    }

    /// Builds a constant op of `dialect` for `value` of type `ty` at `ip`
    /// (MLIR's `Dialect::materializeConstant`); `None` if the dialect
    /// cannot.
    fn materialize_constant(
        &self,
        ctx: &mut Context,
        dialect: &str,
        value: Attribute,
        ty: Type,
        loc: Location,
        ip: InsertPoint,
    ) -> Option<Op>;

    /// The operands `op` forwards to its successor `i`, as a range of its
    /// operand list (`BranchOpInterface::getMutableSuccessorOperands`);
    /// `None` if `op` is not a branch the rewrite layer may change.
    fn successor_operands(&self, ctx: &Context, op: Op, i: usize)
        -> Option<std::ops::Range<usize>>;

    /// Makes `vals` the operands `op` forwards to successor `i` (keeping
    /// the op's operand segments right). Only called where
    /// [`OpInterfaces::successor_operands`] gave a range.
    fn set_successor_operands(&self, ctx: &mut Context, op: Op, i: usize, vals: &[Value]);

    /// The LLVM release whose drivers the rewrite layer follows where they
    /// differ visibly (15's dialect conversion keeps a cast alive while
    /// the value it stands for has users); 14 by default.
    fn llvm_release(&self) -> u32 {
        14
    }

    /// Whether `op` has MLIR's `Commutative` trait (the folder moves its
    /// constant operands last): by default the registered trait; a
    /// dialect whose ops gained the trait in a later release says so
    /// here.
    fn is_commutative(&self, ctx: &Context, op: Op) -> bool {
        ctx.traits_of(op).commutative
    }

    /// Whether `op`'s folder reads nothing but the op and the ops that
    /// define its operands (their names, attributes, operands, and the
    /// types of those values): a fold of such an op that failed fails
    /// again until one of them changes ([`Context::changed_since`]), so
    /// the greedy driver does not ask again. No by default.
    fn fold_is_local(&self, _ctx: &Context, _op: Op) -> bool {
        false
    }

    /// The value of a constant-like op (`m_Constant`, which looks only at
    /// ops with the `ConstantLike` trait): by default its `value`
    /// attribute.
    fn constant_value(&self, ctx: &Context, op: Op) -> Option<Attribute> {
        if !ctx.traits_of(op).constant_like {
            return None;
        }
        ctx.get_attr(op, "value")
    }
}

/// The constant value of `v` if a constant-like op defines it.
#[inline]
pub fn constant_of(ctx: &Context, hooks: &dyn OpInterfaces, v: Value) -> Option<Attribute> {
    let d = ctx.defining_op(v)?;
    // Most operands are not constants: they are told apart here, without
    // asking the interfaces.
    if !ctx.traits_of(d).constant_like {
        return None;
    }
    hooks.constant_value(ctx, d)
}

/// The dialect of an op, as the prefix of its name (`arith` of
/// `arith.addi`).
pub fn dialect_of(ctx: &Context, op: Op) -> &str {
    let n = ctx.name(op);
    n.split_once('.').map_or(n, |(d, _)| d)
}

/// The region folded constants of an op in `block` go to (MLIR's
/// `getInsertionRegion`): the nearest one whose parent is isolated from
/// above or is not nested in a block.
pub fn insertion_region(ctx: &Context, mut block: Block) -> Option<Region> {
    loop {
        let region = ctx.parent_region(block)?;
        let parent = ctx.region_parent(region)?;
        let isolated =
            ctx.traits_of(parent).isolated_from_above || !ctx.is_registered(ctx.op_name(parent));
        if isolated {
            return Some(region);
        }
        match ctx.parent_block(parent) {
            Some(b) => block = b,
            None => return Some(region),
        }
    }
}

/// What [`OperationFolder::try_to_fold`] did to an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldOutcome {
    /// Nothing.
    Failed,
    /// Updated in place; the op stays.
    InPlace,
    /// Replaced by existing values or constants, and erased.
    Replaced,
}

/// The uniqued constants and the dialects each is registered under,
/// indexed by op: asked of every op the greedy driver folds, where a hash
/// lookup was a tenth of the driver's own time.
#[derive(Default)]
struct Referenced {
    /// Index + 1 in `lists` of an op's dialects; 0 for none.
    slot: SecondaryMap<Op, u32>,
    lists: Vec<Vec<Symbol>>,
    count: usize,
}

impl Referenced {
    fn contains(&self, op: Op) -> bool {
        *self.slot.get(op) != 0
    }
    fn is_empty(&self) -> bool {
        self.count == 0
    }
    fn add(&mut self, op: Op, dialect: Symbol) {
        let slot = self.slot.get_mut(op);
        if *slot == 0 {
            self.lists.push(vec![]);
            *slot = self.lists.len() as u32;
            self.count += 1;
        }
        self.lists[*slot as usize - 1].push(dialect);
    }
    fn remove(&mut self, op: Op) -> Option<Vec<Symbol>> {
        // Asked of every op erased: a read first, so that the table does
        // not grow to the handle of each.
        if !self.contains(op) {
            return None;
        }
        let slot = std::mem::take(self.slot.get_mut(op));
        self.count -= 1;
        Some(std::mem::take(&mut self.lists[slot as usize - 1]))
    }
}

/// MLIR's `OperationFolder`: folds ops and uniques the constants it
/// creates, one per (dialect, value, type) in each insertion region.
#[derive(Default)]
pub struct OperationFolder {
    /// LLVM 13: a reused constant is not moved to the front of the
    /// folded op's block (see [`GreedyConfig::llvm13`](crate::GreedyConfig)).
    pub keep_reused_in_place: bool,
    scopes: FxHashMap<Region, FxHashMap<(Symbol, Attribute, Type), Op>>,
    /// Uniqued constant op -> the dialects it is registered under.
    referenced: Referenced,
    /// Op name -> its dialect's name, interned: asked at every fold.
    dialects: FxHashMap<Symbol, Symbol>,
    /// Set when the folder moved or erased a constant outside a fold
    /// (LLVM 15's adoption and re-hoisting): the driver cannot skip a
    /// round's region simplification then.
    pub moved: bool,
}

impl OperationFolder {
    pub fn new() -> Self {
        Self::default()
    }

    /// The interned name of `op`'s dialect.
    fn dialect_sym(&mut self, ctx: &mut Context, op: Op) -> Symbol {
        let name = ctx.op_name(op);
        if let Some(&d) = self.dialects.get(&name) {
            return d;
        }
        let text = dialect_of(ctx, op).to_string();
        let d = ctx.sym(&text);
        self.dialects.insert(name, d);
        d
    }

    /// Whether `op` is a constant this folder created or adopted (folding
    /// it again would change nothing).
    pub fn is_uniqued(&self, op: Op) -> bool {
        self.referenced.contains(op)
    }

    /// LLVM 15's re-hoisting of an owned constant: if an op that is not an
    /// owned constant was put before it, it moves to its block's front.
    fn rehoist(&mut self, ctx: &mut Context, op: Op) {
        let Some(b) = ctx.parent_block(op) else {
            return;
        };
        let prev_owned = ctx.prev_op(op).is_some_and(|p| self.is_uniqued(p));
        if ctx.first_op(b) != Some(op) && !prev_owned {
            let first = ctx.first_op(b).expect("block holds the op");
            ctx.move_op_before(op, first);
            self.moved = true;
        }
    }

    /// Adopts an existing constant (LLVM 15's `insertKnownConstant`, as
    /// the greedy driver seeds its worklist): a duplicate of an adopted
    /// one is replaced by it and erased (returns `false`); otherwise the
    /// constant is moved to the front of its insertion region's entry
    /// block, unless it is there already or follows an adopted one.
    pub fn insert_known_constant(
        &mut self,
        ctx: &mut Context,
        hooks: &dyn OpInterfaces,
        op: Op,
        value: Attribute,
    ) -> bool {
        if self.is_uniqued(op) {
            self.rehoist(ctx, op);
            return true;
        }
        let Some(block) = ctx.parent_block(op) else {
            return true;
        };
        let Some(region) = insertion_region(ctx, block) else {
            return true;
        };
        let Some(entry) = ctx.entry_block(region) else {
            return true;
        };
        let d = self.dialect_sym(ctx, op);
        let ty = ctx.value_type(ctx.result(op, 0));
        let scope = self.scopes.entry(region).or_default();
        if let Some(&existing) = scope.get(&(d, value, ty)) {
            let r = ctx.result(op, 0);
            let e = ctx.result(existing, 0);
            ctx.replace_all_uses_with(r, e);
            let _ = ctx.erase_op(op);
            let _ = hooks;
            self.moved = true;
            return false;
        }
        let prev_owned = ctx.prev_op(op).is_some_and(|p| self.referenced.contains(p));
        if block != entry || (ctx.first_op(entry) != Some(op) && !prev_owned) {
            let first = ctx.first_op(entry).expect("entry block holds ops");
            ctx.detach_op(op);
            ctx.insert_op(InsertPoint::Before(first), op);
            self.moved = true;
        }
        self.scopes
            .entry(region)
            .or_default()
            .insert((d, value, ty), op);
        self.referenced.add(op, d);
        true
    }

    /// Folds `op`. New constants are announced to `generated` (in IR
    /// order); `pre_replace` runs just before `op`'s results are replaced
    /// and `op` is erased.
    /// With `llvm15`, LLVM 15's folder: an owned constant is re-hoisted,
    /// and moving a commutative op's constants last counts as an in-place
    /// fold.
    pub fn try_to_fold(
        &mut self,
        ctx: &mut Context,
        hooks: &dyn OpInterfaces,
        op: Op,
        llvm15: bool,
        generated: &mut dyn FnMut(&Context, Op),
        pre_replace: &mut dyn FnMut(&Context, Op),
    ) -> FoldOutcome {
        if self.referenced.contains(op) {
            if llvm15 {
                self.rehoist(ctx, op);
            }
            return FoldOutcome::Failed;
        }
        let mut reordered = false;
        let Some(results) = self.fold_to_values(ctx, hooks, op, &mut reordered, generated) else {
            return if llvm15 && reordered {
                FoldOutcome::InPlace
            } else {
                FoldOutcome::Failed
            };
        };
        if results.is_empty() {
            return FoldOutcome::InPlace;
        }
        pre_replace(ctx, op);
        self.forget_nested(ctx, hooks, op);
        for (i, &v) in results.iter().enumerate() {
            let r = ctx.result(op, i);
            ctx.replace_all_uses_with(r, v);
        }
        // Every use was just replaced: erasing cannot fail.
        let _ = ctx.erase_op(op);
        FoldOutcome::Replaced
    }

    /// Forgets `op` and the ops nested in it (they are being erased).
    pub fn forget_nested(&mut self, ctx: &Context, hooks: &dyn OpInterfaces, op: Op) {
        if self.referenced.is_empty() {
            return;
        }
        if ctx.regions_of(op).is_empty() {
            self.notify_removal(ctx, hooks, op);
            return;
        }
        ctx.walk_post(op, &mut |o| self.notify_removal(ctx, hooks, o));
        self.notify_removal(ctx, hooks, op);
    }

    /// Forgets `op` if it is a uniqued constant (it is being erased).
    pub fn notify_removal(&mut self, ctx: &Context, hooks: &dyn OpInterfaces, op: Op) {
        let Some(dialects) = self.referenced.remove(op) else {
            return;
        };
        let Some(value) = hooks.constant_value(ctx, op) else {
            return;
        };
        let Some(region) = ctx.parent_block(op).and_then(|b| insertion_region(ctx, b)) else {
            return;
        };
        let ty = ctx.value_type(ctx.result(op, 0));
        if let Some(scope) = self.scopes.get_mut(&region) {
            for d in dialects.iter() {
                scope.remove(&(*d, value, ty));
            }
        }
    }

    /// The uniqued constant `value : ty` of `dialect` for ops in `block`,
    /// created at the top of its insertion region if needed.
    #[allow(clippy::too_many_arguments)]
    pub fn get_or_create_constant(
        &mut self,
        ctx: &mut Context,
        hooks: &dyn OpInterfaces,
        block: Block,
        dialect: &str,
        value: Attribute,
        ty: Type,
        loc: Location,
    ) -> Option<Value> {
        let region = insertion_region(ctx, block)?;
        let entry = ctx.entry_block(region)?;
        let d = ctx.sym(dialect);
        let c = self.get_or_create(ctx, hooks, region, entry, d, value, ty, loc)?;
        Some(ctx.result(c, 0))
    }

    fn fold_to_values(
        &mut self,
        ctx: &mut Context,
        hooks: &dyn OpInterfaces,
        op: Op,
        reordered: &mut bool,
        generated: &mut dyn FnMut(&Context, Op),
    ) -> Option<Vec<Value>> {
        // A commutative op gets its constant operands last (stable), and
        // keeps that order even when it does not fold. (Asked only of
        // commutative ops, and the order changed only when a constant
        // comes before a variable: most ops have none.)
        let ops = ctx.operands(op);
        if ops.len() >= 2 && hooks.is_commutative(ctx, op) {
            let is_constant = |v: Value| constant_of(ctx, hooks, v).is_some();
            // One look at each operand, up to a variable after a constant.
            let mut after_constant = false;
            let misordered = ops.iter().any(|&v| match is_constant(v) {
                true => {
                    after_constant = true;
                    false
                }
                false => after_constant,
            });
            if misordered {
                let (vars, mut rest): (Vec<Value>, Vec<Value>) =
                    ops.iter().partition(|&&v| !is_constant(v));
                let mut order = vars;
                order.append(&mut rest);
                *reordered = true;
                for (i, v) in order.into_iter().enumerate() {
                    ctx.set_operand(op, i, v);
                }
            }
        }
        // The dialects' folders read their operands' constants themselves:
        // none are looked up here (see `OpInterfaces::fold`).
        let folded = match ctx.traits_of(op).constant_like {
            true => match hooks.constant_value(ctx, op) {
                Some(a) => Folded::Results(vec![FoldResult::Attr(a)]),
                None => Folded::No,
            },
            false => hooks.fold(ctx, op, &[]),
        };
        let results = match folded {
            Folded::No => return None,
            Folded::InPlace => return Some(vec![]),
            Folded::Results(r) => r,
        };
        if results.len() != ctx.results(op).len() {
            return None;
        }
        let block = ctx.parent_block(op)?;
        let region = insertion_region(ctx, block)?;
        let entry = ctx.entry_block(region)?;
        // The constants go before the op that is first now; everything
        // from the block's start up to it afterwards is new.
        let old_first = ctx.first_op(entry);
        let dialect = self.dialect_sym(ctx, op);
        let loc = ctx.op_loc(op);
        let mut out = Vec::with_capacity(results.len());
        for (i, r) in results.into_iter().enumerate() {
            let res = ctx.result(op, i);
            let ty = ctx.value_type(res);
            match r {
                FoldResult::Value(v) => {
                    if ctx.value_type(v) != ty {
                        return None;
                    }
                    out.push(v);
                }
                FoldResult::Attr(a) => {
                    let Some(c) =
                        self.get_or_create(ctx, hooks, region, entry, dialect, a, ty, loc)
                    else {
                        // Undo the constants made for earlier results.
                        let mut cur = ctx.first_op(entry);
                        while cur.is_some() && cur != old_first {
                            let o = cur.unwrap();
                            cur = ctx.next_op(o);
                            self.notify_removal(ctx, hooks, o);
                            let _ = ctx.erase_op(o);
                        }
                        return None;
                    };
                    // The constant must dominate the op: an op in the entry
                    // block may come before an existing constant.
                    if !self.keep_reused_in_place
                        && ctx.parent_block(c) == Some(block)
                        && ctx.first_op(block) != Some(c)
                    {
                        let first = ctx.first_op(block).expect("block holds the constant");
                        ctx.move_op_before(c, first);
                    }
                    out.push(ctx.result(c, 0));
                }
            }
        }
        let mut cur = ctx.first_op(entry);
        while cur.is_some() && cur != old_first {
            let o = cur.unwrap();
            generated(ctx, o);
            cur = ctx.next_op(o);
        }
        Some(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn get_or_create(
        &mut self,
        ctx: &mut Context,
        hooks: &dyn OpInterfaces,
        region: Region,
        entry: Block,
        dialect: Symbol,
        value: Attribute,
        ty: Type,
        loc: Location,
    ) -> Option<Op> {
        if let Some(&c) = self
            .scopes
            .get(&region)
            .and_then(|s| s.get(&(dialect, value, ty)))
        {
            return Some(c);
        }
        let ip = match ctx.first_op(entry) {
            Some(f) => InsertPoint::Before(f),
            None => InsertPoint::AtEnd(entry),
        };
        let dname = ctx.str(dialect).to_string();
        let c = hooks.materialize_constant(ctx, &dname, value, ty, loc, ip)?;
        // Nearly always the dialect asked for: compared as text, interned
        // only when it differs.
        let new_dialect = if dialect_of(ctx, c) == ctx.str(dialect) {
            dialect
        } else {
            let d = dialect_of(ctx, c).to_string();
            ctx.sym(&d)
        };
        let scope = self.scopes.entry(region).or_default();
        if new_dialect == dialect {
            scope.insert((dialect, value, ty), c);
            self.referenced.add(c, dialect);
            return Some(c);
        }
        // Materialized in another dialect: reuse that dialect's constant
        // if it has one.
        if let Some(&existing) = scope.get(&(new_dialect, value, ty)) {
            let _ = ctx.erase_op(c);
            scope.insert((dialect, value, ty), existing);
            self.referenced.add(existing, dialect);
            return Some(existing);
        }
        scope.insert((dialect, value, ty), c);
        scope.insert((new_dialect, value, ty), c);
        self.referenced.add(c, dialect);
        self.referenced.add(c, new_dialect);
        Some(c)
    }
}
