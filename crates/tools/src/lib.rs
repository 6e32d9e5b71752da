//! The command-line tools of mlir-async. The binaries in `src/bin` are thin
//! `main`s; `mlir-async-opt`'s driver lives in [`opt_main`].

pub mod opt_main;
pub mod run_main;
pub mod stdio;
