//! The Spring Boot export's own lessons (what Spring does differently from the plain
//! client), in English and Chinese; the argument lessons are shared (`crate::text`).

use crate::CommentLang;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SpringLesson {
    /// How this project differs from the other exports (fixed names, no report).
    Differs,
    Admin,
    QueueBuilder,
    CustomExchange,
    Factory,
    AckNone,
    Handling,
    PostProcessor,
    Defaults,
    Confirms,
    MandatoryTemplate,
    Runner,
}

pub fn get(lang: CommentLang, l: SpringLesson) -> &'static str {
    let (en, zh) = pair(l);
    match lang {
        CommentLang::En => en,
        CommentLang::Zh => zh,
    }
}

fn pair(l: SpringLesson) -> (&'static str, &'static str) {
    match l {
        SpringLesson::Differs => (
            "Unlike the other exports, this is an application as a learner would write it: it declares the scenario's names as they are (no dl-<random>- prefix, nothing deleted at the end), has no TIME_SCALE, and logs what it sees instead of printing the run contract JSON. Point it at a test broker (application.yml).",
            "与其他语言的导出不同，这是学习者会写的那种应用：按场景原名声明（不加 dl-<随机>- 前缀，结束时不删除），没有 TIME_SCALE，只打印日志而不输出运行结果 JSON。请连接测试用的 broker（见 application.yml）。",
        ),
        SpringLesson::Admin => (
            "RabbitAdmin declares every Queue, Exchange and Binding bean when the first connection opens. ignoreDeclarationExceptions: a declaration the broker refuses (406 PRECONDITION_FAILED) is logged and the others still go ahead, as the simulation records the error and goes on.",
            "RabbitAdmin 在第一个连接建立时声明所有 Queue、Exchange、Binding bean。ignoreDeclarationExceptions：broker 拒绝的声明（406 PRECONDITION_FAILED）只记日志，其余照常声明，与模拟记录错误后继续一致。",
        ),
        SpringLesson::QueueBuilder => (
            "QueueBuilder.withArgument keeps each argument's Java type, which is its AMQP type: an Integer is sent as a signed 32-bit int, a Long as a 64-bit one, a String as a string.",
            "QueueBuilder.withArgument 保留每个参数的 Java 类型，也就是它的 AMQP 类型：Integer 发送为 32 位有符号整数，Long 为 64 位，String 为字符串。",
        ),
        SpringLesson::CustomExchange => (
            "Spring has no class for the plugin's exchange type: CustomExchange declares it by its type name, x-delayed-message, with x-delayed-type in its arguments.",
            "Spring 没有插件交换机类型对应的类：用 CustomExchange 按类型名 x-delayed-message 声明，并在参数里给出 x-delayed-type。",
        ),
        SpringLesson::Factory => (
            "One listener container factory per consumer: its acknowledge mode and prefetch (basic.qos) are the scenario's. AcknowledgeMode.MANUAL: the listener acks, rejects or nacks on the Channel itself.",
            "每个消费者一个监听容器工厂：确认模式和 prefetch（basic.qos）按场景设置。AcknowledgeMode.MANUAL：监听方法自己在 Channel 上 ack、reject 或 nack。",
        ),
        SpringLesson::AckNone => (
            "The scenario's auto ack is AMQP no-ack: AcknowledgeMode.NONE. Spring's AUTO is something else (the container acks after the listener returns).",
            "场景里的自动确认是 AMQP 的 no-ack，即 AcknowledgeMode.NONE。Spring 的 AUTO 是另一回事（监听方法返回后由容器 ack）。",
        ),
        SpringLesson::Handling => (
            "The handle time runs on a scheduler, beside the next deliveries (up to the prefetch), as in the scenario; a Thread.sleep in the listener would handle one message at a time.",
            "处理时间放在调度器上计时，与后续投递并行（最多 prefetch 条），与场景一致；在监听方法里 Thread.sleep 会变成一次只处理一条。",
        ),
        SpringLesson::PostProcessor => (
            "The MessagePostProcessor sets the message's properties and headers just before it is sent.",
            "MessagePostProcessor 在发送前设置消息的属性和消息头。",
        ),
        SpringLesson::Defaults => (
            "Spring's MessageProperties start with delivery mode PERSISTENT, priority 0 and a content type; exact() sets them to what the scenario sends (none of them unless it says so).",
            "Spring 的 MessageProperties 默认带 PERSISTENT 投递模式、priority 0 和 content type；exact() 把它们改成场景实际发送的值（场景没写就不带）。",
        ),
        SpringLesson::Confirms => (
            "publisher-confirm-type: simple (application.yml) lets invoke() wait for the broker's ack of each publish (waitForConfirms), as the other exports do.",
            "publisher-confirm-type: simple（application.yml）让 invoke() 等待 broker 对每次发布的 ack（waitForConfirms），与其他导出一致。",
        ),
        SpringLesson::MandatoryTemplate => (
            "mandatory is a setting of the RabbitTemplate, not of a message: a second template sends the mandatory publishes, and its returns callback logs each returned message.",
            "mandatory 是 RabbitTemplate 的设置，不是消息的属性：用第二个模板发送 mandatory 消息，其 returns 回调记录每条被退回的消息。",
        ),
        SpringLesson::Runner => (
            "The scenario's timed actions, run once at startup in the simulation's order; listeners that start later or stop are started and stopped through the RabbitListenerEndpointRegistry.",
            "场景的定时动作，启动时按模拟的顺序执行一次；晚启动或会停止的监听器通过 RabbitListenerEndpointRegistry 启停。",
        ),
    }
}
