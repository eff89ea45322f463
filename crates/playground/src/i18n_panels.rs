//! The UI words only the panels in the page's wasm chunks read (below the first screen, or
//! opened by a button: src/app/chunks.rs), in English and Chinese, kept out of the
//! start-up wasm (issue 29 item 10). [`crate::i18n::t`] searches this table after the first
//! screen's; in the browser it is there once a chunk's door registered it ([`register`]:
//! every door of src/app/chunks.rs calls it before its panels draw), and only a chunk's
//! code refers to it, so the splitter moves the words into a chunk. Natively it is always
//! there.
//!
//! A word the first screen shows (its views, the memos and effects the start-up module
//! runs) belongs in `i18n.rs`: asked for here before a chunk came, it would show its key.
//! Which words a build's start-up code asks for can be read off the split modules: a
//! key's address among the `i32.const`s of app.wasm's code (`wasm-objdump -d`), as those
//! moved here were.

/// (key, English, Chinese; `words!`).
pub(crate) const WORDS: &[(&str, &str, &str)] = words![
    // The shared table (`i18n.rs`): the panels' headings, hints, forms and errors, the event
    // kinds the log shows, compare mode, the export menus, the versions and checked notes.
    ("strat_hint",
        "One workload through every way of doing \"X later\": polling a table, an external store, an in-memory timing wheel, DLX + TTL (one queue, one per delay, a binary cascade, fixed levels) and the delayed-message plugin. The broker ones run through the simulator.",
        "同一批延迟任务走一遍所有做法:定时扫表、外部存储、内存时间轮、DLX + TTL(单队列、每个延迟一个队列、二进制级联、固定等级)以及延迟消息插件。涉及 broker 的方案由模拟器真实运行。",
    ),
    ("exp_unit", "(ms, string)", "(毫秒,字符串)"),
    ("xdelay_unit", "(ms, integer)", "(毫秒,整数)"),
    ("queue_aria", "queue", "队列"),
    ("h_exchanges", "exchanges", "交换机"),
    ("h_queues", "queues", "队列"),
    ("h_bindings", "bindings", "绑定"),
    ("l_via", "via", "经由"),
    ("l_expires_at", "expires at", "到期于"),
    ("l_due", "due", "到期于"),
    ("l_late", "late", "迟到"),
    ("l_held_until", "held for delayed retry until", "延迟重试,保留到"),
    ("l_held_time_until", "held by x-opt-delivery-time until", "按 x-opt-delivery-time 保留到"),
    ("l_released_time", "its x-opt-delivery-time came: ahead of the ready messages", "x-opt-delivery-time 已到:排在就绪消息之前"),
    ("l_released_retry", "delayed retry over: ahead of the ready messages", "延迟重试结束:排在就绪消息之前"),
    ("l_unused", "unused", "闲置"),
    ("l_messages", "messages", "条消息"),
    ("l_node_lost", "lost for good", "永久丢失"),
    ("strat_title", "Delay strategies compared", "延迟方案对比"),
    ("strat_loading", "Loading the comparison…", "正在加载方案对比……"),
    ("strat_load_failed", "The comparison could not be loaded:", "方案对比加载失败:"),
    ("source_detail", "source", "来源"),
    ("parting_at", "The runs part at {t}, after {n} events in common:", "两次运行在 {t} 分道扬镳,此前有 {n} 个相同的事件:"),
    ("parting_never", "The two runs do the same to the end ({n} events).", "两次运行直到结束都相同(共 {n} 个事件)。"),
    ("parting_same_so_far", "The two runs do the same for their first {n} events (compared no further).", "两次运行的前 {n} 个事件相同(未再往后比较)。"),
    ("parting_nothing", "nothing happens then", "此时什么也没有发生"),
    ("compare_outcome", "What happened", "发生了什么"),
    ("queues_hint", "Messages in FIFO order, head first, with the TTL left. Only the head can expire: a message whose TTL has passed but waits behind it is OVERDUE.", "消息按先进先出排列,队头在前,显示剩余 TTL。只有队头会过期:TTL 已到却排在后面的消息标记为「已超时」。"),
    ("fifo", "Messages, head first", "消息(队头在前)"),
    ("overdue_tag", "OVERDUE", "已超时"),
    ("held_list", "Held aside, not ready: the first released first", "暂留、未就绪的消息(先放行的在前)"),
    ("no_ttl", "no TTL", "无 TTL"),
    ("more", "more not shown", "条未显示"),
    ("empty", "empty", "空"),
    ("due", "due", "到期"),
    ("delayed_store", "Delayed exchange store: sorted by due time, each leaves on its own time.", "延迟交换机内部存储:按到期时间排序,各自按时投递。"),
    ("quick_delay", "Quick delay", "快捷延迟"),
    ("publish_btn", "Publish now", "立即发布"),
    ("published_at", "Published at", "发布于"),
    ("headers_not_object", "Headers must be a JSON object, like {\"order-id\": 1001}.", "headers 必须是 JSON 对象,例如 {\"order-id\": 1001}。"),
    ("headers_bad_json", "Headers are not valid JSON", "headers 不是合法的 JSON"),
    ("bad_count", "Repeat count must be a whole number from 1 to 10000.", "重复次数必须是 1 到 10000 的整数。"),
    ("bad_every", "Interval not understood (write 500ms, 10s, 5m)", "无法识别的间隔(例如 500ms、10s、5m)"),
    ("body_too_long", "The body is longer than 64 KB.", "消息体超过 64 KB。"),
    ("err406", "The broker refused this publish: a property has a value RabbitMQ does not accept (expiration must be a string of digits such as \"5000\"). It closed the channel; the message is gone.", "Broker 拒绝了这次发布:某个属性的值不被 RabbitMQ 接受(expiration 必须是数字字符串,如 \"5000\")。通道已被关闭,消息丢失。"),
    ("pub_x_missing", "not declared", "未声明"),
    ("err404", "That exchange does not exist. The broker closed the channel and the message is lost.", "该交换机不存在。Broker 关闭了通道,消息丢失。"),
    ("err541", "The delayed-message plugin could not use x-delay: it must be an integer of milliseconds, not a string. The broker closed the channel.", "延迟插件无法使用 x-delay:它必须是整数毫秒,不能是字符串。Broker 关闭了通道。"),
    ("err312", "A mandatory message matched no queue: the broker sent it back to the publisher (basic.return).", "mandatory 消息没有匹配到任何队列:Broker 把它退回给了发布者(basic.return)。"),
    ("err_nack", "The publisher confirm was negative (basic.nack): a queue refused the message, e.g. it is full with overflow reject-publish.", "发布确认为否定(basic.nack):有队列拒收了消息,例如队列已满且 overflow 为 reject-publish。"),
    ("err_other", "The broker closed the channel or connection with this error.", "Broker 以此错误关闭了通道或连接。"),
    ("inspector", "Message inspector", "消息详情"),
    ("checks_hint", "What this scenario states must happen, decided as the clock moves: a check stays pending until the run settles it. A restart or a jump back starts them again.", "这个场景声明必须发生的事,随时钟推进判定:在运行能下结论之前,检查保持待定。重新开始或往回跳转会让它们从头判定。"),
    ("checks_none", "This scenario states no checks.", "这个场景没有声明检查。"),
    ("checks_how", "Add a \"checks\" list in the JSON editor (each check a label and one kind: delivered, lateness, depth, order, count, dead_lettered, ...), for example:", "可以在 JSON 编辑器里加一个 \"checks\" 列表(每项一个 label 和一种检查:delivered、lateness、depth、order、count、dead_lettered……),例如:"),
    ("checks_final", "decided: the run reached its end", "已判定:运行已到结束时间"),
    ("checks_no_end", "This scenario has no \"until\": a check that needs the run's end stays pending.", "这个场景没有 \"until\":需要运行结束才能判定的检查会一直待定。"),
    ("check_expected", "expected:", "期望:"),
    ("check_seen", "saw:", "实际:"),
    ("check_story", "Open the story of", "查看经过:"),
    ("inspector_hint", "Click a message (a chip, a queue entry or a log line) to see its path, properties and headers (x-death).", "点击一条消息(消息块、队列中的条目或日志行),查看它的路径、属性和 headers(x-death)。"),
    ("as_published", "As published", "发布时"),
    ("as_delivered_n", "As delivered ({n} of {of}) at {at}, from {queue} to {consumer}", "第 {n} 次投递(共 {of} 次),{at},从 {queue} 到 {consumer}"),
    ("as_redelivered_n", "As delivered ({n} of {of}) at {at}, from {queue} to {consumer}, redelivered", "第 {n} 次投递(共 {of} 次),{at},从 {queue} 到 {consumer},重新投递"),
    ("lateness_hint", "How much later than its delay each message was delivered (expired late behind the head, or released late).", "每条消息比预期晚多久被投递(排在队头后面过期太晚,或释放太晚)。"),
    ("delivered_n", "delivered", "已投递"),
    ("mean", "mean", "平均"),
    ("retries", "retries (not handled)", "重试(未处理)"),
    ("unhandled_for", "unhandled for up to", "最长未处理"),
    ("chart_label", "Lateness of each delivered message", "每条已投递消息的延迟偏差"),
    ("deliveries_axis", "deliveries →", "投递顺序 →"),
    ("log", "Event log", "事件日志"),
    ("search", "Search", "搜索"),
    ("showing", "showing", "显示"),
    ("kept_max", "keeps the last", "最多保留"),
    ("stop", "Stop", "停止"),
    ("add_consumer", "Add a consumer", "添加消费者"),
    ("c_name", "Name", "名称"),
    ("c_queue", "Queue", "队列"),
    ("c_handle", "Handle time", "处理耗时"),
    ("c_outcome", "Outcome", "处理结果"),
    ("c_bad_name", "Give the consumer a name (at most 255 bytes).", "请填写消费者名称(最多 255 字节)。"),
    ("c_dup_name", "A running consumer already has this name.", "已有同名的运行中消费者。"),
    ("c_no_queue", "There is no queue to consume from.", "没有可消费的队列。"),
    ("c_bad_prefetch", "prefetch must be a whole number (0 = unlimited).", "prefetch 必须是整数(0 表示不限)。"),
    ("json_hint", "The whole scenario in the documented format. Errors point at the JSON path, and the line for syntax errors.", "完整场景,采用文档中的格式。错误会指出 JSON 路径,语法错误会给出行号。"),
    ("json_load", "Load this JSON", "加载此 JSON"),
    ("json_reset", "Reset", "还原"),
    ("not_tracked", "The path is kept for the first 20,000 messages only; search the log for this one.", "只保留前 20,000 条消息的路径;请在日志中搜索这条消息。"),
    ("depths", "Queue depths over time (ready messages)", "队列深度随时间变化(就绪消息数)"),
    ("compare", "Compare topologies", "对比不同拓扑"),
    ("compare_run", "Run the comparison", "运行对比"),
    ("compare_pick", "Topologies to compare (2 to 4)", "要对比的拓扑(2 到 4 个)"),
    ("compare_live", "Side by side, one clock", "并排运行(同一时钟)"),
    ("compare_need_two", "Pick two or more topologies to compare", "请至少选择两个拓扑进行对比"),
    ("compare_stop", "Stop comparing", "停止对比"),
    ("compare_final", "Each run to its end", "各自运行到结束"),
    ("compare_when", "delivered at (late by)", "投递时间(迟到)"),
    ("compare_mode", "What to compare", "对比什么"),
    ("compare_mode_topologies", "compare topologies", "对比拓扑"),
    ("compare_mode_versions", "compare versions", "对比版本"),
    ("compare_version_a", "Left lane", "左侧泳道"),
    ("compare_version_b", "Right lane", "右侧泳道"),
    ("compare_same_version", "Choose two different versions", "请选择两个不同的版本"),
    ("compare_version_col", "Version", "版本"),
    ("compare_stopped", "stopped by a limit", "因限制而停止"),
    ("compare_more", "{n} more", "另 {n} 次"),
    ("code_title", "Export code: this scenario as a program", "导出代码:把这个场景写成程序"),
    ("code_intro", "One self-contained program per language: it declares the exchanges, queues (every argument as the scenario has it) and bindings under unique names, publishes the actions at their times, runs the consumers and prints what it saw. The zip's run.sh builds it offline and runs it against a broker: ./run.sh amqp://guest:guest@localhost:5672", "每种语言一个独立的程序:以唯一名称声明交换机、队列(参数与场景完全一致)和绑定,按时发布场景中的动作,运行消费者,并打印所见。压缩包里的 run.sh 离线编译并对一个 Broker 运行它:./run.sh amqp://guest:guest@localhost:5672"),
    ("code_lang", "Language of the program", "程序语言"),
    ("code_golden", "not run here: checked by golden files", "此处未运行:仅由黄金文件检查"),
    ("code_loading", "Loading the exporter…", "正在加载导出器…"),
    ("code_load_failed", "The exporter could not be started (close and reopen this panel to try again)", "无法启动导出器(关闭并重新打开此面板可重试)"),
    ("code_failed", "The exporter failed", "导出器出错"),
    ("code_no_files", "the exporter wrote no file for this language.", "导出器没有为这种语言生成任何文件。"),
    ("code_files", "Files of the project", "工程文件"),
    ("code_copy", "Copy", "复制"),
    ("code_download", "Download this file", "下载此文件"),
    ("code_zip", "Download the project (.zip)", "下载整个工程(.zip)"),
    ("code_copied", "Copied to the clipboard.", "已复制到剪贴板。"),
    ("code_copy_failed", "The clipboard refused: select the code and press Ctrl+C.", "剪贴板拒绝了:请选中代码后按 Ctrl+C。"),
    ("code_saved", "Downloaded", "已下载"),
    ("ver_title", "What this version changes, and where it comes from", "此版本的变化及其出处"),
    ("ver_intro_live", "CI runs the conformance suite on a live RabbitMQ {v} too. Each difference from 3.10 below is marked: seen live (a conformance case shows it on {v} and the simulation agrees) or read in the source (RabbitMQ's source, release notes and docs, shared/docs/rabbitmq-versions.md).", "CI 也会在真实的 RabbitMQ {v} 上运行一致性测试。下面每条与 3.10 的差异都有标注:已在真实 Broker 上看到(有一致性测试场景在 {v} 上展示它,且模拟结果一致),或来自源码阅读(RabbitMQ 的源码、发布说明和文档,shared/docs/rabbitmq-versions.md)。"),
    ("ver_intro", "No live broker of this version runs here. The simulation applies the differences below from RabbitMQ's source, release notes and docs (shared/docs/rabbitmq-versions.md); none of them was run on a live broker of this version.", "这里没有此版本的真实 Broker。模拟按下列来自 RabbitMQ 源码、发布说明和文档的差异运行(shared/docs/rabbitmq-versions.md);这些差异都没有在该版本的真实 Broker 上运行过。"),
    ("ver_seen_live", "seen live", "已在真实 Broker 上看到"),
    ("ver_read_source", "read in the source", "来自源码阅读"),
    ("ver_not_simulated", "known, not simulated", "已知,未模拟"),
    ("chk_title", "What is checked against a live RabbitMQ", "哪些已对照真实的 RabbitMQ 验证"),
    ("chk_intro", "In CI, a conformance suite runs each of its scenarios twice, in this simulation and on live RabbitMQ 3.10.8, 4.0.5 and 4.3.6 brokers, and fails on any difference (times within 50 ms). It covers these behaviours (rules 1-14 of the semantics notes, Part A) on each:", "CI 中的一致性测试把每个场景运行两次:一次在本模拟中,一次在真实运行的 RabbitMQ 3.10.8、4.0.5 和 4.3.6 Broker 上,只要有任何差异就失败(时间误差 50 毫秒以内)。它在每个版本上覆盖以下行为(语义说明 A 部分第 1-14 条):"),
    ("chk_defs", "The suite also imports an exported definitions.json into the broker and checks that every exchange, queue, binding and argument arrived.", "测试还会把导出的 definitions.json 导入 Broker,并检查每个交换机、队列、绑定和参数都已就位。"),
    ("live_plugin", "The delayed-message plugin's rules (store, due order, x-delay, node loss): from its source and recorded facts, not a live broker (Debian packages no plugin)", "延迟消息插件的规则(存储、到期顺序、x-delay、节点丢失):依据其源码和记录的事实,未对照真实 Broker(Debian 没有打包该插件)"),
    ("live_node", "A node restarted or lost: not replayed on a live broker", "节点重启或丢失:未在真实 Broker 上重放"),
    ("live_upgrade", "Upgrading the node to another version: not replayed on a live broker", "把节点升级到另一个版本:未在真实 Broker 上重放"),
    ("live_replay", "Routing through bindings, mandatory returns, purges and deletes (the suite's replay cases)", "经绑定路由、mandatory 退回、清空与删除(一致性测试的重放场景)"),
    ("live_for", "What this scenario uses on RabbitMQ {v}:", "这个场景在 RabbitMQ {v} 上用到的规则:"),
    ("chk_plugin_h", "Not checked against a live broker: the delayed-message plugin (rules 15-21).", "未对照真实 Broker 验证:延迟消息插件(第 15-21 条)。"),
    ("chk_plugin", "Debian does not package the plugin, so the suite cannot install it; these rules are covered by the engine's own tests only, against the behaviour recorded on a broker with the plugin.", "Debian 没有打包该插件,测试无法安装它;这些规则只由引擎自身的测试覆盖,依据的是在装有插件的 Broker 上记录的行为。"),
    ("k_published", "published", "发布"),
    ("k_enqueued", "enqueued", "入队"),
    ("k_expired", "expired", "过期"),
    ("k_dead_lettered", "dead-lettered", "死信转发"),
    ("k_dead_letter_waiting", "dead letter waits", "死信等待转发"),
    ("l_dl_no_exchange", "no dead-letter exchange", "死信交换机不存在"),
    ("l_dl_no_route", "no queue to route to from", "无队列可路由,来自"),
    ("l_dl_refused", "refused by", "被拒收于"),
    ("l_dl_retry", "retried at", "重试于"),
    ("k_delayed", "delayed", "进入延迟存储"),
    ("k_delay_due", "delay due", "延迟到期"),
    ("k_delivered", "delivered", "投递"),
    ("k_acked", "acked", "已确认"),
    ("back_nack", "↺ nacked", "↺ 被 nack"),
    ("back_reject", "↺ rejected", "↺ 被 reject"),
    ("back_timeout", "↺ ack timeout", "↺ 确认超时"),
    ("back_closed", "↺ channel closed", "↺ 通道关闭"),
    ("back_redelivered", "↺ redelivered", "↺ 重新投递"),
    ("k_rejected", "rejected", "被拒绝"),
    ("k_nacked", "nacked", "被否认(nack)"),
    ("k_requeued", "requeued", "重新入队"),
    ("k_released", "released", "放行"),
    ("k_dropped", "dropped", "丢弃"),
    ("k_returned", "returned", "退回"),
    ("k_confirmed", "confirmed", "发布确认"),
    ("k_error", "error", "错误"),
    ("k_other", "other", "其他"),
    ("q_5s", "5 s", "5 秒"),
    ("q_30s", "30 s", "30 秒"),
    ("q_5min", "5 min", "5 分钟"),
    ("q_30min", "30 min", "30 分钟"),
    ("compare_hint", "The same orders (A waits 30 min, B published a minute later waits 5 min) through one DLX wait queue with per-message TTL, one wait queue per TTL, and the delayed-message plugin. Side by side, every lane follows the playground clock: press Play or jump to 6:00 and see where B is in each.", "同一批订单(A 等 30 分钟,B 晚一分钟发布、等 5 分钟)分别经过:单个 DLX 等待队列 + 消息级 TTL、每种 TTL 一个等待队列、延迟消息插件。并排运行时每条泳道都跟随播放器的时钟:按播放或跳转到 6:00,看看 B 在各方案中的位置。"),
    ("compare_versions", "Compare versions", "对比版本"),
    ("compare_versions_hint", "The loaded scenario on two RabbitMQ versions side by side, every lane on the playground clock (its broker field overridden, as the version selector does). The poison-message scenario shows it best: on 3.10 the order loops forever, on 4.0 it is dead-lettered after 20 returns.", "把当前场景放在两个 RabbitMQ 版本上并排运行,每条泳道都跟随播放器的时钟(覆盖其 broker 字段,与版本选择器相同)。毒消息场景最能说明问题:在 3.10 上订单无限循环,在 4.0 上退回 20 次后被死信。"),
    ("chk_r1", "Queue TTL (x-message-ttl): each message is dead-lettered that long after its own publish.", "队列 TTL(x-message-ttl):每条消息在它自己发布之后经过这段时间被死信转发。"),
    ("chk_r2", "Head-of-line blocking: only the head expires, so a message whose TTL has passed waits behind the one in front; taking the head (basic.get) releases it; an expired message still counts in the queue depth.", "队头阻塞:只有队头会过期,TTL 已到的消息要等前面的消息;取走队头(basic.get)会立即释放它;已过期的消息仍计入队列深度。"),
    ("chk_r3", "The effective TTL is the smaller of the queue TTL and the message's expiration, fixed when the message enters the queue.", "实际 TTL 取队列 TTL 与消息 expiration 中较小的一个,在消息入队时确定。"),
    ("chk_r4", "expiration \"0\" (or x-message-ttl 0): delivered if a consumer can take it right now, otherwise dead-lettered at once.", "expiration \"0\"(或 x-message-ttl 为 0):此刻有消费者能接收就投递,否则立即死信转发。"),
    ("chk_r5", "A lone expired head is removed on time by the queue's timer, in classic and quorum queues.", "单独一条已过期的队头会被队列的定时器按时移除,经典队列和仲裁队列都是如此。"),
    ("chk_r6", "expiration must be a non-negative whole number written as a string (\"+500\" and \"0500\" are accepted); other values close the channel with 406 PRECONDITION_FAILED.", "expiration 必须是写成字符串的非负整数(\"+500\" 和 \"0500\" 也可以);其他值会以 406 PRECONDITION_FAILED 关闭通道。"),
    ("chk_r7", "x-death headers: one entry per queue and reason, newest first, with a count; x-first-death-* set once; the expiration is kept as original-expiration.", "x-death 头:每个(队列, 原因)一条记录,最新的在前,带计数;x-first-death-* 只设置一次;expiration 保存为 original-expiration。"),
    ("chk_r8", "Dead-letter routing keys: without x-dead-letter-routing-key the original keys (CC included) are used; with it, only that key, and the CC header is removed.", "死信路由键:未设置 x-dead-letter-routing-key 时沿用原来的全部路由键(包括 CC);设置后只用这个键,并移除 CC 头。"),
    ("chk_r9", "Length limits (x-max-length): drop-head dead-letters the oldest message; reject-publish refuses the new one; reject-publish-dlx refuses and dead-letters it.", "长度限制(x-max-length):drop-head 把最旧的消息死信转发;reject-publish 拒收新消息;reject-publish-dlx 拒收并把它死信转发。"),
    ("chk_r10", "reject / nack without requeue dead-letters the message (reason rejected); nack with requeue redelivers it at once, marked redelivered.", "不重新入队的 reject / nack 会把消息死信转发(原因 rejected);重新入队的 nack 会立即重新投递,并标记 redelivered。"),
    ("chk_r11", "An unacked message does not expire; requeued after its TTL has passed (for example when its consumer goes away), it is dead-lettered at once.", "未确认的消息不会过期;TTL 已过后被重新入队(例如消费者断开),会立即被死信转发。"),
    ("chk_r12", "Dead-letter cycles are cut at the first hop: a queue that dead-letters back to itself drops the message; a cycle with a rejection in it (a retry loop) is allowed.", "死信循环在第一跳被切断:死信转发回自身的队列会丢弃消息;包含一次拒绝的循环(重试循环)是允许的。"),
    ("chk_r13", "A dead-letter exchange that does not exist drops the message silently; it is looked up at dead-letter time, so declaring it later works.", "不存在的死信交换机会静默丢弃消息;死信交换机在死信转发时才查找,所以之后再声明也有效。"),
    ("chk_r14", "Queue declare errors: a bad TTL, a dead-letter routing key without a DLX, x-expires 0 and an unknown overflow are refused with 406 and the broker's own text.", "队列声明错误:非法 TTL、有死信路由键却没有 DLX、x-expires 为 0、未知的 overflow,都会被 406 拒绝,并给出 Broker 的原文。"),
    // The order-timeout lab (`i18n_orders.rs`).
    ("orders_hint",
        "The lab's orders table: each order waits for payment; its close message arrives after the timeout. The consumer must check the order, not trust the message.",
        "实验里的订单表:每笔订单等待支付,超时后关单消息到达。消费者必须查库核对订单状态,而不是相信消息。",
    ),
    ("double_release", "stock released twice", "库存重复释放"),
    ("orders_lateness", "close lateness mean / p99 / max", "关单延迟 平均 / p99 / 最大"),
    ("queries", "db queries", "数据库查询"),
    ("rows", "rows scanned", "扫描行数"),
    ("state", "state", "状态"),
    ("deadline", "due", "到期"),
    ("ended", "paid / closed", "支付 / 关闭"),
    ("note", "note", "备注"),
    ("orders_overdue", "overdue, not closed", "已超时未关闭"),
    ("shown", "rows shown", "显示行数"),
    ("k_order_created", "order created", "订单创建"),
    ("k_order_paid", "order paid", "订单支付"),
    ("k_order_canceled", "order canceled", "订单取消"),
    ("k_order_closed", "order closed", "订单关闭"),
    ("k_close_skipped", "close skipped", "跳过关单"),
    ("k_stock_released", "stock released", "释放库存"),
    ("k_order_reminded", "payment reminder", "催付提醒"),
    ("k_scan_run", "compensation scan", "补偿扫描"),
    ("k_fault_injected", "fault injected", "注入故障"),
    // RabbitMQ 4.4's words (`i18n_qq44.rs`): the Publish form's "deliver at", held messages,
    // the comparison off the plugin.
    (
        "dt_held",
        "→ x-opt-delivery-time: {queues} holds the message until then (a quorum queue on RabbitMQ {v}), then delivers it ahead of its ready messages.",
        "→ x-opt-delivery-time:{queues} 会把消息保留到那时(RabbitMQ {v} 的仲裁队列),然后排在就绪消息之前投递。",
    ),
    (
        "dt_no_queue",
        "This exchange and routing key reach no queue: none would read x-opt-delivery-time.",
        "这个交换机和路由键不会到达任何队列:没有队列会读取 x-opt-delivery-time。",
    ),
    (
        "dt_repeat",
        "A repeated publish writes the same time into every run.",
        "重复发布时,每一次都写入同一个时间。",
    ),
    (
        "off_plugin_link",
        "The plugin cannot run here: this is what replaces it",
        "插件无法在这里运行:这是替代它的方案",
    ),
    (
        "cost_title",
        "At the workload's scale: {n} orders over {over}, delays {delays}, the strategy comparison's figures ({file})",
        "在工作负载规模下:{over} 内 {n} 个订单,延迟 {delays},来自延迟方案对比的数字({file})",
    ),
    ("deliver_at", "deliver at", "投递时间"),
    ("dw_in", "in (a delay)", "延迟(多久后)"),
    ("dw_at", "at (a time on the clock)", "时刻(时钟上的时间)"),
    ("dw_label", "deliver at: a delay or a time", "投递时间:延迟或时刻"),
    ("dt_not_offered", "deliver at is not offered here.", "这里不提供投递时间。"),
    ("dt_in_queues", "{queues}:", "{queues}:"),
    ("held_due", "◷ due in {left} ({at})", "◷ {left} 后放行({at})"),
    ("held_retry", "⟳ retry in {left}, attempt {n}", "⟳ {left} 后重试,第 {n} 次投递"),
    ("compare_mode_off_plugin", "off the plugin", "告别插件"),
    ("lane_lost", "lost", "丢失"),
    ("cost_way", "way", "做法"),
    ("cost_works_on", "works on", "可用版本"),
    ("cost_objects", "broker objects", "Broker 对象"),
    ("cost_peak", "stored at peak", "峰值存储"),
    ("cost_work", "work per order", "每单工作量"),
    ("cost_late", "late (p99 / max)", "迟到(p99 / 最大)"),
    ("cost_running", "computing at scale…", "正在按规模计算…"),
    ("cost_missing", "not in this build's strategy comparison", "此版本的方案对比中没有"),
    ("compare_off_plugin", "Off the plugin, side by side", "告别插件:并排对比"),
    (
        "compare_off_plugin_hint",
        "The same six orders (30 min, 5 min and 10 s, mixed, one a minute) and the node lost for good at 15:00, three ways: the delayed-message plugin on RabbitMQ 4.2 (its last version), one quorum wait queue per delay (x-message-ttl + DLX) on 4.3, one quorum queue holding each order until its x-opt-delivery-time on 4.4. Each lane runs on its own version on the playground clock; under the lanes, each way's cost at the workload's scale.",
        "同样的六个订单(30 分钟、5 分钟、10 秒混在一起,每分钟一个),并在 15:00 永久失去节点,三种做法:RabbitMQ 4.2(插件的最后版本)上的延迟消息插件;4.3 上每种延迟一个仲裁等待队列(x-message-ttl + DLX);4.4 上一个仲裁队列按 x-opt-delivery-time 保留每个订单。每条泳道在各自的版本上运行,跟随播放器的时钟;泳道下方是各做法在工作负载规模下的成本。",
    ),
];

#[cfg(target_arch = "wasm32")]
thread_local! {
    static REGISTERED: std::cell::Cell<&'static [(&'static str, &'static str, &'static str)]> =
        const { std::cell::Cell::new(&[]) };
}

/// The table as `i18n::t` searches it: natively all of it; in the browser, empty until a
/// chunk's door [`register`]ed it.
pub fn words() -> &'static [(&'static str, &'static str, &'static str)] {
    #[cfg(not(target_arch = "wasm32"))]
    return WORDS;
    #[cfg(target_arch = "wasm32")]
    return REGISTERED.with(std::cell::Cell::get);
}

/// Makes the words findable (the browser build); called by the code of every chunk's door
/// (src/app/chunks.rs), so that the words are in the chunks, not the start-up wasm.
pub fn register() {
    #[cfg(target_arch = "wasm32")]
    REGISTERED.with(|r| r.set(WORDS));
}

#[cfg(test)]
mod tests {
    use crate::i18n::Lang;

    #[test]
    fn every_panel_word_is_reached_from_every_tables_t() {
        for &(k, en, zh) in super::WORDS {
            assert_eq!(crate::i18n::t(Lang::En, k), en, "{k}");
            assert_eq!(crate::i18n::t(Lang::Zh, k), zh, "{k}");
            // The tables the panels read directly fall through here too.
            assert_eq!(crate::i18n_orders::t(Lang::En, k), en, "{k}");
            assert_eq!(crate::i18n_qq44::t(Lang::Zh, k), zh, "{k}");
            assert_eq!(crate::i18n_why::t(Lang::En, k), en, "{k}");
        }
    }
}
