//! `MLIR_ASYNC_RUNTIME_NUM_THREADS` values that are not a usable count are
//! reported on stderr and replaced (default for nonsense, the cap for too
//! many). Each case runs this binary again as a child with the variable set,
//! because the count is read once per process.

use mlir_async_runtime::{execute_value, num_worker_threads, MAX_NUM_THREADS, NUM_THREADS_ENV};
use std::process::Command;

const CHILD: &str = "MLIR_ASYNC_RUNTIME_NUM_THREADS_CHILD";

/// In the child: prints the worker count and proves the pool runs tasks.
#[test]
fn num_threads_child() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    assert_eq!(execute_value(|| 41 + 1).wait(), Ok(42));
    println!("workers={}", num_worker_threads());
}

fn child(value: &str) -> (usize, String) {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "num_threads_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .env(NUM_THREADS_ENV, value)
        .output()
        .unwrap();
    assert!(out.status.success(), "{value:?}: {out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let n = stdout
        .lines()
        .find_map(|l| l.split_once("workers=").map(|(_, n)| n.trim()))
        .unwrap_or_else(|| panic!("{value:?}: no count in {stdout}"))
        .parse()
        .unwrap();
    (n, String::from_utf8_lossy(&out.stderr).into_owned())
}

fn default_count() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_NUM_THREADS)
}

#[test]
fn a_valid_count_is_used_silently() {
    let (n, err) = child("3");
    assert_eq!(n, 3);
    assert!(!err.contains(NUM_THREADS_ENV), "{err}");
}

#[test]
fn invalid_counts_warn_and_use_the_default() {
    for bad in ["0", "-1", "abc"] {
        let (n, err) = child(bad);
        assert_eq!(n, default_count(), "{bad:?}");
        assert!(
            err.contains("warning") && err.contains(NUM_THREADS_ENV),
            "{bad:?}: {err}"
        );
    }
}

#[test]
fn a_huge_count_is_capped() {
    let (n, err) = child("100000");
    assert_eq!(n, MAX_NUM_THREADS);
    assert!(
        err.contains(NUM_THREADS_ENV) && err.contains("maximum"),
        "{err}"
    );
}
