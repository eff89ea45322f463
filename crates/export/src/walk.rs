//! What every generator walks, language-neutral: the entries of an argument table with
//! the value classified (`args`) and the lesson to write next to it, the lessons of a
//! queue, a consumer and a publish, and the timed actions in order.

use delaylab_engine::scenario::rename::ScenarioNames;
use delaylab_engine::scenario::{
    AckMode, Action, ConsumerSpec, ExchangeDef, Outcome, OutcomePlan, PublishSpec, QueueDef,
};
use delaylab_engine::value::{FieldValue, Table};

use crate::args::{self, Arg};
use crate::plan::{Plan, DELAYED_KIND};
use crate::text::{queue_arg_lesson, Lesson, Seen, Texts};

/// One entry of an argument or header table.
pub struct Entry<'a> {
    pub key: &'a str,
    pub value: Arg<'a>,
    /// The lesson to write above it (the first time it appears in the file).
    pub note: Option<&'static str>,
}

pub fn queue_args<'a>(
    names: &ScenarioNames,
    q: &'a QueueDef,
    t: &Texts,
    seen: &mut Seen,
) -> Vec<Entry<'a>> {
    q.arguments
        .iter()
        .map(|(k, v)| {
            let lesson = match (k, v) {
                ("x-message-ttl", FieldValue::Str(_)) => Some(Lesson::StringTtl),
                _ => queue_arg_lesson(k),
            };
            Entry {
                key: k,
                value: args::queue_arg(names, k, v, &q.arguments),
                note: note(lesson, t, seen),
            }
        })
        .collect()
}

pub fn exchange_args<'a>(x: &'a ExchangeDef, t: &Texts, seen: &mut Seen) -> Vec<Entry<'a>> {
    x.arguments
        .iter()
        .map(|(k, v)| Entry {
            key: k,
            value: args::exchange_arg(k, v),
            note: note(queue_arg_lesson(k), t, seen),
        })
        .collect()
}

/// Binding arguments (headers-exchange matches): literal values.
pub fn plain(table: &Table) -> Vec<Entry<'_>> {
    table
        .iter()
        .map(|(k, v)| Entry {
            key: k,
            value: Arg::Plain(v),
            note: None,
        })
        .collect()
}

pub fn headers<'a>(
    names: &ScenarioNames,
    p: &'a PublishSpec,
    t: &Texts,
    seen: &mut Seen,
) -> Vec<Entry<'a>> {
    p.properties
        .headers
        .iter()
        .map(|(k, v)| Entry {
            key: k,
            value: args::header(names, &p.exchange, k, v),
            note: note(header_lesson(k), t, seen),
        })
        .collect()
}

/// The lesson of a message header, if it has one.
fn header_lesson(key: &str) -> Option<Lesson> {
    match key {
        "x-delay" => Some(Lesson::XDelay),
        delaylab_engine::amqp::delivery_time::DELIVERY_TIME_HEADER => Some(Lesson::DeliveryTime),
        _ => None,
    }
}

fn note(l: Option<Lesson>, t: &Texts, seen: &mut Seen) -> Option<&'static str> {
    l.filter(|l| seen.first(*l)).map(|l| t.get(l))
}

/// The lessons above a queue declaration.
pub fn queue_notes(plan: &Plan, q: &QueueDef, t: &Texts, seen: &mut Seen) -> Vec<&'static str> {
    let mut out = Vec::new();
    if plan.wait_queues.contains(&q.name) && seen.first(Lesson::WaitQueue) {
        out.push(t.get(Lesson::WaitQueue));
    }
    out
}

/// The lessons above an exchange declaration.
pub fn exchange_notes(x: &ExchangeDef, t: &Texts, seen: &mut Seen) -> Vec<&'static str> {
    let mut out = Vec::new();
    if x.kind == DELAYED_KIND && seen.first(Lesson::Plugin) {
        out.push(t.get(Lesson::Plugin));
    }
    out
}

/// The lessons above a consumer.
pub fn consumer_notes(c: &ConsumerSpec, t: &Texts, seen: &mut Seen) -> Vec<&'static str> {
    let mut ls = vec![match c.ack {
        AckMode::Manual => Lesson::ManualAck,
        AckMode::Auto => Lesson::AutoAck,
    }];
    if c.ack == AckMode::Manual && c.prefetch > 0 {
        ls.push(Lesson::Prefetch);
    }
    for o in outcomes(&c.outcome) {
        match o {
            Outcome::Reject => ls.push(Lesson::Reject),
            Outcome::Requeue | Outcome::RejectRequeue => ls.push(Lesson::Requeue),
            Outcome::Ack => {}
        }
    }
    ls.into_iter()
        .filter(|l| seen.first(*l))
        .map(|l| t.get(l))
        .collect()
}

fn outcomes(p: &OutcomePlan) -> Vec<Outcome> {
    match p {
        OutcomePlan::Fixed(o) => vec![*o],
        OutcomePlan::Sequence(l) => l.clone(),
        OutcomePlan::Weighted(w) => w.iter().map(|(o, _)| *o).collect(),
    }
}

/// The outcome as the scenario spells it (the runtimes take the same words).
pub fn outcome_name(o: Outcome) -> &'static str {
    o.name()
}

/// How a publish's `expiration` is written.
pub enum Expiration<'a> {
    /// Scaled by the program (`ttl("300000")`).
    Scaled(&'a str),
    /// Accepted by the broker but not canonical (`"+500"`, `"0500"`): the program scales
    /// the value the broker reads (`ttl("0500", 500)`); unscaled it sends the string.
    Parsed(&'a str, u64),
    /// Refused by the broker: sent exactly as written.
    Raw(&'a str),
}

pub fn expiration(p: &PublishSpec) -> Option<Expiration<'_>> {
    let e = p.properties.expiration.as_deref()?;
    Some(
        match (args::expiration_scalable(e), args::expiration_ms(e)) {
            (Some(_), _) => Expiration::Scaled(e),
            (None, Some(ms)) => Expiration::Parsed(e, ms),
            (None, None) => Expiration::Raw(e),
        },
    )
}

/// The lessons above a publish (expiration, mandatory, confirms).
pub fn publish_notes(p: &PublishSpec, t: &Texts, seen: &mut Seen) -> Vec<&'static str> {
    let mut ls = vec![Lesson::Confirms];
    match expiration(p) {
        Some(Expiration::Scaled(_) | Expiration::Parsed(..)) => ls.push(Lesson::Expiration),
        Some(Expiration::Raw(_)) => {
            ls.push(Lesson::Expiration);
            ls.push(Lesson::ExpirationRaw);
        }
        None => {}
    }
    if p.mandatory {
        ls.push(Lesson::Mandatory);
    }
    ls.into_iter()
        .filter(|l| seen.first(*l))
        .map(|l| t.get(l))
        .collect()
}

/// The placeholder for the run number (1-based) in a publish's body.
pub const RUN_NUMBER: &str = "{n}";

/// True when the body changes from run to run (a repeated publish with `{n}`).
pub fn has_run_number(a: &Action, body: &str) -> bool {
    a.repeat.is_some_and(|r| r.count > 1) && body.contains(RUN_NUMBER)
}

/// The body of a publish that runs once: `{n}` is 1 (as the simulation fills it in).
pub fn body_once(body: &str) -> String {
    body.replace(RUN_NUMBER, "1")
}

/// The left-out line of action `i` (the plan lists it), without its `actions[i] ` tag.
pub fn left_out_line(plan: &Plan, i: usize) -> String {
    let tag = format!("actions[{i}] ");
    plan.left_out
        .iter()
        .find(|l| l.starts_with(&tag))
        .map_or("a client program cannot do this".into(), |l| {
            l[tag.len()..].to_string()
        })
}
