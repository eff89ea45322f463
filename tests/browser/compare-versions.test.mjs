// Compare mode on two versions (issue 12 item 7): the loaded scenario side by side on two
// RabbitMQ versions, every lane on the playground's clock. The poison message: on 3.10
// the worker gets the order back every second; on 4.0 the 21st nack dead-letters it to
// orders.parked (delivery limit 20) and the inspector has it.
const ready = { ready: '[data-testid="topology"] .node' };
const lane = (page, v) => page.locator(`[data-testid="lane-ver-${v}"]`);

async function jumpTo(page, time) {
  await page.fill('[data-testid="jump-input"]', time);
  await page.click('[data-testid="jump-btn"]');
}

/** Waits until every lane shows this clock. */
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

async function versionsMode(page) {
  await page.locator('[data-testid="compare"]').scrollIntoViewIfNeeded();
  await page.check('[data-testid="cmp-mode-versions"]');
  await page.waitForSelector('[data-testid="cmp-versions"]');
}

export const tests = [
  {
    name: 'the poison message on 3.10 and 4.0 side by side: 4.0 parks it after 20 returns',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#poison-message-3-10-vs-4-0', ready);
      await versionsMode(page);
      // The default pair for a 4.0 scenario: the live-checked 3.10 beside its own 4.0.
      assert.equal(await page.locator('[data-testid="cmp-version-a"]').inputValue(), '3.10');
      assert.equal(await page.locator('[data-testid="cmp-version-b"]').inputValue(), '4.0');
      assert.match(await page.locator('#cmp-h').textContent(), /Compare versions/);
      await page.click('[data-testid="compare-live"]');
      await page.waitForSelector('[data-testid="lane-ver-4.0"]');
      assert.equal(await page.locator('.lane').count(), 2);
      // Each lane is titled with its version; the main view keeps the preset (its own 4.0).
      assert.match(await lane(page, '3.10').locator('.lane-head').textContent(), /RabbitMQ 3\.10/);
      assert.match(await lane(page, '4.0').locator('.lane-head').textContent(), /RabbitMQ 4\.0/);
      assert.equal(await page.locator('[data-testid="broker-version"]').inputValue(), '4.0');

      await jumpTo(page, '0:25');
      await lanesAt(page, '0:00:25.000');
      // 4.0: 21 deliveries to the worker, then dead-lettered; the inspector got it.
      const parked40 = await lane(page, '4.0').locator('[data-testid="lane-q-orders.parked"]').textContent();
      const parked310 = await lane(page, '3.10').locator('[data-testid="lane-q-orders.parked"]').textContent();
      const n40 = Number(await lane(page, '4.0').locator('[data-testid="lane-delivered"]').textContent());
      const n310 = Number(await lane(page, '3.10').locator('[data-testid="lane-delivered"]').textContent());
      assert.equal(n40, 22, `4.0 deliveries by 0:25 (21 to the worker, 1 to the inspector): ${n40}`);
      assert.ok(n310 >= 25, `3.10 keeps redelivering: ${n310}`);
      assert.match(parked40 + parked310, /orders\.parked/);
      await page.locator('[data-testid="lanes"]').scrollIntoViewIfNeeded();
      await t.screenshot('poison-lanes-at-0-25');

      // Each run to its end: the typed rows, titled by version.
      await page.click('[data-testid="compare-run"]');
      await page.waitForSelector('[data-testid="compare-ver-4.0"]');
      assert.match(await page.locator('.cmp-table thead').textContent(), /Version/);
      const row40 = await page.locator('[data-testid="compare-ver-4.0"] td').first().textContent();
      const row310 = await page.locator('[data-testid="compare-ver-3.10"] td').first().textContent();
      assert.equal(row40.trim(), '22');
      assert.ok(Number(row310) >= 30, `3.10 delivers to the end (30 s): ${row310}`);

      // A share link keeps the version lanes beside its scenario.
      await page.click('[data-testid="copy-link"]');
      const link = await page.locator('[data-testid="share-link"]').inputValue();
      const other = await page.context().browser().newPage();
      try {
        await other.goto(link);
        await other.waitForSelector('[data-testid="lane-ver-3.10"]', { timeout: 30_000 });
        await other.waitForSelector('[data-testid="lane-ver-4.0"]');
        assert.equal(await other.locator('.lane').count(), 2);
      } finally {
        await other.close();
      }

      // Restart: both lanes go back to 0 with the main clock; then stop.
      await page.click('[data-testid="restart"]');
      await lanesAt(page, '0:00:00.000');
      await page.click('[data-testid="compare-stop"]');
      assert.equal(await page.locator('.lane').count(), 0);
    },
  },
  {
    name: 'versions: the pickers choose the lanes, the same version twice is refused, Chinese',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await versionsMode(page);
      // A 3.10 scenario: 3.10 beside the next version whose rules differ.
      assert.equal(await page.locator('[data-testid="cmp-version-a"]').inputValue(), '3.10');
      assert.notEqual(await page.locator('[data-testid="cmp-version-b"]').inputValue(), '3.10');
      await page.selectOption('[data-testid="cmp-version-b"]', '3.10');
      await page.click('[data-testid="compare-live"]');
      assert.match(await page.locator('[data-testid="compare"] .form-error').textContent(), /two different/);
      assert.equal(await page.locator('.lane').count(), 0);
      await page.selectOption('[data-testid="cmp-version-a"]', '4.2');
      await page.selectOption('[data-testid="cmp-version-b"]', '4.3');
      await page.click('[data-testid="compare-live"]');
      await page.waitForSelector('[data-testid="lane-ver-4.3"]');
      assert.equal(await page.locator('[data-testid="lane-ver-4.2"]').count(), 1);
      // Back to topologies: the preset picker is there again.
      await page.click('[data-testid="lang-zh"]');
      assert.match(await page.locator('#cmp-h').textContent(), /对比版本/);
      assert.match(await page.locator('[data-testid="cmp-mode"]').textContent(), /对比拓扑/);
      await page.check('[data-testid="cmp-mode-topologies"]');
      await page.waitForSelector('.cmp-pick-wrap');
      assert.match(await page.locator('#cmp-h').textContent(), /对比不同拓扑/);
      await t.screenshot('zh');
    },
  },
];
