//! A counting global allocator: current and peak heap bytes, for `delaylab bench`.
//!
//! Wraps mimalloc with two relaxed atomics; cheap enough to leave on for the whole
//! binary, and it measures what the engine really holds (the bytes asked for, no
//! estimates). mimalloc rather than the system allocator: a delayed store releases
//! messages in due order, not in the order they were allocated, and glibc's malloc
//! spent a quarter of the plugin benchmark coalescing those scattered frees.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::{c_int, c_long};

use mimalloc::MiMalloc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { MiMalloc.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { MiMalloc.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { MiMalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
            grow(new_size);
        }
        p
    }
}

fn grow(bytes: usize) {
    let now = CURRENT.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

pub fn current_bytes() -> usize {
    CURRENT.load(Ordering::Relaxed)
}

pub fn peak_bytes() -> usize {
    PEAK.load(Ordering::Relaxed)
}

/// Starts a new peak measurement from what is allocated now.
pub fn reset_peak() {
    PEAK.store(CURRENT.load(Ordering::Relaxed), Ordering::Relaxed);
}

unsafe extern "C" {
    fn mi_option_get(option: c_int) -> c_long;
    fn mi_option_set(option: c_int, value: c_long);
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
