//! `--trace=FILE.json`: a Chrome / Perfetto trace of the coroutines' runs.
//!
//! With tracing on, the code generator adds a call to
//! [`__mlir_async_run_trace`] where a coroutine is created (its ramp's
//! `coro.begin`), where each resumption starts (the resume function's
//! entry), where it suspends (`coro.save`) and where it completes
//! (`coro.free`). Each resumption becomes a slice on the thread that ran
//! it, named after the coroutine's function, with its frame address (the
//! task's identity) and whether it ended suspended or completed; creations
//! are instant events on the creating thread. Open the file in
//! <https://ui.perfetto.dev> or `chrome://tracing`.
//!
//! Events go to one mutex-protected buffer: tracing costs a lock per
//! event, nothing when off (the calls are not generated).

use std::ffi::c_void;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::Instant;

/// What [`__mlir_async_run_trace`] records.
pub const CREATED: i32 = 0;
pub const RESUMED: i32 = 1;
pub const SUSPENDED: i32 = 2;
pub const COMPLETED: i32 = 3;

struct Event {
    ns: u64,
    tid: u64,
    kind: i32,
    handle: usize,
    function: i64,
}

struct State {
    start: Instant,
    names: Vec<String>,
    events: Vec<Event>,
    threads: Vec<(u64, String)>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

thread_local! {
    static TID: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

static NEXT_TID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Starts recording; `names[i]` is the name of function id `i`.
pub fn start(names: Vec<String>) {
    if let Ok(mut s) = STATE.lock() {
        *s = Some(State {
            start: Instant::now(),
            names,
            events: Vec::new(),
            threads: Vec::new(),
        });
    }
}

/// Called by generated code (see the module docs).
#[no_mangle]
pub extern "C" fn __mlir_async_run_trace(kind: i32, handle: *mut c_void, function: i64) {
    let Ok(mut guard) = STATE.lock() else {
        return;
    };
    let Some(s) = guard.as_mut() else {
        return;
    };
    let tid = TID.with(|t| {
        if t.get() == 0 {
            let id = NEXT_TID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            t.set(id);
            let name = std::thread::current()
                .name()
                .map_or_else(|| format!("thread {id}"), |n| format!("{n} {id}"));
            s.threads.push((id, name));
        }
        t.get()
    });
    s.events.push(Event {
        ns: s.start.elapsed().as_nanos() as u64,
        tid,
        kind,
        handle: handle as usize,
        function,
    });
}

fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Stops recording and returns the trace as Chrome trace-event JSON.
pub fn finish() -> String {
    let state = STATE.lock().ok().and_then(|mut g| g.take());
    let Some(s) = state else {
        return "{\"traceEvents\":[]}\n".into();
    };
    let mut out = String::from("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    let mut first = true;
    let mut sep = |out: &mut String| {
        if !first {
            out.push_str(",\n");
        }
        first = false;
    };
    for (tid, name) in &s.threads {
        sep(&mut out);
        let _ = write!(
            out,
            "{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":{tid},\"args\":{{\"name\":"
        );
        json_str(&mut out, name);
        out.push_str("}}");
    }
    for e in &s.events {
        let name = s
            .names
            .get(e.function as usize)
            .map_or("coroutine", |n| n.as_str());
        let ts = e.ns as f64 / 1000.0;
        sep(&mut out);
        let (ph, what) = match e.kind {
            CREATED => ("i", "created"),
            RESUMED => ("B", "resumed"),
            SUSPENDED => ("E", "suspended"),
            _ => ("E", "completed"),
        };
        let _ = write!(out, "{{\"ph\":\"{ph}\",\"name\":");
        json_str(&mut out, name);
        let _ = write!(
            out,
            ",\"cat\":\"task\",\"ts\":{ts:.3},\"pid\":1,\"tid\":{},{}\"args\":{{\"task\":\"{:#x}\",\"event\":\"{what}\"}}}}",
            e.tid,
            if ph == "i" { "\"s\":\"t\"," } else { "" },
            e.handle
        );
    }
    out.push_str("\n]}\n");
    out
}
