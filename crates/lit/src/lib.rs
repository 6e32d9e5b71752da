//! mlir-async lit layer.
