//! The page's words for RabbitMQ 4.4 (en, zh): "deliver at" on the Publish form, held
//! messages and their countdown, the sandbox's two paths with the versions each works
//! on, and the comparison off the plugin. Kept apart from the shared tables so that
//! branches adding words do not meet in one place: [`crate::i18n::t`] falls through
//! [`crate::i18n_orders::t`] and [`crate::i18n_page::t`] to here. Templates have named
//! holes (`{queues}`), filled by [`crate::i18n_why::fill`].

use crate::i18n::Lang;

/// Every word: (key, English, Chinese).
const WORDS: &[(&str, &str, &str)] = &[
    // The Publish form.
    ("deliver_at", "deliver at", "投递时间"),
    ("dw_in", "in (a delay)", "延迟(多久后)"),
    ("dw_at", "at (a time on the clock)", "时刻(时钟上的时间)"),
    ("dw_label", "deliver at: a delay or a time", "投递时间:延迟或时刻"),
    (
        "dt_held",
        "→ x-opt-delivery-time: {queues} holds the message until then (a quorum queue on RabbitMQ {v}), then delivers it ahead of its ready messages.",
        "→ x-opt-delivery-time:{queues} 会把消息保留到那时(RabbitMQ {v} 的仲裁队列),然后排在就绪消息之前投递。",
    ),
    ("dt_not_offered", "deliver at is not offered here.", "这里不提供投递时间。"),
    ("dt_in_queues", "{queues}:", "{queues}:"),
    (
        "dt_no_queue",
        "This exchange and routing key reach no queue: none would read x-opt-delivery-time.",
        "这个交换机和路由键不会到达任何队列:没有队列会读取 x-opt-delivery-time。",
    ),
    (
        "dt_repeat",
        "A repeated publish writes the same time into every run.",
        "重复发布时,每一次都写入同一个时间。",
    ),
    // Held messages: the Queues panel's chips, the topology box.
    ("held_due", "◷ due in {left} ({at})", "◷ {left} 后放行({at})"),
    ("held_retry", "⟳ retry in {left}, attempt {n}", "⟳ {left} 后重试,第 {n} 次投递"),
    ("held_next", "next {left}", "{left} 后放行下一条"),
    // The sandbox's paths.
    ("qp_wait", "Through a DLX wait queue", "经 DLX 等待队列"),
    (
        "qp_time",
        "Straight into {queue} with x-opt-delivery-time",
        "带 x-opt-delivery-time 直接发布到 {queue}",
    ),
    ("works_all", "works on every version", "所有版本都可用"),
    ("works_from", "works on {v}+", "{v} 及以后可用"),
    ("works_on", "works on {list}", "可用于 {list}"),
    ("works_range", "works on {from}–{to}", "可用于 {from}–{to}"),
    ("works_none", "on time on no version", "在任何版本上都不准时"),
    ("kind_quorum", "quorum queue", "仲裁队列"),
    ("kind_classic", "classic queue", "经典队列"),
    ("inert_on", "On RabbitMQ {v} this path is inert:", "在 RabbitMQ {v} 上这条路径无效:"),
    // The way off the plugin.
    (
        "off_plugin_link",
        "The plugin cannot run here: this is what replaces it",
        "插件无法在这里运行:这是替代它的方案",
    ),
    ("compare_mode_off_plugin", "off the plugin", "告别插件"),
    ("compare_off_plugin", "Off the plugin, side by side", "告别插件:并排对比"),
    (
        "compare_off_plugin_hint",
        "The same six orders (30 min, 5 min and 10 s, mixed, one a minute) and the node lost for good at 15:00, three ways: the delayed-message plugin on RabbitMQ 4.2 (its last version), one quorum wait queue per delay (x-message-ttl + DLX) on 4.3, one quorum queue holding each order until its x-opt-delivery-time on 4.4. Each lane runs on its own version on the playground clock; under the lanes, each way's cost at the workload's scale.",
        "同样的六个订单(30 分钟、5 分钟、10 秒混在一起,每分钟一个),并在 15:00 永久失去节点,三种做法:RabbitMQ 4.2(插件的最后版本)上的延迟消息插件;4.3 上每种延迟一个仲裁等待队列(x-message-ttl + DLX);4.4 上一个仲裁队列按 x-opt-delivery-time 保留每个订单。每条泳道在各自的版本上运行,跟随播放器的时钟;泳道下方是各做法在工作负载规模下的成本。",
    ),
    ("lane_lost", "lost", "丢失"),
    ("lane_held", "held", "保留中"),
    (
        "cost_title",
        "At the workload's scale: {n} orders over {over}, delays {delays}, the strategy comparison's figures ({file})",
        "在工作负载规模下:{over} 内 {n} 个订单,延迟 {delays},来自延迟方案对比的数字({file})",
    ),
    ("cost_way", "way", "做法"),
    ("cost_works_on", "works on", "可用版本"),
    ("cost_objects", "broker objects", "Broker 对象"),
    ("cost_peak", "stored at peak", "峰值存储"),
    ("cost_work", "work per order", "每单工作量"),
    ("cost_late", "late (p99 / max)", "迟到(p99 / 最大)"),
    ("cost_running", "computing at scale…", "正在按规模计算…"),
    ("cost_missing", "not in this build's strategy comparison", "此版本的方案对比中没有"),
];

/// The word for `key` in `lang`; the key itself when it has none (visible, no panic).
pub fn t(lang: Lang, key: &'static str) -> &'static str {
    crate::i18n::word(WORDS, lang, key).unwrap_or_else(|| crate::i18n_infra::t(lang, key))
}

/// The template for `key` in `lang`, its holes filled.
pub fn say(lang: Lang, key: &'static str, values: &[(&str, &str)]) -> String {
    crate::i18n_why::fill(t(lang, key), values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_has_both_languages_and_the_same_holes() {
        for &(k, en, zh) in WORDS {
            let holes = crate::i18n_why::holes;
            assert!(!en.is_empty() && !zh.is_empty(), "{k}");
            assert_eq!(holes(en), holes(zh), "{k}");
            assert_eq!(WORDS.iter().filter(|w| w.0 == k).count(), 1, "{k} twice");
            assert_eq!(crate::i18n::t(Lang::Zh, k), zh, "{k} reached from i18n::t");
        }
    }
}
