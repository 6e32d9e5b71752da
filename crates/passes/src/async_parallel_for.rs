//! `async-parallel-for`: each `scf.parallel` becomes async tasks.
//!
//! The iteration space of a loop is flattened and cut into blocks; a
//! private *compute function* (`@parallel_compute_fn`) runs the loop body
//! over one block as a nest of `scf.for`s, and the loop is replaced by a
//! dispatch of all blocks: by recursive work splitting in `async.execute`
//! regions (`@async_dispatch_fn`, `async-dispatch=true`) or by a loop in
//! the caller (`async-dispatch=false`), joined by an `async.group`.
//!
//! The output is upstream's byte for byte, so the rewrite is a pattern
//! run by the greedy driver as upstream runs it (the driver folds every
//! op of the module on the way, which is where most of the visible shape
//! comes from: the block-size arithmetic on constant worker counts folds
//! away, constants gather at the top of each function). The pattern
//! builds ops in upstream's order and announces them as MLIR's builders
//! do (nested ops before the op holding them), because the driver's
//! visiting order decides where folded constants land.
//!
//! Each generation has its own algorithm: LLVM 13 picks a block size from
//! `target-block-size` with compares and selects and rebalances it; LLVM
//! 14 and 15 take `min-task-size`, may ask the runtime for the number of
//! workers (`num-workers=-1`), and add a second compute function whose
//! inner loops run over whole statically known trip counts when the
//! block size allows (created before the default one in 15, after it in
//! 14).
//!
//! Beyond upstream: new function names are uniqued against a set kept
//! for the whole run (upstream rebuilds the module's symbol table for
//! each function it adds and tries `_0`, `_1`, ... from zero each time,
//! which makes the pass quadratic in the number of loops); the names are
//! the same. See `docs/async-parallel-for.md` for the other differences.

use crate::{OptionKind, Pass, PassContext, PassInfo, PassOption};
use mlir_async_dialects::build::FuncBuilder;
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_dialects::util::{segment_sizes, segments};
use mlir_async_ir::fxhash::FxHashMap;
use mlir_async_ir::*;
use mlir_async_rewrite::fold::{constant_of, FoldResult, Folded};
use mlir_async_rewrite::region::used_values_defined_above;
use mlir_async_rewrite::{
    apply_patterns_and_fold_greedily, GreedyConfig, OpInterfaces, PatternSet, RewriteError,
    RewritePattern, Rewriter,
};
use mlir_async_syntax::Edition;
use std::collections::HashMap;
use std::sync::Mutex;

mod sharded;
pub use sharded::{exchange, run_shard, Coordinator, ShardLink};

/// The pass's options, as upstream declares them in each generation.
const OPTIONS: &[PassOption] = &[
    PassOption::new(
        "async-dispatch",
        OptionKind::Bool,
        "true",
        "Dispatch async compute tasks using recursive work splitting. If `false` async compute tasks will be launched using simple for loop in the caller thread.",
    ),
    PassOption::new(
        "num-workers",
        OptionKind::Int32,
        "8",
        "The number of available workers to execute async operations. If `-1` the value will be retrieved from the runtime.",
    ),
    PassOption::new(
        "min-task-size",
        OptionKind::Int32,
        "1000",
        "The minimum task size for sharding parallel operation.",
    )
    .since(Edition::V14),
    PassOption::new(
        "target-block-size",
        OptionKind::Int32,
        "1000",
        "The target block size for sharding parallel operation.",
    )
    .until(Edition::V13),
];

pub fn info() -> PassInfo {
    PassInfo {
        arg: "async-parallel-for",
        summary: "Convert scf.parallel operations to multiple async compute ops executed concurrently for non-overlapping iteration ranges",
        options: OPTIONS,
        anchor: "builtin.module",
        make: |opts| {
            Ok(Box::new(AsyncParallelFor {
                async_dispatch: opts.bool("async-dispatch"),
                num_workers: opts.int("num-workers") as i32,
                min_task_size: opts.int("min-task-size") as i32,
                target_block_size: opts.int("target-block-size") as i32,
            }))
        },
    }
}

pub struct AsyncParallelFor {
    pub async_dispatch: bool,
    /// `-1`: ask the runtime (14 and 15).
    pub num_workers: i32,
    /// LLVM 14 and 15.
    pub min_task_size: i32,
    /// LLVM 13.
    pub target_block_size: i32,
}

impl Pass for AsyncParallelFor {
    fn name(&self) -> &'static str {
        "async-parallel-for"
    }
    fn display_name(&self) -> &'static str {
        "AsyncParallelFor"
    }
    fn run(&self, pc: &mut PassContext, module: Op) -> Result<(), IrError> {
        self.rewrite_module(pc, module).map(|_| ())
    }
}

impl AsyncParallelFor {
    /// The pass with `options` (as on the command line) for `edition`.
    pub fn from_options(options: &str, edition: Edition) -> Result<AsyncParallelFor, String> {
        let given = crate::parse_options(options)?;
        for (k, v) in &given {
            let Some(decl) = OPTIONS.iter().find(|o| o.name == k && o.exists_in(edition)) else {
                return Err(format!("<Pass-Options-Parser>: no such option {k}"));
            };
            decl.check(v)?;
        }
        let opts = crate::PassOptions {
            decls: OPTIONS,
            given,
        };
        Ok(AsyncParallelFor {
            async_dispatch: opts.bool("async-dispatch"),
            num_workers: opts.int("num-workers") as i32,
            min_task_size: opts.int("min-task-size") as i32,
            target_block_size: opts.int("target-block-size") as i32,
        })
    }

    /// Runs the pass on `module`; returns the functions it added, in the
    /// order it added them: (base name, name given, function).
    fn rewrite_module(
        &self,
        pc: &mut PassContext,
        module: Op,
    ) -> Result<Vec<(&'static str, Symbol, Op)>, IrError> {
        let cfg = Config {
            edition: pc.edition,
            async_dispatch: self.async_dispatch,
            num_workers: self.num_workers,
            block_size: if pc.edition == Edition::V13 {
                self.target_block_size
            } else {
                self.min_task_size
            },
        };
        let pattern = ParallelForRewrite {
            cfg,
            ifaces: Interfaces::new(pc.registry, pc.edition),
            tables: Mutex::new(FxHashMap::default()),
            warnings: Mutex::new(vec![]),
        };
        let pattern = std::sync::Arc::new(pattern);
        let mut set = PatternSet::new();
        set.add(SharedPattern(pattern.clone()));
        let frozen = set.freeze(pc.ctx);
        let ifaces = Interfaces::new(pc.registry, pc.edition);
        let regions = pc.ctx.regions_of(module).to_vec();
        // Upstream runs the driver with its default configuration, which
        // (unlike `-canonicalize`'s) seeds the worklist bottom-up.
        let config = GreedyConfig {
            top_down: false,
            llvm15: pc.edition == Edition::V15,
            llvm13: pc.edition == Edition::V13,
            ..GreedyConfig::default()
        };
        let converged =
            apply_patterns_and_fold_greedily(pc.ctx, &regions, &frozen, &ifaces, config)
                .map_err(|e| e.into_ir_error(pc.ctx));
        let found =
            std::mem::take(&mut *pattern.warnings.lock().unwrap_or_else(|e| e.into_inner()));
        for (_, loc, message) in found {
            pc.warnings.push(IrError::new(loc, message));
        }
        let converged = converged?;
        if !converged {
            // Upstream fails the pass without a word.
            return Err(IrError::new(
                pc.ctx.op_loc(module),
                "async-parallel-for: the rewrite did not converge",
            ));
        }
        let mut tables = pattern.tables.lock().unwrap_or_else(|e| e.into_inner());
        Ok(tables.remove(&module).map(|t| t.made).unwrap_or_default())
    }
}

#[derive(Clone, Copy)]
struct Config {
    edition: Edition,
    async_dispatch: bool,
    num_workers: i32,
    /// `min-task-size` (14, 15) or `target-block-size` (13).
    block_size: i32,
}

/// What the pass keeps of one module for the whole run.
struct ModuleNames {
    /// Interned op and attribute names the pattern builds with, by the
    /// address of the literal: a pointer hashes faster than the text.
    literals: FxHashMap<usize, Symbol>,
    /// The module's symbols, so that each new function is uniqued in time
    /// independent of the module's size.
    symbols: SymbolNames,
    funcs: FuncBuilder,
    /// The functions added, in order: (base name, name, function).
    made: Vec<(&'static str, Symbol, Op)>,
}

impl ModuleNames {
    fn of_module(ctx: &mut Context, module: Op) -> Self {
        ModuleNames {
            literals: FxHashMap::default(),
            symbols: SymbolNames::of_table(ctx, module),
            funcs: FuncBuilder::new(ctx),
            made: vec![],
        }
    }
}

fn module_block(ctx: &Context, module: Op) -> Option<Block> {
    let r = *ctx.regions_of(module).first()?;
    ctx.entry_block(r)
}

/// The rewrite of one `scf.parallel`, as upstream's
/// `AsyncParallelForRewrite`.
struct ParallelForRewrite {
    cfg: Config,
    ifaces: Interfaces,
    /// Symbol names by module, built on the first loop in each.
    tables: Mutex<FxHashMap<Op, ModuleNames>>,
    /// Warnings about loops left alone: (loop, location, message).
    warnings: Mutex<Vec<(Op, Location, String)>>,
}

impl RewritePattern for ParallelForRewrite {
    fn root(&self) -> Option<&'static str> {
        Some("scf.parallel")
    }
    fn name(&self) -> &'static str {
        "AsyncParallelForRewrite"
    }
    fn match_and_rewrite(&self, op: Op, rw: &mut Rewriter) -> Result<bool, RewriteError> {
        // Loops with reductions are left alone, as upstream leaves them;
        // beyond upstream, with a warning at the loop.
        if !rw.ctx.results(op).is_empty() {
            let mut w = self.warnings.lock().unwrap_or_else(|e| e.into_inner());
            if !w.iter().any(|x| x.0 == op) {
                w.push((
                    op,
                    rw.ctx.op_loc(op),
                    "'scf.parallel' op with reductions is left sequential: async-parallel-for lowers loops without reductions only".to_string(),
                ));
            }
            return Ok(false);
        }
        match static_trip_counts(rw.ctx, &self.ifaces, op) {
            Err(message) => return Err(RewriteError::at(rw.ctx.op_loc(op), message)),
            // Beyond upstream: a dimension with a negative static trip count
            // (a constant upper bound below the lower bound) runs nothing,
            // and neither does the loop. Upstream multiplies the signed trip
            // counts, and two such dimensions make a positive count of
            // iterations that then run.
            Ok(true) => {
                rw.erase_op(op)?;
                return Ok(true);
            }
            Ok(false) => {}
        }
        let Some(module) = rw.ctx.ancestor(op, |c, o| c.name(o) == "builtin.module") else {
            return Ok(false);
        };
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let names = tables
            .entry(module)
            .or_insert_with(|| ModuleNames::of_module(rw.ctx, module));
        let ctx = &*rw.ctx;
        let loc = ctx.op_loc(op);
        let segs = segments(ctx, op, 4);
        let body = ctx.regions_of(op)[0];
        let mut l = Lowering {
            rw,
            cfg: self.cfg,
            ifaces: &self.ifaces,
            names,
            module,
            op,
            body,
            loc,
            lbs: segs[0].clone(),
            ubs: segs[1].clone(),
            steps: segs[2].clone(),
            captures: None,
            bodies_left: usize::MAX,
        };
        l.rewrite()?;
        Ok(true)
    }
}

/// The pattern, shared with the pass that reads its warnings afterwards.
struct SharedPattern(std::sync::Arc<ParallelForRewrite>);

impl RewritePattern for SharedPattern {
    fn root(&self) -> Option<&'static str> {
        self.0.root()
    }
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn match_and_rewrite(&self, op: Op, rw: &mut Rewriter) -> Result<bool, RewriteError> {
        self.0.match_and_rewrite(op, rw)
    }
}

/// Checks the statically known trip counts of a loop (dimensions whose
/// bounds and step are all constants): `Err` with the message to report
/// at the loop when the block-size arithmetic would overflow `index` (64
/// bits, as MLIR folds it), `Ok(true)` when a dimension runs a negative
/// number of times (the loop runs nothing).
fn static_trip_counts(ctx: &Context, ifaces: &Interfaces, op: Op) -> Result<bool, String> {
    let segs = segments(ctx, op, 4);
    let konst = |v: Value| -> Option<i128> {
        match ctx.attr_kind(constant_of(ctx, ifaces, v)?) {
            AttrKind::Integer(x, _) => Some(*x),
            _ => None,
        }
    };
    let mut counts: Vec<Option<i128>> = vec![];
    let mut negative = false;
    for (d, ((&lb, &ub), &st)) in segs[0].iter().zip(&segs[1]).zip(&segs[2]).enumerate() {
        let (Some(l), Some(u), Some(s)) = (konst(lb), konst(ub), konst(st)) else {
            counts.push(None);
            continue;
        };
        let range = u - l;
        if i64::try_from(range).is_err() {
            return Err(format!(
                "'scf.parallel' op upper bound minus lower bound of dimension {d} ({u} - {l}) overflows index"
            ));
        }
        if s <= 0 {
            // The verifier rejects it; nothing to count.
            counts.push(None);
            continue;
        }
        let tc = if range > 0 {
            (range + s - 1) / s
        } else {
            range / s
        };
        negative |= tc < 0;
        counts.push(Some(tc));
    }
    if negative {
        return Ok(true);
    }
    // The iterations of every run of trailing static dimensions (the
    // block-aligned compute function multiplies them), and of the whole
    // space when it is static.
    let mut product: i128 = 1;
    for c in counts.iter().rev() {
        let Some(c) = c else { break };
        product *= c;
        if i64::try_from(product).is_err() {
            let all: Vec<String> = counts
                .iter()
                .map(|c| c.map_or("?".to_string(), |c| c.to_string()))
                .collect();
            return Err(format!(
                "'scf.parallel' op iteration space ({}) overflows index",
                all.join(" x ")
            ));
        }
    }
    Ok(false)
}

/// A compute function: the function and the values of the loop's body
/// defined outside it, which it takes as its last arguments.
struct ComputeFn {
    func: Op,
    sym: Symbol,
    captures: Vec<Value>,
}

/// Statically known values of a loop's bounds (upstream's
/// `ParallelComputeFunctionBounds`), one entry per dimension.
struct StaticBounds {
    trip_counts: Vec<Option<i64>>,
    lower_bounds: Vec<Option<i64>>,
    steps: Vec<Option<i64>>,
}

/// Upstream's cap on the iterations of the inner loops that the block
/// aligned compute function runs whole.
const MAX_UNROLLABLE_ITERATIONS: i64 = 512;

struct Lowering<'r, 'a, 'p> {
    rw: &'r mut Rewriter<'a>,
    cfg: Config,
    ifaces: &'p Interfaces,
    names: &'p mut ModuleNames,
    module: Op,
    op: Op,
    body: Region,
    loc: Location,
    lbs: Vec<Value>,
    ubs: Vec<Value>,
    steps: Vec<Value>,
    /// The values the body reads from outside once its constants are
    /// cloned in: the same for every compute function, so found once
    /// (a walk of the whole body).
    captures: Option<Vec<Value>>,
    /// Compute functions still to take a copy of the body. The last one
    /// takes the body itself: upstream clones it into each and erases
    /// the loop, and a move leaves the same IR without building a copy
    /// (the greedy driver hears a clone: see `Rewriter::move_op_as_clone`).
    bodies_left: usize,
}

type R<T> = Result<T, RewriteError>;

impl Lowering<'_, '_, '_> {
    fn ctx(&mut self) -> &mut Context {
        self.rw.ctx
    }
    /// The interned `name`.
    fn s(&mut self, name: &'static str) -> Symbol {
        let key = name.as_ptr() as usize;
        if let Some(&sym) = self.names.literals.get(&key) {
            return sym;
        }
        let sym = self.rw.ctx.sym(name);
        self.names.literals.insert(key, sym);
        sym
    }
    fn num_loops(&self) -> usize {
        self.lbs.len()
    }
    fn v14(&self) -> bool {
        self.cfg.edition != Edition::V13
    }

    // ----- building ops -----

    fn create(
        &mut self,
        name: &'static str,
        operands: &[Value],
        results: &[Type],
        attrs: &[(Symbol, Attribute)],
    ) -> R<Op> {
        let name = self.s(name);
        let loc = self.loc;
        self.rw.create_op(name, loc, operands, results, attrs)
    }
    fn value(&mut self, name: &'static str, operands: &[Value], ty: Type) -> R<Value> {
        let o = self.create(name, operands, &[ty], &[])?;
        Ok(self.rw.ctx.result(o, 0))
    }
    fn index(&mut self) -> Type {
        self.ctx().index_type()
    }
    fn constant(&mut self, value: Attribute, ty: Type) -> R<Value> {
        let key = self.s("value");
        let o = self.create("arith.constant", &[], &[ty], &[(key, value)])?;
        Ok(self.rw.ctx.result(o, 0))
    }
    fn const_index(&mut self, v: i64) -> R<Value> {
        let t = self.index();
        let a = self.ctx().int_attr(i128::from(v), t);
        self.constant(a, t)
    }
    fn const_f32(&mut self, v: f32) -> R<Value> {
        let t = self.ctx().ty(TypeKind::F32);
        let a = self.ctx().attr(AttrKind::Float(f64::from(v).to_bits(), t));
        self.constant(a, t)
    }
    /// A binary op whose result has its operands' type.
    fn binary(&mut self, name: &'static str, a: Value, b: Value) -> R<Value> {
        let t = self.rw.ctx.value_type(a);
        self.value(name, &[a, b], t)
    }
    fn cmpi(&mut self, pred: &str, a: Value, b: Value) -> R<Value> {
        let p = mlir_async_dialects::arith::CMPI
            .iter()
            .position(|&x| x == pred)
            .unwrap_or(0);
        let i64t = self.ctx().int_type(64);
        let pa = self.ctx().int_attr(p as i128, i64t);
        let key = self.s("predicate");
        let i1 = self.ctx().int_type(1);
        let o = self.create("arith.cmpi", &[a, b], &[i1], &[(key, pa)])?;
        Ok(self.rw.ctx.result(o, 0))
    }
    fn select(&mut self, c: Value, a: Value, b: Value) -> R<Value> {
        let t = self.rw.ctx.value_type(a);
        self.value("arith.select", &[c, a, b], t)
    }
    fn call(&mut self, callee: Symbol, operands: &[Value]) -> R<Op> {
        let a = self.ctx().attr(AttrKind::SymbolRef(callee, vec![]));
        let key = self.s("callee");
        self.create("func.call", operands, &[], &[(key, a)])
    }

    /// MLIR's `OpBuilder::createOrFold` for a binary op: the op is built
    /// detached and folded; a constant result is materialized at the
    /// insertion point, an existing value returned, and only an op that
    /// does not fold is inserted.
    fn create_or_fold(&mut self, name: &'static str, a: Value, b: Value) -> R<Value> {
        let ty = self.rw.ctx.value_type(a);
        let sym = self.s(name);
        let loc = self.loc;
        let op = self
            .ctx()
            .create_op_from(sym, loc, &[a, b], &[ty], &[], &[], &[]);
        let consts: Vec<Option<Attribute>> = [a, b]
            .iter()
            .map(|&v| constant_of(self.rw.ctx, self.ifaces, v))
            .collect();
        let folded = self.ifaces.fold(self.rw.ctx, op, &consts);
        let result = match folded {
            Folded::Results(rs) => match rs.first() {
                Some(&FoldResult::Value(v)) if self.rw.ctx.value_type(v) == ty => Some(Ok(v)),
                Some(&FoldResult::Attr(attr)) => Some(Err(attr)),
                _ => None,
            },
            _ => None,
        };
        match result {
            Some(r) => {
                // The detached op holds uses only: erasing cannot fail.
                let _ = self.ctx().erase_op(op);
                match r {
                    Ok(v) => Ok(v),
                    Err(attr) => self.constant(attr, ty),
                }
            }
            None => {
                self.rw.insert(op)?;
                Ok(self.rw.ctx.result(op, 0))
            }
        }
    }

    /// Builds an op with regions as MLIR's builders do: `fill` creates the
    /// regions' blocks and ops first, then the op is created and
    /// announced, after the ops it holds.
    fn with_regions(
        &mut self,
        name: &'static str,
        operands: &[Value],
        results: &[Type],
        attrs: &[(Symbol, Attribute)],
        num_regions: usize,
        fill: impl FnOnce(&mut Self, &[Region]) -> R<()>,
    ) -> R<Op> {
        let ip = self.rw.insertion_point();
        let regions: Vec<Region> = (0..num_regions)
            .map(|_| self.ctx().create_region())
            .collect();
        fill(self, &regions)?;
        self.rw.restore_insertion_point(ip);
        let sym = self.s(name);
        let loc = self.loc;
        let op = self
            .ctx()
            .create_op_from(sym, loc, operands, results, attrs, &regions, &[]);
        self.rw.insert(op)
    }

    /// A block at the end of `r`, taking `types`, with the insertion
    /// point at its end. From LLVM 14 on, block arguments carry the loop's
    /// location.
    fn block(&mut self, r: Region, types: &[Type]) -> Block {
        let b = self.rw.create_block(r, None, types);
        if self.v14() {
            let loc = self.loc;
            for a in self.rw.ctx.block_args(b).to_vec() {
                self.rw.ctx.set_value_loc(a, loc);
            }
        }
        b
    }

    /// `scf.if` with both branches built by the callbacks.
    fn if_op(
        &mut self,
        cond: Value,
        then: impl FnOnce(&mut Self) -> R<()>,
        otherwise: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<Op> {
        self.with_regions("scf.if", &[cond], &[], &[], 2, |l, rs| {
            l.block(rs[0], &[]);
            then(l)?;
            l.block(rs[1], &[]);
            otherwise(l)
        })
    }

    /// `scf.for %iv = lb to ub step step` with a body built by `body`.
    fn for_op(
        &mut self,
        lb: Value,
        ub: Value,
        step: Value,
        body: impl FnOnce(&mut Self, Value) -> R<()>,
    ) -> R<Op> {
        let index = self.index();
        self.with_regions("scf.for", &[lb, ub, step], &[], &[], 1, |l, rs| {
            let b = l.block(rs[0], &[index]);
            let iv = l.rw.ctx.block_args(b)[0];
            body(l, iv)
        })
    }

    /// `async.execute` with no dependencies or operands, holding a call
    /// of `callee` and the yield.
    fn execute_call(&mut self, callee: Symbol, operands: &[Value]) -> R<Value> {
        let token = mlir_async_dialects::asyncd::types::token(self.ctx());
        let seg = segment_sizes(self.ctx(), &[0, 0]);
        let key = self.s("operand_segment_sizes");
        let exec =
            self.with_regions("async.execute", &[], &[token], &[(key, seg)], 1, |l, rs| {
                l.block(rs[0], &[]);
                l.call(callee, operands)?;
                l.create("async.yield", &[], &[], &[])?;
                Ok(())
            })?;
        Ok(self.rw.ctx.result(exec, 0))
    }

    fn yield_(&mut self) -> R<()> {
        self.create("scf.yield", &[], &[], &[])?;
        Ok(())
    }

    /// A private function named `base` (uniqued), appended to the module
    /// and announced before its body is built (as upstream inserts it
    /// into the symbol table first); returns it, its name and its entry
    /// block, with the insertion point at the block's end.
    fn private_func(&mut self, base: &'static str, inputs: &[Type]) -> R<(Op, Symbol, Block)> {
        let ctx = &mut *self.rw.ctx;
        // Upstream builds a `SymbolTable` for each function it adds.
        let (sym, text) = self.names.symbols.unique_in_fresh_table(ctx, base);
        let body = ctx.create_region();
        let func = self
            .names
            .funcs
            .private_func(ctx, self.loc, &text, inputs, &[], &[], body);
        let ip = ctx
            .symbol_insertion_point(self.module)
            .ok_or_else(|| RewriteError::at(self.loc, "the module has no body"))?;
        self.rw.restore_insertion_point(Some(ip));
        self.rw.insert(func)?;
        self.names.made.push((base, sym, func));
        let entry = self.block(body, inputs);
        Ok((func, sym, entry))
    }

    // ----- the rewrite -----

    fn rewrite(&mut self) -> R<()> {
        let op = self.op;
        let n = self.num_loops();
        let v14 = self.v14();
        // Computed before the body changes (upstream's cost-model hook).
        let min_task_size = if v14 {
            Some(self.const_index(i64::from(self.cfg.block_size))?)
        } else {
            None
        };
        if v14 {
            self.clone_constants_into_body()?;
        }
        let mut trip_counts = Vec::with_capacity(n);
        for i in 0..n {
            let (lb, ub, step) = (self.lbs[i], self.ubs[i], self.steps[i]);
            let tc = if v14 {
                let range = self.create_or_fold("arith.subi", ub, lb)?;
                self.create_or_fold("arith.ceildivsi", range, step)?
            } else {
                let range = self.binary("arith.subi", ub, lb)?;
                self.binary("arith.ceildivsi", range, step)?
            };
            trip_counts.push(tc);
        }
        let mut trip_count = trip_counts[0];
        for &tc in &trip_counts[1..] {
            trip_count = self.binary("arith.muli", trip_count, tc)?;
        }
        let c0 = self.const_index(0)?;
        let is_zero = self.cmpi("eq", trip_count, c0)?;
        self.if_op(
            is_zero,
            |l| l.yield_(),
            |l| match min_task_size {
                Some(m) => l.dispatch(&trip_counts, trip_count, m),
                None => l.dispatch13(&trip_counts, trip_count),
            },
        )?;
        self.rw.erase_op(op)
    }

    /// Upstream's `cloneConstantsIntoTheRegion`: constants the body uses
    /// from outside are cloned to its start, so that they need not be
    /// passed to the compute function.
    fn clone_constants_into_body(&mut self) -> R<()> {
        let captures = used_values_defined_above(self.rw.ctx, self.body);
        let Some(entry) = self.rw.ctx.entry_block(self.body) else {
            return Ok(());
        };
        let saved = self.rw.insertion_point();
        self.rw.set_insertion_point_to_start(entry);
        for v in captures {
            let Some(def) = self.rw.ctx.defining_op(v) else {
                continue;
            };
            if !self.rw.ctx.traits_of(def).constant_like {
                continue;
            }
            let mut map = HashMap::new();
            let clone = self.rw.clone_op(def, &mut map)?;
            let body = self.body;
            for i in 0..self.rw.ctx.results(def).len() {
                let (orig, new) = (self.rw.ctx.result(def, i), self.rw.ctx.result(clone, i));
                self.rw.ctx.replace_uses_if(orig, new, |c, u| {
                    c.parent_block(u.op)
                        .and_then(|b| c.parent_region(b))
                        .is_some_and(|r| c.is_region_ancestor(body, r))
                });
            }
        }
        self.rw.restore_insertion_point(saved);
        Ok(())
    }

    fn static_value(&self, v: Value) -> Option<i64> {
        let a = constant_of(self.rw.ctx, self.ifaces, v)?;
        match self.rw.ctx.attr_kind(a) {
            AttrKind::Integer(x, _) => i64::try_from(*x).ok(),
            _ => None,
        }
    }

    /// LLVM 14 and 15: the block size, the compute function(s) and the
    /// dispatch, in the `else` branch of the zero-trip check.
    fn dispatch(
        &mut self,
        trip_counts: &[Value],
        trip_count: Value,
        min_task_size: Value,
    ) -> R<()> {
        let n = self.num_loops();
        let bounds = StaticBounds {
            trip_counts: trip_counts.iter().map(|&v| self.static_value(v)).collect(),
            lower_bounds: self.lbs.iter().map(|&v| self.static_value(v)).collect(),
            steps: self.steps.iter().map(|&v| self.static_value(v)).collect(),
        };
        // How many inner loops have a static trip count whose product is
        // at most MAX_UNROLLABLE_ITERATIONS.
        let mut num_iterations = vec![0i64; n];
        num_iterations[n - 1] = bounds.trip_counts[n - 1].unwrap_or(0);
        let mut num_unrollable = 0usize;
        for i in (0..n - 1).rev() {
            let tc = bounds.trip_counts[i].unwrap_or(0);
            let inner = num_iterations[i + 1];
            num_iterations[i] = tc.wrapping_mul(inner);
            if inner > 0 && inner <= MAX_UNROLLABLE_ITERATIONS {
                num_unrollable += 1;
            }
        }

        let workers = if self.cfg.num_workers >= 0 {
            self.const_index(i64::from(self.cfg.num_workers))?
        } else {
            let t = self.index();
            self.value("async.runtime.num_worker_threads", &[], t)?
        };
        // The oversharding factor by number of workers, as selects.
        let mut scaling = self.const_f32(8.0)?;
        for (begin, factor) in [(4, 4.0f32), (8, 2.0), (16, 1.0), (32, 0.8), (64, 0.6)] {
            let b = self.const_index(begin)?;
            let in_bracket = self.cmpi("sgt", workers, b)?;
            let f = self.const_f32(factor)?;
            scaling = self.select(in_bracket, f, scaling)?;
        }
        let i32t = self.ctx().int_type(32);
        let f32t = self.ctx().ty(TypeKind::F32);
        let index = self.index();
        let w = self.value("arith.index_cast", &[workers], i32t)?;
        let w = self.value("arith.sitofp", &[w], f32t)?;
        let w = self.binary("arith.mulf", scaling, w)?;
        let w = self.value("arith.fptosi", &[w], i32t)?;
        let w = self.value("arith.index_cast", &[w], index)?;
        let one = self.const_index(1)?;
        let max_blocks = self.binary("arith.maxsi", one, w)?;
        let bs0 = self.binary("arith.ceildivsi", trip_count, max_blocks)?;
        let bs1 = self.binary("arith.maxsi", bs0, min_task_size)?;
        let block_size = self.binary("arith.minsi", trip_count, bs1)?;

        let v15 = self.cfg.edition == Edition::V15;
        self.bodies_left = if num_unrollable == 0 { 1 } else { 2 };
        let default_fn = if v15 {
            None
        } else {
            Some(self.compute_fn(&bounds, 0)?)
        };
        let block_count = self.binary("arith.ceildivsi", trip_count, block_size)?;
        if num_unrollable == 0 {
            let f = match default_fn {
                Some(f) => f,
                None => self.compute_fn(&bounds, 0)?,
            };
            self.do_dispatch(&f, block_size, block_count, trip_counts)?;
            return self.yield_();
        }
        let aligned_iters = num_iterations[n - num_unrollable];
        if let Some(default_fn) = default_fn {
            // LLVM 14: the aligned function when the block size reaches
            // the unrolling cap.
            let cap = self.const_index(MAX_UNROLLABLE_ITERATIONS)?;
            let use_aligned = self.cmpi("sge", block_size, cap)?;
            let aligned_fn = self.compute_fn(&bounds, num_unrollable)?;
            self.if_op(
                use_aligned,
                |l| {
                    let iters = l.const_index(aligned_iters)?;
                    let d = l.binary("arith.ceildivsi", block_size, iters)?;
                    let aligned = l.binary("arith.muli", d, iters)?;
                    l.do_dispatch(&aligned_fn, aligned, block_count, trip_counts)?;
                    l.yield_()
                },
                |l| {
                    l.do_dispatch(&default_fn, block_size, block_count, trip_counts)?;
                    l.yield_()
                },
            )?;
        } else {
            // LLVM 15: the aligned function when a block covers the
            // aligned inner iterations; each function is built in its
            // branch.
            let iters = self.const_index(aligned_iters)?;
            let use_aligned = self.cmpi("sge", block_size, iters)?;
            self.if_op(
                use_aligned,
                |l| {
                    let f = l.compute_fn(&bounds, num_unrollable)?;
                    let iters = l.const_index(aligned_iters)?;
                    let d = l.binary("arith.ceildivsi", block_size, iters)?;
                    let aligned = l.binary("arith.muli", d, iters)?;
                    l.do_dispatch(&f, aligned, block_count, trip_counts)?;
                    l.yield_()
                },
                |l| {
                    let f = l.compute_fn(&bounds, 0)?;
                    l.do_dispatch(&f, block_size, block_count, trip_counts)?;
                    l.yield_()
                },
            )?;
        }
        self.yield_()
    }

    /// LLVM 13: the block size from `target-block-size`, rebalanced over
    /// the block count, then the compute function and the dispatch.
    fn dispatch13(&mut self, trip_counts: &[Value], trip_count: Value) -> R<()> {
        let w = self.cfg.num_workers;
        let factor: f32 = match w {
            ..=4 => 8.0,
            5..=8 => 4.0,
            9..=16 => 2.0,
            17..=32 => 1.0,
            33..=64 => 0.8,
            _ => 0.6,
        };
        let max_blocks = ((w as f32 * factor) as i32).max(1);
        let max_blocks = self.const_index(i64::from(max_blocks))?;
        let target = self.const_index(i64::from(self.cfg.block_size))?;
        let bs0 = self.binary("arith.ceildivsi", trip_count, max_blocks)?;
        let bs1 = self.cmpi("sge", bs0, target)?;
        let bs2 = self.select(bs1, bs0, target)?;
        let bs3 = self.cmpi("sle", trip_count, bs2)?;
        let block_size0 = self.select(bs3, trip_count, bs2)?;
        let block_count0 = self.binary("arith.ceildivsi", trip_count, block_size0)?;
        let block_size = self.binary("arith.ceildivsi", trip_count, block_count0)?;
        let block_count = self.binary("arith.ceildivsi", trip_count, block_size)?;
        // 13 passes the constants the body uses as arguments too.
        let bounds = StaticBounds {
            trip_counts: vec![None; self.num_loops()],
            lower_bounds: vec![None; self.num_loops()],
            steps: vec![None; self.num_loops()],
        };
        self.bodies_left = 1;
        let f = self.compute_fn(&bounds, 0)?;
        self.do_dispatch(&f, block_size, block_count, trip_counts)?;
        self.yield_()
    }

    fn do_dispatch(
        &mut self,
        f: &ComputeFn,
        block_size: Value,
        block_count: Value,
        trip_counts: &[Value],
    ) -> R<()> {
        if self.cfg.async_dispatch {
            self.async_dispatch(f, block_size, block_count, trip_counts)
        } else {
            self.sequential_dispatch(f, block_size, block_count, trip_counts)
        }
    }

    /// The operands a compute function takes after the block index and
    /// size (or the dispatch function after the block range and size).
    fn compute_operands(&self, out: &mut Vec<Value>, f: &ComputeFn, trip_counts: &[Value]) {
        out.extend_from_slice(trip_counts);
        out.extend_from_slice(&self.lbs);
        out.extend_from_slice(&self.ubs);
        out.extend_from_slice(&self.steps);
        out.extend_from_slice(&f.captures);
    }

    /// Recursive work splitting: a single block runs in the caller, more
    /// go through `@async_dispatch_fn` into a group awaited here.
    fn async_dispatch(
        &mut self,
        f: &ComputeFn,
        block_size: Value,
        block_count: Value,
        trip_counts: &[Value],
    ) -> R<()> {
        let dispatch_fn = self.async_dispatch_fn(f)?;
        let c0 = self.const_index(0)?;
        let c1 = self.const_index(1)?;
        let group_ty = mlir_async_dialects::asyncd::types::group(self.ctx());
        let mut compute_ops = vec![c0, block_size];
        self.compute_operands(&mut compute_ops, f, trip_counts);
        if self.v14() {
            let single = self.cmpi("eq", block_count, c1)?;
            self.if_op(
                single,
                |l| {
                    l.call(f.sym, &compute_ops)?;
                    l.yield_()
                },
                |l| {
                    let size = l.binary("arith.subi", block_count, c1)?;
                    let group = l.value("async.create_group", &[size], group_ty)?;
                    let mut ops = vec![group, c0, block_count, block_size];
                    l.compute_operands(&mut ops, f, trip_counts);
                    l.call(dispatch_fn, &ops)?;
                    l.create("async.await_all", &[group], &[], &[])?;
                    l.yield_()
                },
            )?;
        } else {
            let size = self.binary("arith.subi", block_count, c1)?;
            let group = self.value("async.create_group", &[size], group_ty)?;
            let single = self.cmpi("eq", block_count, c1)?;
            self.if_op(
                single,
                |l| {
                    l.call(f.sym, &compute_ops)?;
                    l.yield_()
                },
                |l| {
                    let mut ops = vec![group, c0, block_count, block_size];
                    l.compute_operands(&mut ops, f, trip_counts);
                    l.call(dispatch_fn, &ops)?;
                    l.yield_()
                },
            )?;
            self.create("async.await_all", &[group], &[], &[])?;
        }
        Ok(())
    }

    /// Every block but the first in an `async.execute` launched from a
    /// loop in the caller, the first in the caller.
    fn sequential_dispatch(
        &mut self,
        f: &ComputeFn,
        block_size: Value,
        block_count: Value,
        trip_counts: &[Value],
    ) -> R<()> {
        let c0 = self.const_index(0)?;
        let c1 = self.const_index(1)?;
        let size = self.binary("arith.subi", block_count, c1)?;
        let group_ty = mlir_async_dialects::asyncd::types::group(self.ctx());
        let group = self.value("async.create_group", &[size], group_ty)?;
        let index = self.index();
        self.for_op(c1, block_count, c1, |l, iv| {
            let mut ops = vec![iv, block_size];
            l.compute_operands(&mut ops, f, trip_counts);
            let token = l.execute_call(f.sym, &ops)?;
            l.value("async.add_to_group", &[token, group], index)?;
            l.yield_()
        })?;
        let mut ops = vec![c0, block_size];
        self.compute_operands(&mut ops, f, trip_counts);
        self.call(f.sym, &ops)?;
        self.create("async.await_all", &[group], &[], &[])?;
        Ok(())
    }

    /// `@async_dispatch_fn(%group, %block_start, %block_end, <compute
    /// function arguments after the block index>)`: halves the block range
    /// while it holds more than one block, launching the upper half in an
    /// `async.execute`, then computes the first block.
    fn async_dispatch_fn(&mut self, f: &ComputeFn) -> R<Symbol> {
        let saved = self.rw.insertion_point();
        let (inputs, _) = mlir_async_dialects::builtin::func_type(self.rw.ctx, f.func);
        let index = self.index();
        let group_ty = mlir_async_dialects::asyncd::types::group(self.ctx());
        let mut types = vec![group_ty, index];
        types.extend_from_slice(&inputs);
        let (_, sym, entry) = self.private_func("async_dispatch_fn", &types)?;
        let c1 = self.const_index(1)?;
        let c2 = self.const_index(2)?;
        let args = self.rw.ctx.block_args(entry).to_vec();
        let (group, start, end) = (args[0], args[1], args[2]);
        let i2 = [index, index];
        // MLIR creates the loop with its regions empty and fills them
        // after inserting it.
        let r0 = self.ctx().create_region();
        let r1 = self.ctx().create_region();
        let while_name = self.s("scf.while");
        let loc = self.loc;
        let whl =
            self.ctx()
                .create_op_from(while_name, loc, &[start, end], &i2, &[], &[r0, r1], &[]);
        self.rw.insert(whl)?;
        let before = self.block(r0, &i2);
        let after = self.block(r1, &i2);

        self.rw.set_insertion_point_to_end(before);
        let bargs = self.rw.ctx.block_args(before).to_vec();
        let distance = self.binary("arith.subi", bargs[1], bargs[0])?;
        let more = self.cmpi("sgt", distance, c1)?;
        self.create("scf.condition", &[more, bargs[0], bargs[1]], &[], &[])?;

        self.rw.set_insertion_point_to_end(after);
        let aargs = self.rw.ctx.block_args(after).to_vec();
        let distance = self.binary("arith.subi", aargs[1], aargs[0])?;
        let half = self.binary("arith.divsi", distance, c2)?;
        let mid = self.binary("arith.addi", aargs[0], half)?;
        let mut ops = args.clone();
        ops[1] = mid;
        ops[2] = aargs[1];
        let token = self.execute_call(sym, &ops)?;
        self.value("async.add_to_group", &[token, group], index)?;
        self.create("scf.yield", &[aargs[0], mid], &[], &[])?;

        self.rw.set_insertion_point_after(whl);
        let mut ops = vec![start];
        ops.extend_from_slice(&args[3..]);
        self.call(f.sym, &ops)?;
        self.create("func.return", &[], &[], &[])?;
        self.rw.restore_insertion_point(saved);
        Ok(sym)
    }

    /// The compute function over one block of the flattened iteration
    /// space: `(%block_index, %block_size, %trip_counts..., %lbs...,
    /// %ubs..., %steps..., %captures...)`. With `aligned` > 0 (14, 15),
    /// the `aligned` innermost loops run over their whole static trip
    /// count.
    fn compute_fn(&mut self, bounds: &StaticBounds, aligned: usize) -> R<ComputeFn> {
        let saved = self.rw.insertion_point();
        let n = self.num_loops();
        let captures = match &self.captures {
            Some(c) => c.clone(),
            None => {
                let c = used_values_defined_above(self.rw.ctx, self.body);
                self.captures = Some(c.clone());
                c
            }
        };
        let index = self.index();
        let mut inputs = vec![index; 2 + 4 * n];
        inputs.extend(captures.iter().map(|&v| self.rw.ctx.value_type(v)));
        let base = if aligned > 0 {
            "parallel_compute_fn_with_aligned_loops"
        } else {
            "parallel_compute_fn"
        };
        let (func, sym, entry) = self.private_func(base, &inputs)?;
        let args = self.rw.ctx.block_args(entry).to_vec();
        let (block_index, block_size) = (args[0], args[1]);
        let c0 = self.const_index(0)?;
        let c1 = self.const_index(1)?;
        let v14 = self.v14();

        let tc_args = &args[2..2 + n];
        let lb_args = &args[2 + n..2 + 2 * n];
        let step_args = &args[2 + 3 * n..2 + 4 * n];
        let cap_args = args[2 + 4 * n..].to_vec();
        let mut trip_count;
        let (trip_counts, lower_bounds, steps);
        if v14 {
            trip_counts = self.materialize(tc_args, &bounds.trip_counts)?;
            lower_bounds = self.materialize(lb_args, &bounds.lower_bounds)?;
            steps = self.materialize(step_args, &bounds.steps)?;
            trip_count = trip_counts[0];
            for &tc in &trip_counts[1..] {
                trip_count = self.binary("arith.muli", trip_count, tc)?;
            }
        } else {
            trip_counts = tc_args.to_vec();
            trip_count = trip_counts[0];
            for &tc in &trip_counts[1..] {
                trip_count = self.binary("arith.muli", trip_count, tc)?;
            }
            lower_bounds = lb_args.to_vec();
            steps = step_args.to_vec();
        }

        let first = self.binary("arith.muli", block_index, block_size)?;
        let end0 = self.binary("arith.addi", first, block_size)?;
        let end = if v14 {
            self.binary("arith.minsi", end0, trip_count)?
        } else {
            let past = self.cmpi("sge", end0, trip_count)?;
            self.select(past, trip_count, end0)?
        };
        let last = self.binary("arith.subi", end, c1)?;
        let first_coord = self.delinearize(first, &trip_counts)?;
        let last_coord = self.delinearize(last, &trip_counts)?;
        let mut end_coord = Vec::with_capacity(n);
        for &c in &last_coord {
            end_coord.push(self.binary("arith.addi", c, c1)?);
        }

        let mut nest = LoopNest {
            c0,
            c1,
            trip_counts,
            lower_bounds,
            steps,
            first_coord,
            last_coord,
            end_coord,
            aligned,
            ivs: vec![None; n],
            is_first: vec![None; n],
            is_last: vec![None; n],
            captures: &captures,
            cap_args: &cap_args,
        };
        let (lb, ub) = (nest.first_coord[0], nest.end_coord[0]);
        self.for_op(lb, ub, c1, |l, iv| l.work_loop(&mut nest, 0, iv))?;
        self.create("func.return", &[], &[], &[])?;
        self.rw.restore_insertion_point(saved);
        Ok(ComputeFn {
            func,
            sym,
            captures,
        })
    }

    /// `args`, with the statically known ones replaced by constants
    /// built here (14, 15).
    fn materialize(&mut self, args: &[Value], known: &[Option<i64>]) -> R<Vec<Value>> {
        let mut out = Vec::with_capacity(args.len());
        for (&a, &k) in args.iter().zip(known) {
            out.push(match k {
                Some(v) => self.const_index(v)?,
                None => a,
            });
        }
        Ok(out)
    }

    /// A one-dimensional index in `[0, product of trip_counts)` as
    /// coordinates (the remainders, innermost first; the outermost
    /// quotient is computed and left unused, as upstream leaves it).
    fn delinearize(&mut self, mut index: Value, trip_counts: &[Value]) -> R<Vec<Value>> {
        let mut coords = vec![index; trip_counts.len()];
        for i in (0..trip_counts.len()).rev() {
            coords[i] = self.binary("arith.remsi", index, trip_counts[i])?;
            index = self.binary("arith.divsi", index, trip_counts[i])?;
        }
        Ok(coords)
    }

    /// The body of the loop over dimension `d` of a compute function.
    fn work_loop(&mut self, nest: &mut LoopNest, d: usize, iv: Value) -> R<()> {
        let n = self.num_loops();
        let scaled = self.binary("arith.muli", iv, nest.steps[d])?;
        nest.ivs[d] = Some(self.binary("arith.addi", nest.lower_bounds[d], scaled)?);
        let mut is_first = self.cmpi("eq", iv, nest.first_coord[d])?;
        let mut is_last = self.cmpi("eq", iv, nest.last_coord[d])?;
        if d > 0 {
            if let (Some(pf), Some(pl)) = (nest.is_first[d - 1], nest.is_last[d - 1]) {
                is_first = self.binary("arith.andi", is_first, pf)?;
                is_last = self.binary("arith.andi", is_last, pl)?;
            }
        }
        nest.is_first[d] = Some(is_first);
        nest.is_last[d] = Some(is_last);
        if d + 1 < n {
            let (c0, c1) = (nest.c0, nest.c1);
            if d + 1 >= n - nest.aligned {
                let tc = nest.trip_counts[d + 1];
                self.for_op(c0, tc, c1, |l, iv| l.work_loop(nest, d + 1, iv))?;
            } else {
                let lb = self.select(is_first, nest.first_coord[d + 1], c0)?;
                let ub = self.select(is_last, nest.end_coord[d + 1], nest.trip_counts[d + 1])?;
                self.for_op(lb, ub, c1, |l, iv| l.work_loop(nest, d + 1, iv))?;
            }
            return self.yield_();
        }
        // The innermost loop runs a copy of the parallel loop's body.
        let entry = self
            .rw
            .ctx
            .entry_block(self.body)
            .ok_or_else(|| RewriteError::at(self.loc, "'scf.parallel' op has an empty body"))?;
        self.bodies_left = self.bodies_left.saturating_sub(1);
        let moving = self.bodies_left == 0;
        // Sized for a copy (about a result per op), not grown op by op.
        let mut size = self.rw.ctx.block_args(entry).len() + nest.captures.len();
        if !moving {
            size += self.rw.ctx.block_ops_iter(entry).count();
        }
        let mut map: FxHashMap<Value, Value> =
            FxHashMap::with_capacity_and_hasher(size, Default::default());
        for (i, &a) in self.rw.ctx.block_args(entry).iter().enumerate() {
            if let Some(v) = nest.ivs.get(i).copied().flatten() {
                map.insert(a, v);
            }
        }
        for (&c, &a) in nest.captures.iter().zip(nest.cap_args) {
            map.insert(c, a);
        }
        if moving {
            for o in self.rw.ctx.block_ops(entry) {
                self.rw.move_op_as_clone(o, &map)?;
            }
        } else {
            for o in self.rw.ctx.block_ops(entry) {
                self.rw.clone_op(o, &mut map)?;
            }
        }
        Ok(())
    }
}

/// The values a compute function's loop nest is built from.
struct LoopNest<'c> {
    c0: Value,
    c1: Value,
    trip_counts: Vec<Value>,
    lower_bounds: Vec<Value>,
    steps: Vec<Value>,
    first_coord: Vec<Value>,
    last_coord: Vec<Value>,
    end_coord: Vec<Value>,
    aligned: usize,
    /// The parallel loop's induction variables, as built so far.
    ivs: Vec<Option<Value>>,
    /// Whether every loop up to this one is in the block's first (last)
    /// iteration.
    is_first: Vec<Option<Value>>,
    is_last: Vec<Option<Value>>,
    captures: &'c [Value],
    cap_args: &'c [Value],
}
