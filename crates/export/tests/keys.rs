//! Keys that name a queue are written as names (`n("q")`, prefixed at run time) in every
//! generator, by the engine's one rule (`scenario::rename`, through `plan.names`), so
//! the programs route live as `delaylab replay` does: x05 (a DLX binding key and a
//! publish key on a named exchange that name queues) and x03 (a topic pattern `#.vip`
//! that matches the queue name `vip` gets one more literal binding `n("vip")`).

use std::path::Path;

use delaylab_engine::scenario::{load_str, Scenario};
use delaylab_export::{export, CommentLang, Language, Options};

fn case(name: &str) -> Scenario {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance")
        .join(format!("{name}.json"));
    load_str(&std::fs::read_to_string(&p).expect("case")).expect("loads")
}

/// The program file of `language`'s export (the first file that is not `run.sh`).
fn program(s: &Scenario, language: Language) -> String {
    let e = export(
        s,
        &Options {
            language,
            comments: CommentLang::En,
        },
    );
    e.files
        .into_iter()
        .find(|f| !f.executable)
        .expect("a program file")
        .contents
}

fn expect(s: &Scenario, language: Language, wanted: &[&str], unwanted: &[&str]) {
    let text = program(s, language);
    for w in wanted {
        assert!(
            text.contains(w),
            "{}: expected `{w}` in the program",
            language.as_str()
        );
    }
    for u in unwanted {
        assert!(
            !text.contains(u),
            "{}: did not expect `{u}` in the program",
            language.as_str()
        );
    }
}

#[test]
fn x05_keys_naming_queues_are_names_on_named_exchanges() {
    let s = case("x05-queue-name-keys");
    expect(
        &s,
        Language::Python,
        &[
            r#"ch.queue_bind(n("parked"), n("dlx"), routing_key=n("work"), arguments={})"#,
            r#"ch.queue_bind(n("wait"), n("orders"), routing_key=n("done"), arguments={})"#,
            r#"run.publish(n(""), n("work"), "A""#,
            r#"run.publish(n("orders"), n("done"), "B""#,
        ],
        &[r#"routing_key="work""#, r#"routing_key="done""#],
    );
    expect(
        &s,
        Language::Java,
        &[
            r#"ch.queueBind(n("parked"), n("dlx"), n("work"), table())"#,
            r#"ch.queueBind(n("wait"), n("orders"), n("done"), table())"#,
            r#"run.publish(n("orders"), n("done"), "B""#,
        ],
        &[r#"n("dlx"), "work""#],
    );
    expect(
        &s,
        Language::Go,
        &[
            r#"ch.QueueBind(n("parked"), n("work"), n("dlx"), false, nil)"#,
            r#"ch.QueueBind(n("wait"), n("done"), n("orders"), false, nil)"#,
            r#"run.Publish(n("orders"), n("done"), "B""#,
        ],
        &[r#"n("parked"), "work""#],
    );
    expect(
        &s,
        Language::Node,
        &[
            r#"ch.bindQueue(n("parked"), n("dlx"), n("work"), {})"#,
            r#"ch.bindQueue(n("wait"), n("orders"), n("done"), {})"#,
            r#"run.publish(n("orders"), n("done"), "B""#,
        ],
        &[r#"n("dlx"), "work""#],
    );
}

#[test]
fn x03_topic_pattern_keeps_its_key_and_adds_the_renamed_queue_name() {
    let s = case("x03-topic-headers-e2e-routing");
    expect(
        &s,
        Language::Python,
        &[
            r##"(ch.queue_bind(n("vip"), n("t"), routing_key="#.vip", arguments={}), ch.queue_bind(n("vip"), n("t"), routing_key=n("vip"), arguments={}),)"##,
            r#"ch.queue_bind(n("orders"), n("t"), routing_key="order.*", arguments={}))"#,
            r#"run.publish(n("t"), n("vip"), "m3""#,
            r#"run.publish(n("t"), "order.created", "m1""#,
        ],
        &[],
    );
    expect(
        &s,
        Language::Java,
        &[
            r##"run.step(ch -> { ch.queueBind(n("vip"), n("t"), "#.vip", table()); return ch.queueBind(n("vip"), n("t"), n("vip"), table()); });"##,
        ],
        &[],
    );
    expect(
        &s,
        Language::Go,
        &[
            "if err := ch.QueueBind(n(\"vip\"), \"#.vip\", n(\"t\"), false, nil); err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn ch.QueueBind(n(\"vip\"), n(\"vip\"), n(\"t\"), false, nil)",
        ],
        &[],
    );
    expect(
        &s,
        Language::Node,
        &[
            r##"ch.bindQueue(n("vip"), n("t"), "#.vip", {}).then(() => ch.bindQueue(n("vip"), n("t"), n("vip"), {}))"##,
        ],
        &[],
    );
    expect(
        &s,
        Language::Rust,
        &[
            "n(\"vip\"),\n            n(\"t\"),\n            \"#.vip\".into(),",
            ".await?;\n        ch.queue_bind(\n            n(\"vip\"),\n            n(\"t\"),\n            n(\"vip\"),",
        ],
        &[],
    );
}

#[test]
fn x05_rust_keys_naming_queues_are_names() {
    let s = case("x05-queue-name-keys");
    expect(
        &s,
        Language::Rust,
        &[
            "n(\"parked\"),\n            n(\"dlx\"),\n            n(\"work\"),",
            "n(\"wait\"),\n            n(\"orders\"),\n            n(\"done\"),",
            r#"run.publish(n(""), n("work"), "A""#,
            r#"run.publish(n("orders"), n("done"), "B""#,
        ],
        &[r#""work".into()"#, r#""done".into()"#],
    );
}
