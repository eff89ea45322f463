//! The order-timeout lab panel: the orders table beside the queues, live from the
//! snapshot, with the lab's counters. Shown only when the scenario has `orders`.
//!
//! Each row's state is a coloured badge that also says the state in words (colour is
//! never the only signal). A paid order closed by a message is flagged in its row with
//! a button that selects that message in the inspector (`Ctx::selected`).

use delaylab_engine::orders::view::{OrderRow, OrdersView};
use delaylab_engine::report::text::clock;
use leptos::prelude::*;

use super::i18n::Lang;
use super::Ctx;

fn ctx() -> Ctx {
    expect_context::<Ctx>()
}

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
    let (en, zh) = match key {
        "orders" => ("Orders", "订单"),
        "orders_hint" => (
            "The lab's orders table: each order waits for payment; its close message arrives after the timeout. The consumer must check the order, not trust the message.",
            "实验里的订单表:每笔订单等待支付,超时后关单消息到达。消费者必须查库核对订单状态,而不是相信消息。",
        ),
        "policy" => ("consumer policy", "消费者策略"),
        "paid_closed" => ("paid orders closed", "已支付订单被关闭"),
        "double_release" => ("stock released twice", "库存重复释放"),
        "never_closed" => ("unpaid, never closed", "未支付且未关闭"),
        "lateness" => ("close lateness mean / p99 / max", "关单延迟 平均 / p99 / 最大"),
        "queries" => ("db queries", "数据库查询"),
        "rows" => ("rows scanned", "扫描行数"),
        "order" => ("order", "订单"),
        "state" => ("state", "状态"),
        "created" => ("created", "创建"),
        "deadline" => ("due", "到期"),
        "ended" => ("paid / closed", "支付 / 关闭"),
        "note" => ("note", "备注"),
        "mistake" => ("paid, then closed by", "已支付却被关闭,元凶"),
        "twice" => ("stock released twice", "库存释放了两次"),
        "overdue" => ("overdue, not closed", "已超时未关闭"),
        "shown" => ("rows shown", "显示行数"),
        "WAITING_PAY" => ("waiting to pay", "待支付"),
        "PAID" => ("paid", "已支付"),
        "CANCELED" => ("canceled", "已取消"),
        "CLOSED" => ("closed", "已关闭"),
        "k_order_created" => ("order created", "订单创建"),
        "k_order_paid" => ("order paid", "订单支付"),
        "k_order_canceled" => ("order canceled", "订单取消"),
        "k_order_closed" => ("order closed", "订单关闭"),
        "k_close_skipped" => ("close skipped", "跳过关单"),
        "k_stock_released" => ("stock released", "释放库存"),
        "k_order_reminded" => ("payment reminder", "催付提醒"),
        "k_scan_run" => ("compensation scan", "补偿扫描"),
        "k_fault_injected" => ("fault injected", "注入故障"),
        _ => (key, key),
    };
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

#[component]
pub fn Orders() -> impl IntoView {
    let c = ctx();
    let view_of = Memo::new(move |_| c.snap.with(|s| s.orders.clone()));
    let tr = move |k: &'static str| t(c.lang.get(), k);
    move || {
        let v: OrdersView = view_of.get()?;
        let shown = v.rows.len();
        let total = v.total;
        let rows = v.rows.clone();
        let bad = |n: u32| if n > 0 { "bad" } else { "" };
        Some(view! {
            <section class="panel orders" aria-labelledby="orders-h" data-testid="orders-panel">
                <h2 id="orders-h">{tr("orders")}</h2>
                <p class="hint">{tr("orders_hint")}</p>
                <dl class="orders-counters" data-testid="orders-counters">
                    <div><dt class="muted">{tr("policy")}</dt><dd><code>{v.policy}</code></dd></div>
                    <div><dt class="muted">{tr("paid_closed")}</dt>
                        <dd data-testid="paid-closed" class=bad(v.paid_closed)>{if v.paid_closed > 0 { "⚠ " } else { "" }}{v.paid_closed}</dd></div>
                    <div><dt class="muted">{tr("double_release")}</dt>
                        <dd data-testid="double-released" class=bad(v.stock_double_released)>{v.stock_double_released}</dd></div>
                    <div><dt class="muted">{tr("never_closed")}</dt>
                        <dd data-testid="never-closed" class=bad(v.never_closed)>{v.never_closed}</dd></div>
                    <div class="wide"><dt class="muted">{tr("lateness")}</dt>
                        <dd>{format!("{} / {} / {}", clock(v.lateness_mean_ms), clock(v.lateness_p99_ms), clock(v.lateness_max_ms))}</dd></div>
                    <div><dt class="muted">{tr("queries")}</dt><dd>{v.db_queries}</dd></div>
                    <div><dt class="muted">{tr("rows")}</dt><dd>{v.rows_scanned}</dd></div>
                </dl>
                <div class="orders-scroll">
                    <table class="orders-table" data-testid="orders-table">
                        <caption class="muted">{format!("{} {shown} / {total}", tr("shown"))}</caption>
                        <thead>
                            <tr>
                                <th scope="col">{tr("order")}</th>
                                <th scope="col">{tr("state")}</th>
                                <th scope="col">{tr("created")}</th>
                                <th scope="col">{tr("deadline")}</th>
                                <th scope="col">{tr("ended")}</th>
                                <th scope="col">{tr("note")}</th>
                            </tr>
                        </thead>
                        <tbody>{rows.into_iter().map(|r| view! { <Row r /> }).collect_view()}</tbody>
                    </table>
                </div>
            </section>
        })
    }
}

#[component]
fn Row(r: OrderRow) -> impl IntoView {
    let c = ctx();
    let tr = move |k: &'static str| t(c.lang.get(), k);
    let status = r.status;
    let mistake = r.mistake_msg;
    let ended = match (r.paid_ms, r.ended_ms) {
        (Some(p), Some(e)) => format!("{} / {}", clock(p), clock(e)),
        (Some(p), None) => clock(p),
        (None, Some(e)) => format!("— / {}", clock(e)),
        (None, None) => String::new(),
    };
    let (twice, overdue) = (r.released_twice, r.overdue);
    view! {
        <tr data-testid=format!("order-{}", r.id) class:mistake=mistake.is_some()>
            <td>{format!("order-{}", r.id)}</td>
            <td>
                <span class="state" data-state=status>
                    {status} " · " {move || tr(status)}
                </span>
            </td>
            <td>{clock(r.created_ms)}</td>
            <td>{clock(r.deadline_ms)}</td>
            <td>{ended}</td>
            <td class="note">
                {mistake.map(|m| view! {
                    <span data-testid="mistake" class="flag-bad">
                        "✗ " {move || tr("mistake")} " "
                        <button class="link" data-testid="mistake-msg" on:click=move |_| c.selected.set(Some(m))>
                            {format!("#{m}")}
                        </button>
                    </span>
                })}
                {twice.then(|| view! { <span class="flag-bad">" ⚠ " {move || tr("twice")}</span> })}
                {overdue.then(|| view! { <span class="flag-warn">" ⚠ " {move || tr("overdue")}</span> })}
            </td>
        </tr>
    }
}
