//! The page's words for RabbitMQ 4.4 (en, zh): "deliver at" on the Publish form, held
//! messages and their countdown, the sandbox's two paths with the versions each works
//! on, and the comparison off the plugin. Kept apart from the shared tables so that
//! branches adding words do not meet in one place: [`crate::i18n::t`] falls through
//! [`crate::i18n_orders::t`] and [`crate::i18n_page::t`] to here. Templates have named
//! holes (`{queues}`), filled by [`crate::i18n_why::fill`].

use crate::i18n::Lang;

/// Every word the first screen may show: (key, English, Chinese; `words!`); the panels'
/// are `i18n_panels`'.
pub(crate) const WORDS: &[(&str, &str, &str)] = words![
    // Held messages: the topology box.
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
    (
        "works_none",
        "on time on no version",
        "在任何版本上都不准时"
    ),
    ("kind_quorum", "quorum queue", "仲裁队列"),
    ("kind_classic", "classic queue", "经典队列"),
    (
        "inert_on",
        "On RabbitMQ {v} this path is inert:",
        "在 RabbitMQ {v} 上这条路径无效:"
    ),
    // The way off the plugin.
    ("lane_held", "held", "保留中"),
];

/// The word for `key` in `lang`; the key itself when it has none (visible, no panic).
pub fn t(lang: Lang, key: &'static str) -> &'static str {
    crate::i18n::word_or_panel(WORDS, lang, key).unwrap_or_else(|| crate::i18n_infra::t(lang, key))
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
