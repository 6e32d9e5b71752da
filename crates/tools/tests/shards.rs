//! `-async-to-async-runtime`, alone or followed by the reference-counting
//! passes, `-async-parallel-for`, and no pass at all (a module read,
//! verified and printed back), run in parts (`--mlir-shards=N`) must
//! print
//! what the whole-module run prints, byte for byte, and fail as it fails
//! (same diagnostics, same exit code): on every `.mlir` file of our tests
//! and, when `../shared` is on the machine, of the upstream corpus and of
//! generated modules. Each file is run whole, without
//! `-split-input-file`, so files holding several test cases exercise the
//! fallbacks (duplicate symbols, errors) as well as the sharded path.

mod support;

use std::path::Path;
use std::process::{Command, Output};
use support::{collect, Rng};

fn run(file: &Path, passes: &[&str], shards: usize) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mlir-async-opt"))
        .arg(file)
        .args(passes)
        .arg(format!("--mlir-shards={shards}"))
        .output()
        .expect("run mlir-async-opt")
}

/// Compares the parts runs with the whole run; returns how many ran in
/// parts (no "runs whole" note).
fn check(file: &Path, failures: &mut Vec<String>) -> usize {
    let mut sharded = 0;
    const A2AR: &str = "-async-to-async-runtime";
    const ELIMINATE: &str = "-async-to-async-runtime=eliminate-blocking-await-ops=true";
    const RC: &str = "-async-runtime-ref-counting";
    const RC_OPT: &str = "-async-runtime-ref-counting-opt";
    const POLICY: &str = "-async-runtime-policy-based-ref-counting";
    const PF: &str = "-async-parallel-for";
    const PF_LOOP: &str = "-async-parallel-for=async-dispatch=false";
    const PF_RUNTIME: &str = "-async-parallel-for=num-workers=-1";
    for passes in [
        &[][..],
        &[PF],
        &[PF_LOOP],
        &[PF_RUNTIME],
        &[A2AR],
        &[ELIMINATE],
        &[A2AR, RC, RC_OPT],
        &[ELIMINATE, RC, RC_OPT],
        &[ELIMINATE, RC],
        &[A2AR, POLICY],
    ] {
        let whole = run(file, passes, 1);
        for n in [2, 3, 5] {
            let parts = run(file, passes, n);
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
                failures.push(format!(
                    "{} {} --mlir-shards={n}",
                    file.display(),
                    passes.join(" ")
                ));
            }
        }
    }
    sharded
}

/// A module with one line changed: dropped, doubled, swapped with
/// another, or with a byte replaced. Most mutants are invalid (the
/// parts then must fail exactly as the whole does); some still lower.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let i = rng.below(lines.len());
    match rng.below(4) {
        0 => {
            lines.remove(i);
        }
        1 => lines.insert(i, lines[i].clone()),
        2 => {
            let j = rng.below(lines.len());
            lines.swap(i, j);
        }
        _ => {
            let line = &mut lines[i];
            if !line.is_empty() {
                let at = rng.below(line.len());
                if line.is_char_boundary(at) && line.is_char_boundary(at + 1) {
                    let bytes = b"{}()%@:,=<>\"x0 \n";
                    let b = bytes[rng.below(bytes.len())] as char;
                    line.replace_range(at..at + 1, &b.to_string());
                }
            }
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn mutated_modules_fail_or_lower_alike_in_parts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let base = std::fs::read_to_string(root.join("tests/passes/shards.mlir")).expect("read");
    let tmp = std::env::temp_dir().join(format!("mlir-async-mutants-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut failures = vec![];
    let mut sharded = 0;
    // SHARD_MUTANTS=N for a longer run.
    let mutants: usize = std::env::var("SHARD_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    for k in 0..mutants {
        let file = tmp.join(format!("m{k}.mlir"));
        std::fs::write(&file, mutate(&base, &mut rng)).expect("write");
        sharded += check(&file, &mut failures);
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "{mutants} mutants, {sharded} runs in parts, {} different",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "parts differ from the whole:\n{}",
        failures.join("\n")
    );
    assert!(sharded > mutants / 2, "only {sharded} runs went in parts");
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
    // Parallel loops: both shapes of bench/parallel-for, in each syntax.
    let pf_py = root.join("bench/parallel-for/gen.py");
    for (syntax, loops, mulf) in [("14", 12, 0), ("15", 9, 0), ("13", 7, 0), ("14", 6, 3)] {
        let file = tmp.join(format!("pf{syntax}-{loops}-{mulf}.mlir"));
        let ok = Command::new("python3")
            .arg(&pf_py)
            .args(["--loops", &loops.to_string(), "--mulf", &mulf.to_string()])
            .args(["--syntax", syntax, "-o"])
            .arg(&file)
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(ok, "bench/parallel-for/gen.py failed");
        files.push(file);
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
