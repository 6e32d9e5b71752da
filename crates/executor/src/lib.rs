//! `mlir-async-run`'s engine: runs LLVM-dialect MLIR natively, with no
//! LLVM, through a Cranelift JIT, splitting coroutines itself and calling
//! our async runtime directly.
//!
//! # Why Cranelift
//!
//! * **Pure Rust, no LLVM**: the point of the executor is that running a
//!   lowered program needs nothing but this workspace. `inkwell` (LLVM's C
//!   API) would bring back the LLVM install the project exists to avoid.
//! * **Made for JIT use**: `cranelift-jit` maps code into the process and
//!   resolves symbols; calling a compiled function is a function-pointer
//!   call, and the runtime's worker threads call the coroutines' resume
//!   functions the same way.
//! * **Fast to compile**: Cranelift compiles about an order of magnitude
//!   faster than LLVM at `-O2`, which is most of a small program's run, so
//!   start-up beats `mlir-cpu-runner`'s; its optimizer (e-graph rewrites,
//!   GVN, LICM, redundant-load removal) and register allocator give code
//!   within a small factor of LLVM `-O3` on scalar loops.
//! * **Not an interpreter**: an interpreter would be simplest and start at
//!   once, but runs compute loops 10-100x slower than native code, far from
//!   the goal of half of LLVM `-O3`'s speed.
//! * **Not our own backend** (`dynasm` or hand-written instruction
//!   selection): register allocation and instruction selection for two
//!   architectures is years of work Cranelift has done and fuzzes.
//!
//! # Layers
//!
//! * [`lir`]: the lowered form compiled from (scalars, blocks with
//!   arguments, calls, the coroutine intrinsics);
//! * [`coro`]: the coroutine split (ramp, resume, destroy, frame layout);
//! * [`codegen`]: LIR to Cranelift IR, and the JIT module;
//! * [`symbols`]: what external names resolve to (our runtime, the runner
//!   utilities in [`runner_utils`], loaded libraries, the process).

pub mod codegen;
pub mod coro;
pub mod error;
pub mod lir;

pub use codegen::{compile, Compiled, OptLevel};
pub use error::ExecError;
pub mod engine;
pub mod runner_utils;
pub mod symbols;

pub use engine::{run, EntryResult, RunOptions};
pub mod frontend;
pub mod trace;
pub mod vectorize;
