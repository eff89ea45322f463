// Order timeout: a naive consumer closes paid orders: exported by delaylab (delaylab export
// code --lang spring), Spring Boot 3.3.5.
//
// NOT RUN: Spring's jars cannot be downloaded where delaylab is tested, so this project was
// never built or run; it is checked against golden files only. The plain Java export
// (--lang java) is the one that runs.
//
// 40 orders over 10 minutes, each with a close-order message through a DLX wait queue
// (order.delay.queue, x-message-ttl 30m, dead-lettered to order.close.queue). The closer
// closes the order named in the message without reading it first (policy naive). Some users
// pay within 25 minutes, some at 29:59, some just after 30:00, some cancel, the rest never
// pay.
//
// Watch: Every paid order is closed when its message arrives at 30 minutes after creation:
// the orders table flags each one (money taken, order closed) and links to the message that
// did it. Canceled orders get their stock released a second time. Compare with the safe
// consumer preset: same traffic, no mistakes.
//
// Unlike the other exports, this is an application as a learner would write it: it declares
// the scenario's names as they are (no dl-<random>- prefix, nothing deleted at the end),
// has no TIME_SCALE, and logs what it sees instead of printing the run contract JSON. Point
// it at a test broker (application.yml).
//
// Left out (a client program cannot do this; the simulation does):
// - orders: the order lab (orders, payments, the consumer policy) is exported for Java and
// Python only
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

    @Bean
    public DirectExchange orderDelayExchange() {
        return new DirectExchange("order.delay.exchange", true, false);
    }

    @Bean
    public DirectExchange orderDlxExchange() {
        return new DirectExchange("order.dlx.exchange", true, false);
    }

    // ---------------------------------------------------------------- the queues

    // A wait queue: no consumer reads it, on purpose. Messages sit here until their TTL
    // runs out, then the broker dead-letters them to the exchange below. Only the message
    // at the head of a queue expires, so a short TTL waits behind a long one (head-of-line
    // blocking).
    @Bean
    public Queue orderDelayQueue() {
        return QueueBuilder.durable("order.delay.queue")
                // QueueBuilder.withArgument keeps each argument's Java type, which is its
                // AMQP type: an Integer is sent as a signed 32-bit int, a Long as a 64-bit
                // one, a String as a string.
                // x-message-ttl: every message in this queue expires after this many ms. An
                // integer: the string "60000" is refused with 406 PRECONDITION_FAILED.
                .withArgument("x-message-ttl", 1800000)
                // x-dead-letter-exchange: where expired, rejected and overflowed messages
                // are republished.
                .withArgument("x-dead-letter-exchange", "order.dlx.exchange")
                // x-dead-letter-routing-key: replaces the message's routing key when it is
                // dead-lettered.
                .withArgument("x-dead-letter-routing-key", "order.close")
                .build();
    }

    @Bean
    public Queue orderCloseQueue() {
        return QueueBuilder.durable("order.close.queue").build();
    }

    // ---------------------------------------------------------------- the bindings

    // order.delay.exchange -> order.delay.queue (routing key "order.create")
    @Bean
    public Binding orderDelayQueueOrderDelayExchangeBinding() {
        return BindingBuilder.bind(orderDelayQueue()).to(orderDelayExchange()).with("order.create");
    }

    // order.dlx.exchange -> order.close.queue (routing key "order.close")
    @Bean
    public Binding orderCloseQueueOrderDlxExchangeBinding() {
        return BindingBuilder.bind(orderCloseQueue()).to(orderDlxExchange()).with("order.close");
    }

    // ---------------------------------------------------------------- admin, templates, listener factories

    // RabbitAdmin declares every Queue, Exchange and Binding bean when the first connection
    // opens. ignoreDeclarationExceptions: a declaration the broker refuses (406
    // PRECONDITION_FAILED) is logged and the others still go ahead, as the simulation
    // records the error and goes on.
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

    // One listener container factory per consumer: its acknowledge mode and prefetch
    // (basic.qos) are the scenario's. AcknowledgeMode.MANUAL: the listener acks, rejects or
    // nacks on the Channel itself.
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
