//! `-canonicalize`: folds every op, erases dead ones, applies the
//! dialects' canonicalization patterns and simplifies the regions, with
//! MLIR's greedy driver, until nothing changes (at most
//! `max-iterations` rounds).

use crate::{parse_bool, Pass, PassContext, PassInfo};
use mlir_async_dialects::interfaces::Interfaces;
use mlir_async_ir::{IrError, Op};
use mlir_async_rewrite::{apply_patterns_and_fold_greedily, GreedyConfig, PatternSet};

pub fn info() -> PassInfo {
    PassInfo {
        arg: "canonicalize",
        summary: "Canonicalize operations",
        options: &[
            (
                "top-down",
                "Seed the worklist in general top-down order",
                "true",
            ),
            (
                "region-simplify",
                "Seed the worklist in general top-down order",
                "true",
            ),
            (
                "max-iterations",
                "Seed the worklist in general top-down order",
                "10",
            ),
        ],
        anchor: "",
        make: |opts| {
            let mut config = GreedyConfig::default();
            if let Some(v) = opts.get("top-down") {
                config.top_down = parse_bool("top-down", v)?;
            }
            if let Some(v) = opts.get("region-simplify") {
                config.region_simplification = parse_bool("region-simplify", v)?;
            }
            if let Some(v) = opts.get("max-iterations") {
                let n: i64 = v.parse().map_err(|_| {
                    format!(
                        "Invalid argument '{v}' for option 'max-iterations': expected an integer"
                    )
                })?;
                config.max_iterations = u32::try_from(n).ok();
            }
            Ok(Box::new(Canonicalize { config }))
        },
    }
}

pub struct Canonicalize {
    pub config: GreedyConfig,
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
        let frozen = PatternSet::freeze(patterns, pc.ctx);
        let ifaces = Interfaces::new(pc.edition);
        let regions = pc.ctx.regions_of(op).to_vec();
        let config = GreedyConfig {
            llvm15: pc.edition == mlir_async_syntax::Edition::V15,
            ..self.config
        };
        // Not converging is not an error for `-canonicalize` (MLIR ignores
        // the driver's result).
        apply_patterns_and_fold_greedily(pc.ctx, &regions, &frozen, &ifaces, config)
            .map_err(|e| e.into_ir_error(pc.ctx))?;
        Ok(())
    }
}
