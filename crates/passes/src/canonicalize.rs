//! `-canonicalize`: folds every op, erases dead ones, applies the
//! dialects' canonicalization patterns and simplifies the regions, with
//! MLIR's greedy driver, until nothing changes (at most
//! `max-iterations` rounds).

use crate::{OptionKind, Pass, PassContext, PassInfo, PassOption};
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_ir::{IrError, Op};
use mlir_async_rewrite::{apply_patterns_and_fold_greedily, GreedyConfig};

/// The pass's options, as upstream declares them.
const OPTIONS: &[PassOption] = &[
            PassOption::new(
                "top-down",
                OptionKind::Bool,
                "true",
                "Seed the worklist in general top-down order",
            ),
            PassOption::new(
                "region-simplify",
                OptionKind::Bool,
                "true",
                "Seed the worklist in general top-down order",
            ),
            PassOption::new(
                "max-iterations",
                OptionKind::Int,
                "10",
                "Seed the worklist in general top-down order",
            ),
            PassOption::new(
                "disable-patterns",
                OptionKind::StringList,
                "",
                "Labels of patterns that should be filtered out during application",
            ),
            PassOption::new(
                "enable-patterns",
                OptionKind::StringList,
                "",
                "Labels of patterns that should be used during application, all other patterns are filtered out",
            ),
];

pub fn info() -> PassInfo {
    PassInfo {
        arg: "canonicalize",
        summary: "Canonicalize operations",
        options: OPTIONS,
        anchor: "",
        make: |opts| {
            let config = GreedyConfig {
                top_down: opts.bool("top-down"),
                region_simplification: opts.bool("region-simplify"),
                // A negative count means no limit, as MLIR's `kNoIterationLimit`.
                max_iterations: u32::try_from(opts.int("max-iterations")).ok(),
                ..GreedyConfig::default()
            };
            Ok(Box::new(Canonicalize {
                config,
                disabled: opts.list("disable-patterns"),
                enabled: opts.list("enable-patterns"),
            }))
        },
    }
}

pub struct Canonicalize {
    pub config: GreedyConfig,
    /// Pattern names left out (`disable-patterns`).
    pub disabled: Vec<String>,
    /// When not empty, the only pattern names used (`enable-patterns`).
    pub enabled: Vec<String>,
}

impl Pass for Canonicalize {
    fn name(&self) -> &'static str {
        "canonicalize"
    }
    fn display_name(&self) -> &'static str {
        "Canonicalizer"
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let patterns = mlir_async_dialects::canonicalization_patterns(pc.edition);
        let frozen = patterns.freeze_filtered(pc.ctx, |name| {
            !self.disabled.iter().any(|d| d == name)
                && (self.enabled.is_empty() || self.enabled.iter().any(|e| e == name))
        });
        let ifaces = Interfaces::new(pc.registry, pc.edition);
        let regions = pc.ctx.regions_of(op).to_vec();
        let config = GreedyConfig {
            llvm15: pc.edition == mlir_async_syntax::Edition::V15,
            llvm13: pc.edition == mlir_async_syntax::Edition::V13,
            ..self.config
        };
        // Not converging is not an error for `-canonicalize` (MLIR ignores
        // the driver's result).
        apply_patterns_and_fold_greedily(pc.ctx, &regions, &frozen, &ifaces, config)
            .map_err(|e| e.into_ir_error(pc.ctx))?;
        Ok(())
    }
}
