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
        "late_story" => ("Read its story", "查看它的经历"),
        "cf_add" => ("＋ Add a check", "＋ 添加检查"),
        "cf_kind" => ("What must hold", "检查内容"),
        "cf_k_delivered" => ("a message is delivered by a time", "某条消息在某时刻前被投递"),
        "cf_k_dropped" => ("nothing is dropped", "没有消息被丢弃"),
        "cf_k_order" => ("deliveries come in this order", "投递按此顺序到达"),
        "cf_k_count" => ("something happens so many times", "某件事发生的次数"),
        "cf_body" => ("Message (its body)", "消息(消息体)"),
        "cf_bodies" => ("Bodies in order, separated by commas", "按顺序的消息体,用逗号分隔"),
        "cf_by" => ("By (a time: 6:00, 2h17m)", "时刻(如 6:00、2h17m)"),
        "cf_of" => ("What to count", "计数对象"),
        "cf_bound" => ("Bound", "界限"),
        "cf_count" => ("Times", "次数"),
        "cf_queue" => ("Queue (optional)", "队列(可选)"),
        "cf_label" => ("Label (optional)", "标签(可选)"),
        "cf_label_default" => ("It reads:", "将显示为:"),
        "cf_add_btn" => ("Add the check", "添加此检查"),
        "cf_added" => ("Added: the run starts again from 0:00 (Undo takes it back).", "已添加:运行从 0:00 重新开始(撤销可取消)。"),
        "cj_open" => ("Edit the checks as JSON", "以 JSON 编辑检查"),
        "cj_title" => ("The scenario's checks (JSON)", "场景的检查(JSON)"),
        "cj_hint" => (
            "One object per check: a label and one kind (see docs/checks.md). Apply loads the scenario with these checks; a mistake is shown at its line and column.",
            "每个检查一个对象:一个 label 加一种检查(见 docs/checks.md)。“应用”会用这些检查重新加载场景;错误会标出所在的行和列。",
        ),
        "cj_not_list" => ("The checks are a JSON list: [ {...}, {...} ]", "检查必须是一个 JSON 列表:[ {...}, {...} ]"),
        "cj_apply" => ("Apply", "应用"),
        "cj_cancel" => ("Cancel", "取消"),
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
            "late_story",
            "cf_add",
            "cf_kind",
            "cf_k_delivered",
            "cf_k_dropped",
            "cf_k_order",
            "cf_k_count",
            "cf_body",
            "cf_bodies",
            "cf_by",
            "cf_of",
            "cf_bound",
            "cf_count",
            "cf_queue",
            "cf_label",
            "cf_label_default",
            "cf_add_btn",
            "cf_added",
            "cj_open",
            "cj_title",
            "cj_hint",
            "cj_not_list",
            "cj_apply",
            "cj_cancel",
        ] {
            assert_ne!(t(Lang::En, k), k);
            assert_ne!(t(Lang::En, k), t(Lang::Zh, k));
        }
    }
}
