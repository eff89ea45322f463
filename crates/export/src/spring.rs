//! spring (not written yet).

use crate::plan::Plan;
use crate::text::Texts;
use crate::File;

pub fn files(_plan: &Plan, _t: &Texts) -> Vec<File> {
    Vec::new()
}
