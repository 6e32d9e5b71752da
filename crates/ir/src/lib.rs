//! mlir-async ir layer.
