//! `async-to-async-runtime`: lowers `async.execute`, `async.await` and
//! groups to explicit `async.runtime.*` and `async.coro.*` operations.
//!
//! Every `async.execute` becomes a private coroutine function
//! (`@async_execute_fn`, `_0`, `_1`, ...) called in its place. With
//! `eliminate-blocking-await-ops`, every function that would block on an
//! await becomes a coroutine too, and its callers transitively. See
//! `docs/async-to-async-runtime.md` for the coroutine structure and for what
//! goes beyond upstream.
//!
//! In upstream's order: outline executes (innermost first) and turn
//! blocking functions into coroutines, which is this pass's own logic;
//! then lower the async ops, and the structured control flow holding them
//! inside coroutines, with the dialect-conversion driver and upstream's
//! target and patterns ([`patterns`], with the shared `scf` lowering),
//! which also folds the ops the target leaves open, as upstream's does.

use crate::{OptionKind, Pass, PassContext, PassInfo, PassOption};
use mlir_async_dialects::asyncd::value_inner;
use mlir_async_dialects::build::{add_entry_block, FuncBuilder};
use mlir_async_dialects::builtin::{
    coroutine_passthrough, func_arg_attrs, func_type, set_func_arg_attrs,
};
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_dialects::util::segments;
use mlir_async_ir::fxhash::{FxHashMap, FxHashSet};
use mlir_async_ir::*;
use mlir_async_rewrite::{
    apply_conversion_with, ConversionConfig, ConversionMode, ConversionPatternSet, OpBuilder,
};
use std::collections::HashMap;
use std::rc::Rc;

mod patterns;
mod sharded;
pub use sharded::{exchange, run_shard, Coordinator, NotSharded, ShardLink};

/// Prefix of the functions outlined from `async.execute` regions.
const ASYNC_FN_PREFIX: &str = "async_execute_fn";

/// The pass's options, as upstream declares them.
const OPTIONS: &[PassOption] = &[PassOption::new(
            "eliminate-blocking-await-ops",
            OptionKind::Bool,
            "false",
            "Rewrite functions with blocking async.runtime.await as coroutines with async.runtime.await_and_resume.",
        )];

pub fn info() -> PassInfo {
    PassInfo {
        arg: "async-to-async-runtime",
        summary: "Lower high level async operations (e.g. async.execute) to the explicit async.runtime and async.coro operations",
        options: OPTIONS,
        anchor: "builtin.module",
        make: |opts| {
            let eliminate = opts.bool("eliminate-blocking-await-ops");
            Ok(Box::new(AsyncToAsyncRuntime { eliminate }))
        },
    }
}

pub struct AsyncToAsyncRuntime {
    pub eliminate: bool,
}

impl Pass for AsyncToAsyncRuntime {
    fn name(&self) -> &'static str {
        "async-to-async-runtime"
    }
    fn display_name(&self) -> &'static str {
        "AsyncToAsyncRuntime"
    }
    fn run(&self, pc: &mut PassContext, module: Op) -> Result<(), IrError> {
        let mut lowering = Lowering::new(pc, module);
        lowering.run(self.eliminate)
    }
}

/// The blocks and values that make a function a coroutine.
#[derive(Clone)]
struct CoroMachinery {
    func: Op,
    /// Completion token returned to the caller of the ramp function.
    token: Value,
    /// Async values returned to the caller.
    /// Shared: every await and yield lowered in the function looks the
    /// machinery up, and a copy of a `Vec` was an allocation each time.
    return_values: std::rc::Rc<[Value]>,
    handle: Value,
    entry: Block,
    /// Sets the token and values to error; created on first need.
    set_error: Option<Block>,
    cleanup: Block,
    suspend: Block,
}

mlir_async_ir::names! {
    /// The op and attribute names the pass builds and matches.
    struct Names {
        arith_constant = "arith.constant",
        arith_xori = "arith.xori",
        // Functions with this unit attribute keep blocking awaits.
        async_allowed_to_block = "async.allowed_to_block",
        async_await = "async.await",
        async_await_all = "async.await_all",
        async_coro_begin = "async.coro.begin",
        async_coro_end = "async.coro.end",
        async_coro_free = "async.coro.free",
        async_coro_id = "async.coro.id",
        async_coro_save = "async.coro.save",
        async_coro_suspend = "async.coro.suspend",
        async_execute = "async.execute",
        async_runtime_add_to_group = "async.runtime.add_to_group",
        async_runtime_await = "async.runtime.await",
        async_runtime_await_and_resume = "async.runtime.await_and_resume",
        async_runtime_create = "async.runtime.create",
        async_runtime_create_group = "async.runtime.create_group",
        async_runtime_is_error = "async.runtime.is_error",
        async_runtime_load = "async.runtime.load",
        async_runtime_resume = "async.runtime.resume",
        async_runtime_set_available = "async.runtime.set_available",
        async_runtime_set_error = "async.runtime.set_error",
        async_runtime_store = "async.runtime.store",
        async_yield = "async.yield",
        cf_assert = "cf.assert",
        cf_br = "cf.br",
        func_call = "func.call",
        func_constant = "func.constant",
        func_func = "func.func",
        func_return = "func.return",
        callee = "callee",
        msg = "msg",
        passthrough = "passthrough",
        value = "value",
    }
}

struct Lowering<'p, 'a> {
    pc: &'p mut PassContext<'a>,
    module: Op,
    /// The coroutines by function, shared with the patterns.
    coros: patterns::Coros,
    /// Names of the module's symbols: outlining adds one per
    /// `async.execute`.
    symbols: SymbolNames,
    /// Scratch set for the value walks of outlining, kept between calls
    /// so that each execute does not grow a fresh table.
    seen_values: FxHashSet<Value>,
    /// Scratch list of the ops of an outlined function, for remapping.
    scratch_ops: Vec<Op>,
    /// Operand slots (op, index) of an execute body that use values
    /// defined above it; see [`Lowering::used_values_defined_above`].
    captured_uses: Vec<(Op, u32)>,
    n: Rc<Names>,
    funcs: FuncBuilder,
    /// The coroutine `passthrough` attribute, built on first use.
    passthrough: Option<Option<Attribute>>,
    /// Set when the module is one shard of several (see [`sharded`]).
    shard: Option<sharded::ShardLink>,
    /// Of a shard, with the option: the functions of the whole module
    /// that become coroutines.
    shard_converted: Option<std::sync::Arc<FxHashSet<String>>>,
}

impl<'p, 'a> Lowering<'p, 'a> {
    fn new(pc: &'p mut PassContext<'a>, module: Op) -> Self {
        let symbols = SymbolNames::of_table(pc.ctx, module);
        let n = Rc::new(Names::new(pc.ctx));
        let funcs = FuncBuilder::new(pc.ctx);
        Lowering {
            pc,
            module,
            coros: patterns::Coros::default(),
            symbols,
            seen_values: FxHashSet::default(),
            scratch_ops: vec![],
            captured_uses: vec![],
            n,
            funcs,
            passthrough: None,
            shard: None,
            shard_converted: None,
        }
    }

    fn ctx(&mut self) -> &mut Context {
        self.pc.ctx
    }

    fn func_of(&self, op: Op) -> Option<Op> {
        patterns::func_of(self.pc.ctx, &self.n, op)
    }

    fn is_allowed_to_block(&self, func: Op) -> bool {
        self.pc
            .ctx
            .get_attr_sym(func, self.n.async_allowed_to_block)
            .is_some()
    }

    // ----- driver -----

    fn run(&mut self, eliminate: bool) -> Result<(), IrError> {
        // Outline innermost executes first (post-order), as upstream's walk.
        let mut executes = vec![];
        let ctx = &*self.pc.ctx;
        let exec = self.n.async_execute;
        ctx.walk_post(self.module, &mut |o| {
            if ctx.op(o).name == exec {
                executes.push(o)
            }
        });
        // Each outlined function brings a name, its string and symbol
        // reference attributes, and a function type.
        self.ctx().reserve_interned(3 * executes.len());
        // And about thirty ops (with their values and lists) in the
        // coroutine it becomes and in its awaits' lowering: room made once
        // instead of arenas doubling (each a copy, and page faults on all
        // of the copy when the arena is small enough to live on the heap).
        self.ctx().reserve_ops(32 * executes.len());
        self.shard_start(executes.len(), eliminate)?;
        self.symbols.reserve(executes.len());
        self.coros.borrow_mut().reserve(executes.len());
        for e in executes {
            let (f, coro) = self.outline_execute(e)?;
            self.coros.borrow_mut().insert(f, coro);
        }
        if eliminate {
            self.funcs_to_coroutines()?;
        }
        self.lower_async_ops(eliminate)
    }

    /// Lowers the async ops (and the structured control flow holding them
    /// inside coroutines) with the dialect-conversion driver, upstream's
    /// target and patterns. The driver also folds every op whose legality
    /// the target leaves open (all of `arith` but `arith.constant` and
    /// `arith.xori`, for one), as upstream's does.
    fn lower_async_ops(&mut self, eliminate: bool) -> Result<(), IrError> {
        let target = patterns::target(&self.coros, &self.n, eliminate);
        let mut set = ConversionPatternSet::new();
        patterns::populate(&mut set, &self.coros, &self.n, eliminate, self.pc.edition);
        let ifaces = Interfaces::new(self.pc.registry, self.pc.edition);
        // Beyond upstream: blocks no branch reaches are lowered too, and
        // the `arith` ops the `scf.for` lowering makes inside a coroutine
        // (which upstream fails on) stay.
        let config = ConversionConfig {
            visit_unreachable_blocks: true,
            keep_open_created_ops: true,
            ..ConversionConfig::new(ConversionMode::Partial)
        };
        apply_conversion_with(
            self.pc.ctx,
            self.module,
            &target,
            &set,
            None,
            &ifaces,
            config,
        )
        .map_err(|e| e.into_ir_error(self.pc.ctx))
    }

    // ----- outlining -----

    /// Values used inside `region` (of `owner`) and defined outside it, in
    /// the order of a post-order walk (as MLIR's `getUsedValuesDefinedAbove`).
    /// Returns the scratch set for the next use, unless it grew large:
    /// clearing a table costs its capacity, and one huge execute must
    /// not make every later one pay for it.
    fn keep_scratch(&mut self, seen: FxHashSet<Value>) {
        if seen.capacity() <= 1024 {
            self.seen_values = seen;
        }
    }

    /// Also leaves in `self.captured_uses` every operand slot that uses
    /// one of them: the remapping after outlining visits just those.
    fn used_values_defined_above(&mut self, owner: Op) -> Vec<Value> {
        let ctx = &*self.pc.ctx;
        let mut seen = std::mem::take(&mut self.seen_values);
        seen.clear();
        let mut uses = std::mem::take(&mut self.captured_uses);
        uses.clear();
        let mut out = vec![];
        let mut visit = |o: Op| {
            for (i, &v) in ctx.operands(o).iter().enumerate() {
                let inside = ctx
                    .value_block(v)
                    .and_then(|b| ctx.block_parent_op(b))
                    .is_some_and(|p| ctx.is_ancestor(owner, p));
                if !inside {
                    uses.push((o, i as u32));
                    if seen.insert(v) {
                        out.push(v);
                    }
                }
            }
        };
        ctx.walk_post(owner, &mut visit);
        self.keep_scratch(seen);
        self.captured_uses = uses;
        out
    }

    /// Clones the constants among `captures` into the region, so that they
    /// need not become function arguments; returns original -> clone.
    fn clone_constants_into_region(
        &mut self,
        owner: Op,
        captures: &[Value],
    ) -> FxHashMap<Value, Value> {
        let mut clones = FxHashMap::default();
        let body = self.pc.ctx.regions_of(owner)[0];
        let Some(entry) = self.pc.ctx.entry_block(body) else {
            return clones;
        };
        let Some(first) = self.pc.ctx.first_op(entry) else {
            return clones;
        };
        for &v in captures {
            let Some(def) = self.pc.ctx.defining_op(v) else {
                continue;
            };
            if !self.pc.ctx.is(def, self.n.arith_constant)
                && !self.pc.ctx.is(def, self.n.func_constant)
            {
                continue;
            }
            let mut map = HashMap::new();
            let clone = self
                .ctx()
                .clone_op(def, InsertPoint::Before(first), &mut map);
            clones.insert(v, self.pc.ctx.result(clone, 0));
        }
        clones
    }

    /// A private `func.func` named `name` (uniqued in the module), with an
    /// entry block taking `ins`, where `SymbolTable::insert` puts it.
    fn private_func(
        &mut self,
        loc: Location,
        name: &str,
        ins: &[Type],
        outs: &[Type],
        extra: &[(Symbol, Attribute)],
    ) -> Result<(Op, Block, Symbol), IrError> {
        let ctx = &mut *self.pc.ctx;
        let (sym, text) = self.symbols.unique(ctx, name);
        let body = ctx.create_region();
        let entry = add_entry_block(ctx, body, ins, loc);
        let op = self
            .funcs
            .private_func(ctx, loc, &text, ins, outs, extra, body);
        let ip = ctx
            .symbol_insertion_point(self.module)
            .ok_or_else(|| IrError::new(loc, "the module has no body"))?;
        ctx.insert_op(ip, op);
        Ok((op, entry, sym))
    }

    fn outline_execute(&mut self, exec: Op) -> Result<(Op, CoroMachinery), IrError> {
        let loc = self.pc.ctx.op_loc(exec);
        let captures = self.used_values_defined_above(exec);
        // LLVM 13 passed captured constants as arguments.
        let constants = if self.pc.edition != mlir_async_syntax::Edition::V13 {
            self.clone_constants_into_region(exec, &captures)
        } else {
            FxHashMap::default()
        };
        let mut segs = segments(self.pc.ctx, exec, 2).into_iter();
        let (deps, vals) = (
            segs.next().unwrap_or_default(),
            segs.next().unwrap_or_default(),
        );
        let mut inputs: Vec<Value> = vec![];
        let mut seen = std::mem::take(&mut self.seen_values);
        seen.clear();
        for &v in deps.iter().chain(&vals) {
            if seen.insert(v) {
                inputs.push(v);
            }
        }
        for v in captures {
            if !constants.contains_key(&v) && seen.insert(v) {
                inputs.push(v);
            }
        }
        self.keep_scratch(seen);
        let ctx = self.ctx();
        let input_types: Vec<Type> = inputs.iter().map(|&v| ctx.value_type(v)).collect();
        let output_types: Vec<Type> = ctx
            .results(exec)
            .iter()
            .map(|&v| ctx.value_type(v))
            .collect();
        let (func, entry, fname) =
            self.private_func(loc, ASYNC_FN_PREFIX, &input_types, &output_types, &[])?;

        // Await dependencies and unwrap value operands, then clone the body.
        // A token or value listed twice is one argument (the inputs are a
        // set, as upstream's `SetVector`), so it is awaited once, and every
        // body argument of a repeated operand gets the same payload; indexing
        // the arguments by list position instead reads past their end.
        let args = self.pc.ctx.block_args(entry).to_vec();
        let cur = OpBuilder::at_end(entry, loc);
        let mut map: FxHashMap<Value, Value> =
            inputs.iter().copied().zip(args.iter().copied()).collect();
        let mut awaited_deps: FxHashSet<Value> = FxHashSet::default();
        for &d in &deps {
            if awaited_deps.insert(d) {
                cur.create(self.pc.ctx, self.n.async_await, &[map[&d]], &[], &[]);
            }
        }
        let mut awaited: FxHashMap<Value, Value> = FxHashMap::default();
        let mut unwrapped: Vec<Value> = Vec::with_capacity(vals.len());
        for &v in &vals {
            if let Some(&u) = awaited.get(&v) {
                unwrapped.push(u);
                continue;
            }
            let a = map[&v];
            let t = self.pc.ctx.value_type(a);
            let inner = value_inner(self.pc.ctx, t).ok_or_else(|| {
                IrError::new(loc, "'async.execute' operand is not an !async.value")
            })?;
            let u = cur.create_value(self.pc.ctx, self.n.async_await, &[a], inner, &[]);
            awaited.insert(v, u);
            unwrapped.push(u);
        }
        // Move (rather than clone) the body: the result is the same IR,
        // with captured values, constants and block arguments remapped.
        map.extend(constants);
        let exec_body = self.pc.ctx.regions_of(exec)[0];
        match self.pc.ctx.single_block(exec_body) {
            // The usual body: its ops move in one splice, its arguments
            // replaced by the unwrapped values, and captured values are
            // replaced where the capture walk found them.
            Some(b) if self.pc.ctx.block_args(b).len() == unwrapped.len() => {
                self.ctx()
                    .inline_block(b, InsertPoint::AtEnd(entry), &unwrapped);
                for k in 0..self.captured_uses.len() {
                    let (o, i) = self.captured_uses[k];
                    let i = i as usize;
                    if let Some(&n) = map.get(&self.pc.ctx.operand(o, i)) {
                        self.ctx().set_operand(o, i, n);
                    }
                }
            }
            _ => {
                for b in self.pc.ctx.region_blocks(exec_body).to_vec() {
                    for (i, &a) in self.pc.ctx.block_args(b).to_vec().iter().enumerate() {
                        if let Some(&u) = unwrapped.get(i) {
                            map.insert(a, u);
                        }
                    }
                    for o in self.pc.ctx.block_ops(b) {
                        self.ctx().detach_op(o);
                        self.ctx().insert_op(InsertPoint::AtEnd(entry), o);
                    }
                }
                self.remap_operands(func, &map);
            }
        }

        let coro = self.setup_coro_machinery(func);

        // Suspend at the end of the entry block; the runtime resumes the
        // coroutine on one of its threads.
        let br = self
            .pc
            .ctx
            .last_op(coro.entry)
            .expect("entry ends with a branch");
        let dest = self.pc.ctx.successors(br)[0];
        self.ctx().erase_op(br).map_err(|m| IrError::new(loc, m))?;
        let cur = OpBuilder::at_end(coro.entry, loc);
        let (ctx, n) = (&mut *self.pc.ctx, &*self.n);
        let state_t = mlir_async_dialects::asyncd::types::coro_state(ctx);
        let state = cur.create_value(ctx, n.async_coro_save, &[coro.handle], state_t, &[]);
        cur.create(ctx, n.async_runtime_resume, &[coro.handle], &[], &[]);
        self.build_suspend(&cur, state, &coro, dest);

        // Replace the execute by a call of the outlined function.
        let cur = OpBuilder::before(exec, loc);
        let call = self.build_call(&cur, fname, &inputs, &output_types);
        for (i, r) in self.pc.ctx.results(exec).to_vec().into_iter().enumerate() {
            let n = self.pc.ctx.result(call, i);
            self.ctx().replace_all_uses_with(r, n);
        }
        self.ctx()
            .erase_op(exec)
            .map_err(|m| IrError::new(loc, m))?;
        Ok((func, coro))
    }

    /// Replaces operands found in `map` in everything nested in `op`.
    fn remap_operands(&mut self, op: Op, map: &FxHashMap<Value, Value>) {
        if map.is_empty() {
            return;
        }
        let mut ops = std::mem::take(&mut self.scratch_ops);
        ops.clear();
        self.pc.ctx.walk_nested(op, &mut |o| ops.push(o));
        for &o in &ops {
            for i in 0..self.pc.ctx.operands(o).len() {
                if let Some(&n) = map.get(&self.pc.ctx.operand(o, i)) {
                    self.ctx().set_operand(o, i, n);
                }
            }
        }
        self.scratch_ops = ops;
    }

    fn build_call(
        &mut self,
        b: &OpBuilder,
        callee: Symbol,
        args: &[Value],
        results: &[Type],
    ) -> Op {
        let (ctx, n) = (&mut *self.pc.ctx, &*self.n);
        let a = ctx.attr(AttrKind::SymbolRef(callee, vec![]));
        b.create(ctx, n.func_call, args, results, &[(n.callee, a)])
    }

    fn build_suspend(&mut self, b: &OpBuilder, state: Value, coro: &CoroMachinery, resume: Block) {
        let succ = [coro.suspend, resume, coro.cleanup];
        b.create_branch(self.pc.ctx, self.n.async_coro_suspend, &[state], &succ);
    }

    /// Turns a function whose results are `(!async.token, !async.value...)`
    /// into a coroutine: a new entry block creating the token, values, id
    /// and handle, and trailing `cleanup` and `suspend` blocks.
    fn setup_coro_machinery(&mut self, func: Op) -> CoroMachinery {
        let loc = self.pc.ctx.op_loc(func);
        let body = self.pc.ctx.regions_of(func)[0];
        let entry = self.pc.ctx.entry_block(body).expect("function has a body");
        let first = self
            .pc
            .ctx
            .first_op(entry)
            .expect("entry block has a terminator");
        let original_entry = self.ctx().split_block(entry, first);
        let (ctx, n) = (&mut *self.pc.ctx, &*self.n);
        let (_, outs) = func_type(ctx, func);
        let cur = OpBuilder::at_end(entry, loc);
        let token = cur.create_value(ctx, n.async_runtime_create, &[], outs[0], &[]);
        let mut return_values = vec![];
        for &t in &outs[1..] {
            return_values.push(cur.create_value(ctx, n.async_runtime_create, &[], t, &[]));
        }
        let id_t = mlir_async_dialects::asyncd::types::coro_id(ctx);
        let hdl_t = mlir_async_dialects::asyncd::types::coro_handle(ctx);
        let id = cur.create_value(ctx, n.async_coro_id, &[], id_t, &[]);
        let handle = cur.create_value(ctx, n.async_coro_begin, &[id], hdl_t, &[]);
        cur.create_branch(ctx, n.cf_br, &[], &[original_entry]);

        let cleanup = ctx.create_block(&[]);
        let suspend = ctx.create_block(&[]);
        ctx.append_block(body, cleanup);
        ctx.append_block(body, suspend);
        let cur = OpBuilder::at_end(cleanup, loc);
        cur.create(ctx, n.async_coro_free, &[id, handle], &[], &[]);
        cur.create_branch(ctx, n.cf_br, &[], &[suspend]);
        let cur = OpBuilder::at_end(suspend, loc);
        cur.create(ctx, n.async_coro_end, &[handle], &[], &[]);
        let mut ret = vec![token];
        ret.extend(&return_values);
        cur.create(ctx, n.func_return, &ret, &[], &[]);

        for b in ctx.region_blocks(body).to_vec() {
            if b == entry || b == cleanup || b == suspend {
                continue;
            }
            if ctx.last_op(b).is_some_and(|t| ctx.is(t, n.async_yield)) {
                OpBuilder::at_end(b, loc).create_branch(ctx, n.cf_br, &[], &[cleanup]);
            }
        }
        let edition = self.pc.edition;
        let pt = match self.passthrough {
            Some(pt) => pt,
            None => {
                let pt = coroutine_passthrough(self.ctx(), edition);
                self.passthrough = Some(pt);
                pt
            }
        };
        if let Some(pt) = pt {
            let key = self.n.passthrough;
            self.ctx().set_attr_sym(func, key, pt);
        }
        CoroMachinery {
            func,
            token,
            return_values: return_values.into(),
            handle,
            entry,
            set_error: None,
            cleanup,
            suspend,
        }
    }

    // ----- eliminate-blocking-await-ops -----

    fn module_funcs(&self) -> Vec<Op> {
        let ctx = &*self.pc.ctx;
        let r = ctx.regions_of(self.module)[0];
        let b = ctx.entry_block(r).expect("module has a body");
        ctx.block_ops_iter(b)
            .filter(|&o| self.pc.ctx.is(o, self.n.func_func))
            .collect()
    }

    /// Rewrites a function's signature as a coroutine's: results wrapped
    /// into `!async.value`, prefixed by `!async.token`.
    fn coroutine_signature(&mut self, func: Op) {
        let (ins, outs) = func_type(self.pc.ctx, func);
        let token = mlir_async_dialects::asyncd::types::token(self.ctx());
        let mut new_outs = vec![token];
        for &t in &outs {
            new_outs.push(mlir_async_dialects::asyncd::types::value(self.ctx(), t));
        }
        let mut res_attrs = func_arg_attrs(self.pc.ctx, func, "res_attrs", outs.len());
        res_attrs.insert(0, vec![]);
        let ft = self.ctx().function_type(ins, new_outs);
        let fta = self.ctx().type_attr(ft);
        self.ctx().set_attr(func, "function_type", fta);
        set_func_arg_attrs(self.ctx(), func, "res_attrs", res_attrs);
    }

    /// Rewrites a function as a coroutine: results wrapped into
    /// `!async.value`, prefixed by `!async.token`; returns become yields.
    fn rewrite_func_as_coroutine(&mut self, func: Op) -> CoroMachinery {
        let loc = self.pc.ctx.op_loc(func);
        self.coroutine_signature(func);
        let body = self.pc.ctx.regions_of(func)[0];
        for b in self.pc.ctx.region_blocks(body).to_vec() {
            let Some(t) = self.pc.ctx.last_op(b) else {
                continue;
            };
            if self.pc.ctx.is(t, self.n.func_return) {
                let operands = self.pc.ctx.operands(t).to_vec();
                let cur = OpBuilder::before(t, loc);
                cur.create(self.pc.ctx, self.n.async_yield, &operands, &[], &[]);
                let _ = self.ctx().erase_op(t);
            }
        }
        self.setup_coro_machinery(func)
    }

    /// Replaces a call of a function now returning a token and values by a
    /// call followed by awaits that unwrap the values.
    fn rewrite_callsite(&mut self, call: Op, func: Op, fname: &str) -> Result<(), IrError> {
        let loc = self.pc.ctx.op_loc(func);
        let (_, outs) = func_type(self.pc.ctx, func);
        let cur = OpBuilder::before(call, loc);
        let args = self.pc.ctx.operands(call).to_vec();
        let callee = self.ctx().sym(fname);
        let new_call = self.build_call(&cur, callee, &args, &outs);
        let results = self.pc.ctx.results(new_call).to_vec();
        cur.create(self.pc.ctx, self.n.async_await, &[results[0]], &[], &[]);
        let mut unwrapped = vec![];
        for &r in &results[1..] {
            let t = self.pc.ctx.value_type(r);
            let inner = value_inner(self.pc.ctx, t).expect("coroutine results are async values");
            unwrapped.push(cur.create_value(self.pc.ctx, self.n.async_await, &[r], inner, &[]));
        }
        for (old, new) in self
            .pc
            .ctx
            .results(call)
            .to_vec()
            .into_iter()
            .zip(unwrapped)
        {
            self.ctx().replace_all_uses_with(old, new);
        }
        self.ctx()
            .erase_op(call)
            .map_err(|m| IrError::new(self.pc.ctx.op_loc(call), m))
    }

    fn funcs_to_coroutines(&mut self) -> Result<(), IrError> {
        if self.shard.is_some() {
            return self.shard_funcs_to_coroutines();
        }
        let mut worklist: Vec<Op> = vec![];
        // Symbol users, computed once: new calls of a function only appear
        // when that function itself is processed. Keyed by the referenced
        // name as interned: one per outlined function, so no string per
        // reference. The same walk finds the functions that await.
        let mut users: FxHashMap<Symbol, Vec<Op>> = FxHashMap::default();
        {
            let ctx = &*self.pc.ctx;
            let (a, all) = (self.n.async_await, self.n.async_await_all);
            let module = self.module;
            let mut note_users = |o: Op| {
                for &(_, a) in ctx.attrs(o) {
                    ctx.for_each_symbol_ref(a, &mut |s, _| users.entry(s).or_default().push(o));
                }
            };
            let body = ctx.regions_of(module)[0];
            let body = ctx.entry_block(body).expect("module has a body");
            for top in ctx.block_ops_iter(body) {
                note_users(top);
                let mut awaits = false;
                ctx.walk_nested(top, &mut |o| {
                    let n = ctx.op(o).name;
                    awaits |= n == a || n == all;
                    note_users(o);
                });
                if awaits
                    && self.pc.ctx.is(top, self.n.func_func)
                    && !self.is_allowed_to_block(top)
                    && !self.coros.borrow().contains_key(&top)
                {
                    worklist.push(top);
                }
            }
        }
        let mut done: FxHashSet<Op> = FxHashSet::default();
        while let Some(func) = worklist.pop() {
            if !done.insert(func) || self.coros.borrow().contains_key(&func) {
                continue;
            }
            let coro = self.rewrite_func_as_coroutine(func);
            self.coros.borrow_mut().insert(func, coro);
            let fname = self.pc.ctx.symbol_name(func).unwrap_or("").to_string();
            let mut us = match self.pc.ctx.lookup_sym(&fname) {
                Some(s) => users.get(&s).cloned().unwrap_or_default(),
                // Never interned: nothing refers to it.
                None => vec![],
            };
            // Later calls first, as upstream (the order does not change the
            // result: each call is rewritten in place).
            us.reverse();
            let mut other_refs = vec![];
            for u in us {
                if self.pc.ctx.is_erased(u) {
                    continue;
                }
                if self.pc.ctx.is(u, self.n.func_call) {
                    let caller = self.func_of(u);
                    self.rewrite_callsite(u, func, &fname)?;
                    // The caller now awaits: it becomes a coroutine too.
                    if let Some(c) = caller {
                        if !self.is_allowed_to_block(c) && !self.coros.borrow().contains_key(&c) {
                            worklist.push(c);
                        }
                    }
                } else {
                    other_refs.push(u);
                }
            }
            if !other_refs.is_empty() {
                let wrapper = self.blocking_wrapper(func, &fname)?;
                for u in other_refs {
                    self.retarget_symbol(u, &fname, &wrapper);
                }
            }
        }
        Ok(())
    }

    /// For references other than direct calls (`func.constant @f`), keeps
    /// the program valid with a function of the original signature that
    /// calls the coroutine and blocks on its results. It is marked
    /// `async.allowed_to_block` so that it stays a plain function.
    fn blocking_wrapper(&mut self, func: Op, fname: &str) -> Result<String, IrError> {
        let loc = self.pc.ctx.op_loc(func);
        let (ins, outs) = func_type(self.pc.ctx, func);
        let orig_outs: Vec<Type> = outs[1..]
            .iter()
            .map(|&t| value_inner(self.pc.ctx, t).expect("coroutine results are async values"))
            .collect();
        let unit = self.ctx().unit_attr();
        let (_, entry, wsym) = self.private_func(
            loc,
            &format!("{fname}_blocking"),
            &ins,
            &orig_outs,
            &[(self.n.async_allowed_to_block, unit)],
        )?;
        let wname = self.pc.ctx.str(wsym).to_string();
        let args = self.pc.ctx.block_args(entry).to_vec();
        let cur = OpBuilder::at_end(entry, loc);
        let callee = self.ctx().sym(fname);
        let call = self.build_call(&cur, callee, &args, &outs);
        let results = self.pc.ctx.results(call).to_vec();
        cur.create(self.pc.ctx, self.n.async_await, &[results[0]], &[], &[]);
        let mut vals = vec![];
        for (&r, &t) in results[1..].iter().zip(&orig_outs) {
            vals.push(cur.create_value(self.pc.ctx, self.n.async_await, &[r], t, &[]));
        }
        cur.create(self.pc.ctx, self.n.func_return, &vals, &[], &[]);
        Ok(wname)
    }

    /// Points `op`'s references to `from` at `to`.
    fn retarget_symbol(&mut self, op: Op, from: &str, to: &str) {
        let (from, to) = (self.ctx().sym(from), self.ctx().sym(to));
        self.ctx()
            .replace_op_symbol_refs(op, &mut |s| (s == from).then_some(to));
    }
}
