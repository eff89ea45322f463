//! Plain Java with the RabbitMQ Java client (amqp-client 5.0.0, Debian's
//! librabbitmq-client-java: the API of the seeds' code): one `Scenario.java` (actions on
//! the main thread, deliveries on the client's consumer threads, handle times on a
//! scheduler) and `run.sh` (javac + java, offline).

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

const RUNTIME: &str = include_str!("runtime/Runtime.java");
pub const PROGRAM: &str = "Scenario.java";
/// The classpath of Debian's packages (scripts/setup.d/30-export-toolchains.sh).
pub const CLASSPATH: &str =
    "/usr/share/java/amqp-client.jar:/usr/share/java/slf4j-api.jar:/usr/share/java/slf4j-nop.jar";

pub fn files(plan: &Plan, t: &Texts) -> Vec<File> {
    vec![
        File::new(PROGRAM, program(plan, t)),
        File::script("run.sh", run_sh(plan)),
    ]
}

pub fn q(s: &str) -> String {
    quote(s, Style::Java)
}

pub fn int(n: i64) -> String {
    if is_i32(n) {
        n.to_string()
    } else {
        format!("{n}L")
    }
}

pub fn float(f: f64) -> String {
    if f.is_nan() {
        "Double.NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "Double.POSITIVE_INFINITY"
        } else {
            "Double.NEGATIVE_INFINITY"
        }
        .into()
    } else {
        format!("{f:?}d")
    }
}

pub fn value(v: &FieldValue) -> String {
    match v {
        FieldValue::Void => "null".into(),
        FieldValue::Bool(b) => b.to_string(),
        FieldValue::Int(n) => int(*n),
        FieldValue::Float(f) => float(*f),
        FieldValue::Str(s) => q(s),
        FieldValue::Array(items) => format!(
            "list({})",
            items.iter().map(value).collect::<Vec<_>>().join(", ")
        ),
        FieldValue::Table(t) => format!(
            "table({})",
            t.iter()
                .map(|(k, v)| format!("{}, {}", q(k), value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        // The Java client sends a Date as a timestamp and a BigDecimal as a decimal.
        FieldValue::Timestamp(s) => format!("new java.util.Date({s}L * 1000L)"),
        FieldValue::Decimal { scale, value } => format!(
            "new java.math.BigDecimal({})",
            q(&delaylab_engine::value::decimal_text(*scale, *value))
        ),
    }
}

/// A routing or binding key: a name the program prefixes (`n("work")`) or as written.
pub(crate) fn key(k: Key) -> String {
    match k {
        Key::Name(s) => format!("n({})", q(s)),
        Key::Plain(s) => q(s),
    }
}

pub fn arg(a: &Arg) -> String {
    match a {
        Arg::Name(s) => format!("n({})", q(s)),
        Arg::List(l) => format!("list({})", l.iter().map(arg).collect::<Vec<_>>().join(", ")),
        Arg::Ms(ms) => format!("ms({})", int(*ms)),
        Arg::DeliveryTime(t) => format!("deliveryTime({t}L)"),
        Arg::DeliveryTimeS(s) => format!("deliveryTimeS({s}L)"),
        Arg::Plain(v) => value(v),
    }
}

/// `table(k, v, ...)`, one entry a line with its lesson above it.
pub fn table(entries: &[Entry], indent: &str) -> String {
    if entries.is_empty() {
        return "table()".into();
    }
    let inner = format!("{indent}    ");
    let mut out = String::from("table(\n");
    for (i, e) in entries.iter().enumerate() {
        if let Some(n) = e.note {
            out.push_str(&comment(&inner, "//", n));
        }
        let sep = if i + 1 < entries.len() { "," } else { ")" };
        out.push_str(&format!("{inner}{}, {}{sep}\n", q(e.key), arg(&e.value)));
    }
    out.push_str(indent);
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
        "ch.exchangeDeclare(n({}), {}, {}, {}, {}, {})",
        q(&x.name),
        q(&x.kind),
        x.durable,
        x.auto_delete,
        x.internal,
        table(&args, indent).trim_end()
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
        "ch.queueDeclare(n({}), {}, {}, {}, {})",
        q(&x.name),
        x.durable,
        x.exclusive,
        x.auto_delete,
        table(&args, indent).trim_end()
    )
}

/// One bind (or unbind) call per key of the binding (a topic pattern adds the literal
/// renamed queue names it matched, as replay does); several are one block, in order.
fn bind_expr(names: &ScenarioNames, b: &BindingDef, unbind: bool, indent: &str) -> String {
    let args = table(&walk::plain(&b.arguments), indent);
    let args = args.trim_end();
    let (src, dst) = (q(&b.source), q(&b.destination));
    let verb = match (b.destination_type, unbind) {
        (DestinationKind::Queue, false) => "queueBind",
        (DestinationKind::Queue, true) => "queueUnbind",
        (DestinationKind::Exchange, false) => "exchangeBind",
        (DestinationKind::Exchange, true) => "exchangeUnbind",
    };
    let calls: Vec<String> = names
        .binding_keys(b)
        .into_iter()
        .map(|k| format!("ch.{verb}(n({dst}), n({src}), {}, {args})", key(k)))
        .collect();
    match calls.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{{ {}; return {last}; }}", rest.join("; ")),
        None => unreachable!("a binding has at least its own key"),
    }
}

/// The comments and the `ch -> ...` expression of a declaration.
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
    (pre, format!("run.step(ch -> {expr})"))
}

fn consumer_stmt(c: &ConsumerSpec, t: &Texts, seen: &mut Seen) -> String {
    let mut out = String::new();
    notes(&mut out, "        ", &walk::consumer_notes(c, t, seen));
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
                .map(|(o, x)| format!("{}, {}", q(walk::outcome_name(*o)), float(*x)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    out.push_str(&format!(
        "        run.consume(new Consumer({}, {}, {}, {}, {}L, {outcome}, {}L, {}));\n",
        q(&c.name),
        q(&c.queue),
        c.ack == AckMode::Auto,
        c.prefetch,
        c.handle_ms,
        c.from_ms,
        c.to_ms.map_or("null".into(), |x| format!("{x}L")),
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
    let expr = format!(
        "run.publish(n({}), {rk}, {body}, {}, {})",
        q(&p.exchange),
        builder(&plan.names, p, t, seen, &inner),
        p.mandatory
    );
    (pre, expr)
}

/// `new AMQP.BasicProperties.Builder()` of a publish, one property a line at `inner`.
pub(crate) fn builder(
    names: &ScenarioNames,
    p: &PublishSpec,
    t: &Texts,
    seen: &mut Seen,
    inner: &str,
) -> String {
    let pr = &p.properties;
    let mut props: Vec<String> = Vec::new();
    match walk::expiration(p) {
        Some(Expiration::Scaled(e)) => props.push(format!(".expiration(ttl({}))", q(e))),
        Some(Expiration::Parsed(e, ms)) => props.push(format!(".expiration(ttl({}, {ms}L))", q(e))),
        Some(Expiration::Raw(e)) => props.push(format!(".expiration({})", q(e))),
        None => {}
    }
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            props.push(format!(".{k}({v})"));
        }
    };
    put("deliveryMode", pr.delivery_mode.map(|x| x.to_string()));
    put("priority", pr.priority.map(|x| x.to_string()));
    put("messageId", pr.message_id.as_deref().map(q));
    put("correlationId", pr.correlation_id.as_deref().map(q));
    put("contentType", pr.content_type.as_deref().map(q));
    put("contentEncoding", pr.content_encoding.as_deref().map(q));
    put("replyTo", pr.reply_to.as_deref().map(q));
    put(
        "timestamp",
        pr.timestamp.map(|x| format!("new Date({x}L * 1000)")),
    );
    put("type", pr.kind.as_deref().map(q));
    put("userId", pr.user_id.as_deref().map(q));
    put("appId", pr.app_id.as_deref().map(q));
    if !pr.headers.is_empty() {
        let h = walk::headers(names, p, t, seen);
        props.push(format!(".headers({})", table(&h, inner).trim_end()));
    }
    format!(
        "new AMQP.BasicProperties.Builder(){}",
        props
            .iter()
            .map(|x| format!("\n{inner}{x}"))
            .collect::<String>()
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
    let indent = if repeat.is_some() {
        "            "
    } else {
        "        "
    };
    let body = |b: &str| {
        if walk::has_run_number(a, b) {
            format!(
                "{}.replace(\"{}\", String.valueOf(r))",
                q(b),
                walk::RUN_NUMBER
            )
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
                "run.step(ch -> {})",
                match d {
                    Delete::Exchange { name } => format!("ch.exchangeDelete(n({}))", q(name)),
                    Delete::Queue { name } => format!("ch.queueDelete(n({}))", q(name)),
                    Delete::Binding(b) => bind_expr(&plan.names, b, true, indent),
                }
            ),
        ),
        ActionKind::Purge { queue } => (
            String::new(),
            format!("run.step(ch -> ch.queuePurge(n({})))", q(queue)),
        ),
        ActionKind::Get { queue } => (String::new(), format!("run.get({})", q(queue))),
        ActionKind::RestartNode { .. } | ActionKind::LoseNode | ActionKind::Upgrade { .. } => {
            out.push_str(&comment(
                "        ",
                "//",
                &format!("{when}: LEFT OUT: {}", walk::left_out_line(plan, i)),
            ));
            return out;
        }
    };
    out.push_str(&comment("        ", "//", &when));
    out.push_str(&pre);
    match repeat {
        Some(r) => {
            out.push_str(&format!(
                "        for (int k = 1; k <= {}; k++) {{\n",
                r.count
            ));
            out.push_str("            final int r = k;\n");
            out.push_str(&format!(
                "{indent}plan.add(new Timed({}L + (k - 1) * {}L, k > 1, {i}, k, () -> {expr}));\n        }}\n",
                a.at_ms, r.every_ms
            ));
        }
        None => out.push_str(&format!(
            "{indent}plan.add(new Timed({}L, false, {i}, 1, () -> {expr}));\n",
            a.at_ms
        )),
    }
    out
}

fn strings(l: &[String]) -> String {
    format!(
        "List.of({})",
        l.iter().map(|x| q(x)).collect::<Vec<_>>().join(", ")
    )
}

fn program(plan: &Plan, t: &Texts) -> String {
    let s = plan.scenario;
    let mut seen = Seen::default();
    let run = "Run: ./run.sh AMQP_URL [TIME_SCALE] (javac and java 17, amqp-client 5.0.0 from Debian's librabbitmq-client-java; a test broker: the program declares and deletes its own objects).";
    let mut out = header::comment_block(&header::paragraphs(plan, t, run), "//");
    out.push_str("\nimport com.rabbitmq.client.*;\n\nimport java.nio.charset.StandardCharsets;\nimport java.util.*;\nimport java.util.concurrent.*;\nimport java.util.concurrent.atomic.AtomicInteger;\n\npublic class Scenario {\n");
    out.push_str(&format!("    static final String NAME = {};\n", q(&s.name)));
    out.push_str(&format!(
        "    /** The scenario's end (until), ms. */\n    static final long END_MS = {}L;\n",
        plan.end_ms
    ));
    out.push_str(&format!("    /** Real ms waited after it for the broker's last steps. */\n    static final long GRACE_MS = {}L;\n", plan.grace_ms));
    out.push_str(&format!(
        "    static final List<String> QUEUES = {};\n",
        strings(&plan.queues)
    ));
    out.push_str(&format!(
        "    static final List<String> EXCHANGES = {};\n",
        strings(&plan.exchanges)
    ));
    out.push_str(&format!(
        "    static final List<String> LEFT_OUT = {};\n\n",
        strings(&plan.left_out)
    ));

    out.push_str("    // ---------------------------------------------------------------- the topology\n\n    static void declareTopology(Run run) {\n");
    let topo = &s.topology;
    let decls = topo
        .exchanges
        .iter()
        .map(|x| Declare::Exchange(x.clone()))
        .chain(topo.queues.iter().map(|x| Declare::Queue(x.clone())))
        .chain(topo.bindings.iter().map(|x| Declare::Binding(x.clone())));
    for d in decls {
        let (pre, expr) = declare_expr(plan, &d, t, &mut seen, "        ");
        out.push_str(&pre);
        out.push_str(&format!("        {expr};\n"));
    }
    out.push_str("    }\n\n    // ---------------------------------------------------------------- the consumers\n\n    static void startConsumers(Run run) {\n");
    for c in &s.consumers {
        out.push_str(&consumer_stmt(c, t, &mut seen));
    }
    out.push_str("    }\n\n");
    if plan.exports_orders() {
        out.push_str(&crate::orders::java(plan, t));
    }
    out.push_str("    // ---------------------------------------------------------------- the timed actions\n\n    static List<Timed> timedActions(Run run) {\n");
    out.push_str(&comment(
        "        ",
        "//",
        &format!("Sorted by {}.", crate::plan::ORDER_NOTE),
    ));
    out.push_str("        List<Timed> plan = new ArrayList<>();\n");
    for (i, a) in s.actions.iter().enumerate() {
        out.push_str(&action(plan, i, a, t, &mut seen));
    }
    out.push_str("        return plan;\n    }\n\n");
    if seen.first(Lesson::IdHeader) {
        out.push_str(&comment("    ", "//", t.get(Lesson::IdHeader)));
    }
    out.push_str(RUNTIME);
    out.push_str(if plan.exports_orders() {
        MAIN_ORDERS
    } else {
        MAIN
    });
    out
}

/// `main` of an order-lab export: the lab's table, its users and its consumer policy.
const MAIN_ORDERS: &str = r#"
    public static void main(String[] argv) throws Exception {
        String url = argv.length > 0 ? argv[0] : System.getenv().getOrDefault("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F");
        for (String line : LEFT_OUT) System.err.println("left out: " + line);
        Run run = new Run(url);
        Lab lab = new Lab(run);
        Map<String, Object> report;
        try {
            declareTopology(run);
            startConsumers(run);
            lab.attach();
            List<Timed> plan = timedActions(run);
            plan.addAll(lab.timed());
            run.run(plan, END_MS, GRACE_MS);
            long measuredAt = run.nowMs();
            report = run.report(NAME, END_MS, measuredAt, run.depths(QUEUES));
            report.put("orders", lab.report(END_MS));
        } finally {
            run.cleanup(QUEUES, EXCHANGES);
        }
        System.out.println(json(report, ""));
        System.exit(0);
    }
}
"#;

const MAIN: &str = r#"
    public static void main(String[] argv) throws Exception {
        String url = argv.length > 0 ? argv[0] : System.getenv().getOrDefault("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F");
        for (String line : LEFT_OUT) System.err.println("left out: " + line);
        Run run = new Run(url);
        Map<String, Object> report;
        try {
            declareTopology(run);
            startConsumers(run);
            run.run(timedActions(run), END_MS, GRACE_MS);
            long measuredAt = run.nowMs();
            report = run.report(NAME, END_MS, measuredAt, run.depths(QUEUES));
        } finally {
            run.cleanup(QUEUES, EXCHANGES);
        }
        System.out.println(json(report, ""));
        System.exit(0);
    }
}
"#;

fn run_sh(plan: &Plan) -> String {
    format!(
        r#"#!/usr/bin/env bash
# {name}: builds Scenario.java offline and runs it against a broker; prints the run
# contract JSON.
#   ./run.sh AMQP_URL [TIME_SCALE]
# Needs javac/java 17 and Debian's librabbitmq-client-java (amqp-client 5.0.0) with
# slf4j (scripts/setup.d/30-export-toolchains.sh); CLASSPATH overrides the jars.
set -euo pipefail
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
URL="${{1:?usage: run.sh AMQP_URL [TIME_SCALE]}}"
export TIME_SCALE="${{2:-${{TIME_SCALE:-1}}}}"
CP="${{CLASSPATH:-{cp}}}"
mkdir -p "$HERE/build"
# -XDstringConcat=inline: string concatenation without invokedynamic (no bootstrap
# pause at the first delivery).
javac -nowarn -XDstringConcat=inline -encoding UTF-8 -cp "$CP" -d "$HERE/build" "$HERE/Scenario.java"
# C1 only: starts faster and compiles less on a busy machine (timing matters here).
exec java -XX:TieredStopAtLevel=1 -cp "$HERE/build:$CP" Scenario "$URL"
"#,
        name = plan.scenario.name.replace('\n', " "),
        cp = CLASSPATH
    )
}
