//! Bad input never panics: every corpus file and a few inline samples go
//! through many seeded mutations (line edits, byte flips, truncation,
//! random tokens, deep nesting, a very long line, carriage returns, NUL
//! and non-UTF-8 bytes, huge literals, the newer ops), and each mutant is
//! parsed, verified and printed through the library entry points, on bytes
//! as the tool reads them. A panic anywhere, or a failure reported without
//! a source line, fails the test.
//!
//! Deterministic: the mutations come from a fixed-seed PRNG, so a failure
//! names the file and case number that reproduce it.

use mlir_async_dialects::{verify::verify, Registry};
use mlir_async_ir::{parallel::with_deep_stack, Context};
use mlir_async_syntax::{
    decode_source, parse_source_bytes, print_op, split_input, Diagnostic, PrintOptions,
};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

mod support;
use support::{mutate, Rng};

/// Splits as `-split-input-file` does, keeping line offsets.
fn chunks(text: &[u8]) -> Vec<(&[u8], u32)> {
    let (cs, _) = split_input(text);
    cs.iter()
        .map(|c| (&text[c.start..c.end], c.line_offset))
        .collect()
}

/// What one run produced: printed text, or the diagnostic it failed with.
enum Outcome {
    Printed,
    Failed(Diagnostic),
}

/// Parses, verifies and prints one chunk the way `mlir-async-opt` does,
/// on a stack as deep as the tool's (the mutations nest past the limit).
fn run(raw: &[u8], line_offset: u32, variant: u64) -> Outcome {
    with_deep_stack(|| {
        let mut ctx = Context::new();
        let reg = Registry::new(&mut ctx);
        let text = decode_source(raw);
        let parsed = match parse_source_bytes(
            &mut ctx,
            &reg,
            "m.mlir",
            &text,
            raw,
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
    })
}

/// Runs one input; returns a description of what went wrong, if anything.
fn check(name: &str, text: impl AsRef<[u8]>, variant: u64, stats: &mut Stats) -> Option<String> {
    for (chunk, off) in chunks(text.as_ref()) {
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
    // The ops and literals added for issue #16.
    "func.func @s(%a: i32, %x: i64) {\n  cf.switch %a : i32, [\n    default: ^bb1(%x : i64),\n    1: ^bb2,\n    -42: ^bb1(%x : i64)\n  ]\n^bb1(%y: i64):\n  return\n^bb2:\n  scf.while : () -> () {\n    %c = arith.constant true\n    scf.condition(%c)\n  } do {\n    scf.yield\n  }\n  return\n}\n",
    "memref.global \"private\" constant @c : memref<2xf32> = dense<[1.0, 2.0]>\nfunc.func @r(%m: memref<10xf32>, %v: f32, %i: index) -> f32 {\n  %g = memref.get_global @c : memref<2xf32>\n  %x = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<10xf32>) -> f32\n  %y = memref.generic_atomic_rmw %m[%i] : memref<10xf32> {\n  ^bb0(%cur: f32):\n    memref.atomic_yield %cur : f32\n  }\n  %s = memref.alloca_scope -> (f32) {\n    memref.alloca_scope.return %y : f32\n  }\n  memref.copy %m, %m : memref<10xf32> to memref<10xf32>\n  return %s : f32\n}\n",
    "// a comment\rfunc.func @w() -> (i1024, tensor<2xi32>) {\n  %c = arith.constant 123456789012345678901234567890123456789012345678901234567890 : i1024\n  %d = arith.constant dense<\"0x0100000002000000\"> : tensor<2xi32>\n  cf.assert %t, \"a\\00b\"\n  return %c, %d : i1024, tensor<2xi32>\n}\n",
    "llvm.mlir.global internal constant @s(\"hi\\00\")\nllvm.mlir.global private @g() : !llvm.ptr<i64> {\n  %0 = llvm.mlir.null : !llvm.ptr<i64>\n  llvm.return %0 : !llvm.ptr<i64>\n}\nllvm.func @ext(!llvm.ptr<i8>, ...) -> i32\nllvm.func internal @f(%a: i32, %p: !llvm.ptr<struct<(i32, array<2 x f32>)>>, %fp: !llvm.ptr<func<i32 (i32)>>, %o: !llvm.ptr) -> i32 attributes {llvm.emit_c_interface} {\n  %0 = llvm.add %a, %a : i32\n  %1 = llvm.icmp \"slt\" %0, %a : i32\n  %2 = llvm.getelementptr %p[%a, 1, 0] : (!llvm.ptr<struct<(i32, array<2 x f32>)>>, i32) -> !llvm.ptr<f32>\n  %3 = llvm.load %2 : !llvm.ptr<f32>\n  %u = llvm.mlir.undef : !llvm.struct<(i32, array<2 x f32>)>\n  %4 = llvm.insertvalue %3, %u[1, 1] : !llvm.struct<(i32, array<2 x f32>)>\n  %5 = llvm.extractvalue %4[0] : !llvm.struct<(i32, array<2 x f32>)>\n  %6 = llvm.call %fp(%5) : (i32) -> i32\n  %7 = llvm.load %o : !llvm.ptr -> i64\n  %c = llvm.mlir.constant(0 : i32) : i32\n  %n = llvm.mlir.null : !llvm.ptr<i8>\n  %id = llvm.intr.coro.id %c, %n, %n, %n : !llvm.token\n  llvm.cond_br %1 weights(dense<[1, 2]> : vector<2xi32>), ^bb1(%6 : i32), ^bb2\n^bb1(%x: i32):\n  llvm.switch %x : i32, ^bb2 [\n    3: ^bb1(%x : i32)\n  ]\n^bb2:\n  %8 = \"llvm.sext\"(%a) : (i32) -> i64\n  llvm.return %a : i32\n}\n",
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
    let mut inputs: Vec<(String, Vec<u8>)> = SAMPLES
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("sample{i}"), s.as_bytes().to_vec()))
        .collect();
    let files = corpus_files();
    if files.is_empty() {
        eprintln!("note: ../shared/upstream-tests not found: inline samples only");
    }
    // Named from the shared folder, so the seeds drawn from the names (and
    // the cases) are the same on every checkout.
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    for f in &files {
        if let Ok(t) = std::fs::read(f) {
            let shown = f.strip_prefix(&shared).unwrap_or(f).display().to_string();
            inputs.push((shown, t));
        }
    }
    let mut stats = Stats::default();
    let mut problems = vec![];
    // MUTATIONS_PER_INPUT raises the count for a longer hunt.
    let per_input = std::env::var("MUTATIONS_PER_INPUT")
        .ok()
        .and_then(|v| v.parse().ok())
        // The default keeps `cargo test --workspace` in CI's budget: a
        // debug build ran 20 mutants of each of the 73 corpus files in 11 s
        // on the loaded 2-core machine, so 40 is ~25 s there (120 was
        // minutes); release builds keep 120.
        .unwrap_or(match (files.is_empty(), cfg!(debug_assertions)) {
            (true, _) => 400,
            (false, true) => 40,
            (false, false) => 120,
        });
    // MUTATIONS_ONLY=<part of a name> hunts on some inputs only.
    let only = std::env::var("MUTATIONS_ONLY").unwrap_or_default();
    for (name, text) in inputs.iter().filter(|(n, _)| n.contains(&only)) {
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
    use mlir_async_dialects::{arith, asyncd, builtin, cf, llvm, memref, scf};
    let names: Vec<&str> = [
        builtin::ops(),
        arith::ops(),
        cf::ops(),
        scf::ops(),
        memref::ops(),
        asyncd::ops(),
        llvm::ops::ops(),
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
        "(%p) {position = [7, 1]} : (!llvm.ptr<i8>) -> i32",
        "(%p, %a) {structIndices = dense<[1, 2]> : tensor<2xi32>} : (!llvm.ptr<i8>, i32) -> !llvm.ptr<i8>",
        "(%a, %p) {callee = @f} : (i32, !llvm.ptr<i8>) -> !llvm.ptr<i8>",
        "(%a, %a)[^bb1] {case_operand_segments = dense<[4]> : tensor<1xi32>, case_values = dense<1> : vector<3xi32>, operand_segment_sizes = dense<[1, 1, 0]> : vector<3xi32>} : (i32, i32) -> ()",
        "() ({\n^bb0(%x: i32):\n  \"test.t\"() : () -> ()\n}) {function_type = !llvm.func<void (i32, ...)>, sym_name = \"q\", linkage = 3 : i64} : () -> ()",
        "() ({\n}) {global_type = !llvm.void, linkage = #llvm.linkage<common>, sym_name = \"g\", value = 1 : i32} : () -> ()",
        "(%p, %p) {global_name = @f, value = \"ab\", predicate = 3 : i64} : (!llvm.ptr<i8>, !llvm.ptr<i8>) -> !llvm.array<2 x i8>",
    ];
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut stats = Stats::default();
    let mut problems = vec![];
    for name in &names {
        for (k, shape) in shapes.iter().enumerate() {
            let body = format!("\"{name}\"{shape}");
            let text = format!(
                "func.func @f(%a: i32, %i: index, %t: !async.token, %m: memref<?xf32>, %p: !llvm.ptr<i8>) {{\n  {body}\n  \"test.end\"() : () -> ()\n}}\n"
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

/// Nesting the parser accepts must also verify and print (both recurse
/// over regions) on the deep stack the tool runs on, in a debug build:
/// up to 4000 regions (8000 parser levels) are accepted.
#[test]
fn deepest_accepted_nesting_verifies_and_prints() {
    let mut accepted = 0;
    for n in [20, 60, 100, 120, 1000, 4000] {
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
