//! Erlang's printing of terms (`io_lib:format` with `~p`, `~s`), the reply-text limit,
//! and RabbitMQ's equivalence texts; shared by the `amqp` modules.
//!
//! Erlang formats binaries byte by byte (Latin-1), so columns count bytes, and a string
//! is printed quoted only if all its bytes are printable Latin-1 (`io_lib:printable_list`
//! with the default `+pc latin1`): UTF-8 `é` (C3 A9) is, `€` (E2 82 AC) is not and prints
//! as `[226,130,172]`.
// The layout code keeps io_lib_pretty's comparisons as written there.
#![allow(clippy::int_plus_one)]

use crate::amqp::{AmqpError, Cause};
use crate::value::{FieldValue, Table};

/// `rabbit_binary_generator:amqp_exception_explanation/2`: a reply text (a shortstr)
/// over 255 bytes is cut to 252 bytes plus `...`. Deviation: the cut moves back to a
/// UTF-8 character boundary (RabbitMQ cuts bytes and may split a character).
pub fn fit(mut e: AmqpError) -> AmqpError {
    if e.text.len() > 255 {
        let mut cut = 252;
        while !e.text.is_char_boundary(cut) {
            cut -= 1;
        }
        e.text.truncate(cut);
        e.text.push_str("...");
    }
    e
}

/// The column after writing `s` from column `col` (`io_lib_format:indentation/2`).
pub fn column_after(s: &str, col: usize) -> usize {
    s.bytes().fold(col, |c, b| match b {
        b'\n' => 0,
        b'\t' => (c + 8) / 8 * 8,
        _ => c + 1,
    })
}

fn printable(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| matches!(b, 0x20..=0x7E | 0xA0..=0xFF | b'\n' | b'\r' | b'\t' | 0x0B | 0x08 | 0x0C | 0x1B))
}

fn escaped(bytes: &[u8], quote: u8, out: &mut Vec<u8>) {
    for &b in bytes {
        match b {
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x0B => out.extend_from_slice(b"\\v"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            0x1B => out.extend_from_slice(b"\\e"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            _ if b == quote => out.extend_from_slice(&[b'\\', b]),
            _ => out.push(b),
        }
    }
}

fn int_list(bytes: &[u8]) -> String {
    let items: Vec<String> = bytes.iter().map(u8::to_string).collect();
    items.join(",")
}

fn utf8(bytes: Vec<u8>) -> String {
    // Escapes replace ASCII bytes only, and non-printable input is printed as numbers,
    // so valid UTF-8 in gives valid UTF-8 out.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `~p` of a charlist given as bytes: `"..."`, or `[1,2]` if not printable.
pub fn string(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "[]".to_owned();
    }
    if !printable(bytes) {
        return format!("[{}]", int_list(bytes));
    }
    let mut out = vec![b'"'];
    escaped(bytes, b'"', &mut out);
    out.push(b'"');
    utf8(out)
}

/// `~p` of a binary: `<<"...">>`, or `<<1,2>>` if not printable.
pub fn binary(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "<<>>".to_owned();
    }
    if !printable(bytes) {
        return format!("<<{}>>", int_list(bytes));
    }
    let mut out = b"<<\"".to_vec();
    escaped(bytes, b'"', &mut out);
    out.extend_from_slice(b"\">>");
    utf8(out)
}

/// `~p` of an atom: bare, or quoted when it has to be (`'x-delayed-message'`).
pub fn atom(name: &str) -> String {
    const RESERVED: &[&str] = &[
        "after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr", "bxor", "case",
        "catch", "cond", "div", "end", "fun", "if", "let", "not", "of", "or", "orelse", "receive",
        "rem", "try", "when", "xor",
    ];
    let mut chars = name.bytes();
    let bare = matches!(chars.next(), Some(b'a'..=b'z'))
        && chars.all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'@')
        && !RESERVED.contains(&name);
    if bare {
        return name.to_owned();
    }
    let mut out = vec![b'\''];
    escaped(name.as_bytes(), b'\'', &mut out);
    out.push(b'\'');
    utf8(out)
}

/// `~p` of a float: `float_to_list(F, [short])`, the shortest digits that read back
/// exactly; below 2^53 in magnitude the shorter of the plain and the scientific
/// notation (plain on a tie), above it always scientific: `1.5`, `1.0e3`, `100.0`.
pub fn float(f: f64) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0" } else { "0.0" }.to_owned();
    }
    if !f.is_finite() {
        return format!("{f}"); // not an Erlang float; cannot come from a client
    }
    let sci = format!("{:e}", f.abs()); // shortest round-trip digits: "1.2345e-7"
    let (mantissa, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("integer exponent");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if f < 0.0 { "-" } else { "" };
    let scientific = format!(
        "{sign}{}.{}e{exp}",
        &digits[..1],
        if digits.len() > 1 { &digits[1..] } else { "0" }
    );
    if f.abs() >= 9_007_199_254_740_992.0 {
        return scientific;
    }
    let point = exp + 1; // value = 0.DIGITS x 10^point
    let plain = if point <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat((-point) as usize))
    } else if (point as usize) < digits.len() {
        format!(
            "{sign}{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    } else {
        format!(
            "{sign}{digits}{}.0",
            "0".repeat(point as usize - digits.len())
        )
    };
    if scientific.len() < plain.len() {
        scientific
    } else {
        plain
    }
}

/// A term as `~p` lays it out: one printed leaf (integer, atom, quoted string), or a
/// list of integers (a charlist that is not printable), which may wrap.
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    Leaf(String),
    Ints(Vec<String>),
}

impl Term {
    /// `~p` of a charlist given as bytes (see [`string`]).
    pub fn charlist(bytes: &[u8]) -> Term {
        if bytes.is_empty() || printable(bytes) {
            Term::Leaf(string(bytes))
        } else {
            Term::Ints(bytes.iter().map(u8::to_string).collect())
        }
    }

    fn len(&self) -> i64 {
        match self {
            Term::Leaf(s) => s.len() as i64,
            Term::Ints(items) => items.iter().map(|i| i.len() as i64 + 1).sum::<i64>() + 1,
        }
    }

    fn write(&self) -> String {
        match self {
            Term::Leaf(s) => s.clone(),
            Term::Ints(items) => format!("[{}]", items.join(",")),
        }
    }
}

// A transcription of io_lib_pretty (OTP 25) for these shapes. Columns are 1-based as
// there; `m` is the length of the whole term, `w` the width used on the current line,
// `ld` the characters that must follow (closing brackets), `ind` the indentation.

fn pp(t: &Term, col: i64, ll: i64, m: i64, ind: i64, ld: i64, w: i64) -> String {
    let len = t.len();
    if len < ll - col - ld && len + w + ld <= m {
        return t.write();
    }
    match t {
        Term::Leaf(s) => s.clone(),
        Term::Ints(items) => {
            format!("[{}]", pp_list(items, col + 1, ll, m, ind + 1, ld, w + 1))
        }
    }
}

/// pp_list/9 and pp_tail/10 over integer leaves.
fn pp_list(items: &[String], col0: i64, ll: i64, m: i64, ind: i64, ld: i64, w: i64) -> String {
    let element = |e: &String, ld: i64, w: i64| {
        let len = e.len() as i64;
        (
            e.clone(),
            if len < ll - col0 - ld && len + w + ld <= m {
                len
            } else {
                ll
            },
        )
    };
    let last_depth = |i: usize| if i + 1 < items.len() { 0 } else { ld + 1 };
    let (mut out, we) = element(&items[0], last_depth(0), w);
    let (mut col, mut w) = (col0 + we, w + we);
    for (i, e) in items.iter().enumerate().skip(1) {
        let (ld1, elen) = (last_depth(i), 1 + e.len() as i64);
        let fits = if ld1 == 0 {
            elen + 1 < ll - col && w + elen + 1 <= m
        } else {
            elen < ll - col - ld1 && w + elen + ld1 <= m
        };
        if fits {
            out.push(',');
            out.push_str(e);
            col += elen;
            w += elen;
        } else {
            let (es, we) = element(e, ld1, 0);
            out.push_str(",\n");
            out.push_str(&" ".repeat(ind as usize));
            out.push_str(&es);
            col = col0 + we;
            w = we;
        }
    }
    out
}

/// `~p` (line length `line_length`) of `term` starting at 0-based column `col`.
pub fn pretty(term: &Term, col: usize, line_length: usize) -> String {
    let (col, ll) = (col as i64 + 1, line_length as i64);
    pp(term, col, ll, term.len(), col - 1, 0, 0)
}

/// `~p` (line length `line_length`) of `{Tag, Value}` starting at 0-based column
/// `col`: on one line if it fits; else the value follows the tag if the tag ends
/// within the first half of the line, or goes on the next line, indented 4 past the
/// brace (if that is within the first half of the line) or 1; a list value wraps.
pub fn tagged(tag: &str, value: &Term, col: usize, line_length: usize) -> String {
    let (col, ll) = (col as i64 + 1, line_length as i64);
    let tlen = tag.len() as i64;
    let m = tlen + value.len() + 3;
    if m < ll - col {
        return format!("{{{tag},{}}}", value.write());
    }
    // while_fail([-1, 4], cind(...), 1)
    let (tag_ind, tcol) = (tlen + 2, col + tlen + 2);
    let tind = if m + tcol < ll || tcol < ll / 2 {
        -1
    } else if m + col + 4 <= ll || col + 4 <= ll / 2 {
        4
    } else {
        1
    };
    let w = 1 + tlen; // "{" and the tag
    if tind > 0 && tag_ind > tind {
        let (col1, ind) = (col + tind, col - 1 + tind);
        let elen = 1 + value.len();
        let leaf = matches!(value, Term::Leaf(_));
        if leaf && elen < ll - tcol - 1 && w + elen + 1 <= m {
            return format!("{{{tag},{}}}", value.write());
        }
        let v = pp(value, col1, ll, m, ind, 1, 0);
        format!("{{{tag},\n{}{v}}}", " ".repeat(ind as usize))
    } else {
        let v = pp(value, tcol, ll, m, col - 1 + tag_ind, 1, w + 1);
        format!("{{{tag},{v}}}")
    }
}

/// `~p` of the Erlang representation of a field value, without its type.
pub fn raw(v: &FieldValue) -> String {
    match v {
        FieldValue::Void => "undefined".to_owned(),
        FieldValue::Bool(b) => b.to_string(),
        FieldValue::Int(n) => n.to_string(),
        FieldValue::Float(f) => float(*f),
        FieldValue::Str(s) => binary(s.as_bytes()),
        FieldValue::Array(items) => {
            let items: Vec<String> = items.iter().map(typed).collect();
            format!("[{}]", items.join(","))
        }
        FieldValue::Table(t) => table(t),
        FieldValue::Timestamp(t) => t.to_string(),
        FieldValue::Decimal { scale, value } => format!("{{{scale},{value}}}"),
    }
}

fn typed(v: &FieldValue) -> String {
    format!("{{{},{}}}", v.amqp_type_name(), raw(v))
}

fn table(t: &Table) -> String {
    let entries: Vec<String> = t
        .iter()
        .map(|(k, v)| {
            format!(
                "{{{},{},{}}}",
                binary(k.as_bytes()),
                v.amqp_type_name(),
                raw(v)
            )
        })
        .collect();
    format!("[{}]", entries.join(","))
}

/// `rabbit_misc:val/1` of a raw value: `'~s'` for a binary, else `'~p'`, and `none`
/// for `undefined`. Limitation: arrays and tables are printed on one line (Erlang
/// breaks terms longer than 80 columns).
fn val_raw(v: &FieldValue) -> String {
    match v {
        FieldValue::Void => "none".to_owned(),
        FieldValue::Str(s) => format!("'{s}'"),
        _ => format!("'{}'", raw(v)),
    }
}

/// `rabbit_misc:val/1` of a `{Type, Value}` pair or of a missing one.
fn val_typed(v: Option<&FieldValue>) -> String {
    match v {
        None => "none".to_owned(),
        Some(FieldValue::Str(s)) => format!("the value '{s}' of type 'longstr'"),
        Some(v) => format!("the value '{}' of type '{}'", raw(v), v.amqp_type_name()),
    }
}

fn inequivalent(resource: &str, key: &str, received: &str, current: &str) -> AmqpError {
    fit(AmqpError::precondition_failed(format!(
        "inequivalent arg '{key}' for {resource}: received {received} but current is {current}"
    )))
    .because(Cause::Inequivalent)
}

/// `rabbit_misc:assert_field_equivalence/4` of two booleans (`durable`, ...).
pub fn bool_equivalence(
    resource: &str,
    key: &str,
    current: bool,
    received: bool,
) -> Option<AmqpError> {
    (current != received).then(|| {
        inequivalent(
            resource,
            key,
            &format!("'{received}'"),
            &format!("'{current}'"),
        )
    })
}

/// `rabbit_misc:assert_field_equivalence/4` of two atoms (an exchange's `type`).
pub fn atom_equivalence(
    resource: &str,
    key: &str,
    current: &str,
    received: &str,
) -> Option<AmqpError> {
    (current != received).then(|| {
        inequivalent(
            resource,
            key,
            &format!("'{}'", atom(received)),
            &format!("'{}'", atom(current)),
        )
    })
}

/// `rabbit_misc:assert_args_equivalence1/4` for one argument.
pub fn arg_equivalence(
    resource: &str,
    key: &str,
    current: Option<&FieldValue>,
    received: Option<&FieldValue>,
) -> Option<AmqpError> {
    match (current, received) {
        (None, None) => None,
        (Some(a), Some(b)) if a == b => None, // same type class and equal value
        // Raw values compared with =:=: [] (empty array) =:= [] (empty table).
        (Some(FieldValue::Array(a)), Some(FieldValue::Table(t)))
            if a.is_empty() && t.is_empty() =>
        {
            None
        }
        (Some(FieldValue::Table(t)), Some(FieldValue::Array(a)))
            if a.is_empty() && t.is_empty() =>
        {
            None
        }
        (Some(a), Some(b)) => {
            Some(inequivalent(resource, key, &val_raw(b), &val_raw(a)).about_arg(key))
        }
        (a, b) => {
            let classic =
                |v: Option<&FieldValue>| v.and_then(FieldValue::as_str) == Some("classic");
            if key == "x-queue-type" && (classic(a) || classic(b)) {
                return None;
            }
            Some(inequivalent(resource, key, &val_typed(b), &val_typed(a)).about_arg(key))
        }
    }
}
