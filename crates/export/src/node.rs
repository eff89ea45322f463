//! Node.js with amqplib (from npm, one cached node_modules): one `scenario.cjs` (async/await,
//! timers for the handle times) and `run.sh`.

use delaylab_engine::scenario::rename::{Key, ScenarioNames};
use delaylab_engine::scenario::{
    AckMode, Action, ActionKind, BindingDef, ConsumerSpec, Declare, Delete, DestinationKind,
    ExchangeDef, OutcomePlan, PublishSpec, QueueDef,
};
use delaylab_engine::value::FieldValue;

use crate::args::{is_i32, Arg};
use crate::header;
use crate::plan::Plan;
use crate::syntax::{comment, quote, Style};
use crate::text::{Lesson, Seen, Texts};
use crate::walk::{self, Entry, Expiration};
use crate::File;

const RUNTIME: &str = include_str!("runtime/runtime.js");
/// `.cjs`: CommonJS even under a package.json with "type": "module".
pub const PROGRAM: &str = "scenario.cjs";

pub fn files(plan: &Plan, t: &Texts) -> Vec<File> {
    vec![
        File::new(PROGRAM, program(plan, t)),
        File::script("run.sh", run_sh(plan)),
    ]
}

fn q(s: &str) -> String {
    quote(s, Style::C)
}

fn float(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        // amqplib sends an integral number as an integer: say double.
        format!("{{ '!': 'double', value: {f:?} }}")
    }
}

fn value(v: &FieldValue) -> String {
    match v {
        FieldValue::Void => "null".into(),
        FieldValue::Bool(b) => b.to_string(),
        // Typed: amqplib would send a small number as a byte or short.
        FieldValue::Int(n) if is_i32(*n) => format!("i32({n})"),
        FieldValue::Int(n) => format!("i64({n})"),
        FieldValue::Float(f) => float(*f),
        FieldValue::Str(s) => q(s),
        FieldValue::Array(items) => format!(
            "[{}]",
            items.iter().map(value).collect::<Vec<_>>().join(", ")
        ),
        FieldValue::Table(t) => format!(
            "{{ {} }}",
            t.iter()
                .map(|(k, v)| format!("{}: {}", q(k), value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        // amqplib's typed values.
        FieldValue::Timestamp(s) => format!("{{ '!': 'timestamp', value: {s} }}"),
        FieldValue::Decimal { scale, value } => {
            format!("{{ '!': 'decimal', value: {{ places: {scale}, digits: {value} }} }}")
        }
    }
}

/// A routing or binding key: a name the program prefixes (`n("work")`) or as written.
pub(crate) fn key(k: Key) -> String {
    match k {
        Key::Name(s) => format!("n({})", q(s)),
        Key::Plain(s) => q(s),
    }
}

fn arg(a: &Arg) -> String {
    match a {
        Arg::Name(s) => format!("n({})", q(s)),
        Arg::List(l) => format!("[{}]", l.iter().map(arg).collect::<Vec<_>>().join(", ")),
        Arg::Ms(ms) if is_i32(*ms) => format!("i32(ms({ms}))"),
        Arg::Ms(ms) => format!("i64(ms({ms}))"),
        Arg::DeliveryTime(t) => format!("deliveryTime({t})"),
        Arg::DeliveryTimeS(s) => format!("deliveryTimeS({s})"),
        Arg::Plain(v) => value(v),
    }
}

fn table(entries: &[Entry], indent: &str) -> String {
    if entries.is_empty() {
        return "{}".into();
    }
    let inner = format!("{indent}  ");
    let mut out = String::from("{\n");
    for e in entries {
        if let Some(n) = e.note {
            out.push_str(&comment(&inner, "//", n));
        }
        out.push_str(&format!("{inner}{}: {},\n", q(e.key), arg(&e.value)));
    }
    out.push_str(indent);
    out.push('}');
    out
}

fn notes(out: &mut String, indent: &str, notes: &[&str]) {
    for n in notes {
        out.push_str(&comment(indent, "//", n));
    }
}

fn exchange_expr(x: &ExchangeDef, t: &Texts, seen: &mut Seen, indent: &str) -> String {
    let args = walk::exchange_args(x, t, seen);
    format!(
        "ch.assertExchange(n({}), {}, {{ durable: {}, autoDelete: {}, internal: {}, arguments: {} }})",
        q(&x.name),
        q(&x.kind),
        x.durable,
        x.auto_delete,
        x.internal,
        table(&args, indent)
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
    format!(
        "ch.assertQueue(n({}), {{ durable: {}, exclusive: {}, autoDelete: {}, arguments: {} }})",
        q(&x.name),
        x.durable,
        x.exclusive,
        x.auto_delete,
        table(&args, indent)
    )
}

/// One bind (or unbind) call per key of the binding (a topic pattern adds the literal
/// renamed queue names it matched, as replay does); several are chained, in order.
fn bind_expr(names: &ScenarioNames, b: &BindingDef, unbind: bool, indent: &str) -> String {
    let args = table(&walk::plain(&b.arguments), indent);
    let (src, dst) = (q(&b.source), q(&b.destination));
    let verb = match (b.destination_type, unbind) {
        (DestinationKind::Queue, false) => "bindQueue",
        (DestinationKind::Queue, true) => "unbindQueue",
        (DestinationKind::Exchange, false) => "bindExchange",
        (DestinationKind::Exchange, true) => "unbindExchange",
    };
    let calls: Vec<String> = names
        .binding_keys(b)
        .into_iter()
        .map(|k| format!("ch.{verb}(n({dst}), n({src}), {}, {args})", key(k)))
        .collect();
    calls.join(".then(() => ") + &")".repeat(calls.len() - 1)
}

fn declare_expr(
    plan: &Plan,
    d: &Declare,
    t: &Texts,
    seen: &mut Seen,
    indent: &str,
) -> (String, String) {
    let mut pre = String::new();
    let expr = match d {
        Declare::Exchange(x) => {
            notes(&mut pre, indent, &walk::exchange_notes(x, t, seen));
            exchange_expr(x, t, seen, indent)
        }
        Declare::Queue(qd) => {
            notes(&mut pre, indent, &walk::queue_notes(plan, qd, t, seen));
            queue_expr(&plan.names, qd, t, seen, indent)
        }
        Declare::Binding(b) => bind_expr(&plan.names, b, false, indent),
    };
    (pre, format!("run.step((ch) => {expr})"))
}

fn consumer_stmt(c: &ConsumerSpec, t: &Texts, seen: &mut Seen) -> String {
    let mut out = String::new();
    notes(&mut out, "  ", &walk::consumer_notes(c, t, seen));
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
                .map(|(o, x)| format!("[{}, {x:?}]", q(walk::outcome_name(*o))))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    out.push_str(&format!(
        "  await run.consume(new Consumer({}, {}, {{ autoAck: {}, prefetch: {}, handleMs: {}, outcome: {outcome},\n    fromMs: {}, toMs: {} }}));\n",
        q(&c.name),
        q(&c.queue),
        c.ack == AckMode::Auto,
        c.prefetch,
        c.handle_ms,
        c.from_ms,
        c.to_ms.map_or("null".into(), |x| x.to_string()),
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
    let pr = &p.properties;
    let inner = format!("{indent}  ");
    let mut props: Vec<String> = Vec::new();
    match walk::expiration(p) {
        Some(Expiration::Scaled(e)) => props.push(format!("expiration: ttl({}),", q(e))),
        Some(Expiration::Parsed(e, ms)) => props.push(format!("expiration: ttl({}, {ms}),", q(e))),
        Some(Expiration::Raw(e)) => props.push(format!("expiration: {},", q(e))),
        None => {}
    }
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            props.push(format!("{k}: {v},"));
        }
    };
    put("deliveryMode", pr.delivery_mode.map(|x| x.to_string()));
    put("priority", pr.priority.map(|x| x.to_string()));
    put("messageId", pr.message_id.as_deref().map(q));
    put("correlationId", pr.correlation_id.as_deref().map(q));
    put("contentType", pr.content_type.as_deref().map(q));
    put("contentEncoding", pr.content_encoding.as_deref().map(q));
    put("replyTo", pr.reply_to.as_deref().map(q));
    put("timestamp", pr.timestamp.map(|x| x.to_string()));
    put("type", pr.kind.as_deref().map(q));
    put("userId", pr.user_id.as_deref().map(q));
    put("appId", pr.app_id.as_deref().map(q));
    put("mandatory", p.mandatory.then(|| "true".to_string()));
    if !pr.headers.is_empty() {
        let h = walk::headers(&plan.names, p, t, seen);
        props.push(format!("headers: {},", table(&h, &inner)));
    }
    let rk = key(plan.key(&p.exchange, &p.routing_key));
    let expr = format!(
        "run.publish(n({}), {rk}, {body}, {{{}\n{indent}}})",
        q(&p.exchange),
        props
            .iter()
            .map(|x| format!("\n{inner}{x}"))
            .collect::<String>()
    );
    (pre, expr)
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
    let indent = if repeat.is_some() { "    " } else { "  " };
    let body = |b: &str| {
        if walk::has_run_number(a, b) {
            format!("{}.split(\"{}\").join(String(k))", q(b), walk::RUN_NUMBER)
        } else {
            q(&walk::body_once(b))
        }
    };
    let (pre, expr) = match &a.kind {
        ActionKind::Publish(p) => publish_expr(plan, p, &body(&p.body), t, seen, indent),
        ActionKind::Declare(d) => declare_expr(plan, d, t, seen, indent),
        ActionKind::Delete(d) => (
            String::new(),
            format!(
                "run.step((ch) => {})",
                match d {
                    Delete::Exchange { name } => format!("ch.deleteExchange(n({}))", q(name)),
                    Delete::Queue { name } => format!("ch.deleteQueue(n({}))", q(name)),
                    Delete::Binding(b) => bind_expr(&plan.names, b, true, indent),
                }
            ),
        ),
        ActionKind::Purge { queue } => (
            String::new(),
            format!("run.step((ch) => ch.purgeQueue(n({})))", q(queue)),
        ),
        ActionKind::Get { queue } => (String::new(), format!("run.get({})", q(queue))),
        ActionKind::RestartNode { .. } | ActionKind::LoseNode | ActionKind::Upgrade { .. } => {
            out.push_str(&comment(
                "  ",
                "//",
                &format!("{when}: LEFT OUT: {}", walk::left_out_line(plan, i)),
            ));
            return out;
        }
    };
    out.push_str(&comment("  ", "//", &when));
    out.push_str(&pre);
    match repeat {
        Some(r) => {
            out.push_str(&format!("  for (let k = 1; k <= {}; k++) {{\n", r.count));
            out.push_str(&format!(
                "{indent}plan.push([{} + (k - 1) * {}, k > 1 ? 1 : 0, {i}, k, () => {expr}]);\n  }}\n",
                a.at_ms, r.every_ms
            ));
        }
        None => out.push_str(&format!(
            "{indent}plan.push([{}, 0, {i}, 1, () => {expr}]);\n",
            a.at_ms
        )),
    }
    out
}

fn strings(l: &[String]) -> String {
    format!(
        "[{}]",
        l.iter().map(|x| q(x)).collect::<Vec<_>>().join(", ")
    )
}

fn program(plan: &Plan, t: &Texts) -> String {
    let s = plan.scenario;
    let mut seen = Seen::default();
    let run = "Run: ./run.sh AMQP_URL [TIME_SCALE] (node with amqplib from npm; a test broker: the program declares and deletes its own objects).";
    let mut out = String::from("#!/usr/bin/env node\n");
    out.push_str(&header::comment_block(
        &header::paragraphs(plan, t, run),
        "//",
    ));
    out.push_str("\n'use strict';\n\nconst amqp = require('amqplib');\n\n");
    out.push_str(&format!("const NAME = {};\n", q(&s.name)));
    out.push_str(&format!(
        "const END_MS = {}; // the scenario's end (until)\n",
        plan.end_ms
    ));
    out.push_str(&format!(
        "const GRACE_MS = {}; // real ms waited after it for the broker's last steps\n",
        plan.grace_ms
    ));
    out.push_str(&format!(
        "const QUEUES = {};\nconst EXCHANGES = {};\nconst LEFT_OUT = {};\n\n",
        strings(&plan.queues),
        strings(&plan.exchanges),
        strings(&plan.left_out)
    ));
    out.push_str("// ---------------------------------------------------------------- the topology\n\nasync function declareTopology(run) {\n");
    let topo = &s.topology;
    let decls = topo
        .exchanges
        .iter()
        .map(|x| Declare::Exchange(x.clone()))
        .chain(topo.queues.iter().map(|x| Declare::Queue(x.clone())))
        .chain(topo.bindings.iter().map(|x| Declare::Binding(x.clone())));
    for d in decls {
        let (pre, expr) = declare_expr(plan, &d, t, &mut seen, "  ");
        out.push_str(&pre);
        out.push_str(&format!("  await {expr};\n"));
    }
    out.push_str("}\n\n// ---------------------------------------------------------------- the consumers\n\nasync function startConsumers(run) {\n");
    for c in &s.consumers {
        out.push_str(&consumer_stmt(c, t, &mut seen));
    }
    out.push_str("}\n\n// ---------------------------------------------------------------- the timed actions\n\nfunction timedActions(run) {\n");
    out.push_str(&comment(
        "  ",
        "//",
        &format!(
            "[at ms, is a repeat, action index, run number, what], sorted by {}.",
            crate::plan::ORDER_NOTE
        ),
    ));
    out.push_str("  const plan = [];\n");
    for (i, a) in s.actions.iter().enumerate() {
        out.push_str(&action(plan, i, a, t, &mut seen));
    }
    out.push_str("  return plan;\n}\n\n");
    if seen.first(Lesson::IdHeader) {
        out.push_str(&comment("", "//", t.get(Lesson::IdHeader)));
    }
    out.push_str(RUNTIME);
    out.push_str(MAIN);
    out
}

const MAIN: &str = r#"
async function main() {
  const url = process.argv[2] || process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672/%2F';
  for (const line of LEFT_OUT) process.stderr.write('left out: ' + line + '\n');
  const run = new Run(url);
  await run.open();
  let report;
  try {
    await declareTopology(run);
    await startConsumers(run);
    await run.run(timedActions(run), END_MS, GRACE_MS);
    const measuredAt = run.nowMs();
    report = run.report(NAME, END_MS, measuredAt, await run.depths(QUEUES));
  } finally {
    await run.cleanup(QUEUES, EXCHANGES);
  }
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
"#;

fn run_sh(plan: &Plan) -> String {
    format!(
        r#"#!/usr/bin/env bash
# {name}: runs scenario.cjs against a broker and prints the run contract JSON.
#   ./run.sh AMQP_URL [TIME_SCALE]
# amqplib: the node_modules of scripts/setup.d/30-export-toolchains.sh (NODE_PATH), else
# one next to this file (npm install amqplib). Nothing to build (a syntax check first).
set -euo pipefail
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
URL="${{1:?usage: run.sh AMQP_URL [TIME_SCALE]}}"
export TIME_SCALE="${{2:-${{TIME_SCALE:-1}}}}"
export NODE_PATH="${{NODE_PATH:-${{DELAYLAB_EXPORT_CACHE:-$HOME/.cache/delaylab/export}}/node/node_modules}}"
node --check "$HERE/scenario.cjs"
exec node "$HERE/scenario.cjs" "$URL"
"#,
        name = plan.scenario.name.replace('\n', " ")
    )
}
