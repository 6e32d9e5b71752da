//! mlir-async dialects layer.
