//! mlir-async passes layer.
