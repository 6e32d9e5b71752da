//! The lexer on bytes mlir-opt reads and ours used to mishandle: a bare
//! carriage return ends a `//` comment, NUL and bytes that are not UTF-8
//! are fine in comments and string literals (and keep their value in
//! strings), and nesting far deeper than a hundred levels parses,
//! verifies and prints. Expected texts are mlir-opt-15's output on the
//! same input.

use mlir_async_dialects::{verify::verify, Registry};
use mlir_async_ir::{parallel::with_deep_stack, Context};
use mlir_async_syntax::{decode_source, parse_source_bytes, print_op, Diagnostic, PrintOptions};

/// Parses, verifies and prints as `mlir-async-opt` does, on a deep stack
/// as the tool runs (a test thread has 2 MB).
fn opt(src: &[u8]) -> Result<String, Diagnostic> {
    let src = src.to_vec();
    with_deep_stack(move || {
        let mut ctx = Context::new();
        let reg = Registry::new(&mut ctx);
        let text = decode_source(&src);
        let parsed = parse_source_bytes(&mut ctx, &reg, "t.mlir", &text, &src, 0, true)?;
        verify(&ctx, &reg, parsed.module, parsed.edition)
            .map_err(|e| Diagnostic::from_ir(&ctx, &e))?;
        let opts = PrintOptions {
            edition: parsed.edition,
            generic: false,
            debug_info: false,
        };
        Ok(print_op(&ctx, &reg, parsed.module, opts))
    })
}

#[test]
fn a_bare_carriage_return_ends_a_comment() {
    let src = b"func.func @f() {\n  // comment\r  %c = arith.constant 1 : i32\n  \"test.keep\"(%c) : (i32) -> ()\n  return\n}\n";
    let want = "module {\n  func.func @f() {\n    %c1_i32 = arith.constant 1 : i32\n    \"test.keep\"(%c1_i32) : (i32) -> ()\n    return\n  }\n}\n";
    assert_eq!(opt(src).expect("parses"), want);
}

#[test]
fn crlf_line_ends_are_whitespace() {
    let src = b"func.func @f() {\r\n  // comment\r\n  %c = arith.constant 2 : i32 // trailing\r\n  return\r\n}\r\n";
    let want =
        "module {\n  func.func @f() {\n    %c2_i32 = arith.constant 2 : i32\n    return\n  }\n}\n";
    assert_eq!(opt(src).expect("parses"), want);
}

#[test]
fn nul_and_invalid_utf8_in_comments_and_strings() {
    let src = b"// c\x00mm\xff\xfeent\nfunc.func @f(%t: i1) {\n  cf.assert %t, \"a\x00b\xffc\xc3\xa9\\FF\\0a\"\n  return\n}\n";
    let want = "module {\n  func.func @f(%arg0: i1) {\n    cf.assert %arg0, \"a\\00b\\FFc\\C3\\A9\\FF\\0A\"\n    return\n  }\n}\n";
    assert_eq!(opt(src).expect("parses"), want);
}

#[test]
fn invalid_utf8_outside_comments_and_strings_is_an_error() {
    for src in [
        &b"func.func @f() {\n  \xff\n  return\n}\n"[..],
        b"func.func @f\xc3() {\n  return\n}\n",
        b"\x00func.func @f() {\n  return\n}\n",
    ] {
        let d = opt(src).expect_err("rejected");
        assert!(d.line >= 1, "{}", d.message);
    }
}

#[test]
fn a_line_break_in_a_string_is_reported_where_it_is() {
    // mlir-opt-15: `t.mlir:2:19: error: expected '"' in string literal`
    // for a vertical tab, form feed or newline inside the literal.
    for brk in [b'\n', 0x0b, 0x0c] {
        let mut src = b"func.func @f(%t: i1) {\n  cf.assert %t, \"a".to_vec();
        src.push(brk);
        src.extend_from_slice(b"b\"\n  return\n}\n");
        let d = opt(&src).expect_err("unterminated");
        assert_eq!(
            (d.line, d.col, d.message.as_str()),
            (2, 19, "expected '\"' in string literal")
        );
    }
}

/// `depth` nested `async.execute` regions.
fn nested_regions(depth: usize) -> String {
    format!(
        "func.func @f() {{\n{}{}  return\n}}\n",
        "%t = async.execute {\n".repeat(depth),
        "async.yield\n}\n".repeat(depth)
    )
}

#[test]
fn a_thousand_nested_regions_parse_verify_and_print() {
    let out = opt(nested_regions(1000).as_bytes()).expect("accepted");
    assert_eq!(out.matches("async.execute {").count(), 1000);
    // mlir-opt-15 prints 3005 lines and an empty one for this input (three
    // per level, five for the function and module).
    assert_eq!(out.lines().count(), 3005);
    // Indentation grows by two per level: the innermost yield is indented
    // by 2 * (1000 + 2).
    let deepest = out.lines().map(|l| l.len() - l.trim_start().len()).max();
    assert_eq!(deepest, Some(2004));
}

#[test]
fn a_thousand_nested_types_parse_verify_and_print() {
    let ty = format!("{}i32{}", "tuple<".repeat(1000), ">".repeat(1000));
    let src = format!("func.func @f(%a: {ty}) {{\n  return\n}}\n");
    let out = opt(src.as_bytes()).expect("accepted");
    assert_eq!(
        out,
        format!("module {{\n  func.func @f(%arg0: {ty}) {{\n    return\n  }}\n}}\n")
    );
}

#[test]
fn nesting_past_the_limit_is_a_diagnostic() {
    let d = opt(nested_regions(5000).as_bytes()).expect_err("too deep");
    assert_eq!(d.message, "nesting too deep");
    let ty = format!("{}i32{}", "tuple<".repeat(9000), ">".repeat(9000));
    let src = format!("func.func @f(%a: {ty}) {{\n  return\n}}\n");
    let d = opt(src.as_bytes()).expect_err("too deep");
    assert_eq!((d.line, d.message.as_str()), (1, "nesting too deep"));
}
