//! Hints to the CPU: they change how long the engine takes, never what it computes.

/// Asks the CPU to bring the cache line at `p` in, without waiting for it. `p` need not
/// point at anything valid: a prefetch reads nothing the program sees and never faults.
/// Nothing on targets without the instruction.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch cannot fault and its result is never read; SSE, which it
    // needs, is part of every x86_64 CPU.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
