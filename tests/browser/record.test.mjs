// What the user does is written into the scenario: a share link, the autosave and
// Restart replay the session (publishes from the form, consumers added or stopped).
import { partsReady } from './parts.mjs';

const ready = { ready: '[data-testid="topology"] .node' };

async function jumpTo(page, time) {
  await page.fill('[data-testid="jump-input"]', time);
  await page.click('[data-testid="jump-btn"]');
}

async function waitClock(page, text) {
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="clock"]')?.textContent?.trim() === want,
    text,
    { timeout: 30_000 },
  );
}

const delivered = (page) =>
  page.$$eval('[data-testid="log-line"][data-kind="delivered"]', (els) =>
    els.filter((e) => (e.dataset.body || '').startsWith('mine-')).map((e) => e.textContent.trim()));

async function publishThree(page) {
  await page.fill('[data-testid="pub-body"]', 'mine-{n}');
  await page.fill('[data-testid="pub-expiration"]', '5000');
  await page.fill('[data-testid="pub-count"]', '3');
  await page.fill('[data-testid="pub-every"]', '1s');
  await page.click('[data-testid="publish-btn"]');
}

/** Copies the page's share link and opens it in a fresh browser context: `check(other)`. */
async function openLinkElsewhere(page, check) {
  await page.click('[data-testid="copy-link"]');
  const link = await page.locator('[data-testid="share-link"]').inputValue();
  const ctx = await page.context().browser().newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const other = await ctx.newPage();
    await other.goto(link);
    await other.waitForSelector(ready.ready);
    await partsReady(other);
    await check(other);
  } finally {
    await ctx.close();
  }
}

export const tests = [
  {
    name: 'form publishes are kept: restart and a share link replay them at the same times',
    timeout: 120_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await publishThree(page);
      await jumpTo(page, '0:10');
      await waitClock(page, '0:00:10.000');
      await page.waitForSelector('[data-testid="log-line"][data-kind="delivered"][data-body="mine-3"]');
      const first = await delivered(page);
      assert.equal(first.length, 3, first.join('\n'));

      // The JSON editor shows one repeated action, not three.
      await page.click('#json-h');
      const json = JSON.parse(await page.locator('[data-testid="scenario-json"]').inputValue());
      const mine = json.actions.filter((a) => a.publish && a.publish.body === 'mine-{n}');
      assert.equal(mine.length, 1, JSON.stringify(json.actions));
      assert.equal(mine[0].repeat.count, 3);

      // Restart replays the session.
      await page.click('[data-testid="restart"]');
      await waitClock(page, '0:00:00.000');
      await jumpTo(page, '0:10');
      await waitClock(page, '0:00:10.000');
      await page.waitForSelector('[data-testid="log-line"][data-kind="delivered"][data-body="mine-3"]');
      assert.deepEqual(await delivered(page), first);

      // A link opened elsewhere: the same deliveries at the same times.
      await openLinkElsewhere(page, async (other) => {
        await waitClock(other, '0:00:10.000');
        await other.waitForSelector('[data-testid="log-line"][data-kind="delivered"][data-body="mine-3"]');
        assert.deepEqual(await delivered(other), first);
      });
    },
  },
  {
    name: 'a publish in the sandbox survives a reload (autosave)',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await page.fill('[data-testid="pub-body"]', 'mine-kept');
      await page.fill('[data-testid="pub-expiration"]', '5000');
      await page.click('[data-testid="publish-btn"]');
      await page.waitForTimeout(1200); // the autosave waits 0.4 s after a change
      await page.reload();
      await page.waitForSelector(ready.ready);
      await partsReady(page);
      await jumpTo(page, '0:10');
      await page.waitForSelector('[data-testid="log-line"][data-kind="delivered"][data-body="mine-kept"]');
      assert.equal((await delivered(page)).length, 1);
    },
  },
  {
    name: 'a stopped consumer is kept: its stop time is in the scenario and the link',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await jumpTo(page, '0:02');
      await waitClock(page, '0:00:02.000');
      await page.click('[data-testid="stop-closer"]');
      await page.fill('[data-testid="pub-body"]', 'mine-unread');
      await page.fill('[data-testid="pub-expiration"]', '1000');
      await page.click('[data-testid="publish-btn"]');
      await page.click('#json-h');
      const json = JSON.parse(await page.locator('[data-testid="scenario-json"]').inputValue());
      const closer = json.consumers.find((c) => c.name === 'closer');
      assert.ok(closer && closer.to, `closer has no stop time: ${JSON.stringify(json.consumers)}`);
      await openLinkElsewhere(page, async (other) => {
        await jumpTo(other, '0:10');
        await waitClock(other, '0:00:10.000');
        // Dead-lettered into order.dlx.queue, where nobody consumes any more.
        await other.waitForFunction(() =>
          /ready\s*1/.test(document.querySelector('[data-testid="queue-order.dlx.queue"]')?.textContent || ''));
        assert.equal(await other.locator('[data-testid="log-line"][data-kind="delivered"][data-body="mine-unread"]').count(), 0);
      });
    },
  },
];
