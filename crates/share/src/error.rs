//! Why a link does not open: one variant per kind of problem, each displayed as one
//! sentence a user can act on ("copy the whole link", "ask for a new link").

use std::fmt;

use delaylab_engine::scenario::LoadError;

#[derive(Debug, Clone, PartialEq)]
pub enum LinkError {
    /// The fragment is empty or does not start with a version tag (`v1.`).
    NotALink,
    /// A version tag this build does not know (a link from a newer delaylab).
    UnknownVersion(u32),
    /// Longer than [`crate::MAX_FRAGMENT_CHARS`]: refused before any decoding.
    TooLong { chars: usize, limit: usize },
    /// A character outside the URL-safe base64 alphabet, or an impossible length.
    BadBase64(String),
    /// Fewer bytes than the header, or the compressed data ends before its end marker.
    Truncated,
    /// A dictionary number this version does not define.
    UnknownDictionary(u8),
    /// The compressed data is not valid deflate.
    BadDeflate,
    /// The content does not match its checksum, or bytes follow the compressed data.
    Tampered,
    /// The content unpacks to more than [`crate::MAX_INFLATED_BYTES`].
    TooLarge { limit: usize },
    /// The unpacked content is not the expected JSON envelope.
    BadPayload(String),
    /// The scenario fails the same checks as a scenario file (JSON path of the problem).
    InvalidScenario(LoadError),
    /// A view option has the wrong type or value.
    InvalidView { path: String, message: String },
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::NotALink => write!(
                f,
                "this is not a delaylab share link: the part after '#' should start with \"v{}.\"",
                crate::LINK_VERSION
            ),
            LinkError::UnknownVersion(v) => write!(
                f,
                "this link has version {v}, made by a newer delaylab; this one opens link versions 1 to {}",
                crate::LINK_VERSION
            ),
            LinkError::TooLong { chars, limit } => {
                write!(f, "the link is {chars} characters long; the limit is {limit}")
            }
            LinkError::BadBase64(why) => {
                write!(f, "the link is damaged: {why} (copy the whole link again)")
            }
            LinkError::Truncated => write!(
                f,
                "the link is cut short: its data ends early (copy the whole link again)"
            ),
            LinkError::UnknownDictionary(d) => write!(
                f,
                "the link was changed or made by a newer delaylab: it names dictionary {d}, which this version does not have"
            ),
            LinkError::BadDeflate => write!(
                f,
                "the link is damaged: its compressed data is invalid (copy the whole link again)"
            ),
            LinkError::Tampered => write!(
                f,
                "the link was changed: its content does not match its checksum (copy the whole link again)"
            ),
            LinkError::TooLarge { limit } => write!(
                f,
                "the link's scenario unpacks to more than {limit} bytes, the limit"
            ),
            LinkError::BadPayload(why) => write!(f, "the link's content is not a delaylab scenario: {why}"),
            LinkError::InvalidScenario(e) => write!(f, "the link's scenario is invalid: {e}"),
            LinkError::InvalidView { path, message } => {
                write!(f, "the link's view options are invalid: {path}: {message}")
            }
        }
    }
}

impl std::error::Error for LinkError {}
