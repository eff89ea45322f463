//! The topology as a graph (nodes, edges) built from a snapshot, and its automatic
//! left-to-right layout: publisher -> exchanges -> queues -> (dead-letter exchanges ->
//! queues)* -> consumers, ranked by walking bindings and the queues' DLX arguments.

use std::collections::{HashMap, VecDeque};

use delaylab_engine::amqp::exchange_args::DELAYED_TYPE;
use delaylab_engine::snapshot::Snapshot;
use delaylab_engine::version::DelayedRetryKind;

use crate::node_id;
use crate::track::PublishTargets;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    Publisher,
    Exchange,
    Queue,
    Consumer,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TNode {
    pub id: String,
    pub name: String,
    pub kind: NodeKind,
    /// Exchange type, or queue kind.
    pub sub: String,
    pub delayed: bool,
    pub badges: Vec<String>,
    pub w: f64,
    pub h: f64,
    /// The name as drawn, whole, on one line or more ([`name_lines`]); the box is taller
    /// by [`NAME_LINE_H`] a line beyond the first.
    pub name_lines: Vec<String>,
}

/// What a node's view is keyed by (the topology's `<For>`): every field of the node, so
/// a change of any of them draws it anew. Its sizes by their bits, one key per value as
/// the node's `{:?}` text was (which compiled Rust's Debug text escaping into the
/// start-up wasm for this key alone).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct NodeKey {
    id: String,
    name: String,
    kind: NodeKind,
    sub: String,
    delayed: bool,
    badges: Vec<String>,
    w: u64,
    h: u64,
    name_lines: Vec<String>,
}

impl TNode {
    /// The key of this node's view (see [`NodeKey`]).
    pub fn key(&self) -> NodeKey {
        NodeKey {
            id: self.id.clone(),
            name: self.name.clone(),
            kind: self.kind,
            sub: self.sub.clone(),
            delayed: self.delayed,
            badges: self.badges.clone(),
            w: self.w.to_bits(),
            h: self.h.to_bits(),
            name_lines: self.name_lines.clone(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    Publish,
    Bind,
    DeadLetter,
    Consume,
    Alternate,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TEdge {
    pub from: String,
    pub to: String,
    pub label: String,
    pub kind: EdgeKind,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    pub nodes: Vec<TNode>,
    pub edges: Vec<TEdge>,
}

pub const COL_W: f64 = 272.0;
pub const ROW_H: f64 = 104.0;
/// Padding the fitted view adds around the drawing, on each side.
pub const MARGIN: f64 = 16.0;

/// A queue box's width.
const QUEUE_W: f64 = 184.0;

/// Width of a badge of `text` (the app's drawing: 6.1 px a character, 10 px padding).
pub fn badge_width(text: &str) -> f64 {
    text.chars().count() as f64 * 6.1 + 10.0
}

/// Rows the badges take in a box `w` wide, wrapped as the app draws them.
pub fn badge_rows(badges: &[String], w: f64) -> usize {
    let (mut rows, mut x) = (0, 8.0);
    for b in badges {
        let bw = badge_width(b);
        if rows == 0 || (x > 8.0 && x + bw > w - 4.0) {
            rows += 1;
            x = 8.0;
        }
        x += bw + 4.0;
    }
    rows
}

/// The height of a name's line in a box (the name's font, 13 px, and its leading).
pub const NAME_LINE_H: f64 = 15.0;
/// A name takes at most this many lines; a longer one ends in "…" (its whole text is in
/// the box's label and tooltip).
pub const MAX_NAME_LINES: usize = 3;
/// The name's font: about 7.6 px a character (monospace 13 px), after its icon.
const NAME_CHAR_W: f64 = 7.6;

/// The characters of a name that fit on one line of a box `w` wide (after its icon).
pub fn name_chars(w: f64) -> usize {
    (((w - 26.0) / NAME_CHAR_W) as usize).max(4)
}

/// A name cut into lines of at most `max` characters, after a `.`, `-`, `_`, `:` or `/`
/// where one falls in the line (`order.delayed.` / `exchange`), else at `max`; at most
/// [`MAX_NAME_LINES`] lines, the last cut with "…" if even they are too few.
pub fn name_lines(name: &str, max: usize) -> Vec<String> {
    let max = max.max(2);
    let mut rest: Vec<char> = name.chars().collect();
    let mut lines = Vec::new();
    while rest.len() > max && lines.len() + 1 < MAX_NAME_LINES {
        let cut = rest[..max]
            .iter()
            .rposition(|ch| matches!(ch, '.' | '-' | '_' | ':' | '/'))
            .map_or(max, |i| i + 1);
        lines.push(rest.drain(..cut).collect::<String>());
    }
    if rest.len() > max {
        rest.truncate(max - 1);
        rest.push('…');
    }
    lines.push(rest.into_iter().collect());
    lines
}

fn fmt_ms(ms: u64) -> String {
    delaylab_engine::scenario::duration::format_duration(ms)
}

pub fn model(snap: &Snapshot, targets: &PublishTargets) -> Model {
    let mut m = Model::default();
    m.nodes.push(TNode {
        id: node_id::PUBLISHER.into(),
        name: "publisher".into(),
        kind: NodeKind::Publisher,
        sub: String::new(),
        delayed: false,
        badges: vec![],
        w: 120.0,
        h: 48.0,
        name_lines: vec![],
    });
    // Looked up in the snapshot's lists, not collected into sets: a BTreeSet<&str> built
    // here compiled its own sort and tree builder into the start-up wasm (issue 29 item
    // 10), for a topology's few names.
    let has_exchange = |name: &str| snap.exchange(name).is_some();
    let has_queue = |name: &str| snap.queue(name).is_some();
    if targets.contains("") && !has_exchange("") {
        m.nodes.push(TNode {
            id: node_id::exchange(""),
            name: "(AMQP default)".into(),
            kind: NodeKind::Exchange,
            sub: "direct".into(),
            delayed: false,
            badges: vec![],
            w: 180.0,
            h: 58.0,
            name_lines: vec![],
        });
    }
    for t in targets.iter() {
        if has_exchange(t.as_str()) || t.is_empty() {
            m.edges.push(TEdge {
                from: node_id::PUBLISHER.into(),
                to: node_id::exchange(t),
                label: String::new(),
                kind: EdgeKind::Publish,
            });
        }
    }
    // The default exchange routes a key to the queue of that name (every queue is bound
    // to it by its name): drawn for the keys published to it, as a binding.
    for k in targets
        .default_keys
        .iter()
        .filter(|k| has_queue(k.as_str()))
    {
        m.edges.push(TEdge {
            from: node_id::exchange(""),
            to: node_id::queue(k),
            label: k.clone(),
            kind: EdgeKind::Bind,
        });
    }
    for x in &snap.exchanges {
        let delayed = x.is_delayed();
        let sub = match &x.wrapped {
            Some(w) if delayed => format!("{DELAYED_TYPE} ({w})"),
            _ => x.kind.clone(),
        };
        let mut badges = vec![];
        if x.internal {
            badges.push("internal".into());
        }
        if x.alternate.is_some() {
            badges.push("AE".into());
        }
        let extra = if badges.is_empty() { 0.0 } else { 18.0 };
        m.nodes.push(TNode {
            id: node_id::exchange(&x.name),
            name: if x.name.is_empty() {
                "(AMQP default)".into()
            } else {
                x.name.clone()
            },
            kind: NodeKind::Exchange,
            sub,
            delayed,
            badges,
            w: 192.0,
            h: if delayed { 74.0 } else { 58.0 } + extra,
            name_lines: vec![],
        });
        for b in &x.bindings {
            let to = if b.to_exchange {
                node_id::exchange(&b.destination)
            } else {
                node_id::queue(&b.destination)
            };
            let label = if b.routing_key.is_empty() && !b.arguments.is_empty() {
                b.arguments.clone()
            } else {
                b.routing_key.clone()
            };
            m.edges.push(TEdge {
                from: node_id::exchange(&x.name),
                to,
                label,
                kind: EdgeKind::Bind,
            });
        }
        if let Some(a) = &x.alternate {
            if has_exchange(a.as_str()) {
                m.edges.push(TEdge {
                    from: node_id::exchange(&x.name),
                    to: node_id::exchange(a),
                    label: "AE".into(),
                    kind: EdgeKind::Alternate,
                });
            }
        }
    }
    for q in &snap.queues {
        let mut badges = vec![];
        if q.quorum {
            badges.push("quorum".into());
        }
        if let Some(t) = q.message_ttl_ms {
            badges.push(format!("TTL {}", fmt_ms(t)));
        }
        if let Some(d) = &q.dlx {
            badges.push(if d.is_empty() {
                "DLX (default)".into()
            } else {
                "DLX".into()
            });
        }
        if let Some(k) = &q.dlrk {
            badges.push(format!("DLRK {k}"));
        }
        if let Some(n) = q.max_length {
            badges.push(format!("max {n}"));
        }
        if let Some(n) = q.max_length_bytes {
            badges.push(format!("max {n} B"));
        }
        if (q.max_length.is_some() || q.max_length_bytes.is_some()) && q.overflow != "drop-head" {
            badges.push(q.overflow.to_string());
        }
        if let Some(e) = q.expires_ms {
            badges.push(format!("expires {}", fmt_ms(e)));
        }
        // Quorum: the delivery limit in force (x-delivery-limit, or the version's default)
        // and 4.3's delayed retry (x-delayed-retry-type, -min, -max).
        if let Some(n) = q.delivery_limit {
            badges.push(if q.delivery_limit_default {
                format!("limit {n} (default)")
            } else {
                format!("limit {n}")
            });
        }
        if let Some(r) = q.delayed_retry {
            let kind = match r.kind {
                DelayedRetryKind::All => "all",
                DelayedRetryKind::Failed => "failed",
                DelayedRetryKind::Returned => "returned",
            };
            badges.push(format!(
                "retry {kind} {}–{}",
                fmt_ms(r.min_ms),
                fmt_ms(r.max_ms)
            ));
        }
        // Rows of badges beyond two make the box taller (drawn as topo_view wraps them).
        let extra_rows = badge_rows(&badges, QUEUE_W).saturating_sub(2);
        m.nodes.push(TNode {
            id: node_id::queue(&q.name),
            name: q.name.clone(),
            kind: NodeKind::Queue,
            sub: if q.quorum {
                "quorum".into()
            } else {
                "classic".into()
            },
            delayed: false,
            badges,
            w: QUEUE_W,
            h: 84.0 + 18.0 * extra_rows as f64,
            name_lines: vec![],
        });
        if let Some(d) = &q.dlx {
            let label = "DLX".to_string();
            if d.is_empty() {
                if let Some(k) = q.dlrk.as_deref().filter(|k| has_queue(k)) {
                    m.edges.push(TEdge {
                        from: node_id::queue(&q.name),
                        to: node_id::queue(k),
                        label,
                        kind: EdgeKind::DeadLetter,
                    });
                }
            } else if has_exchange(d.as_str()) {
                m.edges.push(TEdge {
                    from: node_id::queue(&q.name),
                    to: node_id::exchange(d),
                    label,
                    kind: EdgeKind::DeadLetter,
                });
            }
        }
    }
    for c in &snap.consumers {
        let id = node_id::consumer(&c.name);
        if m.nodes.iter().any(|n| n.id == id) {
            continue;
        }
        m.nodes.push(TNode {
            id: id.clone(),
            name: c.name.clone(),
            kind: NodeKind::Consumer,
            sub: format!(
                "{}{}",
                if c.auto_ack { "auto-ack" } else { "manual ack" },
                if c.outcome.is_empty() {
                    String::new()
                } else {
                    format!(" · {}", c.outcome)
                }
            ),
            delayed: false,
            badges: vec![],
            w: 170.0,
            h: 66.0,
            name_lines: vec![],
        });
        if has_queue(c.queue.as_str()) {
            m.edges.push(TEdge {
                from: node_id::queue(&c.queue),
                to: id,
                label: String::new(),
                kind: EdgeKind::Consume,
            });
        }
    }
    // Consumers that only take from queues with basic.get are drawn when they appear.
    for n in m.nodes.iter_mut().filter(|n| n.kind != NodeKind::Publisher) {
        n.name_lines = name_lines(&n.name, name_chars(n.w));
        n.h += NAME_LINE_H * n.name_lines.len().saturating_sub(1) as f64;
    }
    m
}

/// Top-left positions: rank (column) by breadth-first walk from the publisher and every
/// node without incoming edges; rows ordered by the mean row of the predecessors.
/// `vertical` (a phone) turns the drawing a quarter: ranks go top to bottom and rows side
/// by side, so a DLX chain stays readable at full size on a narrow screen instead of
/// shrinking to fit a 1,600 px wide row:
/// ```text
///  wide:  publisher → exchange → wait queue → DLX → DLQ → consumer
///  phone: publisher
///            ↓
///         exchange
///            ↓  …
/// ```
pub fn layout(m: &Model, vertical: bool) -> HashMap<String, (f64, f64)> {
    layout_wrapped(m, vertical, usize::MAX)
}

/// Vertical gap between two bands of a wrapped wide layout.
pub const BAND_GAP: f64 = 40.0;

/// The wide layout with at most `max_cols` ranks side by side: further ranks wrap into
/// a band below (ranks 0..k, then k..2k...), so a long DLX chain stays readable in a
/// frame narrower than its row instead of shrinking (`topo_fit::columns_for`). In the
/// vertical layout `max_cols` is the most boxes side by side in one line: a rank with
/// more takes further lines (`topo_fit::per_line_for`: on a 390 px phone one box a line,
/// so the sandbox's two exchanges stand one under the other instead of past the frame).
pub fn layout_wrapped(m: &Model, vertical: bool, max_cols: usize) -> HashMap<String, (f64, f64)> {
    let max_cols = max_cols.max(1);
    let idx: HashMap<&str, usize> = m
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    let n = m.nodes.len();
    let mut out_e: Vec<Vec<usize>> = vec![vec![]; n];
    let mut in_e: Vec<Vec<usize>> = vec![vec![]; n];
    for e in &m.edges {
        if let (Some(&a), Some(&b)) = (idx.get(e.from.as_str()), idx.get(e.to.as_str())) {
            if a != b {
                out_e[a].push(b);
                in_e[b].push(a);
            }
        }
    }
    let default_rank = |k: NodeKind| match k {
        NodeKind::Publisher => 0,
        NodeKind::Exchange => 1,
        NodeKind::Queue => 2,
        NodeKind::Consumer => 3,
    };
    // Drop the edges that close a cycle (found by a depth-first walk from the sources),
    // then rank by the longest path, so a DLX chain reads left to right.
    fn dfs(i: usize, out_e: &[Vec<usize>], state: &mut [u8], keep: &mut Vec<(usize, usize)>) {
        state[i] = 1;
        for &j in &out_e[i] {
            match state[j] {
                0 => {
                    keep.push((i, j));
                    dfs(j, out_e, state, keep);
                }
                2 => keep.push((i, j)),
                _ => {} // back edge
            }
        }
        state[i] = 2;
    }
    let mut state = vec![0u8; n];
    let mut keep = Vec::new();
    let mut roots: Vec<usize> = (0..n)
        .filter(|&i| m.nodes[i].kind == NodeKind::Publisher)
        .collect();
    roots.extend((0..n).filter(|&i| in_e[i].is_empty() && m.nodes[i].kind != NodeKind::Publisher));
    roots.extend(0..n);
    for r in roots {
        if state[r] == 0 {
            dfs(r, &out_e, &mut state, &mut keep);
        }
    }
    let mut indeg = vec![0usize; n];
    let mut dag: Vec<Vec<usize>> = vec![vec![]; n];
    let mut preds: Vec<Vec<usize>> = vec![vec![]; n];
    for &(a, b) in &keep {
        dag[a].push(b);
        preds[b].push(a);
        indeg[b] += 1;
    }
    let mut rank_v: Vec<usize> = (0..n)
        .map(|i| {
            if indeg[i] == 0 {
                default_rank(m.nodes[i].kind)
            } else {
                0
            }
        })
        .collect();
    let mut queue: VecDeque<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
    while let Some(i) = queue.pop_front() {
        for &j in &dag[i] {
            rank_v[j] = rank_v[j].max(rank_v[i] + 1);
            indeg[j] -= 1;
            if indeg[j] == 0 {
                queue.push_back(j);
            }
        }
    }
    let rank: Vec<Option<usize>> = rank_v.into_iter().map(Some).collect();
    let in_e = preds;
    let max_rank = rank.iter().flatten().copied().max().unwrap_or(0);
    // Vertical: one column per row, as wide as the widest box; one band per rank.
    let col_w_v = m.nodes.iter().map(|n| n.w).fold(0.0, f64::max) + 28.0;
    let rank_h_v = m.nodes.iter().map(|n| n.h).fold(0.0, f64::max) + 46.0;
    let mut row_of: Vec<f64> = vec![0.0; n];
    let mut pos = HashMap::new();
    // Vertical: the first line of each rank (a rank of more than `max_cols` boxes takes
    // several lines).
    let mut line_of_rank = vec![0usize; max_rank + 2];
    for r in 0..=max_rank {
        let count = rank.iter().filter(|x| **x == Some(r)).count();
        line_of_rank[r + 1] = line_of_rank[r] + count.div_ceil(max_cols).max(1);
    }
    // Wrapped wide layout: the top of each band, from the most rows of its ranks.
    let bands = max_rank / max_cols + 1;
    let mut band_top = vec![0.0; bands + 1];
    for b in 0..bands {
        let rows = (b * max_cols..((b + 1) * max_cols).min(max_rank + 1))
            .map(|r| rank.iter().filter(|x| **x == Some(r)).count())
            .max()
            .unwrap_or(0);
        band_top[b + 1] = band_top[b] + rows as f64 * ROW_H + BAND_GAP;
    }
    for r in 0..=max_rank {
        let mut col: Vec<(f64, usize)> = (0..n)
            .filter(|&i| rank[i] == Some(r))
            .map(|i| {
                let preds: Vec<f64> = in_e[i]
                    .iter()
                    .filter(|&&p| rank[p].is_some_and(|pr| pr < r))
                    .map(|&p| row_of[p])
                    .collect();
                let key = if preds.is_empty() {
                    1e6 + i as f64
                } else {
                    preds.iter().sum::<f64>() / preds.len() as f64
                };
                (key, i)
            })
            .collect();
        delaylab_engine::sort::sort_by(&mut col, |a, b| {
            a.0.partial_cmp(&b.0)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.1.cmp(&b.1))
        });
        for (row, (_, i)) in col.iter().enumerate() {
            row_of[*i] = row as f64;
            let node = &m.nodes[*i];
            let at = if vertical {
                let (line, slot) = (row / max_cols, row % max_cols);
                (
                    20.0 + slot as f64 * col_w_v + (col_w_v - 28.0 - node.w) / 2.0,
                    20.0 + (line_of_rank[r] + line) as f64 * rank_h_v,
                )
            } else {
                (
                    20.0 + (r % max_cols) as f64 * COL_W,
                    20.0 + band_top[r / max_cols]
                        + row as f64 * ROW_H
                        + (ROW_H - 20.0 - node.h) / 2.0,
                )
            };
            pos.insert(node.id.clone(), at);
        }
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{Batch, Runner};
    use delaylab_engine::scenario::load::load_str;

    #[test]
    fn a_long_name_is_shown_whole_on_more_lines() {
        assert_eq!(
            name_lines("order.delay.queue", 21),
            vec!["order.delay.queue"]
        );
        assert_eq!(
            name_lines("order.delayed.exchange", 21),
            vec!["order.delayed.", "exchange"]
        );
        assert_eq!(name_lines("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(
            name_lines("abcdefghijklmnop", 4),
            vec!["abcd", "efgh", "ijk…"]
        );
        assert_eq!(name_chars(192.0), 21);
        // In a model: the box is taller by a line.
        let text = include_str!("../../../scenarios/fix-delayed-plugin.json");
        let r = Runner::new(load_str(text).unwrap());
        let m = model(&Snapshot::of(&r.sim), &r.track.publish_targets);
        let x = m
            .nodes
            .iter()
            .find(|n| n.name == "order.delayed.exchange")
            .expect("the plugin's exchange");
        assert_eq!(x.name_lines, vec!["order.delayed.", "exchange"]);
        assert_eq!(x.name_lines.concat(), x.name, "whole");
        assert_eq!(x.h, 74.0 + NAME_LINE_H);
    }

    #[test]
    fn a_route_through_the_default_exchange_is_drawn_to_the_queue_its_key_names() {
        let text = include_str!("../../../scenarios/retry-backoff-4-3.json");
        let mut r = Runner::new(load_str(text).unwrap());
        // Before the first publish too: the scenario's actions name the key.
        let m = model(&Snapshot::of(&r.sim), &r.track.publish_targets);
        let edge = |m: &Model| {
            m.edges
                .iter()
                .find(|e| e.from == node_id::exchange("") && e.to == node_id::queue("orders.work"))
                .cloned()
        };
        let e = edge(&m).expect("(AMQP default) → orders.work");
        assert_eq!((e.label.as_str(), e.kind), ("orders.work", EdgeKind::Bind));
        let mut b = Batch::default();
        r.advance_to(1_000, &mut b, || false);
        let m = model(&Snapshot::of(&r.sim), &r.track.publish_targets);
        assert!(edge(&m).is_some());
        // A key that names no queue draws nothing (the message is unroutable).
        let mut t = PublishTargets::default();
        t.add("", "no.such.queue");
        let m = model(&Snapshot::of(&r.sim), &t);
        assert!(m
            .edges
            .iter()
            .all(|e| e.to != node_id::queue("no.such.queue")));
    }
}
