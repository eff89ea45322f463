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
    crate::i18n::word_or_panel(TEXTS, lang, key).unwrap_or_else(|| crate::i18n_page::t(lang, key))
}

/// (key, English, Chinese): a table read by a search, not a `match` (its string
/// compares were start-up code, issue 29 item 10).
pub(crate) const TEXTS: &[(&str, &str, &str)] = words![
    ("orders", "Orders", "订单"),
    ("policy", "consumer policy", "消费者策略"),
    ("paid_closed", "paid orders closed", "已支付订单被关闭"),
    ("never_closed", "unpaid, never closed", "未支付且未关闭"),
    ("order", "order", "订单"),
    ("created", "created", "创建"),
    ("mistake", "paid, then closed by", "已支付却被关闭,元凶"),
    ("twice", "stock released twice", "库存释放了两次"),
    ("WAITING_PAY", "waiting to pay", "待支付"),
    ("PAID", "paid", "已支付"),
    ("CANCELED", "canceled", "已取消"),
    ("CLOSED", "closed", "已关闭"),
];
