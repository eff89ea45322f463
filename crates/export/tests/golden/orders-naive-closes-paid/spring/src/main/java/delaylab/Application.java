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

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class Application {
    public static void main(String[] args) {
        // ScenarioRunner exits when the scenario's time is over.
        SpringApplication.run(Application.class, args);
    }
}
