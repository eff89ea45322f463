//! The runner with the engine's own scheduling: a repeated publish from the form is one
//! recorded action whose runs the engine fires, and the recorded session replays the
//! same after a restart.

use delaylab_engine::scenario::{load_str, Scenario};
use delaylab_engine::EventKind;
use delaylab_playground::pacer::{AfterSeek, Pacer};
use delaylab_playground::publish_form::PublishForm;
use delaylab_playground::runner::{Batch, Runner};

fn sandbox() -> Scenario {
    load_str(include_str!("../../../src/app/sandbox.json")).expect("sandbox loads")
}

/// (time, body) of every publish in the runner's log.
fn published(r: &Runner) -> Vec<(u64, String)> {
    r.track
        .log
        .iter()
        .filter(|e| matches!(e.ev.kind, EventKind::Published { .. }))
        .map(|e| {
            let id = e.ev.kind.msg_id().expect("a publish has a message").0;
            (e.ev.t_ms, r.track.body(id).to_string())
        })
        .collect()
}

fn run_to(r: &mut Runner, ms: u64) {
    let mut b = Batch::default();
    assert!(r.advance_to(ms, &mut b, || false), "no time limit: reached");
}

#[test]
fn a_repeated_publish_is_one_action_the_engine_runs() {
    let mut r = Runner::new(sandbox());
    run_to(&mut r, 5_000);
    let form = PublishForm {
        count: "3".into(),
        every: "10s".into(),
        ..PublishForm::default()
    };
    let mut b = Batch::default();
    let actions_before = r.scenario.actions.len();
    assert!(r.run_scheduled(form.action(r.now(), 0).unwrap(), &mut b));
    assert_eq!(
        r.scenario.actions.len(),
        actions_before + 1,
        "recorded once"
    );
    assert_eq!(
        published(&r),
        vec![(5_000, "order-1".to_string())],
        "the first run at once"
    );
    assert_eq!(r.next_at(), Some(15_000), "the next run is an engine timer");
    run_to(&mut r, 60_000);
    let got = published(&r);
    assert_eq!(
        got,
        vec![
            (5_000, "order-1".to_string()),
            (15_000, "order-2".to_string()),
            (25_000, "order-3".to_string()),
        ]
    );

    // The recorded session, replayed from 0: the same publishes at the same times.
    let mut again = Runner::new(r.scenario.clone());
    run_to(&mut again, 60_000);
    assert_eq!(published(&again), got);
}

#[test]
fn a_seek_paced_over_frames_arrives_and_pauses() {
    let mut r = Runner::new(sandbox());
    let mut p = Pacer::new(r.scenario.until_ms);
    p.seek(120_000, AfterSeek::Pause);
    let mut frames = 0;
    while let Some(target) = p.target(f64::from(frames) * 16.0) {
        let mut b = Batch::default();
        // A tiny budget: each frame handles one slice at most.
        let mut slices = 0;
        let reached = r.advance_to(target, &mut b, || {
            slices += 1;
            slices > 1
        });
        let wall = f64::from(frames) * 16.0;
        if reached {
            p.reached(wall, r.now());
        } else {
            p.behind(wall, r.now());
        }
        frames += 1;
        assert!(frames < 10_000, "a seek always arrives");
    }
    assert_eq!(r.now(), 120_000);
    assert!(!p.playing());
}

/// A wait queue dead-lettering into a consumed queue, no `until`: what the sandbox is.
fn quiet_pipeline() -> Scenario {
    load_str(
        r#"{"version": 1, "name": "quiet",
            "topology": {
              "exchanges": [{"name": "dlx", "type": "fanout"}],
              "queues": [{"name": "wait", "arguments": {"x-dead-letter-exchange": "dlx"}},
                         {"name": "done"}],
              "bindings": [{"source": "dlx", "destination": "done", "destination_type": "queue", "routing_key": ""}]},
            "consumers": [{"name": "closer", "queue": "done", "ack": "manual", "prefetch": 10, "handle": "100ms", "outcome": "ack"}],
            "actions": [{"at": "0s", "publish": {"exchange": "", "routing_key": "wait", "body": "A",
                                                 "properties": {"expiration": "1800000"}}}]}"#,
    )
    .expect("loads")
}

#[test]
fn play_without_until_stops_at_the_last_thing_that_happened() {
    use delaylab_playground::runner::Reach;
    let mut r = Runner::new(quiet_pipeline());
    let mut p = Pacer::new(r.scenario.until_ms);
    p.set_speed(100_000.0, 0.0, 0);
    p.set_playing(true, 0.0, 0);
    let mut wall = 0.0;
    loop {
        wall += 16.0;
        let target = p.target(wall).expect("playing");
        assert!(p.stops_when_quiet());
        let mut b = Batch::default();
        match r.advance_until_quiet(target, &mut b, || false) {
            Reach::Target => {
                p.reached(wall, r.now());
            }
            Reach::OutOfTime => unreachable!("no frame budget here"),
            Reach::Quiet => {
                p.quiet(r.now());
                break;
            }
        }
        assert!(wall < 100_000.0, "play stops");
    }
    // A expires at 30:00 and is delivered; the closer acks 100 ms later: the end.
    assert_eq!(r.now(), 1_800_100);
    assert_eq!(p.quiet_at(), Some(1_800_100));
    assert!(!p.playing());
    assert_eq!(r.next_at(), None);

    // The same run headless (the CLI's way): the same end.
    let sim = delaylab_engine::report::run_with(&r.scenario, Default::default(), |_, _| {});
    assert_eq!(sim.now_ms(), r.now());

    // Play pressed on a quiet scenario runs time on (to publish later), as before.
    p.set_playing(true, wall, r.now());
    let mut b = Batch::default();
    assert_eq!(
        r.advance_until_quiet(2_000_000, &mut b, || false),
        Reach::Target
    );
    assert_eq!(r.now(), 2_000_000);
}
