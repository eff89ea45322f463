//! The decoder never panics, whatever it is given: arbitrary strings, strings from the
//! link alphabet, and valid links with bytes changed, cut or added.

mod common;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use delaylab_share::{decode_fragment, encode_fragment, ViewOptions};
use proptest::prelude::*;

fn valid() -> Vec<u8> {
    let s = common::preset("retry-loop-x-death");
    let f = encode_fragment(
        &s,
        &ViewOptions {
            speed: Some(10.0),
            ..Default::default()
        },
    );
    URL_SAFE_NO_PAD.decode(&f[3..]).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_strings(s in ".{0,300}") {
        let _ = decode_fragment(&s);
        let _ = decode_fragment(&format!("v1.{s}"));
    }

    #[test]
    fn link_alphabet(s in "[A-Za-z0-9_-]{0,400}", v in 0u32..4) {
        let _ = decode_fragment(&format!("https://delaylab.example/#v{v}.{s}"));
    }

    #[test]
    fn mutated_valid_links(edits in prop::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..6), cut in any::<usize>()) {
        let mut bytes = valid();
        for (at, b, op) in edits {
            let i = at % (bytes.len() + 1);
            match op {
                0 if i < bytes.len() => bytes[i] ^= b | 1,
                1 => bytes.insert(i, b),
                _ if i < bytes.len() => { bytes.remove(i); }
                _ => {}
            }
        }
        bytes.truncate(cut % (bytes.len() + 1) + bytes.len() / 2);
        let _ = decode_fragment(&format!("v1.{}", URL_SAFE_NO_PAD.encode(&bytes)));
    }
}
