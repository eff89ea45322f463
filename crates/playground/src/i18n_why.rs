//! The words of a message's story ([`crate::story`]) and of the views that open it
//! (the inspector, the lateness dots, the overdue chips), in English and Chinese.
//! Read through this module's [`t`] and [`say`] only, which fall back to `i18n::t`
//! (`i18n::t` does not fall through here): only the panels below the first screen read
//! them, so these words are in the page's wasm chunk, not the start-up module (issue 29
//! item 10). A `why_` word the first screen shows is in `i18n.rs` (`why_dt_version`).
//!
//! Sentences are templates with named holes (`{queue}`), filled by [`fill`]: the two
//! languages put them in different orders. RabbitMQ's own names (x-message-ttl,
//! basic.nack, reasons, codes) are never translated.

use crate::i18n::Lang;

/// Every template: (key, English, Chinese).
pub(crate) const WORDS: &[(&str, &str, &str)] = words![
    // The inspector and the views that open it.
    ("why_story", "Its story, step by step", "它的经历,逐步说明"),
    ("why_events", "The engine's events", "引擎事件"),
    ("why_see", "Open the story of", "查看其经历:"),
    ("why_dot", "{msg}: delivered at {at}, {late} late", "{msg}:于 {at} 投递,迟到 {late}"),
    ("why_dot_retry", "{msg}: redelivered at {at}, unhandled for {since} since its first delivery", "{msg}:于 {at} 重新投递,自首次投递起已 {since} 未处理完"),
    ("why_dot_on_time", "{msg}: delivered at {at}, on time", "{msg}:于 {at} 投递,准时"),
    ("why_dots", 
        "Each dot is one delivery; select one (Enter, or click) to read why it came then. Arrow keys move between dots.",
        "每个点是一次投递;选中一个(回车或点击)查看它为何在那时到达。方向键在点之间移动。",
    ),
    ("why_waiting", 
        "waiting behind {head}, the head since {since}; its TTL passed at {ttl_at}",
        "排在 {head} 之后,{head} 自 {since} 起位于队头;它的 TTL 已于 {ttl_at} 到期",
    ),
    ("why_waiting_no_since", 
        "waiting behind {head}, the head; its TTL passed at {ttl_at}",
        "排在队头 {head} 之后;它的 TTL 已于 {ttl_at} 到期",
    ),
    // What happened.
    ("why_published", "Published to {exchange}, routing key {key}", "发布到 {exchange},路由键 {key}"),
    ("why_enqueued", "Enqueued in {queue}", "进入队列 {queue}"),
    ("why_expired", "Expired in {queue}", "在 {queue} 中过期"),
    ("why_dead_lettered", "Dead-lettered from {queue}: {reason}", "从 {queue} 成为死信:{reason}"),
    ("why_dropped_in", "Dropped in {queue}: {reason}", "在 {queue} 中被丢弃:{reason}"),
    ("why_dropped", "Dropped: {reason}", "被丢弃:{reason}"),
    ("why_delayed", "Held by the delayed exchange {exchange} until {due}", "由延迟交换机 {exchange} 保存,直到 {due}"),
    ("why_delay_due", "Released by the delayed exchange {exchange}", "延迟交换机 {exchange} 放行"),
    ("why_returned", "Returned to the publisher: {code} {text}", "退回给生产者:{code} {text}"),
    ("why_confirmed", "Confirmed to the publisher: basic.ack", "向生产者确认:basic.ack"),
    ("why_nacked", "Refused to the publisher: basic.nack", "向生产者否认:basic.nack"),
    ("why_error", "Refused: {code} {text}", "被拒绝:{code} {text}"),
    ("why_delivered", "Delivered from {queue} to {consumer}", "从 {queue} 投递给 {consumer}"),
    ("why_acked", "Acknowledged by {consumer}", "{consumer} 确认(ack)"),
    ("why_rejected", "{consumer} rejected it: {how}", "{consumer} 拒绝(reject)了它:{how}"),
    ("why_nacked_it", "{consumer} nacked it: {how}", "{consumer} 否认(nack)了它:{how}"),
    ("why_requeued", "Back in {queue}", "回到队列 {queue}"),
    ("why_released", "Released in {queue}, ahead of its ready messages", "在 {queue} 中放行,排在就绪消息之前"),
    ("why_timed_out", "Acknowledgement timeout in {queue}", "在 {queue} 中确认超时"),
    // Why: routing.
    ("why_props", "Properties: {props}", "属性:{props}"),
    ("why_r_direct", 
        "{exchange} (direct): the binding key {key} equals the routing key, so it goes to {queue}",
        "{exchange}(direct):绑定键 {key} 与路由键相同,因此进入 {queue}",
    ),
    ("why_r_topic", 
        "{exchange} (topic): the binding pattern {key} matches the routing key, so it goes to {queue}",
        "{exchange}(topic):绑定模式 {key} 匹配路由键,因此进入 {queue}",
    ),
    ("why_r_fanout", 
        "{exchange} (fanout): every bound queue gets a copy, {queue} among them",
        "{exchange}(fanout):每个绑定的队列都得到一份,{queue} 是其中之一",
    ),
    ("why_r_headers", 
        "{exchange} (headers): its headers match the binding's arguments {args}, so it goes to {queue}",
        "{exchange}(headers):消息头匹配绑定参数 {args},因此进入 {queue}",
    ),
    ("why_r_default", 
        "The default exchange: the routing key {key} is the name of the queue",
        "默认交换机:路由键 {key} 就是队列名",
    ),
    ("why_hop_binding", 
        "{from} → {to}: an exchange-to-exchange binding, key {key}",
        "{from} → {to}:交换机到交换机的绑定,键 {key}",
    ),
    ("why_hop_alternate", 
        "{from} matched no binding: its alternate exchange {to} took it",
        "{from} 没有匹配的绑定:由它的备用交换机 {to} 接收",
    ),
    // Why: TTL.
    ("why_ttl_none", 
        "No TTL (the queue has no x-message-ttl, the message no expiration): it waits until consumed",
        "没有 TTL(队列没有 x-message-ttl,消息没有 expiration):一直等到被消费",
    ),
    ("why_ttl_queue", 
        "TTL {ttl} from the queue's x-message-ttl, counted from now: expires at {at}",
        "TTL {ttl} 来自队列的 x-message-ttl,从现在算起:{at} 到期",
    ),
    ("why_ttl_message", 
        "TTL {ttl} from the message's expiration, counted from now: expires at {at}",
        "TTL {ttl} 来自消息的 expiration,从现在算起:{at} 到期",
    ),
    ("why_ttl_both", 
        "TTL {ttl}: the lower of the queue's x-message-ttl ({queue_ttl}) and the message's expiration ({msg_ttl}), fixed now: expires at {at}",
        "TTL {ttl}:取队列 x-message-ttl({queue_ttl})与消息 expiration({msg_ttl})中较小者,入队时确定:{at} 到期",
    ),
    // Why: expiry.
    ("why_x_on_time", 
        "Its TTL passed while it was the head of the queue: it left on time",
        "TTL 到期时它正位于队头:准时离开",
    ),
    ("why_x_behind", 
        "{late} late: its TTL passed at {ttl_at}, but only the head of a queue expires",
        "迟到 {late}:它的 TTL 已于 {ttl_at} 到期,但只有队头的消息才会过期",
    ),
    ("why_x_head", 
        "It waited behind {head}, the head of {queue} from {from} to {to}",
        "它排在 {head} 之后;{head} 从 {from} 到 {to} 位于 {queue} 的队头",
    ),
    ("why_x_earlier", 
        "… and, before {from}, behind earlier heads",
        "……在 {from} 之前,还排在更早的队头之后",
    ),
    ("why_x_unacked", 
        "{late} late: its TTL passed at {ttl_at} while a consumer held it unacknowledged (an unacked message does not expire); back in the queue, it expired",
        "迟到 {late}:它的 TTL 于 {ttl_at} 到期时正被消费者持有、尚未确认(未确认的消息不会过期);回到队列后才过期",
    ),
    ("why_x_retry", 
        "{late} late: its TTL passed at {ttl_at} while delayed retry held it back; back in the queue, it expired",
        "迟到 {late}:它的 TTL 于 {ttl_at} 到期时正被延迟重试扣留;回到队列后才过期",
    ),
    ("why_x_held_time", 
        "{late} late: its TTL passed at {ttl_at} while x-opt-delivery-time held it (a held message does not expire); released, it expired at once",
        "迟到 {late}:它的 TTL 于 {ttl_at} 到期时正按 x-opt-delivery-time 被保留(被保留的消息不会过期);放行后立即过期",
    ),
    ("why_x_node", 
        "{late} late: the node was down when its time came ({ttl_at}); it went when the node started",
        "迟到 {late}:到期时({ttl_at})节点宕机;节点恢复后才处理",
    ),
    ("why_x_busy", 
        "{late} late: the broker was busy (measured costs)",
        "迟到 {late}:Broker 正忙(实测成本模型)",
    ),
    // Why: dead-lettering, drops.
    ("why_dl_to", 
        "Republished to its dead-letter exchange {dlx} with routing key {keys}",
        "重新发布到死信交换机 {dlx},路由键 {keys}",
    ),
    ("why_limit_len", 
        "x-max-length {max} ({overflow}): the queue was over its limit when {by} arrived",
        "x-max-length {max}({overflow}):{by} 到达时队列超过了上限",
    ),
    ("why_limit_bytes", 
        "x-max-length-bytes {max} ({overflow}): the queue was over its limit when {by} arrived",
        "x-max-length-bytes {max}({overflow}):{by} 到达时队列超过了上限",
    ),
    ("why_limit_refused", 
        "The queue is full: {limit} {max} with x-overflow {overflow} refuses new messages",
        "队列已满:{limit} {max},x-overflow {overflow} 拒绝新消息",
    ),
    ("why_limit_delivery", 
        "Returned {count} times: over x-delivery-limit {limit}",
        "已退回 {count} 次:超过 x-delivery-limit {limit}",
    ),
    ("why_count_return", 
        "Counted toward the delivery limit: return {count} of the {limit} allowed",
        "计入投递次数上限:第 {count} 次退回(上限 {limit} 次)",
    ),
    ("why_count_failed", 
        "A failed delivery, counted toward the delivery limit: {count} of the {limit} allowed",
        "一次失败的投递,计入投递次数上限:第 {count} 次(上限 {limit} 次)",
    ),
    ("why_count_not", 
        "Not counted toward the delivery limit ({limit}): this version counts only failed deliveries (basic.reject requeue=true, a lost channel), not basic.nack or a consumer timeout; failed deliveries so far: {count}",
        "不计入投递次数上限({limit}):这个版本只计失败的投递(requeue=true 的 basic.reject、断开的通道),不计 basic.nack 和消费者超时;至今失败 {count} 次",
    ),
    ("why_limit_failed_only", 
        "(4.3 counts only failed deliveries: basic.reject with requeue, a lost channel)",
        "(4.3 只计失败的投递:requeue 的 basic.reject、断开的通道)",
    ),
    ("why_d_no_dlx", 
        "The queue has no x-dead-letter-exchange: nothing takes it on",
        "队列没有 x-dead-letter-exchange:没有去处",
    ),
    ("why_d_dlx_missing", 
        "Its dead-letter exchange {dlx} does not exist (RabbitMQ looks it up when the message dies)",
        "它的死信交换机 {dlx} 不存在(RabbitMQ 在消息死亡时才查找)",
    ),
    ("why_d_cycle", 
        "A dead-letter cycle: it had already died in {queue} ({earlier}) with no rejection since, so RabbitMQ drops it instead of looping",
        "死信循环:它此前已在 {queue} 死过一次({earlier}),其间没有被拒绝,因此 RabbitMQ 丢弃它而不是无限循环",
    ),
    ("why_d_no_route", 
        "No binding of {exchange} matched the routing key {keys}, and no alternate exchange took it",
        "{exchange} 没有绑定匹配路由键 {keys},也没有备用交换机接收",
    ),
    ("why_d_purged", "The queue was purged", "队列被清空"),
    ("why_d_deleted", "The queue was deleted", "队列被删除"),
    ("why_d_node_lost", "The node that held it was lost", "保存它的节点丢失了"),
    ("why_d_lost_in_store", "The store lost it (an injected fault)", "存储丢失了它(注入的故障)"),
    ("why_d_plugin_removed", 
        "RabbitMQ 4.3 cannot run the delayed-message plugin: what it held is lost",
        "RabbitMQ 4.3 无法运行延迟消息插件:插件中保存的消息丢失",
    ),
    // Why: the delayed exchange, the publisher, consumers.
    ("why_delay_held", 
        "x-delay {delay}: the plugin stores it and routes it when due, with the bindings of then",
        "x-delay {delay}:插件先保存,到期时按当时的绑定路由",
    ),
    ("why_due_on_time", "Routed at its due time", "按时路由"),
    ("why_due_node", 
        "{late} late: the node was down at its due time ({due}); overdue messages go out when it starts",
        "迟到 {late}:到期时({due})节点宕机;节点启动后逾期消息才发出",
    ),
    ("why_due_busy", 
        "{late} late: the plugin's one process was busy (measured costs: inserts and earlier releases queue up)",
        "迟到 {late}:插件的单个进程正忙(实测成本模型:写入和更早的放行在排队)",
    ),
    ("why_ret_no_route", 
        "mandatory, and no queue took it",
        "设置了 mandatory,且没有队列接收它",
    ),
    ("why_ret_delayed", 
        "mandatory, and the delayed exchange holds it: the channel sees no route (it is still delivered when due)",
        "设置了 mandatory,而延迟交换机暂存了它:通道认为无路由(到期时仍会投递)",
    ),
    ("why_nack_refused", "A queue refused it (reject-publish)", "有队列拒收(reject-publish)"),
    ("why_redelivered", "redelivered", "重新投递"),
    ("why_late_total", "{late} late in all", "共迟到 {late}"),
    ("why_on_time", "on time", "准时"),
    ("why_auto_ack", "auto-ack: acknowledged on delivery", "自动确认:投递即确认"),
    ("why_rej_dead", 
        "requeue=false: it dies with reason rejected",
        "requeue=false:以 rejected 原因死亡",
    ),
    ("why_rej_back", "requeue=true: it goes back to the queue", "requeue=true:回到队列"),
    ("why_retry_hold", 
        "Delayed retry holds it back until {at}, for delivery attempt {n}",
        "延迟重试将它扣留到 {at},届时进行第 {n} 次投递",
    ),
    // Why: what a quorum queue holds aside (RabbitMQ 4.4's x-opt-delivery-time).
    ("why_held_time", 
        "Held by x-opt-delivery-time until {at}: the quorum queue keeps it in the queue but not ready (not delivered, its TTL not checked) until then",
        "按 x-opt-delivery-time 保留到 {at}:仲裁队列把它留在队列中但不就绪(不投递,不检查 TTL),直到那时",
    ),
    ("why_rel_time", "Its x-opt-delivery-time came ({at})", "它的 x-opt-delivery-time 到了({at})"),
    ("why_rel_retry", "Its delayed retry is over ({at})", "延迟重试的等待结束({at})"),
    ("why_dt_classic", 
        "x-opt-delivery-time is ignored: classic queues never read it (only quorum queues of RabbitMQ 4.4 do), so it is ready at once",
        "x-opt-delivery-time 被忽略:经典队列从不读取它(只有 RabbitMQ 4.4 的仲裁队列会读),所以它立即就绪",
    ),
    ("why_dt_dead_letter", 
        "x-opt-delivery-time is not read on this path: at-most-once dead-lettering enqueues it ready at once (RabbitMQ 4.4 branch; whether 4.4.0 changed it is unconfirmed)",
        "这条路径不读取 x-opt-delivery-time:at-most-once 死信直接把它作为就绪消息入队(RabbitMQ 4.4 分支;4.4.0 是否改变尚未确认)",
    ),
    ("why_dt_type", 
        "x-opt-delivery-time is ignored: it is not an integer of milliseconds or a timestamp",
        "x-opt-delivery-time 被忽略:它不是毫秒整数,也不是 timestamp",
    ),
    ("why_dt_past", 
        "x-opt-delivery-time is not later than the time it arrived: ready at once",
        "x-opt-delivery-time 不晚于它到达的时间:立即就绪",
    ),
    ("why_not_kept", 
        "Only the first steps of this message are kept.",
        "只保留了这条消息的前面若干步。",
    ),
];

/// The template for `key`; else `i18n::t`'s words (the key itself when it has none:
/// visible, never a panic).
pub fn t(lang: Lang, key: &'static str) -> &'static str {
    crate::i18n::word(WORDS, lang, key).unwrap_or_else(|| crate::i18n::t(lang, key))
}

/// `template` with each `{name}` replaced by its value.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// The template for `key` in `lang`, filled.
pub fn say(lang: Lang, key: &'static str, values: &[(&str, &str)]) -> String {
    fill(t(lang, key), values)
}

/// The holes (`{name}`) of a template, sorted, each once: a word's English and Chinese
/// templates must have the same ones.
#[cfg(test)]
pub(crate) fn holes(s: &str) -> Vec<String> {
    let mut h: Vec<String> = s
        .split('{')
        .skip(1)
        .filter_map(|p| p.split_once('}').map(|(n, _)| n.to_string()))
        .collect();
    delaylab_engine::sort::sort(&mut h);
    h.dedup();
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hole_of_an_english_template_is_in_its_chinese_one() {
        for &(k, en, zh) in WORDS {
            assert!(
                k.starts_with("why_") && !en.is_empty() && !zh.is_empty(),
                "{k}"
            );
            assert_eq!(holes(en), holes(zh), "{k}");
            assert_eq!(WORDS.iter().filter(|w| w.0 == k).count(), 1, "{k} twice");
        }
    }

    /// The split that keeps these words out of the start-up wasm: `i18n::t` (what the
    /// first screen reads) never reaches them; this module's `t` reaches its words.
    #[test]
    fn the_story_words_are_reached_through_this_module_only_and_fall_back_to_i18n() {
        for &(k, en, _) in WORDS {
            assert_eq!(
                crate::i18n::t(Lang::En, k),
                k,
                "{k} is a first-screen word too"
            );
            assert_eq!(t(Lang::En, k), en);
        }
        let dt = "why_dt_version";
        assert_ne!(crate::i18n::t(Lang::Zh, dt), dt);
        assert_eq!(t(Lang::Zh, dt), crate::i18n::t(Lang::Zh, dt));
    }

    #[test]
    fn fill_replaces_every_named_hole() {
        assert_eq!(
            fill("{a} and {b}, {a}", &[("a", "x"), ("b", "y")]),
            "x and y, x"
        );
    }
}
