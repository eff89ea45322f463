//! A scenario's `checks` travel in its share link (the link carries the saved JSON),
//! and a link made before checks existed opens with none (`old_links.rs` keeps
//! decoding the committed v1 links unchanged).

mod common;

use delaylab_engine::scenario::load_value;
use delaylab_share::{decode_fragment, encode_fragment, ViewOptions};
use serde_json::json;

#[test]
fn checks_survive_a_link() {
    let mut v = delaylab_engine::scenario::save::to_value(&common::preset("head-of-line-blocking"));
    v["checks"] = json!([
        {"name": "b-waits", "label": "B waits behind A", "delivered": {"body": "B", "at": "30m"}},
        {"label": "p99 under 2 s", "lateness": {"of": "p99", "at_most": "2s"}},
        {"label": "one overdue at 6:00", "depth": {"queue": "order.delay.queue", "of": "overdue", "at": "6m", "equals": 1}}
    ]);
    let s = load_value(&v).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.checks.len(), 3);
    let back = decode_fragment(&encode_fragment(&s, &ViewOptions::default())).unwrap();
    assert_eq!(back.scenario, s);
    assert_eq!(back.scenario.checks, s.checks);
}

#[test]
fn a_scenario_without_checks_links_as_before() {
    let mut s = common::preset("head-of-line-blocking");
    s.checks.clear();
    let text = encode_fragment(&s, &ViewOptions::default());
    let back = decode_fragment(&text).unwrap();
    assert!(back.scenario.checks.is_empty());
    assert_eq!(back.scenario, s);
}
