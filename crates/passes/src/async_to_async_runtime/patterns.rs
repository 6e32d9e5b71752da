//! The lowering of the async ops left once `async.execute` is outlined, as
//! conversion patterns run by the dialect-conversion driver with upstream's
//! target (`AwaitTokenOpLowering`, `AwaitValueOpLowering`,
//! `AwaitAllOpLowering`, `YieldOpLowering`, `AssertOpLowering`,
//! `CreateGroupOpLowering`, `AddToGroupOpLowering` in MLIR's
//! `AsyncToAsyncRuntime.cpp`), with the structured control flow holding
//! async ops inside coroutines lowered by the shared `scf` patterns
//! ([`crate::scf_to_cf`]). What only this pass knows, the coroutines and
//! their blocks, is shared with the patterns and the target through
//! [`Coros`].

use super::{CoroMachinery, Names};
use mlir_async_dialects::asyncd::types::{self as async_types, AsyncType};
use mlir_async_dialects::cf::CondBrCache;
use mlir_async_ir::fxhash::FxHashMap;
use mlir_async_ir::{AttrKind, Block, Context, Location, Op, Value};
use mlir_async_rewrite::{
    Builder, ConversionPattern, ConversionPatternSet, ConversionRewriter, ConversionTarget,
    OpBuilder, RewriteError,
};
use mlir_async_syntax::Edition;
use std::cell::RefCell;
use std::rc::Rc;

/// The coroutines of the module by function: the outlined executes and,
/// with the option, the converted functions. The patterns create a
/// coroutine's `set_error` block on first need, hence the cell.
pub(super) type Coros = Rc<RefCell<FxHashMap<Op, CoroMachinery>>>;

/// What a pattern needs to know besides the op.
#[derive(Clone)]
struct Shared {
    coros: Coros,
    n: Rc<Names>,
    /// One per conversion: every await in a coroutine builds a branch.
    cond_br: Rc<RefCell<CondBrCache>>,
}

/// Where a pattern rewrites its op.
struct Site {
    loc: Location,
    /// The function holding the op.
    func: Option<Op>,
    /// That function's coroutine, if it is one.
    coro: Option<CoroMachinery>,
}

impl Shared {
    /// What every pattern on an op that may sit in a coroutine starts
    /// with: where the op is, with the insertion point set before it.
    fn enter(&self, rw: &mut ConversionRewriter, op: Op) -> Site {
        let ctx = rw.ctx_ref();
        let loc = ctx.op_loc(op);
        let func = func_of(ctx, &self.n, op);
        let coro = func.and_then(|f| self.coros.borrow().get(&f).cloned());
        rw.set_insertion_point(op);
        Site { loc, func, coro }
    }

    /// The coroutine's block that sets its token and values to error
    /// (upstream's `setupSetErrorBlock`): made on first need, before the
    /// cleanup block.
    fn set_error_block(&self, ctx: &mut Context, func: Op) -> Option<Block> {
        let coro = self.coros.borrow().get(&func)?.clone();
        if let Some(b) = coro.set_error {
            return Some(b);
        }
        let b = ctx.create_block(&[]);
        ctx.insert_block_before(coro.cleanup, b);
        let at = OpBuilder::at_end(b, ctx.op_loc(coro.func));
        for &v in std::iter::once(&coro.token).chain(coro.return_values.iter()) {
            at.create(ctx, self.n.async_runtime_set_error, &[v], &[], &[]);
        }
        at.create_branch(ctx, self.n.cf_br, &[], &[coro.cleanup]);
        if let Some(c) = self.coros.borrow_mut().get_mut(&func) {
            c.set_error = Some(b);
        }
        Some(b)
    }
}

/// The `func.func` holding `op`.
pub(super) fn func_of(ctx: &Context, n: &Names, op: Op) -> Option<Op> {
    let f = n.func_func;
    ctx.ancestor(op, |c, o| c.op(o).name == f)
}

fn is_allowed_to_block(ctx: &Context, n: &Names, func: Op) -> bool {
    ctx.get_attr_sym(func, n.async_allowed_to_block).is_some()
}

/// The target: upstream's legality, op for op.
pub(super) fn target(coros: &Coros, n: &Rc<Names>, eliminate: bool) -> ConversionTarget {
    let mut target = ConversionTarget::new();
    // All high level async operations must be lowered to the runtime ones.
    target.add_legal_dialect("async");
    for op in [
        "async.create_group",
        "async.add_to_group",
        "async.execute",
        "async.await",
        "async.await_all",
        "async.yield",
    ] {
        target.add_illegal_op(op);
    }
    // Structured control flow that holds an async op inside a coroutine is
    // lowered to branches, so that awaits can split its blocks.
    let (c, names) = (coros.clone(), n.clone());
    let is_async = RefCell::new(Vec::<u8>::new());
    target.add_dynamically_legal_dialect("scf", move |ctx, op| {
        if ctx.regions_of(op).is_empty() {
            return true;
        }
        let in_coroutine = func_of(ctx, &names, op).is_some_and(|f| c.borrow().contains_key(&f));
        !in_coroutine || !holds_async_op(ctx, op, &mut is_async.borrow_mut())
    });
    for op in [
        "arith.xori",
        "arith.constant",
        "func.constant",
        "cf.br",
        "cf.cond_br",
    ] {
        target.add_legal_op(op);
    }
    // Assertions must become runtime errors inside coroutines.
    let (c, names) = (coros.clone(), n.clone());
    target.add_dynamically_legal_op("cf.assert", move |ctx, op| {
        !func_of(ctx, &names, op).is_some_and(|f| c.borrow().contains_key(&f))
    });
    if eliminate {
        let names = n.clone();
        target.add_dynamically_legal_op("async.runtime.await", move |ctx, op| {
            func_of(ctx, &names, op).is_some_and(|f| is_allowed_to_block(ctx, &names, f))
        });
    }
    target
}

/// Whether an op of the async dialect is nested in `op`; `memo` caches
/// the answer per op name (by its symbol's index: 1 no, 2 yes).
fn holds_async_op(ctx: &Context, op: Op, memo: &mut Vec<u8>) -> bool {
    let mut found = false;
    ctx.walk_nested(op, &mut |o| {
        if found {
            return;
        }
        let i = ctx.op(o).name.index();
        if memo.len() <= i {
            memo.resize(i + 1, 0);
        }
        if memo[i] == 0 {
            memo[i] = if ctx.name(o).starts_with("async.") {
                2
            } else {
                1
            };
        }
        found = memo[i] == 2;
    });
    found
}

/// The patterns, as upstream adds them: the shared `scf` lowering, then
/// the async ops'.
pub(super) fn populate(
    set: &mut ConversionPatternSet,
    coros: &Coros,
    n: &Rc<Names>,
    eliminate: bool,
    edition: Edition,
) {
    crate::scf_to_cf::populate_scf_to_cf_patterns(set);
    let shared = Shared {
        coros: coros.clone(),
        n: n.clone(),
        cond_br: Rc::default(),
    };
    set.add(GroupLowering {
        root: "async.create_group",
        name: "CreateGroupOpLowering",
        n: n.clone(),
    })
    .add(GroupLowering {
        root: "async.add_to_group",
        name: "AddToGroupOpLowering",
        n: n.clone(),
    });
    for (root, name, awaitable) in [
        ("async.await", "AwaitTokenOpLowering", Awaitable::Token),
        ("async.await", "AwaitValueOpLowering", Awaitable::Value),
        ("async.await_all", "AwaitAllOpLowering", Awaitable::Group),
    ] {
        set.add(AwaitLowering {
            root,
            name,
            awaitable,
            shared: shared.clone(),
            eliminate,
            check_error: edition != Edition::V13,
        });
    }
    set.add(YieldLowering {
        shared: shared.clone(),
    })
    .add(AssertLowering { shared });
    if eliminate {
        set.add(BlockingAwaitReport);
    }
}

/// `async.create_group` and `async.add_to_group` become their runtime ops.
struct GroupLowering {
    root: &'static str,
    name: &'static str,
    n: Rc<Names>,
}

impl ConversionPattern for GroupLowering {
    fn root(&self) -> Option<&str> {
        Some(self.root)
    }
    fn name(&self) -> &str {
        self.name
    }
    fn match_and_rewrite(
        &self,
        op: Op,
        operands: &[Value],
        rw: &mut ConversionRewriter,
    ) -> Result<bool, RewriteError> {
        let loc = rw.ctx_ref().op_loc(op);
        let (name, ty) = if self.root == "async.create_group" {
            (
                self.n.async_runtime_create_group,
                async_types::group(rw.ctx()),
            )
        } else {
            (self.n.async_runtime_add_to_group, rw.ctx().index_type())
        };
        rw.set_insertion_point(op);
        let v = rw.build_value(name, loc, operands, ty, &[])?;
        rw.replace_op(op, &[v])?;
        Ok(true)
    }
}

/// What an await pattern awaits (upstream's `AwaitableType`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Awaitable {
    Token,
    Value,
    Group,
}

/// `async.await` / `async.await_all`: a blocking wait outside coroutines,
/// a suspension point inside them (upstream's `AwaitOpLoweringBase`).
struct AwaitLowering {
    root: &'static str,
    name: &'static str,
    awaitable: Awaitable,
    shared: Shared,
    eliminate: bool,
    /// LLVM 13 did not check the error state after a blocking wait.
    check_error: bool,
}

impl AwaitLowering {
    /// Whether `op` awaits what this pattern lowers (upstream's
    /// `isa<AwaitableType>` test on the operand).
    fn awaits_mine(&self, ctx: &Context, op: Op) -> bool {
        let Some(&orig) = ctx.operands(op).first() else {
            return false;
        };
        let kind = async_types::classify(ctx, ctx.value_type(orig));
        match self.awaitable {
            Awaitable::Token => kind == Some(AsyncType::Token),
            Awaitable::Value => matches!(kind, Some(AsyncType::Value(_))),
            Awaitable::Group => kind == Some(AsyncType::Group),
        }
    }
}

impl ConversionPattern for AwaitLowering {
    fn root(&self) -> Option<&str> {
        Some(self.root)
    }
    fn name(&self) -> &str {
        self.name
    }
    fn matches(&self, ctx: &Context, op: Op) -> bool {
        self.awaits_mine(ctx, op)
    }
    fn match_and_rewrite(
        &self,
        op: Op,
        operands: &[Value],
        rw: &mut ConversionRewriter,
    ) -> Result<bool, RewriteError> {
        // The driver asked `matches` first: the operand is this pattern's.
        let Some(&operand) = operands.first() else {
            return Ok(false);
        };
        let n = &*self.shared.n;
        let site = self.shared.enter(rw, op);
        let loc = site.loc;
        match site {
            Site {
                func: Some(func),
                coro: Some(coro),
                ..
            } => self.suspend(op, operand, func, &coro, rw)?,
            Site { func, .. } => {
                let ctx = rw.ctx_ref();
                if self.eliminate && !func.is_some_and(|f| is_allowed_to_block(ctx, n, f)) {
                    return Err(RewriteError::on_op(
                        ctx,
                        op,
                        format!(
                            "'{}' op cannot be made non-blocking: it is not inside a function that can become a coroutine",
                            ctx.name(op)
                        ),
                    ));
                }
                self.block(operand, loc, rw)?;
            }
        }
        // Erase or replace the await with the value it unwraps, built
        // where the await stands (in a coroutine: the continuation).
        let ctx = rw.ctx_ref();
        let inner = async_types::value_inner(ctx, ctx.value_type(operand));
        match inner {
            Some(inner) if !ctx.results(op).is_empty() => {
                rw.set_insertion_point(op);
                let v = rw.build_value(n.async_runtime_load, loc, &[operand], inner, &[])?;
                rw.replace_op(op, &[v])?;
            }
            _ => rw.erase_op(op)?,
        }
        Ok(true)
    }
}

impl AwaitLowering {
    /// Outside coroutines: the blocking wait, then (from LLVM 14) the
    /// assertion that the operand is not in the error state.
    fn block(
        &self,
        operand: Value,
        loc: Location,
        rw: &mut ConversionRewriter,
    ) -> Result<(), RewriteError> {
        let n = &*self.shared.n;
        rw.create_op(n.async_runtime_await, loc, &[operand], &[], &[])?;
        if !self.check_error {
            return Ok(());
        }
        let ctx = rw.ctx();
        let i1 = ctx.int_type(1);
        let t = ctx.attr(AttrKind::Bool(true));
        let msg = ctx.string_attr("Awaited async operand is in error state");
        let is_error = rw.build_value(n.async_runtime_is_error, loc, &[operand], i1, &[])?;
        let true_v = rw.build_value(n.arith_constant, loc, &[], i1, &[(n.value, t)])?;
        let not_error = rw.build_value(n.arith_xori, loc, &[is_error, true_v], i1, &[])?;
        rw.create_op(n.cf_assert, loc, &[not_error], &[], &[(n.msg, msg)])?;
        Ok(())
    }

    /// Inside a coroutine: save the state, resume when the operand is
    /// ready, suspend; on resumption branch to `set_error` if the operand
    /// is in error, else go on with the rest of the block. The insertion
    /// point is before the await.
    fn suspend(
        &self,
        op: Op,
        operand: Value,
        func: Op,
        coro: &CoroMachinery,
        rw: &mut ConversionRewriter,
    ) -> Result<(), RewriteError> {
        let n = &*self.shared.n;
        let ctx = rw.ctx();
        let loc = ctx.op_loc(op);
        let Some(suspended) = ctx.parent_block(op) else {
            return Err(RewriteError::at(loc, "the op is in no block"));
        };
        let state_t = async_types::coro_state(ctx);
        let i1 = ctx.int_type(1);
        let state = rw.build_value(n.async_coro_save, loc, &[coro.handle], state_t, &[])?;
        rw.create_op(
            n.async_runtime_await_and_resume,
            loc,
            &[operand, coro.handle],
            &[],
            &[],
        )?;
        // suspended -> resume -> continuation (from the await on): the
        // tail of the block moves once.
        let continuation = rw.split_block(suspended, op);
        let ctx = rw.ctx();
        let resume = ctx.create_block(&[]);
        ctx.insert_block_after(suspended, resume);
        rw.set_insertion_point_to_end(suspended);
        rw.create_branch(
            n.async_coro_suspend,
            loc,
            &[state],
            &[],
            &[coro.suspend, resume, coro.cleanup],
        )?;
        rw.set_insertion_point_to_end(resume);
        let is_error = rw.build_value(n.async_runtime_is_error, loc, &[operand], i1, &[])?;
        let Some(set_error) = self.shared.set_error_block(rw.ctx(), func) else {
            return Err(RewriteError::at(loc, "the coroutine has no machinery"));
        };
        self.shared.cond_br.borrow_mut().build(
            rw,
            loc,
            is_error,
            (set_error, &[]),
            (continuation, &[]),
        )?;
        Ok(())
    }
}

/// `async.yield` stores each value into the coroutine's `!async.value`
/// results and marks them and the token available.
struct YieldLowering {
    shared: Shared,
}

impl ConversionPattern for YieldLowering {
    fn root(&self) -> Option<&str> {
        Some("async.yield")
    }
    fn name(&self) -> &str {
        "YieldOpLowering"
    }
    fn match_and_rewrite(
        &self,
        op: Op,
        operands: &[Value],
        rw: &mut ConversionRewriter,
    ) -> Result<bool, RewriteError> {
        let Site {
            loc,
            coro: Some(coro),
            ..
        } = self.shared.enter(rw, op)
        else {
            return Err(RewriteError::on_op(
                rw.ctx_ref(),
                op,
                "'async.yield' op is not inside an async coroutine function",
            ));
        };
        let n = &*self.shared.n;
        for (&v, &rv) in operands.iter().zip(coro.return_values.iter()) {
            rw.create_op(n.async_runtime_store, loc, &[v, rv], &[], &[])?;
            rw.create_op(n.async_runtime_set_available, loc, &[rv], &[], &[])?;
        }
        rw.create_op(n.async_runtime_set_available, loc, &[coro.token], &[], &[])?;
        rw.erase_op(op)?;
        Ok(true)
    }
}

/// `cf.assert` inside a coroutine branches to its `set_error` block.
struct AssertLowering {
    shared: Shared,
}

impl ConversionPattern for AssertLowering {
    fn root(&self) -> Option<&str> {
        Some("cf.assert")
    }
    fn name(&self) -> &str {
        "AssertOpLowering"
    }
    fn match_and_rewrite(
        &self,
        op: Op,
        operands: &[Value],
        rw: &mut ConversionRewriter,
    ) -> Result<bool, RewriteError> {
        let Site {
            loc,
            func: Some(func),
            coro: Some(_),
        } = self.shared.enter(rw, op)
        else {
            return Ok(false);
        };
        let (Some(block), Some(&arg)) = (rw.ctx_ref().parent_block(op), operands.first()) else {
            return Ok(false);
        };
        let Some(set_error) = self.shared.set_error_block(rw.ctx(), func) else {
            return Ok(false);
        };
        let cont = rw.split_block(block, op);
        rw.set_insertion_point_to_end(block);
        self.shared
            .cond_br
            .borrow_mut()
            .build(rw, loc, arg, (cont, &[]), (set_error, &[]))?;
        rw.erase_op(op)?;
        Ok(true)
    }
}

/// With the option, a blocking `async.runtime.await` the input wrote in a
/// function not allowed to block is what the target finds illegal; the
/// option rewrites `async.await`/`async.await_all` only, so this is
/// reported rather than left blocking.
struct BlockingAwaitReport;

impl ConversionPattern for BlockingAwaitReport {
    fn root(&self) -> Option<&str> {
        Some("async.runtime.await")
    }
    fn name(&self) -> &str {
        "BlockingAwaitReport"
    }
    fn match_and_rewrite(
        &self,
        op: Op,
        _: &[Value],
        rw: &mut ConversionRewriter,
    ) -> Result<bool, RewriteError> {
        Err(RewriteError::on_op(
            rw.ctx_ref(),
            op,
            "'async.runtime.await' op blocks in a function that is not allowed to block: eliminate-blocking-await-ops only rewrites async.await and async.await_all",
        ))
    }
}
