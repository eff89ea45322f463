//! The playground's topology editing (`delaylab_playground::edit_rules`): the forms give
//! RabbitMQ's own replies for bad arguments and edit only the scenario's topology.

use delaylab_engine::scenario::{load_str, Declare, DestinationKind, Scenario};
use delaylab_playground::edit_rules::*;

fn sandbox() -> Scenario {
    load_str(include_str!("../../../src/app/sandbox.json")).expect("sandbox loads")
}

fn queue(name: &str, set: &[(&str, &str)]) -> QueueForm {
    let mut f = QueueForm {
        name: name.into(),
        durable: true,
        ..Default::default()
    };
    for (k, v) in set {
        let i = QUEUE_ARGS
            .iter()
            .position(|a| a == k)
            .expect("a queue form box");
        f.args[i] = v.to_string();
    }
    f
}

fn add_queue(s: &mut Scenario, f: &QueueForm) -> Result<Verdict, Refusal> {
    add(s, Declare::Queue(f.def()?))
}

#[test]
fn a_valid_queue_is_added_to_the_topology_once() {
    let mut s = sandbox();
    let n = s.topology.queues.len();
    let f = queue(
        "wait.10s",
        &[
            ("x-message-ttl", "10000"),
            ("x-dead-letter-exchange", "order.dlx.exchange"),
        ],
    );
    assert_eq!(add_queue(&mut s, &f), Ok(Verdict::Added));
    assert_eq!(s.topology.queues.len(), n + 1);
    let q = s.topology.queues.last().unwrap();
    assert_eq!(
        q.arguments.get("x-message-ttl").and_then(|v| v.as_int()),
        Some(10000)
    );
    assert_eq!(
        q.arguments
            .get("x-dead-letter-exchange")
            .and_then(|v| v.as_str()),
        Some("order.dlx.exchange")
    );
    // The same declaration again: RabbitMQ's no-op, nothing duplicated.
    assert_eq!(add_queue(&mut s, &f), Ok(Verdict::Unchanged));
    assert_eq!(s.topology.queues.len(), n + 1);
}

#[test]
fn bad_queue_arguments_get_rabbitmqs_406_next_to_their_field() {
    // (one queue argument, the field blamed, RabbitMQ's reply text)
    let cases: [((&str, &str), &str, &str); 4] = [
        (("x-message-ttl", "-1"), "x-message-ttl", "PRECONDITION_FAILED - invalid arg 'x-message-ttl' for queue 'q' in vhost '/': {value_negative,-1}"),
        (("x-message-ttl", "60000ms"), "x-message-ttl", "PRECONDITION_FAILED - invalid arg 'x-message-ttl' for queue 'q' in vhost '/': \"expected integer, got longstr\""),
        (("x-overflow", "bogus"), "x-overflow", "PRECONDITION_FAILED - invalid arg 'x-overflow' for queue 'q' in vhost '/': invalid_overflow"),
        (("x-expires", "0"), "x-expires", "PRECONDITION_FAILED - invalid arg 'x-expires' for queue 'q' in vhost '/': {value_zero,0}"),
    ];
    for (arg, field, text) in cases {
        let mut s = sandbox();
        let before = s.clone();
        let r = add_queue(&mut s, &queue("q", &[arg])).unwrap_err();
        assert_eq!(
            (r.code, r.field.as_str(), r.text.as_str()),
            (406, field, text),
            "{arg:?}"
        );
        assert_eq!(s, before, "a refused edit changes nothing");
    }
}

#[test]
fn quorum_and_exclusive_is_refused_on_the_exclusive_box() {
    let mut s = sandbox();
    let mut f = queue("qq", &[]);
    f.quorum = true;
    f.exclusive = true;
    let r = add_queue(&mut s, &f).unwrap_err();
    assert_eq!(r.code, 406);
    assert_eq!(r.field, "exclusive");
    assert_eq!(
        r.text,
        "PRECONDITION_FAILED - invalid property 'exclusive-owner' for queue 'qq' in vhost '/'"
    );
    // x-delivery-limit belongs to quorum queues: on a classic one it is refused.
    let r = add_queue(&mut s, &queue("cq", &[("x-delivery-limit", "3")])).unwrap_err();
    assert_eq!((r.code, r.field.as_str()), (406, "x-delivery-limit"));
    assert!(
        r.text.contains("of queue type rabbit_classic_queue"),
        "{}",
        r.text
    );
    assert_eq!(explain(&r), "ex_wrong_qtype");
}

#[test]
fn redeclaring_with_other_arguments_is_inequivalent() {
    let mut s = sandbox();
    let existing = s.topology.queues[0].name.clone();
    let r = add_queue(&mut s, &queue(&existing, &[("x-message-ttl", "5")])).unwrap_err();
    assert_eq!(r.code, 406);
    assert!(r.text.contains("inequivalent arg"), "{}", r.text);
    // Explained from the engine's cause, though the argument is x-message-ttl.
    assert_eq!(explain(&r), "ex_inequivalent");
    let bad_ttl = add_queue(&mut s, &queue("q", &[("x-message-ttl", "-1")])).unwrap_err();
    assert_eq!(explain(&bad_ttl), "ex_ttl");
    let mut f = queue("q", &[]);
    f.extra = vec![ExtraArg {
        key: "x-flag".into(),
        ty: ArgType::Bool,
        value: "maybe".into(),
    }];
    let form = f.def().unwrap_err();
    assert_eq!((form.code, explain(&form)), (0, "ex_form"));
}

#[test]
fn free_arguments_are_typed_as_their_row_says() {
    let mut f = queue("q", &[]);
    f.extra = vec![ExtraArg {
        key: "x-max-priority".into(),
        ty: ArgType::Number,
        value: "300".into(),
    }];
    let r = add_queue(&mut sandbox(), &f).unwrap_err();
    assert_eq!((r.code, r.field.as_str()), (406, "extra"), "{}", r.text);
    f.extra[0].ty = ArgType::Bool;
    let r = f.def().unwrap_err();
    assert_eq!((r.code, r.field.as_str()), (0, "extra"));
    f.extra[0] = ExtraArg {
        key: "x-custom".into(),
        ty: ArgType::Str,
        value: "hello".into(),
    };
    assert_eq!(
        add_queue(&mut sandbox(), &f),
        Ok(Verdict::Added),
        "unknown arguments are accepted"
    );
}

#[test]
fn exchanges_are_checked_as_rabbitmq_checks_them() {
    let form = |name: &str, kind: &str, delayed: &str| ExchangeForm {
        name: name.into(),
        kind: kind.into(),
        delayed_type: delayed.into(),
        durable: true,
        ..Default::default()
    };
    let mut s = sandbox();
    let r = add(
        &mut s,
        Declare::Exchange(form("amq.mine", "direct", "").def().unwrap()),
    )
    .unwrap_err();
    assert_eq!((r.code, r.field.as_str()), (403, "name"), "{}", r.text);
    let r = add(
        &mut s,
        Declare::Exchange(form("d", "x-delayed-message", "").def().unwrap()),
    )
    .unwrap_err();
    assert_eq!(
        (r.code, r.field.as_str()),
        (406, "x-delayed-type"),
        "{}",
        r.text
    );
    assert_eq!(r.text, "PRECONDITION_FAILED - Invalid argument, 'x-delayed-type' must be an existing exchange type");
    let ok = form("d", "x-delayed-message", "topic").def().unwrap();
    assert_eq!(add(&mut s, Declare::Exchange(ok)), Ok(Verdict::Added));
    let r = add(
        &mut s,
        Declare::Exchange(form("d", "direct", "").def().unwrap()),
    )
    .unwrap_err();
    assert_eq!((r.code, r.field.as_str()), (406, "type"), "{}", r.text);
}

#[test]
fn bindings_need_both_ends_and_a_valid_x_match() {
    let mut s = sandbox();
    let b = |src: &str, dst: &str, x_match: &str| BindingForm {
        source: src.into(),
        destination: dst.into(),
        routing_key: "k".into(),
        x_match: x_match.into(),
        ..Default::default()
    };
    let r = add(
        &mut s,
        Declare::Binding(b("nope.exchange", "order.dlx.queue", "").def().unwrap()),
    )
    .unwrap_err();
    assert_eq!((r.code, r.field.as_str()), (404, "source"), "{}", r.text);
    let r = add(
        &mut s,
        Declare::Binding(b("amq.direct", "nope.queue", "").def().unwrap()),
    )
    .unwrap_err();
    assert_eq!(
        (r.code, r.field.as_str()),
        (404, "destination"),
        "{}",
        r.text
    );
    assert_eq!(r.text, "NOT_FOUND - no queue 'nope.queue' in vhost '/'");
    let r = add(
        &mut s,
        Declare::Binding(b("amq.headers", "order.dlx.queue", "some").def().unwrap()),
    )
    .unwrap_err();
    assert_eq!((r.code, r.field.as_str()), (406, "x-match"), "{}", r.text);
    let n = s.topology.bindings.len();
    assert_eq!(
        add(
            &mut s,
            Declare::Binding(b("amq.headers", "order.dlx.queue", "any").def().unwrap())
        ),
        Ok(Verdict::Added)
    );
    assert_eq!(s.topology.bindings.len(), n + 1);
}

#[test]
fn deleting_takes_the_bindings_along() {
    let mut s = sandbox();
    let q = "order.dlx.queue";
    assert!(s.topology.bindings.iter().any(|b| b.destination == q));
    delete_queue(&mut s, q);
    assert!(!s.topology.queues.iter().any(|x| x.name == q));
    assert!(!s
        .topology
        .bindings
        .iter()
        .any(|b| b.destination == q && b.destination_type == DestinationKind::Queue));

    let mut s = sandbox();
    let x = s.topology.bindings[0].source.clone();
    delete_exchange(&mut s, &x).unwrap();
    assert!(!s.topology.exchanges.iter().any(|e| e.name == x));
    assert!(!s.topology.bindings.iter().any(|b| b.source == x));
    let r = delete_exchange(&mut s, "amq.direct").unwrap_err();
    assert_eq!(r.code, 403);

    let mut s = sandbox();
    let n = s.topology.bindings.len();
    let second = s.topology.bindings[1].clone();
    delete_binding(&mut s, 0);
    assert_eq!(s.topology.bindings.len(), n - 1);
    assert_eq!(s.topology.bindings[0], second);
    delete_binding(&mut s, 99);
    assert_eq!(s.topology.bindings.len(), n - 1);
}

#[test]
fn every_queue_refusal_lands_on_its_box() {
    let mut s = sandbox();
    // (form change, the field blamed, the reply code)
    type Case = (&'static str, fn(&mut QueueForm), &'static str, u16);
    let cases: [Case; 5] = [
        ("amq.q", |_| {}, "name", 403),
        (
            "qq",
            |f| {
                f.quorum = true;
                f.auto_delete = true
            },
            "auto_delete",
            406,
        ),
        (
            "qq",
            |f| {
                f.quorum = true;
                f.durable = false
            },
            "durable",
            406,
        ),
        (
            "s",
            |f| {
                f.extra = vec![ExtraArg {
                    key: "x-queue-type".into(),
                    ty: ArgType::Str,
                    value: "stream".into(),
                }]
            },
            "x-queue-type",
            406,
        ),
        (
            "p",
            |f| {
                f.extra = vec![ExtraArg {
                    key: "x-max-priority".into(),
                    ty: ArgType::Str,
                    value: "high".into(),
                }]
            },
            "extra",
            406,
        ),
    ];
    for (name, change, field, code) in cases {
        let mut f = queue(name, &[]);
        change(&mut f);
        let r = add_queue(&mut s, &f).unwrap_err();
        assert_eq!(
            (r.code, r.field.as_str()),
            (code, field),
            "{name}: {}",
            r.text
        );
    }
    // Re-declaring an existing queue: durable, then the argument, each on its own box.
    let existing = s.topology.queues[0].clone();
    let mut f = queue(&existing.name, &[]);
    f.durable = !existing.durable;
    let r = add_queue(&mut s, &f).unwrap_err();
    assert_eq!((r.code, r.field.as_str()), (406, "durable"), "{}", r.text);
    f.durable = existing.durable;
    f.exclusive = true;
    let r = add_queue(&mut s, &f).unwrap_err();
    assert_eq!((r.code, r.field.as_str()), (405, "exclusive"), "{}", r.text);
}

#[test]
fn every_exchange_refusal_lands_on_its_box() {
    let mut s = sandbox();
    let form = |name: &str, kind: &str| ExchangeForm {
        name: name.into(),
        kind: kind.into(),
        durable: true,
        ..Default::default()
    };
    let mut add_x = |f: ExchangeForm| {
        let name = f.name.clone();
        add(&mut s, Declare::Exchange(f.def().unwrap()))
            .expect_err(&format!("exchange {name:?} is refused"))
    };
    let r = add_x(form("e", "bogus"));
    assert_eq!((r.code, r.field.as_str()), (503, "type"), "{}", r.text);
    let r = add_x(form("", "direct"));
    assert_eq!((r.code, r.field.as_str()), (403, "name"), "{}", r.text);
    let mut f = form("d", "x-delayed-message");
    f.delayed_type = "bogus".into();
    let r = add_x(f);
    assert_eq!(
        (r.code, r.field.as_str()),
        (503, "x-delayed-type"),
        "{}",
        r.text
    );
    let mut f = form("amq.direct", "direct");
    f.durable = false;
    let r = add_x(f);
    assert_eq!((r.code, r.field.as_str()), (406, "durable"), "{}", r.text);
    let mut f = form("amq.direct", "direct");
    f.alternate_exchange = "ae".into();
    let r = add_x(f);
    assert_eq!(
        (r.code, r.field.as_str()),
        (406, "alternate-exchange"),
        "{}",
        r.text
    );
}

#[test]
fn binding_refusals_on_the_default_exchange_and_free_rows() {
    let mut s = sandbox();
    let r = add(
        &mut s,
        Declare::Binding(
            BindingForm {
                source: "".into(),
                destination: "order.dlx.queue".into(),
                ..Default::default()
            }
            .def()
            .unwrap(),
        ),
    )
    .unwrap_err();
    assert_eq!((r.code, r.field.as_str()), (403, "source"), "{}", r.text);
    let r = add(
        &mut s,
        Declare::Binding(
            BindingForm {
                source: "amq.direct".into(),
                destination: "nope.exchange".into(),
                to_exchange: true,
                ..Default::default()
            }
            .def()
            .unwrap(),
        ),
    )
    .unwrap_err();
    assert_eq!(
        (r.code, r.field.as_str()),
        (404, "destination"),
        "{}",
        r.text
    );
}

#[test]
fn the_subject_maps_to_a_field_without_reading_text() {
    use delaylab_engine::amqp::{Property, Subject};
    let arg = |k: &str| Some(Subject::Argument(k.into()));
    assert_eq!(queue_field(arg("x-message-ttl").as_ref()), "x-message-ttl");
    assert_eq!(queue_field(arg("x-queue-type").as_ref()), "x-queue-type");
    assert_eq!(queue_field(arg("x-max-priority").as_ref()), "extra");
    assert_eq!(
        queue_field(Some(&Subject::Property(Property::AutoDelete))),
        "auto_delete"
    );
    assert_eq!(queue_field(None), "name");
    assert_eq!(exchange_field(Some(&Subject::ExchangeType)), "type");
    assert_eq!(
        exchange_field(arg("x-delayed-type").as_ref()),
        "x-delayed-type"
    );
    assert_eq!(exchange_field(None), "name");
    assert_eq!(binding_field(Some(&Subject::Source)), "source");
    assert_eq!(binding_field(arg("x-match").as_ref()), "x-match");
    assert_eq!(binding_field(arg("x-custom").as_ref()), "extra");
}
