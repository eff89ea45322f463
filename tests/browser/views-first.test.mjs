// A 4.x user's first visit (issue 22, item 1): a fresh visit opens on the newest version
// checked against a live broker (4.3) with a sandbox that works there (a wait queue per
// delay with DLX), the plugin offered as a comparison where it runs, the header saying
// what the tool does on every version, and the publish control next to what to watch,
// above the fold at 1440x900. Old links keep meaning 3.10.
import { hash, jumpAndWait, picker, ready, top, waitVersion } from './views-lib.mjs';

export const tests = [
  {
    name: 'a fresh visit opens the sandbox on RabbitMQ 4.3 with a wait queue per delay and no plugin box',
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      assert.equal(await page.locator(picker).inputValue(), '4.3', 'the newest live-checked version');
      assert.equal(await hash(page), '', 'a fresh visit keeps a bare address');
      for (const q of ['order.delay.30m', 'order.delay.5m', 'order.delay.10s', 'order.dlx.queue']) {
        assert.equal(await page.locator(`[data-testid="node-q:${q}"]`).count(), 1, `no queue ${q}`);
      }
      assert.equal(await page.locator('.node.delayed-x').count(), 0, 'no x-delayed-message box on 4.3');
      assert.equal(await page.locator('[data-testid="alert"]').count(), 0, 'nothing refused: it works on 4.3');
      // The header says what the tool does, true on every version.
      const tagline = await page.locator('.tagline').textContent();
      assert.match(tagline, /3\.10 to 4\.4/);
      // The texts do not send a 4.3 user to the plugin; the comparison says where it runs.
      const texts = `${await page.locator('[data-testid="scenario-name"]').textContent()} ${await page.locator('.watch .desc').textContent()} ${await page.locator('[data-testid="watch"]').textContent()}`;
      assert.doesNotMatch(texts, /plugin|x-delayed/i, texts);
      const compare = page.locator('[data-testid="plugin-compare"]');
      assert.match(await compare.textContent(), /cannot run on RabbitMQ 4\.3.*RabbitMQ 4\.2/);
      await compare.click();
      await waitVersion(page, '4.2');
      assert.match(await page.locator('[data-testid="scenario-name"]').textContent(), /delayed-message exchange plugin/);
      assert.equal(await hash(page), '#fix-delayed-plugin@4.2');
      // The same page in Chinese.
      await page.click('[data-testid="preset-sandbox"]');
      await waitVersion(page, '4.3');
      await page.click('[data-testid="lang-zh"]');
      assert.match(await page.locator('[data-testid="plugin-compare"]').textContent(), /无法在 RabbitMQ 4\.3 上运行/);
      assert.match(await page.locator('[data-testid="scenario-name"]').textContent(), /每个延迟一个等待队列/);
      await top(page);
    },
  },
  {
    name: 'what to watch and its publish buttons are above the fold; the three orders leave on time',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      const watch = await page.locator('[data-testid="watch"]').boundingBox();
      const button = await page.locator('[data-testid="quick-publish-30m"]').boundingBox();
      assert.ok(watch && button, 'what to watch and its buttons are drawn');
      assert.ok(button.y + button.height <= 900, `the publish button ends at ${button.y + button.height} px`);
      assert.ok(Math.abs(button.y - (watch.y + watch.height)) < 80, 'the buttons sit under what to watch');
      for (const k of ['30m', '5m', '10s']) await page.click(`[data-testid="quick-publish-${k}"]`);
      await page.waitForSelector('[data-testid="queue-order.delay.30m"] .chip');
      await jumpAndWait(page, '31:00', '0:31:00.000');
      await page.waitForFunction(() => document.querySelector('[data-testid="late-count"]')?.textContent === '3');
      assert.equal(await page.locator('[data-testid="late-max"]').textContent(), '0:00.0', 'each on time');
      // Phone: the buttons are there too, under what to watch, in Chinese.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.click('[data-testid="lang-zh"]');
      assert.match(await page.locator('.quick-publish').textContent(), /发布一条订单/);
      assert.ok(await page.locator('[data-testid="quick-publish-10s"]').isVisible());
      await page.setViewportSize({ width: 1440, height: 900 });
      await top(page);
    },
  },
  {
    name: 'old links keep their meaning: a preset without broker opens on 3.10 at its own address',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await waitVersion(page, '3.10');
      assert.equal(await hash(page), '#head-of-line-blocking');
      assert.equal(await page.locator('[data-testid="version-notice"]').count(), 0, 'written for 3.10, on 3.10');
      // And the sandbox on 3.10 is a link of its own (a new document: a fragment change
      // alone is not a load).
      await page.goto('about:blank');
      await t.goto('#sandbox@3.10', ready);
      await waitVersion(page, '3.10');
      assert.equal(await hash(page), '#sandbox@3.10');
      await top(page);
    },
  },
];
