// The playground's Checks panel (issue 24 item 3): each check's state as the clock moves
// (pending, passed at T, failed at T with the figure seen), re-evaluated on a publish and
// from pending again after a jump back; a failed check opens its message's story; checks
// are edited in the JSON editor (with the loader's path errors) and travel in share links
// and the autosave; an old link opens unchanged (no checks). English and Chinese, desktop
// and phone.
import {
  SCENARIO, jumpTo, waitClock, loadJson, checkState, statuses, waitStatuses, noOverflow,
} from './checks-common.mjs';

const ready = { ready: '[data-testid="topology"] .node' };
const ALL_PENDING = ['b-by-6:pending', 'overdue-at-10:pending', 'b-late:pending', 'c-closed:pending'];
/** A link made by version 1 before checks existed (crates/share/tests/old_links.rs). */
const OLD_LINK = '#v1.CNaDVazt1zENAAAIAzDhBO8oAL5dVdG0tqIekfxvSDKSkYxkJCNZSrIe';

/** Publishes `body` straight into the closer's queue (delivered at once). */
async function publishToCloser(page, body) {
  await page.selectOption('[data-testid="pub-exchange"]', 'order.dlx.exchange');
  await page.fill('[data-testid="pub-rk"]', 'order.timeout');
  await page.fill('[data-testid="pub-body"]', body);
  await page.fill('[data-testid="pub-expiration"]', '');
  await page.click('[data-testid="publish-btn"]');
}

export const tests = [
  {
    name: 'pending, then passed or failed as the clock moves; a publish passes one; a jump back starts again',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await loadJson(page, SCENARIO);
      await waitStatuses(page, ALL_PENDING);
      assert.equal((await page.locator('[data-testid="checks-summary"]').textContent()).trim(), '4 pending');
      const first = await checkState(page, 'b-by-6', 'pending');
      assert.equal(first.label, 'B is closed by 6:00');
      assert.equal(first.state, 'pending');
      assert.equal(first.expected, 'expected: B delivered by 0:06:00.000');
      assert.equal(first.seen, null);

      await jumpTo(page, '5:00');
      await waitClock(page, '0:05:00.000');
      assert.deepEqual(await statuses(page), ALL_PENDING, 'nothing is decided at 5:00');

      // One jump from 5:00 to 10:00: B's window closed at 6:00, the depth is read at 10:00.
      await jumpTo(page, '10:00');
      await waitClock(page, '0:10:00.000');
      const b = await checkState(page, 'b-by-6', 'failed');
      assert.equal(b.state, 'failed at 0:06:00.000');
      assert.equal(b.seen, 'saw: no such delivery');
      assert.equal((await checkState(page, 'overdue-at-10', 'passed')).state, 'passed at 0:10:00.000');
      await t.screenshot('at 10:00');
      await t.axe('Checks panel at 10:00: failed, passed, pending');

      // The user publishes C at 10:00: "C is closed" passes then and there.
      await publishToCloser(page, 'C');
      assert.equal((await checkState(page, 'c-closed', 'passed')).state, 'passed at 0:10:00.000');
      assert.equal((await page.locator('[data-testid="checks-summary"]').textContent()).trim(),
        '2 passed, 1 failed, 1 pending');

      // 30:00: B is delivered 24 minutes late; the failed check opens B's story.
      await jumpTo(page, '31:00');
      await waitClock(page, '0:31:00.000');
      const late = await checkState(page, 'b-late', 'failed');
      assert.equal(late.state, 'failed at 0:30:00.000');
      assert.equal(late.seen, 'saw: 24m (B)');
      assert.equal(late.expected, 'expected: lateness of B at most 1s');
      assert.equal((await checkState(page, 'b-by-6', 'failed')).seen, 'saw: B delivered at 0:30:00.000',
        'the figure seen follows the run after the decision');
      const story = page.locator('[data-testid="check"][data-id="b-late"] [data-testid="check-story"]');
      assert.match(await story.textContent(), /#2 B/);
      await story.click();
      await page.waitForFunction(() => /#2\s*B/.test(document.querySelector('[data-testid="inspector-title"]')?.textContent ?? ''));
      assert.ok(await page.locator('[data-testid="inspector"]').isVisible());
      await t.axe('Checks panel at 31:00, a story open from a failed check');

      await jumpTo(page, '40:00');
      await waitClock(page, '0:40:00.000');
      await page.waitForFunction(() => /decided/.test(document.querySelector('[data-testid="checks-summary"]').textContent));
      assert.equal(await page.locator('[data-testid="check"][data-status="pending"]').count(), 0);

      // Back to 5:00: a new run from 0 (the recorded publish of C replays at 10:00).
      await jumpTo(page, '5:00');
      await waitClock(page, '0:05:00.000');
      await waitStatuses(page, ALL_PENDING);
      await jumpTo(page, '10:00');
      await waitClock(page, '0:10:00.000');
      await checkState(page, 'c-closed', 'passed');
    },
  },
  {
    name: 'in Chinese, on a phone',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await page.setViewportSize({ width: 390, height: 844 });
      await t.goto('#head-of-line-blocking', ready);
      await page.click('[data-testid="lang-zh"]');
      // A preset's labels are in Chinese too (checks_zh.rs).
      await page.waitForFunction(() => document.querySelector('[data-testid="checks"] [data-testid="check-label"]')
        ?.textContent === 'B 在 30:00 和 A 一起投递,而不是 6:00');
      await loadJson(page, SCENARIO);
      await jumpTo(page, '31:00');
      await waitClock(page, '0:31:00.000');
      const b = await checkState(page, 'b-by-6', 'failed');
      assert.equal(b.label, 'B is closed by 6:00', 'the scenario\'s own label');
      assert.equal(b.state, '在 0:06:00.000 失败');
      assert.equal(b.seen, '实际: B 在 0:30:00.000 被投递');
      assert.equal(b.expected, '期望: 在 0:06:00.000 或之前 B 被投递');
      assert.equal((await checkState(page, 'overdue-at-10', 'passed')).state, '在 0:10:00.000 通过');
      assert.match(await page.locator('[data-testid="checks-summary"]').textContent(), /1 项通过,2 项失败,1 项待定/);
      assert.match(await page.locator('[data-testid="check"][data-id="b-late"] [data-testid="check-story"]').textContent(), /查看经过/);
      await page.locator('[data-testid="checks"]').scrollIntoViewIfNeeded();
      assert.ok(await page.locator('[data-testid="checks"]').isVisible());
      await noOverflow(page, assert);
      await t.axe('Checks panel in Chinese', { viewports: ['phone'] });
    },
  },
  {
    name: 'the JSON editor says which check is wrong, by its path',
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await page.click('#json-h');
      const bad = structuredClone(SCENARIO);
      bad.checks[1].depth.queue = 'no.such.queue';
      await page.fill('[data-testid="scenario-json"]', JSON.stringify(bad));
      await page.click('[data-testid="json-load"]');
      await page.waitForFunction(() => /checks\[1\]\.depth\.queue/.test(document.querySelector('[data-testid="json-error"]').textContent));
      bad.checks[1].depth.queue = 'order.delay.queue';
      bad.checks[0].delivered.by = 'soon';
      await page.fill('[data-testid="scenario-json"]', JSON.stringify(bad));
      await page.click('[data-testid="json-load"]');
      await page.waitForFunction(() => /checks\[0\]\.delivered\.by/.test(document.querySelector('[data-testid="json-error"]').textContent));
      // Nothing was loaded: the sandbox is still there, its panel has no checks.
      assert.notEqual((await page.locator('[data-testid="scenario-name"]').textContent()).trim(), SCENARIO.name);
      await page.waitForSelector('[data-testid="checks-none"]');
    },
  },
  {
    name: 'checks travel in a share link and the autosave; an old link opens without any',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await loadJson(page, SCENARIO);
      await page.click('[data-testid="copy-link"]');
      const field = page.locator('[data-testid="share-link"]');
      await field.waitFor();
      const link = await field.inputValue();
      // Another browser opens the link: the same checks, decided the same way.
      const other = await page.context().browser().newContext({ viewport: { width: 1440, height: 900 } });
      try {
        const p = await other.newPage();
        await p.goto(link, { waitUntil: 'load' });
        await p.waitForSelector(ready.ready, { timeout: 30_000 });
        await t.partsReady(p);
        await waitStatuses(p, ALL_PENDING);
        assert.equal((await checkState(p, 'overdue-at-10', 'pending')).label, 'B is overdue behind A at 10:00');
        await jumpTo(p, '10:00');
        await waitClock(p, '0:10:00.000');
        assert.equal((await checkState(p, 'b-by-6', 'failed')).state, 'failed at 0:06:00.000');
      } finally {
        await other.close();
      }
      // The autosave: a reload with no fragment brings the scenario and its checks back.
      await page.waitForTimeout(800);
      await page.goto(t.baseUrl, { waitUntil: 'load' });
      await page.waitForSelector(ready.ready);
      await t.partsReady();
      await page.waitForFunction((n) => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() === n,
        SCENARIO.name);
      await waitStatuses(page, ALL_PENDING);
      // A v1 link made before checks existed opens as it did, in a new browser: its scenario
      // (the head-of-line preset as it was then, read-only, in Chinese) has none.
      const fresh = await page.context().browser().newContext({ viewport: { width: 1440, height: 900 } });
      try {
        const p = await fresh.newPage();
        await p.goto(new URL(OLD_LINK, t.baseUrl).href, { waitUntil: 'load' });
        await p.waitForSelector(ready.ready, { timeout: 30_000 });
        await t.partsReady(p);
        await p.waitForSelector('[data-testid="read-only"]');
        await p.waitForFunction(() => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim()
          === '队头阻塞');
        await p.waitForSelector('[data-testid="checks-none"]');
        assert.equal(await p.locator('[data-testid="check"]').count(), 0);
      } finally {
        await fresh.close();
      }
    },
  },
];
