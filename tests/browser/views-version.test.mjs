// Words follow the version (issue 22, item 2) and the log follows the load (item 3a): a
// preset loaded on a version it is not written for, or switched with the selector, says
// what changes for this scenario with the source of each difference (the engine's
// version::impact); the plugin preset on 4.3 is refused at its declaration with 406, as
// `delaylab run --broker 4.3` says; the address keeps the preset and gains the version;
// after one preset then another, the log lists only the new one's objects.
import { hash, logLines, picker, ready, top, waitVersion } from './views-lib.mjs';

export const tests = [
  {
    name: 'the plugin preset on 4.3: 406 unknown exchange type at the declaration, and a notice saying why',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#fix-delayed-plugin@4.3', ready);
      await waitVersion(page, '4.3');
      assert.equal(await hash(page), '#fix-delayed-plugin@4.3');
      // The refusal, where the broker gives it: at the declaration, shown as a refusal.
      const alert = page.locator('[data-testid="alert"]').first();
      await alert.waitFor();
      assert.match(await alert.textContent(), /406/);
      assert.match(await alert.textContent(), /PRECONDITION_FAILED - unknown exchange type 'x-delayed-message'/);
      const lines = await logLines(page);
      const errors = lines.filter((l) => l.kind === 'error');
      assert.ok(errors.some((l) => /unknown exchange type 'x-delayed-message'/.test(l.detail)), JSON.stringify(errors));
      assert.ok(!lines.some((l) => l.kind === 'exchange_declared' && /order\.delayed\.exchange/.test(l.place)),
        'the delayed exchange is never declared on 4.3');
      assert.equal(await page.locator('.node.delayed-x').count(), 0);
      // The notice: written for 3.10-4.2, what changes on 4.3, with its row and source.
      const notice = page.locator('[data-testid="version-notice"]');
      assert.match(await notice.textContent(), /written for RabbitMQ 4\.2; it runs on RabbitMQ 4\.3/);
      const item = notice.locator('[data-testid="notice-item"][data-row="D27"]');
      assert.match(await item.textContent(), /order\.delayed\.exchange: the delayed-message plugin cannot run on RabbitMQ 4\.3/);
      assert.match(await item.textContent(), /D27 · source: RN 4\.3\.0/);
      assert.match(await page.locator('[data-testid="written-for"]').textContent(), /3\.10–4\.2/);
      // The Publish form names the exchange the scenario publishes to, not declared here
      // (it went blank: a select whose value is not among its options).
      const chosen = () => page.$eval('[data-testid="pub-exchange"]', (s) => s.selectedOptions[0]?.textContent ?? '');
      assert.equal(await chosen(), 'order.delayed.exchange (not declared)');
      // In Chinese.
      await page.click('[data-testid="lang-zh"]');
      assert.match(await notice.textContent(), /这个场景是为 RabbitMQ 4\.2 写的/);
      assert.match(await item.textContent(), /延迟消息插件无法在 RabbitMQ 4\.3 上运行/);
      assert.equal(await chosen(), 'order.delayed.exchange (未声明)');
      await top(page);
    },
  },
  {
    name: 'switching the selector keeps the preset in the address with its version and says what changes',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#poison-message-3-10-vs-4-0', ready);
      await waitVersion(page, '4.0');
      assert.equal(await hash(page), '#poison-message-3-10-vs-4-0');
      await page.selectOption(picker, '4.3');
      await page.waitForFunction(() => window.location.hash === '#poison-message-3-10-vs-4-0@4.3');
      const notice = page.locator('[data-testid="version-notice"]');
      assert.match(await notice.textContent(), /Switched from RabbitMQ 4\.0 to RabbitMQ 4\.3/);
      assert.match(await notice.locator('[data-row="D9"]').textContent(),
        /orders\.work: basic\.nack requeue=true no longer counts toward the delivery limit/);
      await page.selectOption(picker, '3.10');
      await page.waitForFunction(() => window.location.hash === '#poison-message-3-10-vs-4-0@3.10');
      assert.match(await notice.locator('[data-row="D8"]').textContent(), /orders\.work: delivery limit none \(was 20\)/);
      // Back to its own version: its own address, and the notice says what the switch did.
      await page.selectOption(picker, '4.0');
      await page.waitForFunction(() => window.location.hash === '#poison-message-3-10-vs-4-0');
      // A preset opened from its address on a version it is not written for (the 3.x
      // requeue lesson on 4.3) says so, and what changes there.
      await page.goto('about:blank');
      await t.goto('#quorum-vs-classic-requeue@4.3', ready);
      await waitVersion(page, '4.3');
      const off = page.locator('[data-testid="version-notice"]');
      assert.match(await off.textContent(), /written for RabbitMQ 3\.13; it runs on RabbitMQ 4\.3/);
      assert.match(await off.locator('[data-row="D8"]').textContent(), /task\.quorum\.queue: delivery limit 20 \(was none\)/);
      assert.match(await off.locator('[data-row="D12"]').textContent(), /goes to the front/);
      await top(page);
    },
  },
  {
    name: 'a preset loaded after another: the log lists only the new scenario\'s objects, on 3.10 and on 4.3',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await page.waitForSelector('[data-testid="log-line"][data-kind="queue_declared"]');
      await page.click('[data-testid="preset-fix-delayed-plugin"]');
      await page.waitForSelector('[data-testid="node-x:order.delayed.exchange"]');
      await page.waitForTimeout(200);
      const names = (lines, kind) => lines.filter((l) => l.kind === kind).map((l) => l.place.trim()).sort();
      let lines = await logLines(page);
      assert.deepEqual(names(lines, 'exchange_declared'), ['order.delayed.exchange']);
      assert.deepEqual(names(lines, 'queue_declared'), ['order.close.queue']);
      assert.ok(!lines.some((l) => /order\.delay\.queue|order\.dlx/.test(l.text)), 'nothing of head-of-line-blocking');
      // Switched to 4.3: the declaration is refused; no line says it was declared.
      await page.selectOption(picker, '4.3');
      await page.waitForSelector('[data-testid="log-line"][data-kind="error"]');
      lines = await logLines(page);
      assert.deepEqual(names(lines, 'exchange_declared'), []);
      assert.deepEqual(names(lines, 'queue_declared'), ['order.close.queue']);
      // Words, not JSON, for every kind; labels whole.
      assert.ok(lines.every((l) => !/[{}]/.test(l.detail)), JSON.stringify(lines.map((l) => l.detail)));
      await top(page);
    },
  },
];
