//! Live-object accounting and the leak report.
//!
//! Upstream asserts (in debug builds) that no object is alive when its
//! runtime is destroyed, which turns a ref-counting bug in the lowering into
//! an abort at exit. We count live objects by kind instead (always: a
//! relaxed atomic per create/free is noise next to the allocation), and in
//! debug builds and the checked mode also remember every live object with
//! the place that created it, which doubles as the registry the C ABI uses
//! to reject dangling pointers (and, in the checked mode, freed objects in
//! quarantine, to name them).

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

/// Counts `obj` as freed. Returns whether it must be kept in quarantine
/// instead (checked mode); both the registry update and that answer sit
/// behind one branch on the mode.
#[inline(always)]
pub(crate) fn destroyed(obj: ObjPtr, kind: Kind) -> bool {
    shard().0[kind as usize].fetch_sub(1, Ordering::Relaxed);
    if tracking() {
        registry::forget(obj);
        return crate::checked::enabled();
    }
    false
}

/// Where an object was created (tracked in debug builds and checked mode).
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

/// Whether objects are tracked one by one: always in debug builds, in
/// release builds only in the checked mode (one predictable branch).
#[inline(always)]
pub(crate) fn tracking() -> bool {
    cfg!(debug_assertions) || crate::checked::enabled()
}

/// What the registry knows about one object.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) kind: Kind,
    pub(crate) origin: Origin,
    /// Creation order among tracked objects, from 1.
    pub(crate) seq: u64,
}

impl std::fmt::Display for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} #{} created by {}",
            self.kind.name(),
            self.seq,
            self.origin
        )
    }
}

/// What a pointer refers to, as far as the registry knows.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Lookup {
    Live(Entry),
    /// Freed, and kept in quarantine (checked mode).
    Freed(Entry),
    Unknown,
}

#[cfg(not(loom))]
pub(crate) mod registry {
    use super::{tracking, Entry, Lookup, Origin};
    use crate::object::{Kind, ObjPtr};
    use std::collections::HashMap;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Maps {
        live: HashMap<usize, Entry>,
        /// Objects freed in the checked mode; their memory is never reused,
        /// so an address here stays a freed object.
        freed: HashMap<usize, Entry>,
        seq: u64,
    }

    static MAPS: Mutex<Option<Maps>> = Mutex::new(None);

    fn with<R>(f: impl FnOnce(&mut Maps) -> R) -> R {
        let mut g = match MAPS.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        f(g.get_or_insert_with(Maps::default))
    }

    #[inline(always)]
    pub(crate) fn remember(obj: ObjPtr, kind: Kind, origin: Origin) {
        if tracking() {
            remember_tracked(obj, kind, origin);
        }
    }

    #[cold]
    #[inline(never)]
    fn remember_tracked(obj: ObjPtr, kind: Kind, origin: Origin) {
        crate::shutdown::register_exit_hook();
        with(|m| {
            m.seq += 1;
            let e = Entry {
                kind,
                origin,
                seq: m.seq,
            };
            let addr = obj.as_raw() as usize;
            m.freed.remove(&addr);
            m.live.insert(addr, e);
        });
    }

    /// Called only while tracking (see `destroyed`).
    #[cold]
    #[inline(never)]
    pub(crate) fn forget(obj: ObjPtr) {
        let quarantine = crate::checked::enabled();
        with(|m| {
            let addr = obj.as_raw() as usize;
            if let Some(e) = m.live.remove(&addr) {
                if quarantine {
                    m.freed.insert(addr, e);
                }
            }
        });
    }

    /// What the object at `addr` is (tracked objects only).
    pub(crate) fn lookup(addr: usize) -> Lookup {
        with(|m| {
            if let Some(e) = m.live.get(&addr) {
                Lookup::Live(*e)
            } else if let Some(e) = m.freed.get(&addr) {
                Lookup::Freed(*e)
            } else {
                Lookup::Unknown
            }
        })
    }

    /// Every live tracked object, in creation order.
    pub(crate) fn live() -> Vec<Entry> {
        let mut v: Vec<Entry> = with(|m| m.live.values().copied().collect());
        v.sort_by_key(|e| e.seq);
        v
    }
}

#[cfg(loom)]
pub(crate) mod registry {
    use super::{Entry, Lookup, Origin};
    use crate::object::{Kind, ObjPtr};

    pub(crate) fn remember(_: ObjPtr, _: Kind, _: Origin) {}
    pub(crate) fn forget(_: ObjPtr) {}
    #[allow(dead_code)]
    pub(crate) fn lookup(_: usize) -> Lookup {
        Lookup::Unknown
    }
    pub(crate) fn live() -> Vec<Entry> {
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
    // Grouped by kind and creator, most frequent first, with the first few
    // creation numbers of each group.
    const SHOWN: usize = 8;
    let mut sites: Vec<((Kind, String), Vec<u64>)> = Vec::new();
    for e in registry::live() {
        let key = (e.kind, e.origin.to_string());
        match sites.iter_mut().find(|(k, _)| *k == key) {
            Some((_, seqs)) => seqs.push(e.seq),
            None => sites.push((key, vec![e.seq])),
        }
    }
    sites.sort_by_key(|s| std::cmp::Reverse(s.1.len()));
    for ((kind, site), seqs) in sites {
        let mut nums: Vec<String> = seqs.iter().take(SHOWN).map(|n| format!("#{n}")).collect();
        if seqs.len() > SHOWN {
            nums.push("...".into());
        }
        let _ = writeln!(
            out,
            "  {} {}(s) created at {site}: {}",
            seqs.len(),
            kind.name(),
            nums.join(", ")
        );
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
