//! Rust with lapin (the client `delaylab replay` uses, on tokio): a cargo project with
//! `src/main.rs` (the scenario: topology, consumers, timed actions), `src/runtime.rs`
//! (the run, same in every export), `Cargo.toml` and `run.sh`.
//!
//! The dependencies are pinned to the versions in delaylab's own Cargo.lock (checked by
//! the crate's tests), so that `cargo build --offline` finds them all in
//! `~/.cargo/registry` once delaylab has been built; `run.sh` writes the lock file
//! offline too and never downloads. A target directory shared by several exports
//! (`DELAYLAB_RUST_TARGET_DIR`) compiles lapin and tokio once.

use delaylab_engine::scenario::{
    AckMode, Action, ActionKind, BindingDef, ConsumerSpec, Declare, Delete, DestinationKind,
    ExchangeDef, Outcome, OutcomePlan, PublishSpec, QueueDef,
};

use crate::header;
use crate::plan::Plan;
use crate::syntax::comment;
use crate::text::{Lesson, Seen, Texts};
use crate::walk::{self, Expiration};
use crate::File;
use delaylab_engine::scenario::rename::{Key, ScenarioNames};

mod lit;
mod project;

use lit::{args_line, call, exchange_kind, float, options, q, table};

pub use project::{package_name, DEPENDENCIES};

/// The runtime (the same in every export): the run, what it saw, the consumers.
const RUNTIME: &[(&str, &str)] = &[
    ("src/runtime.rs", include_str!("runtime/runtime.rs")),
    ("src/runtime/seen.rs", include_str!("runtime/rust/seen.rs")),
    (
        "src/runtime/consumers.rs",
        include_str!("runtime/rust/consumers.rs"),
    ),
];
pub const PROGRAM: &str = "src/main.rs";

pub fn files(plan: &Plan, t: &Texts) -> Vec<File> {
    let mut out = vec![File::new(PROGRAM, program(plan, t))];
    out.extend(
        RUNTIME
            .iter()
            .map(|(p, text)| File::new(p, text.to_string())),
    );
    out.push(File::new("Cargo.toml", project::cargo_toml(plan)));
    out.push(File::script("run.sh", project::run_sh(plan)));
    out
}

fn notes(out: &mut String, indent: &str, notes: &[&str]) {
    for n in notes {
        out.push_str(&comment(indent, "//", n));
    }
}

/// `run.step(async |ch| { ... })`: the body's lines at `indent` + 4.
fn step(lines: &[String], indent: &str) -> String {
    let inner = format!("{indent}    ");
    let mut out = String::from("run.step(async |ch| {\n");
    for l in lines {
        out.push_str(&inner);
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(indent);
    out.push_str("})\n");
    out.push_str(indent);
    out.push_str(".await;\n");
    out
}

fn exchange_stmt(x: &ExchangeDef, t: &Texts, seen: &mut Seen, indent: &str) -> String {
    let entries = walk::exchange_args(x, t, seen);
    let inner = format!("{indent}    ");
    let opts = options(
        "ExchangeDeclareOptions",
        &[
            ("durable", x.durable),
            ("auto_delete", x.auto_delete),
            ("internal", x.internal),
        ],
    );
    let (mut lines, args) = args_line(&entries, &inner);
    lines.insert(0, format!("let opts = {opts};"));
    let a = [
        format!("n({})", q(&x.name)),
        exchange_kind(&x.kind),
        "opts".into(),
        args.into(),
    ];
    lines.push(call(&inner, "ch.exchange_declare", &a, ".await"));
    step(&lines, indent)
}

/// A routing or binding key as the program sends it: a key that names a scenario queue
/// gets the run's prefix (`n(..)`) by the shared rule (`scenario::rename`), as replay does.
fn key(k: Key) -> String {
    match k {
        Key::Name(s) => format!("n({})", q(s)),
        Key::Plain(s) => format!("{}.into()", q(s)),
    }
}

fn queue_stmt(
    names: &ScenarioNames,
    x: &QueueDef,
    t: &Texts,
    seen: &mut Seen,
    indent: &str,
) -> String {
    let entries = walk::queue_args(names, x, t, seen);
    let inner = format!("{indent}    ");
    let opts = options(
        "QueueDeclareOptions",
        &[
            ("durable", x.durable),
            ("exclusive", x.exclusive),
            ("auto_delete", x.auto_delete),
        ],
    );
    let (mut lines, args) = args_line(&entries, &inner);
    lines.insert(0, format!("let opts = {opts};"));
    let a = [format!("n({})", q(&x.name)), "opts".into(), args.into()];
    lines.push(call(&inner, "ch.queue_declare", &a, ".await"));
    step(&lines, indent)
}

/// One bind (or unbind) call per key of the binding (a topic pattern adds the literal
/// renamed queue names it matched, as replay does), in order, in one step.
fn bind_stmt(names: &ScenarioNames, b: &BindingDef, unbind: bool, indent: &str) -> String {
    let inner = format!("{indent}    ");
    let (mut lines, args) = args_line(&walk::plain(&b.arguments), &inner);
    let (f, opts) = match (b.destination_type, unbind) {
        (DestinationKind::Queue, false) => ("ch.queue_bind", Some("QueueBindOptions::default()")),
        (DestinationKind::Queue, true) => ("ch.queue_unbind", None),
        (DestinationKind::Exchange, false) => {
            ("ch.exchange_bind", Some("ExchangeBindOptions::default()"))
        }
        (DestinationKind::Exchange, true) => (
            "ch.exchange_unbind",
            Some("ExchangeUnbindOptions::default()"),
        ),
    };
    let keys = names.binding_keys(b);
    let last = keys.len() - 1;
    for (i, k) in keys.into_iter().enumerate() {
        // lapin's order: destination, source, routing key (options), arguments.
        let mut a = vec![
            format!("n({})", q(&b.destination)),
            format!("n({})", q(&b.source)),
            key(k),
        ];
        a.extend(opts.map(String::from));
        a.push(args.into());
        // The step's value is the last call's result; an earlier failure ends it there.
        let end = if i == last { ".await" } else { ".await?;" };
        lines.push(call(&inner, f, &a, end));
    }
    step(&lines, indent)
}

fn declare_stmt(plan: &Plan, d: &Declare, t: &Texts, seen: &mut Seen, indent: &str) -> String {
    let mut out = String::new();
    let stmt = match d {
        Declare::Exchange(x) => {
            notes(&mut out, indent, &walk::exchange_notes(x, t, seen));
            exchange_stmt(x, t, seen, indent)
        }
        Declare::Queue(qd) => {
            notes(&mut out, indent, &walk::queue_notes(plan, qd, t, seen));
            queue_stmt(&plan.names, qd, t, seen, indent)
        }
        Declare::Binding(b) => bind_stmt(&plan.names, b, false, indent),
    };
    out.push_str(indent);
    out.push_str(&stmt);
    out
}

fn outcome(o: Outcome) -> &'static str {
    match o {
        Outcome::Ack => "Outcome::Ack",
        Outcome::Reject => "Outcome::Reject",
        Outcome::RejectRequeue => "Outcome::RejectRequeue",
        Outcome::Requeue => "Outcome::Requeue",
        Outcome::NackMultiple => "Outcome::NackMultiple",
        // The client's republish loop is not exported (`plan::left_out` says so).
        Outcome::Republish => "Outcome::Ack",
    }
}

fn consumer_stmt(c: &ConsumerSpec, t: &Texts, seen: &mut Seen) -> String {
    let mut out = String::new();
    notes(&mut out, "    ", &walk::consumer_notes(c, t, seen));
    let plan = match &c.outcome {
        OutcomePlan::Fixed(o) => format!("Outcomes::Fixed({})", outcome(*o)),
        OutcomePlan::Sequence(l) => format!(
            "Outcomes::Sequence(&[{}])",
            l.iter().map(|o| outcome(*o)).collect::<Vec<_>>().join(", ")
        ),
        OutcomePlan::Weighted(w) => format!(
            "Outcomes::Weighted(&[{}])",
            w.iter()
                .map(|(o, x)| format!("({}, {})", outcome(*o), float(*x)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let fields = [
        format!("name: {},", q(&c.name)),
        format!("queue: {},", q(&c.queue)),
        format!("auto_ack: {},", c.ack == AckMode::Auto),
        format!("prefetch: {},", c.prefetch),
        format!("handle_ms: {},", c.handle_ms),
        format!("outcome: {plan},"),
        format!("from_ms: {},", c.from_ms),
        format!(
            "to_ms: {},",
            c.to_ms.map_or("None".into(), |x| format!("Some({x})"))
        ),
    ];
    out.push_str("    run.consume(Consumer {\n");
    for f in fields {
        out.push_str(&format!("        {f}\n"));
    }
    out.push_str("    })\n    .await;\n");
    out
}

/// The statements of a publish; `body` is a `&str` expression.
fn publish_stmt(
    plan: &Plan,
    p: &PublishSpec,
    body: &str,
    t: &Texts,
    seen: &mut Seen,
    indent: &str,
) -> String {
    let mut out = String::new();
    notes(&mut out, indent, &walk::publish_notes(p, t, seen));
    let pr = &p.properties;
    let inner = format!("{indent}    ");
    let mut props: Vec<String> = Vec::new();
    match walk::expiration(p) {
        Some(Expiration::Scaled(e)) => props.push(format!(".with_expiration(ttl({}))", q(e))),
        Some(Expiration::Parsed(e, ms)) => {
            props.push(format!(".with_expiration(ttl_read_as({}, {ms}))", q(e)))
        }
        Some(Expiration::Raw(e)) => props.push(format!(".with_expiration({}.into())", q(e))),
        None => {}
    }
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            props.push(format!(".with_{k}({v})"));
        }
    };
    let short = |s: &Option<String>| s.as_deref().map(|x| format!("{}.into()", q(x)));
    put("delivery_mode", pr.delivery_mode.map(|x| x.to_string()));
    put("priority", pr.priority.map(|x| x.to_string()));
    put("message_id", short(&pr.message_id));
    put("correlation_id", short(&pr.correlation_id));
    put("content_type", short(&pr.content_type));
    put("content_encoding", short(&pr.content_encoding));
    put("reply_to", short(&pr.reply_to));
    put("timestamp", pr.timestamp.map(|x| x.to_string()));
    put("type", short(&pr.kind));
    put("user_id", short(&pr.user_id));
    put("app_id", short(&pr.app_id));
    if !pr.headers.is_empty() {
        let h = walk::headers(&plan.names, p, t, seen);
        props.push(format!(".with_headers({})", table(&h, &inner)));
    }
    out.push_str(indent);
    out.push_str("let props = BasicProperties::default()");
    for x in &props {
        out.push('\n');
        out.push_str(&inner);
        out.push_str(x);
    }
    out.push_str(";\n");
    let rk = key(plan.key(&p.exchange, &p.routing_key));
    let a = [
        format!("n({})", q(&p.exchange)),
        rk,
        body.to_string(),
        "props".into(),
        p.mandatory.to_string(),
    ];
    out.push_str(indent);
    out.push_str(&call(indent, "run.publish", &a, ".await;"));
    out.push('\n');
    out
}

/// The `when` comment of action `i`.
fn when(i: usize, a: &Action) -> String {
    match a.repeat.filter(|r| r.count > 1) {
        Some(r) => format!(
            "actions[{i}] at {} ms, {} times every {} ms",
            a.at_ms, r.count, r.every_ms
        ),
        None => format!("actions[{i}] at {} ms", a.at_ms),
    }
}

fn left_out_action(a: &Action) -> bool {
    matches!(
        a.kind,
        ActionKind::RestartNode { .. } | ActionKind::LoseNode | ActionKind::Upgrade { .. }
    )
}

/// The arm of `act` for action `i` (None for an action left out).
fn act_arm(plan: &Plan, i: usize, a: &Action, t: &Texts, seen: &mut Seen) -> Option<String> {
    const IND: &str = "            ";
    let mut body_lines = String::new();
    let stmt = match &a.kind {
        ActionKind::Publish(p) => {
            let body = if walk::has_run_number(a, &p.body) {
                body_lines.push_str(&format!(
                    "{IND}let body = {}.replace(\"{}\", &k.to_string());\n",
                    q(&p.body),
                    walk::RUN_NUMBER
                ));
                "&body".to_string()
            } else {
                q(&walk::body_once(&p.body))
            };
            publish_stmt(plan, p, &body, t, seen, IND)
        }
        ActionKind::Declare(d) => declare_stmt(plan, d, t, seen, IND),
        ActionKind::Delete(d) => {
            let call = match d {
                Delete::Exchange { name } => format!(
                    "ch.exchange_delete(n({}), ExchangeDeleteOptions::default()).await",
                    q(name)
                ),
                Delete::Queue { name } => format!(
                    "ch.queue_delete(n({}), QueueDeleteOptions::default()).await",
                    q(name)
                ),
                Delete::Binding(b) => {
                    return Some(arm(
                        i,
                        a,
                        &format!("{IND}{}", bind_stmt(&plan.names, b, true, IND)),
                    ))
                }
            };
            format!("{IND}{}", step(&[call], IND))
        }
        ActionKind::Purge { queue } => format!(
            "{IND}{}",
            step(
                &[format!(
                    "ch.queue_purge(n({}), QueuePurgeOptions::default()).await",
                    q(queue)
                )],
                IND
            )
        ),
        ActionKind::Get { queue } => format!("{IND}run.get({}).await;\n", q(queue)),
        ActionKind::RestartNode { .. } | ActionKind::LoseNode | ActionKind::Upgrade { .. } => {
            return None
        }
    };
    body_lines.push_str(&stmt);
    Some(arm(i, a, &body_lines))
}

fn arm(i: usize, a: &Action, body: &str) -> String {
    let mut out = comment("        ", "//", &when(i, a));
    out.push_str(&format!("        {i} => {{\n{body}        }}\n"));
    out
}

fn timed_list(plan: &Plan) -> String {
    let mut out = String::new();
    for (i, a) in plan.scenario.actions.iter().enumerate() {
        if left_out_action(a) {
            out.push_str(&comment(
                "    ",
                "//",
                &format!("{}: LEFT OUT: {}", when(i, a), walk::left_out_line(plan, i)),
            ));
            continue;
        }
        let (count, every) = a
            .repeat
            .filter(|r| r.count > 1)
            .map_or((1, 0), |r| (r.count, r.every_ms));
        out.push_str(&format!(
            "    Timed {{ index: {i}, at_ms: {}, count: {count}, every_ms: {every} }},\n",
            a.at_ms
        ));
    }
    out
}

fn strs(l: &[String]) -> String {
    format!(
        "&[{}]",
        l.iter().map(|x| q(x)).collect::<Vec<_>>().join(", ")
    )
}

fn program(plan: &Plan, t: &Texts) -> String {
    let s = plan.scenario;
    let mut seen = Seen::default();
    let run = "Run: ./run.sh AMQP_URL [TIME_SCALE] (cargo, lapin on tokio, built offline from the registry cache; a test broker: the program declares and deletes its own objects).";
    let mut out = header::comment_block(&header::paragraphs(plan, t, run), "//");
    out.push('\n');
    if seen.first(Lesson::IdHeader) {
        out.push_str(&comment("", "//", t.get(Lesson::IdHeader)));
    }
    out.push_str("mod runtime;\n\nuse std::process::ExitCode;\n\nuse runtime::*;\n\n");
    out.push_str(&format!("const NAME: &str = {};\n", q(&s.name)));
    out.push_str(&format!(
        "/// The scenario's end (until), and the real ms waited after it for the broker's last\n/// steps.\nconst END_MS: u64 = {};\nconst GRACE_MS: u64 = {};\n",
        plan.end_ms, plan.grace_ms
    ));
    out.push_str(&format!(
        "/// Every queue and exchange the run may create (deleted at the end).\nconst QUEUES: &[&str] = {};\nconst EXCHANGES: &[&str] = {};\n",
        strs(&plan.queues),
        strs(&plan.exchanges)
    ));
    out.push_str(&format!(
        "/// What the program does not do (also in the header).\nconst LEFT_OUT: &[&str] = {};\n\n",
        strs(&plan.left_out)
    ));

    out.push_str("// ---------------------------------------------------------------- the topology\n\nasync fn declare_topology(run: &mut Run) {\n");
    let topo = &s.topology;
    let decls = topo
        .exchanges
        .iter()
        .map(|x| Declare::Exchange(x.clone()))
        .chain(topo.queues.iter().map(|x| Declare::Queue(x.clone())))
        .chain(topo.bindings.iter().map(|x| Declare::Binding(x.clone())));
    let mut any = false;
    for d in decls {
        out.push_str(&declare_stmt(plan, &d, t, &mut seen, "    "));
        any = true;
    }
    if !any {
        out.push_str("    let _ = run;\n");
    }
    out.push_str("}\n\n// ---------------------------------------------------------------- the consumers\n\nasync fn start_consumers(run: &mut Run) {\n");
    for c in &s.consumers {
        out.push_str(&consumer_stmt(c, t, &mut seen));
    }
    if s.consumers.is_empty() {
        out.push_str("    let _ = run;\n");
    }
    out.push_str("}\n\n// ---------------------------------------------------------------- the timed actions\n\n");
    out.push_str(&comment(
        "",
        "//",
        &format!(
            "Each action once, or `count` times `every_ms` apart; the run sorts them by {}.",
            crate::plan::ORDER_NOTE
        ),
    ));
    out.push_str("const TIMED: &[Timed] = &[\n");
    out.push_str(&timed_list(plan));
    out.push_str("];\n\n");
    let mut arms = String::new();
    for (i, a) in s.actions.iter().enumerate() {
        if let Some(arm) = act_arm(plan, i, a, t, &mut seen) {
            arms.push_str(&arm);
        }
    }
    let uses_k = s.actions.iter().any(|a| match &a.kind {
        ActionKind::Publish(p) => walk::has_run_number(a, &p.body),
        _ => false,
    });
    let k = if uses_k { "k" } else { "_k" };
    let run = if arms.is_empty() { "_run" } else { "run" };
    out.push_str(&format!(
        "/// Action `index` of the scenario, run number `{k}` (1-based: `{{n}}` in a body).\nasync fn act({run}: &mut Run, index: usize, {k}: u32) {{\n    match index {{\n"
    ));
    out.push_str(&arms);
    out.push_str("        _ => unreachable!(\"no timed action {index}\"),\n    }\n}\n");
    out.push_str(MAIN);
    out
}

const MAIN: &str = r#"
/// The scenario on the broker: the clock starts after the topology and the first
/// consumers; the timed actions at their times; then the grace period.
async fn play(run: &mut Run) {
    declare_topology(run).await;
    start_consumers(run).await;
    for (at_ms, index, k) in run.start(TIMED, END_MS) {
        run.sleep_until(at_ms, 0).await;
        act(run, index, k).await;
    }
    run.sleep_until(END_MS, GRACE_MS).await;
}

#[tokio::main]
async fn main() -> ExitCode {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("AMQP_URL").ok())
        .unwrap_or_else(|| DEFAULT_URL.to_string());
    for line in LEFT_OUT {
        eprintln!("left out: {line}");
    }
    let mut run = match Run::connect(&url).await {
        Ok(run) => run,
        Err(e) => {
            eprintln!("cannot connect: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Ctrl-C or SIGTERM: stop, but still delete what was declared.
    let finished = tokio::select! {
        _ = play(&mut run) => true,
        _ = interrupted() => false,
    };
    let measured_at = run.now_ms();
    let depths = if finished { run.depths(QUEUES).await } else { Default::default() };
    let report = run.report(NAME, END_MS, measured_at, depths);
    run.cleanup(QUEUES, EXCHANGES).await;
    if !finished {
        eprintln!("interrupted; removed what was declared");
        return ExitCode::from(130);
    }
    println!("{}", serde_json::to_string_pretty(&report).expect("JSON"));
    ExitCode::SUCCESS
}
"#;
