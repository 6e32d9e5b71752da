//! Live-object accounting and the leak report.
//!
//! Upstream asserts (in debug builds) that no object is alive when its
//! runtime is destroyed, which turns a ref-counting bug in the lowering into
//! an abort at exit. We count live objects by kind instead (always: a
//! relaxed atomic per create/free is noise next to the allocation), and in
//! debug builds also remember every live object with the place that created
//! it, which doubles as the registry the C ABI uses to reject dangling
//! pointers.

use crate::object::{Kind, ObjPtr};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, Ordering};

/// Per-kind counts of creations minus destructions, sharded so that the
/// thread creating objects (the JIT's `main`) and the workers freeing them
/// do not bounce one cache line: worker `i` uses shard `i + 1` (modulo the
/// shard count), every other thread shard 0. The live count of a kind is the
/// sum over the shards.
const SHARDS: usize = 16;

#[repr(align(128))]
struct Shard([AtomicI64; 3]);

#[allow(clippy::declare_interior_mutable_const)]
const ZERO_SHARD: Shard = Shard([AtomicI64::new(0), AtomicI64::new(0), AtomicI64::new(0)]);
static LIVE: [Shard; SHARDS] = [ZERO_SHARD; SHARDS];

fn shard() -> &'static Shard {
    let i = crate::scheduler::current_worker_index().map_or(0, |w| 1 + w % (SHARDS - 1));
    &LIVE[i]
}

/// Live objects of every kind together (a racy snapshot while tasks run).
pub(crate) fn live_total() -> i64 {
    LIVE.iter()
        .map(|s| s.0.iter().map(|c| c.load(Ordering::Relaxed)).sum::<i64>())
        .sum()
}

fn count(kind: Kind) -> i64 {
    LIVE.iter()
        .map(|s| s.0[kind as usize].load(Ordering::Relaxed))
        .sum()
}

/// Counts of objects alive right now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveObjects {
    /// Live `!async.token`s.
    pub tokens: i64,
    /// Live `!async.value`s.
    pub values: i64,
    /// Live `!async.group`s.
    pub groups: i64,
}

impl LiveObjects {
    /// All live objects together.
    pub fn total(&self) -> i64 {
        self.tokens + self.values + self.groups
    }
}

/// Returns how many objects of each kind are alive.
pub fn live_objects() -> LiveObjects {
    LiveObjects {
        tokens: count(Kind::Token),
        values: count(Kind::Value),
        groups: count(Kind::Group),
    }
}

pub(crate) fn created(kind: Kind) {
    shard().0[kind as usize].fetch_add(1, Ordering::Relaxed);
}

pub(crate) fn destroyed(obj: ObjPtr, kind: Kind) {
    shard().0[kind as usize].fetch_sub(1, Ordering::Relaxed);
    registry::forget(obj);
}

/// Where an object was created (debug builds only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Created through the C ABI function of this name (by JIT code, whose
    /// source location the runtime cannot see).
    CAbi(&'static str),
    /// Created through the Rust API at this location.
    Rust(&'static std::panic::Location<'static>),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::CAbi(name) => write!(f, "{name} (C ABI)"),
            Origin::Rust(loc) => write!(f, "{}:{}", loc.file(), loc.line()),
        }
    }
}

#[cfg(all(debug_assertions, not(loom)))]
pub(crate) mod registry {
    use super::Origin;
    use crate::object::{Kind, ObjPtr};
    use std::collections::HashMap;
    use std::sync::Mutex;

    static LIVE_SET: Mutex<Option<HashMap<usize, (Kind, Origin)>>> = Mutex::new(None);

    fn with<R>(f: impl FnOnce(&mut HashMap<usize, (Kind, Origin)>) -> R) -> R {
        let mut g = match LIVE_SET.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        f(g.get_or_insert_with(HashMap::new))
    }

    pub(crate) fn remember(obj: ObjPtr, kind: Kind, origin: Origin) {
        with(|m| m.insert(obj.as_raw() as usize, (kind, origin)));
    }

    pub(crate) fn forget(obj: ObjPtr) {
        with(|m| m.remove(&(obj.as_raw() as usize)));
    }

    /// The kind of the live object at `addr`, if any.
    pub(crate) fn lookup(addr: usize) -> Option<Kind> {
        with(|m| m.get(&addr).map(|e| e.0))
    }

    pub(crate) fn origins() -> Vec<(Kind, Origin)> {
        with(|m| m.values().copied().collect())
    }
}

#[cfg(not(all(debug_assertions, not(loom))))]
pub(crate) mod registry {
    use super::Origin;
    use crate::object::{Kind, ObjPtr};

    #[inline(always)]
    pub(crate) fn remember(_: ObjPtr, _: Kind, _: Origin) {}
    #[inline(always)]
    pub(crate) fn forget(_: ObjPtr) {}
    #[allow(dead_code)]
    pub(crate) fn lookup(_: usize) -> Option<Kind> {
        None
    }
    pub(crate) fn origins() -> Vec<(Kind, Origin)> {
        Vec::new()
    }
}

/// A human-readable leak report: counts by kind and, in debug builds, where
/// the leaked objects were created (grouped, most frequent first).
pub fn leak_report() -> String {
    let live = live_objects();
    let mut out = String::new();
    if live.total() == 0 {
        out.push_str("mlir-async-runtime: leak report: no live objects\n");
        return out;
    }
    let _ = writeln!(
        out,
        "mlir-async-runtime: leak report: {} live object(s): {} token(s), {} value(s), {} group(s)",
        live.total(),
        live.tokens,
        live.values,
        live.groups
    );
    let mut sites: Vec<((Kind, String), usize)> = Vec::new();
    for (kind, origin) in registry::origins() {
        let key = (kind, origin.to_string());
        match sites.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => sites.push((key, 1)),
        }
    }
    sites.sort_by_key(|s| std::cmp::Reverse(s.1));
    for ((kind, site), n) in sites {
        let _ = writeln!(out, "  {n} {} created at {site}", kind.name());
    }
    out
}

/// When the report is printed at exit, from `MLIR_ASYNC_RUNTIME_LEAK_REPORT`:
/// `1` always (also "no live objects"), `0` never, unset only when something
/// leaked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReportPolicy {
    Always,
    Never,
    OnLeak,
}

pub(crate) fn report_policy() -> ReportPolicy {
    match std::env::var("MLIR_ASYNC_RUNTIME_LEAK_REPORT").as_deref() {
        Ok("1") | Ok("always") => ReportPolicy::Always,
        Ok("0") | Ok("never") => ReportPolicy::Never,
        _ => ReportPolicy::OnLeak,
    }
}
