//! `RabbitConfig.java`: the topology as `@Bean`s (in the seeds' style: `QueueBuilder`,
//! `new DirectExchange(...)`, `CustomExchange` for `x-delayed-message`, `BindingBuilder`),
//! `RabbitAdmin`, the `RabbitTemplate`s and one listener container factory per consumer.
//! The expressions are shared with the runner's timed `declare` actions.

use delaylab_engine::scenario::rename::ScenarioNames;
use delaylab_engine::scenario::{AckMode, BindingDef, DestinationKind, ExchangeDef, QueueDef};

use super::beans::{self, arg, exchange_class, q, Beans};
use super::text::{get as sget, SpringLesson};
use crate::plan::{Plan, DELAYED_KIND};
use crate::syntax::comment;
use crate::text::{Seen, Texts};
use crate::walk::{self, Entry};

fn notes(out: &mut String, indent: &str, notes: &[&str]) {
    for n in notes {
        out.push_str(&comment(indent, "//", n));
    }
}

/// `RabbitConfig.map(k, v, ...)`, one entry a line with its lesson above it.
pub fn map_expr(entries: &[Entry], indent: &str) -> String {
    if entries.is_empty() {
        return "RabbitConfig.map()".into();
    }
    let inner = format!("{indent}        ");
    let mut out = String::from("RabbitConfig.map(\n");
    for (i, e) in entries.iter().enumerate() {
        if let Some(n) = e.note {
            out.push_str(&comment(&inner, "//", n));
        }
        let sep = if i + 1 < entries.len() { "," } else { ")" };
        out.push_str(&format!("{inner}{}, {}{sep}\n", q(e.key), arg(&e.value)));
    }
    out.truncate(out.trim_end().len());
    out
}

/// The exchange as one expression (`args`: the arguments expression, if any).
fn exchange_new(x: &ExchangeDef, args: Option<&str>) -> String {
    let args = args.map_or(String::new(), |a| format!(", {a}"));
    let e = match exchange_class(x) {
        Some(class) => format!(
            "new {class}({}, {}, {}{args})",
            q(&x.name),
            x.durable,
            x.auto_delete
        ),
        None => format!(
            "new CustomExchange({}, {}, {}, {}{args})",
            q(&x.name),
            q(&x.kind),
            x.durable,
            x.auto_delete
        ),
    };
    if x.internal {
        format!("RabbitConfig.internal({e})")
    } else {
        e
    }
}

/// The lessons above an exchange, Spring's included.
fn exchange_notes(
    x: &ExchangeDef,
    t: &Texts,
    seen: &mut Seen,
    sseen: &mut SSeen,
) -> Vec<&'static str> {
    let mut n = walk::exchange_notes(x, t, seen);
    if exchange_class(x).is_none()
        && x.kind == DELAYED_KIND
        && sseen.insert(SpringLesson::CustomExchange)
    {
        n.push(sget(t.lang, SpringLesson::CustomExchange));
    }
    n
}

/// An exchange declared by a timed action: (comments, expression).
pub fn exchange_inline(
    x: &ExchangeDef,
    t: &Texts,
    seen: &mut Seen,
    sseen: &mut SSeen,
    indent: &str,
) -> (String, String) {
    let mut pre = String::new();
    notes(&mut pre, indent, &exchange_notes(x, t, seen, sseen));
    let entries = walk::exchange_args(x, t, seen);
    let args = (!entries.is_empty()).then(|| map_expr(&entries, indent));
    (pre, exchange_new(x, args.as_deref()))
}

/// `QueueBuilder.durable(name)...build()` with each argument on its line.
pub fn queue_expr(
    names: &ScenarioNames,
    x: &QueueDef,
    t: &Texts,
    seen: &mut Seen,
    sseen: &mut SSeen,
    indent: &str,
) -> String {
    let inner = format!("{indent}        ");
    let mut out = format!(
        "QueueBuilder.{}({})",
        if x.durable { "durable" } else { "nonDurable" },
        q(&x.name)
    );
    if x.exclusive {
        out.push_str(&format!("\n{inner}.exclusive()"));
    }
    if x.auto_delete {
        out.push_str(&format!("\n{inner}.autoDelete()"));
    }
    let entries = walk::queue_args(names, x, t, seen);
    if !entries.is_empty() && sseen.insert(SpringLesson::QueueBuilder) {
        out.push('\n');
        out.push_str(&comment(
            &inner,
            "//",
            sget(t.lang, SpringLesson::QueueBuilder),
        ));
        out.truncate(out.trim_end().len());
    }
    for e in entries {
        out.push('\n');
        if let Some(n) = e.note {
            out.push_str(&comment(&inner, "//", n));
        }
        out.push_str(&format!(
            "{inner}.withArgument({}, {})",
            q(e.key),
            arg(&e.value)
        ));
    }
    if out.contains('\n') {
        out.push_str(&format!("\n{inner}.build()"));
    } else {
        out.push_str(".build()");
    }
    out
}

/// A binding: `BindingBuilder` on the beans where it can say exactly what the scenario
/// does, else `new Binding(...)` by name.
pub fn binding_expr(b: &BindingDef, beans: Option<&Beans>, plan: &Plan, indent: &str) -> String {
    let source = plan
        .scenario
        .topology
        .exchanges
        .iter()
        .find(|x| x.name == b.source);
    let dest_bean = beans.and_then(|bs| match b.destination_type {
        DestinationKind::Queue => bs.queues.get(&b.destination),
        DestinationKind::Exchange => bs.exchanges.get(&b.destination),
    });
    let src_bean = beans.and_then(|bs| bs.exchanges.get(&b.source));
    if let (Some(d), Some(s), Some(x)) = (dest_bean, src_bean, source) {
        let head = format!("BindingBuilder.bind({d}()).to({s}())");
        let rk = q(&b.routing_key);
        let tail = match (exchange_class(x), b.arguments.is_empty()) {
            (Some("DirectExchange" | "TopicExchange"), true) => Some(format!(".with({rk})")),
            (Some("FanoutExchange"), true) if b.routing_key.is_empty() => Some(String::new()),
            (None, true) => Some(format!(".with({rk}).noargs()")),
            (None, false) => Some(format!(
                ".with({rk}).and({})",
                map_expr(&walk::plain(&b.arguments), indent)
            )),
            _ => None,
        };
        if let Some(tail) = tail {
            return format!("{head}{tail}");
        }
    }
    let kind = match b.destination_type {
        DestinationKind::Queue => "QUEUE",
        DestinationKind::Exchange => "EXCHANGE",
    };
    format!(
        "new Binding({}, Binding.DestinationType.{kind}, {}, {}, {})",
        q(&b.destination),
        q(&b.source),
        q(&b.routing_key),
        map_expr(&walk::plain(&b.arguments), indent)
    )
}

/// Spring's own lessons already written in this file (`insert` is true the first time).
pub type SSeen = std::collections::BTreeSet<SpringLesson>;

/// The factory bean's name for consumer `name`.
pub fn factory_name(name: &str) -> String {
    beans::camel(name, "Factory")
}

/// True when some publish of the scenario is mandatory.
pub fn any_mandatory(plan: &Plan) -> bool {
    plan.scenario.actions.iter().any(
        |a| matches!(&a.kind, delaylab_engine::scenario::ActionKind::Publish(p) if p.mandatory),
    )
}

pub fn java(plan: &Plan, t: &Texts) -> String {
    let s = plan.scenario;
    let beans = Beans::new(s);
    let mut seen = Seen::default();
    let mut sseen = SSeen::new();
    let mut out = format!(
        "package {};\n\n{}",
        super::PACKAGE,
        r#"import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.*;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.*;

@Configuration
public class RabbitConfig {
    private static final Logger log = LoggerFactory.getLogger(RabbitConfig.class);

    /** An argument or header table, in the order written. */
    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return m;
    }

    /** An internal exchange: only other exchanges publish to it. */
    static <T extends AbstractExchange> T internal(T exchange) {
        exchange.setInternal(true);
        return exchange;
    }

"#
    );
    out.push_str(
        "    // ---------------------------------------------------------------- the exchanges\n\n",
    );
    for x in &s.topology.exchanges {
        notes(
            &mut out,
            "    ",
            &exchange_notes(x, t, &mut seen, &mut sseen),
        );
        let class = exchange_class(x).unwrap_or("CustomExchange");
        out.push_str(&format!(
            "    @Bean\n    public {class} {}() {{\n",
            beans.exchanges[&x.name]
        ));
        let entries = walk::exchange_args(x, t, &mut seen);
        let args = if entries.is_empty() {
            None
        } else {
            out.push_str("        Map<String, Object> args = new HashMap<>();\n");
            for e in entries {
                if let Some(n) = e.note {
                    out.push_str(&comment("        ", "//", n));
                }
                out.push_str(&format!(
                    "        args.put({}, {});\n",
                    q(e.key),
                    arg(&e.value)
                ));
            }
            Some("args")
        };
        out.push_str(&format!(
            "        return {};\n    }}\n\n",
            exchange_new(x, args)
        ));
    }
    out.push_str(
        "    // ---------------------------------------------------------------- the queues\n\n",
    );
    for qd in &s.topology.queues {
        notes(&mut out, "    ", &walk::queue_notes(plan, qd, t, &mut seen));
        out.push_str(&format!(
            "    @Bean\n    public Queue {}() {{\n        return {};\n    }}\n\n",
            beans.queues[&qd.name],
            queue_expr(&plan.names, qd, t, &mut seen, &mut sseen, "        ")
        ));
    }
    out.push_str(
        "    // ---------------------------------------------------------------- the bindings\n\n",
    );
    let mut used = std::collections::BTreeSet::new();
    for b in &s.topology.bindings {
        let base = beans::camel(&format!("{} {}", b.destination, b.source), "Binding");
        let mut id = base.clone();
        let mut k = 2;
        while !used.insert(id.clone()) {
            id = format!("{base}{k}");
            k += 1;
        }
        out.push_str(&comment(
            "    ",
            "//",
            &format!(
                "{} -> {} (routing key \"{}\")",
                b.source, b.destination, b.routing_key
            ),
        ));
        out.push_str(&format!(
            "    @Bean\n    public Binding {id}() {{\n        return {};\n    }}\n\n",
            binding_expr(b, Some(&beans), plan, "        ")
        ));
    }
    out.push_str("    // ---------------------------------------------------------------- admin, templates, listener factories\n\n");
    out.push_str(&comment("    ", "//", sget(t.lang, SpringLesson::Admin)));
    out.push_str("    @Bean\n    public RabbitAdmin rabbitAdmin(ConnectionFactory connectionFactory) {\n        RabbitAdmin admin = new RabbitAdmin(connectionFactory);\n        admin.setIgnoreDeclarationExceptions(true);\n        return admin;\n    }\n\n");
    out.push_str("    @Bean\n    public RabbitTemplate rabbitTemplate(ConnectionFactory connectionFactory) {\n        return new RabbitTemplate(connectionFactory);\n    }\n\n");
    if any_mandatory(plan) {
        out.push_str(&comment(
            "    ",
            "//",
            sget(t.lang, SpringLesson::MandatoryTemplate),
        ));
        out.push_str("    @Bean\n    public RabbitTemplate mandatoryTemplate(ConnectionFactory connectionFactory) {\n        RabbitTemplate template = new RabbitTemplate(connectionFactory);\n        template.setMandatory(true);\n        template.setReturnsCallback(r -> log.info(\"returned {} {} {}: {}\", r.getReplyCode(), r.getReplyText(),\n            r.getRoutingKey(), new String(r.getMessage().getBody(), java.nio.charset.StandardCharsets.UTF_8)));\n        return template;\n    }\n\n");
    }
    for c in &s.consumers {
        let mut pre = String::new();
        if sseen.insert(SpringLesson::Factory) {
            pre.push_str(&comment("    ", "//", sget(t.lang, SpringLesson::Factory)));
        }
        let mode = match c.ack {
            AckMode::Manual => "MANUAL",
            AckMode::Auto => {
                if sseen.insert(SpringLesson::AckNone) {
                    pre.push_str(&comment("    ", "//", sget(t.lang, SpringLesson::AckNone)));
                }
                "NONE"
            }
        };
        out.push_str(&pre);
        out.push_str(&format!(
            "    @Bean\n    public SimpleRabbitListenerContainerFactory {}(ConnectionFactory connectionFactory) {{\n",
            factory_name(&c.name)
        ));
        out.push_str("        SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();\n        factory.setConnectionFactory(connectionFactory);\n");
        out.push_str(&format!(
            "        factory.setAcknowledgeMode(AcknowledgeMode.{mode});\n"
        ));
        if c.ack == AckMode::Manual {
            let note = if c.prefetch == 0 {
                " // 0: no limit (Spring's default would be 250)"
            } else {
                ""
            };
            out.push_str(&format!(
                "        factory.setPrefetchCount({});{note}\n",
                c.prefetch
            ));
        }
        out.push_str("        // One channel, one consumer: the scenario's consumer.\n        factory.setConcurrentConsumers(1);\n        factory.setMaxConcurrentConsumers(1);\n        // A queue that is not there yet (declared later, or refused) is not fatal.\n        factory.setMissingQueuesFatal(false);\n        return factory;\n    }\n\n");
    }
    out.truncate(out.trim_end().len());
    out.push_str("\n}\n");
    out
}
