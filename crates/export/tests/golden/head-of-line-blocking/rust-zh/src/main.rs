// Head-of-line blocking: exported by delaylab (delaylab export code --lang rust).
//
// Two orders with different per-message TTLs (expiration) share one DLX wait queue,
// order.delay.queue, which has no consumer and dead-letters through order.dlx.exchange
// (routing key order.timeout) into order.dlx.queue. A waits 30 min, B, published a minute
// later, only 5 min.
//
// Watch: B (5 min) is delivered at 30:00, together with A, not at 6:00: only the head of a
// queue expires. B's late_ms is 1440000 (24 min). While it waits, the already expired B
// still counts in order.delay.queue's ready messages. B's x-death entry keeps
// original-expiration "300000" and the delivered copy has no expiration property any more.
//
// Run: ./run.sh AMQP_URL [TIME_SCALE] (cargo, lapin on tokio, built offline from the
// registry cache; a test broker: the program declares and deletes its own objects).
//
// 每个交换机和队列都加上唯一前缀（dl-<随机>-），运行不会碰到 broker 上已有的对象；结束时删除所有声明过的对象。 TIME_SCALE 乘到每个时长上（动作时间、TTL
// 、处理时间）；报告再除回去，所以报告里的时间是场景毫秒。 结束时程序以 `delaylab run --format json` 的结果格式打印所见；用 `delaylab
// diff` 比较两者。
//
// 没有遗漏：程序做了场景里的所有事。

// x-delaylab-id：仅用于报告（查出投递的消息是何时发布的）；输出时删除。
mod runtime;

use std::process::ExitCode;

use runtime::*;

const NAME: &str = "Head-of-line blocking";
/// The scenario's end (until), and the real ms waited after it for the broker's last
/// steps.
const END_MS: u64 = 2400000;
const GRACE_MS: u64 = 25;
/// Every queue and exchange the run may create (deleted at the end).
const QUEUES: &[&str] = &["order.delay.queue", "order.dlx.queue"];
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
    // 等待队列：故意不挂消费者。消息在这里等到 TTL 到期，再由 broker 死信转发到下面的交换机。只有队头的消息会过期，所以短 TTL 的消息会排在长 TTL 的后面等
    // （队头阻塞）。
    run.step(async |ch| {
        let opts = QueueDeclareOptions { durable: true, ..Default::default() };
        let args = table([
            // x-dead-letter-exchange：过期、被拒绝或溢出的消息会被重新发布到这个交换机。
            ("x-dead-letter-exchange", name_arg("order.dlx.exchange")),
            // x-dead-letter-routing-key：死信转发时替换消息原来的路由键。
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
    // 手动确认：投递出去的消息在消费者 ack、reject 或 nack 之前一直处于未确认状态（也不会过期）。
    // prefetch（basic.qos）：这个消费者同时最多持有这么多条未确认消息。
    run.consume(Consumer {
        name: "closer",
        queue: "order.dlx.queue",
        auto_ack: false,
        prefetch: 10,
        handle_ms: 100,
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
    Timed { index: 1, at_ms: 60000, count: 1, every_ms: 0 },
];

/// Action `index` of the scenario, run number `_k` (1-based: `{n}` in a body).
async fn act(run: &mut Run, index: usize, _k: u32) {
    match index {
        // actions[0] at 0 ms
        0 => {
            // 发布确认：broker 接收消息后回 ack；程序等待每个 ack，无法路由的 mandatory 消息会在 ack 之前被退回。
            // expiration 是毫秒数的字符串（AMQP shortstr），不是数字："300000"。broker 在发布时严格解析；非法值会以 406 关闭
            // 通道。
            let props = BasicProperties::default()
                .with_expiration(ttl("1800000"))
                .with_delivery_mode(2);
            run.publish(n("order.delay.exchange"), "order.create".into(), "A", props, false).await;
        }
        // actions[1] at 60000 ms
        1 => {
            let props = BasicProperties::default()
                .with_expiration(ttl("300000"));
            run.publish(n("order.delay.exchange"), "order.create".into(), "B", props, false).await;
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
