//! Real lowered programs whose `main` returns while tasks it never awaited
//! are still queued or running, run by `mlir-cpu-runner-14` on this crate's
//! `libmlir_async_runtime.so`. The runner frees the JIT-compiled code right
//! after `main` returns, so these crashed (SIGSEGV) until the library
//! exported `__mlir_runner_destroy`. A few runs each here;
//! `bench/runtime/exit-stress.sh` repeats them by the thousand. Skipped, with
//! a message, when the LLVM 14 tools are not installed.

use std::path::{Path, PathBuf};
use std::process::Command;

const LLVM_LIB: &str = "/usr/lib/llvm-14/lib";
const PIPELINE: &[&str] = &[
    "-async-to-async-runtime",
    "-async-runtime-ref-counting",
    "-async-runtime-ref-counting-opt",
    "-convert-async-to-llvm",
    "-convert-scf-to-std",
    "-convert-memref-to-llvm",
    "-convert-arith-to-llvm",
    "-convert-std-to-llvm",
    "-reconcile-unrealized-casts",
];
const RUNS: usize = 8;

fn tools_present() -> bool {
    let ok = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    ok("mlir-opt-14")
        && ok("mlir-cpu-runner-14")
        && Path::new(LLVM_LIB)
            .join("libmlir_c_runner_utils.so")
            .exists()
}

/// The cdylib cargo built next to this test binary (`target/<profile>/`).
fn our_library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    for dir in [deps, deps.parent().unwrap()] {
        let p = dir.join("libmlir_async_runtime.so");
        if p.exists() {
            return p;
        }
    }
    panic!(
        "libmlir_async_runtime.so not found next to {}",
        exe.display()
    );
}

fn lower(program: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(program);
    let out = std::env::temp_dir().join(format!(
        "mlir-async-runtime-{}-{program}.ll.mlir",
        std::process::id()
    ));
    let st = Command::new("mlir-opt-14")
        .arg(&src)
        .args(PIPELINE)
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap();
    assert!(st.success(), "mlir-opt-14 failed on {program}");
    out
}

/// Runs the lowered program `RUNS` times; returns each run's exit code (None
/// for a signal) and stdout.
fn run(lowered: &Path) -> Vec<(Option<i32>, String)> {
    let lib = our_library();
    let libs = format!(
        "{LLVM_LIB}/libmlir_c_runner_utils.so,{LLVM_LIB}/libmlir_runner_utils.so,{}",
        lib.display()
    );
    (0..RUNS)
        .map(|_| {
            let o = Command::new("mlir-cpu-runner-14")
                .arg(lowered)
                .args(["-e", "main", "-entry-point-result=void", "-O3"])
                .arg(format!("-shared-libs={libs}"))
                .output()
                .unwrap();
            (o.status.code(), String::from_utf8_lossy(&o.stdout).into())
        })
        .collect()
}

#[test]
fn main_returning_with_queued_tasks_exits_cleanly() {
    if !tools_present() {
        eprintln!("skipped: mlir-opt-14 / mlir-cpu-runner-14 not installed");
        return;
    }
    let lowered = lower("exit_queued.mlir");
    let runs = run(&lowered);
    let _ = std::fs::remove_file(&lowered);
    let failed: Vec<_> = runs.iter().filter(|(code, _)| *code != Some(0)).collect();
    assert!(failed.is_empty(), "runs that failed: {failed:?}");
}

#[test]
fn main_returning_with_a_running_task_waits_for_it() {
    if !tools_present() {
        eprintln!("skipped: mlir-opt-14 / mlir-cpu-runner-14 not installed");
        return;
    }
    let lowered = lower("exit_running.mlir");
    let runs = run(&lowered);
    let _ = std::fs::remove_file(&lowered);
    for (code, out) in &runs {
        assert_eq!(*code, Some(0), "stdout: {out}");
        // `main`'s line and the task's line: the task ran to its end.
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            ["-6331144384443599054", "2737239331662092611"],
        );
    }
}
