//! `-async-to-async-runtime` run in parts (`--mlir-shards=N`) must print
//! what the whole-module run prints, byte for byte, and fail as it fails
//! (same diagnostics, same exit code): on every `.mlir` file of our tests
//! and, when `../shared` is on the machine, of the upstream corpus and of
//! generated modules. Each file is run whole, without
//! `-split-input-file`, so files holding several test cases exercise the
//! fallbacks (duplicate symbols, errors) as well as the sharded path.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(file: &Path, pass: &str, shards: usize) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mlir-async-opt"))
        .arg(file)
        .arg(pass)
        .arg(format!("--mlir-shards={shards}"))
        .output()
        .expect("run mlir-async-opt")
}

/// Compares the parts runs with the whole run; returns how many ran in
/// parts (no "runs whole" note).
fn check(file: &Path, failures: &mut Vec<String>) -> usize {
    let mut sharded = 0;
    for pass in [
        "-async-to-async-runtime",
        "-async-to-async-runtime=eliminate-blocking-await-ops=true",
    ] {
        let whole = run(file, pass, 1);
        for n in [2, 3, 5] {
            let parts = run(file, pass, n);
            let stderr = String::from_utf8_lossy(&parts.stderr);
            // The note saying why the module runs whole comes first.
            let note_len = match stderr.strip_prefix("mlir-async-opt: note: --mlir-shards:") {
                Some(rest) => stderr.len() - rest.len() + rest.find('\n').map_or(0, |i| i + 1),
                None => {
                    sharded += 1;
                    0
                }
            };
            if parts.stdout != whole.stdout
                || parts.stderr[note_len..] != whole.stderr[..]
                || parts.status.code() != whole.status.code()
            {
                failures.push(format!("{} {pass} --mlir-shards={n}", file.display()));
            }
        }
    }
    sharded
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "mlir") {
            out.push(p);
        }
    }
}

#[test]
fn parts_print_what_the_whole_module_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shared = root.join("../shared");
    let mut files = vec![];
    collect(&root.join("tests"), &mut files);
    collect(&root.join("examples"), &mut files);
    for gen in ["13", "14", "15"] {
        collect(
            &shared.join(format!("upstream-tests/llvm{gen}/mlir/test/Dialect/Async")),
            &mut files,
        );
        collect(
            &shared.join(format!(
                "upstream-tests/llvm{gen}/mlir/test/Conversion/AsyncToLLVM"
            )),
            &mut files,
        );
    }
    let tmp = std::env::temp_dir().join(format!("mlir-async-shards-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let gen_py = shared.join("bench/gen_async_module.py");
    for (syntax, seed, funcs) in [("14", 7, 12), ("15", 8, 12), ("14", 9, 30), ("15", 10, 30)] {
        let file = tmp.join(format!("m{syntax}-{seed}.mlir"));
        let ok = Command::new("python3")
            .arg(&gen_py)
            .args(["--syntax", syntax, "--seed", &seed.to_string()])
            .args(["--funcs", &funcs.to_string(), "-o"])
            .arg(&file)
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            files.push(file);
        }
    }
    let mut failures = vec![];
    let mut sharded = 0;
    for f in &files {
        sharded += check(f, &mut failures);
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "{} files, {sharded} runs in parts, {} different",
        files.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "parts differ from the whole:\n{}",
        failures.join("\n")
    );
    // Our own lowering tests alone hold modules that split.
    assert!(sharded >= 6, "only {sharded} runs went in parts");
}
