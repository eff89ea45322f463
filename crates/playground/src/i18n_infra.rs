//! Words of the timeline, the panels whose module is still being built, the check
//! editor and the embed's size (en, zh), kept apart from the shared table so that
//! branches adding words do not meet in one place: [`crate::i18n::t`] falls through
//! [`crate::i18n_page::t`] to here.

use crate::i18n::Lang;

pub fn t(lang: Lang, key: &'static str) -> &'static str {
    let (en, zh) = match key {
        "tl_label" => ("Timeline", "时间轴"),
        "tl_keys" => (
            "Drag or use the arrow keys to move the clock; Page Down and Page Up go to the next and previous marked moment.",
            "拖动或用方向键移动时钟;Page Down / Page Up 跳到下一个 / 上一个标记的时刻。",
        ),
        "tl_next" => ("Next:", "下一个:"),
        "tl_none" => ("No marked moment ahead.", "前面没有标记的时刻。"),
        "tl_looking" => ("(looking ahead for more…)", "(正在向前查找更多时刻…)"),
        "tl_cut_short" => (
            "(a long run: marks go as far as the look-ahead went)",
            "(运行很长:标记只到预先查看的位置)",
        ),
        "mod_what_export" => ("the code exporter", "代码导出器"),
        "mod_what_strategies" => ("the strategy comparison", "策略对比"),
        "code_load_network" => (
            "The exporter could not be fetched (check the connection, then close and reopen this panel)",
            "无法获取导出器(请检查网络,然后关闭并重新打开此面板)",
        ),
        "strat_load_network" => (
            "The comparison could not be fetched (check the connection):",
            "无法获取方案对比(请检查网络):",
        ),
        _ => (key, key),
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
            "tl_label",
            "tl_keys",
            "tl_next",
            "tl_none",
            "tl_looking",
            "tl_cut_short",
            "mod_what_export",
            "mod_what_strategies",
            "code_load_network",
            "strat_load_network",
        ] {
            assert_ne!(t(Lang::En, k), k);
            assert_ne!(t(Lang::En, k), t(Lang::Zh, k));
        }
    }
}
