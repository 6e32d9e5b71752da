//! The rewriter: MLIR's `RewriterBase` / `PatternRewriter` over our
//! [`Context`]. Patterns and passes change the IR through it, so that a
//! driver listening to it (the greedy driver's worklist, a conversion's
//! bookkeeping) sees every op inserted, replaced, erased or modified.
//!
//! Notifications follow MLIR 14 and 15 exactly, because the greedy
//! driver's visiting order, and so the printed output, depends on them:
//! `create` and `clone` announce the new root op only; `replace_op`
//! announces the replacement, then the erasure of the root; `erase_op`
//! announces the root (the listener walks nested ops itself if it needs
//! them); block splits, merges and region moves announce nothing.

use mlir_async_ir::{
    Attribute, Block, Context, InsertPoint, IrError, Location, Op, OperationState, Region, Symbol,
    Type, Value,
};
use std::collections::HashMap;
use std::fmt;

/// What a rewrite could not do. Each names the entity at fault, so the
/// pass can report it at the op's location ([`RewriteError::into_ir_error`]).
#[derive(Clone, Debug, PartialEq)]
pub enum RewriteError {
    /// An op to erase still has results used outside of it.
    ResultStillUsed { op: Op },
    /// A block to erase is still the successor of a branch.
    BlockStillUsed { block: Block },
    /// `replace_op` was given a number of values other than the op's
    /// number of results.
    ResultCount {
        op: Op,
        expected: usize,
        found: usize,
    },
    /// The rewriter was asked to create an op with no insertion point set.
    NoInsertionPoint,
    /// A pattern or a driver rejected the input: a message at a location,
    /// as a pass reports it; `op` when it is emitted on an op (see
    /// [`IrError::op`]).
    Failed {
        loc: Location,
        message: String,
        op: Option<Op>,
    },
}

impl RewriteError {
    /// A located error for the input at `loc`.
    pub fn at(loc: Location, message: impl Into<String>) -> Self {
        RewriteError::Failed {
            loc,
            message: message.into(),
            op: None,
        }
    }

    /// An error emitted on `op` (MLIR's `op->emitError()`), at its location.
    pub fn on_op(ctx: &Context, op: Op, message: impl Into<String>) -> Self {
        RewriteError::Failed {
            loc: ctx.op_loc(op),
            message: message.into(),
            op: Some(op),
        }
    }

    /// The diagnostic a tool prints for this error: at the op or block at
    /// fault, with MLIR's wording where MLIR has one.
    pub fn into_ir_error(self, ctx: &Context) -> IrError {
        let loc_of_block = |b: Block| {
            ctx.first_op(b)
                .map(|o| ctx.op_loc(o))
                .unwrap_or_else(|| ctx.unknown_loc())
        };
        match self {
            RewriteError::Failed { loc, message, op } => IrError {
                op,
                ..IrError::new(loc, message)
            },
            RewriteError::ResultStillUsed { op } => IrError::new(
                ctx.op_loc(op),
                format!(
                    "'{}' op cannot be erased: a result still has uses",
                    ctx.name(op)
                ),
            ),
            RewriteError::BlockStillUsed { block } => IrError::new(
                loc_of_block(block),
                "cannot erase a block that is still the successor of a branch",
            ),
            RewriteError::ResultCount {
                op,
                expected,
                found,
            } => IrError::new(
                ctx.op_loc(op),
                format!(
                    "'{}' op replaced with {found} values, but it has {expected} results",
                    ctx.name(op)
                ),
            ),
            RewriteError::NoInsertionPoint => IrError::new(
                ctx.unknown_loc(),
                "internal error: an op was created with no insertion point",
            ),
        }
    }
}

impl fmt::Display for RewriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RewriteError::ResultStillUsed { op } => {
                write!(f, "{op:?} cannot be erased: a result still has uses")
            }
            RewriteError::BlockStillUsed { block } => {
                write!(f, "{block:?} cannot be erased: it still has predecessors")
            }
            RewriteError::ResultCount {
                op,
                expected,
                found,
            } => write!(
                f,
                "{op:?} replaced with {found} values, expected {expected}"
            ),
            RewriteError::NoInsertionPoint => write!(f, "no insertion point"),
            RewriteError::Failed { message, .. } => f.write_str(message),
        }
    }
}

impl std::error::Error for RewriteError {}

/// Told of every change a [`Rewriter`] makes, before it is made (so the
/// listener can still read the op). Every method defaults to doing
/// nothing.
pub trait Listener {
    /// `op` was just inserted (created or cloned), nested ops not listed.
    fn notify_inserted(&mut self, _ctx: &Context, _op: Op) {}
    /// `op`'s results are about to be replaced by `with`.
    fn notify_replaced(&mut self, _ctx: &Context, _op: Op, _with: &[Value]) {}
    /// `op` (and everything nested in it) is about to be erased.
    fn notify_erased(&mut self, _ctx: &Context, _op: Op) {}
    /// `op` was changed in place (operands, attributes, successors).
    fn notify_modified(&mut self, _ctx: &Context, _op: Op) {}
    /// `op` (and everything nested in it) is about to leave its place to
    /// be announced again as inserted elsewhere, standing for a clone of
    /// it whose original goes with its parent (see
    /// [`Rewriter::move_op_as_clone`]): forget it as if it were erased,
    /// but its operands keep their uses.
    fn notify_moved_away(&mut self, _ctx: &Context, _op: Op) {}
}

/// A listener that ignores everything, for rewrites nobody watches.
pub struct NoListener;
impl Listener for NoListener {}

/// An insertion point and the IR, with a listener told of every change.
pub struct Rewriter<'a> {
    pub ctx: &'a mut Context,
    ip: Option<InsertPoint>,
    listener: &'a mut dyn Listener,
}

impl<'a> Rewriter<'a> {
    pub fn new(ctx: &'a mut Context, listener: &'a mut dyn Listener) -> Self {
        Rewriter {
            ctx,
            ip: None,
            listener,
        }
    }

    // ----- insertion point -----

    /// New ops go right before `op`, in creation order.
    pub fn set_insertion_point(&mut self, op: Op) {
        self.ip = Some(InsertPoint::Before(op));
    }
    /// New ops go right after `op`, in creation order.
    pub fn set_insertion_point_after(&mut self, op: Op) {
        self.ip = Some(self.ctx.after(op));
    }
    /// New ops go at the start of `b`, in creation order: as MLIR's
    /// iterator, the point stays before the op that was first when it was
    /// set.
    pub fn set_insertion_point_to_start(&mut self, b: Block) {
        self.ip = Some(match self.ctx.first_op(b) {
            Some(first) => InsertPoint::Before(first),
            None => InsertPoint::AtEnd(b),
        });
    }
    pub fn set_insertion_point_to_end(&mut self, b: Block) {
        self.ip = Some(InsertPoint::AtEnd(b));
    }
    pub fn insertion_point(&self) -> Option<InsertPoint> {
        self.ip
    }
    pub fn restore_insertion_point(&mut self, ip: Option<InsertPoint>) {
        self.ip = ip;
    }
    /// The block new ops go into.
    pub fn insertion_block(&self) -> Option<Block> {
        match self.ip? {
            InsertPoint::AtEnd(b) | InsertPoint::AtStart(b) => Some(b),
            InsertPoint::Before(o) => self.ctx.parent_block(o),
        }
    }

    // ----- creating -----

    /// Creates `state` at the insertion point and announces it.
    pub fn create(&mut self, state: OperationState) -> Result<Op, RewriteError> {
        let ip = self.ip.ok_or(RewriteError::NoInsertionPoint)?;
        let op = self.ctx.build(ip, state);
        self.listener.notify_inserted(self.ctx, op);
        Ok(op)
    }
    /// Creates an op from its parts (no `Vec`s needed), at the insertion
    /// point.
    pub fn create_op(
        &mut self,
        name: Symbol,
        loc: Location,
        operands: &[Value],
        result_types: &[Type],
        attrs: &[(Symbol, Attribute)],
    ) -> Result<Op, RewriteError> {
        let ip = self.ip.ok_or(RewriteError::NoInsertionPoint)?;
        let op = self
            .ctx
            .create_op_from(name, loc, operands, result_types, attrs, &[], &[]);
        self.ctx.insert_op(ip, op);
        self.listener.notify_inserted(self.ctx, op);
        Ok(op)
    }
    /// Creates a terminator from its parts (no `Vec`s needed), at the
    /// insertion point: lowerings build a branch for every block they
    /// split.
    pub fn create_branch(
        &mut self,
        name: Symbol,
        loc: Location,
        operands: &[Value],
        attrs: &[(Symbol, Attribute)],
        successors: &[Block],
    ) -> Result<Op, RewriteError> {
        let ip = self.ip.ok_or(RewriteError::NoInsertionPoint)?;
        let op = self
            .ctx
            .create_op_from(name, loc, operands, &[], attrs, &[], successors);
        self.ctx.insert_op(ip, op);
        self.listener.notify_inserted(self.ctx, op);
        Ok(op)
    }
    /// Inserts an op created detached (with `Context::create_op`).
    pub fn insert(&mut self, op: Op) -> Result<Op, RewriteError> {
        let ip = self.ip.ok_or(RewriteError::NoInsertionPoint)?;
        self.ctx.insert_op(ip, op);
        self.listener.notify_inserted(self.ctx, op);
        Ok(op)
    }
    /// Clones `op` with its regions at the insertion point, mapping
    /// operands through `map` (and recording the clone's results in it).
    /// As MLIR's `OpBuilder::clone`, the ops nested in the clone are
    /// announced first (in post-order), then the clone.
    pub fn clone_op<S: std::hash::BuildHasher>(
        &mut self,
        op: Op,
        map: &mut HashMap<Value, Value, S>,
    ) -> Result<Op, RewriteError> {
        let ip = self.ip.ok_or(RewriteError::NoInsertionPoint)?;
        let new = self.ctx.clone_op(op, ip, map);
        self.announce_inserted(new);
        Ok(new)
    }
    /// Tells the listener of `op` and the ops nested in it as MLIR's
    /// `OpBuilder::clone` does: nested ones first, in post-order.
    fn announce_inserted(&mut self, op: Op) {
        if !self.ctx.regions_of(op).is_empty() {
            let mut nested = vec![];
            self.ctx.walk_post(op, &mut |o| nested.push(o));
            for o in nested {
                self.listener.notify_inserted(self.ctx, o);
            }
        }
        self.listener.notify_inserted(self.ctx, op);
    }
    /// What [`Rewriter::clone_op`] of `op` followed by erasing the op
    /// holding `op` leaves, without building the copy: `op` moves to the
    /// insertion point with its operands (and its nested ops') re-pointed
    /// through `map` (see [`Context::move_op_remapped`]). The listener
    /// hears it as that: `op` goes away, then comes in as a clone would,
    /// nested ops first. Its results are its own: `map` is not extended.
    pub fn move_op_as_clone<S: std::hash::BuildHasher>(
        &mut self,
        op: Op,
        map: &HashMap<Value, Value, S>,
    ) -> Result<(), RewriteError> {
        let ip = self.ip.ok_or(RewriteError::NoInsertionPoint)?;
        self.listener.notify_moved_away(self.ctx, op);
        self.ctx.move_op_remapped(op, ip, map);
        self.announce_inserted(op);
        Ok(())
    }
    /// Creates a block with arguments of `arg_types` before `before`
    /// (or at the end of `region`) and puts the insertion point at its end,
    /// as MLIR's `createBlock`.
    pub fn create_block(
        &mut self,
        region: Region,
        before: Option<Block>,
        arg_types: &[Type],
    ) -> Block {
        let b = self.ctx.create_block(arg_types);
        match before {
            Some(x) => self.ctx.insert_block_before(x, b),
            None => self.ctx.append_block(region, b),
        }
        self.ip = Some(InsertPoint::AtEnd(b));
        b
    }

    // ----- replacing and erasing -----

    /// Replaces every use of `op`'s results by `with` and erases it.
    pub fn replace_op(&mut self, op: Op, with: &[Value]) -> Result<(), RewriteError> {
        let n = self.ctx.results(op).len();
        if with.len() != n {
            return Err(RewriteError::ResultCount {
                op,
                expected: n,
                found: with.len(),
            });
        }
        self.listener.notify_replaced(self.ctx, op, with);
        for (i, &w) in with.iter().enumerate() {
            let r = self.ctx.result(op, i);
            self.ctx.replace_all_uses_with(r, w);
        }
        self.erase_op(op)
    }
    /// Creates `state` before `op` and replaces `op` by its results.
    pub fn replace_op_with_new(
        &mut self,
        op: Op,
        state: OperationState,
    ) -> Result<Op, RewriteError> {
        self.set_insertion_point(op);
        let new = self.create(state)?;
        let vals = self.ctx.results(new).to_vec();
        self.replace_op(op, &vals)?;
        Ok(new)
    }
    /// Erases `op` and everything nested in it; its results must be unused.
    pub fn erase_op(&mut self, op: Op) -> Result<(), RewriteError> {
        let used_outside = self.ctx.results(op).iter().any(|&r| {
            self.ctx
                .uses(r)
                .iter()
                .any(|u| !self.ctx.is_ancestor(op, u.op))
        });
        if used_outside {
            return Err(RewriteError::ResultStillUsed { op });
        }
        self.listener.notify_erased(self.ctx, op);
        self.ctx
            .erase_op(op)
            .map_err(|_| RewriteError::ResultStillUsed { op })
    }
    /// Erases `b` and its ops (last first, as MLIR); nothing may branch to
    /// it and its values must be unused outside it.
    pub fn erase_block(&mut self, b: Block) -> Result<(), RewriteError> {
        if !self.ctx.pred_ops(b).is_empty() {
            return Err(RewriteError::BlockStillUsed { block: b });
        }
        let mut cur = self.ctx.last_op(b);
        while let Some(o) = cur {
            cur = self.ctx.prev_op(o);
            self.erase_op(o)?;
        }
        self.ctx
            .erase_block(b)
            .map_err(|_| RewriteError::BlockStillUsed { block: b })
    }
    /// Replaces every use of `from` by `to`.
    pub fn replace_all_uses_with(&mut self, from: Value, to: Value) {
        self.ctx.replace_all_uses_with(from, to);
    }
    /// Changes `op` in place through `f`, then announces it.
    pub fn modify_op_in_place<R>(&mut self, op: Op, f: impl FnOnce(&mut Context) -> R) -> R {
        let r = f(self.ctx);
        self.listener.notify_modified(self.ctx, op);
        r
    }

    // ----- blocks and regions -----

    /// Splits `b` before `op`; `op` and what follows move to a new block
    /// right after `b`.
    pub fn split_block(&mut self, b: Block, op: Op) -> Block {
        self.ctx.split_block(b, op)
    }
    /// Moves the ops of `src` to the end of `dest`, its arguments replaced
    /// by `args`, and erases `src` (which nothing may branch to).
    pub fn merge_blocks(&mut self, src: Block, dest: Block, args: &[Value]) {
        self.ctx.inline_block(src, InsertPoint::AtEnd(dest), args);
    }
    /// Moves the ops of `src` before `op` (in `op`'s block), its arguments
    /// replaced by `args`.
    pub fn inline_block_before(&mut self, src: Block, op: Op, args: &[Value]) {
        self.ctx.inline_block(src, InsertPoint::Before(op), args);
    }
    /// Moves the blocks of `src` before `before`, in order.
    pub fn inline_region_before(&mut self, src: Region, before: Block) {
        self.ctx.inline_region_before(src, before);
    }
}

/// What creates ops at an insertion point: the plain [`Rewriter`] and the
/// conversion driver's rewriter alike, so op builders (the dialects'
/// `build` helpers) serve both kinds of pass.
pub trait Builder {
    fn context(&mut self) -> &mut Context;
    /// Creates an op from its parts at the insertion point.
    fn build_op(
        &mut self,
        name: Symbol,
        loc: Location,
        operands: &[Value],
        result_types: &[Type],
        attrs: &[(Symbol, Attribute)],
    ) -> Result<Op, RewriteError>;
    /// Creates an op with regions or successors at the insertion point.
    fn build(&mut self, state: OperationState) -> Result<Op, RewriteError>;
    /// Creates a terminator with successors from its parts.
    fn build_branch(
        &mut self,
        name: Symbol,
        loc: Location,
        operands: &[Value],
        attrs: &[(Symbol, Attribute)],
        successors: &[Block],
    ) -> Result<Op, RewriteError>;
    /// Creates an op with one result from its parts; returns the result.
    fn build_value(
        &mut self,
        name: Symbol,
        loc: Location,
        operands: &[Value],
        result_type: Type,
        attrs: &[(Symbol, Attribute)],
    ) -> Result<Value, RewriteError> {
        let op = self.build_op(name, loc, operands, &[result_type], attrs)?;
        Ok(self.context().result(op, 0))
    }
}

/// MLIR's `OpBuilder` for code that changes the [`Context`] directly,
/// outside any driver (no listener is told): an insertion point and the
/// location of the ops it creates. It borrows nothing, so a pass keeps
/// one across calls of its own methods. Consecutive creations land in
/// program order (at a block's end, or before an op; [`OpBuilder::at_start`]
/// turns the start of a block into the latter).
#[derive(Clone, Copy, Debug)]
pub struct OpBuilder {
    pub ip: InsertPoint,
    pub loc: Location,
}

impl OpBuilder {
    pub fn new(ip: InsertPoint, loc: Location) -> Self {
        OpBuilder { ip, loc }
    }
    pub fn at_end(b: Block, loc: Location) -> Self {
        Self::new(InsertPoint::AtEnd(b), loc)
    }
    pub fn before(op: Op, loc: Location) -> Self {
        Self::new(InsertPoint::Before(op), loc)
    }
    /// Before the op that is first in `b` now, as MLIR's block iterator.
    pub fn at_start(ctx: &Context, b: Block, loc: Location) -> Self {
        match ctx.first_op(b) {
            Some(first) => Self::before(first, loc),
            None => Self::at_end(b, loc),
        }
    }

    /// Creates an op from its parts at the insertion point (MLIR's
    /// `OpBuilder::create`).
    pub fn create(
        &self,
        ctx: &mut Context,
        name: Symbol,
        operands: &[Value],
        result_types: &[Type],
        attrs: &[(Symbol, Attribute)],
    ) -> Op {
        let op = ctx.create_op_from(name, self.loc, operands, result_types, attrs, &[], &[]);
        ctx.insert_op(self.ip, op);
        op
    }

    /// [`OpBuilder::create`] of an op with one result: the result.
    pub fn create_value(
        &self,
        ctx: &mut Context,
        name: Symbol,
        operands: &[Value],
        result_type: Type,
        attrs: &[(Symbol, Attribute)],
    ) -> Value {
        let op = self.create(ctx, name, operands, &[result_type], attrs);
        ctx.result(op, 0)
    }

    /// Creates a terminator branching to `successors` (`cf.br`,
    /// `async.coro.suspend`, ...).
    pub fn create_branch(
        &self,
        ctx: &mut Context,
        name: Symbol,
        operands: &[Value],
        successors: &[Block],
    ) -> Op {
        let op = ctx.create_op_from(name, self.loc, operands, &[], &[], &[], successors);
        ctx.insert_op(self.ip, op);
        op
    }
}

impl Builder for Rewriter<'_> {
    fn context(&mut self) -> &mut Context {
        self.ctx
    }
    fn build_op(
        &mut self,
        name: Symbol,
        loc: Location,
        operands: &[Value],
        result_types: &[Type],
        attrs: &[(Symbol, Attribute)],
    ) -> Result<Op, RewriteError> {
        self.create_op(name, loc, operands, result_types, attrs)
    }
    fn build(&mut self, state: OperationState) -> Result<Op, RewriteError> {
        self.create(state)
    }
    fn build_branch(
        &mut self,
        name: Symbol,
        loc: Location,
        operands: &[Value],
        attrs: &[(Symbol, Attribute)],
        successors: &[Block],
    ) -> Result<Op, RewriteError> {
        self.create_branch(name, loc, operands, attrs, successors)
    }
}
