//! Words of the gallery's "From the field" section (`src/app/panels/field.rs`), in
//! English and Simplified Chinese. The reports' own texts are the presets'
//! (`crate::field`, `crate::presets_field_zh`).

use crate::i18n::Lang;

pub fn t(lang: Lang, key: &'static str) -> &'static str {
    let (en, zh) = match key {
        "field_h" => ("From the field", "来自现场"),
        "field_hint" => (
            "Failures users reported in public, each replayed on the versions it happened on: open one to watch it happen (its checks show the failure, reproduced), read the broker rule behind it, then open the fix its project adopted.",
            "用户公开报告过的故障,每一个都在发生过的版本上重放:打开一个,看它如何发生(它的检查显示重现的故障),读一读背后的 Broker 规则,再打开该项目采用的修复。",
        ),
        "field_saw" => ("What users saw", "用户看到的"),
        "field_rule" => ("The broker's rule", "Broker 的规则"),
        "field_replay" => ("Replay the failure", "重放这次故障"),
        "field_fix" => ("Open the fix", "打开修复"),
        "field_reported" => ("reported", "报告于"),
        "field_threads" => ("The report and its threads", "报告及相关讨论"),
        "field_on" => ("written for RabbitMQ", "适用于 RabbitMQ"),
        _ => return crate::i18n_orders::t(lang, key),
    };
    if lang == Lang::Zh {
        zh
    } else {
        en
    }
}
