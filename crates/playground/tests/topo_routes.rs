//! The topology drawn as the page draws it (model, layout, routes), checked for what a
//! reader sees: no edge runs through a box it does not join, no label sits on a box.
//! The scenario is the order-timeout sandbox's topology (DLX wait queue and the plugin's
//! exchange side by side), laid out for frames from a phone's to a wide screen's.

use delaylab_playground::runner::PublishTargets;

use delaylab_engine::scenario::load_str;
use delaylab_engine::snapshot::Snapshot;
use delaylab_engine::Sim;
use delaylab_playground::topo::{self, Model};
use delaylab_playground::topo_route::{route, Rect};

const SANDBOX_TOPOLOGY: &str = r#"{"version": 1, "name": "sandbox",
  "topology": {
    "exchanges": [
      {"name": "order.delay.exchange", "type": "direct"},
      {"name": "order.dlx.exchange", "type": "direct"},
      {"name": "order.delayed.exchange", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}],
    "queues": [
      {"name": "order.delay.queue", "arguments": {"x-dead-letter-exchange": "order.dlx.exchange", "x-dead-letter-routing-key": "order.timeout"}},
      {"name": "order.dlx.queue"}],
    "bindings": [
      {"source": "order.delay.exchange", "destination": "order.delay.queue", "destination_type": "queue", "routing_key": "order.create"},
      {"source": "order.dlx.exchange", "destination": "order.dlx.queue", "destination_type": "queue", "routing_key": "order.timeout"},
      {"source": "order.delayed.exchange", "destination": "order.dlx.queue", "destination_type": "queue", "routing_key": "order.timeout"}]},
  "consumers": [{"name": "closer", "queue": "order.dlx.queue", "ack": "manual", "prefetch": 10, "handle": "100ms", "outcome": "ack"}]}"#;

fn model() -> Model {
    let s = load_str(SANDBOX_TOPOLOGY).expect("loads");
    let sim = Sim::new(&s);
    let mut targets = PublishTargets::default();
    for x in ["order.delay.exchange", "order.delayed.exchange"] {
        targets.add(x, "");
    }
    topo::model(&Snapshot::of(&sim), &targets)
}

fn inside(p: (f64, f64), r: &Rect, pad: f64) -> bool {
    p.0 > r.0 + pad && p.0 < r.0 + r.2 - pad && p.1 > r.1 + pad && p.1 < r.1 + r.3 - pad
}

/// Every problem of the drawing with `cols` ranks a band (`vertical`: the phone's).
fn problems(cols: usize, vertical: bool) -> Vec<String> {
    let m = model();
    let pos = topo::layout_wrapped(&m, vertical, cols);
    let rect = |id: &str| -> Rect {
        let n = m.nodes.iter().find(|n| n.id == id).expect("node");
        let (x, y) = pos[id];
        (x, y, n.w, n.h)
    };
    let mut out = vec![];
    let mut labels: Vec<(String, Rect)> = vec![];
    for e in &m.edges {
        let (a, b) = (rect(&e.from), rect(&e.to));
        let others: Vec<(String, Rect)> = m
            .nodes
            .iter()
            .filter(|n| n.id != e.from && n.id != e.to)
            .map(|n| (n.id.clone(), rect(&n.id)))
            .collect();
        let boxes: Vec<Rect> = others.iter().map(|o| o.1).collect();
        let r = route(a, b, vertical, &boxes);
        for i in 0..=200 {
            let p = r.at(f64::from(i) / 200.0);
            if let Some((id, _)) = others.iter().find(|(_, o)| inside(p, o, 2.0)) {
                out.push(format!("{} -> {} runs through {id}", e.from, e.to));
                break;
            }
        }
        if !e.label.is_empty() {
            let l = r.label();
            // The label's box: about 6.1 units a character, 10 high above its baseline.
            let w = e.label.chars().count().min(16) as f64 * 6.1;
            let x0 = match l.anchor {
                "middle" => l.x - w / 2.0,
                "end" => l.x - w,
                _ => l.x,
            };
            labels.push((format!("{} -> {}", e.from, e.to), (x0, l.y - 9.0, w, 9.0)));
            let corners = [
                (x0, l.y),
                (x0 + w, l.y),
                (x0, l.y - 9.0),
                (x0 + w, l.y - 9.0),
            ];
            for (id, o) in m.nodes.iter().map(|n| (n.id.clone(), rect(&n.id))) {
                if corners.iter().any(|c| inside(*c, &o, 0.0)) {
                    out.push(format!(
                        "label {:?} of {} -> {} covers {id}",
                        e.label, e.from, e.to
                    ));
                }
            }
        }
    }
    for (i, (a, ra)) in labels.iter().enumerate() {
        for (b, rb) in &labels[i + 1..] {
            let apart = ra.0 + ra.2 <= rb.0
                || rb.0 + rb.2 <= ra.0
                || ra.1 + ra.3 <= rb.1
                || rb.1 + rb.3 <= ra.1;
            if !apart {
                out.push(format!("the labels of {a} and {b} overlap"));
            }
        }
    }
    out
}

#[test]
fn the_sandbox_at_800_px_has_no_edge_through_a_box_and_no_label_on_one() {
    // An 800 px embed: topo_fit::columns_for(~780, 192) = 3 ranks a band.
    let cols = delaylab_playground::topo_fit::columns_for(780.0, 192.0);
    assert_eq!(cols, 3);
    assert_eq!(problems(cols, false), Vec::<String>::new());
}

#[test]
fn every_band_width_and_the_phone_layout_draw_clean() {
    // From 3 ranks a band: a frame narrow enough for 2 is in a window of 760 px or less,
    // which draws the phone's layout (topo_view.rs `narrow`).
    for cols in 3..=8 {
        assert_eq!(
            problems(cols, false),
            Vec::<String>::new(),
            "{cols} ranks a band"
        );
    }
    assert_eq!(
        problems(usize::MAX, false),
        Vec::<String>::new(),
        "one band"
    );
    assert_eq!(
        problems(usize::MAX, true),
        Vec::<String>::new(),
        "phone, wide lines"
    );
    let one = delaylab_playground::topo_fit::per_line_for(350.0, 192.0);
    assert_eq!(one, 1);
    assert_eq!(
        problems(one, true),
        Vec::<String>::new(),
        "a 390 px phone: one box a line"
    );
}
