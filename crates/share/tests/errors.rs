//! Every kind of bad link gets its own error, with a message that says what is wrong.

mod common;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use delaylab_share::{
    decode_fragment, encode_fragment, looks_like_link, LinkError, ViewOptions, MAX_FRAGMENT_CHARS,
    MAX_INFLATED_BYTES,
};

fn good() -> String {
    encode_fragment(
        &common::preset("head-of-line-blocking"),
        &ViewOptions::default(),
    )
}

/// A v1 fragment around hand-made bytes: dictionary 0, the payload's checksum.
fn fragment(payload: &[u8]) -> String {
    let z = miniz_oxide::deflate::compress_to_vec(payload, 10);
    let mut bytes = vec![0u8];
    bytes.extend_from_slice(&adler2::adler32_slice(payload).to_be_bytes());
    bytes.extend_from_slice(&z);
    format!("v1.{}", URL_SAFE_NO_PAD.encode(bytes))
}

fn err(text: &str) -> LinkError {
    match decode_fragment(text) {
        Ok(_) => panic!("{text} decoded"),
        Err(e) => e,
    }
}

#[test]
fn not_a_link() {
    for text in [
        "",
        "#",
        "head-of-line-blocking",
        "https://delaylab.example/",
        "v.abc",
        "vx.abc",
        "v0.abc",
        "1.abc",
    ] {
        assert_eq!(err(text), LinkError::NotALink, "{text:?}");
    }
    assert!(err("hello")
        .to_string()
        .contains("should start with \"v1.\""));
    assert!(!looks_like_link("head-of-line-blocking"));
    assert!(!looks_like_link("#main"));
    assert!(looks_like_link("#v1."));
    assert!(looks_like_link("https://x/#v9.abc"));
}

#[test]
fn unknown_version() {
    let text = good().replacen("v1.", "v2.", 1);
    assert_eq!(err(&text), LinkError::UnknownVersion(2));
    assert!(
        err(&text).to_string().contains("version 2"),
        "{}",
        err(&text)
    );
    assert_eq!(
        err("v99999999999999.abc"),
        LinkError::UnknownVersion(u32::MAX)
    );
}

#[test]
fn too_long_is_refused_before_decoding() {
    let text = format!("v1.{}", "A".repeat(MAX_FRAGMENT_CHARS));
    assert_eq!(
        err(&text),
        LinkError::TooLong {
            chars: MAX_FRAGMENT_CHARS + 3,
            limit: MAX_FRAGMENT_CHARS
        }
    );
}

#[test]
fn bad_base64() {
    let mut text = good();
    text.insert(10, '%');
    let e = err(&text);
    assert!(matches!(e, LinkError::BadBase64(_)), "{e:?}");
    assert!(e.to_string().contains("'%'"), "{e}");
    // One character too many or too few for base64.
    assert!(matches!(
        err(&format!("{}A", good())),
        LinkError::BadBase64(_) | LinkError::Tampered
    ));
}

#[test]
fn truncated() {
    let text = good();
    assert_eq!(err("v1."), LinkError::Truncated);
    assert_eq!(err("v1.AAAA"), LinkError::Truncated);
    // Cut at every length that is still valid base64: always an error, never a panic,
    // and mostly "cut short".
    let mut cut_short = 0;
    for n in 4..text.len() {
        match decode_fragment(&text[..n]) {
            Ok(_) => panic!("a cut link decoded at {n}"),
            Err(LinkError::Truncated) => cut_short += 1,
            Err(e) => assert!(matches!(e, LinkError::BadBase64(_)), "{n}: {e:?}"),
        }
    }
    assert!(
        cut_short >= (text.len() - 4) * 2 / 3,
        "{cut_short} of {}",
        text.len() - 4
    );
    assert!(LinkError::Truncated.to_string().contains("cut short"));
}

#[test]
fn tampered() {
    // Change one byte of the checksum: the content decodes but does not match.
    let text = good();
    let mut bytes = URL_SAFE_NO_PAD.decode(&text[3..]).unwrap();
    bytes[2] ^= 0x40;
    let changed = format!("v1.{}", URL_SAFE_NO_PAD.encode(&bytes));
    assert_eq!(err(&changed), LinkError::Tampered);
    // Bytes after the end of the compressed data.
    let mut longer = URL_SAFE_NO_PAD.decode(&text[3..]).unwrap();
    longer.extend_from_slice(b"xyz");
    assert_eq!(
        err(&format!("v1.{}", URL_SAFE_NO_PAD.encode(&longer))),
        LinkError::Tampered
    );
    // Every single-character change is caught (as one error or another), or changes
    // nothing of the content.
    let original = decode_fragment(&text).unwrap();
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for i in 3..text.len() {
        for c in alphabet.chars().step_by(7) {
            let mut t = text.clone().into_bytes();
            if t[i] == c as u8 {
                continue;
            }
            t[i] = c as u8;
            let t = String::from_utf8(t).unwrap();
            // The last character carries spare bits: some changes leave the bytes alone.
            if URL_SAFE_NO_PAD.decode(&t[3..]).ok() == URL_SAFE_NO_PAD.decode(&text[3..]).ok() {
                continue;
            }
            // A change that still decodes must give the same scenario: deflate has bits
            // that mean nothing (spare bits after the end marker; with some contents a
            // dynamic block's code for a symbol it never uses), and the checksum covers
            // the content, so those decode, to the very same content.
            if let Ok(other) = decode_fragment(&t) {
                assert_eq!(
                    other, original,
                    "changed at {i} to {c}: decoded to something else"
                );
            }
        }
    }
}

#[test]
fn unknown_dictionary() {
    let mut bytes = URL_SAFE_NO_PAD.decode(&good()[3..]).unwrap();
    bytes[0] = 200;
    let e = err(&format!("v1.{}", URL_SAFE_NO_PAD.encode(&bytes)));
    assert_eq!(e, LinkError::UnknownDictionary(200));
}

#[test]
fn bad_deflate() {
    let mut bytes = vec![0u8, 0, 0, 0, 1];
    bytes.extend_from_slice(&[0xff, 0xff, 0xff]);
    assert_eq!(
        err(&format!("v1.{}", URL_SAFE_NO_PAD.encode(&bytes))),
        LinkError::BadDeflate
    );
}

#[test]
fn too_large_stops_at_the_limit() {
    // A zip bomb: 4 MB of spaces in a few kilobytes.
    let payload = vec![b' '; 4 * MAX_INFLATED_BYTES];
    let text = fragment(&payload);
    assert!(text.len() < 10_000, "{}", text.len());
    assert_eq!(
        err(&text),
        LinkError::TooLarge {
            limit: MAX_INFLATED_BYTES
        }
    );
}

#[test]
fn bad_payload() {
    let e = err(&fragment(b"{not json"));
    assert!(
        matches!(&e, LinkError::BadPayload(m) if m.starts_with("invalid JSON")),
        "{e:?}"
    );
    assert!(matches!(err(&fragment(b"[1,2]")), LinkError::BadPayload(_)));
    assert!(
        matches!(err(&fragment(b"{\"view\":{}}")), LinkError::BadPayload(m) if m.contains("no scenario"))
    );
    assert!(
        matches!(err(&fragment(b"{\"scenario\":{},\"x\":1}")), LinkError::BadPayload(m) if m.contains("\"x\""))
    );
    assert!(matches!(
        err(&fragment(&[0xff, 0xfe])),
        LinkError::BadPayload(_)
    ));
}

#[test]
fn invalid_scenario_names_the_json_path() {
    let payload = br#"{"scenario":{"version":1,"name":"x","topology":{"exchanges":[],"queues":[],"bindings":[]},"consumers":[],"actions":[{"at":"0s","publish":{"exchange":"","routing_key":"q","body":"b","properties":{"expiration":7}}}]}}"#;
    let e = err(&fragment(payload));
    let LinkError::InvalidScenario(load) = &e else {
        panic!("{e:?}")
    };
    assert_eq!(load.path, "actions[0].publish.properties.expiration");
    assert!(
        e.to_string().starts_with(
            "the link's scenario is invalid: actions[0].publish.properties.expiration: "
        ),
        "{e}"
    );
    // The same as a file: a newer scenario format is refused by the loader.
    let newer = br#"{"scenario":{"version":99,"name":"x"}}"#;
    assert!(matches!(err(&fragment(newer)), LinkError::InvalidScenario(l) if l.path == "version"));
}

#[test]
fn invalid_view_names_the_option() {
    let s = r#""scenario":{"version":1,"name":"x","topology":{"exchanges":[],"queues":[],"bindings":[]},"consumers":[],"actions":[]}"#;
    for (view, path) in [
        (r#"{"speed":-1}"#, "view.speed"),
        (r#"{"speed":"fast"}"#, "view.speed"),
        (r#"{"lang":"fr"}"#, "view.lang"),
        (r#"{"read_only":1}"#, "view.read_only"),
        (r#"{"compare":[1]}"#, "view.compare[0]"),
        (r#"{"start_ms":-5}"#, "view.start_ms"),
        (r#"{"colour":"red"}"#, "view.colour"),
        (r#"[]"#, "view"),
    ] {
        let payload = format!("{{\"view\":{view},{s}}}");
        match err(&fragment(payload.as_bytes())) {
            LinkError::InvalidView { path: p, .. } => assert_eq!(p, path, "{view}"),
            e => panic!("{view}: {e:?}"),
        }
    }
}

#[test]
fn every_error_is_one_sentence() {
    let errors = [
        LinkError::NotALink,
        LinkError::UnknownVersion(3),
        LinkError::TooLong { chars: 5, limit: 4 },
        LinkError::BadBase64("x".into()),
        LinkError::Truncated,
        LinkError::UnknownDictionary(9),
        LinkError::BadDeflate,
        LinkError::Tampered,
        LinkError::TooLarge { limit: 1 },
        LinkError::BadPayload("x".into()),
        LinkError::InvalidView {
            path: "view.x".into(),
            message: "y".into(),
        },
    ];
    for e in errors {
        let text = e.to_string();
        assert!(!text.contains('\n') && text.len() > 20, "{text}");
    }
}
