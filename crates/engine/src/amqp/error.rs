//! Broker errors as RabbitMQ reports them: a reply code, the reply text, and whether the
//! channel or the whole connection is closed.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorScope {
    Channel,
    Connection,
}

/// A declared property of an exchange or a queue, as a refusal names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    Durable,
    AutoDelete,
    Exclusive,
    Internal,
}

/// What a refusal is about, said where the engine refuses (so a form can point at the
/// box without reading the reply text). Never serialized: the trace shows the text only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The declared object's own name (a reserved `amq.` prefix, the default exchange).
    Name,
    /// The exchange type (unknown or invalid; also a different type on re-declare).
    ExchangeType,
    /// A property of the declaration (an inequivalent `durable`, a quorum queue's
    /// `exclusive-owner`...).
    Property(Property),
    /// One argument of the declaration's table, by its key (`x-message-ttl`,
    /// `x-delayed-type`, `alternate-exchange`, `x-match`...).
    Argument(String),
    /// A binding's source exchange (missing, or the default exchange).
    Source,
    /// A binding's destination queue or exchange (missing).
    Destination,
    /// A binding's routing key (a topic key the version refuses).
    RoutingKey,
}

/// Why a declaration was refused, where the reply code alone does not say it (406 covers
/// both): so the playground explains the refusal in plain words without reading the
/// reply text. Never serialized, as [`Subject`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// `inequivalent arg`: a re-declare differs from what exists
    /// (`rabbit_misc:assert_field_equivalence/4`, `assert_args_equivalence/4`).
    Inequivalent,
    /// `invalid arg ... of queue type`: an argument this queue type does not take
    /// (`rabbit_amqqueue:check_declare_arguments/2` per type; 4.3's classic queues, D31).
    NotForQueueType,
}

/// A channel or connection close, e.g. 406 `PRECONDITION_FAILED - invalid expiration 'abc': no_integer`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmqpError {
    pub code: u16,
    /// The full reply text, starting with the reply name (`PRECONDITION_FAILED - ...`).
    pub text: String,
    pub scope: ErrorScope,
    /// What the refusal is about, when one part of the command is (`None`: the command
    /// as a whole, e.g. a crash, a publish).
    pub subject: Option<Subject>,
    /// Why, where the code alone does not say it (`None`: the code says it).
    pub cause: Option<Cause>,
}

impl AmqpError {
    /// The same error, saying what it is about.
    pub fn about(mut self, subject: Subject) -> AmqpError {
        self.subject = Some(subject);
        self
    }

    /// The same error, saying why.
    pub fn because(mut self, cause: Cause) -> AmqpError {
        self.cause = Some(cause);
        self
    }

    /// The same error about the argument `key`.
    pub fn about_arg(self, key: &str) -> AmqpError {
        self.about(Subject::Argument(key.to_owned()))
    }

    pub fn precondition_failed(detail: impl fmt::Display) -> AmqpError {
        AmqpError {
            code: 406,
            text: format!("PRECONDITION_FAILED - {detail}"),
            scope: ErrorScope::Channel,
            subject: None,
            cause: None,
        }
    }

    pub fn not_found(detail: impl fmt::Display) -> AmqpError {
        AmqpError {
            code: 404,
            text: format!("NOT_FOUND - {detail}"),
            scope: ErrorScope::Channel,
            subject: None,
            cause: None,
        }
    }

    pub fn access_refused(detail: impl fmt::Display) -> AmqpError {
        AmqpError {
            code: 403,
            text: format!("ACCESS_REFUSED - {detail}"),
            scope: ErrorScope::Channel,
            subject: None,
            cause: None,
        }
    }

    pub fn command_invalid(detail: impl fmt::Display) -> AmqpError {
        AmqpError {
            code: 503,
            text: format!("COMMAND_INVALID - {detail}"),
            scope: ErrorScope::Connection,
            subject: None,
            cause: None,
        }
    }

    pub fn internal_error(detail: impl fmt::Display) -> AmqpError {
        AmqpError {
            code: 541,
            text: format!("INTERNAL_ERROR - {detail}"),
            scope: ErrorScope::Connection,
            subject: None,
            cause: None,
        }
    }
}

impl fmt::Display for AmqpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.code, self.text)
    }
}

impl ErrorScope {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorScope::Channel => "channel",
            ErrorScope::Connection => "connection",
        }
    }
}
