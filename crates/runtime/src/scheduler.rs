//! Work-stealing scheduler.
//!
//! One LIFO deque per worker (`crossbeam-deque`: the Chase-Lev deque used by
//! rayon and tokio's ancestors, well reviewed, lock-free on the owner's side)
//! plus a global injector for work submitted by non-worker threads (the
//! JIT's main thread). A worker that completes an object pushes the
//! resumptions onto its own deque, so a chain of dependent tasks stays on one
//! warm core while idle workers steal.
//!
//! Idle workers park. A thread that pushes work wakes one parked worker only
//! when the (SeqCst) sleeper count says there is one, so a busy pool pays one
//! fence and one load per push.
//!
//! Blocking awaits on a worker do not park the worker while work is queued:
//! [`block_until`] runs other tasks in the meantime ("help while waiting"),
//! so a tree of tasks that block on their children completes with a single
//! worker.

use crate::object::{ObjPtr, Task};
use crossbeam_deque::{Injector, Steal, Stealer, Worker};
use crossbeam_utils::Backoff;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{fence, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::thread::Thread;

/// Environment variable that sets the number of worker threads.
pub const NUM_THREADS_ENV: &str = "MLIR_ASYNC_RUNTIME_NUM_THREADS";

/// Worker threads run JIT-compiled coroutines and, while helping, nested
/// tasks on top of a blocked one: give them room (only touched pages are
/// committed).
const WORKER_STACK_SIZE: usize = 64 << 20;

pub(crate) struct Scheduler {
    injector: Injector<Task>,
    stealers: Vec<Stealer<Task>>,
    /// Parked threads (idle workers and workers blocked with nothing to do).
    sleepers: Mutex<Vec<Thread>>,
    num_sleepers: AtomicUsize,
    /// Tasks queued or running; shutdown waits for it to reach zero.
    pending: AtomicUsize,
    num_workers: usize,
}

struct WorkerCtx {
    index: usize,
    local: Worker<Task>,
    sched: &'static Scheduler,
}

thread_local! {
    static CURRENT: Cell<*const WorkerCtx> = const { Cell::new(std::ptr::null()) };
    static DEFERRED_WAKES: RefCell<Vec<Thread>> = const { RefCell::new(Vec::new()) };
    static DEFERRED_SETTLES: RefCell<Vec<ObjPtr>> = const { RefCell::new(Vec::new()) };
}

/// On a worker, queues `obj` to be settled (and one reference dropped) when
/// the running task returns, and returns true; false elsewhere.
pub(crate) fn settle_later(obj: ObjPtr) -> bool {
    if current_worker().is_none() {
        return false;
    }
    DEFERRED_SETTLES.with(|d| d.borrow_mut().push(obj));
    true
}

/// Wakes a thread blocked in an await. On a worker the wake-up is deferred
/// until the running task has returned: a coroutine that emplaces the token
/// `main` waits for still executes JIT-compiled code (its cleanup) after the
/// emplace, and if `main` woke at once it could return and let the runner
/// free that code under the worker's feet (a crash at exit we measured).
pub(crate) fn wake(t: Thread) {
    if current_worker().is_some() {
        DEFERRED_WAKES.with(|d| d.borrow_mut().push(t));
    } else {
        t.unpark();
    }
}

fn flush_deferred_wakes() {
    loop {
        let next = DEFERRED_SETTLES.with(|d| d.borrow_mut().pop());
        match next {
            // SAFETY: `settle_later` was handed one reference with `obj`.
            Some(obj) => unsafe { crate::ops::settle_now(obj) },
            None => break,
        }
    }
    loop {
        let next = DEFERRED_WAKES.with(|d| d.borrow_mut().pop());
        match next {
            Some(t) => t.unpark(),
            None => break,
        }
    }
}

fn current_worker() -> Option<&'static WorkerCtx> {
    let p = CURRENT.with(|c| c.get());
    // SAFETY: the pointer is set by `worker_main` to a context that lives on
    // that worker thread's stack for as long as the thread runs, and is only
    // read from that same thread.
    unsafe { p.as_ref() }
}

/// Is the calling thread one of the runtime's workers?
pub(crate) fn on_worker_thread() -> bool {
    current_worker().is_some()
}

static SCHEDULER: OnceLock<&'static Scheduler> = OnceLock::new();

fn configured_workers() -> usize {
    std::env::var(NUM_THREADS_ENV)
        .ok()
        .and_then(|s| s.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The process-wide scheduler, started on first use. It is never torn down:
/// a late resumption (e.g. from an exit handler) must still find it, which is
/// exactly where upstream dereferences a null runtime.
pub(crate) fn get() -> &'static Scheduler {
    SCHEDULER.get_or_init(|| {
        let n = configured_workers();
        let locals: Vec<Worker<Task>> = (0..n).map(|_| Worker::new_lifo()).collect();
        let sched: &'static Scheduler = Box::leak(Box::new(Scheduler {
            injector: Injector::new(),
            stealers: locals.iter().map(|w| w.stealer()).collect(),
            sleepers: Mutex::new(Vec::with_capacity(n)),
            num_sleepers: AtomicUsize::new(0),
            pending: AtomicUsize::new(0),
            num_workers: n,
        }));
        for (index, local) in locals.into_iter().enumerate() {
            std::thread::Builder::new()
                .name(format!("mlir-async-worker-{index}"))
                .stack_size(WORKER_STACK_SIZE)
                .spawn(move || {
                    worker_main(WorkerCtx {
                        index,
                        local,
                        sched,
                    })
                })
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
    CURRENT.with(|c| c.set(&ctx as *const WorkerCtx));
    let backoff = Backoff::new();
    loop {
        if let Some(task) = ctx.find_task() {
            ctx.sched.run(task);
            backoff.reset();
            continue;
        }
        if !backoff.is_completed() {
            backoff.snooze();
            continue;
        }
        ctx.sched.sleep(|| ctx.sched.has_work());
        backoff.reset();
    }
}

impl WorkerCtx {
    fn find_task(&self) -> Option<Task> {
        if let Some(t) = self.local.pop() {
            return Some(t);
        }
        loop {
            let mut retry = false;
            match self.sched.injector.steal_batch_and_pop(&self.local) {
                Steal::Success(t) => return Some(t),
                Steal::Retry => retry = true,
                Steal::Empty => {}
            }
            let n = self.sched.stealers.len();
            for k in 1..n {
                let victim = &self.sched.stealers[(self.index + k) % n];
                match victim.steal_batch_and_pop(&self.local) {
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
}

impl Scheduler {
    pub(crate) fn num_workers(&self) -> usize {
        self.num_workers
    }

    /// Queues a task: onto the caller's own deque on a worker, else onto the
    /// injector.
    pub(crate) fn spawn(&self, task: Task) {
        self.pending.fetch_add(1, Ordering::Relaxed);
        match current_worker() {
            Some(w) if std::ptr::eq(w.sched, self) => w.local.push(task),
            _ => {
                self.injector.push(task);
                self.wake_one();
                self.throttle_producer();
                return;
            }
        }
        self.wake_one();
    }

    /// Keeps a thread outside the pool that spawns tasks faster than the
    /// workers run them (the JIT's `main` building a chain) from queueing
    /// them all at once: each queued coroutine frame is memory. Briefly yields
    /// while the injector holds more than `MAX_BACKLOG` tasks, never for long
    /// and never when the pool is stuck, so it cannot deadlock a program whose
    /// tasks wait for the producer.
    fn throttle_producer(&self) {
        const MAX_BACKLOG: usize = 1 << 15;
        if self.injector.len() <= MAX_BACKLOG {
            return;
        }
        let start = std::time::Instant::now();
        while self.injector.len() > MAX_BACKLOG / 2
            && !self.is_quiescent()
            && start.elapsed() < std::time::Duration::from_millis(20)
        {
            std::thread::yield_now();
        }
    }

    fn run(&self, task: Task) {
        // SAFETY: every queued task was handed to the runtime to be run
        // exactly once (`mlirAsyncRuntimeExecute` and friends), and it is
        // popped from the queue by exactly one thread.
        unsafe { task.run() };
        flush_deferred_wakes();
        self.pending.fetch_sub(1, Ordering::Release);
    }

    fn has_work(&self) -> bool {
        !self.injector.is_empty() || self.stealers.iter().any(|s| !s.is_empty())
    }

    pub(crate) fn pending(&self) -> usize {
        self.pending.load(Ordering::Acquire)
    }

    /// All workers parked and no queued work: nothing can make progress
    /// without an outside event.
    pub(crate) fn is_quiescent(&self) -> bool {
        self.num_sleepers.load(Ordering::SeqCst) >= self.num_workers && !self.has_work()
    }

    fn wake_one(&self) {
        // Pairs with the fence in `sleep`: either the sleeper sees our task,
        // or we see the sleeper.
        fence(Ordering::SeqCst);
        if self.num_sleepers.load(Ordering::Relaxed) == 0 {
            return;
        }
        let t = {
            let mut s = self.sleepers.lock().unwrap_or_else(|p| p.into_inner());
            let t = s.pop();
            if t.is_some() {
                self.num_sleepers.fetch_sub(1, Ordering::SeqCst);
            }
            t
        };
        if let Some(t) = t {
            t.unpark();
        }
    }

    /// Parks the calling thread unless `ready()` holds after it announced
    /// itself as a sleeper. Woken by new work or by an object it awaits.
    fn sleep(&self, ready: impl Fn() -> bool) {
        let me = std::thread::current();
        {
            let mut s = self.sleepers.lock().unwrap_or_else(|p| p.into_inner());
            s.push(me.clone());
            self.num_sleepers.fetch_add(1, Ordering::SeqCst);
        }
        fence(Ordering::SeqCst);
        if !ready() {
            std::thread::park();
        }
        // Deregister if nobody popped us (woken by an object, spuriously, or
        // never parked).
        let mut s = self.sleepers.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(pos) = s.iter().position(|t| t.id() == me.id()) {
            s.swap_remove(pos);
            self.num_sleepers.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Blocks the calling thread until `done()` holds. The object being awaited
/// must unpark this thread when it becomes ready (the caller registers an
/// `Awaiter::Unpark` for it). On a worker thread, runs queued tasks while
/// waiting instead of parking, so blocked workers never starve the pool.
pub(crate) fn block_until(done: impl Fn() -> bool) {
    if done() {
        return;
    }
    match current_worker() {
        Some(w) => {
            let backoff = Backoff::new();
            while !done() {
                if let Some(task) = w.find_task() {
                    w.sched.run(task);
                    backoff.reset();
                } else if !backoff.is_completed() {
                    backoff.snooze();
                } else {
                    w.sched.sleep(|| done() || w.sched.has_work());
                    backoff.reset();
                }
            }
        }
        None => {
            while !done() {
                std::thread::park();
            }
        }
    }
}
