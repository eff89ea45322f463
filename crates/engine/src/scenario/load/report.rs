//! `report`: the public report a preset replays, or the failure preset a fix answers
//! (`scenario::FieldReport`). What the page's "From the field" lists; the run ignores it.
//!
//! ```json
//! "report": {"project": "spring-amqp", "date": "2026-05-08",
//!            "links": ["https://github.com/spring-projects/spring-amqp/issues/3435"],
//!            "saw": "...", "rule": "...", "fix": "field-spring-amqp-nack-multiple-fix"}
//! "report": {"fixes": "field-spring-amqp-nack-multiple"}
//! ```

use super::errors::{fail, index, R};
use super::json::{as_obj, Obj};
use crate::scenario::model::{FieldReport, ReportedFailure};

/// At most this many links a report lists.
pub const MAX_REPORT_LINKS: usize = 8;
/// At most this many bytes in `saw` or `rule` (a sentence or two, not an article).
pub const MAX_REPORT_TEXT_BYTES: usize = 600;

pub(super) fn report(root: &Obj) -> R<Option<FieldReport>> {
    let Some(v) = root.get("report") else {
        return Ok(None);
    };
    let r = as_obj(v, root.p("report"))?;
    if r.get("fixes").is_some() {
        r.check_keys(&["fixes"])?;
        return Ok(Some(FieldReport::Fix {
            fixes: preset_id(&r, "fixes")?,
        }));
    }
    r.check_keys(&["project", "date", "links", "saw", "rule", "fix"])?;
    let date = r.str_req("date")?;
    if !is_date(&date) {
        return fail(
            r.p("date"),
            format!("\"{date}\" is not a date as YYYY-MM-DD"),
        );
    }
    let items = r.array("links")?;
    if items.is_empty() || items.len() > MAX_REPORT_LINKS {
        return fail(
            r.p("links"),
            format!(
                "1 to {MAX_REPORT_LINKS} links (MAX_REPORT_LINKS), the report first; found {}",
                items.len()
            ),
        );
    }
    let mut links = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let p = index(&r.p("links"), i);
        match item.as_str() {
            Some(s) if s.starts_with("https://") && !s.contains(char::is_whitespace) => {
                links.push(s.to_string())
            }
            _ => return fail(p, "an https:// address"),
        }
    }
    Ok(Some(FieldReport::Failure(ReportedFailure {
        project: nonempty(&r, "project", 100)?,
        date,
        links,
        saw: nonempty(&r, "saw", MAX_REPORT_TEXT_BYTES)?,
        rule: nonempty(&r, "rule", MAX_REPORT_TEXT_BYTES)?,
        fix: preset_id(&r, "fix")?,
    })))
}

fn nonempty(r: &Obj, key: &str, max: usize) -> R<String> {
    let s = r.str_req(key)?;
    if s.trim().is_empty() || s.len() > max {
        return fail(r.p(key), format!("1 to {max} bytes of text"));
    }
    Ok(s)
}

/// A preset's id: a file name in `scenarios/` without `.json`.
fn preset_id(r: &Obj, key: &str) -> R<String> {
    let s = r.str_req(key)?;
    let ok = !s.is_empty()
        && s.len() <= 100
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(s)
    } else {
        Err(super::errors::error(
            r.p(key),
            "a preset's id: lower-case letters, digits and -, as its file name without .json",
        ))
    }
}

fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && digits(0..4)
        && digits(5..7)
        && digits(8..10)
        && (1..=12).contains(&s[5..7].parse::<u8>().unwrap_or(0))
        && (1..=31).contains(&s[8..10].parse::<u8>().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use crate::scenario::load::tests::{assert_err, ok};
    use crate::scenario::model::*;
    use serde_json::json;

    fn failure() -> serde_json::Value {
        json!({"project": "celery", "date": "2021-05-10",
               "links": ["https://github.com/celery/celery/issues/6760"],
               "saw": "The worker died.", "rule": "consumer_timeout.", "fix": "field-x-fix"})
    }

    #[test]
    fn a_failure_and_a_fix() {
        let s = ok(json!({"report": failure()}));
        let Some(FieldReport::Failure(f)) = s.report else {
            panic!("a failure")
        };
        assert_eq!(
            (f.project.as_str(), f.fix.as_str()),
            ("celery", "field-x-fix")
        );
        let s = ok(json!({"report": {"fixes": "field-x"}}));
        assert_eq!(
            s.report,
            Some(FieldReport::Fix {
                fixes: "field-x".into()
            })
        );
        assert_eq!(ok(json!({})).report, None);
    }

    #[test]
    fn bad_reports_name_their_field() {
        let with = |k: &str, v: serde_json::Value| {
            let mut r = failure();
            r[k] = v;
            json!({ "report": r })
        };
        assert_err(
            with("date", json!("2021-13-01")),
            "report.date",
            "not a date",
        );
        assert_err(
            with("date", json!("10/05/2021")),
            "report.date",
            "not a date",
        );
        assert_err(with("links", json!([])), "report.links", "1 to 8 links");
        assert_err(
            with("links", json!(["http://x"])),
            "report.links[0]",
            "https://",
        );
        assert_err(with("saw", json!(" ")), "report.saw", "1 to 600 bytes");
        assert_err(with("fix", json!("Field X")), "report.fix", "preset's id");
        assert_err(with("why", json!("x")), "report.why", "unknown field");
        assert_err(
            json!({"report": {"fixes": "a", "project": "p"}}),
            "report.project",
            "unknown field",
        );
        assert_err(json!({"report": "x"}), "report", "an object");
    }
}
