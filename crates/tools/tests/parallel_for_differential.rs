//! `-async-parallel-for` against `mlir-opt-14` and `mlir-opt-15` on
//! generated modules of parallel loops (`support::gen_parallel`), every
//! option combination in turn: byte-identical output, alone and followed
//! by `-canonicalize`. Skips, saying why, when the upstream tools are
//! missing. `PARALLEL_MODULES=N` runs N modules per edition (default 160).

mod support;

use std::process::Command;
use support::gen_parallel::parallel_module;
use support::{have, Rng};

/// Every combination of the options of 14 and 15.
fn option_sets() -> Vec<String> {
    let mut out = vec![];
    for dispatch in ["true", "false"] {
        for workers in [-1, 1, 4, 8, 16, 33, 65] {
            for min in [1, 100, 1000] {
                out.push(format!(
                    "-async-parallel-for=async-dispatch={dispatch} num-workers={workers} min-task-size={min}"
                ));
            }
        }
    }
    out
}

fn run(tool: &str, file: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(tool)
        .arg(file)
        .args(args)
        .output()
        .expect("run tool")
}

#[test]
fn async_parallel_for_matches_upstream() {
    if !have("mlir-opt-14") || !have("mlir-opt-15") {
        eprintln!("skipped: needs mlir-opt-14 and mlir-opt-15");
        return;
    }
    let modules: usize = std::env::var("PARALLEL_MODULES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(160);
    let ours = env!("CARGO_BIN_EXE_mlir-async-opt");
    let tmp = std::env::temp_dir().join(format!("mlir-async-apf-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let options = option_sets();
    let mut rng = Rng(0x5eed_9a7a_11e1);
    let (mut same, mut same_canon) = (0usize, 0usize);
    let mut different = vec![];
    for m in 0..modules {
        for edition in [14u32, 15] {
            let text = parallel_module(&mut rng, edition, 1 + m % 3);
            let file = tmp.join(format!("p{m}-{edition}.mlir"));
            std::fs::write(&file, text).expect("write");
            let opt = &options[(m * 2 + edition as usize) % options.len()];
            let upstream = format!("mlir-opt-{edition}");
            for (canon, count) in [(false, &mut same), (true, &mut same_canon)] {
                let mut args = vec![opt.as_str()];
                if canon {
                    args.push("-canonicalize");
                }
                let up = run(&upstream, &file, &args);
                assert!(
                    up.status.success(),
                    "upstream rejected {} {}: {}",
                    file.display(),
                    args.join(" "),
                    String::from_utf8_lossy(&up.stderr)
                );
                let me = run(ours, &file, &args);
                if me.status.success() && me.stdout == up.stdout {
                    *count += 1;
                } else {
                    different.push(format!("{} {}", file.display(), args.join(" ")));
                }
            }
        }
    }
    eprintln!(
        "async-parallel-for: {same} of {} modules identical; followed by -canonicalize: {same_canon} of {}",
        modules * 2,
        modules * 2
    );
    assert!(
        different.is_empty(),
        "{} runs differ from upstream (files kept):\n{}",
        different.len(),
        different.join("\n")
    );
    let _ = std::fs::remove_dir_all(&tmp);
}
