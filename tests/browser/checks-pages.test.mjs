// Training pages graded by checks (issue 24 item 4), through the delaylab-engine package
// (dist/pkg/, `sim.checks()`): the quiz grades the learner's answer with an `order` check;
// the exercise page runs the learner's topology with its checks on RabbitMQ 4.3 and goes
// from failing to passing after an edit. English and Chinese, desktop and phone.
import { noOverflow } from './checks-common.mjs';

const QUIZ = 'www/quiz-head-of-line.html';
const EXERCISE = 'www/exercise-order-timeout-4-3.html';
const quizReady = '[data-testid="quiz"][data-ready="true"]';
/** The exercise has run its starting setup (it does so once the engine is in). */
const exerciseRan = '[data-testid="exercise"][data-passed]';

async function answer(t, setup, choice) {
  await t.page.locator(`[data-testid="setup-${setup}"]`).check();
  await t.page.locator(`[data-testid="answer-${choice}"]`).check();
  await t.page.locator('[data-testid="run"]').click();
  await t.page.waitForSelector(`[data-testid="quiz"][data-ran="${setup}"]`);
}

const text = async (t, id) => (await t.page.locator(`[data-testid="${id}"]`).innerText()).trim();

/** The exercise's checks as ["id:status", ...]. */
const exerciseChecks = (t) => t.page.$$eval('[data-testid="checks"] [data-testid="check"]',
  (els) => els.map((e) => `${e.dataset.id}:${e.dataset.status}`));

/** The starting setup, changed to one wait queue per delay (the exercise's answer). */
function solved(start) {
  const s = JSON.parse(start);
  const dl = { 'x-dead-letter-exchange': 'order.dlx.exchange', 'x-dead-letter-routing-key': 'order.timeout' };
  const minutes = [30, 5, 10];
  s.topology.queues = minutes.map((m) => ({ name: `order.delay.${m}m`, arguments: { 'x-message-ttl': m * 60_000, ...dl } }))
    .concat([{ name: 'order.dlx.queue' }]);
  s.topology.bindings = minutes.map((m) => ({ source: 'order.delay.exchange', destination: `order.delay.${m}m`,
    destination_type: 'queue', routing_key: `order.${m}m` })).concat([s.topology.bindings[1]]);
  s.actions.forEach((a, i) => {
    a.publish.routing_key = `order.${minutes[i]}m`;
    delete a.publish.properties.expiration;
  });
  return JSON.stringify(s, null, 2);
}

/** The starting setup through the delayed-message plugin (refused on 4.3). */
function withPlugin(start) {
  const s = JSON.parse(start);
  s.topology.exchanges.push({ name: 'order.delayed.exchange', type: 'x-delayed-message', arguments: { 'x-delayed-type': 'direct' } });
  s.topology.bindings.push({ source: 'order.delayed.exchange', destination: 'order.dlx.queue', destination_type: 'queue', routing_key: 'order.timeout' });
  for (const a of s.actions) {
    a.publish.exchange = 'order.delayed.exchange';
    a.publish.routing_key = 'order.timeout';
    a.publish.properties = { headers: { 'x-delay': Number(a.publish.properties.expiration) } };
  }
  return JSON.stringify(s);
}

export const tests = [
  {
    name: 'quiz: the answer is graded by a check the engine decides',
    timeout: 60_000,
    async run(t) {
      const { assert } = t;
      await t.goto(`${QUIZ}?lang=en`, { ready: quizReady });
      await answer(t, 'dlx-per-message', 'B');
      const check = t.page.locator('[data-testid="check"]');
      assert.equal(await check.getAttribute('data-status'), 'failed');
      assert.equal(await text(t, 'check'),
        'Graded by the check “B is closed before A”: failed at 30:00, the first order closed was A.');
      assert.match(await text(t, 'verdict'), /^Not this time: A is closed first\./);
      // The playground link carries the check.
      const href = await t.page.locator('[data-testid="open-playground"]').getAttribute('href');
      assert.match(href, /^\.\.\/#v1\./);
      // The plugin runs on 3.10 to 4.2 only (the quiz opens on 4.3, where it is refused).
      await t.page.selectOption('[data-testid="version"]', '4.2');
      await answer(t, 'plugin', 'B');
      assert.equal(await check.getAttribute('data-status'), 'passed');
      // Passed once A, the last of the two, is closed after B.
      assert.equal(await text(t, 'check'), 'Graded by the check “B is closed before A”: passed at 30:00.');
      assert.match(await text(t, 'verdict'), /^Right: B is closed first\./);
      await t.page.locator('[data-testid="lang-zh"]').click();
      assert.equal(await text(t, 'check'), '由检查“B 比 A 先被关闭”评分:在 30:00 通过。');
      await t.screenshot('quiz zh');
      await t.axe('quiz graded by a check, in Chinese');
    },
  },
  {
    name: 'exercise: linked from the lesson; the starting setup fails, an edit makes every check pass',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('www/lesson-head-of-line.html', { ready: 'main' });
      await page.locator('[data-testid="exercise-link"]').click();
      await page.waitForSelector(exerciseRan, { timeout: 30_000 });
      assert.match(page.url(), /exercise-order-timeout-4-3\.html$/);
      // B and C wait behind A in the one wait queue.
      assert.deepEqual(await exerciseChecks(t), ['A-on-time:passed', 'B-on-time:failed', 'C-on-time:failed',
        'once-each:passed', 'no-refusal:passed']);
      assert.equal(await text(t, 'summary'), '3 of 5 checks pass.');
      const b = page.locator('[data-testid="check"][data-id="B-on-time"]');
      assert.equal(await b.locator('.state').innerText(), 'failed at 6:01');
      assert.equal(await b.locator('.seen').innerText(), 'B was closed at 30:00');
      await t.screenshot('failing');
      await t.axe('exercise, the starting setup failing');

      // The plugin is no way out on 4.3: refused, and nothing is closed.
      const start = await page.inputValue('[data-testid="editor"]');
      await page.fill('[data-testid="editor"]', withPlugin(start));
      await page.click('[data-testid="run"]');
      await page.waitForSelector('[data-testid="check"][data-id="no-refusal"][data-status="failed"]');
      assert.match(await page.locator('[data-testid="check"][data-id="no-refusal"] .seen').innerText(),
        /^refused at 0:00: 406 .*x-delayed-message/);

      // One wait queue per delay: every order on time.
      await page.fill('[data-testid="editor"]', solved(start));
      await page.click('[data-testid="run"]');
      await page.waitForSelector('[data-testid="exercise"][data-all-pass="true"]');
      assert.deepEqual(await exerciseChecks(t), ['A-on-time:passed', 'B-on-time:passed', 'C-on-time:passed',
        'once-each:passed', 'no-refusal:passed']);
      assert.match(await text(t, 'summary'), /^All 5 checks pass/);
      assert.equal(await page.locator('[data-testid="check"][data-id="B-on-time"] .state').innerText(), 'passed at 6:00');
      await t.screenshot('passing');
      await t.axe('exercise, every check passing');
      // The edit is kept: a reload shows it, and "Start over" brings back the start.
      await page.reload();
      await page.waitForSelector('[data-testid="exercise"][data-all-pass="true"]');
      await page.click('[data-testid="reset"]');
      await page.waitForSelector('[data-testid="exercise"][data-all-pass="false"]');
      assert.equal(await page.inputValue('[data-testid="editor"]'), start);
    },
  },
  {
    name: 'exercise: bad input is named, in Chinese, on a phone',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await page.setViewportSize({ width: 390, height: 844 });
      await t.goto(`${EXERCISE}?lang=zh`, { ready: exerciseRan });
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
      assert.equal(await text(t, 'summary'), '5 项检查中 3 项通过。');
      const b = page.locator('[data-testid="check"][data-id="B-on-time"]');
      assert.equal(await b.locator('.label').innerText(), 'B 在截止时间 6:00 后 1 秒内被关闭');
      assert.equal(await b.locator('.seen').innerText(), 'B 在 30:00 被关闭');
      const start = await page.inputValue('[data-testid="editor"]');
      await page.fill('[data-testid="editor"]', '{"topology": ');
      await page.click('[data-testid="run"]');
      assert.match(await text(t, 'error'), /^你的配置不是合法的 JSON/);
      const s = JSON.parse(start);
      s.consumers[0].ack = 'sometimes';
      await page.fill('[data-testid="editor"]', JSON.stringify(s));
      await page.click('[data-testid="run"]');
      assert.match(await text(t, 'error'), /^引擎拒绝了这个场景:consumers\[0\]\.ack/);
      await page.fill('[data-testid="editor"]', solved(start));
      await page.click('[data-testid="run"]');
      await page.waitForSelector('[data-testid="exercise"][data-all-pass="true"]');
      assert.equal(await page.locator('[data-testid="error"]').isHidden(), true);
      assert.match(await text(t, 'summary'), /^5 项检查全部通过/);
      await noOverflow(page, assert);
      await t.screenshot('zh phone');
      await t.axe('exercise in Chinese, every check passing');
    },
  },
];
