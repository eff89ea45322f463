// Views derived only from the engine's state (issue 22, item 3 (b)-(e), item 4): a depth
// chart keeps every step at any zoom; nack and reject are told apart; a message that
// loops is not "on time"; a message held for 4.3 delayed retry is in its queue with a
// countdown, its queue's arguments on the topology box; publish chips go when publishing
// has; the log says every kind in words and filters by every kind.
import { jumpAndWait, logLines, openStory, ready, top } from './views-lib.mjs';

/** The points of a queue's depth line, as [x, y] numbers. */
async function depthPoints(page, queue) {
  return page.$$eval('[data-testid="depths"] .depth-legend .lg-item', (items, q) => {
    const i = items.findIndex((e) => e.textContent.trim() === q);
    const line = document.querySelectorAll('[data-testid="depths"] svg.chart polyline')[i];
    return (line?.getAttribute('points') || '').trim().split(/\s+/).filter(Boolean)
      .map((p) => p.split(',').map(Number));
  }, queue);
}

export const tests = [
  {
    name: 'a depth chart is a staircase at any zoom: 1 then 2 held flat until 30:00, seen from 5 hours',
    timeout: 120_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await jumpAndWait(page, '5h', '5:00:00.000', 90_000);
      const pts = await depthPoints(page, 'order.delay.queue');
      assert.ok(pts.length >= 4, `points: ${JSON.stringify(pts)}`);
      for (let i = 1; i < pts.length; i++) {
        const [a, b] = [pts[i - 1], pts[i]];
        assert.ok(a[0] === b[0] || a[1] === b[1], `a slope from ${a} to ${b}: depths hold between changes`);
      }
      // Plot: x 70..626 over 0..5 h, y 120 (0) .. 14 (the max, 2).
      const xAt = (ms) => 70 + 556 * ms / (5 * 3_600_000);
      const yAt = (ms) => {
        const seg = pts.filter((p, i) => i + 1 < pts.length && p[0] <= xAt(ms) && pts[i + 1][0] >= xAt(ms));
        return seg.length ? seg[seg.length - 1][1] : null;
      };
      assert.equal(yAt(20 * 60_000), 14, 'A and B held (2) at 20:00');
      assert.equal(yAt(2 * 3_600_000), 120, 'empty after 30:00');
      await top(page);
    },
  },
  {
    name: 'a poison message: "nacked" (basic.nack), never "rejected"; its retries are not on time',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#poison-message-3-10-vs-4-0', ready);
      await jumpAndWait(page, '0:05', '0:00:05.000');
      const lines = (await logLines(page)).filter((l) => l.kind === 'rejected');
      assert.ok(lines.length >= 4, `rejections: ${lines.length}`);
      for (const l of lines) {
        assert.equal(l.label, 'k_nacked');
        assert.equal(l.k.trim(), 'nacked');
        assert.match(l.detail, /worker basic\.nack multiple=false requeue=true/);
      }
      // The inspector says the same.
      await openStory(page, '[data-testid="log-line"][data-kind="rejected"]');
      const steps = await page.locator('[data-testid="inspector-step"]').allTextContents();
      assert.ok(steps.some((s) => /nacked/.test(s)) && !steps.some((s) => /rejected/.test(s)), steps.join('\n'));
      // Lateness: the redeliveries are retries, drawn apart, with how long it went unhandled.
      await page.waitForSelector('[data-testid="late-retries"]');
      assert.match(await page.locator('[data-testid="late-retries"]').textContent(), /^5 · unhandled for up to 0:05\.0/);
      // (the selected message's dots are marked `selected` too: the class without it)
      const dots = await page.$$eval('[data-testid="lateness"] circle.pt',
        (c) => c.map((e) => e.getAttribute('class').replace(/\s*\bselected\b/, '')));
      assert.equal(dots.filter((c) => c === 'pt').length, 1, `one on-time first delivery: ${dots}`);
      assert.equal(dots.filter((c) => c === 'pt retry').length, 5);
      // A worker that rejects is told apart: retry-backoff's reject_requeue.
      await page.click('[data-testid="lang-zh"]');
      assert.match((await logLines(page)).find((l) => l.kind === 'rejected').k, /被否认\(nack\)/);
      await top(page);
    },
  },
  {
    name: 'delayed retry on 4.3: the held message is in its queue with a countdown; the box shows its arguments',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#retry-backoff-4-3', ready);
      await jumpAndWait(page, '0:01', '0:00:01.000');
      const card = page.locator('[data-testid="queue-orders.work"]');
      assert.match(await card.locator('[data-testid="held-count"]').textContent(), /held 1/);
      const chip = card.locator('[data-testid="held-chip"]');
      assert.match(await chip.textContent(), /order-new.*retry in 0:01\.0, attempt 2/);
      assert.equal(await card.locator('.empty').count(), 0, 'not "empty": the message is here');
      const box = await page.locator('[data-testid="node-q:orders.work"]').textContent();
      assert.match(box, /retry failed 2s–10s/);
      assert.match(box, /limit 20 \(default\)/);
      assert.match(box, /held 1/, 'the box counts the held message too');
      // ... in the room "unacked 0" took, whole (a longer line would be squeezed small).
      const info = page.locator('[data-testid="node-q:orders.work"] .info');
      assert.equal(await info.getAttribute('textLength'), null, await info.textContent());
      const requeued = (await logLines(page)).find((l) => l.kind === 'requeued');
      assert.match(requeued.detail, /held for delayed retry until 0:00:02\.000/);
      const rejected = (await logLines(page)).find((l) => l.kind === 'rejected' && /basic\.reject/.test(l.detail));
      assert.equal(rejected.k.trim(), 'rejected', 'basic.reject requeue=true is a rejection');
      await page.click('[data-testid="lang-zh"]');
      assert.match(await chip.textContent(), /后重试,第 2 次投递/);
      await top(page);
    },
  },
  {
    name: 'the 200,000-order burst: no chip on the publish edge once publishing has ended',
    timeout: 180_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#promotion-burst-200k', ready);
      await page.fill('[data-testid="jump-input"]', '1h');
      await page.click('[data-testid="jump-btn"]');
      // Read in the frame the clock arrives: what is drawn then is what the learner sees.
      const chips = await page.waitForFunction(() => {
        if (document.querySelector('[data-testid="clock"]')?.textContent?.trim() !== '1:00:00.000') return null;
        return [...document.querySelectorAll('.flights g')].map((g) => `${g.getAttribute('class')} ${g.textContent}`);
      }, null, { timeout: 150_000, polling: 'raf' }).then((h) => h.jsonValue());
      assert.deepEqual(chips.filter((c) => /publish/.test(c)), [], `chips at 1:00:00 of publishes that ended at 10:00: ${chips}`);
      await top(page);
    },
  },
  {
    name: 'the log says every kind in words, whole labels, and its filter offers every kind',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await page.waitForSelector('[data-testid="log-line"][data-kind="bound"]');
      const lines = await logLines(page);
      const declared = lines.find((l) => l.kind === 'exchange_declared' && l.place.trim() === 'order.delay.exchange');
      assert.equal(declared?.detail.trim(), 'direct');
      const bound = lines.find((l) => l.kind === 'bound' && /order\.delay\.queue/.test(l.detail));
      assert.equal(bound.detail.trim(), '→ order.delay.queue [order.create]');
      assert.ok(lines.every((l) => !/[{}]/.test(l.detail)), 'no JSON');
      assert.equal(declared.k.trim(), 'exchange declared');
      const cut = await page.$$eval('[data-testid="log-line"] .k', (ks) => ks.filter((k) => k.scrollWidth > k.clientWidth + 1).map((k) => k.textContent));
      assert.deepEqual(cut, [], 'kind labels are whole');
      const options = await page.$$eval('[data-testid="log-kind"] option', (os) => os.map((o) => o.value));
      for (const k of ['exchange_declared', 'queue_declared', 'bound', 'consumer_attached', 'broker_upgraded', 'order_closed']) {
        assert.ok(options.includes(k), `the filter offers ${k}`);
      }
      await page.selectOption('[data-testid="log-kind"]', 'bound');
      const kinds = new Set((await logLines(page)).map((l) => l.kind));
      assert.deepEqual([...kinds], ['bound']);
      await top(page);
    },
  },
];
