//! The generic passes (`-canonicalize`, ...) against `mlir-opt-14` and
//! `mlir-opt-15` on random functions (`support::gen`): byte-identical
//! output. Skips, saying why, when the upstream tools are missing.
//! `GENERIC_MODULES=N` runs N modules of 25 functions per edition and pass
//! (default 4); `GENERIC_KEEP=1` keeps the generated modules.

mod support;

use std::process::Command;
use support::gen::{module, Shape};
use support::{have, Rng};

/// Runs `passes[0]` (on 14) and `passes[1]` (on 15) over generated
/// modules; returns (identical modules with output, different files).
/// A module upstream does not finish within a minute (upstream's
/// canonicalizer loops forever on some cycles of forwarding blocks) is
/// counted apart; ours must still finish on it.
fn differential(
    passes: [&[&str]; 2],
    shape_of: fn(u32) -> Shape,
    seed: u64,
) -> (usize, Vec<String>) {
    let pass = passes[1];
    let tmp = std::env::temp_dir().join(format!(
        // The seed tells apart tests of one pass running side by side.
        "mlir-async-generic-{}-{seed:x}-{}",
        pass.join("").trim_start_matches('-'),
        std::process::id()
    ));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let modules: usize = std::env::var("GENERIC_MODULES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let mut rng = Rng(seed);
    let (mut same, mut different, mut upstream_hangs) = (0, vec![], 0);
    // Per edition (14, 15): identical, different, upstream did not finish,
    // identical by both rejecting the module.
    let mut per = [[0usize; 4]; 2];
    for m in 0..modules {
        for (edition, pass) in [14, 15].into_iter().zip(passes) {
            let text = module(&mut rng, shape_of(edition), 25);
            let file = tmp.join(format!("m{m}-{edition}.mlir"));
            std::fs::write(&file, text).expect("write");
            let up = Command::new("timeout")
                .arg("60")
                .arg(format!("mlir-opt-{edition}"))
                .arg(&file)
                .args(pass)
                .output()
                .expect("run upstream");
            let ours = Command::new(env!("CARGO_BIN_EXE_mlir-async-opt"))
                .arg(&file)
                .args(pass)
                .output()
                .expect("run ours");
            let e = usize::from(edition == 15);
            if up.status.code() == Some(124) {
                upstream_hangs += 1;
                per[e][2] += 1;
                assert!(
                    ours.status.success(),
                    "ours failed where upstream hangs: {}",
                    file.display()
                );
                continue;
            }
            // Where upstream rejects a module (a conversion meets
            // unreachable blocks), ours must reject it with one of its
            // messages: a function pass of mlir-opt-14 reports the failures
            // of the functions its threads reached, in no fixed order; ours
            // stops at the first, as a sequential pass manager does.
            let same_output = if up.status.success() {
                ours.status.success() && ours.stdout == up.stdout
            } else {
                let (u, o) = (
                    String::from_utf8_lossy(&up.stderr),
                    String::from_utf8_lossy(&ours.stderr),
                );
                !ours.status.success() && !o.is_empty() && u.contains(&*o)
            };
            if same_output {
                same += 1;
                per[e][0] += 1;
                per[e][3] += usize::from(!up.status.success());
            } else {
                // Kept beside the input for whoever investigates.
                let _ = std::fs::write(file.with_extension("upstream.out"), &up.stdout);
                let _ = std::fs::write(file.with_extension("upstream.err"), &up.stderr);
                let _ = std::fs::write(file.with_extension("ours.out"), &ours.stdout);
                let _ = std::fs::write(file.with_extension("ours.err"), &ours.stderr);
                different.push(file.display().to_string());
                per[e][1] += 1;
            }
        }
    }
    let name = if passes[0] == passes[1] {
        pass.join(" ")
    } else {
        format!("{} / {}", passes[0].join(" "), pass.join(" "))
    };
    eprintln!(
        "{name}: {same} modules identical ({} functions), {} different, {upstream_hangs} where upstream did not finish",
        same * 25,
        different.len()
    );
    for (e, [s, d, h, r]) in [14, 15].iter().zip(per) {
        eprintln!(
            "  {e}: {s} identical ({r} of them rejected by both), {d} different, {h} where upstream did not finish"
        );
    }
    // `GENERIC_KEEP=1` keeps the generated modules to read.
    if different.is_empty() && std::env::var_os("GENERIC_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    // Identical by both rejecting compares no output.
    let compared = per.iter().map(|[s, _, _, r]| s - r).sum();
    (compared, different)
}

fn check(pass: &[&str], shape_of: fn(u32) -> Shape, seed: u64) {
    check_per_edition([pass, pass], shape_of, seed);
}

/// [`check`] with one pass for 14 and another for 15 (a pass renamed
/// between them).
fn check_per_edition(passes: [&[&str]; 2], shape_of: fn(u32) -> Shape, seed: u64) {
    if !have("mlir-opt-14") || !have("mlir-opt-15") {
        eprintln!("skipped: needs mlir-opt-14 and mlir-opt-15");
        return;
    }
    let (compared, different) = differential(passes, shape_of, seed);
    assert!(
        different.is_empty(),
        "differ from upstream (kept):\n{}",
        different.join("\n")
    );
    // A shape both tools reject in every module would pass while
    // comparing nothing.
    assert!(
        compared > 0,
        "every module was rejected by both tools: the shape tests nothing"
    );
}

#[test]
fn canonicalize_matches_upstream() {
    check(&["-canonicalize"], Shape::new, 0x00c0_ffee_0001);
}

#[test]
fn cse_matches_upstream() {
    check(&["-cse"], Shape::new, 0x00c0_ffee_0002);
}

#[test]
fn symbol_dce_matches_upstream() {
    check(
        &["-symbol-dce"],
        |e| Shape {
            private_funcs: true,
            ..Shape::new(e)
        },
        0x00c0_ffee_0003,
    );
}

/// Each generic pass on every file of the upstream corpus of LLVM 14 and
/// 15 (run from `../shared`, never copied), where that generation's
/// `mlir-opt` accepts the file: the same output.
#[test]
fn corpus_matches_upstream() {
    if !have("mlir-opt-14") || !have("mlir-opt-15") {
        eprintln!("skipped: needs mlir-opt-14 and mlir-opt-15");
        return;
    }
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/upstream-tests");
    let (mut same, mut different, mut upstream_rejects) = (0, vec![], 0);
    for (edition, dir, scf) in [
        (14, "llvm14", "-convert-scf-to-std"),
        (15, "llvm15", "-convert-scf-to-cf"),
    ] {
        let mut files = vec![];
        support::collect(&root.join(dir), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let split = text.lines().any(|l| l.starts_with("// -----"));
            for pass in ["-canonicalize", "-cse", "-symbol-dce", scf] {
                let mut args = vec![file.display().to_string(), pass.to_string()];
                if split {
                    args.push("-split-input-file".into());
                }
                let up = Command::new("timeout")
                    .arg("60")
                    .arg(format!("mlir-opt-{edition}"))
                    .args(&args)
                    .output()
                    .expect("run upstream");
                if !up.status.success() {
                    upstream_rejects += 1;
                    continue;
                }
                let ours = Command::new(env!("CARGO_BIN_EXE_mlir-async-opt"))
                    .args(&args)
                    .output()
                    .expect("run ours");
                if ours.status.success() && ours.stdout == up.stdout {
                    same += 1;
                } else {
                    different.push(format!("{pass} {}", file.display()));
                }
            }
        }
    }
    eprintln!(
        "corpus: {same} runs identical, {} different, {upstream_rejects} that upstream rejects",
        different.len()
    );
    assert!(
        different.is_empty(),
        "differ from upstream:\n{}",
        different.join("\n")
    );
}

/// Functions with `scf.if`, `scf.for` and `memref` buffers among the
/// blocks.
fn scf_shape(edition: u32) -> Shape {
    Shape {
        scf: true,
        memref: true,
        ..Shape::new(edition)
    }
}

#[test]
fn canonicalize_scf_matches_upstream() {
    check(&["-canonicalize"], scf_shape, 0x00c0_ffee_0004);
}

#[test]
fn cse_scf_matches_upstream() {
    check(&["-cse"], scf_shape, 0x00c0_ffee_0005);
}

/// Functions with the ops `-arith-expand` rewrites, in `scf` regions too.
fn expandable_shape(edition: u32) -> Shape {
    Shape {
        expandable: true,
        scf: true,
        ..Shape::new(edition)
    }
}

/// [`expandable_shape`] with no unreachable block: a conversion rejects
/// a function with one, and a module of 25 functions would nearly always
/// hold one.
fn expandable_reachable_shape(edition: u32) -> Shape {
    Shape {
        reachable_only: true,
        ..expandable_shape(edition)
    }
}

/// The dialect-conversion driver on a real pass: expansions, fold-first
/// legalization of constant operands, nested regions.
#[test]
fn arith_expand_matches_upstream() {
    check(
        &["-arith-expand"],
        expandable_reachable_shape,
        0x00c0_ffee_0007,
    );
}

/// The folders of the expandable ops, through the canonicalizer.
#[test]
fn canonicalize_expandable_matches_upstream() {
    check(&["-canonicalize"], expandable_shape, 0x00c0_ffee_0008);
}

/// Modules whose functions call each other and small helpers (in `scf`
/// regions too), private and public: the inliner copies the callees,
/// moves a private one into its last caller, erases the private ones left
/// unused, and canonicalizes every function before and after.
fn inline_shape(edition: u32) -> Shape {
    Shape {
        helpers: true,
        scf: true,
        memref: true,
        ..Shape::new(edition)
    }
}

/// `-inline`. Measured at `GENERIC_MODULES=40` (25 functions and 3
/// helpers a module): 14: 38 modules identical, 0 different, 2 where
/// upstream's canonicalizer did not finish; 15: 39 identical, 0 different,
/// 1 where upstream did not finish (1925 functions identical in all).
#[test]
fn inline_matches_upstream() {
    check(&["-inline"], inline_shape, 0x00c0_ffee_0009);
}

/// Functions with `scf.if`, `scf.for` and buffers, and no unreachable
/// block (the conversion rejects a function with one).
fn scf_lowering_shape(edition: u32) -> Shape {
    Shape {
        scf: true,
        memref: true,
        reachable_only: true,
        ..Shape::new(edition)
    }
}

/// `-convert-scf-to-std` (14) and `-convert-scf-to-cf` (15). Measured at
/// `GENERIC_MODULES=40`: 40 modules (1000 functions) identical per
/// edition, 0 different, none rejected.
#[test]
fn scf_lowering_matches_upstream() {
    check_per_edition(
        [&["-convert-scf-to-std"], &["-convert-scf-to-cf"]],
        scf_lowering_shape,
        0x00c0_ffee_000a,
    );
}
