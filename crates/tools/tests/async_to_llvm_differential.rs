//! `-convert-async-to-llvm` against `mlir-opt-14` / `-15`, byte for byte,
//! on the same input: generated modules (`../shared/bench/gen_async_module.py`,
//! run from `../shared`, never copied) lowered by our async passes (with
//! and without `eliminate-blocking-await-ops`, then liveness-based or
//! policy-based ref counting) are handed to both tools, so upstream's
//! run-to-run block order in ref counting plays no part. Skips when the
//! tools or the generator are missing. `ASYNC_TO_LLVM_MODULES=N` modules
//! per syntax (default 8; the closing notes give counts at 50).

mod support;

use std::path::Path;
use std::process::Command;
use support::have;

fn run(tool: &str, file: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let out = Command::new(tool).arg(file).args(args).output().ok()?;
    out.status.success().then_some(out.stdout)
}

#[test]
fn convert_async_to_llvm_matches_upstream() {
    let gen_py =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench/gen_async_module.py");
    if !have("mlir-opt-14") || !have("mlir-opt-15") || !gen_py.exists() {
        eprintln!(
            "skipped: needs mlir-opt-14, mlir-opt-15 and ../shared/bench/gen_async_module.py"
        );
        return;
    }
    let n: u32 = std::env::var("ASYNC_TO_LLVM_MODULES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let tmp = std::env::temp_dir().join(format!("mlir-async-to-llvm-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let ours = env!("CARGO_BIN_EXE_mlir-async-opt");
    let (mut same, mut different, mut skipped) = (0, vec![], 0);
    for syntax in ["14", "15"] {
        for seed in 1..=n {
            let file = tmp.join(format!("m{syntax}-{seed}.mlir"));
            let mut gen = Command::new("python3");
            gen.arg(&gen_py).args([
                "--syntax",
                syntax,
                "--seed",
                &seed.to_string(),
                "--funcs",
                &(2 + seed % 5).to_string(),
            ]);
            if seed % 2 == 0 {
                gen.args(["--scf", "safe"]);
            }
            let ok = gen
                .arg("-o")
                .arg(&file)
                .output()
                .map(|o| o.status.success())
                .unwrap_or(false);
            if !ok {
                skipped += 1;
                continue;
            }
            for (k, lowering) in [
                &[
                    "-async-to-async-runtime",
                    "-async-runtime-ref-counting",
                    "-async-runtime-ref-counting-opt",
                ][..],
                &[
                    "-async-to-async-runtime=eliminate-blocking-await-ops=true",
                    "-async-runtime-ref-counting",
                    "-async-runtime-ref-counting-opt",
                ][..],
                &[
                    "-async-to-async-runtime",
                    "-async-runtime-policy-based-ref-counting",
                ][..],
            ]
            .iter()
            .enumerate()
            {
                let Some(lowered) = run(ours, &file, lowering) else {
                    skipped += 1;
                    continue;
                };
                let input = tmp.join(format!("m{syntax}-{seed}-{k}.mlir"));
                std::fs::write(&input, lowered).expect("write");
                let args = ["-convert-async-to-llvm"];
                let Some(up) = run(&format!("mlir-opt-{syntax}"), &input, &args) else {
                    skipped += 1;
                    continue;
                };
                let me = run(ours, &input, &args).unwrap_or_default();
                if me == up {
                    same += 1;
                    let _ = std::fs::remove_file(&input);
                } else {
                    different.push(input.display().to_string());
                }
            }
        }
    }
    eprintln!(
        "convert-async-to-llvm: {same} runs identical, {} different, {skipped} skipped (generator or upstream failed)",
        different.len()
    );
    if different.is_empty() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    assert!(
        different.is_empty(),
        "differ (kept):\n{}",
        different.join("\n")
    );
}
