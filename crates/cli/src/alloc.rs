//! A counting global allocator: current and peak heap bytes, for `delaylab bench`.
//!
//! Wraps mimalloc and counts per thread, in plain thread-local cells: cheap enough to
//! leave on for the whole binary, and it measures what the engine really holds (the
//! bytes asked for, no estimates). The bench runs the engine on one thread, which is
//! the thread it reads. Global atomics counted every thread's bytes, but each
//! allocation paid a locked add and a compare-and-swap loop for the peak, and each free
//! a locked subtract: about 300 cycles per benchmarked message, a tenth of the
//! engine's time. mimalloc rather than the system allocator: a delayed store releases
//! messages in due order, not in the order they were allocated, and glibc's malloc
//! spent a quarter of the plugin benchmark coalescing those scattered frees.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::ffi::{c_int, c_long, c_void};

use mimalloc::MiMalloc;

pub struct Counting;

thread_local! {
    /// Bytes this thread allocated minus those it freed (a block freed by another
    /// thread than the one that allocated it moves bytes between their counts), and the
    /// highest that was since `reset_peak`.
    static CURRENT: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// What `mi_malloc` aligns every block to, at least (mimalloc's `MI_MAX_ALIGN_SIZE`),
/// when the block is at least that large; a smaller block is aligned to its size class.
const MI_MAX_ALIGN_SIZE: usize = 16;

/// Whether plain `mi_malloc` already gives `layout`'s alignment (as the system
/// allocator's `malloc` does in std): then the aligned entry point, which the `mimalloc`
/// crate calls for every allocation and which costs a fifth more per call, is skipped.
fn natural(size: usize, align: usize) -> bool {
    align <= MI_MAX_ALIGN_SIZE && align <= size
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = if natural(layout.size(), layout.align()) {
            // SAFETY: a non-zero size (align <= size, align >= 1); mi_malloc returns null
            // or a block of at least `size` bytes aligned as `natural` says.
            unsafe { mi_malloc(layout.size()).cast::<u8>() }
        } else {
            unsafe { MiMalloc.alloc(layout) }
        };
        debug_assert!(p.is_null() || p.align_offset(layout.align()) == 0);
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { MiMalloc.dealloc(ptr, layout) };
        shrink(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = if natural(new_size, layout.align()) {
            // SAFETY: `ptr` came from this allocator (mi_malloc or mi_malloc_aligned, both
            // mimalloc blocks); the new block is aligned as `natural` says.
            unsafe { mi_realloc(ptr.cast(), new_size).cast::<u8>() }
        } else {
            unsafe { MiMalloc.realloc(ptr, layout, new_size) }
        };
        if !p.is_null() {
            shrink(layout.size());
            grow(new_size);
        }
        p
    }
}

fn grow(bytes: usize) {
    let now = CURRENT.get() + bytes as isize;
    CURRENT.set(now);
    if now > PEAK.get() {
        PEAK.set(now);
    }
}

fn shrink(bytes: usize) {
    CURRENT.set(CURRENT.get() - bytes as isize);
}

/// This thread's heap bytes now.
pub fn current_bytes() -> usize {
    CURRENT.get().max(0) as usize
}

/// This thread's highest heap bytes since `reset_peak`.
pub fn peak_bytes() -> usize {
    PEAK.get().max(0) as usize
}

/// Starts a new peak measurement (of this thread) from what is allocated now.
pub fn reset_peak() {
    PEAK.set(CURRENT.get());
}

unsafe extern "C" {
    fn mi_option_get(option: c_int) -> c_long;
    fn mi_option_set(option: c_int, value: c_long);
    fn mi_malloc(size: usize) -> *mut c_void;
    fn mi_realloc(p: *mut c_void, newsize: usize) -> *mut c_void;
}

/// `mi_option_purge_delay` in mimalloc.h (v3): the 16th option, 1000 ms by default.
const MI_OPTION_PURGE_DELAY: c_int = 15;

/// Keeps freed memory mapped until the process ends instead of handing it back to the
/// OS once it has been unused for a while. A benchmark frees and allocates hundreds of
/// megabytes, and on a VM every page handed back costs a fault and a zeroing when it is
/// used again (a third of the plugin benchmark's time went there).
pub fn keep_freed_memory() {
    // SAFETY: plain option getters and setters of the linked mimalloc, callable at any
    // time. The option is only set if it has the purge delay's default, so a mimalloc
    // whose options are numbered differently is left alone.
    unsafe {
        if mi_option_get(MI_OPTION_PURGE_DELAY) == 1000 {
            mi_option_set(MI_OPTION_PURGE_DELAY, -1);
        }
    }
}
