// Smoke test: the app loads, mounts, shows "delaylab" and logs no errors
// (the runner fails any test whose page logs a console error or page error).
export const tests = [
  {
    name: 'app loads and shows delaylab',
    async run(t) {
      await t.goto('', { ready: '[data-testid="app"]' });
      const title = await t.page.locator('h1').first().textContent();
      t.assert.equal(title?.trim(), 'delaylab');
      t.assert.equal(await t.page.title(), 'delaylab');
      const version = await t.page.locator('[data-testid="version"]').textContent();
      t.assert.match(version ?? '', /^v\d+\.\d+\.\d+/);
    },
  },
  {
    name: 'readable on a phone',
    async run(t) {
      await t.page.setViewportSize({ width: 390, height: 844 });
      await t.goto('', { ready: '[data-testid="app"]' });
      const box = await t.page.locator('h1').first().boundingBox();
      t.assert.ok(box && box.width > 0 && box.x >= 0 && box.x + box.width <= 390, `h1 box ${JSON.stringify(box)}`);
      const overflow = await t.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      t.assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
    },
  },
];
