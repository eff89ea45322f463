// Lessons per version (issue 29 item 3): a check expected on other versions reads
// "expected on 4.0–4.2 · on 4.3: what this run saw" with the rule that differs, never a
// red failure; a failure check that passed is "the failure, reproduced"; what-to-watch
// on another version says this run's outcome; the selector, badge and topology follow an
// in-scenario upgrade; an upgrade to the running version is a restart in words; compare
// versions says first where the runs part. Desktop and phone, English and Chinese.
import { jumpAndWait, logLines, picker, ready, top, waitVersion } from './views-lib.mjs';

const rows = (page) => page.$$eval('[data-testid="check"]', (rs) => rs.map((r) => ({
  status: r.dataset.status,
  expected: r.dataset.expected,
  failure: r.dataset.failure,
  cls: r.className,
  label: r.querySelector('[data-testid="check-label"]').textContent,
  state: r.querySelector('[data-testid="check-state"]').textContent,
  elsewhere: r.querySelector('[data-testid="check-elsewhere"]')?.textContent ?? null,
  differs: r.querySelector('[data-testid="check-differs"]')?.textContent ?? null,
})));

/** No row is red: a failure only where the check is expected here. */
const red = (rs) => rs.filter((r) => /st-failed/.test(r.cls));

export const tests = [
  {
    name: 'poison message on 4.3: the 4.0 checks are expected elsewhere with the rule that differs; 4.3 loops, reproduced',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#poison-message-3-10-vs-4-0@4.3', ready);
      await waitVersion(page, '4.3');
      await jumpAndWait(page, '0:30', '0:00:30.000');
      await page.locator('[data-testid="checks"]').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => /decided|已判定/.test(document.querySelector('[data-testid="checks-summary"]')?.textContent ?? ''));
      const r = await rows(page);
      assert.deepEqual(red(r), [], JSON.stringify(r, null, 1));
      const first = r.find((x) => x.label === 'The order is delivered 21 times');
      assert.equal(first.expected, 'elsewhere');
      assert.equal(first.elsewhere, 'expected on 4.0–4.2 · on 4.3: saw 31 (0:00:21.000)');
      assert.match(first.differs, /orders\.work: basic\.nack requeue=true no longer counts toward the delivery limit/);
      const loops = r.find((x) => /^On 4\.3 and 4\.4 it loops too/.test(x.label));
      assert.match(loops.cls, /st-reproduced/);
      assert.equal(loops.state, 'the failure, reproduced at 0:00:30.000');
      assert.match(await page.locator('[data-testid="checks-summary"]').textContent(), /2 passed, 5 expected on other versions/);
      await t.axe('checks elsewhere');
      await page.click('[data-testid="lang-zh"]');
      const zh = await rows(page);
      assert.equal(zh[0].elsewhere, '预期适用于 4.0–4.2 · 在 4.3 上:实际为 31(0:00:21.000)');
      assert.equal(zh.find((x) => x.failure === 'true' && /st-reproduced/.test(x.cls)).state.startsWith('问题在'), true);
      await top(page);
    },
  },
  {
    name: 'the plugin on 4.3: checks expected on 3.10–4.2 name the refusal; what to watch says this run refused it',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#fix-delayed-plugin@4.3', ready);
      await waitVersion(page, '4.3');
      await jumpAndWait(page, '40m', '0:40:00.000');
      const r = await rows(page);
      assert.deepEqual(red(r), []);
      assert.ok(r.every((x) => x.expected === 'elsewhere'), JSON.stringify(r));
      assert.match(r[0].elsewhere, /^expected on 3\.10–4\.2 · on 4\.3: saw no such delivery/);
      assert.match(r[0].differs, /order\.delayed\.exchange: the delayed-message plugin cannot run on RabbitMQ 4\.3/);
      assert.match(await page.locator('[data-testid="watch"]').textContent(), /What to watch \(on RabbitMQ 3\.10–4\.2\):/);
      const run = page.locator('[data-testid="this-run"]');
      assert.match(await run.textContent(), /^On RabbitMQ 4\.3, this run so far: nothing delivered · \d+ refused: 406 PRECONDITION_FAILED - unknown exchange type 'x-delayed-message'/);
      await page.click('[data-testid="lang-zh"]');
      assert.match(await run.textContent(), /^在 RabbitMQ 4\.3 上,本次运行到目前为止:没有投递 · \d+ 次被拒绝/);
      await top(page);
    },
  },
  {
    name: 'retry on 4.2: the back-off checks are 4.3\'s; before 4.3 the retries come at once, reproduced; nothing red',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#retry-backoff-4-3@4.2', ready);
      await waitVersion(page, '4.2');
      await jumpAndWait(page, '1m', '0:01:00.000');
      const r = await rows(page);
      assert.deepEqual(red(r), [], JSON.stringify(r, null, 1));
      assert.equal(r.filter((x) => x.expected === 'elsewhere').length, 3);
      const now = r.find((x) => /^Before 4\.3 the queue ignores/.test(x.label));
      assert.equal(now.state, 'the failure, reproduced at 0:00:00.000');
      await top(page);
    },
  },
  {
    name: 'the upgrade preset: at 10:30 the selector and badge say 4.3 and the kept delayed exchange refuses, with the reason',
    timeout: 120_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#upgrade-to-4-3-delayed-orders', ready);
      await waitVersion(page, '4.2');
      await jumpAndWait(page, '10:00', '0:10:00.000');
      assert.equal(await page.locator(picker).inputValue(), '4.2');
      assert.match(await page.locator('[data-testid="checked-badge"]').textContent(), /4\.2/);
      const x = page.locator('[data-testid="node-x:order.delayed.exchange"]');
      assert.doesNotMatch(await x.getAttribute('class'), /refusing/);
      await jumpAndWait(page, '10:31', '0:10:31.000');
      await waitVersion(page, '4.3');
      assert.match(await page.locator('[data-testid="checked-badge"]').textContent(), /4\.3\.6/);
      assert.match(await x.getAttribute('class'), /refusing/);
      assert.match(await x.getAttribute('data-refusing'), /^406 PRECONDITION_FAILED - Cannot route message through exchange 'order\.delayed\.exchange'/);
      assert.match(await x.getAttribute('aria-label'), /refuses every publish: 406/);
      assert.match(await x.textContent(), /✕ refuses every publish: 406/);
      await t.axe('upgrade refusing');
      await page.click('[data-testid="lang-zh"]');
      assert.match(await x.textContent(), /✕ 拒绝所有发布:406/);
      await top(page);
    },
  },
  {
    name: 'the upgrade preset loaded on 4.3: its upgrade is a restart, said as one (never "4.3 → 4.3")',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#upgrade-to-4-3-delayed-orders@4.3', ready);
      await waitVersion(page, '4.3');
      await jumpAndWait(page, '11:00', '0:11:00.000');
      const up = (await logLines(page)).find((l) => l.kind === 'broker_upgraded');
      assert.ok(up, 'an upgrade line');
      assert.equal(up.place.trim(), 'RabbitMQ 4.3');
      assert.doesNotMatch(up.text, /4\.3 → 4\.3/);
      assert.match(up.detail, /restarted on RabbitMQ 4\.3\.6, the version it already runs/);
      await top(page);
    },
  },
  {
    name: 'compare versions: first where the poison message\'s runs part (0:21, dead-lettered on 4.0, requeued on 4.3), then the figures',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#poison-message-3-10-vs-4-0', ready);
      await page.locator('[data-testid="compare"]').scrollIntoViewIfNeeded();
      await page.check('[data-testid="cmp-mode-versions"]');
      await page.waitForSelector('[data-testid="cmp-versions"]');
      await page.selectOption('[data-testid="cmp-version-a"]', '4.0');
      await page.selectOption('[data-testid="cmp-version-b"]', '4.3');
      await page.click('[data-testid="compare-run"]');
      const box = page.locator('[data-testid="parting"]');
      await box.waitFor();
      assert.match(await box.locator('.parting-head').textContent(), /^The runs part at 0:00:21\.000, after \d+ events in common:/);
      const sides = await box.locator('[data-testid="parting-side"]').allTextContents();
      assert.match(sides[0], /^RabbitMQ 4\.0: "poison-order" dead-lettered orders\.work.*delivery_limit/);
      assert.match(sides[1], /^RabbitMQ 4\.3: "poison-order" requeued orders\.work/);
      // Placed first: above the final table.
      const order = await page.evaluate(() => {
        const p = document.querySelector('[data-testid="parting"]');
        const tbl = document.querySelector('.cmp-table');
        return Boolean(p.compareDocumentPosition(tbl) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
      assert.ok(order, 'where they part comes before the figures');
      const outcomes = await page.locator('[data-testid="final-outcome"]').allTextContents();
      assert.deepEqual(outcomes, ['22 delivered (20 redeliveries) · 1 dead-lettered (delivery_limit)', '31 delivered (30 redeliveries)']);
      await t.axe('compare parting');
      await page.click('[data-testid="lang-zh"]');
      assert.match(await box.locator('.parting-head').textContent(), /^两次运行在 0:00:21\.000 分道扬镳/);
      await top(page);
    },
  },
];
