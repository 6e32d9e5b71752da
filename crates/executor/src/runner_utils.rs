//! The runner utilities (`libmlir_c_runner_utils` and
//! `libmlir_runner_utils` of LLVM 13-15), built in, with upstream's output
//! byte for byte.
//!
//! Everything prints through C stdio's `stdout`, as upstream does
//! (`fprintf`, and `std::cout`, which is synchronised with stdio), so that
//! the output interleaves in program order with the runtime's
//! `mlirAsyncRuntimePrintCurrentThreadId` and with any C library the
//! program calls. Numbers are formatted by C's `snprintf` with upstream's
//! formats (`%g` is also what `std::ostream` uses for a float at its
//! default precision), so they are the same digits.
//!
//! A memref printed by one call is written with one `fwrite`: lines of
//! concurrent tasks do not interleave (upstream's `std::cout` pieces can).

use std::ffi::{c_char, c_void, CStr};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

mod c {
    use std::ffi::{c_char, c_int, c_void};
    extern "C" {
        pub static mut stdout: *mut c_void;
        pub static mut stderr: *mut c_void;
        pub fn fwrite(p: *const c_void, size: usize, n: usize, stream: *mut c_void) -> usize;
        pub fn fflush(stream: *mut c_void) -> c_int;
        pub fn ferror(stream: *mut c_void) -> c_int;
        pub fn snprintf(buf: *mut c_char, n: usize, fmt: *const c_char, ...) -> c_int;
        pub fn gettimeofday(tv: *mut [i64; 2], tz: *mut c_void) -> c_int;
        pub fn malloc(n: usize) -> *mut c_void;
        pub fn aligned_alloc(align: usize, n: usize) -> *mut c_void;
        pub fn free(p: *mut c_void);
    }
}

/// Bytes the program handed to C's `stdout` through these utilities: a
/// run that printed something into a closed stdout (which std reopens on
/// `/dev/null` before `main`) lost it, and [`finish_stdout`] says so.
static STDOUT_BYTES: AtomicU64 = AtomicU64::new(0);

/// The `errno` of the first write to C's `stdout` that failed (0: none),
/// kept because later calls overwrite `errno` and `ferror` keeps no code.
static STDOUT_ERRNO: AtomicI32 = AtomicI32::new(0);

fn note_stdout_failure() {
    let code = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
    // EIO when the C library failed without setting errno.
    let code = if code == 0 { 5 } else { code };
    let _ = STDOUT_ERRNO.compare_exchange(0, code, Ordering::SeqCst, Ordering::SeqCst);
}

/// Writes `s` to C's `stdout` (buffered, as `fputs` would).
pub fn write_stdout(s: &str) {
    STDOUT_BYTES.fetch_add(s.len() as u64, Ordering::Relaxed);
    // SAFETY: `stdout` is libc's stream, initialised before `main`; the
    // buffer is valid for `s.len()` bytes.
    let n = unsafe { c::fwrite(s.as_ptr().cast(), 1, s.len(), c::stdout) };
    if n < s.len() {
        note_stdout_failure();
    }
}

/// Flushes C's `stdout` at the end of a run and reports whether all the
/// program wrote there reached fd 1: `mlir-cpu-runner` exits 0 whatever
/// became of the program's output (C stdio drops a failed flush at exit),
/// which turns a full disk into a silent success. `fd1_closed`: fd 1 was
/// closed when the process started. Returns the bytes the program printed
/// through the runner utilities.
pub fn finish_stdout(fd1_closed: bool) -> std::io::Result<u64> {
    // SAFETY: `stdout` is libc's stream.
    let (flushed, failed) = unsafe { (c::fflush(c::stdout), c::ferror(c::stdout)) };
    if flushed != 0 {
        note_stdout_failure();
    }
    let bytes = STDOUT_BYTES.load(Ordering::Relaxed);
    match STDOUT_ERRNO.load(Ordering::SeqCst) {
        0 if failed != 0 => Err(std::io::Error::from_raw_os_error(5)),
        // EBADF: what the writes would have failed with.
        0 if fd1_closed && bytes > 0 => Err(std::io::Error::from_raw_os_error(9)),
        0 => Ok(bytes),
        code => Err(std::io::Error::from_raw_os_error(code)),
    }
}

/// Writes `s` to C's `stderr`.
pub fn write_stderr(s: &str) {
    // SAFETY: as for `write_stdout`.
    unsafe {
        c::fwrite(s.as_ptr().cast(), 1, s.len(), c::stderr);
    }
}

/// Flushes C's `stdout`.
pub fn flush_stdout() {
    // SAFETY: `stdout` is libc's stream.
    unsafe {
        c::fflush(c::stdout);
    }
}

/// `x` formatted by C's `printf(fmt, x)` (`fmt` one `double` conversion).
fn c_format(fmt: &CStr, x: f64) -> String {
    let mut buf = [0u8; 512];
    // SAFETY: `fmt` is a NUL-terminated format with one double conversion
    // and `buf` holds `buf.len()` bytes; snprintf never writes beyond.
    let n = unsafe { c::snprintf(buf.as_mut_ptr().cast(), buf.len(), fmt.as_ptr(), x) };
    let n = (n.max(0) as usize).min(buf.len() - 1);
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// `%g`: what `printF32`/`printF64` and `std::ostream << float` print.
pub fn fmt_g(x: f64) -> String {
    c_format(c"%g", x)
}

#[no_mangle]
pub extern "C" fn printI64(i: i64) {
    write_stdout(&i.to_string());
}

#[no_mangle]
pub extern "C" fn printU64(u: u64) {
    write_stdout(&u.to_string());
}

#[no_mangle]
pub extern "C" fn printF32(f: f32) {
    write_stdout(&fmt_g(f64::from(f)));
}

#[no_mangle]
pub extern "C" fn printF64(d: f64) {
    write_stdout(&fmt_g(d));
}

#[no_mangle]
pub extern "C" fn printOpen() {
    write_stdout("( ");
}

#[no_mangle]
pub extern "C" fn printClose() {
    write_stdout(" )");
}

#[no_mangle]
pub extern "C" fn printComma() {
    write_stdout(", ");
}

#[no_mangle]
pub extern "C" fn printNewline() {
    write_stdout("\n");
}

/// `printCString` (LLVM 15).
///
/// # Safety
/// `s` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn printCString(s: *const c_char) {
    if s.is_null() {
        return;
    }
    // SAFETY: the program passes a NUL-terminated string, as upstream's
    // `fputs` requires.
    let s = unsafe { CStr::from_ptr(s) };
    write_stdout(&String::from_utf8_lossy(s.to_bytes()));
}

/// `print_flops` (LLVM 13/14) / `printFlops` (LLVM 15): to stderr.
#[no_mangle]
pub extern "C" fn print_flops(flops: f64) {
    write_stderr(&format!("{} GFLOPS\n", c_format(c"%lf", flops / 1.0e9)));
}

#[no_mangle]
pub extern "C" fn printFlops(flops: f64) {
    print_flops(flops)
}

/// Seconds since the epoch, from `gettimeofday`, as upstream.
#[no_mangle]
pub extern "C" fn rtclock() -> f64 {
    let mut tv = [0i64; 2];
    // SAFETY: `tv` is a `struct timeval` (two longs on 64-bit Linux).
    let stat = unsafe { c::gettimeofday(&mut tv, std::ptr::null_mut()) };
    if stat != 0 {
        write_stderr(&format!("Error returning time from gettimeofday: {stat}\n"));
    }
    tv[0] as f64 + tv[1] as f64 * 1.0e-6
}

fn nano_time() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i64)
}

#[no_mangle]
pub extern "C" fn _mlir_ciface_nano_time() -> i64 {
    nano_time()
}

#[no_mangle]
pub extern "C" fn _mlir_ciface_nanoTime() -> i64 {
    nano_time()
}

// LLVM 15's allocation entry points (`-convert-memref-to-llvm` with
// `use-generic-functions`).
#[no_mangle]
pub extern "C" fn _mlir_alloc(size: u64) -> *mut c_void {
    // SAFETY: plain libc allocation.
    unsafe { c::malloc(size as usize) }
}

#[no_mangle]
pub extern "C" fn _mlir_aligned_alloc(alignment: u64, size: u64) -> *mut c_void {
    // SAFETY: plain libc allocation.
    unsafe { c::aligned_alloc(alignment as usize, size as usize) }
}

/// # Safety
/// `ptr` came from `_mlir_alloc` (or is null).
#[no_mangle]
pub unsafe extern "C" fn _mlir_free(ptr: *mut c_void) {
    // SAFETY: the program frees what `_mlir_alloc` returned.
    unsafe { c::free(ptr) }
}

/// # Safety
/// `ptr` came from `_mlir_aligned_alloc` (or is null).
#[no_mangle]
pub unsafe extern "C" fn _mlir_aligned_free(ptr: *mut c_void) {
    // SAFETY: the program frees what `_mlir_aligned_alloc` returned.
    unsafe { c::free(ptr) }
}

/// `UnrankedMemRefType<T>`: a rank and a pointer to a ranked descriptor
/// `{ allocated, aligned, offset, sizes[rank], strides[rank] }`.
#[repr(C)]
pub struct UnrankedMemRef {
    pub rank: i64,
    pub descriptor: *mut c_void,
}

/// A ranked descriptor read from memory (`DynamicMemRefType<T>`).
struct Dynamic<'a> {
    rank: i64,
    data: *const u8,
    offset: i64,
    sizes: &'a [i64],
    strides: &'a [i64],
}

impl Dynamic<'_> {
    /// Reads the descriptor at `desc` of rank `rank`.
    ///
    /// # Safety
    /// `desc` points to a descriptor of that rank (the program's contract
    /// with the runner utilities).
    unsafe fn read<'a>(rank: i64, desc: *const c_void) -> Dynamic<'a> {
        let words = desc.cast::<i64>();
        let r = rank.max(0) as usize;
        // SAFETY: the caller guarantees the descriptor layout.
        unsafe {
            Dynamic {
                rank,
                data: *words.add(1) as *const u8,
                offset: *words.add(2),
                sizes: std::slice::from_raw_parts(words.add(3), r),
                strides: std::slice::from_raw_parts(words.add(3 + r), r),
            }
        }
    }
}

/// An element type the printers know.
trait Elem: Copy {
    fn write(self, out: &mut String);
}

impl Elem for f32 {
    fn write(self, out: &mut String) {
        out.push_str(&fmt_g(f64::from(self)));
    }
}

impl Elem for f64 {
    fn write(self, out: &mut String) {
        out.push_str(&fmt_g(self));
    }
}

impl Elem for i32 {
    fn write(self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

impl Elem for i64 {
    fn write(self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

impl Elem for i8 {
    /// `std::ostream << int8_t` prints the character.
    fn write(self, out: &mut String) {
        out.push(char::from(self as u8));
    }
}

fn write_metadata(out: &mut String, m: &Dynamic) {
    if m.data.is_null() {
        out.push_str("base@ = 0");
    } else {
        let _ = write!(out, "base@ = {:#x}", m.data as usize);
    }
    let _ = write!(out, " rank = {} offset = {}", m.rank, m.offset);
    let join = |v: &[i64]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = write!(
        out,
        " sizes = [{}] strides = [{}]",
        join(m.sizes),
        join(m.strides)
    );
}

fn spaces(out: &mut String, n: i64) {
    for _ in 0..n.max(0) {
        out.push(' ');
    }
}

/// `MemRefDataPrinter<T>::print`, step for step (including its reading of
/// the first element of an empty dimension).
///
/// # Safety
/// The descriptor describes readable memory.
unsafe fn print_data<T: Elem>(
    out: &mut String,
    base: *const T,
    dim: usize,
    rank: usize,
    offset: i64,
    sizes: &[i64],
    strides: &[i64],
) {
    if dim == 0 {
        // SAFETY: the caller guarantees the element is readable.
        unsafe { base.offset(offset as isize).read_unaligned() }.write(out);
        return;
    }
    let ind = rank as i64 - dim as i64 + 1;
    // printFirst
    out.push('[');
    // SAFETY: as above, for the sub-view.
    unsafe { print_data(out, base, dim - 1, rank, offset, &sizes[1..], &strides[1..]) };
    if sizes[0] <= 1 {
        out.push(']');
    } else {
        out.push_str(", ");
        if dim > 1 {
            out.push('\n');
        }
    }
    let mut i: i64 = 1;
    while i + 1 < sizes[0] {
        spaces(out, ind);
        // SAFETY: as above.
        unsafe {
            print_data(
                out,
                base,
                dim - 1,
                rank,
                offset + i * strides[0],
                &sizes[1..],
                &strides[1..],
            )
        };
        out.push_str(", ");
        if dim > 1 {
            out.push('\n');
        }
        i += 1;
    }
    if sizes[0] <= 1 {
        return;
    }
    // printLast
    spaces(out, ind);
    // SAFETY: as above.
    unsafe {
        print_data(
            out,
            base,
            dim - 1,
            rank,
            offset + (sizes[0] - 1) * strides[0],
            &sizes[1..],
            &strides[1..],
        )
    };
    out.push(']');
}

/// `impl::printMemRef(DynamicMemRefType<T>)` after its `prefix`.
///
/// # Safety
/// `desc` is a descriptor of rank `rank` of readable memory.
unsafe fn print_memref<T: Elem>(prefix: &str, rank: i64, desc: *const c_void) {
    if desc.is_null() {
        return;
    }
    // SAFETY: the caller's contract.
    let m = unsafe { Dynamic::read(rank, desc) };
    let mut out = String::from(prefix);
    write_metadata(&mut out, &m);
    out.push_str(" data = \n");
    if m.rank == 0 {
        out.push('[');
    }
    let r = m.rank.max(0) as usize;
    // SAFETY: the caller's contract.
    unsafe { print_data::<T>(&mut out, m.data.cast(), r, r, m.offset, m.sizes, m.strides) };
    if m.rank == 0 {
        out.push(']');
    }
    out.push('\n');
    write_stdout(&out);
    flush_stdout();
}

/// # Safety
/// `u` is null or an unranked descriptor of readable memory.
unsafe fn print_unranked<T: Elem>(u: *const UnrankedMemRef) {
    if u.is_null() {
        return;
    }
    // SAFETY: the caller's contract.
    let (rank, desc) = unsafe { ((*u).rank, (*u).descriptor) };
    // SAFETY: the caller's contract.
    unsafe { print_memref::<T>("Unranked Memref ", rank, desc) }
}

/// # Safety
/// `u` is null or an unranked descriptor.
unsafe fn print_shape(u: *const UnrankedMemRef) {
    if u.is_null() {
        return;
    }
    // SAFETY: the caller's contract.
    let m = unsafe { Dynamic::read((*u).rank, (*u).descriptor) };
    let mut out = String::from("Unranked Memref ");
    write_metadata(&mut out, &m);
    out.push('\n');
    write_stdout(&out);
    flush_stdout();
}

macro_rules! unranked_printers {
    ($($t:ty: $ciface:ident, $ciface15:ident, $plain:ident, $plain15:ident;)*) => {$(
        /// Prints an unranked memref (upstream's format).
        ///
        /// # Safety
        /// `m` is an unranked descriptor of readable memory.
        #[no_mangle]
        pub unsafe extern "C" fn $ciface(m: *const UnrankedMemRef) {
            // SAFETY: the caller's contract.
            unsafe { print_unranked::<$t>(m) }
        }
        /// LLVM 15's name.
        ///
        /// # Safety
        /// As above.
        #[no_mangle]
        pub unsafe extern "C" fn $ciface15(m: *const UnrankedMemRef) {
            // SAFETY: the caller's contract.
            unsafe { print_unranked::<$t>(m) }
        }
        /// The unranked memref as (rank, descriptor) arguments.
        ///
        /// # Safety
        /// `ptr` is a descriptor of rank `rank` of readable memory.
        #[no_mangle]
        pub unsafe extern "C" fn $plain(rank: i64, ptr: *mut c_void) {
            let d = UnrankedMemRef { rank, descriptor: ptr };
            // SAFETY: the caller's contract.
            unsafe { print_unranked::<$t>(&d) }
        }
        /// LLVM 15's name.
        ///
        /// # Safety
        /// As above.
        #[no_mangle]
        pub unsafe extern "C" fn $plain15(rank: i64, ptr: *mut c_void) {
            let d = UnrankedMemRef { rank, descriptor: ptr };
            // SAFETY: the caller's contract.
            unsafe { print_unranked::<$t>(&d) }
        }
    )*};
}

unranked_printers! {
    f32: _mlir_ciface_print_memref_f32, _mlir_ciface_printMemrefF32, print_memref_f32, printMemrefF32;
    f64: _mlir_ciface_print_memref_f64, _mlir_ciface_printMemrefF64, print_memref_f64, printMemrefF64;
    i32: _mlir_ciface_print_memref_i32, _mlir_ciface_printMemrefI32, print_memref_i32, printMemrefI32;
    i64: _mlir_ciface_print_memref_i64, _mlir_ciface_printMemrefI64, print_memref_i64, printMemrefI64;
    i8: _mlir_ciface_print_memref_i8, _mlir_ciface_printMemrefI8, print_memref_i8, printMemrefI8;
}

macro_rules! shape_printers {
    ($($name:ident),*) => {$(
        /// Prints an unranked memref's shape.
        ///
        /// # Safety
        /// `m` is an unranked descriptor.
        #[no_mangle]
        pub unsafe extern "C" fn $name(m: *const UnrankedMemRef) {
            // SAFETY: the caller's contract.
            unsafe { print_shape(m) }
        }
    )*};
}

shape_printers!(
    _mlir_ciface_print_memref_shape_i8,
    _mlir_ciface_print_memref_shape_i32,
    _mlir_ciface_print_memref_shape_i64,
    _mlir_ciface_print_memref_shape_f32,
    _mlir_ciface_print_memref_shape_f64,
    _mlir_ciface_printMemrefShapeI8,
    _mlir_ciface_printMemrefShapeI32,
    _mlir_ciface_printMemrefShapeI64,
    _mlir_ciface_printMemrefShapeF32,
    _mlir_ciface_printMemrefShapeF64
);

macro_rules! ranked_f32_printers {
    ($($rank:literal: $name:ident, $name15:ident;)*) => {$(
        /// Prints a ranked `f32` memref (`StridedMemRefType<float, N>`).
        ///
        /// # Safety
        /// `m` is a descriptor of that rank of readable memory.
        #[no_mangle]
        pub unsafe extern "C" fn $name(m: *const c_void) {
            // SAFETY: the caller's contract.
            unsafe { print_memref::<f32>("Memref ", $rank, m) }
        }
        /// LLVM 15's name.
        ///
        /// # Safety
        /// As above.
        #[no_mangle]
        pub unsafe extern "C" fn $name15(m: *const c_void) {
            // SAFETY: the caller's contract.
            unsafe { print_memref::<f32>("Memref ", $rank, m) }
        }
    )*};
}

ranked_f32_printers! {
    0: _mlir_ciface_print_memref_0d_f32, _mlir_ciface_printMemref0dF32;
    1: _mlir_ciface_print_memref_1d_f32, _mlir_ciface_printMemref1dF32;
    2: _mlir_ciface_print_memref_2d_f32, _mlir_ciface_printMemref2dF32;
    3: _mlir_ciface_print_memref_3d_f32, _mlir_ciface_printMemref3dF32;
    4: _mlir_ciface_print_memref_4d_f32, _mlir_ciface_printMemref4dF32;
}

/// `memrefCopy`: copies between two memrefs of the same shape, any
/// strides, element by element.
///
/// # Safety
/// Both are unranked descriptors of the same shape over valid memory.
#[no_mangle]
pub unsafe extern "C" fn memrefCopy(
    elem_size: i64,
    src: *const UnrankedMemRef,
    dst: *const UnrankedMemRef,
) {
    if src.is_null() || dst.is_null() {
        return;
    }
    // SAFETY: the caller's contract.
    let (s, d) = unsafe {
        (
            Dynamic::read((*src).rank, (*src).descriptor),
            Dynamic::read((*dst).rank, (*dst).descriptor),
        )
    };
    let rank = s.rank.max(0) as usize;
    if s.sizes.contains(&0) {
        return;
    }
    let es = elem_size;
    // SAFETY: offsets within the described memory.
    let (sp, dp) = unsafe {
        (
            s.data.offset((s.offset * es) as isize),
            d.data.cast_mut().offset((d.offset * es) as isize),
        )
    };
    if rank == 0 {
        // SAFETY: one element each.
        unsafe { std::ptr::copy(sp, dp, es as usize) };
        return;
    }
    let mut idx = vec![0i64; rank];
    let ss: Vec<i64> = s.strides.iter().map(|x| x * es).collect();
    let ds: Vec<i64> = d.strides.iter().map(|x| x * es).collect();
    let (mut r, mut w) = (0i64, 0i64);
    loop {
        // SAFETY: positions within the described memory.
        unsafe { std::ptr::copy(sp.offset(r as isize), dp.offset(w as isize), es as usize) };
        let mut axis = rank as isize - 1;
        loop {
            if axis < 0 {
                return;
            }
            let a = axis as usize;
            idx[a] += 1;
            r += ss[a];
            w += ds[a];
            if s.sizes[a] != idx[a] {
                break;
            }
            if a == 0 {
                return;
            }
            idx[a] = 0;
            r -= s.sizes[a] * ss[a];
            w -= d.sizes[a] * ds[a];
            axis -= 1;
        }
    }
}

/// The runner utilities by symbol name.
pub fn symbols() -> Vec<(&'static str, usize)> {
    macro_rules! syms {
        ($($f:ident),* $(,)?) => { vec![$((stringify!($f), $f as *const () as usize)),*] };
    }
    syms![
        printI64,
        printU64,
        printF32,
        printF64,
        printOpen,
        printClose,
        printComma,
        printNewline,
        printCString,
        print_flops,
        printFlops,
        rtclock,
        _mlir_ciface_nano_time,
        _mlir_ciface_nanoTime,
        _mlir_alloc,
        _mlir_aligned_alloc,
        _mlir_free,
        _mlir_aligned_free,
        _mlir_ciface_print_memref_f32,
        _mlir_ciface_printMemrefF32,
        print_memref_f32,
        printMemrefF32,
        _mlir_ciface_print_memref_f64,
        _mlir_ciface_printMemrefF64,
        print_memref_f64,
        printMemrefF64,
        _mlir_ciface_print_memref_i32,
        _mlir_ciface_printMemrefI32,
        print_memref_i32,
        printMemrefI32,
        _mlir_ciface_print_memref_i64,
        _mlir_ciface_printMemrefI64,
        print_memref_i64,
        printMemrefI64,
        _mlir_ciface_print_memref_i8,
        _mlir_ciface_printMemrefI8,
        print_memref_i8,
        printMemrefI8,
        _mlir_ciface_print_memref_shape_i8,
        _mlir_ciface_print_memref_shape_i32,
        _mlir_ciface_print_memref_shape_i64,
        _mlir_ciface_print_memref_shape_f32,
        _mlir_ciface_print_memref_shape_f64,
        _mlir_ciface_printMemrefShapeI8,
        _mlir_ciface_printMemrefShapeI32,
        _mlir_ciface_printMemrefShapeI64,
        _mlir_ciface_printMemrefShapeF32,
        _mlir_ciface_printMemrefShapeF64,
        _mlir_ciface_print_memref_0d_f32,
        _mlir_ciface_printMemref0dF32,
        _mlir_ciface_print_memref_1d_f32,
        _mlir_ciface_printMemref1dF32,
        _mlir_ciface_print_memref_2d_f32,
        _mlir_ciface_printMemref2dF32,
        _mlir_ciface_print_memref_3d_f32,
        _mlir_ciface_printMemref3dF32,
        _mlir_ciface_print_memref_4d_f32,
        _mlir_ciface_printMemref4dF32,
        memrefCopy,
    ]
}

/// `%e`: how `llvm::raw_ostream` prints a double.
pub fn c_format_e(x: f64) -> String {
    c_format(c"%e", x)
}
