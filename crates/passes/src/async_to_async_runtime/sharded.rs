//! `async-to-async-runtime` on a module split into shards, one thread each.
//!
//! A large module's text can be parsed into several contexts, each holding
//! a run of the module's top-level ops plus private declarations of the
//! functions the other shards define (see `mlir-async-opt`'s driver). The
//! pass is a module pass, but all it needs of the rest of the module is
//! two facts, exchanged in one round with a coordinator before the shard
//! is rewritten:
//!
//! - **the uniquing counter**: outlined functions are numbered across the
//!   module in walk order, so a shard starts counting where the shards
//!   before it stopped (skipping taken names exactly as
//!   `SymbolTable::insert` does);
//! - **which functions become coroutines** (with the option): the closure
//!   over the call graph of "awaits, or calls a function that does",
//!   computed from every shard's functions. What a function awaits and
//!   calls once its executes are outlined is what it awaits and calls
//!   outside its `async.execute` regions, so the facts are read before
//!   outlining, and no shard waits for another in the middle of its pass.
//!
//! Each shard then rewrites only what it holds, and the output, printed
//! shard by shard, is the sequential pass's text. What would need more of
//! the module (a converted function referenced other than by a call,
//! which gets a blocking wrapper named from the shared counter) makes the
//! sharded run fail, and the caller runs the pass on the whole module.

use super::{Lowering, ASYNC_FN_PREFIX};
use crate::PassContext;
use mlir_async_ir::fxhash::{FxHashMap, FxHashSet};
use mlir_async_ir::{IrError, Op, Symbol};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;

/// The sharded run did not complete: run the pass on the whole module
/// (which then reports any error with its exact diagnostic).
#[derive(Debug)]
pub struct NotSharded;

/// What a function of a shard tells the coordinator.
struct FuncFacts {
    name: String,
    /// Holds an `async.await` or `async.await_all` once executes are
    /// outlined.
    awaits: bool,
    allowed_to_block: bool,
    /// Functions it calls with `func.call`.
    callees: Vec<String>,
}

/// What a shard tells the coordinator before it is rewritten.
enum Report {
    Start {
        /// How many executes it outlines.
        outlines: usize,
        /// Its own symbol names.
        names: Vec<String>,
        /// With the option: its plain functions, and the names it
        /// references other than by a call.
        funcs: Vec<FuncFacts>,
        other_refs: Vec<String>,
    },
    /// The shard stopped (an error, or it finished).
    Done,
}

/// The coordinator's answer.
struct Reply {
    /// Where the shard's uniquing starts: the counter, and the taken
    /// names that uniquing could meet.
    counter: u32,
    taken: Vec<String>,
    /// With the option, the names of every function that becomes a
    /// coroutine.
    converted: Arc<FxHashSet<String>>,
}

/// A shard's end of the exchange, handed to [`run_shard`] on the
/// shard's thread.
pub struct ShardLink {
    index: usize,
    to: Sender<(usize, Report)>,
    from: Receiver<Reply>,
    pub(super) foreign: FxHashSet<Op>,
}

/// The coordinator's end: see [`exchange`].
pub struct Coordinator {
    reports: Receiver<(usize, Report)>,
    replies: Vec<Sender<Reply>>,
}

/// The two ends of the exchange between `n` shards (one link each, in
/// module order) and their coordinator. Each shard runs [`run_shard`] on
/// its own thread while another runs [`Coordinator::run`].
pub fn exchange(n: usize) -> (Coordinator, Vec<ShardLink>) {
    let (to, reports) = channel();
    let mut replies = vec![];
    let mut links = vec![];
    for index in 0..n {
        let (tx, from) = channel();
        replies.push(tx);
        links.push(ShardLink {
            index,
            to: to.clone(),
            from,
            foreign: FxHashSet::default(),
        });
    }
    (Coordinator { reports, replies }, links)
}

/// Runs the pass on one shard: `foreign` are the declarations standing for
/// the other shards' functions. Fails (leaving the shard half lowered)
/// when the shard cannot be lowered alone, when another shard failed, or
/// on any error, which the whole-module run then reports.
pub fn run_shard(
    pc: &mut PassContext,
    module: Op,
    foreign: FxHashSet<Op>,
    mut link: ShardLink,
    eliminate: bool,
) -> Result<(), NotSharded> {
    link.foreign = foreign;
    let mut l = Lowering::new(pc, module);
    l.shard = Some(link);
    l.run(eliminate).map_err(|_| NotSharded)
}

impl Coordinator {
    /// Answers the shards until their pass is done; `Err` if one stopped
    /// early (every shard still waiting then fails too).
    pub fn run(mut self, eliminate: bool) -> Result<(), NotSharded> {
        let done = coordinate(&self.reports, &self.replies, eliminate);
        // Dropping the replies fails every shard still waiting for one.
        self.replies.clear();
        done.ok_or(NotSharded)
    }
}

impl Drop for ShardLink {
    fn drop(&mut self) {
        // Unblocks a coordinator waiting for this shard, whether it ended
        // early or not: a report that never comes would hang the others.
        let _ = self.to.send((self.index, Report::Done));
    }
}

fn not_sharded(module_loc: mlir_async_ir::Location) -> IrError {
    IrError::new(module_loc, "the module cannot be lowered in shards")
}

impl ShardLink {
    fn ask(&self, r: Report) -> Option<Reply> {
        self.to.send((self.index, r)).ok()?;
        self.from.recv().ok()
    }
}

impl Lowering<'_, '_> {
    /// The one exchange of a shard, before outlining: sets the uniquing
    /// counter and taken names where the shards before this one left
    /// them, and (with the option) learns which functions convert.
    pub(super) fn shard_start(&mut self, outlines: usize, eliminate: bool) -> Result<(), IrError> {
        let loc = self.pc.ctx.op_loc(self.module);
        let Some(link) = &self.shard else {
            return Ok(());
        };
        let ctx = &*self.pc.ctx;
        let r = ctx.regions_of(self.module)[0];
        let body = ctx.entry_block(r).expect("module has a body");
        let names = ctx
            .block_ops_iter(body)
            .filter(|o| !link.foreign.contains(o))
            .filter_map(|o| ctx.symbol_name(o).map(str::to_string))
            .collect();
        let (mut funcs, mut other_refs) = (vec![], FxHashSet::default());
        if eliminate {
            for top in ctx.block_ops_iter(body) {
                let f = self.func_facts(top, &mut other_refs);
                if ctx.is(top, self.n.func_func) && !link.foreign.contains(&top) {
                    funcs.extend(f);
                }
            }
        }
        let report = Report::Start {
            outlines,
            names,
            funcs,
            other_refs: other_refs.into_iter().collect(),
        };
        let Some(reply) = link.ask(report) else {
            return Err(not_sharded(loc));
        };
        self.symbols.set_counter(reply.counter);
        for t in reply.taken {
            let s = self.pc.ctx.sym(&t);
            self.symbols.insert(s);
        }
        self.shard_converted = Some(reply.converted);
        Ok(())
    }

    /// What `top` awaits and calls outside its `async.execute` regions
    /// (what it will once they are outlined), if it is a named function;
    /// notes in `other_refs` every name `top` and its nested ops, executes
    /// included, reference other than as a call's callee.
    fn func_facts(&self, top: Op, other_refs: &mut FxHashSet<String>) -> Option<FuncFacts> {
        let ctx = &*self.pc.ctx;
        let n = &self.n;
        let mut awaits = false;
        let mut callees = vec![];
        // (op, inside an execute)
        let mut stack = vec![(top, false)];
        while let Some((o, inside)) = stack.pop() {
            let name = ctx.op(o).name;
            for &(k, a) in ctx.attrs(o) {
                let is_callee = name == n.func_call && k == n.callee;
                ctx.for_each_symbol_ref(a, &mut |s, _| {
                    if !is_callee {
                        other_refs.insert(ctx.str(s).to_string());
                    } else if !inside {
                        callees.push(ctx.str(s).to_string());
                    }
                });
            }
            awaits |= !inside && (name == n.async_await || name == n.async_await_all);
            let inner = inside || name == n.async_execute;
            for &r in ctx.regions_of(o) {
                for b in ctx.region_blocks(r) {
                    stack.extend(ctx.block_ops_iter(b).map(|c| (c, inner)));
                }
            }
        }
        Some(FuncFacts {
            name: ctx.symbol_name(top)?.to_string(),
            awaits,
            allowed_to_block: self.is_allowed_to_block(top),
            callees,
        })
    }

    /// `funcs_to_coroutines` for one shard: the functions to convert came
    /// from the coordinator; this shard rewrites the ones it defines, the
    /// declarations of the others, and its own call sites of all.
    pub(super) fn shard_funcs_to_coroutines(&mut self) -> Result<(), IrError> {
        let loc = self.pc.ctx.op_loc(self.module);
        let Some(converted) = self.shard_converted.clone() else {
            return Err(not_sharded(loc));
        };
        let foreign = match &self.shard {
            Some(link) => link.foreign.clone(),
            None => return Err(not_sharded(loc)),
        };
        // Calls of each name, as `funcs_to_coroutines` finds them.
        let mut users: FxHashMap<Symbol, Vec<Op>> = FxHashMap::default();
        {
            let ctx = &*self.pc.ctx;
            let (call, callee) = (self.n.func_call, self.n.callee);
            let body = ctx.regions_of(self.module)[0];
            let body = ctx.entry_block(body).expect("module has a body");
            for top in ctx.block_ops_iter(body) {
                ctx.walk_nested(top, &mut |o| {
                    if ctx.op(o).name == call {
                        if let Some(c) = ctx.get_attr_sym(o, callee) {
                            ctx.for_each_symbol_ref(c, &mut |s, _| {
                                users.entry(s).or_default().push(o)
                            });
                        }
                    }
                });
            }
        }
        for func in self.module_funcs() {
            let Some(fname) = self.pc.ctx.symbol_name(func) else {
                continue;
            };
            if !converted.contains(fname) || self.coros.borrow().contains_key(&func) {
                continue;
            }
            let fname = fname.to_string();
            if foreign.contains(&func) {
                // Only its signature: the calls here must match it.
                self.coroutine_signature(func);
            } else {
                let coro = self.rewrite_func_as_coroutine(func);
                self.coros.borrow_mut().insert(func, coro);
            }
            let us = match self.pc.ctx.lookup_sym(&fname) {
                Some(s) => users.get(&s).cloned().unwrap_or_default(),
                None => vec![],
            };
            for u in us.into_iter().rev() {
                if !self.pc.ctx.is_erased(u) {
                    self.rewrite_callsite(u, func, &fname)?;
                }
            }
        }
        Ok(())
    }
}

/// Waits for one report of each shard (in any order); `None` if a shard
/// stopped instead.
fn gather<T>(
    reports: &Receiver<(usize, Report)>,
    n: usize,
    mut take: impl FnMut(Report) -> Option<T>,
) -> Option<Vec<T>> {
    let mut got: Vec<Option<T>> = (0..n).map(|_| None).collect();
    for _ in 0..n {
        let (i, r) = reports.recv().ok()?;
        got[i] = Some(take(r)?);
    }
    got.into_iter().collect()
}

fn coordinate(
    reports: &Receiver<(usize, Report)>,
    replies: &[Sender<Reply>],
    eliminate: bool,
) -> Option<()> {
    let n = replies.len();
    let starts = gather(reports, n, |r| match r {
        Report::Start {
            outlines,
            names,
            funcs,
            other_refs,
        } => Some((outlines, names, funcs, other_refs)),
        Report::Done => None,
    })?;
    let converted = if eliminate {
        Arc::new(converted_functions(&starts)?)
    } else {
        Arc::default()
    };
    let names: FxHashSet<&str> = starts
        .iter()
        .flat_map(|s| s.1.iter().map(String::as_str))
        .collect();
    // Every name uniquing could meet: the prefix and its numbered forms.
    let taken: Vec<String> = names
        .iter()
        .filter(|s| s.starts_with(ASYNC_FN_PREFIX))
        .map(|s| s.to_string())
        .collect();
    let mut counter = 0u32;
    let mut base_used = false;
    let mut numbered = String::new();
    for (k, &(count, ..)) in starts.iter().enumerate() {
        let mut t = taken.clone();
        if base_used {
            t.push(ASYNC_FN_PREFIX.to_string());
        }
        let reply = Reply {
            counter,
            taken: t,
            converted: converted.clone(),
        };
        replies[k].send(reply).ok()?;
        // What `unique_symbol` will do for this shard's outlines.
        for _ in 0..count {
            if !base_used && !names.contains(ASYNC_FN_PREFIX) {
                base_used = true;
                continue;
            }
            base_used = true;
            loop {
                numbered.clear();
                numbered.push_str(ASYNC_FN_PREFIX);
                numbered.push('_');
                mlir_async_syntax::printer::push_u32(&mut numbered, counter);
                counter += 1;
                if !names.contains(numbered.as_str()) {
                    break;
                }
            }
        }
    }
    Some(())
}

type Start = (usize, Vec<String>, Vec<FuncFacts>, Vec<String>);

/// The sequential pass's worklist, as a closure: a function awaiting (and
/// not allowed to block) converts, and so do its callers. `None` when a
/// converted function is referenced other than by a call: it gets a
/// blocking wrapper, named from the module-wide counter after every
/// outline, which the shards cannot name.
fn converted_functions(starts: &[Start]) -> Option<FxHashSet<String>> {
    let mut by_name: FxHashMap<&str, &FuncFacts> = FxHashMap::default();
    let mut callers: FxHashMap<&str, Vec<&str>> = FxHashMap::default();
    for f in starts.iter().flat_map(|s| &s.2) {
        by_name.insert(&f.name, f);
        for c in &f.callees {
            callers.entry(c).or_default().push(&f.name);
        }
    }
    let mut converted: FxHashSet<String> = FxHashSet::default();
    let mut work: Vec<&str> = by_name
        .values()
        .filter(|f| f.awaits && !f.allowed_to_block)
        .map(|f| f.name.as_str())
        .collect();
    while let Some(f) = work.pop() {
        if !converted.insert(f.to_string()) {
            continue;
        }
        for &c in callers.get(f).into_iter().flatten() {
            if by_name.get(c).is_some_and(|c| !c.allowed_to_block) {
                work.push(c);
            }
        }
    }
    let referenced = starts.iter().flat_map(|s| &s.3);
    for r in referenced {
        if converted.contains(r) {
            return None;
        }
    }
    Some(converted)
}
