//! The lessons the comments teach, in English and Chinese (the playground's two UI
//! languages). One entry per argument or behaviour; the generators pick them and the
//! comment syntax of their language (`syntax::comment`).

use crate::CommentLang;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lesson {
    WaitQueue,
    MessageTtl,
    Dlx,
    Dlrk,
    Expires,
    MaxLength,
    Overflow,
    QueueType,
    DeliveryLimit,
    DelayedType,
    Plugin,
    Expiration,
    ExpirationRaw,
    XDelay,
    DeliveryTime,
    DeliveryTimeChecked,
    Mandatory,
    Confirms,
    ManualAck,
    AutoAck,
    Prefetch,
    Reject,
    Requeue,
    Names,
    Scale,
    IdHeader,
    Report,
    LeftOut,
    NothingLeftOut,
    NotRun,
    Orders,
    ConditionalUpdate,
    Idempotent,
    StringTtl,
}

/// The texts for one comment language.
#[derive(Clone, Copy, Debug)]
pub struct Texts {
    pub lang: CommentLang,
}

/// Lessons already written in this file: a lesson is explained where it first appears.
#[derive(Default)]
pub struct Seen(std::collections::BTreeSet<Lesson>);

impl Seen {
    /// True the first time `l` is asked for.
    pub fn first(&mut self, l: Lesson) -> bool {
        self.0.insert(l)
    }
}

impl Texts {
    pub fn new(lang: CommentLang) -> Texts {
        Texts { lang }
    }

    pub fn get(&self, l: Lesson) -> &'static str {
        let (en, zh) = pair(l);
        match self.lang {
            CommentLang::En => en,
            CommentLang::Zh => zh,
        }
    }
}

/// The lesson of a queue argument, if it has one.
pub fn queue_arg_lesson(key: &str) -> Option<Lesson> {
    Some(match key {
        "x-message-ttl" => Lesson::MessageTtl,
        "x-dead-letter-exchange" => Lesson::Dlx,
        "x-dead-letter-routing-key" => Lesson::Dlrk,
        "x-expires" => Lesson::Expires,
        "x-max-length" | "x-max-length-bytes" => Lesson::MaxLength,
        "x-overflow" => Lesson::Overflow,
        "x-queue-type" => Lesson::QueueType,
        "x-delivery-limit" => Lesson::DeliveryLimit,
        "x-delayed-type" => Lesson::DelayedType,
        _ => return None,
    })
}

fn pair(l: Lesson) -> (&'static str, &'static str) {
    match l {
        Lesson::WaitQueue => (
            "A wait queue: no consumer reads it, on purpose. Messages sit here until their TTL runs out, then the broker dead-letters them to the exchange below. Only the message at the head of a queue expires, so a short TTL waits behind a long one (head-of-line blocking).",
            "等待队列：故意不挂消费者。消息在这里等到 TTL 到期，再由 broker 死信转发到下面的交换机。只有队头的消息会过期，所以短 TTL 的消息会排在长 TTL 的后面等（队头阻塞）。",
        ),
        Lesson::MessageTtl => (
            "x-message-ttl: every message in this queue expires after this many ms. An integer: the string \"60000\" is refused with 406 PRECONDITION_FAILED.",
            "x-message-ttl：队列里每条消息在这么多毫秒后过期。必须是整数：字符串 \"60000\" 会被 406 PRECONDITION_FAILED 拒绝。",
        ),
        Lesson::StringTtl => (
            "Given as a string, as the scenario has it: RabbitMQ refuses this declaration with 406 (x-message-ttl must be an integer).",
            "按场景原样写成字符串：RabbitMQ 会以 406 拒绝这个声明（x-message-ttl 必须是整数）。",
        ),
        Lesson::Dlx => (
            "x-dead-letter-exchange: where expired, rejected and overflowed messages are republished.",
            "x-dead-letter-exchange：过期、被拒绝或溢出的消息会被重新发布到这个交换机。",
        ),
        Lesson::Dlrk => (
            "x-dead-letter-routing-key: replaces the message's routing key when it is dead-lettered.",
            "x-dead-letter-routing-key：死信转发时替换消息原来的路由键。",
        ),
        Lesson::Expires => (
            "x-expires: the queue itself is deleted after this many ms without use.",
            "x-expires：队列本身在这么多毫秒无人使用后被删除。",
        ),
        Lesson::MaxLength => (
            "x-max-length / x-max-length-bytes: the queue's limit; x-overflow decides who loses.",
            "x-max-length / x-max-length-bytes：队列上限；由 x-overflow 决定谁被丢弃。",
        ),
        Lesson::Overflow => (
            "x-overflow: drop-head drops (or dead-letters) the oldest message; reject-publish refuses the new one (a nack with confirms).",
            "x-overflow：drop-head 丢弃（或死信）最老的消息；reject-publish 拒绝新消息（开启确认时收到 nack）。",
        ),
        Lesson::QueueType => (
            "x-queue-type: a quorum queue is replicated; in 3.10 a requeued message goes to its back, not to its old place.",
            "x-queue-type：仲裁队列是多副本的；3.10 中重新入队的消息排到队尾，而不是原来的位置。",
        ),
        Lesson::DeliveryLimit => (
            "x-delivery-limit: after this many redeliveries the message is dead-lettered (quorum queues).",
            "x-delivery-limit：重投超过这个次数后消息被死信（仲裁队列）。",
        ),
        Lesson::DelayedType => (
            "x-delayed-type: how the delayed exchange routes a message once its x-delay is over.",
            "x-delayed-type：消息的 x-delay 到期后，延迟交换机按哪种类型路由。",
        ),
        Lesson::Plugin => (
            "The x-delayed-message exchange needs the rabbitmq-delayed-message-exchange plugin. The project was archived in January 2026 and has no build for RabbitMQ 4.3. Delayed messages wait in one node's local store (lost with that node), are not visible as queue depth, and are routed with the bindings of the moment they fall due.",
            "x-delayed-message 交换机需要 rabbitmq-delayed-message-exchange 插件。该项目已于 2026 年 1 月归档，没有适用于 RabbitMQ 4.3 的版本。延迟消息存放在单个节点的本地存储中（节点丢失则消息丢失），不计入队列深度，并在到期时按当时的绑定路由。",
        ),
        Lesson::Expiration => (
            "expiration is a string of milliseconds (an AMQP shortstr), not a number: \"300000\". The broker parses it strictly at publish; a bad value closes the channel with 406.",
            "expiration 是毫秒数的字符串（AMQP shortstr），不是数字：\"300000\"。broker 在发布时严格解析；非法值会以 406 关闭通道。",
        ),
        Lesson::ExpirationRaw => (
            "Sent exactly as written, not scaled: the broker refuses it (406) as the simulation does.",
            "按原样发送、不做时间缩放：broker 会拒绝它（406），与模拟一致。",
        ),
        Lesson::XDelay => (
            "x-delay: the plugin's delay in ms, an integer header (set by the publisher).",
            "x-delay：插件的延迟毫秒数，一个整数类型的消息头（由发布者设置）。",
        ),
        Lesson::DeliveryTime => (
            "x-opt-delivery-time: when to deliver, as Unix time in ms (a 64-bit long; a timestamp counts in seconds): the program's start plus the scenario's time, scaled like every duration. A RabbitMQ 4.4 quorum queue holds the message until then. Before 4.4, and on classic queues and streams, it is an ordinary header: the message is delivered at once, the header unchanged.",
            "x-opt-delivery-time：何时投递，Unix 时间毫秒数（64 位 long；timestamp 类型按秒计）：程序启动时间加上场景中的时间，与其他时长一样按比例缩放。RabbitMQ 4.4 的仲裁队列会把消息保留到那时。4.4 之前，以及在经典队列和流上，它只是普通消息头：消息立即投递，消息头原样保留。",
        ),
        Lesson::DeliveryTimeChecked => (
            "x-opt-delivery-time: what RabbitMQ 4.4 does with it (hold the message in a quorum queue until then) is checked against the rules read in RabbitMQ's source only: no 4.4 broker was run. On RabbitMQ 4.3.6 the header is checked to be ignored (delivered at once, unchanged).",
            "x-opt-delivery-time：RabbitMQ 4.4 对它的处理（在仲裁队列中保留消息直到那时）只对照了从 RabbitMQ 源码读出的规则，没有运行过 4.4 的 Broker。在 RabbitMQ 4.3.6 上已验证它被忽略（立即投递，消息头原样保留）。",
        ),
        Lesson::Mandatory => (
            "mandatory: if no queue matches, the broker returns the message (312 NO_ROUTE) instead of dropping it silently.",
            "mandatory：没有匹配的队列时，broker 退回消息（312 NO_ROUTE），而不是悄悄丢弃。",
        ),
        Lesson::Confirms => (
            "Publisher confirms: the broker acks each publish once it has taken it; the program waits for each ack, and a mandatory message that cannot be routed comes back before it.",
            "发布确认：broker 接收消息后回 ack；程序等待每个 ack，无法路由的 mandatory 消息会在 ack 之前被退回。",
        ),
        Lesson::ManualAck => (
            "Manual acks: a delivered message stays unacked (and does not expire) until the consumer acks, rejects or nacks it.",
            "手动确认：投递出去的消息在消费者 ack、reject 或 nack 之前一直处于未确认状态（也不会过期）。",
        ),
        Lesson::AutoAck => (
            "Auto ack (no-ack): a message counts as handled as soon as it is sent to the consumer.",
            "自动确认（no-ack）：消息一发给消费者就算处理完。",
        ),
        Lesson::Prefetch => (
            "prefetch (basic.qos): at most this many unacked messages at a time on this consumer.",
            "prefetch（basic.qos）：这个消费者同时最多持有这么多条未确认消息。",
        ),
        Lesson::Reject => (
            "reject with requeue=false: dead-lettered (reason rejected) if the queue has a DLX, else dropped.",
            "reject 且 requeue=false：队列有 DLX 时被死信（原因 rejected），否则丢弃。",
        ),
        Lesson::Requeue => (
            "nack with requeue=true: back into the queue, delivered again with redelivered=true.",
            "nack 且 requeue=true：回到队列，再次投递时 redelivered=true。",
        ),
        Lesson::Names => (
            "Every exchange and queue gets a unique prefix (dl-<random>-), so a run never touches what already lives on the broker; everything declared is deleted at the end.",
            "每个交换机和队列都加上唯一前缀（dl-<随机>-），运行不会碰到 broker 上已有的对象；结束时删除所有声明过的对象。",
        ),
        Lesson::Scale => (
            "TIME_SCALE multiplies every duration (action times, TTLs, handle times); the report divides again, so its times are scenario ms.",
            "TIME_SCALE 乘到每个时长上（动作时间、TTL、处理时间）；报告再除回去，所以报告里的时间是场景毫秒。",
        ),
        Lesson::IdHeader => (
            "x-delaylab-id: only for the report (when was a delivered message published); removed from the output.",
            "x-delaylab-id：仅用于报告（查出投递的消息是何时发布的）；输出时删除。",
        ),
        Lesson::Report => (
            "At the end the program prints what it saw as the run contract JSON of `delaylab run --format json`; `delaylab diff` compares the two.",
            "结束时程序以 `delaylab run --format json` 的结果格式打印所见；用 `delaylab diff` 比较两者。",
        ),
        Lesson::LeftOut => (
            "Left out (a client program cannot do this; the simulation does):",
            "未导出（客户端程序做不到，只有模拟能做）：",
        ),
        Lesson::NothingLeftOut => (
            "Nothing left out: the program does everything the scenario does.",
            "没有遗漏：程序做了场景里的所有事。",
        ),
        Lesson::NotRun => (
            "NOT RUN: Spring's jars cannot be downloaded where delaylab is tested, so this project was never built or run; it is checked against golden files only. The plain Java export (--lang java) is the one that runs.",
            "未运行：测试 delaylab 的环境无法下载 Spring 的 jar 包，所以这个工程从未编译或运行过，只与黄金文件比对。能运行的是普通 Java 导出（--lang java）。",
        ),
        Lesson::Orders => (
            "The order lab: orders live in a real table; the close message's consumer applies the scenario's policy to it.",
            "订单实验：订单存放在真实的表里；关单消息的消费者按场景的策略更新它。",
        ),
        Lesson::ConditionalUpdate => (
            "Conditional update: UPDATE ... WHERE status = 'WAITING_PAY' changes 0 rows if the user paid after we read the row, so a paid order is never closed.",
            "条件更新：UPDATE ... WHERE status = 'WAITING_PAY'；若读取之后用户已支付，则影响 0 行，已支付订单不会被关闭。",
        ),
        Lesson::Idempotent => (
            "Idempotency record: the message id is inserted first (primary key); a duplicate delivery fails there and does nothing.",
            "幂等记录：先插入消息 id（主键）；重复投递在这里失败，什么也不做。",
        ),
    }
}
