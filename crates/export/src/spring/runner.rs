//! `Listeners.java` (one `@RabbitListener` per consumer, manual acks on the `Channel`) and
//! `ScenarioRunner.java` (the timed actions at their times, in the simulation's order:
//! publishes through a `MessagePostProcessor`, declarations through `RabbitAdmin`).

use delaylab_engine::scenario::rename::ScenarioNames;
use delaylab_engine::scenario::{
    AckMode, Action, ActionKind, ConsumerSpec, Declare, Delete, OutcomePlan, PublishSpec,
};

use super::beans::{arg, q};
use super::config::{
    any_mandatory, binding_expr, exchange_inline, factory_name, queue_expr, SSeen,
};
use super::text::{get as sget, SpringLesson};
use crate::plan::Plan;
use crate::syntax::{comment, ident};
use crate::text::{Seen, Texts};
use crate::walk::{self, Expiration};

fn notes(out: &mut String, indent: &str, notes: &[&str]) {
    for n in notes {
        out.push_str(&comment(indent, "//", n));
    }
}

/// True when the runner starts or stops this listener (it does not start with the app).
fn timed_listener(c: &ConsumerSpec) -> bool {
    c.from_ms > 0 || c.to_ms.is_some()
}

fn outcome_expr(c: &ConsumerSpec, field: &str) -> (String, String) {
    let name = |o| q(walk::outcome_name(o));
    match &c.outcome {
        OutcomePlan::Fixed(o) => (String::new(), name(*o)),
        OutcomePlan::Sequence(l) => (
            format!(
                "    /** The k-th delivery gets the k-th outcome; the last one then repeats. */\n    private static final String[] {field}Outcomes = {{{}}};\n",
                l.iter().map(|o| name(*o)).collect::<Vec<_>>().join(", ")
            ),
            format!(
                "{field}Outcomes[Math.min({field}Count.getAndIncrement(), {field}Outcomes.length - 1)]"
            ),
        ),
        OutcomePlan::Weighted(w) => (
            String::new(),
            format!(
                "weighted(new String[] {{{}}}, new double[] {{{}}})",
                w.iter().map(|(o, _)| name(*o)).collect::<Vec<_>>().join(", "),
                w.iter()
                    .map(|(_, x)| crate::java::float(*x))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    }
}

pub fn listeners(plan: &Plan, t: &Texts) -> String {
    let s = plan.scenario;
    let mut seen = Seen::default();
    let mut out = format!(
        "package {};\n\n{}",
        super::PACKAGE,
        r#"import com.rabbitmq.client.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

@Component
public class Listeners {
    private static final Logger log = LoggerFactory.getLogger(Listeners.class);
"#
    );
    out.push_str(&comment("    ", "//", sget(t.lang, SpringLesson::Handling)));
    out.push_str("    private final ScheduledExecutorService handling = Executors.newSingleThreadScheduledExecutor();\n");
    for c in &s.consumers {
        let field = ident(&c.name);
        let method = super::beans::camel(&c.name, "");
        out.push('\n');
        notes(&mut out, "    ", &walk::consumer_notes(c, t, &mut seen));
        let (decl, outcome) = outcome_expr(c, &field);
        out.push_str(&decl);
        if c.ack == AckMode::Manual {
            out.push_str(&format!(
                "    private final AtomicInteger {field}Count = new AtomicInteger();\n"
            ));
        }
        let auto = if timed_listener(c) {
            ", autoStartup = \"false\""
        } else {
            ""
        };
        out.push_str(&format!(
            "    @RabbitListener(id = {}, queues = {}, containerFactory = {}{auto})\n",
            q(&c.name),
            q(&c.queue),
            q(&factory_name(&c.name))
        ));
        out.push_str(&format!(
            "    public void {method}(Message message, Channel channel) {{\n        ScenarioRunner.seen({}, {}, message);\n",
            q(&c.name),
            q(&c.queue)
        ));
        match c.ack {
            AckMode::Auto => {
                out.push_str("        // No ack: the broker counted it handled when it sent it.\n")
            }
            AckMode::Manual => {
                out.push_str(&format!(
                    "        long tag = message.getMessageProperties().getDeliveryTag();\n        String outcome = {outcome};\n"
                ));
                if matches!(c.outcome, OutcomePlan::Fixed(_)) {
                    out.push_str(&format!("        {field}Count.incrementAndGet();\n"));
                }
                if c.handle_ms == 0 {
                    out.push_str("        settle(channel, tag, outcome);\n");
                } else {
                    out.push_str(&format!(
                        "        // The handle time: {} ms.\n        handling.schedule(() -> settle(channel, tag, outcome), {}L, TimeUnit.MILLISECONDS);\n",
                        c.handle_ms, c.handle_ms
                    ));
                }
            }
        }
        out.push_str("    }\n");
    }
    out.push_str(
        r#"
    /** The outcome, on the channel the message came on (a manual ack's channel). */
    static void settle(Channel channel, long tag, String outcome) {
        try {
            switch (outcome) {
                case "ack" -> channel.basicAck(tag, false);
                case "reject" -> channel.basicReject(tag, false);
                case "reject_requeue" -> channel.basicReject(tag, true);
                default -> channel.basicNack(tag, false, true); // requeue
            }
        } catch (IOException e) {
            // The channel went away while the message was handled: the broker requeues it.
            log.warn("{} ms  {} of delivery {} failed: {}", ScenarioRunner.nowMs(), outcome, tag, e.toString());
        }
    }

    /** A weighted outcome, drawn with Java's random numbers (not the simulation's seed). */
    static String weighted(String[] outcomes, double[] weights) {
        double total = 0;
        for (double w : weights) total += w;
        double u = ThreadLocalRandom.current().nextDouble() * total, acc = 0;
        for (int i = 0; i < outcomes.length; i++) {
            acc += weights[i];
            if (u < acc) return outcomes[i];
        }
        return outcomes[outcomes.length - 1];
    }
}
"#,
    );
    out
}

/// The statements of a publish's `MessagePostProcessor` body.
fn post_processor(
    names: &ScenarioNames,
    p: &PublishSpec,
    t: &Texts,
    seen: &mut Seen,
    sseen: &mut SSeen,
    indent: &str,
) -> String {
    let pr = &p.properties;
    let mut out = String::new();
    if sseen.insert(SpringLesson::PostProcessor) {
        out.push_str(&comment(
            indent,
            "//",
            sget(t.lang, SpringLesson::PostProcessor),
        ));
    }
    let mode = match pr.delivery_mode {
        Some(2) => "MessageDeliveryMode.PERSISTENT",
        _ => "MessageDeliveryMode.NON_PERSISTENT",
    };
    if let Some(m) = pr.delivery_mode.filter(|m| !matches!(m, 1 | 2)) {
        out.push_str(&comment(
            indent,
            "//",
            &format!(
                "delivery_mode {m}: Spring's MessageDeliveryMode has 1 and 2 only; sent as 1."
            ),
        ));
    }
    out.push_str(&format!(
        "{indent}MessageProperties p = exact(message, {mode});\n"
    ));
    match walk::expiration(p) {
        Some(Expiration::Scaled(e) | Expiration::Parsed(e, _) | Expiration::Raw(e)) => {
            out.push_str(&format!("{indent}p.setExpiration({});\n", q(e)));
        }
        None => {}
    }
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            out.push_str(&format!("{indent}p.{k}({v});\n"));
        }
    };
    put("setPriority", pr.priority.map(|x| x.to_string()));
    put("setMessageId", pr.message_id.as_deref().map(q));
    put("setCorrelationId", pr.correlation_id.as_deref().map(q));
    put("setContentType", pr.content_type.as_deref().map(q));
    put("setContentEncoding", pr.content_encoding.as_deref().map(q));
    put("setReplyTo", pr.reply_to.as_deref().map(q));
    put(
        "setTimestamp",
        pr.timestamp.map(|x| format!("new Date({x}L * 1000)")),
    );
    put("setType", pr.kind.as_deref().map(q));
    put("setUserId", pr.user_id.as_deref().map(q));
    put("setAppId", pr.app_id.as_deref().map(q));
    for e in walk::headers(names, p, t, seen) {
        if let Some(n) = e.note {
            out.push_str(&comment(indent, "//", n));
        }
        out.push_str(&format!(
            "{indent}p.setHeader({}, {});\n",
            q(e.key),
            arg(&e.value)
        ));
    }
    out.push_str(&format!("{indent}return message;\n"));
    out
}

fn action(
    plan: &Plan,
    i: usize,
    a: &Action,
    t: &Texts,
    seen: &mut Seen,
    sseen: &mut SSeen,
) -> String {
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
    let inner = format!("{indent}    ");
    let (pre, stmt) = match &a.kind {
        ActionKind::Publish(p) => {
            let mut pre = String::new();
            notes(&mut pre, indent, &walk::publish_notes(p, t, seen));
            let body = if walk::has_run_number(a, &p.body) {
                format!(
                    "{}.replace(\"{}\", String.valueOf(r))",
                    q(&p.body),
                    walk::RUN_NUMBER
                )
            } else {
                q(&walk::body_once(&p.body))
            };
            let template = if p.mandatory {
                "mandatoryTemplate"
            } else {
                "rabbitTemplate"
            };
            let mpp = post_processor(&plan.names, p, t, seen, sseen, &format!("{inner}    "));
            (
                pre,
                format!(
                    "send({template}, {}, {}, {body}, message -> {{\n{mpp}{inner}}})",
                    q(&p.exchange),
                    q(&p.routing_key)
                ),
            )
        }
        ActionKind::Declare(Declare::Exchange(x)) => {
            let (pre, e) = exchange_inline(x, t, seen, sseen, indent);
            (pre, format!("admin.declareExchange({e})"))
        }
        ActionKind::Declare(Declare::Queue(qd)) => {
            let mut pre = String::new();
            notes(&mut pre, indent, &walk::queue_notes(plan, qd, t, seen));
            (
                pre,
                format!(
                    "admin.declareQueue({})",
                    queue_expr(&plan.names, qd, t, seen, sseen, indent)
                ),
            )
        }
        ActionKind::Declare(Declare::Binding(b)) => (
            String::new(),
            format!(
                "admin.declareBinding({})",
                binding_expr(b, None, plan, indent)
            ),
        ),
        ActionKind::Delete(d) => (
            String::new(),
            match d {
                Delete::Exchange { name } => format!("admin.deleteExchange({})", q(name)),
                Delete::Queue { name } => format!("admin.deleteQueue({})", q(name)),
                Delete::Binding(b) => {
                    format!(
                        "admin.removeBinding({})",
                        binding_expr(b, None, plan, indent)
                    )
                }
            },
        ),
        ActionKind::Purge { queue } => (
            String::new(),
            format!("admin.purgeQueue({}, false)", q(queue)),
        ),
        ActionKind::Get { queue } => (String::new(), format!("get({})", q(queue))),
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
                "        for (int k = 1; k <= {}; k++) {{\n            final int r = k;\n",
                r.count
            ));
            out.push_str(&format!(
                "{indent}plan.add(new Timed({}L + (k - 1) * {}L, k > 1, {i}, k, () -> {stmt}));\n        }}\n",
                a.at_ms, r.every_ms
            ));
        }
        None => out.push_str(&format!(
            "{indent}plan.add(new Timed({}L, false, {i}, 1, () -> {stmt}));\n",
            a.at_ms
        )),
    }
    out
}

pub fn runner(plan: &Plan, t: &Texts) -> String {
    let s = plan.scenario;
    let mut seen = Seen::default();
    let mut sseen = SSeen::new();
    let mandatory = any_mandatory(plan);
    let mut out = format!(
        "package {};\n\n{}",
        super::PACKAGE,
        r#"import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.*;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.util.*;

"#
    );
    out.push_str(&comment("", "//", sget(t.lang, SpringLesson::Runner)));
    out.push_str("@Component\npublic class ScenarioRunner implements CommandLineRunner {\n    private static final Logger log = LoggerFactory.getLogger(ScenarioRunner.class);\n");
    out.push_str(&format!(
        "    /** The scenario's end (until), ms: the application exits then. */\n    static final long END_MS = {}L;\n",
        plan.end_ms
    ));
    out.push_str("    /** How long a publish waits for the broker's confirm. */\n    static final long CONFIRM_TIMEOUT_MS = 5_000L;\n    static volatile long t0 = System.nanoTime();\n\n");
    out.push_str("    private final RabbitTemplate rabbitTemplate;\n");
    if mandatory {
        out.push_str("    private final RabbitTemplate mandatoryTemplate;\n");
    }
    out.push_str("    private final RabbitAdmin admin;\n    private final RabbitListenerEndpointRegistry registry;\n    private final ConfigurableApplicationContext context;\n\n");
    let (mp, ma) = if mandatory {
        (
            "\n                          @Qualifier(\"mandatoryTemplate\") RabbitTemplate mandatoryTemplate,",
            "\n        this.mandatoryTemplate = mandatoryTemplate;",
        )
    } else {
        ("", "")
    };
    out.push_str(&format!(
        "    public ScenarioRunner(@Qualifier(\"rabbitTemplate\") RabbitTemplate rabbitTemplate,{mp}\n                          RabbitAdmin admin, RabbitListenerEndpointRegistry registry,\n                          ConfigurableApplicationContext context) {{\n        this.rabbitTemplate = rabbitTemplate;{ma}\n        this.admin = admin;\n        this.registry = registry;\n        this.context = context;\n    }}\n\n"
    ));
    out.push_str(&comment("    ", "//", sget(t.lang, SpringLesson::Defaults)));
    out.push_str(&comment("    ", "//", sget(t.lang, SpringLesson::Confirms)));
    out.push_str(HELPERS);
    out.push_str("\n    @Override\n    public void run(String... args) throws Exception {\n        List<Timed> plan = new ArrayList<>();\n");
    for c in s.consumers.iter().filter(|c| timed_listener(c)) {
        let to = c.to_ms.map(|x| x.max(c.from_ms));
        out.push_str(&format!(
            "        // The listener {} starts at {} ms{}.\n",
            c.name,
            c.from_ms,
            to.map_or(String::new(), |x| format!(
                " and stops at {x} ms (its unacked messages go back to the queue)"
            ))
        ));
        if c.to_ms.is_none_or(|x| x >= c.from_ms) {
            out.push_str(&format!(
                "        plan.add(new Timed({}L, false, -1, 1, () -> registry.getListenerContainer({}).start()));\n",
                c.from_ms,
                q(&c.name)
            ));
        }
        if let Some(x) = to {
            out.push_str(&format!(
                "        plan.add(new Timed({x}L, false, -1, 1, () -> registry.getListenerContainer({}).stop()));\n",
                q(&c.name)
            ));
        }
    }
    for (i, a) in s.actions.iter().enumerate() {
        out.push_str(&action(plan, i, a, t, &mut seen, &mut sseen));
    }
    out.push_str(&comment(
        "        ",
        "//",
        &format!("Sorted by {}.", crate::plan::ORDER_NOTE),
    ));
    out.push_str(RUN_LOOP);
    out
}

const HELPERS: &str = r#"    static long nowMs() {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** Wall-clock Unix ms at the scenario's 0:00 (set when the timed actions start). */
    static volatile long startMs = System.currentTimeMillis();

    /** x-opt-delivery-time as a long, Unix ms: the start plus the scenario's time. */
    static Long deliveryTime(long v) {
        return startMs + v;
    }

    /** x-opt-delivery-time as an AMQP timestamp (whole seconds), from the scenario's seconds. */
    static Date deliveryTimeS(long v) {
        return new Date((startMs + v * 1000) / 1000 * 1000);
    }

    /** What a listener (or basic.get) saw, as a log line. */
    static void seen(String consumer, String queue, Message message) {
        log.info("{} ms  {} <- {}  {}", nowMs(), consumer, queue, new String(message.getBody(), StandardCharsets.UTF_8));
    }

    interface Step { void run() throws Exception; }

    record Timed(long atMs, boolean repeat, int index, int run, Step what) {}

    /** Spring's defaults off: the delivery mode given, no priority, no content type. */
    static MessageProperties exact(Message message, MessageDeliveryMode mode) {
        MessageProperties p = message.getMessageProperties();
        p.setDeliveryMode(mode);
        p.setPriority(null);
        p.setContentType(null);
        return p;
    }

    /** Publishes and waits for the broker's confirm (publisher-confirm-type: simple). */
    void send(RabbitTemplate template, String exchange, String routingKey, String body, MessagePostProcessor post) {
        Boolean acked = template.invoke(ops -> {
            ops.convertAndSend(exchange, routingKey, body.getBytes(StandardCharsets.UTF_8), post);
            return ops.waitForConfirms(CONFIRM_TIMEOUT_MS);
        });
        if (!Boolean.TRUE.equals(acked)) log.warn("{} ms  publish of {} not confirmed (nack or timeout)", nowMs(), body);
    }

    /** basic.get with auto-ack (RabbitTemplate.receive): takes the head of the queue, if any. */
    void get(String queue) {
        Message m = rabbitTemplate.receive(queue);
        if (m != null) seen("basic.get", queue, m);
    }
"#;

const RUN_LOOP: &str = r#"        plan.sort(Comparator.comparingLong(Timed::atMs).thenComparing(Timed::repeat)
            .thenComparingInt(Timed::index).thenComparingInt(Timed::run));
        t0 = System.nanoTime();
        startMs = System.currentTimeMillis();
        for (Timed x : plan) {
            if (x.atMs() > END_MS) continue;
            long wait = x.atMs() - nowMs();
            if (wait > 0) Thread.sleep(wait);
            try {
                x.what().run();
            } catch (Exception e) {
                // A broker error (406, 404 ...) closes the channel; the next step gets another.
                log.warn("{} ms  actions[{}]: {}", nowMs(), x.index(), e.toString());
            }
        }
        long rest = END_MS - nowMs();
        if (rest > 0) Thread.sleep(rest);
        log.info("{} ms  the scenario's time is over", nowMs());
        System.exit(SpringApplication.exit(context, () -> 0));
    }
}
"#;
