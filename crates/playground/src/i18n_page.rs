//! The clock's, the Jump box's and the publish form's newer words (en, zh), kept apart
//! from the shared table so that branches adding words do not meet in one place:
//! [`crate::i18n::t`] falls through [`crate::i18n_orders::t`] to here, then to
//! [`crate::i18n_qq44::t`].

use crate::i18n::Lang;

pub fn t(lang: Lang, key: &'static str) -> &'static str {
    let (en, zh) = match key {
        "time_forms" => (
            "write a time like 40:00, 1:30:00, 2h17m, 90s or 360000 (milliseconds).",
            "请输入时间,例如 40:00、1:30:00、2h17m、90s 或 360000(毫秒)。",
        ),
        "time_clock_parts" => (
            "A clock has at most hours, minutes and seconds:",
            "时钟格式最多是 时:分:秒;",
        ),
        "time_unit_order" => (
            "each unit once, the largest first, like 2h17m30s.",
            "每个单位只能出现一次,并从大到小书写,例如 2h17m30s。",
        ),
        "quiet_stop" => (
            "Nothing is left to happen: the clock stopped at",
            "已没有待发生的事件:时钟停在",
        ),
        "quiet_stop_after" => (
            "(publish something, or press Play to let time run on).",
            "(发布消息,或按“播放”让时间继续走)。",
        ),
        "learn" => ("Learn", "学习"),
        "lesson_link" => (
            "Lesson: head-of-line blocking in a delay queue",
            "课程:延迟队列里的队头阻塞",
        ),
        "quiz_link" => (
            "Quiz: which order is closed first, A or B?",
            "小测验:A 和 B 哪个订单先被关闭?",
        ),
        // The presets' Chinese texts are fetched (zh_texts.rs): when that failed.
        "zh_texts_failed" => (
            "The presets' Chinese texts could not be loaded; they are shown in English",
            "场景的中文文本未能加载,暂以英文显示",
        ),
        // A field preset's file is fetched when opened (src/app/preset_fetch.rs): when that failed.
        "preset_fetch_failed" => ("the scenario could not be loaded", "场景未能加载"),
        _ => return crate::i18n_qq44::t(lang, key),
    };
    if lang == Lang::Zh {
        zh
    } else {
        en
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_has_both_languages() {
        for k in [
            "time_forms",
            "time_clock_parts",
            "time_unit_order",
            "quiet_stop",
            "quiet_stop_after",
            "learn",
            "lesson_link",
            "quiz_link",
            "zh_texts_failed",
            "preset_fetch_failed",
        ] {
            assert_ne!(t(Lang::En, k), k);
            assert_ne!(t(Lang::En, k), t(Lang::Zh, k));
        }
    }
}
