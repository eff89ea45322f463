//! This thread's CPU time, for `delaylab bench`: on a machine shared with other work a
//! run's wall time includes the time it waited for a core, its CPU time does not.

/// CPU time this thread has used, in ms (`CLOCK_THREAD_CPUTIME_ID`).
#[cfg(unix)]
pub fn thread_ms() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as f64 * 1000.0 + ts.tv_nsec as f64 / 1e6
}
