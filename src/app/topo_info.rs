//! The counters line at the foot of a topology box, in the UI language: a queue's ready,
//! unacked, overdue and held messages (with the next release's countdown where the box has
//! room), a delayed exchange's store, a consumer's window. Fitted to the box's width: a
//! line too long for it is squeezed (`squeeze`), never cut or spilled over the border.
//!
//! ```text
//! queue        ready 2 · unacked 0 · ⚠ overdue 1
//! held (4.4)   ◷ held 3, next 0:10.0          (nothing ready: "ready 0" gives way)
//! exchange     ◷ messages_delayed 2
//! consumer     unacked 3/10 · not attached
//! ```

use delaylab_engine::snapshot::{QueueView, Snapshot};
use delaylab_playground::i18n::Lang;
use leptos::prelude::*;

use super::topo::NodeKind;
use super::Ctx;

/// Width of one character of the 13-unit monospace info line (style.css), SVG units.
const CHAR_W: f64 = 7.9;

/// The `textLength` that fits `chars` characters of the info line into a box `box_w`
/// wide, or none when they fit as they are.
pub fn squeeze(chars: usize, box_w: f64) -> Option<String> {
    let room = box_w - 18.0;
    (chars as f64 * CHAR_W > room).then(|| format!("{room:.0}"))
}

/// `s` cut to `max` characters, an ellipsis last.
pub fn trunc(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        s.chars().take(max - 1).collect::<String>() + "…"
    }
}

/// The line of node `name` of `kind`, in a box `box_w` wide.
pub fn info_line(c: &Ctx, s: &Snapshot, kind: NodeKind, name: &str, box_w: f64) -> String {
    match kind {
        NodeKind::Queue => s
            .queue(name)
            .map(|q| queue_line(c, q, box_w))
            .unwrap_or_default(),
        NodeKind::Exchange => s
            .exchanges
            .iter()
            .find(|x| x.name == name && x.is_delayed())
            .map(|x| match &x.refusing {
                // Kept after an upgrade to a version without the plugin: every publish
                // through it is refused (the reason is in its label).
                Some((code, _)) => c.tr("x_refusing").replace("{code}", &code.to_string()),
                None => format!("◷ messages_delayed {}", x.messages_delayed),
            })
            .unwrap_or_default(),
        NodeKind::Consumer => s
            .consumers
            .iter()
            .find(|x| x.name == name)
            .map(|x| {
                let state = if x.stopped {
                    c.tr("c_stopped")
                } else if x.attached {
                    ""
                } else {
                    c.tr("c_not_attached")
                };
                let sep = if state.is_empty() { "" } else { " · " };
                let cap = if x.prefetch == 0 {
                    "∞".to_string()
                } else {
                    x.prefetch.to_string()
                };
                format!("{} {}/{cap}{sep}{state}", c.tr("unacked"), x.unacked)
            })
            .unwrap_or_default(),
        NodeKind::Publisher => String::new(),
    }
}

/// A queue's counters. A wait queue (no consumer) holding overdue messages, or a queue
/// holding messages aside (4.3 delayed retry, 4.4 x-opt-delivery-time: in the queue, not
/// ready, not unacked), says so in the room "unacked 0" took. The next release's countdown
/// is added where the line stays whole; with nothing ready, "ready 0" gives way to it
/// ("◷ held 3, next 0:10.0": 21 characters, a queue box's room); otherwise the Queues panel
/// gives every held message's countdown.
fn queue_line(c: &Ctx, q: &QueueView, box_w: f64) -> String {
    let ready = format!("{} {}", c.tr("ready"), q.ready);
    let mut rest = Vec::new();
    if q.unacked > 0 || (q.overdue == 0 && q.held_total == 0) {
        rest.push(format!("{} {}", c.tr("unacked"), q.unacked));
    }
    if q.overdue > 0 {
        rest.push(format!("⚠ {} {}", c.tr("overdue"), q.overdue));
    }
    if q.held_total > 0 {
        rest.push(format!("◷ {} {}", c.tr("held"), q.held_total));
    }
    let line = std::iter::once(ready)
        .chain(rest.iter().cloned())
        .collect::<Vec<_>>()
        .join(" · ");
    let Some(h) = q.held.first().filter(|_| q.held_total > 0) else {
        return line;
    };
    let lang = c.lang.get();
    let left = super::runner::span(h.remaining_ms);
    let next = delaylab_playground::i18n_qq44::say(lang, "held_next", &[("left", &left)]);
    let comma = if lang == Lang::Zh { "," } else { ", " };
    let whole = format!("{line}{comma}{next}");
    if squeeze(whole.chars().count(), box_w).is_none() {
        whole
    } else if q.ready == 0 {
        format!("{}{comma}{next}", rest.join(" · "))
    } else {
        line
    }
}
