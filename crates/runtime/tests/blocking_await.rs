//! Blocking awaits inside tasks always complete, whatever runs on which
//! thread. The scenario that used to deadlock (and hangs upstream's runtime
//! too): task A blocks on token S, task B blocks on A's value, S is
//! produced only once B has started. With "help while waiting" a worker
//! blocked in A ran B on top of A's frame; B then waited for A, which could
//! only resume once B returned. With one worker that happened every time,
//! with 16 workers (16 A's and 16 B's) nearly every time.
//!
//! Each case runs in a child process (the worker count is read once per
//! process); a child still running after a generous deadline is killed and
//! reported as deadlocked. Nothing here measures speed.

use mlir_async_runtime::{
    execute_value, num_worker_threads, shutdown, Token, MAX_STAND_INS, NUM_THREADS_ENV,
};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const CHILD: &str = "MLIR_ASYNC_RUNTIME_BLOCKING_CHILD";
const MANY_CHILD: &str = "MLIR_ASYNC_RUNTIME_BLOCKING_MANY_CHILD";
const DEADLOCK_AFTER: Duration = Duration::from_secs(120);

/// In the child: `pairs` A tasks blocked on one token S, `pairs` B tasks
/// each blocked on one A, S produced once every B is running.
#[test]
fn blocking_child() {
    let Ok(pairs) = std::env::var(CHILD) else {
        return;
    };
    let pairs: u64 = pairs.parse().unwrap();
    let (s, produce_s) = Token::new();
    let b_started = Arc::new(AtomicUsize::new(0));
    let a: Vec<_> = (0..pairs)
        .map(|i| {
            let s = s.clone();
            execute_value(move || {
                s.wait();
                i
            })
        })
        .collect();
    let b: Vec<_> = a
        .iter()
        .map(|a| {
            let (a, started) = (a.clone(), b_started.clone());
            execute_value(move || {
                started.fetch_add(1, Ordering::SeqCst);
                a.wait().unwrap() + 100
            })
        })
        .collect();
    while b_started.load(Ordering::SeqCst) < pairs as usize {
        std::thread::yield_now();
    }
    produce_s.emplace();
    for (i, b) in b.iter().enumerate() {
        assert_eq!(b.wait(), Ok(i as u64 + 100));
    }
    drop((a, b, s));
    assert_eq!(shutdown().total(), 0, "objects left alive");
    println!("completed with {} workers", num_worker_threads());
}

/// In the child: more tasks blocked at once than there may be stand-ins;
/// those beyond the limit are run on top of blocked ones (the fallback),
/// and all complete once their token is produced.
#[test]
fn blocking_many_child() {
    let Ok(n) = std::env::var(MANY_CHILD) else {
        return;
    };
    let n: usize = n.parse().unwrap();
    let (s, produce_s) = Token::new();
    let started = Arc::new(AtomicUsize::new(0));
    let tasks: Vec<_> = (0..n as u64)
        .map(|i| {
            let (s, started) = (s.clone(), started.clone());
            execute_value(move || {
                started.fetch_add(1, Ordering::SeqCst);
                s.wait();
                i
            })
        })
        .collect();
    while started.load(Ordering::SeqCst) < n {
        std::thread::yield_now();
    }
    let threads = std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| {
            l.strip_prefix("Threads:")
                .map(|t| t.trim().parse::<usize>().unwrap())
        })
        .unwrap();
    // Workers, stand-ins, this thread and the test harness's.
    assert!(
        threads <= num_worker_threads() + MAX_STAND_INS + 4,
        "{threads} threads"
    );
    produce_s.emplace();
    for (i, t) in tasks.iter().enumerate() {
        assert_eq!(t.wait(), Ok(i as u64));
    }
    drop((tasks, s));
    assert_eq!(shutdown().total(), 0, "objects left alive");
    println!("completed with {} workers", num_worker_threads());
}

fn run_child(workers: usize, pairs: usize) {
    run_child_case(workers, "blocking_child", CHILD, pairs);
}

fn run_child_case(workers: usize, test: &str, var: &str, pairs: usize) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(var, pairs.to_string())
        .env(NUM_THREADS_ENV, workers.to_string())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > DEADLOCK_AFTER {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{workers} worker(s), {pairs} pair(s): deadlocked");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(status.success(), "{workers} worker(s): {status}; {stdout}");
    assert!(
        stdout.contains(&format!("completed with {workers} workers")),
        "{stdout}"
    );
}

#[test]
fn a_task_blocked_on_a_blocked_task_completes_on_one_worker() {
    run_child(1, 1);
}

#[test]
fn sixteen_blocked_pairs_complete_on_sixteen_workers() {
    run_child(16, 16);
}

#[test]
fn many_blocked_pairs_complete_on_two_workers() {
    run_child(2, 200);
}

#[test]
fn more_blocked_tasks_than_stand_ins_complete() {
    run_child_case(2, "blocking_many_child", MANY_CHILD, MAX_STAND_INS + 100);
}
