//! Reference-counted runtime objects: `!async.token`, `!async.value<T>` and
//! `!async.group`.
//!
//! The C ABI hands out raw pointers to these objects and JIT-compiled code
//! manages their lifetime with `mlirAsyncRuntimeAddRef`/`DropRef`, so they
//! are intrusive ref-counted heap blocks rather than `Arc`s: the count lives
//! in the object, starts at upstream's values, and the last `drop_ref` frees
//! the block.
//!
//! Every object carries a tiny state machine (`unavailable` -> `available`
//! or `error`, never back) and a list of awaiters. The state only changes
//! while the awaiter list is locked, so an awaiter that registers under the
//! lock either sees the final state or is guaranteed to be handed back by
//! [`Header::set_ready`]; it can never be lost. Handing awaiters back (rather
//! than running them) is what lets the caller queue resumptions to the
//! scheduler after the lock is released.

use crate::sync::{fence, lock, AtomicI64, AtomicU8, Mutex};
use std::alloc::Layout;
use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::atomic::Ordering;

/// The state of an async object, named as in MLIR's `AsyncRuntime.cpp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Not yet produced: awaiting it suspends or blocks.
    Unavailable,
    /// Produced; for values the storage holds the payload.
    Available,
    /// Produced as an error (e.g. a failed `assert` inside `async.execute`).
    Error,
}

pub(crate) const UNAVAILABLE: u8 = 0;
pub(crate) const AVAILABLE: u8 = 1;
pub(crate) const ERROR: u8 = 2;

impl State {
    pub(crate) fn from_raw(raw: u8) -> State {
        match raw {
            UNAVAILABLE => State::Unavailable,
            AVAILABLE => State::Available,
            _ => State::Error,
        }
    }
}

/// Which MLIR type an object implements; leak reports count by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// `!async.token`
    Token = 0,
    /// `!async.value<T>`
    Value = 1,
    /// `!async.group`
    Group = 2,
}

impl Kind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Token => "token",
            Kind::Value => "value",
            Kind::Group => "group",
        }
    }
}

/// A unit of work for the scheduler: a coroutine resume function and its
/// handle, exactly the pair the C ABI passes (`CoroResume`, `CoroHandle`).
/// Rust closures are boxed behind a trampoline with the same shape, so the
/// queues carry one 16-byte `Copy` type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Task {
    pub(crate) resume: unsafe extern "C" fn(*mut c_void),
    pub(crate) handle: *mut c_void,
}

// SAFETY: a task is a resumption token moved to exactly one worker; the
// coroutine frame (or boxed closure) it points to is only touched by whoever
// runs the task, which is the contract of `mlirAsyncRuntimeExecute`.
unsafe impl Send for Task {}

impl Task {
    /// Runs the task.
    ///
    /// # Safety
    /// `resume(handle)` must be valid to call once, which the creator of the
    /// task promised when it handed the pair to the runtime.
    pub(crate) unsafe fn run(self) {
        // SAFETY: forwarded from the caller's contract.
        unsafe { (self.resume)(self.handle) }
    }
}

/// Something waiting for an object to become available or errored.
pub(crate) enum Awaiter {
    /// A suspended coroutine (or Rust callback); queued to a worker.
    Resume(Task),
    /// The object is a token that belongs to this group; the group's
    /// bookkeeping (one fewer pending token) is done by whoever completes
    /// the token. The awaiter owns one reference to the group.
    GroupMember(ObjPtr),
    /// A thread outside the pool blocked in `mlirAsyncRuntimeAwait*`.
    Unpark(std::thread::Thread),
    /// The worker of this index, blocked in `mlirAsyncRuntimeAwait*`.
    UnparkWorker(usize),
    /// Test-only awaiter for the loom models.
    #[cfg(loom)]
    #[allow(dead_code)]
    Mark(usize),
}

/// Awaiter list with room for one awaiter inline: nearly every object has at
/// most one awaiter (the task that consumes it, or its group), and this
/// keeps that common case free of a second allocation.
#[derive(Default)]
pub(crate) struct Awaiters {
    first: Option<Awaiter>,
    /// Further awaiters (rare), boxed to keep the header small: one
    /// pointer instead of a `Vec`'s three words lets a token fit in 64 bytes.
    #[allow(clippy::box_collection)]
    rest: Option<Box<Vec<Awaiter>>>,
}

impl Awaiters {
    fn push(&mut self, a: Awaiter) {
        if self.first.is_none() {
            self.first = Some(a);
        } else {
            self.rest.get_or_insert_with(Box::default).push(a);
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.first.is_none()
    }
}

impl IntoIterator for Awaiters {
    type Item = Awaiter;
    type IntoIter = std::iter::Chain<std::option::IntoIter<Awaiter>, std::vec::IntoIter<Awaiter>>;
    fn into_iter(self) -> Self::IntoIter {
        self.first
            .into_iter()
            .chain(self.rest.map(|b| *b).unwrap_or_default())
    }
}

/// The common prefix of every runtime object.
#[repr(C)]
pub(crate) struct Header {
    ref_count: AtomicI64,
    state: AtomicU8,
    pub(crate) kind: Kind,
    awaiters: Mutex<Awaiters>,
}

impl Header {
    pub(crate) fn new(kind: Kind, ref_count: i64, state: u8) -> Header {
        Header {
            ref_count: AtomicI64::new(ref_count),
            state: AtomicU8::new(state),
            kind,
            awaiters: Mutex::new(Awaiters::default()),
        }
    }

    pub(crate) fn state(&self) -> State {
        State::from_raw(self.state.load(Ordering::Acquire))
    }

    pub(crate) fn is_ready(&self) -> bool {
        self.state.load(Ordering::Acquire) != UNAVAILABLE
    }

    pub(crate) fn ref_count(&self) -> i64 {
        self.ref_count.load(Ordering::Relaxed)
    }

    /// Adds `n` references. Returns the previous count so that C ABI checks
    /// can detect a resurrected (already freed) object in debug builds.
    pub(crate) fn add_ref(&self, n: i64) -> i64 {
        self.ref_count.fetch_add(n, Ordering::Relaxed)
    }

    /// Drops `n` references. `Ok(true)` means the caller dropped the last
    /// one and must free the object; `Err(previous)` reports an underflow
    /// (the count is left as it was found, minus nothing).
    pub(crate) fn release(&self, n: i64) -> Result<bool, i64> {
        let prev = self.ref_count.fetch_sub(n, Ordering::Release);
        if prev < n {
            self.ref_count.fetch_add(n, Ordering::Relaxed);
            return Err(prev);
        }
        if prev == n {
            // Pairs with the Release above in every other thread's drop, so
            // their writes to the object happen before we free it.
            fence(Ordering::Acquire);
            return Ok(true);
        }
        Ok(false)
    }

    /// Registers `a`, or hands it back when the object is already ready
    /// (the caller then runs or queues it itself).
    pub(crate) fn add_awaiter(&self, a: Awaiter) -> Result<(), Awaiter> {
        if self.is_ready() {
            return Err(a);
        }
        let mut list = lock(&self.awaiters);
        // The state only changes under this lock, so this check is final.
        if self.state.load(Ordering::Relaxed) != UNAVAILABLE {
            return Err(a);
        }
        list.push(a);
        Ok(())
    }

    /// Moves the object to its terminal state and returns the awaiters to
    /// resume. `Err(previous)` when it was already ready (a double emplace).
    pub(crate) fn set_ready(&self, state: u8) -> Result<Awaiters, u8> {
        debug_assert!(state != UNAVAILABLE);
        let mut list = lock(&self.awaiters);
        let prev = self.state.load(Ordering::Relaxed);
        if prev != UNAVAILABLE {
            return Err(prev);
        }
        self.state.store(state, Ordering::Release);
        Ok(std::mem::take(&mut *list))
    }
}

/// `!async.value<T>`: the header followed (in the same allocation) by the
/// payload storage at `storage_offset`.
#[repr(C)]
pub(crate) struct ValueObj {
    pub(crate) header: Header,
    pub(crate) size: usize,
    pub(crate) align: usize,
    pub(crate) storage_offset: usize,
}

/// `!async.group`: counts the tokens still pending and those in error.
#[repr(C)]
pub(crate) struct GroupObj {
    pub(crate) header: Header,
    /// Tokens (of the size given at creation) that have not completed.
    pub(crate) pending: AtomicI64,
    pub(crate) errors: AtomicI64,
    /// Next rank handed out by `mlirAsyncRuntimeAddTokenToGroup`.
    pub(crate) rank: AtomicI64,
    /// Number of tokens the group was created for.
    pub(crate) size: i64,
}

/// A raw pointer to any runtime object (through its header).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ObjPtr(pub(crate) NonNull<Header>);

// SAFETY: objects are shared between threads by design; every mutable field
// is atomic or behind the header's mutex.
unsafe impl Send for ObjPtr {}
// SAFETY: see `Send`.
unsafe impl Sync for ObjPtr {}

impl ObjPtr {
    /// # Safety
    /// The object must be alive (the caller holds a reference, or the
    /// runtime holds one on its behalf).
    pub(crate) unsafe fn header<'a>(self) -> &'a Header {
        // SAFETY: alive per the caller's contract; the header is the first
        // field of every object type (`repr(C)`).
        unsafe { self.0.as_ref() }
    }

    /// # Safety
    /// Alive, and `kind == Group`.
    pub(crate) unsafe fn group<'a>(self) -> &'a GroupObj {
        // SAFETY: groups are allocated as `GroupObj` with the header first.
        unsafe { self.0.cast::<GroupObj>().as_ref() }
    }

    /// # Safety
    /// Alive, and `kind == Value`.
    pub(crate) unsafe fn value<'a>(self) -> &'a ValueObj {
        // SAFETY: values are allocated as `ValueObj` with the header first.
        unsafe { self.0.cast::<ValueObj>().as_ref() }
    }

    /// Start of a value's payload.
    ///
    /// # Safety
    /// Alive, and `kind == Value`.
    pub(crate) unsafe fn value_storage(self) -> *mut u8 {
        // SAFETY: the caller guarantees a live value; the storage lies
        // inside the same allocation at `storage_offset`.
        unsafe {
            let off = self.value().storage_offset;
            self.0.as_ptr().cast::<u8>().add(off)
        }
    }

    pub(crate) fn as_raw(self) -> *mut c_void {
        self.0.as_ptr().cast()
    }
}

fn value_layout(size: usize, align: usize) -> (Layout, usize) {
    let payload = Layout::from_size_align(size.max(1), align).expect("value storage layout");
    let (layout, offset) = Layout::new::<ValueObj>()
        .extend(payload)
        .expect("value layout");
    (layout.pad_to_align(), offset)
}

/// Alignment for a value payload of `size` bytes when the caller (the C ABI)
/// only knows the size: the next power of two, between 16 (what `malloc`
/// guarantees, and upstream's `std::vector<int8_t>` gets) and 64, so vector
/// payloads such as `vector<8xf32>` are naturally aligned.
pub(crate) fn default_value_align(size: usize) -> usize {
    size.max(1).next_power_of_two().clamp(16, 64)
}

/// Allocates a token: two references, one for the creator and one that
/// `emplace`/`set_error` drops, so a token whose creator lets go early still
/// lives until it is produced (upstream's rule).
pub(crate) fn alloc_token() -> ObjPtr {
    let h = Header::new(Kind::Token, 2, UNAVAILABLE);
    crate::leak::created(Kind::Token);
    let Some(class) = crate::pool::class_for(Layout::new::<Header>()) else {
        // Only with loom's larger primitives.
        return ObjPtr(NonNull::from(Box::leak(Box::new(h))));
    };
    let p = crate::pool::alloc(class).cast::<Header>();
    // SAFETY: a pool block is large and aligned enough for a `Header`
    // (checked just above) and not shared with anyone yet.
    unsafe { p.write(h) };
    // SAFETY: pool blocks are never null.
    ObjPtr(unsafe { NonNull::new_unchecked(p) })
}

/// Allocates a value with `size` bytes of zeroed storage; two references as
/// for tokens.
pub(crate) fn alloc_value(size: usize, align: usize) -> ObjPtr {
    let (layout, offset) = value_layout(size, align);
    let raw = if let Some(class) = crate::pool::class_for(layout) {
        let p = crate::pool::alloc(class);
        // SAFETY: the block holds `layout.size()` bytes; zero the payload
        // (upstream's storage is a zero-initialised vector).
        unsafe { p.add(offset).write_bytes(0, layout.size() - offset) };
        p
    } else {
        // SAFETY: the layout has non-zero size (it contains a `ValueObj`).
        unsafe { std::alloc::alloc_zeroed(layout) }
    };
    let Some(ptr) = NonNull::new(raw.cast::<ValueObj>()) else {
        std::alloc::handle_alloc_error(layout)
    };
    // SAFETY: freshly allocated, properly aligned and large enough for a
    // `ValueObj`; written once before anyone else sees the pointer.
    unsafe {
        ptr.as_ptr().write(ValueObj {
            header: Header::new(Kind::Value, 2, UNAVAILABLE),
            size,
            align,
            storage_offset: offset,
        });
    }
    crate::leak::created(Kind::Value);
    ObjPtr(ptr.cast())
}

/// Allocates a group that completes once `size` tokens have been added and
/// have completed; one reference (groups are not "produced" by a task).
pub(crate) fn alloc_group(size: i64) -> ObjPtr {
    let state = if size <= 0 { AVAILABLE } else { UNAVAILABLE };
    let b = Box::new(GroupObj {
        header: Header::new(Kind::Group, 1, state),
        pending: AtomicI64::new(size.max(0)),
        errors: AtomicI64::new(0),
        rank: AtomicI64::new(0),
        size,
    });
    crate::leak::created(Kind::Group);
    ObjPtr(NonNull::from(Box::leak(b)).cast())
}

/// Frees an object whose count reached zero.
///
/// # Safety
/// The caller dropped the last reference; nobody else may touch `obj`.
pub(crate) unsafe fn free(obj: ObjPtr) {
    // SAFETY: still alive until freed below.
    let kind = unsafe { obj.header().kind };
    if crate::leak::destroyed(obj, kind) {
        // SAFETY: the caller's contract: nobody else may touch `obj`.
        unsafe { quarantine(obj, kind) };
        return;
    }
    match kind {
        Kind::Token => {
            let Some(class) = crate::pool::class_for(Layout::new::<Header>()) else {
                // SAFETY: allocated by `Box<Header>` in `alloc_token`.
                drop(unsafe { Box::from_raw(obj.0.as_ptr()) });
                return;
            };
            // SAFETY: tokens are pool blocks of this class holding a
            // `Header`; nobody else references it any more.
            unsafe {
                std::ptr::drop_in_place(obj.0.as_ptr());
                crate::pool::free(obj.0.as_ptr().cast(), class);
            }
        }
        Kind::Group => {
            // SAFETY: groups are allocated by `Box<GroupObj>`.
            drop(unsafe { Box::from_raw(obj.0.cast::<GroupObj>().as_ptr()) });
        }
        Kind::Value => {
            let p = obj.0.cast::<ValueObj>().as_ptr();
            // SAFETY: allocated by `alloc_value` (from the pool or with the
            // layout recomputed here from the stored size and alignment).
            unsafe {
                let (layout, _) = value_layout((*p).size, (*p).align);
                std::ptr::drop_in_place(p);
                if let Some(class) = crate::pool::class_for(layout) {
                    crate::pool::free(p.cast(), class);
                } else {
                    std::alloc::dealloc(p.cast(), layout);
                }
            }
        }
    }
}

/// Reference count a quarantined object is left with: far below zero, so
/// that even an unchecked `drop_ref` on it reports an underflow.
const POISON_COUNT: i64 = i64::MIN / 2;
/// State byte of a quarantined object (neither of the valid states).
const POISON_STATE: u8 = 0xA5;

/// Keeps a freed object's memory (checked mode) so its address is never
/// reused and stays known as freed: drops what it owned and overwrites it
/// with poison (a valid header of the same kind with a poison count and
/// state; a value's payload filled with `0xA5`).
///
/// # Safety
/// As for [`free`].
#[cold]
#[inline(never)]
unsafe fn quarantine(obj: ObjPtr, kind: Kind) {
    let h = obj.0.as_ptr();
    // SAFETY: the object is ours alone; its header is dropped once and
    // replaced by a fresh one in place, and a value's payload lies inside
    // its allocation (`size` bytes at `storage_offset`).
    unsafe {
        if kind == Kind::Value {
            let v = obj.value();
            let (size, storage) = (v.size, obj.value_storage());
            storage.write_bytes(POISON_STATE, size);
        }
        std::ptr::drop_in_place(h);
        h.write(Header::new(kind, POISON_COUNT, POISON_STATE));
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p mlir-async-runtime
    //! --release --lib loom_models`.
    use super::*;
    use loom::sync::atomic::AtomicUsize;
    use loom::sync::Arc;

    fn resumed(list: Awaiters, count: &AtomicUsize) {
        for a in list {
            if let Awaiter::Mark(_) = a {
                count.fetch_add(1, Ordering::SeqCst);
            }
        }
    }

    /// An awaiter registering while another thread makes the object
    /// available is resumed exactly once: either it sees the ready state
    /// and runs itself, or `set_ready` hands it back.
    #[test]
    fn register_races_set_ready() {
        loom::model(|| {
            let h = Arc::new(Header::new(Kind::Token, 2, UNAVAILABLE));
            let count = Arc::new(AtomicUsize::new(0));
            let (h2, c2) = (h.clone(), count.clone());
            let t = loom::thread::spawn(move || {
                if let Ok(list) = h2.set_ready(AVAILABLE) {
                    resumed(list, &c2);
                }
            });
            if h.add_awaiter(Awaiter::Mark(1)).is_err() {
                count.fetch_add(1, Ordering::SeqCst);
            }
            t.join().unwrap();
            assert_eq!(count.load(Ordering::SeqCst), 1);
            assert_eq!(h.state(), State::Available);
        });
    }

    /// Two producers racing (a misuse) never both win.
    #[test]
    fn double_set_ready_is_detected() {
        loom::model(|| {
            let h = Arc::new(Header::new(Kind::Token, 2, UNAVAILABLE));
            let h2 = h.clone();
            let t = loom::thread::spawn(move || h2.set_ready(ERROR).is_ok());
            let a = h.set_ready(AVAILABLE).is_ok();
            let b = t.join().unwrap();
            assert!(a ^ b);
        });
    }

    /// The producer's final `drop_ref` races a consumer that registers an
    /// awaiter and then drops its own reference: exactly one of them frees
    /// the object, after the awaiter was resumed.
    #[test]
    fn last_drop_ref_races_awaiter() {
        loom::model(|| {
            let h = Arc::new(Header::new(Kind::Token, 2, UNAVAILABLE));
            let count = Arc::new(AtomicUsize::new(0));
            let freed = Arc::new(AtomicUsize::new(0));
            let (h2, c2, f2) = (h.clone(), count.clone(), freed.clone());
            let producer = loom::thread::spawn(move || {
                if let Ok(list) = h2.set_ready(AVAILABLE) {
                    resumed(list, &c2);
                }
                if h2.release(1) == Ok(true) {
                    assert_eq!(c2.load(Ordering::SeqCst), 1);
                    f2.fetch_add(1, Ordering::SeqCst);
                }
            });
            if h.add_awaiter(Awaiter::Mark(7)).is_err() {
                count.fetch_add(1, Ordering::SeqCst);
            }
            if h.release(1) == Ok(true) {
                freed.fetch_add(1, Ordering::SeqCst);
            }
            producer.join().unwrap();
            assert_eq!(freed.load(Ordering::SeqCst), 1);
            assert_eq!(count.load(Ordering::SeqCst), 1);
        });
    }
}

#[cfg(all(test, not(loom)))]
mod size_tests {
    use super::*;

    /// Tokens fit the pool's 64-byte class and small values the 128-byte
    /// one (memory per queued task).
    #[test]
    fn objects_fit_their_pool_classes() {
        assert_eq!(crate::pool::class_for(Layout::new::<Header>()), Some(0));
        let (layout, _) = value_layout(8, default_value_align(8));
        assert_eq!(crate::pool::class_for(layout), Some(1));
    }
}
