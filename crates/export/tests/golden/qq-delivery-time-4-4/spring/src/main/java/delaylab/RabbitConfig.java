// Delays built into quorum queues: x-opt-delivery-time on 4.4: exported by delaylab
// (delaylab export code --lang spring), Spring Boot 3.3.5.
//
// NOT RUN: Spring's jars cannot be downloaded where delaylab is tested, so this project was
// never built or run; it is checked against golden files only. The plain Java export
// (--lang java) is the one that runs.
//
// Three order timeouts, 30 minutes, 5 minutes and 10 seconds, published at 0:00 to
// order.timeout.exchange (fanout) with the header x-opt-delivery-time: the time each is
// due, in milliseconds since the Unix epoch (the simulation's 0:00 is the epoch, so 1800000
// is 30:00). The exchange copies each into order.close.qq, a quorum queue, and
// order.close.classic, a classic queue; closer and classic-closer consume them. RabbitMQ
// 4.4's quorum queues hold such a message until its time; this is read in RabbitMQ's
// source, not checked against a live broker (no 4.4 broker runs here). Switch to 4.3 to see
// the same publishes on the newest live-checked version.
//
// Watch: On 4.4, order.close.qq shows three held messages with their countdowns, none
// ready: order-C is released and delivered at 0:10, order-B at 5:00, order-A at 30:00, each
// at its own time, the shortest first although it was published last (no head-of-line
// blocking, unlike one wait queue with per-message expiration). order.close.classic
// delivers all three at 0:00: classic queues never read the header. On 4.3 both queues
// deliver at once: before 4.4 x-opt-delivery-time is an ordinary header, delivered
// unchanged. Held messages count toward x-max-length, keep their TTL from publish, and
// survive a node restart as the rest of a quorum queue.
//
// Unlike the other exports, this is an application as a learner would write it: it declares
// the scenario's names as they are (no dl-<random>- prefix, nothing deleted at the end),
// has no TIME_SCALE, and logs what it sees instead of printing the run contract JSON. Point
// it at a test broker (application.yml).
//
// x-opt-delivery-time: what RabbitMQ 4.4 does with it (hold the message in a quorum queue
// until then) is checked against the rules read in RabbitMQ's source only: no 4.4 broker
// was run. On RabbitMQ 4.3.6 the header is checked to be ignored (delivered at once,
// unchanged).
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

    @Bean
    public FanoutExchange orderTimeoutExchange() {
        return new FanoutExchange("order.timeout.exchange", true, false);
    }

    // ---------------------------------------------------------------- the queues

    @Bean
    public Queue orderCloseQqQueue() {
        return QueueBuilder.durable("order.close.qq")
                // QueueBuilder.withArgument keeps each argument's Java type, which is its
                // AMQP type: an Integer is sent as a signed 32-bit int, a Long as a 64-bit
                // one, a String as a string.
                // x-queue-type: a quorum queue is replicated; in 3.10 a requeued message
                // goes to its back, not to its old place.
                .withArgument("x-queue-type", "quorum")
                .build();
    }

    @Bean
    public Queue orderCloseClassicQueue() {
        return QueueBuilder.durable("order.close.classic").build();
    }

    // ---------------------------------------------------------------- the bindings

    // order.timeout.exchange -> order.close.qq (routing key "")
    @Bean
    public Binding orderCloseQqOrderTimeoutExchangeBinding() {
        return BindingBuilder.bind(orderCloseQqQueue()).to(orderTimeoutExchange());
    }

    // order.timeout.exchange -> order.close.classic (routing key "")
    @Bean
    public Binding orderCloseClassicOrderTimeoutExchangeBinding() {
        return BindingBuilder.bind(orderCloseClassicQueue()).to(orderTimeoutExchange());
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

    @Bean
    public SimpleRabbitListenerContainerFactory classicCloserFactory(ConnectionFactory connectionFactory) {
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
