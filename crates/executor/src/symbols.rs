//! What the external names of a program resolve to.
//!
//! In order: the async runtime (our crate, called directly: no library is
//! loaded for it), the runner utilities ([`crate::runner_utils`]) and the C
//! library functions lowered code calls (`malloc`, `aligned_alloc`, `free`,
//! `abort`, ...), then the libraries given with `-shared-libs=` (loaded
//! with `dlopen`, in order), then the process itself (`dlsym`), which finds
//! the rest of libc and libm.
//!
//! A `-shared-libs=` path naming upstream's runner utilities or async
//! runtime (`libmlir_c_runner_utils`, `libmlir_runner_utils`,
//! `libmlir_async_runtime`, any directory or suffix) is not loaded: those
//! are built in, so the upstream RUN lines work with no LLVM library on the
//! machine.

use crate::error::ExecError;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};

mod c {
    use std::ffi::{c_char, c_int, c_void};
    extern "C" {
        pub fn dlopen(path: *const c_char, flags: c_int) -> *mut c_void;
        pub fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
        pub fn dlerror() -> *mut c_char;
        pub fn malloc(n: usize) -> *mut c_void;
        pub fn calloc(n: usize, m: usize) -> *mut c_void;
        pub fn realloc(p: *mut c_void, n: usize) -> *mut c_void;
        pub fn aligned_alloc(align: usize, n: usize) -> *mut c_void;
        pub fn free(p: *mut c_void);
        pub fn abort() -> !;
        pub fn memcpy(d: *mut c_void, s: *const c_void, n: usize) -> *mut c_void;
        pub fn memmove(d: *mut c_void, s: *const c_void, n: usize) -> *mut c_void;
        pub fn memset(d: *mut c_void, c: c_int, n: usize) -> *mut c_void;
    }
}

const RTLD_NOW: c_int = 2;
const RTLD_GLOBAL: c_int = 0x100;
/// glibc's `RTLD_DEFAULT`: search the global scope of the process.
const RTLD_DEFAULT: *mut c_void = std::ptr::null_mut();

/// Whether a `-shared-libs=` path names a library that is built in.
pub fn is_builtin_library(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.split('.').next().unwrap_or(file);
    matches!(
        stem,
        "libmlir_c_runner_utils" | "libmlir_runner_utils" | "libmlir_async_runtime"
    )
}

/// The async runtime's C ABI, bound to our runtime crate.
fn runtime_symbols() -> Vec<(&'static str, usize)> {
    use mlir_async_runtime::capi::*;
    macro_rules! syms {
        ($($f:ident),* $(,)?) => { vec![$((stringify!($f), $f as *const () as usize)),*] };
    }
    syms![
        mlirAsyncRuntimeAddRef,
        mlirAsyncRuntimeDropRef,
        mlirAsyncRuntimeCreateToken,
        mlirAsyncRuntimeCreateValue,
        mlirAsyncRuntimeCreateGroup,
        mlirAsyncRuntimeAddTokenToGroup,
        mlirAsyncRuntimeEmplaceToken,
        mlirAsyncRuntimeEmplaceValue,
        mlirAsyncRuntimeSetTokenError,
        mlirAsyncRuntimeSetValueError,
        mlirAsyncRuntimeIsTokenError,
        mlirAsyncRuntimeIsValueError,
        mlirAsyncRuntimeIsGroupError,
        mlirAsyncRuntimeAwaitToken,
        mlirAsyncRuntimeAwaitValue,
        mlirAsyncRuntimeAwaitAllInGroup,
        mlirAsyncRuntimeGetValueStorage,
        mlirAsyncRuntimeExecute,
        mlirAsyncRuntimeAwaitTokenAndExecute,
        mlirAsyncRuntimeAwaitValueAndExecute,
        mlirAsyncRuntimeAwaitAllInGroupAndExecute,
        mlirAsyncRuntimGetNumWorkerThreads,
        mlirAsyncRuntimePrintCurrentThreadId,
    ]
}

fn libc_symbols() -> Vec<(&'static str, usize)> {
    vec![
        ("malloc", c::malloc as *const () as usize),
        ("calloc", c::calloc as *const () as usize),
        ("realloc", c::realloc as *const () as usize),
        ("aligned_alloc", c::aligned_alloc as *const () as usize),
        ("free", c::free as *const () as usize),
        ("abort", c::abort as *const () as usize),
        ("memcpy", c::memcpy as *const () as usize),
        ("memmove", c::memmove as *const () as usize),
        ("memset", c::memset as *const () as usize),
    ]
}

/// The symbol resolver of one run.
pub struct Symbols {
    builtin: HashMap<&'static str, usize>,
    libs: Vec<*mut c_void>,
}

impl Default for Symbols {
    fn default() -> Self {
        Symbols::new()
    }
}

impl Symbols {
    pub fn new() -> Symbols {
        let builtin = runtime_symbols()
            .into_iter()
            .chain(crate::runner_utils::symbols())
            .chain(libc_symbols())
            .collect();
        Symbols {
            builtin,
            libs: Vec::new(),
        }
    }

    /// Loads a `-shared-libs=` library (built-in ones are skipped).
    pub fn load_library(&mut self, path: &str) -> Result<(), ExecError> {
        if is_builtin_library(path) {
            return Ok(());
        }
        let err = |reason: String| ExecError::Library {
            path: path.to_string(),
            reason,
        };
        let cpath = CString::new(path).map_err(|_| err("path contains NUL".into()))?;
        // SAFETY: a NUL-terminated path; loading runs the library's
        // constructors, which is what asking for it means.
        let h = unsafe { c::dlopen(cpath.as_ptr(), RTLD_NOW | RTLD_GLOBAL) };
        if h.is_null() {
            // SAFETY: dlerror returns a NUL-terminated message or null.
            let msg = unsafe {
                let e: *mut c_char = c::dlerror();
                if e.is_null() {
                    "unknown error".to_string()
                } else {
                    CStr::from_ptr(e).to_string_lossy().into_owned()
                }
            };
            return Err(err(msg));
        }
        self.libs.push(h);
        Ok(())
    }

    /// The address `name` resolves to.
    pub fn resolve(&self, name: &str) -> Option<usize> {
        if let Some(a) = self.builtin.get(name) {
            return Some(*a);
        }
        let cname = CString::new(name).ok()?;
        for &h in &self.libs {
            // SAFETY: a handle from dlopen and a NUL-terminated name.
            let p = unsafe { c::dlsym(h, cname.as_ptr()) };
            if !p.is_null() {
                return Some(p as usize);
            }
        }
        // SAFETY: RTLD_DEFAULT and a NUL-terminated name.
        let p = unsafe { c::dlsym(RTLD_DEFAULT, cname.as_ptr()) };
        (!p.is_null()).then_some(p as usize)
    }

    /// Resolves every name, or says which are missing.
    pub fn resolve_all<'a>(
        &self,
        names: impl IntoIterator<Item = &'a String>,
    ) -> Result<HashMap<String, usize>, ExecError> {
        let mut out = HashMap::new();
        let mut missing = Vec::new();
        for n in names {
            match self.resolve(n) {
                Some(a) => {
                    out.insert(n.clone(), a);
                }
                None => missing.push(n.clone()),
            }
        }
        if missing.is_empty() {
            Ok(out)
        } else {
            Err(ExecError::MissingSymbols(missing))
        }
    }
}
