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
    @RabbitListener(id = "closer", queues = "order.close.qq", containerFactory = "closerFactory")
    public void closer(Message message, Channel channel) {
        ScenarioRunner.seen("closer", "order.close.qq", message);
        long tag = message.getMessageProperties().getDeliveryTag();
        String outcome = "ack";
        closerCount.incrementAndGet();
        settle(channel, tag, outcome);
    }

    private final AtomicInteger classic_closerCount = new AtomicInteger();
    @RabbitListener(id = "classic-closer", queues = "order.close.classic", containerFactory = "classicCloserFactory")
    public void classicCloser(Message message, Channel channel) {
        ScenarioRunner.seen("classic-closer", "order.close.classic", message);
        long tag = message.getMessageProperties().getDeliveryTag();
        String outcome = "ack";
        classic_closerCount.incrementAndGet();
        settle(channel, tag, outcome);
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
