//! The order lab (`orders`) as code: the consumer policy against a real table.

use crate::plan::Plan;
use crate::text::Texts;
use crate::Language;

/// The languages whose export carries the order lab.
pub fn supported(language: Language) -> bool {
    let _ = language;
    false
}

/// Named in the left-out line of the other languages.
pub const SUPPORTED_NAMES: &str = "no language yet (the order-lab generator is not written)";

pub fn python(_plan: &Plan, _t: &Texts) -> String {
    String::new()
}

pub fn java(_plan: &Plan, _t: &Texts) -> String {
    String::new()
}
