//! UI text in English and Simplified Chinese. Scenario texts (name, description, what
//! to watch) come from the preset files; RabbitMQ's own names, codes and texts are
//! never translated (a learner searches for them).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    /// The code a share link's view options and a module boundary carry: "en" or "zh".
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The language of `code` ("en", "zh"), or None.
    pub fn of_code(code: &str) -> Option<Lang> {
        match code {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }
}

/// Every text of the first screen: (key, English, Chinese; `words!`). A table read by a
/// search, not a `match` (whose string compares were 11.6 KB of start-up code, issue 29
/// item 10). The words only panels in chunks show are `i18n_panels`'.
pub(crate) const TEXTS: &[(&str, &str, &str)] = words![
    ("skip", "Skip to the playground", "跳到主要内容"),
    // The playground's two side columns (<aside>): landmarks need names that tell them apart.
    ("area_left", "Scenarios", "场景"),
    ("area_right", "Publish, consume, inspect", "发布、消费与查看消息"),
    ("tagline", "Watch delayed messages move through a simulated RabbitMQ 3.10 to 4.4: TTL + DLX wait queues, retries, 4.4's delivery time, what each version changes.", "看延迟消息怎样流过模拟的 RabbitMQ(3.10 至 4.4):TTL + 死信等待队列、重试、4.4 的投递时间,以及各版本的差异。"),
    ("virtual_time", "virtual time", "虚拟时间"),
    ("footer", "a deterministic simulation of RabbitMQ (3.10 to 4.4) running in your browser (WebAssembly)", "在浏览器中运行的 RabbitMQ(3.10 至 4.4)确定性模拟(WebAssembly)"),
    ("controls", "Clock controls", "时钟控制"),
    ("play", "Play", "播放"),
    ("pause", "Pause", "暂停"),
    ("step", "Step", "单步"),
    ("step_hint", "Run to the next marked moment on the timeline (else the next thing that happens)", "运行到时间轴上的下一个标记时刻(没有则到下一个事件)"),
    ("restart", "Restart", "重新开始"),
    ("speed", "Speed", "速度"),
    ("speed_presets", "Speed presets", "速度预设"),
    ("jump_to", "Jump to", "跳转到"),
    ("go", "Go", "跳转"),
    ("nothing_next", "Nothing is scheduled: publish a message or load a scenario.", "没有待发生的事件:发布一条消息或加载一个场景。"),
    ("max", "max", "最大"),
    ("manual_ack", "manual ack", "手动确认"),
    ("c_stopped", "stopped", "已停止"),
    ("c_not_attached", "not attached", "未订阅"),
    ("k_publisher", "publisher", "生产者"),
    ("k_exchange", "exchange", "交换机"),
    ("k_queue", "queue", "队列"),
    ("k_consumer", "consumer", "消费者"),
    ("seek_too_far", "The clock goes at most 30 days (720:00:00).", "时钟最多只能到 30 天(720:00:00)。"),
    ("running_to", "Running to", "正在运行到"),
    ("reached_until", "The scenario ends at", "场景结束于"),
    ("gallery", "Scenarios", "场景库"),
    ("try_again", "Try again", "重试"),
    ("deferred_failed", "This part of the page could not be loaded", "页面的这一部分未能加载"),
    ("gallery_hint", "One click loads a scenario; then press Play or jump to a time.", "点击加载场景,然后按播放或跳转到某个时间。"),
    ("scenario", "Scenario", "场景"),
    ("what_to_watch", "What to watch:", "观察要点:"),
    ("x_refusing", "✕ refuses every publish: {code}", "✕ 拒绝所有发布:{code}"),
    ("x_refusing_label", "refuses every publish", "拒绝所有发布"),
    ("what_to_watch_on", "What to watch (on RabbitMQ {on}):", "观察要点(RabbitMQ {on}):"),
    ("this_run_on", "On RabbitMQ {v}, this run so far:", "在 RabbitMQ {v} 上,本次运行到目前为止:"),
    ("quick_publish", "Publish an order that waits", "发布一条订单,等待"),
    ("queues", "Queues", "队列"),
    ("ready", "ready", "就绪"),
    ("unacked", "unacked", "未确认"),
    ("overdue", "overdue", "已超时"),
    ("held", "held", "保留中"),
    ("publish", "Publish", "发布消息"),
    ("exchange", "Exchange", "交换机"),
    ("routing_key", "Routing key", "路由键"),
    ("body", "Body ({n} = number)", "消息体({n} 为序号)"),
    ("headers", "Other headers", "其他 headers"),
    ("repeat", "Repeat count", "重复次数"),
    ("every", "Every", "间隔"),
    ("checks", "Checks", "检查"),
    ("lateness", "Lateness", "延迟偏差"),
    ("kind", "Kind", "类型"),
    ("all", "All", "全部"),
    ("topology", "Topology", "拓扑"),
    ("topo_hint", "Drag a box (or focus it and use the arrow keys) to rearrange; chips move along the edges as messages are routed, dead-lettered and delivered.", "拖动方框(或聚焦后用方向键)调整布局;消息被路由、死信转发和投递时,消息块沿连线移动。"),
    ("lg_binding", "binding (routing key)", "绑定(路由键)"),
    ("lg_dlx", "dead-letter (DLX)", "死信(DLX)"),
    ("lg_consume", "consume", "消费"),
    ("lg_delayed", "dashed purple box: x-delayed-message exchange", "紫色虚线框:x-delayed-message 延迟交换机"),
    ("consumers", "Consumers", "消费者"),
    ("json_editor", "Scenario JSON (edit and load)", "场景 JSON(编辑并加载)"),
    ("line", "line", "第"),
    ("column", "column", "列"),
    ("record_full", "This scenario holds 10,000 actions, the most a scenario may have: later inputs still run but are not kept in the link or the autosave.", "该场景已有 10,000 个动作(上限):之后的操作仍会执行,但不会保存到链接或自动保存中。"),
    ("zoom", "Zoom", "缩放"),
    ("zoom_in", "Zoom in", "放大"),
    ("zoom_out", "Zoom out", "缩小"),
    ("fit", "Fit", "适应"),
    ("close", "Close", "关闭"),
    // Definitions export.
    ("export_defs", "Export definitions", "导出 definitions"),
    ("export_done", "Downloaded definitions.json (exchanges, queues, bindings). Import it into your broker with:", "已下载 definitions.json(交换机、队列、绑定)。用以下命令导入你的 Broker:"),
    ("export_plugin", "This scenario uses x-delayed-message: the importing broker needs the delayed-message plugin.", "此场景使用 x-delayed-message:导入的 Broker 需要安装延迟消息插件。"),
    ("export_left_out", "Not in the file: built-in exchanges (amq.*), exclusive queues and the timed actions.", "文件中不包含:内置交换机(amq.*)、排他队列和定时动作。"),
    ("export_code", "Export code", "导出代码"),
    ("ver_label", "RabbitMQ version", "RabbitMQ 版本"),
    ("ver_hint", "A change reloads the scenario from 0:00 on that version (kept in the link and the autosave).", "切换后场景会在该版本上从 0:00 重新加载(写入分享链接和自动保存)。"),
    // Event kinds (the engine's names stay visible in the trace files).
    ("consumer_attached", "consumer attached", "消费者已订阅"),
    ("consumer_detached", "consumer detached", "消费者已取消"),
    ("consumer_timeout", "ack timeout", "确认超时"),
    ("exchange_declared", "exchange declared", "声明交换机"),
    ("exchange_deleted", "exchange deleted", "删除交换机"),
    ("queue_declared", "queue declared", "声明队列"),
    ("queue_deleted", "queue deleted", "删除队列"),
    ("bound", "bound", "绑定"),
    ("unbound", "unbound", "解除绑定"),
    ("purged", "purged", "清空队列"),
    ("node_down", "node down", "节点宕机"),
    ("node_up", "node up", "节点恢复"),
    ("limit_reached", "limit reached", "达到模拟上限"),
    ("broker_upgraded", "broker upgraded", "Broker 升级"),
    // The topology editor's folded title (its forms' words are src/app/edit.rs's).
    ("edit_topology", "Edit the topology", "编辑拓扑"),
    // The one `why_` word the first screen shows (the quick publish's inert note);
    // the others are `i18n_why`'s, read by the panels below it only.
    ("why_dt_version",
        "x-opt-delivery-time is an ordinary header on this version: only quorum queues of RabbitMQ 4.4 hold a message until then, so it is ready at once",
        "在这个版本上 x-opt-delivery-time 只是普通 header:只有 RabbitMQ 4.4 的仲裁队列才会把消息保留到那时,所以它立即就绪",
    ),
];

/// The text for `key`; the key itself when it has none (visible, never a panic). The
/// panels' words (`i18n_panels`) come after the first screen's.
pub fn t(lang: Lang, key: &'static str) -> &'static str {
    match word_or_panel(TEXTS, lang, key) {
        Some(text) => text,
        None if key.starts_with("field_") => crate::i18n_field::t(lang, key),
        None => crate::i18n_orders::t(lang, key),
    }
}

/// `key` in `table`, else in the panels' words (`i18n_panels`): each table's `t` looks
/// there second, before its own fallback.
pub(crate) fn word_or_panel(
    table: &'static [(&'static str, &'static str, &'static str)],
    lang: Lang,
    key: &str,
) -> Option<&'static str> {
    word(table, lang, key).or_else(|| word(crate::i18n_panels::words(), lang, key))
}

/// `key`'s row of a (key, English, Chinese) table, in `lang`. The words live in tables
/// searched by this, not in `match`es, whose string compares were start-up code (issue
/// 29 item 10); each table's `t` falls through to the next when the key is not its own.
pub(crate) fn word(
    table: &'static [(&'static str, &'static str, &'static str)],
    lang: Lang,
    key: &str,
) -> Option<&'static str> {
    let (_, en, zh) = table.iter().find(|w| w.0 == key)?;
    Some(match lang {
        // The browser build's tables have no Chinese (`words!`): fetched, English until in.
        Lang::Zh => crate::zh_texts::word(key, zh).unwrap_or(en),
        Lang::En => en,
    })
}

/// Every table `word` reads, in the order the lookups fall through them: `zh-texts.json`'s
/// `words` are their Chinese column (`zh_texts::export`).
#[cfg(not(target_arch = "wasm32"))]
pub fn tables() -> [&'static [(&'static str, &'static str, &'static str)]; 5] {
    [
        TEXTS,
        crate::i18n_panels::WORDS,
        crate::i18n_orders::TEXTS,
        crate::i18n_qq44::WORDS,
        crate::i18n_why::WORDS,
    ]
}

/// The text key of an engine event kind.
pub fn kind_key(kind: &str) -> &'static str {
    match kind {
        "published" => "k_published",
        "enqueued" => "k_enqueued",
        "expired" => "k_expired",
        "dead_lettered" => "k_dead_lettered",
        "dead_letter_waiting" => "k_dead_letter_waiting",
        "delayed" => "k_delayed",
        "delay_due" => "k_delay_due",
        "delivered" => "k_delivered",
        "acked" => "k_acked",
        "rejected" => "k_rejected",
        "requeued" => "k_requeued",
        "released" => "k_released",
        "dropped" => "k_dropped",
        "returned" => "k_returned",
        "confirmed" => "k_confirmed",
        "error" => "k_error",
        "consumer_attached" => "consumer_attached",
        "consumer_detached" => "consumer_detached",
        "consumer_timeout" => "consumer_timeout",
        "exchange_declared" => "exchange_declared",
        "exchange_deleted" => "exchange_deleted",
        "queue_declared" => "queue_declared",
        "queue_deleted" => "queue_deleted",
        "bound" => "bound",
        "unbound" => "unbound",
        "purged" => "purged",
        "node_down" => "node_down",
        "node_up" => "node_up",
        "limit_reached" => "limit_reached",
        "broker_upgraded" => "broker_upgraded",
        _ => crate::i18n_orders::kind_key(kind),
    }
}

#[cfg(test)]
mod tests {
    use super::Lang;

    #[test]
    fn every_kind_the_engine_emits_has_words_in_both_languages() {
        for k in delaylab_engine::EventKind::ALL_KINDS {
            let key = super::kind_key(k);
            assert_ne!(key, "k_other", "{k} has no words");
            assert_ne!(super::t(Lang::Zh, key), key, "{k} has no Chinese words");
            assert!(!super::t(Lang::En, key).is_empty());
        }
    }

    #[test]
    fn a_key_is_in_one_table_only_and_has_chinese() {
        let rows: Vec<_> = super::tables().into_iter().flatten().collect();
        for (k, en, zh) in &rows {
            assert_eq!(rows.iter().filter(|r| r.0 == *k).count(), 1, "{k} twice");
            assert!(!en.is_empty() && !zh.is_empty(), "{k}");
        }
    }

    #[test]
    fn a_language_code_round_trips_and_an_unknown_one_is_none() {
        for l in [Lang::En, Lang::Zh] {
            assert_eq!(Lang::of_code(l.code()), Some(l));
        }
        assert_eq!(Lang::of_code("zh-CN"), None);
        assert_eq!(Lang::of_code(""), None);
    }
}
