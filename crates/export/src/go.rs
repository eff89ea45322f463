//! Go with github.com/rabbitmq/amqp091-go (Debian's golang-github-rabbitmq-amqp091-go-dev,
//! built in GOPATH mode: no module proxy): one `main.go` (actions in main, a goroutine per
//! consumer, handle times with time.AfterFunc) and `run.sh`.

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

const RUNTIME: &str = include_str!("runtime/runtime.go");
pub const PROGRAM: &str = "main.go";

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
        "math.NaN()".into()
    } else if f.is_infinite() {
        format!("math.Inf({})", if f > 0.0 { 1 } else { -1 })
    } else {
        format!("float64({f:?})")
    }
}

fn value(v: &FieldValue) -> String {
    match v {
        FieldValue::Void => "nil".into(),
        FieldValue::Bool(b) => b.to_string(),
        // The AMQP type follows the Go type: int32 is a signedint, int64 a long.
        FieldValue::Int(n) if is_i32(*n) => format!("int32({n})"),
        FieldValue::Int(n) => format!("int64({n})"),
        FieldValue::Float(f) => float(*f),
        FieldValue::Str(s) => q(s),
        FieldValue::Array(items) => format!(
            "[]interface{{}}{{{}}}",
            items.iter().map(value).collect::<Vec<_>>().join(", ")
        ),
        FieldValue::Table(t) => format!(
            "amqp.Table{{{}}}",
            t.iter()
                .map(|(k, v)| format!("{}: {}", q(k), value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        // amqp091-go sends a time.Time as a timestamp (whole seconds).
        FieldValue::Timestamp(s) => format!("time.Unix({s}, 0)"),
        FieldValue::Decimal { scale, value } => {
            format!("amqp.Decimal{{Scale: {scale}, Value: {}}}", *value as i32)
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
        Arg::List(l) => format!(
            "[]interface{{}}{{{}}}",
            l.iter().map(arg).collect::<Vec<_>>().join(", ")
        ),
        Arg::Ms(ms) if is_i32(*ms) => format!("msInt32({ms})"),
        Arg::Ms(ms) => format!("ms({ms})"),
        Arg::DeliveryTime(t) => format!("deliveryTime({t})"),
        Arg::DeliveryTimeS(s) => format!("deliveryTimeS({s})"),
        Arg::Plain(v) => value(v),
    }
}

fn table(entries: &[Entry], indent: &str) -> String {
    if entries.is_empty() {
        return "nil".into();
    }
    let inner = format!("{indent}\t");
    let mut out = String::from("amqp.Table{\n");
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

fn step(body: &str) -> String {
    format!("run.Step(func(ch *amqp.Channel) error {{\n{body}\n\t}})")
}

fn exchange_stmt(x: &ExchangeDef, t: &Texts, seen: &mut Seen, indent: &str) -> String {
    let args = walk::exchange_args(x, t, seen);
    step(&format!(
        "{indent}\treturn ch.ExchangeDeclare(n({}), {}, {}, {}, {}, false, {})",
        q(&x.name),
        q(&x.kind),
        x.durable,
        x.auto_delete,
        x.internal,
        table(&args, &format!("{indent}\t"))
    ))
}

fn queue_stmt(
    names: &ScenarioNames,
    x: &QueueDef,
    t: &Texts,
    seen: &mut Seen,
    indent: &str,
) -> String {
    let args = walk::queue_args(names, x, t, seen);
    step(&format!(
        "{indent}\t_, err := ch.QueueDeclare(n({}), {}, {}, {}, false, {})\n{indent}\treturn err",
        q(&x.name),
        x.durable,
        x.auto_delete,
        x.exclusive,
        table(&args, &format!("{indent}\t"))
    ))
}

/// One bind (or unbind) call per key of the binding (a topic pattern adds the literal
/// renamed queue names it matched, as replay does); several run in order in one step.
fn bind_stmt(names: &ScenarioNames, b: &BindingDef, unbind: bool, indent: &str) -> String {
    let args = table(&walk::plain(&b.arguments), &format!("{indent}\t"));
    let (src, dst) = (q(&b.source), q(&b.destination));
    let call = |rk: String| match (b.destination_type, unbind) {
        (DestinationKind::Queue, false) => {
            format!("ch.QueueBind(n({dst}), {rk}, n({src}), false, {args})")
        }
        (DestinationKind::Queue, true) => {
            format!("ch.QueueUnbind(n({dst}), {rk}, n({src}), {args})")
        }
        (DestinationKind::Exchange, false) => {
            format!("ch.ExchangeBind(n({dst}), {rk}, n({src}), false, {args})")
        }
        (DestinationKind::Exchange, true) => {
            format!("ch.ExchangeUnbind(n({dst}), {rk}, n({src}), false, {args})")
        }
    };
    let calls: Vec<String> = names
        .binding_keys(b)
        .into_iter()
        .map(|k| call(key(k)))
        .collect();
    let mut body = String::new();
    if let Some((last, rest)) = calls.split_last() {
        for c in rest {
            body.push_str(&format!(
                "{indent}\tif err := {c}; err != nil {{\n{indent}\t\treturn err\n{indent}\t}}\n"
            ));
        }
        body.push_str(&format!("{indent}\treturn {last}"));
    }
    step(&body)
}

fn declare_stmt(
    plan: &Plan,
    d: &Declare,
    t: &Texts,
    seen: &mut Seen,
    indent: &str,
) -> (String, String) {
    let mut pre = String::new();
    let stmt = match d {
        Declare::Exchange(x) => {
            notes(&mut pre, indent, &walk::exchange_notes(x, t, seen));
            exchange_stmt(x, t, seen, indent)
        }
        Declare::Queue(qd) => {
            notes(&mut pre, indent, &walk::queue_notes(plan, qd, t, seen));
            queue_stmt(&plan.names, qd, t, seen, indent)
        }
        Declare::Binding(b) => bind_stmt(&plan.names, b, false, indent),
    };
    (pre, stmt)
}

fn consumer_stmt(c: &ConsumerSpec, t: &Texts, seen: &mut Seen) -> String {
    let mut out = String::new();
    notes(&mut out, "\t", &walk::consumer_notes(c, t, seen));
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
                .map(|(o, x)| format!("Weight{{{}, {}}}", q(walk::outcome_name(*o)), float(*x)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    out.push_str(&format!(
        "\trun.Consume(&Consumer{{Name: {}, Queue: {}, AutoAck: {}, Prefetch: {}, HandleMs: {}, Outcome: {outcome},\n\t\tFromMs: {}, ToMs: {}}})\n",
        q(&c.name),
        q(&c.queue),
        c.ack == AckMode::Auto,
        c.prefetch,
        c.handle_ms,
        c.from_ms,
        c.to_ms.map_or("nil".into(), |x| format!("at({x})")),
    ));
    out
}

fn publish_stmt(
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
    let inner = format!("{indent}\t");
    let mut props: Vec<String> = Vec::new();
    match walk::expiration(p) {
        Some(Expiration::Scaled(e)) => props.push(format!("Expiration: ttl({}),", q(e))),
        Some(Expiration::Parsed(e, ms)) => {
            props.push(format!("Expiration: ttlReadAs({}, {ms}),", q(e)))
        }
        Some(Expiration::Raw(e)) => props.push(format!("Expiration: {},", q(e))),
        None => {}
    }
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            props.push(format!("{k}: {v},"));
        }
    };
    put("DeliveryMode", pr.delivery_mode.map(|x| x.to_string()));
    put("Priority", pr.priority.map(|x| x.to_string()));
    put("MessageId", pr.message_id.as_deref().map(q));
    put("CorrelationId", pr.correlation_id.as_deref().map(q));
    put("ContentType", pr.content_type.as_deref().map(q));
    put("ContentEncoding", pr.content_encoding.as_deref().map(q));
    put("ReplyTo", pr.reply_to.as_deref().map(q));
    put(
        "Timestamp",
        pr.timestamp.map(|x| format!("time.Unix({x}, 0)")),
    );
    put("Type", pr.kind.as_deref().map(q));
    put("UserId", pr.user_id.as_deref().map(q));
    put("AppId", pr.app_id.as_deref().map(q));
    if !pr.headers.is_empty() {
        let h = walk::headers(&plan.names, p, t, seen);
        props.push(format!("Headers: {},", table(&h, &inner)));
    }
    let rk = key(plan.key(&p.exchange, &p.routing_key));
    let stmt = format!(
        "run.Publish(n({}), {rk}, {body}, amqp.Publishing{{{}\n{indent}}}, {})",
        q(&p.exchange),
        props
            .iter()
            .map(|x| format!("\n{inner}{x}"))
            .collect::<String>(),
        p.mandatory
    );
    (pre, stmt)
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
    let indent = if repeat.is_some() { "\t\t\t" } else { "\t\t" };
    let body = |b: &str| {
        if walk::has_run_number(a, b) {
            format!(
                "strings.ReplaceAll({}, \"{}\", strconv.Itoa(k))",
                q(b),
                walk::RUN_NUMBER
            )
        } else {
            q(&walk::body_once(b))
        }
    };
    let (pre, stmt) = match &a.kind {
        ActionKind::Publish(p) => publish_stmt(plan, p, &body(&p.body), t, seen, indent),
        ActionKind::Declare(d) => declare_stmt(plan, d, t, seen, indent),
        ActionKind::Delete(d) => (
            String::new(),
            match d {
                Delete::Exchange { name } => step(&format!("{indent}\treturn ch.ExchangeDelete(n({}), false, false)", q(name))),
                Delete::Queue { name } => step(&format!(
                    "{indent}\t_, err := ch.QueueDelete(n({}), false, false, false)\n{indent}\treturn err",
                    q(name)
                )),
                Delete::Binding(b) => bind_stmt(&plan.names, b, true, indent),
            },
        ),
        ActionKind::Purge { queue } => (
            String::new(),
            step(&format!("{indent}\t_, err := ch.QueuePurge(n({}), false)\n{indent}\treturn err", q(queue))),
        ),
        ActionKind::Get { queue } => (String::new(), format!("run.Get({})", q(queue))),
        ActionKind::RestartNode { .. } | ActionKind::LoseNode | ActionKind::Upgrade { .. } => {
            out.push_str(&comment("\t", "//", &format!("{when}: LEFT OUT: {}", walk::left_out_line(plan, i))));
            return out;
        }
    };
    // The step closures are written at one indent; re-indent them under the action.
    let stmt = stmt.replace("\n\t})", &format!("\n{indent}}})"));
    out.push_str(&comment("\t", "//", &when));
    out.push_str(&pre);
    match repeat {
        Some(r) => {
            out.push_str(&format!(
                "\tfor k := 1; k <= {}; k++ {{\n\t\tk := k\n",
                r.count
            ));
            out.push_str(&format!(
                "\t\tplan = append(plan, Timed{{{} + int64(k-1)*{}, k > 1, {i}, k, func() {{\n{indent}{stmt}\n\t\t}}}})\n\t}}\n",
                a.at_ms, r.every_ms
            ));
        }
        None => out.push_str(&format!(
            "\tplan = append(plan, Timed{{{}, false, {i}, 1, func() {{\n{indent}{stmt}\n\t}}}})\n",
            a.at_ms
        )),
    }
    out
}

fn strings_lit(l: &[String]) -> String {
    format!(
        "[]string{{{}}}",
        l.iter().map(|x| q(x)).collect::<Vec<_>>().join(", ")
    )
}

fn program(plan: &Plan, t: &Texts) -> String {
    let s = plan.scenario;
    let mut seen = Seen::default();
    let run = "Run: ./run.sh AMQP_URL [TIME_SCALE] (go 1.19 in GOPATH mode with Debian's golang-github-rabbitmq-amqp091-go-dev; a test broker: the program declares and deletes its own objects).";
    let mut out = header::comment_block(&header::paragraphs(plan, t, run), "//");
    out.push_str("package main\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"math\"\n\t\"math/rand\"\n\t\"os\"\n\t\"sort\"\n\t\"strconv\"\n\t\"strings\"\n\t\"sync\"\n\t\"time\"\n\n\tamqp \"github.com/rabbitmq/amqp091-go\"\n)\n\n");
    out.push_str(&format!("const scenarioName = {}\n\n", q(&s.name)));
    out.push_str(&format!("// endMs is the scenario's end (until); graceMs the real ms waited after it.\nconst endMs, graceMs = {}, {}\n\n", plan.end_ms, plan.grace_ms));
    out.push_str(&format!(
        "var queues = {}\nvar exchanges = {}\nvar leftOut = {}\n\n",
        strings_lit(&plan.queues),
        strings_lit(&plan.exchanges),
        strings_lit(&plan.left_out)
    ));
    out.push_str("// ---------------------------------------------------------------- the topology\n\nfunc declareTopology(run *Run) {\n");
    let topo = &s.topology;
    let decls = topo
        .exchanges
        .iter()
        .map(|x| Declare::Exchange(x.clone()))
        .chain(topo.queues.iter().map(|x| Declare::Queue(x.clone())))
        .chain(topo.bindings.iter().map(|x| Declare::Binding(x.clone())));
    for d in decls {
        let (pre, stmt) = declare_stmt(plan, &d, t, &mut seen, "\t");
        out.push_str(&pre);
        out.push_str(&format!("\t{stmt}\n"));
    }
    out.push_str("}\n\n// ---------------------------------------------------------------- the consumers\n\nfunc startConsumers(run *Run) {\n");
    for c in &s.consumers {
        out.push_str(&consumer_stmt(c, t, &mut seen));
    }
    out.push_str("}\n\n// ---------------------------------------------------------------- the timed actions\n\nfunc timedActions(run *Run) []Timed {\n");
    out.push_str(&comment(
        "\t",
        "//",
        &format!("Sorted by {}.", crate::plan::ORDER_NOTE),
    ));
    out.push_str("\tplan := []Timed{}\n");
    for (i, a) in s.actions.iter().enumerate() {
        out.push_str(&action(plan, i, a, t, &mut seen));
    }
    out.push_str("\treturn plan\n}\n\n");
    if seen.first(Lesson::IdHeader) {
        out.push_str(&comment("", "//", t.get(Lesson::IdHeader)));
    }
    out.push_str(RUNTIME);
    out.push_str(MAIN);
    out
}

const MAIN: &str = r#"
func main() {
	url := os.Getenv("AMQP_URL")
	if len(os.Args) > 1 {
		url = os.Args[1]
	}
	if url == "" {
		url = "amqp://guest:guest@127.0.0.1:5672/%2F"
	}
	for _, l := range leftOut {
		fmt.Fprintln(os.Stderr, "left out: "+l)
	}
	run, err := NewRun(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot connect:", err)
		os.Exit(1)
	}
	declareTopology(run)
	startConsumers(run)
	run.Play(timedActions(run), endMs, graceMs)
	measuredAt := run.NowMs()
	report := run.Report(scenarioName, endMs, measuredAt, run.Depths(queues))
	run.Cleanup(queues, exchanges)
	out, _ := json.MarshalIndent(report, "", "  ")
	fmt.Println(string(out))
}
"#;

fn run_sh(plan: &Plan) -> String {
    format!(
        r#"#!/usr/bin/env bash
# {name}: builds main.go offline and runs it against a broker; prints the run contract
# JSON.
#   ./run.sh AMQP_URL [TIME_SCALE]
# Go in GOPATH mode (no module proxy): amqp091-go from Debian's
# golang-github-rabbitmq-amqp091-go-dev under /usr/share/gocode.
set -euo pipefail
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
URL="${{1:?usage: run.sh AMQP_URL [TIME_SCALE]}}"
export TIME_SCALE="${{2:-${{TIME_SCALE:-1}}}}"
export GO111MODULE=off GOPATH="${{GOPATH:-/usr/share/gocode}}" GOFLAGS= GOPROXY=off
go build -o "$HERE/scenario" "$HERE/main.go"
exec "$HERE/scenario" "$URL"
"#,
        name = plan.scenario.name.replace('\n', " ")
    )
}
