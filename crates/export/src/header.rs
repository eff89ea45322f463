//! The file header every export starts with, as paragraphs (each generator turns them
//! into comments): what the scenario is, how to run the program, what it left out.

use crate::plan::Plan;
use crate::text::{Lesson, Texts};

/// The header paragraphs; `run` says how to run it (or that it was not run).
pub fn paragraphs(plan: &Plan, t: &Texts, run: &str) -> Vec<String> {
    let s = plan.scenario;
    let mut out = vec![format!(
        "{}: exported by delaylab (delaylab export code --lang {}).",
        s.name,
        plan.language.as_str()
    )];
    if !s.description.is_empty() {
        out.push(s.description.clone());
    }
    if !s.watch.is_empty() {
        out.push(format!("Watch: {}", s.watch));
    }
    out.push(run.to_string());
    out.push(format!(
        "{} {} {}",
        t.get(Lesson::Names),
        t.get(Lesson::Scale),
        t.get(Lesson::Report)
    ));
    if plan.uses_plugin() {
        out.push(t.get(Lesson::Plugin).to_string());
    }
    if plan.uses_delivery_time() {
        out.push(t.get(Lesson::DeliveryTimeChecked).to_string());
    }
    if plan.left_out.is_empty() {
        out.push(t.get(Lesson::NothingLeftOut).to_string());
    } else {
        let mut p = t.get(Lesson::LeftOut).to_string();
        for l in &plan.left_out {
            p.push_str("\n- ");
            p.push_str(l);
        }
        out.push(p);
    }
    out
}

/// The paragraphs as comment lines with `marker`, a blank comment line between them.
pub fn comment_block(paras: &[String], marker: &str) -> String {
    let mut out = String::new();
    for (i, p) in paras.iter().enumerate() {
        if i > 0 {
            out.push_str(marker);
            out.push('\n');
        }
        out.push_str(&crate::syntax::comment("", marker, p));
    }
    out
}
