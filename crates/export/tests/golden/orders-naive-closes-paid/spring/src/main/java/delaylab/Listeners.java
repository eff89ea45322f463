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

import com.rabbitmq.client.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

@Component
public class Listeners {
    private static final Logger log = LoggerFactory.getLogger(Listeners.class);
    // The handle time runs on a scheduler, beside the next deliveries (up to the prefetch),
    // as in the scenario; a Thread.sleep in the listener would handle one message at a
    // time.
    private final ScheduledExecutorService handling = Executors.newSingleThreadScheduledExecutor();

    // Manual acks: a delivered message stays unacked (and does not expire) until the
    // consumer acks, rejects or nacks it.
    // prefetch (basic.qos): at most this many unacked messages at a time on this consumer.
    private final AtomicInteger closerCount = new AtomicInteger();
    @RabbitListener(id = "closer", queues = "order.close.queue", containerFactory = "closerFactory")
    public void closer(Message message, Channel channel) {
        ScenarioRunner.seen("closer", "order.close.queue", message);
        long tag = message.getMessageProperties().getDeliveryTag();
        String outcome = "ack";
        closerCount.incrementAndGet();
        // The handle time: 200 ms.
        handling.schedule(() -> settle(channel, tag, outcome), 200L, TimeUnit.MILLISECONDS);
    }

    /** The outcome, on the channel the message came on (a manual ack's channel). */
    static void settle(Channel channel, long tag, String outcome) {
        try {
            switch (outcome) {
                case "ack" -> channel.basicAck(tag, false);
                case "reject" -> channel.basicReject(tag, false);
                case "reject_requeue" -> channel.basicReject(tag, true);
                case "nack_multiple" -> channel.basicNack(tag, true, true);
                default -> channel.basicNack(tag, false, true); // requeue
            }
        } catch (IOException e) {
            // The channel went away while the message was handled: the broker requeues it.
            log.warn("{} ms  {} of delivery {} failed: {}", ScenarioRunner.nowMs(), outcome, tag, e.toString());
        }
    }

    /** A weighted outcome, drawn with Java's random numbers (not the simulation's seed). */
    static String weighted(String[] outcomes, double[] weights) {
        double total = 0;
        for (double w : weights) total += w;
        double u = ThreadLocalRandom.current().nextDouble() * total, acc = 0;
        for (int i = 0; i < outcomes.length; i++) {
            acc += weights[i];
            if (u < acc) return outcomes[i];
        }
        return outcomes[outcomes.length - 1];
    }
}
