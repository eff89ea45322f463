// Every outcome in its own word, every delivery's headers (issue 29 item 1): the story
// said "worker rejected it: requeue=true" for a basic.nack; the inspector showed one
// "As delivered" block without 4.3's x-acquired-count; a chip did not say how its
// message came back. Desktop and phone, English and Chinese, axe at 0 violations.
import { jumpAndWait, logLines, openStory, ready, top } from './views-lib.mjs';

/** The story's steps of one kind, as text. */
const storySteps = (page, kind) =>
  page.locator(`[data-testid="story-step"][data-kind="${kind}"]`).allTextContents();

/** Every delivery block of the inspector: { n, summary, headers }. */
const deliveries = (page) => page.$$eval('[data-testid="delivery"]', (ds) => ds.map((d) => ({
  n: Number(d.dataset.n),
  open: d.open,
  summary: d.querySelector('summary').textContent,
  headers: JSON.parse(d.querySelector('pre').textContent.split('\nheaders: ')[1]),
})));

async function openPoison(t, version) {
  const { page } = t;
  await t.goto(`#poison-message-3-10-vs-4-0@${version}`, ready);
  await jumpAndWait(page, '0:05', '0:00:05.000');
  await openStory(page, '[data-testid="log-line"][data-kind="rejected"]', '[data-testid="story-step"][data-kind="rejected"]');
}

export const tests = [
  {
    name: 'poison message on 4.3: nacked (basic.nack multiple=false requeue=true), not counted; each delivery with its x-acquired-count',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await openPoison(t, '4.3');
      const nacks = await storySteps(page, 'rejected');
      assert.ok(nacks.length >= 4, nacks.join('\n'));
      for (const s of nacks) {
        assert.match(s, /worker nacked it: basic\.nack multiple=false requeue=true/);
        assert.doesNotMatch(s, /rejected it/);
      }
      const requeued = await storySteps(page, 'requeued');
      assert.match(requeued[0], /Not counted toward the delivery limit \(20\): this version counts only failed deliveries/);
      // One block per delivery, exactly as the run has it; the newest open.
      const d = await deliveries(page);
      assert.ok(d.length >= 5, JSON.stringify(d));
      assert.deepEqual(d.map((x) => x.n), d.map((_, i) => i + 1));
      assert.deepEqual(d[0].headers, {});
      assert.deepEqual(d[2].headers, { 'x-acquired-count': 2 }, 'no x-delivery-count: a nack is not a failed delivery on 4.3');
      assert.match(d[2].summary, /As delivered \(3 of \d+\) at 0:00:02\.000, from orders\.work to worker, redelivered/);
      assert.deepEqual(d.map((x) => x.open), d.map((_, i) => i === d.length - 1));
      const delivered = await storySteps(page, 'delivered');
      assert.match(delivered[2], /redelivered, x-acquired-count 2/);
      // The log says the method as the client sent it.
      const log = (await logLines(page)).filter((l) => l.kind === 'rejected');
      assert.ok(log.every((l) => /worker basic\.nack multiple=false requeue=true/.test(l.detail)), JSON.stringify(log));
      await t.axe('poison 4.3 story');
      // In Chinese.
      await page.click('[data-testid="lang-zh"]');
      assert.match((await storySteps(page, 'rejected'))[0], /worker 否认\(nack\)了它:basic\.nack multiple=false requeue=true/);
      assert.match((await storySteps(page, 'requeued'))[0], /不计入投递次数上限\(20\)/);
      assert.match((await deliveries(page))[2].summary, /第 3 次投递\(共 \d+ 次\),0:00:02\.000,从 orders\.work 到 worker,重新投递/);
      // On a phone the blocks are there and readable (no sideways overflow).
      await page.setViewportSize({ width: 390, height: 844 });
      const wide = await page.$$eval('[data-testid="delivery"]', (ds) => ds.filter((d) => d.getBoundingClientRect().right > 391).length);
      assert.equal(wide, 0, 'delivery blocks fit a phone');
      await page.setViewportSize({ width: 1440, height: 900 });
      await top(page);
    },
  },
  {
    name: 'poison message on 4.0: each nack counted toward the default limit 20, x-delivery-count per delivery',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await openPoison(t, '4.0');
      const requeued = await storySteps(page, 'requeued');
      assert.match(requeued[0], /Counted toward the delivery limit: return 1 of the 20 allowed/);
      assert.match(requeued[2], /return 3 of the 20 allowed/);
      const d = await deliveries(page);
      assert.deepEqual(d[3].headers, { 'x-delivery-count': 3 });
      assert.match((await storySteps(page, 'rejected'))[0], /worker nacked it: basic\.nack multiple=false requeue=true/);
      await page.click('[data-testid="lang-zh"]');
      assert.match((await storySteps(page, 'requeued'))[0], /计入投递次数上限:第 1 次退回\(上限 20 次\)/);
      await top(page);
    },
  },
  {
    name: 'chips say how a message came back: nacked (3.10 quorum, at the back), rejected (4.3 delayed retry)',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#quorum-vs-classic-requeue', ready);
      await jumpAndWait(page, '0:02', '0:00:02.000');
      const card = page.locator('[data-testid="queue-task.quorum.queue"]');
      const back = card.locator('[data-testid="chip"]', { hasText: 'task-1' }).locator('[data-testid="chip-back"]');
      assert.equal((await back.textContent()).trim(), '↺ nacked');
      await page.click('[data-testid="lang-zh"]');
      assert.equal((await back.textContent()).trim(), '↺ 被 nack');
      await t.axe('requeue chips');
      await page.click('[data-testid="lang-en"]');
      await page.goto('about:blank');
      await t.goto('#retry-backoff-4-3', ready);
      await jumpAndWait(page, '0:01', '0:00:01.000');
      const held = page.locator('[data-testid="queue-orders.work"] [data-testid="held-chip"] [data-testid="chip-back"]');
      assert.equal((await held.textContent()).trim(), '↺ rejected');
      await top(page);
    },
  },
];
