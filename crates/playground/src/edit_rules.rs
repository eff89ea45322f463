//! Editing the topology from the playground's forms, without a browser: form values to
//! declarations, RabbitMQ's verdict on them, and the edited scenario.
//!
//! How an edit applies: it changes the scenario's INPUT (`topology`), and the app then
//! reloads the edited scenario from 0:00 (so the JSON editor, a share link or an autosave
//! hold it). It is not a declare at the current virtual time: a learner who adds a queue
//! wants to see the scenario run with it from the start.
//!
//! The verdict is the engine's, not a copy of its rules: [`check`] builds a simulation of
//! the current topology and runs the declaration through the sim's own `queue.declare` /
//! `exchange.declare` / `queue.bind` path (`amqp::queue_args`, `amqp::exchange_args`,
//! `sim::topology`), so the form shows the reply code and text a real broker gives.
//! Timeline of one refused edit:
//!
//! ```text
//! form: queue "q", x-message-ttl "-1"
//!   -> QueueForm::def: x-message-ttl = Int(-1)      (an integer typed as one)
//!   -> check: Sim(topology) + Declare(q) at 0:00
//!   -> Error 406 "PRECONDITION_FAILED - invalid arg 'x-message-ttl' for queue 'q' in
//!      vhost '/': {value_negative,-1}"
//!      subject Argument("x-message-ttl")   queue_field -> the "x-message-ttl" box
//!   -> the scenario is unchanged
//! ```
//!
//! Numbers typed into an argument's box are sent as integers when they are integers and
//! as strings otherwise ("60000ms" reaches the broker as a longstr, and it says so), as
//! the publish form does for `x-delay`: the broker judges, the form does not pre-filter.

use delaylab_engine::amqp::exchange_args::DELAYED_TYPE;
use delaylab_engine::amqp::{AmqpError, Cause, Property, Subject};
use delaylab_engine::routing::headers::X_MATCH;
use delaylab_engine::scenario::{
    ActionKind, BindingDef, Declare, DestinationKind, ExchangeDef, QueueDef, Scenario, Topology,
};
use delaylab_engine::value::{FieldValue, Table};
use delaylab_engine::{Command, EventKind, Sim};

/// The exchange arguments the exchange form has a box for.
const DELAYED_TYPE_ARG: &str = "x-delayed-type";
const ALTERNATE_EXCHANGE: &str = "alternate-exchange";

/// Most free arguments one form takes (a table is small; the UI lists them all).
pub const MAX_EXTRA_ARGS: usize = 16;
/// Longest name or argument text accepted from a form (RabbitMQ's short string limit).
pub const MAX_TEXT: usize = 255;

/// The types a free argument can be given, as a management UI offers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgType {
    Str,
    Number,
    Bool,
}

impl ArgType {
    pub const ALL: [ArgType; 3] = [ArgType::Str, ArgType::Number, ArgType::Bool];

    pub fn as_str(self) -> &'static str {
        match self {
            ArgType::Str => "string",
            ArgType::Number => "number",
            ArgType::Bool => "boolean",
        }
    }

    pub fn parse(s: &str) -> ArgType {
        match s {
            "number" => ArgType::Number,
            "boolean" => ArgType::Bool,
            _ => ArgType::Str,
        }
    }
}

/// One free argument row: key, type, value as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtraArg {
    pub key: String,
    pub ty: ArgType,
    pub value: String,
}

/// Why an edit was not made: the form field it concerns (`name`, `x-message-ttl`,
/// `exclusive`, `extra`...), and RabbitMQ's reply code and text; code 0 is the form's own
/// complaint (a value that cannot be typed as asked), never sent to a broker.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub field: String,
    pub code: u16,
    pub text: String,
    /// Why, where RabbitMQ's code alone does not say it (the engine's [`Cause`]).
    pub cause: Option<Cause>,
}

impl Refusal {
    fn form(field: &str, text: impl Into<String>) -> Refusal {
        Refusal {
            field: field.to_string(),
            code: 0,
            text: text.into(),
            cause: None,
        }
    }
}

/// The i18n key (`ex_*`) of a refusal's plain-words explanation: the form's own complaint,
/// the engine's cause, else the argument or property it is about, else the reply code.
/// RabbitMQ's argument keys are the protocol's names, matched as such.
pub fn explain(r: &Refusal) -> &'static str {
    if r.code == 0 {
        return "ex_form";
    }
    match r.cause {
        Some(Cause::Inequivalent) => return "ex_inequivalent",
        Some(Cause::NotForQueueType) => return "ex_wrong_qtype",
        None => {}
    }
    match (r.code, r.field.as_str()) {
        (_, "x-message-ttl") => "ex_ttl",
        (_, "x-expires") => "ex_expires",
        (_, "x-max-length" | "x-max-length-bytes") => "ex_maxlen",
        (_, "x-overflow") => "ex_overflow",
        (_, "x-dead-letter-exchange" | "x-dead-letter-routing-key" | "alternate-exchange") => {
            "ex_string"
        }
        (_, "x-delivery-limit") => "ex_delivery_limit",
        (_, "exclusive" | "auto_delete" | "durable") => "ex_quorum_props",
        (_, "x-delayed-type") => "ex_delayed_type",
        (_, "x-match") => "ex_x_match",
        (403, _) => "ex_reserved",
        (503, _) => "ex_type",
        (404, _) => "ex_missing",
        _ => "ex_other",
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExchangeForm {
    pub name: String,
    /// `direct`, `fanout`, `topic`, `headers` or `x-delayed-message`.
    pub kind: String,
    /// The routing type `x-delayed-message` wraps (`x-delayed-type`).
    pub delayed_type: String,
    pub durable: bool,
    pub auto_delete: bool,
    pub internal: bool,
    pub alternate_exchange: String,
}

/// The queue form's argument boxes, in the order the form shows them.
pub const QUEUE_ARGS: [&str; 8] = [
    "x-message-ttl",
    "x-dead-letter-exchange",
    "x-dead-letter-routing-key",
    "x-max-length",
    "x-max-length-bytes",
    "x-overflow",
    "x-expires",
    "x-delivery-limit",
];

/// Arguments whose value is a string whatever is typed (names, keys, strategies).
const STRING_ARGS: [&str; 3] = [
    "x-dead-letter-exchange",
    "x-dead-letter-routing-key",
    "x-overflow",
];

#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueueForm {
    pub name: String,
    pub quorum: bool,
    pub durable: bool,
    pub auto_delete: bool,
    pub exclusive: bool,
    /// The boxes of [`QUEUE_ARGS`], same order; an empty box is no argument.
    pub args: [String; 8],
    pub extra: Vec<ExtraArg>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct BindingForm {
    pub source: String,
    pub destination: String,
    pub to_exchange: bool,
    pub routing_key: String,
    /// Empty: no `x-match` argument (a headers exchange then matches all).
    pub x_match: String,
    pub extra: Vec<ExtraArg>,
}

fn too_long(field: &str, s: &str) -> Result<(), Refusal> {
    if s.len() > MAX_TEXT {
        return Err(Refusal::form(
            field,
            format!("longer than {MAX_TEXT} bytes"),
        ));
    }
    Ok(())
}

/// An argument box's value: an integer when the text is one, else the text itself.
pub fn number_or_text(text: &str) -> FieldValue {
    let t = text.trim();
    match t.parse::<i64>() {
        Ok(n) => FieldValue::Int(n),
        Err(_) => FieldValue::str(t),
    }
}

/// A free argument's value, typed as its row says.
pub fn typed(a: &ExtraArg) -> Result<FieldValue, String> {
    let v = a.value.trim();
    match a.ty {
        ArgType::Str => Ok(FieldValue::str(&a.value)),
        ArgType::Number => match v.parse::<i64>() {
            Ok(n) => Ok(FieldValue::Int(n)),
            Err(_) => v
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(FieldValue::Float)
                .ok_or_else(|| format!("'{v}' is not a number")),
        },
        ArgType::Bool => match v {
            "true" => Ok(FieldValue::Bool(true)),
            "false" => Ok(FieldValue::Bool(false)),
            _ => Err(format!("'{v}' is not true or false")),
        },
    }
}

fn extras_into(args: &mut Table, extra: &[ExtraArg]) -> Result<(), Refusal> {
    if extra.len() > MAX_EXTRA_ARGS {
        return Err(Refusal::form(
            "extra",
            format!("at most {MAX_EXTRA_ARGS} arguments"),
        ));
    }
    for a in extra {
        let key = a.key.trim();
        if key.is_empty() {
            continue;
        }
        too_long("extra", key)?;
        too_long("extra", &a.value)?;
        let v = typed(a).map_err(|e| Refusal::form("extra", format!("{key}: {e}")))?;
        args.insert(key, v);
    }
    Ok(())
}

impl ExchangeForm {
    pub fn def(&self) -> Result<ExchangeDef, Refusal> {
        too_long("name", &self.name)?;
        too_long("alternate-exchange", &self.alternate_exchange)?;
        let mut d = ExchangeDef::new(self.name.trim(), &self.kind);
        d.durable = self.durable;
        d.auto_delete = self.auto_delete;
        d.internal = self.internal;
        if self.kind == DELAYED_TYPE && !self.delayed_type.is_empty() {
            d.arguments
                .insert(DELAYED_TYPE_ARG, FieldValue::str(&self.delayed_type));
        }
        let ae = self.alternate_exchange.trim();
        if !ae.is_empty() {
            d.arguments.insert(ALTERNATE_EXCHANGE, FieldValue::str(ae));
        }
        Ok(d)
    }
}

impl QueueForm {
    pub fn def(&self) -> Result<QueueDef, Refusal> {
        too_long("name", &self.name)?;
        let mut q = QueueDef::new(self.name.trim());
        q.durable = self.durable;
        q.auto_delete = self.auto_delete;
        q.exclusive = self.exclusive;
        if self.quorum {
            q.arguments
                .insert("x-queue-type", FieldValue::str("quorum"));
        }
        for (key, text) in QUEUE_ARGS.iter().zip(&self.args) {
            if text.trim().is_empty() {
                continue;
            }
            too_long(key, text)?;
            let v = if STRING_ARGS.contains(key) {
                FieldValue::str(text.trim())
            } else {
                number_or_text(text)
            };
            q.arguments.insert(key, v);
        }
        extras_into(&mut q.arguments, &self.extra)?;
        Ok(q)
    }
}

impl BindingForm {
    pub fn def(&self) -> Result<BindingDef, Refusal> {
        too_long("routing_key", &self.routing_key)?;
        let mut b = BindingDef::queue(&self.source, &self.destination, &self.routing_key);
        if self.to_exchange {
            b.destination_type = DestinationKind::Exchange;
        }
        if !self.x_match.is_empty() {
            b.arguments.insert(X_MATCH, FieldValue::str(&self.x_match));
        }
        extras_into(&mut b.arguments, &self.extra)?;
        Ok(b)
    }
}

/// What a successful check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// New: the broker declares it.
    Added,
    /// Already there with the same properties: RabbitMQ's re-declare is a no-op.
    Unchanged,
}

/// RabbitMQ's verdict on `d` declared on a broker holding `topology` (the sim's own
/// declare path); the first error event it gives, if any.
pub fn check(topology: &Topology, d: &Declare) -> Result<Verdict, AmqpError> {
    let mut s = Scenario::empty("edit check");
    s.topology = topology.clone();
    let mut sim = Sim::new(&s);
    // The topology's own refusals (a preset may hold one on purpose) are not this edit's.
    while sim.poll_event().is_some() {}
    sim.handle(0, Command::Run(ActionKind::Declare(d.clone())));
    let mut declared = false;
    while let Some(e) = sim.poll_event() {
        match e.kind {
            EventKind::Error {
                code,
                text,
                scope,
                subject,
                cause,
                ..
            } => {
                return Err(AmqpError {
                    code,
                    text: text.to_string(),
                    scope,
                    subject,
                    cause,
                })
            }
            EventKind::ExchangeDeclared { .. }
            | EventKind::QueueDeclared { .. }
            | EventKind::Bound { .. } => declared = true,
            _ => {}
        }
    }
    Ok(if declared {
        Verdict::Added
    } else {
        Verdict::Unchanged
    })
}

/// The queue form's fields besides its argument boxes (`x-queue-type` is the quorum box).
pub const QUEUE_PROPS: [&str; 5] = [
    "name",
    "x-queue-type",
    "durable",
    "auto_delete",
    "exclusive",
];

/// The box of a property checkbox (the forms name them as the management UI does).
fn property_field(p: Property) -> &'static str {
    match p {
        Property::Durable => "durable",
        Property::AutoDelete => "auto_delete",
        Property::Exclusive => "exclusive",
        Property::Internal => "internal",
    }
}

/// The exchange form's field a refusal is about (the name box when the engine names no
/// part of the declaration).
pub fn exchange_field(subject: Option<&Subject>) -> &'static str {
    match subject {
        Some(Subject::ExchangeType) => "type",
        Some(Subject::Property(p)) => property_field(*p),
        Some(Subject::Argument(k)) if k == DELAYED_TYPE_ARG => "x-delayed-type",
        Some(Subject::Argument(k)) if k == ALTERNATE_EXCHANGE => "alternate-exchange",
        _ => "name",
    }
}

/// The queue form's field a refusal is about: an argument's own box, else the free rows
/// for an argument the form has no box for.
pub fn queue_field(subject: Option<&Subject>) -> &'static str {
    match subject {
        Some(Subject::Property(p)) => property_field(*p),
        Some(Subject::Argument(k)) => QUEUE_PROPS
            .iter()
            .chain(&QUEUE_ARGS)
            .find(|f| **f == k.as_str())
            .copied()
            .unwrap_or("extra"),
        _ => "name",
    }
}

/// The binding form's field a refusal is about.
pub fn binding_field(subject: Option<&Subject>) -> &'static str {
    match subject {
        Some(Subject::Destination) => "destination",
        Some(Subject::RoutingKey) => "routing_key",
        Some(Subject::Argument(k)) if k == X_MATCH => "x-match",
        Some(Subject::Argument(_)) => "extra",
        _ => "source",
    }
}

/// Adds what a form declares to the scenario's topology, if RabbitMQ accepts it.
/// `Ok(Unchanged)` leaves the scenario as it was (the same object is already there).
pub fn add(s: &mut Scenario, d: Declare) -> Result<Verdict, Refusal> {
    let field: fn(Option<&Subject>) -> &'static str = match &d {
        // RabbitMQ would name it amq.gen-...; the playground needs a name to show and bind.
        Declare::Queue(q) if q.name.is_empty() => return Err(Refusal::form("name", "empty name")),
        Declare::Exchange(_) => exchange_field,
        Declare::Queue(_) => queue_field,
        Declare::Binding(_) => binding_field,
    };
    let v = check(&s.topology, &d).map_err(|e| Refusal {
        field: field(e.subject.as_ref()).to_string(),
        code: e.code,
        text: e.text,
        cause: e.cause,
    })?;
    if v == Verdict::Added {
        match d {
            Declare::Exchange(x) => s.topology.exchanges.push(x),
            Declare::Queue(q) => s.topology.queues.push(q),
            Declare::Binding(b) => s.topology.bindings.push(b),
        }
    }
    Ok(v)
}

/// Deletes an exchange from the topology, with the bindings from it and to it (as
/// `exchange.delete` does). Reserved names give RabbitMQ's 403.
pub fn delete_exchange(s: &mut Scenario, name: &str) -> Result<(), Refusal> {
    if let Some(e) = delaylab_engine::amqp::exchange_args::delete_error(name) {
        return Err(Refusal {
            field: "name".into(),
            code: e.code,
            text: e.text,
            cause: e.cause,
        });
    }
    let t = &mut s.topology;
    t.exchanges.retain(|x| x.name != name);
    t.bindings.retain(|b| {
        b.source != name
            && !(b.destination == name && b.destination_type == DestinationKind::Exchange)
    });
    Ok(())
}

/// Deletes a queue from the topology with the bindings to it (as `queue.delete` does).
pub fn delete_queue(s: &mut Scenario, name: &str) {
    let t = &mut s.topology;
    t.queues.retain(|q| q.name != name);
    t.bindings
        .retain(|b| !(b.destination == name && b.destination_type == DestinationKind::Queue));
}

/// Deletes the `index`th binding of the topology (`queue.unbind` / `exchange.unbind`).
pub fn delete_binding(s: &mut Scenario, index: usize) {
    if index < s.topology.bindings.len() {
        s.topology.bindings.remove(index);
    }
}
