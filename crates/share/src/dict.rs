//! The preset dictionaries of link version 1: text a link's deflate stream may point
//! back into, so that a scenario close to a preset costs a few bytes.
//!
//! `dict_v1.txt` holds one line per entry: line 0 is the common part (the envelope and
//! the scenario format's usual keys and values); lines 1 to 23 are the compact saved
//! JSON (`save::to_value`, no spaces) of the playground's sandbox and the 22 presets of
//! `scenarios/` as they were when version 1 was made (2026-12). Dictionary 0 is the
//! common part alone; dictionary k is the common part followed by line k.
//!
//! FROZEN: links in the wild point into these bytes. Never edit `dict_v1.txt`, even when
//! a preset changes (the changed preset still compresses well, just less); new
//! dictionaries mean a new link version (and this one keeps decoding old links).

const DICT_V1: &str = include_str!("dict_v1.txt");

/// How many dictionaries version 1 has (ids `0..COUNT`).
pub fn count() -> usize {
    DICT_V1.lines().count()
}

/// Dictionary `id` of version 1, or `None` for an id it does not define.
pub fn get(id: u8) -> Option<Vec<u8>> {
    let mut lines = DICT_V1.lines();
    let common = lines.next().unwrap_or_default();
    let mut out = common.as_bytes().to_vec();
    if id > 0 {
        out.extend_from_slice(lines.nth(usize::from(id) - 1)?.as_bytes());
    }
    Some(out)
}
