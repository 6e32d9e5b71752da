//! The checked mode (`MLIR_ASYNC_RUNTIME_CHECKED=1`): each reference-counting
//! mistake is reported with the object's kind and creator and makes the
//! process exit non-zero; a correct program passes cleanly. Each case runs
//! this binary again as a child with the variable set (the mode is read once
//! per process). Holds in debug and release builds alike.

use mlir_async_runtime::capi::*;
use mlir_async_runtime::{execute_value, shutdown, Group, Token, CHECKED_ENV, LEAK_EXIT_STATUS};
use std::ffi::c_void;
use std::process::Command;

const CASE: &str = "MLIR_ASYNC_RUNTIME_CHECKED_CASE";

unsafe extern "C" fn emplace_token(handle: *mut c_void) {
    mlirAsyncRuntimeEmplaceToken(handle);
}

/// A program that counts right: tokens, values and groups through the C ABI
/// as lowered code uses them, and the Rust API.
fn correct_program() {
    let g = mlirAsyncRuntimeCreateGroup(4);
    for _ in 0..4 {
        let t = mlirAsyncRuntimeCreateToken();
        mlirAsyncRuntimeAddTokenToGroup(t, g);
        mlirAsyncRuntimeExecute(t, emplace_token);
        mlirAsyncRuntimeDropRef(t, 1);
    }
    mlirAsyncRuntimeAwaitAllInGroup(g);
    assert!(!mlirAsyncRuntimeIsGroupError(g));
    mlirAsyncRuntimeDropRef(g, 1);

    let v = mlirAsyncRuntimeCreateValue(8);
    // SAFETY: the storage holds 8 bytes, aligned for an i64.
    unsafe { mlirAsyncRuntimeGetValueStorage(v).cast::<i64>().write(42) };
    mlirAsyncRuntimeEmplaceValue(v);
    mlirAsyncRuntimeAwaitValue(v);
    mlirAsyncRuntimeAddRef(v, 2);
    mlirAsyncRuntimeDropRef(v, 3);

    let x = execute_value(|| 6 * 7);
    let group = Group::new(1);
    let (t, p) = Token::new();
    group.add(&t);
    p.emplace();
    group.wait();
    assert_eq!(x.wait(), Ok(42));
    drop((x, group, t));
    assert_eq!(shutdown().total(), 0);
}

/// Runs in the child only.
#[test]
fn checked_child() {
    let Ok(case) = std::env::var(CASE) else {
        return;
    };
    match case.as_str() {
        "correct" => correct_program(),
        "drop_below_zero" => {
            let _first = mlirAsyncRuntimeCreateToken();
            let t = mlirAsyncRuntimeCreateToken();
            mlirAsyncRuntimeEmplaceToken(t);
            // One reference is left; dropping two goes below zero.
            mlirAsyncRuntimeDropRef(t, 2);
        }
        "use_after_free" => {
            let v = mlirAsyncRuntimeCreateValue(8);
            mlirAsyncRuntimeEmplaceValue(v);
            mlirAsyncRuntimeDropRef(v, 1);
            // Freed; in an unchecked release build this memory is recycled.
            let _other = mlirAsyncRuntimeCreateValue(8);
            mlirAsyncRuntimeAwaitValue(v);
        }
        "drop_after_free" => {
            let g = mlirAsyncRuntimeCreateGroup(0);
            mlirAsyncRuntimeDropRef(g, 1);
            mlirAsyncRuntimeDropRef(g, 1);
        }
        "double_emplace" => {
            let t = mlirAsyncRuntimeCreateToken();
            mlirAsyncRuntimeAddRef(t, 1);
            mlirAsyncRuntimeEmplaceToken(t);
            mlirAsyncRuntimeEmplaceToken(t);
        }
        "leak" => {
            let t = mlirAsyncRuntimeCreateToken();
            mlirAsyncRuntimeEmplaceToken(t);
            let _g = mlirAsyncRuntimeCreateGroup(2);
            let (_v, p) = mlir_async_runtime::Value::<u8>::new();
            p.emplace(1);
            std::mem::forget(_v);
            // Returning normally: the exit handler finds the three.
            return;
        }
        _ => unreachable!("unknown case {case}"),
    }
    if case != "correct" {
        // Reaching this point means the mistake went unnoticed.
        println!("UNDETECTED");
    }
}

fn run_case(case: &str) -> (Option<i32>, String, String) {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "checked_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CASE, case)
        .env(CHECKED_ENV, "1")
        .env_remove("MLIR_ASYNC_RUNTIME_LEAK_REPORT")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn expect_failure(case: &str, words: &[&str]) {
    let (code, out, err) = run_case(case);
    assert_ne!(code, Some(0), "{case}: not detected; stderr: {err}");
    assert!(!out.contains("UNDETECTED"), "{case}: not detected: {err}");
    for w in words {
        assert!(err.contains(w), "{case}: {w:?} missing from: {err}");
    }
}

#[test]
fn drop_below_zero_names_the_token_and_its_creator() {
    expect_failure(
        "drop_below_zero",
        &[
            "mlirAsyncRuntimeDropRef",
            "underflow",
            "token #2 created by mlirAsyncRuntimeCreateToken",
        ],
    );
}

#[test]
fn use_after_free_is_detected_although_the_memory_was_freed() {
    expect_failure(
        "use_after_free",
        &[
            "mlirAsyncRuntimeAwaitValue",
            "use after free",
            "value #1 created by mlirAsyncRuntimeCreateValue",
        ],
    );
}

#[test]
fn dropping_a_freed_group_is_a_use_after_free() {
    expect_failure(
        "drop_after_free",
        &[
            "mlirAsyncRuntimeDropRef",
            "use after free",
            "group #1 created by mlirAsyncRuntimeCreateGroup",
        ],
    );
}

#[test]
fn double_emplace_names_the_token() {
    expect_failure(
        "double_emplace",
        &[
            "mlirAsyncRuntimeEmplaceToken",
            "already available",
            "token #1 created by mlirAsyncRuntimeCreateToken",
        ],
    );
}

#[test]
fn leaks_at_exit_are_listed_and_fail_the_process() {
    let (code, out, err) = run_case("leak");
    assert_eq!(code, Some(LEAK_EXIT_STATUS), "stdout: {out}; stderr: {err}");
    for w in [
        "3 live object(s): 1 token(s), 1 value(s), 1 group(s)",
        "1 token(s) created at mlirAsyncRuntimeCreateToken (C ABI): #1",
        "1 group(s) created at mlirAsyncRuntimeCreateGroup (C ABI): #2",
        "1 value(s) created at ",
        "tests/checked.rs",
        "checked mode: 3 object(s) leaked",
    ] {
        assert!(err.contains(w), "{w:?} missing from: {err}");
    }
}

#[test]
fn a_correct_program_passes_cleanly() {
    let (code, out, err) = run_case("correct");
    assert_eq!(code, Some(0), "stdout: {out}; stderr: {err}");
    assert!(!err.contains("mlir-async-runtime"), "{err}");
}
