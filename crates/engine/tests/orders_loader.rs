//! Loading `orders` and `faults`: errors name the JSON path; save then load round-trips.

mod orders_common;

use delaylab_engine::scenario::{load_value, save};
use orders_common::*;
use serde_json::{json, Value};

fn err(v: Value) -> String {
    load_value(&v)
        .map(|_| ())
        .expect_err("should not load")
        .to_string()
}

fn base() -> Value {
    scenario(Via::Plugin, "idempotent", json!([]), json!({}), 1)
}

#[test]
fn round_trip_with_every_field() {
    let extra = json!({"start": "1m", "early": "ignore", "stock": 7, "compensation": {"every": "5m"},
                       "reminder": {"publish": {"exchange": "dx", "routing_key": "c", "properties": {"headers": {"x-delay": 600000}}}}});
    let faults = json!([{"kind": "duplicate_delivery", "share": 0.25}, {"kind": "early_arrival", "share": 0.5, "by": "2m"},
                        {"kind": "lose_node", "at": "20m"}, {"kind": "consumer_outage", "at": "30m", "for": "5m"},
                        {"kind": "pay_race", "share": 1.0}, {"kind": "crash_before_ack", "share": 0.0}, {"kind": "lost_in_store", "share": 0.1}]);
    let s = load(&scenario(Via::Plugin, "check_state", faults, extra, 2));
    assert_eq!(s.faults.len(), 7);
    let again = load_value(&save::to_value(&s)).expect("saved scenario loads");
    assert_eq!(again, s);
    let plain = load(&base());
    assert_eq!(load_value(&save::to_value(&plain)).unwrap(), plain);
}

#[test]
fn errors_name_the_path() {
    type Change = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Change, &str)> = vec![
        (
            Box::new(|v| v["orders"]["policy"] = json!("yolo")),
            "orders.policy: expected one of \"naive\"",
        ),
        (
            Box::new(|v| v["orders"]["consumer"] = json!("nobody")),
            "orders.consumer: no consumer named \"nobody\"",
        ),
        (
            Box::new(|v| v["consumers"][0]["ack"] = json!("auto")),
            "orders.consumer: consumer \"closer\" uses auto ack",
        ),
        (
            Box::new(|v| v["orders"]["pay"][1]["after"] = json!(["5m", "1m"])),
            "orders.pay[1].after[1]: the end of the range is before its start",
        ),
        (
            Box::new(|v| v["orders"]["pay"][0]["share"] = json!(0.9)),
            "orders.pay: the shares add up to",
        ),
        (
            Box::new(|v| v["orders"]["pay"][0]["share"] = json!(1.5)),
            "orders.pay[0].share: expected a share",
        ),
        (
            Box::new(|v| v["orders"]["count"] = json!(100_001)),
            "orders.count: expected an integer from 0 to 100000",
        ),
        (
            Box::new(|v| v["orders"]["timeout"] = json!(0)),
            "orders.timeout: the timeout must be more than 0",
        ),
        (
            Box::new(|v| v["orders"]["publish"]["body"] = json!("x")),
            "orders.publish.body: the lab sets the body",
        ),
        (
            Box::new(|v| v["orders"]["compensation"] = json!({"every": "10ms"})),
            "orders.compensation.every: the scan runs at most every second",
        ),
        (
            Box::new(|v| v["orders"]["colour"] = json!(1)),
            "orders.colour: unknown field",
        ),
        (
            Box::new(|v| v["faults"] = json!([{"kind": "meteor"}])),
            "faults[0].kind: expected one of \"duplicate_delivery\"",
        ),
        (
            Box::new(|v| v["faults"] = json!([{"kind": "lose_node"}])),
            "faults[0].at: missing (required)",
        ),
        (
            Box::new(|v| v["faults"] = json!([{"kind": "pay_race", "share": 0.1, "at": "1m"}])),
            "faults[0].at: unknown field",
        ),
        (
            Box::new(|v| v["faults"] = json!(vec![json!({"kind": "pay_race", "share": 0.1}); 33])),
            "faults: 33 faults; the limit is 32",
        ),
    ];
    for (change, needle) in cases {
        let mut v = base();
        change(&mut v);
        let e = err(v);
        assert!(e.contains(needle), "expected {needle:?} in {e:?}");
    }
}

#[test]
fn faults_need_orders_and_early_arrival_needs_a_message_delay() {
    let e = err(json!({"faults": [{"kind": "pay_race", "share": 0.5}]}));
    assert!(
        e.starts_with("faults: faults are injected into the order-timeout lab"),
        "{e}"
    );
    let v = scenario(
        Via::QueueTtl,
        "naive",
        json!([{"kind": "early_arrival", "share": 0.5}]),
        json!({}),
        1,
    );
    assert!(err(v).contains("faults[0].kind: early_arrival shortens the close message's own delay"));
}
