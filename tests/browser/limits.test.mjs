// No run that never ends (issue 16): a consumer that requeues at the same instant forever
// stops the run with the engine's named limit, and the playground says why next to the
// clock instead of freezing at 0:00 with nothing said.
const LOOP = {
  version: 1,
  name: 'requeue loop',
  until: '10s',
  topology: { queues: [{ name: 'work' }] },
  consumers: [{ name: 'looper', queue: 'work', ack: 'manual', outcome: 'requeue' }],
  actions: [{ at: '0s', publish: { exchange: '', routing_key: 'work', body: 'poison' } }],
};

export const tests = [
  {
    name: 'a same-instant requeue loop stops with the named limit, said next to the clock',
    async run(t) {
      const { page, assert } = t;
      await t.goto('', { ready: '[data-testid="app"]' });
      await page.locator('.json-editor summary').click();
      await page.fill('[data-testid="scenario-json"]', JSON.stringify(LOOP, null, 1));
      await page.click('[data-testid="json-load"]');
      await page.waitForFunction(() => /requeue loop/.test(document.querySelector('[data-testid="scenario-name"]')?.textContent ?? ''));
      await page.click('[data-testid="step"]');
      await page.waitForFunction(() => /requeue loop: consumer 'looper'/.test(document.querySelector('[data-testid="status"]')?.textContent ?? ''), null, { timeout: 20_000 });
      const status = await page.locator('[data-testid="status"]').textContent();
      assert.match(status, /A real broker loops too/);
      assert.equal((await page.locator('[data-testid="clock"]').textContent()).trim(), '0:00:00.000');
    },
  },
];
