//! Orderly shutdown at process exit.
//!
//! Upstream destroys its runtime in a static destructor, after which a
//! detached task that is still running dereferences a null runtime. Our
//! scheduler is never freed; instead, an `atexit` handler waits until the
//! queued and running tasks are done (or nothing can make progress any more)
//! and then prints the leak report according to
//! `MLIR_ASYNC_RUNTIME_LEAK_REPORT`.

use crate::leak::{self, ReportPolicy};
use crate::scheduler;
use std::sync::Once;
use std::time::Duration;

static HOOK: Once = Once::new();

extern "C" {
    fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
}

/// Registers the exit handler once per process: when the pool starts, and
/// when a tracked object is created (so the checked mode's leak check also
/// runs for programs that never start the pool).
pub(crate) fn register_exit_hook() {
    HOOK.call_once(|| {
        // SAFETY: `at_exit` is a plain function that stays loaded: the
        // library is never unloaded by mlir-cpu-runner, and Rust binaries
        // link it statically.
        unsafe { atexit(at_exit) };
    });
}

extern "C" fn at_exit() {
    // Never wait from a worker (exit called inside a task): the task calling
    // exit would wait for itself.
    destroy();
    let live = leak::live_objects();
    let checked = crate::checked::enabled();
    let print = match leak::report_policy() {
        ReportPolicy::Always => true,
        // A failed check is always explained.
        ReportPolicy::Never => checked && live.total() != 0,
        ReportPolicy::OnLeak => live.total() != 0,
    };
    if print {
        eprint!("{}", leak::leak_report());
    }
    if checked && live.total() != 0 {
        eprintln!(
            "mlir-async-runtime: checked mode: {} object(s) leaked; exiting with status {}",
            live.total(),
            crate::checked::LEAK_EXIT_STATUS
        );
        crate::checked::exit_now(crate::checked::LEAK_EXIT_STATUS);
    }
}

/// What `__mlir_runner_destroy` and [`crate::shutdown`] do: once it returns,
/// no worker runs or will run code of the tasks submitted so far, so their
/// code may be freed. Every queued task runs first and running tasks are
/// waited for (as upstream's thread pool `wait()` does); tasks blocked for
/// good on objects nobody will produce stay parked and never resume. From a
/// worker (a task calling it) it cannot wait for itself and returns at once.
pub(crate) fn destroy() {
    if !scheduler::on_worker_thread() {
        drain();
    }
}

/// Waits until every queued task has run, or until the pool is stuck: in
/// both cases every active thread is parked with nothing queued
/// ([`scheduler::Scheduler::is_stuck`]; when stuck, the remaining tasks wait
/// for objects nobody will produce, which the leak report will show).
pub(crate) fn drain() {
    let Some(s) = scheduler::get_if_started() else {
        return;
    };
    while !s.is_stuck() {
        std::thread::sleep(Duration::from_micros(100));
    }
}
