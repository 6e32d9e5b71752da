//! A recycling allocator for the small, uniform runtime objects (tokens and
//! values with small payloads).
//!
//! The JIT's `main` typically creates the objects and the workers free them,
//! so with plain `malloc` every free is a cross-thread free into the main
//! arena (under its lock, once the worker's tcache is full) and every
//! create a trip into that arena again. Here each thread keeps a small
//! cache of free blocks; a thread that frees more than it allocates hands
//! full batches to a global exchange, where a thread that allocates more
//! than it frees picks them up: one lock per `BATCH` objects. The exchange
//! keeps at most `MAX_BATCHES` batches; beyond that, blocks go back to the
//! system allocator, so the pool never retains more than a few MiB.

use std::alloc::Layout;
use std::cell::RefCell;
use std::sync::Mutex;

/// Size of a pooled block; objects whose layout fits use the pool.
pub(crate) const BLOCK_SIZE: usize = 128;
/// Alignment of a pooled block.
pub(crate) const BLOCK_ALIGN: usize = 16;
const BATCH: usize = 64;
const MAX_LOCAL: usize = 2 * BATCH;
const MAX_BATCHES: usize = 256;

fn block_layout() -> Layout {
    Layout::from_size_align(BLOCK_SIZE, BLOCK_ALIGN).expect("block layout")
}

/// Whether an object of this layout is served by the pool.
pub(crate) fn fits(layout: Layout) -> bool {
    layout.size() <= BLOCK_SIZE && layout.align() <= BLOCK_ALIGN
}

struct Block(*mut u8);

// SAFETY: a free block is plain memory owned by whichever list holds it.
unsafe impl Send for Block {}

static EXCHANGE: Mutex<Vec<Vec<Block>>> = Mutex::new(Vec::new());

struct Local(Vec<Block>);

impl Drop for Local {
    fn drop(&mut self) {
        // A thread that exits hands its cache back.
        let blocks = std::mem::take(&mut self.0);
        if !blocks.is_empty() {
            give_back(blocks);
        }
    }
}

thread_local! {
    static LOCAL: RefCell<Local> = const { RefCell::new(Local(Vec::new())) };
}

fn give_back(batch: Vec<Block>) {
    let mut ex = EXCHANGE.lock().unwrap_or_else(|p| p.into_inner());
    if ex.len() < MAX_BATCHES {
        ex.push(batch);
        return;
    }
    drop(ex);
    for b in batch {
        // SAFETY: every block was allocated by `alloc` with `block_layout`.
        unsafe { std::alloc::dealloc(b.0, block_layout()) };
    }
}

/// A block of `BLOCK_SIZE` bytes aligned to `BLOCK_ALIGN` (uninitialised).
pub(crate) fn alloc() -> *mut u8 {
    let hit = LOCAL
        .try_with(|l| {
            let mut l = l.borrow_mut();
            if let Some(b) = l.0.pop() {
                return Some(b.0);
            }
            let batch = EXCHANGE.lock().unwrap_or_else(|p| p.into_inner()).pop()?;
            l.0 = batch;
            l.0.pop().map(|b| b.0)
        })
        .ok()
        .flatten();
    if let Some(p) = hit {
        return p;
    }
    let layout = block_layout();
    // SAFETY: non-zero size.
    let p = unsafe { std::alloc::alloc(layout) };
    if p.is_null() {
        std::alloc::handle_alloc_error(layout)
    }
    p
}

/// Returns a block to the pool.
///
/// # Safety
/// `p` came from [`alloc`] and is not used afterwards.
pub(crate) unsafe fn free(p: *mut u8) {
    let kept = LOCAL
        .try_with(|l| {
            let mut l = l.borrow_mut();
            l.0.push(Block(p));
            if l.0.len() >= MAX_LOCAL {
                let at = l.0.len() - BATCH;
                let batch = l.0.split_off(at);
                drop(l);
                give_back(batch);
            }
        })
        .is_ok();
    if !kept {
        // The thread's cache is gone (thread exit): straight to the system.
        // SAFETY: allocated with `block_layout` by `alloc`.
        unsafe { std::alloc::dealloc(p, block_layout()) };
    }
}
