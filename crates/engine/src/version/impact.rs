//! What changes for one scenario when it runs on another version: the differences of
//! the two [`Profile`]s that touch the objects the scenario declares (exchanges, queues,
//! bindings, its consumers' outcomes and its publishes' headers), each with its row of
//! rabbitmq-versions.md and the source the version notes give for it.
//!
//! The playground shows these when a preset is loaded on a version it is not written for
//! (`Scenario::versions`) or when the version selector changes; the words are the page's,
//! the facts are these. Every rule asks the profile (its checks and fields), never a
//! version number, so a rule is written once.
//!
//! ```text
//! fix-delayed-plugin (written for 3.10..4.2) on 4.3:
//!   D27 order.delayed.exchange   Refused 406 "unknown exchange type 'x-delayed-message'"
//! poison message (quorum, nack requeue, no limit) 3.10 -> 4.0:
//!   D8  orders.work              DeliveryLimit none -> 20
//! the same 4.0 -> 4.3:
//!   D9  orders.work              NackCounts false (nack requeue no longer counts)
//! a quorum queue published to with x-opt-delivery-time, 4.3 -> 4.4:
//!   D34 orders.close             DeliveryTimeHeld { held: true, carried: true }
//! ```

use super::{notes, BrokerVersion, Confidence, Profile, QuorumRequeue, ReturnCounting};
use crate::amqp::delivery_time::DELIVERY_TIME_HEADER;
use crate::amqp::{AmqpError, Cause, Property, Subject};
use crate::scenario::{
    ActionKind, Declare, DestinationKind, ExchangeDef, Outcome, OutcomePlan, QueueDef, Scenario,
};
use crate::value::FieldValue;

/// Objects named in one impact at most (a scenario of many queues lists the first ones).
pub const MAX_OBJECTS: usize = 12;

/// What differs for the scenario's objects, `to` compared with `from`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Declaring them is refused on `to` (accepted on `from`): RabbitMQ's reply.
    Refused { code: u16, text: String },
    /// Refused on `from`, accepted on `to`: the reply that goes away.
    Accepted { code: u16, text: String },
    /// Refused on both, differently (D7: 503 closing the connection -> 406 the channel).
    RefusedDifferently {
        from_code: u16,
        to_code: u16,
        text: String,
    },
    /// A quorum queue's delivery limit in force (`None`: unlimited), D8 and D10.
    DeliveryLimit { from: Option<i64>, to: Option<i64> },
    /// Whether `basic.nack requeue=true` counts toward the delivery limit (D9).
    NackCounts { counts: bool },
    /// Redeliveries carry `x-acquired-count` and a failed-only `x-delivery-count` (D11).
    AcquiredCountHeader { present: bool },
    /// Where a requeued message goes: the front (served next) or the back (D12).
    RequeueFront { front: bool },
    /// The queue's `x-delayed-retry-*` arguments take effect (D16).
    DelayedRetry { on: bool },
    /// Dead-lettered copies carry `x-last-death-*` (D2).
    LastDeathHeaders { present: bool },
    /// A client-supplied `x-death` is merged at the next dead-lettering (D1).
    ClientXDeathMerged { merged: bool },
    /// The `CC` header stays on a copy dead-lettered with a DLRK (D5).
    CcKept { kept: bool },
    /// `expiration` reaches consumers re-rendered as an integer (D6).
    ExpirationRerendered { rerendered: bool },
    /// Quorum queues only, per message, cancelling the consumer (4.3), or the channel's
    /// tick closing the channel (D21).
    ConsumerTimeoutPerMessage { per_message: bool },
    /// A headers exchange compares values exactly: 1 no longer matches 1.0 (D32).
    HeadersExact { exact: bool },
    /// A null `x-delay` closes the connection with 541 (D28).
    VoidXDelayCloses { closes: bool },
    /// A quorum queue holds a message published with `x-opt-delivery-time` until that
    /// time (`held`), or takes it ready at once, the header an ordinary one (D34);
    /// `carried`: some of the scenario's own publishes carry the header.
    DeliveryTimeHeld { held: bool, carried: bool },
}

/// One difference for this scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Impact {
    /// `D1` .. `D33` (rabbitmq-versions.md §1).
    pub row: &'static str,
    /// The scenario's objects it concerns (an exchange, a queue, a binding as
    /// `source -> destination [key]`, a consumer), at most [`MAX_OBJECTS`].
    pub objects: Vec<String>,
    pub change: Change,
    /// Where the difference comes from (the version notes' source for the row).
    pub source: &'static str,
    pub confidence: Confidence,
}

/// What the page says about a scenario loaded on a version it is not written for:
/// the nearest version it is written for, and what changes from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffVersion {
    pub written_for: BrokerVersion,
    pub runs_on: BrokerVersion,
    pub impacts: Vec<Impact>,
}

/// `None` when the scenario runs on a version it is written for; else the nearest
/// version it is written for (the newest below, else the oldest above) and the impacts.
pub fn off_version(s: &Scenario) -> Option<OffVersion> {
    let (nearest, runs_on) = off_versions(s)?;
    Some(OffVersion {
        written_for: nearest,
        runs_on,
        impacts: impact(s, nearest, runs_on),
    })
}

/// [`off_version`]'s (nearest version written for, version it runs on), without the
/// impacts: the page's start-up module decides with it whether there is a notice, and
/// works the impacts out where it draws one (a chunk of its own).
pub fn off_versions(s: &Scenario) -> Option<(BrokerVersion, BrokerVersion)> {
    let runs_on = s.broker_version();
    let written = s.written_for();
    if written.contains(&runs_on) {
        return None;
    }
    let nearest = written
        .iter()
        .rev()
        .find(|v| **v < runs_on)
        .or_else(|| written.first())
        .copied()
        .unwrap_or_default();
    Some((nearest, runs_on))
}

/// The differences between `from` and `to` that touch what `s` declares, in row order;
/// one impact per (row, change), naming every object it concerns.
pub fn impact(s: &Scenario, from: BrokerVersion, to: BrokerVersion) -> Vec<Impact> {
    group(found(s, from, to), to, from)
}

/// The rows of [`impact`]'s impacts, in the same order (a row once per change): what the
/// live badge reads (`version::live`), without the version notes' sources, which are then
/// not start-up code of the page (issue 29 item 10).
pub fn rows(s: &Scenario, from: BrokerVersion, to: BrokerVersion) -> Vec<&'static str> {
    found(s, from, to).into_iter().map(|f| f.0).collect()
}

/// Every difference for every object, in row order.
fn found(s: &Scenario, from: BrokerVersion, to: BrokerVersion) -> Vec<Found> {
    if from == to {
        return Vec::new();
    }
    let mut d = Diff {
        s,
        from: from.profile(),
        to: to.profile(),
        found: Vec::new(),
    };
    d.declarations();
    d.quorum_returns();
    d.dead_lettering();
    d.publishes();
    d.consumers_and_routing();
    crate::sort::sort_by_key(&mut d.found, |f| row_number(f.0));
    d.found
}

/// One difference for one object, before grouping.
type Found = (&'static str, String, Change);

struct Diff<'a> {
    s: &'a Scenario,
    from: Profile,
    to: Profile,
    found: Vec<Found>,
}

/// `found` (in row order) as impacts, one per (row, change).
fn group(found: Vec<Found>, to: BrokerVersion, from: BrokerVersion) -> Vec<Impact> {
    let mut out: Vec<Impact> = Vec::new();
    for (row, object, change) in found {
        if let Some(i) = out.iter_mut().find(|i| i.row == row && i.change == change) {
            if !i.objects.contains(&object) && i.objects.len() < MAX_OBJECTS {
                i.objects.push(object);
            }
            continue;
        }
        // The note of the version the row applies to (the newer side, or the older one).
        let note = notes(to)
            .into_iter()
            .chain(notes(from))
            .find(|n| n.row == row);
        out.push(Impact {
            row,
            objects: vec![object],
            change,
            source: note.map_or("rabbitmq-versions.md", |n| n.source),
            confidence: note.map_or(Confidence::Code, |n| n.confidence),
        });
    }
    out
}

/// The scenario's declarations: its topology, then what its actions declare.
fn exchanges(s: &Scenario) -> impl Iterator<Item = &ExchangeDef> {
    s.topology
        .exchanges
        .iter()
        .chain(s.actions.iter().filter_map(|a| match &a.kind {
            ActionKind::Declare(Declare::Exchange(x)) => Some(x),
            _ => None,
        }))
}

fn queues(s: &Scenario) -> impl Iterator<Item = &QueueDef> {
    s.topology
        .queues
        .iter()
        .chain(s.actions.iter().filter_map(|a| match &a.kind {
            ActionKind::Declare(Declare::Queue(q)) => Some(q),
            _ => None,
        }))
}

fn is_quorum(q: &QueueDef) -> bool {
    q.arguments.get("x-queue-type").and_then(FieldValue::as_str) == Some("quorum")
}

fn plan_has(plan: &OutcomePlan, o: Outcome) -> bool {
    match plan {
        OutcomePlan::Fixed(x) => *x == o,
        OutcomePlan::Sequence(v) => v.contains(&o),
        OutcomePlan::Weighted(v) => v.iter().any(|(x, _)| *x == o),
    }
}

fn declared_limit(q: &QueueDef) -> Option<i64> {
    q.arguments
        .get("x-delivery-limit")
        .and_then(FieldValue::as_int)
}

/// The row a declaration refusal of a version check belongs to.
fn refusal_row(e: &AmqpError) -> &'static str {
    match (&e.subject, e.cause) {
        (_, Some(Cause::NotForQueueType)) => "D31",
        (Some(Subject::Property(Property::Durable)), _) => "D22",
        (Some(Subject::Argument(a)), _) if a == "x-queue-version" => "D23",
        (Some(Subject::ExchangeType), _) => "D27",
        _ => "D26",
    }
}

/// How one declaration fares on `from` and on `to`, if differently.
fn compare(
    both_row: &'static str,
    a: Result<(), AmqpError>,
    b: Result<(), AmqpError>,
) -> Option<(&'static str, Change)> {
    match (a, b) {
        (Ok(()), Err(e)) => Some((
            refusal_row(&e),
            Change::Refused {
                code: e.code,
                text: e.text,
            },
        )),
        (Err(e), Ok(())) => Some((
            refusal_row(&e),
            Change::Accepted {
                code: e.code,
                text: e.text,
            },
        )),
        (Err(x), Err(y)) if x.code != y.code => Some((
            both_row,
            Change::RefusedDifferently {
                from_code: x.code,
                to_code: y.code,
                text: y.text,
            },
        )),
        _ => None,
    }
}

impl Diff<'_> {
    fn add(
        &mut self,
        row: &'static str,
        objects: impl IntoIterator<Item = String>,
        change: Change,
    ) {
        for o in objects {
            self.found.push((row, o, change.clone()));
        }
    }

    /// Refusals at declaration: the version's own checks (D7, D22, D23, D26, D27, D31).
    fn declarations(&mut self) {
        let (from, to) = (self.from, self.to);
        let mut found = Vec::new();
        for x in exchanges(self.s) {
            let check = |p: &Profile| {
                p.check_exchange_type(&x.kind, false).and_then(|()| {
                    crate::amqp::exchange_args::validate_exchange(&x.name, &x.kind, &x.arguments)
                        .map(|_| ())
                        .map_err(|e| p.adapt_exchange_error(e))
                })
            };
            if let Some((row, change)) = compare("D7", check(&from), check(&to)) {
                found.push((row, x.name.clone(), change));
            }
        }
        for q in queues(self.s) {
            let quorum = is_quorum(q);
            let (a, b) = (
                from.check_queue_declare(q, quorum),
                to.check_queue_declare(q, quorum),
            );
            if let Some((row, change)) = compare("D22", a, b) {
                found.push((row, q.name.clone(), change));
            }
        }
        let topics: Vec<&str> = exchanges(self.s)
            .filter(|x| x.kind == "topic")
            .map(|x| x.name.as_str())
            .collect();
        for b in self
            .s
            .topology
            .bindings
            .iter()
            .filter(|b| topics.contains(&b.source.as_str()))
        {
            let (x, y) = (
                from.check_topic_binding(&b.routing_key),
                to.check_topic_binding(&b.routing_key),
            );
            if let Some((row, change)) = compare("D26", x, y) {
                found.push((row, binding_name(b), change));
            }
        }
        self.found.extend(found);
    }

    /// Quorum queues a consumer returns messages to: the limit, what counts, the
    /// headers, where a return goes, and delayed retry (D8-D12, D16).
    fn quorum_returns(&mut self) {
        let (from, to) = (self.from, self.to);
        let counts = |p: &Profile| p.return_counting != ReturnCounting::FailedOnly;
        let at_front = |p: &Profile, limit: Option<i64>| {
            p.quorum_requeue == QuorumRequeue::AlwaysFront || limit.is_some()
        };
        let mut found = Vec::new();
        for q in queues(self.s).filter(|q| is_quorum(q)) {
            let returned_with = |o: Outcome| {
                self.s
                    .consumers
                    .iter()
                    .any(|c| c.queue == q.name && plan_has(&c.outcome, o))
            };
            let nacks = returned_with(Outcome::Requeue);
            let returns = nacks || returned_with(Outcome::RejectRequeue);
            let declared = declared_limit(q);
            let (la, lb) = (
                from.effective_delivery_limit(declared),
                to.effective_delivery_limit(declared),
            );
            let name = || q.name.clone();
            if la != lb {
                let row = if declared.is_some_and(|l| l < 0) {
                    "D10"
                } else {
                    "D8"
                };
                found.push((row, name(), Change::DeliveryLimit { from: la, to: lb }));
            }
            if nacks && (la.is_some() || lb.is_some()) && counts(&from) != counts(&to) {
                found.push((
                    "D9",
                    name(),
                    Change::NackCounts {
                        counts: counts(&to),
                    },
                ));
            }
            if returns && counts(&from) != counts(&to) {
                found.push((
                    "D11",
                    name(),
                    Change::AcquiredCountHeader {
                        present: !counts(&to),
                    },
                ));
            }
            if returns && at_front(&from, la) != at_front(&to, lb) {
                found.push((
                    "D12",
                    name(),
                    Change::RequeueFront {
                        front: at_front(&to, lb),
                    },
                ));
            }
            let retry = |p: &Profile| p.delayed_retry_config(&q.arguments).is_some();
            if retry(&from) != retry(&to) {
                found.push(("D16", name(), Change::DelayedRetry { on: retry(&to) }));
            }
        }
        self.found.extend(found);
    }

    /// Queues that dead-letter: the headers a dead-lettered copy carries (D2, D5).
    fn dead_lettering(&mut self) {
        let with_arg = |arg: &str| -> Vec<String> {
            queues(self.s)
                .filter(|q| q.arguments.get(arg).is_some())
                .map(|q| q.name.clone())
                .collect()
        };
        let (dlx, dlrk) = (
            with_arg("x-dead-letter-exchange"),
            with_arg("x-dead-letter-routing-key"),
        );
        if self.from.last_death_headers != self.to.last_death_headers {
            let present = self.to.last_death_headers;
            self.add("D2", dlx, Change::LastDeathHeaders { present });
        }
        let cc = !self.publishes_with(|h| h.get("CC").is_some()).is_empty();
        if self.from.dlrk_removes_cc != self.to.dlrk_removes_cc && cc {
            let kept = !self.to.dlrk_removes_cc;
            self.add("D5", dlrk, Change::CcKept { kept });
        }
    }

    /// The exchanges of the publishes that satisfy `pred`, each once.
    fn publishes_where(&self, pred: impl Fn(&crate::scenario::PublishSpec) -> bool) -> Vec<String> {
        let mut out: Vec<String> = self
            .s
            .actions
            .iter()
            .filter_map(|a| match &a.kind {
                ActionKind::Publish(p) if pred(p) => Some(p.exchange.clone()),
                _ => None,
            })
            .collect();
        crate::sort::sort(&mut out);
        out.dedup();
        out
    }

    fn publishes_with(&self, pred: impl Fn(&crate::value::Table) -> bool) -> Vec<String> {
        self.publishes_where(|p| pred(&p.properties.headers))
    }

    /// What the scenario's publishes carry: x-death, expiration, x-delay (D1, D6, D28);
    /// quorum queues and `x-opt-delivery-time` (D34).
    fn publishes(&mut self) {
        let (from, to) = (self.from, self.to);
        if from.client_x_death != to.client_x_death {
            let objects = self.publishes_with(|h| h.get("x-death").is_some());
            let merged = to.client_x_death == super::ClientXDeath::Merge;
            self.add("D1", objects, Change::ClientXDeathMerged { merged });
        }
        if from.expiration_rerendered != to.expiration_rerendered {
            // Only a value whose integer form differs shows it ("+5", "05").
            let objects = self.publishes_where(|p| {
                p.properties
                    .expiration
                    .as_ref()
                    .is_some_and(|e| e.parse::<u64>().map(|n| n.to_string()).as_ref() != Ok(e))
            });
            let rerendered = to.expiration_rerendered;
            self.add("D6", objects, Change::ExpirationRerendered { rerendered });
        }
        if from.x_delay_mc_types != to.x_delay_mc_types && from.delayed_plugin && to.delayed_plugin
        {
            let objects =
                self.publishes_with(|h| matches!(h.get("x-delay"), Some(FieldValue::Void)));
            let closes = to.x_delay_mc_types;
            self.add("D28", objects, Change::VoidXDelayCloses { closes });
        }
        if from.quorum_delivery_time != to.quorum_delivery_time {
            // Every quorum queue: a publisher may set the header on any message (the
            // playground's form offers it); whether this scenario's own publishes do is
            // said with it. Classic queues never read it, on either side.
            let objects: Vec<String> = queues(self.s)
                .filter(|q| is_quorum(q))
                .map(|q| q.name.clone())
                .collect();
            let in_orders = self.s.orders.as_ref().is_some_and(|o| {
                std::iter::once(&o.publish)
                    .chain(o.reminder.as_ref().map(|r| &r.publish))
                    .any(|p| p.properties.headers.contains_key(DELIVERY_TIME_HEADER))
            });
            let carried = in_orders
                || !self
                    .publishes_with(|h| h.contains_key(DELIVERY_TIME_HEADER))
                    .is_empty();
            let held = to.quorum_delivery_time;
            self.add("D34", objects, Change::DeliveryTimeHeld { held, carried });
        }
    }

    /// Manual-ack consumers that hold a delivery past the consumer timeout (D21), and
    /// headers exchanges with binding arguments (D32).
    fn consumers_and_routing(&mut self) {
        let (from, to) = (self.from, self.to);
        if let Some(timeout) = self.s.consumer_timeout.timeout_ms() {
            if from.consumer_timeout != to.consumer_timeout {
                let objects: Vec<String> = self
                    .s
                    .consumers
                    .iter()
                    .filter(|c| c.ack == crate::scenario::AckMode::Manual && c.handle_ms >= timeout)
                    .map(|c| c.name.clone())
                    .collect();
                let per_message = to.consumer_timeout == super::ConsumerTimeout::QuorumPerMessage;
                self.add(
                    "D21",
                    objects,
                    Change::ConsumerTimeoutPerMessage { per_message },
                );
            }
        }
        if from.headers_exact_match != to.headers_exact_match {
            let objects: Vec<String> = exchanges(self.s)
                .filter(|x| x.kind == "headers")
                .filter(|x| {
                    self.s
                        .topology
                        .bindings
                        .iter()
                        .any(|b| b.source == x.name && !b.arguments.is_empty())
                })
                .map(|x| x.name.clone())
                .collect();
            let exact = to.headers_exact_match;
            self.add("D32", objects, Change::HeadersExact { exact });
        }
    }
}

fn binding_name(b: &crate::scenario::BindingDef) -> String {
    let arrow = match b.destination_type {
        DestinationKind::Queue => "->",
        DestinationKind::Exchange => "=>",
    };
    format!("{} {arrow} {} [{}]", b.source, b.destination, b.routing_key)
}

/// `D12` -> 12, for ordering.
fn row_number(row: &str) -> u32 {
    row.trim_start_matches('D').parse().unwrap_or(u32::MAX)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::scenario::load_str;
    use BrokerVersion::*;

    /// A preset from `scenarios/` (also for the other version modules' tests).
    pub(in crate::version) fn preset(name: &str) -> Scenario {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios")
            .join(format!("{name}.json"));
        load_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    }

    fn rows(v: &[Impact]) -> Vec<&'static str> {
        v.iter().map(|i| i.row).collect()
    }

    /// `rows` (the live badge's) says what `impact` says, row by row, on every preset and
    /// every pair of versions.
    #[test]
    fn rows_are_the_impacts_rows_on_every_preset() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            let s = preset(&name);
            for from in BrokerVersion::ALL {
                for to in BrokerVersion::ALL {
                    let mut want = rows(&impact(&s, from, to));
                    want.dedup();
                    let mut got = super::rows(&s, from, to);
                    got.dedup();
                    assert_eq!(got, want, "{name} {from} -> {to}");
                }
            }
        }
    }

    #[test]
    fn d27_the_delayed_exchange_is_refused_on_4_3_with_rabbitmqs_reply() {
        let s = preset("fix-delayed-plugin");
        let v = impact(&s, V4_2, V4_3);
        let d27 = v.iter().find(|i| i.row == "D27").expect("D27");
        assert_eq!(d27.objects, ["order.delayed.exchange"]);
        assert_eq!(
            d27.change,
            Change::Refused {
                code: 406,
                text: "PRECONDITION_FAILED - unknown exchange type 'x-delayed-message'".into()
            }
        );
        assert!(d27.source.contains("RN 4.3.0"), "{}", d27.source);
        // And back: accepted again on 4.2.
        let back = impact(&s, V4_3, V4_2);
        assert!(matches!(back[0].change, Change::Accepted { code: 406, .. }));
        assert!(impact(&s, V3_10, V4_2).iter().all(|i| i.row != "D27"));
    }

    #[test]
    fn d7_an_unknown_exchange_type_is_refused_differently_from_3_13() {
        let mut s = Scenario::empty("t");
        s.topology.exchanges.push(ExchangeDef::new("x", "bogus"));
        let v = impact(&s, V3_10, V4_0);
        assert_eq!(rows(&v), ["D7"]);
        assert!(matches!(
            v[0].change,
            Change::RefusedDifferently {
                from_code: 503,
                to_code: 406,
                ..
            }
        ));
    }

    #[test]
    fn d8_d9_d11_d12_a_nacking_consumer_on_a_quorum_queue() {
        let c = load_str(
            r#"{"version":1,"topology":{"queues":[{"name":"work","arguments":{"x-queue-type":"quorum"}}]},
               "consumers":[{"name":"w","queue":"work","ack":"manual","outcome":"requeue"}]}"#,
        )
        .unwrap();
        let v = impact(&c, V3_10, V4_0);
        let d8 = v.iter().find(|i| i.row == "D8").expect("D8");
        assert_eq!(
            d8.change,
            Change::DeliveryLimit {
                from: None,
                to: Some(20)
            }
        );
        assert_eq!(d8.objects, ["work"]);
        let d12 = v
            .iter()
            .find(|i| i.row == "D12")
            .expect("D12: back -> front");
        assert_eq!(d12.change, Change::RequeueFront { front: true });
        assert!(!rows(&v).contains(&"D9"), "nack counts on 3.10 and 4.0");
        let v = impact(&c, V4_0, V4_3);
        assert_eq!(
            v.iter().find(|i| i.row == "D9").map(|i| &i.change),
            Some(&Change::NackCounts { counts: false })
        );
        assert!(rows(&v).contains(&"D11"));
        assert!(!rows(&v).contains(&"D8"), "20 on both");
    }

    #[test]
    fn d10_a_negative_limit_is_unlimited_from_4_0() {
        let c = load_str(
            r#"{"version":1,"topology":{"queues":[{"name":"q","arguments":{"x-queue-type":"quorum","x-delivery-limit":-1}}]}}"#,
        )
        .unwrap();
        let v = impact(&c, V3_13, V4_0);
        assert_eq!(rows(&v), ["D10"]);
        assert_eq!(
            v[0].change,
            Change::DeliveryLimit {
                from: Some(-1),
                to: None
            }
        );
    }

    #[test]
    fn d16_delayed_retry_takes_effect_on_4_3_only() {
        let s = preset("retry-backoff-4-3");
        let v = impact(&s, V4_3, V4_2);
        let d16 = v.iter().find(|i| i.row == "D16").expect("D16");
        assert_eq!(d16.objects, ["orders.work"]);
        assert_eq!(d16.change, Change::DelayedRetry { on: false });
        assert!(off_version(&s).is_none(), "written for 4.3, runs on 4.3");
    }

    #[test]
    fn d2_dead_letter_queues_gain_last_death_headers_from_3_13() {
        let s = preset("head-of-line-blocking");
        let v = impact(&s, V3_10, V4_3);
        let d2 = v.iter().find(|i| i.row == "D2").expect("D2");
        assert_eq!(d2.objects, ["order.delay.queue"]);
        assert_eq!(d2.change, Change::LastDeathHeaders { present: true });
        assert!(impact(&s, V4_0, V4_3).iter().all(|i| i.row != "D2"));
        assert!(impact(&s, V3_10, V3_10).is_empty());
    }

    #[test]
    fn d23_d31_declarations_4_3_refuses_d22_it_accepts() {
        let c = load_str(
            r#"{"version":1,"topology":{"queues":[
                {"name":"tmp","durable":false},
                {"name":"v1","arguments":{"x-queue-version":1}},
                {"name":"cq","arguments":{"x-delayed-retry-min":1000}}]}}"#,
        )
        .unwrap();
        let v = impact(&c, V4_2, V4_3);
        // D22: the live 4.3.6 accepts a transient non-exclusive queue (its deprecation
        // phase is `permitted_by_default`; 4.3.0-4.3.5 refused it), so `tmp` is no change.
        assert_eq!(rows(&v), ["D23", "D31"]);
        assert!(matches!(v[1].change, Change::Refused { code: 406, .. }));
    }

    #[test]
    fn d26_a_topic_key_with_three_hashes() {
        let c = load_str(
            r##"{"version":1,"topology":{"exchanges":[{"name":"t","type":"topic"}],"queues":[{"name":"q"}],
               "bindings":[{"source":"t","destination":"q","routing_key":"#.a.#.b.#"}]}}"##,
        )
        .unwrap();
        let v = impact(&c, V4_2, V4_3);
        assert_eq!(rows(&v), ["D26"]);
        assert_eq!(v[0].objects, ["t -> q [#.a.#.b.#]"]);
    }

    #[test]
    fn d1_d5_d6_d28_what_publishes_carry() {
        let c = load_str(
            r#"{"version":1,"topology":{"exchanges":[{"name":"d","type":"x-delayed-message","arguments":{"x-delayed-type":"direct"}}],
                "queues":[{"name":"q","arguments":{"x-dead-letter-exchange":"","x-dead-letter-routing-key":"k"}}]},
               "actions":[
                 {"at":"0s","publish":{"exchange":"","routing_key":"q","body":"a","properties":{"expiration":"+5","headers":{"x-death":[],"CC":["b"]}}}},
                 {"at":"0s","publish":{"exchange":"d","routing_key":"q","body":"b","properties":{"headers":{"x-delay":null}}}}]}"#,
        )
        .unwrap();
        let v = impact(&c, V3_10, V4_0);
        for row in ["D1", "D2", "D5", "D6", "D28"] {
            assert!(rows(&v).contains(&row), "{row} in {:?}", rows(&v));
        }
        let d5 = v.iter().find(|i| i.row == "D5").unwrap();
        assert_eq!(
            (d5.objects.as_slice(), &d5.change),
            (&["q".to_string()][..], &Change::CcKept { kept: true })
        );
    }

    #[test]
    fn d21_a_consumer_holding_past_the_timeout() {
        let c = load_str(
            r#"{"version":1,"consumer_timeout":"1m","topology":{"queues":[{"name":"q"}]},
               "consumers":[{"name":"slow","queue":"q","ack":"manual","handle":"2m","outcome":"ack"},
                            {"name":"quick","queue":"q","ack":"manual","handle":"1s","outcome":"ack"}]}"#,
        )
        .unwrap();
        let v = impact(&c, V4_2, V4_3);
        assert_eq!(rows(&v), ["D21"]);
        assert_eq!(v[0].objects, ["slow"]);
    }

    #[test]
    fn d32_a_headers_exchange_with_binding_arguments() {
        let c = load_str(
            r#"{"version":1,"topology":{"exchanges":[{"name":"h","type":"headers"}],"queues":[{"name":"q"}],
               "bindings":[{"source":"h","destination":"q","routing_key":"","arguments":{"x-match":"all","n":1}}]}}"#,
        )
        .unwrap();
        assert_eq!(rows(&impact(&c, V3_10, V3_13)), ["D32"]);
    }

    #[test]
    fn d34_quorum_queues_hold_x_opt_delivery_time_from_4_4() {
        let c = load_str(
            r#"{"version":1,"topology":{"queues":[
                 {"name":"qq","arguments":{"x-queue-type":"quorum"}},{"name":"cq"}]},
               "actions":[{"at":"0s","publish":{"exchange":"","routing_key":"qq","body":"a",
                 "properties":{"headers":{"x-opt-delivery-time":1800000}}}}]}"#,
        )
        .unwrap();
        let v = impact(&c, V4_3, V4_4);
        assert_eq!(rows(&v), ["D34"]);
        assert_eq!(v[0].objects, ["qq"], "classic queues never read it");
        assert_eq!(
            v[0].change,
            Change::DeliveryTimeHeld {
                held: true,
                carried: true
            }
        );
        assert!(
            v[0].source.contains("annotate_delivery_time"),
            "{}",
            v[0].source
        );
        assert_eq!(v[0].confidence, Confidence::Run);
        assert!(
            impact(&c, V4_2, V4_3).is_empty(),
            "nothing changes before 4.4"
        );
        // And back: an ordinary header on 4.3 (and 4.2).
        for back in [V4_3, V4_2] {
            assert_eq!(
                impact(&c, V4_4, back)[0].change,
                Change::DeliveryTimeHeld {
                    held: false,
                    carried: true
                }
            );
        }
        // 4.0 -> 4.3: no change for it (4.3 has delayed retry, not delivery time).
        assert!(impact(&c, V4_0, V4_3).iter().all(|i| i.row != "D34"));
        // A quorum queue nobody publishes the header to: said, as not carried yet.
        let quiet = load_str(
            r#"{"version":1,"topology":{"queues":[{"name":"qq","arguments":{"x-queue-type":"quorum"}}]}}"#,
        )
        .unwrap();
        assert_eq!(
            impact(&quiet, V4_3, V4_4)[0].change,
            Change::DeliveryTimeHeld {
                held: true,
                carried: false
            }
        );
        // Classic queues only: nothing changes.
        let classic = load_str(r#"{"version":1,"topology":{"queues":[{"name":"cq"}]}}"#).unwrap();
        assert!(impact(&classic, V4_3, V4_4).is_empty());
    }

    #[test]
    fn a_preset_loaded_off_its_versions_is_compared_with_the_nearest_one() {
        let mut s = preset("fix-delayed-plugin");
        s.versions = vec![V3_10, V4_2];
        s.broker = Some(V4_3);
        let off = off_version(&s).expect("4.3 is not listed");
        assert_eq!((off.written_for, off.runs_on), (V4_2, V4_3));
        assert_eq!(rows(&off.impacts), ["D27"]);
        s.broker = Some(V3_13);
        assert_eq!(
            off_version(&s).unwrap().written_for,
            V3_10,
            "the newest below"
        );
        s.versions = vec![V4_0];
        s.broker = Some(V3_10);
        assert_eq!(
            off_version(&s).unwrap().written_for,
            V4_0,
            "else the oldest above"
        );
    }
}
