//! The MLIR Async dialect runtime: tokens, values and groups with upstream's
//! reference-counting rules, a work-stealing scheduler, and the C ABI of
//! LLVM 14's `libmlir_async_runtime.so` (see `README.md` in this crate).
//!
//! The crate is both an `rlib` (the safe API below, for our executor) and a
//! `cdylib` that `mlir-cpu-runner` loads with `-shared-libs=`.

#![warn(missing_docs)]

mod api;
pub mod capi;
mod checked;
mod handoff;
mod leak;
mod object;
mod ops;
mod pool;
mod scheduler;
mod shutdown;
mod sync;

pub use api::{
    execute, execute_value, num_worker_threads, shutdown, spawn, AsyncError, Group, Token,
    TokenProducer, Value, ValueProducer,
};
pub use checked::{CHECKED_ENV, LEAK_EXIT_STATUS};
pub use leak::{leak_report, live_objects, LiveObjects};
pub use object::{Kind, State};
pub use scheduler::{MAX_NUM_THREADS, MAX_STAND_INS, NUM_THREADS_ENV};

/// Environment variable that controls the leak report printed at exit.
pub const LEAK_REPORT_ENV: &str = "MLIR_ASYNC_RUNTIME_LEAK_REPORT";
