//! A write that fails is never a success: each binary, with stdout on
//! `/dev/full` and with stdout closed, must say "IO failure on output
//! stream" and exit non-zero (mlir-async-opt and mlir-async-run: 1, as
//! mlir-opt 15; FileCheck and lit: 2, a tool error rather than a verdict). The same commands with
//! stdout on `/dev/null` must succeed, so the failure is the write's.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

enum Sink {
    Full,
    Closed,
    Null,
}

fn run(bin: &str, args: &[&str], stdin: &[u8], sink: Sink) -> Output {
    // A closed fd 1 can only be had through a shell: std always gives the
    // child one.
    let mut cmd = match sink {
        Sink::Closed => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg("exec \"$0\" \"$@\" >&-")
                .arg(bin)
                .args(args);
            c.stdout(Stdio::null());
            c
        }
        Sink::Full | Sink::Null => {
            let mut c = Command::new(bin);
            c.args(args);
            let path = if matches!(sink, Sink::Full) {
                "/dev/full"
            } else {
                "/dev/null"
            };
            let f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            c.stdout(Stdio::from(f));
            c
        }
    };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mlir-async-write-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn expect_failure(bin: &str, args: &[&str], stdin: &[u8], code: i32) {
    for (sink, why) in [
        (Sink::Full, "No space left on device"),
        (Sink::Closed, "Bad file descriptor"),
    ] {
        let o = run(bin, args, stdin, sink);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{bin} {args:?}: {err}");
        assert!(
            err.contains(&format!("IO failure on output stream: {why}")),
            "{bin} {args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let o = run(bin, args, stdin, Sink::Null);
    assert!(
        o.status.success(),
        "{bin} {args:?} to /dev/null: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

const MODULE: &str = "func @f() {\n  return\n}\n";

#[test]
fn opt_output_help_and_version() {
    let opt = env!("CARGO_BIN_EXE_mlir-async-opt");
    let f = tmp("m.mlir", MODULE);
    let f = f.to_str().unwrap();
    let split = tmp("s.mlir", &format!("{MODULE}// -----\n{MODULE}"));
    let split = split.to_str().unwrap();
    expect_failure(opt, &[f], b"", 1);
    expect_failure(opt, &[f, "-o", "-"], b"", 1);
    expect_failure(opt, &[f, "-async-to-async-runtime"], b"", 1);
    expect_failure(
        opt,
        &[f, "--mlir-shards=2", "-async-to-async-runtime"],
        b"",
        1,
    );
    expect_failure(opt, &["-"], MODULE.as_bytes(), 1);
    expect_failure(opt, &[split, "-split-input-file"], b"", 1);
    expect_failure(opt, &["--help"], b"", 1);
    expect_failure(opt, &["--version"], b"", 1);
}

/// With nothing to write, a closed stdout is no error (mlir-opt 15 agrees):
/// `-verify-diagnostics` of an input whose only output is its diagnostics.
#[test]
fn opt_without_output_ignores_closed_stdout() {
    let opt = env!("CARGO_BIN_EXE_mlir-async-opt");
    let f = tmp(
        "v.mlir",
        "// expected-error @+1 {{unregistered dialect}}\nnope.op\n",
    );
    let o = run(
        opt,
        &["-verify-diagnostics", f.to_str().unwrap()],
        b"",
        Sink::Closed,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn filecheck_help_version_and_dump_help() {
    let fc = env!("CARGO_BIN_EXE_mlir-async-filecheck");
    expect_failure(fc, &["--help"], b"", 2);
    expect_failure(fc, &["--version"], b"", 2);
    expect_failure(fc, &["--dump-input=help"], b"", 2);
}

#[test]
fn lit_report_help_and_version() {
    let lit = env!("CARGO_BIN_EXE_mlir-async-lit");
    let t = tmp("t.txt", "RUN: true\n");
    expect_failure(lit, &[t.to_str().unwrap()], b"", 2);
    expect_failure(lit, &["--help"], b"", 2);
    expect_failure(lit, &["--version"], b"", 2);
}

/// The runner writes its help, the entry point's result and the program's
/// own output (C stdio, flushed at the end of the run): a failure of any is
/// an error. mlir-cpu-runner-14 aborts on the first two and exits 0 having
/// lost the third.
#[test]
fn run_help_result_and_program_output() {
    let run_bin = env!("CARGO_BIN_EXE_mlir-async-run");
    let prog = tmp(
        "p.mlir",
        "llvm.func @printI64(i64)\nllvm.func @printNewline()\nllvm.func @main() {\n  %0 = llvm.mlir.constant(42 : i64) : i64\n  llvm.call @printI64(%0) : (i64) -> ()\n  llvm.call @printNewline() : () -> ()\n  llvm.return\n}\nllvm.func @answer() -> i32 {\n  %0 = llvm.mlir.constant(7 : i32) : i32\n  llvm.return %0 : i32\n}\nllvm.func @quiet() {\n  llvm.return\n}\n",
    );
    let prog = prog.to_str().unwrap();
    expect_failure(run_bin, &["--help"], b"", 1);
    expect_failure(run_bin, &["--version"], b"", 1);
    expect_failure(
        run_bin,
        &[prog, "-e", "main", "-entry-point-result=void"],
        b"",
        1,
    );
    expect_failure(
        run_bin,
        &[prog, "-e", "answer", "-entry-point-result=i32"],
        b"",
        1,
    );
    // A program that prints nothing succeeds with stdout closed.
    let o = run(
        run_bin,
        &[prog, "-e", "quiet", "-entry-point-result=void"],
        b"",
        Sink::Closed,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `-o FILE`: a file that cannot be created and one that cannot be written
/// fail with mlir-opt's two messages.
#[test]
fn opt_output_file_errors() {
    let opt = env!("CARGO_BIN_EXE_mlir-async-opt");
    let f = tmp("o.mlir", MODULE);
    let f = f.to_str().unwrap();
    for (out, msg) in [
        (
            "/dev/full",
            "mlir-async-opt: IO failure on output stream: No space left on device\n",
        ),
        (
            "/nonexistent-dir/out.mlir",
            "cannot open output file '/nonexistent-dir/out.mlir': No such file or directory\n",
        ),
    ] {
        for extra in [
            &[][..],
            &["-split-input-file"],
            &["-async-to-async-runtime"],
        ] {
            let mut args = vec![f, "-o", out];
            args.extend_from_slice(extra);
            let o = run(opt, &args, b"", Sink::Null);
            assert_eq!(o.status.code(), Some(1), "{args:?}");
            assert_eq!(String::from_utf8_lossy(&o.stderr), msg, "{args:?}");
        }
    }
}

/// A reader that goes away (`| head`): status 74 (EX_IOERR) and no message,
/// as mlir-opt 15 (LLVM's pipe-signal handler). The output is larger than
/// a pipe's buffer, so the write fails whenever the reader closes.
#[test]
fn opt_broken_pipe_is_silent_ex_ioerr() {
    let opt = env!("CARGO_BIN_EXE_mlir-async-opt");
    let mut text = String::from("func @f() {\n");
    for i in 0..4000 {
        text.push_str(&format!("  %c{i} = arith.constant {i} : i32\n"));
    }
    text.push_str("  return\n}\n");
    let f = tmp("big.mlir", &text);
    for extra in [&[][..], &["-split-input-file"]] {
        let mut child = Command::new(opt)
            .arg(&f)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(74), "{extra:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), "", "{extra:?}");
    }
}
