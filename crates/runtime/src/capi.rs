//! The C ABI of LLVM 14's `libmlir_async_runtime.so`
//! (`mlir/ExecutionEngine/AsyncRuntime.h`), symbol for symbol.
//!
//! `__mlir_runner_init` and `__mlir_runner_destroy` are exported as
//! upstream does, because `mlir-cpu-runner` calls the destroy hook only for
//! libraries that export both, and that hook is our one chance to finish the
//! queued and running tasks while the JIT-compiled code they execute is
//! still mapped (the runner frees it right after, before `exit`). The init
//! hook leaves the runner's symbol map empty: filling it would mean writing
//! into LLVM's C++ `StringMap` from Rust. The runner loads such libraries
//! with global visibility, so the JIT still resolves the `mlirAsyncRuntime*`
//! calls by name in the process, as it did without the hooks.
//!
//! In debug builds and in the checked mode (`MLIR_ASYNC_RUNTIME_CHECKED=1`,
//! see `checked.rs`) every entry point checks its arguments (null, a pointer
//! that is not a live object of the expected kind, count underflow, double
//! emplace) and aborts with a message naming the function and the object.
//! Release builds otherwise skip the pointer checks.

use crate::leak::{registry, Lookup, Origin};
use crate::object::{default_value_align, Kind, ObjPtr, Task, AVAILABLE, ERROR};
use crate::ops::{self, At, Misuse};
use std::ffi::c_void;
use std::ptr::NonNull;

/// `CoroResume` in the header.
pub type CoroResume = unsafe extern "C" fn(*mut c_void);

/// Prints the misuse message and aborts: the process state is unreliable
/// after a broken ref-count contract, and an abort names the culprit, where
/// upstream would crash somewhere later.
#[cold]
pub(crate) fn abort_misuse(func: &str, msg: &str) -> ! {
    eprintln!("mlir-async-runtime: error in {func}: {msg}");
    std::process::abort()
}

/// Checks a pointer passed by C code (debug builds, checked mode) and wraps
/// it.
#[inline(always)]
fn obj(ptr: *mut c_void, kind: Option<Kind>, func: &'static str) -> ObjPtr {
    if crate::leak::tracking() {
        return checked_obj(ptr, kind, func);
    }
    match NonNull::new(ptr.cast()) {
        Some(p) => ObjPtr(p),
        None => abort_misuse(func, "null pointer"),
    }
}

/// [`obj`] when tracking: out of line, so the entry points' fast path stays
/// a load, a branch and a null check.
#[cold]
#[inline(never)]
fn checked_obj(ptr: *mut c_void, kind: Option<Kind>, func: &'static str) -> ObjPtr {
    if let Err(msg) = validate(ptr, kind) {
        abort_misuse(func, &msg);
    }
    match NonNull::new(ptr.cast()) {
        Some(p) => ObjPtr(p),
        None => abort_misuse(func, "null pointer"),
    }
}

/// Why `ptr` is not a live runtime object of kind `kind` (when tracking).
#[cold]
pub(crate) fn validate(ptr: *mut c_void, kind: Option<Kind>) -> Result<(), String> {
    if ptr.is_null() {
        return Err("null pointer".into());
    }
    match registry::lookup(ptr as usize) {
        Lookup::Unknown => Err(format!(
            "{ptr:p} is not a live async runtime object (freed already, or never created by this runtime)"
        )),
        Lookup::Freed(e) => Err(format!(
            "use after free: {ptr:p} is {e}, already freed (its reference count had dropped to zero)"
        )),
        Lookup::Live(e) if kind.is_some_and(|want| want != e.kind) => Err(format!(
            "{ptr:p} is an async {} where an async {} is expected ({e})",
            e.kind.name(),
            kind.map_or("object", Kind::name)
        )),
        Lookup::Live(_) => Ok(()),
    }
}

/// Reports a broken contract on object `o` (debug builds, checked mode).
#[inline(always)]
fn check(func: &str, o: ObjPtr, r: Result<(), Misuse>) {
    if let Err(m) = r {
        report_misuse(func, o, m);
    }
}

#[cold]
#[inline(never)]
fn report_misuse(func: &str, o: ObjPtr, m: Misuse) {
    if crate::leak::tracking() {
        match registry::lookup(o.as_raw() as usize) {
            Lookup::Live(e) | Lookup::Freed(e) => {
                abort_misuse(func, &format!("{}: {e}", m.message()))
            }
            Lookup::Unknown => abort_misuse(func, m.message()),
        }
    }
}

#[inline(always)]
fn check_count(func: &str, count: i64) {
    if count < 0 {
        negative_count(func);
    }
}

#[cold]
#[inline(never)]
fn negative_count(func: &str) {
    if crate::leak::tracking() {
        abort_misuse(func, "negative reference count delta");
    }
}

/// Adds `count` references to a token, value or group.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeAddRef(ptr: *mut c_void, count: i64) {
    const F: &str = "mlirAsyncRuntimeAddRef";
    check_count(F, count);
    let o = obj(ptr, None, F);
    // SAFETY: the caller holds a reference (validated in debug builds).
    unsafe { ops::add_ref(o, count) };
}

/// Drops `count` references; the object is freed when none are left.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeDropRef(ptr: *mut c_void, count: i64) {
    const F: &str = "mlirAsyncRuntimeDropRef";
    check_count(F, count);
    let o = obj(ptr, None, F);
    // SAFETY: the caller owns the references it drops.
    check(F, o, unsafe { ops::drop_ref(o, count) });
}

/// Creates an unavailable token.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeCreateToken() -> *mut c_void {
    ops::create_token(Origin::CAbi("mlirAsyncRuntimeCreateToken")).as_raw()
}

/// Creates an unavailable value with `size` bytes of storage.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeCreateValue(size: i64) -> *mut c_void {
    const F: &str = "mlirAsyncRuntimeCreateValue";
    if size < 0 {
        abort_misuse(F, "negative storage size");
    }
    let size = size as usize;
    ops::create_value(size, default_value_align(size), Origin::CAbi(F)).as_raw()
}

/// Creates a group that completes when `size` added tokens completed.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeCreateGroup(size: i64) -> *mut c_void {
    ops::create_group(size, Origin::CAbi("mlirAsyncRuntimeCreateGroup")).as_raw()
}

/// Adds a token to a group; returns the token's rank in the group.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeAddTokenToGroup(token: *mut c_void, group: *mut c_void) -> i64 {
    const F: &str = "mlirAsyncRuntimeAddTokenToGroup";
    let t = obj(token, Some(Kind::Token), F);
    let g = obj(group, Some(Kind::Group), F);
    // SAFETY: both alive and of the right kinds (validated in debug builds).
    unsafe { ops::add_token_to_group(t, g) }
}

/// Makes a token available and resumes its awaiters. (Lowered code
/// completes tokens and values at the end of a coroutine body, just before
/// its cleanup, hence `At::Tail`.)
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeEmplaceToken(token: *mut c_void) {
    const F: &str = "mlirAsyncRuntimeEmplaceToken";
    let t = obj(token, Some(Kind::Token), F);
    // SAFETY: a live token, produced once (checked by `set_state`).
    check(F, t, unsafe { ops::set_state(t, AVAILABLE, At::Tail) });
}

/// Makes a value available (its storage was written) and resumes awaiters.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeEmplaceValue(value: *mut c_void) {
    const F: &str = "mlirAsyncRuntimeEmplaceValue";
    let v = obj(value, Some(Kind::Value), F);
    // SAFETY: a live value, produced once (checked by `set_state`).
    check(F, v, unsafe { ops::set_state(v, AVAILABLE, At::Tail) });
}

/// Puts a token in the error state and resumes its awaiters.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeSetTokenError(token: *mut c_void) {
    const F: &str = "mlirAsyncRuntimeSetTokenError";
    let t = obj(token, Some(Kind::Token), F);
    // SAFETY: as for emplace.
    check(F, t, unsafe { ops::set_state(t, ERROR, At::Tail) });
}

/// Puts a value in the error state and resumes its awaiters.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeSetValueError(value: *mut c_void) {
    const F: &str = "mlirAsyncRuntimeSetValueError";
    let v = obj(value, Some(Kind::Value), F);
    // SAFETY: as for emplace.
    check(F, v, unsafe { ops::set_state(v, ERROR, At::Tail) });
}

/// Whether the token is in the error state.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeIsTokenError(token: *mut c_void) -> bool {
    let t = obj(token, Some(Kind::Token), "mlirAsyncRuntimeIsTokenError");
    // SAFETY: alive (caller holds a reference).
    unsafe { t.header() }.state() == crate::State::Error
}

/// Whether the value is in the error state.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeIsValueError(value: *mut c_void) -> bool {
    let v = obj(value, Some(Kind::Value), "mlirAsyncRuntimeIsValueError");
    // SAFETY: alive (caller holds a reference).
    unsafe { v.header() }.state() == crate::State::Error
}

/// Whether any token of the group completed with an error.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeIsGroupError(group: *mut c_void) -> bool {
    let g = obj(group, Some(Kind::Group), "mlirAsyncRuntimeIsGroupError");
    // SAFETY: alive (caller holds a reference).
    unsafe { ops::group_errors(g) > 0 }
}

/// Blocks until the token is ready (running other tasks on a worker).
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeAwaitToken(token: *mut c_void) {
    let t = obj(token, Some(Kind::Token), "mlirAsyncRuntimeAwaitToken");
    // SAFETY: alive for the call (caller holds a reference).
    unsafe { ops::await_blocking(t) };
}

/// Blocks until the value is ready (running other tasks on a worker).
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeAwaitValue(value: *mut c_void) {
    let v = obj(value, Some(Kind::Value), "mlirAsyncRuntimeAwaitValue");
    // SAFETY: alive for the call (caller holds a reference).
    unsafe { ops::await_blocking(v) };
}

/// Blocks until every token of the group is ready.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeAwaitAllInGroup(group: *mut c_void) {
    let g = obj(group, Some(Kind::Group), "mlirAsyncRuntimeAwaitAllInGroup");
    // SAFETY: alive for the call (caller holds a reference).
    unsafe { ops::await_blocking(g) };
}

/// The value's payload storage.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeGetValueStorage(value: *mut c_void) -> *mut i8 {
    let v = obj(value, Some(Kind::Value), "mlirAsyncRuntimeGetValueStorage");
    // SAFETY: a live value.
    unsafe { v.value_storage().cast() }
}

/// Schedules `resume(handle)` on a worker thread.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeExecute(handle: *mut c_void, resume: CoroResume) {
    ops::execute(Task { resume, handle });
}

/// Resumes the coroutine once the token is ready.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeAwaitTokenAndExecute(
    token: *mut c_void,
    handle: *mut c_void,
    resume: CoroResume,
) {
    let t = obj(
        token,
        Some(Kind::Token),
        "mlirAsyncRuntimeAwaitTokenAndExecute",
    );
    // SAFETY: alive (the coroutine holds a reference until it resumes).
    unsafe { ops::await_and_execute(t, Task { resume, handle }) };
}

/// Resumes the coroutine once the value is ready.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeAwaitValueAndExecute(
    value: *mut c_void,
    handle: *mut c_void,
    resume: CoroResume,
) {
    let v = obj(
        value,
        Some(Kind::Value),
        "mlirAsyncRuntimeAwaitValueAndExecute",
    );
    // SAFETY: alive (the coroutine holds a reference until it resumes).
    unsafe { ops::await_and_execute(v, Task { resume, handle }) };
}

/// Resumes the coroutine once every token of the group is ready.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimeAwaitAllInGroupAndExecute(
    group: *mut c_void,
    handle: *mut c_void,
    resume: CoroResume,
) {
    let g = obj(
        group,
        Some(Kind::Group),
        "mlirAsyncRuntimeAwaitAllInGroupAndExecute",
    );
    // SAFETY: alive (the coroutine holds a reference until it resumes).
    unsafe { ops::await_and_execute(g, Task { resume, handle }) };
}

/// Number of worker threads (the misspelling is upstream's ABI).
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimGetNumWorkerThreads() -> i64 {
    crate::scheduler::get().num_workers() as i64
}

mod c {
    use std::ffi::{c_char, c_int, c_void};
    extern "C" {
        pub static mut stdout: *mut c_void;
        pub fn fputs(s: *const c_char, stream: *mut c_void) -> c_int;
        pub fn fflush(stream: *mut c_void) -> c_int;
        pub fn pthread_self() -> usize;
    }
}

/// Prints `Current thread id: <id>` to stdout.
///
/// Goes through C stdio and flushes, like upstream's `std::cout << ... <<
/// std::endl`, so the line lands in order with `print_memref_*` output of the
/// runner utilities, which shares that stdio buffer.
#[no_mangle]
pub extern "C" fn mlirAsyncRuntimePrintCurrentThreadId() {
    // SAFETY: pthread_self has no preconditions.
    let id = unsafe { c::pthread_self() };
    let line = std::ffi::CString::new(format!("Current thread id: {id}\n")).expect("no NUL");
    // SAFETY: `stdout` is glibc's stream pointer, initialised before any
    // library code runs; `line` is a valid NUL-terminated string.
    unsafe {
        let out = c::stdout;
        c::fputs(line.as_ptr(), out);
        c::fflush(out);
    }
}

/// Called by `mlir-cpu-runner` when it loads the library, with its
/// `llvm::StringMap<void *>` of exported symbols. Deliberately leaves the map
/// untouched (see the module docs): the symbols are found by name instead.
#[no_mangle]
pub extern "C" fn __mlir_runner_init(_export_symbols: *mut c_void) {}

/// Called by `mlir-cpu-runner` after the entry function returned and before
/// it frees the JIT-compiled code: runs every queued task and waits for the
/// running ones (as [`crate::shutdown()`] does), so no worker executes
/// module code once it is unmapped.
#[no_mangle]
pub extern "C" fn __mlir_runner_destroy() {
    crate::shutdown::destroy();
}
