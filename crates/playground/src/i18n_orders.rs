//! The order-timeout lab's UI words (en, zh): [`crate::i18n`] falls through here.

use crate::i18n::Lang;

/// The text key of one of the lab's event kinds (`i18n::kind_key` falls through here).
pub fn kind_key(kind: &str) -> &'static str {
    match kind {
        "order_created" => "k_order_created",
        "order_paid" => "k_order_paid",
        "order_canceled" => "k_order_canceled",
        "order_closed" => "k_order_closed",
        "close_skipped" => "k_close_skipped",
        "stock_released" => "k_stock_released",
        "order_reminded" => "k_order_reminded",
        "scan_run" => "k_scan_run",
        "fault_injected" => "k_fault_injected",
        _ => "k_other",
    }
}

/// This panel's UI strings (en, zh); `i18n::t` falls through here.
pub fn t(lang: Lang, key: &'static str) -> &'static str {
    crate::i18n::word(TEXTS, lang, key).unwrap_or_else(|| crate::i18n_page::t(lang, key))
}

/// (key, English, Chinese): a table read by a search, not a `match` (its string
/// compares were start-up code, issue 29 item 10).
const TEXTS: &[(&str, &str, &str)] = &[
    ("orders", "Orders", "订单"),
    ("orders_hint",
        "The lab's orders table: each order waits for payment; its close message arrives after the timeout. The consumer must check the order, not trust the message.",
        "实验里的订单表:每笔订单等待支付,超时后关单消息到达。消费者必须查库核对订单状态,而不是相信消息。",
    ),
    ("policy", "consumer policy", "消费者策略"),
    ("paid_closed", "paid orders closed", "已支付订单被关闭"),
    ("double_release", "stock released twice", "库存重复释放"),
    ("never_closed", "unpaid, never closed", "未支付且未关闭"),
    ("lateness", "close lateness mean / p99 / max", "关单延迟 平均 / p99 / 最大"),
    ("queries", "db queries", "数据库查询"),
    ("rows", "rows scanned", "扫描行数"),
    ("order", "order", "订单"),
    ("state", "state", "状态"),
    ("created", "created", "创建"),
    ("deadline", "due", "到期"),
    ("ended", "paid / closed", "支付 / 关闭"),
    ("note", "note", "备注"),
    ("mistake", "paid, then closed by", "已支付却被关闭,元凶"),
    ("twice", "stock released twice", "库存释放了两次"),
    ("overdue", "overdue, not closed", "已超时未关闭"),
    ("shown", "rows shown", "显示行数"),
    ("WAITING_PAY", "waiting to pay", "待支付"),
    ("PAID", "paid", "已支付"),
    ("CANCELED", "canceled", "已取消"),
    ("CLOSED", "closed", "已关闭"),
    ("k_order_created", "order created", "订单创建"),
    ("k_order_paid", "order paid", "订单支付"),
    ("k_order_canceled", "order canceled", "订单取消"),
    ("k_order_closed", "order closed", "订单关闭"),
    ("k_close_skipped", "close skipped", "跳过关单"),
    ("k_stock_released", "stock released", "释放库存"),
    ("k_order_reminded", "payment reminder", "催付提醒"),
    ("k_scan_run", "compensation scan", "补偿扫描"),
    ("k_fault_injected", "fault injected", "注入故障"),
];
