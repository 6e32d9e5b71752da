//! Misuse through the C ABI aborts with a message naming the function (debug
//! builds, and release builds in the checked mode, which the children run
//! in). Each case re-runs this test binary as a child that commits the
//! misuse, and checks how it died.

use mlir_async_runtime::capi::*;
use mlir_async_runtime::CHECKED_ENV;
use std::process::Command;

const CASE: &str = "MLIR_ASYNC_RUNTIME_MISUSE_CASE";

/// Runs in the child only.
#[test]
fn misuse_child() {
    let Ok(case) = std::env::var(CASE) else {
        return;
    };
    let t = mlirAsyncRuntimeCreateToken();
    match case.as_str() {
        "underflow" => mlirAsyncRuntimeDropRef(t, 3),
        "double_emplace" => {
            mlirAsyncRuntimeEmplaceToken(t);
            mlirAsyncRuntimeEmplaceToken(t);
        }
        "use_after_free" => {
            mlirAsyncRuntimeEmplaceToken(t);
            mlirAsyncRuntimeDropRef(t, 1);
            mlirAsyncRuntimeAddRef(t, 1);
        }
        "await_freed" => {
            mlirAsyncRuntimeEmplaceToken(t);
            mlirAsyncRuntimeDropRef(t, 1);
            mlirAsyncRuntimeAwaitToken(t);
        }
        "null" => mlirAsyncRuntimeEmplaceValue(std::ptr::null_mut()),
        "wrong_kind" => {
            mlirAsyncRuntimeAwaitAllInGroup(t);
        }
        _ => unreachable!(),
    }
    // Reaching this point means the misuse went unnoticed.
    std::process::exit(0);
}

fn run_case(case: &str) -> (Option<i32>, String) {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "misuse_child", "--nocapture", "--test-threads=1"])
        .env(CASE, case)
        .env(CHECKED_ENV, "1")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn expect_abort(case: &str, function: &str, words: &str) {
    let (code, err) = run_case(case);
    assert_ne!(code, Some(0), "{case}: misuse not detected; stderr: {err}");
    assert!(err.contains(function), "{case}: {err}");
    assert!(err.contains(words), "{case}: {err}");
}

#[test]
fn count_underflow_aborts() {
    expect_abort("underflow", "mlirAsyncRuntimeDropRef", "underflow");
}

#[test]
fn double_emplace_aborts() {
    expect_abort(
        "double_emplace",
        "mlirAsyncRuntimeEmplaceToken",
        "already available",
    );
}

#[test]
fn use_after_free_aborts() {
    expect_abort("use_after_free", "mlirAsyncRuntimeAddRef", "use after free");
}

#[test]
fn awaiting_a_freed_token_aborts() {
    expect_abort(
        "await_freed",
        "mlirAsyncRuntimeAwaitToken",
        "use after free",
    );
}

#[test]
fn null_pointer_aborts() {
    expect_abort("null", "mlirAsyncRuntimeEmplaceValue", "null pointer");
}

#[test]
fn wrong_kind_aborts() {
    expect_abort(
        "wrong_kind",
        "mlirAsyncRuntimeAwaitAllInGroup",
        "where an async group is expected",
    );
}
