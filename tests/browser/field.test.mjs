// The gallery's "From the field" section (issue 28 item 4): each reported failure with its
// project, date and threads, what users saw and the broker rule; "Replay the failure"
// loads it and its checks show the failure reproduced (⚑, not red), "Open the fix" loads
// the fix, whose checks all pass. English and Chinese, desktop and phone.
import { jumpAndWait, ready, top } from './views-lib.mjs';

const field = '[data-testid="field"]';

async function waitName(page, name) {
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() === want,
    name,
    { timeout: 30_000 },
  );
}

/** Every check of the panel as "status/failure/expected". */
const checks = (page) => page.$$eval('[data-testid="checks"] [data-testid="check"]',
  (els) => els.map((e) => `${e.dataset.status}/${e.dataset.failure}/${e.dataset.expected}`));

export const tests = [
  {
    name: 'From the field: every report with its project, date and threads; the replay reproduces the failure (⚑), the fix turns every check green',
    timeout: 120_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await page.waitForSelector(field, { timeout: 30_000 });
      assert.equal((await page.locator(`${field} h2`).textContent()).trim(), 'From the field');
      // The seven reports the issue lists and at least three more, each with a fix.
      const entries = page.locator(`${field} [data-testid^="field-field-"]`);
      assert.ok(await entries.count() >= 10, `entries: ${await entries.count()}`);
      const e = page.locator('[data-testid="field-field-nack-multiple"]');
      assert.match(await e.locator('.field-project').textContent(), /spring-amqp/);
      assert.match(await e.locator('time').getAttribute('datetime'), /^\d{4}-\d{2}(-\d{2})?$/);
      const links = await e.locator('.field-links a').evaluateAll((as) => as.map((a) => a.href));
      assert.ok(links.length > 0 && links.every((h) => h.startsWith('https://github.com/')), links.join(' '));
      assert.match(await e.locator('.field-saw').textContent(), /\S/);
      assert.match(await e.locator('.field-rule').textContent(), /\S/);
      // The failure, replayed on the version the report names: its checks say it happened.
      await e.locator('[data-testid="field-replay-field-nack-multiple"]').click();
      await waitName(page, "From the field: spring-amqp's listener loops forever on 4.3 (basic.nack multiple)");
      await jumpAndWait(page, '0:10.500', '0:00:10.500');
      const failing = await checks(page);
      assert.ok(failing.length >= 3, failing.join(' '));
      // Each check as stated on this version, or one for the other version the report
      // compares (4.2: dead-lettered after four), shown as expected there (◇), not red.
      assert.ok(failing.every((c) => c.startsWith('passed/') || c.endsWith('/elsewhere')), `every check decided as stated: ${failing.join(' ')}`);
      assert.ok(failing.some((c) => c.endsWith('/elsewhere')), `4.2's outcome said apart: ${failing.join(' ')}`);
      assert.ok(failing.some((c) => c === 'passed/true/here'), `the failure reproduced: ${failing.join(' ')}`);
      assert.ok(await page.locator('[data-testid="checks"] .st-reproduced').count() > 0, 'a reproduced failure is marked ⚑, not red');
      assert.equal(await page.locator('[data-testid="checks"] .st-failed').count(), 0, 'nothing red');
      // The fix, one click away: nothing lost, looped or duplicated.
      await page.locator('[data-testid="field-fix-field-nack-multiple"]').click();
      await waitName(page, 'From the field, the fix: reject each failed delivery (spring-amqp)');
      await jumpAndWait(page, '0:10.500', '0:00:10.500');
      const fixed = await checks(page);
      assert.ok(fixed.length > 0 && fixed.every((c) => c === 'passed/false/here'), fixed.join(' '));
      await top(page);
    },
  },
  {
    name: 'From the field in Chinese, on a phone: head-of-line as reported, and its fix',
    timeout: 120_000,
    async run(t) {
      const { page, assert } = t;
      await page.setViewportSize({ width: 390, height: 844 });
      await t.goto('', ready);
      await page.click('[data-testid="lang-zh"]');
      await page.waitForSelector(field, { timeout: 30_000 });
      assert.equal((await page.locator(`${field} h2`).textContent()).trim(), '来自现场');
      const e = page.locator('[data-testid="field-field-head-of-line"]');
      await e.scrollIntoViewIfNeeded();
      assert.equal((await e.locator('[data-testid="field-replay-field-head-of-line"]').textContent()).trim(), '重放这次故障');
      await t.axe('the field section, in Chinese');
      const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(over <= 1, `nothing scrolls sideways (${over}px)`);
      await e.locator('[data-testid="field-replay-field-head-of-line"]').click();
      await page.waitForFunction(() => /order\.wait/.test(document.querySelector('[data-testid="topology"]')?.textContent ?? ''));
      await jumpAndWait(page, '65m', '1:05:00.000');
      const failing = await checks(page);
      assert.ok(failing.some((c) => c === 'passed/true/here'), failing.join(' '));
      assert.equal(await page.locator('[data-testid="checks"] .st-failed').count(), 0, 'nothing red');
      await page.locator('[data-testid="field-fix-field-head-of-line"]').click();
      await page.waitForFunction(() => /order\.wait\.30m/.test(document.querySelector('[data-testid="topology"]')?.textContent ?? ''));
      await jumpAndWait(page, '65m', '1:05:00.000');
      const fixed = await checks(page);
      assert.ok(fixed.length > 0 && fixed.every((c) => c === 'passed/false/here'), fixed.join(' '));
      await page.click('[data-testid="lang-en"]');
      await page.setViewportSize({ width: 1440, height: 900 });
      await top(page);
    },
  },
];
