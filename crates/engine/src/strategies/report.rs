//! The comparison as JSON (`delaylab compare --format json`, the playground's export)
//! and as an aligned text table.
//!
//! ```text
//! strategy          works on  late mean  p99    max    lost  rows scanned  objects  peak stored  work/task
//! polling-scan      3.10-4.4  29.9s      59.4s  59.9s  0     1.2e9         0        98,811       6,020 rows
//! plugin            3.10-4.2  0ms        0ms    0ms    0     0             2        98,811       5.0 events
//! qq-delivery-time  4.4       0ms        0ms    0ms    0     0             1        98,811       4.0 events
//! ```

use serde_json::{json, Map, Value};

use super::StrategyResult;

pub fn to_json(results: &[StrategyResult]) -> Value {
    Value::Array(results.iter().map(result_json).collect())
}

pub fn result_json(r: &StrategyResult) -> Value {
    let facts: Map<String, Value> = r
        .facts
        .iter()
        .map(|(k, v)| ((*k).to_string(), json!(v)))
        .collect();
    let mut o = json!({
        "name": r.name,
        "params": r.params,
        "tasks": r.tasks,
        "delivered": r.delivered,
        "lateness_ms": {"mean": round1(r.lateness.mean_ms), "p99": r.lateness.p99_ms, "max": r.lateness.max_ms},
        "lost": r.lost,
        "early": r.early,
        "rows_scanned": r.rows_scanned,
        "broker_objects": r.broker_objects,
        "peak_stored": r.peak_stored,
        "work_per_task": (r.work_per_task * 100.0).round() / 100.0,
        "work_unit": r.work_unit,
        "facts": facts,
        "works_on_4_3": super::works_on(r.name, crate::version::BrokerVersion::V4_3),
        "works_on": super::works_on_versions(r.name).iter().map(|v| v.as_str()).collect::<Vec<_>>(),
    });
    if let Some(why) = &r.not_applicable {
        o["not_applicable"] = json!(why);
    }
    o
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// A duration for people: `850ms`, `12.5s`, `29.8m`, `1.97h`; negative when early.
pub fn human_ms(ms: f64) -> String {
    let (sign, a) = if ms < 0.0 { ("-", -ms) } else { ("", ms) };
    let body = if a < 1_000.0 {
        format!("{a:.0}ms")
    } else if a < 60_000.0 {
        format!("{:.1}s", a / 1_000.0)
    } else if a < 3_600_000.0 {
        format!("{:.1}m", a / 60_000.0)
    } else {
        format!("{:.2}h", a / 3_600_000.0)
    };
    format!("{sign}{body}")
}

/// `1,234,567`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The rows of the table as cells (the playground renders the same cells).
pub fn row_cells(r: &StrategyResult) -> Vec<String> {
    if let Some(why) = &r.not_applicable {
        return vec![r.name.to_string(), format!("not applicable: {why}")];
    }
    let mut cells = vec![r.name.to_string()];
    cells.extend(figure_cells(r, human_ms));
    cells.push(format!("{:.1} {}", r.work_per_task, r.work_unit));
    cells.push(r.params.clone());
    cells
}

/// The numeric cells, lateness mean / p99 / max (written by `human`) to peak stored,
/// shared with the playground, which writes the durations in its own language.
pub fn figure_cells(r: &StrategyResult, human: impl Fn(f64) -> String) -> [String; 7] {
    // Nothing fired: no lateness to show (every task was lost).
    let late = |ms: f64| {
        if r.delivered == 0 {
            "-".to_string()
        } else {
            human(ms)
        }
    };
    [
        late(r.lateness.mean_ms),
        late(r.lateness.p99_ms as f64),
        late(r.lateness.max_ms as f64),
        grouped(r.lost),
        grouped(r.rows_scanned),
        grouped(r.broker_objects),
        grouped(r.peak_stored),
    ]
}

pub const HEADERS: [&str; 10] = [
    "strategy",
    "late mean",
    "p99",
    "max",
    "lost",
    "rows scanned",
    "objects",
    "peak stored",
    "work/task",
    "parameters",
];

/// The CLI table's extra column, after the strategy's name: the RabbitMQ versions it
/// runs on at all (the delayed-message plugin up to 4.2, D27; a quorum queue's
/// `x-opt-delivery-time` from 4.4, D34).
pub const WORKS_ON: &str = "works on";

pub fn text_table(results: &[StrategyResult]) -> String {
    let headers: Vec<String> = std::iter::once(HEADERS[0])
        .chain(std::iter::once(WORKS_ON))
        .chain(HEADERS[1..].iter().copied())
        .map(String::from)
        .collect();
    let rows: Vec<Vec<String>> = results
        .iter()
        .map(|r| {
            let mut cells = row_cells(r);
            cells.insert(1, super::works_on_text(r.name));
            cells
        })
        .collect();
    let full = headers.len();
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows.iter().filter(|r| r.len() == full) {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        padded.join("  ").trim_end().to_string()
    };
    let mut out = line(&headers);
    out.push('\n');
    for row in &rows {
        if row.len() == full {
            out.push_str(&line(row));
        } else {
            out.push_str(&format!(
                "{:<w0$}  {:<w1$}  {}",
                row[0],
                row[1],
                row[2],
                w0 = widths[0],
                w1 = widths[1]
            ));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_durations_and_grouping() {
        assert_eq!(human_ms(850.0), "850ms");
        assert_eq!(human_ms(12_500.0), "12.5s");
        assert_eq!(human_ms(-3_600_000.0), "-1.00h");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(grouped(12), "12");
    }

    #[test]
    fn works_on_is_a_range_of_versions() {
        use crate::strategies::works_on_text;
        assert_eq!(works_on_text("polling-scan"), "3.10-4.4");
        assert_eq!(works_on_text("plugin"), "3.10-4.2");
        assert_eq!(works_on_text("qq-delivery-time"), "4.4");
    }
}
