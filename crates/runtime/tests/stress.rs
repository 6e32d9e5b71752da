//! Many tasks on many threads; nothing may leak. The tests in this binary
//! are serialised because they assert on the process-wide live-object count.

use mlir_async_runtime::{execute, execute_value, live_objects, shutdown, Group, Token, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

fn fan_out(n: usize, producers: usize) {
    let sum = Arc::new(AtomicU64::new(0));
    let g = Group::new(n);
    let per = n / producers;
    std::thread::scope(|s| {
        for p in 0..producers {
            let (g, sum) = (g.clone(), sum.clone());
            s.spawn(move || {
                for i in p * per..(p + 1) * per {
                    let sum = sum.clone();
                    let t = execute(move || {
                        sum.fetch_add(i as u64, Ordering::Relaxed);
                    });
                    g.add(&t);
                }
            });
        }
    });
    g.wait();
    let n = n as u64;
    assert_eq!(sum.load(Ordering::Relaxed), n * (n - 1) / 2);
}

fn chain_on_slow_head(n: usize) {
    // All links wait (as awaiters) on their predecessor before the head is
    // produced; completing the head must not recurse through the chain.
    let (head, head_p) = Value::<u64>::new();
    let mut prev = head;
    for k in 0..n as u64 {
        let (next, p) = Value::<u64>::new();
        let src = prev.clone();
        prev.on_ready(move || match src.get() {
            Some(Ok(x)) => p.emplace(x + k),
            _ => p.set_error(),
        });
        prev = next;
    }
    head_p.emplace(0);
    let n = n as u64;
    assert_eq!(prev.wait(), Ok(n * (n - 1) / 2));
}

fn error_chain(n: usize) {
    let (head, head_p) = Token::new();
    let mut prev = head;
    for _ in 0..n {
        let (next, p) = Token::new();
        let src = prev.clone();
        prev.on_ready(move || {
            if src.is_error() {
                p.set_error()
            } else {
                p.emplace()
            }
        });
        prev = next;
    }
    head_p.set_error();
    assert!(prev.wait() == mlir_async_runtime::State::Error);
}

#[test]
fn fan_out_from_four_threads_leaks_nothing() {
    let _s = serial();
    let base = live_objects();
    fan_out(200_000, 4);
    assert_eq!(shutdown(), base, "{}", mlir_async_runtime::leak_report());
}

#[test]
fn long_chain_waiting_on_slow_head_leaks_nothing() {
    let _s = serial();
    let base = live_objects();
    chain_on_slow_head(100_000);
    assert_eq!(shutdown(), base, "{}", mlir_async_runtime::leak_report());
}

#[test]
fn errors_propagate_along_a_chain() {
    let _s = serial();
    let base = live_objects();
    error_chain(10_000);
    assert_eq!(shutdown(), base);
}

#[test]
fn recursive_blocking_tree_leaks_nothing() {
    let _s = serial();
    let base = live_objects();
    fn tree(d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        let a = execute_value(move || tree(d - 1));
        let b = execute_value(move || tree(d - 1));
        a.wait().unwrap() + b.wait().unwrap()
    }
    assert_eq!(execute_value(|| tree(14)).wait(), Ok(1 << 14));
    assert_eq!(shutdown(), base);
}

#[test]
fn leak_report_names_leaked_objects() {
    let _s = serial();
    let before = live_objects();
    let (t, p) = Token::new();
    let g = Group::new(1);
    std::mem::forget(t.clone());
    p.emplace();
    drop(t);
    let now = live_objects();
    assert_eq!(now.tokens, before.tokens + 1);
    assert_eq!(now.groups, before.groups + 1);
    let report = mlir_async_runtime::leak_report();
    assert!(report.contains("1 token(s)"), "{report}");
    if cfg!(debug_assertions) {
        assert!(report.contains("stress.rs"), "{report}");
    }
    drop(g);
}

#[test]
#[ignore = "large: run with --release -- --ignored"]
fn millions_of_tasks_leak_nothing() {
    let _s = serial();
    let base = live_objects();
    fan_out(4_000_000, 4);
    chain_on_slow_head(1_000_000);
    assert_eq!(shutdown(), base);
}
