//! An LLVM-compatible FileCheck.
//!
//! MLIR's tests pipe a tool's output into FileCheck; this crate lets the
//! project run those tests with no LLVM installed. Verdicts, exit codes and
//! diagnostics follow LLVM 14's FileCheck, whose own test suite is the
//! reference (`/work/shared/upstream-tests/filecheck-llvm14`).
//!
//! Dependencies: only `regex` (byte mode). It gives linear-time matching, so
//! a huge or binary input cannot blow up, and LLVM's POSIX syntax is
//! translated onto it in [`llvm_regex`] (differences documented there).
//! Same-line variable uses (`[[X:a+]] [[X]]`), which POSIX expresses with a
//! back-reference, are matched by repeating the definition's regex and
//! checking that both captures are equal.

pub mod check;
pub mod dump;
pub mod llvm_regex;
pub mod pattern;
pub mod sm;

use std::io::Read;

pub use check::{canonicalize, FileCheck};
pub use pattern::Request;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum DumpInput {
    Never,
    Fail,
    Always,
    Help,
}

/// Splits `FILECHECK_OPTS` like a POSIX shell word list (quotes, backslash).
pub fn tokenize_gnu(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_tok = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {
                if in_tok {
                    out.push(std::mem::take(&mut cur));
                    in_tok = false;
                }
            }
            '\\' => {
                in_tok = true;
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            '\'' | '"' => {
                in_tok = true;
                while let Some(n) = chars.next() {
                    if n == c {
                        break;
                    }
                    if n == '\\' && c == '"' {
                        if let Some(m) = chars.next() {
                            cur.push(m);
                        }
                        continue;
                    }
                    cur.push(n);
                }
            }
            _ => {
                in_tok = true;
                cur.push(c);
            }
        }
    }
    if in_tok {
        out.push(cur);
    }
    out
}

struct Options {
    req: Request,
    check_file: Option<String>,
    input_file: String,
    dump: Vec<DumpInput>,
    filters: Vec<dump::Filter>,
    contexts: Vec<usize>,
    color: bool,
}

fn parse_args(args: &[String], out: &mut Vec<u8>, err: &mut Vec<u8>) -> Result<Options, i32> {
    let mut o = Options {
        req: Request::default(),
        check_file: None,
        input_file: "-".into(),
        dump: vec![],
        filters: vec![],
        contexts: vec![],
        color: false,
    };
    let mut i = 0;
    let mut only_positional = false;
    let mut seen: Vec<&str> = Vec::new();
    let mut repeated = false;
    let fail = |err: &mut Vec<u8>, msg: String| {
        err.extend_from_slice(format!("FileCheck: {msg}\n").as_bytes());
        1
    };
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if only_positional || !a.starts_with('-') || a == "-" {
            if o.check_file.is_some() {
                return Err(fail(err, "Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: FileCheck --help".to_string()));
            }
            o.check_file = Some(a.clone());
            continue;
        }
        if a == "--" {
            only_positional = true;
            continue;
        }
        let body = a.trim_start_matches('-');
        if let Some(v) = body.strip_prefix('D') {
            // `-D` is an always-prefix option: its value must be attached.
            if v.is_empty() {
                return Err(fail(err, "for the -D option: requires a value!".into()));
            }
            o.req.global_defines.push(v.to_string());
            continue;
        }
        let (name, inline) = match body.find('=') {
            Some(p) => (&body[..p], Some(body[p + 1..].to_string())),
            None => (body, None),
        };
        let flag = |inline: &Option<String>| -> Result<bool, ()> {
            match inline.as_deref() {
                None | Some("true") | Some("TRUE") | Some("True") | Some("1") => Ok(true),
                Some("false") | Some("FALSE") | Some("False") | Some("0") => Ok(false),
                _ => Err(()),
            }
        };
        let bools: &[&str] = &[
            "strict-whitespace",
            "ignore-case",
            "allow-empty",
            "allow-unused-prefixes",
            "match-full-lines",
            "enable-var-scope",
            "allow-deprecated-dag-overlap",
            "v",
            "vv",
            "color",
        ];
        // LLVM's plain `cl::opt`s (not lists, not `-v`/`-vv`) take one
        // occurrence; each extra one is an error, reported as parsing goes
        // on, and the status is then 1.
        if ONCE.contains(&name) {
            if seen.contains(&name) {
                err.extend_from_slice(
                    format!(
                        "FileCheck: for the --{name} option: may only occur zero or one times!\n"
                    )
                    .as_bytes(),
                );
                repeated = true;
            }
            seen.push(name);
        }
        if bools.contains(&name) {
            let Ok(v) = flag(&inline) else {
                return Err(fail(
                    err,
                    format!(
                        "for the --{name} option: '{}' is invalid value for boolean argument! Try 0 or 1",
                        inline.unwrap_or_default()
                    ),
                ));
            };
            match name {
                "strict-whitespace" => o.req.strict_whitespace = v,
                "ignore-case" => o.req.ignore_case = v,
                "allow-empty" => o.req.allow_empty_input = v,
                "allow-unused-prefixes" => o.req.allow_unused_prefixes = v,
                "match-full-lines" => o.req.match_full_lines = v,
                "enable-var-scope" => o.req.enable_var_scope = v,
                "allow-deprecated-dag-overlap" => o.req.allow_deprecated_dag_overlap = v,
                "v" => o.req.verbose = v,
                "color" => o.color = v,
                "vv" => o.req.verbose_verbose = v,
                _ => {}
            }
            continue;
        }
        let valued = [
            "check-prefix",
            "check-prefixes",
            "comment-prefixes",
            "implicit-check-not",
            "input-file",
            "dump-input",
            "dump-input-filter",
            "dump-input-context",
        ];
        // On stdout, as LLVM prints them, so that a failed write shows.
        if name == "help" {
            out.extend_from_slice(
                b"OVERVIEW: mlir-async-filecheck, an LLVM-compatible FileCheck\n\nUSAGE: FileCheck [options] <check-file>\n",
            );
            return Err(0);
        }
        if name == "version" {
            out.extend_from_slice(
                format!(
                    "mlir-async-filecheck {} (LLVM 14 FileCheck)\n",
                    env!("CARGO_PKG_VERSION")
                )
                .as_bytes(),
            );
            return Err(0);
        }
        if !valued.contains(&name) {
            return Err(fail(
                err,
                format!("Unknown command line argument '{a}'.  Try: 'FileCheck --help'"),
            ));
        }
        let v = match inline {
            Some(v) => v,
            None => {
                if i < args.len() {
                    i += 1;
                    args[i - 1].clone()
                } else {
                    return Err(fail(
                        err,
                        format!("for the --{name} option: requires a value!"),
                    ));
                }
            }
        };
        match name {
            "check-prefix" | "check-prefixes" => {
                o.req.check_prefixes.extend(v.split(',').map(str::to_string))
            }
            "comment-prefixes" => o
                .req
                .comment_prefixes
                .extend(v.split(',').map(str::to_string)),
            "implicit-check-not" => o.req.implicit_check_not.push(v),
            "input-file" => o.input_file = v,
            "dump-input" => o.dump.push(match v.as_str() {
                "help" => DumpInput::Help,
                "always" => DumpInput::Always,
                "fail" => DumpInput::Fail,
                "never" => DumpInput::Never,
                _ => {
                    return Err(fail(
                        err,
                        format!("for the --dump-input option: Cannot find option named '{v}'!"),
                    ))
                }
            }),
            "dump-input-filter" => o.filters.push(match v.as_str() {
                "all" => dump::Filter::All,
                "annotation-full" => dump::Filter::AnnotationFull,
                "annotation" => dump::Filter::Annotation,
                "error" => dump::Filter::Error,
                _ => {
                    return Err(fail(
                        err,
                        format!(
                            "for the --dump-input-filter option: Cannot find option named '{v}'!"
                        ),
                    ))
                }
            }),
            _ => match v.parse::<usize>() {
                Ok(n) => o.contexts.push(n),
                Err(_) => {
                    return Err(fail(
                        err,
                        format!(
                            "for the --dump-input-context option: '{v}' value invalid for uint argument!"
                        ),
                    ))
                }
            },
        }
    }
    if repeated {
        return Err(1);
    }
    Ok(o)
}

const ONCE: &[&str] = &[
    "strict-whitespace",
    "ignore-case",
    "allow-empty",
    "match-full-lines",
    "enable-var-scope",
    "allow-deprecated-dag-overlap",
    "color",
    "input-file",
];

const DUMP_HELP: &str = "The following description was requested by -dump-input=help to
explain the input dump printed by FileCheck.

Related command-line options:

  - -dump-input=<value> enables or disables the input dump
  - -dump-input-filter=<value> filters the input lines
  - -dump-input-context=<N> adjusts the context of filtered lines
  - -v and -vv add more annotations
  - -color forces colors to be enabled both in the dump and below
  - -help documents the above options in more detail

These options can also be set via FILECHECK_OPTS.  For example, for
maximum debugging output on failures:

  $ FILECHECK_OPTS='-dump-input-filter=all -vv -color' ninja check

Input dump annotation format:

  - L:     labels line number L of the input file
           An extra space is added after each input line to represent the
           newline character
  - T:L    labels the only match result for either (1) a pattern of type T from
           line L of the check file if L is an integer or (2) the I-th implicit
           pattern if L is \"imp\" followed by an integer I (index origin one)
  - T:L'N  labels the Nth match result for such a pattern
  - ^~~    marks good match (reported if -v)
  - !~~    marks bad match, such as:
           - CHECK-NEXT on same line as previous match (error)
           - CHECK-NOT found (error)
           - CHECK-DAG overlapping match (discarded, reported if -vv)
  - X~~    marks search range when no match is found, such as:
           - CHECK-NEXT not found (error)
           - CHECK-NOT not found (success, reported if -vv)
           - CHECK-DAG not found after discarded matches (error)
  - ?      marks fuzzy match when no match is found
  - ...    indicates elided input lines and annotations, as specified by
           -dump-input-filter and -dump-input-context
  - colors success, error, fuzzy match, discarded match, unmatched input
";

/// Runs FileCheck. `args` excludes the program name; `env_opts` is the
/// value of `FILECHECK_OPTS`. Returns the exit status (0, 1 or 2).
pub fn run(
    args: &[String],
    env_opts: Option<&str>,
    stdin: &mut dyn Read,
    stdout: &mut Vec<u8>,
    stderr: &mut Vec<u8>,
) -> i32 {
    let mut all: Vec<String> = env_opts.map(tokenize_gnu).unwrap_or_default();
    all.extend(args.iter().cloned());
    let o = match parse_args(&all, stdout, stderr) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let dump_mode = o.dump.iter().copied().max().unwrap_or(DumpInput::Fail);
    let filter = o
        .filters
        .iter()
        .copied()
        .max()
        .unwrap_or(if dump_mode == DumpInput::Always {
            dump::Filter::All
        } else {
            dump::Filter::Error
        });
    let context = o.contexts.iter().copied().max().unwrap_or(5);
    if dump_mode == DumpInput::Help {
        stdout.extend_from_slice(DUMP_HELP.as_bytes());
        return 0;
    }
    let Some(check_file) = o.check_file.clone() else {
        stderr.extend_from_slice(b"<check-file> not specified\n");
        return 2;
    };
    let mut req = o.req.clone();
    if req.verbose_verbose {
        req.verbose = true;
    }
    for g in &req.global_defines {
        match g.find('=') {
            None => {
                stderr.extend_from_slice(
                    format!("Missing equal sign in command-line definition '-D{g}'\n").as_bytes(),
                );
                return 2;
            }
            Some(0) => {
                stderr.extend_from_slice(
                    format!("Missing variable name in command-line definition '-D{g}'\n")
                        .as_bytes(),
                );
                return 2;
            }
            _ => {}
        }
    }
    if !check::validate_prefixes(&req, stderr) {
        return 2;
    }
    let mut fc = FileCheck::new(req);
    let read = |name: &str, stdin: &mut dyn Read| -> std::io::Result<Vec<u8>> {
        if name == "-" {
            let mut v = Vec::new();
            stdin.read_to_end(&mut v)?;
            Ok(v)
        } else {
            std::fs::read(name)
        }
    };
    let check_text = match read(&check_file, stdin) {
        Ok(t) => t,
        Err(e) => {
            stderr.extend_from_slice(
                format!("Could not open check file '{check_file}': {}\n", io_msg(&e)).as_bytes(),
            );
            return 2;
        }
    };
    let mut sm = sm::SourceMgr {
        color: o.color,
        ..Default::default()
    };
    let strict = fc.req.strict_whitespace;
    let check_name = if check_file == "-" {
        "<stdin>"
    } else {
        &check_file
    };
    let cb = sm.add(check_name, canonicalize(&check_text, strict));
    if !fc.read_check_file(&mut sm, cb, stderr) {
        return if fc.ctx.exit_status_one { 1 } else { 2 };
    }
    let input_name = if o.input_file == "-" {
        "<stdin>".to_string()
    } else {
        o.input_file.clone()
    };
    let input = match read(&o.input_file, stdin) {
        Ok(t) => t,
        Err(e) => {
            stderr.extend_from_slice(
                format!("Could not open input file '{input_name}': {}\n", io_msg(&e)).as_bytes(),
            );
            return 2;
        }
    };
    if input.is_empty() && !fc.req.allow_empty_input {
        stderr.extend_from_slice(format!("FileCheck error: '{input_name}' is empty.\n").as_bytes());
        let mut line = String::from("FileCheck command line: ");
        line.push_str(" FileCheck");
        for a in args {
            line.push(' ');
            line.push_str(a);
        }
        line.push('\n');
        stderr.extend_from_slice(line.as_bytes());
        return 2;
    }
    let ib = sm.add(&input_name, canonicalize(&input, strict));
    let mut diags = Vec::new();
    let ok = fc.check_input(
        &sm,
        ib,
        stderr,
        if dump_mode == DumpInput::Never {
            None
        } else {
            Some(&mut diags)
        },
    );
    let code = if ok { 0 } else { 1 };
    if dump_mode == DumpInput::Always || (code == 1 && dump_mode == DumpInput::Fail) {
        stderr.extend_from_slice(
            format!(
                "\nInput file: {input_name}\nCheck file: {check_file}\n\n-dump-input=help explains the following input dump.\n\n"
            )
            .as_bytes(),
        );
        dump::dump(stderr, &sm, ib, cb, fc.imp_range, &diags, filter, context);
    }
    code
}

fn io_msg(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "No such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "Permission denied".into(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(p) => s[..p].to_string(),
                None => s,
            }
        }
    }
}
