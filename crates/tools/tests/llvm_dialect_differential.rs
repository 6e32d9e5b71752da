//! The LLVM dialect against each generation's `mlir-opt`: every RUN
//! pipeline of the runner, integration and AsyncToLLVM tests is run by
//! `mlir-opt-13/14/15`, and its LLVM-dialect output (with the AsyncToLLVM
//! inputs) must print the same through ours, in custom and generic form
//! and read back from upstream's generic form
//! (`scripts/llvm-dialect-corpus.py`). Skips (and says why) when python3,
//! the upstream tools or the shared corpus are missing.

mod support;

use std::path::Path;
use std::process::Command;
use support::have;

#[test]
fn llvm_dialect_prints_as_each_generation() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let corpus = root.join("../shared/upstream-tests");
    if !have("python3") || !have("mlir-opt-14") || !corpus.is_dir() {
        eprintln!("skipped: needs python3, mlir-opt-14 and ../shared/upstream-tests");
        return;
    }
    let out = std::env::temp_dir().join(format!("mlir-async-llvm-corpus-{}", std::process::id()));
    let run = Command::new("python3")
        .arg(root.join("scripts/llvm-dialect-corpus.py"))
        .args(["--ours", env!("CARGO_BIN_EXE_mlir-async-opt")])
        .arg("--corpus")
        .arg(&corpus)
        .arg("--out")
        .arg(&out)
        .arg("-v")
        .output()
        .expect("run the corpus script");
    let _ = std::fs::remove_dir_all(&out);
    let text = String::from_utf8_lossy(&run.stdout);
    eprintln!("{}", text.lines().last().unwrap_or(""));
    assert!(
        run.status.success(),
        "differences from upstream:\n{text}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        text.contains("identical: ") && !text.contains("identical: 0,"),
        "nothing compared:\n{text}"
    );
}
