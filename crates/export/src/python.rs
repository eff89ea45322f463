//! Python with pika (from PyPI): one `scenario.py` (BlockingConnection, one thread: the
//! deliveries, the handle-time timers and the timed actions share one loop) and `run.sh`.

use delaylab_engine::scenario::rename::{Key, ScenarioNames};
use delaylab_engine::scenario::{
    AckMode, Action, ActionKind, BindingDef, ConsumerSpec, Declare, Delete, DestinationKind,
    ExchangeDef, OutcomePlan, PublishSpec, QueueDef,
};
use delaylab_engine::value::{decimal_text, FieldValue};

use crate::args::Arg;
use crate::header;
use crate::plan::Plan;
use crate::syntax::{comment, quote, Style};
use crate::text::{Lesson, Seen, Texts};
use crate::walk::{self, Entry, Expiration};
use crate::File;

const RUNTIME: &str = include_str!("runtime/runtime.py");
pub const PROGRAM: &str = "scenario.py";

pub fn files(plan: &Plan, t: &Texts) -> Vec<File> {
    vec![
        File::new(PROGRAM, program(plan, t)),
        File::script("run.sh", run_sh(plan)),
    ]
}

fn q(s: &str) -> String {
    quote(s, Style::C)
}

/// A routing or binding key: a name the program prefixes (`n("work")`) or as written.
pub(crate) fn key(k: Key) -> String {
    match k {
        Key::Name(s) => format!("n({})", q(s)),
        Key::Plain(s) => q(s),
    }
}

pub fn value(v: &FieldValue) -> String {
    match v {
        FieldValue::Void => "None".into(),
        FieldValue::Bool(b) => if *b { "True" } else { "False" }.into(),
        FieldValue::Int(n) => n.to_string(),
        FieldValue::Float(f) => float(*f),
        FieldValue::Str(s) => q(s),
        FieldValue::Array(items) => format!(
            "[{}]",
            items.iter().map(value).collect::<Vec<_>>().join(", ")
        ),
        FieldValue::Table(t) => format!(
            "{{{}}}",
            t.iter()
                .map(|(k, v)| format!("{}: {}", q(k), value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        // pika sends a datetime as a timestamp and a Decimal as a decimal.
        FieldValue::Timestamp(s) => {
            format!("datetime.datetime.fromtimestamp({s}, datetime.timezone.utc)")
        }
        FieldValue::Decimal { scale, value } => {
            format!("decimal.Decimal({})", q(&decimal_text(*scale, *value)))
        }
    }
}

fn float(f: f64) -> String {
    if f.is_finite() {
        let s = format!("{f:?}");
        if s.contains(['.', 'e']) {
            s
        } else {
            format!("{s}.0")
        }
    } else if f.is_nan() {
        "float(\"nan\")".into()
    } else if f > 0.0 {
        "float(\"inf\")".into()
    } else {
        "float(\"-inf\")".into()
    }
}

fn arg(a: &Arg) -> String {
    match a {
        Arg::Name(s) => format!("n({})", q(s)),
        Arg::List(l) => format!("[{}]", l.iter().map(arg).collect::<Vec<_>>().join(", ")),
        Arg::Ms(ms) => format!("ms({ms})"),
        Arg::DeliveryTime(t) => format!("at_ms({t})"),
        Arg::DeliveryTimeS(s) => format!("at_s({s})"),
        Arg::Plain(v) => value(v),
    }
}

/// A dict literal, one entry a line with its lesson above it.
fn dict(entries: &[Entry], indent: &str) -> String {
    if entries.is_empty() {
        return "{}".into();
    }
    let inner = format!("{indent}    ");
    let mut out = String::from("{\n");
    for e in entries {
        if let Some(n) = e.note {
            out.push_str(&comment(&inner, "#", n));
        }
        out.push_str(&format!("{inner}{}: {},\n", q(e.key), arg(&e.value)));
    }
    out.push_str(indent);
    out.push('}');
    out
}

fn notes(out: &mut String, indent: &str, notes: &[&str]) {
    for n in notes {
        out.push_str(&comment(indent, "#", n));
    }
}

fn exchange_expr(x: &ExchangeDef, t: &Texts, seen: &mut Seen, indent: &str) -> String {
    let args = walk::exchange_args(x, t, seen);
    let mut flags = format!("durable={}", py_bool(x.durable));
    if x.auto_delete {
        flags.push_str(", auto_delete=True");
    }
    if x.internal {
        flags.push_str(", internal=True");
    }
    format!(
        "ch.exchange_declare(n({}), {}, {flags}, arguments={})",
        q(&x.name),
        q(&x.kind),
        dict(&args, indent)
    )
}

fn queue_expr(
    names: &ScenarioNames,
    x: &QueueDef,
    t: &Texts,
    seen: &mut Seen,
    indent: &str,
) -> String {
    let args = walk::queue_args(names, x, t, seen);
    let mut flags = format!("durable={}", py_bool(x.durable));
    if x.exclusive {
        flags.push_str(", exclusive=True");
    }
    if x.auto_delete {
        flags.push_str(", auto_delete=True");
    }
    format!(
        "ch.queue_declare(n({}), {flags}, arguments={})",
        q(&x.name),
        dict(&args, indent)
    )
}

/// One bind (or unbind) call per key of the binding (a topic pattern adds the literal
/// renamed queue names it matched, as replay does); several are one tuple, in order.
fn bind_expr(names: &ScenarioNames, b: &BindingDef, unbind: bool, indent: &str) -> String {
    let args = dict(&walk::plain(&b.arguments), indent);
    let (src, dst) = (q(&b.source), q(&b.destination));
    let calls: Vec<String> = names
        .binding_keys(b)
        .into_iter()
        .map(|k| {
            let rk = key(k);
            match (b.destination_type, unbind) {
                (DestinationKind::Queue, false) => {
                    format!("ch.queue_bind(n({dst}), n({src}), routing_key={rk}, arguments={args})")
                }
                (DestinationKind::Queue, true) => {
                    format!("ch.queue_unbind(n({dst}), n({src}), routing_key={rk}, arguments={args})")
                }
                (DestinationKind::Exchange, false) => format!(
                    "ch.exchange_bind(destination=n({dst}), source=n({src}), routing_key={rk}, arguments={args})"
                ),
                (DestinationKind::Exchange, true) => format!(
                    "ch.exchange_unbind(destination=n({dst}), source=n({src}), routing_key={rk}, arguments={args})"
                ),
            }
        })
        .collect();
    match calls.as_slice() {
        [one] => one.clone(),
        _ => format!("({},)", calls.join(", ")),
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

fn declare_stmt(plan: &Plan, d: &Declare, t: &Texts, seen: &mut Seen, indent: &str) -> String {
    let mut out = String::new();
    let expr = match d {
        Declare::Exchange(x) => {
            notes(&mut out, indent, &walk::exchange_notes(x, t, seen));
            exchange_expr(x, t, seen, indent)
        }
        Declare::Queue(qd) => {
            notes(&mut out, indent, &walk::queue_notes(plan, qd, t, seen));
            queue_expr(&plan.names, qd, t, seen, indent)
        }
        Declare::Binding(b) => bind_expr(&plan.names, b, false, indent),
    };
    out.push_str(&format!("{indent}run.step(lambda ch: {expr})\n"));
    out
}

fn consumer_stmt(c: &ConsumerSpec, t: &Texts, seen: &mut Seen) -> String {
    let mut out = String::new();
    notes(&mut out, "    ", &walk::consumer_notes(c, t, seen));
    let outcome = match &c.outcome {
        OutcomePlan::Fixed(o) => format!("fixed({})", q(walk::outcome_name(*o))),
        OutcomePlan::Sequence(l) => format!(
            "sequence({})",
            l.iter()
                .map(|o| q(walk::outcome_name(*o)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        OutcomePlan::Weighted(w) => format!(
            "weighted({})",
            w.iter()
                .map(|(o, x)| format!("({}, {})", q(walk::outcome_name(*o)), float(*x)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    out.push_str(&format!(
        "    run.consume(Consumer({}, {}, auto_ack={}, prefetch={}, handle_ms={}, outcome={outcome},\n                         from_ms={}, to_ms={}))\n",
        q(&c.name),
        q(&c.queue),
        py_bool(c.ack == AckMode::Auto),
        c.prefetch,
        c.handle_ms,
        c.from_ms,
        c.to_ms.map_or("None".into(), |x| x.to_string()),
    ));
    out
}

fn publish_expr(
    plan: &Plan,
    p: &PublishSpec,
    body: &str,
    t: &Texts,
    seen: &mut Seen,
    indent: &str,
) -> (String, String) {
    let mut pre = String::new();
    notes(&mut pre, indent, &walk::publish_notes(p, t, seen));
    let inner = format!("{indent}    ");
    let rk = key(plan.key(&p.exchange, &p.routing_key));
    let mandatory = if p.mandatory { ", mandatory=True" } else { "" };
    let expr = format!(
        "run.publish(n({}), {rk}, {body}, {}{mandatory})",
        q(&p.exchange),
        properties(&plan.names, p, t, seen, &inner)
    );
    (pre, expr)
}

/// `pika.BasicProperties(...)` of a publish, one property a line at `inner`.
pub(crate) fn properties(
    names: &ScenarioNames,
    p: &PublishSpec,
    t: &Texts,
    seen: &mut Seen,
    inner: &str,
) -> String {
    let pr = &p.properties;
    let mut props: Vec<String> = Vec::new();
    match walk::expiration(p) {
        Some(Expiration::Scaled(e)) => props.push(format!("expiration=ttl({})", q(e))),
        Some(Expiration::Parsed(e, ms)) => props.push(format!("expiration=ttl({}, {ms})", q(e))),
        Some(Expiration::Raw(e)) => props.push(format!("expiration={}", q(e))),
        None => {}
    }
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            props.push(format!("{k}={v}"));
        }
    };
    put("delivery_mode", pr.delivery_mode.map(|x| x.to_string()));
    put("priority", pr.priority.map(|x| x.to_string()));
    put("message_id", pr.message_id.as_deref().map(q));
    put("correlation_id", pr.correlation_id.as_deref().map(q));
    put("content_type", pr.content_type.as_deref().map(q));
    put("content_encoding", pr.content_encoding.as_deref().map(q));
    put("reply_to", pr.reply_to.as_deref().map(q));
    put("timestamp", pr.timestamp.map(|x| x.to_string()));
    put("type", pr.kind.as_deref().map(q));
    put("user_id", pr.user_id.as_deref().map(q));
    put("app_id", pr.app_id.as_deref().map(q));
    if !pr.headers.is_empty() {
        let h = walk::headers(names, p, t, seen);
        props.push(format!("headers={}", dict(&h, inner)));
    }
    format!(
        "pika.BasicProperties(\n{inner}{})",
        props.join(&format!(",\n{inner}"))
    )
}

fn action(plan: &Plan, i: usize, a: &Action, t: &Texts, seen: &mut Seen) -> String {
    let mut out = String::new();
    let repeat = a.repeat.filter(|r| r.count > 1);
    let when = match repeat {
        Some(r) => format!(
            "actions[{i}] at {} ms, {} times every {} ms",
            a.at_ms, r.count, r.every_ms
        ),
        None => format!("actions[{i}] at {} ms", a.at_ms),
    };
    let (indent, at, k) = match repeat {
        Some(_) => (
            "        ",
            format!(
                "{} + (k - 1) * {}",
                a.at_ms,
                repeat.map_or(0, |r| r.every_ms)
            ),
            "k",
        ),
        None => ("    ", a.at_ms.to_string(), "1"),
    };
    let body = |b: &str| {
        if walk::has_run_number(a, b) {
            format!("{}.replace(\"{}\", str(k))", q(b), walk::RUN_NUMBER)
        } else {
            q(&walk::body_once(b))
        }
    };
    let (pre, expr) = match &a.kind {
        ActionKind::Publish(p) => {
            let (pre, e) = publish_expr(plan, p, &body(&p.body), t, seen, indent);
            (pre, e)
        }
        ActionKind::Declare(d) => {
            let s = declare_stmt(plan, d, t, seen, indent);
            // declare_stmt writes `run.step(...)`; reuse it as the expression.
            let (pre, stmt) = split_last_stmt(&s, indent);
            (pre, stmt)
        }
        ActionKind::Delete(d) => (
            String::new(),
            format!(
                "run.step(lambda ch: {})",
                match d {
                    Delete::Exchange { name } => format!("ch.exchange_delete(n({}))", q(name)),
                    Delete::Queue { name } => format!("ch.queue_delete(n({}))", q(name)),
                    Delete::Binding(b) => bind_expr(&plan.names, b, true, indent),
                }
            ),
        ),
        ActionKind::Purge { queue } => (
            String::new(),
            format!("run.step(lambda ch: ch.queue_purge(n({})))", q(queue)),
        ),
        ActionKind::Get { queue } => (String::new(), format!("run.get({})", q(queue))),
        ActionKind::RestartNode { .. } | ActionKind::LoseNode | ActionKind::Upgrade { .. } => {
            out.push_str(&comment(
                "    ",
                "#",
                &format!("{when}: LEFT OUT: {}", walk::left_out_line(plan, i)),
            ));
            return out;
        }
    };
    out.push_str(&comment("    ", "#", &when));
    out.push_str(&pre);
    match repeat {
        Some(r) => {
            out.push_str(&format!(
                "    for k in range(1, {}):\n",
                u64::from(r.count) + 1
            ));
            out.push_str(&format!(
                "{indent}plan.append(({at}, k > 1, {i}, k, lambda k=k: {expr}))\n"
            ));
        }
        None => out.push_str(&format!(
            "{indent}plan.append(({at}, False, {i}, {k}, lambda: {expr}))\n"
        )),
    }
    out
}

fn split_last_stmt(s: &str, indent: &str) -> (String, String) {
    let marker = format!("{indent}run.step(");
    match s.rfind(&marker) {
        Some(at) => (
            s[..at].to_string(),
            s[at + indent.len()..].trim_end().to_string(),
        ),
        None => (String::new(), s.trim().to_string()),
    }
}

fn program(plan: &Plan, t: &Texts) -> String {
    let s = plan.scenario;
    let mut seen = Seen::default();
    let mut out = String::from("#!/usr/bin/env python3\n");
    let run = format!(
        "Run: ./run.sh AMQP_URL [TIME_SCALE] (python3 with pika; {}).",
        "a test broker: the program declares and deletes its own objects"
    );
    out.push_str(&header::comment_block(
        &header::paragraphs(plan, t, &run),
        "#",
    ));
    out.push_str("\nimport datetime\nimport decimal\nimport heapq\nimport json\nimport math\nimport os\nimport random\nimport sys\nimport time\n\nimport pika\n\n");
    out.push_str(&format!("NAME = {}\n", q(&s.name)));
    out.push_str(&format!(
        "END_MS = {}  # the scenario's end (until)\n",
        plan.end_ms
    ));
    out.push_str(&format!(
        "GRACE_MS = {}  # real ms waited after it for the broker's last steps\n",
        plan.grace_ms
    ));
    out.push_str(&format!(
        "QUEUES = [{}]\n",
        plan.queues
            .iter()
            .map(|x| q(x))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    out.push_str(&format!(
        "EXCHANGES = [{}]\n",
        plan.exchanges
            .iter()
            .map(|x| q(x))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    out.push_str(&format!(
        "LEFT_OUT = [{}]\n\n",
        plan.left_out
            .iter()
            .map(|x| q(x))
            .collect::<Vec<_>>()
            .join(", ")
    ));

    out.push_str("\n# ---------------------------------------------------------------- the topology\n\ndef declare_topology(run):\n");
    let topo = &s.topology;
    if topo.exchanges.is_empty() && topo.queues.is_empty() && topo.bindings.is_empty() {
        out.push_str("    pass\n");
    }
    for x in &topo.exchanges {
        out.push_str(&declare_stmt(
            plan,
            &Declare::Exchange(x.clone()),
            t,
            &mut seen,
            "    ",
        ));
    }
    for qd in &topo.queues {
        out.push_str(&declare_stmt(
            plan,
            &Declare::Queue(qd.clone()),
            t,
            &mut seen,
            "    ",
        ));
    }
    for b in &topo.bindings {
        out.push_str(&declare_stmt(
            plan,
            &Declare::Binding(b.clone()),
            t,
            &mut seen,
            "    ",
        ));
    }

    out.push_str("\n\n# ---------------------------------------------------------------- the consumers\n\ndef start_consumers(run):\n");
    if s.consumers.is_empty() {
        out.push_str("    pass\n");
    }
    for c in &s.consumers {
        out.push_str(&consumer_stmt(c, t, &mut seen));
    }
    if plan.exports_orders() {
        out.push_str(&crate::orders::python(plan, t));
    }

    out.push_str("\n\n# ---------------------------------------------------------------- the timed actions\n\ndef timed_actions(run):\n");
    out.push_str(&comment(
        "    ",
        "#",
        &format!(
            "(at ms, is a repeat, action index, run number, what): sorted by {}",
            crate::plan::ORDER_NOTE
        ),
    ));
    out.push_str("    plan = []\n");
    for (i, a) in s.actions.iter().enumerate() {
        out.push_str(&action(plan, i, a, t, &mut seen));
    }
    out.push_str("    return plan\n\n\n");
    if seen.first(Lesson::IdHeader) {
        out.push_str(&comment("", "#", t.get(Lesson::IdHeader)));
    }
    out.push_str(RUNTIME);
    out.push_str(if plan.exports_orders() {
        MAIN_ORDERS
    } else {
        MAIN
    });
    out.push_str(MAIN_CALL);
    out
}

const MAIN: &str = r#"

def main():
    url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    for line in LEFT_OUT:
        print("left out: " + line, file=sys.stderr)
    run = Run(url)
    try:
        declare_topology(run)
        start_consumers(run)
        run.run(timed_actions(run), END_MS, GRACE_MS)
        measured_at = run.now_ms()
        report = run.report(NAME, END_MS, measured_at, run.depths(QUEUES), url)
    finally:
        run.cleanup(QUEUES, EXCHANGES)
    print(json.dumps(report, indent=2, ensure_ascii=False))
"#;

/// `main` of an order-lab export: the lab's table, its users and its consumer policy.
const MAIN_ORDERS: &str = r#"

def main():
    url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    for line in LEFT_OUT:
        print("left out: " + line, file=sys.stderr)
    run = Run(url)
    lab = Lab(run)
    try:
        declare_topology(run)
        start_consumers(run)
        lab.attach()
        run.run(timed_actions(run) + lab.timed(), END_MS, GRACE_MS)
        measured_at = run.now_ms()
        report = run.report(NAME, END_MS, measured_at, run.depths(QUEUES), url)
        report["orders"] = lab.report(END_MS)
    finally:
        run.cleanup(QUEUES, EXCHANGES)
    print(json.dumps(report, indent=2, ensure_ascii=False))
"#;

const MAIN_CALL: &str = r#"

if __name__ == "__main__":
    main()
"#;

fn run_sh(plan: &Plan) -> String {
    format!(
        r#"#!/usr/bin/env bash
# {name}: runs scenario.py against a broker and prints the run contract JSON.
#   ./run.sh AMQP_URL [TIME_SCALE]
# Python: the venv of scripts/setup.d/30-export-toolchains.sh (pika from PyPI), else any
# python3 that has pika. Nothing to build (a syntax check first).
set -euo pipefail
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
URL="${{1:?usage: run.sh AMQP_URL [TIME_SCALE]}}"
export TIME_SCALE="${{2:-${{TIME_SCALE:-1}}}}"
PY="${{DELAYLAB_EXPORT_CACHE:-$HOME/.cache/delaylab/export}}/py/bin/python"
[ -x "$PY" ] || PY=python3
"$PY" -c "import pika" 2>/dev/null || {{ echo "run.sh: $PY has no pika (pip install pika)" >&2; exit 2; }}
"$PY" -m py_compile "$HERE/scenario.py"
exec "$PY" "$HERE/scenario.py" "$URL"
"#,
        name = plan.scenario.name.replace('\n', " ")
    )
}
