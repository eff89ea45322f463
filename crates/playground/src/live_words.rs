//! The badge beside the scenario's name, in words (en, zh): what was checked against a
//! live broker for this scenario on this version (the engine's `version::live`), not a
//! claim about the version as a whole. The plugin's rules are said apart: they come from
//! its source and recorded facts, never a live broker here.
//!
//! ```text
//! head-of-line on 4.3:  ✓ Checked against a live RabbitMQ 4.3.6: all 6 rules this scenario uses
//! the plugin on 3.10:   ◐ 5 of 6 rules this scenario uses checked against a live RabbitMQ
//!                       3.10.8; the plugin's rules: from its source and recorded facts, not a
//!                       live broker
//! any scenario on 4.1:  ⓘ RabbitMQ 4.1.8: from RabbitMQ's source, not checked against a live broker
//! ```

use delaylab_engine::version::live::{LiveCheck, Used, NODE, PLUGIN, UPGRADE};

use crate::i18n::{t, Lang};

/// How much of the scenario was checked live: the badge's mark and style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    All,
    Part,
    None,
}

pub fn level(c: &LiveCheck) -> Level {
    let k = c.live_count();
    match c.version_live {
        false => Level::None,
        true if k == c.used.len() => Level::All,
        true if k == 0 => Level::None,
        true => Level::Part,
    }
}

/// The badge's text (without its mark).
pub fn badge(lang: Lang, c: &LiveCheck) -> String {
    let v = c.version.patch_release();
    let zh = lang == Lang::Zh;
    if !c.version_live {
        return if zh {
            format!("RabbitMQ {v}:依据 RabbitMQ 源码,未对照真实 Broker 验证")
        } else {
            format!("RabbitMQ {v}: from RabbitMQ's source, not checked against a live broker")
        };
    }
    let (n, k) = (c.used.len(), c.live_count());
    let mut s = match (level(c), zh) {
        (Level::All, false) if n > 0 => {
            format!("Checked against a live RabbitMQ {v}: all {n} rules this scenario uses")
        }
        (Level::All, true) if n > 0 => {
            format!("已对照真实的 RabbitMQ {v} 验证:这个场景用到的 {n} 条规则全部验证过")
        }
        (Level::All, false) => format!("Checked against a live RabbitMQ {v}"),
        (Level::All, true) => format!("已对照真实的 RabbitMQ {v} 验证"),
        (_, false) => {
            format!("{k} of {n} rules this scenario uses checked against a live RabbitMQ {v}")
        }
        (_, true) => format!("这个场景用到的 {n} 条规则中有 {k} 条已对照真实的 RabbitMQ {v} 验证"),
    };
    if c.uses_plugin() {
        s.push_str(if zh {
            ";插件的规则:依据其源码和记录的事实,未对照真实 Broker"
        } else {
            "; the plugin's rules: from its source and recorded facts, not a live broker"
        });
    }
    s
}

/// One used rule for the panel: its name, and how it is known on this version.
pub fn used_line(
    lang: Lang,
    u: &Used,
    notes: &[delaylab_engine::version::Note],
) -> (String, String) {
    let zh = lang == Lang::Zh;
    let name = match u.tag {
        PLUGIN => t(lang, "live_plugin").to_string(),
        NODE => t(lang, "live_node").to_string(),
        UPGRADE => t(lang, "live_upgrade").to_string(),
        "replay" => t(lang, "live_replay").to_string(),
        tag => match tag.strip_prefix("rule ") {
            Some(n) => t(lang, rule_key(n)).to_string(),
            None => notes
                .iter()
                .find(|n| n.row == tag)
                .map_or_else(|| tag.to_string(), |n| format!("{tag}: {}", n.text)),
        },
    };
    let how = match (u.cases.is_empty(), zh) {
        (false, false) => format!("checked live: {}", u.cases.join(", ")),
        (false, true) => format!("已在真实 Broker 上验证:{}", u.cases.join(", ")),
        (true, false) => "not checked against a live broker".to_string(),
        (true, true) => "未对照真实 Broker 验证".to_string(),
    };
    (name, how)
}

/// The text key of rule `n` of Part A (`chk_r1` .. `chk_r14`).
fn rule_key(n: &str) -> &'static str {
    const KEYS: [&str; 14] = [
        "chk_r1", "chk_r2", "chk_r3", "chk_r4", "chk_r5", "chk_r6", "chk_r7", "chk_r8", "chk_r9",
        "chk_r10", "chk_r11", "chk_r12", "chk_r13", "chk_r14",
    ];
    n.parse::<usize>()
        .ok()
        .and_then(|i| KEYS.get(i.wrapping_sub(1)))
        .copied()
        .unwrap_or("chk_intro")
}

#[cfg(test)]
mod tests {
    use super::*;
    use delaylab_engine::scenario::load_str;
    use delaylab_engine::version::live::live_check;
    use delaylab_engine::version::BrokerVersion::*;

    fn preset(name: &str) -> delaylab_engine::scenario::Scenario {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios")
            .join(format!("{name}.json"));
        load_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    }

    #[test]
    fn the_badge_says_what_was_checked_for_this_scenario() {
        let hol = preset("head-of-line-blocking");
        let c = live_check(&hol, V4_3);
        assert_eq!(level(&c), Level::All);
        assert!(badge(Lang::En, &c).starts_with("Checked against a live RabbitMQ 4.3.6: all "));
        let plugin = live_check(&preset("fix-delayed-plugin"), V3_10);
        assert_eq!(level(&plugin), Level::Part);
        let b = badge(Lang::En, &plugin);
        assert!(
            b.contains("rules this scenario uses checked against a live RabbitMQ 3.10.8"),
            "{b}"
        );
        assert!(
            b.ends_with(
                "; the plugin's rules: from its source and recorded facts, not a live broker"
            ),
            "{b}"
        );
        assert!(badge(Lang::Zh, &plugin).contains("插件的规则"));
        let off = live_check(&hol, V4_1);
        assert_eq!(level(&off), Level::None);
        assert_eq!(
            badge(Lang::En, &off),
            "RabbitMQ 4.1.8: from RabbitMQ's source, not checked against a live broker"
        );
    }

    #[test]
    fn each_rule_in_words() {
        let c = live_check(&preset("poison-message-3-10-vs-4-0"), V4_3);
        let notes = delaylab_engine::version::notes(V4_3);
        let lines: Vec<(String, String)> = c
            .used
            .iter()
            .map(|u| used_line(Lang::En, u, &notes))
            .collect();
        assert!(
            lines
                .iter()
                .any(|(n, h)| n.starts_with("D9: ") && h.starts_with("checked live: v08a")),
            "{lines:?}"
        );
        assert!(lines.iter().all(|(n, _)| !n.is_empty()));
    }
}
