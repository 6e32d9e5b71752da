//! The checked runtime mode (`MLIR_ASYNC_RUNTIME_CHECKED=1`), for showing on
//! real programs that a lowering's reference counting is right.
//!
//! In this mode every object is tracked one by one (as debug builds always
//! do): its kind, the entry point that created it and a creation sequence
//! number. Freed objects are not recycled but kept poisoned in quarantine,
//! so a pointer to one is recognised as a use after free instead of
//! silently hitting whatever object reuses the memory. A reference count
//! dropped below zero, a use of a freed object, a second `emplace` and every
//! object still alive at exit are reported on stderr with that information,
//! and the process exits non-zero.
//!
//! Why the creating entry point and a sequence number rather than the
//! caller's return address: the callers are JIT-compiled by
//! `mlir-cpu-runner`, whose code is not part of any loaded object, so
//! `dladdr` cannot name it and a bare address would mean nothing once the
//! process is gone (and the JIT frees that code before exit). The sequence
//! number is deterministic for a program that creates its objects on one
//! thread, so "token #17" can be found again by running the same program
//! under a debugger with a breakpoint on the seventeenth creation. The Rust
//! API records the caller's file and line instead.
//!
//! The mode costs the unchecked fast path one load and one well-predicted
//! branch per check ([`enabled`]).

use std::sync::atomic::{AtomicU8, Ordering};

/// Environment variable that turns the checked mode on (`1`).
pub const CHECKED_ENV: &str = "MLIR_ASYNC_RUNTIME_CHECKED";

/// Exit status of a process whose leak check failed at exit.
pub const LEAK_EXIT_STATUS: i32 = 70;

const UNKNOWN: u8 = 0;
const OFF: u8 = 1;
const ON: u8 = 2;

static MODE: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Is the checked mode on? Read from the environment on first use.
#[inline(always)]
pub(crate) fn enabled() -> bool {
    let m = MODE.load(Ordering::Relaxed);
    if m == OFF {
        return false;
    }
    enabled_slow(m)
}

#[cold]
fn enabled_slow(m: u8) -> bool {
    if m == ON {
        return true;
    }
    let on = match std::env::var(CHECKED_ENV) {
        Err(_) => false,
        Ok(v) => match v.trim() {
            "" | "0" => false,
            "1" => true,
            other => {
                eprintln!(
                    "mlir-async-runtime: warning: {CHECKED_ENV}={other:?} is neither 0 nor 1; checked mode is off"
                );
                false
            }
        },
    };
    MODE.store(if on { ON } else { OFF }, Ordering::Relaxed);
    on
}

mod c {
    use std::ffi::{c_int, c_void};
    extern "C" {
        pub fn fflush(stream: *mut c_void) -> c_int;
        pub fn _exit(status: c_int) -> !;
    }
}

/// Ends the process with `status` from an `atexit` handler (where calling
/// `exit` again is undefined), after flushing C stdio, which holds the
/// program's own output (`printI64` and friends).
pub(crate) fn exit_now(status: i32) -> ! {
    // SAFETY: `fflush(NULL)` flushes every open stream and `_exit` ends the
    // process without running further handlers; neither has preconditions.
    unsafe {
        c::fflush(std::ptr::null_mut());
        c::_exit(status)
    }
}
