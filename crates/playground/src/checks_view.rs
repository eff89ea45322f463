//! The Checks panel's view model: each of the scenario's checks with its label and where
//! it stands now (pending; passed at T; failed at T with the figure seen beside what was
//! expected; undecided, with why), in the page's language, from the current runner's
//! evaluator (`checks_run.rs`). The panel only draws this.
//!
//! ```text
//! head-of-line at 10:00, in English:
//!   ✗ B is closed by 6:00     failed at 0:06:00.000   saw no such delivery; expected B delivered by 0:06:00.000   [open B's story]
//!   ✓ one order overdue       passed at 0:06:00.000
//!   … nothing dead-lettered   pending                 expected never: a message dead-lettered (reason delivery_limit)
//! ```

use delaylab_engine::checks::{Check, CheckState, Status};
use delaylab_engine::report::text::clock;

use crate::checks_elsewhere::Elsewhere;
use crate::checks_run::PageChecks;
use crate::i18n::Lang;
use crate::impact_words;
use crate::{checks_words, zh_texts};

/// One check, for drawing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckRow {
    /// The check's `name`, or `check-<n>` (what the embed's `checks` message calls it).
    pub id: String,
    /// The scenario's plain words for it (a preset's in Chinese when the page is:
    /// `checks_zh`).
    pub label: String,
    pub status: Status,
    /// Where it stands: "pending", "passed at 0:30:00.000", "failed at 0:06:00.000", ...
    pub state: String,
    /// What it expects.
    pub expected: String,
    /// What the run showed, beside the bound: only once it failed (a pending check's
    /// figure is not final; a passed one's is what was expected).
    pub seen: Option<String>,
    /// Why it cannot be decided.
    pub why: Option<String>,
    /// The message a failed check is about (the late one, the one out of order, the one
    /// dead-lettered), for the page to open its story, with its body.
    pub msg: Option<(u32, String)>,
    /// The check states what goes wrong (`failure: true`): passed, it is "the failure,
    /// reproduced", not "all good".
    pub failure: bool,
    /// Not expected on this run's version: where it is, and what this run saw
    /// ("expected on 4.0–4.2 · on 4.3: saw no such dead-lettering"). Never a red failure.
    pub elsewhere: Option<String>,
    /// For such a check, the rules that differ here for what it names, in words.
    pub differs: Vec<String>,
}

/// The whole panel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChecksView {
    pub rows: Vec<CheckRow>,
    pub passed: usize,
    pub failed: usize,
    pub pending: usize,
    pub undecided: usize,
    /// Checks not expected on this run's version (not counted above).
    pub elsewhere: usize,
    /// The checks are decided for good (the run reached its `until`, or stopped).
    pub finished: bool,
    /// The scenario has no `until`: a check that needs the run's end stays pending.
    pub no_end: bool,
}

impl ChecksView {
    pub fn of(pc: &PageChecks, lang: Lang) -> ChecksView {
        let mut v = ChecksView {
            finished: pc.is_finished(),
            no_end: pc.until_ms().is_none(),
            ..ChecksView::default()
        };
        let none = None;
        for (i, (c, s)) in pc.checks().iter().zip(pc.states()).enumerate() {
            let elsewhere = pc.elsewhere().get(i).unwrap_or(&none);
            match (s.status, elsewhere) {
                (_, Some(_)) => v.elsewhere += 1,
                (Status::Pending, _) => v.pending += 1,
                (Status::Passed, _) => v.passed += 1,
                (Status::Failed, _) => v.failed += 1,
                (Status::Undecided, _) => v.undecided += 1,
            }
            v.rows.push(row(i, c, s, elsewhere.as_ref(), lang));
        }
        v
    }

    /// "2 passed, 1 failed, 3 pending" (the counts that are not zero).
    pub fn summary(&self, lang: Lang) -> String {
        let parts = [
            (self.passed, "passed", "项通过"),
            (self.failed, "failed", "项失败"),
            (self.pending, "pending", "项待定"),
            (self.undecided, "undecided", "项无法判定"),
            (
                self.elsewhere,
                "expected on other versions",
                "项适用于其他版本",
            ),
        ];
        let words: Vec<String> = parts
            .iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|(n, en, zh)| match lang {
                Lang::En => format!("{n} {en}"),
                Lang::Zh => format!("{n} {zh}"),
            })
            .collect();
        words.join(if lang == Lang::Zh { "," } else { ", " })
    }
}

fn row(
    index: usize,
    c: &Check,
    s: &CheckState,
    elsewhere: Option<&Elsewhere>,
    lang: Lang,
) -> CheckRow {
    let at = s.at_ms.map(clock).unwrap_or_default();
    let reproduced = c.failure && s.status == Status::Passed;
    let state = match (s.status, lang) {
        _ if elsewhere.is_some() => String::new(),
        (Status::Passed, Lang::En) if reproduced => format!("the failure, reproduced at {at}"),
        (Status::Passed, Lang::Zh) if reproduced => format!("问题在 {at} 重现"),
        (Status::Pending, Lang::En) => "pending".to_string(),
        (Status::Pending, Lang::Zh) => "待定".to_string(),
        (Status::Passed, Lang::En) => format!("passed at {at}"),
        (Status::Passed, Lang::Zh) => format!("在 {at} 通过"),
        (Status::Failed, Lang::En) => format!("failed at {at}"),
        (Status::Failed, Lang::Zh) => format!("在 {at} 失败"),
        (Status::Undecided, Lang::En) => "cannot be decided".to_string(),
        (Status::Undecided, Lang::Zh) => "无法判定".to_string(),
    };
    let failed = s.status == Status::Failed && elsewhere.is_none();
    CheckRow {
        id: c.id(index),
        label: match lang {
            Lang::Zh => zh_texts::check_label(&c.label)
                .unwrap_or(&c.label)
                .to_string(),
            Lang::En => c.label.clone(),
        },
        status: s.status,
        state,
        expected: checks_words::expected(lang, c),
        seen: failed.then(|| checks_words::seen(lang, c, s)),
        why: s
            .undecided
            .as_ref()
            .map(|u| checks_words::undecided(lang, u)),
        msg: s
            .msg
            .filter(|_| failed || (elsewhere.is_some() && s.status == Status::Failed))
            .map(|id| (id, s.body.clone().unwrap_or_default())),
        failure: c.failure,
        elsewhere: elsewhere.map(|e| elsewhere_text(lang, e, c, s)),
        differs: elsewhere.map_or_else(Vec::new, |e| {
            e.differs
                .iter()
                .map(|i| impact_words::words(lang, i, e.here))
                .collect()
        }),
    }
}

/// "expected on 4.0–4.2 · on 4.3: saw no such dead-lettering (0:00:21.000)".
fn elsewhere_text(lang: Lang, e: &Elsewhere, c: &Check, s: &CheckState) -> String {
    let on = impact_words::versions_text(&e.on);
    let at = s.at_ms.map(clock).unwrap_or_default();
    let here = e.here;
    let outcome = match (s.status, lang) {
        (Status::Failed, Lang::En) => format!("saw {} ({at})", checks_words::seen(lang, c, s)),
        (Status::Failed, Lang::Zh) => format!("实际为 {}({at})", checks_words::seen(lang, c, s)),
        (Status::Passed, Lang::En) => format!("it holds here too ({at})"),
        (Status::Passed, Lang::Zh) => format!("在这里也成立({at})"),
        (Status::Pending, Lang::En) => "pending".into(),
        (Status::Pending, Lang::Zh) => "待定".into(),
        (Status::Undecided, Lang::En) => "cannot be decided".into(),
        (Status::Undecided, Lang::Zh) => "无法判定".into(),
    };
    match lang {
        Lang::En => format!("expected on {on} · on {here}: {outcome}"),
        Lang::Zh => format!("预期适用于 {on} · 在 {here} 上:{outcome}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use delaylab_engine::scenario::load_str;
    use delaylab_engine::Sim;

    /// The head-of-line pair (A 30 min at 0:00, B 5 min at 1:00), with checks of each
    /// common kind.
    const HOL: &str = r#"{"version": 1, "name": "hol", "until": "40m",
      "topology": {"exchanges": [{"name": "dlx", "type": "fanout"}],
        "queues": [{"name": "wait", "arguments": {"x-dead-letter-exchange": "dlx"}}, {"name": "due"}],
        "bindings": [{"source": "dlx", "destination": "due", "routing_key": ""}]},
      "consumers": [{"name": "closer", "queue": "due", "ack": "auto"}],
      "actions": [
        {"at": 0, "publish": {"routing_key": "wait", "body": "A", "properties": {"expiration": "1800000"}}},
        {"at": "1m", "publish": {"routing_key": "wait", "body": "B", "properties": {"expiration": "300000"}}}],
      "checks": [
        {"name": "b-on-time", "label": "B is closed by 6:00", "delivered": {"body": "B", "by": "6m"}},
        {"label": "B is at most 1 s late", "lateness": {"body": "B", "at_most": "1s"}},
        {"label": "one overdue at 10:00", "depth": {"queue": "wait", "of": "overdue", "at": "10m", "equals": 1}},
        {"label": "A then B", "order": {"bodies": ["A", "B"]}},
        {"label": "nothing dropped", "dropped": {"never": true}}]}"#;

    fn at(ms: u64) -> (PageChecks, Sim) {
        let s = load_str(HOL).unwrap();
        let mut sim = Sim::new(&s);
        let mut pc = PageChecks::new(&s);
        crate::checks_run::tests::run_to(&mut sim, &mut pc, ms);
        (pc, sim)
    }

    #[test]
    fn at_the_start_every_check_is_pending_and_says_what_it_expects() {
        let (pc, _) = at(0);
        let v = ChecksView::of(&pc, Lang::En);
        assert_eq!(v.pending, 5);
        assert_eq!(v.summary(Lang::En), "5 pending");
        assert_eq!(v.summary(Lang::Zh), "5 项待定");
        let r = &v.rows[0];
        assert_eq!(
            (r.id.as_str(), r.label.as_str(), r.state.as_str()),
            ("b-on-time", "B is closed by 6:00", "pending")
        );
        assert_eq!(r.expected, "B delivered by 0:06:00.000");
        assert_eq!(r.seen, None);
        assert_eq!(v.rows[1].id, "check-2", "no name: its place");
        assert!(!v.finished && !v.no_end);
    }

    #[test]
    fn as_the_clock_moves_a_check_fails_with_the_figure_seen_and_its_message() {
        let (pc, _) = at(10 * 60_000);
        let v = ChecksView::of(&pc, Lang::En);
        let b = &v.rows[0];
        assert_eq!(b.status, Status::Failed);
        assert_eq!(b.state, "failed at 0:06:00.000");
        assert_eq!(b.seen.as_deref(), Some("no such delivery"));
        assert_eq!(v.rows[2].state, "passed at 0:10:00.000");
        assert_eq!(v.summary(Lang::En), "1 passed, 1 failed, 3 pending");
        // At 30:00 B is delivered 24 minutes late: the lateness check names B.
        let (pc, _) = at(30 * 60_000 + 1);
        let v = ChecksView::of(&pc, Lang::En);
        let late = &v.rows[1];
        assert_eq!(late.state, "failed at 0:30:00.000");
        assert_eq!(late.seen.as_deref(), Some("24m (B)"));
        assert_eq!(late.msg, Some((2, "B".to_string())), "B is message #2");
        assert_eq!(v.rows[3].state, "passed at 0:30:00.000");
    }

    #[test]
    fn at_until_everything_is_decided() {
        let (pc, _) = at(40 * 60_000);
        let v = ChecksView::of(&pc, Lang::En);
        assert!(v.finished);
        assert_eq!(v.pending, 0);
        assert_eq!(v.rows[4].state, "passed at 0:40:00.000");
        assert_eq!((v.passed, v.failed), (3, 2));
    }

    #[test]
    fn in_chinese() {
        let (pc, _) = at(31 * 60_000);
        let v = ChecksView::of(&pc, Lang::Zh);
        let b = &v.rows[0];
        assert_eq!(b.state, "在 0:06:00.000 失败");
        assert_eq!(b.expected, "在 0:06:00.000 或之前 B 被投递");
        assert_eq!(b.seen.as_deref(), Some("B 在 0:30:00.000 被投递"));
        assert_eq!(v.rows[1].expected, "B 的迟到至多为 1s");
        assert_eq!(
            v.rows[2].expected,
            "在 0:10:00.000 时,队列 wait 中 已超时(overdue) 的消息数恰好为 1"
        );
        assert_eq!(v.rows[3].expected, "最先的投递依次为 A、B");
        assert_eq!(v.rows[4].expected, "从不:一条消息 被丢弃");
        assert_eq!(v.summary(Lang::Zh), "2 项通过,2 项失败,1 项待定");
    }

    /// Issue 29 item 3: the poison message on 4.3: its 4.0 checks are expected on
    /// 4.0–4.2 and say what this run saw and the rule that differs (never red); its 4.3
    /// failure checks passed: the failure, reproduced.
    #[test]
    fn a_check_for_other_versions_says_where_and_what_this_run_saw() {
        let mut s = load_str(include_str!(
            "../../../scenarios/poison-message-3-10-vs-4-0.json"
        ))
        .unwrap();
        s.broker = Some(delaylab_engine::version::BrokerVersion::V4_3);
        let mut sim = Sim::new(&s);
        let mut pc = PageChecks::new(&s);
        crate::checks_run::tests::run_to(&mut sim, &mut pc, 30_000);
        let v = ChecksView::of(&pc, Lang::En);
        assert_eq!((v.failed, v.elsewhere), (0, 5));
        assert_eq!(
            v.summary(Lang::En),
            "2 passed, 5 expected on other versions"
        );
        let first = &v.rows[0];
        assert_eq!(
            first.elsewhere.as_deref(),
            Some("expected on 4.0–4.2 · on 4.3: saw 31 (0:00:21.000)")
        );
        assert_eq!(first.seen, None, "not a failure here");
        assert!(
            first
                .differs
                .iter()
                .any(|d| d.contains("basic.nack requeue=true no longer counts")),
            "{:?}",
            first.differs
        );
        let looping = &v.rows[5];
        assert!(looping.failure && looping.elsewhere.is_none());
        assert_eq!(looping.state, "the failure, reproduced at 0:00:30.000");
        let zh = ChecksView::of(&pc, Lang::Zh);
        assert_eq!(
            zh.rows[0].elsewhere.as_deref(),
            Some("预期适用于 4.0–4.2 · 在 4.3 上:实际为 31(0:00:21.000)")
        );
        assert_eq!(zh.rows[5].state, "问题在 0:00:30.000 重现");
    }

    #[test]
    fn a_scenario_without_until_says_so() {
        let mut v: serde_json::Value = serde_json::from_str(HOL).unwrap();
        v.as_object_mut().unwrap().remove("until");
        let s = delaylab_engine::scenario::load_value(&v).unwrap();
        let view = ChecksView::of(&PageChecks::new(&s), Lang::En);
        assert!(view.no_end);
    }
}
