//! Synchronisation primitives used by the object state machine.
//!
//! The state machine in `object.rs` is the part whose races matter (an
//! awaiter registering while the object becomes ready, the last `drop_ref`
//! racing an awaiter), so it is written against this shim: under
//! `--cfg loom` the same code runs on `loom`'s model-checked primitives.

#[cfg(loom)]
pub(crate) use loom::sync::{
    atomic::{fence, AtomicI64, AtomicU8},
    Mutex, MutexGuard,
};

#[cfg(not(loom))]
pub(crate) use std::sync::{
    atomic::{fence, AtomicI64, AtomicU8},
    Mutex, MutexGuard,
};

/// Locks `m`, ignoring poisoning: the runtime never panics while holding an
/// object lock, and a poisoned awaiter list is still structurally valid.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}
