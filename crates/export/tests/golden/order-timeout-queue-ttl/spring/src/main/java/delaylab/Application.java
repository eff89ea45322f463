// Order timeout with a 30 min queue TTL: exported by delaylab (delaylab export code --lang
// spring), Spring Boot 3.3.5.
//
// NOT RUN: Spring's jars cannot be downloaded where delaylab is tested, so this project was
// never built or run; it is checked against golden files only. The plain Java export
// (--lang java) is the one that runs.
//
// The classic DLX delay: order.delay.exchange routes new orders into order.delay.queue, a
// wait queue with no consumer and x-message-ttl 1800000 (30 min). Expired orders are
// dead-lettered through order.dlx.exchange with routing key order.timeout into
// order.dlx.queue, where the closer consumer closes unpaid orders.
//
// Watch: Every order reaches the closer exactly 30 min after it was placed: order-1001 at
// 30:00, order-1002 at 32:00, order-1003 at 35:30, order-1004 at 39:00, each with late_ms
// 0. With one TTL for the whole queue, expiry order is publish order, so the head is always
// the next to expire and nothing waits behind it. The delivered copy carries an x-death
// entry (reason expired, queue order.delay.queue) and no original-expiration, because the
// TTL came from the queue, not the message.
//
// Unlike the other exports, this is an application as a learner would write it: it declares
// the scenario's names as they are (no dl-<random>- prefix, nothing deleted at the end),
// has no TIME_SCALE, and logs what it sees instead of printing the run contract JSON. Point
// it at a test broker (application.yml).
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

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class Application {
    public static void main(String[] args) {
        // ScenarioRunner exits when the scenario's time is over.
        SpringApplication.run(Application.class, args);
    }
}
