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

/// Spring Boot is not run here (its jars cannot be downloaded): these golden files are
/// its check. Plain DLX + TTL, the plugin, per-message TTL, an order lab.
const SPRING_PRESETS: &[&str] = &[
    "order-timeout-queue-ttl",
    "fix-delayed-plugin",
    "head-of-line-blocking",
    "orders-naive-closes-paid",
    "qq-delivery-time-4-4",
];

#[test]
fn spring_exports_match_the_golden_files() {
    let mut bad = Vec::new();
    for name in SPRING_PRESETS {
        let e = export(
            &preset(name),
            &Options {
                language: Language::Spring,
                comments: CommentLang::En,
            },
        );
        bad.extend(check(
            &root().join("tests/golden").join(name).join("spring"),
            &e.files,
        ));
    }
    let e = export(
        &preset("fix-delayed-plugin"),
        &Options {
            language: Language::Spring,
            comments: CommentLang::Zh,
        },
    );
    bad.extend(check(
        &root().join("tests/golden/fix-delayed-plugin/spring-zh"),
        &e.files,
    ));
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// x-opt-delivery-time (issue 27): a 64-bit long in every language, the program's start
/// plus the scenario's time (scaled like the schedule); a timestamp stays a timestamp;
/// the comment says where it is ignored, the header what it was checked against.
#[test]
fn delivery_time_is_a_long_from_the_programs_start_in_every_language() {
    let mut s = preset("qq-delivery-time-4-4");
    let with_timestamp = s.actions[0].clone();
    if let delaylab_engine::scenario::ActionKind::Publish(p) = &mut s.actions[2].kind {
        p.properties.headers.insert(
            "x-opt-delivery-time",
            delaylab_engine::value::FieldValue::Timestamp(10),
        );
    }
    assert!(matches!(
        with_timestamp.kind,
        delaylab_engine::scenario::ActionKind::Publish(_)
    ));
    let expect: &[(Language, &str, &str)] = &[
        (
            Language::Python,
            "\"x-opt-delivery-time\": at_ms(1800000),",
            "at_s(10)",
        ),
        (
            Language::Java,
            "\"x-opt-delivery-time\", deliveryTime(1800000L)",
            "deliveryTimeS(10L)",
        ),
        (
            Language::Go,
            "\"x-opt-delivery-time\": deliveryTime(1800000),",
            "deliveryTimeS(10)",
        ),
        (
            Language::Node,
            "\"x-opt-delivery-time\": deliveryTime(1800000),",
            "deliveryTimeS(10)",
        ),
        (
            Language::Rust,
            "AMQPValue::LongLongInt(delivery_time(1800000))",
            "AMQPValue::Timestamp(delivery_time_s(10))",
        ),
        (
            Language::Spring,
            "p.setHeader(\"x-opt-delivery-time\", deliveryTime(1800000L));",
            "deliveryTimeS(10L)",
        ),
    ];
    for (language, long, timestamp) in expect {
        let e = export(
            &s,
            &Options {
                language: *language,
                comments: CommentLang::En,
            },
        );
        let all: String = e.files.iter().map(|f| flat(&f.contents)).collect();
        assert!(all.contains(long), "{}: {long}", language.as_str());
        assert!(
            all.contains(timestamp),
            "{}: {timestamp}",
            language.as_str()
        );
        assert!(
            all.contains("Before 4.4, and on classic queues and streams, it is an ordinary header"),
            "{}: the lesson",
            language.as_str()
        );
        assert!(
            all.contains("is checked against the rules read in RabbitMQ's source only"),
            "{}: the header says how far it is checked",
            language.as_str()
        );
    }
    let zh = export(
        &s,
        &Options {
            language: Language::Python,
            comments: CommentLang::Zh,
        },
    );
    assert!(flat(&zh.files[0].contents).contains("只对照了从 RabbitMQ 源码读出的规则"));
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
    assert!(
        !faults.left_out.iter().any(|l| l.starts_with("orders:")),
        "Python exports the order lab"
    );
    let go = export(
        &preset("orders-safe-consumer-faults"),
        &Options {
            language: Language::Go,
            comments: CommentLang::En,
        },
    );
    assert!(go
        .left_out
        .iter()
        .any(|l| l.starts_with("orders:") && l.contains("Java and Python")));
}

#[test]
fn every_language_writes_a_program_with_its_run_script() {
    let s = preset("head-of-line-blocking");
    for (name, language) in delaylab_export::LANGUAGES {
        let e = export(
            &s,
            &Options {
                language: *language,
                comments: CommentLang::En,
            },
        );
        assert!(e.files.len() >= 2, "{name}: a program and its run.sh");
        assert!(
            e.files.iter().any(|f| f.path == "run.sh" && f.executable),
            "{name}"
        );
    }
    assert!(
        !Language::Spring.is_run_here(),
        "Spring is checked by golden files only"
    );
    assert!(Language::Rust.is_run_here());
}

#[test]
fn spring_says_it_was_not_run_and_keeps_the_lessons() {
    let e = export(
        &preset("plugin-node-restart"),
        &Options {
            language: Language::Spring,
            comments: CommentLang::En,
        },
    );
    let all: String = e.files.iter().map(|f| flat(&f.contents)).collect();
    assert!(all.contains("NOT RUN"), "the header says it was not run");
    assert!(
        all.contains("archived in January 2026"),
        "the plugin's state"
    );
    assert!(all.contains("new CustomExchange("));
    assert!(all.contains("LEFT OUT: restart_node"));
    assert!(e.left_out.iter().any(|l| l.contains("run contract JSON")));
    assert!(e.left_out.iter().any(|l| l.contains("restart_node")));
    let cfg = e
        .files
        .iter()
        .find(|f| f.path.ends_with("RabbitConfig.java"))
        .expect("config");
    assert!(cfg.contents.contains("AcknowledgeMode.MANUAL"));
    let pom = e.files.iter().find(|f| f.path == "pom.xml").expect("pom");
    assert!(pom.contents.contains("spring-boot-starter-amqp"));
}

/// The order lab as code (Java, Python): a preset and the idempotent export-check case.
#[test]
fn order_lab_exports_match_the_golden_files() {
    let cases = [
        (
            "orders-naive-closes-paid",
            preset("orders-naive-closes-paid"),
        ),
        ("orders-idempotent-safe", case("orders-idempotent-safe")),
    ];
    let mut bad = Vec::new();
    for (name, s) in &cases {
        for language in [Language::Python, Language::Java] {
            let e = export(
                s,
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
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn case(name: &str) -> Scenario {
    let p = root().join("tests/cases").join(format!("{name}.json"));
    load_str(&std::fs::read_to_string(&p).expect("case")).expect("loads")
}

#[test]
fn order_lab_policy_is_code_against_a_table() {
    let s = case("orders-idempotent-safe");
    let main = |language| {
        export(
            &s,
            &Options {
                language,
                comments: CommentLang::En,
            },
        )
    };
    let py = main(Language::Python);
    assert!(
        !py.left_out.iter().any(|l| l.starts_with("orders:")),
        "{:?}",
        py.left_out
    );
    let py = &py.files[0].contents;
    assert!(py.contains("sqlite3.connect"));
    assert!(
        py.contains("UPDATE orders SET status = 'CLOSED' WHERE id = ? AND status = 'WAITING_PAY'")
    );
    assert!(py.contains("INSERT INTO handled (key) VALUES (?)"));
    assert!(py.contains("POLICY = \"idempotent\""));
    assert!(flat(py).contains("Idempotency record"), "the lesson");
    // The users are the simulation's: 12 orders created, as in the timeline.
    assert_eq!(py.matches(", \"create\", ").count(), 12);
    let java = main(Language::Java);
    let java = &java.files[0].contents;
    assert!(java.contains("IN MEMORY: no JDBC driver"));
    assert!(java.contains("static final String POLICY = \"idempotent\";"));
    assert!(java.contains("report.put(\"orders\", lab.report(END_MS));"));
    let go = main(Language::Go);
    assert!(go.left_out.iter().any(|l| l.starts_with("orders:")));
}
