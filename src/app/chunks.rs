//! The split points of the app's wasm (see `deferred.rs`). Each function here is a door
//! into a chunk: what only the doors of one chunk reach (their panels, the view models and
//! the engine code no first-screen view calls) moves into that chunk when scripts/
//! build-app.sh splits the build; code two chunks share goes into a shared chunk both
//! fetch. What a first load waits for (header, controls, gallery, the scenario) is the
//! start-up module; the topology diagram beside the scenario is a chunk of its own, fetched
//! at mount before the other chunks (issue 29 item 10: its drawing and the code only it
//! reaches were 40 KB of the start-up module gzipped, 444.0 -> 403.6 KB, and a click on a
//! card loads its scenario without them).
//!
//! | chunk | fetched | holds |
//! |---|---|---|
//! | `page` | once the page is first idle after its mount and the topology's chunk is in (after the start-up module: not on the way to working) | every panel below or beside the first screen, the panels the scenario's tool buttons open, the gallery's "From the field" |
//! | `topology` | at mount, before the others (`Deferred first`) | the topology diagram (also drawn by embed mode) |
//! | `share_codec` | with `page` (after the first screen), or first when a link or an autosave is opened | the share link's codec and its frozen dictionary |
//! | `edit_forms` | when "Edit the topology" first opens | the topology editor's forms |
//! | `definitions` | on "Export definitions" | RabbitMQ's definitions export |
//! | `embed_page` | embed mode (`?embed`) only | the compact page an iframe shows |
//!
//! One chunk for what is fetched together (`page`): a chunk of its own per panel made
//! 68 files, many of a few hundred bytes (the code each pair of panels shares); now 15.

use delaylab_engine::scenario::Scenario;
use delaylab_share::{LinkError, Shared, ViewOptions};
use leptos::prelude::*;
use leptos::wasm_split::{wasm_split, SplitLoaderError};

use super::deferred::Loaded;
use super::{checked, compare, edit, embed, orders, panels, share, strategies, topo_view, version};

/// The first step of every door below but the topology's (its words are the first
/// screen's): the panels' words (`i18n_panels`) are found from now on. Only the chunks'
/// code refers to them, so the splitter moves them into a chunk, out of the start-up wasm.
fn panel_words() {
    delaylab_playground::i18n_panels::register();
}

/// The topology diagram (SVG, draggable, the messages flying along its edges).
#[wasm_split(topology, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn topology_area() -> Loaded {
    Ok(view! { <topo_view::Topology /> }.into_any())
}

/// Below the topology: queue depths, the order lab, lateness.
#[wasm_split(page, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn queues_area() -> Loaded {
    panel_words();
    Ok(view! {
        <panels::Queues />
        <orders::Orders />
        <panels::Lateness />
    }
    .into_any())
}

/// The right column: publish, consumers, the scenario's checks, the message inspector
/// (a failed check opens its message there).
#[wasm_split(page, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn right_area() -> Loaded {
    panel_words();
    Ok(view! {
        <panels::Publish />
        <panels::Consumers />
        <panels::Checks />
        <panels::Inspector />
    }
    .into_any())
}

/// The foot of the page: versions compared, strategies compared, the event log.
#[wasm_split(page, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn wide_area() -> Loaded {
    panel_words();
    Ok(view! {
        <compare::Compare />
        <strategies::StrategyCompare />
        <panels::Log />
    }
    .into_any())
}

/// The gallery's "From the field": the reported failures, their rules and fixes.
#[wasm_split(page, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn field_area() -> Loaded {
    panel_words();
    Ok(view! { <panels::field::FieldSection /> }.into_any())
}

/// Embed mode (`?embed`): the compact page an iframe shows, in place of the playground.
#[wasm_split(embed_page, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn embed_page() -> Loaded {
    panel_words();
    Ok(view! { <embed::Embed /> }.into_any())
}

/// The "Embed" button's snippet box.
#[wasm_split(page, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn embed_box(open: RwSignal<bool>, copied: RwSignal<Option<bool>>) -> Loaded {
    panel_words();
    Ok(view! { <embed::EmbedBox open copied /> }.into_any())
}

/// What "Checked against RabbitMQ" opens: the rules checked live, the version's notes.
#[wasm_split(page, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn checked_panel(open: RwSignal<bool>) -> Loaded {
    panel_words();
    Ok(view! { <checked::CheckedPanel open /> }.into_any())
}

/// What "Export code" opens (the exporter itself is pkg-export/, imported on opening).
#[wasm_split(page, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn export_code_panel(open: RwSignal<bool>) -> Loaded {
    panel_words();
    Ok(view! { <panels::export_code::ExportCodePanel open /> }.into_any())
}

/// The notice of what changes on the version the scenario runs on (the engine's impact
/// rules and their words: version.rs).
#[wasm_split(page, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn version_notice() -> Loaded {
    panel_words();
    Ok(view! { <version::VersionNotice /> }.into_any())
}

/// The notice for a link or an autosave that did not open.
#[wasm_split(page, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn link_notice() -> Loaded {
    panel_words();
    Ok(view! { <share::LinkNotice /> }.into_any())
}

/// The topology editor's forms and object list (on its first opening).
#[wasm_split(edit_forms, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn edit_forms() -> Loaded {
    panel_words();
    Ok(view! { <edit::EditForms /> }.into_any())
}

/// The scenario's JSON editor (the folded panel's body).
#[wasm_split(page, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn scenario_json() -> Loaded {
    panel_words();
    Ok(view! { <panels::scenario_json::ScenarioJsonBody /> }.into_any())
}

/// A share link's fragment (or an autosave) read back: the share codec (its inflater and
/// frozen dictionary) is a chunk of its own, needed only when a link opens or is made.
#[wasm_split(share_codec, fallible, preload(preload_share_codec), wasm_split_path = ::leptos::wasm_split)]
pub fn decode_link(fragment: String) -> Result<Result<Shared, LinkError>, SplitLoaderError> {
    Ok(delaylab_share::decode_fragment(&fragment))
}

/// The share-link fragment of a scenario and view options (`delaylab_share::encode_fragment`).
#[wasm_split(share_codec, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn encode_link(scenario: Scenario, view: ViewOptions) -> Result<String, SplitLoaderError> {
    Ok(delaylab_share::encode_fragment(&scenario, &view))
}

/// The scenario as RabbitMQ definitions (`definitions.json`, "Export definitions").
#[wasm_split(definitions, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn definitions_json(scenario: Scenario) -> Result<String, SplitLoaderError> {
    let defs = delaylab_engine::scenario::definitions::export_definitions(&scenario);
    Ok(serde_json::to_string_pretty(&defs).unwrap_or_default() + "\n")
}
