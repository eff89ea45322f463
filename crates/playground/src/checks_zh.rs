//! Simplified Chinese labels of the presets' checks, shown in the Checks panel when the UI
//! language is 中文. A check's label is the scenario's own text (English in the preset
//! files, `scenarios/*.json`); it is looked up here by that text, so a label a user wrote
//! or changed simply shows as written. `tests/checks_zh.rs` lists any preset label
//! without a Chinese text here. Vocabulary as `presets_zh.rs`; RabbitMQ's names, codes,
//! reasons and the messages' bodies stay as they are.

/// The Chinese text of a preset check's English `label`, if it has one.
pub fn label(en: &str) -> Option<&'static str> {
    Some(match en {
        // after-plugin-delays-on-4-3
        "B-level (one queue per delay) is delivered at 6:00" => {
            "B-level(每种延迟一个队列)在 6:00 投递"
        }
        "A-level is delivered at 30:00" => "A-level 在 30:00 投递",
        "B-cascade (4 + 1 min) is delivered at 6:00 too" => "B-cascade(4 + 1 分钟)同样在 6:00 投递",
        "A-cascade (16 + 8 + 4 + 2 min) is delivered at 30:00 too" => {
            "A-cascade(16 + 8 + 4 + 2 分钟)同样在 30:00 投递"
        }
        "A-cascade carries one x-death entry per level it passed (four)" => {
            "A-cascade 每经过一级就带一条 x-death 记录(共四条)"
        }
        "Nothing waits behind a longer message: no delivery is late" => {
            "没有消息排在更长的消息后面:没有任何投递迟到"
        }
        // bad-expiration-values
        "\"abc\" closes the channel with 406 at 0:00" => "\"abc\" 在 0:00 以 406 关闭通道",
        "\"315360000001\" (over 10 years) gets 406 at 0:05" => {
            "\"315360000001\"(超过 10 年)在 0:05 得到 406"
        }
        "Six bad expirations: six 406 errors by 0:05" => {
            "六个错误的 expiration:到 0:05 为止六个 406 错误"
        }
        "A refused message is gone: \"abc\" is never delivered" => {
            "被拒绝的消息就没了:\"abc\" 从未被投递"
        }
        "\"+500\" is accepted as 500 ms: delivered at 0:06.500" => {
            "\"+500\" 被当作 500 ms 接受:在 0:06.500 投递"
        }
        "\"0500\" is accepted as 500 ms: delivered at 0:07.500" => {
            "\"0500\" 被当作 500 ms 接受:在 0:07.500 投递"
        }
        "x-death keeps the original string \"+500\"" => "x-death 保留原始字符串 \"+500\"",
        "x-message-ttl as a string fails the queue declaration with 406 at 0:10" => {
            "字符串形式的 x-message-ttl 让队列声明在 0:10 以 406 失败"
        }
        // coupon-expiry-24h
        "coupon-A is delivered at 24:00:00" => "coupon-A 在 24:00:00 投递",
        "coupon-B is delivered at 24:10:00" => "coupon-B 在 24:10:00 投递",
        "coupon-C is delivered at 24:45:00" => "coupon-C 在 24:45:00 投递",
        "Nothing is delivered during the day" => "白天什么都不会投递",
        "Each on time" => "每张都准时",
        // dead-letter-cycle
        "recheck-1 is dropped at 0:10 (reason dead_letter_cycle)" => {
            "recheck-1 在 0:10 被丢弃(原因 dead_letter_cycle)"
        }
        "recheck-1 is never delivered" => "recheck-1 从未被投递",
        "retry-1 reaches the checker at 0:10" => "retry-1 在 0:10 到达 checker",
        "retry-1 carries an x-death entry for order.retry.queue" => {
            "retry-1 带有一条 order.retry.queue 的 x-death 记录"
        }
        // expiration-zero
        "offer-1 is delivered at once: the worker is free" => "offer-1 立即投递:worker 空闲",
        "offer-2 is dead-lettered at once, at 0:00.500" => "offer-2 立即成为死信,在 0:00.500",
        "offer-2 reaches the auditor with original-expiration \"0\"" => {
            "offer-2 带着 original-expiration \"0\" 到达 auditor"
        }
        "offer-3 is delivered at 0:03, the worker free again" => {
            "offer-3 在 0:03 投递,worker 又空闲了"
        }
        // fix-delayed-plugin, fix-one-queue-per-ttl
        "B is delivered at 6:00" => "B 在 6:00 投递",
        "A is delivered at 30:00" => "A 在 30:00 投递",
        "Both on time" => "两条都准时",
        "Until then both wait in the exchange's store" => "在此之前两条都在交换机的存储里等待",
        "and not in a queue" => "而不在任何队列中",
        "The consumer sees the original x-delay" => "消费者看到的是原始的 x-delay",
        "Nothing is stuck behind a longer message" => "没有消息卡在更长的消息后面",
        "x-death tells which wait queue B came from" => "x-death 说明 B 来自哪个等待队列",
        // head-of-line-blocking
        "B is delivered at 30:00 with A, not at 6:00" => "B 在 30:00 和 A 一起投递,而不是 6:00",
        "B is 24 minutes late" => "B 迟到 24 分钟",
        "At 6:00 the expired B still waits in the queue" => "6:00 时已过期的 B 仍在队列里等待",
        // max-length-drop-head-dlq
        "order-1 is dead-lettered (maxlen) when order-4 arrives" => {
            "order-4 到达时 order-1 成为死信(maxlen)"
        }
        "order-3 follows at 0.500 s" => "order-3 在 0.500 秒跟着出去",
        "The auditor gets the oldest three, in order" => "auditor 按顺序收到最老的三条",
        "The worker gets the newest three at 1:00" => "worker 在 1:00 收到最新的三条",
        "order-4 reaches the worker at 1:00" => "order-4 在 1:00 到达 worker",
        // order-timeout-queue-ttl
        "order-1001 reaches the closer at 30:00" => "order-1001 在 30:00 到达 closer",
        "order-1002 at 32:00" => "order-1002 在 32:00",
        "order-1003 at 35:30" => "order-1003 在 35:30",
        "order-1004 at 39:00" => "order-1004 在 39:00",
        "Every order exactly on time" => "每个订单都分秒不差",
        "x-death: expired out of order.delay.queue" => "x-death:从 order.delay.queue 过期而出",
        // orders-check-state-duplicates
        "A duplicated order's stock is released twice" => "重复的订单,库存被释放两次",
        "Duplicates were injected" => "注入了重复消息",
        // orders-naive-closes-paid
        "Paid orders are closed" => "已支付的订单被关闭",
        "Canceled orders get their stock released a second time" => "已取消的订单库存被再次释放",
        "Every message arrives on time: the mistakes are the consumer's" => {
            "每条消息都准时到达:错在消费者"
        }
        // orders-plugin-node-lost-compensated, orders-plugin-node-lost
        "At 20:00 the store's close messages are lost" => "20:00 时存储里的关闭消息丢失",
        "The scan closes every unpaid order: never_closed is 0" => {
            "扫描关闭了每个未支付订单:never_closed 为 0"
        }
        "Up to 5 minutes late" => "最多迟到 5 分钟",
        "The scan reads rows" => "扫描要读取数据行",
        "At 20:00 the store's close messages are dropped (node_lost)" => {
            "20:00 时存储里的关闭消息被丢弃(node_lost)"
        }
        "No close message ever comes" => "关闭消息再也不会来",
        "Unpaid orders stay WAITING_PAY: never_closed counts them" => {
            "未支付订单停在 WAITING_PAY:never_closed 统计它们"
        }
        // orders-reminder-then-close
        "Reminders are sent at 10 minutes" => "提醒在 10 分钟时发出",
        "No reminder reaches a paid order" => "已支付的订单收不到提醒",
        "check_state still closes the orders paid between its read and its update" => {
            "check_state 仍会关闭在它读取与更新之间支付的订单"
        }
        // orders-safe-consumer-faults
        "No paid order is closed" => "没有已支付的订单被关闭",
        "No stock is released twice" => "没有库存被释放两次",
        "whatever the faults" => "无论注入什么故障",
        // overflow-reject-publish-vs-drop-head
        "drop-head dead-letters ticket-1 (maxlen) at 0.300 s" => {
            "drop-head 在 0.300 秒让 ticket-1 成为死信(maxlen)"
        }
        "reject-publish drops ticket-4 (reject_publish) at 0.300 s" => {
            "reject-publish 在 0.300 秒丢弃 ticket-4(reject_publish)"
        }
        "reject-publish dead-letters nothing although a DLX is set" => {
            "reject-publish 虽然设置了 DLX,却不产生任何死信"
        }
        "The drophead-worker gets 4, 5, 6" => "drophead-worker 收到 4、5、6",
        "The rejectpublish-worker gets 1, 2, 3" => "rejectpublish-worker 收到 1、2、3",
        "ticket.dlq ends holding the three maxlen copies" => "ticket.dlq 最后存着三份 maxlen 副本",
        // plugin-mandatory-late-binding
        "sms-1 comes back at once as 312 NO_ROUTE" => "sms-1 立即以 312 NO_ROUTE 被退回",
        "and is still delivered at 1:00" => "但仍在 1:00 投递",
        "sms-now (no x-delay) is not returned" => "sms-now(没有 x-delay)没有被退回",
        "email-1 is delivered at 2:00 through the binding added at 1:00" => {
            "email-1 经由 1:00 新增的绑定在 2:00 投递"
        }
        "push-1 is lost at 3:00, unroutable" => "push-1 在 3:00 因无法路由而丢失",
        // plugin-node-lost
        "delayed-1m is delivered at 1:00, before the loss" => "delayed-1m 在 1:00 投递,在故障之前",
        "delayed-5m is lost with the store at 3:00" => "delayed-5m 在 3:00 随存储一起丢失",
        "delayed-10m too" => "delayed-10m 也一样",
        "classic-10m too, with its classic queue's contents" => {
            "classic-10m 也一样,连同它所在经典队列的内容"
        }
        "quorum-10m survives and is delivered on time at 10:00" => {
            "quorum-10m 幸存,在 10:00 准时投递"
        }
        // plugin-node-restart
        "r-1m on time at 1:00" => "r-1m 在 1:00 准时",
        "r-2m at 5:30, when the node is back" => "r-2m 在 5:30,节点恢复时",
        "r-10m at 10:00 as if nothing happened" => "r-10m 在 10:00,仿佛什么都没发生",
        "The publish at 3:00 fails: 320" => "3:00 的发布失败:320",
        "r-2m is 3:30 late" => "r-2m 迟到 3:30",
        // poison-message-3-10-vs-4-0
        "The order is delivered 21 times" => "这个订单被投递 21 次",
        "x-delivery-count reaches 20" => "x-delivery-count 达到 20",
        "The 21st nack at 0:21 dead-letters it (delivery_limit)" => {
            "0:21 的第 21 次 nack 让它成为死信(delivery_limit)"
        }
        "It reaches orders.parked with x-death reason delivery_limit" => {
            "它带着 x-death 原因 delivery_limit 到达 orders.parked"
        }
        // promotion-burst-200k-measured, promotion-burst-200k
        "All 200,000 orders are closed" => "200,000 个订单全部关闭",
        "The first two orders leave at 30:00.002" => "最先的两个订单在 30:00.002 离开",
        "The worst lateness is 2699993 ms" => "最大迟到为 2699993 ms",
        "The last order leaves at 1:09:59.995" => "最后一个订单在 1:09:59.995 离开",
        "Nothing is lost" => "没有丢失",
        "The first 30 min order leaves at 30:00" => "第一个 30 分钟订单在 30:00 离开",
        "The first 15 min order leaves with it, at 30:00" => {
            "第一个 15 分钟订单和它一起在 30:00 离开"
        }
        "Then nothing until 1:00:00.006" => "之后直到 1:00:00.006 什么都没有",
        "The first 1 h order heads the queue until 1:00:00.006" => {
            "第一个 1 小时订单一直占着队头,直到 1:00:00.006"
        }
        "Most orders wait at 29:00: the depth is 200,000" => {
            "29:00 时大多数订单在等待:队列深度为 200,000"
        }
        "Lateness reaches about 45 min" => "迟到达到约 45 分钟",
        "for the 15 min order published at 0.015 s" => "出现在 0.015 秒发布的 15 分钟订单上",
        "The last order leaves at 1:09:59.994" => "最后一个订单在 1:09:59.994 离开",
        // quorum-vs-classic-requeue
        "The classic queue puts task-1 back at the head" => "经典队列把 task-1 放回队头",
        "The 3.10 quorum queue re-appends it at the back" => "3.10 的仲裁队列把它重新追加到队尾",
        "task-1 comes back to the quorum-worker last, at 0:04, x-delivery-count 1" => {
            "task-1 最后才回到 quorum-worker,在 0:04,x-delivery-count 1"
        }
        // reminder-ladder
        "Nine reminders" => "九条提醒",
        "each exactly on time" => "每条都分秒不差",
        "10 min level: user-carol at 21:00" => "10 分钟级:user-carol 在 21:00",
        "30 min level: user-bob at 34:00" => "30 分钟级:user-bob 在 34:00",
        "2 h level: user-carol at 2:11:00" => "2 小时级:user-carol 在 2:11:00",
        // qq-delivery-time-4-4
        "4.4: order-C leaves the quorum queue at 0:10" => "4.4:order-C 在 0:10 离开仲裁队列",
        "4.4: order-B at 5:00" => "4.4:order-B 在 5:00",
        "4.4: order-A at 30:00" => "4.4:order-A 在 30:00",
        "4.4: at 1:00 two are still held in the quorum queue, none ready" => {
            "4.4:1:00 时仲裁队列里还保留着两条,没有就绪消息"
        }
        "4.4: nothing leaves the quorum queue before 0:10" => "4.4:0:10 之前没有消息离开仲裁队列",
        "4.3: the quorum queue delivers all three at once (an ordinary header)" => {
            "4.3:仲裁队列立即投递全部三条(普通 header)"
        }
        "The classic queue delivers all three at once, on every version" => {
            "经典队列在所有版本上都立即投递全部三条"
        }
        "The header reaches the consumer unchanged" => "header 原样到达消费者",
        // retry-backoff-4-3
        "order-new is delivered four times" => "order-new 被投递四次",
        "2 s after the first" => "第一次之后 2 秒",
        "then 4 s more, at 0:06" => "再过 4 秒,在 0:06",
        "then 6 s more, at 0:12, x-delivery-count 3" => "再过 6 秒,在 0:12,x-delivery-count 3",
        "order-new never leaves orders.work" => "order-new 从未离开 orders.work",
        "order-old comes back every 2 s: 0:02, 0:04, 0:06" => {
            "order-old 每 2 秒回来一次:0:02、0:04、0:06"
        }
        "x-death counts order-old's rounds" => "x-death 记下 order-old 的轮数",
        // retry-loop-x-death
        "Delivered at 0:00, 0:05.200, 0:10.400 and 0:15.600" => {
            "在 0:00、0:05.200、0:10.400 和 0:15.600 投递"
        }
        "The fourth delivery at 0:15.600" => "第四次投递在 0:15.600",
        "x-death counts up: retry queue expired 3, work queue rejected 3" => {
            "x-death 逐次累加:重试队列 expired 3 次,工作队列 rejected 3 次"
        }
        "x-first-death-* stay at the first rejection" => "x-first-death-* 停留在第一次拒绝",
        "The loop is allowed: nothing is dropped as a cycle" => {
            "这个循环是允许的:没有消息被当作循环丢弃"
        }
        // upgrade-to-4-3-delayed-orders
        "At 10:30 the three held orders are dropped (plugin_removed)" => {
            "10:30 时三个暂存的订单被丢弃(plugin_removed)"
        }
        "and never delivered: nothing happens at 30:00" => "也从未投递:30:00 什么都没发生",
        "Publishing order-4 at 15:00 gets 406" => "15:00 发布 order-4 得到 406",
        "Declaring the exchange again at 16:00 gets 406" => "16:00 再次声明交换机得到 406",
        // x-death-3-13-republished
        "order-1-again is delivered at 0:01" => "order-1-again 在 0:01 投递",
        "with x-last-death-* set" => "带有 x-last-death-* 头",
        "and x-death count 1, not 2: the client's x-death is replaced" => {
            "x-death 的 count 为 1 而不是 2:客户端的 x-death 被替换"
        }
        _ => return None,
    })
}
