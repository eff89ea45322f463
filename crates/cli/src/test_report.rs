//! What `delaylab test` prints, one line (or test case) per check: `text` for people,
//! `tap` (TAP version 13), `junit` (JUnit XML: one testsuite per scenario and version,
//! one testcase per check, a failure with its message, a check a live broker cannot
//! decide as skipped) for a CI's test report, `json` for programs.

use std::fmt::Write;

use clap::ValueEnum;
use serde_json::{json, Value};

use delaylab_engine::checks::spec::Check;
use delaylab_engine::checks::{json as check_json, text, CheckState};

use crate::test::{verdict, Run, Verdict};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TestFormat {
    Text,
    Tap,
    Junit,
    Json,
}

pub fn write(format: TestFormat, runs: &[Run]) -> String {
    match format {
        TestFormat::Text => text_report(runs),
        TestFormat::Tap => tap(runs),
        TestFormat::Junit => junit(runs),
        TestFormat::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&json_report(runs)).expect("json")
        ),
    }
}

/// (passed, failed, skipped) over some states; a check not expected on its run's
/// version counts as skipped (see [`not_expected`]).
fn tally<'a>(states: impl IntoIterator<Item = &'a CheckState>) -> (usize, usize, usize) {
    let mut t = (0, 0, 0);
    for s in states {
        match verdict(s) {
            Verdict::Pass => t.0 += 1,
            Verdict::Fail => t.1 += 1,
            Verdict::Skip | Verdict::NotExpected => t.2 += 1,
        }
    }
    t
}

/// How many of some states are not expected on their run's version.
fn not_expected<'a>(states: impl IntoIterator<Item = &'a CheckState>) -> usize {
    states
        .into_iter()
        .filter(|s| verdict(s) == Verdict::NotExpected)
        .count()
}

/// A check's outcome as reports say it: for a check not expected on this run's version,
/// where it is expected and what this run saw ("not expected on 4.3 (expected on 4.0,
/// 4.1, 4.2): failed at ..."); a passed `failure` check says the failure was reproduced.
fn outcome(r: &Run, i: usize, c: &Check, s: &CheckState) -> String {
    let said = text::outcome(c, s);
    if verdict(s) == Verdict::NotExpected {
        let on: Vec<&str> = r
            .scenario
            .check_expected_on(i)
            .iter()
            .map(|v| v.as_str())
            .collect();
        return format!(
            "not expected on {} (expected on {}): {said}",
            r.version,
            on.join(", ")
        );
    }
    if c.failure && verdict(s) == Verdict::Pass {
        return format!("the failure, reproduced: {said}");
    }
    said
}

fn checks_of(r: &Run) -> impl Iterator<Item = (usize, &Check, &CheckState)> {
    r.scenario
        .checks
        .iter()
        .zip(&r.states)
        .enumerate()
        .map(|(i, (c, s))| (i, c, s))
}

/// "scenarios/x.json on RabbitMQ 4.3" (live: "... on the live broker amqp://...").
fn run_title(r: &Run) -> String {
    match &r.live {
        None => format!("{} on RabbitMQ {}", r.file, r.version),
        Some(url) => format!(
            "{} on the live broker {url} (RabbitMQ {})",
            r.file, r.version
        ),
    }
}

/// The file's name without its folder and `.json`, and the version: `x@4.3`.
fn short(r: &Run) -> String {
    let name = r.file.rsplit('/').next().unwrap_or(&r.file);
    let stem = name.strip_suffix(".json").unwrap_or(name);
    let live = if r.live.is_some() { ",live" } else { "" };
    format!("{stem}@{}{live}", r.version)
}

fn text_report(runs: &[Run]) -> String {
    let mut out = String::new();
    for r in runs {
        let _ = writeln!(out, "{}: {}", run_title(r), r.scenario.name);
        if let Some(n) = &r.note {
            let _ = writeln!(out, "  note: {n}");
        }
        for (i, c, s) in checks_of(r) {
            let mark = match verdict(s) {
                Verdict::Pass => "pass",
                Verdict::Fail => "FAIL",
                Verdict::Skip => "skip",
                Verdict::NotExpected => "n/a ",
            };
            let _ = writeln!(
                out,
                "  {mark}  {}: {}: {}",
                c.id(i),
                c.label,
                outcome(r, i, c, s)
            );
        }
    }
    let (p, f, s) = tally(runs.iter().flat_map(|r| &r.states));
    let n = not_expected(runs.iter().flat_map(|r| &r.states));
    let checks = p + f + s;
    let of_which = if n > 0 {
        format!(" ({n} not expected on the version run)")
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "{} run(s), {checks} check(s): {p} passed, {f} failed, {s} skipped{of_which}",
        runs.len()
    );
    out
}

/// A TAP description: no `#` (it would start a directive), on one line.
fn tap_text(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('#', "\\#")
        .replace('\n', " ")
}

fn tap(runs: &[Run]) -> String {
    let total: usize = runs.iter().map(|r| r.states.len()).sum();
    let mut out = format!("TAP version 13\n1..{total}\n");
    let mut n = 0;
    for r in runs {
        let _ = writeln!(out, "# {}", tap_text(&run_title(r)));
        if let Some(note) = &r.note {
            let _ = writeln!(out, "# note: {}", tap_text(note));
        }
        for (i, c, s) in checks_of(r) {
            n += 1;
            let desc = tap_text(&format!("{} {}: {}", short(r), c.id(i), c.label));
            match verdict(s) {
                Verdict::Pass => {
                    let _ = writeln!(out, "ok {n} - {desc}");
                }
                Verdict::Skip | Verdict::NotExpected => {
                    let _ = writeln!(
                        out,
                        "ok {n} - {desc} # SKIP {}",
                        tap_text(&outcome(r, i, c, s))
                    );
                }
                Verdict::Fail => {
                    let _ = writeln!(out, "not ok {n} - {desc}");
                    // A YAML block; JSON strings are YAML strings.
                    let _ = writeln!(out, "  ---");
                    let _ = writeln!(out, "  message: {}", json!(text::outcome(c, s)));
                    let _ = writeln!(out, "  expected: {}", json!(text::expected(c)));
                    let _ = writeln!(out, "  seen: {}", json!(text::seen(c, s)));
                    if let Some(t) = s.at_ms {
                        let _ = writeln!(out, "  at_ms: {t}");
                    }
                    let _ = writeln!(out, "  ...");
                }
            }
        }
    }
    out
}

/// Text for XML: `&`, `<`, `>`, `"`, `'` escaped; characters XML 1.0 cannot hold
/// (most control characters, from a message body) replaced by U+FFFD.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(ch),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

fn junit(runs: &[Run]) -> String {
    let (p, f, s) = tally(runs.iter().flat_map(|r| &r.states));
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"delaylab test\" tests=\"{}\" failures=\"{f}\" skipped=\"{s}\">",
        p + f + s
    );
    for r in runs {
        let (_, rf, rs) = tally(&r.states);
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{rf}\" errors=\"0\" skipped=\"{rs}\" time=\"{:.3}\">",
            xml_escape(&format!("{} ({})", run_title(r), r.scenario.name)),
            r.states.len(),
            r.wall_ms / 1000.0
        );
        if let Some(note) = &r.note {
            let _ = writeln!(
                out,
                "    <properties><property name=\"note\" value=\"{}\"/></properties>",
                xml_escape(note)
            );
        }
        for (i, c, st) in checks_of(r) {
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"0\"",
                xml_escape(&short(r)),
                xml_escape(&format!("{}: {}", c.id(i), c.label))
            );
            match verdict(st) {
                Verdict::Pass => out.push_str("/>\n"),
                Verdict::Skip | Verdict::NotExpected => {
                    let _ = writeln!(
                        out,
                        ">\n      <skipped message=\"{}\"/>\n    </testcase>",
                        xml_escape(&outcome(r, i, c, st))
                    );
                }
                Verdict::Fail => {
                    let _ = writeln!(
                        out,
                        ">\n      <failure message=\"{}\" type=\"check\">expected: {}\nseen: {}</failure>\n    </testcase>",
                        xml_escape(&text::outcome(c, st)),
                        xml_escape(&text::expected(c)),
                        xml_escape(&text::seen(c, st))
                    );
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

fn json_report(runs: &[Run]) -> Value {
    let (p, f, s) = tally(runs.iter().flat_map(|r| &r.states));
    let list: Vec<Value> = runs
        .iter()
        .map(|r| {
            let (rp, rf, rs) = tally(&r.states);
            json!({
                "file": r.file,
                "scenario": r.scenario.name,
                "broker": r.version.as_str(),
                "live": r.live,
                "note": r.note,
                "passed": rp, "failed": rf, "skipped": rs,
                "not_expected": not_expected(&r.states),
                "wall_ms": (r.wall_ms * 1000.0).round() / 1000.0,
                "checks": check_json::states_json(&r.scenario.checks, &r.states),
            })
        })
        .collect();
    let n = not_expected(runs.iter().flat_map(|r| &r.states));
    json!({"runs": list, "passed": p, "failed": f, "skipped": s, "not_expected": n})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escape_keeps_xml_well_formed() {
        assert_eq!(xml_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(xml_escape("x\u{1}y\tz"), "x\u{FFFD}y\tz");
    }

    #[test]
    fn tap_text_has_no_directive() {
        assert_eq!(tap_text("order #1\nok"), "order \\#1 ok");
    }
}
