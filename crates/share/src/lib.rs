//! Share links: a scenario and its view options in the URL fragment, versioned,
//! compressed and URL-safe, one codec for the playground and the command line.
//!
//! A fragment is `v1.` followed by URL-safe base64 (no padding) of
//!
//! ```text
//! [dictionary id: 1 byte][Adler-32 of the payload: 4 bytes, big-endian][raw deflate of the payload]
//! payload = compact JSON {"view": {...non-default options...}, "scenario": <the saved scenario>}
//! ```
//!
//! The scenario is written by the engine's own writer (`scenario::save`, defaults left
//! out) and read back by the engine's loader (`scenario::load_value`), so a link gets
//! exactly the checks a scenario file gets, with the same JSON paths in its errors. The
//! deflate stream may point into a preset dictionary (`dict`): the encoder tries each
//! and keeps the shortest, so an unchanged preset costs a few dozen characters.
//!
//! Worked example: the head-of-line preset (1,931 bytes of JSON, 687 bytes deflated on its
//! own) deflates against its dictionary (number 8) to a few bytes:
//! `https://delaylab.example/#v1.CNaDVazt1zENAAAIAzDhBO8oAL5dVdG0tqIekfxvSDKSkYxkJCNZSrIe`
//! (with 1000x, Chinese and read-only; 79 characters without view options). The same
//! scenario renamed, with a new description and body, is 144 characters.
//!
//! Decoding refuses, each with its own [`LinkError`]: more than [`MAX_FRAGMENT_CHARS`]
//! (before any work), an unknown version tag, bad base64, a cut-off or invalid deflate
//! stream, more than [`MAX_INFLATED_BYTES`] once unpacked (a zip bomb stops there),
//! content that does not match its checksum (a changed link), and invalid JSON, scenario
//! or view options. It never panics (a property test feeds it arbitrary strings).
//!
//! Versions: every version this crate ever wrote keeps decoding (a test holds a v1
//! fragment as committed text); a link from a newer version is refused with its number.

mod deflate;
mod dict;
mod error;
pub mod view;

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::{alphabet, DecodeError, Engine};
use delaylab_engine::scenario::{self, Scenario};
use serde_json::{Map, Value};

pub use error::LinkError;
pub use view::ViewOptions;

/// The version [`encode_fragment`] writes; every version from 1 up to it decodes.
pub const LINK_VERSION: u32 = 1;
/// Longest fragment [`decode_fragment`] looks at (browsers take far longer URLs, but a
/// link that long is no longer something to paste in a chat).
pub const MAX_FRAGMENT_CHARS: usize = 100_000;
/// Largest unpacked payload: the size limit of a scenario file (`load::MAX_TEXT_BYTES`).
pub const MAX_INFLATED_BYTES: usize = scenario::load::MAX_TEXT_BYTES;

/// Bytes before the deflate stream: dictionary id and checksum.
const HEADER_BYTES: usize = 5;
/// Largest payload the encoder tries every dictionary on.
const DICT_TRIAL_MAX_BYTES: usize = 16 * 1024;

/// URL-safe alphabet, written without padding; padding is accepted on input (some
/// tools add it) but not required. Spare bits in the last character are ignored, so a
/// link cut short is reported as cut short (by the deflate stream), not as bad base64.
const B64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// What a link holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Shared {
    pub scenario: Scenario,
    pub view: ViewOptions,
}

fn adler32(data: &[u8]) -> u32 {
    let mut a = adler2::Adler32::new();
    a.write_slice(data);
    a.checksum()
}

fn payload(s: &Scenario, v: &ViewOptions) -> Vec<u8> {
    let mut m = Map::new();
    let view = view::to_value(v);
    if view.as_object().is_some_and(|o| !o.is_empty()) {
        m.insert("view".into(), view);
    }
    m.insert("scenario".into(), scenario::save::to_value(s));
    // Serializing a `Value` whose map keys are strings cannot fail.
    serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
}

/// The text after `#`: `v1.` and URL-safe base64 (`A-Z a-z 0-9 - _`).
pub fn encode_fragment(s: &Scenario, v: &ViewOptions) -> String {
    let data = payload(s, v);
    // A preset dictionary only helps a scenario about a preset's size; a big one is
    // compressed once, with the common part alone (encoding stays quick in the browser).
    let dicts = if data.len() > DICT_TRIAL_MAX_BYTES {
        1
    } else {
        dict::count().min(256)
    };
    let mut best: Option<(u8, Vec<u8>)> = None;
    for id in 0..dicts as u8 {
        let Some(d) = dict::get(id) else { continue };
        let z = deflate::compress_with_dict(&d, &data);
        if best.as_ref().is_none_or(|(_, b)| z.len() < b.len()) {
            best = Some((id, z));
        }
    }
    let (id, z) = best.expect("dictionary 0 (the common part) always exists");
    let mut bytes = Vec::with_capacity(HEADER_BYTES + z.len());
    bytes.push(id);
    bytes.extend_from_slice(&adler32(&data).to_be_bytes());
    bytes.extend_from_slice(&z);
    format!("v{LINK_VERSION}.{}", B64.encode(bytes))
}

/// `base` (its own fragment, if any, dropped) + `#` + the fragment.
pub fn make_link(base: &str, s: &Scenario, v: &ViewOptions) -> String {
    let base = base.split('#').next().unwrap_or_default();
    format!("{base}#{}", encode_fragment(s, v))
}

/// The fragment part of what the user gave: after the first `#` of a URL, else all.
fn fragment_of(text: &str) -> &str {
    let text = text.trim();
    match text.split_once('#') {
        Some((_, f)) => f.trim(),
        None => text,
    }
}

/// (version, rest) of `v<digits>.<rest>`.
fn version_tag(f: &str) -> Option<(&str, &str)> {
    let (tag, rest) = f.strip_prefix('v')?.split_once('.')?;
    (!tag.is_empty() && tag.bytes().all(|b| b.is_ascii_digit())).then_some((tag, rest))
}

/// Whether `text` (a fragment, with or without `#`, or a whole URL) carries a share
/// payload (`v<N>.`), as opposed to a preset id like `head-of-line-blocking`: the app
/// shows an error for a damaged payload, and ignores anything else.
pub fn looks_like_link(text: &str) -> bool {
    version_tag(fragment_of(text)).is_some()
}

fn base64_error(e: DecodeError) -> LinkError {
    LinkError::BadBase64(match e {
        DecodeError::InvalidByte(at, b) => {
            format!(
                "character {:?} at position {at} of the data cannot be in a link",
                char::from(b)
            )
        }
        DecodeError::InvalidLength(n) => {
            format!("its data has an impossible length ({n}): a character is missing or extra")
        }
        DecodeError::InvalidLastSymbol(at, _) => {
            format!("its last character (position {at}) is wrong")
        }
        DecodeError::InvalidPadding => "its padding is wrong".to_string(),
    })
}

/// Reads a link: a fragment with or without its `#`, or a whole URL.
pub fn decode_fragment(fragment: &str) -> Result<Shared, LinkError> {
    let chars = fragment.chars().count();
    if chars > MAX_FRAGMENT_CHARS {
        return Err(LinkError::TooLong {
            chars,
            limit: MAX_FRAGMENT_CHARS,
        });
    }
    let f = fragment_of(fragment);
    let Some((tag, data)) = version_tag(f) else {
        return Err(LinkError::NotALink);
    };
    match tag.parse::<u32>() {
        Ok(1) => decode_v1(data),
        Ok(0) => Err(LinkError::NotALink),
        Ok(n) => Err(LinkError::UnknownVersion(n)),
        Err(_) => Err(LinkError::UnknownVersion(u32::MAX)),
    }
}

fn decode_v1(data: &str) -> Result<Shared, LinkError> {
    let bytes = B64.decode(data).map_err(base64_error)?;
    if bytes.len() <= HEADER_BYTES {
        return Err(LinkError::Truncated);
    }
    let id = bytes[0];
    let d = dict::get(id).ok_or(LinkError::UnknownDictionary(id))?;
    let sum = u32::from_be_bytes([bytes[1], bytes[2], bytes[3], bytes[4]]);
    let text = deflate::decompress_with_dict(&d, &bytes[HEADER_BYTES..], MAX_INFLATED_BYTES)?;
    if adler32(&text) != sum {
        return Err(LinkError::Tampered);
    }
    let value: Value = serde_json::from_slice(&text)
        .map_err(|e| LinkError::BadPayload(format!("invalid JSON: {e}")))?;
    let Value::Object(mut m) = value else {
        return Err(LinkError::BadPayload("expected a JSON object".into()));
    };
    let scenario_json = m
        .remove("scenario")
        .ok_or_else(|| LinkError::BadPayload("no scenario in it".into()))?;
    let view = match m.remove("view") {
        Some(v) => view::from_value(&v)?,
        None => ViewOptions::default(),
    };
    if let Some(k) = m.keys().next() {
        return Err(LinkError::BadPayload(format!("unexpected key {k:?}")));
    }
    let scenario = scenario::load_value(&scenario_json).map_err(LinkError::InvalidScenario)?;
    Ok(Shared { scenario, view })
}
