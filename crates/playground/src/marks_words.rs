//! The timeline's marks in words, English and Chinese: one line per moment
//! ("6:00 B's TTL passed behind the head A in order.delay.queue"), and the whole mark
//! for a tooltip and a screen reader. Names, bodies and reply codes stay as RabbitMQ
//! and the scenario have them.

use delaylab_engine::cause::HeldBy;
use delaylab_engine::report::text::clock;

use crate::i18n::Lang;
use crate::marks::{Kind, Mark, Moment};

fn quoted(msg: &Option<(u32, String)>) -> String {
    match msg {
        Some((_, body)) if !body.is_empty() => body.clone(),
        Some((id, _)) => format!("#{id}"),
        None => String::new(),
    }
}

/// One moment in words.
pub fn moment_text(m: &Moment, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let who = quoted(&m.msg);
    let place = m.place.as_str();
    let mut text = match &m.kind {
        Kind::Overdue => {
            let head = m
                .behind
                .as_ref()
                .map(|h| quoted(&Some(h.clone())))
                .unwrap_or_default();
            match (zh, head.is_empty()) {
                (false, true) => format!("{who}'s TTL passed behind the head of {place}"),
                (false, false) => format!("{who}'s TTL passed behind the head {head} in {place}"),
                (true, true) => format!("{who} 的 TTL 已到,但它排在 {place} 的队头之后"),
                (true, false) => format!("{who} 的 TTL 已到,但它排在 {place} 的队头 {head} 之后"),
            }
        }
        Kind::DeadLettered(reason) => {
            if zh {
                format!("{who} 从 {place} 成为死信({reason})")
            } else {
                format!("{who} dead-lettered from {place} ({reason})")
            }
        }
        Kind::LengthLimit => {
            if zh {
                format!("{place} 达到 x-max-length")
            } else {
                format!("{place} reached its x-max-length")
            }
        }
        Kind::DeliveryLimit => {
            if zh {
                format!("{who} 在 {place} 达到投递上限(delivery limit)")
            } else {
                format!("{who} reached the delivery limit of {place}")
            }
        }
        Kind::Dropped(reason) => match (zh, place.is_empty()) {
            (false, true) => format!("{who} dropped ({reason})"),
            (false, false) => format!("{who} dropped from {place} ({reason})"),
            (true, true) => format!("{who} 被丢弃({reason})"),
            (true, false) => format!("{who} 从 {place} 被丢弃({reason})"),
        },
        Kind::Returned(code) => {
            if zh {
                format!("{who} 被 {place} 退回({code})")
            } else {
                format!("{who} returned by {place} ({code})")
            }
        }
        Kind::Refused(code) => match (zh, who.is_empty()) {
            (false, true) => format!("the broker refused ({code})"),
            (false, false) => format!("the broker refused {who} ({code})"),
            (true, true) => format!("Broker 拒绝({code})"),
            (true, false) => format!("Broker 拒绝了 {who}({code})"),
        },
        Kind::NodeLost => match (zh, who.is_empty()) {
            (false, true) => "the node is lost".to_string(),
            (false, false) => format!("{who} lost with the node"),
            (true, true) => "节点丢失".to_string(),
            (true, false) => format!("{who} 随节点丢失"),
        },
        Kind::NodeDown => (if zh {
            "节点停机"
        } else {
            "the node goes down"
        })
        .to_string(),
        Kind::NodeUp => (if zh {
            "节点恢复"
        } else {
            "the node is back"
        })
        .to_string(),
        Kind::Upgraded => {
            if zh {
                format!("节点升级为 RabbitMQ {place}")
            } else {
                format!("the node comes back as RabbitMQ {place}")
            }
        }
        Kind::ConsumerTimeout => {
            if zh {
                format!("{place} 的消费者确认超时({who})")
            } else {
                format!("a consumer of {place} timed out holding {who}")
            }
        }
        Kind::DelayReleased => {
            if zh {
                format!("{place} 放出 {who}:x-delay 已到")
            } else {
                format!("{place} releases {who}: its x-delay is over")
            }
        }
        Kind::LateRelease => {
            if zh {
                format!("{place} 迟放出 {who}")
            } else {
                format!("{place} releases {who} late")
            }
        }
        Kind::Released(by) => match (zh, by) {
            (false, HeldBy::DeliveryTime) => {
                format!("{place} releases {who}: its x-opt-delivery-time is here")
            }
            (false, HeldBy::DelayedRetry) => {
                format!("{place} releases {who}: its delayed retry is over")
            }
            (true, HeldBy::DeliveryTime) => {
                format!("{place} 放出 {who}:x-opt-delivery-time 已到")
            }
            (true, HeldBy::DelayedRetry) => format!("{place} 放出 {who}:延迟重试的等待结束"),
        },
        Kind::Stopped => (if zh {
            "模拟上限停止了运行"
        } else {
            "a limit stopped the run"
        })
        .to_string(),
    };
    if m.more > 0 {
        let until = clock(m.last_ms);
        text.push_str(&match (zh, m.last_ms > m.at_ms) {
            (false, true) => format!(", and {} more to {until}", m.more),
            (false, false) => format!(", and {} more", m.more),
            (true, true) => format!(",另有 {} 条同类至 {until}", m.more),
            (true, false) => format!(",另有 {} 条同类", m.more),
        });
    }
    text
}

/// A whole mark: its time and what happened, for a tooltip and a screen reader.
pub fn mark_text(m: &Mark, lang: Lang) -> String {
    let sep = if lang == Lang::Zh { ";" } else { "; " };
    let what: Vec<String> = m.moments.iter().map(|x| moment_text(x, lang)).collect();
    format!("{} {}", clock(m.at_ms), what.join(sep))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::marks::Marks;
    use delaylab_engine::scenario::load::load_str;

    #[test]
    fn head_of_line_in_both_languages() {
        let mut m = Marks::new(
            &load_str(include_str!(
                "../../../scenarios/head-of-line-blocking.json"
            ))
            .unwrap(),
        );
        m.scout(|| false);
        let six = mark_text(&m.marks()[0], Lang::En);
        assert_eq!(
            six,
            "0:06:00.000 B's TTL passed behind the head A in order.delay.queue"
        );
        assert!(mark_text(&m.marks()[0], Lang::Zh).contains("队头 A 之后"));
        let thirty = mark_text(&m.marks()[1], Lang::En);
        assert!(
            thirty.ends_with("A dead-lettered from order.delay.queue (expired), and 1 more"),
            "{thirty}"
        );
        assert!(mark_text(&m.marks()[1], Lang::Zh).contains("另有 1 条"));
    }

    #[test]
    fn every_kind_has_words_in_both_languages() {
        let kinds = [
            Kind::Overdue,
            Kind::DeadLettered("expired"),
            Kind::LengthLimit,
            Kind::DeliveryLimit,
            Kind::Dropped("unroutable"),
            Kind::Returned(312),
            Kind::Refused(406),
            Kind::NodeLost,
            Kind::NodeDown,
            Kind::NodeUp,
            Kind::Upgraded,
            Kind::ConsumerTimeout,
            Kind::DelayReleased,
            Kind::LateRelease,
            Kind::Released(HeldBy::DeliveryTime),
            Kind::Released(HeldBy::DelayedRetry),
            Kind::Stopped,
        ];
        for kind in kinds {
            let m = Moment {
                kind: kind.clone(),
                place: "q".into(),
                msg: Some((3, "B".into())),
                behind: None,
                more: 0,
                at_ms: 0,
                last_ms: 0,
            };
            let (en, zh) = (moment_text(&m, Lang::En), moment_text(&m, Lang::Zh));
            assert!(!en.is_empty() && en != zh, "{kind:?}: {en} / {zh}");
        }
    }
}
