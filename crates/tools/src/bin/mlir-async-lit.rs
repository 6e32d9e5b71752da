//! `mlir-async-lit`: runs lit-style tests (files or directories) with this
//! project's tools. See `conformance/README.md` for the conformance use.

use mlir_async_lit::{apply_xfail_list, discover, run_all, Config, Verdict, XfailList};
use mlir_async_tools::stdio;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const USAGE: &str = "usage: mlir-async-lit [options] <test file or directory>...
  --tool-dir DIR           where mlir-async-opt etc. live (default: next to this binary)
  --lib-dir DIR            value of %linalg_test_lib_dir and friends
  --xfail-list FILE        expected failures, one 'path  # reason' per line
  --write-xfail-list FILE  write the currently failing tests (keeping known reasons)
  --suffix EXT             test file suffix (repeatable; default: mlir)
  --feature NAME           enable a lit feature for REQUIRES/UNSUPPORTED/XFAIL
  --timeout SECONDS        per command (default 120)
  -j N                     parallel tests (default: number of CPUs)
  -v                       print the commands and output of failing tests
  -q                       print only failures and the summary
  --version                print the version
";

/// `eprintln!` that cannot panic (see `mlir_async_tools::stdio`).
macro_rules! eprintln {
    ($($t:tt)*) => { stdio::eprint(format!("{}\n", format_args!($($t)*))) };
}

/// Writes the report; a failed write is a failed run (status 2, as for a
/// bad command line; 74 for a broken pipe): the verdicts were not delivered.
fn emit(text: &str, code: i32) -> ! {
    if let Err(e) = stdio::write_stdout(text.as_bytes()) {
        std::process::exit(stdio::write_failed("mlir-async-lit", &e, 2));
    }
    std::process::exit(code)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| PathBuf::from("."));
    let mut cfg = Config::new(exe_dir);
    let mut lib_dir = None;
    let mut paths = Vec::new();
    let mut xfail_path = None;
    let mut write_path: Option<PathBuf> = None;
    let mut suffixes = Vec::new();
    let mut jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (mut verbose, mut quiet) = (false, false);
    while let Some(a) = args.next() {
        let mut val = |name: &str| {
            args.next().unwrap_or_else(|| {
                eprintln!("mlir-async-lit: {name} needs a value\n{USAGE}");
                std::process::exit(2)
            })
        };
        match a.as_str() {
            "--tool-dir" => cfg.tool_dir = PathBuf::from(val(&a)),
            "--lib-dir" => lib_dir = Some(PathBuf::from(val(&a))),
            "--xfail-list" => xfail_path = Some(PathBuf::from(val(&a))),
            "--write-xfail-list" => write_path = Some(PathBuf::from(val(&a))),
            "--suffix" => suffixes.push(val(&a).trim_start_matches('.').to_string()),
            "--feature" => {
                cfg.features.insert(val(&a));
            }
            "--timeout" => {
                cfg.timeout = std::time::Duration::from_secs(val(&a).parse().unwrap_or(120))
            }
            "-j" => jobs = val(&a).parse().unwrap_or(1),
            "-v" => verbose = true,
            "-q" => quiet = true,
            "-h" | "--help" => emit(USAGE, 0),
            "--version" => emit(
                &format!("mlir-async-lit {}\n", env!("CARGO_PKG_VERSION")),
                0,
            ),
            _ if a.starts_with('-') => {
                eprintln!("mlir-async-lit: unknown option '{a}'\n{USAGE}");
                std::process::exit(2);
            }
            _ => paths.push(PathBuf::from(a)),
        }
    }
    if paths.is_empty() {
        stdio::eprint(USAGE);
        std::process::exit(2);
    }
    cfg.lib_dir = lib_dir.unwrap_or_else(|| cfg.tool_dir.clone());
    if !suffixes.is_empty() {
        cfg.suffixes = suffixes;
    }
    let tests = discover(&paths, &cfg.suffixes);
    let roots: Vec<PathBuf> = paths.iter().filter(|p| p.is_dir()).cloned().collect();
    let rel = |p: &Path| -> String {
        roots
            .iter()
            .find_map(|r| p.strip_prefix(r).ok())
            .unwrap_or(p)
            .display()
            .to_string()
    };
    let mut results = run_all(&tests, &cfg, jobs);
    let _ = std::fs::remove_dir_all(&cfg.tmp_dir);
    let list = match &xfail_path {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(t) => XfailList::parse(&t),
            Err(e) => {
                eprintln!("mlir-async-lit: cannot read {}: {e}", p.display());
                std::process::exit(2);
            }
        },
        None => XfailList::default(),
    };
    // Reasons observed now, for the list writer.
    let raw: Vec<(String, Verdict, String)> = results
        .iter()
        .map(|r| (rel(&r.path), r.verdict, r.reason.clone()))
        .collect();
    apply_xfail_list(&mut results, &list, rel);
    let mut report = String::new();
    let mut count = std::collections::BTreeMap::<Verdict, usize>::new();
    for r in &results {
        *count.entry(r.verdict).or_default() += 1;
        let bad = matches!(r.verdict, Verdict::Fail | Verdict::XPass);
        if !quiet || bad {
            let why = match r.verdict {
                Verdict::Fail | Verdict::Unsupported => format!("  ({})", r.reason),
                Verdict::XPass => "  (passes now: remove it from the expected-failure list)".into(),
                _ => String::new(),
            };
            let _ = writeln!(report, "{}: {}{}", r.verdict.name(), rel(&r.path), why);
        }
        if verbose && bad {
            let _ = writeln!(report, "{}", r.log);
        }
    }
    for name in list.entries.keys() {
        if !results.iter().any(|r| &rel(&r.path) == name) {
            let _ = writeln!(
                report,
                "warning: expected-failure list names a missing test: {name}"
            );
        }
    }
    if let Some(w) = &write_path {
        let mut out = XfailList::default();
        for (p, v, reason) in &raw {
            if *v == Verdict::Fail {
                let r = list.entries.get(p).filter(|r| !r.is_empty()).cloned();
                out.entries
                    .insert(p.clone(), r.unwrap_or_else(|| reason.clone()));
            }
        }
        let header = "# Expected failures: one test per line, path relative to the generation\n# directory, then '#' and why it fails. Regenerate with --write-xfail-list\n# (see conformance/README.md); the list may only shrink.\n";
        if let Err(e) = std::fs::write(w, out.render(header)) {
            eprintln!("mlir-async-lit: cannot write {}: {e}", w.display());
            std::process::exit(2);
        }
    }
    let n = |v| count.get(&v).copied().unwrap_or(0);
    let failed = n(Verdict::Fail) + n(Verdict::XPass);
    let _ = writeln!(
        report,
        "{} expected failures, {} unsupported, {} unexpectedly passed",
        n(Verdict::XFail),
        n(Verdict::Unsupported),
        n(Verdict::XPass)
    );
    let _ = writeln!(report, "{} passed, {} failed", n(Verdict::Pass), failed);
    emit(&report, i32::from(failed > 0));
}
