// Head-of-line blocking: exported by delaylab (delaylab export code --lang spring), Spring
// Boot 3.3.5.
//
// NOT RUN: Spring's jars cannot be downloaded where delaylab is tested, so this project was
// never built or run; it is checked against golden files only. The plain Java export
// (--lang java) is the one that runs.
//
// Two orders with different per-message TTLs (expiration) share one DLX wait queue,
// order.delay.queue, which has no consumer and dead-letters through order.dlx.exchange
// (routing key order.timeout) into order.dlx.queue. A waits 30 min, B, published a minute
// later, only 5 min.
//
// Watch: B (5 min) is delivered at 30:00, together with A, not at 6:00: only the head of a
// queue expires. B's late_ms is 1440000 (24 min). While it waits, the already expired B
// still counts in order.delay.queue's ready messages. B's x-death entry keeps
// original-expiration "300000" and the delivered copy has no expiration property any more.
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
