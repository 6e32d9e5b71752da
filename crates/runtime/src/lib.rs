//! mlir-async runtime.
