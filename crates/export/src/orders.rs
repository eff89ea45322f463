//! The order lab (`orders`) as code: the consumer policy against a real table.
//!
//! The lab's users (when each order is created, paid, canceled) are drawn by the
//! simulation's seeded PRNG; the export runs the simulation once and writes that timeline
//! into the program (`ORDERS_TIMELINE`), so the program's users do exactly what the
//! simulation's did. What the consumer does with each close message is not copied: the
//! program's consumer applies the scenario's policy to its own table, at the times the
//! real broker delivers, and reports the same counters as `delaylab run`'s `orders`
//! object (export-check compares them):
//!
//! ```text
//! policy              at delivery                 at the end of handling, then ack
//! naive               -                           UPDATE orders SET status='CLOSED' WHERE id=?
//! check_state         SELECT status               if it read WAITING_PAY: the same UPDATE
//! conditional_update  SELECT status               UPDATE ... WHERE id=? AND status='WAITING_PAY'
//!                                                 (rows affected 0: paid meanwhile, do nothing)
//! idempotent          SELECT status               INSERT INTO handled (key) first (a duplicate
//!                                                 fails on the primary key), then as above
//! ```
//! Python keeps the tables in SQLite (`sqlite3`, the standard library); Java in memory
//! (no JDBC driver is at hand where delaylab is tested), the same statements as methods,
//! each under a lock, and says so. Faults (`faults`) are left out by the plan.

use delaylab_engine::limits::Limits;
use delaylab_engine::orders::OrderEvent;
use delaylab_engine::report::run_checked;
use delaylab_engine::scenario::orders::{message_delay, DelayField, OrdersSpec};
use delaylab_engine::scenario::{PublishSpec, Scenario};
use delaylab_engine::EventKind;

use crate::plan::Plan;
use crate::syntax::{comment, quote, Style};
use crate::text::{Lesson, Seen, Texts};
use crate::Language;

const PY_RUNTIME: &str = include_str!("runtime/orders.py");
const JAVA_RUNTIME: &str = include_str!("runtime/Orders.java");

/// The languages whose export carries the order lab.
pub fn supported(language: Language) -> bool {
    matches!(language, Language::Java | Language::Python)
}

/// Named in the left-out line of the other languages.
pub const SUPPORTED_NAMES: &str = "Java and Python";

/// The index the lab's timed actions sort under: after every action of the scenario at
/// the same ms (the users act after the scenario's own actions).
pub fn lab_index(s: &Scenario) -> usize {
    s.actions.len()
}

/// What a user does to an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Biz {
    Create,
    Pay,
    Cancel,
}

impl Biz {
    pub fn as_str(self) -> &'static str {
        match self {
            Biz::Create => "create",
            Biz::Pay => "pay",
            Biz::Cancel => "cancel",
        }
    }
}

/// The users' actions as the simulation drew them: (at ms, what, order id), in time
/// order. A payment injected between a read and an update (`pay_race`) is a fault, not a
/// user: it is left out with the faults.
pub fn timeline(s: &Scenario) -> Vec<(u64, Biz, u32)> {
    let mut out = Vec::new();
    run_checked(s, Limits::default(), |e, _| {
        if let EventKind::Order(ev) = &e.kind {
            match ev {
                OrderEvent::Created { order, .. } => out.push((e.t_ms, Biz::Create, *order)),
                OrderEvent::Paid {
                    order, race: false, ..
                } => out.push((e.t_ms, Biz::Pay, *order)),
                OrderEvent::Canceled { order, .. } => out.push((e.t_ms, Biz::Cancel, *order)),
                _ => {}
            }
        }
        None
    });
    out
}

/// The property that carries the close message's own delay (a republished early
/// message gets the time that is left there), as the simulation reads it.
fn delay_field(spec: &OrdersSpec) -> Option<DelayField> {
    message_delay(&spec.publish.properties).map(|(f, _)| f)
}

/// The lab's publishes: (kind, spec); the reminder only when the scenario has one.
fn publishes(spec: &OrdersSpec) -> Vec<(&'static str, &PublishSpec)> {
    let mut out = vec![("close", &spec.publish)];
    if let Some(r) = &spec.reminder {
        out.push(("remind", &r.publish));
    }
    out
}

/// What the two unsafe policies get wrong (the safe ones have their lessons in `text`).
fn unsafe_policy(t: &Texts, policy: &str) -> Option<&'static str> {
    let (en, zh) = match policy {
        "naive" => (
            "naive: closes the order named in the message without reading it, so an order paid meanwhile is closed (and a canceled one has its stock released twice). The message is a reminder, not a fact.",
            "naive：不查库就按消息关单，期间已支付的订单也会被关闭（已取消的订单库存被释放两次）。消息只是提醒，不是事实。",
        ),
        "check_state" => (
            "check_state: reads the order at delivery, then updates it without a condition at the end of handling: a payment that lands in between is overwritten. Put the condition in the UPDATE (conditional_update).",
            "check_state：投递时读订单，处理结束时无条件更新：两者之间到达的支付会被覆盖。应把条件写进 UPDATE（conditional_update）。",
        ),
        _ => return None,
    };
    Some(match t.lang {
        crate::CommentLang::En => en,
        crate::CommentLang::Zh => zh,
    })
}

fn lessons(t: &Texts, policy: &str, marker: &str, indent: &str) -> String {
    let mut out = comment(indent, marker, t.get(Lesson::Orders));
    if let Some(l) = unsafe_policy(t, policy) {
        out.push_str(&comment(indent, marker, l));
    }
    if matches!(policy, "conditional_update" | "idempotent") {
        out.push_str(&comment(indent, marker, t.get(Lesson::ConditionalUpdate)));
    }
    if policy == "idempotent" {
        out.push_str(&comment(indent, marker, t.get(Lesson::Idempotent)));
    }
    out
}

/// The Python lab: its constants, the users' timeline, `lab_publish` and the `Lab` class.
pub fn python(plan: &Plan, t: &Texts) -> String {
    let s = plan.scenario;
    let Some(spec) = &s.orders else {
        return String::new();
    };
    let q = |x: &str| quote(x, Style::C);
    let policy = spec.policy.as_str();
    let mut out = String::from("\n\n# ---------------------------------------------------------------- the order lab's scenario\n\n");
    out.push_str(&lessons(t, policy, "#", ""));
    out.push_str(&format!("POLICY = {}\n", q(policy)));
    out.push_str(&format!("CONSUMER = {}\n", q(&spec.consumer)));
    out.push_str(&format!(
        "REMINDER_CONSUMER = {}\n",
        spec.reminder
            .as_ref()
            .map_or("None".into(), |r| q(&r.consumer))
    ));
    out.push_str(&format!(
        "EARLY = {}  # a close message that comes before the deadline\n",
        q(spec.early.as_str())
    ));
    out.push_str(&format!("TIMEOUT_MS = {}\nITEMS, STOCK = {}, {}\nSTART_MS = {}\nSCAN_EVERY_MS = {}  # 0: no compensation scan\nLAB_INDEX = {}\n",
        spec.timeout_ms, spec.items, spec.stock, spec.start_ms, spec.scan_every_ms.unwrap_or(0), lab_index(s)));
    out.push_str(&comment(
        "",
        "#",
        &format!("The users: (at ms, what, order). Drawn by the simulation (seed {}), so that this program's users do what the simulation's did; the consumer's decisions are this program's own.", s.seed),
    ));
    out.push_str("ORDERS_TIMELINE = [\n");
    for (at, b, o) in timeline(s) {
        out.push_str(&format!("    ({at}, {}, {o}),\n", q(b.as_str())));
    }
    out.push_str("]\n\n\n");
    out.push_str("def lab_publish(run, kind, order, delay_ms=None):\n    \"\"\"A lab message: body order-<id> (close) or remind order-<id>; message_id is its\n    idempotency key; delay_ms replaces its own delay (an early message sent again).\"\"\"\n");
    let mut seen = Seen::default();
    for (i, (kind, p)) in publishes(spec).into_iter().enumerate() {
        let body = if kind == "close" {
            "order-%d"
        } else {
            "remind order-%d"
        };
        out.push_str(&format!(
            "    {} kind == {}:\n",
            if i == 0 { "if" } else { "elif" },
            q(kind)
        ));
        let rk = crate::python::key(plan.key(&p.exchange, &p.routing_key));
        out.push_str(&format!(
            "        exchange, routing_key, body, mandatory = n({}), {rk}, {} % order, {}\n",
            q(&p.exchange),
            q(body),
            if p.mandatory { "True" } else { "False" }
        ));
        out.push_str(&format!(
            "        props = {}\n",
            crate::python::properties(&plan.names, p, t, &mut seen, "            ")
        ));
    }
    out.push_str("    props.message_id = \"%s-%d\" % (kind, order)\n");
    match delay_field(spec) {
        Some(DelayField::XDelay) => out.push_str("    if delay_ms is not None:\n        props.headers = dict(props.headers or {})\n        props.headers[\"x-delay\"] = ms(delay_ms)\n"),
        Some(DelayField::Expiration) => out.push_str("    if delay_ms is not None:\n        props.expiration = ttl(str(delay_ms))\n"),
        None => out.push_str("    # The close message has no delay of its own (the queue's TTL delays it): sent as it is.\n"),
    }
    out.push_str("    run.publish(exchange, routing_key, body, props, mandatory=mandatory)\n\n\n");
    out.push_str(PY_RUNTIME);
    out
}

/// The Java lab: its constants, the users' timeline, `labPublish` and the `Lab` class.
pub fn java(plan: &Plan, t: &Texts) -> String {
    let s = plan.scenario;
    let Some(spec) = &s.orders else {
        return String::new();
    };
    let q = |x: &str| quote(x, Style::Java);
    let policy = spec.policy.as_str();
    let mut out = String::from("    // ---------------------------------------------------------------- the order lab's scenario\n\n");
    out.push_str(&lessons(t, policy, "//", "    "));
    out.push_str(&format!(
        "    static final String POLICY = {};\n",
        q(policy)
    ));
    out.push_str(&format!(
        "    static final String CONSUMER = {};\n",
        q(&spec.consumer)
    ));
    out.push_str(&format!(
        "    static final String REMINDER_CONSUMER = {};\n",
        spec.reminder
            .as_ref()
            .map_or("null".into(), |r| q(&r.consumer))
    ));
    out.push_str(&format!(
        "    /** What a close message that comes before the deadline gets. */\n    static final String EARLY = {};\n",
        q(spec.early.as_str())
    ));
    out.push_str(&format!("    static final long TIMEOUT_MS = {}L;\n    static final int ITEMS = {}, STOCK = {};\n    static final long START_MS = {}L;\n    /** 0: no compensation scan. */\n    static final long SCAN_EVERY_MS = {}L;\n    static final int LAB_INDEX = {};\n",
        spec.timeout_ms, spec.items, spec.stock, spec.start_ms, spec.scan_every_ms.unwrap_or(0), lab_index(s)));
    out.push_str(&comment(
        "    ",
        "//",
        &format!("The users: {{at ms, what (0 create, 1 pay, 2 cancel), order}}. Drawn by the simulation (seed {}), so that this program's users do what the simulation's did; the consumer's decisions are this program's own.", s.seed),
    ));
    out.push_str("    static final long[][] ORDERS_TIMELINE = {\n");
    for (at, b, o) in timeline(s) {
        let code = match b {
            Biz::Create => 0,
            Biz::Pay => 1,
            Biz::Cancel => 2,
        };
        out.push_str(&format!("        {{{at}L, {code}, {o}}},\n"));
    }
    out.push_str("    };\n\n");
    out.push_str("    /** A lab message: body order-<id> (close) or remind order-<id>; message_id is its\n     *  idempotency key; delayMs (>= 0) replaces its own delay (an early message sent again). */\n    static void labPublish(Run run, String kind, long order, long delayMs) {\n        String exchange, routingKey, body;\n        boolean mandatory;\n        AMQP.BasicProperties.Builder props;\n");
    let mut seen = Seen::default();
    for (i, (kind, p)) in publishes(spec).into_iter().enumerate() {
        let body = if kind == "close" {
            "order-"
        } else {
            "remind order-"
        };
        out.push_str(&format!(
            "        {}(kind.equals({})) {{\n",
            if i == 0 { "if " } else { "} else if " },
            q(kind)
        ));
        let rk = crate::java::key(plan.key(&p.exchange, &p.routing_key));
        out.push_str(&format!(
            "            exchange = n({}); routingKey = {rk}; body = {} + order; mandatory = {};\n",
            q(&p.exchange),
            q(body),
            p.mandatory
        ));
        out.push_str(&format!(
            "            props = {};\n",
            crate::java::builder(&plan.names, p, t, &mut seen, "                ")
        ));
    }
    out.push_str("        } else throw new IllegalArgumentException(kind);\n        props.messageId(kind + \"-\" + order);\n");
    match delay_field(spec) {
        Some(DelayField::XDelay) => out.push_str("        if (delayMs >= 0) {\n            AMQP.BasicProperties built = props.build();\n            Map<String, Object> h = new LinkedHashMap<>(built.getHeaders() == null ? Map.of() : built.getHeaders());\n            h.put(\"x-delay\", ms(delayMs));\n            props.headers(h);\n        }\n"),
        Some(DelayField::Expiration) => out.push_str("        if (delayMs >= 0) props.expiration(ttl(String.valueOf(delayMs)));\n"),
        None => out.push_str("        // The close message has no delay of its own (the queue's TTL delays it): sent as it is.\n"),
    }
    out.push_str("        run.publish(exchange, routingKey, body, props, mandatory);\n    }\n\n");
    out.push_str(JAVA_RUNTIME);
    out
}
