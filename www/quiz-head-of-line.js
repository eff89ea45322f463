// The head-of-line quiz: the learner picks a delay setup and which order they think is
// closed first; the page runs that setup in delaylab's engine (the delaylab-engine
// package, ../pkg/, loaded here: no iframe, no playground) and shows the real result,
// its own small timeline, a look inside the broker at 10:00 and the engine's events.
// The answer is graded by a check in the scenario (`checks`: an `order` check, "B is
// closed before A"), which the engine decides as it runs (`sim.checks()`), not by this
// page reading the deliveries. Everything the page states about the run comes from the
// engine's checks, result, trace and snapshot; nothing is written in advance. Text only
// ever goes in with textContent.
import { Languages, clock, loadEngine, setText } from './training.js';

/** The engine package's exports, once loaded (loadEngine, at the end). */
let Simulation;
let linkOf;
let brokerVersions;

const MIN = 60_000;
const A_TIMEOUT_MS = 30 * MIN;
const B_TIMEOUT_MS = 5 * MIN;
const B_PUBLISHED_MS = 1 * MIN;
const UNTIL_MS = 40 * MIN;
/** When the page looks inside the broker (B is due at 6:00, A at 30:00). */
const LOOK_AT_MS = 10 * MIN;
/** The trace events the list shows (the rest are declarations and confirms). */
const SHOWN_EVENTS = ['published', 'enqueued', 'delayed', 'expired', 'delay_due', 'delivered', 'acked'];

// --- the three setups, as scenario files -----------------------------------------------------
const closer = (queue) => [{ name: 'closer', queue, ack: 'manual', prefetch: 10, handle: '100ms', outcome: 'ack' }];
const twoOrders = (publish) => [
  { at: '0s', publish: publish('A', A_TIMEOUT_MS) },
  { at: B_PUBLISHED_MS, publish: publish('B', B_TIMEOUT_MS) },
];
const deadLetter = { 'x-dead-letter-exchange': 'order.dlx.exchange', 'x-dead-letter-routing-key': 'order.timeout' };
const dlxTail = {
  exchange: { name: 'order.dlx.exchange', type: 'direct' },
  queue: { name: 'order.dlx.queue' },
  binding: { source: 'order.dlx.exchange', destination: 'order.dlx.queue', destination_type: 'queue', routing_key: 'order.timeout' },
};
const waitQueueName = (ms) => `order.delay.${ms / MIN}m`;

const SETUPS = {
  'dlx-per-message': () => ({
    topology: {
      exchanges: [{ name: 'order.delay.exchange', type: 'direct' }, dlxTail.exchange],
      queues: [{ name: 'order.delay.queue', arguments: deadLetter }, dlxTail.queue],
      bindings: [{ source: 'order.delay.exchange', destination: 'order.delay.queue', destination_type: 'queue', routing_key: 'order.create' },
        dlxTail.binding],
    },
    consumers: closer('order.dlx.queue'),
    actions: twoOrders((body, ms) => ({ exchange: 'order.delay.exchange', routing_key: 'order.create', body,
      properties: { expiration: String(ms), delivery_mode: 2 } })),
  }),
  'queue-per-delay': () => ({
    topology: {
      exchanges: [{ name: 'order.delay.exchange', type: 'direct' }, dlxTail.exchange],
      queues: [A_TIMEOUT_MS, B_TIMEOUT_MS].map((ms) => ({ name: waitQueueName(ms),
        arguments: { 'x-message-ttl': ms, ...deadLetter } })).concat([dlxTail.queue]),
      bindings: [A_TIMEOUT_MS, B_TIMEOUT_MS].map((ms) => ({ source: 'order.delay.exchange', destination: waitQueueName(ms),
        destination_type: 'queue', routing_key: waitQueueName(ms) })).concat([dlxTail.binding]),
    },
    consumers: closer('order.dlx.queue'),
    actions: twoOrders((body, ms) => ({ exchange: 'order.delay.exchange', routing_key: waitQueueName(ms), body,
      properties: { delivery_mode: 2 } })),
  }),
  plugin: () => ({
    topology: {
      exchanges: [{ name: 'order.delayed.exchange', type: 'x-delayed-message', arguments: { 'x-delayed-type': 'direct' } }],
      queues: [{ name: 'order.close.queue' }],
      bindings: [{ source: 'order.delayed.exchange', destination: 'order.close.queue', destination_type: 'queue', routing_key: 'order.timeout' }],
    },
    consumers: closer('order.close.queue'),
    actions: twoOrders((body, ms) => ({ exchange: 'order.delayed.exchange', routing_key: 'order.timeout', body,
      properties: { delivery_mode: 2, headers: { 'x-delay': ms } } })),
  }),
};
/** The learner's answer as a check: the first deliveries come in the order they chose. */
const answerCheck = (answer) => {
  const other = answer === 'A' ? 'B' : 'A';
  return { name: 'your-answer', label: t('check-label')(answer, other), order: { bodies: [answer, other] } };
};
/** The scenario on the chosen version (3.10, the default, stays without `broker`). */
const scenarioOf = (setup, answer, version) => ({ version: 1, name: `Quiz: which order is closed first? (${setup})`, seed: 7,
  ...(version && version !== '3.10' ? { broker: version } : {}),
  until: UNTIL_MS, ...SETUPS[setup](), checks: [answerCheck(answer)] });

// --- words -------------------------------------------------------------------------------------
const TEXT = {
  en: {
    'crumb-lesson': 'lesson', 'crumb-quiz': 'quiz',
    title: 'Which order is closed first, A or B?',
    lead: 'Two unpaid orders each publish a "close this order" message. Order A times out after 30 minutes and is published at 0:00; order B times out after 5 minutes and is published at 1:00. Pick how the delay is built and what you expect. This page then runs delaylab\'s engine, the same rules as the playground, right here in your browser, and draws what really happens.',
    'q-title': 'Your guess', 'setup-legend': 'How the delay is built',
    'setup-dlx-per-message': 'one DLX wait queue, each message with its own TTL (`expiration`)',
    'setup-queue-per-delay': 'one wait queue per delay (queue TTL `x-message-ttl`)',
    'setup-plugin': 'the delayed-message exchange plugin (`x-delay` header)',
    'version-legend': 'On which RabbitMQ',
    'version-option': (v) => `RabbitMQ ${v.version} (${v.release})${v.plugin ? '' : ', no plugin'}`,
    'version-note': (v) => (v.plugin
      ? `The delayed-message plugin runs on RabbitMQ 3.10 to 4.2 only; on ${v.version} all three setups run.`
      : `The delayed-message plugin cannot run on RabbitMQ ${v.version} (archived in January 2026): there one wait queue per delay is the fix.`),
    refused: (version, error) => ` On RabbitMQ ${version} the broker refused it: ${error}. No order is closed.`,
    'answer-legend': 'Which order is closed first?',
    'answer-A': 'A (30-minute timeout, published first)', 'answer-B': 'B (5-minute timeout, published a minute later)',
    run: 'Run it in the engine', loading: 'loading the engine…', ready: 'engine ready: pick an answer',
    'pick-first': 'Pick an answer first.', running: 'running…',
    ran: (ms) => `ran 40 virtual minutes in ${ms} ms`,
    'r-title': 'What the engine says',
    right: (first) => `Right: ${first} is closed first.`,
    wrong: (first) => `Not this time: ${first} is closed first.`,
    nothing: 'Not this time: no order is closed.',
    closed: (body, at, late) => `${body} is closed at ${at}${late ? `, ${late} late` : ', on time'}.`,
    'check-label': (first, then) => `${first} is closed before ${then}`,
    'check-passed': (label, at) => `Graded by the check “${label}”: passed at ${at}.`,
    'check-failed': (label, at, got) => `Graded by the check “${label}”: failed at ${at}, the first order closed was ${got}.`,
    'check-failed-none': (label, at) => `Graded by the check “${label}”: failed at ${at}, no order was closed.`,
    'why-blocked': (late, blocker) => `B's 5 minutes were over at 6:00, but a queue only expires the message at its head: B waited behind ${blocker} and was ${late} late.`,
    'why-own-time': 'Each message was released at its own due time: nothing waited behind anything else.',
    caption: 'Timeline: a dot is the publish, the dashed line runs to the time the order is due, the ring is when the closer got it; orange is lateness.',
    'look-queue': (name, items) => `${name}: ${items}`,
    'look-store': (items) => `the delayed exchange's store: ${items}`,
    'look-title': (at) => `Inside the broker at ${at}:`, 'look-empty': 'empty',
    left: (body, t) => `${body} (${t} left)`, overdue: (body, t) => `${body} (overdue by ${t}, stuck behind the head)`,
    due: (body, t) => `${body} (due in ${t})`,
    open: 'Open this run in the playground',
    ev: {
      published: (b) => `${b} published`, enqueued: (b, e) => `${b} enters ${e.queue}`,
      delayed: (b, e) => `${b} held by ${e.exchange}`, expired: (b, e) => `${b} expires in ${e.queue}`,
      delay_due: (b, e) => `${b} released by ${e.exchange}`, delivered: (b, e) => `${b} delivered to ${e.consumer}`,
      acked: (b) => `${b} closed (acked)`,
    },
    late: (t) => ` (${t} late)`,
    error: (m) => `The engine could not run this: ${m}`,
    foot: 'delaylab · the engine of the playground as a JavaScript package (delaylab-engine), simulating RabbitMQ 3.10 to 4.3 and the delayed-message exchange plugin (3.10 to 4.2 only)',
  },
  zh: {
    'crumb-lesson': '课程', 'crumb-quiz': '小测验',
    title: 'A 和 B,哪个订单先被关闭?',
    lead: '两个未支付的订单各发一条"关闭订单"消息。订单 A 30 分钟超时,在 0:00 发出;订单 B 5 分钟超时,在 1:00 发出。选一种延迟的实现方式,再选你的答案。本页随后在你的浏览器里运行 delaylab 的引擎(与演练场相同的规则),画出真实发生的事情。',
    'q-title': '你的猜测', 'setup-legend': '延迟怎么实现',
    'setup-dlx-per-message': '一个 DLX 等待队列,每条消息自带 TTL(`expiration`)',
    'setup-queue-per-delay': '每种延迟一个等待队列(队列 TTL `x-message-ttl`)',
    'setup-plugin': '延迟消息交换机插件(`x-delay` 头)',
    'version-legend': '在哪个 RabbitMQ 上',
    'version-option': (v) => `RabbitMQ ${v.version}(${v.release})${v.plugin ? '' : ',无插件'}`,
    'version-note': (v) => (v.plugin
      ? `延迟消息插件只能在 RabbitMQ 3.10 到 4.2 上运行;在 ${v.version} 上三种方式都能运行。`
      : `延迟消息插件无法在 RabbitMQ ${v.version} 上运行(2026 年 1 月已归档):在那里,每种延迟一个等待队列才是解决办法。`),
    refused: (version, error) => ` 在 RabbitMQ ${version} 上 broker 拒绝了它:${error}。没有订单被关闭。`,
    'answer-legend': '哪个订单先被关闭?',
    'answer-A': 'A(30 分钟超时,先发出)', 'answer-B': 'B(5 分钟超时,晚一分钟发出)',
    run: '用引擎运行', loading: '正在加载引擎…', ready: '引擎已就绪:请选择答案',
    'pick-first': '请先选择一个答案。', running: '运行中…',
    ran: (ms) => `${ms} 毫秒跑完 40 分钟虚拟时间`,
    'r-title': '引擎的结果',
    right: (first) => `答对了:${first} 先被关闭。`,
    wrong: (first) => `这次不对:${first} 先被关闭。`,
    nothing: '这次不对:没有订单被关闭。',
    closed: (body, at, late) => `${body} 在 ${at} 被关闭${late ? `,晚了 ${late}` : ',准时'}。`,
    'check-label': (first, then) => `${first} 比 ${then} 先被关闭`,
    'check-passed': (label, at) => `由检查“${label}”评分:在 ${at} 通过。`,
    'check-failed': (label, at, got) => `由检查“${label}”评分:在 ${at} 失败,先被关闭的是 ${got}。`,
    'check-failed-none': (label, at) => `由检查“${label}”评分:在 ${at} 失败,没有订单被关闭。`,
    'why-blocked': (late, blocker) => `B 的 5 分钟在 6:00 就到了,但队列只让队头的消息过期:B 排在 ${blocker} 后面等着,晚了 ${late}。`,
    'why-own-time': '每条消息都在自己的到期时间被放出:没有谁排在谁后面。',
    caption: '时间线:圆点是发出时间,虚线到订单应当关闭的时间,圆圈是消费者收到的时间;橙色是迟到的部分。',
    'look-queue': (name, items) => `${name}:${items}`,
    'look-store': (items) => `延迟交换机的存储:${items}`,
    'look-title': (at) => `${at} 时 broker 里的情况:`, 'look-empty': '空',
    left: (body, t) => `${body}(还剩 ${t})`, overdue: (body, t) => `${body}(已过期 ${t},被队头挡住)`,
    due: (body, t) => `${body}(${t} 后到期)`,
    open: '在演练场中打开这次运行',
    ev: {
      published: (b) => `${b} 发出`, enqueued: (b, e) => `${b} 进入 ${e.queue}`,
      delayed: (b, e) => `${b} 由 ${e.exchange} 暂存`, expired: (b, e) => `${b} 在 ${e.queue} 中过期`,
      delay_due: (b, e) => `${b} 由 ${e.exchange} 放出`, delivered: (b, e) => `${b} 投递给 ${e.consumer}`,
      acked: (b) => `${b} 已关闭(ack)`,
    },
    late: (t) => `(晚了 ${t})`,
    error: (m) => `引擎无法运行:${m}`,
    foot: 'delaylab · 演练场的引擎作为 JavaScript 包(delaylab-engine),模拟 RabbitMQ 3.10 到 4.3 与延迟消息交换机插件(仅 3.10 到 4.2)',
  },
};
const words = new Languages(TEXT);
const t = (key) => words.t(key);
/** A duration in words: `24 min`, `4 min 30 s`, `45 s` (`24 分钟` in Chinese). */
const span = (ms) => {
  const s = Math.round(ms / 1000);
  const [min, sec] = words.lang === 'zh' ? [' 分钟', ' 秒'] : [' min', ' s'];
  const parts = [];
  if (s >= 60) parts.push(`${Math.floor(s / 60)}${min}`);
  if (s % 60 || s < 60) parts.push(`${s % 60}${sec}`);
  return parts.join(' ');
};

// --- the page ----------------------------------------------------------------------------------
const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const quiz = $('quiz');
const runButton = $('run');
const status = $('status');
const resultBox = $('result');
const errorNote = $('error');
let lastRun = null;

/** After a language switch: what the page wrote itself, in the new words. */
function reword() {
  if (versions.length) fillVersions();
  if (quiz.dataset.ready === 'true') setText(status, lastRun ? t('ran')(lastRun.wallMs) : t('ready'));
  if (lastRun) render(lastRun);
}

function choice(name) {
  return document.querySelector(`input[name="${name}"]:checked`)?.value ?? null;
}

/** Runs one setup with the learner's answer as its check: the check's state, the result,
 * the trace, and a snapshot at LOOK_AT_MS. */
function runSetup(setup, answer, version) {
  const scenario = scenarioOf(setup, answer, version);
  const text = JSON.stringify(scenario);
  const t0 = performance.now();
  const sim = Simulation.fromJson(text);
  try {
    sim.advanceTo(LOOK_AT_MS);
    const events = sim.drainEvents();
    const look = sim.snapshot();
    sim.runToEnd();
    events.push(...sim.drainEvents());
    const result = JSON.parse(sim.resultJson());
    const [check] = sim.checks();
    return { setup, answer, version, text, events, look, result, check, wallMs: Math.max(1, Math.round(performance.now() - t0)) };
  } finally {
    sim.free();
  }
}

function render(run) {
  const { result, events, look, check } = run;
  const deliveries = result.deliveries;
  // The check decides: passed, the learner's first is the first; failed, the engine says
  // which came in its place (`seen.got`, null when none was closed).
  const right = check.status === 'passed';
  const first = right ? run.answer : check.seen.got;
  const byBody = Object.fromEntries(deliveries.map((d) => [d.body, d]));
  const verdict = $('verdict');
  verdict.replaceChildren();
  const head = document.createElement('strong');
  head.textContent = right ? t('right')(first) : first ? t('wrong')(first) : t('nothing');
  head.className = right ? 'right' : 'wrong';
  verdict.append(head);
  for (const body of ['A', 'B']) {
    const d = byBody[body];
    if (d) verdict.append(` ${t('closed')(body, clock(d.delivered_at_ms), d.late_ms ? span(d.late_ms) : '')}`);
  }
  const b = byBody.B;
  if (deliveries.length === 0 && result.errors.length > 0) {
    // Nothing closed because the broker refused the setup (the plugin on 4.3): its words.
    const e = result.errors[0];
    verdict.append(t('refused')(run.version, `${e.code} ${e.text}`));
  } else {
    verdict.append(' ', b && b.late_ms > 0 ? t('why-blocked')(span(b.late_ms), deliveries.find((d) => d.body !== 'B')?.body ?? 'A')
      : t('why-own-time'));
  }
  verdict.dataset.first = first ?? '';
  renderCheck(run);

  drawTimeline(deliveries);
  setText($('timeline-caption'), t('caption'));
  renderLook(look);
  renderEvents(events);
  $('open-playground').href = `../${linkOf(run.text)}`;
}

/** The check that graded the answer, in words (its label as the page words it now). */
function renderCheck({ check, answer }) {
  const box = $('check');
  const other = answer === 'A' ? 'B' : 'A';
  const label = t('check-label')(answer, other);
  const at = clock(check.at_ms ?? 0);
  let words;
  if (check.status === 'passed') words = t('check-passed')(label, at);
  else if (check.seen.got) words = t('check-failed')(label, at, check.seen.got);
  else words = t('check-failed-none')(label, at);
  box.textContent = words;
  box.dataset.status = check.status;
  box.dataset.at = String(check.at_ms);
  box.className = `check-line ${check.status}`;
}

function renderLook(look) {
  const box = $('at-six');
  box.replaceChildren();
  const title = document.createElement('span');
  title.textContent = t('look-title')(clock(look.now_ms));
  const list = document.createElement('ul');
  for (const q of look.queues) {
    if (q.name.startsWith('amq.') || q.name === '') continue;
    const items = q.head.map((m) => (m.overdue_ms !== null ? t('overdue')(m.body, span(m.overdue_ms))
      : m.remaining_ms !== null ? t('left')(m.body, span(m.remaining_ms)) : m.body));
    const li = document.createElement('li');
    li.dataset.queue = q.name;
    li.textContent = t('look-queue')(q.name, items.length ? items.join(', ') : t('look-empty'));
    list.append(li);
  }
  if (look.exchanges.some((x) => x.kind === 'x-delayed-message')) {
    const li = document.createElement('li');
    li.dataset.queue = 'delayed-store';
    const items = look.delayed.map((m) => t('due')(m.body, span(m.remaining_ms)));
    li.textContent = t('look-store')(items.length ? items.join(', ') : t('look-empty'));
    list.append(li);
  }
  box.append(title, list);
}

function renderEvents(events) {
  const bodies = {};
  for (const e of events) if (e.event === 'published') bodies[e.msg] = e.body;
  const ev = t('ev');
  $('events').replaceChildren(...events.filter((e) => SHOWN_EVENTS.includes(e.event) && bodies[e.msg]).map((e) => {
    const li = document.createElement('li');
    li.dataset.event = e.event;
    const time = document.createElement('span');
    time.className = 'at';
    time.textContent = clock(e.t_ms);
    const late = (e.event === 'expired' || e.event === 'delay_due') && e.late_ms > 0 ? t('late')(span(e.late_ms)) : '';
    li.append(time, ` ${ev[e.event](bodies[e.msg], e)}${late}`);
    if (late) li.className = 'late';
    return li;
  }));
}

const SVG = 'http://www.w3.org/2000/svg';
function svgEl(name, attrs, text) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** The story on one axis: per order, publish → due (dashed) → delivered (late part orange). */
function drawTimeline(deliveries) {
  const svg = $('timeline');
  const [x0, x1] = [40, 620];
  const x = (ms) => x0 + ((x1 - x0) * Math.min(ms, UNTIL_MS)) / UNTIL_MS;
  const parts = [];
  const axisY = 160;
  parts.push(svgEl('line', { x1: x0, y1: axisY, x2: x1, y2: axisY, class: 'axis' }));
  for (let m = 0; m <= UNTIL_MS / MIN; m += 5) {
    parts.push(svgEl('line', { x1: x(m * MIN), y1: axisY, x2: x(m * MIN), y2: axisY + 5, class: 'axis' }));
    parts.push(svgEl('text', { x: x(m * MIN), y: axisY + 20, class: 'tick' }, `${m}:00`));
  }
  const rows = [['A', 0, A_TIMEOUT_MS, 45], ['B', B_PUBLISHED_MS, B_TIMEOUT_MS, 105]];
  for (const [body, publishedMs, timeoutMs, y] of rows) {
    const d = deliveries.find((v) => v.body === body);
    const dueMs = publishedMs + timeoutMs;
    parts.push(svgEl('text', { x: 12, y: y + 5, class: 'row-label' }, body));
    parts.push(svgEl('line', { x1: x(publishedMs), y1: y, x2: x(dueMs), y2: y, class: 'wait' }));
    if (d && d.delivered_at_ms > dueMs) {
      parts.push(svgEl('line', { x1: x(dueMs), y1: y, x2: x(d.delivered_at_ms), y2: y, class: 'late-line', 'data-late': body }));
    }
    parts.push(svgEl('circle', { cx: x(publishedMs), cy: y, r: 5, class: 'published' }));
    parts.push(svgEl('line', { x1: x(dueMs), y1: y - 9, x2: x(dueMs), y2: y + 9, class: 'due' }));
    if (d) {
      parts.push(svgEl('circle', { cx: x(d.delivered_at_ms), cy: y, r: 8, class: d.late_ms > 0 ? 'delivered late' : 'delivered',
        'data-delivered': body }));
      parts.push(svgEl('text', { x: x(d.delivered_at_ms), y: y - 14, class: 'when' }, clock(d.delivered_at_ms)));
    }
  }
  svg.replaceChildren(...parts);
}

// The versions come from the engine (each with its release and whether the plugin runs
// there); the newest checked against a live broker is chosen first.
const versionSelect = $('version');
let versions = [];
function fillVersions() {
  const chosen = versionSelect.value;
  versionSelect.replaceChildren(...versions.map((v) => {
    const o = document.createElement('option');
    o.value = v.version;
    o.textContent = t('version-option')(v);
    return o;
  }));
  const live = [...versions].reverse().find((v) => v.live);
  versionSelect.value = chosen || live?.version || '';
  noteVersion();
}
function noteVersion() {
  const v = versions.find((x) => x.version === versionSelect.value);
  setText($('version-note'), v ? t('version-note')(v) : '');
}
versionSelect.addEventListener('change', noteVersion);

runButton.addEventListener('click', () => {
  const answer = choice('answer');
  if (!answer) {
    setText(status, t('pick-first'));
    return;
  }
  setText(status, t('running'));
  errorNote.hidden = true;
  try {
    lastRun = runSetup(choice('setup'), answer, versionSelect.value);
    render(lastRun);
    resultBox.hidden = false;
    setText(status, t('ran')(lastRun.wallMs));
    quiz.dataset.ran = lastRun.setup;
  } catch (e) {
    errorNote.textContent = t('error')(e.message || String(e));
    errorNote.hidden = false;
  }
});
words.start(reword);

try {
  ({ Simulation, linkOf, brokerVersions } = await loadEngine(words, (text) => setText(status, text)));
  versions = brokerVersions();
  fillVersions();
  versionSelect.disabled = false;
  quiz.dataset.ready = 'true';
  runButton.disabled = false;
  setText(status, t('ready'));
} catch (e) {
  errorNote.textContent = t('error')(e.message || String(e));
  errorNote.hidden = false;
}
