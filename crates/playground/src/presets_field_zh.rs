//! Simplified Chinese texts of the "From the field" presets (`scenarios/field-*.json` and
//! `consumer-timeout-4-3-7.json`): name, description and what to watch, and for a reported
//! failure what users saw and the broker rule behind it. `presets_zh` asks here for the
//! presets it does not know. Vocabulary as `presets_zh.rs`; RabbitMQ's and the
//! topology's names, the bodies and the figures stay as they are.

/// (name, description, what to watch) of a field preset in Simplified Chinese.
pub fn texts(id: &str) -> Option<(&'static str, &'static str, &'static str)> {
    Some(match id {
        "field-default-delivery-limit" => (
            "来自现场:4.0 的默认投递上限让重试中的消息丢失(NServiceBus)",
            "一个 NServiceBus 端点读取它的仲裁队列 sales:和 NServiceBus.RabbitMQ 声明的一样,没有 x-delivery-limit,也没有死信交换机,因为重试由传输层自己做。处理程序对 place-order 失败 25 次(数据库停了 5 秒),第 26 次成功;每次失败都用 basic.reject requeue=true 退回消息(消息泵的 BasicRejectAndRequeueIfOpen)。本文件运行在 RabbitMQ 4.0 上,适用于 3.10 到 4.3。",
            "在 3.10 和 3.13 上仲裁队列没有投递上限:place-order 被投递 26 次,第 26 次在 0:05 成功。从 4.0 起,没有自己设置上限的仲裁队列都有 20 的上限:第 21 次退回(0:04.200)超过了它,又没有死信交换机,消息被丢弃:订单就这样没了,没有任何队列能说明这一点。在 4.3 上 basic.reject requeue=true 仍然计数(nack 不计),所以 4.3 也会丢。修复:field-default-delivery-limit-fix。",
        ),
        "field-default-delivery-limit-fix" => (
            "来自现场,修复:投递上限设为 100,000(NServiceBus)",
            "与 field-default-delivery-limit 相同的端点和同样失败的处理程序,但使用 NServiceBus.RabbitMQ 现在给仲裁队列设置的投递上限:100,000(PR #1689 用策略设置,因为用策略设的 -1 并非每个版本都生效;delaylab 没有策略,x-delivery-limit 参数设为 100,000 得到的上限相同:参数和策略取较小者)。适用于 4.0 到 4.3。",
            "place-order 被退回 25 次,远低于 100,000,第 26 次在 0:05 成功:在每个 4.x 版本上都没有丢任何东西。",
        ),
        "field-nack-multiple" => (
            "来自现场:spring-amqp 的监听器在 4.3 上无限循环(basic.nack multiple)",
            "一个每次工作一秒后总是抛异常的 @RabbitListener 读取仲裁队列 orders(x-delivery-limit 4,死信交换机 orders.dlx 通往 orders.dlq)。它的 SimpleMessageListenerContainer 用 basic.nack multiple=true requeue=true 回滚失败的投递(prefetch 250,默认值)。本文件运行在 RabbitMQ 4.3 上,适用于报告所比较的 4.2 和 4.3。",
            "在 4.2 上每次退回都计入上限:order-1 被投递 5 次,第 5 次 nack(0:05)把它以 x-death reason delivery_limit 死信到 orders.dlq。在 4.3 上上限只计失败的投递,basic.nack 不算(basic.reject 算):order-1 每秒回来一次直到结束,x-acquired-count 不断增加,x-delivery-count 从不出现,orders.dlq 什么也收不到。修复:field-nack-multiple-fix。",
        ),
        "field-nack-multiple-fix" => (
            "来自现场,修复:逐条 reject 失败的投递(spring-amqp)",
            "field-nack-multiple 的监听器,带上 spring-amqp 的修复(#3435、PR #3559,发布于 3.2.x、4.0.x 和 4.1.x):失败的投递被单独拒绝,basic.reject requeue=true。适用于 4.2 和 4.3。",
            "两个版本上 order-1 都被投递 5 次,第 5 次 reject(0:05)把它以 x-death reason delivery_limit 死信到 orders.dlq。在 4.3 上每次重投都带 x-delivery-count(1 到 4)和 x-acquired-count:reject 是一次失败的投递。",
        ),
        "field-x-death-republish" => (
            "来自现场:按 x-death 计数的重试循环在 4.x 上永不结束(spring-cloud-stream)",
            "spring-cloud-stream 的 RabbitMQ binder,按其指南的配置:消费组的队列 orders.group 和它的 DLQ orders.group.dlq(x-message-ttl 5000,经默认交换机死信回 orders.group)。监听器失败;binder 把失败的消息连同投递时的所有头重新发布到 DLQ(republishToDlq),监听器在 x-death 的 count 达到 3 时放弃。本文件运行在 RabbitMQ 4.0 上,适用于 3.10 到 4.3。",
            "在 3.10 和 3.13(3.13.3 及以后)上,RabbitMQ 会读取客户端发回的 x-death,所以每经过一次 DLQ,count 就加一:0:05 为 1,0:10 为 2,0:15 为 3,监听器在此放弃(4 次投递)。从 4.0 起 RabbitMQ 忽略客户端发布的 x-death,写入自己的记录:每一轮 count 都是 1,监听器永不放弃,order-7 每 5 秒转一圈直到结束(1:00 前 13 次投递)。3.13.0 到 3.13.2 与 4.x 相同(即 #10709 报告的回归)。修复:field-x-death-republish-fix。",
        ),
        "field-x-death-republish-fix" => (
            "来自现场,修复:用自己的头计数重试(spring-cloud-stream)",
            "field-x-death-republish 的重试循环,带上 spring-cloud-stream 的修复(PR #3019,基于 Spring AMQP 3.2 的 AmqpHeaders.RETRY_COUNT):binder 每次重新发布时把自己的头 retry-count 加一,监听器在它达到 3 时放弃。适用于 3.10 到 4.3。",
            "在每个版本上 order-7 都在 0:00、0:05、0:10 和 0:15 投递,回来时分别带 retry-count 1、2、3;0:15 监听器放弃。RabbitMQ 从不解释不以 x- 开头的头。",
        ),
        "field-consumer-timeout" => (
            "来自现场:超过消费者超时的 ETA 任务被执行两次(celery、dramatiq)",
            "一个 celery worker(prefetch 4)取到一个安排在一小时后的任务(countdown 3600:它的 eta 头,这里是 1:00:00),一直不确认直到那时,celery 和 dramatiq 都这样持有 ETA 任务。Broker 的 consumer_timeout 是 RabbitMQ 的默认值 30 分钟。Broker 关闭或取消 worker 后,它的客户端一秒后重新订阅。一个任务在经典队列 celery 里,一个在仲裁队列 celery.quorum 里。本文件运行在 RabbitMQ 4.0 上,适用于 3.10 到 4.3。",
            "到 4.2 为止,每个 worker 的通道每分钟检查一次最早的未确认投递:31:00 时两个任务都已被持有超过 30 分钟,RabbitMQ 以 406 PRECONDITION_FAILED(delivery acknowledgement on channel 1 timed out)关闭两个通道。任务回到队列,31:01 再次投递(redelivered):仍在执行手头那份的 worker 会把任务执行两次。在 4.3 上超时只对仲裁队列生效,恰好在 30:00,worker 收到的是 basic.cancel 而不是被关闭的通道:compute-grades-qq 被投递两次,compute-grades(经典)一次。RabbitMQ 4.3.7 的 consumer_timeout_response = close_channel 会让仲裁队列的 worker 再次被 406 关闭通道(见 consumer-timeout-4-3-7)。修复:field-consumer-timeout-fix。",
        ),
        "field-consumer-timeout-fix" => (
            "来自现场,修复:消费者超时大于最长的 ETA(celery)",
            "field-consumer-timeout 的 worker 和任务,但把 broker 的 consumer_timeout 调到 worker 持有的最长 ETA 之上(这里是 2 小时),这是 celery 文档和报告中的回答所建议的(rabbitmq.conf 中的 consumer_timeout;从 3.12 起也可用队列的 x-consumer-timeout,4.3 上还可用消费者自己的)。适用于 3.10 到 4.3。",
            "两个任务都只在 0:00 投递一次,持有到 1:00:00 后确认:没有通道被关闭,没有消费者被取消,没有任务执行两次。代价:真正卡住的 worker 要 2 小时才会被发现(dramatiq 尚未合并的 PR #877 则是在超时之前把持有的任务重新发布)。",
        ),
        "consumer-timeout-4-3-7" => (
            "RabbitMQ 4.3.7 的消费者超时:consumer_timeout_response = close_channel",
            "field-consumer-timeout 的 worker 和任务,运行在 RabbitMQ 4.3 上,使用 4.3.7 新增的设置 consumer_timeout_response = close_channel(默认值 notify_consumer 用 basic.cancel 取消消费者,与 4.3.0 到 4.3.6 相同)。仅来自 4.3.7 的发布页面:没有读过它的代码,而 delaylab 的 4.3 配置代表 4.3.6,那个版本没有这个设置。",
            "compute-grades-qq(仲裁队列)与任何 4.3 一样恰好在 30:00 超时:这一次 RabbitMQ 以 406 PRECONDITION_FAILED 关闭 worker 的通道,和 4.2 一样(但准时,而不是按一分钟的检查周期,且只针对仲裁队列);worker 在 30:01 重新订阅,再次拿到这个任务。compute-grades(经典)在 4.3 上仍然从不超时。",
        ),
        "field-head-of-line" => (
            "来自现场:30 分钟的消息一小时后才离开(队头阻塞)",
            "按 rabbitmq-server #2007 的报告:三条消息同时放入同一个死信等待队列 order.wait,消息级 TTL(expiration)分别为 3 分钟、1 小时和 30 分钟;过期后经 order.dlx 死信到 order.due,由 handler 取走。本文件运行在 RabbitMQ 4.0 上,适用于 3.10 到 4.3。",
            "first-3m 在 3:00 离开。之后 second-1h 成为 order.wait 的队头:RabbitMQ 只在队头过期消息,所以 30:00 已过 TTL 的 third-30m 排在它后面等待(计入就绪数,标记为已超时),在 1:00:00 与它一起离开,迟到 30 分钟。每个版本都一样,仲裁队列也是。修复:field-head-of-line-fix。",
        ),
        "field-head-of-line-fix" => (
            "来自现场,修复:每种延迟一个等待队列",
            "field-head-of-line 的三条消息,各走自己延迟的等待队列:order.delay 按延迟(3m、30m、1h)路由到 order.wait.3m、order.wait.30m 和 order.wait.1h,每个队列有队列 TTL(x-message-ttl)和同一个死信交换机。这是报告得到的回答(TTL 指南中的注意事项),所有版本都支持。适用于 3.10 到 4.3。",
            "每个队列的队头总是下一条要过期的消息:first-3m 在 3:00 离开,third-30m 在 30:00,second-1h 在 1:00:00,没有迟到。代价是每个延迟值一个队列。",
        ),
        "field-plugin-single-node" => (
            "来自现场:延迟消息插件的单节点存储(重启、节点丢失)",
            "订单超时经延迟消息交换机 order.delayed(x-delayed-type direct)进入仲裁队列 order.close:order-A 在 10:00 到期,order-B 在 20:00,order-C 在 40:00。5:00 节点停机 10 分钟;30:00 保存该交换机存储的节点永久丢失(集群成员被替换)。本文件运行在 RabbitMQ 4.2 上,适用于 3.10 到 4.2(4.3 无法运行插件)。",
            "order-A 在节点停机期间到期:插件把存储保存在磁盘上,启动时把所有过期的消息一次发出:order-A 在 15:00 投递,迟到 5 分钟(#8)。order-B 在 20:00 准时离开。30:00 存储随节点一起消失:插件只保存一份,在一个节点上,所以 order-C 丢失了(#133;README 的 Limitations)。关于崩溃后消息卡在交换机里的报告(#288、#145)无法重放:插件的源代码中没有能解释它们的规则。修复:field-plugin-single-node-fix。",
        ),
        "field-plugin-single-node-fix" => (
            "来自现场,修复:复制的仲裁等待队列(不用插件)",
            "field-plugin-single-node 的订单改走仲裁等待队列,每种延迟一个(x-message-ttl 和死信交换机),就像 NServiceBus 把它的延迟基础设施迁移到仲裁队列那样(NServiceBus.RabbitMQ PR #992):仲裁队列是复制的,节点丢失时消息仍在。同样在 5:00 重启、30:00 丢失节点。适用于 3.10 到 4.3。",
            "order-A 的 TTL 在节点停机时到期;节点在 15:00 回来时队列把它死信出去,和任何停过机的 broker 一样。order-B 在 20:00 离开。30:00 节点丢失,但 order.wait.40m 是仲裁队列,在其他成员上有副本:order-C 仍在,于 40:00 离开。没有丢失任何东西。",
        ),
        "field-plugin-mandatory" => (
            "来自现场:每个带 mandatory 的延迟发布都被 312 NO_ROUTE 退回(插件)",
            "一个开启了发布退回的发布者(Spring 的 publisher-returns,mandatory=true)把 sms-1 以 x-delay 5000 发到延迟消息交换机 sms.delayed;sms.send 绑定在它上面。收到 312 NO_ROUTE 后,它在 100 ms 后重发 sms-1,就像会重发被退回消息的发布者那样。本文件运行在 RabbitMQ 4.2 上,适用于 3.10 到 4.2。",
            "插件在发布时把延迟消息存起来,不路由到任何队列,所以 RabbitMQ 对每个带 mandatory 的延迟发布立即回复 basic.return 312 NO_ROUTE,尽管消息之后会被投递:sms-1 在 0:00 和 0:00.100 被退回,在 0:05 和 0:05.100 被投递:两次。修复:field-plugin-mandatory-fix。",
        ),
        "field-plugin-mandatory-fix" => (
            "来自现场,修复:延迟交换机不用 mandatory(插件)",
            "field-plugin-mandatory 的发布,不带 mandatory,按插件 README 的建议(\"the mandatory flag is not supported by this exchange\"),也不重发:发布者相信它的发布确认。适用于 3.10 到 4.2。",
            "sms-1 立即被确认,从不被退回,由交换机保存,在 0:05 投递一次。到期时没有队列接收的消息会被悄悄丢弃:发布退回无法告诉你(README 的限制说明);请改为检查绑定。",
        ),
        "field-quorum-delay-queue-expires" => (
            "来自现场:仲裁延迟队列带着消息过期(Symfony Messenger)",
            "Symfony Messenger 的 AMQP 传输为每种延迟使用一个自己的队列来延迟消息,这里是 delay_messages__5000_delay(x-message-ttl 5000,死信到交换机 messages),声明时 x-expires = 延迟 + 10 秒(15000),并在每次延迟发布前重新声明,好让队列在使用期间一直存在。虚拟主机的默认队列类型是 quorum,所以延迟队列是仲裁队列。从 0:00 到 0:16 每 4 秒发送一条延迟 5 秒的消息。本文件运行在 RabbitMQ 4.0 上,适用于 3.10 到 4.3。",
            "经典队列被重新声明时会重新开始 x-expires 的计时;仲裁队列不会(只有消费者或 basic.get 会)。所以 0:00 创建的延迟队列从那以后一直算作未被使用,不管往里发布了什么:它在 0:15 的 5 秒检查发现它已有 15 秒未被使用,把它删除,message-4(0:12 发布,0:17 到期)随之消失。message-5 在 0:16 发进发布者重新声明的新延迟队列,于 0:21 到达;message-1 到 message-3 在发送 5 秒后到达。修复:field-quorum-delay-queue-expires-fix。",
        ),
        "field-quorum-delay-queue-expires-fix" => (
            "来自现场,修复:每天一个延迟队列,寿命长于其中的消息(Symfony)",
            "field-quorum-delay-queue-expires 的延迟消息,带上 Symfony 的修复(PR #60298,传输选项 daily_delay_queues):延迟队列的名字带上日期(delay_messages__5000_delay_2026-12-10),x-expires 为一天加延迟再加 10 秒(86415000),所以当天任何时候创建的队列都比发布进去的每条消息活得长,而前一天的队列仍会过期。适用于 3.10 到 4.3。",
            "五条消息都在发送 5 秒后到达(0:05 到 0:21);结束时延迟队列仍在,它会在创建一天后过期。",
        ),
        "field-quorum-dlq-reject-publish" => (
            "来自现场:仲裁死信队列超出 reject-publish 上限",
            "按 rabbitmq-server #8495 的报告:仲裁队列 orders 经 orders.dlx 死信到仲裁队列 orders.dead,后者设置了 x-max-length 10 和 x-overflow reject-publish。从 0:05 起发布 25 笔订单;worker 逐条拒绝(basic.reject requeue=false),于是每一条都被死信。没有人读 orders.dead。本文件运行在 RabbitMQ 4.0 上,适用于 3.10 到 4.3。",
            "仲裁队列在发布者的通道上执行 reject-publish:通道被告知队列已满,于是拒绝下一次发布。死信默认是最多一次,发布时不经过这样的通道(无状态,无确认),仲裁队列会追加这样到达的消息而不管上限:orders.dead 最后有 25 条消息,超过上限 10,且没有任何拒绝。修复:field-quorum-dlq-reject-publish-fix。",
        ),
        "field-quorum-dlq-reject-publish-fix" => (
            "来自现场,修复:至少一次死信遵守上限",
            "field-quorum-dlq-reject-publish 的队列和订单,使用 RabbitMQ 为仲裁队列记录的安全设置:orders 设置 x-dead-letter-strategy at-least-once(源队列也需要 x-overflow reject-publish)。死信工作进程随后带确认发布,被拒绝的死信留在 orders 中,直到 orders.dead 接收它。auditor 从 1:00 起读取 orders.dead。工作进程每隔 dead_letter_worker_publisher_confirm_timeout 重试一次,这里设为 10 秒以缩短运行时间(RabbitMQ 的默认值为 180 秒)。适用于 3.10 到 4.3。",
            "orders.dead 接收 11 条死信:它的上限,加上越过上限的那一条(仲裁队列在那次追加之后才知道已满,然后开始拒绝)。其余 14 条在 orders 中等待:不是就绪消息,没有丢失,计入 orders 自己的上限,每 10 秒重试一次。1:00 auditor 启动并立即排空 orders.dead;在工作进程的下一次重试(1:05)时这 14 条通过:每笔订单都到达,没有丢失。",
        ),
        "field-plugin-delay-limit" => (
            "来自现场:超过 49.7 天的延迟被立即投递(插件)",
            "两条提醒发布到延迟消息交换机 reminders.delayed:trial-ends-in-30d 的 x-delay 为 2592000000(30 天),renewal-in-60d 的 x-delay 为 5184000000(60 天)。本文件运行在 RabbitMQ 4.2 上,适用于 3.10 到 4.2。",
            "插件只在 0 < x-delay ≤ 4294967295 ms(2^32 - 1,约 49.7 天:Erlang 最大的定时器)时延迟消息。trial-ends-in-30d 被保存在交换机的存储中;renewal-in-60d 超过上限,像没有 x-delay 的消息一样被立即路由:mailer 在 0:00 收到它,早了 60 天,没有任何错误。修复:field-plugin-delay-limit-fix。",
        ),
        "field-plugin-delay-limit-fix" => (
            "来自现场,修复:超出插件范围的延迟用等待队列",
            "field-plugin-delay-limit 的 renewal-in-60d 改走等待队列:reminders.wait.60d 的 x-message-ttl 为 5184000000(60 天),经 reminders.dlx 死信到 reminders。队列 TTL 最多可以是 10 年(RabbitMQ 拒绝更大的值),插件自己的 README 在替代方案中首先列出 TTL 加死信。适用于 3.10 到 4.3(不需要插件)。",
            "renewal-in-60d 在 reminders.wait.60d 中等待(60 天:让时钟快速运行或直接跳转),在 60 天时准时到达 mailer。等这么久的消息应当是持久化的(delivery_mode 2),放在持久队列中;仲裁队列还能在节点丢失时保住它。",
        ),
        _ => return None,
    })
}

/// (what users saw, the broker rule) of a reported failure in Simplified Chinese.
pub fn report(id: &str) -> Option<(&'static str, &'static str)> {
    Some(match id {
        "field-default-delivery-limit" => (
            "升级到 RabbitMQ 4.0 后,处理程序一直失败的消息在大约 20 次尝试后消失了,没有到达 NServiceBus 的错误队列。",
            "从 RabbitMQ 4.0 起,没有 x-delivery-limit 的仲裁队列得到上限 20:被退回超过 20 次的消息被死信,队列没有死信交换机时则被丢弃。",
        ),
        "field-nack-multiple" => (
            "RabbitMQ 从 4.2 升级到 4.3 后,监听器总是失败的消息被无限重投,而不是在 4 次尝试后进入死信队列。",
            "RabbitMQ 4.3 只把失败的投递计入仲裁队列的投递上限:basic.reject requeue=true 计数,basic.nack requeue=true(无论是否 multiple)不计数。",
        ),
        "field-x-death-republish" => (
            "重新发布失败消息、并在 x-death 计数达到上限时停止的重试循环永远停不下来:count 一直是 1(3.13.0 到 3.13.2,之后的每个 4.x)。",
            "RabbitMQ 4.x 不读取客户端发布的 x-death 头:下一次死信用 broker 自己的记录替换它,于是 count 又从 1 开始。3.10 和 3.13.3+ 会合并它。",
        ),
        "field-consumer-timeout" => (
            "持有 30 分钟以后才执行的任务的 worker 以 PRECONDITION_FAILED(delivery acknowledgement timed out)退出,任务被再次投递,执行了两次。",
            "RabbitMQ 的 consumer_timeout(默认 30 分钟)会结束持有未确认投递过久的消费者:到 4.2 为止以 406 关闭它的通道(所有队列类型,按通道每分钟的检查);从 4.3 起只针对仲裁队列,准时,用 basic.cancel。无论哪种,消息都会回到队列并再次投递。",
        ),
        "field-head-of-line" => (
            "同时放入同一个死信等待队列的三条消息(3 分钟、1 小时、30 分钟)中,30 分钟的那条在 1 小时那条之后才被转发,距发布已过一小时。",
            "队列只在队头过期消息:消息级 TTL 已过的消息要排在寿命更长的队头后面,直到它离开(RabbitMQ TTL 指南中关于消息级 TTL 的注意事项)。",
        ),
        "field-plugin-single-node" => (
            "还没被路由的延迟消息随保存它们的节点一起丢失,而 broker 停机期间到期的消息在启动时一次全部发出。",
            "插件把每条延迟消息保存在一个节点上的一张 Mnesia 表中:它能挺过该节点的重启(停机期间到期的在启动时路由),但挺不过节点的丢失。",
        ),
        "field-plugin-mandatory" => (
            "每条带 mandatory=true 发布的延迟消息都以 312 NO_ROUTE 被退回,尽管消费者之后收到了它;重发被退回消息的发布者因此发了两次。",
            "延迟消息交换机在发布时不把延迟消息路由到任何队列(它把消息存起来),所以 mandatory 发布会立即被退回;插件不支持 mandatory(README 的 Limitations)。",
        ),
        "field-quorum-delay-queue-expires" => (
            "把 quorum 设为默认队列类型后,延迟消息被丢弃:延迟队列在创建后 x-expires 的时间过期,带走了此后发布进去的消息。",
            "队列的 x-expires 计算它未被使用的时间。经典队列被重新声明算作使用;仲裁队列不算(只有消费者和 basic.get 算),而且它按 5 秒的周期检查。",
        ),
        "field-quorum-dlq-reject-publish" => (
            "设置了 max-length 10 和 reject-publish 的仲裁死信队列一直在增长(测试停止时已有 25,000 条消息)。",
            "最多一次的死信发布时没有发布确认,仲裁队列对这种不经跟踪的发布即使超过 reject-publish 上限也照样追加;至少一次的死信带确认发布,会遵守上限。",
        ),
        "field-plugin-delay-limit" => (
            "延迟几个月的消息被立即投递,没有任何错误。",
            "插件只在 x-delay 大于 0 且不超过 4294967295 ms(约 49.7 天)时延迟消息;其他值都会被立即路由。",
        ),
        _ => return None,
    })
}
