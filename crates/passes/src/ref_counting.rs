//! Reference counting of async runtime objects, as MLIR's
//! `AsyncRuntimeRefCounting.cpp` and `AsyncRuntimeRefCountingOpt.cpp`:
//!
//! - `-async-runtime-ref-counting`: liveness-based. Every token, value and
//!   group is created (or received as a block argument) with one
//!   reference; a `drop_ref` goes after its last use in each block where it
//!   dies (not after a return, which hands the reference on), an `add_ref`
//!   before each call that takes it (the callee owns what it receives), and
//!   where it is live into one successor but not another, the other edge
//!   gets a block that drops it.
//! - `-async-runtime-policy-based-ref-counting`: references dropped where
//!   the default policy says they are consumed (after `is_error` of a
//!   token or group, `load` of a value, `add_to_group` of a token).
//! - `-async-runtime-ref-counting-opt`: cancels an `add_ref` with a later
//!   `drop_ref` of the same count in the same block when no call in
//!   between would see the difference.
//!
//! Beyond upstream: liveness stays right while blocks are added. Upstream
//! computes it once and then inserts reference-counting blocks; a value
//! handled later finds no liveness for them, takes them for successors it
//! is not live into, and drops a reference there that is still in use (a
//! use after free at run time). Here each new block gets the liveness it
//! has (that of the successor it leads to, plus the value it drops), and
//! blocks are visited in region order, so the output is deterministic
//! (upstream's order of new blocks follows pointer hashes).

use crate::{OptionKind, Pass, PassContext, PassInfo, PassOption};
use mlir_async_dialects::asyncd::types;
use mlir_async_ir::entity::SecondaryMap;
use mlir_async_ir::liveness::ValueLiveness;
use mlir_async_ir::order::OpOrder;
use mlir_async_ir::{AttrKind, Block, Context, InsertPoint, IrError, Op, Symbol, Value, ValueDef};

const OPTIONS: &[PassOption] = &[PassOption::new(
    "linear-cleanup",
    OptionKind::Bool,
    "false",
    "Share the blocks that drop the values dying on edges into one successor (a coroutine's error edges) as one ladder per successor: output linear in values + edges instead of edges x live values (not in upstream)",
)];

pub fn info() -> PassInfo {
    PassInfo {
        arg: "async-runtime-ref-counting",
        summary: "Automatic reference counting for Async runtime operations",
        options: OPTIONS,
        anchor: "",
        make: |opts| {
            Ok(Box::new(RefCounting {
                linear_cleanup: opts.bool("linear-cleanup"),
            }))
        },
    }
}

pub fn info_policy() -> PassInfo {
    PassInfo {
        arg: "async-runtime-policy-based-ref-counting",
        summary: "Policy based reference counting for Async runtime operations",
        options: &[],
        anchor: "",
        make: |_| Ok(Box::new(PolicyRefCounting)),
    }
}

pub fn info_opt() -> PassInfo {
    PassInfo {
        arg: "async-runtime-ref-counting-opt",
        summary: "Optimize automatic reference counting operations for theAsync runtime by removing redundant operations",
        options: &[],
        anchor: "",
        make: |_| Ok(Box::new(RefCountingOpt)),
    }
}

fn is_ref_counted(ctx: &Context, v: Value) -> bool {
    types::classify(ctx, ctx.value_type(v)).is_some_and(types::AsyncType::is_ref_counted)
}

/// The reference-counted values under `op`: block arguments first (blocks
/// in post-order, as MLIR's block walk), then op results (ops in
/// post-order). Fails at the first high-level async op left.
fn ref_counted_values(ctx: &Context, op: Op) -> Result<Vec<Value>, IrError> {
    let high_level: Vec<Symbol> = [
        "async.execute",
        "async.await",
        "async.await_all",
        "async.yield",
    ]
    .iter()
    .filter_map(|n| ctx.lookup_sym(n))
    .collect();
    let mut bad = None;
    if !high_level.is_empty() {
        ctx.walk_post(op, &mut |o| {
            if bad.is_none() && high_level.contains(&ctx.op(o).name) {
                bad = Some(o);
            }
        });
    }
    if let Some(o) = bad {
        return Err(IrError::on_op(
            ctx,
            o,
            "async operations must be lowered to async runtime operations",
        ));
    }
    Ok(values_in_walk_order(ctx, op))
}

/// The reference-counted values under `op` in MLIR's walk order: block
/// arguments (blocks in post-order), then op results (ops in post-order).
fn values_in_walk_order(ctx: &Context, op: Op) -> Vec<Value> {
    fn blocks_post(ctx: &Context, op: Op, out: &mut Vec<Value>) {
        for &r in ctx.regions_of(op) {
            for b in ctx.region_blocks(r) {
                for o in ctx.block_ops_iter(b) {
                    blocks_post(ctx, o, out);
                }
                out.extend(
                    ctx.block_args(b)
                        .iter()
                        .copied()
                        .filter(|&a| is_ref_counted(ctx, a)),
                );
            }
        }
    }
    let mut out = vec![];
    blocks_post(ctx, op, &mut out);
    ctx.walk_post(op, &mut |o| {
        out.extend(
            ctx.results(o)
                .iter()
                .copied()
                .filter(|&r| is_ref_counted(ctx, r)),
        );
    });
    out
}

mlir_async_ir::names! {
    /// The op and attribute names the passes build and look for.
    #[derive(Clone, Copy)]
    struct Names {
        drop_ref = "async.runtime.drop_ref",
        add_ref = "async.runtime.add_ref",
        count = "count",
        call = "func.call",
        coro_suspend = "async.coro.suspend",
    }
}

/// How the passes build reference-counting ops (the count's type
/// depends on the syntax generation).
#[derive(Clone, Copy)]
struct Counts {
    ty: mlir_async_ir::Type,
    n: Names,
}

impl Counts {
    fn new(pc: &mut PassContext) -> Self {
        Counts {
            ty: mlir_async_dialects::asyncd::ref_count_type(pc.ctx, pc.edition),
            n: Names::new(pc.ctx),
        }
    }
}

fn ref_op(ctx: &mut Context, k: Counts, name: Symbol, v: Value, count: i64, ip: InsertPoint) {
    let loc = ctx.value_loc(v);
    ref_op_at(ctx, k, name, v, count, ip, loc);
}

fn ref_op_at(
    ctx: &mut Context,
    k: Counts,
    name: Symbol,
    v: Value,
    count: i64,
    ip: InsertPoint,
    loc: mlir_async_ir::Location,
) {
    let c = ctx.int_attr(i128::from(count), k.ty);
    let op = ctx.create_op_from(name, loc, &[v], &[], &[(k.n.count, c)], &[], &[]);
    ctx.insert_op(ip, op);
}

/// A value nobody uses: its reference is dropped right where it appears.
fn drop_if_unused(ctx: &mut Context, k: Counts, v: Value) -> bool {
    if ctx.has_uses(v) {
        return false;
    }
    let ip = match ctx.value_def(v) {
        ValueDef::Result(op, _) => ctx.after(op),
        ValueDef::BlockArg(b, _) => match ctx.first_op(b) {
            Some(f) => InsertPoint::Before(f),
            None => InsertPoint::AtEnd(b),
        },
    };
    ref_op(ctx, k, k.n.drop_ref, v, 1, ip);
    true
}

pub struct RefCounting {
    /// See the `linear-cleanup` option and `cleanup_ladder`.
    pub linear_cleanup: bool,
}

impl Pass for RefCounting {
    fn name(&self) -> &'static str {
        "async-runtime-ref-counting"
    }
    fn display_name(&self) -> &'static str {
        "AsyncRuntimeRefCounting"
    }
    fn local_to_functions(&self) -> bool {
        // Upstream's too: it walks the values of each function's regions,
        // asks liveness only there, and looks up no symbol.
        true
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let k = Counts::new(pc);
        let ctx = &mut *pc.ctx;
        let values = ref_counted_values(ctx, op)?;
        let mut s = State {
            live: ValueLiveness::new(),
            // Shared with `-async-runtime-ref-counting-opt`, which
            // usually follows.
            order: pc.analyses.get::<OpOrder>(ctx, op),
            block_pos: block_positions(ctx, op),
        };
        for v in values {
            if drop_if_unused(ctx, k, v) {
                continue;
            }
            // Computed for each value when it is reached, so the blocks
            // added for the values before are seen as they are.
            s.live.compute(ctx, v);
            drop_after_last_use(ctx, k, &mut s, v)?;
            add_ref_before_calls(ctx, k, v);
            drop_in_divergent_successors(ctx, k, &s, v)?;
        }
        if self.linear_cleanup {
            let is_new = |b: Block| s.block_pos[b] == u32::MAX;
            crate::cleanup_ladder::build_ladders(ctx, op, &is_new, k.n.drop_ref)?;
        }
        Ok(())
    }
}

/// What the liveness-based pass keeps from one value to the next.
struct State<'a> {
    live: ValueLiveness,
    order: &'a mut OpOrder,
    /// Each block's position in its region when the pass started (the
    /// blocks it adds have one successor, so they never diverge and need
    /// none; `u32::MAX` for them).
    block_pos: SecondaryMap<Block, u32>,
}

fn block_positions(ctx: &Context, op: Op) -> SecondaryMap<Block, u32> {
    let mut pos = SecondaryMap::with_default(u32::MAX);
    let mut number = |o: Op| {
        for &r in ctx.regions_of(o) {
            for (i, b) in ctx.region_blocks(r).enumerate() {
                pos[b] = i as u32;
            }
        }
    };
    number(op);
    ctx.walk_nested(op, &mut number);
    pos
}

fn value_region(ctx: &Context, v: Value) -> Option<mlir_async_ir::Region> {
    ctx.parent_region(ctx.value_block(v)?)
}

fn drop_after_last_use(
    ctx: &mut Context,
    k: Counts,
    s: &mut State,
    v: Value,
) -> Result<(), IrError> {
    let Some(region) = value_region(ctx, v) else {
        return Ok(());
    };
    // Per block of the defining region where a user sits (in the order
    // MLIR's map meets them: users newest first), the last of the users'
    // ancestors there: where the value dies if it is not live on exit.
    let mut users: Vec<(Block, Op)> = vec![];
    for u in ctx.users(v) {
        let Some(ub) = ctx.parent_block(u) else {
            continue;
        };
        let Some(b) = ctx.ancestor_block_in_region(region, ub) else {
            continue;
        };
        let Some(a) = ctx.ancestor_in_block(b, u) else {
            continue;
        };
        match users.iter_mut().find(|(x, _)| *x == b) {
            Some(e) => {
                if s.order.is_before_in_block(ctx, e.1, a) {
                    e.1 = a;
                }
            }
            None => users.push((b, a)),
        }
    }
    let mut last_users: Vec<Op> = vec![];
    for (b, last) in users {
        if s.live.is_live_out(b) {
            continue;
        }
        if !last_users.contains(&last) {
            last_users.push(last);
        }
    }
    for last in last_users {
        if ctx.traits_of(last).return_like {
            continue;
        }
        if ctx.traits_of(last).is_terminator {
            return Err(IrError::on_op(
                ctx,
                last,
                "async reference counting can't handle terminators that are not ReturnLike",
            ));
        }
        let loc = ctx.value_loc(v);
        let ip = ctx.after(last);
        ref_op_at(ctx, k, k.n.drop_ref, v, 1, ip, loc);
    }
    Ok(())
}

fn add_ref_before_calls(ctx: &mut Context, k: Counts, v: Value) {
    let calls: Vec<Op> = ctx
        .users(v)
        .filter(|&u| ctx.op(u).name == k.n.call)
        .collect();
    for c in calls {
        ref_op(ctx, k, k.n.add_ref, v, 1, InsertPoint::Before(c));
    }
}

fn drop_in_divergent_successors(
    ctx: &mut Context,
    k: Counts,
    s: &State,
    v: Value,
) -> Result<(), IrError> {
    let Some(region) = value_region(ctx, v) else {
        return Ok(());
    };
    // Only a block the value is live out of can diverge: those of the
    // defining region, in region order.
    let mut candidates: Vec<Block> = s
        .live
        .live_out_blocks()
        .iter()
        .copied()
        .filter(|&b| ctx.parent_region(b) == Some(region))
        .filter(|&b| ctx.last_op(b).is_some_and(|t| ctx.successors(t).len() > 1))
        .collect();
    if candidates.iter().any(|&b| s.block_pos[b] == u32::MAX) {
        candidates.sort_by_cached_key(|&b| ctx.block_index(b));
    } else {
        candidates.sort_unstable_by_key(|&b| s.block_pos[b]);
    }
    let mut divergent: Vec<(Block, Vec<Block>)> = vec![];
    for b in candidates {
        let succs = ctx
            .last_op(b)
            .map(|t| ctx.successors(t))
            .unwrap_or_default();
        let (mut live, mut dead): (Vec<Block>, Vec<Block>) = (vec![], vec![]);
        for &succ in succs {
            let set = if s.live.is_live_in(succ) {
                &mut live
            } else {
                &mut dead
            };
            if !set.contains(&succ) {
                set.push(succ);
            }
        }
        if !live.is_empty() && !dead.is_empty() {
            divergent.push((b, dead));
        }
    }
    for (b, dead) in divergent {
        let term = ctx
            .last_op(b)
            .expect("a block with successors has a terminator");
        if ctx.op(term).name == k.n.coro_suspend {
            continue;
        }
        if dead.iter().any(|&s| !ctx.block_args(s).is_empty()) {
            return Err(IrError::on_op(
                ctx, term,
                format!(
                    "'{}' op successor have different `liveIn` property of the reference counted value",
                    ctx.name(term)
                ),
            ));
        }
        for s in dead {
            let preds = ctx.pred_ops(s);
            let unique = preds
                .first()
                .and_then(|&p| ctx.parent_block(p))
                .filter(|&p| preds.iter().all(|&x| ctx.parent_block(x) == Some(p)));
            let rc = if unique == Some(b) {
                s
            } else {
                let rc = ctx.create_block(&[]);
                ctx.insert_block_before(s, rc);
                let loc = ctx.value_loc(v);
                mlir_async_dialects::cf::build_br(ctx, InsertPoint::AtEnd(rc), loc, s, vec![]);
                rc
            };
            let ip = match ctx.first_op(rc) {
                Some(f) => InsertPoint::Before(f),
                None => InsertPoint::AtEnd(rc),
            };
            ref_op(ctx, k, k.n.drop_ref, v, 1, ip);
            if rc == s {
                continue;
            }
            let succs = ctx.successors(term).to_vec();
            for (i, x) in succs.iter().enumerate() {
                if *x == s {
                    ctx.set_successor(term, i, rc);
                }
            }
        }
    }
    Ok(())
}

pub struct PolicyRefCounting;

impl Pass for PolicyRefCounting {
    fn name(&self) -> &'static str {
        "async-runtime-policy-based-ref-counting"
    }
    fn display_name(&self) -> &'static str {
        "AsyncRuntimePolicyBasedRefCounting"
    }
    fn local_to_functions(&self) -> bool {
        // Upstream's too: it walks the values of each function's regions,
        // asks liveness only there, and looks up no symbol.
        true
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let k = Counts::new(pc);
        let llvm13 = pc.edition == mlir_async_syntax::Edition::V13;
        let ctx = &mut *pc.ctx;
        for v in ref_counted_values(ctx, op)? {
            if drop_if_unused(ctx, k, v) {
                continue;
            }
            let kind = types::classify(ctx, ctx.value_type(v));
            let (token, group, value) = (
                kind == Some(types::AsyncType::Token),
                kind == Some(types::AsyncType::Group),
                matches!(kind, Some(types::AsyncType::Value(_))),
            );
            // Uses newest first, as MLIR walks a use-list.
            let users: Vec<Op> = ctx.users(v).collect();
            for u in users {
                let count = match ctx.name(u) {
                    "async.runtime.is_error" if token || group => -1,
                    // LLVM 13's policy also took the reference at an await.
                    "async.runtime.await" if (token || group) && llvm13 => -1,
                    "async.runtime.load" if value => -1,
                    "async.runtime.add_to_group" if token => -1,
                    _ => 0,
                };
                let loc = ctx.op_loc(u);
                if count < 0 {
                    let ip = ctx.after(u);
                    ref_op_at(ctx, k, k.n.drop_ref, v, -count, ip, loc);
                }
            }
        }
        Ok(())
    }
}

pub struct RefCountingOpt;

impl Pass for RefCountingOpt {
    fn name(&self) -> &'static str {
        "async-runtime-ref-counting-opt"
    }
    fn display_name(&self) -> &'static str {
        "AsyncRuntimeRefCountingOpt"
    }
    fn local_to_functions(&self) -> bool {
        // Upstream's too: it walks the values of each function's regions,
        // asks liveness only there, and looks up no symbol.
        true
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let ctx = &mut *pc.ctx;
        // A pair needs an `add_ref`: only the values some `add_ref` takes
        // are looked at (upstream looks at every value in walk order; the
        // pairs of one value never depend on another's, so the order does
        // not show).
        let mut values: Vec<Value> = vec![];
        if let Some(add_ref) = ctx.lookup_sym("async.runtime.add_ref") {
            let mut seen: SecondaryMap<Value, bool> = SecondaryMap::default();
            ctx.walk_post(op, &mut |o| {
                if ctx.op(o).name == add_ref {
                    for &v in ctx.operands(o) {
                        if !seen[v] && is_ref_counted(ctx, v) {
                            seen[v] = true;
                            values.push(v);
                        }
                    }
                }
            });
        }
        // drop_ref -> the add_ref it cancels, in the order found (a set
        // beside it: asking the list for each candidate was quadratic in
        // the module).
        let mut cancel: Vec<(Op, Op)> = vec![];
        let mut dropped: SecondaryMap<Op, bool> = Default::default();
        let order = pc.analyses.get::<OpOrder>(ctx, op);
        for v in values {
            cancellable_pairs(ctx, order, v, &mut cancel, &mut dropped);
        }
        for (d, a) in cancel {
            ctx.erase_op(d)
                .map_err(|m| IrError::new(ctx.op_loc(d), m))?;
            ctx.erase_op(a)
                .map_err(|m| IrError::new(ctx.op_loc(a), m))?;
        }
        Ok(())
    }
}

fn count_of(ctx: &Context, op: Op) -> Option<i128> {
    match ctx.attr_kind(ctx.get_attr(op, "count")?) {
        AttrKind::Integer(c, _) => Some(*c),
        _ => None,
    }
}

fn cancellable_pairs(
    ctx: &Context,
    order: &mut OpOrder,
    v: Value,
    cancel: &mut Vec<(Op, Op)>,
    dropped: &mut SecondaryMap<Op, bool>,
) {
    let Some(region) = value_region(ctx, v) else {
        return;
    };
    // Per block of the value's region: its users there (ancestors of
    // nested users included), and among them the add_refs and drop_refs.
    struct Info {
        block: Block,
        users: Vec<Op>,
        adds: Vec<Op>,
        drops: Vec<Op>,
    }
    let mut infos: Vec<Info> = vec![];
    let note = |u: Op, infos: &mut Vec<Info>| {
        let Some(b) = ctx.parent_block(u) else { return };
        let i = match infos.iter().position(|x| x.block == b) {
            Some(i) => i,
            None => {
                infos.push(Info {
                    block: b,
                    users: vec![],
                    adds: vec![],
                    drops: vec![],
                });
                infos.len() - 1
            }
        };
        infos[i].users.push(u);
        match ctx.name(u) {
            "async.runtime.add_ref" => infos[i].adds.push(u),
            "async.runtime.drop_ref" => infos[i].drops.push(u),
            _ => {}
        }
    };
    for u in ctx.users(v).collect::<Vec<_>>() {
        let mut cur = u;
        while ctx.parent_block(cur).and_then(|b| ctx.parent_region(b)) != Some(region) {
            note(cur, &mut infos);
            match ctx.parent_op(cur) {
                Some(p) => cur = p,
                None => break,
            }
        }
        note(cur, &mut infos);
    }
    for info in &mut infos {
        for list in [&mut info.users, &mut info.adds, &mut info.drops] {
            list.sort_by_key(|&o| order.position(ctx, o));
        }
        for &add in &info.adds {
            for &drop in &info.drops {
                if count_of(ctx, drop) != count_of(ctx, add)
                    || order.is_before_in_block(ctx, drop, add)
                {
                    continue;
                }
                let mut first_call: Option<Op> = None;
                let mut last_other: Option<Op> = None;
                for &u in &info.users {
                    if u == add || order.is_before_in_block(ctx, u, add) {
                        continue;
                    }
                    if u == drop || order.is_before_in_block(ctx, drop, u) {
                        break;
                    }
                    if ctx.name(u) == "func.call" {
                        if first_call.is_none_or(|f| order.is_before_in_block(ctx, u, f)) {
                            first_call = Some(u);
                        }
                        continue;
                    }
                    if last_other.is_none_or(|l| order.is_before_in_block(ctx, l, u)) {
                        last_other = Some(u);
                    }
                }
                if let (Some(c), Some(o)) = (first_call, last_other) {
                    if order.is_before_in_block(ctx, c, o) {
                        continue;
                    }
                }
                if dropped[drop] {
                    continue;
                }
                dropped[drop] = true;
                cancel.push((drop, add));
                break;
            }
        }
    }
}
