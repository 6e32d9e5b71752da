//! Bad input never panics: every corpus file and a few inline samples go
//! through many seeded mutations (line edits, byte flips, truncation,
//! random tokens, deep nesting, a very long line), and each mutant is
//! parsed, verified and printed through the library entry points. A panic
//! anywhere, or a failure reported without a source line, fails the test.
//!
//! Deterministic: the mutations come from a fixed-seed PRNG, so a failure
//! names the file and case number that reproduce it.

use mlir_async_dialects::{verify::verify, Registry};
use mlir_async_ir::Context;
use mlir_async_syntax::{parse_source, print_op, Diagnostic, PrintOptions};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// xorshift64*: small, fast, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    ",",
    ":",
    "=",
    "->",
    "-",
    "%",
    "%0",
    "%x#5",
    "%0:3",
    "^bb1",
    "^bb0(%a: i32):",
    "@f",
    "@\"q\"",
    "!async.token",
    "!async.value<",
    "!async.group",
    "!x.y<",
    "i32",
    "index",
    "f32",
    "memref<?x",
    "tensor<*x",
    "vector<4x",
    "#map",
    "#map0 = ",
    "affine_map<(d0) -> (d0)>",
    "\"",
    "\"\\",
    "loc(",
    "loc(#loc1)",
    "loc(\"f\":1:2)",
    "loc(fused[",
    "dense<",
    "dense<[1, 2]> : vector<3xi32>",
    "0x",
    "0x7FF",
    "1e999",
    "-0.",
    "99999999999999999999999999999999999999999",
    "true",
    "unit",
    "attributes",
    "{a}",
    "async.execute",
    "async.await",
    "async.yield",
    "scf.yield",
    "scf.for",
    "scf.if",
    "func.func @g() {",
    "return",
    "cf.br ^bb1",
    "cond_br",
    "arith.constant",
    "\"std.br\"()",
    "({",
    "})",
    "linalg.generic",
    "ins(",
    "outs(",
    "iter_args(",
    "// -----",
    "//",
    "\n",
    " ",
    "\u{e9}",
    "\u{1F600}",
    "\t",
    "builtin.module",
    "module {",
    "unrealized_conversion_cast",
];

/// Applies one seeded mutation.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let n = lines.len();
    match rng.below(9) {
        0 if n > 0 => {
            let i = rng.below(n);
            lines
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, l)| *l)
                .collect()
        }
        1 if n > 0 => {
            let i = rng.below(n);
            let mut v = lines.clone();
            v.insert(i, lines[i]);
            v.concat()
        }
        2 if n > 1 => {
            let (i, j) = (rng.below(n), rng.below(n));
            let mut v = lines.clone();
            v.swap(i, j);
            v.concat()
        }
        3 => {
            // Flip bytes to arbitrary values; invalid UTF-8 is replaced,
            // as the tools reject it before parsing.
            let mut b = text.as_bytes().to_vec();
            for _ in 0..=rng.below(4) {
                if !b.is_empty() {
                    let i = rng.below(b.len());
                    b[i] = rng.next() as u8;
                }
            }
            String::from_utf8_lossy(&b).into_owned()
        }
        4 => {
            let b = text.as_bytes();
            String::from_utf8_lossy(&b[..rng.below(b.len() + 1)]).into_owned()
        }
        5 | 6 => {
            let mut s = text.to_string();
            for _ in 0..=rng.below(3) {
                let mut at = rng.below(s.len() + 1);
                while !s.is_char_boundary(at) {
                    at -= 1;
                }
                s.insert_str(at, TOKENS[rng.below(TOKENS.len())]);
            }
            s
        }
        7 => {
            // Delete a random span.
            let b = text.as_bytes();
            let i = rng.below(b.len() + 1);
            let j = (i + rng.below(64)).min(b.len());
            let mut v = b[..i].to_vec();
            v.extend_from_slice(&b[j..]);
            String::from_utf8_lossy(&v).into_owned()
        }
        _ => {
            // Duplicate a random span in place.
            let b = text.as_bytes();
            let i = rng.below(b.len() + 1);
            let j = (i + rng.below(200)).min(b.len());
            let mut v = b[..j].to_vec();
            v.extend_from_slice(&b[i..]);
            String::from_utf8_lossy(&v).into_owned()
        }
    }
}

/// Splits on `// -----` like `-split-input-file`, keeping line offsets.
fn chunks(text: &str) -> Vec<(&str, u32)> {
    let mut out = vec![];
    let (mut start, mut start_line, mut pos) = (0, 0u32, 0);
    for (line, l) in text.split_inclusive('\n').enumerate() {
        if l.trim_start().starts_with("// -----") {
            out.push((&text[start..pos], start_line));
            start = pos + l.len();
            start_line = line as u32 + 1;
        }
        pos += l.len();
    }
    out.push((&text[start..], start_line));
    out
}

/// What one run produced: printed text, or the diagnostic it failed with.
enum Outcome {
    Printed,
    Failed(Diagnostic),
}

/// Parses, verifies and prints one chunk the way `mlir-async-opt` does.
fn run(text: &str, line_offset: u32, variant: u64) -> Outcome {
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    let parsed = match parse_source(
        &mut ctx,
        &reg,
        "m.mlir",
        text,
        line_offset,
        variant & 1 == 1,
    ) {
        Ok(p) => p,
        Err(d) => return Outcome::Failed(d),
    };
    if let Err(e) = verify(&ctx, &reg, parsed.module, parsed.edition) {
        return Outcome::Failed(Diagnostic::from_ir(&ctx, &e));
    }
    let opts = PrintOptions {
        edition: parsed.edition,
        generic: variant & 2 == 2,
        debug_info: variant & 4 == 4,
    };
    let out = print_op(&ctx, &reg, parsed.module, opts);
    assert!(!out.is_empty());
    Outcome::Printed
}

/// Runs one input; returns a description of what went wrong, if anything.
fn check(name: &str, text: &str, variant: u64, stats: &mut Stats) -> Option<String> {
    for (chunk, off) in chunks(text) {
        stats.runs += 1;
        let r = catch_unwind(AssertUnwindSafe(|| run(chunk, off, variant)));
        match r {
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                return Some(format!("{name}: panic: {msg}"));
            }
            Ok(Outcome::Printed) => stats.printed += 1,
            Ok(Outcome::Failed(d)) => {
                stats.failed += 1;
                if d.line == 0 {
                    return Some(format!("{name}: failure without a line: {}", d.message));
                }
            }
        }
    }
    None
}

#[derive(Default, Debug)]
struct Stats {
    runs: usize,
    printed: usize,
    failed: usize,
}

const SAMPLES: &[&str] = &[
    "func @f(%arg0: i32) -> i32 {\n  %0 = arith.addi %arg0, %arg0 : i32\n  return %0 : i32\n}\n",
    "func.func @main() {\n  %token, %results = async.execute -> !async.value<f32> {\n    %c = arith.constant 1.0 : f32\n    async.yield %c : f32\n  }\n  %v = async.await %results : !async.value<f32>\n  return\n}\n",
    "func @g(%n: index) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %g = async.create_group %n : !async.group\n  scf.for %i = %c0 to %n step %c1 {\n    %t = async.execute {\n      async.yield\n    }\n    %x = async.add_to_group %t, %g : !async.token\n  }\n  async.await_all %g\n  cf.br ^bb1\n^bb1:\n  return\n}\n",
    "#map = affine_map<(d0, d1) -> (d0, d1)>\nfunc @h(%m: memref<?x?xf32, #map>) {\n  %c0 = arith.constant 0 : index\n  %v = memref.load %m[%c0, %c0] : memref<?x?xf32, #map>\n  \"some.op\"(%v) : (f32) -> () loc(\"x\":1:2)\n  return\n}\n",
];

fn corpus_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/upstream-tests");
    let mut out = vec![];
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "mlir") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn mutated_inputs_fail_with_diagnostics_never_panics() {
    // Silence the default hook: panics are collected and reported below.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut inputs: Vec<(String, String)> = SAMPLES
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("sample{i}"), s.to_string()))
        .collect();
    let files = corpus_files();
    if files.is_empty() {
        eprintln!("note: ../shared/upstream-tests not found: inline samples only");
    }
    for f in &files {
        if let Ok(t) = std::fs::read_to_string(f) {
            inputs.push((f.display().to_string(), t));
        }
    }
    let mut stats = Stats::default();
    let mut problems = vec![];
    // MUTATIONS_PER_INPUT raises the count for a longer hunt.
    let per_input = std::env::var("MUTATIONS_PER_INPUT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if files.is_empty() { 400 } else { 120 });
    for (name, text) in &inputs {
        // Seeded by the input's name, so each input gets its own sequence.
        let seed = name.bytes().fold(0x9E37_79B9_7F4A_7C15u64, |h, c| {
            (h ^ c as u64).wrapping_mul(0x100_0000_01B3)
        });
        let mut rng = Rng(seed | 1);
        if let Some(p) = check(name, text, 0, &mut stats) {
            problems.push(p);
        }
        for case in 0..per_input {
            let mut m = text.clone();
            for _ in 0..=rng.below(3) {
                m = mutate(&m, &mut rng);
            }
            let variant = rng.next();
            if let Some(p) = check(&format!("{name} case {case}"), &m, variant, &mut stats) {
                problems.push(p);
            }
        }
    }
    std::panic::set_hook(hook);
    eprintln!(
        "mutations: {} inputs, {} runs, {} printed, {} rejected with a diagnostic",
        inputs.len(),
        stats.runs,
        stats.printed,
        stats.failed
    );
    assert!(stats.failed > 0 && stats.printed > 0, "{stats:?}");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Inputs nested far deeper than any real module: an error, not a stack
/// overflow (which would abort the whole test binary).
#[test]
fn deep_nesting_is_an_error() {
    let n = 10_000;
    let cases = [
        "(".repeat(n),
        "{".repeat(n),
        "[".repeat(n),
        "<".repeat(n),
        format!(
            "\"x.y\"() {{a = {}1{}}} : () -> ()",
            "[".repeat(n),
            "]".repeat(n)
        ),
        format!(
            "func @f() -> {}i32{} {{\n}}\n",
            "(".repeat(n),
            ")".repeat(n)
        ),
        format!(
            "func @f(%a: {}i32{})\n",
            "!async.value<".repeat(n),
            ">".repeat(n)
        ),
        format!(
            "func @f(%a: {}f32{})\n",
            "memref<1x".repeat(n),
            ">".repeat(n)
        ),
        format!("func @f(%a: {}f32{})\n", "tuple<".repeat(n), ">".repeat(n)),
        format!(
            "func @f() {{\n{}{}",
            "%t = async.execute {\n".repeat(n),
            "}\n".repeat(n)
        ),
        format!(
            "func @f() {{\n{}{}",
            "\"a.b\"() ({\n".repeat(n),
            "}) : () -> ()\n".repeat(n)
        ),
        format!(
            "module {{\n{}\n{}}}",
            "module {\n".repeat(n),
            "}\n".repeat(n)
        ),
        format!(
            "\"x.y\"() {{a = dense<{}1{}> : tensor<1xi32>}} : () -> ()",
            "[".repeat(n),
            "]".repeat(n)
        ),
        format!(
            "\"x.y\"() : () -> () loc({}\"a\"{})",
            "callsite(".repeat(n),
            " at \"b\")".repeat(n)
        ),
        format!(
            "\"x.y\"() : () -> () loc({}\"a\"{})",
            "\"n\"(".repeat(n),
            ")".repeat(n)
        ),
        format!(
            "\"x.y\"() : () -> () loc({}\"a\"{})",
            "fused[".repeat(n),
            "]".repeat(n)
        ),
        format!(
            "\"x.y\"() {{a = {}1{}}} : () -> ()",
            "{b = ".repeat(n),
            "}".repeat(n)
        ),
    ];
    for (i, c) in cases.iter().enumerate() {
        let mut stats = Stats::default();
        let r = check(&format!("deep case {i}"), c, 1, &mut stats);
        assert!(r.is_none(), "{r:?}");
        assert_eq!(stats.failed, 1, "deep case {i} should be rejected");
    }
}

/// A 5 MB line (of a valid and of an invalid module) is handled without
/// a panic and in time linear in its length.
#[test]
fn very_long_line() {
    let n = 5 << 20;
    let cases = [
        format!(
            "func @f() {{ {} return }}",
            "%c = arith.constant 1 : i32 ".repeat(n / 30)
        ),
        format!("\"x.y\"() {{s = \"{}\"}} : () -> ()", "a".repeat(n)),
        format!(
            "func @f() {{ %c = arith.constant {} : i32 return }}",
            "9".repeat(n)
        ),
        "x".repeat(n),
        format!("// {}\nfunc @f() {{\n  return\n}}\n", "c".repeat(n)),
    ];
    let mut stats = Stats::default();
    for (i, c) in cases.iter().enumerate() {
        let r = check(&format!("long case {i}"), c, 0, &mut stats);
        assert!(r.is_none(), "{r:?}");
    }
    assert_eq!(stats.runs, cases.len());
}

/// Every registered op spelled in the generic form with shapes its custom
/// form never produces (missing operands, extra results, odd regions,
/// attributes of the wrong kind): the verifier must reject what the custom
/// printer cannot print, and nothing may panic.
#[test]
fn generic_forms_with_wrong_shapes() {
    use mlir_async_dialects::{arith, asyncd, builtin, cf, memref, scf};
    let names: Vec<&str> = [
        builtin::ops(),
        arith::ops(),
        cf::ops(),
        scf::ops(),
        memref::ops(),
        asyncd::ops(),
    ]
    .into_iter()
    .flatten()
    .map(|d| d.name)
    .collect();
    let shapes = [
        "() : () -> ()",
        "() : () -> i32",
        "() : () -> (index, index, index)",
        "(%a) : (i32) -> ()",
        "(%a, %a) : (i32, i32) -> i32",
        "(%i, %i, %i) : (index, index, index) -> index",
        "(%t) : (!async.token) -> !async.token",
        "(%m) : (memref<?xf32>) -> f32",
        "() ({}) : () -> ()",
        "() ({\n^bb0:\n}) : () -> ()",
        "() ({\n^bb0(%x: i32):\n  \"test.t\"() : () -> ()\n}, {\n}) : () -> ()",
        "(%i) ({\n^bb0(%x: index):\n  \"test.t\"() : () -> ()\n}) : (index) -> ()",
        "() {value = \"s\"} : () -> i32",
        "() {value = 1 : i32} : () -> f32",
        "() {callee = 1 : i32, sym_name = 3 : i64, function_type = i32} : () -> ()",
        "() {sym_name = \"q\", function_type = (i32) -> i32} : () -> ()",
        "(%i) {operand_segment_sizes = dense<[5, 5]> : vector<2xi32>} : (index) -> index",
        "(%i) {operand_segment_sizes = dense<[1, 0, 0]> : vector<3xi32>} : (index) -> index",
        "(%a) {predicate = 99 : i64} : (i32) -> i1",
        "() {predicate = \"eq\", value = [1, 2]} : () -> ()",
    ];
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut stats = Stats::default();
    let mut problems = vec![];
    for name in &names {
        for (k, shape) in shapes.iter().enumerate() {
            let body = format!("\"{name}\"{shape}");
            let text = format!(
                "func.func @f(%a: i32, %i: index, %t: !async.token, %m: memref<?xf32>) {{\n  {body}\n  \"test.end\"() : () -> ()\n}}\n"
            );
            for variant in [1, 3] {
                if let Some(p) = check(&format!("{name} shape {k}"), &text, variant, &mut stats) {
                    problems.push(p);
                }
            }
            // As the only op of a module, and nested in an execute body.
            let text = format!("{body}\n");
            if let Some(p) = check(&format!("{name} top shape {k}"), &text, 1, &mut stats) {
                problems.push(p);
            }
            let text = format!(
                "func.func @f(%a: i32, %i: index, %t: !async.token, %m: memref<?xf32>) {{\n  %r = async.execute {{\n    {body}\n    async.yield\n  }}\n  return\n}}\n"
            );
            if let Some(p) = check(&format!("{name} nested shape {k}"), &text, 1, &mut stats) {
                problems.push(p);
            }
        }
    }
    std::panic::set_hook(hook);
    eprintln!(
        "generic shapes: {} ops, {} runs, {} printed, {} rejected",
        names.len(),
        stats.runs,
        stats.printed,
        stats.failed
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The deepest nesting the parser accepts must also verify and print
/// (both recurse over regions) on a test thread's 2 MB stack in a debug
/// build.
#[test]
fn deepest_accepted_nesting_verifies_and_prints() {
    let mut accepted = 0;
    for n in [20, 60, 95, 99, 100, 120] {
        let open = "%t = async.execute {\n".repeat(n);
        let close = "async.yield\n}\n".repeat(n);
        let text = format!("func @f() {{\n{open}{close}return\n}}\n");
        let mut stats = Stats::default();
        assert!(check(&format!("depth {n}"), &text, 0, &mut stats).is_none());
        accepted += stats.printed;
        let generic = format!(
            "\"x.y\"() ({{\n{}{}}}) : () -> ()\n",
            "\"x.y\"() ({\n".repeat(n),
            "}) : () -> ()\n".repeat(n)
        );
        assert!(check(&format!("generic depth {n}"), &generic, 1, &mut stats).is_none());
    }
    assert!(accepted >= 3, "moderately deep modules must print");
}
