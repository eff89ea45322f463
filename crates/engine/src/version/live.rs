//! What was checked against a live broker for one scenario on one version: the rules
//! the scenario uses (read from what it declares and does), and for each, the live
//! conformance cases that show it (`tests/conformance/*.json`, whose names tag the rules
//! they cover: `[rule 2]`, `[D8 D9 D11]`, `[replay]`, and whose README's table names
//! more cases per version row; `LIVE_CASES` is that list, and a test reads both to keep
//! it so). The playground's badge says it.
//!
//! A case runs on every live version (3.10.8, 4.0.5, 4.3.6), except where it needs the
//! delayed-message plugin and the version's profile runs it (Debian ships no plugin:
//! nothing live to compare with), as `delaylab replay --check` decides. So the plugin's
//! own rules are never live-checked: they come from its source and recorded facts.
//!
//! ```text
//! head-of-line-blocking on 3.10: rule 1? no; rule 2, 5, 6, 7, 8 -> r02a.., live on 3.10.8
//! fix-delayed-plugin on 3.10:    the plugin (not live), rule 7, 8, 10 ... (live)
//! poison message on 4.1:         4.1 is not live-checked: from RabbitMQ's source
//! ```

use super::impact::rows;
use super::BrokerVersion;
use crate::amqp::exchange_args::DELAYED_TYPE;
use crate::scenario::{AckMode, ActionKind, Declare, Outcome, OutcomePlan, QueueDef, Scenario};
use crate::value::FieldValue;

/// The conformance suite's cases by file stem, with the rules their names tag, then the
/// version rows the suite's README lists them under. A test (below) checks this against
/// `tests/conformance/`.
pub const LIVE_CASES: &[(&str, &[&str])] = &[
    ("r01a-queue-ttl", &["rule 1"]),
    ("r01b-queue-ttl-default-exchange-dlx", &["rule 1"]),
    ("r02a-head-of-line", &["rule 2"]),
    ("r02b-get-releases-expired", &["rule 2"]),
    ("r02c-expired-counts-in-depth", &["rule 2"]),
    ("r03a-min-of-queue-and-message-ttl", &["rule 3"]),
    ("r03b-short-ttl-behind-queue-ttl", &["rule 3"]),
    ("r04a-expiration-zero", &["rule 4"]),
    ("r04b-queue-ttl-zero", &["rule 4"]),
    ("r05a-lone-head-timer", &["rule 5"]),
    ("r05b-quorum-queue-ttl", &["rule 5"]),
    ("r06a-expiration-accepted", &["rule 6", "D6"]),
    ("r06b-expiration-refused", &["rule 6"]),
    ("r07a-x-death-retry-count", &["rule 7", "D2", "D4", "D5"]),
    ("r07b-x-death-two-queues", &["rule 7", "D2", "D4", "D5"]),
    ("r08a-dl-routing-keys-with-cc", &["rule 8"]),
    (
        "r08b-dl-routing-key-replaces-cc",
        &["rule 8", "D2", "D4", "D5"],
    ),
    ("r09a-max-length-drop-head", &["rule 9"]),
    ("r09b-reject-publish", &["rule 9"]),
    ("r09c-reject-publish-dlx", &["rule 9"]),
    ("r10a-reject-dead-letters", &["rule 10"]),
    ("r10b-nack-requeue-redelivers", &["rule 10"]),
    ("r11a-unacked-does-not-expire", &["rule 11"]),
    ("r11b-acked-in-time", &["rule 11"]),
    ("r11c-detach-requeues-expired", &["rule 11"]),
    ("r12a-self-cycle-ttl", &["rule 12"]),
    ("r12b-self-cycle-default-exchange", &["rule 12"]),
    ("r12c-self-cycle-maxlen", &["rule 12"]),
    ("r13a-missing-dlx-then-declared", &["rule 13"]),
    ("r14a-queue-declare-errors", &["rule 14"]),
    ("r14b-topology-declare-error", &["rule 14"]),
    ("v01-client-x-death", &["D1"]),
    ("v02-last-death-and-cc-with-dlrk", &["D2", "D4", "D5"]),
    ("v08a-quorum-limit-nack", &["D8", "D9", "D11"]),
    ("v08b-quorum-limit-reject", &["D8", "D9", "D11"]),
    ("v12-quorum-requeue-position", &["D10", "D12"]),
    ("v13-quorum-expiry-behind-return", &["D13", "D15"]),
    ("v16a-delayed-retry-all", &["D16"]),
    ("v16b-delayed-retry-failed", &["D16"]),
    ("v16c-delayed-retry-returned", &["D16"]),
    ("v21-consumer-timeout", &["D21"]),
    ("v22-transient-non-exclusive", &["D22"]),
    ("v23-queue-arguments-4-3", &["D23", "D24", "D31"]),
    ("v25-global-qos", &["D25"]),
    ("v26-topic-hash-cap", &["D26"]),
    ("v27-delayed-exchange-without-plugin", &["D7", "D27"]),
    ("v30-dead-letter-delivery-count", &["D30"]),
    ("v32-headers-exact-match", &["D32"]),
    ("v34-delivery-time-ignored", &["D34"]),
    ("x01-mandatory-and-missing-targets", &["replay"]),
    ("x02-purge-delete-late-consumer", &["replay"]),
    ("x03-topic-headers-e2e-routing", &["replay"]),
    ("x04-connection-error-and-redeclare", &["replay", "D7"]),
    ("x05-queue-name-keys", &["replay"]),
];

/// The case that runs live only where the profile has no plugin (its exchange type is
/// unknown there): the suite skips it on a version whose profile runs the plugin.
const NEEDS_NO_PLUGIN: &str = "v27-delayed-exchange-without-plugin";

/// Tags of what no live broker here can show.
pub const PLUGIN: &str = "plugin";
pub const NODE: &str = "node";
pub const UPGRADE: &str = "upgrade";

/// One rule the scenario uses, and the live cases that show it on the version asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Used {
    /// `rule 2`, `D9`, `replay`, or [`PLUGIN`], [`NODE`], [`UPGRADE`].
    pub tag: &'static str,
    /// The conformance cases that ran it on a live broker of this version (empty: not
    /// checked live here).
    pub cases: Vec<&'static str>,
}

/// What was checked live for `s` on `v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveCheck {
    pub version: BrokerVersion,
    /// False: no live broker of this version here (its rules follow RabbitMQ's source).
    pub version_live: bool,
    pub used: Vec<Used>,
}

impl LiveCheck {
    pub fn live_count(&self) -> usize {
        self.used.iter().filter(|u| !u.cases.is_empty()).count()
    }

    /// Uses the delayed-message plugin (its rules: from its source and recorded facts).
    pub fn uses_plugin(&self) -> bool {
        self.used.iter().any(|u| u.tag == PLUGIN)
    }
}

/// The live cases of `tag` on `v` (none on a version not checked live).
fn cases(tag: &str, v: BrokerVersion) -> Vec<&'static str> {
    if !v.live_checked() {
        return Vec::new();
    }
    LIVE_CASES
        .iter()
        .filter(|(case, tags)| {
            tags.contains(&tag) && (*case != NEEDS_NO_PLUGIN || !v.profile().delayed_plugin)
        })
        .map(|(case, _)| *case)
        .collect()
}

/// What `s` uses on `v` (its own `broker` aside) and what of it was checked live there.
pub fn live_check(s: &Scenario, v: BrokerVersion) -> LiveCheck {
    LiveCheck {
        version: v,
        version_live: v.live_checked(),
        used: uses(s, v)
            .into_iter()
            .map(|tag| Used {
                tag,
                cases: cases(tag, v),
            })
            .collect(),
    }
}

fn arg<'a>(q: &'a QueueDef, name: &str) -> Option<&'a FieldValue> {
    q.arguments.get(name)
}

fn plan_has(plan: &OutcomePlan, wanted: &[Outcome]) -> bool {
    match plan {
        OutcomePlan::Fixed(o) => wanted.contains(o),
        OutcomePlan::Sequence(v) => v.iter().any(|o| wanted.contains(o)),
        OutcomePlan::Weighted(v) => v.iter().any(|(o, _)| wanted.contains(o)),
    }
}

/// The rules `s` uses on `v`, in a stable order: read from its declarations, consumers
/// and actions, and the version rows where the versions differ for its objects.
fn uses(s: &Scenario, v: BrokerVersion) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    let mut add = |t: &'static str| {
        if !out.contains(&t) {
            out.push(t);
        }
    };
    let queues: Vec<&QueueDef> = s
        .topology
        .queues
        .iter()
        .chain(s.actions.iter().filter_map(|a| match &a.kind {
            ActionKind::Declare(Declare::Queue(q)) => Some(q),
            _ => None,
        }))
        .collect();
    let publishes = || {
        s.actions.iter().filter_map(|a| match &a.kind {
            ActionKind::Publish(p) => Some(p),
            _ => None,
        })
    };
    let queue_ttl = queues.iter().any(|q| arg(q, "x-message-ttl").is_some());
    let message_ttl = publishes().any(|p| p.properties.expiration.is_some());
    let zero = publishes().any(|p| p.properties.expiration.as_deref() == Some("0"))
        || queues
            .iter()
            .any(|q| arg(q, "x-message-ttl").and_then(FieldValue::as_int) == Some(0));
    if queue_ttl {
        add("rule 1");
    }
    if message_ttl {
        add("rule 2");
        add("rule 6");
    }
    if queue_ttl && message_ttl {
        add("rule 3");
    }
    if zero {
        add("rule 4");
    }
    if queue_ttl || message_ttl {
        add("rule 5");
    }
    let dlx: Vec<&str> = queues
        .iter()
        .filter_map(|q| arg(q, "x-dead-letter-exchange").and_then(FieldValue::as_str))
        .collect();
    if !dlx.is_empty() {
        add("rule 7");
        add("rule 8");
    }
    if queues
        .iter()
        .any(|q| arg(q, "x-max-length").is_some() || arg(q, "x-max-length-bytes").is_some())
    {
        add("rule 9");
    }
    let returns = [Outcome::Reject, Outcome::Requeue, Outcome::RejectRequeue];
    if s.consumers.iter().any(|c| plan_has(&c.outcome, &returns)) {
        add("rule 10");
    }
    let manual_on_ttl = s.consumers.iter().any(|c| {
        c.ack == AckMode::Manual
            && (c.handle_ms > 0 || c.to_ms.is_some())
            && queues.iter().any(|q| q.name == c.queue)
            && (queue_ttl || message_ttl)
    });
    if manual_on_ttl {
        add("rule 11");
    }
    let declared = |x: &str| x.is_empty() || s.topology.exchanges.iter().any(|e| e.name == x);
    if dlx.iter().any(|x| !declared(x)) {
        add("rule 13");
    }
    if publishes().any(|p| p.mandatory) || !s.topology.bindings.is_empty() {
        add("replay");
    }
    // The rows where the versions differ for this scenario's objects (quorum limits and
    // positions, headers, refusals, x-death forms...): each a rule it uses. Where the
    // profile runs the plugin, its exchange type existing is the plugin's own rule (D27
    // is what a version without it refuses).
    let plugin_runs = v.profile().delayed_plugin;
    for pair in BrokerVersion::ALL.windows(2) {
        for row in rows(s, pair[0], pair[1]) {
            if !(plugin_runs && row == "D27") {
                add(row);
            }
        }
    }
    let plugin = s.topology.exchanges.iter().any(|x| x.kind == DELAYED_TYPE);
    if plugin && plugin_runs {
        add(PLUGIN);
    }
    for a in &s.actions {
        match a.kind {
            ActionKind::RestartNode { .. } | ActionKind::LoseNode => add(NODE),
            ActionKind::Upgrade { .. } => add(UPGRADE),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::impact::tests::preset;
    use super::*;

    /// The list is the suite's: every case file, with the tags its name carries.
    #[test]
    fn live_cases_are_the_conformance_suites() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
        let mut found: Vec<(String, Vec<String>)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .map(|p| {
                let v: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
                let name = v["name"].as_str().unwrap().to_string();
                let tags = name[1..name.find(']').expect("a [tag] name")]
                    .replace("rule ", "rule_")
                    .split_whitespace()
                    .map(|t| t.replace("rule_", "rule "))
                    .collect();
                assert!(
                    v.get("versions").is_none(),
                    "{}: a case runs on every live version",
                    p.display()
                );
                (p.file_stem().unwrap().to_string_lossy().into_owned(), tags)
            })
            .collect();
        // The README's table of version rows: "| D2, D4, D5 | ... | v02 (and r07a, r07b) |".
        let readme = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/conformance/README.md"),
        )
        .unwrap();
        for line in readme.lines().filter(|l| l.starts_with("| D")) {
            let cols: Vec<&str> = line.split('|').map(str::trim).collect();
            let rows: Vec<&str> = cols[1].split(", ").collect();
            for word in cols[3].split(|c: char| !c.is_ascii_alphanumeric()) {
                for (case, tags) in found
                    .iter_mut()
                    .filter(|(c, _)| !word.is_empty() && c.starts_with(&format!("{word}-")))
                {
                    for r in &rows {
                        if !tags.iter().any(|t| t == r) {
                            tags.push(r.to_string());
                        }
                    }
                    let _ = case;
                }
            }
        }
        crate::sort::sort(&mut found);
        let listed: Vec<(String, Vec<String>)> = LIVE_CASES
            .iter()
            .map(|(c, t)| (c.to_string(), t.iter().map(|x| x.to_string()).collect()))
            .collect();
        assert_eq!(listed, found);
    }

    #[test]
    fn head_of_line_is_checked_live_on_3_10_and_4_3_and_read_in_the_source_on_4_1() {
        let s = preset("head-of-line-blocking");
        let c = live_check(&s, BrokerVersion::V3_10);
        assert!(c.version_live && !c.uses_plugin());
        assert_eq!(c.live_count(), c.used.len(), "{c:?}");
        assert!(c
            .used
            .iter()
            .any(|u| u.tag == "rule 2" && u.cases.contains(&"r02a-head-of-line")));
        let c = live_check(&s, BrokerVersion::V4_1);
        assert!(!c.version_live && c.live_count() == 0);
    }

    #[test]
    fn the_plugin_is_never_live_and_on_4_3_its_refusal_is() {
        let s = preset("fix-delayed-plugin");
        let c = live_check(&s, BrokerVersion::V3_10);
        assert!(c.uses_plugin());
        assert!(c.live_count() < c.used.len());
        let on_4_3 = live_check(&s, BrokerVersion::V4_3);
        assert!(!on_4_3.uses_plugin(), "no plugin runs there");
        let d27 = on_4_3
            .used
            .iter()
            .find(|u| u.tag == "D27")
            .expect("the refusal");
        assert_eq!(d27.cases, vec![NEEDS_NO_PLUGIN]);
        assert!(
            c.used.iter().all(|u| u.tag != "D27"),
            "where the plugin runs, its exchange type is the plugin's rule"
        );
    }

    /// 4.4's hold of x-opt-delivery-time was read in the source only (no 4.4 broker):
    /// the same scenario on 4.3 has its "ignored" checked live (v34).
    #[test]
    fn delivery_time_is_live_on_4_3_and_from_the_source_on_4_4() {
        let s = preset("qq-delivery-time-4-4");
        let on_4_4 = live_check(&s, BrokerVersion::V4_4);
        assert!(
            !on_4_4.version_live && on_4_4.live_count() == 0,
            "{on_4_4:?}"
        );
        assert!(on_4_4.used.iter().any(|u| u.tag == "D34"), "{on_4_4:?}");
        let on_4_3 = live_check(&s, BrokerVersion::V4_3);
        let d34 = on_4_3.used.iter().find(|u| u.tag == "D34").expect("D34");
        assert_eq!(d34.cases, vec!["v34-delivery-time-ignored"]);
    }

    #[test]
    fn the_poison_message_uses_the_quorum_rows() {
        let c = live_check(&preset("poison-message-3-10-vs-4-0"), BrokerVersion::V4_3);
        for tag in ["rule 7", "rule 10", "D8", "D9", "D11"] {
            let u = c
                .used
                .iter()
                .find(|u| u.tag == tag)
                .unwrap_or_else(|| panic!("{tag}: {c:?}"));
            assert!(!u.cases.is_empty(), "{tag}");
        }
    }
}
