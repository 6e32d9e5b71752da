//! A thread outside the pool (the JIT's `main`) returns from a blocking
//! await only once the tasks that were running when the object became ready
//! have returned — transitively through the objects they completed — and it
//! never deadlocks on a task that stays blocked. Run in one binary so other
//! tests do not keep the workers busy.

use mlir_async_runtime::{execute, execute_value, spawn, State, Token, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

#[test]
fn wait_returns_after_the_producing_task_returned() {
    let _s = serial();
    for _ in 0..5 {
        let (v, p) = Value::<u32>::new();
        let returned = Arc::new(AtomicBool::new(false));
        let r = returned.clone();
        spawn(move || {
            p.emplace(7);
            std::thread::sleep(Duration::from_millis(20));
            r.store(true, Ordering::SeqCst);
        });
        assert_eq!(v.wait(), Ok(7));
        assert!(
            returned.load(Ordering::SeqCst),
            "wait returned while the producer still ran"
        );
    }
}

#[test]
fn wait_covers_tasks_that_fed_the_producer() {
    let _s = serial();
    for _ in 0..5 {
        // A completes `x` mid-task and keeps running; the continuation that
        // produces `y` runs elsewhere. Waiting for `y` must also outlast A.
        let (x, px) = Token::new();
        let (y, py) = Token::new();
        let a_returned = Arc::new(AtomicBool::new(false));
        let r = a_returned.clone();
        spawn(move || {
            px.emplace();
            std::thread::sleep(Duration::from_millis(20));
            r.store(true, Ordering::SeqCst);
        });
        x.on_ready(move || py.emplace());
        assert_eq!(y.wait(), State::Available);
        assert!(
            a_returned.load(Ordering::SeqCst),
            "wait returned while a feeding task still ran"
        );
    }
}

#[test]
fn wait_does_not_deadlock_on_a_task_blocked_on_this_thread() {
    let _s = serial();
    // One task stays blocked until this thread emplaces `gate`, after its
    // own wait: that wait must return once the pool is stuck.
    let (gate, gp) = Token::new();
    let g = gate.clone();
    let blocked = execute(move || {
        g.wait();
    });
    std::thread::sleep(Duration::from_millis(10));
    let v = execute_value(|| 5u64);
    assert_eq!(v.wait(), Ok(5));
    gp.emplace();
    assert_eq!(blocked.wait(), State::Available);
}

#[test]
fn shutdown_runs_queued_tasks_and_waits_for_running_ones() {
    let _s = serial();
    // What an in-process executor calls before freeing code its tasks run
    // (`__mlir_runner_destroy` for mlir-cpu-runner): once it returns, every
    // task handed over before has finished.
    let done = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let d = done.clone();
    spawn(move || {
        std::thread::sleep(Duration::from_millis(20));
        d.fetch_add(1, Ordering::SeqCst);
    });
    for _ in 0..200 {
        let d = done.clone();
        spawn(move || {
            d.fetch_add(1, Ordering::SeqCst);
        });
    }
    assert_eq!(mlir_async_runtime::shutdown().total(), 0);
    assert_eq!(done.load(Ordering::SeqCst), 201);
}
