//! A lit-compatible test runner for `.mlir` tests.
//!
//! It reads `RUN:` lines (with `\` continuations), applies lit's
//! substitutions, maps LLVM tool names (`mlir-opt`, `FileCheck`,
//! `mlir-cpu-runner`) to this project's binaries and runs the commands in
//! its own shell ([`shell`]), so no LLVM and no system shell are needed.
//! A test whose script names a tool that does not exist yet is UNSUPPORTED
//! rather than FAIL: the runner is usable while the toolchain grows.
//!
//! No dependencies: the standard library covers processes and threads.

pub mod shell;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Pass,
    Fail,
    XFail,
    XPass,
    Unsupported,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::XFail => "XFAIL",
            Verdict::XPass => "XPASS",
            Verdict::Unsupported => "UNSUPPORTED",
        }
    }
}

#[derive(Debug)]
pub struct TestResult {
    pub path: PathBuf,
    pub verdict: Verdict,
    /// Commands run and their output (for failures).
    pub log: String,
    /// One-line reason for a failure or unsupported verdict.
    pub reason: String,
}

/// How to run tests.
#[derive(Clone, Debug)]
pub struct Config {
    /// Directory holding `mlir-async-opt`, `mlir-async-filecheck`, ...
    pub tool_dir: PathBuf,
    /// Value of `%linalg_test_lib_dir`, `%mlir_lib_dir`, ... (runtime libs).
    pub lib_dir: PathBuf,
    /// Scratch directory for `%t` / `%T`.
    pub tmp_dir: PathBuf,
    /// Features for `REQUIRES:` / `UNSUPPORTED:` / `XFAIL:`.
    pub features: HashSet<String>,
    /// Test file suffixes (without dot).
    pub suffixes: Vec<String>,
    pub timeout: Duration,
}

impl Config {
    pub fn new(tool_dir: PathBuf) -> Self {
        Config {
            lib_dir: tool_dir.clone(),
            tool_dir,
            tmp_dir: std::env::temp_dir().join(format!("mlir-async-lit-{}", std::process::id())),
            features: HashSet::new(),
            suffixes: vec!["mlir".into()],
            timeout: Duration::from_secs(120),
        }
    }

    /// LLVM tool name -> our binary, or `None` if it is not built (yet).
    pub fn tools(&self) -> BTreeMap<String, Option<PathBuf>> {
        let mut m = BTreeMap::new();
        let pick = |ours: &str| {
            let p = self.tool_dir.join(ours);
            p.is_file().then_some(p)
        };
        for (llvm, ours) in [
            ("mlir-opt", "mlir-async-opt"),
            ("FileCheck", "mlir-async-filecheck"),
            ("mlir-cpu-runner", "mlir-async-run"),
            ("lit", "mlir-async-lit"),
        ] {
            m.insert(llvm.to_string(), pick(ours));
            m.insert(ours.to_string(), pick(ours));
        }
        for t in ["not", "count"] {
            m.remove(t);
        }
        m
    }
}

/// Collects test files under `paths` (files are taken as they are).
pub fn discover(paths: &[PathBuf], suffixes: &[String]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    // Directories already walked, by (device, inode): a symlink back up the
    // tree (or two links to one directory) would otherwise be walked again
    // and again, 40 levels deep, each level repeating every test.
    let mut seen = HashSet::new();
    fn walk(p: &Path, suffixes: &[String], out: &mut Vec<PathBuf>, seen: &mut HashSet<(u64, u64)>) {
        use std::os::unix::fs::MetadataExt;
        let Ok(meta) = std::fs::metadata(p) else {
            return;
        };
        if !seen.insert((meta.dev(), meta.ino())) {
            return;
        }
        let Ok(rd) = std::fs::read_dir(p) else { return };
        let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for e in entries {
            let name = e.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if e.is_dir() {
                if name != "Inputs" && name != "Output" && !name.starts_with('.') {
                    walk(&e, suffixes, out, seen);
                }
            } else if e
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| suffixes.iter().any(|s| s == x))
                && name != "lit.cfg.py"
            {
                out.push(e);
            }
        }
    }
    for p in paths {
        if p.is_dir() {
            walk(p, suffixes, &mut out, &mut seen);
        } else {
            out.push(p.clone());
        }
    }
    out
}

/// Directives of one test file.
#[derive(Debug, Default, PartialEq)]
pub struct Script {
    pub run: Vec<String>,
    pub xfail: Vec<String>,
    pub unsupported: Vec<String>,
    pub requires: Vec<String>,
}

fn directive<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(key)?;
    Some(&line[at + key.len()..])
}

/// Parses `RUN:`, `XFAIL:`, `UNSUPPORTED:`, `REQUIRES:` lines; a `RUN:` line
/// ending in `\` continues on the next `RUN:` line.
pub fn parse_script(text: &str) -> Script {
    let mut s = Script::default();
    let mut pending: Option<String> = None;
    let list = |v: &str| -> Vec<String> {
        v.split(',')
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect()
    };
    for line in text.lines() {
        if let Some(rest) = directive(line, "RUN:") {
            let rest = rest.trim_end();
            let (body, cont) = match rest.strip_suffix('\\') {
                Some(b) => (b, true),
                None => (rest, false),
            };
            let cur = pending.get_or_insert_with(String::new);
            cur.push_str(body.trim());
            cur.push(' ');
            if !cont {
                let done = pending.take().unwrap_or_default();
                s.run.push(done.trim().to_string());
            }
            continue;
        }
        if let Some(r) = directive(line, "XFAIL:") {
            s.xfail.extend(list(r));
        } else if let Some(r) = directive(line, "UNSUPPORTED:") {
            s.unsupported.extend(list(r));
        } else if let Some(r) = directive(line, "REQUIRES:") {
            s.requires.extend(list(r));
        }
    }
    if let Some(p) = pending {
        s.run.push(p.trim().to_string());
    }
    s
}

/// Applies lit's substitutions to one RUN line.
pub fn substitute(line: &str, test: &Path, tmp_base: &Path, cfg: &Config) -> String {
    let dir = test
        .parent()
        .unwrap_or(Path::new("."))
        .display()
        .to_string();
    let tmp_dir = tmp_base
        .parent()
        .unwrap_or(Path::new("."))
        .display()
        .to_string();
    let lib = cfg.lib_dir.display().to_string();
    let subs: Vec<(&str, String)> = vec![
        ("%%", "\u{0}".to_string()),
        ("%ProtectFileCheckOutput", "env -u FILECHECK_OPTS".into()),
        ("%linalg_test_lib_dir", lib.clone()),
        ("%mlir_integration_test_dir", lib.clone()),
        ("%mlir_runner_utils_dir", lib.clone()),
        ("%mlir_lib_dir", lib.clone()),
        ("%mlir_src_root", dir.clone()),
        ("%shlibext", ".so".into()),
        ("%python", "python3".into()),
        ("%s", test.display().to_string()),
        ("%S", dir.clone()),
        ("%p", dir),
        ("%t", tmp_base.display().to_string()),
        ("%T", tmp_dir),
    ];
    let mut out = String::new();
    let b = line.as_bytes();
    let mut i = 0;
    'outer: while i < b.len() {
        if b[i] == b'%' {
            for (k, v) in &subs {
                if line[i..].starts_with(k) {
                    out.push_str(v);
                    i += k.len();
                    continue 'outer;
                }
            }
        }
        let ch = line[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out.replace('\u{0}', "%")
}

fn matches_features(list: &[String], cfg: &Config) -> bool {
    list.iter()
        .any(|f| f == "*" || f.split("||").any(|alt| cfg.features.contains(alt.trim())))
}

/// Runs one test file.
pub fn run_test(path: &Path, cfg: &Config) -> TestResult {
    // Commands run in a scratch directory, so `%s` must be absolute.
    let abs = std::env::current_dir()
        .map(|d| d.join(path))
        .unwrap_or_else(|_| path.to_path_buf());
    let mut r = TestResult {
        path: path.to_path_buf(),
        verdict: Verdict::Pass,
        log: String::new(),
        reason: String::new(),
    };
    let text = match std::fs::read(path) {
        Ok(t) => String::from_utf8_lossy(&t).into_owned(),
        Err(e) => {
            r.verdict = Verdict::Fail;
            r.reason = format!("cannot read test: {e}");
            return r;
        }
    };
    let script = parse_script(&text);
    if script.run.is_empty() {
        r.verdict = Verdict::Fail;
        r.reason = "test has no 'RUN:' line".into();
        return r;
    }
    let missing: Vec<&String> = script
        .requires
        .iter()
        .filter(|f| !cfg.features.contains(f.as_str()))
        .collect();
    if !missing.is_empty() {
        r.verdict = Verdict::Unsupported;
        r.reason = format!("missing features: {:?}", missing);
        return r;
    }
    if matches_features(&script.unsupported, cfg) {
        r.verdict = Verdict::Unsupported;
        r.reason = "UNSUPPORTED feature".into();
        return r;
    }
    let stem = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let out_dir = cfg.tmp_dir.join(format!(
        "{:x}",
        path.display()
            .to_string()
            .bytes()
            .fold(0xcbf29ce484222325u64, |h, b| (h ^ u64::from(b))
                .wrapping_mul(0x100000001b3))
    ));
    let _ = std::fs::create_dir_all(&out_dir);
    let tmp_base = out_dir.join(format!("{stem}.tmp"));
    let mut env = shell::Env {
        cwd: out_dir.clone(),
        vars: BTreeMap::new(),
        unset: vec![],
        tools: cfg.tools(),
        timeout: cfg.timeout,
    };
    let mut failed = false;
    for line in &script.run {
        let cmd = substitute(line, &abs, &tmp_base, cfg);
        r.log.push_str(&format!("RUN: {cmd}\n"));
        let o = shell::run_script(&cmd, &mut env);
        r.log.push_str(&o.log);
        if let Some(t) = o.missing_tool {
            r.verdict = Verdict::Unsupported;
            r.reason = format!("needs '{t}', which is not built yet");
            return r;
        }
        if o.code != 0 {
            failed = true;
            r.reason = first_error(&o.log, o.code);
            break;
        }
    }
    let xfail = matches_features(&script.xfail, cfg);
    r.verdict = match (failed, xfail) {
        (false, false) => Verdict::Pass,
        (true, false) => Verdict::Fail,
        (true, true) => Verdict::XFail,
        (false, true) => Verdict::XPass,
    };
    r
}

/// A short reason for a failure: the first stderr line that says "error".
fn first_error(log: &str, code: i32) -> String {
    let line = log
        .lines()
        .find(|l| l.contains("error:") && !l.starts_with("error: command failed"))
        .unwrap_or("");
    let mut s = line.trim().to_string();
    if let Some(p) = s.find(": error: ") {
        s = s[p + 2..].to_string();
    }
    if s.len() > 100 {
        let mut cut = 100;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
    if s.is_empty() {
        format!("exit status {code}")
    } else {
        s
    }
}

/// Runs `tests` on `jobs` threads; results are in input order.
pub fn run_all(tests: &[PathBuf], cfg: &Config, jobs: usize) -> Vec<TestResult> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if i >= tests.len() {
                    break;
                }
                let r = run_test(&tests[i], cfg);
                if let Ok(mut v) = results.lock() {
                    v.push((i, r));
                }
            });
        }
    });
    let mut v = results.into_inner().unwrap_or_default();
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|x| x.1).collect()
}

/// An expected-failure list: `relative/path.mlir  # reason` per line.
#[derive(Default, Debug)]
pub struct XfailList {
    pub entries: BTreeMap<String, String>,
}

impl XfailList {
    pub fn parse(text: &str) -> Self {
        let mut entries = BTreeMap::new();
        for line in text.lines() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let (path, reason) = match t.find('#') {
                Some(p) => (t[..p].trim(), t[p + 1..].trim()),
                None => (t, ""),
            };
            entries.insert(path.to_string(), reason.to_string());
        }
        XfailList { entries }
    }

    pub fn render(&self, header: &str) -> String {
        let mut s = String::from(header);
        let width = self.entries.keys().map(String::len).max().unwrap_or(0);
        for (p, r) in &self.entries {
            s.push_str(&format!("{p:<width$}  # {r}\n"));
        }
        s
    }
}

/// Applies an expected-failure list: listed failures become XFAIL, listed
/// passes become XPASS. `rel` gives each test's key in the list.
pub fn apply_xfail_list(
    results: &mut [TestResult],
    list: &XfailList,
    rel: impl Fn(&Path) -> String,
) {
    for r in results {
        if list.entries.contains_key(&rel(&r.path)) {
            r.verdict = match r.verdict {
                Verdict::Fail => Verdict::XFail,
                Verdict::Pass => Verdict::XPass,
                v => v,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_lines_join_continuations() {
        let s = parse_script(
            "// RUN: mlir-opt %s \\\n// RUN:   -pass | FileCheck %s\n// RUN: true\n// UNSUPPORTED: asan\n",
        );
        assert_eq!(s.run, vec!["mlir-opt %s -pass | FileCheck %s", "true"]);
        assert_eq!(s.unsupported, vec!["asan"]);
    }

    #[test]
    fn substitutions_prefer_longest() {
        let cfg = Config::new(PathBuf::from("/tools"));
        let s = substitute(
            "x %s %shlibext %t %% %S",
            Path::new("/a/b.mlir"),
            Path::new("/o/b.mlir.tmp"),
            &cfg,
        );
        assert_eq!(s, "x /a/b.mlir .so /o/b.mlir.tmp % /a");
    }

    #[test]
    fn xfail_list_round_trip() {
        let l = XfailList::parse("# header\na/b.mlir  # needs x\nc.mlir\n");
        assert_eq!(
            l.entries.get("a/b.mlir").map(String::as_str),
            Some("needs x")
        );
        assert_eq!(l.entries.get("c.mlir").map(String::as_str), Some(""));
        let again = XfailList::parse(&l.render(""));
        assert_eq!(again.entries, l.entries);
    }
}
