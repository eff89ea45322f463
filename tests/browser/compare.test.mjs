// Compare mode: the same workload through three topologies, side by side, following the
// playground's one clock.

const ready = { ready: '[data-testid="topology"] .node' };

async function jumpTo(page, time) {
  await page.fill('[data-testid="jump-input"]', time);
  await page.click('[data-testid="jump-btn"]');
}

const lane = (page, id) => page.locator(`[data-testid="lane-${id}"]`);

/** Waits until every lane shows this clock (lanes follow the main clock). */
async function lanesAt(page, text, timeout = 30_000) {
  await page.waitForFunction(
    (want) => {
      const clocks = [...document.querySelectorAll('.lane .lane-clock')].map((e) => e.textContent.trim());
      return clocks.length >= 2 && clocks.every((c) => c === want);
    },
    text,
    { timeout },
  );
}

export const tests = [
  {
    name: 'side by side: at 6:00 B is overdue behind A in one queue, delivered by the others',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await page.click('[data-testid="compare-live"]');
      await page.waitForSelector('[data-testid="lane-head-of-line-blocking"]');
      assert.equal(await page.locator('.lane').count(), 3);
      // The main view shows the first lane's scenario.
      await page.waitForSelector('[data-testid="queue-order.delay.queue"]');

      await jumpTo(page, '6:30');
      await lanesAt(page, '0:06:30.000');
      const hol = await lane(page, 'head-of-line-blocking').textContent();
      assert.match(hol, /overdue 1/i, `HOL lane: ${hol}`);
      assert.match(hol, /—/, 'nothing delivered yet through the shared wait queue');
      const perTtl = await lane(page, 'fix-one-queue-per-ttl').textContent();
      assert.match(perTtl, /B 0:06:00\.000/);
      const plugin = await lane(page, 'fix-delayed-plugin').textContent();
      assert.match(plugin, /B 0:06:00\.000/);
      assert.match(plugin, /messages_delayed 1/);
      await page.locator('[data-testid="lanes"]').scrollIntoViewIfNeeded();
      await t.screenshot('lanes-at-6-30');

      await jumpTo(page, '31:00');
      await lanesAt(page, '0:31:00.000');
      const late = await lane(page, 'head-of-line-blocking').locator('[data-testid="lane-max"]').textContent();
      assert.match(late, /⚠ 24:00\.0/);
      assert.match(await lane(page, 'fix-delayed-plugin').locator('[data-testid="lane-max"]').textContent(), /✓ 0:00\.0/);

      // Restart: every lane goes back to 0 with the main clock.
      await page.click('[data-testid="restart"]');
      await lanesAt(page, '0:00:00.000');
      await page.click('[data-testid="compare-stop"]');
      assert.equal(await page.locator('.lane').count(), 0);
    },
  },
  {
    name: 'fewer than two topologies is refused with a message',
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await page.click('.cmp-pick-wrap > summary');
      await page.uncheck('[data-testid="cmp-pick-fix-one-queue-per-ttl"]');
      await page.uncheck('[data-testid="cmp-pick-fix-delayed-plugin"]');
      await page.click('[data-testid="compare-live"]');
      assert.match(await page.locator('[data-testid="compare"] .form-error').textContent(), /two or more|至少/);
      assert.equal(await page.locator('.lane').count(), 0);
    },
  },
  {
    name: 'a share link keeps compare mode: the lanes open beside the scenario',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await page.click('[data-testid="compare-live"]');
      await page.waitForSelector('[data-testid="lane-fix-delayed-plugin"]');
      await page.click('[data-testid="copy-link"]');
      const link = await page.locator('[data-testid="share-link"]').inputValue();
      assert.match(link, /#v1\./);
      const other = await page.context().browser().newPage();
      try {
        await other.goto(link);
        await other.waitForSelector('[data-testid="lane-head-of-line-blocking"]', { timeout: 30_000 });
        assert.equal(await other.locator('.lane').count(), 3);
      } finally {
        await other.close();
      }
    },
  },
  {
    name: 'a jump draws the whole queue-depth chart, not just its end',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await jumpTo(page, '31:00');
      await page.waitForFunction(
        () => document.querySelector('[data-testid="clock"]')?.textContent?.trim() === '0:31:00.000');
      await page.waitForTimeout(300);
      // order.delay.queue held 1, then 2 messages for most of the 31 minutes, then 0.
      const pts = await page.$$eval('[data-testid="depths"] polyline', (ls) => ls.map((l) => l.getAttribute('points')));
      assert.ok(pts.length >= 2, `depth lines: ${pts.length}`);
      const ys = new Set(pts[0].trim().split(/\s+/).map((p) => p.split(',')[1]));
      assert.ok(ys.size >= 3, `order.delay.queue's line has ${ys.size} levels: ${pts[0]}`);
    },
  },
];
