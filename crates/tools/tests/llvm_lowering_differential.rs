//! The lowerings to the LLVM dialect against `mlir-opt-14`/`-15`: each
//! pass and each chain of them on generated modules (`support::gen`:
//! `arith` code, calls, branches, `memref` buffers, `scf` regions), in
//! custom and generic form, and on the upstream corpus (from
//! `../shared`, never copied); identical output. Skips, saying why, when
//! the upstream tools are missing. `LLVM_LOWERING_MODULES=N` runs N
//! modules of 25 functions per edition and pipeline (default 3).

mod support;

use std::path::Path;
use std::process::{Command, Output};
use support::gen::{module, Shape};
use support::{have, Rng};

fn run(tool: &str, file: &Path, args: &[&str]) -> Output {
    Command::new("timeout")
        .arg("60")
        .arg(tool)
        .arg(file)
        .args(args)
        .output()
        .expect("run a tool")
}

fn ours(file: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mlir-async-opt"))
        .arg(file)
        .args(args)
        .output()
        .expect("run mlir-async-opt")
}

/// Where upstream succeeds, ours prints the same bytes; where it fails,
/// ours fails too.
fn same(up: &Output, ours: &Output) -> bool {
    if up.status.success() {
        ours.status.success() && ours.stdout == up.stdout
    } else {
        !ours.status.success()
    }
}

/// Where upstream is wrong and we are not: a branch into a block whose
/// parent the pass does not convert (`-convert-cf-to-llvm` inside a
/// `func.func`, any branch inside an `llvm.func`) passes `i64` to an
/// `index` argument in mlir-opt-14/15, whose verifier then fails ("type
/// mismatch for bb argument"); ours converts the block (later MLIR's
/// `getConvertedBlock`). Ours must succeed and upstream must read its
/// output back.
fn upstream_branch_bug(edition: u32, up: &Output, ours: &Output) -> bool {
    if up.status.success()
        || !ours.status.success()
        || !String::from_utf8_lossy(&up.stderr).contains("type mismatch for bb argument")
    {
        return false;
    }
    let mut child = Command::new(format!("mlir-opt-{edition}"))
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run mlir-opt");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(&ours.stdout).expect("write to mlir-opt");
    }
    child.wait().expect("wait for mlir-opt").success()
}

struct Tally {
    name: String,
    same: usize,
    /// Of the identical: where both rejected the input.
    rejected: usize,
    /// Where upstream's branch lowering fails and ours is read back.
    upstream_bug: usize,
    different: Vec<String>,
}

impl Tally {
    fn new(name: &str) -> Self {
        Tally {
            name: name.into(),
            same: 0,
            rejected: 0,
            upstream_bug: 0,
            different: vec![],
        }
    }
    fn report(&self) {
        eprintln!(
            "{}: {} identical ({} of them rejected by both), {} where upstream's branch lowering fails and ours verifies, {} different",
            self.name,
            self.same,
            self.rejected,
            self.upstream_bug,
            self.different.len()
        );
    }
}

/// Runs `pipelines` (per edition) over generated modules of `shape`.
fn generated(
    tally: &mut Tally,
    seed: u64,
    shape_of: fn(u32) -> Shape,
    pipelines: &[(u32, &[&str])],
) {
    let tmp = std::env::temp_dir().join(format!(
        "mlir-async-llvm-lowering-{seed:x}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let modules: usize = std::env::var("LLVM_LOWERING_MODULES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let mut rng = Rng(seed);
    for m in 0..modules {
        for &(edition, pipeline) in pipelines {
            let text = module(&mut rng, shape_of(edition), 25);
            let file = tmp.join(format!(
                "m{m}-{edition}-{}.mlir",
                tally.same + tally.different.len()
            ));
            std::fs::write(&file, text).expect("write");
            for generic in [false, true] {
                let mut args = pipeline.to_vec();
                if generic {
                    args.push("--mlir-print-op-generic");
                }
                let up = run(&format!("mlir-opt-{edition}"), &file, &args);
                let o = ours(&file, &args);
                if same(&up, &o) {
                    tally.same += 1;
                    tally.rejected += usize::from(!up.status.success());
                } else if upstream_branch_bug(edition, &up, &o) {
                    tally.upstream_bug += 1;
                } else {
                    let _ = std::fs::write(file.with_extension("upstream.out"), &up.stdout);
                    let _ = std::fs::write(file.with_extension("upstream.err"), &up.stderr);
                    let _ = std::fs::write(file.with_extension("ours.out"), &o.stdout);
                    let _ = std::fs::write(file.with_extension("ours.err"), &o.stderr);
                    tally
                        .different
                        .push(format!("{} {}", pipeline.join(" "), file.display()));
                }
            }
        }
    }
    if tally.different.is_empty() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
}

fn tools_present() -> bool {
    if !have("mlir-opt-14") || !have("mlir-opt-15") {
        eprintln!("skipped: needs mlir-opt-14 and mlir-opt-15");
        return false;
    }
    true
}

fn check(t: Tally) {
    t.report();
    assert!(
        t.different.is_empty(),
        "differ from upstream (kept):\n{}",
        t.different.join("\n")
    );
}

fn memref_shape(edition: u32) -> Shape {
    Shape {
        memref: true,
        reachable_only: true,
        ..Shape::new(edition)
    }
}

fn scf_memref_shape(edition: u32) -> Shape {
    Shape {
        memref: true,
        scf: true,
        reachable_only: true,
        ..Shape::new(edition)
    }
}

#[test]
fn arith_to_llvm_matches_upstream() {
    if !tools_present() {
        return;
    }
    let mut t = Tally::new("convert-arith-to-llvm");
    generated(
        &mut t,
        0x11_0001,
        memref_shape,
        &[
            (14, &["-convert-arith-to-llvm"]),
            (15, &["-convert-arith-to-llvm"]),
        ],
    );
    check(t);
}

#[test]
fn func_to_llvm_matches_upstream() {
    if !tools_present() {
        return;
    }
    let mut t = Tally::new("convert-std-to-llvm / convert-func-to-llvm / convert-cf-to-llvm");
    generated(
        &mut t,
        0x11_0002,
        memref_shape,
        &[
            (14, &["-convert-std-to-llvm"]),
            (15, &["-convert-func-to-llvm"]),
            (15, &["-convert-cf-to-llvm"]),
        ],
    );
    check(t);
}

#[test]
fn memref_to_llvm_matches_upstream() {
    if !tools_present() {
        return;
    }
    let mut t = Tally::new("convert-memref-to-llvm");
    generated(
        &mut t,
        0x11_0003,
        memref_shape,
        &[
            (14, &["-convert-memref-to-llvm"]),
            (15, &["-convert-memref-to-llvm"]),
            (14, &["-convert-memref-to-llvm=use-aligned-alloc"]),
        ],
    );
    check(t);
}

/// The whole chain down to the LLVM dialect, `scf` first lowered.
#[test]
fn llvm_chain_matches_upstream() {
    if !tools_present() {
        return;
    }
    let mut t = Tally::new("scf, memref, arith, std/func to llvm, reconcile");
    generated(
        &mut t,
        0x11_0004,
        scf_memref_shape,
        &[
            (
                14,
                &[
                    "-convert-scf-to-std",
                    "-convert-memref-to-llvm",
                    "-convert-arith-to-llvm",
                    "-convert-std-to-llvm",
                    "-reconcile-unrealized-casts",
                ],
            ),
            (
                15,
                &[
                    "-convert-scf-to-cf",
                    "-convert-memref-to-llvm",
                    "-convert-arith-to-llvm",
                    "-convert-func-to-llvm",
                    "-reconcile-unrealized-casts",
                ],
            ),
            (
                14,
                &[
                    "-convert-scf-to-std",
                    "-convert-std-to-llvm",
                    "-convert-memref-to-llvm",
                    "-reconcile-unrealized-casts",
                ],
            ),
        ],
    );
    check(t);
}

fn expandable_shape(edition: u32) -> Shape {
    Shape {
        expandable: true,
        ..scf_memref_shape(edition)
    }
}

/// LLVM 13's lowerings (its `std` spellings, its conversion driver): each
/// pass alone and the whole chain.
#[test]
fn llvm13_lowerings_match_upstream() {
    if !have("mlir-opt-13") {
        eprintln!("skipped: needs mlir-opt-13");
        return;
    }
    let mut t = Tally::new("llvm13: std, memref to llvm, std-expand, the chain");
    generated(
        &mut t,
        0x13_0001,
        memref_shape,
        &[
            (13, &["-convert-std-to-llvm"]),
            (13, &["-convert-memref-to-llvm"]),
            (13, &["-convert-memref-to-llvm", "-convert-std-to-llvm"]),
        ],
    );
    generated(
        &mut t,
        0x13_0002,
        expandable_shape,
        &[
            (13, &["-std-expand"]),
            (
                13,
                &[
                    "-convert-scf-to-std",
                    "-std-expand",
                    "-convert-memref-to-llvm",
                    "-convert-std-to-llvm",
                ],
            ),
            (
                13,
                &[
                    "-convert-scf-to-std",
                    "-convert-std-to-llvm",
                    "-convert-memref-to-llvm",
                ],
            ),
        ],
    );
    check(t);
}

/// The `mlir-opt` commands of a test file's RUN lines (continuations
/// joined), as argument lists without the input.
fn run_line_pipelines(text: &str) -> Vec<Vec<String>> {
    let mut runs = vec![];
    let mut cur = String::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("//").map(str::trim_start) else {
            if !cur.is_empty() {
                runs.push(std::mem::take(&mut cur));
            }
            continue;
        };
        let Some(part) = rest.strip_prefix("RUN:") else {
            if !cur.is_empty() {
                runs.push(std::mem::take(&mut cur));
            }
            continue;
        };
        let part = part.trim_end();
        match part.strip_suffix('\\') {
            Some(p) => {
                cur.push_str(p);
                cur.push(' ');
            }
            None => {
                cur.push_str(part);
                runs.push(std::mem::take(&mut cur));
            }
        }
    }
    runs.into_iter()
        .filter_map(|r| {
            let first = r.split('|').next()?.trim().to_string();
            let rest = first.strip_prefix("mlir-opt")?;
            Some(split_args(rest).into_iter().filter(|a| a != "%s").collect())
        })
        .collect()
}

/// Splits a command line on spaces, keeping double-quoted parts together
/// (without the quotes), as the shell does for these RUN lines.
fn split_args(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Every RUN-line pipeline of the runner and integration tests of each
/// generation, and every prefix of it (passes given one by one), run by
/// that generation's `mlir-opt` and by ours on the test file: identical
/// output where upstream succeeds.
#[test]
fn runner_pipelines_match_upstream() {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/upstream-tests");
    for gen in [13, 14, 15] {
        let tool = format!("mlir-opt-{gen}");
        if !have(&tool) {
            eprintln!("skipped {gen}: needs {tool}");
            continue;
        }
        let mut files = vec![];
        support::collect(
            &root.join(format!("llvm{gen}/mlir/test/mlir-cpu-runner")),
            &mut files,
        );
        support::collect(
            &root.join(format!("llvm{gen}/mlir/test/Integration")),
            &mut files,
        );
        let mut t = Tally::new(&format!("llvm{gen} RUN pipelines and their prefixes"));
        let mut whole = (0, 0);
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            for args in run_line_pipelines(&text) {
                let nested = args
                    .iter()
                    .any(|a| a.starts_with("-pass-pipeline") || a.starts_with("--pass-pipeline"));
                let prefixes = if nested {
                    args.len()..=args.len()
                } else {
                    1..=args.len()
                };
                for n in prefixes {
                    let prefix: Vec<&str> = args[..n].iter().map(String::as_str).collect();
                    if prefix.last().is_some_and(|a| !a.starts_with('-')) {
                        continue;
                    }
                    let up = run(&tool, file, &prefix);
                    if !up.status.success() {
                        continue;
                    }
                    let o = ours(file, &prefix);
                    let ok = same(&up, &o);
                    if n == args.len() {
                        whole.1 += 1;
                        whole.0 += usize::from(ok);
                    }
                    if ok {
                        t.same += 1;
                    } else {
                        t.different
                            .push(format!("{} {}", file.display(), prefix.join(" ")));
                    }
                }
            }
        }
        eprintln!("  whole pipelines: {} of {} identical", whole.0, whole.1);
        check(t);
    }
}
