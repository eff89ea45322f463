// The head-of-line quiz (www/quiz-head-of-line.html): a training page that runs the
// delaylab-engine package (dist/pkg/) itself. Each setup is answered by the engine: the
// DLX wait queue closes A first (B waits behind it, 24 minutes late), the other two
// close B first, on time (the plugin on 3.10 to 4.2 only: on 4.3, the version chosen
// first, it is refused); in English and Chinese, and linked from the lesson.
const QUIZ = 'www/quiz-head-of-line.html';
const ready = '[data-testid="quiz"][data-ready="true"]';

async function answer(t, setup, choice) {
  await t.page.locator(`[data-testid="setup-${setup}"]`).check();
  await t.page.locator(`[data-testid="answer-${choice}"]`).check();
  await t.page.locator('[data-testid="run"]').click();
  await t.page.waitForSelector(`[data-testid="quiz"][data-ran="${setup}"]`);
  await t.page.waitForFunction(() => !document.querySelector('[data-testid="result"]').hidden);
}

const text = (t, id) => t.page.locator(`[data-testid="${id}"]`).innerText();

export const tests = [
  {
    name: 'the lesson links to the quiz, and the quiz loads the engine',
    async run(t) {
      await t.goto('www/lesson-head-of-line.html');
      await t.page.locator('[data-testid="quiz-link"]').click();
      await t.page.waitForSelector(ready, { timeout: 30_000 });
      t.assert.match(t.page.url(), /quiz-head-of-line\.html$/);
      t.assert.match(await text(t, 'status'), /engine ready/);
      t.assert.equal(await t.page.locator('[data-testid="result"]').isHidden(), true);
    },
  },
  {
    name: 'DLX wait queue: A is closed first, B waits behind it 24 minutes',
    async run(t) {
      await t.goto(QUIZ, { ready });
      await answer(t, 'dlx-per-message', 'B');
      const verdict = await text(t, 'verdict');
      t.assert.match(verdict, /^Not this time: A is closed first\./);
      t.assert.match(verdict, /A is closed at 30:00, on time\./);
      t.assert.match(verdict, /B is closed at 30:00, 24 min late\./);
      t.assert.match(verdict, /waited behind A/);
      // The page's own timeline: both delivered at 30:00, B's lateness drawn.
      t.assert.equal(await t.page.locator('[data-late="B"]').count(), 1);
      t.assert.equal(await t.page.locator('[data-late="A"]').count(), 0);
      const cx = await t.page.locator('[data-delivered]').evaluateAll((els) => els.map((e) => e.getAttribute('cx')));
      t.assert.equal(cx[0], cx[1], 'A and B are delivered at the same time');
      // The snapshot at 10:00: B overdue behind A in the one wait queue.
      const look = await t.page.locator('[data-testid="at-six"] li[data-queue="order.delay.queue"]').innerText();
      t.assert.equal(look, 'order.delay.queue: A (20 min left), B (overdue by 4 min, stuck behind the head)');
      // The engine's own events, from drainEvents().
      const events = await t.page.locator('[data-testid="events"] li').allInnerTexts();
      t.assert.ok(events.includes('30:00 B expires in order.delay.queue (24 min late)'), events.join('\n'));
      t.assert.ok(events.includes('1:00 B published'), events.join('\n'));
      const href = await t.page.locator('[data-testid="open-playground"]').getAttribute('href');
      t.assert.match(href, /^\.\.\/#v1\.[A-Za-z0-9_-]+$/);
      await t.screenshot('dlx');
    },
  },
  {
    name: 'one queue per delay and the plugin: B is closed first, on time',
    async run(t) {
      await t.goto(QUIZ, { ready });
      await answer(t, 'queue-per-delay', 'B');
      let verdict = await text(t, 'verdict');
      t.assert.match(verdict, /^Right: B is closed first\./);
      t.assert.match(verdict, /B is closed at 6:00, on time\./);
      t.assert.match(verdict, /A is closed at 30:00, on time\./);
      t.assert.equal(await t.page.locator('[data-late]').count(), 0);
      // The plugin runs on 3.10 to 4.2 only: asked on 4.2.
      await t.page.selectOption('[data-testid="version"]', '4.2');
      await answer(t, 'plugin', 'A');
      verdict = await text(t, 'verdict');
      t.assert.match(verdict, /^Not this time: B is closed first\./);
      const store = await t.page.locator('[data-testid="at-six"] li[data-queue="delayed-store"]').innerText();
      t.assert.equal(store, "the delayed exchange's store: A (due in 20 min)");
    },
  },
  {
    name: 'on RabbitMQ 4.3 (the version chosen first) the plugin is refused: no order is closed, and the page says why',
    async run(t) {
      await t.goto(QUIZ, { ready });
      t.assert.equal(await t.page.locator('[data-testid="version"]').inputValue(), '4.3');
      t.assert.match(await text(t, 'version-note'), /cannot run on RabbitMQ 4\.3.*one wait queue per delay is the fix/);
      await answer(t, 'plugin', 'B');
      const verdict = await text(t, 'verdict');
      t.assert.match(verdict, /^Not this time: no order is closed\. On RabbitMQ 4\.3 the broker refused it: 406 PRECONDITION_FAILED - unknown exchange type 'x-delayed-message'\./);
      t.assert.doesNotMatch(verdict, /on time/);
      await t.page.locator('[data-testid="lang-zh"]').click();
      t.assert.match(await text(t, 'verdict'), /^这次不对:没有订单被关闭。 在 RabbitMQ 4\.3 上 broker 拒绝了它/);
      t.assert.match(await text(t, 'version-note'), /无法在 RabbitMQ 4\.3 上运行/);
      await t.axe('quiz on 4.3');
    },
  },
  {
    name: 'in Chinese: the switch, and the engine result in Chinese',
    async run(t) {
      await t.goto(QUIZ, { ready });
      await t.page.locator('[data-testid="lang-zh"]').click();
      t.assert.equal(await t.page.evaluate(() => document.documentElement.lang), 'zh-CN');
      t.assert.equal(await t.page.locator('h1').innerText(), 'A 和 B,哪个订单先被关闭?');
      await answer(t, 'dlx-per-message', 'A');
      const verdict = await text(t, 'verdict');
      t.assert.match(verdict, /^答对了:A 先被关闭。/);
      t.assert.match(verdict, /B 在 30:00 被关闭,晚了 24 分钟。/);
      await t.screenshot('zh');
      // Back to English keeps the result, re-worded.
      await t.page.locator('[data-testid="lang-en"]').click();
      t.assert.match(await text(t, 'verdict'), /^Right: A is closed first\./);
      // The choice is remembered for the next visit.
      await t.page.locator('[data-testid="lang-zh"]').click();
      await t.page.reload();
      await t.page.waitForSelector(ready);
      t.assert.equal(await t.page.locator('h1').innerText(), 'A 和 B,哪个订单先被关闭?');
    },
  },
  {
    name: 'no answer picked: the page asks for one and runs nothing',
    async run(t) {
      await t.goto(`${QUIZ}?lang=en`, { ready });
      await t.page.locator('[data-testid="run"]').click();
      t.assert.equal(await text(t, 'status'), 'Pick an answer first.');
      t.assert.equal(await t.page.locator('[data-testid="result"]').isHidden(), true);
    },
  },
];
