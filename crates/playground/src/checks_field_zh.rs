//! Simplified Chinese labels of the "From the field" presets' checks (`checks_zh` asks
//! here for the labels it does not know). Bodies, names, codes and figures stay as the
//! English labels have them.

/// The Chinese text of a field preset check's English `label`, if it has one.
pub fn label(en: &str) -> Option<&'static str> {
    Some(match en {
        // field-default-delivery-limit (+ fix)
        "place-order is dropped at its 21st return (delivery_limit, no dead-letter exchange)" => {
            "place-order 在第 21 次退回时被丢弃(delivery_limit,没有死信交换机)"
        }
        "It gets 21 attempts, not the 26 its handler needed" => {
            "它只得到 21 次尝试,而不是处理程序需要的 26 次"
        }
        "3.x: delivered 26 times, the last attempt succeeds" => "3.x:投递 26 次,最后一次成功",
        "3.x: never dropped" => "3.x:从未被丢弃",
        "place-order is delivered 26 times and the last attempt succeeds" => {
            "place-order 被投递 26 次,最后一次成功"
        }
        "It is never dropped" => "它从未被丢弃",
        // field-nack-multiple (+ fix)
        "4.2: dead-lettered at its 5th nack (delivery_limit)" => {
            "4.2:第 5 次 nack 时被死信(delivery_limit)"
        }
        "4.2: delivered 5 times to the listener" => "4.2:向 listener 投递 5 次",
        "4.3: redelivered every second to the end (11 deliveries in 10 s)" => {
            "4.3:每秒重投一次直到结束(10 秒内 11 次投递)"
        }
        "4.3: never dead-lettered" => "4.3:从未被死信",
        "4.3: x-acquired-count climbs (10 on the 11th delivery)" => {
            "4.3:x-acquired-count 不断增加(第 11 次投递时为 10)"
        }
        "Dead-lettered at its 5th reject (delivery_limit)" => {
            "第 5 次 reject 时被死信(delivery_limit)"
        }
        "Delivered 5 times to the listener, not more" => "向 listener 投递 5 次,不会更多",
        "It reaches orders.dlq with x-death reason delivery_limit" => {
            "它以 x-death reason delivery_limit 到达 orders.dlq"
        }
        "4.3: the last redelivery carries x-delivery-count 4" => {
            "4.3:最后一次重投带 x-delivery-count 4"
        }
        // field-x-death-republish (+ fix)
        "3.x: the listener gives up at x-death count 3 (4 deliveries)" => {
            "3.x:listener 在 x-death count 为 3 时放弃(4 次投递)"
        }
        "3.x: the 4th delivery, at 0:15, carries x-death count 3" => {
            "3.x:0:15 的第 4 次投递带 x-death count 3"
        }
        "4.x: it goes round every 5 s to the end (13 deliveries by 1:00)" => {
            "4.x:它每 5 秒转一圈直到结束(1:00 前 13 次投递)"
        }
        "4.x: at 0:15 x-death count is still 1" => "4.x:0:15 时 x-death count 仍然是 1",
        "The listener gives up after 4 deliveries" => "listener 在 4 次投递后放弃",
        "The 4th delivery, at 0:15, carries retry-count 3" => "0:15 的第 4 次投递带 retry-count 3",
        // field-consumer-timeout (+ fix, consumer-timeout-4-3-7)
        "Up to 4.2: both channels are closed with 406 at 31:00" => {
            "到 4.2 为止:31:00 两个通道都以 406 被关闭"
        }
        "Up to 4.2: compute-grades is delivered twice (0:00 and 31:01)" => {
            "到 4.2 为止:compute-grades 被投递两次(0:00 和 31:01)"
        }
        "compute-grades-qq is delivered twice (4.3: at 30:01 after basic.cancel)" => {
            "compute-grades-qq 被投递两次(4.3:basic.cancel 之后于 30:01)"
        }
        "4.3: the quorum worker is cancelled at 30:00 and gets the task again at 30:01" => {
            "4.3:仲裁队列的 worker 在 30:00 被取消,30:01 再次拿到任务"
        }
        "4.3: compute-grades (classic) is delivered once" => "4.3:compute-grades(经典)只投递一次",
        "4.3: no channel is closed" => "4.3:没有通道被关闭",
        "compute-grades is delivered once" => "compute-grades 只投递一次",
        "compute-grades-qq is delivered once" => "compute-grades-qq 只投递一次",
        "No channel is closed" => "没有通道被关闭",
        "The quorum worker's channel is closed with 406 at 30:00" => {
            "仲裁队列 worker 的通道在 30:00 以 406 被关闭"
        }
        "compute-grades-qq is delivered again at 30:01" => "compute-grades-qq 在 30:01 再次投递",
        "compute-grades (classic) is delivered once" => "compute-grades(经典)只投递一次",
        // field-head-of-line (+ fix)
        "first-3m is delivered at 3:00" => "first-3m 在 3:00 投递",
        "third-30m is delivered at 1:00:00, with second-1h" => {
            "third-30m 在 1:00:00 与 second-1h 一起投递"
        }
        "third-30m is 30 minutes late" => "third-30m 迟到 30 分钟",
        "At 45:00 third-30m waits overdue behind the head" => {
            "45:00 时 third-30m 已超时,仍排在队头后面"
        }
        "third-30m is delivered at 30:00" => "third-30m 在 30:00 投递",
        "second-1h is delivered at 1:00:00" => "second-1h 在 1:00:00 投递",
        "No message is late" => "没有消息迟到",
        // field-plugin-single-node (+ fix)
        "order-A, due at 10:00, goes out when the node is back at 15:00" => {
            "10:00 到期的 order-A 在节点于 15:00 回来时发出"
        }
        "order-B is delivered on time at 20:00" => "order-B 在 20:00 准时投递",
        "order-C is lost with the node at 30:00" => "order-C 在 30:00 随节点丢失",
        "order-C is never delivered" => "order-C 从未被投递",
        "order-C survives the node's loss and is delivered at 40:00" => {
            "order-C 挺过节点丢失,在 40:00 投递"
        }
        "Nothing is dropped" => "没有任何消息被丢弃",
        "All three orders are delivered" => "三笔订单全部投递",
        // field-plugin-mandatory (+ fix)
        "Both publishes come back 312 NO_ROUTE" => "两次发布都以 312 NO_ROUTE 被退回",
        "The first comes back at once, at 0:00" => "第一次立即在 0:00 被退回",
        "sms-1 is delivered twice (0:05 and 0:05.100)" => "sms-1 被投递两次(0:05 和 0:05.100)",
        "sms-1 is never returned" => "sms-1 从未被退回",
        "sms-1 is delivered once, at 0:05" => "sms-1 只投递一次,在 0:05",
        "It arrives at 0:05, 5 s after it was sent" => "它在 0:05 到达,发送 5 秒之后",
        // field-quorum-delay-queue-expires (+ fix)
        "message-4 is dropped with its queue at 0:15 (x-expires)" => {
            "message-4 在 0:15 随队列一起被丢弃(x-expires)"
        }
        "Only 4 of the 5 messages arrive" => "5 条消息只到达 4 条",
        "message-5, sent at 0:16 into a new delay queue, arrives at 0:21" => {
            "message-5 在 0:16 被发进一个新的延迟队列,于 0:21 到达"
        }
        "All 5 messages arrive" => "5 条消息全部到达",
        "message-5 arrives at 0:21" => "message-5 在 0:21 到达",
        // field-quorum-dlq-reject-publish (+ fix)
        "orders.dead ends with 25 messages, over its limit of 10" => {
            "orders.dead 最后有 25 条消息,超过上限 10"
        }
        "No dead letter is refused" => "没有死信被拒收",
        "At 0:30 orders.dead holds 11 (its limit and the one that crossed it)" => {
            "0:30 时 orders.dead 有 11 条(上限加上越过上限的那一条)"
        }
        "At 0:30 the other 14 wait in orders" => "0:30 时其余 14 条在 orders 中等待",
        "All 25 reach the auditor" => "25 条全部到达 auditor",
        "They go through at the worker's next retry, 1:05.110" => {
            "它们在工作进程的下一次重试(1:05.110)时通过"
        }
        // field-plugin-delay-limit (+ fix)
        "renewal-in-60d is delivered at once, at 0:00" => "renewal-in-60d 被立即投递,在 0:00",
        "trial-ends-in-30d is held in the exchange's store" => {
            "trial-ends-in-30d 保存在交换机的存储中"
        }
        "At 1:00:00 renewal-in-60d still waits" => "1:00:00 时 renewal-in-60d 仍在等待",
        "renewal-in-60d is delivered at 60 days, on time" => "renewal-in-60d 在 60 天时准时投递",
        "It is not late" => "它没有迟到",
        _ => return None,
    })
}
