//! delaylab-playground: what the browser playground computes, with no browser in it
//! (no Leptos, no web-sys), tested natively with ordinary unit tests.
//!
//! Contract:
//! - In: a [`delaylab_engine::scenario::Scenario`], wall-clock times and user inputs as
//!   plain values (form boxes as strings). Out: view data (log lines, topology boxes and
//!   positions, chart series, figures) and engine commands.
//! - The engine owns every broker rule; this crate only drives it ([`runner::Runner`],
//!   paced by [`pacer::Pacer`]), checks what a form can check before the broker sees it,
//!   and digests events and snapshots for drawing. No rule of RabbitMQ is written here.
//! - Deterministic: the same scenario, inputs and wall times give the same outputs.
//! - The Leptos views (the root package, src/app) read these types and write nothing
//!   back but user inputs.

/// A table of UI words, rows `("key", "English", "Chinese")` (`i18n::word` reads it). The
/// browser build leaves the Chinese column out (each an empty string): the page fetches
/// it as data, `zh-texts.json`'s `words` (`zh_texts::word`), so that a reader of the
/// English page does not download it with the start-up wasm (issue 29 item 10).
#[cfg(not(target_arch = "wasm32"))]
macro_rules! words {
    ($(($k:literal, $en:literal, $zh:literal $(,)?)),* $(,)?) => {
        &[$(($k, $en, $zh)),*]
    };
}
#[cfg(target_arch = "wasm32")]
macro_rules! words {
    ($(($k:literal, $en:literal, $zh:literal $(,)?)),* $(,)?) => {
        &[$(($k, $en, "")),*]
    };
}

pub mod chart;
pub mod check_form;
pub mod checks_elsewhere;
pub mod checks_field_zh;
pub mod checks_run;
pub mod checks_view;
pub mod checks_words;
pub mod checks_zh;
pub mod chips;
pub mod clock;
pub mod code_highlight;
pub mod compare;
pub mod compare_parting;
pub mod consumer_form;
pub mod deliver_at;
pub mod edit_rules;
pub mod embed_size;
pub mod export_code;
pub mod field;
pub mod host;
pub mod i18n;
pub mod i18n_field;
pub mod i18n_infra;
pub mod i18n_orders;
pub mod i18n_page;
pub mod i18n_panels;
pub mod i18n_qq44;
pub mod i18n_why;
pub mod impact_words;
pub mod json_at;
pub mod late_dots;
pub mod lines;
pub mod live_words;
pub mod marks;
pub mod marks_words;
pub mod node_id;
pub mod off_plugin;
pub mod outcome;
pub mod pacer;
pub mod per_load;
pub mod preset_links;
pub mod presets;
pub mod presets_field_zh;
pub mod presets_zh;
pub mod publish_form;
pub mod quick_publish;
pub mod refresh;
pub mod runner;
pub mod stats;
pub mod story;
pub mod strategy_costs;
pub mod timeline;
pub mod topo;
pub mod topo_fit;
pub mod topo_route;
pub mod track;
pub mod visits;
pub mod zh_texts;
pub mod zip_store;
