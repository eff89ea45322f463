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
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.util.*;

// The scenario's timed actions, run once at startup in the simulation's order; listeners
// that start later or stop are started and stopped through the
// RabbitListenerEndpointRegistry.
@Component
public class ScenarioRunner implements CommandLineRunner {
    private static final Logger log = LoggerFactory.getLogger(ScenarioRunner.class);
    /** The scenario's end (until), ms: the application exits then. */
    static final long END_MS = 2700000L;
    /** How long a publish waits for the broker's confirm. */
    static final long CONFIRM_TIMEOUT_MS = 5_000L;
    static volatile long t0 = System.nanoTime();

    private final RabbitTemplate rabbitTemplate;
    private final RabbitAdmin admin;
    private final RabbitListenerEndpointRegistry registry;
    private final ConfigurableApplicationContext context;

    public ScenarioRunner(@Qualifier("rabbitTemplate") RabbitTemplate rabbitTemplate,
                          RabbitAdmin admin, RabbitListenerEndpointRegistry registry,
                          ConfigurableApplicationContext context) {
        this.rabbitTemplate = rabbitTemplate;
        this.admin = admin;
        this.registry = registry;
        this.context = context;
    }

    // Spring's MessageProperties start with delivery mode PERSISTENT, priority 0 and a
    // content type; exact() sets them to what the scenario sends (none of them unless it
    // says so).
    // publisher-confirm-type: simple (application.yml) lets invoke() wait for the broker's
    // ack of each publish (waitForConfirms), as the other exports do.
    static long nowMs() {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** Wall-clock Unix ms at the scenario's 0:00 (set when the timed actions start). */
    static volatile long startMs = System.currentTimeMillis();

    /** x-opt-delivery-time as a long, Unix ms: the start plus the scenario's time. */
    static Long deliveryTime(long v) {
        return startMs + v;
    }

    /** x-opt-delivery-time as an AMQP timestamp (whole seconds), from the scenario's seconds. */
    static Date deliveryTimeS(long v) {
        return new Date((startMs + v * 1000) / 1000 * 1000);
    }

    /** What a listener (or basic.get) saw, as a log line. */
    static void seen(String consumer, String queue, Message message) {
        log.info("{} ms  {} <- {}  {}", nowMs(), consumer, queue, new String(message.getBody(), StandardCharsets.UTF_8));
    }

    interface Step { void run() throws Exception; }

    record Timed(long atMs, boolean repeat, int index, int run, Step what) {}

    /** Spring's defaults off: the delivery mode given, no priority, no content type. */
    static MessageProperties exact(Message message, MessageDeliveryMode mode) {
        MessageProperties p = message.getMessageProperties();
        p.setDeliveryMode(mode);
        p.setPriority(null);
        p.setContentType(null);
        return p;
    }

    /** Publishes and waits for the broker's confirm (publisher-confirm-type: simple). */
    void send(RabbitTemplate template, String exchange, String routingKey, String body, MessagePostProcessor post) {
        Boolean acked = template.invoke(ops -> {
            ops.convertAndSend(exchange, routingKey, body.getBytes(StandardCharsets.UTF_8), post);
            return ops.waitForConfirms(CONFIRM_TIMEOUT_MS);
        });
        if (!Boolean.TRUE.equals(acked)) log.warn("{} ms  publish of {} not confirmed (nack or timeout)", nowMs(), body);
    }

    /** basic.get with auto-ack (RabbitTemplate.receive): takes the head of the queue, if any. */
    void get(String queue) {
        Message m = rabbitTemplate.receive(queue);
        if (m != null) seen("basic.get", queue, m);
    }

    @Override
    public void run(String... args) throws Exception {
        List<Timed> plan = new ArrayList<>();
        // Sorted by (time, repeat run > 1, action index, run): the order in which the
        // simulation fires them.
        plan.sort(Comparator.comparingLong(Timed::atMs).thenComparing(Timed::repeat)
            .thenComparingInt(Timed::index).thenComparingInt(Timed::run));
        t0 = System.nanoTime();
        startMs = System.currentTimeMillis();
        for (Timed x : plan) {
            if (x.atMs() > END_MS) continue;
            long wait = x.atMs() - nowMs();
            if (wait > 0) Thread.sleep(wait);
            try {
                x.what().run();
            } catch (Exception e) {
                // A broker error (406, 404 ...) closes the channel; the next step gets another.
                log.warn("{} ms  actions[{}]: {}", nowMs(), x.index(), e.toString());
            }
        }
        long rest = END_MS - nowMs();
        if (rest > 0) Thread.sleep(rest);
        log.info("{} ms  the scenario's time is over", nowMs());
        System.exit(SpringApplication.exit(context, () -> 0));
    }
}
