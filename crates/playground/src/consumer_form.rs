//! The add-consumer form as a plain value, and its checks: the boxes in, the consumer
//! spec to attach now out. The outcome's words are the scenario format's
//! (`Outcome::name`).

use delaylab_engine::scenario::duration::parse_duration;
use delaylab_engine::scenario::load::MAX_NAME_BYTES;
use delaylab_engine::scenario::{AckMode, ConsumerSpec, Outcome, OutcomePlan};

use crate::i18n::{t, Lang};

#[derive(Clone, Debug, PartialEq)]
pub struct ConsumerForm {
    pub name: String,
    /// Empty: the last queue of the topology.
    pub queue: String,
    pub auto_ack: bool,
    pub prefetch: String,
    pub handle: String,
    /// An [`Outcome::name`].
    pub outcome: String,
}

impl Default for ConsumerForm {
    fn default() -> Self {
        ConsumerForm {
            name: "worker-1".into(),
            queue: String::new(),
            auto_ack: false,
            prefetch: "10".into(),
            handle: "100ms".into(),
            outcome: Outcome::Ack.name().into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsumerError {
    BadName,
    DuplicateName,
    NoQueue,
    BadPrefetch,
    /// The duration parser's message.
    BadHandle(String),
}

impl ConsumerError {
    pub fn text(&self, lang: Lang) -> String {
        match self {
            ConsumerError::BadName => t(lang, "c_bad_name").to_string(),
            ConsumerError::DuplicateName => t(lang, "c_dup_name").to_string(),
            ConsumerError::NoQueue => t(lang, "c_no_queue").to_string(),
            ConsumerError::BadPrefetch => t(lang, "c_bad_prefetch").to_string(),
            ConsumerError::BadHandle(e) => format!("{}: {e}", t(lang, "bad_every")),
        }
    }
}

impl ConsumerForm {
    /// The consumer to attach at `now_ms`. `active` are the names of the consumers not
    /// stopped; `queues` the topology's queues in order.
    pub fn spec(
        &self,
        now_ms: u64,
        active: &[&str],
        queues: &[String],
    ) -> Result<ConsumerSpec, ConsumerError> {
        let name = self.name.trim().to_string();
        if name.is_empty() || name.len() > MAX_NAME_BYTES {
            return Err(ConsumerError::BadName);
        }
        if active.contains(&name.as_str()) {
            return Err(ConsumerError::DuplicateName);
        }
        let queue = if self.queue.is_empty() {
            queues.last().cloned().unwrap_or_default()
        } else {
            self.queue.clone()
        };
        if queue.is_empty() {
            return Err(ConsumerError::NoQueue);
        }
        let prefetch = self
            .prefetch
            .trim()
            .parse::<u32>()
            .map_err(|_| ConsumerError::BadPrefetch)?;
        let handle_ms = parse_duration(self.handle.trim()).map_err(ConsumerError::BadHandle)?;
        let outcome = Outcome::from_name(&self.outcome).unwrap_or(Outcome::Ack);
        Ok(ConsumerSpec {
            name,
            queue,
            ack: if self.auto_ack {
                AckMode::Auto
            } else {
                AckMode::Manual
            },
            prefetch,
            global_qos: false,
            handle_ms,
            outcome: OutcomePlan::Fixed(outcome),
            from_ms: now_ms,
            to_ms: None,
            client: Default::default(),
        })
    }
}

/// The name the form suggests after `name` was added: `worker-1` -> `worker-2`,
/// `alice` -> `alice-2`.
pub fn next_name(name: &str) -> String {
    let name = name.trim();
    name.rsplit_once('-')
        .and_then(|(a, b)| b.parse::<u32>().ok().map(|k| format!("{a}-{}", k + 1)))
        .unwrap_or_else(|| format!("{name}-2"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_consumer_on_the_last_queue_by_default() {
        let qs = vec!["a".to_string(), "b".to_string()];
        let s = ConsumerForm::default().spec(7, &[], &qs).unwrap();
        assert_eq!(
            (s.queue.as_str(), s.from_ms, s.prefetch, s.handle_ms),
            ("b", 7, 10, 100)
        );
        assert_eq!(s.outcome, OutcomePlan::Fixed(Outcome::Ack));
        let f = ConsumerForm {
            outcome: "requeue".into(),
            auto_ack: true,
            queue: "a".into(),
            ..ConsumerForm::default()
        };
        let s = f.spec(0, &[], &qs).unwrap();
        assert_eq!((s.queue.as_str(), s.ack), ("a", AckMode::Auto));
        assert_eq!(s.outcome, OutcomePlan::Fixed(Outcome::Requeue));
    }

    #[test]
    fn refusals() {
        let qs = vec!["q".to_string()];
        let d = ConsumerForm::default;
        let err =
            |f: ConsumerForm, active: &[&str], qs: &[String]| f.spec(0, active, qs).unwrap_err();
        assert_eq!(
            err(
                ConsumerForm {
                    name: " ".into(),
                    ..d()
                },
                &[],
                &qs
            ),
            ConsumerError::BadName
        );
        let long = "n".repeat(MAX_NAME_BYTES + 1);
        assert_eq!(
            err(ConsumerForm { name: long, ..d() }, &[], &qs),
            ConsumerError::BadName
        );
        assert_eq!(err(d(), &["worker-1"], &qs), ConsumerError::DuplicateName);
        assert_eq!(err(d(), &[], &[]), ConsumerError::NoQueue);
        assert_eq!(
            err(
                ConsumerForm {
                    prefetch: "-1".into(),
                    ..d()
                },
                &[],
                &qs
            ),
            ConsumerError::BadPrefetch
        );
        assert!(matches!(
            err(
                ConsumerForm {
                    handle: "x".into(),
                    ..d()
                },
                &[],
                &qs
            ),
            ConsumerError::BadHandle(_)
        ));
    }

    #[test]
    fn next_names() {
        assert_eq!(next_name("worker-1"), "worker-2");
        assert_eq!(next_name("alice"), "alice-2");
        assert_eq!(next_name("a-b"), "a-b-2");
    }
}
