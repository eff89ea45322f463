//! The scenario: the whole input of a simulation (topology, consumers, timed actions,
//! seed), as loaded from the JSON file described in `shared/docs/scenario-format.md`.
//!
//! These are plain owned values: the loader (`scenario::load`) builds them and reports
//! problems with the JSON path; the simulation (`Sim::new`) interns the names it needs.
//! All times are virtual milliseconds from the scenario start.

use crate::value::{FieldValue, Table};

/// Scenario format version this engine writes; it reads every version up to this one.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub version: u32,
    pub name: String,
    pub description: String,
    /// What a learner should look at while it runs (presets fill it in).
    pub watch: String,
    pub seed: u64,
    /// Where the run stops; `None`: when nothing is left to happen (bounded by limits).
    pub until_ms: Option<u64>,
    pub topology: Topology,
    pub consumers: Vec<ConsumerSpec>,
    pub actions: Vec<Action>,
    /// The order-timeout lab (`crate::orders`), if the scenario has one.
    pub orders: Option<crate::scenario::orders::OrdersSpec>,
    /// Faults injected into the lab's run (`faults`; needs `orders`).
    pub faults: Vec<crate::scenario::orders::FaultSpec>,
    /// The RabbitMQ version profile (`broker`); `None` (absent) runs as 3.10 and stays
    /// absent when saved, so existing files and share links keep their meaning.
    pub broker: Option<crate::version::BrokerVersion>,
    /// The versions the scenario is written for (`versions`): its lesson (what-to-watch,
    /// checks) holds on each. Empty (absent): only the one it runs on
    /// ([`Scenario::written_for`]).
    pub versions: Vec<crate::version::BrokerVersion>,
    /// How long the broker's steps take (`costs`: ideal, measured or a profile).
    pub costs: crate::costs::CostMode,
    /// RabbitMQ's `consumer_timeout` setting (`consumer_timeout`; D21).
    pub consumer_timeout: ConsumerTimeoutSetting,
    /// RabbitMQ 4.3.7's `consumer_timeout_response` (`consumer_timeout_response`):
    /// what a quorum consumer's timeout does to its channel; no effect before 4.3.
    pub consumer_timeout_response: crate::version::TimeoutResponse,
    /// RabbitMQ's `dead_letter_worker_publisher_confirm_timeout` (same name): how often a
    /// quorum queue's at-least-once dead-lettering retries what no target confirmed
    /// (default [`crate::version::DEAD_LETTER_RETRY_MS`]).
    pub dead_letter_retry_ms: Option<u64>,
    /// The public report a preset replays (`report`): what the page's "From the field"
    /// shows beside it. `None` for every other scenario.
    pub report: Option<FieldReport>,
    /// What must happen in a run (`checks`; `crate::checks`): empty when absent, and a
    /// file without them means what it meant before.
    pub checks: Vec<super::checks::Check>,
}

/// The broker's consumer acknowledgement timeout (`consumer_timeout` in rabbitmq.conf):
/// how long a manual-ack consumer may hold a delivery unacked. What the broker does
/// when it passes depends on the version (`version::ConsumerTimeout`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ConsumerTimeoutSetting {
    /// Absent: RabbitMQ's default, `DEFAULT_CONSUMER_TIMEOUT_MS` (30 minutes).
    #[default]
    Default,
    /// `false`: no timeout (`{consumer_timeout, undefined}` in advanced.config).
    Off,
    /// A duration of at least 1 ms.
    After { timeout_ms: u64 },
}

impl ConsumerTimeoutSetting {
    /// The timeout in force, `None` when it is off.
    pub fn timeout_ms(self) -> Option<u64> {
        match self {
            ConsumerTimeoutSetting::Default => Some(crate::version::DEFAULT_CONSUMER_TIMEOUT_MS),
            ConsumerTimeoutSetting::Off => None,
            ConsumerTimeoutSetting::After { timeout_ms } => Some(timeout_ms),
        }
    }
}

/// A reported failure a preset replays, or the fix of one (`report`).
#[derive(Clone, Debug, PartialEq)]
pub enum FieldReport {
    /// The failure, as the report shows it (its checks are marked as the failure).
    Failure(ReportedFailure),
    /// The fix the report's project adopted: `fixes` names the failure's preset.
    Fix { fixes: String },
}

/// A public report (`report` of a failure preset): where and when it was reported, what
/// users saw, the broker rule behind it, and the preset with the fix.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportedFailure {
    /// The project whose users reported it (`spring-amqp`, `celery`, ...).
    pub project: String,
    /// `YYYY-MM-DD`, when it was first reported.
    pub date: String,
    /// The report first, then related threads (https URLs).
    pub links: Vec<String>,
    /// One sentence: what users saw.
    pub saw: String,
    /// The broker rule behind it, in words.
    pub rule: String,
    /// The preset (file name without `.json`) with the fix.
    pub fix: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Topology {
    pub exchanges: Vec<ExchangeDef>,
    pub queues: Vec<QueueDef>,
    pub bindings: Vec<BindingDef>,
    /// Parts of a `definitions.json` the simulation accepted but does not model
    /// (users, policies, ...), one line each, for the user to read.
    pub not_simulated: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ExchangeDef {
    pub name: String,
    /// `direct`, `fanout`, `topic`, `headers`, `x-delayed-message`, or anything else
    /// (which the broker refuses when it is declared).
    pub kind: String,
    pub durable: bool,
    pub auto_delete: bool,
    pub internal: bool,
    pub arguments: Table,
}

#[derive(Clone, Debug, PartialEq)]
pub struct QueueDef {
    pub name: String,
    pub durable: bool,
    pub auto_delete: bool,
    pub exclusive: bool,
    /// `x-message-ttl`, `x-dead-letter-exchange`, `x-queue-type`, ... as typed values.
    pub arguments: Table,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DestinationKind {
    Queue,
    Exchange,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BindingDef {
    pub source: String,
    pub destination: String,
    pub destination_type: DestinationKind,
    pub routing_key: String,
    pub arguments: Table,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckMode {
    /// `basic.consume` with no-ack: a delivery counts as acknowledged when sent.
    Auto,
    Manual,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ack,
    /// basic.reject with requeue=false (dead-lettered as `rejected`, or dropped).
    Reject,
    /// basic.nack with requeue=true.
    Requeue,
    /// basic.reject with requeue=true: the same as `Requeue` up to 4.2; 4.3 counts it
    /// as a failed delivery (quorum delivery limit, delayed retry `failed`).
    RejectRequeue,
    /// basic.nack with multiple=true, requeue=true, for this delivery's tag: every
    /// delivery the consumer still holds up to and including it goes back, each as a
    /// nack (spring-amqp's listener containers before 4.0.x/4.1.x's fix, #3507).
    NackMultiple,
    /// The client acks the delivery and publishes a copy of it, headers included, to
    /// the consumer's `republish` target (a retry loop done by the client), or gives up
    /// (acks only) once its retry count reaches `give_up_at` ([`Republish`]).
    Republish,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OutcomePlan {
    Fixed(Outcome),
    /// Applied to the consumer's deliveries in order; the last entry then repeats.
    Sequence(Vec<Outcome>),
    /// Drawn with the scenario's seeded PRNG; weights are positive and need not sum to 1.
    Weighted(Vec<(Outcome, f64)>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConsumerSpec {
    pub name: String,
    pub queue: String,
    pub ack: AckMode,
    /// basic.qos prefetch count; 0 means unlimited.
    pub prefetch: u32,
    /// basic.qos with `global=true` (`global_qos`; manual acks and a prefetch only): a
    /// limit for the whole channel. Each consumer has its own channel here, so it limits
    /// the same deliveries; what differs is a quorum queue's refusal up to 4.2 (D25,
    /// `version::Profile::global_qos`).
    pub global_qos: bool,
    /// How long a delivery is held before the outcome is applied.
    pub handle_ms: u64,
    pub outcome: OutcomePlan,
    pub from_ms: u64,
    pub to_ms: Option<u64>,
    /// What its client program does beyond answering each delivery (`reconnect`,
    /// `eta_header`, `republish`, `arguments`); all absent: nothing more.
    pub client: ClientBehaviour,
}

/// A consumer's client program, where the field's reports need more than an outcome.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClientBehaviour {
    /// `reconnect`: after the broker closes its channel (a consumer timeout's 406) or
    /// cancels it (4.3's `basic.cancel`), the client opens a channel and subscribes
    /// again this long after (celery's and dramatiq's workers do). `None`: it stays gone.
    pub reconnect_ms: Option<u64>,
    /// `eta_header`: a delivery carrying this header, an integer of ms from the scenario
    /// start, is held until then when that is later than its `handle` time (celery's and
    /// dramatiq's ETA tasks: the worker keeps the message unacked until it is due).
    pub eta_header: Option<String>,
    /// `republish`: where the `republish` outcome publishes its copy, and when it gives up.
    pub republish: Option<Republish>,
    /// `arguments` of its `basic.consume`: `x-consumer-timeout` (ms; honoured by 4.3's
    /// quorum queues, `rabbit_queue_type:consume/3`), the only one simulated.
    pub consumer_timeout_ms: Option<u64>,
}

/// The `republish` outcome's target and retry count (`consumers[].republish`).
#[derive(Clone, Debug, PartialEq)]
pub struct Republish {
    pub exchange: String,
    pub routing_key: String,
    /// What the client counts its retries with.
    pub count: RetryCount,
    /// Gives up (acks, publishes nothing) once the count it reads is at least this.
    pub give_up_at: u32,
}

/// What a republishing client reads its retry count from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RetryCount {
    /// The `count` of the newest `x-death` entry (0 without one): what spring-cloud-stream's
    /// guide advised; the copy keeps every header it was delivered with.
    XDeath,
    /// A header of the client's own (an integer, 0 when absent), raised by one on each
    /// copy (spring-cloud-stream's fix, PR #3019: `AmqpHeaders.RETRY_COUNT`).
    Header(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    pub at_ms: u64,
    pub kind: ActionKind,
    pub repeat: Option<Repeat>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// Total number of runs, the first one included (>= 1).
    pub count: u32,
    pub every_ms: u64,
}

// A publish is most actions: boxing it would cost an allocation each for no gain.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum ActionKind {
    Publish(PublishSpec),
    Declare(Declare),
    Delete(Delete),
    Purge {
        queue: String,
    },
    /// basic.get with auto-ack: takes the head of the queue, if any.
    Get {
        queue: String,
    },
    /// The node stops for `downtime_ms` and comes back: durable objects and persistent
    /// messages in durable queues survive; the delayed store survives, and what fell due
    /// while the node was down goes out at once on start.
    RestartNode {
        downtime_ms: u64,
    },
    /// The node that held the delayed-message store and the classic queues' contents is
    /// gone (a cluster member lost for good): those messages are lost; metadata and
    /// quorum queues, replicated elsewhere, survive.
    LoseNode,
    /// The node stops for `downtime_ms` and comes back on RabbitMQ `to`: a restart (what
    /// survives is what a restart keeps), then the new version's rules; what it refuses
    /// fails when used or declared again (`sim/upgrade.rs`).
    Upgrade {
        to: crate::version::BrokerVersion,
        downtime_ms: u64,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Declare {
    Exchange(ExchangeDef),
    Queue(QueueDef),
    Binding(BindingDef),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Delete {
    Exchange { name: String },
    Queue { name: String },
    Binding(BindingDef),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PublishSpec {
    pub exchange: String,
    pub routing_key: String,
    /// For a repeated publish, `{n}` is replaced by the run number (1-based).
    pub body: String,
    pub properties: Properties,
    pub mandatory: bool,
}

/// AMQP basic properties, spelled as RabbitMQ's clients spell them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Properties {
    /// Kept as the string the client sent: the broker parses it (strictly) at publish.
    pub expiration: Option<String>,
    pub delivery_mode: Option<u8>,
    pub priority: Option<u8>,
    pub message_id: Option<String>,
    pub correlation_id: Option<String>,
    pub content_type: Option<String>,
    pub content_encoding: Option<String>,
    pub reply_to: Option<String>,
    pub timestamp: Option<u64>,
    pub kind: Option<String>,
    pub user_id: Option<String>,
    pub app_id: Option<String>,
    pub headers: Table,
}

impl ExchangeDef {
    /// A durable exchange of `kind` with no arguments.
    pub fn new(name: &str, kind: &str) -> ExchangeDef {
        ExchangeDef {
            name: name.into(),
            kind: kind.into(),
            durable: true,
            auto_delete: false,
            internal: false,
            arguments: Table::new(),
        }
    }
}

impl QueueDef {
    /// A durable queue with no arguments.
    pub fn new(name: &str) -> QueueDef {
        QueueDef {
            name: name.into(),
            durable: true,
            auto_delete: false,
            exclusive: false,
            arguments: Table::new(),
        }
    }

    pub fn with_arg(mut self, key: &str, value: FieldValue) -> QueueDef {
        self.arguments.insert(key, value);
        self
    }
}

impl BindingDef {
    pub fn queue(source: &str, queue: &str, routing_key: &str) -> BindingDef {
        BindingDef {
            source: source.into(),
            destination: queue.into(),
            destination_type: DestinationKind::Queue,
            routing_key: routing_key.into(),
            arguments: Table::new(),
        }
    }
}

impl Scenario {
    /// An empty scenario, a starting point for tests and the playground.
    pub fn empty(name: &str) -> Scenario {
        Scenario {
            version: FORMAT_VERSION,
            name: name.into(),
            description: String::new(),
            watch: String::new(),
            seed: 1,
            until_ms: None,
            topology: Topology::default(),
            consumers: Vec::new(),
            actions: Vec::new(),
            orders: None,
            faults: Vec::new(),
            broker: None,
            versions: Vec::new(),
            costs: crate::costs::CostMode::Ideal,
            consumer_timeout: ConsumerTimeoutSetting::Default,
            consumer_timeout_response: crate::version::TimeoutResponse::NotifyConsumer,
            dead_letter_retry_ms: None,
            report: None,
            checks: Vec::new(),
        }
    }

    /// The version the scenario runs on (3.10 when `broker` is absent).
    pub fn broker_version(&self) -> crate::version::BrokerVersion {
        self.broker.unwrap_or_default()
    }

    /// The versions the scenario is written for, oldest first: `versions` when given,
    /// else the one it runs on.
    pub fn written_for(&self) -> Vec<crate::version::BrokerVersion> {
        if self.versions.is_empty() {
            vec![self.broker_version()]
        } else {
            self.versions.clone()
        }
    }

    /// The versions the `index`-th check's expectation holds on, oldest first: its own
    /// `versions`, else the scenario's (`written_for`).
    pub fn check_expected_on(&self, index: usize) -> Vec<crate::version::BrokerVersion> {
        match self.checks.get(index) {
            Some(c) if !c.versions.is_empty() => c.versions.clone(),
            _ => self.written_for(),
        }
    }

    /// Whether the `index`-th check's expectation holds on `v` (elsewhere it is still
    /// evaluated, and reported as not expected there rather than as a failure).
    pub fn check_applies(&self, index: usize, v: crate::version::BrokerVersion) -> bool {
        self.check_expected_on(index).contains(&v)
    }
}
