//! Our reference counting on real programs: generated programs with a
//! `main` (`../shared/bench/gen_async_module.py --main`), lowered by our
//! `async-to-async-runtime` (with and without
//! `eliminate-blocking-await-ops`) and our ref-counting passes, finished by
//! `mlir-opt-14` and run by `mlir-cpu-runner-14` on our runtime in its
//! checked mode (`MLIR_ASYNC_RUNTIME_CHECKED=1`: a drop below zero, a use
//! after free or a leak at exit fails the run). Each must print what the
//! same program prints lowered without reference counting (which frees
//! nothing, so frees nothing early). Skips when the LLVM 14 tools, their
//! runner libraries or the generator are missing. `REFCOUNT_PROGRAMS=N`
//! (default 2 per option), `REFCOUNT_FIRST_SEED=K` (default 1).

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::have;

const LLVM_LIB: &str = "/usr/lib/llvm-14/lib";
const FINISH: &[&str] = &[
    "-convert-async-to-llvm",
    "-convert-scf-to-std",
    "-convert-memref-to-llvm",
    "-convert-arith-to-llvm",
    "-convert-std-to-llvm",
    "-reconcile-unrealized-casts",
];

/// The runtime library cargo built beside the tools.
fn runtime_library() -> Option<PathBuf> {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_mlir-async-opt"));
    let p = exe.parent()?.join("libmlir_async_runtime.so");
    p.exists().then_some(p)
}

/// Lowers `src` with our passes `ours`, then upstream's finish; runs it.
/// Returns (exit code, stdout, stderr).
fn lower_and_run(
    src: &Path,
    ours: &[&str],
    tag: &str,
    lib: &Path,
    checked: bool,
) -> (Option<i32>, String, String) {
    let mid = src.with_extension(format!("{tag}.mid.mlir"));
    let ll = src.with_extension(format!("{tag}.ll.mlir"));
    let st = Command::new(env!("CARGO_BIN_EXE_mlir-async-opt"))
        .arg(src)
        .args(ours)
        .arg("-o")
        .arg(&mid)
        .status()
        .expect("run ours");
    assert!(st.success(), "our lowering failed on {}", src.display());
    let st = Command::new("mlir-opt-14")
        .arg(&mid)
        .args(FINISH)
        .arg("-o")
        .arg(&ll)
        .status()
        .expect("run mlir-opt-14");
    assert!(st.success(), "mlir-opt-14 failed on {}", mid.display());
    let libs = format!(
        "{LLVM_LIB}/libmlir_c_runner_utils.so,{LLVM_LIB}/libmlir_runner_utils.so,{}",
        lib.display()
    );
    let out = Command::new("timeout")
        .arg("120")
        .arg("mlir-cpu-runner-14")
        .arg(&ll)
        .args(["-e", "main", "-entry-point-result=void", "-O3"])
        .arg(format!("-shared-libs={libs}"))
        .env(
            "MLIR_ASYNC_RUNTIME_CHECKED",
            if checked { "1" } else { "0" },
        )
        .output()
        .expect("run mlir-cpu-runner-14");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn ref_counted_programs_run_clean_in_checked_mode() {
    let gen_py =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench/gen_async_module.py");
    let lib = runtime_library();
    if !have("mlir-opt-14")
        || !have("mlir-cpu-runner-14")
        || !Path::new(LLVM_LIB)
            .join("libmlir_c_runner_utils.so")
            .exists()
        || !gen_py.exists()
        || lib.is_none()
    {
        eprintln!("skipped: needs mlir-opt-14, mlir-cpu-runner-14 with its runner libraries, the generator and our runtime library");
        return;
    }
    let lib = lib.expect("checked above");
    let n: u32 = std::env::var("REFCOUNT_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let tmp = std::env::temp_dir().join(format!("mlir-async-rc-run-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let (mut clean, mut bad) = (0, vec![]);
    // `REFCOUNT_FIRST_SEED=K` starts at seed K (a large run in parts).
    let first: u32 = std::env::var("REFCOUNT_FIRST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    for seed in first..first + n {
        let src = tmp.join(format!("p{seed}.mlir"));
        let ok = Command::new("python3")
            .arg(&gen_py)
            .args([
                "--syntax",
                "14",
                "--seed",
                &seed.to_string(),
                "--funcs",
                &(2 + seed % 5).to_string(),
                "--main",
                "-o",
            ])
            .arg(&src)
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        assert!(ok, "generator failed for seed {seed}");
        let eliminate = "-async-to-async-runtime=eliminate-blocking-await-ops=true";
        for (tag, lower, rc_pass) in [
            (
                "d",
                "-async-to-async-runtime",
                "-async-runtime-ref-counting",
            ),
            ("e", eliminate, "-async-runtime-ref-counting"),
            // The cleanup ladders instead of a block per error edge.
            (
                "l",
                eliminate,
                "-async-runtime-ref-counting=linear-cleanup=true",
            ),
        ] {
            let base = lower_and_run(&src, &[lower], &format!("{tag}base"), &lib, false);
            assert_eq!(base.0, Some(0), "baseline run failed: {}", base.2);
            let rc = lower_and_run(
                &src,
                &[lower, rc_pass, "-async-runtime-ref-counting-opt"],
                &format!("{tag}rc"),
                &lib,
                true,
            );
            if rc.0 == Some(0) && rc.1 == base.1 {
                clean += 1;
            } else {
                bad.push(format!(
                    "seed {seed} {lower} {rc_pass}: status {:?}\n{}",
                    rc.0, rc.2
                ));
            }
        }
    }
    eprintln!(
        "ref counting on the checked runtime: {clean} programs clean, {} not",
        bad.len()
    );
    if bad.is_empty() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
