// Fix: the delayed-message exchange plugin: exported by delaylab (delaylab export code
// --lang spring), Spring Boot 3.3.5.
//
// 未运行：测试 delaylab 的环境无法下载 Spring 的 jar 包，所以这个工程从未编译或运行过，只与黄金文件比对。能运行的是普通 Java 导出（--lang
// java）。
//
// The head-of-line workload (A waits 30 min, B published a minute later waits 5 min)
// through the rabbitmq-delayed-message-exchange plugin: order.delayed.exchange is of type
// x-delayed-message wrapping a direct exchange and is bound straight to order.close.queue.
// Each message carries its delay in the integer header x-delay; there is no wait queue and
// no dead-lettering.
//
// Watch: B is delivered at 6:00 and A at 30:00, both with late_ms 0: the plugin releases
// messages in due-time order, not publish order. Until then they sit in the exchange's
// store (final.delayed counts them), not in a queue, so queue depths show nothing. The
// consumer sees the original positive x-delay header and no x-death. Where it runs: the
// plugin exists for RabbitMQ 3.10 to 4.2 only; its repository was archived in January 2026,
// its last release (4.2.0) runs on 4.2, and it cannot run on 4.3 (Mnesia removed): see the
// presets Upgrading to 4.3 with orders waiting in the delayed exchange and After the
// plugin: delays on 4.3.
//
// 与其他语言的导出不同，这是学习者会写的那种应用：按场景原名声明（不加 dl-<随机>- 前缀，结束时不删除），没有 TIME_SCALE，只打印日志而不输出运行结果 JSON。请
// 连接测试用的 broker（见 application.yml）。
//
// x-delayed-message 交换机需要 rabbitmq-delayed-message-exchange 插件。该项目已于 2026 年 1 月归档，没有适用于
// RabbitMQ 4.3 的版本。延迟消息存放在单个节点的本地存储中（节点丢失则消息丢失），不计入队列深度，并在到期时按当时的绑定路由。
//
// 未导出（客户端程序做不到，只有模拟能做）：
// - spring: not run where delaylab is tested (Spring's jars cannot be downloaded there):
// checked by golden files only
// - spring: the run contract JSON (run.sh prints none: the application logs its
// deliveries), so `delaylab diff` cannot compare it
// - spring: unique dl-<random>- names and the cleanup at the end (the scenario's names are
// declared as they are and left on the broker)
// - spring: TIME_SCALE (every duration is the scenario's)

package delaylab;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.*;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.*;

@Configuration
public class RabbitConfig {
    private static final Logger log = LoggerFactory.getLogger(RabbitConfig.class);

    /** An argument or header table, in the order written. */
    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return m;
    }

    /** An internal exchange: only other exchanges publish to it. */
    static <T extends AbstractExchange> T internal(T exchange) {
        exchange.setInternal(true);
        return exchange;
    }

    // ---------------------------------------------------------------- the exchanges

    // x-delayed-message 交换机需要 rabbitmq-delayed-message-exchange 插件。该项目已于 2026 年 1 月归档，没有适用于
    // RabbitMQ 4.3 的版本。延迟消息存放在单个节点的本地存储中（节点丢失则消息丢失），不计入队列深度，并在到期时按当时的绑定路由。
    // Spring 没有插件交换机类型对应的类：用 CustomExchange 按类型名 x-delayed-message 声明，并在参数里给出
    // x-delayed-type。
    @Bean
    public CustomExchange orderDelayedExchange() {
        Map<String, Object> args = new HashMap<>();
        // x-delayed-type：消息的 x-delay 到期后，延迟交换机按哪种类型路由。
        args.put("x-delayed-type", "direct");
        return new CustomExchange("order.delayed.exchange", "x-delayed-message", true, false, args);
    }

    // ---------------------------------------------------------------- the queues

    @Bean
    public Queue orderCloseQueue() {
        return QueueBuilder.durable("order.close.queue").build();
    }

    // ---------------------------------------------------------------- the bindings

    // order.delayed.exchange -> order.close.queue (routing key "order.timeout")
    @Bean
    public Binding orderCloseQueueOrderDelayedExchangeBinding() {
        return BindingBuilder.bind(orderCloseQueue()).to(orderDelayedExchange()).with("order.timeout").noargs();
    }

    // ---------------------------------------------------------------- admin, templates, listener factories

    // RabbitAdmin 在第一个连接建立时声明所有 Queue、Exchange、Binding bean。ignoreDeclarationExceptions：
    // broker 拒绝的声明（406 PRECONDITION_FAILED）只记日志，其余照常声明，与模拟记录错误后继续一致。
    @Bean
    public RabbitAdmin rabbitAdmin(ConnectionFactory connectionFactory) {
        RabbitAdmin admin = new RabbitAdmin(connectionFactory);
        admin.setIgnoreDeclarationExceptions(true);
        return admin;
    }

    @Bean
    public RabbitTemplate rabbitTemplate(ConnectionFactory connectionFactory) {
        return new RabbitTemplate(connectionFactory);
    }

    // 每个消费者一个监听容器工厂：确认模式和 prefetch（basic.qos）按场景设置。AcknowledgeMode.MANUAL：监听方法自己在 Channel 上
    // ack、reject 或 nack。
    @Bean
    public SimpleRabbitListenerContainerFactory closerFactory(ConnectionFactory connectionFactory) {
        SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
        factory.setConnectionFactory(connectionFactory);
        factory.setAcknowledgeMode(AcknowledgeMode.MANUAL);
        factory.setPrefetchCount(10);
        // One channel, one consumer: the scenario's consumer.
        factory.setConcurrentConsumers(1);
        factory.setMaxConcurrentConsumers(1);
        // A queue that is not there yet (declared later, or refused) is not fatal.
        factory.setMissingQueuesFatal(false);
        return factory;
    }
}
