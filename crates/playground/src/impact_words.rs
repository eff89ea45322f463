//! The version notice's words (en, zh): what changes for the loaded scenario on another
//! RabbitMQ version. The facts (which objects, what differs, the source) are the engine's
//! `version::impact`; this only says them. RabbitMQ's names, codes and texts stay as
//! RabbitMQ writes them.

use delaylab_engine::version::impact::{Change, Impact};
use delaylab_engine::version::BrokerVersion;

use crate::i18n::Lang;

/// Why the notice is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The scenario is written for `from` and runs on `to`.
    WrittenFor,
    /// The user switched the version selector from `from` to `to`.
    Switched,
}

/// Versions as a reader takes them in: runs of neighbours as ranges, oldest first
/// (`3.10–4.2`, `4.0–4.2, 4.4`, `4.3`), over `BrokerVersion::ALL`'s order.
pub fn versions_text(v: &[BrokerVersion]) -> String {
    let all = BrokerVersion::ALL;
    let mut runs: Vec<(BrokerVersion, BrokerVersion)> = Vec::new();
    for x in all.iter().filter(|x| v.contains(x)) {
        let i = all.iter().position(|a| a == x).expect("in ALL");
        match runs.last_mut() {
            Some(r) if i > 0 && all[i - 1] == r.1 => r.1 = *x,
            _ => runs.push((*x, *x)),
        }
    }
    runs.iter()
        .map(|(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}–{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The notice's first sentence.
pub fn heading(
    lang: Lang,
    why: Why,
    from: BrokerVersion,
    to: BrokerVersion,
    empty: bool,
) -> String {
    let zh = lang == Lang::Zh;
    let first = match (why, zh) {
        (Why::WrittenFor, false) => {
            format!("This scenario is written for RabbitMQ {from}; it runs on RabbitMQ {to}.")
        }
        (Why::WrittenFor, true) => {
            format!("这个场景是为 RabbitMQ {from} 写的,现在运行在 RabbitMQ {to} 上。")
        }
        (Why::Switched, false) => format!("Switched from RabbitMQ {from} to RabbitMQ {to}."),
        (Why::Switched, true) => format!("已从 RabbitMQ {from} 切换到 RabbitMQ {to}。"),
    };
    let second = match (empty, zh) {
        (true, false) => "Nothing this scenario declares behaves differently there.",
        (true, true) => "这个场景声明的对象在那里的行为没有差别。",
        (false, false) => "What changes for this scenario:",
        (false, true) => "对这个场景而言的变化:",
    };
    format!("{first} {second}")
}

/// One impact in words: the objects, then what differs for them on `to`.
pub fn words(lang: Lang, i: &Impact, to: BrokerVersion) -> String {
    let objects = i.objects.join(", ");
    let zh = lang == Lang::Zh;
    let pick = |en: String, cn: String| if zh { cn } else { en };
    // The first version whose quorum queues read x-opt-delivery-time (the profiles say).
    let from_v = crate::deliver_at::first_version().map_or("4.4", |v| v.as_str());
    let limit = |l: Option<i64>| match (l, zh) {
        (None, false) => "none".to_string(),
        (None, true) => "无上限".to_string(),
        (Some(n), _) => n.to_string(),
    };
    let says = match &i.change {
        Change::Refused { text, .. } if i.row == "D27" => pick(
            format!("the delayed-message plugin cannot run on RabbitMQ {to}, so declaring this exchange is refused: {text}. Its bindings and every publish to it then fail. A wait queue per delay (x-message-ttl + DLX) works on every version."),
            format!("延迟消息插件无法在 RabbitMQ {to} 上运行,声明这个交换机会被拒绝:{text}。它的绑定和发往它的每条消息随之失败。每个延迟一个等待队列(x-message-ttl + DLX)在所有版本上都可用。"),
        ),
        Change::Accepted { .. } if i.row == "D27" => pick(
            format!("the delayed-message plugin runs on RabbitMQ {to}: this exchange is declared and holds each message for its x-delay."),
            format!("延迟消息插件在 RabbitMQ {to} 上可以运行:这个交换机可以声明,并按 x-delay 保存每条消息。"),
        ),
        Change::Refused { code, text } => pick(
            format!("refused when declared ({code}): {text}."),
            format!("声明时被拒绝({code}):{text}。"),
        ),
        Change::Accepted { code, text } => pick(
            format!("accepted when declared (RabbitMQ refused it before with {code}: {text})."),
            format!("声明时被接受(之前 RabbitMQ 以 {code} 拒绝:{text})。"),
        ),
        Change::RefusedDifferently { from_code, to_code, text } => pick(
            format!("still refused, now with {to_code} instead of {from_code}: {text}."),
            format!("仍被拒绝,但错误码从 {from_code} 变为 {to_code}:{text}。"),
        ),
        Change::DeliveryLimit { from, to: Some(n) } if *n >= 0 => pick(
            format!("delivery limit {n} (was {}): the {} return dead-letters the message (delivery_limit), or drops it without a DLX.", limit(*from), ordinal(n + 1)),
            format!("投递次数上限为 {n}(之前:{}):第 {} 次退回时消息被死信转发(delivery_limit),没有 DLX 则被丢弃。", limit(*from), n + 1),
        ),
        Change::DeliveryLimit { from, to } => pick(
            format!("delivery limit {} (was {}).", limit(*to), limit(*from)),
            format!("投递次数上限为 {}(之前:{})。", limit(*to), limit(*from)),
        ),
        Change::NackCounts { counts: false } => pick(
            "basic.nack requeue=true no longer counts toward the delivery limit: a message nacked every time is redelivered forever. Only basic.reject requeue=true (or a lost channel) counts.".into(),
            "basic.nack requeue=true 不再计入投递次数上限:每次都被 nack 的消息会被无限重新投递。只有 basic.reject requeue=true(或通道断开)才计数。".into(),
        ),
        Change::NackCounts { counts: true } => pick(
            "basic.nack requeue=true counts toward the delivery limit: over it, the message is dead-lettered (delivery_limit).".into(),
            "basic.nack requeue=true 计入投递次数上限:超过后消息被死信转发(delivery_limit)。".into(),
        ),
        Change::AcquiredCountHeader { present: true } => pick(
            "redeliveries carry x-acquired-count (every return) and x-delivery-count counts failed deliveries only.".into(),
            "重新投递带有 x-acquired-count(每次退回都计数),x-delivery-count 只计失败的投递。".into(),
        ),
        Change::AcquiredCountHeader { present: false } => pick(
            "redeliveries carry x-delivery-count for every return, and no x-acquired-count.".into(),
            "重新投递的 x-delivery-count 计入每次退回,没有 x-acquired-count。".into(),
        ),
        Change::RequeueFront { front: true } => pick(
            "a requeued message goes to the front and is delivered next.".into(),
            "重新入队的消息回到队头,下一个被投递。".into(),
        ),
        Change::RequeueFront { front: false } => pick(
            "a requeued message goes to the back of the queue.".into(),
            "重新入队的消息回到队尾。".into(),
        ),
        Change::DelayedRetry { on: true } => pick(
            "x-delayed-retry-* takes effect: a returned message is held back (min x delivery count, at most max) before it is delivered again.".into(),
            "x-delayed-retry-* 生效:退回的消息先被保留一段时间(min × 投递次数,最多 max),再重新投递。".into(),
        ),
        Change::DelayedRetry { on: false } => pick(
            "x-delayed-retry-* is ignored: a returned message is redelivered at once.".into(),
            "x-delayed-retry-* 被忽略:退回的消息立即重新投递。".into(),
        ),
        Change::LastDeathHeaders { present: true } => pick(
            "dead-lettered copies also carry x-last-death-reason, x-last-death-queue and x-last-death-exchange.".into(),
            "死信副本还带有 x-last-death-reason、x-last-death-queue 和 x-last-death-exchange。".into(),
        ),
        Change::LastDeathHeaders { present: false } => pick(
            "dead-lettered copies carry no x-last-death-* headers (x-death and x-first-death-* only).".into(),
            "死信副本没有 x-last-death-* headers(只有 x-death 和 x-first-death-*)。".into(),
        ),
        Change::ClientXDeathMerged { merged: true } => pick(
            "a published x-death header is merged: its counts go on at the next dead-lettering.".into(),
            "发布时带的 x-death 会被合并:下次死信转发时计数继续累加。".into(),
        ),
        Change::ClientXDeathMerged { merged: false } => pick(
            "a published x-death header is ignored and replaced at the next dead-lettering (count starts at 1).".into(),
            "发布时带的 x-death 被忽略,下次死信转发时被替换(计数从 1 开始)。".into(),
        ),
        Change::CcKept { kept } => pick(
            format!("the CC header {} the dead-lettered copy (x-dead-letter-routing-key is set).", if *kept { "stays on" } else { "is removed from" }),
            format!("设置了 x-dead-letter-routing-key 时,死信副本上的 CC header {}。", if *kept { "会保留" } else { "会被删除" }),
        ),
        Change::ExpirationRerendered { rerendered } => pick(
            format!("expiration reaches consumers {}.", if *rerendered { "re-rendered as an integer (\"+5\" becomes \"5\")" } else { "as it was sent" }),
            format!("消费者收到的 expiration {}。", if *rerendered { "被重新写成整数(\"+5\" 变成 \"5\")" } else { "与发送时相同" }),
        ),
        Change::ConsumerTimeoutPerMessage { per_message: true } => pick(
            "holds a delivery past the consumer timeout: on a quorum queue only that message goes back and the consumer is cancelled; classic queues never time out.".into(),
            "持有消息超过消费者确认超时:仲裁队列只退回那条消息并取消消费者;经典队列不再超时。".into(),
        ),
        Change::ConsumerTimeoutPerMessage { per_message: false } => pick(
            "holds a delivery past the consumer timeout: the channel is closed with 406 at its next one-minute tick and every unacked message goes back.".into(),
            "持有消息超过消费者确认超时:通道在下一次一分钟检查时以 406 关闭,所有未确认消息退回。".into(),
        ),
        Change::HeadersExact { exact } => pick(
            format!("header values are compared {}.", if *exact { "exactly: 1 no longer matches 1.0" } else { "loosely: 1 matches 1.0" }),
            format!("header 值{}。", if *exact { "严格比较:1 不再匹配 1.0" } else { "宽松比较:1 匹配 1.0" }),
        ),
        Change::VoidXDelayCloses { closes } => pick(
            format!("a null x-delay {}.", if *closes { "closes the connection with 541" } else { "means no delay" }),
            format!("值为 null 的 x-delay {}。", if *closes { "会以 541 关闭连接" } else { "表示不延迟" }),
        ),
        Change::DeliveryTimeHeld { held: true, carried } => pick(
            format!("a message published with x-opt-delivery-time (Unix time in ms; 0:00 is the epoch here) is held in the queue until that time: not ready, not delivered, its TTL (counted from publish) not checked, then delivered ahead of the ready messages (read from RabbitMQ {to}'s source, not checked against a live broker). {}", if *carried { "This scenario's publishes carry it: they are held." } else { "None of this scenario's publishes carries it yet (the Publish form's deliver at writes it)." }),
            format!("带 x-opt-delivery-time(Unix 毫秒时间;这里 0:00 即纪元)发布的消息会被保留在队列中直到那时:不就绪、不投递、不检查 TTL(TTL 从发布时算起),之后排在就绪消息之前投递(依据 RabbitMQ {to} 的源码,未对照真实 Broker 验证)。{}", if *carried { "这个场景发布的消息带有它:会被保留。" } else { "这个场景发布的消息还没有带它(发布表单的“投递时间”会写入它)。" }),
        ),
        Change::DeliveryTimeHeld { held: false, carried } => pick(
            format!("x-opt-delivery-time is an ordinary header on RabbitMQ {to}: a message published with it is ready at once (only quorum queues of RabbitMQ {from_v} and later hold it). {}", if *carried { "This scenario's publishes carry it: they are delivered at once." } else { "" }).trim_end().to_string(),
            format!("在 RabbitMQ {to} 上 x-opt-delivery-time 只是普通 header:带它发布的消息立即就绪(只有 RabbitMQ {from_v} 及以后的仲裁队列才会保留)。{}", if *carried { "这个场景发布的消息带有它:会被立即投递。" } else { "" }),
        ),
    };
    format!("{objects}: {says}")
}

/// Where the difference comes from, as the notice prints it after the words.
/// How a difference is known, in words: seen on a live broker of `to` (the conformance
/// suite), or read in RabbitMQ's source and release notes.
pub fn how_known(lang: Lang, i: &Impact, to: BrokerVersion) -> String {
    let live = i.confidence == delaylab_engine::version::Confidence::LiveChecked;
    match (live, lang) {
        (true, Lang::En) => format!("seen on a live RabbitMQ {}", to.patch_release()),
        (true, Lang::Zh) => format!("已在真实的 RabbitMQ {} 上看到", to.patch_release()),
        (false, Lang::En) => "read in RabbitMQ's source and release notes".to_string(),
        (false, Lang::Zh) => "来自 RabbitMQ 的源码与发布说明".to_string(),
    }
}

/// The row and its source as the version notes cite them (`D27 · source: RN 4.3.0
/// (release notes)`): a detail for who wants to check, not the sentence itself.
pub fn source(lang: Lang, i: &Impact) -> String {
    let label = if lang == Lang::Zh { "来源" } else { "source" };
    format!(
        "{} · {label}: {} ({})",
        i.row,
        i.source,
        i.confidence.as_str()
    )
}

/// `n` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 23rd.
fn ordinal(n: i64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_read_as_english_writes_them() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 0]
            .map(ordinal)
            .into();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th", "0th"
            ]
        );
    }
    use delaylab_engine::scenario::load_str;
    use delaylab_engine::version::impact::impact;
    use BrokerVersion::*;

    #[test]
    fn versions_read_as_ranges_of_neighbours() {
        assert_eq!(versions_text(&[V3_10, V3_13, V4_0, V4_1, V4_2]), "3.10–4.2");
        assert_eq!(versions_text(&[V4_0, V4_1, V4_2]), "4.0–4.2");
        assert_eq!(versions_text(&[V3_10, V4_0, V4_3]), "3.10, 4.0, 4.3");
        assert_eq!(versions_text(&[V4_3]), "4.3");
        assert_eq!(versions_text(&[]), "");
    }

    #[test]
    fn the_plugin_preset_on_4_3_says_the_exchange_is_refused_with_rabbitmqs_text() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        let s = load_str(&std::fs::read_to_string(root.join("fix-delayed-plugin.json")).unwrap())
            .unwrap();
        let v = impact(&s, V4_2, V4_3);
        let en = words(Lang::En, &v[0], V4_3);
        assert!(
            en.starts_with(
                "order.delayed.exchange: the delayed-message plugin cannot run on RabbitMQ 4.3"
            ),
            "{en}"
        );
        assert!(
            en.contains("406")
                || en.contains("PRECONDITION_FAILED - unknown exchange type 'x-delayed-message'"),
            "{en}"
        );
        let zh = words(Lang::Zh, &v[0], V4_3);
        assert!(
            zh.contains("延迟消息插件无法在 RabbitMQ 4.3 上运行"),
            "{zh}"
        );
        assert!(source(Lang::En, &v[0]).starts_with("D27 · source: RN 4.3.0"));
    }

    #[test]
    fn every_change_has_words_in_both_languages_naming_its_objects() {
        let s = load_str(
            r#"{"version":1,"consumer_timeout":"1m",
              "topology":{"exchanges":[{"name":"d","type":"x-delayed-message","arguments":{"x-delayed-type":"direct"}},{"name":"h","type":"headers"}],
                "queues":[{"name":"qq","arguments":{"x-queue-type":"quorum","x-delayed-retry-type":"all","x-delayed-retry-min":1000}},
                          {"name":"dl","durable":false,"arguments":{"x-dead-letter-exchange":"","x-dead-letter-routing-key":"k"}}],
                "bindings":[{"source":"h","destination":"dl","routing_key":"","arguments":{"n":1}}]},
              "consumers":[{"name":"w","queue":"qq","ack":"manual","handle":"2m","outcome":"requeue"}],
              "actions":[{"at":"0s","publish":{"exchange":"","routing_key":"dl","body":"a","properties":{"expiration":"+5","headers":{"x-death":[],"CC":["b"],"x-opt-delivery-time":60000}}}}]}"#,
        )
        .unwrap();
        for (a, b) in [
            (V3_10, V4_3),
            (V4_3, V3_10),
            (V3_10, V4_0),
            (V4_2, V4_3),
            (V4_3, V4_4),
            (V4_4, V4_3),
        ] {
            for i in impact(&s, a, b) {
                for l in [Lang::En, Lang::Zh] {
                    let w = words(l, &i, b);
                    assert!(w.starts_with(&i.objects[0]), "{w}");
                    assert!(w.len() > i.objects[0].len() + 10, "{w}");
                }
            }
        }
        // Switched from 4.3 to 4.4: the quorum queue now holds what carries the header.
        let d34 = impact(&s, V4_3, V4_4);
        assert_eq!(d34.len(), 1, "{d34:?}");
        let en = words(Lang::En, &d34[0], V4_4);
        assert!(
            en.starts_with("qq: a message published with x-opt-delivery-time"),
            "{en}"
        );
        assert!(words(Lang::Zh, &d34[0], V4_4).contains("保留在队列中直到那时"));
        assert!(source(Lang::En, &d34[0]).starts_with("D34 · source: qq-vNext c6ab3c91aec6"));
        assert!(heading(Lang::En, Why::WrittenFor, V4_2, V4_3, false)
            .contains("written for RabbitMQ 4.2"));
        assert!(heading(Lang::Zh, Why::Switched, V3_10, V4_3, true).contains("没有差别"));
    }
}
