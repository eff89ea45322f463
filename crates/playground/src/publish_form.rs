//! The publish form as a plain value, and its checks: the text boxes in, the action to
//! run out (a single publish, or one with `repeat` the engine schedules). The broker
//! judges what AMQP lets a client send (a bad `expiration` is a 406 from the engine,
//! as in real life); the form refuses only what is not a message at all.

use delaylab_engine::amqp::delivery_time::DELIVERY_TIME_HEADER;
use delaylab_engine::scenario::duration::parse_duration;
use delaylab_engine::scenario::load::MAX_BODY_BYTES;
use delaylab_engine::scenario::template::body_of_run;
use delaylab_engine::scenario::{Action, ActionKind, Properties, PublishSpec, Repeat};
use delaylab_engine::value::{FieldValue, Table};

use crate::clock::TimeError;
use crate::deliver_at::{self, DeliverWhen};
use crate::i18n::{t, Lang};

/// The most runs one form submit may ask for.
pub const MAX_REPEAT_COUNT: u32 = 10_000;
/// `delivery_mode` of a persistent message.
const PERSISTENT: u8 = 2;

#[derive(Clone, Debug, PartialEq)]
pub struct PublishForm {
    pub exchange: String,
    pub routing_key: String,
    /// `{n}` is the run number of a repeated publish.
    pub body: String,
    pub expiration: String,
    pub x_delay: String,
    /// "deliver at" (RabbitMQ 4.4's `x-opt-delivery-time`): a delay from the publish or
    /// a time on the clock (`crate::deliver_at`); empty, or where the form does not
    /// offer it (the view leaves it empty there), no header.
    pub deliver_when: DeliverWhen,
    pub deliver_at: String,
    /// A JSON object, or empty.
    pub headers: String,
    pub mandatory: bool,
    pub persistent: bool,
    pub count: String,
    pub every: String,
}

impl Default for PublishForm {
    fn default() -> Self {
        PublishForm {
            exchange: "order.delay.exchange".into(),
            routing_key: "order.create".into(),
            body: "order-{n}".into(),
            expiration: String::new(),
            x_delay: String::new(),
            deliver_when: DeliverWhen::In,
            deliver_at: String::new(),
            headers: String::new(),
            mandatory: false,
            persistent: false,
            count: "1".into(),
            every: "10s".into(),
        }
    }
}

/// Why the form sends nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PublishError {
    HeadersNotObject,
    /// The JSON parser's message.
    HeadersBadJson(String),
    BadCount,
    /// The duration parser's message.
    BadEvery(String),
    BodyTooLong,
    /// "deliver at" is not a time (the Jump box's words for it).
    BadDeliverAt(TimeError),
}

impl PublishError {
    /// The message shown under the form, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            PublishError::HeadersNotObject => t(lang, "headers_not_object").to_string(),
            PublishError::HeadersBadJson(e) => format!("{} ({e})", t(lang, "headers_bad_json")),
            PublishError::BadCount => t(lang, "bad_count").to_string(),
            PublishError::BadEvery(e) => format!("{}: {e}", t(lang, "bad_every")),
            PublishError::BodyTooLong => t(lang, "body_too_long").to_string(),
            PublishError::BadDeliverAt(e) => format!("{}: {}", t(lang, "deliver_at"), e.text(lang)),
        }
    }
}

impl PublishForm {
    /// The action to run at `now_ms`: one publish, or one with `repeat` whose body keeps
    /// its `{n}` for the engine (runs numbered from 1, the template's rule). A single
    /// publish is named after the message it becomes: `messages_before` is the ids the
    /// engine handed out so far (`Sim::messages_so_far`), so its `{n}` is written as its
    /// id through the engine's template: message #3 is order-3, in a preset as in the
    /// sandbox (numbered after the scenario's planned publishes, a preset showed "#2
    /// order-3": the id counts what was published so far).
    pub fn action(&self, now_ms: u64, messages_before: u32) -> Result<Action, PublishError> {
        let mut props = Properties::default();
        let exp = self.expiration.trim();
        if !exp.is_empty() {
            // Sent verbatim: the broker judges it (a bad one is a 406, as in real life).
            props.expiration = Some(exp.to_string());
        }
        if self.persistent {
            props.delivery_mode = Some(PERSISTENT);
        }
        let htext = self.headers.trim();
        if !htext.is_empty() {
            match serde_json::from_str::<serde_json::Value>(htext) {
                Ok(serde_json::Value::Object(m)) => props.headers = Table::from_json_map(&m),
                Ok(_) => return Err(PublishError::HeadersNotObject),
                Err(e) => return Err(PublishError::HeadersBadJson(e.to_string())),
            }
        }
        let xd = self.x_delay.trim();
        if !xd.is_empty() {
            let v = match xd.parse::<i64>() {
                Ok(n) => FieldValue::Int(n),
                // A string x-delay reaches the plugin as a string (it refuses it: 541).
                Err(_) => FieldValue::str(xd),
            };
            props.headers.insert("x-delay", v);
        }
        // An integer of Unix ms, written over one typed into the headers box.
        if let Some(at_ms) = deliver_at::header_ms(self.deliver_when, &self.deliver_at, now_ms)
            .map_err(PublishError::BadDeliverAt)?
        {
            props.headers.insert(
                DELIVERY_TIME_HEADER,
                FieldValue::Int(deliver_at::clamp_i64(at_ms)),
            );
        }
        let count: u32 = match self.count.trim().parse() {
            Ok(n) if (1..=MAX_REPEAT_COUNT).contains(&n) => n,
            _ => return Err(PublishError::BadCount),
        };
        let repeat = if count > 1 {
            let every_ms = parse_duration(self.every.trim()).map_err(PublishError::BadEvery)?;
            Some(Repeat { count, every_ms })
        } else {
            None
        };
        if self.body.len() > MAX_BODY_BYTES {
            return Err(PublishError::BodyTooLong);
        }
        let body = if repeat.is_some() {
            self.body.clone()
        } else {
            body_of_run(&self.body, messages_before)
        };
        Ok(Action {
            at_ms: now_ms,
            kind: ActionKind::Publish(PublishSpec {
                exchange: self.exchange.clone(),
                routing_key: self.routing_key.clone(),
                body,
                properties: props,
                mandatory: self.mandatory,
            }),
            repeat,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn publish(a: &Action) -> &PublishSpec {
        match &a.kind {
            ActionKind::Publish(p) => p,
            other => panic!("not a publish: {other:?}"),
        }
    }

    #[test]
    fn a_single_publish_is_run_one() {
        let a = PublishForm::default().action(5_000, 0).unwrap();
        assert_eq!((a.at_ms, a.repeat), (5_000, None));
        assert_eq!(publish(&a).body, "order-1");
    }

    /// Issue 29: a publish from the form in a preset is named after the message it
    /// becomes ("#2 order-3" before: it was numbered after the planned publishes).
    #[test]
    fn a_single_publish_is_named_after_its_message_id() {
        let s = delaylab_engine::scenario::load_str(
            r#"{"version": 1, "name": "n", "topology": {"queues": [{"name": "q"}]},
                "actions": [{"at": "0s", "publish": {"exchange": "", "routing_key": "q", "body": "A"}},
                            {"at": "1m", "publish": {"exchange": "", "routing_key": "q", "body": "B"}}]}"#,
        )
        .unwrap();
        let mut sim = delaylab_engine::Sim::new(&s);
        sim.advance(1_000);
        while sim.poll_event().is_some() {}
        let f = PublishForm::default();
        let a = f.action(1_000, sim.messages_so_far()).unwrap();
        assert_eq!(publish(&a).body, "order-2");
        sim.schedule_action(1_000, a);
        let ids: Vec<(u32, String)> = std::iter::from_fn(|| sim.poll_event())
            .filter_map(|e| match e.kind {
                delaylab_engine::EventKind::Published { msg, .. } => {
                    Some((msg.id.0, msg.body.to_string()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(ids, vec![(2, "order-2".to_string())], "#2 is order-2");
        let plain = PublishForm {
            body: "paid".into(),
            ..f
        };
        assert_eq!(publish(&plain.action(0, 7).unwrap()).body, "paid");
    }

    #[test]
    fn a_repeat_keeps_its_template_for_the_engine() {
        let f = PublishForm {
            count: "3".into(),
            every: "10s".into(),
            x_delay: "5000".into(),
            expiration: " 60000 ".into(),
            ..PublishForm::default()
        };
        let a = f.action(0, 0).unwrap();
        assert_eq!(
            a.repeat,
            Some(Repeat {
                count: 3,
                every_ms: 10_000
            })
        );
        let p = publish(&a);
        assert_eq!(p.body, "order-{n}");
        assert_eq!(p.properties.expiration.as_deref(), Some("60000"));
        assert_eq!(
            p.properties.headers.get("x-delay"),
            Some(&FieldValue::Int(5000))
        );
    }

    #[test]
    fn deliver_at_writes_x_opt_delivery_time_as_unix_ms() {
        let f = PublishForm {
            deliver_at: "5m".into(),
            ..PublishForm::default()
        };
        let a = f.action(60_000, 0).unwrap();
        assert_eq!(
            publish(&a).properties.headers.get(DELIVERY_TIME_HEADER),
            Some(&FieldValue::Int(360_000)),
            "in 5m at 1:00 is 6:00"
        );
        let at = PublishForm {
            deliver_when: DeliverWhen::At,
            deliver_at: "30:00".into(),
            headers: r#"{"x-opt-delivery-time": 1}"#.into(),
            ..PublishForm::default()
        };
        let p = at.action(60_000, 0).unwrap();
        assert_eq!(
            publish(&p).properties.headers.get(DELIVERY_TIME_HEADER),
            Some(&FieldValue::Int(1_800_000)),
            "the box wins over the headers'"
        );
        assert!(PublishForm::default()
            .action(0, 0)
            .map(|a| publish(&a)
                .properties
                .headers
                .get(DELIVERY_TIME_HEADER)
                .is_none())
            .unwrap());
        let bad = PublishForm {
            deliver_at: "later".into(),
            ..PublishForm::default()
        }
        .action(0, 0)
        .unwrap_err();
        assert!(matches!(bad, PublishError::BadDeliverAt(_)));
        assert!(
            bad.text(Lang::En).starts_with("deliver at: "),
            "{}",
            bad.text(Lang::En)
        );
    }

    #[test]
    fn a_string_x_delay_stays_a_string_for_the_plugin_to_refuse() {
        let f = PublishForm {
            x_delay: "5s".into(),
            ..PublishForm::default()
        };
        let a = f.action(0, 0).unwrap();
        assert_eq!(
            publish(&a).properties.headers.get("x-delay"),
            Some(&FieldValue::str("5s"))
        );
    }

    #[test]
    fn refusals_name_the_problem() {
        let bad = |f: PublishForm| f.action(0, 0).unwrap_err();
        let d = PublishForm::default;
        assert_eq!(
            bad(PublishForm {
                headers: "[1]".into(),
                ..d()
            }),
            PublishError::HeadersNotObject
        );
        assert!(matches!(
            bad(PublishForm {
                headers: "{".into(),
                ..d()
            }),
            PublishError::HeadersBadJson(_)
        ));
        assert_eq!(
            bad(PublishForm {
                count: "0".into(),
                ..d()
            }),
            PublishError::BadCount
        );
        assert_eq!(
            bad(PublishForm {
                count: "10001".into(),
                ..d()
            }),
            PublishError::BadCount
        );
        assert!(matches!(
            bad(PublishForm {
                count: "2".into(),
                every: "soon".into(),
                ..d()
            }),
            PublishError::BadEvery(_)
        ));
        let long = "x".repeat(MAX_BODY_BYTES + 1);
        assert_eq!(
            bad(PublishForm { body: long, ..d() }),
            PublishError::BodyTooLong
        );
        assert!(PublishError::BadCount.text(Lang::En).len() > 3);
    }
}
