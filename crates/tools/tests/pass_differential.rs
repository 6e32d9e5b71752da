//! Differential test of `async-to-async-runtime` against the upstream
//! `mlir-opt-14` / `mlir-opt-15`: on every corpus input and on 200 generated
//! modules (syntax 14 and 15, with and without
//! `eliminate-blocking-await-ops`, several sizes), wherever upstream
//! succeeds our output must be byte-identical. Skips (and says why) when
//! the upstream tools or the shared test data are not on the machine.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::{collect, have};

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

struct Tally {
    identical: usize,
    upstream_failed: usize,
    different: Vec<String>,
}

fn compare(tally: &mut Tally, upstream: &str, file: &Path, args: &[&str]) {
    let ours = env!("CARGO_BIN_EXE_mlir-async-opt");
    let up = Command::new(upstream)
        .arg(file)
        .args(args)
        .output()
        .expect("run upstream");
    if !up.status.success() {
        tally.upstream_failed += 1;
        return;
    }
    let me = Command::new(ours)
        .arg(file)
        .args(args)
        .output()
        .expect("run ours");
    if me.status.success() && me.stdout == up.stdout {
        tally.identical += 1;
    } else {
        tally.different.push(format!(
            "{} {}: {}",
            file.display(),
            args.join(" "),
            String::from_utf8_lossy(&me.stderr)
        ));
    }
}

#[test]
fn async_to_async_runtime_matches_upstream() {
    let root = shared();
    if !have("mlir-opt-14") || !have("mlir-opt-15") || !root.join("upstream-tests").is_dir() {
        eprintln!("skipped: needs mlir-opt-14, mlir-opt-15 and ../shared/upstream-tests");
        return;
    }
    let mut t = Tally {
        identical: 0,
        upstream_failed: 0,
        different: vec![],
    };
    let options = [
        "-async-to-async-runtime",
        "-async-to-async-runtime=eliminate-blocking-await-ops=true",
    ];
    for gen in ["14", "15"] {
        let upstream = format!("mlir-opt-{gen}");
        let dir = root.join(format!("upstream-tests/llvm{gen}/mlir/test"));
        let mut files = vec![];
        collect(&dir, &mut files);
        for f in &files {
            for o in options {
                compare(&mut t, &upstream, f, &["-split-input-file", o]);
            }
        }
    }
    let corpus = (t.identical, t.upstream_failed);
    let gen_py = root.join("bench/gen_async_module.py");
    let tmp = std::env::temp_dir().join(format!("mlir-async-pass-diff-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut generated = 0;
    for syntax in ["14", "15"] {
        for seed in 1..=50u32 {
            let file = tmp.join(format!("m{syntax}-{seed}.mlir"));
            let funcs = 1 + seed % 9;
            let ok = Command::new("python3")
                .arg(&gen_py)
                .args([
                    "--syntax",
                    syntax,
                    "--seed",
                    &seed.to_string(),
                    "--funcs",
                    &funcs.to_string(),
                    "-o",
                ])
                .arg(&file)
                .output()
                .map(|o| o.status.success())
                .unwrap_or(false);
            if !ok {
                continue;
            }
            for o in options {
                compare(&mut t, &format!("mlir-opt-{syntax}"), &file, &[o]);
                generated += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "corpus: {} identical, {} rejected by upstream; generated: {} runs; total identical {}, different {}",
        corpus.0,
        corpus.1,
        generated,
        t.identical,
        t.different.len()
    );
    assert!(
        generated >= 200 || !gen_py.exists(),
        "expected 200 generated runs, got {generated}"
    );
    assert!(
        t.different.is_empty(),
        "outputs differ from upstream:\n{}",
        t.different.join("\n")
    );
}
