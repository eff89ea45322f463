// An exercise: the learner edits a topology (the scenario's topology, consumers and
// actions, as JSON) until its checks pass: every order closed within 1 s of its deadline
// on RabbitMQ 4.3, without the delayed-message plugin. The page adds the rest of the
// scenario (the broker, the run's length, the checks) and runs it in delaylab's engine,
// the delaylab-engine package (../pkg/), here in the page; each check's state is the
// engine's (`sim.checks()`), worded by the page. Text only ever goes in with textContent.
import { Languages, clock, loadEngine, setText } from './training.js';

/** The engine package's exports, once loaded (loadEngine, at the end). */
let Simulation;
let linkOf;

const MIN = 60_000;
/** The orders: body, published at, timeout. */
const ORDERS = [['A', 0, 30 * MIN], ['B', 1 * MIN, 5 * MIN], ['C', 2 * MIN, 10 * MIN]];
/** How close to its deadline an order must be closed. */
const WITHIN_MS = 1000;
const DRAFT_KEY = 'delaylab.exercise.order-timeout-4-3';

// --- the starting setup: one DLX wait queue, a TTL per message (head-of-line blocking) ----------
const START = {
  topology: {
    exchanges: [{ name: 'order.delay.exchange', type: 'direct' }, { name: 'order.dlx.exchange', type: 'direct' }],
    queues: [
      { name: 'order.delay.queue', arguments: { 'x-dead-letter-exchange': 'order.dlx.exchange', 'x-dead-letter-routing-key': 'order.timeout' } },
      { name: 'order.dlx.queue' },
    ],
    bindings: [
      { source: 'order.delay.exchange', destination: 'order.delay.queue', destination_type: 'queue', routing_key: 'order.create' },
      { source: 'order.dlx.exchange', destination: 'order.dlx.queue', destination_type: 'queue', routing_key: 'order.timeout' },
    ],
  },
  consumers: [{ name: 'closer', queue: 'order.dlx.queue', ack: 'manual', prefetch: 10, handle: '100ms', outcome: 'ack' }],
  actions: ORDERS.map(([body, at, timeout]) => ({ at: at ? `${at / MIN}m` : '0s',
    publish: { exchange: 'order.delay.exchange', routing_key: 'order.create', body, properties: { expiration: String(timeout), delivery_mode: 2 } } })),
};
const startText = () => JSON.stringify(START, null, 2);

// --- the checks (the page's, whatever the learner writes; they name no queue, so any topology fits)
const deadline = ([, at, timeout]) => at + timeout;
const CHECKS = () => [
  ...ORDERS.map((o) => ({ name: `${o[0]}-on-time`, label: t('check-on-time')(o[0], clock(deadline(o))),
    delivered: { body: o[0], within: [deadline(o), deadline(o) + WITHIN_MS] } })),
  { name: 'once-each', label: t('check-once'), count: { of: 'delivered', equals: ORDERS.length } },
  { name: 'no-refusal', label: t('check-no-refusal'), error: { never: true } },
];

/** The learner's part and the page's, as one scenario. */
function scenarioOf(mine) {
  return { ...mine, version: 1, name: t('scenario-name'), broker: '4.3', seed: 7, until: '40m', checks: CHECKS() };
}

// --- words -------------------------------------------------------------------------------------
const TEXT = {
  en: {
    'crumb-lesson': 'lesson', 'crumb-exercise': 'exercise',
    title: 'Close every order on time on RabbitMQ 4.3, without the plugin',
    lead: 'Three unpaid orders each publish a "close this order" message: A (30 minutes) at 0:00, B (5 minutes) at 1:00, C (10 minutes) at 2:00. The setup below shares one DLX wait queue with a TTL per message. Edit it until every check passes. The delayed-message plugin does not run on 4.3.',
    'goal-title': 'The checks', 'not-run': 'Not run yet.',
    'edit-title': 'Your setup',
    'edit-hint': 'The scenario\'s `topology`, `consumers` and `actions`, as JSON (the playground\'s scenario format). The page adds the rest: RabbitMQ 4.3, 40 minutes, the checks.',
    run: 'Run the checks', reset: 'Start over', loading: 'loading the engine…', ready: 'engine ready',
    running: 'running…', ran: (ms) => `ran 40 virtual minutes on RabbitMQ 4.3 in ${ms} ms`,
    open: 'Open this run in the playground (its Checks panel)',
    hints: 'Hints',
    'hint-1': 'Why are B and C late? A queue only ever expires the message at its head: B and C wait behind A.',
    'hint-2': 'Give each delay its own wait queue with a queue TTL (`x-message-ttl`), dead-lettering to `order.dlx.exchange`, and route each order to the queue of its delay.',
    'hint-3': 'An `x-delayed-message` exchange is refused on 4.3: the plugin was archived and does not run there.',
    'scenario-name': 'Exercise: every order on time on 4.3',
    'check-on-time': (body, due) => `${body} is closed within 1 s of its deadline, ${due}`,
    'check-once': 'Each order is closed once',
    'check-no-refusal': 'The broker refuses nothing (no plugin on 4.3)',
    pending: 'not decided', passed: (at) => `passed at ${at}`, failed: (at) => `failed at ${at}`, undecided: 'cannot be decided',
    'seen-at': (body, at) => `${body} was closed at ${at}`,
    'seen-never': (body) => `${body} was never closed`,
    'seen-count': (n) => `orders closed: ${n}`,
    'seen-error': (at, code, text) => `refused at ${at}: ${code} ${text}`,
    summary: (n, total) => `${n} of ${total} checks pass.`,
    'all-pass': (total) => `All ${total} checks pass: every order closes on time on 4.3, without the plugin. Well done!`,
    'not-json': (m) => `Your setup is not JSON: ${m}`,
    'not-object': 'Your setup must be a JSON object with "topology", "consumers" and "actions".',
    invalid: (m) => `The engine refused the scenario: ${m}`,
    error: (m) => `The engine could not run this: ${m}`,
    foot: 'delaylab · the engine of the playground as a JavaScript package (delaylab-engine), simulating RabbitMQ 4.3',
  },
  zh: {
    'crumb-lesson': '课程', 'crumb-exercise': '练习',
    title: '在 RabbitMQ 4.3 上不用插件,让每个订单准时关闭',
    lead: '三个未支付的订单各发一条"关闭订单"消息:A(30 分钟)在 0:00 发出,B(5 分钟)在 1:00,C(10 分钟)在 2:00。下面的配置让它们共用一个 DLX 等待队列,每条消息自带 TTL。修改它,直到所有检查都通过。延迟消息插件不能在 4.3 上运行。',
    'goal-title': '检查', 'not-run': '尚未运行。',
    'edit-title': '你的配置',
    'edit-hint': '场景的 `topology`、`consumers` 和 `actions`,JSON 格式(与演练场的场景格式相同)。其余部分由本页补上:RabbitMQ 4.3、40 分钟、检查。',
    run: '运行检查', reset: '从头开始', loading: '正在加载引擎…', ready: '引擎已就绪',
    running: '运行中…', ran: (ms) => `${ms} 毫秒在 RabbitMQ 4.3 上跑完 40 分钟虚拟时间`,
    open: '在演练场中打开这次运行(查看它的检查面板)',
    hints: '提示',
    'hint-1': '为什么 B 和 C 迟到了?队列只让队头的消息过期:B 和 C 排在 A 后面等着。',
    'hint-2': '每种延迟一个等待队列,用队列 TTL(`x-message-ttl`),死信发往 `order.dlx.exchange`,再把每个订单路由到对应延迟的队列。',
    'hint-3': '在 4.3 上声明 `x-delayed-message` 交换机会被拒绝:插件已归档,无法在 4.3 上运行。',
    'scenario-name': '练习:在 4.3 上每个订单准时关闭',
    'check-on-time': (body, due) => `${body} 在截止时间 ${due} 后 1 秒内被关闭`,
    'check-once': '每个订单只被关闭一次',
    'check-no-refusal': 'broker 没有拒绝任何操作(4.3 上没有插件)',
    pending: '未判定', passed: (at) => `在 ${at} 通过`, failed: (at) => `在 ${at} 失败`, undecided: '无法判定',
    'seen-at': (body, at) => `${body} 在 ${at} 被关闭`,
    'seen-never': (body) => `${body} 始终没有被关闭`,
    'seen-count': (n) => `关闭的订单数:${n}`,
    'seen-error': (at, code, text) => `在 ${at} 被拒绝:${code} ${text}`,
    summary: (n, total) => `${total} 项检查中 ${n} 项通过。`,
    'all-pass': (total) => `${total} 项检查全部通过:在 4.3 上不用插件,每个订单都准时关闭。做得好!`,
    'not-json': (m) => `你的配置不是合法的 JSON:${m}`,
    'not-object': '你的配置必须是一个 JSON 对象,包含 "topology"、"consumers" 和 "actions"。',
    invalid: (m) => `引擎拒绝了这个场景:${m}`,
    error: (m) => `引擎无法运行:${m}`,
    foot: 'delaylab · 演练场的引擎作为 JavaScript 包(delaylab-engine),模拟 RabbitMQ 4.3',
  },
};
const words = new Languages(TEXT);
const t = (key) => words.t(key);

// --- the page ----------------------------------------------------------------------------------
const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const page = $('exercise');
const editor = $('editor');
const runButton = $('run');
const status = $('status');
const errorNote = $('error');
let lastRun = null;

function saveDraft() {
  try {
    if (editor.value === startText()) localStorage.removeItem(DRAFT_KEY);
    else localStorage.setItem(DRAFT_KEY, editor.value);
  } catch { /* private mode: not kept */ }
}

function showError(text) {
  errorNote.textContent = text;
  errorNote.hidden = false;
}

/** Runs the learner's setup with the page's checks: the checks' states, the refusals. */
function run() {
  errorNote.hidden = true;
  let mine;
  try {
    mine = JSON.parse(editor.value);
  } catch (e) {
    return showError(t('not-json')(e.message));
  }
  if (!mine || typeof mine !== 'object' || Array.isArray(mine)) return showError(t('not-object'));
  const text = JSON.stringify(scenarioOf(mine));
  let sim;
  try {
    sim = Simulation.fromJson(text);
  } catch (e) {
    return showError(t('invalid')(e.message || String(e)));
  }
  setText(status, t('running'));
  const t0 = performance.now();
  try {
    sim.runToEnd();
    const errors = sim.drainEvents().filter((e) => e.event === 'error');
    lastRun = { text, checks: sim.checks(), errors, wallMs: Math.max(1, Math.round(performance.now() - t0)) };
  } catch (e) {
    return showError(t('error')(e.message || String(e)));
  } finally {
    sim.free();
  }
  render(lastRun);
}

/** What the run showed for a failed check, in words. */
function seenWords(c, errors) {
  const s = c.seen;
  if (c.kind === 'error') {
    const e = errors.find((x) => x.t_ms === s.ms) ?? errors[0];
    return e ? t('seen-error')(clock(e.t_ms), e.code, e.text) : '';
  }
  if (c.kind === 'count') return t('seen-count')(s.value ?? 0);
  const body = ORDERS.find(([b]) => c.id === `${b}-on-time`)?.[0] ?? '?';
  return s.kind === 'at' ? t('seen-at')(body, clock(s.ms)) : t('seen-never')(body);
}

function render(r) {
  const labels = Object.fromEntries(CHECKS().map((c) => [c.name, c.label]));
  const passed = r.checks.filter((c) => c.status === 'passed').length;
  const list = $('checks');
  list.replaceChildren(...r.checks.map((c) => {
    const li = document.createElement('li');
    li.setAttribute('data-testid', 'check');
    li.dataset.id = c.id;
    li.dataset.status = c.status;
    li.className = `goal-check ${c.status}`;
    const mark = document.createElement('span');
    mark.className = 'mark';
    mark.setAttribute('aria-hidden', 'true');
    mark.textContent = { passed: '✓', failed: '✗' }[c.status] ?? '…';
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = labels[c.id] ?? c.label;
    const state = document.createElement('span');
    state.className = 'state';
    const at = clock(c.at_ms ?? 0);
    state.textContent = c.status === 'passed' ? t('passed')(at) : c.status === 'failed' ? t('failed')(at) : t(c.status);
    li.append(mark, label, state);
    if (c.status === 'failed') {
      const seen = document.createElement('span');
      seen.className = 'seen';
      seen.textContent = seenWords(c, r.errors);
      li.append(seen);
    }
    return li;
  }));
  const all = passed === r.checks.length;
  const summary = $('summary');
  summary.textContent = all ? t('all-pass')(r.checks.length) : t('summary')(passed, r.checks.length);
  summary.className = `summary ${all ? 'all-pass' : 'some-fail'}`;
  page.dataset.passed = String(passed);
  page.dataset.allPass = String(all);
  setText(status, t('ran')(r.wallMs));
  $('open-playground').href = `../${linkOf(r.text)}`;
  $('open-wrap').hidden = false;
}

/** After a language switch: what the page wrote itself, in the new words. */
function reword() {
  if (page.dataset.ready === 'true' && !lastRun) setText(status, t('ready'));
  if (lastRun) render(lastRun);
}

runButton.addEventListener('click', run);
$('reset').addEventListener('click', () => {
  editor.value = startText();
  saveDraft();
  if (page.dataset.ready === 'true') run();
});
editor.addEventListener('input', saveDraft);
editor.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !runButton.disabled) run();
});
editor.value = (() => { try { return localStorage.getItem(DRAFT_KEY); } catch { return null; } })() ?? startText();
words.start(reword);

try {
  ({ Simulation, linkOf } = await loadEngine(words, (text) => setText(status, text)));
  page.dataset.ready = 'true';
  runButton.disabled = false;
  setText(status, t('ready'));
  run(); // the starting setup's checks at once: what fails, and why
} catch (e) {
  showError(t('error')(e.message || String(e)));
}
