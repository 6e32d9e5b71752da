//! Affine maps against `mlir-opt-14`: random map texts, parsed and printed
//! by `mlir_async_ir::affine`, must come out as upstream prints them (with
//! `--mlir-print-local-scope`, which prints maps inline). Skips when the
//! tool is missing. `AFFINE_MAPS=N` for a longer run (default 400).

mod support;

use mlir_async_ir::affine::parse_map;
use std::process::Command;
use support::{have, Rng};

/// A random affine expression text over `d0..d2` and `s0..s1`: products
/// and divisions keep one side a constant or a symbol, so upstream
/// accepts it.
fn expr(rng: &mut Rng, depth: u32) -> String {
    let leaf = |rng: &mut Rng| -> String {
        match rng.below(4) {
            0 => format!("d{}", rng.below(3)),
            1 => format!("s{}", rng.below(2)),
            2 => format!("{}", rng.below(9)),
            _ => format!("d{}", rng.below(2)),
        }
    };
    let symbolic = |rng: &mut Rng| -> String {
        match rng.below(3) {
            0 => format!("s{}", rng.below(2)),
            _ => format!("{}", 1 + rng.below(8)),
        }
    };
    if depth == 0 {
        return leaf(rng);
    }
    match rng.below(9) {
        0 | 1 => format!("{} + {}", expr(rng, depth - 1), expr(rng, depth - 1)),
        2 => format!("{} - {}", expr(rng, depth - 1), expr(rng, depth - 1)),
        3 => format!("({}) * {}", expr(rng, depth - 1), symbolic(rng)),
        4 => format!("{} * ({})", symbolic(rng), expr(rng, depth - 1)),
        5 => format!("({}) floordiv {}", expr(rng, depth - 1), symbolic(rng)),
        6 => format!("({}) ceildiv {}", expr(rng, depth - 1), symbolic(rng)),
        7 => format!("({}) mod {}", expr(rng, depth - 1), symbolic(rng)),
        _ => format!("-({})", expr(rng, depth - 1)),
    }
}

#[test]
fn maps_print_as_upstream() {
    if !have("mlir-opt-14") {
        eprintln!("skipped: needs mlir-opt-14");
        return;
    }
    let n: usize = std::env::var("AFFINE_MAPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let mut rng = Rng(0xaff1_0e5e_ed00_0001);
    let bodies: Vec<String> = (0..n)
        .map(|_| {
            let k = 1 + rng.below(3);
            let results: Vec<String> = (0..k)
                .map(|_| {
                    let depth = 1 + rng.below(3) as u32;
                    expr(&mut rng, depth)
                })
                .collect();
            format!("(d0, d1, d2)[s0, s1] -> ({})", results.join(", "))
        })
        .collect();
    let text: String = bodies
        .iter()
        .enumerate()
        .map(|(i, b)| format!("func @f{i}() attributes {{m = affine_map<{b}>}} {{\n  return\n}}\n"))
        .collect();
    let file = std::env::temp_dir().join(format!("mlir-async-affine-{}.mlir", std::process::id()));
    std::fs::write(&file, &text).expect("write");
    let up = Command::new("mlir-opt-14")
        .arg(&file)
        .arg("--mlir-print-local-scope")
        .output()
        .expect("run upstream");
    assert!(
        up.status.success(),
        "upstream rejected: {}",
        String::from_utf8_lossy(&up.stderr)
    );
    let out = String::from_utf8_lossy(&up.stdout);
    let printed: Vec<&str> = out
        .lines()
        .filter_map(|l| {
            let s = l.find("{m = affine_map<")? + "{m = affine_map<".len();
            let e = l.rfind(">} {")?;
            Some(&l[s..e])
        })
        .collect();
    assert_eq!(printed.len(), bodies.len(), "one map per function");
    let mut different = vec![];
    for (b, want) in bodies.iter().zip(&printed) {
        let got = parse_map(b)
            .map(|m| m.to_string())
            .unwrap_or_else(|e| e.message);
        if got != *want {
            different.push(format!("{b}\n  upstream: {want}\n  ours:     {got}"));
        }
    }
    let _ = std::fs::remove_file(&file);
    eprintln!(
        "affine maps: {} identical, {} different",
        bodies.len() - different.len(),
        different.len()
    );
    assert!(
        different.is_empty(),
        "differ:\n{}",
        different[..different.len().min(10)].join("\n")
    );
}
