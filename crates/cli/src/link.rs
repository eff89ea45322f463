//! `delaylab link SCENARIO.json [--base URL]`: the share link of a scenario, alone on
//! one line, the same link the playground's "Copy link" button makes (one codec,
//! `delaylab-share`). `delaylab run` takes such a link in place of a file:
//!
//! ```text
//! $ delaylab link scenarios/head-of-line-blocking.json
//! https://delaylab.example/#v1.CNaDVazt1zENAAAIAzDhBO8o...
//! $ delaylab run 'https://delaylab.example/#v1.CNaDVazt1zENAAAIAzDhBO8o...'   # same JSON as the file
//! ```

use std::path::Path;
use std::process::ExitCode;

use delaylab_engine::scenario::Scenario;
use delaylab_share::{decode_fragment, looks_like_link, make_link, ViewOptions};

/// Where the playground is served when no `--base` is given.
pub const DEFAULT_BASE: &str = "https://delaylab.example/";

/// Whether `arg` of `run` is a link rather than a file: a URL, anything with a `#`,
/// or a bare fragment (`v1.…`), unless a file of that name exists (a file wins).
pub fn is_link(arg: &str) -> bool {
    let link_like = arg.contains('#')
        || arg.starts_with("http://")
        || arg.starts_with("https://")
        || looks_like_link(arg);
    link_like && !Path::new(arg).exists()
}

/// The scenario in a link; the error is one line saying what is wrong with it.
pub fn load(arg: &str) -> Result<Scenario, String> {
    decode_fragment(arg)
        .map(|s| s.scenario)
        .map_err(|e| format!("bad link: {e}"))
}

pub fn main(path: &str, base: &str) -> ExitCode {
    let scenario = match crate::run::load(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    println!("{}", make_link(base, &scenario, &ViewOptions::default()));
    ExitCode::SUCCESS
}
