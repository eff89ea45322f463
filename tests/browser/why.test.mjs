// Why, and why not (issue 22, item 4): selecting a message (a lateness dot, a log line, a
// queue entry, a head named in another story) shows its story, each step with the rule
// the engine applied and its time: B names A, the head it waited behind; a dropped
// message names its reason; an entry overdue behind the head says so live. Desktop and
// phone, English and Chinese.

const ready = { ready: '[data-testid="topology"] .node' };
const PHONE = { width: 390, height: 844 };

const top = (t) => t.page.evaluate(() => window.scrollTo(0, 0));

async function jumpTo(t, time, clock) {
  const { page } = t;
  await page.fill('[data-testid="jump-input"]', time);
  await page.click('[data-testid="jump-btn"]');
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="clock"]')?.textContent?.trim() === want,
    clock,
    { timeout: 30_000 },
  );
}

/** The text of the story's step of one kind (waits for it). */
async function storyStep(page, kind) {
  const step = page.locator(`[data-testid="story-step"][data-kind="${kind}"]`).first();
  await step.waitFor({ state: 'attached', timeout: 10_000 });
  return (await step.innerText()).replace(/\s+/g, ' ');
}

/** The lateness dot of message `msg` (waits for it). */
async function dot(page, msg) {
  const d = page.locator(`[data-testid="late-dot"][data-msg="${msg}"]`);
  await d.waitFor({ state: 'attached', timeout: 10_000 });
  return d;
}

/** Is the element in the viewport (the story came into view)? */
const inView = (page, sel) => page.locator(sel).evaluate((el) => {
  const r = el.getBoundingClientRect();
  return r.top < window.innerHeight && r.bottom > 0;
});

export const tests = [
  {
    name: 'head-of-line: B\'s dot opens its story, which names A as the head it waited behind',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await jumpTo(t, '40:00', '0:40:00.000');
      // The dots are named after their deliveries.
      const b = await dot(page, 2);
      assert.equal(await b.getAttribute('aria-label'), '#2 B: delivered at 0:30:00.000, 24:00.0 late');
      assert.equal(await b.locator('title').textContent(), '#2 B: delivered at 0:30:00.000, 24:00.0 late');
      assert.equal(await (await dot(page, 1)).getAttribute('aria-label'), '#1 A: delivered at 0:30:00.000, on time');
      await b.click();
      assert.match(await page.locator('[data-testid="inspector-title"]').textContent(), /#2\s+B$/);
      const expired = await storyStep(page, 'expired');
      assert.match(expired, /^0:30:00\.000 Expired in order\.delay\.queue/);
      assert.ok(expired.includes('24:00.0 late: its TTL passed at 0:06:00.000, but only the head of a queue expires'), expired);
      assert.ok(expired.includes('It waited behind #1 A, the head of order.delay.queue from 0:00:00.000 to 0:30:00.000'), expired);
      // The click keeps the chart where it was (page-infra.test.mjs) and offers the story.
      await page.click('[data-testid="late-story"]');
      await page.waitForFunction(() => {
        const r = document.querySelector('[data-testid="story"]')?.getBoundingClientRect();
        return r && r.top < window.innerHeight && r.bottom > 0;
      });
      assert.ok(await inView(page, '[data-testid="story"]'), 'the story came into view');
      // Its way in and its death, each with the rule.
      const enq = await storyStep(page, 'enqueued');
      assert.ok(enq.includes('order.delay.exchange (direct): the binding key order.create equals the routing key'), enq);
      assert.ok(enq.includes('TTL 5:00.0 from the message\'s expiration'), enq);
      const dl = await storyStep(page, 'dead_lettered');
      assert.ok(dl.includes('Dead-lettered from order.delay.queue: expired'), dl);
      assert.ok(dl.includes('Republished to its dead-letter exchange order.dlx.exchange with routing key order.timeout'), dl);
      // The head it names opens A's own story: on time.
      await page.click('[data-testid="story-name"]');
      assert.match(await page.locator('[data-testid="inspector-title"]').textContent(), /#1\s+A$/);
      assert.ok((await storyStep(page, 'expired')).includes('it left on time'));
      await page.locator('[data-testid="story"]').scrollIntoViewIfNeeded();
      await t.screenshot('story-of-A');
      await b.click();
      await page.locator('[data-testid="late-chart"]').scrollIntoViewIfNeeded();
      await t.screenshot('dot-selected');
      await top(t);
    },
  },
  {
    name: 'a lateness dot is a keyboard control: arrows move, Enter opens the story and takes focus there',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await jumpTo(t, '40:00', '0:40:00.000');
      const first = await dot(page, 1);
      assert.equal(await first.getAttribute('tabindex'), '0', 'one dot is in the tab order');
      assert.equal(await (await dot(page, 2)).getAttribute('tabindex'), '-1');
      assert.equal(await first.getAttribute('role'), 'button');
      await first.focus();
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.evaluate(() => document.activeElement?.dataset?.msg), '2', 'focus moved to B\'s dot');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'insp-h');
      assert.match(await page.locator('[data-testid="inspector-title"]').textContent(), /#2\s+B$/);
      assert.ok((await storyStep(page, 'expired')).includes('It waited behind #1 A'));
      await top(t);
    },
  },
  {
    name: 'while B waits, its queue entry says which head it waits behind, since when (live, en and zh)',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await jumpTo(t, '3:00', '0:03:00.000');
      const card = page.locator('[data-testid="queue-order.delay.queue"]');
      assert.equal(await card.locator('[data-testid="waiting-why"]').count(), 0, 'B is not overdue yet');
      await jumpTo(t, '10:00', '0:10:00.000');
      const why = card.locator('[data-testid="waiting-why"]');
      await why.waitFor();
      assert.equal(
        (await why.textContent()).trim(),
        'waiting behind #1 A, the head since 0:00:00.000; its TTL passed at 0:06:00.000',
      );
      // The entry opens B's story, which so far ends with its way in.
      await card.locator('[data-testid="waiting-msg"]').click();
      assert.match(await page.locator('[data-testid="inspector-title"]').textContent(), /#2\s+B$/);
      assert.ok((await storyStep(page, 'enqueued')).includes('expires at 0:06:00.000'));
      await page.click('[data-testid="lang-zh"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="waiting-why"]')?.textContent?.includes('排在'));
      assert.equal(
        (await why.textContent()).trim(),
        '排在 #1 A 之后,#1 A 自 0:00:00.000 起位于队头;它的 TTL 已于 0:06:00.000 到期',
      );
      await card.scrollIntoViewIfNeeded();
      await t.screenshot('waiting-zh');
      await page.click('[data-testid="lang-en"]');
      await top(t);
    },
  },
  {
    name: 'a log line opens the story of a dropped message, which names the dead-letter cycle',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#dead-letter-cycle', ready);
      await jumpTo(t, '30s', '0:00:30.000');
      const line = page.locator('[data-testid="log-line"][data-kind="dropped"][data-body="recheck-1"]');
      await line.waitFor();
      await line.click();
      assert.match(await page.locator('[data-testid="inspector-title"]').textContent(), /recheck-1$/);
      const dropped = await storyStep(page, 'dropped');
      assert.ok(dropped.includes('Dropped in order.recheck.queue: dead_letter_cycle'), dropped);
      assert.ok(dropped.includes('A dead-letter cycle: it had already died in order.recheck.queue (expired) with no rejection since'), dropped);
      const enq = await storyStep(page, 'enqueued');
      assert.ok(enq.includes('The default exchange: the routing key order.recheck.queue is the name of the queue'), enq);
      assert.ok(enq.includes('TTL 0:10.0 from the queue\'s x-message-ttl'), enq);
      await page.locator('[data-testid="story"]').scrollIntoViewIfNeeded();
      await t.screenshot('dropped-cycle');
      await top(t);
    },
  },
  {
    name: 'phone, Chinese: B\'s dot opens its story in Chinese and the story comes into view',
    async run(t) {
      const { page, assert } = t;
      await page.setViewportSize(PHONE);
      await t.goto('#head-of-line-blocking', ready);
      await page.click('[data-testid="lang-zh"]');
      await jumpTo(t, '40:00', '0:40:00.000');
      const b = await dot(page, 2);
      assert.equal(await b.getAttribute('aria-label'), '#2 B:于 0:30:00.000 投递,迟到 24:00.0');
      await b.scrollIntoViewIfNeeded();
      await b.click();
      const expired = await storyStep(page, 'expired');
      assert.ok(expired.includes('迟到 24:00.0:它的 TTL 已于 0:06:00.000 到期,但只有队头的消息才会过期'), expired);
      assert.ok(expired.includes('#1 A 从 0:00:00.000 到 0:30:00.000 位于 order.delay.queue 的队头'), expired);
      await page.click('[data-testid="late-story"]');
      await page.waitForFunction(() => {
        const r = document.querySelector('[data-testid="story"]')?.getBoundingClientRect();
        return r && r.top < window.innerHeight && r.bottom > 0;
      });
      const over = await page.locator('[data-testid="story"]').evaluate((el) => el.scrollWidth - el.clientWidth);
      assert.ok(over <= 1, `the story fits the phone's width (${over}px over)`);
      await page.click('[data-testid="lang-en"]');
      await top(t);
    },
  },
];
