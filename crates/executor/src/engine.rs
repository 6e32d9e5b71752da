//! Compiling and running a module: `mlir-cpu-runner`'s semantics.

use crate::codegen::{self, Compiled, OptLevel};
use crate::error::ExecError;
use crate::lir::{Module, Ty};
use crate::symbols::Symbols;

/// `-entry-point-result=`: the entry function's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryResult {
    Void,
    I32,
    I64,
    F32,
}

impl EntryResult {
    /// Parses `void`, `i32`, `i64`, `f32`.
    pub fn parse(s: &str) -> Option<EntryResult> {
        Some(match s {
            "void" => EntryResult::Void,
            "i32" => EntryResult::I32,
            "i64" => EntryResult::I64,
            "f32" => EntryResult::F32,
            _ => return None,
        })
    }
}

/// How to run a module.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub entry: String,
    pub result: EntryResult,
    pub opt: OptLevel,
    pub shared_libs: Vec<String>,
    /// `--trace=FILE.json`: where to write the trace of the tasks.
    pub trace: Option<String>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            entry: "main".into(),
            result: EntryResult::F32,
            opt: OptLevel::O2,
            shared_libs: Vec::new(),
            trace: None,
        }
    }
}

/// Checks the entry function as `mlir-cpu-runner` does, with its messages.
pub fn check_entry(m: &Module, entry: &str, result: EntryResult) -> Result<(), ExecError> {
    let f = match m.function(entry) {
        Some(f) if !f.is_declaration() => f,
        _ => return Err(ExecError::Entry("entry point not found".into())),
    };
    if !f.sig.params.is_empty() {
        return Err(ExecError::Entry("function inputs not supported".into()));
    }
    let (want, name) = match result {
        EntryResult::Void => {
            if f.sig.results.len() > 1 {
                return Err(ExecError::Entry(format!(
                    "the entry point returns {} values; -entry-point-result=void calls \
                     functions with at most one result",
                    f.sig.results.len()
                )));
            }
            return Ok(());
        }
        EntryResult::I32 => (Ty::I32, "i32"),
        EntryResult::I64 => (Ty::I64, "i64"),
        EntryResult::F32 => (Ty::F32, "f32"),
    };
    if f.sig.results != [want] {
        return Err(ExecError::Entry(format!(
            "only single {name} function result supported"
        )));
    }
    Ok(())
}

/// Resolves the module's external symbols and compiles it.
///
/// A panic in code generation (a bug of the executor, or of Cranelift, on
/// input the front end let through) becomes an error naming it, not a
/// crash.
pub fn jit(m: &Module, opt: OptLevel, symbols: &Symbols) -> Result<Compiled, ExecError> {
    jit_traced(m, opt, false, symbols)
}

/// [`jit`], with the tracing hook called by coroutines when `trace`.
pub fn jit_traced(
    m: &Module,
    opt: OptLevel,
    trace: bool,
    symbols: &Symbols,
) -> Result<Compiled, ExecError> {
    let imports = codegen::imports(m);
    let resolved = symbols.resolve_all(imports.keys())?;
    catch_panic(|| {
        if opt == OptLevel::O0 {
            return codegen::compile_with(m, opt, trace, &resolved);
        }
        let mut m = m.clone();
        for f in &mut m.functions {
            crate::vectorize::vectorize(f);
        }
        codegen::compile_with(&m, opt, trace, &resolved)
    })
}

/// Runs `f`, turning a panic into [`ExecError::Codegen`] (the panic
/// message is not printed by the default hook meanwhile).
pub fn catch_panic<T>(f: impl FnOnce() -> Result<T, ExecError>) -> Result<T, ExecError> {
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(prev);
    match r {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(ExecError::Codegen {
                function: "<module>".into(),
                message: format!("internal error: {msg}"),
            })
        }
    }
}

/// Compiles `m`, calls its entry function, waits for the runtime's tasks
/// (as `mlir-cpu-runner` calls the runtime's destroy hook), and returns
/// the result as `mlir-cpu-runner` prints it (`None` for void).
pub fn run(m: &Module, opts: &RunOptions) -> Result<Option<String>, ExecError> {
    check_entry(m, &opts.entry, opts.result)?;
    let mut symbols = Symbols::new();
    for lib in &opts.shared_libs {
        symbols.load_library(lib)?;
    }
    let compiled = jit_traced(m, opts.opt, opts.trace.is_some(), &symbols)?;
    if opts.trace.is_some() {
        crate::trace::start(m.functions.iter().map(|f| f.name.clone()).collect());
    }
    let Some(addr) = compiled.function_address(&opts.entry) else {
        return Err(ExecError::Entry("entry point not found".into()));
    };
    // `addr` is the compiled entry function, checked by `check_entry` to
    // take no arguments and return the type it is called with (the system
    // calling convention, as every compiled function).
    let out = match opts.result {
        EntryResult::Void => {
            // SAFETY: see above: `fn()`.
            let f: extern "C" fn() = unsafe { std::mem::transmute(addr) };
            f();
            None
        }
        EntryResult::I32 => {
            // SAFETY: see above: `fn() -> i32`.
            let f: extern "C" fn() -> i32 = unsafe { std::mem::transmute(addr) };
            Some(f().to_string())
        }
        EntryResult::I64 => {
            // SAFETY: see above: `fn() -> i64`.
            let f: extern "C" fn() -> i64 = unsafe { std::mem::transmute(addr) };
            Some(f().to_string())
        }
        EntryResult::F32 => {
            // SAFETY: see above: `fn() -> f32`.
            let f: extern "C" fn() -> f32 = unsafe { std::mem::transmute(addr) };
            Some(format_exponent(f64::from(f())))
        }
    };
    mlir_async_runtime::shutdown();
    if let Some(path) = &opts.trace {
        std::fs::write(path, crate::trace::finish()).map_err(|e| ExecError::Trace {
            path: path.clone(),
            reason: e.to_string(),
        })?;
    }
    // Queued work may still reference the code at exit (the runtime's
    // `atexit` hook drains again): keep it mapped.
    compiled.leak();
    Ok(out)
}

/// `llvm::raw_ostream << double`: `%e`.
pub fn format_exponent(x: f64) -> String {
    crate::runner_utils::c_format_e(x)
}
