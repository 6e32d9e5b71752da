//! The mutation campaign through the passes and the executor (issue #16):
//! every chunk of the upstream corpus, of our tests and of the examples,
//! and seeded mutants of each (the mutator of
//! `crates/dialects/tests/mutations.rs`), that parse and verify, run
//! through a pipeline of our passes (the async lowering, the three
//! reference-counting passes, async-parallel-for, the inliner, the
//! generic passes, the conversions to the LLVM dialect, the executor's
//! standard lowering). Each run must end in success or a diagnostic:
//!
//! - no panic, no hang (a case still running after a minute fails);
//! - a pass that succeeds leaves IR that verifies, and whose printed text
//!   reads back and verifies (mlir-opt would reject anything else);
//! - a module that ends in the LLVM dialect is lowered by the executor's
//!   front end and compiled by its code generator (not run: a mutant may
//!   well divide by zero), and mutants of that LLVM-dialect text too.
//!
//! Deterministic (fixed seeds per input name). `PIPELINE_MUTATIONS=N`
//! runs N mutants per chunk (default 1; the report of issue #16 gives the
//! counts of a large run), `PIPELINE_ONLY=<part of a name>` restricts the
//! inputs, `PIPELINE_DUMP=<dir>` writes each failing case's input there
//! (its pipeline and seed on stderr), `PIPELINE_VERBOSE=1` names each case
//! before running it (and with `PIPELINE_DUMP`, writes its input to
//! `current.mlir` there).

#[path = "../../dialects/tests/support/mod.rs"]
mod mutate;
mod support;

use mlir_async_dialects::{verify::verify, Registry};
use mlir_async_executor::{codegen::OptLevel, engine, frontend, symbols::Symbols, ExecError};
use mlir_async_ir::Context;
use mlir_async_passes::{parse_pipeline_for, run_entry, AnalysisManager, PassContext};
use mlir_async_syntax::PrintOptions;
use mlir_async_syntax::{decode_source, parse_source_bytes, print_op, split_input, Edition};
use mutate::{mutate, Rng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// Pipelines in `--pass-pipeline` syntax; `{scf}` is the generation's
/// structured-control-flow lowering, `{std}` its standard lowering.
const PIPELINES: &[&str] = &[
    "async-to-async-runtime",
    "async-to-async-runtime{eliminate-blocking-await-ops=true}",
    "async-to-async-runtime,async-runtime-ref-counting,async-runtime-ref-counting-opt",
    "async-to-async-runtime{eliminate-blocking-await-ops=true},async-runtime-policy-based-ref-counting",
    "async-parallel-for",
    "async-parallel-for{async-dispatch=false num-workers=3 min-task-size=2}",
    "inline",
    "canonicalize,cse,symbol-dce",
    "{scf}",
    "{std}",
    "async-parallel-for,{std}",
];

/// What one case came to.
#[derive(Default, Debug)]
struct Stats {
    runs: usize,
    rejected_input: usize,
    pass_ok: usize,
    pass_failed: usize,
    lowered_to_llvm: usize,
    compiled: usize,
    executor_refused: usize,
}

fn pipeline_text(p: &str, ed: Edition) -> String {
    let scf = if ed == Edition::V15 {
        "convert-scf-to-cf"
    } else {
        "convert-scf-to-std"
    };
    let std = mlir_async_tools::run_main::standard_pipeline(ed).join(",");
    let p = p.replace("{scf}", scf).replace("{std}", &std);
    // LLVM 13's async-parallel-for has no min-task-size (it was added in
    // 14); mlir-opt-13 rejects the option.
    if ed == Edition::V13 {
        p.replace(" min-task-size=2", "")
    } else {
        p
    }
}

/// A verifier failure after a pass that mlir-opt-13/14/15 report the same
/// way (their pass succeeds, the verifier run after it fails):
/// - lowering `scf` inside a region that holds one block (an
///   `async.execute` not yet outlined) leaves several blocks there:
///   "expects region #0 to have 0 or 1 blocks"
///   (`tests/passes/scf-to-cf-in-execute.mlir`);
/// - lowering `scf` at module level leaves a module of several blocks
///   (`tests/opt/module-blocks.mlir`; 13 and 14 word it as the
///   SymbolTable trait);
/// - lowering an assert at module level (the standard lowering of each
///   generation: `-convert-std-to-llvm`, `-convert-func-to-llvm`,
///   `-convert-cf-to-llvm`) splits the module's block, the same message
///   (`tests/opt/module-blocks.mlir`);
/// - `-convert-async-to-llvm` converts a function's signature but not a
///   `func.constant` naming it: "reference to function with mismatched
///   type";
/// - `-convert-memref-to-llvm` on a `memref.global` inside a function (valid
///   memref IR) makes an `llvm.mlir.global` there: "must appear at the
///   module level";
/// - `-convert-async-to-llvm` on a module ending in an `llvm.return` (no
///   parent required, so valid there) declares the runtime functions after
///   it: "'llvm.return' op must be the last operation in the parent block"
///   (mlir-opt-13 and -14 alike; `tests/opt/module-terminator.mlir`);
/// - the async passes put the functions they outline or call into the
///   top-level module, also for ops in a nested module, whose call then
///   "does not reference a valid function" (mlir-opt-13/14/15 alike, 15
///   aborting on an `async.execute` directly in a module;
///   `tests/passes/nested-module-symbols.mlir`);
/// - `-convert-memref-to-llvm` turns an `alloca_scope`'s return into an
///   `llvm.br` with the values as they are, an `index` one not yet
///   converted: "'llvm.br' op operand #0 must be LLVM dialect-compatible
///   type" (mlir-opt-14/15 alike; `tests/opt/llvm-operand-types.mlir`).
fn upstream_fails_alike(pass: &str, message: &str) -> bool {
    let module_blocks = message
        .contains("'builtin.module' op expects region #0 to have 0 or 1 blocks")
        || message.contains("'SymbolTable' must have exactly one block");
    let scf = matches!(pass, "convert-scf-to-cf" | "convert-scf-to-std")
        && (message.contains("to have 0 or 1 blocks")
            || message.contains("'SymbolTable' must have exactly one block"));
    let assert = matches!(
        pass,
        "convert-std-to-llvm" | "convert-func-to-llvm" | "convert-cf-to-llvm"
    ) && module_blocks;
    let constant = pass == "convert-async-to-llvm"
        && message.contains("reference to function with mismatched type");
    let global = pass == "convert-memref-to-llvm"
        && message.contains("'llvm.mlir.global' op must appear at the module level");
    let module_return = pass == "convert-async-to-llvm"
        && message.contains("'llvm.return' op must be the last operation in the parent block");
    let nested_module = message.contains("does not reference a valid function")
        && ((pass == "async-to-async-runtime" && message.contains("'async_execute_fn"))
            || (pass == "convert-async-to-llvm" && message.contains("'mlirAsyncRuntime")));
    let scope_branch = pass == "convert-memref-to-llvm"
        && message.contains("'llvm.br' op operand #")
        && message.contains("must be LLVM dialect-compatible type");
    scf || assert || constant || global || module_return || nested_module || scope_branch
}

/// Printed text mlir-opt-14/15 cannot read back either (we print and parse
/// as they do):
/// - `memref.dma_start` prints its attribute dictionary, which its parser
///   does not take (both generations: "expected ':'");
/// - an f80 or f128 infinity or NaN prints as its bits, more hex digits
///   than the 64 a float's hex literal is read in ("hexadecimal float
///   constant out of range for type"; `tests/opt/floats-wide-hex.mlir`).
fn upstream_cannot_read_back(printed: &str, line: u32) -> bool {
    let Some(l) = printed.lines().nth(line.saturating_sub(1) as usize) else {
        return false;
    };
    let dma = l.contains("memref.dma_start") && l.contains("] {");
    let wide_hex = (l.contains("f80") || l.contains("f128"))
        && l.split("0x")
            .skip(1)
            .any(|rest| rest.bytes().take_while(u8::is_ascii_hexdigit).count() > 16);
    dma || wide_hex
}

/// Parses and verifies `raw`; `None` if it is rejected (with a located
/// diagnostic: the parse-only campaign checks that).
fn parse(ctx: &mut Context, reg: &Registry, raw: &[u8]) -> Option<(mlir_async_ir::Op, Edition)> {
    let text = decode_source(raw);
    let parsed = parse_source_bytes(ctx, reg, "m.mlir", &text, raw, 0, true).ok()?;
    verify(ctx, reg, parsed.module, parsed.edition).ok()?;
    Some((parsed.module, parsed.edition))
}

/// Lowers and compiles an LLVM-dialect module; `Err` names a bug.
fn execute_front(
    ctx: &Context,
    module: mlir_async_ir::Op,
    opt: OptLevel,
    st: &mut Stats,
) -> Result<(), String> {
    let lowered = match frontend::lower(ctx, module) {
        Ok(m) => m,
        Err(diags) => {
            st.executor_refused += 1;
            if let Some(d) = diags.iter().find(|d| d.line == 0 && d.message.is_empty()) {
                return Err(format!("executor: empty diagnostic {d:?}"));
            }
            return Ok(());
        }
    };
    match engine::jit(&lowered, opt, &Symbols::new()) {
        Ok(_) => st.compiled += 1,
        Err(ExecError::Codegen { function, message }) => {
            return Err(format!(
                "executor: code generation failed in {function}: {message}"
            ))
        }
        Err(_) => st.executor_refused += 1,
    }
    Ok(())
}

/// One case: parse, run the pipeline, check and print the result, and
/// compile it when it is LLVM; then mutants of the LLVM text.
fn case(raw: Vec<u8>, pipeline: &'static str, seed: u64) -> Result<Stats, String> {
    let mut st = Stats {
        runs: 1,
        ..Stats::default()
    };
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    let Some((module, ed)) = parse(&mut ctx, &reg, &raw) else {
        st.rejected_input += 1;
        return Ok(st);
    };
    let text = pipeline_text(pipeline, ed);
    let entries = parse_pipeline_for(&text, Some(ed))
        .map_err(|e| format!("pipeline {text}: {}", e.message()))?;
    let mut analyses = AnalysisManager::new();
    for e in &entries {
        let mut pc = PassContext::new(&mut ctx, &reg, ed, &mut analyses);
        if run_entry(&mut pc, e, module).is_err() {
            st.pass_failed += 1;
            return Ok(st);
        }
        if let Err(err) = verify(&ctx, &reg, module, ed) {
            if upstream_fails_alike(e.pass.name(), &err.message) {
                st.pass_failed += 1;
                return Ok(st);
            }
            return Err(format!(
                "{} left IR that does not verify: {}",
                e.pass.name(),
                err.message
            ));
        }
    }
    st.pass_ok += 1;
    let opts = PrintOptions {
        edition: ed,
        generic: seed & 1 == 1,
        debug_info: seed & 2 == 2,
    };
    let out = print_op(&ctx, &reg, module, opts);
    let mut back = Context::new();
    let reg2 = Registry::new(&mut back);
    let text_back = decode_source(out.as_bytes());
    match parse_source_bytes(
        &mut back,
        &reg2,
        "out.mlir",
        &text_back,
        out.as_bytes(),
        0,
        true,
    ) {
        Ok(p) => {
            if let Err(err) = verify(&back, &reg2, p.module, ed) {
                return Err(format!("printed output does not verify: {}", err.message));
            }
        }
        Err(d) if upstream_cannot_read_back(&out, d.line) => {}
        Err(d) => {
            return Err(format!(
                "printed output does not parse: {}:{}: {}",
                d.line, d.col, d.message
            ))
        }
    }
    if mlir_async_tools::run_main::is_llvm_module(&ctx, module) {
        st.lowered_to_llvm += 1;
        let opt = if seed & 4 == 4 {
            OptLevel::O0
        } else {
            OptLevel::O2
        };
        execute_front(&ctx, module, opt, &mut st)?;
        // The executor on malformed LLVM-dialect text.
        let mut rng = Rng(seed | 1);
        for _ in 0..2 {
            let m = mutate(out.as_bytes(), &mut rng);
            let mut c = Context::new();
            let r = Registry::new(&mut c);
            if let Some((mm, _)) = parse(&mut c, &r, &m) {
                if mlir_async_tools::run_main::is_llvm_module(&c, mm) {
                    execute_front(&c, mm, opt, &mut st)?;
                }
            }
        }
    }
    Ok(st)
}

/// Runs `case` on a deep stack with a deadline; a panic or a hang is a
/// problem.
fn guarded(raw: Vec<u8>, pipeline: &'static str, seed: u64) -> Result<Stats, String> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .stack_size(mlir_async_ir::parallel::DEEP_STACK)
        .spawn(move || {
            let r = catch_unwind(AssertUnwindSafe(|| case(raw, pipeline, seed)));
            let _ = tx.send(r.unwrap_or_else(|p| {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                Err(format!("panic: {msg}"))
            }));
        })
        .expect("spawn");
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(r) => r,
        Err(_) => Err("still running after 60 s (a hang?)".into()),
    }
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files: Vec<PathBuf> = vec![];
    for d in ["../shared/upstream-tests", "tests", "examples"] {
        support::collect(&root.join(d), &mut files);
    }
    let mut out = vec![];
    for f in files {
        let Ok(bytes) = std::fs::read(&f) else {
            continue;
        };
        let (chunks, _) = split_input(&bytes);
        // Named from the repository root, so that the seeds (drawn from
        // the names) and so the cases are the same on every checkout.
        let shown = f.strip_prefix(&root).unwrap_or(&f).display().to_string();
        for (i, c) in chunks.iter().enumerate() {
            let name = format!("{shown}#{i}");
            out.push((name, bytes[c.start..c.end].to_vec()));
        }
    }
    out
}

#[test]
fn mutants_through_the_passes_and_the_executor() {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let per_chunk: usize = std::env::var("PIPELINE_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let only = std::env::var("PIPELINE_ONLY").unwrap_or_default();
    // PIPELINE_DUMP=<dir> writes each failing case's input there.
    let dump = std::env::var_os("PIPELINE_DUMP").map(PathBuf::from);
    let verbose = std::env::var_os("PIPELINE_VERBOSE").is_some();
    let inputs = inputs();
    let mut total = Stats::default();
    let mut problems = vec![];
    let mut cases = 0;
    for (name, raw) in inputs.iter().filter(|(n, _)| n.contains(&only)) {
        let seed = name.bytes().fold(0x9E37_79B9_7F4A_7C15u64, |h, c| {
            (h ^ c as u64).wrapping_mul(0x100_0000_01B3)
        });
        let mut rng = Rng(seed | 1);
        // The chunk itself through one pipeline, then its mutants.
        for k in 0..=per_chunk {
            let text = if k == 0 {
                raw.clone()
            } else {
                let mut m = raw.clone();
                for _ in 0..=rng.below(2) {
                    m = mutate(&m, &mut rng);
                }
                m
            };
            let pipeline = PIPELINES[rng.below(PIPELINES.len())];
            let s = rng.next();
            cases += 1;
            if verbose {
                // A crash (stack overflow) ends the process: the last name
                // printed is the case that did it.
                eprintln!("{name} case {k} ({pipeline}, seed {s:#x})");
                if let Some(dir) = &dump {
                    let _ = std::fs::write(dir.join("current.mlir"), &text);
                }
            }
            let kept = dump.as_ref().map(|_| text.clone());
            match guarded(text, pipeline, s) {
                Ok(st) => {
                    total.runs += st.runs;
                    total.rejected_input += st.rejected_input;
                    total.pass_ok += st.pass_ok;
                    total.pass_failed += st.pass_failed;
                    total.lowered_to_llvm += st.lowered_to_llvm;
                    total.compiled += st.compiled;
                    total.executor_refused += st.executor_refused;
                }
                Err(e) => {
                    if let (Some(dir), Some(t)) = (&dump, kept) {
                        let f = dir.join(format!("{}.mlir", problems.len()));
                        let _ = std::fs::write(&f, t);
                        eprintln!("{}: {name} case {k} ({pipeline}, seed {s:#x})", f.display());
                    }
                    problems.push(format!("{name} case {k} ({pipeline}): {e}"))
                }
            }
        }
    }
    std::panic::set_hook(hook);
    eprintln!(
        "pipeline mutations: {} chunks, {cases} cases: {total:?}",
        inputs.len()
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
