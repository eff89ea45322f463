//! The topology's automatic layout (`delaylab_playground::topo`), natively: left to right on a wide
//! screen, top to bottom on a phone, with no two boxes overlapping in either.

use delaylab_playground::topo;

use delaylab_playground::runner::PublishTargets;
use std::collections::BTreeSet;

use delaylab_engine::scenario::{load_str, ActionKind};
use delaylab_engine::sim::Sim;
use delaylab_engine::snapshot::Snapshot;

/// The head-of-line preset: publisher → exchange → wait queue → DLX → DLQ → consumer.
fn dlx_chain() -> topo::Model {
    let s = load_str(include_str!(
        "../../../scenarios/head-of-line-blocking.json"
    ))
    .expect("preset loads");
    let mut targets = PublishTargets::default();
    for a in &s.actions {
        if let ActionKind::Publish(p) = &a.kind {
            targets.add(&p.exchange, &p.routing_key);
        }
    }
    topo::model(&Snapshot::of(&Sim::new(&s)), &targets)
}

fn at(
    p: &std::collections::HashMap<String, (f64, f64)>,
    m: &topo::Model,
    kind: topo::NodeKind,
) -> Vec<(f64, f64)> {
    m.nodes
        .iter()
        .filter(|n| n.kind == kind)
        .map(|n| p[&n.id])
        .collect()
}

fn assert_no_overlap(m: &topo::Model, p: &std::collections::HashMap<String, (f64, f64)>) {
    for (i, a) in m.nodes.iter().enumerate() {
        for b in &m.nodes[i + 1..] {
            let ((ax, ay), (bx, by)) = (p[&a.id], p[&b.id]);
            let apart = ax + a.w <= bx || bx + b.w <= ax || ay + a.h <= by || by + b.h <= ay;
            assert!(
                apart,
                "{} at {:?} overlaps {} at {:?}",
                a.id,
                (ax, ay),
                b.id,
                (bx, by)
            );
        }
    }
}

#[test]
fn wide_layout_reads_left_to_right() {
    let m = dlx_chain();
    let p = topo::layout(&m, false);
    let (publisher, consumer) = (
        at(&p, &m, topo::NodeKind::Publisher)[0],
        at(&p, &m, topo::NodeKind::Consumer)[0],
    );
    assert!(
        publisher.0 < consumer.0,
        "publisher {publisher:?} left of consumer {consumer:?}"
    );
    let xs: BTreeSet<i64> = p.values().map(|v| v.0 as i64).collect();
    assert_eq!(xs.len(), m.nodes.len(), "a chain takes one column per box");
    assert_no_overlap(&m, &p);
}

#[test]
fn phone_layout_reads_top_to_bottom_in_one_column() {
    let m = dlx_chain();
    let p = topo::layout(&m, true);
    let (publisher, consumer) = (
        at(&p, &m, topo::NodeKind::Publisher)[0],
        at(&p, &m, topo::NodeKind::Consumer)[0],
    );
    assert!(
        publisher.1 < consumer.1,
        "publisher {publisher:?} above consumer {consumer:?}"
    );
    let widest = m.nodes.iter().map(|n| n.w).fold(0.0, f64::max);
    let (x0, x1) = m
        .nodes
        .iter()
        .map(|n| (p[&n.id].0, p[&n.id].0 + n.w))
        .fold((f64::MAX, f64::MIN), |a, b| (a.0.min(b.0), a.1.max(b.1)));
    assert!(
        x1 - x0 <= widest + 0.5,
        "a chain is one column as wide as its widest box: {x0}..{x1}"
    );
    assert_no_overlap(&m, &p);
}

#[test]
fn a_wrapped_wide_layout_folds_the_chain_into_bands_without_overlap() {
    let m = dlx_chain();
    let p = topo::layout_wrapped(&m, false, 4);
    let xs: BTreeSet<i64> = p.values().map(|v| v.0 as i64).collect();
    assert_eq!(xs.len(), 4, "at most 4 ranks side by side");
    let (publisher, consumer) = (
        at(&p, &m, topo::NodeKind::Publisher)[0],
        at(&p, &m, topo::NodeKind::Consumer)[0],
    );
    assert!(
        consumer.1 > publisher.1,
        "the chain goes on in a band below"
    );
    assert_no_overlap(&m, &p);
    assert_eq!(
        topo::layout_wrapped(&m, false, usize::MAX),
        topo::layout(&m, false)
    );
}
