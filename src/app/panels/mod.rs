//! The panels around the topology, one per file. Each reads the page's signals
//! (`Ctx`) and view data computed by `delaylab_playground`, and writes nothing back but
//! the user's inputs (through `Ctx`'s methods).

pub mod checks;
pub mod consumers;
pub mod controls;
pub mod delayed;
pub mod depths;
pub mod export_code;
pub mod field;
pub mod gallery;
pub mod header;
pub mod inspector;
pub mod lateness;
pub mod log;
pub mod publish;
pub mod queues;
pub mod scenario_json;
pub mod watch;
pub mod why_live;

pub use checks::Checks;
pub use consumers::Consumers;
pub use controls::Controls;
pub use gallery::Gallery;
pub use header::Header;
pub use inspector::Inspector;
pub use lateness::Lateness;
pub use log::Log;
pub use publish::Publish;
pub use queues::Queues;
pub use scenario_json::ScenarioJson;
pub use watch::Watch;

use leptos::prelude::*;

use super::Ctx;

fn ctx() -> Ctx {
    expect_context::<Ctx>()
}

fn fmt_speed(s: f64) -> String {
    delaylab_engine::strategies::report::grouped(s.round() as u64) + "x"
}
