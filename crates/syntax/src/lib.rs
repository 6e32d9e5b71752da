//! mlir-async syntax layer.
