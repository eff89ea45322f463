// Delay strategies compared (src/app/strategies.rs, its body crates/strategies-view): a
// small workload through the selected strategies; the table shows each with numbers; a
// chart and a verdict per strategy, in Chinese after the language switch; the full
// 200,000-task burst runs in slices without freezing the page. The panel's body is a
// module of its own, fetched when the panel comes near the screen, not at load.
const ALL = ['polling-scan', 'store-poll', 'store-notify', 'timing-wheel', 'dlx-per-message',
  'dlx-per-queue', 'dlx-cascade', 'fixed-levels', 'plugin', 'qq-delivery-time'];
/** The versions each runs on (the plugin up to 4.2; a quorum queue's x-opt-delivery-time from 4.4). */
const WORKS_ON = { plugin: '3.10-4.2', 'qq-delivery-time': '4.4' };

/** Loads the page and scrolls to the panel, which then imports its body. */
async function openStrategies(t) {
  const { page } = t;
  await t.goto('', { ready: '[data-testid="strategies"]' });
  const section = page.locator('[data-testid="strategies"]');
  await section.scrollIntoViewIfNeeded();
  await page.locator('[data-testid="strat-body"]').waitFor();
  return section;
}

async function runSmall(t, count) {
  const { page } = t;
  const section = await openStrategies(t);
  await page.selectOption('[data-testid="strat-preset"]', { index: 1 }); // reminder ladder, restart
  await page.fill('[data-testid="strat-count"]', String(count));
  await page.click('[data-testid="strat-run"]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid="strat-status"]')?.textContent.trim() === 'done',
    null, { timeout: 30_000 });
  return section;
}

// Run alone, after the others (tests/browser/run.mjs: what it measures is time: the full burst's slices keep the page responsive: a time measured).
export const solo = true;

export const tests = [
  {
    name: 'the panel\'s module is fetched when the panel comes near, not at load; a failed fetch says so, "Try again" loads it',
    // The 404 below is the browser's own console line.
    allowConsole: [/404|Failed to load|pkg-strategies/],
    async run(t) {
      const { page, assert } = t;
      const fetched = [];
      page.on('request', (r) => { if (r.url().includes('/pkg-strategies/')) fetched.push(r.url()); });
      let fail = true;
      await page.route('**/pkg-strategies/**', (route) => (fail ? route.fulfill({ status: 404, body: 'gone' }) : route.continue()));
      await t.goto('', { ready: '[data-testid="strategies"]' });
      await page.waitForTimeout(300);
      assert.deepEqual(fetched, [], 'the comparison was fetched while the panel was far below the screen');
      await page.locator('[data-testid="strategies"]').scrollIntoViewIfNeeded();
      const err = page.locator('[data-testid="strat-load-failed"]');
      await err.waitFor({ state: 'visible' });
      assert.match(await err.textContent(), /could not be fetched \(check the connection\).*pkg-strategies\/delaylab_strategies_view\.js/);
      assert.equal(await page.locator('[data-testid="strat-body"]').count(), 0);
      fail = false;
      await err.locator('button').click();
      await page.locator('[data-testid="strat-body"]').waitFor();
      assert.equal(await err.count(), 0, 'the error stays after the module loaded');
      assert.equal(await page.locator('[data-testid="strat-loading"]').count(), 0);
      assert.match(await page.locator('[data-testid="strat-preset"] option:checked').textContent(), /\S/);
    },
  },
  {
    name: 'a small workload fills the table, charts and verdicts; Chinese verdicts',
    async run(t) {
      const { page, assert } = t;
      const section = await runSmall(t, 400);
      const rows = page.locator('[data-testid="strat-table"] tbody tr');
      assert.equal(await rows.count(), ALL.length);
      for (const name of ALL) {
        // The first cell says which RabbitMQ versions the strategy runs on.
        const [works, ...cells] = await page.locator(`[data-testid="strat-row-${name}"] td`).allTextContents();
        assert.equal(works, WORKS_ON[name] ?? '3.10-4.4', `${name} works on: ${works}`);
        assert.ok(cells.length >= 8, `${name}: ${cells}`);
        assert.ok(cells.slice(0, 7).every((c) => /\d/.test(c)), `${name} has numbers: ${cells}`);
        assert.equal(await page.locator(`[data-testid="strat-card-${name}"] svg circle`).count() > 0,
          true, `${name} chart has points`);
      }
      // The restart costs the in-memory wheel its tasks; the verdict says so.
      const wheelLost = await page.locator('[data-testid="strat-row-timing-wheel"] td').nth(4).textContent();
      assert.notEqual(wheelLost.trim(), '0');
      const wheel = await page.locator('[data-testid="strat-verdict-timing-wheel"]').textContent();
      assert.match(wheel, /lost \d+ tasks held in memory/);
      await page.click('[data-testid="lang-zh"]');
      const zh = await page.locator('[data-testid="strat-verdict-polling-scan"]').textContent();
      assert.match(zh, /[\u4e00-\u9fff]/, `Chinese verdict: ${zh}`);
      assert.match(await section.locator('h2').textContent(), /延迟方案对比/);
      // The workload preset, its description, the table's units and parameters follow the language.
      const preset = await page.locator('[data-testid="strat-preset"] option:checked').textContent();
      assert.match(preset, /阶梯提醒/, `workload name: ${preset}`);
      assert.match(await page.locator('[data-testid="strat-description"]').textContent(), /付款提醒/);
      const row = await page.locator('[data-testid="strat-row-polling-scan"] td').allTextContents();
      assert.equal(row[0], '3.10-4.4', `works on, in Chinese too: ${row[0]}`);
      assert.match(row[1], /(毫秒|秒|分钟|小时)$/, `lateness unit: ${row[1]}`);
      assert.match(row.at(-1), /周期 .*未建索引/, `parameters: ${row.at(-1)}`);
      assert.doesNotMatch(await page.locator('[data-testid="strat-verdict-polling-scan"]').textContent(), /\d(ms|s|m|h)\b/);
      await section.screenshot({ path: 'tests/artifacts/strategies--section.png' });
    },
  },
  {
    name: 'only the selected strategies run',
    async run(t) {
      const { page, assert } = t;
      await openStrategies(t);
      for (const name of ALL.filter((n) => !['plugin', 'polling-scan'].includes(n))) {
        await page.uncheck(`[data-testid="strat-pick-${name}"]`);
      }
      await page.fill('[data-testid="strat-count"]', '200');
      await page.click('[data-testid="strat-run"]');
      await page.waitForFunction(
        () => document.querySelector('[data-testid="strat-status"]')?.textContent.trim() === 'done');
      const names = await page.locator('[data-testid="strat-table"] tbody th').allTextContents();
      assert.deepEqual(names, ['polling-scan', 'plugin']);
    },
  },
  {
    name: 'the full promotion burst runs in slices (the page stays responsive)',
    timeout: 300_000,
    async run(t) {
      const { page, assert } = t;
      await openStrategies(t);
      await page.click('[data-testid="strat-full"]');
      assert.equal(await page.inputValue('[data-testid="strat-count"]'), '200000');
      // Record, in the page, every gap between two animation frames while it runs.
      await page.evaluate(() => {
        window.__gaps = [];
        let last = performance.now();
        const tick = () => {
          const now = performance.now();
          window.__gaps.push(now - last);
          last = now;
          if (!window.__stop) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      await page.click('[data-testid="strat-run"]');
      await page.waitForFunction(
        () => document.querySelector('[data-testid="strat-status"]')?.textContent.trim() === 'done',
        null, { timeout: 280_000, polling: 1000 });
      const gaps = await page.evaluate(() => { window.__stop = true; return window.__gaps; });
      // Sliced: many frames, most of them short. (Unsliced, the 5-10 s run would be one
      // frame.) The bounds leave room for a machine busy with other work.
      const sorted = [...gaps].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      assert.ok(gaps.length >= 30, `only ${gaps.length} frames during the run`);
      assert.ok(median < 150, `median frame ${Math.round(median)} ms`);
      assert.ok(sorted.at(-1) < 2500, `the longest frame took ${Math.round(sorted.at(-1))} ms`);
      const late = await page.locator('[data-testid="strat-row-dlx-per-message"] td').nth(3).textContent();
      assert.equal(late.trim(), '45.0m', 'head-of-line blocking in the burst: max 45 min');
    },
  },
];
