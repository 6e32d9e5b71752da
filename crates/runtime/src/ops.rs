//! The runtime operations shared by the C ABI and the Rust API.
//!
//! Functions here take raw [`ObjPtr`]s and trust the caller to hold a
//! reference; the two front ends add the checking (debug-build validation
//! for the C ABI, ownership types for Rust).

use crate::leak::{registry, Origin};
use crate::object::{self, Awaiter, Awaiters, Kind, ObjPtr, State, Task, AVAILABLE, ERROR};
use crate::scheduler;
use std::cell::Cell;
use std::sync::atomic::Ordering;

/// What went wrong when a caller broke the runtime's contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Misuse {
    RefCountUnderflow,
    AlreadyReady,
    TooManyTokensInGroup,
}

impl Misuse {
    pub(crate) fn message(self) -> &'static str {
        match self {
            Misuse::RefCountUnderflow => {
                "reference count underflow (dropping more references than held)"
            }
            Misuse::AlreadyReady => {
                "object is already available or in error state (emplaced twice?)"
            }
            Misuse::TooManyTokensInGroup => "more tokens added to the group than its declared size",
        }
    }
}

#[inline]
pub(crate) fn create_token(origin: Origin) -> ObjPtr {
    let t = object::alloc_token();
    registry::remember(t, Kind::Token, origin);
    t
}

#[inline]
pub(crate) fn create_value(size: usize, align: usize, origin: Origin) -> ObjPtr {
    let v = object::alloc_value(size, align);
    registry::remember(v, Kind::Value, origin);
    v
}

#[inline]
pub(crate) fn create_group(size: i64, origin: Origin) -> ObjPtr {
    let g = object::alloc_group(size);
    registry::remember(g, Kind::Group, origin);
    g
}

/// # Safety
/// `obj` is alive and the caller owns at least one reference.
pub(crate) unsafe fn add_ref(obj: ObjPtr, n: i64) {
    // SAFETY: caller's contract.
    unsafe { obj.header() }.add_ref(n);
}

/// # Safety
/// `obj` is alive and the caller owns the `n` references it drops.
pub(crate) unsafe fn drop_ref(obj: ObjPtr, n: i64) -> Result<(), Misuse> {
    // SAFETY: caller's contract.
    match unsafe { obj.header() }.release(n) {
        // SAFETY: we dropped the last reference.
        Ok(true) => unsafe { object::free(obj) },
        Ok(false) => {}
        Err(_) => return Err(Misuse::RefCountUnderflow),
    }
    Ok(())
}

/// Where in the producing task a completion happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum At {
    /// At the task's tail: the task returns right after (lowered
    /// `async.yield`, the end of `execute`'s closure). A coroutine resumed
    /// by it may wait in the worker's `next` slot for the task to return.
    Tail,
    /// Anywhere: resumptions go to the stealable queue at once.
    Anywhere,
}

/// Emplaces (`state == AVAILABLE`) or errors (`ERROR`) a token or value,
/// queues its awaiters, and drops the reference that kept it alive until it
/// was produced.
///
/// # Safety
/// `obj` is a live token or value that has not been produced yet.
pub(crate) unsafe fn set_state(obj: ObjPtr, state: u8, at: At) -> Result<(), Misuse> {
    // SAFETY: caller's contract; the producer's reference keeps it alive.
    let list = unsafe { obj.header() }
        .set_ready(state)
        .map_err(|_| Misuse::AlreadyReady)?;
    dispatch(list, state, at);
    // SAFETY: the producer's reference is the one created with the object.
    let _ = unsafe { drop_ref(obj, 1) };
    Ok(())
}

/// Resumes awaiters: coroutines go to the scheduler (never run here, so the
/// completing thread never recurses into user code), group bookkeeping is
/// done in place, blocked threads are unparked.
fn dispatch(list: Awaiters, state: u8, at: At) {
    if list.is_empty() {
        return;
    }
    for a in list {
        match a {
            Awaiter::Resume(task) => scheduler::get().resume(task, at == At::Tail),
            // SAFETY: the awaiter owns a reference to the group.
            Awaiter::GroupMember(g) => unsafe { group_member_ready(g, state == ERROR) },
            Awaiter::Unpark(t) => t.unpark(),
            Awaiter::UnparkWorker(i) => scheduler::get().wake_worker(i),
            #[cfg(loom)]
            Awaiter::Mark(_) => {}
        }
    }
}

/// # Safety
/// The caller transfers one reference to `group` to this call.
unsafe fn group_member_ready(group: ObjPtr, error: bool) {
    // SAFETY: alive thanks to the transferred reference.
    let g = unsafe { group.group() };
    if error {
        g.errors.fetch_add(1, Ordering::Relaxed);
    }
    let prev = g.pending.fetch_sub(1, Ordering::AcqRel);
    if prev == 1 {
        if let Ok(list) = g.header.set_ready(AVAILABLE) {
            // Not `at`: the group's awaiters are not the completing task's
            // own continuation and must not run nested on it (see
            // `Scheduler::resume`).
            dispatch(list, AVAILABLE, At::Anywhere);
        }
        // SAFETY: the transferred reference.
        let _ = unsafe { drop_ref(group, 1) };
        return;
    } else if prev <= 0 {
        misuse_at(
            "mlirAsyncRuntimeAddTokenToGroup",
            Misuse::TooManyTokensInGroup,
        );
    }
    // SAFETY: the transferred reference.
    let _ = unsafe { drop_ref(group, 1) };
}

/// Reports a contract violation detected after the fact (no C entry point
/// to blame directly): aborts in debug builds and the checked mode, ignored
/// otherwise.
pub(crate) fn misuse_at(func: &str, m: Misuse) {
    if crate::leak::tracking() {
        crate::capi::abort_misuse(func, m.message());
    }
}

/// Adds `token` to `group` and returns its rank in the group.
///
/// # Safety
/// Both are alive (caller holds references) and of the right kinds.
pub(crate) unsafe fn add_token_to_group(token: ObjPtr, group: ObjPtr) -> i64 {
    // SAFETY: caller's contract.
    let g = unsafe { group.group() };
    let rank = g.rank.fetch_add(1, Ordering::Relaxed);
    if rank >= g.size {
        misuse_at(
            "mlirAsyncRuntimeAddTokenToGroup",
            Misuse::TooManyTokensInGroup,
        );
        return rank;
    }
    // The awaiter (or the immediate completion) owns one group reference.
    g.header.add_ref(1);
    // SAFETY: caller's contract.
    let th = unsafe { token.header() };
    if let Err(Awaiter::GroupMember(gp)) = th.add_awaiter(Awaiter::GroupMember(group)) {
        // SAFETY: the reference added above is transferred.
        unsafe { group_member_ready(gp, th.state() == State::Error) };
    }
    rank
}

thread_local! {
    static INLINE_DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// How many ready awaits may resume inline, one inside the other, on one
/// thread before further resumptions go through the queue. Inline resumption
/// skips a queue round trip for an already-available operand (what upstream
/// always does); the bound keeps a coroutine awaiting many ready objects in a
/// loop from growing the stack without limit.
const MAX_INLINE_DEPTH: u32 = 16;

/// Resumes `task` once `obj` is ready: inline if it already is (bounded),
/// otherwise from a worker when the object completes.
///
/// # Safety
/// `obj` is alive; `task` may be run once.
pub(crate) unsafe fn await_and_execute(obj: ObjPtr, task: Task) {
    // SAFETY: caller's contract.
    let h = unsafe { obj.header() };
    if let Err(Awaiter::Resume(task)) = h.add_awaiter(Awaiter::Resume(task)) {
        let depth = INLINE_DEPTH.with(|d| d.get());
        if depth < MAX_INLINE_DEPTH {
            INLINE_DEPTH.with(|d| d.set(depth + 1));
            // SAFETY: caller's contract: the task may be run once.
            unsafe { task.run() };
            INLINE_DEPTH.with(|d| d.set(depth));
        } else {
            scheduler::get().spawn(task);
        }
    }
}

/// Blocks until `obj` is ready; on a worker, runs other tasks meanwhile.
/// On a thread outside the pool, also waits until the tasks that were
/// running when the object became ready have returned
/// ([`scheduler::Scheduler::wait_for_running_tasks`]: exit safety for JIT
/// code).
///
/// # Safety
/// `obj` is alive for the duration of the call.
pub(crate) unsafe fn await_blocking(obj: ObjPtr) {
    // SAFETY: caller's contract.
    let h = unsafe { obj.header() };
    if let Some(i) = scheduler::current_worker_index() {
        if !h.is_ready() && h.add_awaiter(Awaiter::UnparkWorker(i)).is_ok() {
            scheduler::block_on_worker(|| h.is_ready());
        }
        return;
    }
    if !h.is_ready()
        && h.add_awaiter(Awaiter::Unpark(std::thread::current()))
            .is_ok()
    {
        while !h.is_ready() {
            std::thread::park();
        }
    }
    if let Some(s) = scheduler::get_if_started() {
        s.wait_for_running_tasks();
    }
}

pub(crate) fn execute(task: Task) {
    scheduler::get().spawn(task);
}

/// # Safety
/// `group` is a live group.
pub(crate) unsafe fn group_errors(group: ObjPtr) -> i64 {
    // SAFETY: caller's contract.
    unsafe { group.group() }.errors.load(Ordering::Acquire)
}
