//! Real lowered programs whose `main` returns while tasks it never awaited
//! are still queued or running, run by `mlir-cpu-runner-14` on this crate's
//! `libmlir_async_runtime.so`. The runner frees the JIT-compiled code right
//! after `main` returns, so these crashed (SIGSEGV) until the library
//! exported `__mlir_runner_destroy`. A few runs each here;
//! `bench/runtime/exit-unawaited.sh` repeats them by the thousand. Skipped,
//! with a message, when the LLVM 14 tools are not installed.

mod runner;

const RUNS: usize = 8;

#[test]
fn main_returning_with_queued_tasks_exits_cleanly() {
    if !runner::tools_present() {
        return;
    }
    let lowered = runner::lower("exit_queued.mlir", runner::PIPELINE);
    for _ in 0..RUNS {
        let r = runner::run(&lowered, &[]);
        assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    }
}

#[test]
fn main_returning_with_a_running_task_waits_for_it() {
    if !runner::tools_present() {
        return;
    }
    let lowered = runner::lower("exit_running.mlir", runner::PIPELINE);
    for _ in 0..RUNS {
        let r = runner::run(&lowered, &[]);
        assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
        // `main`'s line and the task's line: the task ran to its end.
        assert_eq!(
            r.stdout.lines().collect::<Vec<_>>(),
            ["-6331144384443599054", "2737239331662092611"],
        );
    }
}
