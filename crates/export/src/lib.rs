//! `delaylab export code`: a scenario as one self-contained client program per language,
//! with a `run.sh` that builds it offline and runs it against a broker.
//!
//! Pure: a loaded [`Scenario`] in, a list of [`File`]s out (no IO, no clock), so the CLI
//! writes them to a directory and the playground (wasm32) can show or zip them.
//!
//! Every program does what `delaylab replay` does, in the client library of its
//! language: declares the topology under unique names (`dl-<random>-<name>`), runs the
//! consumers (ack mode, prefetch, handle time, outcome) and the timed actions, measures
//! the queue depths at the end, deletes what it declared and prints the run contract
//! JSON (`deliveries`, `returned`, `errors`, `final`, times in scenario ms) so that
//! `delaylab diff` compares it with `delaylab run`. `TIME_SCALE` (the second argument of
//! `run.sh`) multiplies every duration as `replay --time-scale` does.
//!
//! What a program cannot do (stop a node, inject a fault) is listed in [`Export::left_out`],
//! in the file header and by the CLI on standard error; the program never does something
//! else silently.
//!
//! Modules: [`plan`] (what is exported, what is left out), [`args`] (how each argument
//! value is rendered: a name, a duration, a literal), [`text`] (the lessons, in English or
//! Chinese), [`syntax`] (literals and comments), then one module per language; [`wire`]
//! (an export as JSON, for the playground's lazily loaded exporter).

pub mod args;
pub mod go;
pub mod header;
pub mod java;
pub mod node;
pub mod orders;
pub mod plan;
pub mod python;
pub mod rust;
pub mod spring;
pub mod syntax;
pub mod text;
pub mod walk;
pub mod wire;

use delaylab_engine::scenario::Scenario;

/// The target language of an export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Java,
    Spring,
    Python,
    Node,
    Go,
    Rust,
}

/// Every language with its command-line name.
pub const LANGUAGES: &[(&str, Language)] = &[
    ("java", Language::Java),
    ("spring", Language::Spring),
    ("python", Language::Python),
    ("node", Language::Node),
    ("go", Language::Go),
    ("rust", Language::Rust),
];

impl Language {
    pub fn parse(s: &str) -> Option<Language> {
        LANGUAGES.iter().find(|(n, _)| *n == s).map(|(_, l)| *l)
    }

    /// False for Spring Boot: its jars cannot be downloaded here, so its export is checked
    /// by golden files and never run against a broker; every other language's is (see
    /// scripts/export-check.sh). The program's header and the playground say so.
    pub fn is_run_here(self) -> bool {
        !matches!(self, Language::Spring)
    }

    pub fn as_str(self) -> &'static str {
        LANGUAGES
            .iter()
            .find(|(_, l)| *l == self)
            .map_or("?", |(n, _)| n)
    }
}

/// The language of the comments (the playground's UI language).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CommentLang {
    #[default]
    En,
    Zh,
}

/// Every comment language with its name (the JavaScript exporter's argument).
pub const COMMENT_LANGS: &[(&str, CommentLang)] =
    &[("en", CommentLang::En), ("zh", CommentLang::Zh)];

impl CommentLang {
    pub fn parse(s: &str) -> Option<CommentLang> {
        COMMENT_LANGS.iter().find(|(n, _)| *n == s).map(|(_, l)| *l)
    }

    pub fn as_str(self) -> &'static str {
        COMMENT_LANGS
            .iter()
            .find(|(_, l)| *l == self)
            .map_or("?", |(n, _)| n)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub language: Language,
    pub comments: CommentLang,
}

/// One generated file: a path relative to the output directory and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    pub path: String,
    pub contents: String,
    /// True for scripts (`run.sh`), which the writer makes executable.
    pub executable: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Export {
    pub files: Vec<File>,
    /// What the program does not do, one line each (also in the program's header).
    pub left_out: Vec<String>,
}

/// The scenario as a program in `options.language`.
pub fn export(scenario: &Scenario, options: &Options) -> Export {
    let plan = plan::Plan::new(scenario, options.language);
    let t = text::Texts::new(options.comments);
    let files = match options.language {
        Language::Python => python::files(&plan, &t),
        Language::Java => java::files(&plan, &t),
        Language::Node => node::files(&plan, &t),
        Language::Go => go::files(&plan, &t),
        Language::Spring => spring::files(&plan, &t),
        Language::Rust => rust::files(&plan, &t),
    };
    let mut left_out = plan.left_out.clone();
    if options.language == Language::Spring {
        left_out.extend(spring::left_out());
    }
    Export { files, left_out }
}

impl File {
    pub fn new(path: &str, contents: String) -> File {
        File {
            path: path.into(),
            contents,
            executable: false,
        }
    }

    pub fn script(path: &str, contents: String) -> File {
        File {
            path: path.into(),
            contents,
            executable: true,
        }
    }
}
