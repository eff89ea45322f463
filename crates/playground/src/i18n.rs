//! UI text in English and Simplified Chinese. Scenario texts (name, description, what
//! to watch) come from the preset files; RabbitMQ's own names, codes and texts are
//! never translated (a learner searches for them).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    /// The code a share link's view options and a module boundary carry: "en" or "zh".
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The language of `code` ("en", "zh"), or None.
    pub fn of_code(code: &str) -> Option<Lang> {
        match code {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }
}

/// Every text of the first screen: (key, English, Chinese). A table read by a search,
/// not a `match` (whose string compares were 11.6 KB of start-up code, issue 29 item 10).
const TEXTS: &[(&str, &str, &str)] = &[
    ("skip", "Skip to the playground", "跳到主要内容"),
    // The playground's two side columns (<aside>): landmarks need names that tell them apart.
    ("area_left", "Scenarios", "场景"),
    ("area_right", "Publish, consume, inspect", "发布、消费与查看消息"),
    ("tagline", "Watch delayed messages move through a simulated RabbitMQ 3.10 to 4.4: TTL + DLX wait queues, retries, 4.4's delivery time, what each version changes.", "看延迟消息怎样流过模拟的 RabbitMQ(3.10 至 4.4):TTL + 死信等待队列、重试、4.4 的投递时间,以及各版本的差异。"),
    ("virtual_time", "virtual time", "虚拟时间"),
    ("footer", "a deterministic simulation of RabbitMQ (3.10 to 4.4) running in your browser (WebAssembly)", "在浏览器中运行的 RabbitMQ(3.10 至 4.4)确定性模拟(WebAssembly)"),
    ("controls", "Clock controls", "时钟控制"),
    ("play", "Play", "播放"),
    ("pause", "Pause", "暂停"),
    ("step", "Step", "单步"),
    ("step_hint", "Run to the next marked moment on the timeline (else the next thing that happens)", "运行到时间轴上的下一个标记时刻(没有则到下一个事件)"),
    ("restart", "Restart", "重新开始"),
    ("speed", "Speed", "速度"),
    ("speed_presets", "Speed presets", "速度预设"),
    ("jump_to", "Jump to", "跳转到"),
    ("go", "Go", "跳转"),
    ("nothing_next", "Nothing is scheduled: publish a message or load a scenario.", "没有待发生的事件:发布一条消息或加载一个场景。"),
    ("max", "max", "最大"),
    ("manual_ack", "manual ack", "手动确认"),
    ("c_stopped", "stopped", "已停止"),
    ("c_not_attached", "not attached", "未订阅"),
    ("exp_unit", "(ms, string)", "(毫秒,字符串)"),
    ("xdelay_unit", "(ms, integer)", "(毫秒,整数)"),
    ("q_5s", "5 s", "5 秒"),
    ("q_30s", "30 s", "30 秒"),
    ("q_5min", "5 min", "5 分钟"),
    ("q_30min", "30 min", "30 分钟"),
    ("queue_aria", "queue", "队列"),
    ("k_publisher", "publisher", "生产者"),
    ("k_exchange", "exchange", "交换机"),
    ("k_queue", "queue", "队列"),
    ("k_consumer", "consumer", "消费者"),
    ("h_exchanges", "exchanges", "交换机"),
    ("h_queues", "queues", "队列"),
    ("h_bindings", "bindings", "绑定"),
    // Words of the event log's details (runner::line); RabbitMQ's own stay as they are.
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
    ("seek_too_far", "The clock goes at most 30 days (720:00:00).", "时钟最多只能到 30 天(720:00:00)。"),
    ("running_to", "Running to", "正在运行到"),
    ("reached_until", "The scenario ends at", "场景结束于"),
    ("gallery", "Scenarios", "场景库"),
    // The frame of "Delay strategies compared" (src/app/strategies.rs); its body is the
    // module crates/strategies-view, with its own words (text.rs).
    ("strat_title", "Delay strategies compared", "延迟方案对比"),
    ("strat_hint",
        "One workload through every way of doing \"X later\": polling a table, an external store, an in-memory timing wheel, DLX + TTL (one queue, one per delay, a binary cascade, fixed levels) and the delayed-message plugin. The broker ones run through the simulator.",
        "同一批延迟任务走一遍所有做法:定时扫表、外部存储、内存时间轮、DLX + TTL(单队列、每个延迟一个队列、二进制级联、固定等级)以及延迟消息插件。涉及 broker 的方案由模拟器真实运行。",
    ),
    ("strat_loading", "Loading the comparison…", "正在加载方案对比……"),
    ("strat_load_failed", "The comparison could not be loaded:", "方案对比加载失败:"),
    ("try_again", "Try again", "重试"),
    ("deferred_failed", "This part of the page could not be loaded", "页面的这一部分未能加载"),
    ("gallery_hint", "One click loads a scenario; then press Play or jump to a time.", "点击加载场景,然后按播放或跳转到某个时间。"),
    ("scenario", "Scenario", "场景"),
    ("what_to_watch", "What to watch:", "观察要点:"),
    ("source_detail", "source", "来源"),
    ("parting_at", "The runs part at {t}, after {n} events in common:", "两次运行在 {t} 分道扬镳,此前有 {n} 个相同的事件:"),
    ("parting_never", "The two runs do the same to the end ({n} events).", "两次运行直到结束都相同(共 {n} 个事件)。"),
    ("parting_same_so_far", "The two runs do the same for their first {n} events (compared no further).", "两次运行的前 {n} 个事件相同(未再往后比较)。"),
    ("parting_nothing", "nothing happens then", "此时什么也没有发生"),
    ("compare_outcome", "What happened", "发生了什么"),
    ("x_refusing", "✕ refuses every publish: {code}", "✕ 拒绝所有发布:{code}"),
    ("x_refusing_label", "refuses every publish", "拒绝所有发布"),
    ("what_to_watch_on", "What to watch (on RabbitMQ {on}):", "观察要点(RabbitMQ {on}):"),
    ("this_run_on", "On RabbitMQ {v}, this run so far:", "在 RabbitMQ {v} 上,本次运行到目前为止:"),
    ("quick_publish", "Publish an order that waits", "发布一条订单,等待"),
    ("queues", "Queues", "队列"),
    ("queues_hint", "Messages in FIFO order, head first, with the TTL left. Only the head can expire: a message whose TTL has passed but waits behind it is OVERDUE.", "消息按先进先出排列,队头在前,显示剩余 TTL。只有队头会过期:TTL 已到却排在后面的消息标记为「已超时」。"),
    ("fifo", "Messages, head first", "消息(队头在前)"),
    ("ready", "ready", "就绪"),
    ("unacked", "unacked", "未确认"),
    ("overdue", "overdue", "已超时"),
    ("overdue_tag", "OVERDUE", "已超时"),
    ("held", "held", "保留中"),
    ("held_list", "Held aside, not ready: the first released first", "暂留、未就绪的消息(先放行的在前)"),
    ("no_ttl", "no TTL", "无 TTL"),
    ("more", "more not shown", "条未显示"),
    ("empty", "empty", "空"),
    ("due", "due", "到期"),
    ("delayed_store", "Delayed exchange store: sorted by due time, each leaves on its own time.", "延迟交换机内部存储:按到期时间排序,各自按时投递。"),
    ("publish", "Publish", "发布消息"),
    ("exchange", "Exchange", "交换机"),
    ("routing_key", "Routing key", "路由键"),
    ("body", "Body ({n} = number)", "消息体({n} 为序号)"),
    ("quick_delay", "Quick delay", "快捷延迟"),
    ("headers", "Other headers", "其他 headers"),
    ("repeat", "Repeat count", "重复次数"),
    ("every", "Every", "间隔"),
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
    // The Checks panel (src/app/panels/checks.rs; the phrases: checks_words.rs).
    ("checks", "Checks", "检查"),
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
    ("lateness", "Lateness", "延迟偏差"),
    ("lateness_hint", "How much later than its delay each message was delivered (expired late behind the head, or released late).", "每条消息比预期晚多久被投递(排在队头后面过期太晚,或释放太晚)。"),
    ("delivered_n", "delivered", "已投递"),
    ("mean", "mean", "平均"),
    ("retries", "retries (not handled)", "重试(未处理)"),
    ("unhandled_for", "unhandled for up to", "最长未处理"),
    ("chart_label", "Lateness of each delivered message", "每条已投递消息的延迟偏差"),
    ("deliveries_axis", "deliveries →", "投递顺序 →"),
    ("log", "Event log", "事件日志"),
    ("kind", "Kind", "类型"),
    ("all", "All", "全部"),
    ("search", "Search", "搜索"),
    ("showing", "showing", "显示"),
    ("kept_max", "keeps the last", "最多保留"),
    ("topology", "Topology", "拓扑"),
    ("topo_hint", "Drag a box (or focus it and use the arrow keys) to rearrange; chips move along the edges as messages are routed, dead-lettered and delivered.", "拖动方框(或聚焦后用方向键)调整布局;消息被路由、死信转发和投递时,消息块沿连线移动。"),
    ("lg_binding", "binding (routing key)", "绑定(路由键)"),
    ("lg_dlx", "dead-letter (DLX)", "死信(DLX)"),
    ("lg_consume", "consume", "消费"),
    ("lg_delayed", "dashed purple box: x-delayed-message exchange", "紫色虚线框:x-delayed-message 延迟交换机"),
    ("consumers", "Consumers", "消费者"),
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
    ("json_editor", "Scenario JSON (edit and load)", "场景 JSON(编辑并加载)"),
    ("json_hint", "The whole scenario in the documented format. Errors point at the JSON path, and the line for syntax errors.", "完整场景,采用文档中的格式。错误会指出 JSON 路径,语法错误会给出行号。"),
    ("json_load", "Load this JSON", "加载此 JSON"),
    ("json_reset", "Reset", "还原"),
    ("line", "line", "第"),
    ("column", "column", "列"),
    ("not_tracked", "The path is kept for the first 20,000 messages only; search the log for this one.", "只保留前 20,000 条消息的路径;请在日志中搜索这条消息。"),
    ("depths", "Queue depths over time (ready messages)", "队列深度随时间变化(就绪消息数)"),
    ("compare", "Compare topologies", "对比不同拓扑"),
    ("compare_hint", "The same orders (A waits 30 min, B published a minute later waits 5 min) through one DLX wait queue with per-message TTL, one wait queue per TTL, and the delayed-message plugin. Side by side, every lane follows the playground clock: press Play or jump to 6:00 and see where B is in each.", "同一批订单(A 等 30 分钟,B 晚一分钟发布、等 5 分钟)分别经过:单个 DLX 等待队列 + 消息级 TTL、每种 TTL 一个等待队列、延迟消息插件。并排运行时每条泳道都跟随播放器的时钟:按播放或跳转到 6:00,看看 B 在各方案中的位置。"),
    ("compare_run", "Run the comparison", "运行对比"),
    ("record_full", "This scenario holds 10,000 actions, the most a scenario may have: later inputs still run but are not kept in the link or the autosave.", "该场景已有 10,000 个动作(上限):之后的操作仍会执行,但不会保存到链接或自动保存中。"),
    ("compare_pick", "Topologies to compare (2 to 4)", "要对比的拓扑(2 到 4 个)"),
    ("compare_live", "Side by side, one clock", "并排运行(同一时钟)"),
    ("compare_need_two", "Pick two or more topologies to compare", "请至少选择两个拓扑进行对比"),
    ("compare_stop", "Stop comparing", "停止对比"),
    ("compare_final", "Each run to its end", "各自运行到结束"),
    ("compare_when", "delivered at (late by)", "投递时间(迟到)"),
    // Compare mode on two versions (issue 12 item 7).
    ("compare_mode", "What to compare", "对比什么"),
    ("compare_mode_topologies", "compare topologies", "对比拓扑"),
    ("compare_mode_versions", "compare versions", "对比版本"),
    ("compare_versions", "Compare versions", "对比版本"),
    ("compare_versions_hint", "The loaded scenario on two RabbitMQ versions side by side, every lane on the playground clock (its broker field overridden, as the version selector does). The poison-message scenario shows it best: on 3.10 the order loops forever, on 4.0 it is dead-lettered after 20 returns.", "把当前场景放在两个 RabbitMQ 版本上并排运行,每条泳道都跟随播放器的时钟(覆盖其 broker 字段,与版本选择器相同)。毒消息场景最能说明问题:在 3.10 上订单无限循环,在 4.0 上退回 20 次后被死信。"),
    ("compare_version_a", "Left lane", "左侧泳道"),
    ("compare_version_b", "Right lane", "右侧泳道"),
    ("compare_same_version", "Choose two different versions", "请选择两个不同的版本"),
    ("compare_version_col", "Version", "版本"),
    ("compare_stopped", "stopped by a limit", "因限制而停止"),
    ("compare_more", "{n} more", "另 {n} 次"),
    ("zoom", "Zoom", "缩放"),
    ("zoom_in", "Zoom in", "放大"),
    ("zoom_out", "Zoom out", "缩小"),
    ("fit", "Fit", "适应"),
    ("close", "Close", "关闭"),
    // Definitions export and the conformance suite (tests/conformance/).
    ("export_defs", "Export definitions", "导出 definitions"),
    ("export_done", "Downloaded definitions.json (exchanges, queues, bindings). Import it into your broker with:", "已下载 definitions.json(交换机、队列、绑定)。用以下命令导入你的 Broker:"),
    ("export_plugin", "This scenario uses x-delayed-message: the importing broker needs the delayed-message plugin.", "此场景使用 x-delayed-message:导入的 Broker 需要安装延迟消息插件。"),
    ("export_left_out", "Not in the file: built-in exchanges (amq.*), exclusive queues and the timed actions.", "文件中不包含:内置交换机(amq.*)、排他队列和定时动作。"),
    // The "Export code" menu (export_code.rs): the exporter's own words (left out, not run) come from delaylab_export::text.
    ("export_code", "Export code", "导出代码"),
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
    ("ver_label", "RabbitMQ version", "RabbitMQ 版本"),
    ("ver_hint", "A change reloads the scenario from 0:00 on that version (kept in the link and the autosave).", "切换后场景会在该版本上从 0:00 重新加载(写入分享链接和自动保存)。"),
    ("ver_title", "What this version changes, and where it comes from", "此版本的变化及其出处"),
    ("ver_intro_live", "CI runs the conformance suite on a live RabbitMQ {v} too. Each difference from 3.10 below is marked: seen live (a conformance case shows it on {v} and the simulation agrees) or read in the source (RabbitMQ's source, release notes and docs, shared/docs/rabbitmq-versions.md).", "CI 也会在真实的 RabbitMQ {v} 上运行一致性测试。下面每条与 3.10 的差异都有标注:已在真实 Broker 上看到(有一致性测试场景在 {v} 上展示它,且模拟结果一致),或来自源码阅读(RabbitMQ 的源码、发布说明和文档,shared/docs/rabbitmq-versions.md)。"),
    ("ver_intro", "No live broker of this version runs here. The simulation applies the differences below from RabbitMQ's source, release notes and docs (shared/docs/rabbitmq-versions.md); none of them was run on a live broker of this version.", "这里没有此版本的真实 Broker。模拟按下列来自 RabbitMQ 源码、发布说明和文档的差异运行(shared/docs/rabbitmq-versions.md);这些差异都没有在该版本的真实 Broker 上运行过。"),
    ("ver_seen_live", "seen live", "已在真实 Broker 上看到"),
    ("ver_read_source", "read in the source", "来自源码阅读"),
    ("ver_not_simulated", "known, not simulated", "已知,未模拟"),
    ("chk_title", "What is checked against a live RabbitMQ", "哪些已对照真实的 RabbitMQ 验证"),
    ("chk_intro", "In CI, a conformance suite runs each of its scenarios twice, in this simulation and on live RabbitMQ 3.10.8, 4.0.5 and 4.3.6 brokers, and fails on any difference (times within 50 ms). It covers these behaviours (rules 1-14 of the semantics notes, Part A) on each:", "CI 中的一致性测试把每个场景运行两次:一次在本模拟中,一次在真实运行的 RabbitMQ 3.10.8、4.0.5 和 4.3.6 Broker 上,只要有任何差异就失败(时间误差 50 毫秒以内)。它在每个版本上覆盖以下行为(语义说明 A 部分第 1-14 条):"),
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
    ("chk_defs", "The suite also imports an exported definitions.json into the broker and checks that every exchange, queue, binding and argument arrived.", "测试还会把导出的 definitions.json 导入 Broker,并检查每个交换机、队列、绑定和参数都已就位。"),
    ("live_plugin", "The delayed-message plugin's rules (store, due order, x-delay, node loss): from its source and recorded facts, not a live broker (Debian packages no plugin)", "延迟消息插件的规则(存储、到期顺序、x-delay、节点丢失):依据其源码和记录的事实,未对照真实 Broker(Debian 没有打包该插件)"),
    ("live_node", "A node restarted or lost: not replayed on a live broker", "节点重启或丢失:未在真实 Broker 上重放"),
    ("live_upgrade", "Upgrading the node to another version: not replayed on a live broker", "把节点升级到另一个版本:未在真实 Broker 上重放"),
    ("live_replay", "Routing through bindings, mandatory returns, purges and deletes (the suite's replay cases)", "经绑定路由、mandatory 退回、清空与删除(一致性测试的重放场景)"),
    ("live_for", "What this scenario uses on RabbitMQ {v}:", "这个场景在 RabbitMQ {v} 上用到的规则:"),
    ("chk_plugin_h", "Not checked against a live broker: the delayed-message plugin (rules 15-21).", "未对照真实 Broker 验证:延迟消息插件(第 15-21 条)。"),
    ("chk_plugin", "Debian does not package the plugin, so the suite cannot install it; these rules are covered by the engine's own tests only, against the behaviour recorded on a broker with the plugin.", "Debian 没有打包该插件,测试无法安装它;这些规则只由引擎自身的测试覆盖,依据的是在装有插件的 Broker 上记录的行为。"),
    // Event kinds (the engine's names stay visible in the trace files).
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
    ("consumer_attached", "consumer attached", "消费者已订阅"),
    ("consumer_detached", "consumer detached", "消费者已取消"),
    ("consumer_timeout", "ack timeout", "确认超时"),
    ("exchange_declared", "exchange declared", "声明交换机"),
    ("exchange_deleted", "exchange deleted", "删除交换机"),
    ("queue_declared", "queue declared", "声明队列"),
    ("queue_deleted", "queue deleted", "删除队列"),
    ("bound", "bound", "绑定"),
    ("unbound", "unbound", "解除绑定"),
    ("purged", "purged", "清空队列"),
    ("node_down", "node down", "节点宕机"),
    ("node_up", "node up", "节点恢复"),
    ("limit_reached", "limit reached", "达到模拟上限"),
    ("broker_upgraded", "broker upgraded", "Broker 升级"),
    // The topology editor's folded title (its forms' words are src/app/edit.rs's).
    ("edit_topology", "Edit the topology", "编辑拓扑"),
    // The one `why_` word the first screen shows (the quick publish's inert note);
    // the others are `i18n_why`'s, read by the panels below it only.
    ("why_dt_version",
        "x-opt-delivery-time is an ordinary header on this version: only quorum queues of RabbitMQ 4.4 hold a message until then, so it is ready at once",
        "在这个版本上 x-opt-delivery-time 只是普通 header:只有 RabbitMQ 4.4 的仲裁队列才会把消息保留到那时,所以它立即就绪",
    ),
];

/// The text for `key`; the key itself when it has none (visible, never a panic).
pub fn t(lang: Lang, key: &'static str) -> &'static str {
    match word(TEXTS, lang, key) {
        Some(text) => text,
        None if key.starts_with("field_") => crate::i18n_field::t(lang, key),
        None => crate::i18n_orders::t(lang, key),
    }
}

/// `key`'s row of a (key, English, Chinese) table, in `lang`. The words live in tables
/// searched by this, not in `match`es, whose string compares were start-up code (issue
/// 29 item 10); each table's `t` falls through to the next when the key is not its own.
pub(crate) fn word(
    table: &'static [(&'static str, &'static str, &'static str)],
    lang: Lang,
    key: &str,
) -> Option<&'static str> {
    let (_, en, zh) = table.iter().find(|w| w.0 == key)?;
    Some(if lang == Lang::Zh { zh } else { en })
}

/// The text key of an engine event kind.
pub fn kind_key(kind: &str) -> &'static str {
    match kind {
        "published" => "k_published",
        "enqueued" => "k_enqueued",
        "expired" => "k_expired",
        "dead_lettered" => "k_dead_lettered",
        "dead_letter_waiting" => "k_dead_letter_waiting",
        "delayed" => "k_delayed",
        "delay_due" => "k_delay_due",
        "delivered" => "k_delivered",
        "acked" => "k_acked",
        "rejected" => "k_rejected",
        "requeued" => "k_requeued",
        "released" => "k_released",
        "dropped" => "k_dropped",
        "returned" => "k_returned",
        "confirmed" => "k_confirmed",
        "error" => "k_error",
        "consumer_attached" => "consumer_attached",
        "consumer_detached" => "consumer_detached",
        "consumer_timeout" => "consumer_timeout",
        "exchange_declared" => "exchange_declared",
        "exchange_deleted" => "exchange_deleted",
        "queue_declared" => "queue_declared",
        "queue_deleted" => "queue_deleted",
        "bound" => "bound",
        "unbound" => "unbound",
        "purged" => "purged",
        "node_down" => "node_down",
        "node_up" => "node_up",
        "limit_reached" => "limit_reached",
        "broker_upgraded" => "broker_upgraded",
        _ => crate::i18n_orders::kind_key(kind),
    }
}

#[cfg(test)]
mod tests {
    use super::Lang;

    #[test]
    fn every_kind_the_engine_emits_has_words_in_both_languages() {
        for k in delaylab_engine::EventKind::ALL_KINDS {
            let key = super::kind_key(k);
            assert_ne!(key, "k_other", "{k} has no words");
            assert_ne!(super::t(Lang::Zh, key), key, "{k} has no Chinese words");
            assert!(!super::t(Lang::En, key).is_empty());
        }
    }

    #[test]
    fn a_language_code_round_trips_and_an_unknown_one_is_none() {
        for l in [Lang::En, Lang::Zh] {
            assert_eq!(Lang::of_code(l.code()), Some(l));
        }
        assert_eq!(Lang::of_code("zh-CN"), None);
        assert_eq!(Lang::of_code(""), None);
    }
}
