//! The C ABI, called the way JIT-compiled code calls it.

use mlir_async_runtime::capi::*;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A stand-in for a coroutine frame: resuming it counts and emplaces the
/// token it "returns" (as a lowered `async.execute` body does).
struct Frame {
    resumed: AtomicUsize,
    token: *mut c_void,
}

unsafe extern "C" fn resume_frame(handle: *mut c_void) {
    // SAFETY: tests pass a pointer to a `Frame` that outlives the task.
    let f = unsafe { &*(handle as *const Frame) };
    f.resumed.fetch_add(1, Ordering::SeqCst);
    mlirAsyncRuntimeEmplaceToken(f.token);
}

#[test]
fn execute_then_blocking_await() {
    let token = mlirAsyncRuntimeCreateToken();
    let frame = Frame {
        resumed: AtomicUsize::new(0),
        token,
    };
    mlirAsyncRuntimeExecute(&frame as *const Frame as *mut c_void, resume_frame);
    mlirAsyncRuntimeAwaitToken(token);
    assert_eq!(frame.resumed.load(Ordering::SeqCst), 1);
    assert!(!mlirAsyncRuntimeIsTokenError(token));
    mlirAsyncRuntimeDropRef(token, 1);
}

#[test]
fn await_and_execute_resumes_once_when_the_token_completes() {
    let dep = mlirAsyncRuntimeCreateToken();
    let out = mlirAsyncRuntimeCreateToken();
    let frame = Frame {
        resumed: AtomicUsize::new(0),
        token: out,
    };
    mlirAsyncRuntimeAwaitTokenAndExecute(dep, &frame as *const Frame as *mut c_void, resume_frame);
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(frame.resumed.load(Ordering::SeqCst), 0);
    mlirAsyncRuntimeSetTokenError(dep);
    mlirAsyncRuntimeAwaitToken(out);
    assert_eq!(frame.resumed.load(Ordering::SeqCst), 1);
    assert!(mlirAsyncRuntimeIsTokenError(dep));
    mlirAsyncRuntimeDropRef(dep, 1);
    mlirAsyncRuntimeDropRef(out, 1);
}

#[test]
fn await_and_execute_on_a_ready_value_resumes_inline() {
    let v = mlirAsyncRuntimeCreateValue(8);
    // SAFETY: 8 bytes of storage, at least 16-byte aligned.
    unsafe { (mlirAsyncRuntimeGetValueStorage(v) as *mut i64).write(42) };
    mlirAsyncRuntimeEmplaceValue(v);
    let out = mlirAsyncRuntimeCreateToken();
    let frame = Frame {
        resumed: AtomicUsize::new(0),
        token: out,
    };
    mlirAsyncRuntimeAwaitValueAndExecute(v, &frame as *const Frame as *mut c_void, resume_frame);
    assert_eq!(frame.resumed.load(Ordering::SeqCst), 1);
    mlirAsyncRuntimeAwaitValue(v);
    // SAFETY: as above; the value is available.
    let stored = unsafe { (mlirAsyncRuntimeGetValueStorage(v) as *const i64).read() };
    assert_eq!(stored, 42);
    mlirAsyncRuntimeDropRef(v, 1);
    mlirAsyncRuntimeDropRef(out, 1);
}

#[test]
fn value_storage_is_aligned_for_its_size() {
    for size in [1i64, 4, 8, 16, 24, 32, 64, 200] {
        let v = mlirAsyncRuntimeCreateValue(size);
        let p = mlirAsyncRuntimeGetValueStorage(v) as usize;
        let want = (size as usize).next_power_of_two().clamp(16, 64);
        assert_eq!(p % want, 0, "size {size}");
        mlirAsyncRuntimeSetValueError(v);
        assert!(mlirAsyncRuntimeIsValueError(v));
        mlirAsyncRuntimeDropRef(v, 1);
    }
}

#[test]
fn group_ranks_errors_and_group_await_and_execute() {
    let g = mlirAsyncRuntimeCreateGroup(3);
    let toks: Vec<_> = (0..3).map(|_| mlirAsyncRuntimeCreateToken()).collect();
    for (i, &t) in toks.iter().enumerate() {
        assert_eq!(mlirAsyncRuntimeAddTokenToGroup(t, g), i as i64);
    }
    let out = mlirAsyncRuntimeCreateToken();
    let frame = Frame {
        resumed: AtomicUsize::new(0),
        token: out,
    };
    mlirAsyncRuntimeAwaitAllInGroupAndExecute(
        g,
        &frame as *const Frame as *mut c_void,
        resume_frame,
    );
    mlirAsyncRuntimeEmplaceToken(toks[0]);
    mlirAsyncRuntimeSetTokenError(toks[1]);
    assert_eq!(frame.resumed.load(Ordering::SeqCst), 0);
    assert!(mlirAsyncRuntimeIsGroupError(g));
    mlirAsyncRuntimeEmplaceToken(toks[2]);
    mlirAsyncRuntimeAwaitToken(out);
    mlirAsyncRuntimeAwaitAllInGroup(g);
    assert_eq!(frame.resumed.load(Ordering::SeqCst), 1);
    for t in toks {
        mlirAsyncRuntimeDropRef(t, 1);
    }
    mlirAsyncRuntimeDropRef(g, 1);
    mlirAsyncRuntimeDropRef(out, 1);
}

#[test]
fn add_ref_and_drop_ref_by_n() {
    let t = mlirAsyncRuntimeCreateToken();
    mlirAsyncRuntimeAddRef(t, 5);
    mlirAsyncRuntimeDropRef(t, 3);
    mlirAsyncRuntimeEmplaceToken(t);
    mlirAsyncRuntimeAwaitToken(t);
    // 1 (creator) + 5 - 3 remain = 3.
    mlirAsyncRuntimeDropRef(t, 3);
}

#[test]
fn num_worker_threads_is_positive() {
    assert!(mlirAsyncRuntimGetNumWorkerThreads() >= 1);
}
