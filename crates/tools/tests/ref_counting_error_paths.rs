//! Reference counting on a coroutine's error paths, run with our tools
//! only: `data/ref-counting-error-paths.mlir` has a coroutine (under
//! `eliminate-blocking-await-ops`) whose awaited tasks fail, one at each
//! suspension point in turn, with tokens and values live across them.
//! Lowered with `-async-runtime-ref-counting` (upstream's blocks per error
//! edge) and with `linear-cleanup=true` (one ladder per successor, see
//! `crates/passes/src/cleanup_ladder.rs`), run by `mlir-async-run` on the
//! checked runtime: both must print the same errors and neither may leak
//! or free early. A copy with one of the ladder's drops removed must fail
//! the checked run (the check can tell).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const LOWER: &[&str] = &[
    "-convert-async-to-llvm",
    "-convert-scf-to-cf",
    "-convert-arith-to-llvm",
    "-convert-func-to-llvm",
    "-reconcile-unrealized-casts",
];

fn opt(args: &[&str], input: &Path, out: &Path) {
    let st = Command::new(env!("CARGO_BIN_EXE_mlir-async-opt"))
        .arg(input)
        .args(args)
        .arg("-o")
        .arg(out)
        .status()
        .expect("run mlir-async-opt");
    assert!(
        st.success(),
        "mlir-async-opt {args:?} failed on {}",
        input.display()
    );
}

fn run_checked(ll: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mlir-async-run"))
        .arg(ll)
        .args(["-e", "main", "-entry-point-result=void"])
        .env("MLIR_ASYNC_RUNTIME_CHECKED", "1")
        .output()
        .expect("run mlir-async-run")
}

fn tmp(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "mlir-async-rc-errors-{test}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ref-counting-error-paths.mlir")
}

/// `k` = 0..3 fail (tasks 0, 2, 4, 3 in the order the coroutine awaits
/// them), 4 succeeds.
const EXPECTED: &str = "1\n1\n1\n1\n0\n";

#[test]
fn error_paths_are_clean_with_and_without_the_ladder() {
    let dir = tmp("both");
    for (tag, rc) in [
        ("edge", "-async-runtime-ref-counting"),
        ("ladder", "-async-runtime-ref-counting=linear-cleanup=true"),
    ] {
        let mid = dir.join(format!("{tag}.mid.mlir"));
        let ll = dir.join(format!("{tag}.ll.mlir"));
        opt(
            &[
                "-async-to-async-runtime=eliminate-blocking-await-ops=true",
                rc,
                "-async-runtime-ref-counting-opt",
            ],
            &source(),
            &mid,
        );
        opt(LOWER, &mid, &ll);
        let out = run_checked(&ll);
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stdout).as_ref()
            ),
            (Some(0), EXPECTED),
            "{tag}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_drop_on_the_ladder_is_caught() {
    let dir = tmp("broken");
    let mid = dir.join("ladder.mid.mlir");
    opt(
        &[
            "-async-to-async-runtime=eliminate-blocking-await-ops=true",
            "-async-runtime-ref-counting=linear-cleanup=true",
            "-async-runtime-ref-counting-opt",
        ],
        &source(),
        &mid,
    );
    let text = std::fs::read_to_string(&mid).expect("read");
    // The ladder's guarded drops sit alone in their blocks, right after a
    // block header: drop the last one.
    let lines: Vec<&str> = text.lines().collect();
    let i = (1..lines.len())
        .rev()
        .find(|&i| {
            lines[i].contains("async.runtime.drop_ref")
                && lines[i - 1].trim_start().starts_with('^')
        })
        .expect("a ladder drop");
    let broken: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != i)
        .map(|(_, l)| *l)
        .collect();
    let src = dir.join("broken.mlir");
    std::fs::write(&src, broken.join("\n")).expect("write");
    let ll = dir.join("broken.ll.mlir");
    opt(LOWER, &src, &ll);
    let out = run_checked(&ll);
    assert_ne!(out.status.code(), Some(0), "the checked run missed a leak");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("leak"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
