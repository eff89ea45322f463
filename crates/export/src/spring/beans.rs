//! Names as Spring sees them: a bean method per topology queue and exchange (a Java
//! identifier made from the name, unique in the file), the Java class of each exchange
//! type, and values written with their AMQP type kept (Integer, Long, String...).

use std::collections::BTreeMap;

use delaylab_engine::scenario::{ExchangeDef, Scenario};
use delaylab_engine::value::FieldValue;

use crate::args::Arg;
use crate::java;

/// The bean methods of the topology: queue or exchange name -> method name.
pub struct Beans {
    pub queues: BTreeMap<String, String>,
    pub exchanges: BTreeMap<String, String>,
}

impl Beans {
    pub fn new(s: &Scenario) -> Beans {
        let mut used = std::collections::BTreeSet::new();
        let mut name = |n: &str, suffix: &str| {
            let base = camel(n, suffix);
            let mut id = base.clone();
            let mut k = 2;
            while !used.insert(id.clone()) {
                id = format!("{base}{k}");
                k += 1;
            }
            id
        };
        let exchanges = s
            .topology
            .exchanges
            .iter()
            .map(|x| (x.name.clone(), name(&x.name, "Exchange")))
            .collect();
        let queues = s
            .topology
            .queues
            .iter()
            .map(|q| (q.name.clone(), name(&q.name, "Queue")))
            .collect();
        Beans { queues, exchanges }
    }
}

/// `order.delay.queue` -> `orderDelayQueue`; `work` -> `workQueue` (the suffix is added
/// when the name does not end with it).
pub fn camel(name: &str, suffix: &str) -> String {
    let mut out = String::new();
    for (i, w) in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        let mut cs = w.chars();
        if let Some(f) = cs.next() {
            if i == 0 {
                out.push(f.to_ascii_lowercase());
            } else {
                out.push(f.to_ascii_uppercase());
            }
            out.extend(cs);
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'x');
    }
    if !out.ends_with(suffix) {
        out.push_str(suffix);
    }
    if JAVA_KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

const JAVA_KEYWORDS: &[&str] = &["new", "class", "default", "switch", "case", "public"];

/// The Spring class for an exchange type (None: `CustomExchange` by type name).
pub fn exchange_class(x: &ExchangeDef) -> Option<&'static str> {
    Some(match x.kind.as_str() {
        "direct" => "DirectExchange",
        "fanout" => "FanoutExchange",
        "topic" => "TopicExchange",
        "headers" => "HeadersExchange",
        _ => return None,
    })
}

pub fn q(s: &str) -> String {
    java::q(s)
}

/// A literal with its AMQP type: lists as `Arrays.asList`, tables as `RabbitConfig.map`.
pub fn value(v: &FieldValue) -> String {
    match v {
        FieldValue::Array(items) => format!(
            "Arrays.asList({})",
            items.iter().map(value).collect::<Vec<_>>().join(", ")
        ),
        FieldValue::Table(t) => format!(
            "RabbitConfig.map({})",
            t.iter()
                .map(|(k, v)| format!("{}, {}", q(k), value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => java::value(other),
    }
}

/// An argument or header value: names and durations as the scenario has them (this
/// project has no unique prefix and no time scale).
pub fn arg(a: &Arg) -> String {
    match a {
        Arg::Name(s) => q(s),
        Arg::List(l) => format!(
            "Arrays.asList({})",
            l.iter().map(arg).collect::<Vec<_>>().join(", ")
        ),
        Arg::Ms(ms) => java::int(*ms),
        // ScenarioRunner's helpers: the application's start plus the scenario's time.
        Arg::DeliveryTime(t) => format!("deliveryTime({t}L)"),
        Arg::DeliveryTimeS(s) => format!("deliveryTimeS({s}L)"),
        Arg::Plain(v) => value(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bean_names() {
        assert_eq!(camel("order.delay.queue", "Queue"), "orderDelayQueue");
        assert_eq!(camel("work", "Queue"), "workQueue");
        assert_eq!(camel("order.dlx.exchange", "Exchange"), "orderDlxExchange");
        assert_eq!(camel("9lives", "Queue"), "x9livesQueue");
        assert_eq!(camel("", "Exchange"), "xExchange");
    }
}
