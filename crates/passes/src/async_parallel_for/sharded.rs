//! `async-parallel-for` on a module split into shards, one thread each.
//!
//! The rewrite of each `scf.parallel` touches only its own function and
//! the functions it adds, and the greedy driver folds each function alone
//! (folded constants go to the top of the function; a function that is
//! done sees further rounds change nothing). What ties the functions
//! together is the names of the added functions: the sequential driver
//! meets the loops bottom-up, last function first, and uniques each name
//! (`parallel_compute_fn`, `_0`, `_1`, ...) against every symbol of the
//! module and every name given before it. So a shard runs the pass with
//! names uniqued against what it sees, then tells a coordinator its own
//! symbols and the base name of each function it added, in order; the
//! coordinator replays the sequential naming over the shards last to first
//! and answers each with the names its functions get, which the shard
//! renames them to (the functions and every reference to them).
//!
//! The printed module is then the shards' own functions in order, then
//! the added functions of the last shard, ..., of the first: where the
//! sequential pass appends them. Anything unusual (an error, a warning, a
//! shard that stopped) makes the sharded run fail, and the caller runs the
//! pass on the whole module, which words every diagnostic.

use super::AsyncParallelFor;
use crate::async_to_async_runtime::NotSharded;
use crate::PassContext;
use mlir_async_ir::fxhash::{FxHashMap, FxHashSet};
use mlir_async_ir::{Op, Symbol};
use mlir_async_syntax::printer::push_u32;
use std::sync::mpsc::{channel, Receiver, Sender};

/// What a shard tells the coordinator once its pass ran: its own symbol
/// names, and the base name of each function it added, in order; `None`
/// if it stopped.
type Report = Option<(Vec<String>, Vec<&'static str>)>;

/// A shard's end of the exchange, handed to [`run_shard`] on the shard's
/// thread.
pub struct ShardLink {
    index: usize,
    to: Sender<(usize, Report)>,
    from: Receiver<Vec<String>>,
    sent: bool,
}

/// The coordinator's end: see [`exchange`].
pub struct Coordinator {
    reports: Receiver<(usize, Report)>,
    replies: Vec<Sender<Vec<String>>>,
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
            sent: false,
        });
    }
    (Coordinator { reports, replies }, links)
}

impl Drop for ShardLink {
    fn drop(&mut self) {
        // A shard that stops before reporting unblocks the coordinator.
        if !self.sent {
            let _ = self.to.send((self.index, None));
        }
    }
}

impl Coordinator {
    /// Answers the shards once all have reported; `Err` if one stopped
    /// (every shard waiting for an answer then fails too).
    pub fn run(self) -> Result<(), NotSharded> {
        let n = self.replies.len();
        let mut got: Vec<Option<(Vec<String>, Vec<&'static str>)>> = vec![None; n];
        for _ in 0..n {
            let Ok((i, Some(r))) = self.reports.recv() else {
                return Err(NotSharded);
            };
            got[i] = Some(r);
        }
        let got: Vec<_> = got
            .into_iter()
            .map(|g| g.ok_or(NotSharded))
            .collect::<Result<_, _>>()?;
        let mut names = Names::default();
        for (own, _) in &got {
            names.taken.extend(own.iter().cloned());
        }
        // The sequential driver meets the last shard's loops first.
        let mut answers: Vec<Vec<String>> = vec![vec![]; n];
        for (k, (_, bases)) in got.iter().enumerate().rev() {
            answers[k] = bases.iter().map(|b| names.unique(b)).collect();
        }
        for (tx, a) in self.replies.iter().zip(answers) {
            tx.send(a).map_err(|_| NotSharded)?;
        }
        Ok(())
    }
}

/// The module's symbol names, for the coordinator's replay of
/// `SymbolNames::unique` over the whole module.
#[derive(Default)]
struct Names {
    taken: FxHashSet<String>,
    next_suffix: FxHashMap<String, u32>,
}

impl Names {
    fn unique(&mut self, base: &str) -> String {
        if self.taken.insert(base.to_string()) {
            return base.to_string();
        }
        let mut n = self.next_suffix.get(base).copied().unwrap_or(0);
        loop {
            let mut text = String::with_capacity(base.len() + 4);
            text.push_str(base);
            text.push('_');
            push_u32(&mut text, n);
            n += 1;
            if self.taken.insert(text.clone()) {
                self.next_suffix.insert(base.to_string(), n);
                return text;
            }
        }
    }
}

/// Runs `pass` on one shard: `foreign` are the declarations standing for
/// the other shards' functions. Fails (leaving the shard half rewritten)
/// on any error or warning, or when another shard failed; the
/// whole-module run then reports it.
pub fn run_shard(
    pass: &AsyncParallelFor,
    pc: &mut PassContext,
    module: Op,
    foreign: &FxHashSet<Op>,
    mut link: ShardLink,
) -> Result<(), NotSharded> {
    let ctx = &*pc.ctx;
    let body = super::module_block(ctx, module).ok_or(NotSharded)?;
    let own: Vec<String> = ctx
        .block_ops_iter(body)
        .filter(|o| !foreign.contains(o))
        .filter_map(|o| ctx.symbol_name(o).map(str::to_string))
        .collect();
    let made = pass.rewrite_module(pc, module).map_err(|_| NotSharded)?;
    // Warnings are printed in the whole run's order.
    if !pc.warnings.is_empty() {
        return Err(NotSharded);
    }
    let bases = made.iter().map(|m| m.0).collect();
    link.sent = true;
    link.to
        .send((link.index, Some((own, bases))))
        .map_err(|_| NotSharded)?;
    let names = link.from.recv().map_err(|_| NotSharded)?;
    if names.len() != made.len() {
        return Err(NotSharded);
    }
    rename(pc, module, foreign, &made, &names)
}

/// Gives the functions in `made` their module-wide `names`, and makes
/// every reference to them follow.
fn rename(
    pc: &mut PassContext,
    module: Op,
    foreign: &FxHashSet<Op>,
    made: &[(&'static str, Symbol, Op)],
    names: &[String],
) -> Result<(), NotSharded> {
    let ctx = &mut *pc.ctx;
    let mut map: FxHashMap<Symbol, Symbol> = FxHashMap::default();
    let sym_name = ctx.sym("sym_name");
    for (&(_, local, func), name) in made.iter().zip(names) {
        let new = ctx.sym(name);
        if new != local {
            map.insert(local, new);
        }
        if ctx.is_erased(func) {
            return Err(NotSharded);
        }
        let a = ctx.string_attr(name);
        ctx.set_attr_sym(func, sym_name, a);
    }
    if map.is_empty() {
        return Ok(());
    }
    let body = super::module_block(ctx, module).ok_or(NotSharded)?;
    let tops: Vec<Op> = ctx
        .block_ops_iter(body)
        .filter(|o| !foreign.contains(o))
        .collect();
    // The ops that refer to a renamed function, found first: most refer
    // to none, and the walk cannot change the IR it reads.
    let mut users: Vec<Op> = vec![];
    {
        let c = &*ctx;
        let mut visit = |o: Op| {
            let mut refers = false;
            for &(_, a) in c.attrs(o) {
                c.for_each_symbol_ref(a, &mut |root, _| refers |= map.contains_key(&root));
            }
            if refers {
                users.push(o);
            }
        };
        for top in tops {
            visit(top);
            c.walk_nested(top, &mut visit);
        }
    }
    for o in users {
        ctx.replace_op_symbol_refs(o, &mut |s| map.get(&s).copied());
    }
    Ok(())
}
