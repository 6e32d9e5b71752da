//! Safe Rust handles over the runtime objects, for the executor.
//!
//! Each handle owns one reference and gives it back on drop, so reference
//! counting cannot go wrong from safe code. Producing an object is a
//! separate, non-cloneable handle (`TokenProducer`, `ValueProducer`): it
//! owns the reference that upstream keeps for "the task that will emplace
//! this", guarantees a single producer, and turns into an error if it is
//! dropped without producing, so no awaiter can hang on an abandoned object.

use crate::leak::{LiveObjects, Origin};
use crate::object::{Kind, ObjPtr, State, Task, AVAILABLE, ERROR};
use crate::ops::{self, At};
use std::ffi::c_void;
use std::marker::PhantomData;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The error state of an async value or token, as a Rust error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AsyncError;

impl std::fmt::Display for AsyncError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("async object is in the error state")
    }
}

impl std::error::Error for AsyncError {}

type Closure = Box<dyn FnOnce() + Send + 'static>;

unsafe extern "C" fn run_closure(p: *mut c_void) {
    // SAFETY: `p` came from `Box::into_raw` in `closure_task` and each task
    // runs exactly once.
    let f: Box<Closure> = unsafe { Box::from_raw(p.cast::<Closure>()) };
    // A panic must not unwind into the scheduler (or across `extern "C"`);
    // the default hook has already printed it.
    let _ = catch_unwind(AssertUnwindSafe(f));
}

fn closure_task(f: impl FnOnce() + Send + 'static) -> Task {
    let boxed: Box<Closure> = Box::new(Box::new(f));
    Task {
        resume: run_closure,
        handle: Box::into_raw(boxed).cast(),
    }
}

/// Shared plumbing of the three handle types.
struct Handle(ObjPtr);

impl Handle {
    fn header(&self) -> &crate::object::Header {
        // SAFETY: the handle owns a reference, so the object is alive.
        unsafe { self.0.header() }
    }

    fn wait(&self) -> State {
        // SAFETY: alive (owned reference).
        unsafe { ops::await_blocking(self.0) };
        self.header().state()
    }

    fn on_ready(&self, f: impl FnOnce() + Send + 'static) {
        let task = closure_task(f);
        // SAFETY: alive; the task is a fresh closure task.
        unsafe { ops::await_and_execute(self.0, task) };
    }
}

impl Clone for Handle {
    fn clone(&self) -> Self {
        // SAFETY: we own a reference, so the object is alive.
        unsafe { ops::add_ref(self.0, 1) };
        Handle(self.0)
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: we own exactly this reference; it cannot underflow.
        let _ = unsafe { ops::drop_ref(self.0, 1) };
    }
}

/// `!async.token`: completion of an asynchronous computation.
#[derive(Clone)]
pub struct Token(Handle);

/// The right (and duty) to complete one [`Token`].
pub struct TokenProducer(Option<Handle>);

// SAFETY: every field of an object is atomic or mutex-protected.
unsafe impl Send for Handle {}
// SAFETY: see `Send`.
unsafe impl Sync for Handle {}

impl Token {
    /// Creates an unavailable token and the handle that completes it.
    #[track_caller]
    pub fn new() -> (Token, TokenProducer) {
        let obj = ops::create_token(Origin::Rust(std::panic::Location::caller()));
        // Tokens start with two references: ours and the producer's.
        (Token(Handle(obj)), TokenProducer(Some(Handle(obj))))
    }

    /// The current state.
    pub fn state(&self) -> State {
        self.0.header().state()
    }

    /// Available or errored.
    pub fn is_ready(&self) -> bool {
        self.0.header().is_ready()
    }

    /// In the error state.
    pub fn is_error(&self) -> bool {
        self.state() == State::Error
    }

    /// Blocks until ready and returns the final state. On a worker thread
    /// this runs other tasks meanwhile, so it cannot starve the pool.
    pub fn wait(&self) -> State {
        self.0.wait()
    }

    /// Runs `f` on a worker once the token is ready (immediately, on this
    /// thread, when it already is).
    pub fn on_ready(&self, f: impl FnOnce() + Send + 'static) {
        self.0.on_ready(f)
    }

    /// Current reference count (for tests and diagnostics).
    pub fn ref_count(&self) -> i64 {
        self.0.header().ref_count()
    }
}

impl TokenProducer {
    fn finish(mut self, state: u8, at: At) {
        let h = self.0.take().expect("producer used once");
        let obj = h.0;
        std::mem::forget(h);
        // SAFETY: the producer owns the creation-time reference that
        // `set_state` drops, and a producer completes its token only once.
        let r = unsafe { ops::set_state(obj, state, at) };
        debug_assert!(r.is_ok());
    }

    /// Makes the token available.
    pub fn emplace(self) {
        self.finish(AVAILABLE, At::Anywhere)
    }

    /// Puts the token in the error state.
    pub fn set_error(self) {
        self.finish(ERROR, At::Anywhere)
    }
}

impl Drop for TokenProducer {
    fn drop(&mut self) {
        if let Some(h) = self.0.take() {
            let obj = h.0;
            std::mem::forget(h);
            // SAFETY: as in `finish`; an abandoned token becomes an error.
            let _ = unsafe { ops::set_state(obj, ERROR, At::Anywhere) };
        }
    }
}

/// `!async.value<T>`: a `T` produced asynchronously.
pub struct Value<T> {
    h: Handle,
    _t: PhantomData<fn() -> T>,
}

impl<T> Clone for Value<T> {
    fn clone(&self) -> Self {
        Value {
            h: self.h.clone(),
            _t: PhantomData,
        }
    }
}

/// The right (and duty) to produce one [`Value`].
pub struct ValueProducer<T> {
    h: Option<Handle>,
    _t: PhantomData<fn(T)>,
}

impl<T: Copy + Send + Sync + 'static> Value<T> {
    /// Creates an unavailable value and the handle that produces it.
    #[track_caller]
    pub fn new() -> (Value<T>, ValueProducer<T>) {
        let obj = ops::create_value(
            std::mem::size_of::<T>(),
            std::mem::align_of::<T>(),
            Origin::Rust(std::panic::Location::caller()),
        );
        (
            Value {
                h: Handle(obj),
                _t: PhantomData,
            },
            ValueProducer {
                h: Some(Handle(obj)),
                _t: PhantomData,
            },
        )
    }

    /// The current state.
    pub fn state(&self) -> State {
        self.h.header().state()
    }

    /// Available or errored.
    pub fn is_ready(&self) -> bool {
        self.h.header().is_ready()
    }

    /// The payload if produced, `Some(Err)` if errored, `None` if pending.
    pub fn get(&self) -> Option<Result<T, AsyncError>> {
        match self.state() {
            State::Unavailable => None,
            State::Error => Some(Err(AsyncError)),
            // SAFETY: available (Acquire) means the producer's write of a
            // `T` into the storage happened before; the storage is laid out
            // for `T` and never written again.
            State::Available => Some(Ok(unsafe { self.h.0.value_storage().cast::<T>().read() })),
        }
    }

    /// Blocks until produced (running other tasks on a worker thread).
    pub fn wait(&self) -> Result<T, AsyncError> {
        self.h.wait();
        self.get().expect("ready after wait")
    }

    /// Runs `f` on a worker once the value is ready.
    pub fn on_ready(&self, f: impl FnOnce() + Send + 'static) {
        self.h.on_ready(f)
    }
}

impl<T: Copy + Send + Sync + 'static> ValueProducer<T> {
    fn take(&mut self) -> ObjPtr {
        let h = self.h.take().expect("producer used once");
        let obj = h.0;
        std::mem::forget(h);
        obj
    }

    /// Stores `v` and makes the value available.
    pub fn emplace(self, v: T) {
        self.emplace_at(v, At::Anywhere)
    }

    fn emplace_at(mut self, v: T, at: At) {
        let obj = self.take();
        // SAFETY: the single producer writes the storage (sized and aligned
        // for `T`) before publishing it with `set_state` (Release); readers
        // only read after observing the state.
        unsafe {
            obj.value_storage().cast::<T>().write(v);
            let r = ops::set_state(obj, AVAILABLE, at);
            debug_assert!(r.is_ok());
        }
    }

    /// Puts the value in the error state.
    pub fn set_error(self) {
        self.set_error_at(At::Anywhere)
    }

    fn set_error_at(mut self, at: At) {
        let obj = self.take();
        // SAFETY: the producer's creation-time reference, used once.
        let _ = unsafe { ops::set_state(obj, ERROR, at) };
    }
}

impl<T> Drop for ValueProducer<T> {
    fn drop(&mut self) {
        if let Some(h) = self.h.take() {
            let obj = h.0;
            std::mem::forget(h);
            // SAFETY: the producer's reference; abandoned values error.
            let _ = unsafe { ops::set_state(obj, ERROR, At::Anywhere) };
        }
    }
}

/// `!async.group`: completes once `size` added tokens have completed.
#[derive(Clone)]
pub struct Group(Handle);

impl Group {
    /// A group expecting `size` tokens (ready at once when `size == 0`).
    #[track_caller]
    pub fn new(size: usize) -> Group {
        let size = i64::try_from(size).expect("group size fits i64");
        Group(Handle(ops::create_group(
            size,
            Origin::Rust(std::panic::Location::caller()),
        )))
    }

    /// Adds a token; returns its rank (0, 1, ...).
    ///
    /// # Panics
    /// When more tokens are added than the size the group was created with.
    pub fn add(&self, token: &Token) -> usize {
        // SAFETY: alive (owned reference) and a group.
        let g = unsafe { self.0 .0.group() };
        assert!(
            g.rank.load(std::sync::atomic::Ordering::Relaxed) < g.size,
            "more tokens added to the group than its size ({})",
            g.size
        );
        debug_assert_eq!(token.0.header().kind, Kind::Token);
        // SAFETY: both alive (owned references), right kinds.
        unsafe { ops::add_token_to_group(token.0 .0, self.0 .0) as usize }
    }

    /// Every expected token has completed.
    pub fn is_ready(&self) -> bool {
        self.0.header().is_ready()
    }

    /// How many member tokens completed with an error.
    pub fn num_errors(&self) -> usize {
        // SAFETY: alive, a group.
        unsafe { ops::group_errors(self.0 .0) as usize }
    }

    /// Whether any member completed with an error (`async.runtime.is_error`).
    pub fn is_error(&self) -> bool {
        self.num_errors() > 0
    }

    /// Blocks until all tokens completed (running other tasks on a worker).
    pub fn wait(&self) {
        self.0.wait();
    }

    /// Runs `f` on a worker once all tokens completed.
    pub fn on_ready(&self, f: impl FnOnce() + Send + 'static) {
        self.0.on_ready(f)
    }
}

/// Runs `f` on a worker thread.
pub fn spawn(f: impl FnOnce() + Send + 'static) {
    ops::execute(closure_task(f));
}

/// `async.execute` without results: runs `f` on a worker and returns a token
/// that becomes available when it returns, or errors if it panics.
#[track_caller]
pub fn execute(f: impl FnOnce() + Send + 'static) -> Token {
    let (t, p) = Token::new();
    spawn(move || match catch_unwind(AssertUnwindSafe(f)) {
        Ok(()) => p.finish(AVAILABLE, At::Tail),
        Err(_) => p.finish(ERROR, At::Tail),
    });
    t
}

/// `async.execute` with one result.
#[track_caller]
pub fn execute_value<T: Copy + Send + Sync + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Value<T> {
    let (v, p) = Value::<T>::new();
    spawn(move || match catch_unwind(AssertUnwindSafe(f)) {
        Ok(x) => p.emplace_at(x, At::Tail),
        Err(_) => p.set_error_at(At::Tail),
    });
    v
}

/// Number of worker threads (starts the pool if needed).
pub fn num_worker_threads() -> usize {
    crate::scheduler::get().num_workers()
}

/// Runs every queued task, waits for the running ones (or until the rest
/// are blocked for good) and returns what is still alive: the Rust
/// counterpart of `__mlir_runner_destroy`. An executor that frees the code
/// its tasks run (a JIT) must call this first, or a worker may jump into
/// freed code. The runtime stays usable afterwards. Called from a task it
/// returns at once (it would wait for itself).
pub fn shutdown() -> LiveObjects {
    crate::shutdown::destroy();
    crate::leak::live_objects()
}
