// What the checks browser tests share (checks-*.test.mjs): a head-of-line scenario with
// checks, and the playground's Jump box, JSON editor and Checks panel as a user drives them.

/** A waits 30 min (at 0:00), B 5 min (at 1:00) in one DLX wait queue: B is stuck behind A. */
export const SCENARIO = {
  version: 1,
  name: 'Checks: head-of-line',
  seed: 7,
  until: '40m',
  topology: {
    exchanges: [{ name: 'order.delay.exchange', type: 'direct' }, { name: 'order.dlx.exchange', type: 'direct' }],
    queues: [
      { name: 'order.delay.queue', arguments: { 'x-dead-letter-exchange': 'order.dlx.exchange', 'x-dead-letter-routing-key': 'order.timeout' } },
      { name: 'order.dlx.queue' },
    ],
    bindings: [
      { source: 'order.delay.exchange', destination: 'order.delay.queue', destination_type: 'queue', routing_key: 'order.create' },
      { source: 'order.dlx.exchange', destination: 'order.dlx.queue', destination_type: 'queue', routing_key: 'order.timeout' },
    ],
  },
  consumers: [{ name: 'closer', queue: 'order.dlx.queue', ack: 'manual', prefetch: 10, handle: '100ms', outcome: 'ack' }],
  actions: [
    { at: '0s', publish: { exchange: 'order.delay.exchange', routing_key: 'order.create', body: 'A', properties: { expiration: '1800000' } } },
    { at: '1m', publish: { exchange: 'order.delay.exchange', routing_key: 'order.create', body: 'B', properties: { expiration: '300000' } } },
  ],
  checks: [
    { name: 'b-by-6', label: 'B is closed by 6:00', delivered: { body: 'B', by: '6m' } },
    { name: 'overdue-at-10', label: 'B is overdue behind A at 10:00', depth: { queue: 'order.delay.queue', of: 'overdue', at: '10m', equals: 1 } },
    { name: 'b-late', label: 'B is at most 1 s late', lateness: { body: 'B', at_most: '1s' } },
    { name: 'c-closed', label: 'C is closed', delivered: { body: 'C' } },
  ],
};

export async function jumpTo(page, time) {
  await page.fill('[data-testid="jump-input"]', time);
  await page.click('[data-testid="jump-btn"]');
}

export async function waitClock(page, text, timeout = 30_000) {
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="clock"]')?.textContent?.trim() === want,
    text,
    { timeout },
  );
}

/** Loads `scenario` through the JSON editor, as a user pastes it. */
export async function loadJson(page, scenario) {
  if (!(await page.locator('[data-testid="scenario-json"]').isVisible())) await page.click('#json-h');
  await page.fill('[data-testid="scenario-json"]', JSON.stringify(scenario, null, 1));
  await page.click('[data-testid="json-load"]');
  await page.waitForFunction(
    (name) => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() === name,
    scenario.name,
  );
}

const row = (page, id) => page.locator(`[data-testid="checks"] [data-testid="check"][data-id="${id}"]`);

/** Waits until check `id` has `status`, then gives its row's texts (seen: null unless it failed). */
export async function checkState(page, id, status, timeout = 15_000) {
  await page.waitForSelector(`[data-testid="checks"] [data-testid="check"][data-id="${id}"][data-status="${status}"]`, { timeout });
  const r = row(page, id);
  const text = async (tid) => ((await r.locator(`[data-testid="${tid}"]`).count())
    ? (await r.locator(`[data-testid="${tid}"]`).textContent()).trim() : null);
  return { label: await text('check-label'), state: await text('check-state'), seen: await text('check-seen'),
    expected: await text('check-expected') };
}

/** Every check's (id, status), in the panel's order. */
export const statuses = (page) => page.$$eval('[data-testid="checks"] [data-testid="check"]',
  (els) => els.map((e) => `${e.dataset.id}:${e.dataset.status}`));

/** Waits for the panel to list exactly `want` (["id:status", ...]). */
export async function waitStatuses(page, want, timeout = 15_000) {
  await page.waitForFunction((w) => JSON.stringify([...document.querySelectorAll(
    '[data-testid="checks"] [data-testid="check"]')].map((e) => `${e.dataset.id}:${e.dataset.status}`)) === JSON.stringify(w),
  want, { timeout });
}

/** No sideways scrolling. */
export async function noOverflow(page, assert) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
}
