// Fix: the delayed-message exchange plugin: exported by delaylab (delaylab export code
// --lang spring), Spring Boot 3.3.5.
//
// 未运行：测试 delaylab 的环境无法下载 Spring 的 jar 包，所以这个工程从未编译或运行过，只与黄金文件比对。能运行的是普通 Java 导出（--lang
// java）。
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
// 与其他语言的导出不同，这是学习者会写的那种应用：按场景原名声明（不加 dl-<随机>- 前缀，结束时不删除），没有 TIME_SCALE，只打印日志而不输出运行结果 JSON。请
// 连接测试用的 broker（见 application.yml）。
//
// x-delayed-message 交换机需要 rabbitmq-delayed-message-exchange 插件。该项目已于 2026 年 1 月归档，没有适用于
// RabbitMQ 4.3 的版本。延迟消息存放在单个节点的本地存储中（节点丢失则消息丢失），不计入队列深度，并在到期时按当时的绑定路由。
//
// 未导出（客户端程序做不到，只有模拟能做）：
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
    // 处理时间放在调度器上计时，与后续投递并行（最多 prefetch 条），与场景一致；在监听方法里 Thread.sleep 会变成一次只处理一条。
    private final ScheduledExecutorService handling = Executors.newSingleThreadScheduledExecutor();

    // 手动确认：投递出去的消息在消费者 ack、reject 或 nack 之前一直处于未确认状态（也不会过期）。
    // prefetch（basic.qos）：这个消费者同时最多持有这么多条未确认消息。
    private final AtomicInteger closerCount = new AtomicInteger();
    @RabbitListener(id = "closer", queues = "order.close.queue", containerFactory = "closerFactory")
    public void closer(Message message, Channel channel) {
        ScenarioRunner.seen("closer", "order.close.queue", message);
        long tag = message.getMessageProperties().getDeliveryTag();
        String outcome = "ack";
        closerCount.incrementAndGet();
        // The handle time: 100 ms.
        handling.schedule(() -> settle(channel, tag, outcome), 100L, TimeUnit.MILLISECONDS);
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
