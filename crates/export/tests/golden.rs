//! Golden files: the export of a few presets in each language, byte for byte
//! (tests/golden/PRESET/LANG/FILE). `DELAYLAB_BLESS=1 cargo test -p delaylab-export
//! --test golden` rewrites them after an intended change; review the diff.

use std::path::{Path, PathBuf};

use delaylab_engine::scenario::{load_str, Scenario};
use delaylab_export::{export, CommentLang, Language, Options};

const PRESETS: &[&str] = &[
    "head-of-line-blocking",
    "retry-loop-x-death",
    "bad-expiration-values",
];
const LANGS: &[Language] = &[
    Language::Python,
    Language::Java,
    Language::Go,
    Language::Node,
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn preset(name: &str) -> Scenario {
    let p = root().join("../../scenarios").join(format!("{name}.json"));
    load_str(&std::fs::read_to_string(&p).expect("preset")).expect("loads")
}

fn check(dir: &Path, files: &[delaylab_export::File]) -> Vec<String> {
    let bless = std::env::var("DELAYLAB_BLESS").is_ok();
    let mut bad = Vec::new();
    for f in files {
        let p = dir.join(&f.path);
        if bless {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, &f.contents).unwrap();
            continue;
        }
        match std::fs::read_to_string(&p) {
            Ok(g) if g == f.contents => {}
            Ok(_) => bad.push(format!("{} differs", p.display())),
            Err(_) => bad.push(format!(
                "{} missing (DELAYLAB_BLESS=1 writes it)",
                p.display()
            )),
        }
    }
    bad
}

#[test]
fn exports_match_the_golden_files() {
    let mut bad = Vec::new();
    for name in PRESETS {
        let s = preset(name);
        for &language in LANGS {
            let e = export(
                &s,
                &Options {
                    language,
                    comments: CommentLang::En,
                },
            );
            let dir = root()
                .join("tests/golden")
                .join(name)
                .join(language.as_str());
            bad.extend(check(&dir, &e.files));
        }
    }
    let s = preset("head-of-line-blocking");
    let e = export(
        &s,
        &Options {
            language: Language::Java,
            comments: CommentLang::Zh,
        },
    );
    bad.extend(check(
        &root().join("tests/golden/head-of-line-blocking/java-zh"),
        &e.files,
    ));
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn arguments_keep_their_types() {
    let s = preset("retry-loop-x-death");
    let py = &export(
        &s,
        &Options {
            language: Language::Python,
            comments: CommentLang::En,
        },
    )
    .files[0]
        .contents;
    assert!(
        py.contains("\"x-message-ttl\": ms(5000),"),
        "TTL is an integer, scaled"
    );
    let java = &export(
        &s,
        &Options {
            language: Language::Java,
            comments: CommentLang::En,
        },
    )
    .files[0]
        .contents;
    assert!(java.contains("\"x-message-ttl\", ms(5000)"));
    let go = &export(
        &s,
        &Options {
            language: Language::Go,
            comments: CommentLang::En,
        },
    )
    .files[0]
        .contents;
    assert!(
        go.contains("\"x-message-ttl\": msInt32(5000),"),
        "an int32 is a signedint"
    );
    let hol = preset("head-of-line-blocking");
    let py = &export(
        &hol,
        &Options {
            language: Language::Python,
            comments: CommentLang::En,
        },
    )
    .files[0]
        .contents;
    assert!(
        py.contains("expiration=ttl(\"1800000\")"),
        "expiration stays a string"
    );
    let bad = preset("bad-expiration-values");
    let node = &export(
        &bad,
        &Options {
            language: Language::Node,
            comments: CommentLang::En,
        },
    )
    .files[0]
        .contents;
    assert!(
        node.contains("expiration: \"abc\","),
        "a refused value is sent as written"
    );
    assert!(
        node.contains("expiration: ttl(\"+500\", 500),"),
        "an accepted odd one is scaled by its value"
    );
    assert!(
        node.contains("\"x-message-ttl\": \"60000\","),
        "a string TTL stays a string"
    );
}

/// The text with comment markers and line breaks gone (comments are wrapped).
fn flat(text: &str) -> String {
    text.lines()
        .map(|l| l.trim_start().trim_start_matches(['#', '/']).trim())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn what_cannot_be_done_is_listed() {
    let s = preset("plugin-node-restart");
    for &language in LANGS {
        let e = export(
            &s,
            &Options {
                language,
                comments: CommentLang::En,
            },
        );
        assert!(
            e.left_out.iter().any(|l| l.contains("restart_node")),
            "{:?}",
            e.left_out
        );
        let main = flat(&e.files[0].contents);
        assert!(
            main.contains("LEFT OUT: restart_node"),
            "{language:?}: marked where it would happen"
        );
        assert!(
            main.contains("archived in January 2026"),
            "{language:?}: the plugin's state"
        );
    }
    let go = export(
        &preset("bad-expiration-values"),
        &Options {
            language: Language::Go,
            comments: CommentLang::En,
        },
    );
    assert!(
        go.left_out.iter().any(|l| l.contains("empty expiration")),
        "{:?}",
        go.left_out
    );
    let faults = export(
        &preset("orders-safe-consumer-faults"),
        &Options {
            language: Language::Python,
            comments: CommentLang::En,
        },
    );
    assert!(faults.left_out.iter().any(|l| l.starts_with("faults[0]")));
    assert!(faults.left_out.iter().any(|l| l.starts_with("orders:")));
}

#[test]
fn unavailable_generators_write_nothing() {
    let s = preset("head-of-line-blocking");
    let language = Language::Spring;
    assert!(!language.is_available());
    assert!(export(
        &s,
        &Options {
            language,
            comments: CommentLang::En
        }
    )
    .files
    .is_empty());
    assert!(
        Language::Rust.is_available(),
        "the Rust generator is written"
    );
}
