//! Scenario files: the model, the loader (JSON with path errors) and the writer.
pub mod checks;
pub mod definitions;
pub mod duration;
pub mod load;
pub mod model;
pub mod names;
pub mod orders;
pub mod rename;
pub mod save;
pub mod template;

pub use load::{load_str, load_value, LoadError};
pub use model::*;
