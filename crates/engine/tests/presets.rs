//! The preset scenarios in `scenarios/*.json` (the ones the playground offers).
//!
//! Every preset found in the directory at test time is loaded, checked for the fields a
//! learner reads (name, description, watch), run headless, and compared with its golden
//! files in `tests/golden/`:
//!
//! - `<preset>.result.json`: the run's JSON result (pretty-printed) without
//!   `stats.wall_ms`;
//! - `<preset>.trace.jsonl`: every engine event, one JSON line each.
//!
//! Big presets (the 200,000-order burst) keep only the first `KEEP` trace lines and the
//! first `RESULT_KEEP` entries of each result list, plus the total count and an FNV-1a
//! hash of everything, so the repository stays small while any change is still caught.
//!
//! `UPDATE_GOLDEN=1 cargo test -p delaylab-engine --test presets` rewrites the golden
//! files instead of comparing. The golden files only catch unintended changes; the real
//! check is `lesson()`, which asserts, per preset, what the preset is meant to teach.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use delaylab_engine::report::{self, golden};
use delaylab_engine::scenario::load_str;
use serde_json::Value;

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn updating() -> bool {
    std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1")
}

/// The preset files, by file stem, sorted.
fn presets() -> Vec<(String, PathBuf)> {
    let dir = scenarios_dir();
    let mut out: Vec<(String, PathBuf)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    out.sort();
    out
}

/// Compares `actual` with the golden file (or writes it with UPDATE_GOLDEN=1).
fn check_golden(file: &str, actual: &str) -> Result<(), String> {
    let path = golden_dir().join(file);
    if updating() {
        fs::create_dir_all(golden_dir()).unwrap();
        fs::write(&path, actual).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return Ok(());
    }
    let expected = fs::read_to_string(&path).map_err(|e| {
        format!("{file}: cannot read the golden file ({e}); run with UPDATE_GOLDEN=1 to create it")
    })?;
    if expected == actual {
        return Ok(());
    }
    let (mut exp_lines, mut act_lines) = (expected.lines(), actual.lines());
    let mut n = 1;
    loop {
        match (exp_lines.next(), act_lines.next()) {
            (Some(e), Some(a)) if e == a => n += 1,
            (e, a) => {
                return Err(format!(
                    "{file}: differs from the golden file at line {n}\n  golden: {}\n  actual: {}\n  \
                     (if the change is intended: UPDATE_GOLDEN=1 cargo test -p delaylab-engine --test presets)",
                    e.unwrap_or("<end of file>"),
                    a.unwrap_or("<end of file>")
                ))
            }
        }
    }
}

/// Loads, runs, compares with the golden files, and checks the lesson of one preset.
fn check_preset(stem: &str, path: &Path) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{stem}: {e}"))?;
    let scenario = load_str(&text).map_err(|e| format!("{stem}: does not load: {e}"))?;
    for (field, value) in [
        ("name", &scenario.name),
        ("description", &scenario.description),
        ("watch", &scenario.watch),
    ] {
        if value.trim().is_empty() {
            return Err(format!("{stem}: `{field}` is empty"));
        }
    }

    let result = report::run(&scenario);
    if let Some(limit) = result.get("limit_reached") {
        return Err(format!("{stem}: the run hit a limit: {limit}"));
    }

    let (kept, count) = golden::trace_golden(&scenario);
    if Some(count) != result["stats"]["events"].as_u64() {
        return Err(format!(
            "{stem}: the trace has {count} events, the result counts {}",
            result["stats"]["events"]
        ));
    }

    let mut problems = Vec::new();
    if let Err(e) = check_golden(
        &format!("{stem}.result.json"),
        &golden::result_golden(&result),
    ) {
        problems.push(e);
    }
    if let Err(e) = check_golden(&format!("{stem}.trace.jsonl"), &kept) {
        problems.push(e);
    }
    if let Err(e) = lesson(stem, &result) {
        problems.push(format!("{stem}: lesson not shown: {e}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn every_preset_loads_matches_its_golden_files_and_teaches_its_lesson() {
    let presets = presets();
    let names: BTreeSet<&str> = presets.iter().map(|(s, _)| s.as_str()).collect();
    let mut failures: Vec<String> = Vec::new();

    assert!(
        presets.len() >= 12,
        "expected at least 12 presets in scenarios/, found {}",
        presets.len()
    );
    for stem in LESSONS {
        if !names.contains(stem) {
            failures.push(format!("{stem}: the preset is missing from scenarios/"));
        }
    }
    for (stem, _) in &presets {
        if !stem
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            failures.push(format!("{stem}: preset file names are kebab-case"));
        }
    }

    // Each preset in its own thread: the 200,000-order burst runs beside the others.
    let outcomes: Vec<(String, Result<(), String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = presets
            .iter()
            .map(|(stem, path)| (stem.clone(), scope.spawn(move || check_preset(stem, path))))
            .collect();
        handles
            .into_iter()
            .map(|(stem, h)| {
                let r = h.join().unwrap_or_else(|panic| {
                    let msg = panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "panicked".into());
                    Err(format!("{stem}: panicked: {msg}"))
                });
                (stem, r)
            })
            .collect()
    });
    for (_, r) in outcomes {
        if let Err(e) = r {
            failures.push(e);
        }
    }

    // Golden files whose preset is gone.
    if !updating() {
        if let Ok(dir) = fs::read_dir(golden_dir()) {
            for entry in dir.flatten() {
                let file = entry.file_name().to_string_lossy().into_owned();
                let stem = file
                    .trim_end_matches(".result.json")
                    .trim_end_matches(".trace.jsonl");
                if !names.contains(stem) {
                    failures.push(format!(
                        "golden file {file} has no preset scenarios/{stem}.json"
                    ));
                }
            }
        }
    }

    assert!(
        failures.is_empty(),
        "{} problem(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------
// The lessons: what each preset must show, read from its JSON result.

/// Presets that must exist, each with its lesson below.
const LESSONS: &[&str] = &[
    "order-timeout-queue-ttl",
    "head-of-line-blocking",
    "fix-one-queue-per-ttl",
    "fix-delayed-plugin",
    "reminder-ladder",
    "coupon-expiry-24h",
    "promotion-burst-200k",
    "promotion-burst-200k-measured",
    "retry-loop-x-death",
    "max-length-drop-head-dlq",
    "overflow-reject-publish-vs-drop-head",
    "plugin-mandatory-late-binding",
    "plugin-node-restart",
    "plugin-node-lost",
    "expiration-zero",
    "quorum-vs-classic-requeue",
    "bad-expiration-values",
    "dead-letter-cycle",
    "qq-delivery-time-4-4",
];

type Check = Result<(), String>;

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(format!($($fmt)+));
        }
    };
}

fn list<'a>(r: &'a Value, key: &str) -> &'a [Value] {
    r[key].as_array().map(Vec::as_slice).unwrap_or(&[])
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or(u64::MAX)
}

/// Every delivery of `body`, in order.
fn deliveries_of<'a>(r: &'a Value, body: &str) -> Vec<&'a Value> {
    list(r, "deliveries")
        .iter()
        .filter(|d| d["body"] == body)
        .collect()
}

/// The single delivery of `body`.
fn the_delivery<'a>(r: &'a Value, body: &str) -> Result<&'a Value, String> {
    match deliveries_of(r, body).as_slice() {
        [d] => Ok(d),
        ds => Err(format!("{body}: expected one delivery, got {}", ds.len())),
    }
}

/// Checks the time (and lateness) of the single delivery of `body`.
fn delivered_at(r: &Value, body: &str, at_ms: u64, late_ms: u64) -> Check {
    let d = the_delivery(r, body)?;
    ensure!(
        u(&d["delivered_at_ms"]) == at_ms,
        "{body}: delivered at {} ms, expected {at_ms}",
        d["delivered_at_ms"]
    );
    ensure!(
        u(&d["late_ms"]) == late_ms,
        "{body}: late_ms {}, expected {late_ms}",
        d["late_ms"]
    );
    Ok(())
}

/// (body, delivered_at_ms) of the deliveries to `consumer`, in order.
fn seen_by(r: &Value, consumer: &str) -> Vec<(String, u64)> {
    list(r, "deliveries")
        .iter()
        .filter(|d| d["consumer"] == consumer)
        .map(|d| {
            (
                d["body"].as_str().unwrap_or("").to_string(),
                u(&d["delivered_at_ms"]),
            )
        })
        .collect()
}

fn owned(v: &[(&str, u64)]) -> Vec<(String, u64)> {
    v.iter().map(|(b, t)| (b.to_string(), *t)).collect()
}

/// (body, at_ms, reason) of every drop.
fn drops(r: &Value) -> Vec<(String, u64, String)> {
    list(r, "dropped")
        .iter()
        .map(|d| {
            (
                d["body"].as_str().unwrap_or("").to_string(),
                u(&d["at_ms"]),
                d["reason"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn owned3(v: &[(&str, u64, &str)]) -> Vec<(String, u64, String)> {
    v.iter()
        .map(|(b, t, r)| (b.to_string(), *t, r.to_string()))
        .collect()
}

/// Every queue of the final state is empty.
fn queues_empty(r: &Value) -> Check {
    for (q, s) in r["final"]["queues"].as_object().ok_or("no final.queues")? {
        ensure!(
            s["ready"] == 0 && s["unacked"] == 0,
            "queue {q} ends with {s}"
        );
    }
    Ok(())
}

fn lesson(stem: &str, r: &Value) -> Check {
    match stem {
        "order-timeout-queue-ttl" => {
            let ds = list(r, "deliveries");
            ensure!(ds.len() == 4, "{} deliveries, expected 4", ds.len());
            for d in ds {
                ensure!(
                    u(&d["delivered_at_ms"]) == u(&d["published_at_ms"]) + 1_800_000
                        && d["late_ms"] == 0,
                    "not delivered exactly 30 min after publish: {d}"
                );
                let death = &d["headers"]["x-death"][0];
                ensure!(
                    death["reason"] == "expired" && death["queue"] == "order.delay.queue",
                    "x-death: {death}"
                );
                ensure!(
                    death.get("original-expiration").is_none(),
                    "a queue TTL is not an original-expiration: {death}"
                );
            }
            let at: Vec<u64> = ds.iter().map(|d| u(&d["delivered_at_ms"])).collect();
            ensure!(
                at == [1_800_000, 1_920_000, 2_130_000, 2_340_000],
                "delivery times {at:?}"
            );
            queues_empty(r)
        }
        "head-of-line-blocking" => {
            delivered_at(r, "A", 1_800_000, 0)?;
            delivered_at(r, "B", 1_800_000, 1_440_000)?;
            let b = the_delivery(r, "B")?;
            ensure!(
                b["headers"]["x-death"][0]["original-expiration"] == "300000",
                "B x-death: {}",
                b["headers"]
            );
            ensure!(
                b["properties"].get("expiration").is_none(),
                "expiration must be gone after dead-lettering"
            );
            let order: Vec<&str> = list(r, "deliveries")
                .iter()
                .filter_map(|d| d["body"].as_str())
                .collect();
            ensure!(
                order == ["A", "B"],
                "B is stuck behind A and leaves after it: {order:?}"
            );
            ensure!(
                r["lateness_ms"]["max"] == 1_440_000,
                "lateness {}",
                r["lateness_ms"]
            );
            Ok(())
        }
        "fix-one-queue-per-ttl" => {
            delivered_at(r, "B", 360_000, 0)?;
            delivered_at(r, "A", 1_800_000, 0)?;
            ensure!(
                the_delivery(r, "B")?["headers"]["x-death"][0]["queue"] == "order.delay.5m.queue",
                "B's wait queue"
            );
            Ok(())
        }
        "fix-delayed-plugin" => {
            delivered_at(r, "B", 360_000, 0)?;
            delivered_at(r, "A", 1_800_000, 0)?;
            let b = the_delivery(r, "B")?;
            ensure!(
                b["headers"]["x-delay"] == 300_000,
                "the consumer sees the original x-delay: {}",
                b["headers"]
            );
            ensure!(
                b["headers"].get("x-death").is_none(),
                "no dead-lettering with the plugin"
            );
            ensure!(
                r["final"]["delayed"]["order.delayed.exchange"] == 0,
                "store empty at the end"
            );
            Ok(())
        }
        "reminder-ladder" => {
            ensure!(list(r, "deliveries").len() == 9, "expected 9 reminders");
            let levels = [
                ("reminder.wait.10m", 600_000),
                ("reminder.wait.30m", 1_800_000),
                ("reminder.wait.2h", 7_200_000),
            ];
            for (user, start) in [
                ("user-alice", 0),
                ("user-bob", 240_000),
                ("user-carol", 660_000),
            ] {
                let ds = deliveries_of(r, user);
                ensure!(ds.len() == 3, "{user}: {} reminders", ds.len());
                for (d, (queue, ttl)) in ds.iter().zip(levels) {
                    ensure!(
                        u(&d["delivered_at_ms"]) == start + ttl && d["late_ms"] == 0,
                        "{user} {queue}: {d}"
                    );
                    ensure!(
                        d["headers"]["x-death"][0]["queue"] == queue,
                        "{user}: level from x-death: {d}"
                    );
                }
            }
            Ok(())
        }
        "coupon-expiry-24h" => {
            delivered_at(r, "coupon-A", 86_400_000, 0)?;
            delivered_at(r, "coupon-B", 87_000_000, 0)?;
            delivered_at(r, "coupon-C", 89_100_000, 0)?;
            queues_empty(r)
        }
        "promotion-burst-200k-measured" => {
            // The same burst at RabbitMQ's measured speed: the rule's lateness, plus the
            // broker's milliseconds (expiry timers 1-2 ms late), no drift.
            let ds = list(r, "deliveries");
            ensure!(ds.len() == 200_000, "{} deliveries", ds.len());
            ensure!(list(r, "dropped").is_empty(), "nothing is lost, only late");
            let max = u(&r["lateness_ms"]["max"]);
            ensure!(
                (2_699_992..=2_700_000).contains(&max),
                "worst case a few ms over the exact 2699991: {max}"
            );
            let first = u(&ds[0]["delivered_at_ms"]);
            ensure!(
                (1_800_001..=1_800_003).contains(&first),
                "the first order leaves 1-2 ms after 30:00: {first}"
            );
            let last = ds
                .iter()
                .map(|d| u(&d["delivered_at_ms"]))
                .max()
                .unwrap_or(0);
            ensure!(
                (4_199_995..=4_200_010).contains(&last),
                "no drift: the last order leaves within ms of the exact run's 1:09:59.994: {last}"
            );
            Ok(())
        }
        "promotion-burst-200k" => {
            let ds = list(r, "deliveries");
            ensure!(
                ds.len() == 200_000,
                "{} deliveries, expected 200000",
                ds.len()
            );
            ensure!(list(r, "dropped").is_empty(), "nothing is lost, only late");
            let lat = &r["lateness_ms"];
            ensure!(
                lat["count"] == 200_000 && u(&lat["max"]) > 0,
                "lateness {lat}"
            );
            ensure!(
                lat["max"] == 2_699_991,
                "worst case: a 15 min order behind a 1 h one: {lat}"
            );
            // The first 1 h order heads the queue; only the two orders before it leave at 30:00.
            let at_30m = ds
                .iter()
                .filter(|d| u(&d["delivered_at_ms"]) == 1_800_000)
                .count();
            ensure!(at_30m == 2, "{at_30m} orders released at 30:00, expected 2");
            ensure!(
                ds.iter().all(|d| {
                    let t = u(&d["delivered_at_ms"]);
                    t == 1_800_000 || t >= 3_600_006
                }),
                "released before the 1 h head"
            );
            delivered_at(r, "order-c1-1h", 3_600_006, 0)?;
            delivered_at(r, "order-b2-15m", 3_600_006, 2_699_991)?;
            let last = ds.last().unwrap();
            ensure!(
                last["body"] == "order-d50000-30m" && u(&last["delivered_at_ms"]) == 4_199_994,
                "last: {last}"
            );
            queues_empty(r)
        }
        "retry-loop-x-death" => {
            let ds = deliveries_of(r, "payment-7731");
            let at: Vec<u64> = ds.iter().map(|d| u(&d["delivered_at_ms"])).collect();
            ensure!(at == [0, 5_200, 10_400, 15_600], "attempts at {at:?}");
            let h = &ds[3]["headers"];
            let xd = &h["x-death"];
            ensure!(
                xd.as_array().map_or(0, Vec::len) == 2,
                "one x-death entry per (queue, reason): {xd}"
            );
            ensure!(
                xd[0]["queue"] == "payment.retry.queue"
                    && xd[0]["reason"] == "expired"
                    && xd[0]["count"] == 3,
                "x-death[0]: {}",
                xd[0]
            );
            ensure!(
                xd[1]["queue"] == "payment.work.queue"
                    && xd[1]["reason"] == "rejected"
                    && xd[1]["count"] == 3,
                "x-death[1]: {}",
                xd[1]
            );
            ensure!(
                h["x-first-death-reason"] == "rejected"
                    && h["x-first-death-queue"] == "payment.work.queue",
                "first death: {h}"
            );
            ensure!(
                list(r, "dropped").is_empty(),
                "the reject loop is not a cycle to cut"
            );
            queues_empty(r)
        }
        "max-length-drop-head-dlq" => {
            ensure!(
                seen_by(r, "auditor")
                    == owned(&[("order-1", 300), ("order-2", 400), ("order-3", 500)]),
                "auditor: {:?}",
                seen_by(r, "auditor")
            );
            for b in ["order-1", "order-2", "order-3"] {
                ensure!(
                    the_delivery(r, b)?["headers"]["x-death"][0]["reason"] == "maxlen",
                    "{b}: reason maxlen"
                );
            }
            ensure!(
                seen_by(r, "worker")
                    == owned(&[
                        ("order-4", 60_000),
                        ("order-5", 60_000),
                        ("order-6", 60_000)
                    ]),
                "worker: {:?}",
                seen_by(r, "worker")
            );
            Ok(())
        }
        "overflow-reject-publish-vs-drop-head" => {
            ensure!(
                drops(r)
                    == owned3(&[
                        ("ticket-4", 300, "reject_publish"),
                        ("ticket-5", 400, "reject_publish"),
                        ("ticket-6", 500, "reject_publish")
                    ]),
                "dropped: {:?}",
                drops(r)
            );
            ensure!(
                list(r, "dropped")
                    .iter()
                    .all(|d| d["queue"] == "ticket.rejectpublish.queue"),
                "dropped by the reject-publish queue"
            );
            let got = |c| {
                seen_by(r, c)
                    .into_iter()
                    .map(|(b, _)| b)
                    .collect::<Vec<_>>()
            };
            ensure!(
                got("drophead-worker") == ["ticket-4", "ticket-5", "ticket-6"],
                "drop-head keeps the newest: {:?}",
                got("drophead-worker")
            );
            ensure!(
                got("rejectpublish-worker") == ["ticket-1", "ticket-2", "ticket-3"],
                "reject-publish keeps the oldest: {:?}",
                got("rejectpublish-worker")
            );
            ensure!(
                r["final"]["queues"]["ticket.dlq"]["ready"] == 3,
                "only drop-head dead-letters: {}",
                r["final"]
            );
            Ok(())
        }
        "plugin-mandatory-late-binding" => {
            let ret = list(r, "returned");
            ensure!(
                ret.len() == 1
                    && ret[0]["body"] == "sms-1"
                    && ret[0]["at_ms"] == 0
                    && ret[0]["code"] == 312
                    && ret[0]["text"] == "NO_ROUTE",
                "returned: {ret:?}"
            );
            delivered_at(r, "sms-1", 60_000, 0)?;
            delivered_at(r, "sms-now", 10_000, 0)?;
            delivered_at(r, "email-1", 120_000, 0)?;
            ensure!(deliveries_of(r, "push-1").is_empty(), "push-1 must be lost");
            ensure!(
                drops(r) == owned3(&[("push-1", 180_000, "unroutable")]),
                "dropped: {:?}",
                drops(r)
            );
            Ok(())
        }
        "plugin-node-restart" => {
            delivered_at(r, "r-1m", 60_000, 0)?;
            delivered_at(r, "r-2m", 330_000, 210_000)?;
            delivered_at(r, "r-5m", 330_000, 30_000)?;
            delivered_at(r, "r-10m", 600_000, 0)?;
            let order: Vec<&str> = list(r, "deliveries")
                .iter()
                .filter_map(|d| d["body"].as_str())
                .collect();
            ensure!(
                order == ["r-1m", "r-2m", "r-5m", "r-10m"],
                "overdue messages go out in due order: {order:?}"
            );
            let errs = list(r, "errors");
            ensure!(
                errs.len() == 1
                    && errs[0]["at_ms"] == 180_000
                    && errs[0]["code"] == 320
                    && errs[0]["scope"] == "connection",
                "errors: {errs:?}"
            );
            ensure!(
                deliveries_of(r, "r-during-downtime").is_empty(),
                "a publish to a stopped node is not stored"
            );
            Ok(())
        }
        "plugin-node-lost" => {
            delivered_at(r, "delayed-1m", 60_000, 0)?;
            delivered_at(r, "quorum-10m", 600_000, 0)?;
            let mut d = drops(r);
            d.sort();
            ensure!(
                d == owned3(&[
                    ("classic-10m", 180_000, "node_lost"),
                    ("delayed-10m", 180_000, "node_lost"),
                    ("delayed-5m", 180_000, "node_lost")
                ]),
                "dropped: {d:?}"
            );
            ensure!(
                list(r, "deliveries").len() == 2,
                "only delayed-1m and quorum-10m arrive"
            );
            Ok(())
        }
        "expiration-zero" => {
            ensure!(
                seen_by(r, "worker") == owned(&[("offer-1", 0), ("offer-3", 3_000)]),
                "worker: {:?}",
                seen_by(r, "worker")
            );
            ensure!(
                seen_by(r, "auditor") == owned(&[("offer-2", 500)]),
                "auditor: {:?}",
                seen_by(r, "auditor")
            );
            let d = the_delivery(r, "offer-2")?;
            ensure!(
                d["headers"]["x-death"][0]["original-expiration"] == "0"
                    && d["headers"]["x-death"][0]["reason"] == "expired",
                "offer-2: {d}"
            );
            Ok(())
        }
        "quorum-vs-classic-requeue" => {
            let classic = owned(&[
                ("task-1", 0),
                ("task-1", 1_000),
                ("task-2", 2_000),
                ("task-3", 3_000),
                ("task-4", 4_000),
            ]);
            let quorum = owned(&[
                ("task-1", 0),
                ("task-2", 1_000),
                ("task-3", 2_000),
                ("task-4", 3_000),
                ("task-1", 4_000),
            ]);
            ensure!(
                seen_by(r, "classic-worker") == classic,
                "classic: {:?}",
                seen_by(r, "classic-worker")
            );
            ensure!(
                seen_by(r, "quorum-worker") == quorum,
                "quorum: {:?}",
                seen_by(r, "quorum-worker")
            );
            let redelivered: Vec<&Value> = list(r, "deliveries")
                .iter()
                .filter(|d| d["redelivered"] == true)
                .collect();
            ensure!(
                redelivered.len() == 2 && redelivered.iter().all(|d| d["body"] == "task-1"),
                "redelivered: {redelivered:?}"
            );
            let qq = redelivered
                .iter()
                .find(|d| d["queue"] == "task.quorum.queue")
                .ok_or("no quorum redelivery")?;
            ensure!(
                qq["headers"]["x-delivery-count"] == 1,
                "quorum redelivery carries x-delivery-count 1: {qq}"
            );
            Ok(())
        }
        "bad-expiration-values" => {
            let errs = list(r, "errors");
            let got: Vec<(u64, u64, &str)> = errs
                .iter()
                .map(|e| {
                    (
                        u(&e["at_ms"]),
                        u(&e["code"]),
                        e["text"].as_str().unwrap_or(""),
                    )
                })
                .collect();
            let want = [
                (0, "invalid expiration 'abc': no_integer"),
                (1_000, "invalid expiration '-1': {value_negative,-1}"),
                (2_000, "invalid expiration '1.5': {leftover_string,\".5\"}"),
                (3_000, "invalid expiration '': no_integer"),
                (4_000, "invalid expiration ' 500': no_integer"),
                (
                    5_000,
                    "invalid expiration '315360000001': {value_too_large,315360000001}",
                ),
                (
                    10_000,
                    "invalid arg 'x-message-ttl' for queue 'order.delay.string-ttl.queue'",
                ),
            ];
            ensure!(got.len() == want.len(), "errors: {got:?}");
            for ((at, code, text), (want_at, want_text)) in got.iter().zip(want) {
                ensure!(
                    *at == want_at
                        && *code == 406
                        && text.starts_with("PRECONDITION_FAILED - ")
                        && text.contains(want_text),
                    "error {text:?} at {at}, expected {want_text:?} at {want_at}"
                );
            }
            ensure!(
                errs.iter().all(|e| e["scope"] == "channel"),
                "a bad expiration closes the channel only"
            );
            delivered_at(r, "exp-plus", 6_500, 0)?;
            delivered_at(r, "exp-leading-zero", 7_500, 0)?;
            ensure!(
                the_delivery(r, "exp-plus")?["headers"]["x-death"][0]["original-expiration"]
                    == "+500",
                "3.10 keeps the original string"
            );
            ensure!(
                list(r, "deliveries").len() == 2 && list(r, "dropped").is_empty(),
                "refused publishes appear only in errors"
            );
            Ok(())
        }
        "dead-letter-cycle" => {
            ensure!(
                drops(r) == owned3(&[("recheck-1", 10_000, "dead_letter_cycle")]),
                "dropped: {:?}",
                drops(r)
            );
            ensure!(
                deliveries_of(r, "recheck-1").is_empty(),
                "the cycle is cut at the first hop"
            );
            delivered_at(r, "retry-1", 10_000, 0)?;
            queues_empty(r)
        }
        // The order-timeout lab: the outcome counters carry the lesson.
        "orders-naive-closes-paid" => {
            let o = &r["orders"];
            ensure!(
                u(&o["paid_closed"]) > 0 && o["paid_closed"] == o["paid"],
                "every paid order closed: {o}"
            );
            ensure!(
                u(&o["stock_double_released"]) == u(&o["canceled"]),
                "canceled orders released twice: {o}"
            );
            Ok(())
        }
        "orders-safe-consumer-faults" => {
            let o = &r["orders"];
            ensure!(u(&o["faults_injected"]) > 0, "faults were injected: {o}");
            ensure!(
                o["paid_closed"] == 0 && o["stock_double_released"] == 0 && o["never_closed"] == 0,
                "no mistake: {o}"
            );
            Ok(())
        }
        "orders-plugin-node-lost" => {
            ensure!(
                u(&r["orders"]["never_closed"]) > 0,
                "orders left open: {}",
                r["orders"]
            );
            ensure!(
                drops(r).iter().any(|d| d.2 == "node_lost"),
                "close messages lost with the node"
            );
            Ok(())
        }
        "orders-plugin-node-lost-compensated" => {
            let o = &r["orders"];
            ensure!(
                o["never_closed"] == 0 && u(&o["closed_by_scan"]) > 0 && u(&o["rows_scanned"]) > 0,
                "the scan closes them: {o}"
            );
            ensure!(
                u(&o["close_lateness_ms"]["max"]) <= 300_000,
                "within one scan period: {o}"
            );
            Ok(())
        }
        "orders-reminder-then-close" => {
            let o = &r["orders"];
            ensure!(
                u(&o["reminders_sent"]) > 0 && o["reminders_to_paid"] == 0,
                "reminders only to waiting orders: {o}"
            );
            ensure!(
                u(&o["paid_closed"]) > 0,
                "check_state's read-update window: {o}"
            );
            Ok(())
        }
        "upgrade-to-4-3-delayed-orders" => {
            // D27: the plugin's messages are lost at the upgrade, then publishes fail.
            ensure!(
                list(r, "deliveries").is_empty(),
                "nothing is ever delivered"
            );
            let lost: Vec<&Value> = list(r, "dropped")
                .iter()
                .filter(|d| d["reason"] == "plugin_removed" && d["at_ms"] == 630_000)
                .collect();
            ensure!(lost.len() == 3, "three orders lost at 10:30: {lost:?}");
            let errors = list(r, "errors");
            ensure!(
                errors.len() == 2
                    && errors[0]["text"].as_str().is_some_and(|t| t.contains(
                        "Cannot route message through exchange 'order.delayed.exchange'"
                    )),
                "406 at the publish, then at the re-declare: {errors:?}"
            );
            Ok(())
        }
        "after-plugin-delays-on-4-3" => {
            for (body, at) in [
                ("B-level", 360_000),
                ("B-cascade", 360_000),
                ("A-level", 1_800_000),
                ("A-cascade", 1_800_000),
            ] {
                delivered_at(r, body, at, 0)?;
            }
            let a = the_delivery(r, "A-cascade")?;
            let hops = a["headers"]["x-death"].as_array().map_or(0, Vec::len);
            ensure!(
                hops == 4,
                "A-cascade passes 4 levels (16+8+4+2 min): {hops}"
            );
            queues_empty(r)
        }
        "poison-message-3-10-vs-4-0" => {
            let ds = list(r, "deliveries");
            let work = ds.iter().filter(|d| d["queue"] == "orders.work").count();
            ensure!(
                work == 21,
                "4.0: 21 deliveries before the limit, got {work}"
            );
            let parked = ds.iter().find(|d| d["queue"] == "orders.parked");
            ensure!(
                parked.is_some_and(|d| d["headers"]["x-death"][0]["reason"] == "delivery_limit"
                    && d["delivered_at_ms"] == 21_000),
                "dead-lettered at 0:21 as delivery_limit: {parked:?}"
            );
            Ok(())
        }
        "qq-delivery-time-4-4" => {
            let at = |queue: &str, body: &str| -> Vec<u64> {
                list(r, "deliveries")
                    .iter()
                    .filter(|d| d["queue"] == queue && d["body"] == body)
                    .map(|d| u(&d["delivered_at_ms"]))
                    .collect()
            };
            let qq = "order.close.qq";
            ensure!(
                at(qq, "order-C (10 s)") == [10_000]
                    && at(qq, "order-B (5 min)") == [300_000]
                    && at(qq, "order-A (30 min)") == [1_800_000],
                "4.4 holds each until its own time: {:?}",
                list(r, "deliveries")
            );
            let classic = "order.close.classic";
            ensure!(
                ["order-A (30 min)", "order-B (5 min)", "order-C (10 s)"]
                    .iter()
                    .all(|b| at(classic, b) == [0]),
                "classic queues never read it"
            );
            queues_empty(r)
        }
        "retry-backoff-4-3" => {
            let times = |body: &str| -> Vec<u64> {
                list(r, "deliveries")
                    .iter()
                    .filter(|d| d["body"] == body)
                    .map(|d| u(&d["delivered_at_ms"]))
                    .collect()
            };
            ensure!(
                times("order-new") == [0, 2_000, 6_000, 12_000],
                "delayed retry: {:?}",
                times("order-new")
            );
            ensure!(
                times("order-old") == [0, 2_000, 4_000, 6_000],
                "TTL loop: {:?}",
                times("order-old")
            );
            queues_empty(r)
        }
        "x-death-3-13-republished" => {
            let d = the_delivery(r, "order-1-again")?;
            let h = &d["headers"];
            ensure!(
                h["x-death"][0]["count"] == 1 && h["x-last-death-queue"] == "order.wait",
                "4.x replaces a client x-death and adds x-last-death-*: {h}"
            );
            Ok(())
        }
        // A preset added later without a lesson here is still loaded, run and compared.
        _ => Ok(()),
    }
}

/// The wasm copy of this test embeds the presets by name: it must list every one.
#[test]
fn wasm_golden_lists_every_preset() {
    let wasm_test =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/wasm_golden.rs"))
            .unwrap();
    for (stem, _) in presets() {
        assert!(
            wasm_test.contains(&format!("preset!(\"{stem}\")")),
            "tests/wasm_golden.rs does not list the preset {stem}"
        );
    }
}
