//! Behaviour of the safe Rust API.

use mlir_async_runtime::{execute, execute_value, spawn, AsyncError, Group, State, Token, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

#[test]
fn token_becomes_available_once_emplaced() {
    let (t, p) = Token::new();
    assert_eq!(t.state(), State::Unavailable);
    assert!(!t.is_ready());
    p.emplace();
    assert_eq!(t.wait(), State::Available);
    assert!(!t.is_error());
}

#[test]
fn token_keeps_creation_reference_until_produced() {
    let (t, p) = Token::new();
    // Ours plus the producer's, as upstream creates tokens with a count of 2.
    assert_eq!(t.ref_count(), 2);
    let t2 = t.clone();
    assert_eq!(t.ref_count(), 3);
    drop(t2);
    p.emplace();
    assert_eq!(t.ref_count(), 1);
}

#[test]
fn abandoned_producer_turns_into_error() {
    let (t, p) = Token::new();
    drop(p);
    assert_eq!(t.wait(), State::Error);
    let (v, pv) = Value::<u64>::new();
    drop(pv);
    assert_eq!(v.wait(), Err(AsyncError));
}

#[test]
fn value_round_trips_payload_of_any_alignment() {
    #[derive(Clone, Copy, Debug, PartialEq)]
    #[repr(align(64))]
    struct Wide([f32; 16]);
    let (v, p) = Value::<Wide>::new();
    assert_eq!(v.get(), None);
    let payload = Wide(std::array::from_fn(|i| i as f32 * 0.5));
    p.emplace(payload);
    assert_eq!(v.wait(), Ok(payload));
    assert_eq!(v.clone().get(), Some(Ok(payload)));
}

#[test]
fn execute_runs_on_a_worker_and_reports_panics_as_errors() {
    let main = std::thread::current().id();
    let v = execute_value(move || std::thread::current().id() != main);
    assert_eq!(v.wait(), Ok(true));
    let bad = execute(|| panic!("intentional test panic"));
    assert_eq!(bad.wait(), State::Error);
    let bad_value = execute_value::<i32>(|| panic!("intentional test panic"));
    assert_eq!(bad_value.wait(), Err(AsyncError));
}

#[test]
fn group_waits_for_all_members_and_counts_errors() {
    let g = Group::new(5);
    let mut producers = Vec::new();
    for i in 0..5 {
        let (t, p) = Token::new();
        assert_eq!(g.add(&t), i);
        producers.push(p);
    }
    assert!(!g.is_ready());
    for (i, p) in producers.into_iter().enumerate() {
        if i % 2 == 0 {
            p.set_error();
        } else {
            p.emplace();
        }
    }
    g.wait();
    assert!(g.is_ready());
    assert_eq!(g.num_errors(), 3);
    assert!(g.is_error());
}

#[test]
fn group_accepts_members_that_already_completed() {
    let g = Group::new(2);
    let (t1, p1) = Token::new();
    p1.emplace();
    g.add(&t1);
    assert!(!g.is_ready());
    let t2 = execute(|| {});
    g.add(&t2);
    g.wait();
    assert_eq!(g.num_errors(), 0);
}

#[test]
fn empty_group_is_ready_at_once() {
    let g = Group::new(0);
    assert!(g.is_ready());
    g.wait();
}

#[test]
#[should_panic(expected = "more tokens added to the group")]
fn adding_past_group_size_panics() {
    let g = Group::new(1);
    let (a, _pa) = Token::new();
    let (b, _pb) = Token::new();
    g.add(&a);
    g.add(&b);
}

#[test]
fn on_ready_callbacks_run_after_completion() {
    let (t, p) = Token::new();
    let (tx, rx) = mpsc::channel();
    let t2 = t.clone();
    t.on_ready(move || tx.send(t2.state()).unwrap());
    assert!(rx.recv_timeout(Duration::from_millis(50)).is_err());
    p.set_error();
    assert_eq!(
        rx.recv_timeout(Duration::from_secs(10)).unwrap(),
        State::Error
    );
}

#[test]
fn many_awaiters_on_one_token_all_resume() {
    let (t, p) = Token::new();
    let n = 10_000;
    let count = Arc::new(AtomicUsize::new(0));
    let g = Group::new(n);
    for _ in 0..n {
        let (done, dp) = Token::new();
        g.add(&done);
        let c = count.clone();
        t.on_ready(move || {
            c.fetch_add(1, Ordering::Relaxed);
            dp.emplace();
        });
    }
    assert_eq!(count.load(Ordering::Relaxed), 0);
    p.emplace();
    g.wait();
    assert_eq!(count.load(Ordering::Relaxed), n);
}

#[test]
fn blocking_wait_inside_tasks_does_not_starve_the_pool() {
    // Every level blocks on its children from inside a worker: with a pool
    // that parks blocked workers this deadlocks once depth > workers.
    fn fib(n: u64) -> u64 {
        if n < 2 {
            return n;
        }
        let a = execute_value(move || fib(n - 1));
        let b = execute_value(move || fib(n - 2));
        a.wait().unwrap() + b.wait().unwrap()
    }
    assert_eq!(execute_value(|| fib(16)).wait(), Ok(987));
}

#[test]
fn spawn_runs_closures() {
    let (tx, rx) = mpsc::channel();
    for i in 0..100 {
        let tx = tx.clone();
        spawn(move || tx.send(i).unwrap());
    }
    let mut got: Vec<i32> = (0..100)
        .map(|_| rx.recv_timeout(Duration::from_secs(10)).unwrap())
        .collect();
    got.sort();
    assert_eq!(got, (0..100).collect::<Vec<_>>());
}
