//! mlir-async filecheck layer.
