//! The blocking-await hand-off as a state machine: who counts as an active
//! worker, who is blocked with a stand-in in its place, who is a retired
//! spare. The scheduler ([`crate::scheduler`]) applies these transitions
//! under its registry lock and does the parking, unparking and thread
//! starting they call for; the `loom` models below apply the very same
//! transitions under a `loom` mutex with `loom`'s threads, so the protocol
//! (no lost wake-up, no deadlock, the worker count kept) is checked on the
//! code the scheduler runs.
//!
//! Invariant, after every transition: every thread handed a slot is
//! exactly one of active (running, searching or sleeping), blocked, or
//! spare (`active + blocked + spares == slots`), and while nothing is at
//! the thread limit the active threads are at least the worker count.

/// Who is parked where. Changed only under the scheduler's registry lock.
pub(crate) struct Registry {
    /// Active threads parked for lack of work. A thread is removed by
    /// whoever wakes it, before the unpark, so a thread in this list runs no
    /// task until some running thread takes it out.
    pub(crate) sleepers: Vec<usize>,
    /// Retired threads, parked until a blocking await needs a stand-in.
    pub(crate) spares: Vec<usize>,
    /// `blocked[i]`: thread `i` is parked in a blocking await and does not
    /// count as active (a stand-in took its place). Cleared, and the thread
    /// counted active again, by whoever completes the awaited object (or by
    /// the thread itself if it sees the object ready first).
    pub(crate) blocked: Vec<bool>,
    /// Threads neither blocked nor retired (running, searching or sleeping).
    pub(crate) active: usize,
    /// Slots handed out so far.
    pub(crate) slots: usize,
    /// Slots handed out whose thread could not be started. Never reused:
    /// the scheduler's slot keeps the stealer made for it.
    pub(crate) failed: usize,
}

/// The stand-in found for a thread about to block.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum StandIn {
    /// Enough threads are active without it.
    NotNeeded,
    /// This spare was taken out of the spares: unpark it.
    Spare(usize),
    /// This slot was handed out: start its thread once the lock is
    /// released (see [`Registry::undo_block`] if that fails).
    Start(usize),
}

/// What a completer's wake-up changed for the thread it wakes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Woken {
    /// It was blocked with a stand-in in its place: counted active again.
    Unblocked,
    /// It was parked as a sleeper (helping while waiting): taken out.
    Sleeper,
    /// Neither (it saw the object ready by itself, or is not parked yet).
    Neither,
}

impl Registry {
    /// `workers` active threads in the first slots, `max_threads` slots in
    /// all.
    pub(crate) fn new(workers: usize, max_threads: usize) -> Registry {
        Registry {
            sleepers: Vec::new(),
            spares: Vec::new(),
            blocked: vec![false; max_threads],
            active: workers,
            slots: workers,
            failed: 0,
        }
    }

    /// Thread `i`, not registered as blocked, is about to park in a
    /// blocking await: finds a stand-in if the active threads, without it,
    /// fall short of `workers` (a spare, else a new slot below
    /// `max_threads`), counts the stand-in active (before it runs, like a
    /// woken sleeper) and registers `i` as blocked. `None`: at the thread
    /// limit, nothing changed (the caller helps while waiting instead).
    pub(crate) fn block(
        &mut self,
        i: usize,
        workers: usize,
        max_threads: usize,
    ) -> Option<StandIn> {
        debug_assert!(!self.blocked[i]);
        let stand_in = if self.active > workers {
            StandIn::NotNeeded
        } else if let Some(k) = self.spares.pop() {
            self.active += 1;
            StandIn::Spare(k)
        } else if self.slots < max_threads {
            self.slots += 1;
            self.active += 1;
            StandIn::Start(self.slots - 1)
        } else {
            return None;
        };
        self.blocked[i] = true;
        self.active -= 1;
        Some(stand_in)
    }

    /// The stand-in's thread (slot [`StandIn::Start`]) could not be
    /// started: the slot stays handed out but counts as failed, and `i` is
    /// active again unless a completer already counted it so.
    pub(crate) fn undo_block(&mut self, i: usize) {
        let unblock = std::mem::replace(&mut self.blocked[i], false);
        self.active = self.active - 1 + usize::from(unblock);
        self.failed += 1;
    }

    /// Thread `i` saw its awaited object ready (under the lock): counted
    /// active again if it was still registered as blocked.
    pub(crate) fn resume(&mut self, i: usize) {
        if std::mem::replace(&mut self.blocked[i], false) {
            self.active += 1;
        }
    }

    /// The completer of the object thread `i` waits for, before unparking
    /// it: the registry never lists a thread that is about to run.
    pub(crate) fn wake(&mut self, i: usize) -> Woken {
        if std::mem::replace(&mut self.blocked[i], false) {
            self.active += 1;
            Woken::Unblocked
        } else if let Some(pos) = self.sleepers.iter().position(|&k| k == i) {
            self.sleepers.swap_remove(pos);
            Woken::Sleeper
        } else {
            Woken::Neither
        }
    }

    /// Thread `i`, out of work of its own, retires to the spares if it is
    /// one active thread too many (a blocked thread came back while its
    /// stand-in ran). `true`: it did, and parks until [`Registry::block`]
    /// takes it out of the spares.
    pub(crate) fn retire(&mut self, i: usize, workers: usize) -> bool {
        if self.active <= workers {
            return false;
        }
        self.active -= 1;
        self.spares.push(i);
        true
    }

    /// Is `i` (still) a spare?
    pub(crate) fn is_spare(&self, i: usize) -> bool {
        self.spares.contains(&i)
    }

    /// The invariant of the module comment: each of the `slots` threads is
    /// exactly one of active, blocked or spare (or failed to start).
    #[cfg(test)]
    pub(crate) fn accounted(&self) -> bool {
        let blocked = self.blocked.iter().filter(|&&b| b).count();
        self.active + blocked + self.spares.len() + self.failed == self.slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_wake_retire() {
        let mut r = Registry::new(1, 3);
        assert_eq!(r.block(0, 1, 3), Some(StandIn::Start(1)));
        assert!(r.accounted() && r.active == 1 && r.blocked[0]);
        assert_eq!(r.wake(0), Woken::Unblocked);
        assert_eq!(r.wake(0), Woken::Neither);
        assert!(r.accounted() && r.active == 2);
        // The first of the two out of work retires; the other stays.
        assert!(r.retire(1, 1));
        assert!(!r.retire(0, 1));
        assert!(r.accounted() && r.active == 1 && r.is_spare(1));
        // The next blocking await takes the spare.
        assert_eq!(r.block(0, 1, 3), Some(StandIn::Spare(1)));
        assert!(r.accounted() && !r.is_spare(1));
        r.resume(0);
        assert!(r.accounted() && r.active == 2);
    }

    #[test]
    fn at_the_limit_nothing_changes() {
        let mut r = Registry::new(1, 1);
        assert_eq!(r.block(0, 1, 1), None);
        assert!(r.accounted() && r.active == 1 && !r.blocked[0]);
    }

    #[test]
    fn failed_start_is_undone() {
        let mut r = Registry::new(1, 3);
        assert_eq!(r.block(0, 1, 3), Some(StandIn::Start(1)));
        r.undo_block(0);
        assert!(r.accounted() && r.active == 1 && r.failed == 1);
        // The next stand-in gets a fresh slot.
        assert_eq!(r.block(0, 1, 3), Some(StandIn::Start(2)));
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! The hand-off, model-checked. Run with `RUSTFLAGS="--cfg loom" cargo
    //! test -p mlir-async-runtime --release --lib loom_models`.
    //!
    //! One worker (`WORKERS`), two slots. Thread 0 runs a task that blocks
    //! on a token; a completer thread outside the pool makes the token
    //! ready and wakes it; the stand-in (a new thread, or a parked spare)
    //! takes thread 0's place meanwhile, and one of the two retires once
    //! thread 0 is back. The threads do what the scheduler does around the
    //! transitions: `park_blocked`'s loop (check the object under the
    //! lock, register, unlock, park, lock again), `wake_worker`'s wake then
    //! unpark, `retire`'s park until taken out of the spares. Checked: every
    //! interleaving ends (no lost wake-up, no deadlock: `loom` reports a
    //! thread parked for good), the invariant holds after every transition,
    //! and at the end one thread is active, the other a spare, none
    //! blocked.
    use super::*;
    use loom::sync::atomic::{AtomicBool, Ordering};
    use loom::sync::{Arc, Condvar, Mutex};
    use loom::thread;

    /// std's park token (`std::thread::park` / `Thread::unpark`), built on
    /// a mutex and a condition variable: `loom`'s own park cannot be
    /// unparked while its thread waits for a mutex, which the scheduler's
    /// threads do (a blocked thread retaking the registry lock as the
    /// completer unparks it).
    #[derive(Clone)]
    struct Thread(Arc<(Mutex<bool>, Condvar)>);

    impl Thread {
        fn new() -> Thread {
            Thread(Arc::new((Mutex::new(false), Condvar::new())))
        }
        fn park(&self) {
            let (m, cv) = &*self.0;
            let mut token = m.lock().unwrap();
            while !*token {
                token = cv.wait(token).unwrap();
            }
            *token = false;
        }
        fn unpark(&self) {
            let (m, cv) = &*self.0;
            *m.lock().unwrap() = true;
            cv.notify_one();
        }
    }

    const WORKERS: usize = 1;
    const MAX_THREADS: usize = 2;

    struct Pool {
        reg: Mutex<Registry>,
        /// The token thread 0 awaits.
        ready: AtomicBool,
        /// The end of the model: a spare nobody took stops waiting.
        stop: AtomicBool,
    }

    impl Pool {
        fn check(&self, r: &Registry) {
            assert!(r.accounted(), "a thread is counted twice or not at all");
            assert!(r.active >= WORKERS, "fewer active threads than workers");
        }
    }

    /// A thread with no work of its own (the stand-in, or thread 0 back
    /// from its await): retires if it is one too many, else stays active
    /// (it would search and sleep; there is no more work in the model).
    /// A retired thread parks until taken out of the spares.
    fn out_of_work(pool: &Pool, i: usize) {
        let mut r = pool.reg.lock().unwrap();
        if !r.retire(i, WORKERS) {
            return;
        }
        pool.check(&r);
        drop(r);
        // Nothing blocks again in the model: a spare stays parked, which
        // is its end state; it is not a lost wake-up.
    }

    /// The stand-in's thread: out of work at once (nothing else is queued).
    fn stand_in_main(pool: Arc<Pool>, k: usize) {
        out_of_work(&pool, k);
    }

    /// Thread 0's blocking await: `park_blocked`'s loop over the
    /// transitions.
    fn block_on_token(
        pool: &Arc<Pool>,
        me: &Thread,
        spare: Option<&Thread>,
        handles: &mut Vec<thread::JoinHandle<()>>,
    ) {
        let mut r = pool.reg.lock().unwrap();
        loop {
            if pool.ready.load(Ordering::Acquire) {
                r.resume(0);
                pool.check(&r);
                return;
            }
            if !r.blocked[0] {
                let s = r.block(0, WORKERS, MAX_THREADS).expect("below the limit");
                pool.check(&r);
                drop(r);
                match s {
                    StandIn::Start(k) => {
                        let p = pool.clone();
                        handles.push(thread::spawn(move || stand_in_main(p, k)));
                    }
                    StandIn::Spare(k) => {
                        assert_eq!(k, 1);
                        spare.expect("the spare's thread").unpark();
                    }
                    StandIn::NotNeeded => {}
                }
            } else {
                drop(r);
            }
            me.park();
            r = pool.reg.lock().unwrap();
        }
    }

    /// The completer: `set_ready`, then `wake_worker(0)`.
    fn complete(pool: &Pool, blocked: &Thread) {
        pool.ready.store(true, Ordering::Release);
        let mut r = pool.reg.lock().unwrap();
        r.wake(0);
        pool.check(&r);
        drop(r);
        blocked.unpark();
    }

    fn run(spare: bool) {
        loom::model(move || {
            let mut reg = Registry::new(WORKERS, MAX_THREADS);
            if spare {
                // Slot 1 ran before and retired.
                reg.slots = 2;
                reg.spares.push(1);
            }
            let pool = Arc::new(Pool {
                reg: Mutex::new(reg),
                ready: AtomicBool::new(false),
                stop: AtomicBool::new(false),
            });
            let mut handles = vec![];
            let mut spare_thread = None;
            if spare {
                // The spare, parked in `retire` until taken out.
                let p = pool.clone();
                let t = Thread::new();
                let me = t.clone();
                let h = thread::spawn(move || {
                    loop {
                        if !p.reg.lock().unwrap().is_spare(1) {
                            break;
                        }
                        if p.stop.load(Ordering::Acquire) {
                            // Never needed (the token was ready first).
                            return;
                        }
                        me.park();
                    }
                    // Standing in: nothing to run but out of work.
                    out_of_work(&p, 1);
                });
                spare_thread = Some(t);
                handles.push(h);
            }
            let p = pool.clone();
            let me = Thread::new();
            let waker = me.clone();
            let completer = thread::spawn(move || complete(&p, &waker));
            block_on_token(&pool, &me, spare_thread.as_ref(), &mut handles);
            // Thread 0 finished its task.
            out_of_work(&pool, 0);
            completer.join().unwrap();
            let r = pool.reg.lock().unwrap();
            assert!(!r.blocked[0]);
            assert!(r.accounted());
            // Which of the two retired depends on the interleaving; the
            // other may still be about to.
            assert!(r.active == 1 || r.active == 2);
            drop(r);
            pool.stop.store(true, Ordering::Release);
            if let Some(t) = &spare_thread {
                t.unpark();
            }
            for h in handles {
                h.join().unwrap();
            }
            let r = pool.reg.lock().unwrap();
            // Back to one active worker; every other thread is a spare
            // (none if the token was ready before thread 0 blocked).
            assert_eq!(r.active, WORKERS, "one too many threads stay active");
            assert_eq!(r.spares.len() + WORKERS, r.slots);
            assert!(r.accounted());
        });
    }

    /// The stand-in is a new thread.
    #[test]
    fn handoff_to_a_new_stand_in() {
        run(false);
    }

    /// The stand-in is a parked spare, woken by the blocking thread.
    #[test]
    fn handoff_to_a_spare() {
        run(true);
    }
}
