//! The checked mode on real lowered programs under `mlir-cpu-runner-14`: a
//! correct lowering passes; the same program lowered without reference
//! counting, or with one `mlirAsyncRuntimeDropRef` call of the correct
//! lowering doubled or deleted, is reported and fails. Skipped, with a
//! message, when the LLVM 14 tools are not installed.

mod runner;

use mlir_async_runtime::{CHECKED_ENV, LEAK_EXIT_STATUS};

const CHECKED: &[(&str, &str)] = &[(CHECKED_ENV, "1")];
const OUTPUT: &str = "3\n1\n";

#[test]
fn a_correct_lowering_passes() {
    if !runner::tools_present() {
        return;
    }
    let lowered = runner::lower("checked_ok.mlir", runner::PIPELINE);
    let r = runner::run(&lowered, CHECKED);
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    assert_eq!(r.stdout, OUTPUT);
    assert!(!r.stderr.contains("mlir-async-runtime"), "{}", r.stderr);
}

#[test]
fn a_lowering_without_reference_counting_leaks_every_object() {
    if !runner::tools_present() {
        return;
    }
    let passes: Vec<&str> = runner::PIPELINE
        .iter()
        .copied()
        .filter(|p| !p.starts_with("-async-runtime-ref-counting"))
        .collect();
    let lowered = runner::lower("checked_ok.mlir", &passes);
    let r = runner::run(&lowered, CHECKED);
    assert_eq!(r.code, Some(LEAK_EXIT_STATUS), "stderr: {}", r.stderr);
    assert_eq!(r.stdout, OUTPUT, "the program's output is flushed first");
    for w in [
        "token(s) created at mlirAsyncRuntimeCreateToken (C ABI): #1,",
        "value(s) created at mlirAsyncRuntimeCreateValue (C ABI): #2,",
        "1 group(s) created at mlirAsyncRuntimeCreateGroup (C ABI)",
        "object(s) leaked",
    ] {
        assert!(r.stderr.contains(w), "{w:?} missing from: {}", r.stderr);
    }
    // Unchecked, the same leak goes by without failing the process.
    assert_eq!(runner::run(&lowered, &[]).code, Some(0));
}

/// Every `mlirAsyncRuntimeDropRef` call of the correct lowering, doubled
/// and deleted in turn: each run either passes as before (the call is on a
/// path this run does not take, e.g. error handling) or is reported —
/// doubled calls as a use after free or an underflow, deleted ones as a
/// leak — naming the entry point and the object.
#[test]
fn doubled_and_deleted_drop_refs_are_reported() {
    if !runner::tools_present() {
        return;
    }
    let lowered = runner::lower("checked_ok.mlir", runner::PIPELINE);
    let text = lowered.text();
    let lines: Vec<&str> = text.lines().collect();
    let calls: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("llvm.call @mlirAsyncRuntimeDropRef("))
        .collect();
    assert!(calls.len() >= 8, "{} calls", calls.len());
    let (mut doubled, mut deleted) = (0, 0);
    for &at in &calls {
        for double in [true, false] {
            let mut mutant: Vec<&str> = lines.clone();
            if double {
                mutant.insert(at, lines[at]);
            } else {
                mutant.remove(at);
            }
            let m = lowered.with_text(&format!("m{at}{double}"), &mutant.join("\n"));
            let r = runner::run(&m, CHECKED);
            if r.code == Some(0) {
                assert_eq!(r.stdout, OUTPUT);
                assert!(!r.stderr.contains("mlir-async-runtime"), "{}", r.stderr);
                continue;
            }
            let what = if double {
                doubled += 1;
                "created by mlirAsyncRuntimeCreate"
            } else {
                deleted += 1;
                "object(s) leaked"
            };
            assert!(
                r.stderr.contains(what),
                "line {at} {}: {what:?} missing from: {}",
                if double { "doubled" } else { "deleted" },
                r.stderr
            );
        }
    }
    // At the time of writing 7 of 14 calls run in this program; each of
    // them is caught both ways.
    assert!(
        doubled >= 5 && deleted >= 5,
        "{doubled} doubled, {deleted} deleted caught"
    );
}
