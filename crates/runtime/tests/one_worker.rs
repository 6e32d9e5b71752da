//! With a single worker thread, a task tree that blocks at every level still
//! completes (help-while-waiting). One test per binary: the worker count is
//! read once per process.

use mlir_async_runtime::{execute_value, num_worker_threads, shutdown, NUM_THREADS_ENV};

fn tree(depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let a = execute_value(move || tree(depth - 1));
    let b = execute_value(move || tree(depth - 1));
    a.wait().unwrap() + b.wait().unwrap()
}

#[test]
fn deep_blocking_tree_completes_on_one_worker() {
    std::env::set_var(NUM_THREADS_ENV, "1");
    assert_eq!(num_worker_threads(), 1);
    assert_eq!(execute_value(|| tree(12)).wait(), Ok(4096));
    assert_eq!(shutdown().total(), 0);
}
