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
    static final long END_MS = 2100000L;
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
        // actions[0] at 0 ms
        // Publisher confirms: the broker acks each publish once it has taken it; the
        // program waits for each ack, and a mandatory message that cannot be routed comes
        // back before it.
        plan.add(new Timed(0L, false, 0, 1, () -> send(rabbitTemplate, "order.timeout.exchange", "order.timeout", "order-A (30 min)", message -> {
                // The MessagePostProcessor sets the message's properties and headers just
                // before it is sent.
                MessageProperties p = exact(message, MessageDeliveryMode.PERSISTENT);
                // x-opt-delivery-time: when to deliver, as Unix time in ms (a 64-bit long;
                // a timestamp counts in seconds): the program's start plus the scenario's
                // time, scaled like every duration. A RabbitMQ 4.4 quorum queue holds the
                // message until then. Before 4.4, and on classic queues and streams, it is
                // an ordinary header: the message is delivered at once, the header
                // unchanged.
                p.setHeader("x-opt-delivery-time", deliveryTime(1800000L));
                return message;
            })));
        // actions[1] at 0 ms
        plan.add(new Timed(0L, false, 1, 1, () -> send(rabbitTemplate, "order.timeout.exchange", "order.timeout", "order-B (5 min)", message -> {
                MessageProperties p = exact(message, MessageDeliveryMode.PERSISTENT);
                p.setHeader("x-opt-delivery-time", deliveryTime(300000L));
                return message;
            })));
        // actions[2] at 0 ms
        plan.add(new Timed(0L, false, 2, 1, () -> send(rabbitTemplate, "order.timeout.exchange", "order.timeout", "order-C (10 s)", message -> {
                MessageProperties p = exact(message, MessageDeliveryMode.PERSISTENT);
                p.setHeader("x-opt-delivery-time", deliveryTime(10000L));
                return message;
            })));
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
