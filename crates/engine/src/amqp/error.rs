//! Broker errors as RabbitMQ reports them: a reply code, the reply text, and whether the
//! channel or the whole connection is closed.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorScope {
    Channel,
    Connection,
}

/// A channel or connection close, e.g. 406 `PRECONDITION_FAILED - invalid expiration 'abc': no_integer`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmqpError {
    pub code: u16,
    /// The full reply text, starting with the reply name (`PRECONDITION_FAILED - ...`).
    pub text: String,
    pub scope: ErrorScope,
}

impl AmqpError {
    pub fn precondition_failed(detail: impl fmt::Display) -> AmqpError {
        AmqpError {
            code: 406,
            text: format!("PRECONDITION_FAILED - {detail}"),
            scope: ErrorScope::Channel,
        }
    }

    pub fn not_found(detail: impl fmt::Display) -> AmqpError {
        AmqpError {
            code: 404,
            text: format!("NOT_FOUND - {detail}"),
            scope: ErrorScope::Channel,
        }
    }

    pub fn access_refused(detail: impl fmt::Display) -> AmqpError {
        AmqpError {
            code: 403,
            text: format!("ACCESS_REFUSED - {detail}"),
            scope: ErrorScope::Channel,
        }
    }

    pub fn command_invalid(detail: impl fmt::Display) -> AmqpError {
        AmqpError {
            code: 503,
            text: format!("COMMAND_INVALID - {detail}"),
            scope: ErrorScope::Connection,
        }
    }

    pub fn internal_error(detail: impl fmt::Display) -> AmqpError {
        AmqpError {
            code: 541,
            text: format!("INTERNAL_ERROR - {detail}"),
            scope: ErrorScope::Connection,
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
