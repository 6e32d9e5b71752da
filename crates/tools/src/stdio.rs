//! Standard output and error for the binaries, with every failed write
//! visible.
//!
//! Why not `std::io::stdout()` and `print!`: std swallows `EBADF`, so with
//! stdout closed every write "succeeds", and `print!`/`eprint!` panic on any
//! other error (`/dev/full`). The tools instead write to a duplicate of
//! fd 1, which reports what the kernel says, and turn a failure into a
//! diagnostic and an exit status (mlir-opt 15: "IO failure on output
//! stream").

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;

/// A handle on fd 1 that reports errors. Fails (`EBADF`) when stdout is
/// closed.
pub fn stdout() -> io::Result<File> {
    if stdout_was_closed() {
        // EBADF, what the write would have failed with.
        return Err(io::Error::from_raw_os_error(9));
    }
    io::stdout().as_fd().try_clone_to_owned().map(File::from)
}

/// Whether fd 1 was closed when the process started. Before `main`, std
/// reopens a closed fd 0, 1 or 2 on `/dev/null`, read-write, so a closed
/// stdout looks like a working one; a shell's `>/dev/null` opens it
/// write-only. The cost of telling them apart this way: a parent that
/// hands over `/dev/null` opened read-write (`1<>/dev/null`, Python's
/// `subprocess.DEVNULL`) is taken for a closed stdout, so a run with output
/// fails there. Linux only (`/proc`); elsewhere the output is discarded as
/// std would.
pub fn stdout_was_closed() -> bool {
    let is_null =
        std::fs::read_link("/proc/self/fd/1").is_ok_and(|t| t == std::path::Path::new("/dev/null"));
    if !is_null {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        .is_some_and(|flags| flags & 3 == 2) // O_ACCMODE == O_RDWR
}

/// Writes `bytes` to stdout. Nothing to write is not an error, even with
/// stdout closed (as with mlir-opt, which only fails on a write).
pub fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    if bytes.is_empty() {
        return Ok(());
    }
    let mut f = stdout()?;
    f.write_all(bytes)?;
    f.flush()
}

/// Writes to stderr, ignoring failure: there is nowhere left to report it,
/// and a panic would only add a second failed write.
pub fn eprint(s: impl AsRef<[u8]>) {
    let _ = io::stderr().lock().write_all(s.as_ref());
}

/// The status of a write to a reader that has gone (`| head`): LLVM's
/// pipe-signal handler exits with `EX_IOERR` and says nothing, and so do
/// the tools (Rust ignores SIGPIPE, so the write returns `EPIPE` instead).
pub const EX_IOERR: i32 = 74;

pub fn is_broken_pipe(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}

/// Reports a failed write to stdout by `tool`; returns the exit status:
/// `EX_IOERR` in silence for a broken pipe, else `status` after LLVM's
/// message.
pub fn write_failed(tool: &str, e: &io::Error, status: i32) -> i32 {
    if is_broken_pipe(e) {
        return EX_IOERR;
    }
    eprint(format!("{tool}: {}\n", io_failure(e)));
    status
}

/// LLVM's text for a failed write.
pub fn io_failure(e: &io::Error) -> String {
    format!("IO failure on output stream: {}", os_message(e))
}

/// The system's message (`strerror`), as LLVM prints it: without Rust's
/// " (os error N)".
pub fn os_message(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(p) => s[..p].to_string(),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_failure_drops_the_os_error_number() {
        let e = io::Error::from_raw_os_error(28);
        assert_eq!(
            io_failure(&e),
            "IO failure on output stream: No space left on device"
        );
    }
}
