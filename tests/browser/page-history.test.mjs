// Nothing lost without asking (issue 22 item 5): a load over the user's work offers Undo,
// and the browser's Back and Forward move between loaded scenarios and restore them (with
// their published messages, time and compare lanes), not just the address.

const ready = { ready: '[data-testid="topology"] .node' };

const name = async (page) => (await page.locator('[data-testid="scenario-name"]').first().textContent()).trim();
const clockText = async (page) => (await page.locator('[data-testid="clock"]').first().textContent()).trim();

async function waitName(page, want, timeout = 15_000) {
  await page.waitForFunction(
    (w) => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() === w,
    want,
    { timeout },
  );
}

async function waitClock(page, want, timeout = 30_000) {
  await page.waitForFunction(
    (w) => document.querySelector('[data-testid="clock"]')?.textContent?.trim() === w,
    want,
    { timeout },
  );
}

/** The form's publishes (bodies order-N) in the event log. */
const MINE = '[data-testid="log-line"][data-kind="published"][data-body^="order-"]';
const published = (page) => page.$$eval(MINE, (els) => els.map((e) => e.dataset.body));
const waitPublished = (page, n) => page.waitForFunction(
  ({ sel, k }) => document.querySelectorAll(sel).length === k, { sel: MINE, k: n });

/** Publishes `n` messages from the form as it is preset (the sandbox's own exchange). */
async function publish(page, n) {
  for (let i = 0; i < n; i++) await page.click('[data-testid="publish-btn"]');
  await waitPublished(page, n);
}

async function jumpTo(page, time) {
  await page.fill('[data-testid="jump-input"]', time);
  await page.click('[data-testid="jump-btn"]');
}

export const tests = [
  {
    name: 'a gallery load over published messages offers Undo, which brings them back',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      const sandbox = await name(page);
      await publish(page, 2);
      await page.click('[data-testid="preset-head-of-line-blocking"]');
      await waitName(page, 'Head-of-line blocking');
      const note = page.locator('[data-testid="undo-note"]');
      await note.waitFor({ timeout: 5_000 });
      assert.match(await note.textContent(), /Head-of-line blocking.*2 things you did/);
      await t.screenshot('undo-note');
      await page.click('[data-testid="undo"]');
      await waitName(page, sandbox);
      await waitPublished(page, 2);
      assert.deepEqual((await published(page)).sort(), ['order-1', 'order-2'], 'the published messages came back');
      assert.equal(await note.count(), 0, 'the note is gone once used');
    },
  },
  {
    name: 'Compare "Side by side" replaced the scenario: Back restores it, Forward the comparison',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      const sandbox = await name(page);
      await publish(page, 1);
      await page.click('[data-testid="compare-live"]');
      await page.waitForSelector('[data-testid="lane-head-of-line-blocking"]');
      await waitName(page, 'Head-of-line blocking');
      await page.locator('[data-testid="undo-note"]').waitFor({ timeout: 5_000 });
      await page.click('[data-testid="play"]'); // pause (it started playing)
      await jumpTo(page, '6:00');
      await waitClock(page, '0:06:00.000');

      await page.goBack();
      await waitName(page, sandbox);
      await waitPublished(page, 1);
      assert.equal(await page.locator('.lane').count(), 0, 'the lanes belong to the other entry');

      await page.goForward();
      await waitName(page, 'Head-of-line blocking');
      await waitClock(page, '0:06:00.000');
      await page.waitForSelector('[data-testid="lane-fix-delayed-plugin"]');
      assert.equal(await page.locator('.lane').count(), 3);
    },
  },
  {
    name: 'Back and Forward between presets restore each one at its time, address and all',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await jumpTo(page, '6:00');
      await waitClock(page, '0:06:00.000');
      await page.click('[data-testid="preset-fix-delayed-plugin"]');
      await page.waitForFunction(() => location.hash === '#fix-delayed-plugin');
      assert.notEqual(await name(page), 'Head-of-line blocking');
      const plugin = await name(page);

      await page.goBack();
      await waitName(page, 'Head-of-line blocking');
      await waitClock(page, '0:06:00.000');
      assert.equal(await page.evaluate(() => location.hash), '#head-of-line-blocking');
      // B is overdue behind A again: the scenario is shown, not just named.
      await page.waitForSelector('[data-testid="queue-order.delay.queue"] [data-testid="overdue-count"]');

      await page.goForward();
      await waitName(page, plugin);
      assert.equal(await clockText(page), '0:00:00.000');
      // No note: nothing of the user's was replaced.
      assert.equal(await page.locator('[data-testid="undo-note"]').count(), 0);
    },
  },
  {
    name: 'an in-page anchor (the skip link) leaves the scenario alone',
    timeout: 30_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await jumpTo(page, '6:00');
      await waitClock(page, '0:06:00.000');
      await page.focus('.skip');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => location.hash === '#main');
      await page.waitForTimeout(300);
      assert.equal(await name(page), 'Head-of-line blocking');
      assert.equal(await clockText(page), '0:06:00.000');
    },
  },
];
