//! `cargo test` runs every lit test under the repository's `tests/` folder
//! (`*.mlir`, and `*.txt` for FileCheck/lit's own tests), one test per file,
//! with this package's freshly built binaries standing in for `mlir-opt`,
//! `FileCheck` and `mlir-cpu-runner`.

use libtest_mimic::{Arguments, Failed, Trial};
use mlir_async_lit::{discover, run_test, Config, Verdict};
use std::path::{Path, PathBuf};

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    let tool_dir = Path::new(env!("CARGO_BIN_EXE_mlir-async-opt"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    // Make sure the binaries this harness relies on were built with it.
    let _ = env!("CARGO_BIN_EXE_mlir-async-filecheck");
    let _ = env!("CARGO_BIN_EXE_mlir-async-run");
    let mut cfg = Config::new(tool_dir);
    cfg.suffixes = vec!["mlir".into(), "txt".into()];
    cfg.tmp_dir = std::env::temp_dir().join(format!("mlir-async-cargo-lit-{}", std::process::id()));
    let tests = discover(std::slice::from_ref(&root), &cfg.suffixes);
    let trials = tests
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .display()
                .to_string();
            let cfg = cfg.clone();
            Trial::test(name, move || {
                let r = run_test(&path, &cfg);
                match r.verdict {
                    Verdict::Pass | Verdict::XFail => Ok(()),
                    Verdict::Unsupported => {
                        println!("unsupported: {}", r.reason);
                        Ok(())
                    }
                    Verdict::Fail => Err(Failed::from(format!("{}\n{}", r.reason, r.log))),
                    Verdict::XPass => Err(Failed::from("XFAIL test passed unexpectedly")),
                }
            })
        })
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    let _ = std::fs::remove_dir_all(&cfg.tmp_dir);
    conclusion.exit();
}
