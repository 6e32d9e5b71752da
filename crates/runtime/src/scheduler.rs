//! Work-stealing scheduler.
//!
//! One LIFO deque per worker (`crossbeam-deque`: the Chase-Lev deque used by
//! rayon and tokio's ancestors, well reviewed, lock-free on the owner's side)
//! plus a global injector for work submitted by non-worker threads (the
//! JIT's main thread).
//!
//! * **Resumption slot**: a coroutine resumed because the running task
//!   completed the object it waits for *at its tail* (lowered code emplaces
//!   in `async.yield`, right before the coroutine's cleanup; the Rust API's
//!   `execute` when its closure has returned) goes into the worker's
//!   one-task `next` slot (not stealable, no wake-up of another worker): the
//!   completing task is about to return, and the continuation then runs on
//!   the same warm core. A second resumption pushes the first to the deque,
//!   where idle workers can steal it. Completions elsewhere (a Rust
//!   producer emplacing in the middle of a task) push to the deque.
//! * **Wake-ups**: a pusher wakes a parked worker only when no worker is
//!   *searching* (spinning for work: it will find the task) and some worker
//!   is parked; the last searcher that finds work passes the baton on if
//!   more is queued. A busy pool therefore pays one fence and two loads per
//!   push, and a producer outrunning the pool does not pay a futex wake per
//!   task.
//! * **Blocking awaits on a worker** ([`block_on_worker`]) first run the
//!   blocked task's own queued descendants on top of it, then **hand the
//!   worker's place to a stand-in**: the blocked thread parks and a spare
//!   thread (or a new one) takes over as a worker, so `active` threads
//!   (neither blocked nor retired) stay at the configured count; a thread
//!   whose await completes finishes its task and then retires to the spares
//!   if there are more active threads than that. Why not run any queued task
//!   on top of the blocked one ("help while waiting", the previous design)?
//!   A task picked up that way can block on something only the task
//!   *beneath* it will produce — A blocks on S, B blocks on A, B runs on A's
//!   stack: A can never resume, however many workers there are. A stand-in
//!   has its own stack, so every blocked task resumes as soon as its object
//!   is ready. Helping with any task remains only as the fallback once
//!   `MAX_STAND_INS` extra threads exist.
//! * **Exit safety**: every worker publishes a sequence number that is odd
//!   while it runs a task (see [`Scheduler::wait_for_running_tasks`]), and
//!   the registry of parked threads is exact (changed only under its lock,
//!   with wakers removing the thread they wake, or counting it active again,
//!   before the unpark), so "every active thread is parked and nothing is
//!   queued" ([`Scheduler::is_stuck`]) is a sound statement, not a
//!   heuristic.

use crate::handoff::{Registry, StandIn, Woken};
use crate::object::Task;
use crossbeam_deque::{Steal, Stealer, Worker};
use crossbeam_utils::{Backoff, CachePadded};
use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::{fence, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::thread::Thread;

/// Environment variable that sets the number of worker threads.
pub const NUM_THREADS_ENV: &str = "MLIR_ASYNC_RUNTIME_NUM_THREADS";

/// Worker threads run JIT-compiled coroutines and, in the fallback of
/// helping while waiting, nested tasks on top of a blocked one: give them
/// room (only touched pages are committed).
const WORKER_STACK_SIZE: usize = 64 << 20;

/// Threads that may exist beyond the configured worker count, as stand-ins
/// for workers blocked in an await. A blocking tree of tasks needs about one
/// per level of blocked tasks per worker; a program that blocks more tasks
/// at once than this falls back to helping while waiting (see the module
/// docs), bounding threads and address space (64 MiB of stack reserved each).
pub const MAX_STAND_INS: usize = 512;

/// A worker slot: one per thread ever started (workers and stand-ins).
struct Slot {
    stealer: Stealer<Task>,
    shared: CachePadded<WorkerShared>,
}

/// What other threads may look at of a worker.
struct WorkerShared {
    /// Odd while the worker runs a task (its outermost one; tasks run while
    /// helping in a blocking await are nested inside it), even otherwise.
    /// Only the worker writes it.
    seq: AtomicU64,
    /// The worker's thread, for unparking (set before it first parks).
    thread: OnceLock<Thread>,
}

/// The queue for tasks submitted from outside the pool: a mutex-protected
/// ring buffer with its length mirrored in an atomic, so that empty checks
/// take no lock. Cheaper than `crossbeam_deque::Injector` for our pattern
/// (one thread outside the pool pushing millions of tasks): that one
/// allocates and zeroes a 1.5 KiB block every 63 pushes, and such large
/// allocations make glibc consolidate its fast bins, which the objects freed
/// by the workers keep refilling. The buffer here is reused.
struct Injector {
    queue: Mutex<VecDeque<Task>>,
    len: AtomicUsize,
}

impl Injector {
    fn new() -> Injector {
        Injector {
            queue: Mutex::new(VecDeque::new()),
            len: AtomicUsize::new(0),
        }
    }

    fn push(&self, task: Task) {
        let mut q = lock(&self.queue);
        q.push_back(task);
        self.len.store(q.len(), Ordering::Relaxed);
    }

    fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves about half of the queue (at most `MAX_BATCH`) into `dest` and
    /// returns one more task to run now.
    fn steal_batch_and_pop(&self, dest: &Worker<Task>) -> Option<Task> {
        const MAX_BATCH: usize = 32;
        if self.is_empty() {
            return None;
        }
        let mut q = lock(&self.queue);
        let first = q.pop_front()?;
        let n = (q.len() / 2).min(MAX_BATCH);
        for t in q.drain(..n) {
            dest.push(t);
        }
        self.len.store(q.len(), Ordering::Relaxed);
        Some(first)
    }
}

pub(crate) struct Scheduler {
    injector: Injector,
    /// `MAX_THREADS` slots, filled as threads start.
    slots: Box<[OnceLock<Slot>]>,
    /// Slots filled so far (a prefix, up to slots still being filled).
    num_slots: AtomicUsize,
    registry: Mutex<Registry>,
    /// `registry.sleepers.len()`, readable without the lock.
    num_sleepers: CachePadded<AtomicUsize>,
    /// `registry.active`, readable without the lock.
    num_active: CachePadded<AtomicUsize>,
    /// Workers spinning in search of work (they will find a new task).
    num_searching: CachePadded<AtomicUsize>,
    /// The configured worker count: how many threads are kept active.
    num_workers: usize,
    /// `num_workers + MAX_STAND_INS`.
    max_threads: usize,
}

struct WorkerCtx {
    index: usize,
    local: Worker<Task>,
    /// The next task to run, ahead of the deque (see the module docs).
    next: Cell<Option<Task>>,
    /// Length of `local` when the innermost running task started: entries
    /// above it were queued by that task or its descendants (see
    /// [`block_on_worker`]).
    mark: Cell<usize>,
    /// This worker's part of its slot (looked up once: touched per task).
    shared: &'static WorkerShared,
    sched: &'static Scheduler,
}

thread_local! {
    static CURRENT: Cell<*const WorkerCtx> = const { Cell::new(std::ptr::null()) };
}

fn current_worker() -> Option<&'static WorkerCtx> {
    let p = CURRENT.with(|c| c.get());
    // SAFETY: the pointer is set by `worker_main` to a context that lives on
    // that worker thread's stack for as long as the thread runs (worker
    // threads never return), and is only read from that same thread.
    unsafe { p.as_ref() }
}

/// Is the calling thread one of the runtime's workers?
pub(crate) fn on_worker_thread() -> bool {
    current_worker().is_some()
}

/// The calling worker's index, if it is a worker.
pub(crate) fn current_worker_index() -> Option<usize> {
    current_worker().map(|w| w.index)
}

static SCHEDULER: OnceLock<&'static Scheduler> = OnceLock::new();

/// Upper bound on `MLIR_ASYNC_RUNTIME_NUM_THREADS`: every worker is a thread
/// with a 64 MiB stack reservation, and 100000 of them exhausted the address
/// space (the pool never finished starting). 256 is far above any core count
/// this runtime serves well.
pub const MAX_NUM_THREADS: usize = 256;

/// The worker count for `MLIR_ASYNC_RUNTIME_NUM_THREADS=raw` (`None`: unset)
/// and, for a value that is not a count in `1..=MAX_NUM_THREADS`, the
/// warning to print: a typo must not silently run with another count.
pub(crate) fn parse_num_threads(raw: Option<&str>, default: usize) -> (usize, Option<String>) {
    let Some(raw) = raw else {
        return (default, None);
    };
    match raw.trim().parse::<u64>() {
        Ok(n) if n > MAX_NUM_THREADS as u64 => (
            MAX_NUM_THREADS,
            Some(format!(
                "{NUM_THREADS_ENV}={raw:?} is more than the maximum of {MAX_NUM_THREADS} threads; using {MAX_NUM_THREADS}"
            )),
        ),
        Ok(n) if n > 0 => (n as usize, None),
        _ => (
            default,
            Some(format!(
                "{NUM_THREADS_ENV}={raw:?} is not a positive number of threads; using {default}"
            )),
        ),
    }
}

fn configured_workers() -> usize {
    let default = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_NUM_THREADS);
    let raw = std::env::var_os(NUM_THREADS_ENV).map(|v| v.to_string_lossy().into_owned());
    let (n, warning) = parse_num_threads(raw.as_deref(), default);
    if let Some(w) = warning {
        eprintln!("mlir-async-runtime: warning: {w}");
    }
    n
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The process-wide scheduler, started on first use. It is never torn down:
/// a late resumption (e.g. from an exit handler) must still find it, which is
/// exactly where upstream dereferences a null runtime.
pub(crate) fn get() -> &'static Scheduler {
    if let Some(s) = SCHEDULER.get() {
        return s;
    }
    start()
}

#[cold]
fn start() -> &'static Scheduler {
    SCHEDULER.get_or_init(|| {
        let n = configured_workers();
        let max_threads = n + MAX_STAND_INS;
        let sched: &'static Scheduler = Box::leak(Box::new(Scheduler {
            injector: Injector::new(),
            slots: (0..max_threads).map(|_| OnceLock::new()).collect(),
            num_slots: AtomicUsize::new(0),
            registry: Mutex::new(Registry::new(n, max_threads)),
            num_sleepers: CachePadded::new(AtomicUsize::new(0)),
            num_active: CachePadded::new(AtomicUsize::new(n)),
            num_searching: CachePadded::new(AtomicUsize::new(0)),
            num_workers: n,
            max_threads,
        }));
        for index in 0..n {
            sched
                .start_thread(index)
                .expect("mlir-async-runtime: cannot spawn worker thread");
        }
        crate::shutdown::register_exit_hook();
        sched
    })
}

/// The scheduler if it was started.
pub(crate) fn get_if_started() -> Option<&'static Scheduler> {
    SCHEDULER.get().copied()
}

fn worker_main(ctx: WorkerCtx) {
    let _ = ctx.shared().thread.set(std::thread::current());
    CURRENT.with(|c| c.set(&ctx as *const WorkerCtx));
    let sched = ctx.sched;
    loop {
        // A thread whose blocking await completed made one thread too many
        // active: whoever runs out of own work first retires.
        if sched.num_active.load(Ordering::Relaxed) > sched.num_workers
            && ctx.next.get().is_none()
            && ctx.local.is_empty()
        {
            sched.retire(ctx.index);
            continue;
        }
        let task = match ctx.pop_own() {
            Some(t) => t,
            None => match ctx.search(|| false) {
                Some(t) => t,
                None => continue,
            },
        };
        ctx.run_outermost(task);
    }
}

impl WorkerCtx {
    fn shared(&self) -> &WorkerShared {
        self.shared
    }

    /// A task from the `next` slot or the own deque.
    fn pop_own(&self) -> Option<Task> {
        self.next.take().or_else(|| self.local.pop())
    }

    /// Runs a task at the bottom of the worker's stack, with `seq` odd for
    /// its duration.
    fn run_outermost(&self, task: Task) {
        let seq = &self.shared().seq;
        let s = seq.load(Ordering::Relaxed);
        // Relaxed suffices: anything the task publishes (an emplace, a queue
        // push) is a Release that comes after this store in program order,
        // so whoever acquires it also sees the odd value.
        seq.store(s + 1, Ordering::Relaxed);
        self.mark.set(self.local.len());
        // SAFETY: every queued task was handed to the runtime to be run
        // exactly once (`mlirAsyncRuntimeExecute` and friends), and it is
        // taken from a queue (or the slot) by exactly one thread.
        unsafe { task.run() };
        // Release: a thread that sees the even value also sees every effect
        // of the task, and knows this worker left the task's code.
        seq.store(s + 2, Ordering::Release);
    }

    /// Takes a task from the injector or another worker.
    fn steal(&self) -> Option<Task> {
        loop {
            let mut retry = false;
            if let Some(t) = self.sched.injector.steal_batch_and_pop(&self.local) {
                return Some(t);
            }
            let n = self.sched.num_slots.load(Ordering::Acquire);
            for k in 1..n {
                let Some(victim) = self.sched.slots[(self.index + k) % n].get() else {
                    continue;
                };
                match victim.stealer.steal_batch_and_pop(&self.local) {
                    Steal::Success(t) => return Some(t),
                    Steal::Retry => retry = true,
                    Steal::Empty => {}
                }
            }
            if !retry {
                return None;
            }
        }
    }

    /// Looks for work elsewhere, spinning briefly and then parking. Returns
    /// a task, or `None` once `done()` holds or after a park (the caller
    /// re-checks its own queues and conditions).
    fn search(&self, done: impl Fn() -> bool) -> Option<Task> {
        let s = self.sched;
        s.num_searching.fetch_add(1, Ordering::SeqCst);
        let backoff = Backoff::new();
        loop {
            if let Some(t) = self.steal() {
                s.stop_searching();
                return Some(t);
            }
            if done() {
                s.stop_searching();
                return None;
            }
            if !backoff.is_completed() {
                backoff.snooze();
                continue;
            }
            s.stop_searching();
            s.sleep(self.index, || done() || s.has_work());
            return None;
        }
    }
}

impl Scheduler {
    pub(crate) fn num_workers(&self) -> usize {
        self.num_workers
    }

    fn shared(&self, i: usize) -> Option<&WorkerShared> {
        self.slots[i].get().map(|s| &*s.shared)
    }

    /// Fills slot `index` (handed out under the registry lock) and starts
    /// its thread.
    fn start_thread(&'static self, index: usize) -> std::io::Result<()> {
        let local = Worker::new_lifo();
        let slot = self.slots[index].get_or_init(|| Slot {
            stealer: local.stealer(),
            shared: CachePadded::new(WorkerShared {
                seq: AtomicU64::new(0),
                thread: OnceLock::new(),
            }),
        });
        self.num_slots.fetch_max(index + 1, Ordering::AcqRel);
        std::thread::Builder::new()
            .name(format!("mlir-async-worker-{index}"))
            .stack_size(WORKER_STACK_SIZE)
            .spawn(move || {
                worker_main(WorkerCtx {
                    index,
                    local,
                    next: Cell::new(None),
                    mark: Cell::new(0),
                    shared: &slot.shared,
                    sched: self,
                })
            })
            .map(|_| ())
    }

    /// Mirrors `r.active` (after a hand-off transition) for lock-free
    /// readers.
    fn sync_active(&self, r: &Registry) {
        self.num_active.store(r.active, Ordering::Relaxed);
    }

    /// Thread `i` (with nothing of its own left to run) leaves the active
    /// set if it is still one too many, and parks until a blocking await
    /// needs it as a stand-in.
    fn retire(&self, i: usize) {
        let mut r = lock(&self.registry);
        if !r.retire(i, self.num_workers) {
            return;
        }
        self.sync_active(&r);
        drop(r);
        loop {
            std::thread::park();
            if !lock(&self.registry).is_spare(i) {
                return;
            }
        }
    }

    /// Queues a new task (`mlirAsyncRuntimeExecute`): onto the caller's own
    /// deque on a worker, else onto the injector.
    pub(crate) fn spawn(&'static self, task: Task) {
        match current_worker() {
            Some(w) if std::ptr::eq(w.sched, self) => {
                w.local.push(task);
                self.notify();
            }
            _ => {
                self.injector.push(task);
                self.notify();
                self.throttle_producer();
            }
        }
    }

    /// Queues the resumption of a coroutine whose awaited object the caller
    /// just completed: into the worker's `next` slot when the completing
    /// task is about to return (`tail`; see the module docs), else onto the
    /// injector. Not onto the own deque: entries there count as the running
    /// task's descendants, which a blocked task may run on top of itself
    /// ([`block_on_worker`]), and a coroutine resumed in the middle of a
    /// task (or by a group) may be waiting for that very task.
    pub(crate) fn resume(&'static self, task: Task, tail: bool) {
        match current_worker() {
            Some(w) if std::ptr::eq(w.sched, self) && !tail => {
                self.injector.push(task);
                self.notify();
            }
            Some(w) if std::ptr::eq(w.sched, self) => {
                if let Some(prev) = w.next.replace(Some(task)) {
                    w.local.push(prev);
                    self.notify();
                }
            }
            _ => {
                self.injector.push(task);
                self.notify();
            }
        }
    }

    /// Keeps a thread outside the pool that spawns tasks faster than the
    /// workers complete them (the JIT's `main` building a 10^6-task chain)
    /// from running arbitrarily far ahead: every suspended coroutine frame
    /// and its token and value are memory. Every `CHECK_EVERY` spawns it
    /// looks at the number of live objects; above `MAX_LIVE` it yields until
    /// the workers have brought it down to half, as long as they make
    /// progress. When they make none for `STALL` (everything waits for an
    /// object not yet produced, e.g. the head of the chain is slow, or for
    /// this very thread), it gives up and skips the next `SKIP_AFTER_STALL`
    /// checks, so it can neither deadlock nor noticeably slow down a
    /// producer the pool cannot help, and still recovers from a stall that
    /// was only the workers being descheduled on a loaded machine.
    fn throttle_producer(&self) {
        const CHECK_EVERY: u32 = 256;
        const MAX_LIVE: i64 = 1 << 14;
        const STALL: std::time::Duration = std::time::Duration::from_millis(10);
        const SKIP_AFTER_STALL: u32 = 32;
        thread_local! {
            static SPAWNS: Cell<u32> = const { Cell::new(0) };
            static SKIP: Cell<u32> = const { Cell::new(0) };
        }
        let n = SPAWNS.with(|c| {
            let n = c.get().wrapping_add(1);
            c.set(n);
            n
        });
        if !n.is_multiple_of(CHECK_EVERY) {
            return;
        }
        let mut live = crate::leak::live_total();
        if live <= MAX_LIVE {
            SKIP.with(|c| c.set(0));
            return;
        }
        if SKIP.with(|c| {
            let k = c.get();
            c.set(k.saturating_sub(1));
            k > 0
        }) {
            return;
        }
        let mut best = live;
        let mut since = std::time::Instant::now();
        while live > MAX_LIVE / 2 {
            if self.num_sleepers.load(Ordering::Relaxed) >= self.num_active.load(Ordering::Relaxed)
            {
                // Nobody is running: nothing will bring the count down.
                return;
            }
            std::thread::yield_now();
            live = crate::leak::live_total();
            if live < best {
                best = live;
                since = std::time::Instant::now();
            } else if since.elapsed() > STALL {
                SKIP.with(|c| c.set(SKIP_AFTER_STALL));
                return;
            }
        }
    }

    fn has_work(&self) -> bool {
        !self.injector.is_empty()
            || self.slots[..self.num_slots.load(Ordering::Acquire)]
                .iter()
                .any(|s| s.get().is_some_and(|s| !s.stealer.is_empty()))
    }

    /// A worker stops searching; the last one to stop passes the baton on
    /// when work is still queued (a pusher may have skipped its wake-up
    /// because this worker was searching).
    fn stop_searching(&self) {
        let prev = self.num_searching.fetch_sub(1, Ordering::SeqCst);
        if prev == 1 {
            fence(Ordering::SeqCst);
            if self.has_work() {
                self.notify();
            }
        }
    }

    /// Called after queueing work: wakes a parked worker unless a searching
    /// one will pick the work up, or nobody is parked.
    fn notify(&self) {
        // Pairs with the fences in `search`/`stop_searching`/`sleep`: either
        // they see the queued task, or we see them searching or parked.
        fence(Ordering::SeqCst);
        if self.num_searching.load(Ordering::Relaxed) != 0
            || self.num_sleepers.load(Ordering::Relaxed) == 0
        {
            return;
        }
        let idx = {
            let mut r = lock(&self.registry);
            let idx = r.sleepers.pop();
            if idx.is_some() {
                self.num_sleepers.fetch_sub(1, Ordering::SeqCst);
            }
            idx
        };
        if let Some(i) = idx {
            self.unpark_worker(i);
        }
    }

    fn unpark_worker(&self, i: usize) {
        if let Some(t) = self.shared(i).and_then(|w| w.thread.get()) {
            t.unpark();
        }
    }

    /// Wakes thread `i`, blocked in an await of an object that the caller
    /// just completed. Counts it active again (when a stand-in took its
    /// place) or takes it out of the sleepers (when it was helping) first,
    /// so the registry never lists a thread that is about to run.
    pub(crate) fn wake_worker(&self, i: usize) {
        // Pairs with the fence in `sleep`: the object's state was stored
        // before this point, so either the sleeper's `ready()` check sees it
        // or we see the sleeper registered.
        fence(Ordering::SeqCst);
        {
            let mut r = lock(&self.registry);
            match r.wake(i) {
                Woken::Unblocked => self.sync_active(&r),
                Woken::Sleeper => {
                    self.num_sleepers.fetch_sub(1, Ordering::SeqCst);
                }
                Woken::Neither => {}
            }
        }
        self.unpark_worker(i);
    }

    /// Parks worker `index` unless `ready()` holds once it is registered as
    /// a sleeper. Returns when a waker took it out of the registry, or when
    /// `ready()` holds after a spurious wake-up.
    fn sleep(&self, index: usize, ready: impl Fn() -> bool) {
        {
            let mut r = lock(&self.registry);
            let s = &mut r.sleepers;
            s.push(index);
            self.num_sleepers.fetch_add(1, Ordering::SeqCst);
            fence(Ordering::SeqCst);
            if ready() {
                s.pop();
                self.num_sleepers.fetch_sub(1, Ordering::SeqCst);
                return;
            }
        }
        loop {
            std::thread::park();
            let mut r = lock(&self.registry);
            let s = &mut r.sleepers;
            match s.iter().position(|&k| k == index) {
                // Taken out by a waker.
                None => return,
                Some(pos) => {
                    if ready() {
                        s.swap_remove(pos);
                        self.num_sleepers.fetch_sub(1, Ordering::SeqCst);
                        return;
                    }
                    // Spurious wake-up: park again.
                }
            }
        }
    }

    /// Every active thread is parked for lack of work and nothing is
    /// queued (the other threads are retired, or blocked on objects not yet
    /// produced): no worker runs, or will run, any task until a thread
    /// outside the pool acts. This is both the "all done" and the "stuck
    /// waiting for objects nobody will produce" state.
    pub(crate) fn is_stuck(&self) -> bool {
        let r = lock(&self.registry);
        // With every active thread parked, only threads outside the pool
        // can push or complete objects; the registry lock orders us after
        // every registration and every wake-up.
        r.sleepers.len() == r.active && !self.has_work()
    }

    /// Returns once every task that was running on a worker when this was
    /// called has returned to the scheduler, or once the pool is stuck (the
    /// tasks still running are blocked for good, waiting on objects only
    /// this thread could produce).
    ///
    /// Non-worker threads call this before returning from a blocking await:
    /// the task that completed the awaited object — and every task whose
    /// effects that task observed — was either finished or running when the
    /// completion became visible, and a running one may still be executing
    /// its JIT-compiled tail (coroutine cleanup). Once the JIT's `main`
    /// returns, `mlir-cpu-runner` frees that code, so `main` must not get
    /// ahead of those tails. Ordering: the awaited state was acquired, and
    /// it was released after the producing worker stored its odd `seq`
    /// (transitively for every task it depended on), so the loads below see
    /// that odd value or a later one.
    pub(crate) fn wait_for_running_tasks(&self) {
        let mut busy: Vec<(usize, u64)> = Vec::new();
        let n = self.num_slots.load(Ordering::Acquire);
        for (i, w) in self.slots[..n].iter().enumerate() {
            let Some(w) = w.get() else { continue };
            let s = w.shared.seq.load(Ordering::Acquire);
            if s & 1 == 1 {
                busy.push((i, s));
            }
        }
        if busy.is_empty() {
            return;
        }
        let backoff = Backoff::new();
        loop {
            busy.retain(|&(i, s)| {
                self.shared(i)
                    .is_some_and(|w| w.seq.load(Ordering::Acquire) == s)
            });
            if busy.is_empty() {
                return;
            }
            if !backoff.is_completed() {
                backoff.snooze();
            } else {
                if self.is_stuck() {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_micros(50));
            }
        }
    }
}

/// Blocks the calling worker until `done()` holds. The object being awaited
/// must wake this worker ([`Scheduler::wake_worker`]) when it becomes ready.
///
/// Meanwhile it runs, on top of the blocked task, only tasks that the
/// blocked task queued itself (directly or through its descendants): the
/// entries of the own deque above `mark`. Those cannot wait for the blocked
/// task to finish: in the Async dialect a task's region only sees values
/// defined before it, so nothing it starts can hold its result (which is
/// what lets a tree of tasks blocking on their children run without
/// thread hand-offs). Stealers take the oldest entries first, so while the
/// deque is longer than `mark` its newest entry is one of those.
///
/// With nothing of its own left to run, the thread parks and, if the active
/// threads fall short of the worker count without it, a spare or new thread
/// stands in (see the module docs). At the thread limit (or if a thread
/// cannot be started) it helps while waiting instead.
pub(crate) fn block_on_worker(done: impl Fn() -> bool) {
    let w = current_worker().expect("called on a worker");
    let mark = w.mark.get();
    loop {
        if done() {
            return;
        }
        // The `next` slot holds the resumption of a descendant's awaiter:
        // ours too, and not stealable; queue it with the rest.
        if let Some(t) = w.next.take() {
            w.local.push(t);
        }
        if w.local.len() <= mark {
            break;
        }
        let Some(t) = w.local.pop() else { break };
        w.mark.set(w.local.len());
        // SAFETY: as in `run_outermost`; this task runs nested inside the
        // blocked one, which keeps the worker's `seq` odd.
        unsafe { t.run() };
        w.mark.set(mark);
    }
    // A short spin first: a child stolen by another worker often finishes
    // within microseconds, and a hand-off costs two futex round trips.
    let backoff = Backoff::new();
    while !backoff.is_completed() {
        if done() {
            return;
        }
        backoff.snooze();
    }
    park_blocked(w, done);
}

/// Parks the worker `w` until `done()`, with a stand-in taking its place
/// (see [`block_on_worker`]).
fn park_blocked(w: &WorkerCtx, done: impl Fn() -> bool) {
    let s = w.sched;
    let mut r = lock(&s.registry);
    loop {
        if done() {
            r.resume(w.index);
            s.sync_active(&r);
            return;
        }
        // Not (or no longer: a late wake-up from an object awaited earlier
        // counted us active again) registered as blocked.
        if !r.blocked[w.index] {
            let Some(stand_in) = r.block(w.index, s.num_workers, s.max_threads) else {
                drop(r);
                return help_until(w, done);
            };
            s.sync_active(&r);
            drop(r);
            match stand_in {
                StandIn::Start(k) => {
                    if s.start_thread(k).is_err() {
                        // Undo: the stand-in never ran; help instead.
                        let mut r = lock(&s.registry);
                        r.undo_block(w.index);
                        s.sync_active(&r);
                        drop(r);
                        return help_until(w, done);
                    }
                }
                StandIn::Spare(k) => s.unpark_worker(k),
                StandIn::NotNeeded => {}
            }
            // Tasks this one queued must not wait for it.
            if !w.local.is_empty() {
                s.notify();
            }
        } else {
            drop(r);
        }
        std::thread::park();
        r = lock(&s.registry);
    }
}

/// The fallback of [`block_on_worker`]: runs queued tasks on top of the
/// blocked one until `done()` holds (parking when there is nothing to run).
fn help_until(w: &WorkerCtx, done: impl Fn() -> bool) {
    while !done() {
        let task = match w.pop_own() {
            Some(t) => t,
            None => match w.search(&done) {
                Some(t) => t,
                None => continue,
            },
        };
        // SAFETY: as in `run_outermost`; this task runs nested inside the
        // blocked one, which keeps the worker's `seq` odd.
        unsafe { task.run() };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn num_threads_values() {
        assert_eq!(parse_num_threads(None, 3), (3, None));
        assert_eq!(parse_num_threads(Some("5"), 3), (5, None));
        assert_eq!(parse_num_threads(Some(" 7 "), 3), (7, None));
        assert_eq!(parse_num_threads(Some("256"), 3), (256, None));
        for bad in ["0", "-1", "abc", "", "2.5"] {
            let (n, w) = parse_num_threads(Some(bad), 3);
            assert_eq!(n, 3, "{bad:?}");
            let w = w.unwrap_or_else(|| panic!("no warning for {bad:?}"));
            assert!(w.contains(NUM_THREADS_ENV) && w.contains("using 3"), "{w}");
        }
        let (n, w) = parse_num_threads(Some("100000"), 3);
        assert_eq!(n, MAX_NUM_THREADS);
        assert!(w.unwrap().contains("maximum of 256"));
    }
}
