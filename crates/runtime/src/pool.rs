//! A recycling allocator for the small runtime objects: two size classes,
//! 64 bytes (tokens) and 128 bytes (values with small payloads).
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

/// Block sizes of the classes; objects whose layout fits use the pool.
const CLASS_SIZE: [usize; CLASSES] = [64, 128];
const CLASSES: usize = 2;
/// Alignment of every pooled block.
const BLOCK_ALIGN: usize = 16;
const BATCH: usize = 64;
const MAX_LOCAL: usize = 2 * BATCH;
/// Batches kept in the exchange per class.
const MAX_BATCHES: usize = 256;

fn block_layout(class: usize) -> Layout {
    Layout::from_size_align(CLASS_SIZE[class], BLOCK_ALIGN).expect("block layout")
}

/// The smallest class an object of this layout fits in, if any.
pub(crate) fn class_for(layout: Layout) -> Option<usize> {
    if layout.align() > BLOCK_ALIGN {
        return None;
    }
    CLASS_SIZE.iter().position(|&s| layout.size() <= s)
}

struct Block(*mut u8);

// SAFETY: a free block is plain memory owned by whichever list holds it.
unsafe impl Send for Block {}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY_EXCHANGE: Mutex<Vec<Vec<Block>>> = Mutex::new(Vec::new());
static EXCHANGE: [Mutex<Vec<Vec<Block>>>; CLASSES] = [EMPTY_EXCHANGE; CLASSES];

struct Local([Vec<Block>; CLASSES]);

impl Drop for Local {
    fn drop(&mut self) {
        // A thread that exits hands its caches back.
        for class in 0..CLASSES {
            let blocks = std::mem::take(&mut self.0[class]);
            if !blocks.is_empty() {
                give_back(blocks, class);
            }
        }
    }
}

thread_local! {
    static LOCAL: RefCell<Local> = const { RefCell::new(Local([Vec::new(), Vec::new()])) };
}

fn give_back(batch: Vec<Block>, class: usize) {
    let mut ex = EXCHANGE[class].lock().unwrap_or_else(|p| p.into_inner());
    if ex.len() < MAX_BATCHES {
        ex.push(batch);
        return;
    }
    drop(ex);
    for b in batch {
        // SAFETY: every block of this class was allocated by `alloc` with
        // `block_layout(class)`.
        unsafe { std::alloc::dealloc(b.0, block_layout(class)) };
    }
}

/// A block of class `class` (from [`class_for`]), aligned to `BLOCK_ALIGN`
/// and uninitialised.
pub(crate) fn alloc(class: usize) -> *mut u8 {
    let hit = LOCAL
        .try_with(|l| {
            let mut l = l.borrow_mut();
            let cache = &mut l.0[class];
            if let Some(b) = cache.pop() {
                return Some(b.0);
            }
            let batch = EXCHANGE[class]
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .pop()?;
            *cache = batch;
            cache.pop().map(|b| b.0)
        })
        .ok()
        .flatten();
    if let Some(p) = hit {
        return p;
    }
    let layout = block_layout(class);
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
/// `p` came from [`alloc`] with the same `class` and is not used afterwards.
pub(crate) unsafe fn free(p: *mut u8, class: usize) {
    let kept = LOCAL
        .try_with(|l| {
            let mut l = l.borrow_mut();
            let cache = &mut l.0[class];
            cache.push(Block(p));
            if cache.len() >= MAX_LOCAL {
                let at = cache.len() - BATCH;
                let batch = cache.split_off(at);
                drop(l);
                give_back(batch, class);
            }
        })
        .is_ok();
    if !kept {
        // The thread's cache is gone (thread exit): straight to the system.
        // SAFETY: allocated with `block_layout(class)` by `alloc`.
        unsafe { std::alloc::dealloc(p, block_layout(class)) };
    }
}
