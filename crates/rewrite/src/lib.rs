//! The rewrite layer every transformation stands on, as MLIR's
//! `PatternMatch.h`, `GreedyPatternRewriteDriver` and `FoldUtils`: a
//! [`Rewriter`] that mutates the IR at an insertion point and tells a
//! [`Listener`] what it did, [`RewritePattern`]s with a root op and a
//! benefit, and the greedy driver that folds and applies them until
//! nothing changes.
//!
//! The layer knows no dialect: what an op folds to, how a constant is
//! materialised, which ops are constants and what a branch forwards come
//! through [`OpInterfaces`], which the dialects implement; op traits (pure, commutative, ...) come
//! from the IR core's registry.

pub mod conversion;
pub mod fold;
pub mod greedy;
pub mod pattern;
pub mod region;
pub mod rewriter;

pub use conversion::{
    apply_conversion_with, apply_full_conversion, apply_partial_conversion, ConversionConfig,
    ConversionMode, ConversionPattern, ConversionPatternSet, ConversionRewriter, ConversionTarget,
    SignatureConversion, TypeConversion, TypeConverter,
};
pub use fold::{FoldResult, Folded, OpInterfaces, OperationFolder};
pub use greedy::{apply_patterns_and_fold_greedily, GreedyConfig};
pub use pattern::{FnPattern, FrozenPatternSet, PatternSet, RewriteFn, RewritePattern};
pub use rewriter::{Builder, Listener, OpBuilder, RewriteError, Rewriter};
