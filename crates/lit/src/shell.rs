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
    let mut input: Vec<u8> = Vec::new();
    let mut status = 0;
    let n = cmds.len();
    for (i, c) in cmds.iter().enumerate() {
        o.log.push_str(&format!("$ {}\n", shell_quote(&c.argv)));
        let (code, out) = run_cmd(c, std::mem::take(&mut input), env, o);
        if o.missing_tool.is_some() {
            return 127;
        }
        // lit runs pipelines with pipefail.
        if code != 0 {
            o.log
                .push_str(&format!("error: command failed with exit status: {code}\n"));
            status = code;
        } else if i + 1 == n && status == 0 {
            status = 0;
        }
        input = out;
    }
    if !input.is_empty() {
        o.log.push_str("# command output:\n");
        o.log.push_str(&String::from_utf8_lossy(&input));
    }
    status
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

/// Runs one command with `stdin`; returns (status, stdout bytes). Stderr
/// goes to the log unless redirected.
fn run_cmd(c: &Cmd, stdin: Vec<u8>, env: &mut Env, o: &mut Outcome) -> (i32, Vec<u8>) {
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
    let mut stdin = stdin;
    let mut out_file: Option<(PathBuf, bool)> = None;
    let mut err_file: Option<(PathBuf, bool)> = None;
    let mut both = false;
    for (fd, app, f) in &c.redirs {
        let p = resolve(f, &env.cwd);
        match fd {
            0 => {
                stdin = match std::fs::read(&p) {
                    Ok(b) => b,
                    Err(e) => {
                        o.log.push_str(&format!("error: cannot read {f}: {e}\n"));
                        return (1, vec![]);
                    }
                }
            }
            1 => out_file = Some((p, *app)),
            2 => err_file = Some((p, *app)),
            _ => {
                out_file = Some((p, *app));
                both = true;
            }
        }
    }
    let (mut code, out, err) = if argv.is_empty() {
        (0, vec![], vec![])
    } else {
        exec(&argv, &extra_vars, &unset, stdin, env, o)
    };
    if o.missing_tool.is_some() {
        return (127, vec![]);
    }
    let mut out = out;
    let mut err = err;
    if c.err_to_out || both {
        out.extend_from_slice(&err);
        err.clear();
    }
    let write = |p: &PathBuf, app: bool, data: &[u8], o: &mut Outcome| {
        let r = if app {
            std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(p)
                .and_then(|mut f| f.write_all(data))
        } else {
            std::fs::write(p, data)
        };
        if let Err(e) = r {
            o.log
                .push_str(&format!("error: cannot write {}: {e}\n", p.display()));
        }
    };
    if let Some((p, app)) = &err_file {
        write(p, *app, &err, o);
        err.clear();
    }
    if !err.is_empty() {
        o.log.push_str("# command stderr:\n");
        o.log.push_str(&String::from_utf8_lossy(&err));
    }
    if let Some((p, app)) = &out_file {
        write(p, *app, &out, o);
        out.clear();
    }
    for _ in 0..negate {
        code = if crash_ok {
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
    (code, out)
}

fn exec(
    argv: &[String],
    extra: &[(String, String)],
    unset: &[String],
    stdin: Vec<u8>,
    env: &mut Env,
    o: &mut Outcome,
) -> (i32, Vec<u8>, Vec<u8>) {
    let name = argv[0].as_str();
    match name {
        ":" | "true" => return (0, vec![], vec![]),
        "false" => return (1, vec![], vec![]),
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
            return (0, s.into_bytes(), vec![]);
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
            return (1, vec![], msg.into_bytes());
        }
        "cd" => {
            if let Some(d) = argv.get(1) {
                env.cwd = resolve(d, &env.cwd);
            }
            return (0, vec![], vec![]);
        }
        "export" => {
            for a in &argv[1..] {
                if let Some(eq) = a.find('=') {
                    env.vars
                        .insert(a[..eq].to_string(), a[eq + 1..].to_string());
                }
            }
            return (0, vec![], vec![]);
        }
        "mkdir" => {
            for a in argv[1..].iter().filter(|a| !a.starts_with('-')) {
                let _ = std::fs::create_dir_all(resolve(a, &env.cwd));
            }
            return (0, vec![], vec![]);
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
            return (0, vec![], vec![]);
        }
        _ => {}
    }
    let prog = match env.tools.get(name) {
        Some(Some(p)) => p.clone(),
        Some(None) => {
            o.missing_tool = Some(name.to_string());
            return (127, vec![], vec![]);
        }
        None => match find_in_path(name) {
            Some(p) => p,
            None => {
                return (
                    127,
                    vec![],
                    format!("'{name}': command not found\n").into_bytes(),
                )
            }
        },
    };
    let mut cmd = Command::new(&prog);
    cmd.args(&argv[1..])
        .current_dir(&env.cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for u in env.unset.iter().chain(unset) {
        cmd.env_remove(u);
    }
    for (k, v) in env.vars.iter() {
        cmd.env(k, v);
    }
    for (k, v) in extra {
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
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return (
                127,
                vec![],
                format!("cannot run '{}': {e}\n", prog.display()).into_bytes(),
            )
        }
    };
    let mut cin = child.stdin.take();
    let wt = std::thread::spawn(move || {
        if let Some(ci) = cin.as_mut() {
            let _ = ci.write_all(&stdin);
        }
    });
    let mut cout = child.stdout.take();
    let mut cerr = child.stderr.take();
    let rt = std::thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(c) = cout.as_mut() {
            let _ = c.read_to_end(&mut v);
        }
        v
    });
    let et = std::thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(c) = cerr.as_mut() {
            let _ = c.read_to_end(&mut v);
        }
        v
    });
    let deadline = Instant::now() + env.timeout;
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
    let _ = wt.join();
    let out = rt.join().unwrap_or_default();
    let mut err = et.join().unwrap_or_default();
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
    (code, out, err)
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
            timeout: Duration::from_secs(10),
        };
        assert_eq!(run_script("not false && true", &mut env).code, 0);
        assert_eq!(run_script("not true", &mut env).code, 1);
        assert_eq!(run_script("false || echo hi", &mut env).code, 0);
        env.tools.insert("mlir-cpu-runner".into(), None);
        let o = run_script("echo x | mlir-cpu-runner", &mut env);
        assert_eq!(o.missing_tool.as_deref(), Some("mlir-cpu-runner"));
    }
}
