//! A message's story: the steps it went through, each with the rule that applied and
//! its time, in words (the inspector shows it). Built only from the current load's
//! events as [`Track`] kept them, and from the causes the engine put in them
//! (`delaylab_engine::cause`): nothing here decides a rule, it only says what the
//! engine decided.
//!
//! ```text
//! #2 B (head-of-line-blocking)
//! 0:01:00.000 Published to order.delay.exchange, routing key order.create
//! 0:01:00.000 Enqueued in order.delay.queue
//!             order.delay.exchange (direct): the binding key order.create equals ...
//!             TTL 5:00.0 from the message's expiration ...: expires at 0:06:00.000
//! 0:30:00.000 Expired in order.delay.queue
//!             24:00.0 late: its TTL passed at 0:06:00.000, but only the head expires
//!             It waited behind #1 A, the head of order.delay.queue from 0:00:00.000 to 0:30:00.000
//! ```
//!
//! A chain of heads (B behind C behind A) is read one expiry at a time: each `Expired`
//! names the head before it, so the story follows them back (at most [`MAX_HEADS`])
//! until the one that held the head when B's TTL passed.

use delaylab_engine::amqp::delivery_time::DELIVERY_TIME_HEADER;
use delaylab_engine::amqp::exchange_args::ExchangeKind;
use delaylab_engine::amqp::queue_args::Overflow;
use delaylab_engine::cause::{
    DropCause, HeadSpan, HeldBy, HopBy, LateCause, LimitHit, Matched, ReturnCause, TtlFrom,
};
use delaylab_engine::report::text::clock;
use delaylab_engine::snapshot::QueueView;
use delaylab_engine::sym::Sym;
use delaylab_engine::{DropReason, EventKind, Sim};

use crate::i18n::Lang;
use crate::i18n_why::say;
use crate::lines::{ex_name, line, short, span, Level};
use crate::track::{Entry, Track};

mod causes;
mod hold;
use causes::heads_behind;

/// Heads one expiry names at most; a longer chain ends with "and earlier heads".
pub const MAX_HEADS: usize = 6;

/// One step of a message's story.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The event's place in the log (unique in a load).
    pub seq: u64,
    pub t_ms: u64,
    /// The engine's event kind (`enqueued`, `expired`...).
    pub kind: &'static str,
    pub level: Level,
    /// What happened.
    pub what: String,
    /// Why: the rules that applied, each in one sentence.
    pub why: Vec<String>,
    /// Other messages the step names (the heads it waited behind): id and label.
    pub names: Vec<(u32, String)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Story {
    pub msg: u32,
    pub label: String,
    pub steps: Vec<Step>,
}

/// `#id body`, the way a story names a message.
pub fn label(track: &Track, id: u32) -> String {
    format!("#{id} {}", short(track.body(id)))
}

/// The story of message `msg` from what `track` kept of this load's events.
pub fn story(track: &Track, sim: &Sim, msg: u32, lang: Lang) -> Story {
    let entries = track.msgs.get(&msg).map_or(&[][..], |v| v.as_slice());
    let mut teller = Teller {
        track,
        sim,
        lang,
        entries,
        keys: String::new(),
    };
    Story {
        msg,
        label: label(track, msg),
        steps: entries.iter().map(|e| teller.step(e)).collect(),
    }
}

/// What a chip of a message overdue behind the head says, live, from the engine's
/// snapshot: the head it waits behind, since when, and when its own TTL passed. None
/// for a message that is not overdue (or is the head).
pub fn waiting_behind(q: &QueueView, copy: u64, lang: Lang) -> Option<String> {
    let head = q.head.first()?;
    let e = q.head.iter().skip(1).find(|e| e.copy == copy)?;
    e.overdue_ms?;
    let ttl_at = clock(e.expires_at_ms?);
    let name = format!("#{} {}", head.msg, short(&head.body));
    Some(match q.head_since_ms {
        Some(since) => say(
            lang,
            "why_waiting",
            &[
                ("head", &name),
                ("since", &clock(since)),
                ("ttl_at", &ttl_at),
            ],
        ),
        None => say(
            lang,
            "why_waiting_no_since",
            &[("head", &name), ("ttl_at", &ttl_at)],
        ),
    })
}

struct Teller<'a> {
    track: &'a Track,
    sim: &'a Sim,
    lang: Lang,
    /// The message's kept events.
    entries: &'a [Entry],
    /// The message's routing keys as last published or dead-lettered, for a drop's words.
    keys: String,
}

impl Teller<'_> {
    fn s(&self, x: Sym) -> String {
        self.sim.symbols().str(x).to_string()
    }

    fn x(&self, x: Sym) -> String {
        ex_name(self.sim.symbols().str(x))
    }

    fn say(&self, key: &'static str, values: &[(&str, &str)]) -> String {
        say(self.lang, key, values)
    }

    fn consumer(&self, c: Option<delaylab_engine::ids::ConsumerId>) -> String {
        c.map_or(crate::node_id::BASIC_GET.to_string(), |c| {
            self.sim.consumers()[c.0 as usize].spec.name.clone()
        })
    }

    fn step(&mut self, entry: &Entry) -> Step {
        let t_ms = entry.ev.t_ms;
        let mut why = Vec::new();
        let mut names = Vec::new();
        let what = match &entry.ev.kind {
            EventKind::Published { msg, mandatory } => {
                let keys: Vec<String> = msg.routing_keys.iter().map(|k| self.s(*k)).collect();
                self.keys = keys.join(", ");
                let mut props = Vec::new();
                if let Some(x) = msg.expiration {
                    props.push(format!("expiration {}", x.text(self.sim.symbols())));
                }
                for h in ["x-delay", DELIVERY_TIME_HEADER] {
                    if let Some(x) = msg.headers.get(h) {
                        props.push(format!("{h} {}", x.to_json()));
                    }
                }
                if *mandatory {
                    props.push("mandatory".into());
                }
                if !props.is_empty() {
                    why.push(self.say("why_props", &[("props", &props.join(", "))]));
                }
                self.say(
                    "why_published",
                    &[("exchange", &self.x(msg.exchange)), ("key", &self.keys)],
                )
            }
            EventKind::Enqueued {
                queue,
                via,
                expires_at_ms,
                held,
                why: cause,
                ..
            } => {
                let q = self.s(*queue);
                if let Some(more) = &cause.more {
                    for h in &more.hops {
                        let (from, to) = (self.x(h.from), self.x(h.to));
                        why.push(match h.by {
                            HopBy::Binding { key, .. } => self.say(
                                "why_hop_binding",
                                &[("from", &from), ("to", &to), ("key", &self.s(key))],
                            ),
                            HopBy::Alternate => {
                                self.say("why_hop_alternate", &[("from", &from), ("to", &to)])
                            }
                        });
                    }
                }
                let exchange = self.x(cause.last_exchange(*via));
                let key = self.s(cause.key);
                let args = cause
                    .more
                    .as_ref()
                    .and_then(|m| m.arguments.clone())
                    .unwrap_or_default();
                let template = match cause.matched {
                    Matched::Default => "why_r_default",
                    Matched::Binding(ExchangeKind::Direct) => "why_r_direct",
                    Matched::Binding(ExchangeKind::Topic) => "why_r_topic",
                    Matched::Binding(ExchangeKind::Fanout) => "why_r_fanout",
                    Matched::Binding(ExchangeKind::Headers) => "why_r_headers",
                };
                why.push(self.say(
                    template,
                    &[
                        ("exchange", &exchange),
                        ("key", &key),
                        ("queue", &q),
                        ("args", &args),
                    ],
                ));
                why.push(self.ttl(cause, t_ms, *expires_at_ms));
                why.extend(self.delivery_time(held.as_ref(), cause.delivery_time));
                self.say("why_enqueued", &[("queue", &q)])
            }
            EventKind::Expired {
                queue,
                late_ms,
                late_cause,
                after,
                ..
            } => {
                let ttl_at = clock(t_ms.saturating_sub(*late_ms));
                let late = span(*late_ms);
                let v = [("late", late.as_str()), ("ttl_at", ttl_at.as_str())];
                match (late_cause, after) {
                    (LateCause::BehindHead, Some(last)) => {
                        why.push(self.say("why_x_behind", &v));
                        let ttl_at_ms = t_ms.saturating_sub(*late_ms);
                        let (heads, earlier) = heads_behind(self.track, *queue, *last, ttl_at_ms);
                        if earlier {
                            let from = clock(heads[0].from_ms);
                            why.push(self.say("why_x_earlier", &[("from", &from)]));
                        }
                        for h in heads {
                            let head = label(self.track, h.msg.0);
                            why.push(self.say(
                                "why_x_head",
                                &[
                                    ("head", &head),
                                    ("queue", &self.s(*queue)),
                                    ("from", &clock(h.from_ms)),
                                    ("to", &clock(h.to_ms)),
                                ],
                            ));
                            names.push((h.msg.0, head));
                        }
                    }
                    (LateCause::Unacked, _) => why.push(self.say("why_x_unacked", &v)),
                    (LateCause::Held(HeldBy::DelayedRetry), _) => {
                        why.push(self.say("why_x_retry", &v))
                    }
                    (LateCause::Held(HeldBy::DeliveryTime), _) => {
                        why.push(self.say("why_x_held_time", &v))
                    }
                    (LateCause::NodeDown, _) => why.push(self.say("why_x_node", &v)),
                    (LateCause::Busy, _) => why.push(self.say("why_x_busy", &v)),
                    _ => why.push(self.say("why_x_on_time", &[])),
                }
                self.say("why_expired", &[("queue", &self.s(*queue))])
            }
            EventKind::DeadLettered {
                queue,
                reason,
                dlx,
                routing_keys,
                limit,
                ..
            } => {
                let keys: Vec<String> = routing_keys.iter().map(|k| self.s(*k)).collect();
                self.keys = keys.join(", ");
                if let Some(l) = limit {
                    why.extend(self.limit(l));
                }
                why.push(self.say("why_dl_to", &[("dlx", &self.x(*dlx)), ("keys", &self.keys)]));
                self.say(
                    "why_dead_lettered",
                    &[("queue", &self.s(*queue)), ("reason", reason.as_str())],
                )
            }
            EventKind::Dropped {
                queue,
                reason,
                why: cause,
                ..
            } => {
                why.extend(self.drop_cause(cause, *reason, *queue));
                match queue {
                    Some(q) => self.say(
                        "why_dropped_in",
                        &[("queue", &self.s(*q)), ("reason", reason.as_str())],
                    ),
                    None => self.say("why_dropped", &[("reason", reason.as_str())]),
                }
            }
            EventKind::Delayed {
                exchange, due_ms, ..
            } => {
                let delay = span(due_ms.saturating_sub(t_ms));
                why.push(self.say("why_delay_held", &[("delay", &delay)]));
                self.say(
                    "why_delayed",
                    &[("exchange", &self.x(*exchange)), ("due", &clock(*due_ms))],
                )
            }
            EventKind::DelayDue {
                exchange,
                late_ms,
                late_cause,
                ..
            } => {
                let late = span(*late_ms);
                let due = clock(t_ms.saturating_sub(*late_ms));
                let v = [("late", late.as_str()), ("due", due.as_str())];
                why.push(match late_cause {
                    LateCause::NodeDown => self.say("why_due_node", &v),
                    LateCause::Busy => self.say("why_due_busy", &v),
                    _ => self.say("why_due_on_time", &v),
                });
                self.say("why_delay_due", &[("exchange", &self.x(*exchange))])
            }
            EventKind::Returned {
                code,
                text,
                why: cause,
                ..
            } => {
                why.push(self.say(
                    match cause {
                        ReturnCause::NoRoute => "why_ret_no_route",
                        ReturnCause::DelayedHeld => "why_ret_delayed",
                    },
                    &[],
                ));
                self.say(
                    "why_returned",
                    &[("code", &code.to_string()), ("text", text)],
                )
            }
            EventKind::Confirmed { ack: true, .. } => self.say("why_confirmed", &[]),
            EventKind::Confirmed { ack: false, .. } => {
                why.push(self.say("why_nack_refused", &[]));
                self.say("why_nacked", &[])
            }
            EventKind::Error { code, text, .. } => {
                self.say("why_error", &[("code", &code.to_string()), ("text", text)])
            }
            EventKind::Delivered {
                queue,
                consumer,
                redelivered,
                returns,
                ..
            } => {
                if *redelivered {
                    let mut d = self.say("why_redelivered", &[]);
                    if *returns > 0 {
                        let n = returns.to_string();
                        d.push_str(", ");
                        d.push_str(&self.say("why_delivery_count", &[("n", &n)]));
                    }
                    why.push(d);
                }
                why.push(match entry.late {
                    0 => self.say("why_on_time", &[]),
                    l => self.say("why_late_total", &[("late", &span(l))]),
                });
                self.say(
                    "why_delivered",
                    &[
                        ("queue", &self.s(*queue)),
                        ("consumer", &self.consumer(*consumer)),
                    ],
                )
            }
            EventKind::Acked { consumer, .. } => {
                let auto = consumer.is_some_and(|c| self.sim.consumers()[c.0 as usize].auto_ack());
                if auto || consumer.is_none() {
                    why.push(self.say("why_auto_ack", &[]));
                }
                self.say("why_acked", &[("consumer", &self.consumer(*consumer))])
            }
            EventKind::Rejected {
                consumer, requeue, ..
            } => {
                why.push(self.say(
                    if *requeue {
                        "why_rej_back"
                    } else {
                        "why_rej_dead"
                    },
                    &[],
                ));
                let how = rejected_how(&entry.ev.kind);
                self.say(
                    "why_rejected",
                    &[("consumer", &self.consumer(Some(*consumer))), ("how", &how)],
                )
            }
            EventKind::Requeued {
                queue, copy, held, ..
            } => {
                if let Some(h) = held {
                    // The delivery it will be back for: the next after those of this copy.
                    let n = (self.deliveries(*copy, entry.seq) + 1).to_string();
                    let at = clock(h.until_ms);
                    why.push(self.say("why_retry_hold", &[("at", &at), ("n", &n)]));
                }
                self.say("why_requeued", &[("queue", &self.s(*queue))])
            }
            EventKind::Released {
                queue,
                by,
                late_ms,
                late_cause,
                ..
            } => self.released(*queue, *by, t_ms, *late_ms, *late_cause, &mut why),
            EventKind::ConsumerTimedOut { queue, text, .. } => {
                why.push(text.to_string());
                self.say("why_timed_out", &[("queue", &self.s(*queue))])
            }
            _ => {
                // The order lab's events: the log's words.
                let l = line(entry, self.sim, self.track, self.lang);
                format!("{} {}", l.place, l.detail).trim().to_string()
            }
        };
        Step {
            seq: entry.seq,
            t_ms,
            kind: entry.ev.kind.name(),
            level: line(entry, self.sim, self.track, self.lang).level,
            what,
            why,
            names,
        }
    }

    /// Deliveries of `copy` before the event numbered `seq`.
    fn deliveries(&self, copy: delaylab_engine::ids::CopyId, seq: u64) -> usize {
        self.entries
            .iter()
            .take_while(|e| e.seq < seq)
            .filter(|e| matches!(e.ev.kind, EventKind::Delivered { copy: c, .. } if c == copy))
            .count()
    }
}

/// How a consumer gave a message back, as the engine's `Rejected` says it.
fn rejected_how(kind: &EventKind) -> String {
    match kind {
        EventKind::Rejected { requeue, .. } => format!("requeue={requeue}"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{Batch, Runner};
    use delaylab_engine::scenario::load::load_str;
    use delaylab_engine::snapshot::Snapshot;

    const HEAD_OF_LINE: &str = include_str!("../../../scenarios/head-of-line-blocking.json");
    const CYCLE: &str = include_str!("../../../scenarios/dead-letter-cycle.json");

    fn run(text: &str, until_ms: u64) -> Runner {
        let mut r = Runner::new(load_str(text).expect("scenario loads"));
        let mut batch = Batch::default();
        assert!(r.advance_to(until_ms, &mut batch, || false));
        r
    }

    fn id(r: &Runner, body: &str) -> u32 {
        (1..=r.track.bodies.len() as u32)
            .find(|i| r.track.body(*i) == body)
            .expect("published")
    }

    fn step<'a>(s: &'a Story, kind: &str) -> &'a Step {
        s.steps.iter().find(|x| x.kind == kind).expect(kind)
    }

    #[test]
    fn b_names_a_as_the_head_it_waited_behind_with_times_and_lateness() {
        let r = run(HEAD_OF_LINE, 40 * 60_000);
        let (a, b) = (id(&r, "A"), id(&r, "B"));
        let s = story(&r.track, &r.sim, b, Lang::En);
        assert_eq!(s.label, format!("#{b} B"));
        let x = step(&s, "expired");
        assert_eq!(x.t_ms, 1_800_000);
        assert_eq!(x.what, "Expired in order.delay.queue");
        assert_eq!(
            x.why,
            vec![
                "24:00.0 late: its TTL passed at 0:06:00.000, but only the head of a queue expires"
                    .to_string(),
                format!("It waited behind #{a} A, the head of order.delay.queue from 0:00:00.000 to 0:30:00.000"),
            ]
        );
        assert_eq!(x.names, vec![(a, format!("#{a} A"))]);
        let zh = story(&r.track, &r.sim, b, Lang::Zh);
        let x = step(&zh, "expired");
        assert!(x.why[0].starts_with("迟到 24:00.0"), "{:?}", x.why);
        assert!(x.why[1].contains(&format!("#{a} A")) && x.why[1].contains("0:30:00.000"));
        // A was the head: on time.
        let s = story(&r.track, &r.sim, a, Lang::En);
        assert_eq!(
            step(&s, "expired").why,
            vec!["Its TTL passed while it was the head of the queue: it left on time".to_string()]
        );
    }

    #[test]
    fn the_way_in_names_the_binding_and_the_ttl_source() {
        let r = run(HEAD_OF_LINE, 40 * 60_000);
        let s = story(&r.track, &r.sim, id(&r, "B"), Lang::En);
        let enq = step(&s, "enqueued");
        assert_eq!(enq.what, "Enqueued in order.delay.queue");
        assert_eq!(enq.why, vec![
            "order.delay.exchange (direct): the binding key order.create equals the routing key, so it goes to order.delay.queue".to_string(),
            "TTL 5:00.0 from the message's expiration, counted from now: expires at 0:06:00.000".to_string(),
        ]);
        let dl = step(&s, "dead_lettered");
        assert_eq!(dl.what, "Dead-lettered from order.delay.queue: expired");
        assert_eq!(
            dl.why,
            vec!["Republished to its dead-letter exchange order.dlx.exchange with routing key order.timeout".to_string()]
        );
        let delivered = step(&s, "delivered");
        assert!(
            delivered.why.contains(&"24:00.0 late in all".to_string()),
            "{delivered:?}"
        );
    }

    #[test]
    fn a_chain_of_heads_is_told_oldest_first() {
        let text = HEAD_OF_LINE
            .replace("\"1800000\"", "\"600000\"")
            .replace(
                "{\"at\": \"1m\"",
                "{\"at\": \"1s\", \"publish\": {\"exchange\": \"order.delay.exchange\", \"routing_key\": \"order.create\", \"body\": \"C\", \"properties\": {\"expiration\": \"1800000\"}}},\n    {\"at\": \"1m\"",
            );
        let r = run(&text, 40 * 60_000);
        let (a, b, c) = (id(&r, "A"), id(&r, "B"), id(&r, "C"));
        let s = story(&r.track, &r.sim, b, Lang::En);
        let x = step(&s, "expired");
        assert_eq!(x.names.iter().map(|n| n.0).collect::<Vec<_>>(), vec![a, c]);
        assert!(
            x.why[1].contains("from 0:00:00.000 to 0:10:00.000"),
            "{:?}",
            x.why
        );
        assert!(
            x.why[2].contains("from 0:10:00.000 to 0:30:01.000"),
            "{:?}",
            x.why
        );
    }

    #[test]
    fn a_dropped_message_names_its_reason() {
        let r = run(CYCLE, 60 * 60_000);
        let dropped: Vec<Step> = (1..=r.track.bodies.len() as u32)
            .flat_map(|m| story(&r.track, &r.sim, m, Lang::En).steps)
            .filter(|s| s.kind == "dropped")
            .collect();
        assert!(!dropped.is_empty());
        for d in &dropped {
            assert!(d.what.starts_with("Dropped in "), "{d:?}");
            assert!(
                d.why[0].starts_with("A dead-letter cycle: it had already died in "),
                "{d:?}"
            );
        }
    }

    #[test]
    fn a_delayed_retry_hold_says_until_when_and_for_which_attempt() {
        let r = run(
            include_str!("../../../scenarios/retry-backoff-4-3.json"),
            60_000,
        );
        let s = story(&r.track, &r.sim, id(&r, "order-new"), Lang::En);
        let holds: Vec<&Step> = s.steps.iter().filter(|x| x.kind == "requeued").collect();
        assert_eq!(holds.len(), 3);
        assert_eq!(
            holds[0].why,
            vec![
                "Delayed retry holds it back until 0:00:02.000, for delivery attempt 2".to_string()
            ]
        );
        assert_eq!(
            holds[1].why,
            vec![
                "Delayed retry holds it back until 0:00:06.000, for delivery attempt 3".to_string()
            ]
        );
        let rejected = step(&s, "rejected");
        assert_eq!(
            rejected.why,
            vec!["requeue=true: it goes back to the queue".to_string()]
        );
    }

    #[test]
    fn a_message_dropped_by_the_delivery_limit_names_its_count() {
        let r = run(
            include_str!("../../../scenarios/poison-message-3-10-vs-4-0.json"),
            30 * 60_000,
        );
        let told: Vec<Step> = (1..=r.track.bodies.len() as u32)
            .flat_map(|m| story(&r.track, &r.sim, m, Lang::En).steps)
            .filter(|s| s.why.iter().any(|w| w.contains("x-delivery-limit")))
            .collect();
        assert!(!told.is_empty(), "some message hits its delivery limit");
        assert!(
            told[0].why[0].starts_with("Returned 21 times: over x-delivery-limit 20"),
            "{:?}",
            told[0]
        );
    }

    #[test]
    fn an_overdue_chip_says_live_which_head_it_waits_behind() {
        let r = run(HEAD_OF_LINE, 10 * 60_000);
        let snap = Snapshot::of(&r.sim);
        let q = snap.queue("order.delay.queue").unwrap();
        let (a, b) = (&q.head[0], &q.head[1]);
        assert_eq!(
            waiting_behind(q, b.copy, Lang::En).as_deref(),
            Some(format!("waiting behind #{} A, the head since 0:00:00.000; its TTL passed at 0:06:00.000", a.msg).as_str())
        );
        assert!(waiting_behind(q, b.copy, Lang::Zh)
            .unwrap()
            .contains("0:06:00.000"));
        assert_eq!(
            waiting_behind(q, a.copy, Lang::En),
            None,
            "the head waits for nobody"
        );
        let early = run(HEAD_OF_LINE, 3 * 60_000);
        let snap = Snapshot::of(&early.sim);
        let q = snap.queue("order.delay.queue").unwrap();
        assert_eq!(
            waiting_behind(q, q.head[1].copy, Lang::En),
            None,
            "not overdue yet"
        );
    }
}
