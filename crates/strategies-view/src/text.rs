//! The strategy comparison's words in the page's language: the table's headings and
//! cells, the workload presets' texts, parameters and the plain-language verdicts. The
//! workload files and the engine's result texts are English (for the CLI); in Chinese this
//! module says the same from the numbers.

use delaylab_engine::strategies::report::{figure_cells, grouped, human_ms, row_cells};
use delaylab_engine::strategies::{StrategyResult, WorkloadFile};

use delaylab_playground::i18n::Lang;

use super::view::dur_text;

pub(super) fn tr(lang: Lang, key: &'static str) -> &'static str {
    let (en, zh) = match key {
        "workload" => ("Workload", "工作负载"),
        "count" => ("Tasks", "任务数"),
        "over" => ("Created over", "创建时间跨度"),
        "outage" => ("Outage", "故障"),
        "none" => ("none", "无"),
        "restart" => ("restart", "重启"),
        "lose" => ("node lost", "节点丢失"),
        "at" => ("at", "时间"),
        "downtime" => ("downtime", "停机时长"),
        "full" => ("Full size", "完整规模"),
        "strategies" => ("Strategies", "方案"),
        "run" => ("Run", "运行"),
        "running" => ("Running", "运行中"),
        "done" => ("done", "完成"),
        "chart" => ("Lateness over due time (mean line, max dots)", "按到期时间的延迟(线为均值,点为最大值)"),
        "verdict" => ("Verdict", "结论"),
        "bad_count" => ("Tasks: a whole number from 1 to 2000000.", "任务数:1 到 2000000 的整数。"),
        "bad_duration" => ("Write durations like 10m, 90s or 2h (up to 1 day).", "请用 10m、90s 或 2h 这样的时长(最多 1 天)。"),
        "none_chosen" => ("Choose at least one strategy.", "请至少选择一个方案。"),
        "strategy" => ("strategy", "方案"),
        "late_mean" => ("late mean", "平均延迟"),
        "p99" => ("p99", "p99"),
        "max" => ("max", "最大"),
        "lost" => ("lost", "丢失"),
        "rows" => ("rows scanned", "扫描行数"),
        "objects" => ("objects", "broker 对象"),
        "peak" => ("peak stored", "峰值存量"),
        "work" => ("work/task", "每任务开销"),
        "params" => ("parameters", "参数"),
        "works_on" => ("works on", "可用版本"),
        "costs" => ("Broker speed", "broker 速度"),
        "costs_exact" => ("exact rules", "精确规则"),
        "costs_measured" => ("with RabbitMQ's speed (3.10.8, 2 cores)", "按 RabbitMQ 的实测速度(3.10.8,2 核)"),
        "costs_hint" => (
            "Applies to the broker strategies (DLX, plugin, quorum queue); the same as delaylab compare --costs ideal or --costs measured.",
            "作用于 broker 方案(DLX、插件、仲裁队列);与 delaylab compare --costs ideal 或 --costs measured 相同。",
        ),
        "costs_note_exact" => (
            "Figures from the exact rules: a broker that takes no time (delaylab compare --costs ideal). The plugin is never late here and a burst of expiries is dead-lettered in one millisecond.",
            "以下数据来自精确规则:broker 不耗时(delaylab compare --costs ideal)。这里插件从不迟到,一批同时到期的消息在一毫秒内全部死信。",
        ),
        "costs_note_measured" => (
            "Figures with RabbitMQ's speed: 3.10.8 on 2 cores as measured (delaylab compare --costs measured). The plugin's one process releases about one due millisecond per ~1 ms tick, so it drifts once backlogged; dead-lettering and deliveries take time, so a burst drains late.",
            "以下数据按 RabbitMQ 的实测速度:2 核上的 3.10.8(delaylab compare --costs measured)。插件只有一个进程,每约 1 毫秒的定时器只释放一个到期毫秒,积压后会越来越晚;死信和投递都要花时间,所以一批消息要排队慢慢放出。",
        ),
        _ => (key, key),
    };
    if lang == Lang::Zh {
        zh
    } else {
        en
    }
}

/// A workload preset's (name, description) in `lang`: the file's English, or Chinese
/// kept here (presets_zh.rs holds the playground's scenario presets, not these).
pub fn preset_texts(lang: Lang, id: &str, file: &WorkloadFile) -> (String, String) {
    let zh = match id {
        "promotion-burst" => Some((
            "大促峰值:10 分钟内 200,000 个订单",
            "一场促销在 10 分钟内带来 200,000 个订单。未支付的订单在 15 分钟、30 分钟或 1 小时后关闭(比例 1 : 2 : 1),与种子文章中的订单超时故事相同。没有故障:这里看的是峰值下的精度、扫描成本和队头阻塞。",
        )),
        "reminder-ladder" => Some((
            "阶梯提醒,中途重启",
            "一小时内发出 2,000 条付款提醒,分三级(10 分钟、30 分钟、2 小时)。第 40 分钟时,保存待发提醒的一方重启并停机 2 分钟:应用侧方案是应用,broker 方案是 broker 节点。停机期间创建的提醒在恢复后交接。",
        )),
        "plugin-backlog" => Some((
            "快速发布下的插件:17 秒内 100,000 个任务",
            "一个通道以最快速度(17 秒)发布 100,000 个任务,每个延迟 2 到 10 秒:即 broker-costs.md 第 3 节的实验设置。按精确规则,所有 broker 方案都准时;按 RabbitMQ 的实测速度,延迟消息插件只有一个进程,既要处理插入,每个定时器节拍又只释放一个到期毫秒,于是落后好几秒。单个 DLX 等待队列(消息级 TTL)无论哪种模式都会因为延迟混合而队头阻塞。",
        )),
        "any-delay-node-lost" => Some((
            "1 秒到 2 小时的任意延迟,节点丢失",
            "10 分钟内创建 10,000 个任务,每个任务的延迟在 1 秒到 2 小时之间任取。第 30 分钟时,保存等待任务的节点永久丢失并立即被替换。每个延迟一个队列行不通;固定等级会把延迟向上取整;插件的存储随节点一起丢失。",
        )),
        _ => None,
    };
    match zh {
        Some((name, description)) if lang == Lang::Zh => {
            (name.to_string(), description.to_string())
        }
        _ => (file.name.clone(), file.description.clone()),
    }
}

/// A lateness or a span, as the engine's `human_ms` (`12.3s`, `1.5m`, `2.00h`) with the
/// units in `lang`.
pub fn human(lang: Lang, ms: f64) -> String {
    in_lang(lang, human_ms(ms))
}

/// The engine's `12.3s` / `100ms` / `1m` in `lang`: the unit suffix after the number
/// (ms, s, m, h, d) in words.
pub(super) fn in_lang(lang: Lang, en: String) -> String {
    if lang == Lang::En {
        return en;
    }
    let unit_at = en
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(en.len());
    let (num, unit) = en.split_at(unit_at);
    format!("{num} {}", zh_unit(unit))
}

pub(super) fn zh_unit(unit: &str) -> &str {
    match unit {
        "ms" => "毫秒",
        "s" => "秒",
        "m" => "分钟",
        "h" => "小时",
        "d" => "天",
        other => other,
    }
}

/// A duration parameter (a period, a tick) in `lang`: `1m`, `100ms` / `1 分钟`, `100 毫秒`.
pub(super) fn dur_words(lang: Lang, ms: u64) -> String {
    in_lang(lang, dur_text(ms))
}

/// The parameters column in `lang` (English: the engine's own text).
pub fn params_text(r: &StrategyResult, lang: Lang) -> String {
    if lang == Lang::En {
        return r.params.clone();
    }
    let fact = |k: &str| r.fact(k).unwrap_or(0);
    let d = |k: &str| dur_words(lang, fact(k));
    match r.name {
        "polling-scan" => {
            let indexed = if fact("indexed") == 1 {
                "已建索引"
            } else {
                "未建索引"
            };
            let batch = r
                .fact("batch")
                .map_or(String::new(), |b| format!(",每批 {b}"));
            format!("周期 {},{indexed}{batch}", d("period_ms"))
        }
        "store-poll" => format!("每 {} 轮询一次", d("period_ms")),
        "store-notify" => format!(
            "过期扫描周期 {},超过 {} 个键时丢弃 {}%",
            d("expire_cycle_ms"),
            fact("pressure_above"),
            fact("drop_share_permille") as f64 / 10.0
        ),
        "timing-wheel" => format!("刻度 {},{} 个槽", d("tick_ms"), fact("wheel_size")),
        "dlx-per-message" => "单个队列,消息级 TTL".into(),
        "dlx-per-queue" => {
            let n = fact("queues_for_delays");
            format!("每个延迟一个队列(共 {} 个)", grouped(n))
        }
        "dlx-cascade" => format!("{} 级 2^n 秒队列", fact("levels")),
        "fixed-levels" => format!("{} 个等级,向上取整", fact("levels")),
        "plugin" => "x-delayed-message 交换机".into(),
        "qq-delivery-time" => "一个仲裁队列,x-opt-delivery-time(RabbitMQ 4.4)".into(),
        _ => r.params.clone(),
    }
}

/// The unit of the work-per-task column in `lang`.
pub(super) fn work_unit(unit: &str, lang: Lang) -> &str {
    if lang == Lang::En {
        return unit;
    }
    match unit {
        "rows" => "行",
        "ops" => "次操作",
        "visits" => "次访问",
        "events" => "个事件",
        other => other,
    }
}

/// The row's cells after the name, as the engine's `row_cells` but in `lang`; one cell
/// (the reason) for a strategy that does not apply.
pub fn cells(r: &StrategyResult, lang: Lang) -> Vec<String> {
    if lang == Lang::En {
        return row_cells(r).split_off(1);
    }
    if r.not_applicable.is_some() {
        return vec![not_applicable_zh(r)];
    }
    let mut cells = figure_cells(r, |ms| human(lang, ms)).to_vec();
    cells.push(format!(
        "{:.1} {}",
        r.work_per_task,
        work_unit(r.work_unit, lang)
    ));
    cells.push(params_text(r, lang));
    cells
}

/// Why a strategy does not apply, in Chinese (the engine's reason is English).
fn not_applicable_zh(r: &StrategyResult) -> String {
    match r.name {
        "plugin" => "不适用:延迟消息插件无法运行在这个 RabbitMQ 版本上(4.3 起;2026 年 1 月已归档,最后的 v4.2.0 只能运行在 4.2)".into(),
        "qq-delivery-time" => "不适用:RabbitMQ 4.4 起仲裁队列才会按 x-opt-delivery-time 保留消息;在这个版本上它只是普通 header,所有任务会立即触发".into(),
        _ => {
            let n = r.fact("queues_for_delays").map_or(String::new(), grouped);
            format!("不适用:{n} 个不同的延迟需要同样多的队列(超过 max_queues);请改用 fixed-levels 或 dlx-cascade")
        }
    }
}

pub(super) const HEADER_KEYS: [&str; 11] = [
    "strategy",
    "works_on",
    "late_mean",
    "p99",
    "max",
    "lost",
    "rows",
    "objects",
    "peak",
    "work",
    "params",
];

/// Lateness from which a broker strategy counts as late in its verdict (the broker's
/// speed, not the rules, made it so: RabbitMQ's measured costs).
const LATE_VERDICT_MS: i64 = 1_000;

/// The verdict template of a strategy for its numbers; `{name}` placeholders are filled
/// by [`verdict`].
pub(super) fn template(r: &StrategyResult, lang: Lang) -> &'static str {
    let lost = r.lost > 0;
    let (en, zh) = match r.name {
        _ if r.delivered == 0 && lost => (
            "All {lost} tasks lost with the node: they were all still waiting in classic queues, whose contents live on that one node.",
            "全部 {lost} 个任务随节点丢失:它们都还在经典队列里等待,而经典队列的内容只存在那一个节点上。",
        ),
        _ if r.not_applicable.is_some() => ("Not applicable: {why}", "{why_zh}"),
        "polling-scan" => (
            "Lateness bounded by the {period} period (max {max}); scans up to {rows_per_run} rows per run ({rows} in all, done rows included unless indexed); one instance holds the lock. Fits small tables and coarse deadlines.",
            "延迟受 {period} 扫描周期限制(最大 {max});每次最多扫描 {rows_per_run} 行(共 {rows} 行,未建索引时包括已完成的行);只有持锁的一个实例在跑。适合数据量小、对时间要求不高的场景。",
        ),
        "store-poll" => (
            "Within the {period} poll period (max {max}); reads only the due entries ({rows}); the store survives an app restart. A solid fallback, at the cost of one more store to run.",
            "延迟在 {period} 轮询周期内(最大 {max});只读取到期的条目({rows} 条);应用重启不丢数据。适合作兜底方案,代价是多维护一个存储。",
        ),
        "store-notify" if lost => (
            "Precise (max {max}), but {lost} of {tasks} tasks lost: expiry notifications are fire-and-forget ({dropped} dropped under memory pressure, {down} while the app was down). Not for orders.",
            "很准时(最大 {max}),但 {tasks} 个任务中丢了 {lost} 个:过期通知发出即忘({dropped} 个因内存压力丢失,{down} 个在应用停机时丢失)。不适合订单。",
        ),
        "store-notify" => (
            "Precise (max {max}) and nothing lost here, but notifications are fire-and-forget: under memory pressure or while the app is down they are lost.",
            "很准时(最大 {max}),这里没有丢失;但通知发出即忘,内存压力大或应用停机时会丢。",
        ),
        "timing-wheel" if lost => (
            "Precise to the {tick} tick, but the outage lost {lost} tasks held in memory; long delays take up to {rounds} rounds of the wheel. Fits short, loss-tolerant timeouts.",
            "精确到 {tick} 的刻度,但故障让内存中的 {lost} 个任务全部丢失;长延迟要转 {rounds} 圈。适合短的、可容忍丢失的超时。",
        ),
        "timing-wheel" => (
            "Precise to the {tick} tick (max {max}); long delays take up to {rounds} rounds; everything is lost on a restart, and several instances need coordination.",
            "精确到 {tick} 的刻度(最大 {max});长延迟最多转 {rounds} 圈;重启即全部丢失,多实例还需要协调。",
        ),
        "dlx-per-message" if r.lateness.max_ms > LATE_VERDICT_MS => (
            "Head-of-line blocking: mixed delays in one queue make tasks up to {max} late (mean {mean}). Only for a single fixed delay.{lost_note}",
            "队头阻塞:不同延迟混在一个队列里,任务最多晚 {max}(平均 {mean})。只适合单一固定延迟。{lost_note}",
        ),
        "dlx-per-message" => (
            "On time here (max {max}): no mixed delays waited behind longer ones. With mixed delays short ones would wait behind long ones.{lost_note}",
            "这里准时(最大 {max}):没有短延迟排在长延迟后面。一旦延迟混合,短的就会被长的堵住。{lost_note}",
        ),
        "dlx-per-queue" if r.lateness.max_ms > LATE_VERDICT_MS => (
            "Up to {max} late (mean {mean}) with one queue per delay: the broker takes time to take the burst, expire and dead-letter it, so the due messages drain one after another.{lost_note}",
            "每个延迟一个队列,但最多晚 {max}(平均 {mean}):broker 接收、过期和死信这批消息都要时间,到期的消息只能一个接一个放出。{lost_note}",
        ),
        "dlx-per-queue" => (
            "On time (max {max}) with one queue per delay: {queues} queues, {objects} objects to declare; every new delay needs a new queue.{lost_note}",
            "每个延迟一个队列,准时(最大 {max}):{queues} 个队列,需声明 {objects} 个对象;每新增一种延迟就要新建队列。{lost_note}",
        ),
        "dlx-cascade" => (
            "Any delay with {levels} queues of 2^n s: max {max} late (rounded to seconds), {work} events per task for the hops, {objects} objects to declare.{lost_note}",
            "用 {levels} 个 2^n 秒的队列支持任意延迟:最多晚 {max}(取整到秒),跳转带来每任务 {work} 个事件,需声明 {objects} 个对象。{lost_note}",
        ),
        "fixed-levels" => (
            "Delays rounded up to {levels} fixed levels: mean {mean}, max {max} late{early_note}; {objects} objects. Fits when delays can snap to levels.{lost_note}",
            "延迟向上取整到 {levels} 个固定等级:平均晚 {mean},最多晚 {max}{early_note};{objects} 个对象。适合延迟可以归到等级上的场景。{lost_note}",
        ),
        "plugin" if lost => (
            "On time (max {max}), but {lost} tasks lost with the node: the plugin's store lives on one node and is not replicated. It runs on RabbitMQ 3.10 to 4.2 only (archived January 2026, cannot run on 4.3).",
            "准时(最大 {max}),但节点丢失带走了 {lost} 个任务:插件的存储只在一个节点上,没有副本。它只能运行在 RabbitMQ 3.10 至 4.2(2026 年 1 月已归档,无法运行在 4.3 上)。",
        ),
        "plugin" if r.lateness.max_ms > LATE_VERDICT_MS => (
            "Drifts behind: up to {max} late (mean {mean}). The plugin's one process takes every insert and releases one due millisecond per ~1 ms tick, so a backlog falls further behind while publishing goes on. It runs on RabbitMQ 3.10 to 4.2 only (archived January 2026, cannot run on 4.3).",
            "越来越晚:最多晚 {max}(平均 {mean})。插件只有一个进程,既要处理每次插入,每约 1 毫秒的节拍又只释放一个到期毫秒,所以发布持续时积压越落越远。它只能运行在 RabbitMQ 3.10 至 4.2(2026 年 1 月已归档,无法运行在 4.3 上)。",
        ),
        "plugin" => (
            "On time (max {max}) with {objects} objects; the store survives a restart but not the loss of its node, and its throughput is limited. It runs on RabbitMQ 3.10 to 4.2 only (archived January 2026, cannot run on 4.3).",
            "准时(最大 {max}),只需 {objects} 个对象;存储能扛过重启,但扛不住节点丢失,吞吐量也有限。它只能运行在 RabbitMQ 3.10 至 4.2(2026 年 1 月已归档,无法运行在 4.3 上)。",
        ),
        "qq-delivery-time" if lost => (
            "{lost} tasks lost: held messages are replicated quorum-queue state and should survive a lost node; read the run's events. RabbitMQ 4.4 only, from its source.",
            "丢失了 {lost} 个任务:被保留的消息是有副本的仲裁队列状态,本应扛过节点丢失;请查看运行事件。仅限 RabbitMQ 4.4,依据其源码。",
        ),
        "qq-delivery-time" if r.lateness.max_ms > LATE_VERDICT_MS => (
            "Up to {max} late (mean {mean}): held messages were due while the node was down (released the moment it was back) or the broker was busy; nothing was lost. One quorum queue, no wait queues, no plugin. RabbitMQ 4.4 only, read in its source (not checked against a live broker).",
            "最多晚 {max}(平均 {mean}):被保留的消息在节点宕机时到期(恢复后立即放行),或 broker 正忙;没有丢失。一个仲裁队列,无需等待队列,也无需插件。仅限 RabbitMQ 4.4,依据其源码(未对照真实 Broker 验证)。",
        ),
        "qq-delivery-time" => (
            "On time (max {max}) with {objects} object, one quorum queue: each message is held until its own x-opt-delivery-time (no head-of-line blocking) and held messages are replicated, so a lost node loses none. RabbitMQ 4.4 only, read in its source (not checked against a live broker).",
            "准时(最大 {max}),只需 {objects} 个对象、一个仲裁队列:每条消息按自己的 x-opt-delivery-time 保留(没有队头阻塞),被保留的消息有副本,节点丢失也不丢。仅限 RabbitMQ 4.4,依据其源码(未对照真实 Broker 验证)。",
        ),
        _ => ("", ""),
    };
    if lang == Lang::Zh {
        zh
    } else {
        en
    }
}

/// A short plain-language verdict drawn from the strategy's numbers.
pub fn verdict(r: &StrategyResult, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let fact = |k: &str| r.fact(k).unwrap_or(0);
    let lost_note = match (r.lost, zh) {
        (0, _) => String::new(),
        (n, false) => format!(" {} tasks lost with the node (classic queues).", grouped(n)),
        (n, true) => format!(" 节点丢失带走了 {} 个任务(经典队列)。", grouped(n)),
    };
    let early_note = match (r.early, zh) {
        (0, _) => String::new(),
        (n, false) => format!(", {} fired early (above the last level)", grouped(n)),
        (n, true) => format!(",{} 个超过最高等级而提前触发", grouped(n)),
    };
    let fills: [(&str, String); 18] = [
        ("{why}", r.not_applicable.clone().unwrap_or_default()),
        (
            "{distinct}",
            r.fact("queues_for_delays").map_or(String::new(), grouped),
        ),
        ("{period}", dur_words(lang, fact("period_ms"))),
        ("{tick}", dur_words(lang, fact("tick_ms"))),
        ("{max}", human(lang, r.lateness.max_ms as f64)),
        ("{mean}", human(lang, r.lateness.mean_ms)),
        ("{rows_per_run}", grouped(fact("max_rows_per_run"))),
        ("{rows}", grouped(r.rows_scanned)),
        ("{lost}", grouped(r.lost)),
        ("{tasks}", grouped(r.tasks)),
        ("{dropped}", grouped(fact("dropped_under_pressure"))),
        ("{down}", grouped(fact("lost_while_down"))),
        ("{rounds}", grouped(fact("max_rounds"))),
        ("{queues}", grouped(fact("queues_for_delays"))),
        ("{objects}", grouped(r.broker_objects)),
        ("{levels}", grouped(fact("levels"))),
        ("{work}", format!("{:.1}", r.work_per_task)),
        ("{lost_note}", lost_note),
    ];
    let mut text = template(r, lang)
        .replace("{early_note}", &early_note)
        .replace("{why_zh}", &not_applicable_zh(r));
    for (key, value) in fills {
        text = text.replace(key, &value);
    }
    text
}
