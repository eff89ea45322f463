//! The size limits of a scenario file, each named in the error that enforces it.

/// Largest scenario text `load_str` accepts.
pub const MAX_TEXT_BYTES: usize = 1024 * 1024;
/// Entries in `actions` (a repeated publish counts once here).
pub const MAX_ACTIONS: usize = 10_000;
/// Messages published by the whole scenario, repeat counts included.
pub const MAX_PUBLISHES_TOTAL: u64 = 2_000_000;
/// Length of one publish `body`.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Exchange and queue names and routing keys (an AMQP `shortstr`); consumer names too.
pub const MAX_NAME_BYTES: usize = 255;
pub const MAX_CONSUMERS: usize = 256;
pub const MAX_QUEUES: usize = 10_000;
pub const MAX_EXCHANGES: usize = 10_000;
pub const MAX_BINDINGS: usize = 10_000;
/// Any duration, and the last run of a repeated publish (366 days).
pub const MAX_DURATION_MS: u64 = 366 * 86_400_000;
/// Nesting of tables and arrays in `headers` and `arguments` (the table itself is 1).
pub const MAX_HEADER_DEPTH: usize = 16;
/// Entries in `checks` (the evaluator keeps one bit per check and message).
pub const MAX_CHECKS: usize = 64;
/// A check's `label`: one line of plain words.
pub const MAX_LABEL_BYTES: usize = 300;
/// A check's `name` (letters, digits, `-`, `_`, `.`).
pub const MAX_CHECK_NAME_BYTES: usize = 64;
/// A `body_matches` pattern (`*`, `?`).
pub const MAX_PATTERN_BYTES: usize = 255;
/// Bodies an `order` check lists (each delivery is compared with each of them).
pub const MAX_ORDER_BODIES: usize = 100;
