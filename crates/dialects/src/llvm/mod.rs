//! The LLVM dialect: its types ([`types`], re-exported here, e.g.
//! `llvm::pointer_to(ctx, i8)`), its ops ([`ops`]: definitions, accessors
//! such as [`ops::callee`] or [`ops::gep_indices`]) and their builders
//! ([`build`]), parsed, verified and printed as mlir-opt 13, 14 and 15
//! print them.

pub mod build;
pub mod ops;
pub mod types;

pub use types::*;

use mlir_async_ir::Context;

/// Registers what the context itself must know of the dialect: how its
/// types print.
pub fn register(ctx: &mut Context) {
    ctx.register_type_printer(DIALECT, types::print_type);
}
