//! The Rust (lapin) export: golden files (tests/golden/PRESET/rust/...), byte for byte,
//! as for the other languages (`DELAYLAB_BLESS=1 cargo test -p delaylab-export --test
//! rust` rewrites them after an intended change; review the diff), what each argument
//! becomes, what is left out, and the pinned dependency versions against the
//! workspace's Cargo.lock (an offline build finds only those). That the programs build
//! and agree with the simulation on a live broker is scripts/export-check.sh's job.

use std::path::{Path, PathBuf};

use delaylab_engine::scenario::{load_str, Scenario};
use delaylab_export::{export, CommentLang, Export, Language, Options};

const PRESETS: &[&str] = &[
    "head-of-line-blocking",
    "retry-loop-x-death",
    "bad-expiration-values",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn preset(name: &str) -> Scenario {
    let p = root().join("../../scenarios").join(format!("{name}.json"));
    load_str(&std::fs::read_to_string(&p).expect("preset")).expect("loads")
}

fn rust(s: &Scenario, comments: CommentLang) -> Export {
    export(
        s,
        &Options {
            language: Language::Rust,
            comments,
        },
    )
}

fn file<'a>(e: &'a Export, path: &str) -> &'a str {
    &e.files
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| {
            panic!(
                "no {path} in {:?}",
                e.files.iter().map(|f| &f.path).collect::<Vec<_>>()
            )
        })
        .contents
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
fn rust_exports_match_the_golden_files() {
    let mut bad = Vec::new();
    for name in PRESETS {
        let e = rust(&preset(name), CommentLang::En);
        bad.extend(check(
            &root().join("tests/golden").join(name).join("rust"),
            &e.files,
        ));
    }
    let zh = rust(&preset("head-of-line-blocking"), CommentLang::Zh);
    bad.extend(check(
        &root().join("tests/golden/head-of-line-blocking/rust-zh"),
        &zh.files,
    ));
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn rust_is_a_cargo_project_with_run_sh() {
    let e = rust(&preset("head-of-line-blocking"), CommentLang::En);
    let paths: Vec<&str> = e.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "src/main.rs",
            "src/runtime.rs",
            "src/runtime/seen.rs",
            "src/runtime/consumers.rs",
            "Cargo.toml",
            "run.sh"
        ],
        "main first (the playground shows it)"
    );
    assert!(e.files.iter().all(|f| f.executable == (f.path == "run.sh")));
    let cargo = file(&e, "Cargo.toml");
    assert!(
        cargo.contains("name = \"dl-head-of-line-blocking\""),
        "{cargo}"
    );
    assert!(
        cargo.contains("\n[workspace]\n"),
        "not a member of delaylab's workspace"
    );
    let run = file(&e, "run.sh");
    assert!(
        run.contains("cargo build --offline --locked"),
        "never downloads"
    );
    assert!(run.contains("cargo generate-lockfile --offline"));
    assert!(
        run.contains("DELAYLAB_RUST_TARGET_DIR"),
        "a shared target dir"
    );
    assert!(
        run.contains("/debug/dl-head-of-line-blocking\""),
        "runs its own binary"
    );
    let main = file(&e, "src/main.rs");
    assert!(main.starts_with(
        "// Head-of-line blocking: exported by delaylab (delaylab export code --lang rust)."
    ));
    assert!(main.contains("mod runtime;"));
    assert!(
        main.contains("const LEFT_OUT: &[&str] = &[];"),
        "nothing left out"
    );
}

#[test]
fn rust_arguments_keep_their_types() {
    let retry = rust(&preset("retry-loop-x-death"), CommentLang::En);
    let main = file(&retry, "src/main.rs");
    assert!(
        main.contains("(\"x-message-ttl\", ms_arg(5000)),"),
        "an integer TTL is a duration, scaled"
    );
    assert!(
        main.contains(
            "outcome: Outcomes::Sequence(&[Outcome::Reject, Outcome::Reject, Outcome::Reject, Outcome::Ack]),"
        ),
        "outcome plans are typed"
    );
    let hol = rust(&preset("head-of-line-blocking"), CommentLang::En);
    let main = file(&hol, "src/main.rs");
    assert!(
        main.contains(".with_expiration(ttl(\"1800000\"))"),
        "expiration stays a string, scaled"
    );
    assert!(main.contains("(\"x-dead-letter-exchange\", name_arg(\"order.dlx.exchange\")),"));
    assert!(main.contains(
        "(\"x-dead-letter-routing-key\", AMQPValue::LongString(\"order.timeout\".into())),"
    ));
    assert!(main.contains("auto_ack: false,") && main.contains("prefetch: 10,"));
    let bad = rust(&preset("bad-expiration-values"), CommentLang::En);
    let main = file(&bad, "src/main.rs");
    assert!(
        main.contains(".with_expiration(\"abc\".into())"),
        "a refused value is sent as written"
    );
    assert!(
        main.contains(".with_expiration(ttl_read_as(\"+500\", 500))"),
        "an accepted odd one is scaled by its value"
    );
    assert!(
        main.contains("(\"x-message-ttl\", AMQPValue::LongString(\"60000\".into())),"),
        "a string TTL stays a string"
    );
    assert!(
        bad.left_out.is_empty(),
        "lapin sends an empty expiration (unlike amqp091-go): {:?}",
        bad.left_out
    );
}

#[test]
fn rust_repeats_fill_in_the_run_number() {
    let s = preset("max-length-drop-head-dlq");
    let main = file(&rust(&s, CommentLang::En), "src/main.rs").to_string();
    assert!(
        main.contains(".replace(\"{n}\", &k.to_string());"),
        "{main}"
    );
    assert!(main.contains("async fn act(run: &mut Run, index: usize, k: u32)"));
    let (i, a) = s
        .actions
        .iter()
        .enumerate()
        .find(|(_, a)| a.repeat.is_some_and(|r| r.count > 1))
        .expect("a repeated action");
    let r = a.repeat.unwrap();
    assert!(main.contains(&format!(
        "Timed {{ index: {i}, at_ms: {}, count: {}, every_ms: {} }},",
        a.at_ms, r.count, r.every_ms
    )));
}

/// The text with comment markers and line breaks gone (comments are wrapped).
fn flat(text: &str) -> String {
    text.lines()
        .map(|l| l.trim_start().trim_start_matches('/').trim())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn rust_lists_what_it_cannot_do() {
    let e = rust(&preset("plugin-node-restart"), CommentLang::En);
    assert!(
        e.left_out.iter().any(|l| l.contains("restart_node")),
        "{:?}",
        e.left_out
    );
    let main = file(&e, "src/main.rs");
    let text = flat(main);
    assert!(
        text.contains("LEFT OUT: restart_node"),
        "marked where it would happen"
    );
    assert!(
        text.contains("archived in January 2026"),
        "the plugin's state"
    );
    assert!(main.contains("ExchangeKind::Custom(\"x-delayed-message\".into())"));
    assert!(
        main.contains("const LEFT_OUT: &[&str] = &[\"actions["),
        "printed on stderr by the program too"
    );
    let faults = rust(&preset("orders-safe-consumer-faults"), CommentLang::En);
    assert!(faults.left_out.iter().any(|l| l.starts_with("faults[0]")));
    assert!(faults.left_out.iter().any(|l| l.starts_with("orders:")));
}

/// `name = "x"\nversion = "v"` pairs of a Cargo.lock.
fn locked(lock: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"').to_string());
        } else if let (Some(v), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            out.push((n, v.trim_matches('"').to_string()));
        }
    }
    out
}

#[test]
fn rust_dependencies_are_the_workspace_lock_versions() {
    let lock = std::fs::read_to_string(root().join("../../Cargo.lock")).expect("Cargo.lock");
    let versions = locked(&lock);
    let cargo = rust(&preset("head-of-line-blocking"), CommentLang::En)
        .files
        .into_iter()
        .find(|f| f.path == "Cargo.toml")
        .unwrap()
        .contents;
    for (name, version, _) in delaylab_export::rust::DEPENDENCIES {
        assert!(
            versions.iter().any(|(n, v)| n == name && v == version),
            "{name} {version} is not in Cargo.lock (an offline build would not find it): update rust::DEPENDENCIES"
        );
        assert!(cargo.contains(&format!("{name} = {{ version = \"={version}\"")));
    }
}

#[test]
fn rust_package_names_are_valid() {
    let mut s = preset("head-of-line-blocking");
    s.name = "订单 -- timeout!".into();
    let e = rust(&s, CommentLang::En);
    let cargo = file(&e, "Cargo.toml");
    let name = cargo
        .lines()
        .find_map(|l| l.strip_prefix("name = "))
        .unwrap()
        .trim_matches('"');
    assert!(name.starts_with("dl-"));
    assert!(
        name.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
        "{name}"
    );
    assert!(!name.contains("--") && !name.ends_with('-'), "{name}");
}
