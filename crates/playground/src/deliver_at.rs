//! The Publish form's "deliver at" (RabbitMQ 4.4's `x-opt-delivery-time`): the time a
//! learner types, the header it writes, and what the broker will do with it where the
//! form publishes, asked of the engine rather than worked out here.
//!
//! The header is an absolute time, Unix milliseconds; virtual time 0 is the epoch (as
//! for `x-death`'s `time`), so "deliver at 30:00" writes 1800000 and "deliver in 5m" at
//! 1:00 writes 360000. Which queues hold the message, and why another ignores the header
//! (a classic queue, a version before 4.4, a time not later than now), is the engine's:
//! [`preview`] builds a simulation of the scenario's topology on its version and
//! publishes a probe through the form's exchange and key, then reads each `Enqueued`
//! event's hold or `DeliveryTimeIgnored` cause (as `edit_rules::check` runs a
//! declaration through the sim's own path).
//!
//! ```text
//! sandbox on 4.4, order.delay.exchange [deliver-at] -> order.close.qq (quorum)
//!   preview: order.close.qq held            the form offers "deliver at"
//! the same on 4.3:   order.close.qq ignored (OlderVersion)   the form says why
//! order.delay.exchange [30m] -> order.delay.30m (classic): ignored (ClassicQueue)
//! ```

use delaylab_engine::amqp::delivery_time::DELIVERY_TIME_HEADER;
use delaylab_engine::cause::DeliveryTimeIgnored;
use delaylab_engine::scenario::{ActionKind, Properties, PublishSpec, Scenario};
use delaylab_engine::value::{FieldValue, Table};
use delaylab_engine::version::BrokerVersion;
use delaylab_engine::{Command, EventKind, Sim};

use crate::clock::{parse_clock, TimeError};
use crate::i18n::{t, Lang};
use crate::i18n_qq44::say;

/// How far ahead the probe asks to be delivered when the form has no time yet: any time
/// later than the probe's publish says whether the queue holds it.
const PROBE_AHEAD_MS: u64 = 60 * 60 * 1000;

/// Whether the typed time is a delay from now or a time on the clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeliverWhen {
    /// A delay from the moment of publishing: `30m`, `10s`, `5:00`.
    #[default]
    In,
    /// A time on the scenario's clock: `30:00`, `1:05:00`.
    At,
}

impl DeliverWhen {
    pub const ALL: [DeliverWhen; 2] = [DeliverWhen::In, DeliverWhen::At];

    pub fn as_str(self) -> &'static str {
        match self {
            DeliverWhen::In => "in",
            DeliverWhen::At => "at",
        }
    }

    pub fn parse(s: &str) -> Option<DeliverWhen> {
        DeliverWhen::ALL.into_iter().find(|w| w.as_str() == s)
    }
}

/// The header's value for `text` typed as `when`, publishing at `now_ms`: `None` when
/// the box is empty. The Jump box's forms (`crate::clock`): `30m`, `1:30:00`, ms.
pub fn header_ms(when: DeliverWhen, text: &str, now_ms: u64) -> Result<Option<u64>, TimeError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let t = parse_clock(text)?;
    Ok(Some(match when {
        DeliverWhen::In => now_ms.checked_add(t).ok_or(TimeError::TooLarge)?,
        DeliverWhen::At => t,
    }))
}

/// What one queue the probe reached does with the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Holds the message until its time.
    Held,
    Ignored(DeliveryTimeIgnored),
}

/// The queues a publish through (exchange, key) reaches, each with its [`Fate`], in the
/// order the engine enqueued them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preview {
    pub version: BrokerVersion,
    pub queues: Vec<(String, Fate)>,
}

impl Preview {
    /// The queues that hold the message.
    pub fn held(&self) -> Vec<&str> {
        self.queues
            .iter()
            .filter(|(_, f)| *f == Fate::Held)
            .map(|(q, _)| q.as_str())
            .collect()
    }

    /// Whether "deliver at" does something here: some queue holds the message.
    pub fn offers(&self) -> bool {
        !self.held().is_empty()
    }

    /// The queues that ignore the header, grouped by why (first reason first).
    pub fn ignored(&self) -> Vec<(DeliveryTimeIgnored, Vec<&str>)> {
        let mut out: Vec<(DeliveryTimeIgnored, Vec<&str>)> = Vec::new();
        for (q, f) in &self.queues {
            let Fate::Ignored(why) = f else { continue };
            match out.iter_mut().find(|(w, _)| w == why) {
                Some((_, qs)) => qs.push(q),
                None => out.push((*why, vec![q])),
            }
        }
        out
    }
}

/// The publish the probe (and a quick button) sends: `headers` plus the header at
/// `at_ms`, persistent.
pub fn publish_with_time(
    exchange: &str,
    routing_key: &str,
    body: String,
    at_ms: u64,
) -> ActionKind {
    let mut headers = Table::new();
    headers.insert(DELIVERY_TIME_HEADER, FieldValue::Int(clamp_i64(at_ms)));
    ActionKind::Publish(PublishSpec {
        exchange: exchange.to_string(),
        routing_key: routing_key.to_string(),
        body,
        properties: Properties {
            delivery_mode: Some(2),
            headers,
            ..Properties::default()
        },
        mandatory: false,
    })
}

/// An AMQP long-long: a time past `i64::MAX` ms is sent as the largest one.
pub fn clamp_i64(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// What a publish through `exchange` with `routing_key` and `x-opt-delivery-time`
/// `ahead_ms` after its publish (`None`: an hour) does in each queue it reaches, on
/// version `v`, `s`'s topology as declared. Asked of the engine (see the module docs).
pub fn preview(
    s: &Scenario,
    v: BrokerVersion,
    exchange: &str,
    routing_key: &str,
    ahead_ms: Option<u64>,
) -> Preview {
    let mut probe = Scenario::empty("deliver at");
    probe.topology = s.topology.clone();
    probe.broker = Some(v);
    let mut sim = Sim::new(&probe);
    // The topology's own refusals (a plugin exchange on 4.3) are not the probe's.
    while sim.poll_event().is_some() {}
    let at = ahead_ms.unwrap_or(PROBE_AHEAD_MS);
    sim.handle(
        0,
        Command::Run(publish_with_time(exchange, routing_key, "probe".into(), at)),
    );
    let mut queues = Vec::new();
    while let Some(e) = sim.poll_event() {
        if let EventKind::Enqueued {
            queue, held, why, ..
        } = &e.kind
        {
            let fate = match (held, why.delivery_time) {
                (Some(_), _) => Fate::Held,
                (None, Some(i)) => Fate::Ignored(i),
                // Absent is not possible: the probe carries the header.
                (None, None) => continue,
            };
            queues.push((sim.symbols().str(*queue).to_string(), fate));
        }
    }
    Preview { version: v, queues }
}

/// The versions on which a publish through (`exchange`, `routing_key`) with a delivery
/// time is held in some queue of `s`'s topology, oldest first.
pub fn holds_on(s: &Scenario, exchange: &str, routing_key: &str) -> Vec<BrokerVersion> {
    BrokerVersion::ALL
        .into_iter()
        .filter(|v| preview(s, *v, exchange, routing_key, None).offers())
        .collect()
}

/// The first version whose quorum queues hold a message by its delivery time (the
/// engine's profiles say; 4.4).
pub fn first_version() -> Option<BrokerVersion> {
    BrokerVersion::ALL
        .into_iter()
        .find(|v| v.profile().quorum_delivery_time)
}

/// What the form says under "deliver at", in `lang`: where the message will be held, or
/// why the header would be ignored where it goes (the story's own sentences).
pub fn status(p: &Preview, lang: Lang) -> String {
    // Chinese sentences follow one another without a space.
    let sep = if lang == Lang::Zh { "" } else { " " };
    let held = p.held();
    let mut out = if held.is_empty() {
        t(lang, "dt_not_offered").to_string()
    } else {
        say(
            lang,
            "dt_held",
            &[("queues", &held.join(", ")), ("v", p.version.as_str())],
        )
    };
    if p.queues.is_empty() {
        out.push_str(sep);
        out.push_str(t(lang, "dt_no_queue"));
    }
    for (why, queues) in p.ignored() {
        out.push_str(sep);
        out.push_str(&say(
            lang,
            "dt_in_queues",
            &[("queues", &queues.join(", "))],
        ));
        out.push_str(sep);
        out.push_str(&crate::i18n_why::say(lang, ignored_key(why), &[]));
    }
    out
}

/// `30m`, `5m`, `10s`: a quick delay as the "deliver at" box takes it.
pub fn delay_text(ms: u64) -> String {
    match ms {
        m if m >= 60_000 && m % 60_000 == 0 => format!("{}m", m / 60_000),
        m if m % 1_000 == 0 => format!("{}s", m / 1_000),
        m => m.to_string(),
    }
}

/// The story's sentence (`i18n_why`) for why the header did not hold a message.
pub fn ignored_key(why: DeliveryTimeIgnored) -> &'static str {
    match why {
        DeliveryTimeIgnored::OlderVersion => "why_dt_version",
        DeliveryTimeIgnored::ClassicQueue => "why_dt_classic",
        DeliveryTimeIgnored::AtMostOnceDeadLetter => "why_dt_dead_letter",
        DeliveryTimeIgnored::NotATime => "why_dt_type",
        DeliveryTimeIgnored::NotLater => "why_dt_past",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use delaylab_engine::scenario::load_str;
    use BrokerVersion::*;

    fn two_queues() -> Scenario {
        load_str(
            r#"{"version":1,"topology":{
                "exchanges":[{"name":"x","type":"direct"}],
                "queues":[{"name":"qq","arguments":{"x-queue-type":"quorum"}},{"name":"cq"}],
                "bindings":[{"source":"x","destination":"qq","routing_key":"q"},
                            {"source":"x","destination":"cq","routing_key":"c"},
                            {"source":"x","destination":"qq","routing_key":"both"},
                            {"source":"x","destination":"cq","routing_key":"both"}]}}"#,
        )
        .unwrap()
    }

    #[test]
    fn a_delay_is_from_now_and_a_time_is_on_the_clock() {
        assert_eq!(header_ms(DeliverWhen::In, "5m", 60_000), Ok(Some(360_000)));
        assert_eq!(header_ms(DeliverWhen::In, "0:10", 0), Ok(Some(10_000)));
        assert_eq!(
            header_ms(DeliverWhen::At, "30:00", 60_000),
            Ok(Some(1_800_000))
        );
        assert_eq!(header_ms(DeliverWhen::At, "  ", 0), Ok(None));
        assert!(matches!(
            header_ms(DeliverWhen::In, "soon", 0),
            Err(TimeError::NotATime(_))
        ));
        assert_eq!(
            header_ms(DeliverWhen::In, &u64::MAX.to_string(), 5),
            Err(TimeError::TooLarge)
        );
        assert_eq!(clamp_i64(u64::MAX), i64::MAX);
        for w in DeliverWhen::ALL {
            assert_eq!(DeliverWhen::parse(w.as_str()), Some(w));
        }
    }

    #[test]
    fn a_quorum_queue_on_4_4_holds_it_a_classic_queue_never() {
        let s = two_queues();
        let p = preview(&s, V4_4, "x", "q", None);
        assert_eq!(p.queues, [("qq".to_string(), Fate::Held)]);
        assert!(p.offers());
        let p = preview(&s, V4_4, "x", "c", None);
        assert!(!p.offers());
        assert_eq!(
            p.ignored(),
            [(DeliveryTimeIgnored::ClassicQueue, vec!["cq"])]
        );
        // Both: held in one, ignored in the other.
        let p = preview(&s, V4_4, "x", "both", None);
        assert_eq!(p.held(), ["qq"]);
        assert_eq!(p.ignored().len(), 1);
    }

    #[test]
    fn before_4_4_it_is_an_ordinary_header_and_a_past_time_is_ready_at_once() {
        let s = two_queues();
        let p = preview(&s, V4_3, "x", "q", None);
        assert_eq!(
            p.queues,
            [(
                "qq".to_string(),
                Fate::Ignored(DeliveryTimeIgnored::OlderVersion)
            )]
        );
        let p = preview(&s, V4_4, "x", "q", Some(0));
        assert_eq!(
            p.queues,
            [(
                "qq".to_string(),
                Fate::Ignored(DeliveryTimeIgnored::NotLater)
            )]
        );
        assert!(preview(&s, V4_4, "x", "nowhere", None).queues.is_empty());
        assert!(preview(&s, V4_4, "no-such-exchange", "q", None)
            .queues
            .is_empty());
    }

    #[test]
    fn the_form_says_where_it_is_held_or_why_it_is_ignored() {
        let s = two_queues();
        let held = status(&preview(&s, V4_4, "x", "both", None), Lang::En);
        assert!(held.starts_with("→ x-opt-delivery-time: qq holds the message until then (a quorum queue on RabbitMQ 4.4)"), "{held}");
        assert!(
            held.contains("cq: x-opt-delivery-time is ignored: classic queues never read it"),
            "{held}"
        );
        let old = status(&preview(&s, V4_3, "x", "q", None), Lang::En);
        assert!(old.starts_with("deliver at is not offered here. qq: x-opt-delivery-time is an ordinary header on this version"), "{old}");
        let zh = status(&preview(&s, V4_3, "x", "q", None), Lang::Zh);
        assert!(
            zh.starts_with(
                "这里不提供投递时间。qq:在这个版本上 x-opt-delivery-time 只是普通 header"
            ),
            "{zh}"
        );
        let none = status(&preview(&s, V4_4, "x", "nowhere", None), Lang::En);
        assert!(none.contains("reach no queue"), "{none}");
        assert_eq!(
            [delay_text(1_800_000), delay_text(10_000), delay_text(1_500)],
            ["30m", "10s", "1500"]
        );
        for ms in [1_800_000, 10_000, 1_500] {
            assert_eq!(
                parse_clock(&delay_text(ms)),
                Ok(ms),
                "the box reads it back"
            );
        }
    }

    #[test]
    fn the_versions_it_works_on_follow_the_profiles() {
        let s = two_queues();
        assert_eq!(holds_on(&s, "x", "q"), [V4_4]);
        assert!(holds_on(&s, "x", "c").is_empty());
        assert_eq!(first_version(), Some(V4_4));
    }
}
