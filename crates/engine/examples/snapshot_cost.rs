//! What a snapshot costs at 200,000 messages (issue 29 item 2: the overdue count is exact,
//! and a frame is 16 ms): the 200,000-order burst run to 29:00 (50,000 overdue), 45:00
//! and 1:00:00 (149,998 overdue), each snapshot taken `RUNS` times, the median printed.
//!
//!   cargo run --release -p delaylab-engine --example snapshot_cost
//!
//! A figure, not a test: the machine's load moves it.

use std::time::Instant;

use delaylab_engine::scenario::load_str;
use delaylab_engine::snapshot::Snapshot;
use delaylab_engine::{Progress, Sim};

const RUNS: usize = 51;

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/promotion-burst-200k.json"
    );
    let s = load_str(&std::fs::read_to_string(path).expect("the preset")).expect("it loads");
    let mut sim = Sim::new(&s);
    for (label, t_ms) in [
        ("29:00", 29 * 60_000),
        ("45:00", 45 * 60_000),
        ("1:00:00", 3_600_000),
    ] {
        while sim.advance(t_ms) == Progress::More {
            while sim.poll_event().is_some() {}
        }
        while sim.poll_event().is_some() {}
        let times = median(|| {
            std::hint::black_box(Snapshot::of(&sim));
        });
        // What an exact count cost without the index: a scan of every ready message.
        let scan = median(|| {
            std::hint::black_box(full_scan(&sim));
        });
        let snap = Snapshot::of(&sim);
        let q = snap.queue("order.delay.queue").expect("the wait queue");
        assert_eq!(q.overdue, full_scan(&sim));
        println!(
            "at {label:>7}: ready {:>6}, overdue {:>6}: Snapshot::of median {:.3} ms (min {:.3}, max {:.3}); \
             a full scan instead: {:.3} ms",
            q.ready, q.overdue, times.0, times.1, times.2, scan.0
        );
    }
}

/// (median, min, max) wall ms of `f` over `RUNS` runs.
fn median(mut f: impl FnMut()) -> (f64, f64, f64) {
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let t0 = Instant::now();
            f();
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[RUNS / 2], times[0], times[RUNS - 1])
}

fn full_scan(sim: &Sim) -> u64 {
    let now = sim.now_ms();
    sim.queues()
        .filter(|q| sim.symbols().str(q.name) == "order.delay.queue")
        .flat_map(|q| q.iter_ready().skip(1))
        .filter(|e| e.expires_at_ms != delaylab_engine::queue::NEVER && e.expires_at_ms <= now)
        .count() as u64
}
