// Retry loop with x-death counts: exported by delaylab (delaylab export code --lang rust).
//
// A payment notification is processed from payment.work.queue; on failure the worker
// rejects it (requeue=false) and the queue dead-letters it through payment.retry.exchange
// into payment.retry.queue, which has x-message-ttl 5000 and dead-letters back through
// payment.exchange into the work queue. The worker fails three times and then gives up,
// modelled by the outcome list reject, reject, reject, ack.
//
// Watch: The message is delivered at 0:00.000, 0:05.200, 0:10.400 and 0:15.600: each round
// is 200 ms of handling plus the 5 s retry TTL. The loop is allowed although it is a cycle,
// because it contains a rejection. x-death keeps one entry per (queue, reason), newest
// first, and counts up: on the fourth delivery it reads payment.retry.queue/expired count 3
// and payment.work.queue/rejected count 3. A real consumer reads that count and stops
// retrying (parks or logs the message) instead of relying on a fixed outcome list;
// x-first-death-* stay at the first rejection.
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

const NAME: &str = "Retry loop with x-death counts";
/// The scenario's end (until), and the real ms waited after it for the broker's last
/// steps.
const END_MS: u64 = 60000;
const GRACE_MS: u64 = 25;
/// Every queue and exchange the run may create (deleted at the end).
const QUEUES: &[&str] = &["payment.retry.queue", "payment.work.queue"];
const EXCHANGES: &[&str] = &["payment.exchange", "payment.retry.exchange"];
/// What the program does not do (also in the header).
const LEFT_OUT: &[&str] = &[];

// ---------------------------------------------------------------- the topology

async fn declare_topology(run: &mut Run) {
    run.step(async |ch| {
        let opts = ExchangeDeclareOptions { durable: true, ..Default::default() };
        ch.exchange_declare(
            n("payment.exchange"),
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
            n("payment.retry.exchange"),
            ExchangeKind::Direct,
            opts,
            FieldTable::default(),
        )
        .await
    })
    .await;
    run.step(async |ch| {
        let opts = QueueDeclareOptions { durable: true, ..Default::default() };
        let args = table([
            // x-dead-letter-exchange: where expired, rejected and overflowed messages are
            // republished.
            ("x-dead-letter-exchange", name_arg("payment.retry.exchange")),
            // x-dead-letter-routing-key: replaces the message's routing key when it is
            // dead-lettered.
            ("x-dead-letter-routing-key", AMQPValue::LongString("payment.retry".into())),
        ]);
        ch.queue_declare(n("payment.work.queue"), opts, args).await
    })
    .await;
    // A wait queue: no consumer reads it, on purpose. Messages sit here until their TTL
    // runs out, then the broker dead-letters them to the exchange below. Only the message
    // at the head of a queue expires, so a short TTL waits behind a long one (head-of-line
    // blocking).
    run.step(async |ch| {
        let opts = QueueDeclareOptions { durable: true, ..Default::default() };
        let args = table([
            // x-message-ttl: every message in this queue expires after this many ms. An
            // integer: the string "60000" is refused with 406 PRECONDITION_FAILED.
            ("x-message-ttl", ms_arg(5000)),
            ("x-dead-letter-exchange", name_arg("payment.exchange")),
            ("x-dead-letter-routing-key", AMQPValue::LongString("payment.notify".into())),
        ]);
        ch.queue_declare(n("payment.retry.queue"), opts, args).await
    })
    .await;
    run.step(async |ch| {
        ch.queue_bind(
            n("payment.work.queue"),
            n("payment.exchange"),
            "payment.notify".into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await
    })
    .await;
    run.step(async |ch| {
        ch.queue_bind(
            n("payment.retry.queue"),
            n("payment.retry.exchange"),
            "payment.retry".into(),
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
    // reject with requeue=false: dead-lettered (reason rejected) if the queue has a DLX,
    // else dropped.
    run.consume(Consumer {
        name: "worker",
        queue: "payment.work.queue",
        auto_ack: false,
        prefetch: 1,
        handle_ms: 200,
        outcome: Outcomes::Sequence(&[Outcome::Reject, Outcome::Reject, Outcome::Reject, Outcome::Ack]),
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
];

/// Action `index` of the scenario, run number `_k` (1-based: `{n}` in a body).
async fn act(run: &mut Run, index: usize, _k: u32) {
    match index {
        // actions[0] at 0 ms
        0 => {
            // Publisher confirms: the broker acks each publish once it has taken it; the
            // program waits for each ack, and a mandatory message that cannot be routed
            // comes back before it.
            let props = BasicProperties::default()
                .with_delivery_mode(2)
                .with_message_id("7731".into());
            run.publish(
                n("payment.exchange"),
                "payment.notify".into(),
                "payment-7731",
                props,
                false,
            )
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
