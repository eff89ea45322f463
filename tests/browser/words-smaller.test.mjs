// Issue 29, the smaller list (h-words' part): a preset's text that names another preset
// ("see Retry loop with x-death counts") links to it and loads it; the version notice says
// how a difference is known in words, its row and source code behind a "source" detail
// (it read "(D27 · source: RN 4.3.0 ...)" in the sentence); a message published from the
// form in a preset is named after its own number (it showed "#2 order-3").
import { jumpAndWait, picker, ready, top, waitVersion } from './views-lib.mjs';

export const tests = [
  {
    name: 'what to watch: a named preset is a link that loads it, in English and Chinese',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#dead-letter-cycle', ready);
      const link = page.locator('[data-testid="watch"] [data-testid="preset-link"]');
      assert.equal(await link.count(), 1);
      assert.equal((await link.textContent()).trim(), 'Retry loop with x-death counts');
      assert.equal(await link.getAttribute('data-preset'), 'retry-loop-x-death');
      await t.axe('watch with a preset link');
      await page.click('[data-testid="lang-zh"]');
      const zh = page.locator('[data-testid="watch"] [data-testid="preset-link"]');
      assert.equal(await zh.count(), 1);
      assert.equal(await zh.getAttribute('data-preset'), 'retry-loop-x-death');
      await zh.click();
      await page.waitForFunction(() => window.location.hash.startsWith('#retry-loop-x-death'));
      await page.click('[data-testid="lang-en"]');
      await top(page);
    },
  },
  {
    name: 'the version notice says in words how a difference is known; its row and source are a detail',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#fix-delayed-plugin', ready);
      await waitVersion(page, '3.10');
      await page.selectOption(picker, '4.3');
      await waitVersion(page, '4.3');
      const item = page.locator('[data-testid="version-notice"] [data-testid="notice-item"][data-row="D27"]');
      await item.waitFor();
      const how = item.locator('[data-testid="notice-how"]');
      assert.match(await how.textContent(), /^\((seen on a live RabbitMQ 4\.3\.6|read in RabbitMQ's source and release notes)\)$/);
      // The code is not in the sentence a reader sees; it is one click away.
      assert.doesNotMatch(await item.innerText(), /D27 · source/);
      const detail = item.locator('details.note-src');
      assert.equal(await detail.getAttribute('open'), null);
      await detail.locator('summary').click();
      assert.match(await item.innerText(), /D27 · source: RN 4\.3\.0/);
      await t.axe('notice with a source detail');
      await page.click('[data-testid="lang-zh"]');
      assert.match(await how.textContent(), /真实的 RabbitMQ 4\.3\.6|RabbitMQ 的源码与发布说明/);
      await page.click('[data-testid="lang-en"]');
      await top(page);
    },
  },
  {
    name: 'a publish from the form in a preset is named after its message number (#2 order-2)',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await jumpAndWait(page, '0:30', '0:00:30.000');
      const published = () => page.$$eval('[data-testid="log-line"][data-kind="published"] .m', (els) => els.map((e) => e.textContent.trim()));
      const before = await published();
      assert.equal(before.length, 1, JSON.stringify(before));
      await page.fill('[data-testid="pub-body"]', 'order-{n}');
      await page.click('[data-testid="publish-btn"]');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="log-line"][data-kind="published"]').length === 2);
      const after = await published();
      assert.ok(after.includes('#2 order-2'), JSON.stringify(after));
      await top(page);
    },
  },
];
