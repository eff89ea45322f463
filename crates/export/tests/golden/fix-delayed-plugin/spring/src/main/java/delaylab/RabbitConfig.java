// Fix: the delayed-message exchange plugin: exported by delaylab (delaylab export code
// --lang spring), Spring Boot 3.3.5.
//
// NOT RUN: Spring's jars cannot be downloaded where delaylab is tested, so this project was
// never built or run; it is checked against golden files only. The plain Java export
// (--lang java) is the one that runs.
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
// Unlike the other exports, this is an application as a learner would write it: it declares
// the scenario's names as they are (no dl-<random>- prefix, nothing deleted at the end),
// has no TIME_SCALE, and logs what it sees instead of printing the run contract JSON. Point
// it at a test broker (application.yml).
//
// The x-delayed-message exchange needs the rabbitmq-delayed-message-exchange plugin. The
// project was archived in January 2026 and has no build for RabbitMQ 4.3. Delayed messages
// wait in one node's local store (lost with that node), are not visible as queue depth, and
// are routed with the bindings of the moment they fall due.
//
// Left out (a client program cannot do this; the simulation does):
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

    // The x-delayed-message exchange needs the rabbitmq-delayed-message-exchange plugin.
    // The project was archived in January 2026 and has no build for RabbitMQ 4.3. Delayed
    // messages wait in one node's local store (lost with that node), are not visible as
    // queue depth, and are routed with the bindings of the moment they fall due.
    // Spring has no class for the plugin's exchange type: CustomExchange declares it by its
    // type name, x-delayed-message, with x-delayed-type in its arguments.
    @Bean
    public CustomExchange orderDelayedExchange() {
        Map<String, Object> args = new HashMap<>();
        // x-delayed-type: how the delayed exchange routes a message once its x-delay is
        // over.
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
