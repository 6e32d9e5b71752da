//! The reference-counting passes against `mlir-opt-14` / `-15`, up to
//! block order (`support::normalize`): generated modules
//! (`../shared/bench/gen_async_module.py`, run from `../shared`, never
//! copied) lowered with `async-to-async-runtime` (with and without
//! `eliminate-blocking-await-ops`), then each ref-counting pass, and
//! ref counting followed by `-opt`. Where they differ, upstream's
//! known miscompile is the only accepted difference: its output has extra
//! `drop_ref`s (in blocks added for another value, where liveness was
//! stale: the error paths of coroutines drop the coroutine's own token
//! before `set_error`) and is otherwise ours. Such runs are counted apart. Skips when
//! the tools or the generator are missing. `REFCOUNT_MODULES=N` (default
//! 6 per syntax).

mod support;

use std::path::Path;
use std::process::Command;
use support::have;
use support::normalize::{normalize, only_extra_drops};

fn run(tool: &str, file: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new(tool).arg(file).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn ref_counting_matches_upstream_up_to_block_order() {
    let gen_py =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench/gen_async_module.py");
    if !have("mlir-opt-14") || !have("mlir-opt-15") || !gen_py.exists() {
        eprintln!(
            "skipped: needs mlir-opt-14, mlir-opt-15 and ../shared/bench/gen_async_module.py"
        );
        return;
    }
    let n: u32 = std::env::var("REFCOUNT_MODULES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let tmp = std::env::temp_dir().join(format!("mlir-async-refcount-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let ours = env!("CARGO_BIN_EXE_mlir-async-opt");
    let (mut same, mut different, mut upstream_failed, mut upstream_extra_drops) =
        (0, vec![], 0, 0);
    for syntax in ["14", "15"] {
        for seed in 1..=n {
            let file = tmp.join(format!("m{syntax}-{seed}.mlir"));
            let ok = Command::new("python3")
                .arg(&gen_py)
                .args([
                    "--syntax",
                    syntax,
                    "--seed",
                    &seed.to_string(),
                    "--funcs",
                    &(2 + seed % 5).to_string(),
                    "-o",
                ])
                .arg(&file)
                .output()
                .map(|o| o.status.success())
                .unwrap_or(false);
            if !ok {
                continue;
            }
            for lower in [
                "-async-to-async-runtime",
                "-async-to-async-runtime=eliminate-blocking-await-ops=true",
            ] {
                for rc in [
                    &["-async-runtime-ref-counting"][..],
                    &[
                        "-async-runtime-ref-counting",
                        "-async-runtime-ref-counting-opt",
                    ][..],
                    &["-async-runtime-policy-based-ref-counting"][..],
                ] {
                    let mut args = vec![lower];
                    args.extend_from_slice(rc);
                    let Some(up) = run(&format!("mlir-opt-{syntax}"), &file, &args) else {
                        upstream_failed += 1;
                        continue;
                    };
                    let me = run(ours, &file, &args).unwrap_or_default();
                    let (nu, nm) = (normalize(&up), normalize(&me));
                    if nu.is_some() && nu == nm {
                        same += 1;
                    } else if let (Some(u), Some(m)) = (&nu, &nm) {
                        if only_extra_drops(u, m).is_some() {
                            upstream_extra_drops += 1;
                        } else {
                            different.push(format!("{} {}", file.display(), args.join(" ")));
                        }
                    } else {
                        different.push(format!("{} {}", file.display(), args.join(" ")));
                    }
                }
            }
        }
    }
    eprintln!(
        "ref counting: {same} runs identical up to block order, {upstream_extra_drops} where upstream only adds its spurious drops, {} different, {upstream_failed} that upstream fails",
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
