//! The "Export code" menu's model: which languages it offers (every
//! [`delaylab_export::Language`], in the exporter's order, with what the exporter says of
//! it), the export of the loaded scenario in one of them (its files, what it leaves out),
//! the names a download gets, and the zip of the whole project.
//!
//! The export itself is the exporter's output, given to [`CodeExport::new`]: the app gets
//! it from the exporter's own wasm module (crates/export-js, `pkg-export/`), loaded when the
//! menu opens, as the JSON of [`delaylab_export::wire`]; nothing here calls
//! `delaylab_export::export`, so the generators stay out of the app's wasm (the native
//! tests call it).
//!
//! The exporter writes the programs; nothing here knows a language's syntax or a
//! RabbitMQ argument (highlighting is [`crate::code_highlight`], the archive
//! [`crate::zip_store`]). The view (src/app/panels/export_code.rs) shows this and saves
//! the bytes.

use delaylab_engine::scenario::{save, Scenario};
use delaylab_export::text::{Lesson, Texts};
pub use delaylab_export::{CommentLang, Export, File, Language};

use crate::code_highlight::{spans, Span, Syntax};
use crate::i18n::Lang;
use crate::zip_store::{self, Entry, ZipError, MODE_EXECUTABLE, MODE_FILE};

/// What the playground can say about a language's export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Exported, and run against a live broker and diffed with the simulation in CI
    /// (scripts/export-check.sh).
    Runs,
    /// Exported but never built or run where delaylab is tested (issue 14 item 4: Spring's
    /// jars cannot be downloaded there); checked by golden files only.
    GoldenFilesOnly,
}

/// One entry of the language picker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub language: Language,
    /// The language's name as its users write it (not translated).
    pub label: &'static str,
    pub status: Status,
}

/// The language's name as its users write it.
pub fn label(l: Language) -> &'static str {
    // Exhaustive: a new language must get a name here.
    match l {
        Language::Java => "Java",
        Language::Spring => "Spring Boot",
        Language::Python => "Python",
        Language::Node => "Node.js",
        Language::Go => "Go",
        Language::Rust => "Rust",
    }
}

/// The exporter says which of its programs CI runs (`Language::is_run_here`).
pub fn status(l: Language) -> Status {
    if l.is_run_here() {
        Status::Runs
    } else {
        Status::GoldenFilesOnly
    }
}

/// Every language the exporter offers, in its order.
pub fn choices() -> Vec<Choice> {
    delaylab_export::LANGUAGES
        .iter()
        .map(|&(_, language)| Choice {
            language,
            label: label(language),
            status: status(language),
        })
        .collect()
}

/// The first language that exports, for the menu's first open.
pub fn default_language() -> Language {
    choices()
        .into_iter()
        .find(|c| c.status == Status::Runs)
        .map_or(Language::Java, |c| c.language)
}

/// The comments follow the UI language.
pub fn comment_lang(lang: Lang) -> CommentLang {
    match lang {
        Lang::En => CommentLang::En,
        Lang::Zh => CommentLang::Zh,
    }
}

/// The exporter's own note for a status, in the comments' language, where it has one
/// (Spring's "not run" header paragraph).
pub fn status_note(status: Status, comments: CommentLang) -> Option<&'static str> {
    (status == Status::GoldenFilesOnly).then(|| Texts::new(comments).get(Lesson::NotRun))
}

/// The exporter's own heading of its left-out list and its "nothing left out" line (the
/// same words as the program's header), in the comments' language.
pub fn left_out_texts(comments: CommentLang) -> (&'static str, &'static str) {
    let t = Texts::new(comments);
    (t.get(Lesson::LeftOut), t.get(Lesson::NothingLeftOut))
}

/// Why a language shows no export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// The generator wrote no file (an exporter bug: never shown as an empty program).
    NoFiles(Language),
    /// The exporter refused or could not be loaded, or its output was not an export: why.
    Failed(String),
}

/// What the exporter module takes: the scenario in the scenario format.
pub fn scenario_json(scenario: &Scenario) -> String {
    save::to_value(scenario).to_string()
}

/// The loaded scenario exported in one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeExport {
    pub language: Language,
    pub comments: CommentLang,
    /// The program first, then `run.sh` and any runtime or build files.
    pub files: Vec<File>,
    /// What the program does not do, one line each (the exporter's words).
    pub left_out: Vec<String>,
    /// The project's folder name: `delaylab-<scenario id>-<language>`.
    pub folder: String,
}

/// Letters, digits and `-` of a scenario id, for a file name (`scenario` when none is left).
fn file_stem(id: &str) -> String {
    let mut out = String::new();
    for c in id.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        "scenario".into()
    } else {
        out.into()
    }
}

impl CodeExport {
    /// The exporter's output `out` for the scenario whose gallery id is `id`, in
    /// `language` with comments in `comments`.
    pub fn new(
        out: Export,
        id: &str,
        language: Language,
        comments: CommentLang,
    ) -> Result<CodeExport, Unavailable> {
        if out.files.is_empty() {
            return Err(Unavailable::NoFiles(language));
        }
        Ok(CodeExport {
            language,
            comments,
            files: out.files,
            left_out: out.left_out,
            folder: format!("delaylab-{}-{}", file_stem(id), language.as_str()),
        })
    }

    /// [`CodeExport::new`] of what the exporter module returned (the JSON of
    /// [`delaylab_export::wire`]).
    pub fn from_json(
        text: &str,
        id: &str,
        language: Language,
        comments: CommentLang,
    ) -> Result<CodeExport, Unavailable> {
        let out = delaylab_export::wire::from_json(text).map_err(Unavailable::Failed)?;
        CodeExport::new(out, id, language, comments)
    }

    /// The file at `index`, or the program when there is none (the index of a previous
    /// language's longer list).
    pub fn file(&self, index: usize) -> &File {
        self.files.get(index).unwrap_or(&self.files[0])
    }

    /// The name one file downloads as (its last path component: `Scenario.java`).
    pub fn download_name(&self, index: usize) -> &str {
        let p = &self.file(index).path;
        p.rsplit('/').next().unwrap_or(p)
    }

    /// The name of the project's zip.
    pub fn zip_name(&self) -> String {
        format!("{}.zip", self.folder)
    }

    /// The whole project as a zip: every file under `folder/`, scripts executable.
    pub fn zip(&self) -> Result<Vec<u8>, ZipError> {
        let paths: Vec<String> = self
            .files
            .iter()
            .map(|f| format!("{}/{}", self.folder, f.path))
            .collect();
        let entries: Vec<Entry> = self
            .files
            .iter()
            .zip(&paths)
            .map(|(f, path)| Entry {
                path,
                data: f.contents.as_bytes(),
                mode: if f.executable {
                    MODE_EXECUTABLE
                } else {
                    MODE_FILE
                },
            })
            .collect();
        zip_store::zip(&entries)
    }

    /// The file's text cut into highlighted spans.
    pub fn highlighted(&self, index: usize) -> Vec<Span> {
        let f = self.file(index);
        spans(&f.contents, Syntax::of_path(&f.path))
    }
}

/// The media type every exported file downloads with (all are UTF-8 text).
pub const TEXT_TYPE: &str = "text/plain;charset=utf-8";
pub const ZIP_TYPE: &str = "application/zip";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code_highlight::Tok;

    const ORDER_TIMEOUT: &str = include_str!("../../../scenarios/order-timeout-queue-ttl.json");
    /// A preset with a node restart (a client program cannot do it).
    const NODE_RESTART: &str = include_str!("../../../scenarios/plugin-node-restart.json");

    fn scenario(text: &str) -> Scenario {
        delaylab_engine::scenario::load_str(text).expect("the preset loads")
    }

    /// What the app gets from the exporter module: the export, through its JSON.
    fn export(
        s: &Scenario,
        id: &str,
        language: Language,
        comments: CommentLang,
    ) -> Result<CodeExport, Unavailable> {
        // The module loads what scenario_json writes.
        let s = delaylab_engine::scenario::load_str(&scenario_json(s)).expect("it loads back");
        let out = delaylab_export::export(&s, &delaylab_export::Options { language, comments });
        let text = delaylab_export::wire::to_json(&out);
        CodeExport::from_json(&text, id, language, comments)
    }

    #[test]
    fn every_exporter_language_is_offered_in_its_order() {
        let c = choices();
        let order: Vec<Language> = delaylab_export::LANGUAGES.iter().map(|l| l.1).collect();
        assert_eq!(c.iter().map(|c| c.language).collect::<Vec<_>>(), order);
        for ch in &c {
            assert_eq!(ch.status == Status::Runs, ch.language.is_run_here());
        }
        assert_eq!(
            default_language(),
            c.iter()
                .find(|c| c.status == Status::Runs)
                .unwrap()
                .language
        );
        assert_eq!(status_note(Status::Runs, CommentLang::En), None);
        let en = status_note(Status::GoldenFilesOnly, CommentLang::En).unwrap();
        let zh = status_note(Status::GoldenFilesOnly, CommentLang::Zh).unwrap();
        assert!(
            en.contains("NOT RUN") && zh.contains("未运行"),
            "{en} / {zh}"
        );
    }

    #[test]
    fn exports_the_scenario_arguments_with_comments_in_the_ui_language() {
        let s = scenario(ORDER_TIMEOUT);
        for lang in [Language::Python, Language::Java] {
            let en = export(&s, "order-timeout-queue-ttl", lang, comment_lang(Lang::En)).unwrap();
            let zh = export(&s, "order-timeout-queue-ttl", lang, comment_lang(Lang::Zh)).unwrap();
            let prog = &en.file(0).contents;
            assert!(
                prog.contains("x-message-ttl") && prog.contains("x-dead-letter-exchange"),
                "{lang:?}"
            );
            // Chinese comments: a comment span holds CJK text in zh, none in en.
            let cjk_comment = |e: &CodeExport| {
                e.highlighted(0).iter().any(|sp| {
                    sp.tok == Tok::Comment
                        && e.file(0).contents[sp.range.clone()]
                            .chars()
                            .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
                })
            };
            assert!(cjk_comment(&zh), "{lang:?}: no Chinese comment");
            assert!(!cjk_comment(&en), "{lang:?}: Chinese in the English export");
            assert_eq!(
                en.folder,
                format!("delaylab-order-timeout-queue-ttl-{}", lang.as_str())
            );
            assert!(en.files.iter().any(|f| f.path == "run.sh" && f.executable));
        }
    }

    #[test]
    fn a_language_not_run_here_says_so_in_its_files_as_in_the_menu() {
        let s = scenario(ORDER_TIMEOUT);
        for ch in choices()
            .into_iter()
            .filter(|c| c.status == Status::GoldenFilesOnly)
        {
            for comments in [CommentLang::En, CommentLang::Zh] {
                let e = export(&s, "x", ch.language, comments).unwrap();
                let note = status_note(ch.status, comments).unwrap();
                // The note is wrapped into comment lines: compare its first words.
                let head: String = note.chars().take(8).collect();
                assert!(
                    e.files.iter().any(|f| f.contents.contains(&head)),
                    "{:?}: no {head:?} in the files",
                    ch.language
                );
                assert!(e.zip().is_ok(), "{:?}: its files zip", ch.language);
            }
        }
    }

    #[test]
    fn the_zip_holds_every_file_under_the_project_folder() {
        let s = scenario(ORDER_TIMEOUT);
        let e = export(&s, "Order timeout!", Language::Python, CommentLang::En).unwrap();
        assert_eq!(e.folder, "delaylab-order-timeout-python");
        assert_eq!(e.zip_name(), "delaylab-order-timeout-python.zip");
        let z = e.zip().unwrap();
        for f in &e.files {
            let path = format!("{}/{}", e.folder, f.path);
            let at = z.windows(path.len()).position(|w| w == path.as_bytes());
            assert!(at.is_some(), "{path} not in the zip");
            let body = f.contents.as_bytes();
            assert!(
                z.windows(body.len()).any(|w| w == body),
                "{path}'s text not stored as it is"
            );
        }
        assert_eq!(
            e.download_name(0),
            e.files[0].path.rsplit('/').next().unwrap()
        );
        // An index from a longer list falls back to the program.
        assert_eq!(e.file(99), &e.files[0]);
    }

    #[test]
    fn what_cannot_be_exported_is_listed_and_unwritten_languages_say_so() {
        let s = scenario(NODE_RESTART);
        let e = export(&s, "x", Language::Python, CommentLang::En).unwrap();
        assert!(
            e.left_out.iter().any(|l| l.contains("restart_node")),
            "{:?}",
            e.left_out
        );
        assert!(
            e.file(0).contents.contains("restart_node"),
            "the left-out list is in the file's header too"
        );
        for ch in choices() {
            let s = scenario(ORDER_TIMEOUT);
            assert!(
                export(&s, "x", ch.language, CommentLang::En).is_ok(),
                "{}",
                ch.label
            );
        }
        assert_eq!(file_stem("订单"), "scenario");
    }

    #[test]
    fn no_files_or_a_bad_answer_is_unavailable_never_an_empty_program() {
        let none = Export {
            files: vec![],
            left_out: vec![],
        };
        assert_eq!(
            CodeExport::new(none, "x", Language::Go, CommentLang::En),
            Err(Unavailable::NoFiles(Language::Go))
        );
        match CodeExport::from_json("{}", "x", Language::Go, CommentLang::En) {
            Err(Unavailable::Failed(why)) => assert!(why.contains("files"), "{why}"),
            other => panic!("{other:?}"),
        }
    }
}
