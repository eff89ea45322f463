//! Every preset survives a link: same scenario, same run result; and the links are short.

mod common;

use common::{presets, result, BASE};
use delaylab_share::{decode_fragment, encode_fragment, make_link, ViewOptions};

#[test]
fn every_preset_round_trips_with_the_same_result() {
    let view = ViewOptions {
        speed: Some(1000.0),
        autoplay: true,
        start_ms: Some(60_000),
        compare: vec!["fix-delayed-plugin".into()],
        lang: Some("zh".into()),
        read_only: true,
        panels: vec!["clock".into(), "queues".into()],
    };
    for (id, s) in presets() {
        for v in [ViewOptions::default(), view.clone()] {
            let link = make_link(BASE, &s, &v);
            let back = decode_fragment(&link).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(back.scenario, s, "{id}");
            assert_eq!(back.view, v, "{id}");
        }
        // The same deliveries at the same times (the big burst is checked too: it is the
        // preset most likely to differ if a repeat or a seed were lost).
        let back = decode_fragment(&encode_fragment(&s, &ViewOptions::default())).unwrap();
        assert_eq!(result(&back.scenario), result(&s), "{id}");
    }
}

#[test]
fn preset_links_are_short() {
    let mut table = String::new();
    for (id, s) in presets() {
        let link = make_link(BASE, &s, &ViewOptions::default());
        table.push_str(&format!("{id:45} {:4}\n", link.len()));
        if id == "head-of-line-blocking" {
            assert!(link.len() <= 400, "{link}");
        }
    }
    println!("{table}");
}

#[test]
fn an_edited_preset_still_gets_a_short_link() {
    let mut s = common::preset("head-of-line-blocking");
    s.name = "My head-of-line test".into();
    s.description = "Two orders, one queue, the 5 min one waits for the 30 min one.".into();
    if let delaylab_engine::scenario::ActionKind::Publish(p) = &mut s.actions[1].kind {
        p.body = "order-42".into();
    }
    let link = make_link(
        BASE,
        &s,
        &ViewOptions {
            speed: Some(100.0),
            ..Default::default()
        },
    );
    assert!(link.len() <= 400, "{} chars: {link}", link.len());
    println!("edited head-of-line: {} characters", link.len());
    assert_eq!(decode_fragment(&link).unwrap().scenario, s);
}

#[test]
fn a_big_scenario_round_trips() {
    // 2,000 publishes with distinct bodies: far beyond any dictionary's reach.
    let mut s = common::preset("head-of-line-blocking");
    let first = s.actions[0].clone();
    for i in 0..2_000u64 {
        let mut a = first.clone();
        a.at_ms = i * 1_000;
        if let delaylab_engine::scenario::ActionKind::Publish(p) = &mut a.kind {
            p.body = format!("order-{}", i * 7919 % 100_003);
        }
        s.actions.push(a);
    }
    let fragment = encode_fragment(&s, &ViewOptions::default());
    assert!(
        fragment.len() < delaylab_share::MAX_FRAGMENT_CHARS,
        "{}",
        fragment.len()
    );
    let back = decode_fragment(&fragment).unwrap();
    assert_eq!(back.scenario, s);
    assert_eq!(result(&back.scenario), result(&s));
}

/// The `broker` field (issue 12): absent stays absent through a link, a set one survives.
#[test]
fn broker_field_round_trips_and_absent_stays_absent() {
    let s = common::preset("head-of-line-blocking");
    assert_eq!(s.broker, None);
    let back = decode_fragment(&encode_fragment(&s, &ViewOptions::default())).unwrap();
    assert_eq!(back.scenario.broker, None);
    let mut v43 = s.clone();
    v43.broker = Some(delaylab_engine::version::BrokerVersion::V4_3);
    let back = decode_fragment(&encode_fragment(&v43, &ViewOptions::default())).unwrap();
    assert_eq!(back.scenario, v43);
}

/// A 4.4 scenario with typed delivery times (issue 27) keeps its version, its header
/// types and its run through a link; an old link (no such version) keeps its meaning.
#[test]
fn a_4_4_scenario_with_typed_delivery_times_round_trips() {
    let s = delaylab_engine::scenario::load_value(&serde_json::json!({
        "version": 1, "broker": "4.4", "until": "1m",
        "topology": {"queues": [{"name": "q", "arguments": {"x-queue-type": "quorum"}}]},
        "consumers": [{"name": "c", "queue": "q", "ack": "auto"}],
        "actions": [
            {"at": 0, "publish": {"routing_key": "q", "body": "ms", "properties": {"headers": {"x-opt-delivery-time": 10000}}}},
            {"at": 0, "publish": {"routing_key": "q", "body": "s", "properties": {"headers": {"x-opt-delivery-time": {"$timestamp": 20}}}}}
        ]
    }))
    .unwrap();
    let back = decode_fragment(&encode_fragment(&s, &ViewOptions::default())).unwrap();
    assert_eq!(back.scenario, s);
    assert_eq!(
        back.scenario.broker,
        Some(delaylab_engine::version::BrokerVersion::V4_4)
    );
    assert_eq!(result(&back.scenario), result(&s));
}
