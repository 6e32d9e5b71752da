//! What can go wrong between a LIR module and a finished run.

use crate::lir::{Loc, Module};
use std::fmt;

/// An error of the executor. Displayed as a one-line message; with a
/// location ([`ExecError::render`]) as an MLIR-style diagnostic.
#[derive(Debug, Clone, PartialEq)]
pub enum ExecError {
    /// An op, intrinsic or form the executor cannot run.
    Unsupported { loc: Loc, what: String },
    /// External symbols that no built-in, loaded library or the process
    /// defines.
    MissingSymbols(Vec<String>),
    /// A `-shared-libs` library that could not be loaded.
    Library { path: String, reason: String },
    /// The entry function is absent, a declaration, or of the wrong type.
    Entry(String),
    /// The trace file could not be written.
    Trace { path: String, reason: String },
    /// Cranelift rejected the generated code (a bug of the executor).
    Codegen { function: String, message: String },
}

impl ExecError {
    /// The error as `loc: error: message` when it has a location.
    pub fn render(&self, module: &Module) -> String {
        match self {
            ExecError::Unsupported { loc, what } => {
                let l = module.loc_text(*loc);
                if l.is_empty() {
                    format!("error: {what}")
                } else {
                    format!("{l}: error: {what}")
                }
            }
            e => format!("Error: {e}"),
        }
    }
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::Unsupported { what, .. } => write!(f, "{what}"),
            ExecError::MissingSymbols(names) => {
                write!(f, "Symbols not found: [ {} ]", names.join(", "))
            }
            ExecError::Library { path, reason } => {
                write!(f, "cannot load library '{path}': {reason}")
            }
            ExecError::Entry(m) => f.write_str(m),
            ExecError::Trace { path, reason } => {
                write!(f, "cannot write the trace to '{path}': {reason}")
            }
            ExecError::Codegen { function, message } => {
                write!(f, "code generation failed for '{function}': {message}")
            }
        }
    }
}

impl std::error::Error for ExecError {}
