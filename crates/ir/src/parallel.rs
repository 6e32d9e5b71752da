//! Work over independent pieces of IR on several threads, as MLIR's
//! `parallelForEach` does for the isolated-from-above ops of a module
//! (verification, printing). Results always come back in IR order, so
//! output and the first diagnostic do not depend on scheduling.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Set by `--mlir-disable-threading`.
static DISABLED: AtomicBool = AtomicBool::new(false);

/// Makes every later parallel loop run on the calling thread only.
pub fn disable_threading(disabled: bool) {
    DISABLED.store(disabled, Ordering::Relaxed);
}

thread_local! {
    /// Set while the thread runs [`on_this_thread`].
    static ON_THIS_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every parallel loop it starts kept on the calling thread:
/// for work that is already one of several threads (a module run in
/// shards), where more threads would only compete for the same cores.
pub fn on_this_thread<T>(f: impl FnOnce() -> T) -> T {
    let before = ON_THIS_THREAD.with(|c| c.replace(true));
    let r = f();
    ON_THIS_THREAD.with(|c| c.set(before));
    r
}

/// The stack of every thread that walks IR recursively (parsing,
/// verifying, printing): MLIR accepts nesting a thousand levels deep and
/// more, and each level costs several frames, kilobytes each in a debug
/// build. Only the pages a walk touches are ever mapped.
pub const DEEP_STACK: usize = 256 << 20;

/// Runs `f` on a thread with a [`DEEP_STACK`], waiting for it: deep
/// input then neither overflows the caller's stack nor needs a lower
/// nesting limit than MLIR's. Panics in `f` propagate.
pub fn with_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|sc| {
        let h = spawn_deep(sc, f);
        h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

/// `sc.spawn` with a [`DEEP_STACK`].
fn spawn_deep<'s, 'e, T: Send + 's>(
    sc: &'s std::thread::Scope<'s, 'e>,
    f: impl FnOnce() -> T + Send + 's,
) -> std::thread::ScopedJoinHandle<'s, T> {
    std::thread::Builder::new()
        .stack_size(DEEP_STACK)
        .spawn_scoped(sc, f)
        .expect("failed to spawn thread")
}

/// Has `--mlir-disable-threading` been given?
pub fn threading_disabled() -> bool {
    DISABLED.load(Ordering::Relaxed)
}

/// How many threads a parallel loop over `n` items uses.
pub fn threads_for(n: usize) -> usize {
    if DISABLED.load(Ordering::Relaxed) || n < 2 || ON_THIS_THREAD.with(|c| c.get()) {
        return 1;
    }
    // Asking the OS reads cgroup files: once per process is enough.
    static CORES: OnceLock<usize> = OnceLock::new();
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |t| t.get()));
    cores.min(n)
}

/// Runs `f(state, i)` for every `i` in `0..n`, each thread with its own
/// `init()` state, and returns the result of the smallest `i` for which
/// `f` returned `Some`. Items after a found one are skipped, as a
/// sequential loop that stops at the first failure would.
pub fn first_in_order<S, T: Send>(
    n: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize) -> Option<T> + Sync,
) -> Option<(usize, T)> {
    let threads = threads_for(n);
    if threads <= 1 {
        let mut s = init();
        return (0..n).find_map(|i| f(&mut s, i).map(|t| (i, t)));
    }
    let next = AtomicUsize::new(0);
    // Index of the earliest item found so far (`n`: none).
    let found = AtomicUsize::new(n);
    let work = || {
        let mut s = init();
        let mut mine: Option<(usize, T)> = None;
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n || i > found.load(Ordering::Relaxed) {
                break;
            }
            if let Some(t) = f(&mut s, i) {
                found.fetch_min(i, Ordering::Relaxed);
                // Items are taken in increasing order: this thread's
                // first find is its earliest.
                mine = Some((i, t));
                break;
            }
        }
        mine
    };
    std::thread::scope(|sc| {
        let helpers: Vec<_> = (1..threads).map(|_| spawn_deep(sc, work)).collect();
        let mut best = work();
        for h in helpers {
            let r = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
            if let Some((i, t)) = r {
                if best.as_ref().is_none_or(|(j, _)| i < *j) {
                    best = Some((i, t));
                }
            }
        }
        best
    })
}

/// Runs `f` over the contiguous parts `bounds[k]..bounds[k + 1]` on
/// worker threads (each with its own `init()` state) and hands each result
/// to `consume` on the calling thread, in part order, as soon as it and
/// every part before it are done: a printer's output is written while
/// the rest is still being printed, and need not be held whole. Stops
/// taking parts at the first error of `consume`, and returns it.
pub fn for_each_part_in_order<S, T: Send, E>(
    bounds: &[usize],
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, std::ops::Range<usize>) -> T + Sync,
    mut consume: impl FnMut(T) -> Result<(), E>,
) -> Result<(), E> {
    let parts = bounds.len().saturating_sub(1);
    let threads = threads_for(parts);
    if threads <= 1 {
        let mut s = init();
        for k in 0..parts {
            consume(f(&mut s, bounds[k]..bounds[k + 1]))?;
        }
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, T)>();
    std::thread::scope(|sc| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop, init, f) = (&next, &stop, &init, &f);
            spawn_deep(sc, move || {
                let mut s = init();
                while !stop.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= parts || tx.send((k, f(&mut s, bounds[k]..bounds[k + 1]))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Parts finished ahead of their turn wait here.
        let mut early: Vec<Option<T>> = (0..parts).map(|_| None).collect();
        let mut turn = 0;
        let mut result = Ok(());
        // Ends when every worker has hung up.
        for (k, t) in rx {
            early[k] = Some(t);
            while let Some(t) = early.get_mut(turn).and_then(Option::take) {
                turn += 1;
                if result.is_ok() {
                    result = consume(t);
                    if result.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_this_thread_keeps_loops_on_the_caller() {
        let caller = std::thread::current().id();
        let threads = std::sync::Mutex::new(std::collections::HashSet::new());
        on_this_thread(|| {
            assert_eq!(threads_for(1000), 1);
            first_in_order(
                100,
                || (),
                |_, _| {
                    threads.lock().unwrap().insert(std::thread::current().id());
                    None::<()>
                },
            );
        });
        assert_eq!(*threads.lock().unwrap(), [caller].into_iter().collect());
        // And only while `f` runs.
        assert_eq!(threads_for(1000), threads_for(usize::MAX).min(1000));
    }

    #[test]
    fn first_in_order_returns_the_earliest_hit_whatever_the_scheduling() {
        for n in [0, 1, 2, 3, 100, 1000] {
            // Every multiple of 7 past 20 "fails": the answer is 21 when n > 21.
            let r = first_in_order(
                n,
                || 0u32,
                |calls, i| {
                    *calls += 1;
                    (i > 20 && i % 7 == 0).then(|| format!("item {i}"))
                },
            );
            let want = (n > 21).then(|| (21, "item 21".to_string()));
            assert_eq!(r, want, "n = {n}");
        }
    }

    #[test]
    fn parts_are_consumed_in_order_and_a_consumer_error_stops_the_loop() {
        let bounds: Vec<usize> = (0..=40).map(|k| k * 3).collect();
        let mut seen = vec![];
        let r: Result<(), String> = for_each_part_in_order(
            &bounds,
            || (),
            |_, r| {
                // Later parts finish first as often as not.
                if r.start % 2 == 0 {
                    std::thread::yield_now();
                }
                r.start
            },
            |start| {
                seen.push(start);
                Ok(())
            },
        );
        assert_eq!(r, Ok(()));
        assert_eq!(seen, (0..40).map(|k| k * 3).collect::<Vec<_>>());
        let mut taken = 0;
        let r = for_each_part_in_order(
            &bounds,
            || (),
            |_, r| r.start,
            |start| {
                taken += 1;
                if start == 9 {
                    Err(format!("full at {start}"))
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(r, Err("full at 9".to_string()));
        assert_eq!(taken, 4, "nothing is consumed after the error");
    }

    #[test]
    fn uneven_parts_cover_every_item_once() {
        let bounds = [0, 5, 6, 20, 31, 57];
        let mut flat = vec![];
        let r: Result<(), ()> = for_each_part_in_order(
            &bounds,
            || (),
            |_, r| r.collect::<Vec<_>>(),
            |part| {
                flat.extend(part);
                Ok(())
            },
        );
        assert_eq!(r, Ok(()));
        assert_eq!(flat, (0..57).collect::<Vec<_>>());
    }
}
