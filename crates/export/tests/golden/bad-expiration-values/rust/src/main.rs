// Bad TTL values: 406 PRECONDITION_FAILED: exported by delaylab (delaylab export code
// --lang rust).
//
// One publisher sends orders to order.delay.exchange, bound to the DLX wait queue
// order.delay.queue (dead-lettering through order.dlx.exchange into order.dlx.queue), with
// expiration strings a client might produce by mistake, one per second. At 0:10 someone
// also declares a queue with x-message-ttl given as a string.
//
// Watch: expiration must be a string holding a non-negative integer of milliseconds, at
// most 10 years. "abc", "-1", "1.5", "", " 500" and "315360000001" each close the channel
// with 406 PRECONDITION_FAILED (no_integer, value_negative, leftover_string, no_integer,
// no_integer, value_too_large) at 0:00 to 0:05, and the message is gone: it appears only in
// errors. "+500" (0:06) and "0500" (0:07) are accepted as 500 ms and delivered at 0:06.500
// and 0:07.500 with the original string kept in x-death original-expiration. The queue
// declared with x-message-ttl "60000" (a string, not an integer) fails with 406 at 0:10.
//
// Run: ./run.sh AMQP_URL [TIME_SCALE] (cargo, lapin on tokio, built offline from the
// registry cache; a test broker: the program declares and deletes its own objects).
//
// Every exchange and queue gets a unique prefix (dl-<random>-), so a run never touches what
// already lives on the broker; everything declared is deleted at the end. TIME_SCALE
// multiplies every duration (action times, TTLs, handle times); the report divides again,
// so its times are scenario ms. At the end the program prints what it saw as the run
// contract JSON of `delaylab run --format json`; `delaylab diff` compares the two.
//
// Nothing left out: the program does everything the scenario does.

// x-delaylab-id: only for the report (when was a delivered message published); removed from
// the output.
mod runtime;

use std::process::ExitCode;

use runtime::*;

const NAME: &str = "Bad TTL values: 406 PRECONDITION_FAILED";
/// The scenario's end (until), and the real ms waited after it for the broker's last
/// steps.
const END_MS: u64 = 20000;
const GRACE_MS: u64 = 25;
/// Every queue and exchange the run may create (deleted at the end).
const QUEUES: &[&str] = &["order.delay.queue", "order.delay.string-ttl.queue", "order.dlx.queue"];
const EXCHANGES: &[&str] = &["order.delay.exchange", "order.dlx.exchange"];
/// What the program does not do (also in the header).
const LEFT_OUT: &[&str] = &[];

// ---------------------------------------------------------------- the topology

async fn declare_topology(run: &mut Run) {
    run.step(async |ch| {
        let opts = ExchangeDeclareOptions { durable: true, ..Default::default() };
        ch.exchange_declare(
            n("order.delay.exchange"),
            ExchangeKind::Direct,
            opts,
            FieldTable::default(),
        )
        .await
    })
    .await;
    run.step(async |ch| {
        let opts = ExchangeDeclareOptions { durable: true, ..Default::default() };
        ch.exchange_declare(
            n("order.dlx.exchange"),
            ExchangeKind::Direct,
            opts,
            FieldTable::default(),
        )
        .await
    })
    .await;
    // A wait queue: no consumer reads it, on purpose. Messages sit here until their TTL
    // runs out, then the broker dead-letters them to the exchange below. Only the message
    // at the head of a queue expires, so a short TTL waits behind a long one (head-of-line
    // blocking).
    run.step(async |ch| {
        let opts = QueueDeclareOptions { durable: true, ..Default::default() };
        let args = table([
            // x-dead-letter-exchange: where expired, rejected and overflowed messages are
            // republished.
            ("x-dead-letter-exchange", name_arg("order.dlx.exchange")),
            // x-dead-letter-routing-key: replaces the message's routing key when it is
            // dead-lettered.
            ("x-dead-letter-routing-key", AMQPValue::LongString("order.timeout".into())),
        ]);
        ch.queue_declare(n("order.delay.queue"), opts, args).await
    })
    .await;
    run.step(async |ch| {
        let opts = QueueDeclareOptions { durable: true, ..Default::default() };
        ch.queue_declare(n("order.dlx.queue"), opts, FieldTable::default()).await
    })
    .await;
    run.step(async |ch| {
        ch.queue_bind(
            n("order.delay.queue"),
            n("order.delay.exchange"),
            "order.create".into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await
    })
    .await;
    run.step(async |ch| {
        ch.queue_bind(
            n("order.dlx.queue"),
            n("order.dlx.exchange"),
            "order.timeout".into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await
    })
    .await;
}

// ---------------------------------------------------------------- the consumers

async fn start_consumers(run: &mut Run) {
    // Manual acks: a delivered message stays unacked (and does not expire) until the
    // consumer acks, rejects or nacks it.
    // prefetch (basic.qos): at most this many unacked messages at a time on this consumer.
    run.consume(Consumer {
        name: "closer",
        queue: "order.dlx.queue",
        auto_ack: false,
        prefetch: 10,
        handle_ms: 0,
        outcome: Outcomes::Fixed(Outcome::Ack),
        from_ms: 0,
        to_ms: None,
    })
    .await;
}

// ---------------------------------------------------------------- the timed actions

// Each action once, or `count` times `every_ms` apart; the run sorts them by (time, repeat
// run > 1, action index, run): the order in which the simulation fires them.
const TIMED: &[Timed] = &[
    Timed { index: 0, at_ms: 0, count: 1, every_ms: 0 },
    Timed { index: 1, at_ms: 1000, count: 1, every_ms: 0 },
    Timed { index: 2, at_ms: 2000, count: 1, every_ms: 0 },
    Timed { index: 3, at_ms: 3000, count: 1, every_ms: 0 },
    Timed { index: 4, at_ms: 4000, count: 1, every_ms: 0 },
    Timed { index: 5, at_ms: 5000, count: 1, every_ms: 0 },
    Timed { index: 6, at_ms: 6000, count: 1, every_ms: 0 },
    Timed { index: 7, at_ms: 7000, count: 1, every_ms: 0 },
    Timed { index: 8, at_ms: 10000, count: 1, every_ms: 0 },
];

/// Action `index` of the scenario, run number `_k` (1-based: `{n}` in a body).
async fn act(run: &mut Run, index: usize, _k: u32) {
    match index {
        // actions[0] at 0 ms
        0 => {
            // Publisher confirms: the broker acks each publish once it has taken it; the
            // program waits for each ack, and a mandatory message that cannot be routed
            // comes back before it.
            // expiration is a string of milliseconds (an AMQP shortstr), not a number:
            // "300000". The broker parses it strictly at publish; a bad value closes the
            // channel with 406.
            // Sent exactly as written, not scaled: the broker refuses it (406) as the
            // simulation does.
            let props = BasicProperties::default()
                .with_expiration("abc".into());
            run.publish(
                n("order.delay.exchange"),
                "order.create".into(),
                "exp-abc",
                props,
                false,
            )
            .await;
        }
        // actions[1] at 1000 ms
        1 => {
            let props = BasicProperties::default()
                .with_expiration("-1".into());
            run.publish(
                n("order.delay.exchange"),
                "order.create".into(),
                "exp-negative",
                props,
                false,
            )
            .await;
        }
        // actions[2] at 2000 ms
        2 => {
            let props = BasicProperties::default()
                .with_expiration("1.5".into());
            run.publish(
                n("order.delay.exchange"),
                "order.create".into(),
                "exp-decimal",
                props,
                false,
            )
            .await;
        }
        // actions[3] at 3000 ms
        3 => {
            let props = BasicProperties::default()
                .with_expiration("".into());
            run.publish(
                n("order.delay.exchange"),
                "order.create".into(),
                "exp-empty",
                props,
                false,
            )
            .await;
        }
        // actions[4] at 4000 ms
        4 => {
            let props = BasicProperties::default()
                .with_expiration(" 500".into());
            run.publish(
                n("order.delay.exchange"),
                "order.create".into(),
                "exp-leading-space",
                props,
                false,
            )
            .await;
        }
        // actions[5] at 5000 ms
        5 => {
            let props = BasicProperties::default()
                .with_expiration("315360000001".into());
            run.publish(
                n("order.delay.exchange"),
                "order.create".into(),
                "exp-over-10-years",
                props,
                false,
            )
            .await;
        }
        // actions[6] at 6000 ms
        6 => {
            let props = BasicProperties::default()
                .with_expiration(ttl_read_as("+500", 500));
            run.publish(
                n("order.delay.exchange"),
                "order.create".into(),
                "exp-plus",
                props,
                false,
            )
            .await;
        }
        // actions[7] at 7000 ms
        7 => {
            let props = BasicProperties::default()
                .with_expiration(ttl_read_as("0500", 500));
            run.publish(
                n("order.delay.exchange"),
                "order.create".into(),
                "exp-leading-zero",
                props,
                false,
            )
            .await;
        }
        // actions[8] at 10000 ms
        8 => {
            run.step(async |ch| {
                let opts = QueueDeclareOptions { durable: true, ..Default::default() };
                let args = table([
                    // Given as a string, as the scenario has it: RabbitMQ refuses this
                    // declaration with 406 (x-message-ttl must be an integer).
                    ("x-message-ttl", AMQPValue::LongString("60000".into())),
                ]);
                ch.queue_declare(n("order.delay.string-ttl.queue"), opts, args).await
            })
            .await;
        }
        _ => unreachable!("no timed action {index}"),
    }
}

/// The scenario on the broker: the clock starts after the topology and the first
/// consumers; the timed actions at their times; then the grace period.
async fn play(run: &mut Run) {
    declare_topology(run).await;
    start_consumers(run).await;
    for (at_ms, index, k) in run.start(TIMED, END_MS) {
        run.sleep_until(at_ms, 0).await;
        act(run, index, k).await;
    }
    run.sleep_until(END_MS, GRACE_MS).await;
}

#[tokio::main]
async fn main() -> ExitCode {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("AMQP_URL").ok())
        .unwrap_or_else(|| DEFAULT_URL.to_string());
    for line in LEFT_OUT {
        eprintln!("left out: {line}");
    }
    let mut run = match Run::connect(&url).await {
        Ok(run) => run,
        Err(e) => {
            eprintln!("cannot connect: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Ctrl-C or SIGTERM: stop, but still delete what was declared.
    let finished = tokio::select! {
        _ = play(&mut run) => true,
        _ = interrupted() => false,
    };
    let measured_at = run.now_ms();
    let depths = if finished { run.depths(QUEUES).await } else { Default::default() };
    let report = run.report(NAME, END_MS, measured_at, depths);
    run.cleanup(QUEUES, EXCHANGES).await;
    if !finished {
        eprintln!("interrupted; removed what was declared");
        return ExitCode::from(130);
    }
    println!("{}", serde_json::to_string_pretty(&report).expect("JSON"));
    ExitCode::SUCCESS
}
