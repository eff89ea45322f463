//! Simplified Chinese texts of the presets (name, description, what to watch), shown in
//! the gallery and the scenario header when the UI language is 中文.
//!
//! The English texts live in the preset files (`scenarios/*.json`, `sandbox.json`) and
//! are the fallback: a preset added without a Chinese text here still shows, in English
//! (`tests/app_presets_zh.rs` lists such presets and fails until they have one).
//! Vocabulary follows the seed articles: 死信队列, 死信交换机, 延迟队列, 队头阻塞,
//! 订单超时, 延迟消息插件; RabbitMQ's own names (`x-dead-letter-exchange`, `expiration`,
//! `x-death`, `late_ms`) are kept as they are, because that is what a reader searches for.

/// (name, description, what to watch) of preset `id` in Simplified Chinese.
pub fn texts(id: &str) -> Option<(&'static str, &'static str, &'static str)> {
    Some(match id {
        "sandbox" => (
            "沙盒:订单超时,每个延迟一个等待队列,或 4.4 的投递时间",
            "两条订单超时路径并排。在所有 RabbitMQ 版本上都可用的一条:order.delay.exchange 按订单的延迟(路由键 30m、5m 或 10s)把它路由进一个没有消费者的等待队列 order.delay.30m、order.delay.5m 或 order.delay.10s,每个队列有自己的 x-message-ttl 和死信交换机;时间一到,订单经 order.dlx.exchange(路由键 order.timeout)成为死信,进入死信队列 order.dlx.queue,由 closer 消费者关闭未支付订单。RabbitMQ 4.4 内置的一条:路由键 deliver-at 直接进入仲裁队列 order.close.qq,它把每个订单保留到其 x-opt-delivery-time 头中的时间,然后交给 closer.qq;没有等待队列,没有死信,任意延迟。",
            "用这里的按钮分别经两条路径发布一条 30 分钟、一条 5 分钟和一条 10 秒的订单,然后以 1000x 播放。等待队列在所有版本上都准时投递(0:10、5:00、30:00),因为只有一个 TTL 的队列里总是队头先过期(如果把不同的 expiration 放进同一个队列,5 分钟的订单就要排在 30 分钟的后面等:见“队头阻塞”)。投递时间路径只在 RabbitMQ 4.4 上用一个队列做到同样的事:把版本切换到 4.4,order.close.qq 会显示三条被保留的订单及其倒计时。在 4.3 及更早版本上这个头只是普通 header,closer.qq 会立即收到订单。",
        ),
        "bad-expiration-values" => (
            "错误的 TTL 值:406 PRECONDITION_FAILED",
            "一个生产者每秒向 order.delay.exchange 发送一条订单,该交换机绑定到 DLX 等待队列 order.delay.queue(经 order.dlx.exchange 死信到 order.dlx.queue),所用的 expiration 字符串都是客户端可能误写的值。0:10 时还有人声明了一个 x-message-ttl 为字符串的队列。",
            "expiration 必须是一个字符串,内容为不超过 10 年的非负整数毫秒数。\"abc\"、\"-1\"、\"1.5\"、\"\"、\" 500\" 和 \"315360000001\" 在 0:00 到 0:05 各自以 406 PRECONDITION_FAILED 关闭通道(no_integer、value_negative、leftover_string、no_integer、no_integer、value_too_large),消息随之丢失:它只出现在错误里。\"+500\"(0:06)和 \"0500\"(0:07)被当作 500 ms 接受,分别在 0:06.500 和 0:07.500 投递,原始字符串保留在 x-death 的 original-expiration 中。0:10 声明的 x-message-ttl 为 \"60000\"(字符串而非整数)的队列以 406 失败。",
        ),
        "coupon-expiry-24h" => (
            "优惠券 24 小时后过期",
            "优惠券在发放 24 小时后过期:coupon.exchange 把每张发放的优惠券路由进 coupon.expire.wait.queue(x-message-ttl 86400000,没有消费者),过期后经 coupon.dlx.exchange 以路由键 coupon.expired 死信到 coupon.expired.queue。expirer 消费者把优惠券标记为过期,除非它在此期间已被使用。",
            "一整天什么都不会发生:三张优惠券留在 coupon.expire.wait.queue 里,直到 coupon-A 在 24:00:00、coupon-B 在 24:10:00、coupon-C 在 24:45:00 被投递,late_ms 均为 0。优惠券被使用后无法从等待队列中撤回消息,所以 expirer 必须自己检查优惠券状态。消息是持久化的(delivery_mode 2),因为一天的时间足以发生一次 Broker 重启。",
        ),
        "dead-letter-cycle" => (
            "死信循环:过期后回到自身的等待队列",
            "一个诱人的捷径:order.recheck.queue 设置 x-message-ttl 10000,并把死信发往默认交换机(\"\")且不指定路由键,于是过期消息按原路由键(也就是队列自己的名字)被路由回同一个队列。对照 order.retry.queue:一个正确的 10 秒等待队列,死信进入 order.work.queue,由 checker 消费。",
            "0:00 发布的 recheck-1 不会循环:0:10 过期时,RabbitMQ 发现它仅因过期就会回到 order.recheck.queue,于是丢弃它(原因 dead_letter_cycle)。retry-1 走正确的路径,在 0:10 到达 checker,带有一条 order.retry.queue 的 x-death 记录。只由过期构成的循环在第一跳就被切断;包含拒绝的循环是允许的(见“带 x-death 计数的重试循环”)。",
        ),
        "expiration-zero" => (
            "expiration \"0\":要么立刻,要么永不",
            "限时抢购的优惠以 expiration \"0\" 发布到 flash.offer.queue,它的死信交换机 flash.missed.exchange 通往 flash.missed.queue。唯一的 worker 一次只取一条(prefetch 1),每条需要 2 秒;auditor 消费错过的队列。",
            "offer-1(0:00.000)被投递,因为 worker 空闲。offer-2(0:00.500)遇到 worker 已达 prefetch 上限,立即在 0:00.500 成为死信,带着 x-death original-expiration \"0\" 到达 auditor。offer-3(0:03.000)又被投递,因为 worker 在 0:02.000 处理完了 offer-1。TTL 为 0 的含义是:只有消费者此刻能接收才投递,绝不排队。",
        ),
        "fix-delayed-plugin" => (
            "解决方案:延迟消息交换机插件",
            "与队头阻塞相同的负载(A 等 30 分钟,一分钟后发布的 B 等 5 分钟),改走 rabbitmq-delayed-message-exchange 插件:order.delayed.exchange 的类型是 x-delayed-message,包装一个 direct 交换机,直接绑定到 order.close.queue。每条消息用整数头 x-delay 携带延迟时长;没有等待队列,也没有死信。(延迟消息插件只能运行在 RabbitMQ 3.10 至 4.2:它的仓库已于 2026 年 1 月归档,最后一个版本 4.2.0 只支持 4.2,在 4.3 上无法运行(Mnesia 已被移除)。)",
            "B 在 6:00、A 在 30:00 被投递,late_ms 都是 0:插件按到期时间而不是发布顺序释放消息。在此之前它们存放在交换机内部的存储里(final.delayed 统计它们),不在任何队列中,所以队列深度显示为空。消费者看到的是原始的正数 x-delay 头,没有 x-death。",
        ),
        "fix-one-queue-per-ttl" => (
            "解决方案:每种 TTL 一个等待队列",
            "与队头阻塞相同的负载(A 等 30 分钟,一分钟后发布的 B 等 5 分钟),每种延迟一个等待队列:order.delay.30m.queue(x-message-ttl 1800000)和 order.delay.5m.queue(x-message-ttl 300000),由 order.delay.exchange 按路由键选择。两者都经 order.dlx.exchange 以路由键 order.timeout 死信到 order.dlx.queue。",
            "B 在 6:00 被投递(late_ms 0),A 在 30:00:每个队列只有一种 TTL,所以队头永远是下一条要过期的消息,没有消息会卡在更长的消息后面。代价是每个延迟值一个队列;x-death 记录告诉你消息来自哪个等待队列,并且没有 original-expiration,因为 TTL 属于队列。",
        ),
        "head-of-line-blocking" => (
            "队头阻塞",
            "两个订单使用不同的消息级 TTL(expiration),共用一个 DLX 等待队列 order.delay.queue。该队列没有消费者,经 order.dlx.exchange(路由键 order.timeout)死信到 order.dlx.queue。A 等 30 分钟,一分钟后发布的 B 只等 5 分钟。",
            "B(5 分钟)在 30:00 和 A 一起被投递,而不是 6:00:只有队头的消息会过期。B 的 late_ms 是 1440000(24 分钟)。等待期间,已经过期的 B 仍计入 order.delay.queue 的就绪消息数。B 的 x-death 记录保留 original-expiration \"300000\",投递出的副本不再带 expiration 属性。",
        ),
        "max-length-drop-head-dlq" => (
            "超过最大长度进入死信队列(drop-head)",
            "order.inbox.queue 最多保留 3 条就绪消息(x-max-length 3,默认溢出策略 drop-head),它的死信交换机是 order.overflow.exchange,绑定到 order.overflow.queue,由 auditor 消费者记录被挤出的消息。收件队列没有消费者时,六个订单以 100 ms 间隔到达;worker 在 1:00 接入。",
            "0.300 秒 order-4 到达时,最老的 order-1 以原因 maxlen 成为死信;order-2 在 0.400 秒、order-3 在 0.500 秒跟着出去,都立即到达 auditor。队列保留最新的三条 order-4 到 order-6,worker 在 1:00 拿到它们。drop-head 牺牲的是最老的消息,而对延迟队列来说,它们恰恰是最接近到期的消息。",
        ),
        "off-plugin-1-plugin-4-2" => (
            "告别插件 1/3:RabbitMQ 4.2 上的延迟消息插件,节点丢失",
            "六个订单,从 0:00 起每分钟一个,各有自己的超时时间,混在一个流里,正如种子文章里的订单服务那样发布:A 30 分钟、B 5 分钟、C 10 秒、D 30 分钟、E 5 分钟、F 10 秒(分别在 30:00、6:00、2:10、33:00、9:00、5:10 到期)。15:00 时保存等待消息的节点永久丢失(lose_node);closer 消费者继续工作。这里是种子文章教的做法:RabbitMQ 4.2(插件的最后一个版本;插件已于 2026 年 1 月归档,无法在 4.3 上运行)上的延迟消息插件。order.delayed.exchange(x-delayed-message,direct)按 x-delay 把每个订单保存在自己的存储中,然后路由到仲裁队列 order.close.queue。可与后两个预设对比,或并排查看:对比拓扑,告别插件。",
            "C、F、B 和 E 准时离开存储(2:10、5:10、6:00、9:00),按到期顺序而不是发布顺序。15:00 时仍在存储中的 A 和 D 以原因 node_lost 被丢弃:插件的存储只在一个节点上、只有一份,它们再也不会被投递。仲裁队列本可以保住它们:见 4.3 和 4.4 的预设。",
        ),
        "off-plugin-2-wait-queues-4-3" => (
            "告别插件 2/3:RabbitMQ 4.3 上每种延迟一个仲裁等待队列,节点丢失",
            "六个订单,从 0:00 起每分钟一个,各有自己的超时时间,混在一个流里,正如种子文章里的订单服务那样发布:A 30 分钟、B 5 分钟、C 10 秒、D 30 分钟、E 5 分钟、F 10 秒(分别在 30:00、6:00、2:10、33:00、9:00、5:10 到期)。15:00 时保存等待消息的节点永久丢失(lose_node);closer 消费者继续工作。这里是没有插件的 RabbitMQ 4.3:order.delay.exchange 按延迟(路由键 30m、5m 或 10s)把每个订单路由进一个设置了该 x-message-ttl、没有消费者的仲裁等待队列(order.wait.30m、order.wait.5m、order.wait.10s);时间一到,订单经 order.dlx.exchange 成为死信,进入仲裁队列 order.close.queue。每个延迟级别一个队列:不在级别中的延迟需要新建队列(或者在共用队列里排在更长的延迟后面:见“队头阻塞”)。所有版本都可用;用仲裁等待队列,是因为经典队列的内容会随节点一起丢失(见“节点丢失”)。",
            "每个订单都准时投递:C 2:10、F 5:10、B 6:00、E 9:00,然后 A 30:00、D 33:00。15:00 节点丢失,A 和 D 仍留在 order.wait.30m 中:仲裁队列的消息有副本,能在节点丢失后幸存。代价在拓扑上:三个延迟要三个等待队列、一个死信交换机和四个绑定,每多一种延迟就多一个队列。",
        ),
        "off-plugin-3-delivery-time-4-4" => (
            "告别插件 3/3:RabbitMQ 4.4 上一个带 x-opt-delivery-time 的仲裁队列,节点丢失",
            "六个订单,从 0:00 起每分钟一个,各有自己的超时时间,混在一个流里,正如种子文章里的订单服务那样发布:A 30 分钟、B 5 分钟、C 10 秒、D 30 分钟、E 5 分钟、F 10 秒(分别在 30:00、6:00、2:10、33:00、9:00、5:10 到期)。15:00 时保存等待消息的节点永久丢失(lose_node);closer 消费者继续工作。这里是 RabbitMQ 4.4,它的仲裁队列会把消息保留到 x-opt-delivery-time 头中的时间(Unix 毫秒时间;模拟中 0:00 即纪元,所以 0:00 发布的 A 带 1800000):order.exchange 把每个订单路由到唯一的仲裁队列 order.close.queue,由 closer 消费。没有等待队列,没有死信,任意延迟,一个队列。4.4 的规则来自 RabbitMQ 源码阅读,没有在真实 Broker 上验证。",
            "order.close.queue 把每个订单暂留在一边(◷ 保留中,带倒计时),在各自的时间放行,按到期顺序而不是发布顺序:C 2:10、F 5:10、B 6:00、E 9:00、A 30:00、D 33:00,全部准时。15:00 节点丢失;被保留的 A 和 D 属于仲裁队列有副本的状态,得以幸存(插件丢掉了它们)。在 RabbitMQ 4.3 或经典队列上,同样的头会被忽略,每个订单都立即投递:切换版本并查看消息的经历。",
        ),
        "order-timeout-queue-ttl" => (
            "订单超时:30 分钟队列 TTL",
            "经典的 DLX 延迟方案:order.delay.exchange 把新订单路由进 order.delay.queue,这是一个没有消费者、x-message-ttl 为 1800000(30 分钟)的等待队列。过期的订单经 order.dlx.exchange 以路由键 order.timeout 死信到 order.dlx.queue,closer 消费者在那里关闭未支付的订单。",
            "每个订单都恰好在下单 30 分钟后到达 closer:order-1001 在 30:00,order-1002 在 32:00,order-1003 在 35:30,order-1004 在 39:00,late_ms 均为 0。整个队列只有一种 TTL,过期顺序就是发布顺序,所以队头总是下一条要过期的消息,没有消息排在后面干等。投递的副本带有一条 x-death 记录(reason expired,queue order.delay.queue),没有 original-expiration,因为 TTL 来自队列而不是消息。",
        ),
        "overflow-reject-publish-vs-drop-head" => (
            "溢出策略:reject-publish 与 drop-head",
            "ticket.fanout 把每张工单复制到两个最多 3 条就绪消息的队列:ticket.drophead.queue(x-overflow drop-head)和 ticket.rejectpublish.queue(x-overflow reject-publish)。两者的死信交换机都是 ticket.dlx.exchange,绑定到 ticket.dlq。六张工单以 100 ms 间隔到达;两个队列的消费者都在 1:00 接入。",
            "同样的突发流量,留下的却正好相反:drop-head 把 ticket-1..3 变成死信(原因 maxlen,在 0.300、0.400、0.500 秒进入 ticket.dlq),保留 ticket-4..6;reject-publish 保留 ticket-1..3,拒收 ticket-4..6,它们以原因 reject_publish 被丢弃(生产者收到 nack),尽管配置了 DLX 也不会进入死信队列。1:00 时 drophead-worker 拿到 4、5、6,rejectpublish-worker 拿到 1、2、3;没有消费者的 ticket.dlq 最后保留三条 maxlen 副本。",
        ),
        "plugin-mandatory-late-binding" => (
            "延迟交换机:mandatory 退回与后加的绑定",
            "notify.delayed.exchange 是包装 direct 交换机的 x-delayed-message 交换机,一开始就绑定了 notify.sms.queue 和 notify.push.queue;notify.email.queue 的绑定到 1:00 才加上,push 的绑定在 2:30 被删除。每个队列一个消费者,收到即确认。(延迟消息插件只能运行在 RabbitMQ 3.10 至 4.2:它的仓库已于 2026 年 1 月归档,最后一个版本 4.2.0 只支持 4.2,在 4.3 上无法运行(Mnesia 已被移除)。)",
            "sms-1 以 mandatory 和 x-delay 60000 发布,尽管绑定存在,它仍在 0:00 以 basic.return 312 NO_ROUTE 被退回,却依然在 1:00 被投递:插件把消息存起来,并告诉通道它没有路由到任何地方。sms-now(mandatory,无 x-delay)立即被路由,不会退回。email-1(x-delay 120000)在 2:00 通过 1:00 加上的绑定投递,因为路由发生在到期时刻。push-1(x-delay 180000)在 3:00 丢失(dropped,原因 unroutable),因为它的绑定在 2:30 被删除了,而且没有人会得到通知。",
        ),
        "plugin-node-lost" => (
            "节点丢失:延迟存储和经典队列随之消失",
            "三种保存订单超时的方式,所在节点在 3:00 永久丢失:order.delayed.exchange(x-delayed-message)的存储、经典 DLX 等待队列 order.wait.classic.queue 和仲裁 DLX 等待队列 order.wait.quorum.queue(两者都是 x-message-ttl 600000,经 order.dlx.exchange 死信)。所有消息最终进入 order.close.queue,由 closer 消费。(延迟消息插件只能运行在 RabbitMQ 3.10 至 4.2:它的仓库已于 2026 年 1 月归档,最后一个版本 4.2.0 只支持 4.2,在 4.3 上无法运行(Mnesia 已被移除)。)",
            "delayed-1m 在丢失前的 1:00 被投递。3:00 时,delayed-5m 和 delayed-10m(插件的存储只有一份、没有副本)以及 classic-10m(经典队列的内容,无论是否持久化)以原因 node_lost 被丢弃。quorum-10m 在其他副本上幸存,并在 10:00 准时投递:对于绝不能丢的延迟消息,有副本的等待队列胜过插件。",
        ),
        "plugin-node-restart" => (
            "延迟交换机:节点重启",
            "四条提醒在 reminder.delayed.exchange(包装 direct 的 x-delayed-message,绑定到 reminder.queue)的存储中等待,延迟分别为 1、2、5 和 10 分钟。节点在 1:30 停止,4 分钟后的 5:30 恢复;3:00 的一次发布撞上了停止的 Broker。(延迟消息插件只能运行在 RabbitMQ 3.10 至 4.2:它的仓库已于 2026 年 1 月归档,最后一个版本 4.2.0 只支持 4.2,在 4.3 上无法运行(Mnesia 已被移除)。)",
            "r-1m 在 1:00 准时投递。r-2m 和 r-5m 在节点停止期间到期,节点在 5:30 恢复时按到期顺序立即发出(late_ms 210000 和 30000)。仍在未来的 r-10m 在 10:00 投递,仿佛什么都没发生:插件的存储在磁盘上,能挺过重启。3:00 的发布以连接错误(320 CONNECTION_FORCED)失败,从未被存储。",
        ),
        "promotion-burst-200k-measured" => (
            "大促突发(按 RabbitMQ 实测速度)",
            "与 promotion-burst-200k 相同的 20 万个订单突发,但使用 \"costs\": \"measured\":Broker 的每一步都耗费 RabbitMQ 3.10.8 在 2 核机器上实测的时间(发布 57 us、死信 28 us、每条投递 87 us,过期定时器晚 1-2 ms;见 shared/docs/broker-costs.md)。",
            "让这些订单迟到的是队头阻塞,而不是 Broker:最大延迟为 2699993 ms,只比精确运行多 2 ms;最前面的两个订单在 30:00.002 而不是 30:00 离开。没有漂移:订单以每秒 333 个到达,远低于 Broker 的处理能力(每秒约 17,500 次发布、36,000 次死信),所以每次释放只有四条消息(一个 1 小时订单及排在它后面的三个已过期订单),在同一毫秒内完成死信和投递,最后一个订单仍在 1:09:59.995 离开。只有当大量消息同时到期时 Broker 的速度才重要:见成本检查中排在一个队头后面的 40,000 条消息,需要几秒才能排空。",
        ),
        "promotion-burst-200k" => (
            "大促突发:20 万个订单挤一个等待队列",
            "一次促销在 10 分钟内带来 20 万个订单(每 3 ms 一个,由四路交错的发布流组成,每路 5 万个、间隔 12 ms)。每个订单以消息级 expiration 带着自己的超时进入唯一的等待队列 order.delay.queue:依次为 15 分钟、30 分钟、1 小时、30 分钟。过期订单经 order.dlx.exchange(路由键 order.timeout)死信到 order.dlx.queue,由自动确认的 closer 消费。",
            "20 万个订单全部被关闭,但并不准时:第一个 1 小时订单(0.006 秒发布)一直占着队头直到 1:00:00.006,排在它后面的 15 分钟和 30 分钟订单都在等待。所以从 30:00 起只释放了最前面的两个订单,之后直到 1:00:00.006 什么都没有;此后每 12 ms 过期一个 1 小时订单,并放出排在它后面的三个较短订单。延迟最多达到约 45 分钟(0.015 秒发布、本应在 15:00.015 到期的 15 分钟订单,late_ms 最大为 2699991),最后一个订单(9:59.997 发布)在 1:09:59.994 离开。队列深度峰值达到 200,000,尽管其中大部分早已过期。",
        ),
        "quorum-vs-classic-requeue" => (
            "重新入队的顺序:仲裁队列与经典队列(3.10)",
            "task.fanout 把四个任务复制到经典队列 task.classic.queue 和仲裁队列 task.quorum.queue(x-queue-type quorum,没有投递次数上限,与 3.10 相同)。每个队列一个 worker,prefetch 1,处理 1 秒,第一次投递以 requeue=true 执行 nack,之后全部确认。",
            "经典队列把 task-1 放回原来的位置,即队头:classic-worker 在 0:00 看到 task-1,0:01 再次看到 task-1(redelivered),然后在 0:02、0:03、0:04 看到 task-2、task-3、task-4。没有投递上限的 3.10 仲裁队列把它重新追加到队尾:quorum-worker 在 0:00 到 0:03 看到 task-1、task-2、task-3、task-4,最后在 0:04 看到 task-1(redelivered,x-delivery-count 1)。指望重试消息排在最前面的代码,在仲裁队列上会得到不同的顺序。",
        ),
        "reminder-ladder" => (
            "提醒阶梯:10 分钟、30 分钟、2 小时",
            "三级付款提醒,每级一个等待队列:reminder.fanout 把每个新订单复制到 reminder.wait.10m(x-message-ttl 600000)、reminder.wait.30m(1800000)和 reminder.wait.2h(7200000)。三者都经 reminder.dlx.exchange 以路由键 reminder.due 死信到 reminder.send.queue,由 notifier 发送提醒。三个用户分别在 0:00、4:00 和 11:00 下单。",
            "九条提醒,每条都准时:10 分钟级在 10:00、14:00、21:00;30 分钟级在 30:00、34:00、41:00;2 小时级在 2:00:00、2:04:00、2:11:00(late_ms 均为 0)。一次发布扇出为三个副本;notifier 从 x-death[0].queue 得知是哪一级。因为每个队列只有一种 TTL,10 分钟的副本绝不会排在 2 小时的后面,这与在单个队列里使用消息级 expiration 不同。",
        ),
        "retry-loop-x-death" => (
            "带 x-death 计数的重试循环",
            "支付通知从 payment.work.queue 处理;失败时 worker 拒绝它(requeue=false),队列经 payment.retry.exchange 把它死信到 payment.retry.queue。该队列的 x-message-ttl 为 5000,再经 payment.exchange 死信回工作队列。worker 失败三次后放弃,用结果列表 reject、reject、reject、ack 来模拟。",
            "消息在 0:00.000、0:05.200、0:10.400 和 0:15.600 被投递:每一轮是 200 ms 处理加 5 秒重试 TTL。这个循环虽然是环,但因为包含一次拒绝而被允许。x-death 对每个 (queue, reason) 保留一条记录,最新的在前,并累加计数:第四次投递时它显示 payment.retry.queue/expired count 3 和 payment.work.queue/rejected count 3。真实的消费者应读取这个计数并停止重试(搁置或记录该消息),而不是依赖固定的结果列表;x-first-death-* 始终停留在第一次拒绝。",
        ),
        "orders-naive-closes-paid" => (
            "订单超时:天真的消费者关掉了已支付的订单",
            "10 分钟内创建 40 笔订单,每笔订单发一条关单消息,经 DLX 等待队列(order.delay.queue,x-message-ttl 30 分钟,死信到 order.close.queue)。closer 直接关闭消息里的订单,不先查库(策略 naive)。有人在 25 分钟内支付,有人在 29:59 支付,有人在 30:00 刚过时支付,有人取消,其余的一直不付。",
            "每笔已支付订单都在创建 30 分钟后被消息关掉:订单表逐行标出(钱已收、订单却关了),并链接到造成它的那条消息。已取消的订单库存被第二次释放。与「安全的消费者」预设对比:同样的流量,没有误操作。",
        ),
        "orders-safe-consumer-faults" => (
            "订单超时:安全的消费者面对重复投递、崩溃与并发支付",
            "同样的 40 笔订单,改走延迟消息插件(x-delay 30 分钟),消费者是幂等的:先按消息 ID 插入一条幂等记录,再查订单,最后用 UPDATE ... WHERE status = 'WAITING_PAY' 关单。故障:30% 的关单消息被发送两次(生产者重试),30% 的投递在查询与更新之间插入一次支付,10% 的投递在更新之后、ack 之前让消费者崩溃:它的通道关闭,它手上所有未确认的消息都被放回队列,5 秒后它重新上线再次取到这些消息(redelivered)。",
            "无论怎样注入故障,都没有已支付订单被关闭,也没有库存被重复释放:重复消息被幂等记录挡住,并发支付让条件更新影响 0 行,重投的消息发现订单已是 CLOSED。代价体现在 db_queries 上。把 JSON 中的策略改成 check_state,并发支付又会关掉已支付订单。",
        ),
        "orders-plugin-node-lost" => (
            "订单超时:插件所在节点丢失,没有补偿",
            "10 分钟内创建 40 笔订单,经延迟消息插件(x-delay 30 分钟),消费者用条件更新(conditional_update);20:00 时保存插件延迟消息的节点永久丢失(lose_node)。没有补偿扫描。(延迟消息插件只能运行在 RabbitMQ 3.10 至 4.2:它的仓库已于 2026 年 1 月归档,最后一个版本 4.2.0 只支持 4.2,在 4.3 上无法运行(Mnesia 已被移除)。)",
            "20:00 时所有仍在插件存储中等待的关单消息都被丢弃(node_lost)。它们对应的未支付订单永远停在 WAITING_PAY:never_closed 统计它们,库存一直被锁住。消费者没有错,只是消息再也不会来了。下一个预设加上每 5 分钟一次的扫描。",
        ),
        "orders-plugin-node-lost-compensated" => (
            "订单超时:插件节点丢失,由扫描补偿",
            "与「节点丢失」预设相同,另加每 5 分钟一次的补偿扫描:查出超过期限仍为 WAITING_PAY 的订单,逐条用条件更新关闭。(延迟消息插件只能运行在 RabbitMQ 3.10 至 4.2:它的仓库已于 2026 年 1 月归档,最后一个版本 4.2.0 只支持 4.2,在 4.3 上无法运行(Mnesia 已被移除)。)",
            "消息丢失的订单由扫描关闭,最多晚 5 分钟(见关单延迟最大值)。never_closed 为 0。扫描的代价体现在 rows_scanned 上:不论有没有消息,每 5 分钟扫一遍所有 WAITING_PAY 行。",
        ),
        "orders-reminder-then-close" => (
            "订单超时:10 分钟催付,30 分钟关单",
            "每笔订单两条延迟消息,经两个 DLX 等待队列:10 分钟后的催付提醒(order.remind.queue,x-message-ttl 10 分钟)和 30 分钟后的关单(order.delay.queue,x-message-ttl 30 分钟),都死信到 order.close.queue。消费者对两种消息都先查订单(check_state)。",
            "催付只发给 10 分钟时仍为 WAITING_PAY 的订单;之前已支付或已取消的被跳过(close_skipped,not_waiting)。30 分钟时关单会跳过已支付订单。但 check_state 先查、200 ms 后才更新:在这段窗口里到达的支付(30:00 到 30:01 支付的用户)仍会被关单。conditional_update 则不会。",
        ),
        "orders-check-state-duplicates" => (
            "订单超时:check_state 把重复投递的订单关了两次",
            "6 分钟内创建 36 笔订单,每笔订单发一条关单消息,经 DLX 等待队列(order.delay.queue,x-message-ttl 30 分钟,死信到 order.close.queue)。30% 的关单消息被发送两次(duplicate_delivery:生产者重试,message_id 相同)。closer 先查订单,再不带条件地更新(策略 check_state),prefetch 为 5,每条消息处理 200 ms。有人在 25 分钟内或 29:59 支付,有人取消,其余的一直不付。",
            "重复消息的两个副本同时过期,又因为 prefetch 5 被同时投递:两次查询都在第一次更新之前,都读到 WAITING_PAY,于是第二次更新再关一次订单,库存被第二次释放(stock_double_released)。先查库并不够。修复方法:把策略改成 conditional_update(UPDATE ... WHERE status = 'WAITING_PAY',第二次更新影响 0 行)或 idempotent(同一个 message_id 只记录一次),或者把 prefetch 改成 1(第一条处理完之后才读取第二个副本)。",
        ),
        "upgrade-to-4-3-delayed-orders" => (
            "带着延迟交换机里等待的订单升级到 4.3",
            "RabbitMQ 4.2 加延迟消息插件(v4.2.0,它的最后一个版本:插件已于 2026 年 1 月归档,无法在 4.3 上运行)。三笔订单发布到 order.delayed.exchange(x-delayed-message,包装 direct),x-delay 为 30 分钟;该交换机绑定到仲裁队列 order.close.queue,由 closer 关闭未支付订单。10:00 时节点升级到 RabbitMQ 4.3(停机 30 秒)。",
            "10:30 节点以 4.3 回来:broker_upgraded 事件说明原因,order-1、order-2、order-3 被丢弃(plugin_removed):4.3 没有 Mnesia,没有任何东西再读插件的存储,它们永远不会被投递(30:00 什么也没发生)。order.delayed.exchange 仍然存在,但 15:00 发布 order-4 得到 406 Cannot route message through exchange,通道被关闭;16:00 再次声明它得到 406 invalid exchange type。升级前请把延迟改为 TTL 队列或仲裁队列的延迟重试(见预设“插件之后:4.3 上的延迟”)。",
        ),
        "after-plugin-delays-on-4-3" => (
            "插件之后:4.3 上的延迟",
            "插件预设的同一工作负载(A 等 30 分钟,一分钟后发布的 B 等 5 分钟)跑在 RabbitMQ 4.3 上,那里延迟消息插件无法运行(2026 年 1 月归档,最后版本 v4.2.0 只支持 4.2)。两种在所有版本上都可用的做法:每个延迟级别一个 TTL 队列(order.delay.30m 和 order.delay.5m,各有一个 x-message-ttl,经 order.dlx.exchange 死信到 order.close.queue);以及 1、2、4、8、16 分钟的 TTL 队列二进制级联(cascade.q0 到 cascade.q4):延迟的分钟数以二进制写进路由键,每一级的 topic 交换机(cascade.L4 到 cascade.L0)在该位为 1 时把消息送进本级队列。",
            "B-level 和 A-level(每个延迟一个队列)在 6:00 和 30:00 投递,late_ms 为 0:每个队列只有一种 TTL,没有消息排在更长的消息后面。B-cascade(路由键 0.0.1.0.1.due:4 + 1 分钟)和 A-cascade(1.1.1.1.0.due:16 + 8 + 4 + 2 分钟)逐级下跳,也在 6:00 和 30:00 投递,每经过一级 x-death 多一条。级联用 5 个队列覆盖 31 分钟以内的任意延迟;每级一个队列则每种延迟需要一个队列。可用 delaylab compare --broker 4.3 比较。",
        ),
        "poison-message-3-10-vs-4-0" => (
            "毒消息:3.10 无限循环,4.0 在 20 次退回后死信",
            "一笔 worker 无法处理的订单:每次处理 1 秒后都用 basic.nack requeue=true 退回。orders.work 是带死信交换机(orders.dlx)的仲裁队列,没有 x-delivery-limit;orders.parked 收集被死信的消息,由 inspector 读取。本文件运行在 RabbitMQ 4.0 上;把 broker 设为 3.10 可看到旧行为。",
            "4.0 的仲裁队列默认投递上限为 20:订单被投递 21 次(重投时 x-delivery-count 为 1 到 20),0:21 的第 21 次 nack 把它以 x-death reason delivery_limit 死信到 orders.parked,worker 重获自由。在 3.10 上(broker 3.10)同一订单每秒重投直到结束,它被占用时 orders.work 里的其他消息都过不去。在 4.3 上 nack 不再计数(只有 basic.reject requeue=true 和断开的通道计数):除非 worker 改用 reject,否则同样循环。",
        ),
        "qq-delivery-time-4-4" => (
            "仲裁队列内置的延迟:4.4 上的 x-opt-delivery-time",
            "三个订单超时:30 分钟、5 分钟和 10 秒,在 0:00 发布到 order.timeout.exchange(fanout),带有 header x-opt-delivery-time:每条订单到期的时间,自 Unix 纪元起的毫秒数(模拟的 0:00 就是纪元,所以 1800000 表示 30:00)。交换机把每条复制到 order.close.qq(仲裁队列)和 order.close.classic(经典队列),由 closer 和 classic-closer 消费。RabbitMQ 4.4 的仲裁队列会把这样的消息保留到它的时间;这是依据 RabbitMQ 源码得出的,未对照真实 Broker 验证(这里没有 4.4 的 Broker)。切换到 4.3 可以看到同样的发布在最新的已实测版本上的表现。",
            "在 4.4 上,order.close.qq 显示三条被保留的消息及其倒计时,没有就绪消息:order-C 在 0:10 放行并投递,order-B 在 5:00,order-A 在 30:00,各按自己的时间,最短的最先,尽管它最后发布(没有队头阻塞,不同于用逐条 expiration 的单个等待队列)。order.close.classic 在 0:00 就投递全部三条:经典队列从不读取这个 header。在 4.3 上两个队列都立即投递:4.4 之前 x-opt-delivery-time 只是普通 header,原样投递。被保留的消息计入 x-max-length,TTL 从发布时起算,并像仲裁队列的其余内容一样在节点重启后保留。",
        ),
        "retry-backoff-4-3" => (
            "4.3 上的退避重试:仲裁队列延迟重试",
            "一笔订单失败三次后成功,在 RabbitMQ 4.3 上用两种重试方式。新方式:orders.work 是仲裁队列,x-delayed-retry-type 为 failed,x-delayed-retry-min 2000,x-delayed-retry-max 10000;worker 用 basic.reject requeue=true 退回订单(一次失败投递),队列把它搁置 min × 投递次数。旧方式:legacy.work(经典队列)把被拒绝(requeue=false)的订单经 legacy.retry.exchange 死信到 legacy.retry,其 x-message-ttl 为 2000,过期后经 legacy.work.exchange 死信回来:所有版本都可用的 TTL + DLX 重试循环。",
            "order-new 在 0:00、0:02、0:06、0:12 投递:等待随投递次数增长(2 秒、4 秒、6 秒,最多 10 秒),重投时 x-delivery-count 为 1、2、3,消息始终不离开 orders.work。order-old 在 0:00、0:02、0:04、0:06 投递:每轮固定 2 秒,每轮消息被改写两次(从 legacy.work 被拒绝,从 legacy.retry 过期),x-death 记录轮数。循环里要做退避,每种等待时间都需要一个重试队列。延迟重试从 4.3 开始才有(4.4 保留):在 4.2(broker 4.2)上这些参数被忽略,order-new 立即重投。",
        ),
        "x-death-3-13-republished" => (
            "3.13+ 的 x-death:x-last-death-* 与重新发布的消息",
            "order.wait 的 x-message-ttl 为 100,经默认交换机以路由键 order.dlq 死信。0:00 发布 order-1 到 order.wait;0:00.150 一个客户端从 order.dlq 取出它(basic.get),复制收到的头(包括 x-death)作为 order-1-again 再发布到 order.wait(手写重试就是这样做的)。auditor 从 0:01 起读取 order.dlq。本文件运行在 RabbitMQ 4.0 上。",
            "order-1-again 的死信副本(0:01 投递)带有 x-last-death-reason expired、x-last-death-queue order.wait 和 x-last-death-exchange(为空:默认交换机),从 3.13 起每次死信都会设置;x-death 的 count 是 1 而不是 2:RabbitMQ 4.x 不读取客户端发布的 x-death 头,会在下一次死信时替换它(3.10 和 3.13.3+ 会合并,count 继续累加)。所以用 x-death 计数重试需要 broker 自己的死信(见“带 x-death 计数的重试循环”),而不是重新发布。",
        ),
        _ => return crate::presets_field_zh::texts(id),
    })
}

/// The text to show: Chinese when asked for and known, else the preset's own English
/// (through `zh_texts`: the browser fetches these texts rather than linking them).
pub fn pick(zh: bool, id: &str, en: (String, String, String)) -> (String, String, String) {
    match crate::zh_texts::preset(id).filter(|_| zh) {
        Some((n, d, w)) => (n.to_string(), d.to_string(), w.to_string()),
        None => en,
    }
}
