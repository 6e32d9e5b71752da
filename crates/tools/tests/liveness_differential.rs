//! Our liveness analysis against MLIR's: `mlir-opt-14/15
//! --test-print-liveness` prints every block's live-in and live-out sets
//! (values named by their position in a pre-order walk); the same sets
//! computed by `mlir_async_ir::liveness` must name the same values, on the
//! generated functions of `support::gen`. Skips when the tool is missing.
//! (Liveness does not depend on the syntax generation; `mlir-opt-15`'s
//! printer of it crashes on these inputs, so 14 is the reference.)

mod support;

use mlir_async_dialects::Registry;
use mlir_async_ir::entity::SecondaryMap;
use mlir_async_ir::liveness::{Liveness, ValueLiveness};
use mlir_async_ir::{Block, Context, Op, Value, ValueDef};
use mlir_async_syntax::parse_source;
use std::fmt::Write;
use std::process::Command;
use support::gen::{module, Shape};
use support::{have, Rng};

/// The blocks nested in `op`, pre-order (a block before the blocks of its
/// ops' regions), as MLIR's block walk.
fn blocks_preorder(ctx: &Context, op: Op, out: &mut Vec<Block>) {
    for &r in ctx.regions_of(op) {
        for b in ctx.region_blocks(r) {
            out.push(b);
            for o in ctx.block_ops_iter(b) {
                blocks_preorder(ctx, o, out);
            }
        }
    }
}

/// Our sets, printed as upstream prints its `LiveIn` / `LiveOut` lines.
fn ours(ctx: &Context, func: Op, name: &str) -> String {
    let mut blocks = vec![];
    blocks_preorder(ctx, func, &mut blocks);
    let mut block_id: SecondaryMap<Block, usize> = SecondaryMap::default();
    let mut value_id: SecondaryMap<Value, usize> = SecondaryMap::default();
    let mut n = 0;
    for (i, &b) in blocks.iter().enumerate() {
        block_id[b] = i;
        for &a in ctx.block_args(b) {
            value_id[a] = n;
            n += 1;
        }
        for o in ctx.block_ops_iter(b) {
            for &r in ctx.results(o) {
                value_id[r] = n;
                n += 1;
            }
        }
    }
    let refs = |vs: &[Value]| {
        let mut vs = vs.to_vec();
        vs.sort_by_key(|&v| value_id[v]);
        let mut s = String::new();
        for v in vs {
            match ctx.value_def(v) {
                ValueDef::Result(..) => write!(s, "val_{} ", value_id[v]).unwrap(),
                ValueDef::BlockArg(b, i) => write!(s, "arg{i}@{} ", block_id[b]).unwrap(),
            }
        }
        s
    };
    let live = Liveness::new(ctx, func);
    let _ = name;
    let mut out = String::new();
    for &b in &blocks {
        writeln!(out, "// - Block: {}", block_id[b]).unwrap();
        writeln!(out, "// --- LiveIn: {}", refs(live.live_in(b))).unwrap();
        writeln!(out, "// --- LiveOut: {}", refs(live.live_out(b))).unwrap();
    }
    out
}

#[test]
fn liveness_matches_upstream() {
    if !have("mlir-opt-14") {
        eprintln!("skipped: needs mlir-opt-14");
        return;
    }
    let modules: usize = std::env::var("GENERIC_MODULES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let tmp = std::env::temp_dir().join(format!("mlir-async-liveness-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut rng = Rng(0x1111_2222_3333_4444);
    let (mut same, mut different) = (0, vec![]);
    for m in 0..modules {
        for edition in [14] {
            let text = module(&mut rng, Shape::new(edition), 25);
            let file = tmp.join(format!("m{m}-{edition}.mlir"));
            std::fs::write(&file, &text).expect("write");
            let up = Command::new(format!("mlir-opt-{edition}"))
                .arg(&file)
                .arg("--test-print-liveness")
                .arg("--mlir-disable-threading")
                .arg("-o")
                .arg("/dev/null")
                .output()
                .expect("run upstream");
            assert!(up.status.success(), "upstream rejected {}", file.display());
            let expected: String = String::from_utf8_lossy(&up.stderr)
                .lines()
                .filter(|l| {
                    // (The "Testing : name" header is printed through two
                    // streams and comes out interleaved: left out.)
                    l.starts_with("// - Block")
                        || l.starts_with("// --- LiveIn")
                        || l.starts_with("// --- LiveOut")
                })
                .map(|l| format!("{l}\n"))
                .collect();
            let mut ctx = Context::new();
            let reg = Registry::new(&mut ctx);
            let parsed = parse_source(&mut ctx, &reg, "m.mlir", &text, 0, false).expect("parses");
            let mut got = String::new();
            let top = ctx.regions_of(parsed.module)[0];
            let body = ctx.entry_block(top).unwrap();
            for f in ctx.block_ops(body) {
                let name = ctx.symbol_name(f).unwrap_or("").to_string();
                got.push_str(&ours(&ctx, f, &name));
            }
            if got == expected {
                same += 1;
            } else {
                std::fs::write(file.with_extension("ours"), &got).ok();
                std::fs::write(file.with_extension("up"), &expected).ok();
                different.push(file.display().to_string());
            }
        }
    }
    eprintln!(
        "liveness: {same} modules identical ({} functions), {} different",
        same * 25,
        different.len()
    );
    assert!(
        different.is_empty(),
        "differ (kept):\n{}",
        different.join("\n")
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Every value's `ValueLiveness` against the whole analysis, on every
/// block of its defining region and the regions nested in it; returns the
/// values checked.
fn check_value_liveness(ctx: &Context, top: Op, what: &str, failures: &mut Vec<String>) -> usize {
    let live = Liveness::new(ctx, top);
    let mut blocks = vec![];
    blocks_preorder(ctx, top, &mut blocks);
    let mut values = vec![];
    for &b in &blocks {
        values.extend_from_slice(ctx.block_args(b));
        for o in ctx.block_ops_iter(b) {
            values.extend_from_slice(ctx.results(o));
        }
    }
    let mut one = ValueLiveness::new();
    for &v in &values {
        one.compute(ctx, v);
        let def_region = ctx.value_block(v).and_then(|b| ctx.parent_region(b));
        for &b in &blocks {
            // (Around the defining region MLIR reports block arguments
            // live too: see `ValueLiveness`.)
            if def_region.is_none_or(|r| ctx.ancestor_block_in_region(r, b).is_none()) {
                continue;
            }
            let whole = live.block(b).expect("every block analysed");
            if whole.is_live_in(v) != one.is_live_in(b)
                || whole.is_live_out(v) != one.is_live_out(b)
            {
                failures.push(format!("{what}: value {v:?} at block {b:?}"));
                return values.len();
            }
        }
        let mut ins = one.live_in_blocks().to_vec();
        ins.sort();
        ins.dedup();
        assert_eq!(ins.len(), one.live_in_blocks().len(), "blocks listed once");
    }
    values.len()
}

#[test]
fn value_liveness_is_the_whole_analysis_for_one_value() {
    let mut failures = vec![];
    let mut checked = 0;
    let mut rng = Rng(0x5555_6666_7777_8888);
    let mut texts = vec![];
    for _ in 0..8 {
        texts.push((
            "generated".to_string(),
            module(&mut rng, Shape::new(14), 25),
        ));
    }
    // Our test files (lowered async code: coroutines with many blocks).
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![];
    support::collect(&root.join("tests"), &mut files);
    for f in files {
        if let Ok(t) = std::fs::read_to_string(&f) {
            texts.push((f.display().to_string(), t));
        }
    }
    let mut parsed_files = 0;
    for (what, text) in &texts {
        let mut ctx = Context::new();
        let reg = Registry::new(&mut ctx);
        let Ok(parsed) = parse_source(&mut ctx, &reg, "m.mlir", text, 0, true) else {
            continue;
        };
        parsed_files += 1;
        checked += check_value_liveness(&ctx, parsed.module, what, &mut failures);
    }
    eprintln!(
        "value liveness: {parsed_files} modules, {checked} values, {} different",
        failures.len()
    );
    assert!(parsed_files > 20, "only {parsed_files} modules parsed");
    assert!(failures.is_empty(), "differ:\n{}", failures.join("\n"));
}
