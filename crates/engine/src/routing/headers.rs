//! Headers exchange matching (`rabbit_exchange_type_headers`, RabbitMQ 3.10).
//!
//! The binding argument `x-match` picks the mode: `all` (the default when absent), `any`,
//! `all-with-x` or `any-with-x` (the last two since 3.10). Then, per binding argument:
//!
//! * `x-match` itself is always skipped;
//! * for `all` and `any`, arguments whose name starts with `x-` are skipped as well,
//!   while `all-with-x` and `any-with-x` compare them like any other argument;
//! * an argument of type `void` matches when the message has a header of that name,
//!   whatever its value;
//! * any other argument matches when the message has a header of that name whose value is
//!   equal under Erlang's `==`, as 3.10 (up to 3.12) compares: the AMQP types of the two
//!   top-level values are ignored, so `1 == 1.0`, but `"1"` is never equal to `1`, nor
//!   `true` to `1`. Inside arrays and tables the decoded elements are `{Type, Value}`
//!   (array) and `{Name, Type, Value}` (table) tuples, so there the type tags must agree
//!   too (`[1]` is not equal to `[1.0]`), and table entries are compared in order.
//!
//! `all` matches when every argument that is not skipped matches, so a binding without
//! such arguments matches every message; `any` matches when at least one does, so a
//! binding without such arguments matches nothing.
//!
//! The message headers are all of them, `x-*` headers included.

use crate::value::{FieldValue, Table};

/// The binding argument that picks the mode.
pub const X_MATCH: &str = "x-match";

/// The `x-match` mode of a headers binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XMatch {
    All,
    Any,
    AllWithX,
    AnyWithX,
}

impl XMatch {
    /// The `x-match` string that selects this mode.
    pub fn as_str(self) -> &'static str {
        match self {
            XMatch::All => "all",
            XMatch::Any => "any",
            XMatch::AllWithX => "all-with-x",
            XMatch::AnyWithX => "any-with-x",
        }
    }

    /// Whether binding arguments named `x-*` (other than `x-match`) are compared.
    fn compares_x_args(self) -> bool {
        matches!(self, XMatch::AllWithX | XMatch::AnyWithX)
    }

    /// Whether every compared argument must match (as opposed to at least one).
    fn needs_all(self) -> bool {
        matches!(self, XMatch::All | XMatch::AllWithX)
    }
}

/// Reads and validates the `x-match` binding argument, as 3.10's `validate_binding/2`
/// does when the binding is created. Absent means [`XMatch::All`].
///
/// The error is the detail of a 406 channel error: the caller builds the reply with
/// `AmqpError::precondition_failed`, giving e.g.
/// `PRECONDITION_FAILED - Invalid x-match field value <<"bogus">>; expected all, any, all-with-x, or any-with-x`
/// for a string, and
/// `PRECONDITION_FAILED - Invalid x-match field type long (value 23); expected longstr`
/// for another type.
///
/// The exact texts are **inferred**, not observed on a broker: they are the format
/// strings of `validate_binding/2` (`"Invalid x-match field value ~p; expected all, any,
/// all-with-x, or any-with-x"` and `"Invalid x-match field type ~p (value ~p); expected
/// longstr"`, which `rabbit_channel` passes to `protocol_error(precondition_failed, ...)`),
/// with the Erlang term printed here the way `~p` prints it. Not reproduced: `~p`'s line
/// breaking of terms longer than 80 columns, and the AMQP type a client really used for
/// an integer (pika sends small integers as `signedint`; this model calls every integer
/// `long`).
pub fn parse_x_match(binding_args: &Table) -> Result<XMatch, String> {
    match binding_args.get(X_MATCH) {
        None => Ok(XMatch::All),
        Some(FieldValue::Str(s)) => match &**s {
            "all" => Ok(XMatch::All),
            "any" => Ok(XMatch::Any),
            "all-with-x" => Ok(XMatch::AllWithX),
            "any-with-x" => Ok(XMatch::AnyWithX),
            other => Err(format!(
                "Invalid x-match field value {}; expected all, any, all-with-x, or any-with-x",
                erlang_binary(other)
            )),
        },
        Some(other) => Err(format!(
            "Invalid x-match field type {} (value {}); expected longstr",
            other.amqp_type_name(),
            erlang_value(other)
        )),
    }
}

/// Whether a message with `message_headers` matches a headers binding with
/// `binding_args` (RabbitMQ 3.10 rules, see the module docs).
///
/// Bindings are validated with [`parse_x_match`] when they are created; should an
/// invalid `x-match` still arrive here it counts as `all`, as RabbitMQ's own
/// `parse_x_match/1` does for legacy bindings.
pub fn headers_match(binding_args: &Table, message_headers: &Table) -> bool {
    headers_match_with(binding_args, message_headers, false)
}

/// [`headers_match`], with `exact`: values compared with Erlang `=:=` (3.13+, D32), so
/// their AMQP types must agree too (`1` does not match `1.0`).
pub fn headers_match_with(binding_args: &Table, message_headers: &Table, exact: bool) -> bool {
    let mode = parse_x_match(binding_args).unwrap_or(XMatch::All);
    let mut compared = binding_args.iter().filter(|&(name, _)| {
        name != X_MATCH && (mode.compares_x_args() || !name.starts_with("x-"))
    });
    let arg_matches = |(name, wanted): (&str, &FieldValue)| match message_headers.get(name) {
        None => false,
        Some(_) if matches!(wanted, FieldValue::Void) => true,
        Some(value) if exact => tagged_eq(wanted, value),
        Some(value) => erlang_eq(wanted, value),
    };
    if mode.needs_all() {
        compared.all(arg_matches)
    } else {
        compared.any(arg_matches)
    }
}

/// Erlang `==` on two decoded field values (their AMQP types are not part of the term).
fn erlang_eq(a: &FieldValue, b: &FieldValue) -> bool {
    use FieldValue as V;
    match (a, b) {
        (V::Void, V::Void) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Int(x), V::Int(y)) => x == y,
        (V::Float(x), V::Float(y)) => x == y,
        (V::Int(i), V::Float(f)) | (V::Float(f), V::Int(i)) => int_eq_float(*i, *f),
        (V::Str(x), V::Str(y)) => x == y,
        // A timestamp decodes to its integer of seconds, a decimal to {Scale, Value}.
        (V::Timestamp(x), V::Timestamp(y)) => x == y,
        (V::Timestamp(t), V::Int(i)) | (V::Int(i), V::Timestamp(t)) => {
            u64::try_from(*i).is_ok_and(|i| i == *t)
        }
        (V::Timestamp(t), V::Float(f)) | (V::Float(f), V::Timestamp(t)) => {
            i64::try_from(*t).is_ok_and(|t| int_eq_float(t, *f))
        }
        (V::Decimal { scale: s, value: v }, V::Decimal { scale: t, value: w }) => s == t && v == w,
        (V::Array(xs), V::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| tagged_eq(x, y))
        }
        (V::Table(xs), V::Table(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys.iter())
                    .all(|((kx, x), (ky, y))| kx == ky && tagged_eq(x, y))
        }
        _ => false,
    }
}

/// Erlang `==` on `{Type, Value}`: the type atoms must be identical, the values `==`.
fn tagged_eq(a: &FieldValue, b: &FieldValue) -> bool {
    a.amqp_type_name() == b.amqp_type_name() && erlang_eq(a, b)
}

/// Erlang compares an integer and a float exactly (by mathematical value).
fn int_eq_float(i: i64, f: f64) -> bool {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    f.is_finite() && f.fract() == 0.0 && (-TWO_63..TWO_63).contains(&f) && f as i64 == i
}

/// A field value as `~p` prints the Erlang term RabbitMQ decoded it to.
fn erlang_value(v: &FieldValue) -> String {
    match v {
        FieldValue::Void => "undefined".to_string(),
        FieldValue::Bool(b) => b.to_string(),
        FieldValue::Int(i) => i.to_string(),
        FieldValue::Float(f) => erlang_float(*f),
        FieldValue::Str(s) => erlang_binary(s),
        FieldValue::Timestamp(t) => t.to_string(),
        FieldValue::Decimal { scale, value } => format!("{{{scale},{value}}}"),
        FieldValue::Array(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|x| format!("{{{},{}}}", x.amqp_type_name(), erlang_value(x)))
                .collect();
            format!("[{}]", items.join(","))
        }
        FieldValue::Table(t) => {
            let entries: Vec<String> = t
                .iter()
                .map(|(k, x)| {
                    format!(
                        "{{{},{},{}}}",
                        erlang_binary(k),
                        x.amqp_type_name(),
                        erlang_value(x)
                    )
                })
                .collect();
            format!("[{}]", entries.join(","))
        }
    }
}

/// A binary as `~p` prints it: `<<"text">>` when every byte is printable Latin-1
/// (escaping quotes, backslashes and the usual control characters), else `<<1,2,3>>`.
fn erlang_binary(s: &str) -> String {
    let printable = s.bytes().all(
        |b| matches!(b, 32..=126 | 160..=255 | b'\n' | b'\r' | b'\t' | 0x0B | 0x08 | 0x0C | 0x1B),
    );
    if s.is_empty() {
        return "<<>>".to_string();
    }
    if !printable {
        let bytes: Vec<String> = s.bytes().map(|b| b.to_string()).collect();
        return format!("<<{}>>", bytes.join(","));
    }
    let mut out = String::with_capacity(s.len() + 6);
    out.push_str("<<\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0B' => out.push_str("\\v"),
            '\x08' => out.push_str("\\b"),
            '\x0C' => out.push_str("\\f"),
            '\x1B' => out.push_str("\\e"),
            // Non-ASCII: the bytes are all Latin-1 printable, and the reply text carries
            // them back unchanged, i.e. as the original UTF-8.
            c => out.push(c),
        }
    }
    out.push_str("\">>");
    out
}

/// A float as Erlang's `~p` prints it: the shortest digits that read back, in fixed
/// notation unless exponent notation is shorter (`100.0`, `1.0e4`, `0.001`, `1.5e-7`).
fn erlang_float(f: f64) -> String {
    if !f.is_finite() {
        // Erlang has no such floats; a client could not have sent one through RabbitMQ.
        return f.to_string();
    }
    // `{:e}` gives the shortest round-trip digits: "1.5e0", "1e20", "1.25e-7".
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` output has an exponent");
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let exp: i64 = exp.parse().expect("`{:e}` exponent is an integer");
    let len = digits.len() as i64;
    let place = exp + 1; // value = 0.DIGITS × 10^place
                         // io_lib_format:insert_decimal/2: fixed notation unless the exponent form is shorter.
    let exp_text = exp.to_string();
    let exp_cost = exp_text.len() as i64 + 1 + if len == 1 { 2 } else { 1 };
    let with_exp = || {
        let (first, rest) = digits.split_at(1);
        format!(
            "{first}.{}e{exp_text}",
            if rest.is_empty() { "0" } else { rest }
        )
    };
    let body = if place == 0 {
        format!("0.{digits}")
    } else if place < 0 {
        if 2 - place <= exp_cost {
            format!("0.{}{digits}", "0".repeat(-place as usize))
        } else {
            with_exp()
        }
    } else if place >= len {
        if place - len + 2 <= exp_cost {
            format!("{digits}{}.0", "0".repeat((place - len) as usize))
        } else {
            with_exp()
        }
    } else {
        let (int, frac) = digits.split_at(place as usize);
        format!("{int}.{frac}")
    };
    if f.is_sign_negative() {
        format!("-{body}")
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn table(v: serde_json::Value) -> Table {
        match FieldValue::from_json(&v) {
            FieldValue::Table(t) => t,
            other => panic!("not an object: {other:?}"),
        }
    }

    fn matches(binding: serde_json::Value, headers: serde_json::Value) -> bool {
        headers_match(&table(binding), &table(headers))
    }

    // x-match parsing and validation.

    #[test]
    fn x_match_absent_is_all() {
        assert_eq!(parse_x_match(&table(json!({"a": 1}))), Ok(XMatch::All));
        assert_eq!(parse_x_match(&Table::new()), Ok(XMatch::All));
    }

    #[test]
    fn x_match_accepts_the_four_modes() {
        for mode in [XMatch::All, XMatch::Any, XMatch::AllWithX, XMatch::AnyWithX] {
            assert_eq!(
                parse_x_match(&table(json!({"x-match": mode.as_str()}))),
                Ok(mode)
            );
        }
    }

    #[test]
    fn x_match_other_string_is_an_error() {
        assert_eq!(
            parse_x_match(&table(json!({"x-match": "bogus"}))),
            Err("Invalid x-match field value <<\"bogus\">>; expected all, any, all-with-x, or any-with-x".to_string())
        );
        // Case-sensitive, no trimming.
        assert!(parse_x_match(&table(json!({"x-match": "ALL"}))).is_err());
        assert!(parse_x_match(&table(json!({"x-match": " any"}))).is_err());
        assert_eq!(
            parse_x_match(&table(json!({"x-match": ""}))).unwrap_err(),
            "Invalid x-match field value <<>>; expected all, any, all-with-x, or any-with-x"
        );
    }

    #[test]
    fn x_match_non_string_is_an_error() {
        let err =
            |v: serde_json::Value| parse_x_match(&table(json!({ "x-match": v }))).unwrap_err();
        assert_eq!(
            err(json!(23)),
            "Invalid x-match field type signedint (value 23); expected longstr"
        );
        assert_eq!(
            err(json!(true)),
            "Invalid x-match field type bool (value true); expected longstr"
        );
        assert_eq!(
            err(json!(null)),
            "Invalid x-match field type void (value undefined); expected longstr"
        );
        assert_eq!(
            err(json!(1.5)),
            "Invalid x-match field type double (value 1.5); expected longstr"
        );
        assert_eq!(
            err(json!(["all"])),
            "Invalid x-match field type array (value [{longstr,<<\"all\">>}]); expected longstr"
        );
        assert_eq!(
            err(json!({"k": 1})),
            "Invalid x-match field type table (value [{<<\"k\">>,signedint,1}]); expected longstr"
        );
    }

    #[test]
    fn erlang_term_printing() {
        assert_eq!(erlang_binary("a\"b\\c\n"), "<<\"a\\\"b\\\\c\\n\">>");
        assert_eq!(erlang_binary("é"), "<<\"é\">>");
        assert_eq!(erlang_binary("€"), "<<226,130,172>>");
        assert_eq!(erlang_binary("\u{1}"), "<<1>>");
        for (f, text) in [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (-2.5, "-2.5"),
            (100.0, "100.0"),
            (0.5, "0.5"),
            (0.001, "0.001"),
            (123.456, "123.456"),
            (10000.0, "1.0e4"),
            (0.0001, "0.0001"),
            (0.00001, "1.0e-5"),
            (1.0e20, "1.0e20"),
            (1.5e-10, "1.5e-10"),
        ] {
            assert_eq!(erlang_float(f), text, "{f}");
        }
    }

    // Matching rules.

    #[test]
    fn x_match_is_always_skipped() {
        // Were `x-match` compared, the message would need an `x-match` header.
        assert!(matches(json!({"x-match": "all-with-x"}), json!({})));
        assert!(!matches(
            json!({"x-match": "any-with-x"}),
            json!({"x-match": "any-with-x"})
        ));
    }

    #[test]
    fn all_skips_x_args() {
        assert!(matches(
            json!({"x-match": "all", "x-foo": 1, "a": 1}),
            json!({"a": 1})
        ));
        assert!(matches(
            json!({"a": 1, "x-foo": 1}),
            json!({"a": 1, "x-foo": 2})
        ));
    }

    #[test]
    fn any_skips_x_args() {
        assert!(!matches(
            json!({"x-match": "any", "x-foo": 1}),
            json!({"x-foo": 1})
        ));
        assert!(matches(
            json!({"x-match": "any", "x-foo": 1, "a": 1}),
            json!({"a": 1})
        ));
    }

    #[test]
    fn x_prefix_is_case_sensitive() {
        assert!(!matches(json!({"X-foo": 1}), json!({})));
        assert!(matches(json!({"X-foo": 1}), json!({"X-foo": 1})));
    }

    #[test]
    fn all_with_x_compares_x_args() {
        let binding = json!({"x-match": "all-with-x", "x-foo": "bar", "a": 1});
        assert!(matches(binding.clone(), json!({"x-foo": "bar", "a": 1})));
        assert!(!matches(binding.clone(), json!({"a": 1})));
        assert!(!matches(binding, json!({"x-foo": "baz", "a": 1})));
    }

    #[test]
    fn any_with_x_compares_x_args() {
        let binding = json!({"x-match": "any-with-x", "x-foo": "bar", "a": 1});
        assert!(matches(binding.clone(), json!({"x-foo": "bar"})));
        assert!(matches(binding.clone(), json!({"a": 1})));
        assert!(!matches(binding, json!({"x-foo": "baz", "a": 2})));
    }

    #[test]
    fn void_arg_means_header_present() {
        assert!(matches(json!({"a": null}), json!({"a": "anything"})));
        assert!(matches(json!({"a": null}), json!({"a": null})));
        assert!(matches(json!({"a": null}), json!({"a": {"nested": [1]}})));
        assert!(!matches(json!({"a": null}), json!({"b": 1})));
        assert!(matches(
            json!({"x-match": "any", "a": null, "b": 1}),
            json!({"a": 0})
        ));
    }

    #[test]
    fn void_header_only_matches_void_arg() {
        assert!(!matches(json!({"a": 0}), json!({"a": null})));
        assert!(!matches(json!({"a": ""}), json!({"a": null})));
        assert!(!matches(json!({"a": false}), json!({"a": null})));
    }

    #[test]
    fn missing_header_does_not_match() {
        assert!(!matches(json!({"a": 1}), json!({})));
        assert!(!matches(json!({"x-match": "any", "a": 1}), json!({"b": 1})));
    }

    #[test]
    fn equal_value_matches() {
        assert!(matches(
            json!({"a": "x", "b": 2, "c": true, "d": 1.5}),
            json!({"d": 1.5, "c": true, "b": 2, "a": "x"})
        ));
        assert!(!matches(json!({"a": "x"}), json!({"a": "X"})));
        assert!(!matches(json!({"c": true}), json!({"c": false})));
    }

    #[test]
    fn int_equals_float_of_the_same_value() {
        assert!(matches(json!({"a": 1}), json!({"a": 1.0})));
        assert!(matches(json!({"a": 1.0}), json!({"a": 1})));
        assert!(matches(json!({"a": -3}), json!({"a": -3.0})));
        assert!(!matches(json!({"a": 1}), json!({"a": 1.5})));
        // Exact, not via a lossy conversion to double.
        assert!(!matches(
            json!({"a": 9_007_199_254_740_993_i64}),
            json!({"a": 9_007_199_254_740_992.0})
        ));
        assert!(matches(
            json!({"a": 9_007_199_254_740_992_i64}),
            json!({"a": 9_007_199_254_740_992.0})
        ));
        assert!(!matches(
            json!({"a": i64::MAX}),
            json!({"a": 9_223_372_036_854_775_808.0})
        ));
    }

    #[test]
    fn different_kinds_never_equal() {
        assert!(!matches(json!({"a": "1"}), json!({"a": 1})));
        assert!(!matches(json!({"a": 1}), json!({"a": "1"})));
        assert!(!matches(json!({"a": true}), json!({"a": 1})));
        assert!(!matches(json!({"a": "true"}), json!({"a": true})));
        assert!(!matches(json!({"a": [1]}), json!({"a": 1})));
        assert!(!matches(json!({"a": {}}), json!({"a": []})));
    }

    #[test]
    fn arrays_compare_element_by_element_with_types() {
        assert!(matches(
            json!({"a": [1, "x", [true]]}),
            json!({"a": [1, "x", [true]]})
        ));
        assert!(!matches(json!({"a": [1, 2]}), json!({"a": [2, 1]})));
        assert!(!matches(json!({"a": [1]}), json!({"a": [1, 1]})));
        assert!(matches(json!({"a": []}), json!({"a": []})));
        // Elements are `{Type, Value}` tuples: `{long,1} == {double,1.0}` is false.
        assert!(!matches(json!({"a": [1]}), json!({"a": [1.0]})));
    }

    #[test]
    fn tables_compare_entry_by_entry_in_order_with_types() {
        assert!(matches(
            json!({"a": {"k": 1, "l": "v"}}),
            json!({"a": {"k": 1, "l": "v"}})
        ));
        assert!(!matches(json!({"a": {"k": 1}}), json!({"a": {"k": 2}})));
        assert!(!matches(json!({"a": {"k": 1}}), json!({"a": {"j": 1}})));
        // Nested tables are not sorted by RabbitMQ, so order matters.
        assert!(!matches(
            json!({"a": {"k": 1, "l": 2}}),
            json!({"a": {"l": 2, "k": 1}})
        ));
        // Entries are `{Name, Type, Value}` tuples.
        assert!(!matches(json!({"a": {"k": 1}}), json!({"a": {"k": 1.0}})));
    }

    #[test]
    fn all_needs_every_arg() {
        let binding = json!({"a": 1, "b": 2});
        assert!(matches(binding.clone(), json!({"a": 1, "b": 2, "c": 3})));
        assert!(!matches(binding.clone(), json!({"a": 1, "b": 3})));
        assert!(!matches(binding, json!({"a": 1})));
    }

    #[test]
    fn any_needs_one_arg() {
        let binding = json!({"x-match": "any", "a": 1, "b": 2});
        assert!(matches(binding.clone(), json!({"a": 1, "b": 3})));
        assert!(matches(binding.clone(), json!({"b": 2})));
        assert!(!matches(binding, json!({"a": 2, "c": 1})));
    }

    #[test]
    fn all_without_compared_args_matches_everything() {
        assert!(matches(json!({}), json!({})));
        assert!(matches(json!({"x-match": "all"}), json!({"a": 1})));
        assert!(matches(json!({"x-match": "all", "x-foo": 1}), json!({})));
        assert!(matches(
            json!({"x-match": "all-with-x"}),
            json!({"x-foo": 1})
        ));
    }

    #[test]
    fn any_without_compared_args_matches_nothing() {
        assert!(!matches(json!({"x-match": "any"}), json!({})));
        assert!(!matches(json!({"x-match": "any"}), json!({"a": 1})));
        assert!(!matches(
            json!({"x-match": "any", "x-foo": 1}),
            json!({"x-foo": 1})
        ));
        assert!(!matches(json!({"x-match": "any-with-x"}), json!({"a": 1})));
    }

    #[test]
    fn message_x_headers_are_considered() {
        assert!(matches(
            json!({"x-match": "all-with-x", "x-delay": 5000}),
            json!({"x-delay": 5000})
        ));
        assert!(matches(
            json!({"x-match": "any-with-x", "x-death": null}),
            json!({"x-death": []})
        ));
    }

    #[test]
    fn invalid_x_match_routes_as_all() {
        assert!(matches(
            json!({"x-match": "bogus", "a": 1}),
            json!({"a": 1})
        ));
        assert!(!matches(
            json!({"x-match": 7, "a": 1, "b": 2}),
            json!({"a": 1})
        ));
    }
}
