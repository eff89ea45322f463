//! A check and what the run showed, in the page's language. English is the engine's own
//! wording (`delaylab_engine::checks::text`, the words `delaylab test` prints); this adds
//! Simplified Chinese, phrase for phrase, from the same typed check and state. RabbitMQ's
//! names (queues, reasons such as `delivery_limit`, codes) and the scenario's durations
//! (`24m`) stay as they are: that is what a reader searches for.

use delaylab_engine::checks::spec::*;
use delaylab_engine::checks::text;
use delaylab_engine::checks::{CheckState, Seen, Undecided};
use delaylab_engine::report::text::clock;
use delaylab_engine::scenario::duration::format_duration;

use crate::i18n::Lang;

/// What the check expects.
pub fn expected(lang: Lang, c: &Check) -> String {
    match lang {
        Lang::En => text::expected(c),
        Lang::Zh => expected_zh(c),
    }
}

/// What the run showed (so far), as the figure beside the bound.
pub fn seen(lang: Lang, c: &Check, s: &CheckState) -> String {
    match lang {
        Lang::En => text::seen(c, s),
        Lang::Zh => seen_zh(c, s),
    }
}

/// Why a check cannot be decided.
pub fn undecided(lang: Lang, u: &Undecided) -> String {
    match lang {
        Lang::En => text::undecided(u),
        Lang::Zh => match u {
            Undecided::Live(why) => format!("在真实 broker 上无法观察:{why}"),
            Undecided::NotReplayable(why) => format!("这个场景无法在真实 broker 上运行:{why}"),
            Undecided::RunStopped { at_ms } => {
                format!("运行在 {} 因触及上限而停止", clock(*at_ms))
            }
            Undecided::MissedStop { at_ms } => {
                format!("运行没有在 {} 停下读取 broker 的状态", clock(*at_ms))
            }
        },
    }
}

fn expected_zh(c: &Check) -> String {
    match &c.kind {
        CheckKind::Happens {
            what,
            filter,
            window,
            never,
        } => {
            let phrase = format!("{}{}", window_zh(*window), happening_zh(*what, filter));
            if *never {
                format!("从不:{phrase}")
            } else {
                phrase
            }
        }
        CheckKind::Count {
            what,
            filter,
            window,
            bound,
        } => format!(
            "{}{}的次数{}",
            window_zh(*window),
            happening_zh(*what, filter),
            bound_zh(*bound, false)
        ),
        CheckKind::Order {
            queue,
            consumer,
            bodies,
        } => format!(
            "{}最先的投递依次为 {}",
            place_zh(queue, consumer),
            bodies.join("、")
        ),
        CheckKind::Lateness {
            filter,
            figure,
            bound,
        } => {
            let of = match (figure, &filter.body) {
                (LateFigure::Message, Some(b)) => b.text().to_string(),
                (_, Some(BodyMatch::Pattern(p))) => format!("匹配 {p:?} 的消息"),
                _ => "每次投递".to_string(),
            };
            let fig = match figure {
                LateFigure::Message => "迟到",
                LateFigure::Max => "最大迟到",
                LateFigure::P50 => "p50 迟到",
                LateFigure::P99 => "p99 迟到",
            };
            format!(
                "{}{of} 的{fig}{}",
                place_zh(&filter.queue, &filter.consumer),
                bound_zh(*bound, true)
            )
        }
        CheckKind::Depth {
            target,
            measure,
            at_ms,
            bound,
        } => {
            let what = match target {
                DepthTarget::Queue(q) => format!("队列 {q} 中 {} 的消息数", measure_zh(*measure)),
                DepthTarget::Exchange(x) => format!("交换机 {x} 暂存的消息数"),
            };
            format!("{}{what}{}", at_zh(*at_ms), bound_zh(*bound, false))
        }
        CheckKind::Orders {
            figure,
            at_ms,
            bound,
        } => format!(
            "{}订单实验的 {} {}",
            at_zh(*at_ms),
            figure.as_str(),
            bound_zh(*bound, figure.is_duration())
        ),
    }
}

fn seen_zh(c: &Check, s: &CheckState) -> String {
    let body = s.body.as_deref();
    match (&s.seen, &c.kind) {
        (Seen::Nothing, CheckKind::Happens { what, .. }) => format!("没有这样的{}", noun_zh(*what)),
        (Seen::Nothing, CheckKind::Lateness { .. }) => "没有可计量的投递".into(),
        (Seen::Nothing, _) => "什么都没有".into(),
        (
            Seen::At(t),
            CheckKind::Happens {
                what: Happening::Error,
                ..
            },
        ) if body.is_none() => format!("在 {} 出现错误", clock(*t)),
        (Seen::At(t), CheckKind::Happens { what, .. }) => format!(
            "{} 在 {} {}",
            body.unwrap_or("一条消息"),
            clock(*t),
            verb_zh(*what)
        ),
        (Seen::At(t), _) => format!("在 {}", clock(*t)),
        (Seen::OtherHeaders(t), _) => format!(
            "{} 在 {} 被投递,但没有这些头",
            body.unwrap_or("一条消息"),
            clock(*t)
        ),
        (Seen::Count(n), _) => n.to_string(),
        (Seen::Duration(ms), _) => match body {
            Some(b) => format!("{}({b})", format_duration(*ms)),
            None => format_duration(*ms),
        },
        (Seen::Order { position, got }, CheckKind::Order { bodies, .. }) => match got {
            Some(g) => format!(
                "第 {} 次投递是 {g},而不是 {}",
                position + 1,
                bodies.get(*position).map_or("?", String::as_str)
            ),
            None => format!("{} 条中只来了前 {position} 条", bodies.len()),
        },
        (Seen::Order { .. }, _) => "顺序不对".into(),
        (Seen::Missing, _) => "当时没有这个队列或交换机".into(),
    }
}

fn happening_zh(what: Happening, f: &Filter) -> String {
    let subject = match &f.body {
        Some(BodyMatch::Exact(b)) => b.clone(),
        Some(BodyMatch::Pattern(p)) => format!("匹配 {p:?} 的消息"),
        None if what == Happening::Error => String::new(),
        None => "一条消息".into(),
    };
    let mut out = if what == Happening::Error {
        if f.body.is_some() {
            format!("发布 {subject} 时出现错误")
        } else {
            "出现错误".into()
        }
    } else {
        let place = match (&f.queue, what) {
            (Some(q), Happening::Delivered) => format!("从队列 {q} "),
            (Some(q), Happening::Enqueued) => format!("进入队列 {q} 并"),
            (Some(q), _) => format!("从队列 {q} "),
            (None, _) => String::new(),
        };
        format!("{subject} {place}{}", verb_zh(what))
    };
    if let Some(c) = &f.consumer {
        out.push_str(&format!("给消费者 {c}"));
    }
    if let Some(r) = &f.reason {
        out.push_str(&format!("(原因 {r})"));
    }
    if let Some(code) = f.code {
        out.push_str(&format!("(代码 {code})"));
    }
    if let Some(h) = &f.headers {
        out.push_str(&format!(",带有头 {}", serde_json::Value::Object(h.clone())));
    }
    out
}

fn verb_zh(what: Happening) -> &'static str {
    match what {
        Happening::Delivered => "被投递",
        Happening::Enqueued => "入队",
        Happening::DeadLettered => "成为死信",
        Happening::Dropped => "被丢弃",
        Happening::Returned => "被退回",
        Happening::Error => "出现错误",
    }
}

fn noun_zh(what: Happening) -> &'static str {
    match what {
        Happening::Delivered => "投递",
        Happening::Enqueued => "入队",
        Happening::DeadLettered => "死信",
        Happening::Dropped => "丢弃",
        Happening::Returned => "退回",
        Happening::Error => "错误",
    }
}

fn measure_zh(m: DepthMeasure) -> &'static str {
    match m {
        DepthMeasure::Ready => "就绪(ready)",
        DepthMeasure::Unacked => "未确认(unacked)",
        DepthMeasure::Overdue => "已超时(overdue)",
        // A delayed exchange's store, or what a quorum queue holds aside.
        DepthMeasure::Delayed => "延迟中/被保留(delayed)",
    }
}

fn place_zh(queue: &Option<String>, consumer: &Option<String>) -> String {
    let mut out = String::new();
    if let Some(q) = queue {
        out.push_str(&format!("从队列 {q} "));
    }
    if let Some(c) = consumer {
        out.push_str(&format!("给消费者 {c} "));
    }
    out
}

fn window_zh(w: Window) -> String {
    match w {
        Window::Whole => String::new(),
        Window::At(t) => format!("恰好在 {} ", clock(t)),
        Window::By(t) => format!("在 {} 或之前 ", clock(t)),
        Window::Within(a, b) => format!("在 {} 到 {} 之间 ", clock(a), clock(b)),
    }
}

fn at_zh(at_ms: Option<u64>) -> String {
    match at_ms {
        Some(t) => format!("在 {} 时,", clock(t)),
        None => "运行结束时,".into(),
    }
}

fn bound_zh(b: Bound, durations: bool) -> String {
    let v = |x: u64| {
        if durations {
            format_duration(x)
        } else {
            x.to_string()
        }
    };
    match b {
        Bound::Equals(x) => format!("恰好为 {}", v(x)),
        Bound::Range {
            at_least: Some(a),
            at_most: Some(m),
        } => format!("在 {} 到 {} 之间", v(a), v(m)),
        Bound::Range {
            at_least: Some(a), ..
        } => format!("至少为 {}", v(a)),
        Bound::Range {
            at_most: Some(m), ..
        } => format!("至多为 {}", v(m)),
        Bound::Range { .. } => "不限".into(),
    }
}
