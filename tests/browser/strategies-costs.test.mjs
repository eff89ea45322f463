// The strategy comparison's switch "exact rules | with RabbitMQ's speed (3.10.8, 2 cores)"
// (issue 16 item 4): the same workload with the measured cost profile shows the plugin's
// drift and the dead-letter drain, and the note beside the figures says which mode they
// come from (the figures equal `delaylab compare --costs measured`: a native test in
// crates/playground/src/strategy_costs.rs).
const BROKER = ['dlx-per-message', 'dlx-per-queue', 'plugin'];
const ALL = ['polling-scan', 'store-poll', 'store-notify', 'timing-wheel', 'dlx-per-message',
  'dlx-per-queue', 'dlx-cascade', 'fixed-levels', 'plugin'];

async function run(page) {
  await page.click('[data-testid="strat-run"]');
  await page.waitForFunction(
    () => /^(done|完成)$/.test(document.querySelector('[data-testid="strat-status"]')?.textContent.trim() ?? ''),
    null, { timeout: 120_000, polling: 250 });
}

/** The p99 cell of a strategy's row (after "works on" and the mean). */
const p99 = (page, name) => page.locator(`[data-testid="strat-row-${name}"] td`).nth(2).textContent()
  .then((s) => s.trim());

export const tests = [
  {
    name: 'exact rules, then RabbitMQ speed: the plugin and the DLX drain get late, the note says so',
    timeout: 240_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', { ready: '[data-testid="strategies"]' });
      const section = page.locator('[data-testid="strategies"]');
      await section.scrollIntoViewIfNeeded();
      for (const name of ALL.filter((n) => !BROKER.includes(n))) {
        await page.uncheck(`[data-testid="strat-pick-${name}"]`);
      }
      // The promotion burst at the browser's default size (20,000 of 200,000 orders).
      assert.equal(await page.inputValue('[data-testid="strat-count"]'), '20000');
      assert.ok(await page.isChecked('[data-testid="strat-costs-ideal"]'), 'exact rules by default');
      await run(page);
      const note = page.locator('[data-testid="strat-mode"]');
      assert.equal(await note.getAttribute('data-mode'), 'ideal');
      assert.match(await note.textContent(), /exact rules/);
      assert.equal(await p99(page, 'plugin'), '0ms', 'exact rules: the plugin is on time');
      const maxOf = (name) => page.locator(`[data-testid="strat-row-${name}"] td`).nth(3).textContent()
        .then((s) => s.trim());
      const idealPerQueue = await maxOf('dlx-per-queue');
      assert.equal(idealPerQueue, '0ms', 'exact rules: one queue per delay is never late');

      await page.check('[data-testid="strat-costs-measured"]');
      // The figures shown are still the exact ones until the next run, and say so.
      assert.equal(await note.getAttribute('data-mode'), 'ideal');
      await run(page);
      assert.equal(await note.getAttribute('data-mode'), 'measured');
      assert.match(await note.textContent(), /RabbitMQ's speed: 3\.10\.8 on 2 cores/);
      const plugin = await p99(page, 'plugin');
      assert.notEqual(plugin, '0ms', `measured: the plugin drifts (p99 ${plugin})`);
      const perQueue = await maxOf('dlx-per-queue');
      assert.notEqual(perQueue, '0ms', `dlx-per-queue: expiry and the dead-letter drain take time (max ${perQueue})`);
      await section.screenshot({ path: 'tests/artifacts/strategies-costs--measured-section.png' });

      await page.click('[data-testid="lang-zh"]');
      assert.match(await page.locator('[data-testid="strat-costs"]').textContent(), /按 RabbitMQ 的实测速度/);
      assert.match(await note.textContent(), /实测速度/);
      await t.screenshot('measured-zh');
    },
  },
  {
    name: 'a fast publisher: with RabbitMQ speed the plugin falls seconds behind (plugin-backlog)',
    timeout: 240_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', { ready: '[data-testid="strategies"]' });
      const section = page.locator('[data-testid="strategies"]');
      await section.scrollIntoViewIfNeeded();
      await page.selectOption('[data-testid="strat-preset"]', { index: 3 });
      assert.match(await page.locator('[data-testid="strat-preset"] option:checked').textContent(), /fast publisher/);
      // Up to 100,000 tasks a preset starts at its full size.
      assert.equal(await page.inputValue('[data-testid="strat-count"]'), '100000');
      for (const name of ALL.filter((n) => !['dlx-per-message', 'plugin'].includes(n))) {
        await page.uncheck(`[data-testid="strat-pick-${name}"]`);
      }
      await page.check('[data-testid="strat-costs-measured"]');
      await run(page);
      const plugin = await p99(page, 'plugin');
      assert.match(plugin, /^\d+(\.\d)?s$/, `measured: the plugin's p99 is seconds (${plugin})`);
      assert.match(await page.locator('[data-testid="strat-verdict-plugin"]').textContent(), /\S/);
      await section.screenshot({ path: 'tests/artifacts/strategies-costs--backlog-section.png' });
    },
  },
];
