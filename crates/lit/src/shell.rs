//! A small shell for `RUN:` lines, modelled on lit's internal shell: words,
//! quotes, `|`, `&&`, `||`, `;`, redirections, `VAR=value` prefixes and the
//! builtins lit provides (`not`, `env`, `echo`, `cd`, `mkdir`, `rm`, `:`,
//! `true`, `false`, `export`). No system shell is involved, so tests run the
//! same on any machine.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Word(String),
    Pipe,
    And,
    Or,
    Semi,
    /// (fd, append, target): `>`, `>>`, `2>`, `2>>`, `<` (fd 0), `&>` (fd 3).
    Redir(u8, bool, String),
    /// `2>&1`
    ErrToOut,
}

pub fn tokenize(s: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let c: Vec<char> = s.chars().collect();
    let mut i = 0;
    let word = |i: &mut usize| -> Result<String, String> {
        let mut w = String::new();
        while *i < c.len() {
            let ch = c[*i];
            match ch {
                ' ' | '\t' | '\n' | '|' | '&' | ';' | '>' | '<' => break,
                '\'' => {
                    *i += 1;
                    while *i < c.len() && c[*i] != '\'' {
                        w.push(c[*i]);
                        *i += 1;
                    }
                    if *i >= c.len() {
                        return Err("unterminated quote".into());
                    }
                    *i += 1;
                }
                '"' => {
                    *i += 1;
                    while *i < c.len() && c[*i] != '"' {
                        if c[*i] == '\\'
                            && *i + 1 < c.len()
                            && matches!(c[*i + 1], '"' | '\\' | '$')
                        {
                            *i += 1;
                        }
                        w.push(c[*i]);
                        *i += 1;
                    }
                    if *i >= c.len() {
                        return Err("unterminated quote".into());
                    }
                    *i += 1;
                }
                '\\' if *i + 1 < c.len() => {
                    w.push(c[*i + 1]);
                    *i += 2;
                }
                _ => {
                    w.push(ch);
                    *i += 1;
                }
            }
        }
        Ok(w)
    };
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        match ch {
            ' ' | '\t' | '\n' => i += 1,
            '|' if next == Some('|') => {
                out.push(Tok::Or);
                i += 2;
            }
            '|' => {
                out.push(Tok::Pipe);
                i += 1;
            }
            '&' if next == Some('&') => {
                out.push(Tok::And);
                i += 2;
            }
            '&' if next == Some('>') => {
                i += 2;
                while i < c.len() && c[i] == ' ' {
                    i += 1;
                }
                out.push(Tok::Redir(3, false, word(&mut i)?));
            }
            ';' => {
                out.push(Tok::Semi);
                i += 1;
            }
            '>' | '<' => {
                let fd = if ch == '<' { 0 } else { 1 };
                i += 1;
                let append = ch == '>' && c.get(i) == Some(&'>');
                if append {
                    i += 1;
                }
                while i < c.len() && c[i] == ' ' {
                    i += 1;
                }
                out.push(Tok::Redir(fd, append, word(&mut i)?));
            }
            '2' if next == Some('>') => {
                i += 2;
                if c.get(i) == Some(&'&') && c.get(i + 1) == Some(&'1') {
                    i += 2;
                    out.push(Tok::ErrToOut);
                    continue;
                }
                let append = c.get(i) == Some(&'>');
                if append {
                    i += 1;
                }
                while i < c.len() && c[i] == ' ' {
                    i += 1;
                }
                out.push(Tok::Redir(2, append, word(&mut i)?));
            }
            '1' if next == Some('>') => {
                i += 1;
            }
            _ => out.push(Tok::Word(word(&mut i)?)),
        }
    }
    Ok(out)
}

/// Where the shell finds programs.
pub struct Env {
    pub cwd: PathBuf,
    pub vars: BTreeMap<String, String>,
    pub unset: Vec<String>,
    /// Maps a tool name used in tests (`FileCheck`) to our binary, or to
    /// `None` when the tool does not exist yet (the test is unsupported).
    pub tools: BTreeMap<String, Option<PathBuf>>,
    pub timeout: Duration,
}

#[derive(Default, Debug)]
pub struct Outcome {
    pub code: i32,
    pub log: String,
    /// A tool the script needs does not exist.
    pub missing_tool: Option<String>,
}

struct Cmd {
    argv: Vec<String>,
    redirs: Vec<(u8, bool, String)>,
    err_to_out: bool,
}

fn resolve(p: &str, cwd: &Path) -> PathBuf {
    let p = Path::new(p);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    }
}

fn find_in_path(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        return Some(PathBuf::from(name));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Runs a whole script (one string, possibly with `&&`, `||`, `;`).
pub fn run_script(script: &str, env: &mut Env) -> Outcome {
    let mut o = Outcome::default();
    let toks = match tokenize(script) {
        Ok(t) => t,
        Err(e) => {
            o.code = 127;
            o.log = format!("shell parse error: {e}\n");
            return o;
        }
    };
    // Split into (pipeline, connector-before) list.
    let mut lists: Vec<(Vec<Tok>, Option<Tok>)> = Vec::new();
    let mut cur = Vec::new();
    let mut conn = None;
    for t in toks {
        match t {
            Tok::And | Tok::Or | Tok::Semi => {
                lists.push((std::mem::take(&mut cur), conn.take()));
                conn = Some(t);
            }
            _ => cur.push(t),
        }
    }
    lists.push((cur, conn));
    // `a &&`, `|| b`, `a | | b`: sh and lit refuse them; running the rest
    // would let a typo pass.
    for (k, (pipe, conn)) in lists.iter().enumerate() {
        let dangling = pipe.is_empty()
            && (matches!(conn, Some(Tok::And | Tok::Or))
                || lists
                    .get(k + 1)
                    .is_some_and(|(_, c)| matches!(c, Some(Tok::And | Tok::Or))));
        let empty_stage = pipe
            .split(|t| *t == Tok::Pipe)
            .any(|stage| stage.is_empty())
            && !pipe.is_empty();
        if dangling || empty_stage {
            o.code = 127;
            o.log = format!("shell parse error: missing command in '{script}'\n");
            return o;
        }
    }
    let mut last = 0;
    for (pipe, conn) in lists {
        match conn {
            Some(Tok::And) if last != 0 => continue,
            Some(Tok::Or) if last == 0 => continue,
            _ => {}
        }
        if pipe.is_empty() {
            continue;
        }
        last = run_pipeline(&pipe, env, &mut o);
        if o.missing_tool.is_some() {
            break;
        }
    }
    o.code = last;
    o
}

fn run_pipeline(toks: &[Tok], env: &mut Env, o: &mut Outcome) -> i32 {
    let mut cmds = Vec::new();
    let mut cur = Cmd {
        argv: vec![],
        redirs: vec![],
        err_to_out: false,
    };
    for t in toks {
        match t {
            Tok::Pipe => cmds.push(std::mem::replace(
                &mut cur,
                Cmd {
                    argv: vec![],
                    redirs: vec![],
                    err_to_out: false,
                },
            )),
            Tok::Word(w) => cur.argv.push(w.clone()),
            Tok::Redir(fd, app, f) => cur.redirs.push((*fd, *app, f.clone())),
            Tok::ErrToOut => cur.err_to_out = true,
            _ => {}
        }
    }
    cmds.push(cur);
    let stages: Vec<Stage> = cmds.iter().map(|c| Stage::new(c, env)).collect();
    // A tool that does not exist makes the test unsupported: run nothing.
    for st in &stages {
        if let Some(name) = st.argv.first() {
            if !is_builtin(name) && matches!(env.tools.get(name.as_str()), Some(None)) {
                o.missing_tool = Some(name.clone());
                return 127;
            }
        }
    }
    let n = stages.len();
    let mut runs: Vec<Running> = Vec::with_capacity(n);
    let mut prev: Option<Source> = None;
    for (i, st) in stages.iter().enumerate() {
        let last = i + 1 == n;
        let (run, out) = st.start(prev.take(), last, env);
        runs.push(run);
        prev = out;
    }
    // Every stage runs until it ends or the time is up; the output is read
    // after, so that a stage that never ends is still stopped.
    let deadline = Instant::now() + env.timeout;
    let mut status = 0;
    for (i, (st, run)) in stages.iter().zip(runs).enumerate() {
        o.log
            .push_str(&format!("$ {}\n", shell_quote(&st.cmd_argv)));
        let (code, err) = run.finish(deadline);
        if !err.is_empty() {
            o.log.push_str("# command stderr:\n");
            o.log.push_str(&String::from_utf8_lossy(&err));
        }
        let mut code = code;
        // `yes | head -n 1`: a writer killed by SIGPIPE because a later
        // stage stopped reading has done its job.
        if code == 128 + SIGPIPE && i + 1 < n {
            code = 0;
        }
        let code = st.negated(code);
        // lit runs pipelines with pipefail.
        if code != 0 {
            o.log
                .push_str(&format!("error: command failed with exit status: {code}\n"));
            status = code;
        }
    }
    let output = prev.map(Source::into_bytes).unwrap_or_default();
    if !output.is_empty() {
        o.log.push_str("# command output:\n");
        o.log.push_str(&String::from_utf8_lossy(&output));
    }
    status
}

const SIGPIPE: i32 = 13;

fn is_builtin(name: &str) -> bool {
    matches!(
        name,
        ":" | "true" | "false" | "echo" | "count" | "cd" | "export" | "mkdir" | "rm"
    )
}

fn shell_quote(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"\\|&;<>".contains(c)) {
                format!("\"{}\"", a.replace('\\', "\\\\").replace('"', "\\\""))
            } else {
                a.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a stage's stdout becomes for the next stage.
enum Source {
    /// Already complete (a builtin, a file).
    Bytes(Vec<u8>),
    /// A process's stdout, handed over as the next process's stdin: an OS
    /// pipe between the two, so a writer whose reader has exited gets
    /// SIGPIPE/EPIPE at once (`yes | head -n 1` ends), and nothing is held
    /// in memory (`cat /dev/zero | head -c 10`).
    Pipe(std::process::ChildStdout),
    /// Collected by a thread (stdout and stderr merged by `2>&1`).
    Thread(std::thread::JoinHandle<Vec<u8>>),
}

impl Source {
    fn into_bytes(self) -> Vec<u8> {
        match self {
            Source::Bytes(b) => b,
            Source::Thread(t) => t.join().unwrap_or_default(),
            Source::Pipe(mut p) => {
                let mut v = Vec::new();
                let _ = p.read_to_end(&mut v);
                v
            }
        }
    }
}

/// One command of a pipeline, its prefixes (`VAR=`, `env`, `not`) and
/// redirections resolved.
struct Stage {
    /// As written, for the log.
    cmd_argv: Vec<String>,
    argv: Vec<String>,
    extra_vars: Vec<(String, String)>,
    unset: Vec<String>,
    negate: usize,
    crash_ok: bool,
    stdin_file: Option<PathBuf>,
    out_file: Option<(PathBuf, bool)>,
    err_file: Option<(PathBuf, bool)>,
    /// `&>`: stdout and stderr to `out_file`.
    both: bool,
    err_to_out: bool,
}

/// A started stage.
enum Running {
    Done(i32, Vec<u8>),
    Child {
        child: std::process::Child,
        /// Redirection errors, logged before the command's stderr.
        pre_err: Vec<u8>,
        err: Option<std::thread::JoinHandle<Vec<u8>>>,
        feeder: Option<std::thread::JoinHandle<()>>,
    },
}

fn open_out(p: &Path, append: bool) -> std::io::Result<std::fs::File> {
    if append {
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(p)
    } else {
        std::fs::File::create(p)
    }
}

fn collect<R: Read + Send + 'static>(r: Option<R>) -> Option<std::thread::JoinHandle<Vec<u8>>> {
    r.map(|mut r| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    })
}

impl Stage {
    fn new(c: &Cmd, env: &Env) -> Stage {
        let mut argv = c.argv.clone();
        let mut extra_vars: Vec<(String, String)> = Vec::new();
        let mut unset: Vec<String> = Vec::new();
        let mut negate = 0;
        let mut crash_ok = false;
        // Peel prefixes: VAR=val, env, not.
        while let Some(first) = argv.first().cloned() {
            if let Some(eq) = first.find('=') {
                if eq > 0
                    && first[..eq]
                        .chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
                {
                    extra_vars.push((first[..eq].to_string(), first[eq + 1..].to_string()));
                    argv.remove(0);
                    continue;
                }
            }
            if first == "env" {
                argv.remove(0);
                while let Some(a) = argv.first().cloned() {
                    if a == "-u" && argv.len() > 1 {
                        unset.push(argv[1].clone());
                        argv.drain(..2);
                    } else if let Some(eq) = a.find('=') {
                        extra_vars.push((a[..eq].to_string(), a[eq + 1..].to_string()));
                        argv.remove(0);
                    } else {
                        break;
                    }
                }
                continue;
            }
            if first == "not" {
                argv.remove(0);
                if argv.first().map(String::as_str) == Some("--crash") {
                    argv.remove(0);
                    crash_ok = true;
                }
                negate += 1;
                continue;
            }
            break;
        }
        let mut st = Stage {
            cmd_argv: c.argv.clone(),
            argv,
            extra_vars,
            unset,
            negate,
            crash_ok,
            stdin_file: None,
            out_file: None,
            err_file: None,
            both: false,
            err_to_out: c.err_to_out,
        };
        for (fd, app, f) in &c.redirs {
            let p = resolve(f, &env.cwd);
            match fd {
                0 => st.stdin_file = Some(p),
                1 => st.out_file = Some((p, *app)),
                2 => st.err_file = Some((p, *app)),
                _ => {
                    st.out_file = Some((p, *app));
                    st.both = true;
                }
            }
        }
        st
    }

    fn negated(&self, mut code: i32) -> i32 {
        for _ in 0..self.negate {
            code = if self.crash_ok {
                i32::from(code < 128)
            } else if code == 0 {
                1
            } else if code >= 128 {
                // `not` does not turn a crash into success.
                code
            } else {
                0
            };
        }
        code
    }

    /// Starts the stage reading `input`; returns it and what it passes on
    /// (`None` when its stdout went to a file).
    fn start(&self, input: Option<Source>, last: bool, env: &mut Env) -> (Running, Option<Source>) {
        let name = self.argv.first().map(String::as_str).unwrap_or("");
        if self.argv.is_empty() || is_builtin(name) {
            return self.run_builtin(input, env);
        }
        let prog = match env.tools.get(name) {
            Some(Some(p)) => p.clone(),
            Some(None) => return (Running::Done(127, vec![]), None),
            None => match find_in_path(name) {
                Some(p) => p,
                None => {
                    let msg = format!("'{name}': command not found\n").into_bytes();
                    return (Running::Done(127, msg), Some(Source::Bytes(vec![])));
                }
            },
        };
        let mut cmd = Command::new(&prog);
        cmd.args(&self.argv[1..]).current_dir(&env.cwd);
        for u in env.unset.iter().chain(&self.unset) {
            cmd.env_remove(u);
        }
        for (k, v) in env
            .vars
            .iter()
            .chain(self.extra_vars.iter().map(|(k, v)| (k, v)))
        {
            cmd.env(k, v);
        }
        // Tools named by their LLVM names find ours on PATH too.
        if let Some(Some(dir)) = env
            .tools
            .get("FileCheck")
            .map(|p| p.as_ref().and_then(|p| p.parent()))
        {
            let old = std::env::var_os("PATH").unwrap_or_default();
            let mut paths = vec![dir.to_path_buf()];
            paths.extend(std::env::split_paths(&old));
            if let Ok(joined) = std::env::join_paths(paths) {
                cmd.env("PATH", joined);
            }
        }
        let mut errs = Vec::new();
        // stdin: a file, the previous process's pipe, or bytes fed by a thread.
        let mut feed: Option<Source> = None;
        match (&self.stdin_file, input) {
            (Some(p), _) => match std::fs::File::open(p) {
                Ok(f) => {
                    cmd.stdin(Stdio::from(f));
                }
                Err(e) => {
                    let msg = format!("error: cannot read {}: {e}\n", p.display());
                    return (
                        Running::Done(1, msg.into_bytes()),
                        Some(Source::Bytes(vec![])),
                    );
                }
            },
            (None, Some(Source::Pipe(p))) => {
                cmd.stdin(Stdio::from(p));
            }
            (None, Some(src)) => {
                cmd.stdin(Stdio::piped());
                feed = Some(src);
            }
            (None, None) => {
                cmd.stdin(Stdio::null());
            }
        }
        // stdout and stderr.
        let mut to_file = false;
        match &self.out_file {
            Some((p, app)) => match open_out(p, *app) {
                Ok(f) => {
                    if self.both || self.err_to_out {
                        match f.try_clone() {
                            Ok(g) => {
                                cmd.stderr(Stdio::from(g));
                            }
                            Err(_) => {
                                cmd.stderr(Stdio::piped());
                            }
                        }
                    }
                    cmd.stdout(Stdio::from(f));
                    to_file = true;
                }
                Err(e) => {
                    // As in sh: the command does not run.
                    let msg = format!("error: cannot write {}: {e}\n", p.display());
                    return (
                        Running::Done(1, msg.into_bytes()),
                        Some(Source::Bytes(vec![])),
                    );
                }
            },
            None => {
                cmd.stdout(Stdio::piped());
            }
        }
        let err_in_out = self.both || self.err_to_out;
        if !(to_file && err_in_out) {
            match &self.err_file {
                Some((p, app)) if !err_in_out => match open_out(p, *app) {
                    Ok(f) => {
                        cmd.stderr(Stdio::from(f));
                    }
                    Err(e) => {
                        let msg = format!("error: cannot write {}: {e}\n", p.display());
                        return (
                            Running::Done(1, msg.into_bytes()),
                            Some(Source::Bytes(vec![])),
                        );
                    }
                },
                _ => {
                    cmd.stderr(Stdio::piped());
                }
            }
        }
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                errs.extend_from_slice(
                    format!("cannot run '{}': {e}\n", prog.display()).as_bytes(),
                );
                return (Running::Done(127, errs), Some(Source::Bytes(vec![])));
            }
        };
        let feeder = feed.and_then(|src| {
            child.stdin.take().map(|mut ci| {
                std::thread::spawn(move || {
                    // In this thread: a `2>&1` stage before is collected
                    // until it ends, which must not hold up the timeout.
                    let bytes = src.into_bytes();
                    // EPIPE when the process does not read it all: fine.
                    let _ = ci.write_all(&bytes);
                })
            })
        });
        let out = child.stdout.take();
        let errp = child.stderr.take();
        let (pass_on, err) = if to_file {
            (None, collect(errp))
        } else if err_in_out && !self.both {
            // `2>&1` into a pipe: stdout, then stderr, as one stream (std
            // has no pipe both could share before Rust 1.87).
            let (o, e) = (collect(out), collect(errp));
            let t = std::thread::spawn(move || {
                let mut v = o.and_then(|t| t.join().ok()).unwrap_or_default();
                v.extend(e.and_then(|t| t.join().ok()).unwrap_or_default());
                v
            });
            (Some(Source::Thread(t)), None)
        } else if last {
            (collect(out).map(Source::Thread), collect(errp))
        } else {
            (out.map(Source::Pipe), collect(errp))
        };
        let run = Running::Child {
            child,
            pre_err: errs,
            err,
            feeder,
        };
        (run, Some(pass_on.unwrap_or(Source::Bytes(vec![]))))
    }

    /// The builtins lit provides; they run in the shell itself.
    fn run_builtin(&self, input: Option<Source>, env: &mut Env) -> (Running, Option<Source>) {
        let stdin = match &self.stdin_file {
            Some(p) => match std::fs::read(p) {
                Ok(b) => b,
                Err(e) => {
                    let msg = format!("error: cannot read {}: {e}\n", p.display());
                    return (
                        Running::Done(1, msg.into_bytes()),
                        Some(Source::Bytes(vec![])),
                    );
                }
            },
            // Only `count` reads its input; for the others, dropping the
            // pipe lets the writer end (SIGPIPE) as in a real shell.
            None if self.argv.first().is_some_and(|a| a == "count") => {
                input.map(Source::into_bytes).unwrap_or_default()
            }
            None => Vec::new(),
        };
        let (code, mut out, mut err) = if self.argv.is_empty() {
            (0, vec![], vec![])
        } else {
            builtin(&self.argv, stdin, env)
        };
        if self.err_to_out || self.both {
            out.append(&mut err);
        }
        let mut log = Vec::new();
        let mut code = code;
        let mut write = |p: &PathBuf, app: bool, data: &[u8]| {
            if let Err(e) = open_out(p, app).and_then(|mut f| f.write_all(data)) {
                log.extend_from_slice(
                    format!("error: cannot write {}: {e}\n", p.display()).as_bytes(),
                );
                code = 1;
            }
        };
        if let Some((p, app)) = &self.err_file {
            write(p, *app, &err);
            err.clear();
        }
        if let Some((p, app)) = &self.out_file {
            write(p, *app, &out);
            out.clear();
        }
        err.extend(log);
        (Running::Done(code, err), Some(Source::Bytes(out)))
    }
}

impl Running {
    /// Waits for the stage (killing it at `deadline`); returns its status
    /// and its stderr.
    fn finish(self, deadline: Instant) -> (i32, Vec<u8>) {
        let (mut child, pre_err, err, feeder) = match self {
            Running::Done(code, err) => return (code, err),
            Running::Child {
                child,
                pre_err,
                err,
                feeder,
            } => (child, pre_err, err, feeder),
        };
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) => {
                    if Instant::now() > deadline {
                        let _ = child.kill();
                        let _ = child.wait();
                        break None;
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(_) => break None,
            }
        };
        if let Some(f) = feeder {
            let _ = f.join();
        }
        let mut all_err = pre_err;
        all_err.extend(err.and_then(|t| t.join().ok()).unwrap_or_default());
        let mut err = all_err;
        let code = match status {
            None => {
                err.extend_from_slice(b"error: timed out\n");
                124
            }
            Some(s) => match s.code() {
                Some(c) => c,
                None => {
                    use std::os::unix::process::ExitStatusExt;
                    128 + s.signal().unwrap_or(0)
                }
            },
        };
        (code, err)
    }
}

/// Runs a builtin; returns (status, stdout, stderr).
fn builtin(argv: &[String], stdin: Vec<u8>, env: &mut Env) -> (i32, Vec<u8>, Vec<u8>) {
    let name = argv[0].as_str();
    match name {
        "false" => (1, vec![], vec![]),
        "echo" => {
            let mut args = &argv[1..];
            let mut newline = true;
            while let Some(a) = args.first() {
                if a == "-n" {
                    newline = false;
                    args = &args[1..];
                } else if a == "-e" {
                    args = &args[1..];
                } else {
                    break;
                }
            }
            let mut s = args.join(" ");
            if newline {
                s.push('\n');
            }
            (0, s.into_bytes(), vec![])
        }
        // LLVM's `count N`: succeeds when stdin has exactly N lines.
        "count" => {
            let Some(want) = argv.get(1).and_then(|n| n.parse::<usize>().ok()) else {
                return (2, vec![], b"count: expected a line count\n".to_vec());
            };
            let mut lines = stdin.iter().filter(|&&c| c == b'\n').count();
            if stdin.last().is_some_and(|&c| c != b'\n') {
                lines += 1;
            }
            if lines == want {
                return (0, vec![], vec![]);
            }
            let msg = format!("Expected {want} lines, got {lines}.\n");
            (1, vec![], msg.into_bytes())
        }
        "cd" => {
            if let Some(d) = argv.get(1) {
                let to = resolve(d, &env.cwd);
                if !to.is_dir() {
                    let msg = format!("cd: {}: no such directory\n", to.display());
                    return (1, vec![], msg.into_bytes());
                }
                env.cwd = to;
            }
            (0, vec![], vec![])
        }
        "export" => {
            for a in &argv[1..] {
                if let Some(eq) = a.find('=') {
                    env.vars
                        .insert(a[..eq].to_string(), a[eq + 1..].to_string());
                }
            }
            (0, vec![], vec![])
        }
        "mkdir" => {
            for a in argv[1..].iter().filter(|a| !a.starts_with('-')) {
                let _ = std::fs::create_dir_all(resolve(a, &env.cwd));
            }
            (0, vec![], vec![])
        }
        "rm" => {
            for a in argv[1..].iter().filter(|a| !a.starts_with('-')) {
                let p = resolve(a, &env.cwd);
                if p.is_dir() {
                    let _ = std::fs::remove_dir_all(&p);
                } else {
                    let _ = std::fs::remove_file(&p);
                }
            }
            (0, vec![], vec![])
        }
        // `:` and `true`.
        _ => (0, vec![], vec![]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizes_quotes_and_operators() {
        let t = tokenize("echo 'a b' \"c\\\"d\" | not x 2>&1 > f && y").unwrap();
        assert_eq!(
            t,
            vec![
                Tok::Word("echo".into()),
                Tok::Word("a b".into()),
                Tok::Word("c\"d".into()),
                Tok::Pipe,
                Tok::Word("not".into()),
                Tok::Word("x".into()),
                Tok::ErrToOut,
                Tok::Redir(1, false, "f".into()),
                Tok::And,
                Tok::Word("y".into()),
            ]
        );
    }

    #[test]
    fn pipeline_with_builtins_and_not() {
        let mut env = Env {
            cwd: std::env::temp_dir(),
            vars: BTreeMap::new(),
            unset: vec![],
            tools: BTreeMap::new(),
            timeout: Duration::from_secs(20),
        };
        assert_eq!(run_script("not false && true", &mut env).code, 0);
        assert_eq!(run_script("not true", &mut env).code, 1);
        assert_eq!(run_script("false || echo hi", &mut env).code, 0);
        // Streamed: the writers end when `head` exits instead of running
        // (and filling memory) until the timeout.
        let o = run_script("yes | head -n 3", &mut env);
        assert_eq!(o.code, 0, "{}", o.log);
        assert!(o.log.ends_with("# command output:\ny\ny\ny\n"), "{}", o.log);
        let o = run_script("cat /dev/zero | head -c 5", &mut env);
        assert_eq!(o.code, 0, "{}", o.log);
        assert!(
            o.log.ends_with("# command output:\n\0\0\0\0\0"),
            "{}",
            o.log
        );
        // The last stage's SIGPIPE is not excused, nor any other failure.
        assert_ne!(run_script("yes | false", &mut env).code, 0);
        // Typos are failures, not silently skipped commands.
        for bad in ["true &&", "|| true", "true | | true", "|"] {
            let o = run_script(bad, &mut env);
            assert_eq!(o.code, 127, "{bad}: {}", o.log);
            assert!(o.log.starts_with("shell parse error"), "{}", o.log);
        }
        assert_eq!(run_script("true ; ", &mut env).code, 0);
        for unwritable in [
            "echo x > /nonexistent-dir/f",
            "cat /dev/null > /nonexistent-dir/f",
        ] {
            let o = run_script(unwritable, &mut env);
            assert_eq!(o.code, 1, "{unwritable}: {}", o.log);
            assert!(o.log.contains("error: cannot write"), "{}", o.log);
        }
        assert_eq!(run_script("cd /nonexistent-dir && true", &mut env).code, 1);
        env.tools.insert("mlir-cpu-runner".into(), None);
        let o = run_script("echo x | mlir-cpu-runner", &mut env);
        assert_eq!(o.missing_tool.as_deref(), Some("mlir-cpu-runner"));
    }
}
