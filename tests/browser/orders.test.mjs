// The order-timeout lab panel: the naive preset run to its end shows paid orders closed
// by their messages, flagged in their rows, each linking to the message in the inspector.

const ready = { ready: '[data-testid="topology"] .node' };

export const tests = [
  {
    name: 'naive preset: the mistake rows show and link to the message that closed them',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#orders-naive-closes-paid', ready);
      const panel = page.locator('[data-testid="orders-panel"]');
      await panel.waitFor({ state: 'visible' });
      assert.match(await panel.locator('h2').textContent(), /Orders/);
      // Before anything happens: no mistake yet.
      assert.equal(await page.locator('[data-testid="mistake"]').count(), 0);
      await page.fill('[data-testid="jump-input"]', '45:00');
      await page.click('[data-testid="jump-btn"]');
      await page.waitForFunction(
        () => document.querySelector('[data-testid="clock"]')?.textContent?.trim() === '0:45:00.000',
        null,
        { timeout: 30_000 },
      );
      await page.waitForSelector('[data-testid="mistake"]', { timeout: 10_000 });
      const paidClosed = Number((await page.locator('[data-testid="paid-closed"]').textContent()).replace(/\D/g, ''));
      assert.ok(paidClosed > 0, `paid orders closed: ${paidClosed}`);
      assert.equal(await page.locator('[data-testid="mistake"]').count(), paidClosed);
      // The state is written out, not only coloured.
      const row = page.locator('tr.mistake').first();
      assert.match(await row.locator('.state').textContent(), /CLOSED · closed/);
      // The link selects the message that closed it.
      const link = row.locator('[data-testid="mistake-msg"]');
      const id = (await link.textContent()).trim().replace('#', '');
      const order = (await row.locator('td').first().textContent()).trim();
      await link.click();
      const title = page.locator('[data-testid="inspector-title"]');
      await title.waitFor({ state: 'visible' });
      assert.match(await title.textContent(), new RegExp(`#${id}\\s+${order}$`));
      const steps = await page.locator('[data-testid="inspector-step"]').allTextContents();
      assert.ok(steps.some((s) => /order closed.*mistake true/.test(s)), steps.join('\n'));
      // Chinese labels too.
      await page.click('[data-testid="lang-zh"]');
      assert.match(await panel.locator('h2').textContent(), /订单/);
      assert.match(await row.locator('.state').textContent(), /CLOSED · 已关闭/);
      await page.click('[data-testid="lang-en"]');
      await panel.scrollIntoViewIfNeeded();
      await t.screenshot('orders-naive');
    },
  },
  {
    name: 'a scenario without orders has no orders panel',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await page.waitForSelector('[data-testid="node-q:order.delay.queue"]');
      assert.equal(await page.locator('[data-testid="orders-panel"]').count(), 0);
    },
  },
];
