//! Differential check: our FileCheck and LLVM's `FileCheck-14` must give the
//! same verdict on `mlir-opt-14`'s real output for every upstream corpus
//! test, and on mutated copies of it (a line dropped, two lines swapped, an
//! SSA name or an op name changed). Skips (and says why) when LLVM 14's
//! tools or the shared corpus are not installed.

use libtest_mimic::{Arguments, Failed, Trial};
use mlir_async_lit::shell::{tokenize, Tok};
use mlir_async_lit::{discover, parse_script, substitute, Config};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn run(prog: &Path, args: &[String], input: &[u8]) -> (i32, Vec<u8>) {
    let Ok(mut child) = Command::new(prog)
        .args(args)
        .env_remove("FILECHECK_OPTS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return (-1, vec![]);
    };
    if let Some(mut i) = child.stdin.take() {
        let data = input.to_vec();
        std::thread::spawn(move || {
            let _ = i.write_all(&data);
        });
    }
    match child.wait_with_output() {
        Ok(o) => (o.status.code().unwrap_or(-1), o.stdout),
        Err(_) => (-1, vec![]),
    }
}

/// The original output and mutated versions of it, with a label each.
fn variants(out: &[u8]) -> Vec<(String, Vec<u8>)> {
    let text = String::from_utf8_lossy(out).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let mut v = vec![("original".to_string(), out.to_vec())];
    let join = |ls: &[String]| {
        let mut s = ls.join("\n");
        s.push('\n');
        s.into_bytes()
    };
    let owned: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    let step = (lines.len() / 12).max(1);
    for i in (0..lines.len()).step_by(step) {
        if lines[i].trim().is_empty() {
            continue;
        }
        let mut d = owned.clone();
        d.remove(i);
        v.push((format!("drop line {}", i + 1), join(&d)));
        if i + 1 < lines.len() {
            let mut s = owned.clone();
            s.swap(i, i + 1);
            v.push((format!("swap lines {} and {}", i + 1, i + 2), join(&s)));
        }
        if let Some(p) = lines[i].find('%') {
            let mut r = owned.clone();
            r[i] = format!("{}%renamed{}", &lines[i][..p], &lines[i][p + 1..]);
            v.push((format!("rename value on line {}", i + 1), join(&r)));
        }
        if lines[i].contains("async.") {
            let mut r = owned.clone();
            r[i] = lines[i].replacen("async.", "asink.", 1);
            v.push((format!("rename op on line {}", i + 1), join(&r)));
        }
    }
    v
}

fn main() {
    let args = Arguments::from_args();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let corpus = std::env::var_os("MLIR_ASYNC_UPSTREAM_TESTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/upstream-tests"))
        .join("llvm14");
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_mlir-async-filecheck"));
    let (fc14, opt14) = (which("FileCheck-14"), which("mlir-opt-14"));
    let skip = if fc14.is_none() || opt14.is_none() {
        Some("FileCheck-14 or mlir-opt-14 is not installed")
    } else if !corpus.is_dir() {
        Some("../shared/upstream-tests/llvm14 is not present")
    } else {
        None
    };
    if let Some(why) = skip {
        let trial = Trial::test("differential-filecheck", move || {
            println!("skipped: {why}");
            Ok(())
        });
        libtest_mimic::run(&args, vec![trial]).exit();
    }
    let (fc14, opt14) = (fc14.unwrap_or_default(), opt14.unwrap_or_default());
    let cfg = Config::new(PathBuf::from("."));
    let trials = discover(std::slice::from_ref(&corpus), &cfg.suffixes)
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(&corpus)
                .unwrap_or(&path)
                .display()
                .to_string();
            let (fc14, opt14, ours, cfg) = (fc14.clone(), opt14.clone(), ours.clone(), cfg.clone());
            Trial::test(name, move || {
                let text =
                    std::fs::read_to_string(&path).map_err(|e| Failed::from(e.to_string()))?;
                let mut compared = 0;
                let mut rejected = 0;
                let mut mismatches = Vec::new();
                for line in parse_script(&text).run {
                    let line = substitute(&line, &path, Path::new("/tmp/unused.tmp"), &cfg);
                    let Ok(toks) = tokenize(&line) else { continue };
                    let stages: Vec<Vec<String>> = toks
                        .split(|t| *t == Tok::Pipe)
                        .map(|s| {
                            s.iter()
                                .filter_map(|t| match t {
                                    Tok::Word(w) => Some(w.clone()),
                                    _ => None,
                                })
                                .collect()
                        })
                        .collect();
                    let [opt, fc] = stages.as_slice() else {
                        continue;
                    };
                    if opt.first().map(String::as_str) != Some("mlir-opt")
                        || fc.first().map(String::as_str) != Some("FileCheck")
                    {
                        continue;
                    }
                    let (_, out) = run(&opt14, &opt[1..], b"");
                    for (label, input) in variants(&out) {
                        let (a, _) = run(&fc14, &fc[1..], &input);
                        let (b, _) = run(&ours, &fc[1..], &input);
                        compared += 1;
                        rejected += usize::from(a != 0);
                        if a != b {
                            mismatches.push(format!(
                                "{label}: FileCheck-14 exit {a}, ours exit {b} ({})",
                                fc[1..].join(" ")
                            ));
                        }
                    }
                }
                println!("{compared} verdicts compared, {rejected} of them failing checks");
                if mismatches.is_empty() {
                    Ok(())
                } else {
                    Err(Failed::from(mismatches.join("\n")))
                }
            })
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
