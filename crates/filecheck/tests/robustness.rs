//! Bad input must give a diagnostic and exit status, never a panic: random
//! bytes as check file and input, truncated directives, and a large input.

use std::io::Write;

fn run_with(check: &[u8], input: &[u8], extra: &[&str]) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!("fc-robust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Tests run in parallel: each call gets its own check file.
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let chk = dir.join(format!("check{n}.txt"));
    std::fs::File::create(&chk)
        .unwrap()
        .write_all(check)
        .unwrap();
    let mut args: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    args.push(chk.display().to_string());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = mlir_async_filecheck::run(&args, None, &mut &input[..], &mut out, &mut err);
    let _ = std::fs::remove_file(&chk);
    (code, String::from_utf8_lossy(&err).into_owned())
}

#[test]
fn random_bytes_never_panic() {
    let mut seed: u64 = 0x9e3779b97f4a7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet = b"CHECK-NEXT:DAG{}[]#%@$()|*+?.\\,=: \n\tx0123\xff\x00";
    for _ in 0..300 {
        let len = (next() % 80) as usize;
        let check: Vec<u8> = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        let mut check_file = b"CHECK: ".to_vec();
        check_file.extend_from_slice(&check);
        let input: Vec<u8> = (0..(next() % 200)).map(|_| (next() & 0xff) as u8).collect();
        let (code, _) = run_with(&check_file, &input, &["--allow-empty"]);
        assert!((0..=2).contains(&code), "exit {code}");
    }
}

#[test]
fn malformed_check_files_exit_2_with_llvm_text() {
    let cases: &[(&[u8], &str)] = &[
        (
            b"CHECK: {{abc",
            "found start of regex string with no end '}}'",
        ),
        (b"CHECK: [[X", "Invalid substitution block, no ]] found"),
        (
            b"CHECK: {{*}}",
            "invalid regex: repetition-operator operand invalid",
        ),
        (b"CHECK:\n", "found empty check string with prefix 'CHECK:'"),
        (
            b"CHECK-COUNT-0: x",
            "invalid count in -COUNT specification on prefix 'CHECK'",
        ),
        (
            b"CHECK-DAG-NOT: x",
            "unsupported -NOT combo on prefix 'CHECK'",
        ),
        (
            b"CHECK: [[#%z,N:]]",
            "invalid format specifier in expression",
        ),
        (
            b"no directives",
            "no check strings found with prefix 'CHECK:'",
        ),
    ];
    for (check, msg) in cases {
        let (code, err) = run_with(check, b"abc\n", &[]);
        assert_eq!(code, 2, "{}", String::from_utf8_lossy(check));
        assert!(err.contains(msg), "{err}");
    }
}

#[test]
fn undefined_variable_is_a_match_failure() {
    let (code, err) = run_with(b"CHECK: [[UNDEF]]", b"abc\n", &[]);
    assert_eq!(code, 1);
    assert!(err.contains("error: undefined variable: UNDEF"), "{err}");
}

#[test]
fn large_and_binary_input() {
    let mut input = Vec::new();
    for i in 0..200_000u32 {
        input.extend_from_slice(format!("line {i} \u{1}\u{ff}\n").as_bytes());
    }
    input.extend_from_slice(b"\xff\xfe end marker\n");
    let (code, _) = run_with(b"CHECK: line 199999\nCHECK: end marker\n", &input, &[]);
    assert_eq!(code, 0);
    let (code, err) = run_with(b"CHECK: no such text\n", &input, &["--dump-input=never"]);
    assert_eq!(code, 1);
    assert!(err.contains("expected string not found"));
}

/// LLVM 14 checks a `{{...}}` back-reference against the fragment alone (a
/// reference to a group not closed there is a bad check file, status 2),
/// but the pattern it builds then never matches: status 1, whatever the
/// input, even through an alternation.
#[test]
fn back_references_follow_llvm_14() {
    for input in [&b"aa\n"[..], b"a1\n", b"b\n"] {
        for check in [
            &b"CHECK: {{(a)\\1}}"[..],
            b"CHECK: {{(a)\\1|b}}",
            b"CHECK: [[V:(a)\\1]]",
        ] {
            let (code, err) = run_with(check, input, &["--dump-input=never"]);
            assert_eq!(code, 1, "{}", String::from_utf8_lossy(check));
            assert!(
                err.contains("error: CHECK: expected string not found in input"),
                "{err}"
            );
        }
    }
    for check in [
        &b"CHECK: {{(a)}}{{\\1}}"[..],
        b"CHECK: {{(a\\1)}}",
        b"CHECK: {{\\2(a)}}",
    ] {
        let (code, err) = run_with(check, b"aa\n", &[]);
        assert_eq!(code, 2, "{}", String::from_utf8_lossy(check));
        assert!(
            err.contains("error: invalid regex: invalid backreference number"),
            "{err}"
        );
    }
}

/// LLVM's `FindRegexVarEnd` calls `exit(1)` on a `]` that closes nothing in a
/// variable's regex, before any matching: status 1, only that message.
#[test]
fn unbalanced_bracket_in_variable_regex_exits_1() {
    let (code, err) = run_with(b"CHECK: [[V:a[]-9]+]]\nCHECK: b\n", b"b\n", &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains(":1:17: error: missing closing \"]\" for regex variable"),
        "{err}"
    );
    assert!(!err.contains("expected string"), "{err}");
    let (code, err) = run_with(
        b"CHECK: b\n",
        b"b\n",
        &["--implicit-check-not=[[V:a[]-9]+]]"],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("missing closing \"]\" for regex variable"),
        "{err}"
    );
}

/// A directive that ends the file (no newline) keeps the text after its
/// prefix as its pattern, as LLVM 14 does: `CHECK:` looks for `:`, and
/// `CHECK-DAG:` for `-DAG:`; neither is an empty-pattern error.
#[test]
fn directive_at_end_of_file_keeps_its_suffix() {
    let (code, err) = run_with(b"CHECK:", b"abc\n", &["--dump-input=never"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(":1:6: error: CHECK: expected string not found in input"),
        "{err}"
    );
    assert_eq!(run_with(b"CHECK:", b"a:c\n", &[]).0, 0);
    let (code, err) = run_with(b"CHECK: a\nCHECK-DAG:", b"a\n-DAG:\n", &[]);
    assert_eq!(code, 0, "{err}");
}

/// LLVM's plain options take one occurrence (status 1, one message per
/// extra one); `-v` and `--allow-unused-prefixes` any number.
#[test]
fn repeated_options() {
    let (code, err) = run_with(
        b"CHECK: a\n",
        b"a\n",
        &["--allow-empty", "--strict-whitespace", "--allow-empty"],
    );
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "FileCheck: for the --allow-empty option: may only occur zero or one times!\n"
    );
    let (code, err) = run_with(
        b"CHECK: a\n",
        b"a\n",
        &[
            "-v",
            "-v",
            "--allow-unused-prefixes",
            "--allow-unused-prefixes",
        ],
    );
    assert_eq!(code, 0, "{err}");
}

/// Numeric literals are read as `StringRef::consumeInteger` with radix 0:
/// 0x, 0b, 0o and a leading 0 (octal) prefixes; a legacy `[[@LINE+N]]`
/// offset is unsigned decimal only.
#[test]
fn numeric_literal_radixes() {
    for (check, input, want) in [
        ("CHECK: v[[#010]]", "v8", 0),
        ("CHECK: v[[#010]]", "v10", 1),
        ("CHECK: v[[#0b101]]", "v5", 0),
        ("CHECK: v[[#0o17]]", "v15", 0),
        ("CHECK: v[[#0x1f]]", "v31", 0),
        ("CHECK: v[[#@LINE+010]]", "v9", 0),
        ("CHECK: v[[#08]]", "v8", 2),
        ("CHECK: v[[@LINE--1]]", "v0", 2),
    ] {
        let (code, err) = run_with(check.as_bytes(), format!("{input}\n").as_bytes(), &[]);
        assert_eq!(code, want, "{check} on {input}: {err}");
    }
    let (_, err) = run_with(b"CHECK: v[[#0xg]]", b"v\n", &[]);
    assert!(
        err.contains(":1:14: error: invalid matching constraint or operand format"),
        "{err}"
    );
}

/// Nesting that would overflow the stack (LLVM 14 crashes on all of these)
/// is a diagnostic and status 2; nesting a real check could use still works.
#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let regex = |n: usize| format!("CHECK: {{{{{}a{}}}}}\n", "(".repeat(n), ")".repeat(n));
    let num = |n: usize| format!("CHECK: [[#{}1{}]]\n", "(".repeat(n), ")".repeat(n));
    assert_eq!(run_with(regex(150).as_bytes(), b"a\n", &[]).0, 0);
    let (code, err) = run_with(regex(100_000).as_bytes(), b"a\n", &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("invalid regex: parentheses nested too deeply"),
        "{err}"
    );
    assert_eq!(run_with(num(50).as_bytes(), b"1\n", &[]).0, 0);
    let (code, err) = run_with(num(100_000).as_bytes(), b"1\n", &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("numeric expression nested too deeply"),
        "{err}"
    );
    let chain = format!("CHECK: [[#{}1]]\n", "1+".repeat(50_000));
    let (code, err) = run_with(chain.as_bytes(), b"50001\n", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("numeric expression too long"), "{err}");
    let chain = format!("CHECK: [[#{}1]]\n", "1+".repeat(500));
    assert_eq!(run_with(chain.as_bytes(), b"501\n", &[]).0, 0);
}
