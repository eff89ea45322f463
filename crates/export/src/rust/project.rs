//! The cargo project around the program: `Cargo.toml` (dependencies pinned to delaylab's
//! Cargo.lock, not a member of any workspace) and `run.sh` (builds offline, into a target
//! directory several exports may share, then runs).

use crate::plan::Plan;
use crate::syntax::ident;

/// The dependencies and their versions: those of delaylab's Cargo.lock (lapin is the
/// CLI's client), so that an offline build finds them in the registry cache.
pub const DEPENDENCIES: &[(&str, &str, &str)] = &[
    (
        "lapin",
        "4.12.3",
        r#"default-features = false, features = ["tokio"]"#,
    ),
    (
        "tokio",
        "1.54.1",
        r#"features = ["rt", "rt-multi-thread", "macros", "time", "signal", "sync"]"#,
    ),
    (
        "futures-util",
        "0.3.34",
        r#"default-features = false, features = ["std"]"#,
    ),
    ("serde_json", "1.0.154", r#"features = ["preserve_order"]"#),
];

/// The oldest Rust the program builds with (async closures).
const RUST_VERSION: &str = "1.85";

/// The cargo package (and binary) name: `dl-` and the scenario's name in lower case.
pub fn package_name(plan: &Plan) -> String {
    let id = ident(&plan.scenario.name.to_lowercase()).replace('_', "-");
    let id = id.trim_matches('-');
    let mut out = String::from("dl-");
    let mut dash = false;
    for c in id.chars() {
        if c == '-' {
            if !dash {
                out.push(c);
            }
            dash = true;
        } else {
            out.push(c);
            dash = false;
        }
    }
    if out.len() == 3 {
        out.push_str("scenario");
    }
    out
}

pub(super) fn cargo_toml(plan: &Plan) -> String {
    let mut deps = String::new();
    for (name, version, rest) in DEPENDENCIES {
        deps.push_str(&format!(
            "{name} = {{ version = \"={version}\", {rest} }}\n"
        ));
    }
    format!(
        r#"# {title}: exported by delaylab (delaylab export code --lang rust).
[package]
name = "{name}"
version = "0.1.0"
edition = "2021"
rust-version = "{RUST_VERSION}"
publish = false

# A project of its own, not a member of a workspace above this directory.
[workspace]

# The versions delaylab's CLI is built with (its Cargo.lock): `cargo build --offline`
# finds them in ~/.cargo/registry.
[dependencies]
{deps}
# Builds in seconds once the dependencies are compiled: no debug info, and no incremental
# cache (each export is built once).
[profile.dev]
debug = false
incremental = false
"#,
        title = plan.scenario.name.replace('\n', " "),
        name = package_name(plan),
    )
}

pub(super) fn run_sh(plan: &Plan) -> String {
    format!(
        r#"#!/usr/bin/env bash
# {title}: builds the program offline and runs it against a broker; prints the run
# contract JSON.
#   ./run.sh AMQP_URL [TIME_SCALE]
#   ./run.sh --build          (only builds)
# cargo with --offline: the dependencies come from ~/.cargo/registry (there once delaylab
# is built), nothing is downloaded. DELAYLAB_RUST_TARGET_DIR (else CARGO_TARGET_DIR, else
# ./target) may be shared by several exports: lapin and tokio then compile once.
set -euo pipefail
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
USAGE="usage: run.sh AMQP_URL [TIME_SCALE] | run.sh --build"
[ $# -gt 0 ] || {{ echo "$USAGE" >&2; exit 2; }}
export CARGO_TARGET_DIR="${{DELAYLAB_RUST_TARGET_DIR:-${{CARGO_TARGET_DIR:-$HERE/target}}}}"
export CARGO_NET_OFFLINE=true
cd "$HERE"
[ -f Cargo.lock ] || cargo generate-lockfile --offline --quiet
cargo build --offline --locked --quiet
[ "$1" != --build ] || exit 0
export TIME_SCALE="${{2:-${{TIME_SCALE:-1}}}}"
exec "$CARGO_TARGET_DIR/debug/{bin}" "$1"
"#,
        title = plan.scenario.name.replace('\n', " "),
        bin = package_name(plan),
    )
}
