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

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class Application {
    public static void main(String[] args) {
        // ScenarioRunner exits when the scenario's time is over.
        SpringApplication.run(Application.class, args);
    }
}
