// Editing the topology (src/app/edit*.rs): a queue added through the form appears in the
// topology and the JSON editor; a bad argument shows RabbitMQ's 406 text at its field
// and changes nothing; a binding is deleted; the gallery speaks Chinese (presets_zh.rs).

const ready = { ready: '[data-testid="topology"] .node' };
const top = (t) => t.page.evaluate(() => window.scrollTo(0, 0));

async function openEditor(t) {
  const { page } = t;
  await page.click('[data-testid="edit-open"]');
  await t.partsReady(); // the editor's forms are a chunk fetched on the first opening
  await page.click('[data-testid="edit-queue-open"]');
}

export const tests = [
  {
    name: 'add a queue with x-message-ttl: it is in the topology and the JSON',
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await openEditor(t);
      await page.fill('[data-testid="q-name"]', 'wait.10s.queue');
      await page.fill('[data-testid="q-x-message-ttl"]', '10000');
      await page.fill('[data-testid="q-x-dead-letter-exchange"]', 'order.dlx.exchange');
      await page.click('[data-testid="edit-queue-add"]');
      await page.waitForSelector('[data-testid="node-q:wait.10s.queue"]');
      assert.match(await page.locator('[data-testid="node-q:wait.10s.queue"]').textContent(), /10/);
      assert.equal(await page.locator('[data-testid="edit-error"]').count(), 0);
      assert.match(await page.locator('[data-testid="edit-queues"]').textContent(), /wait\.10s\.queue/);
      // The edit is the scenario's input: the JSON editor holds it, the clock restarted.
      await page.click('.json-editor summary');
      const json = JSON.parse(await page.locator('[data-testid="scenario-json"]').inputValue());
      const q = json.topology.queues.find((x) => x.name === 'wait.10s.queue');
      assert.ok(q, 'the new queue is in the scenario JSON');
      assert.equal(q.arguments['x-message-ttl'], 10000);
      assert.equal((await page.locator('[data-testid="clock"]').textContent()).trim(), '0:00:00.000');
      // Declaring the same queue again is RabbitMQ's no-op.
      await page.click('[data-testid="edit-queue-add"]');
      await page.waitForFunction(() => /Already there|已存在/.test(document.querySelector('[data-testid="edit-queue-form"] [data-testid="edit-ok"]')?.textContent || ''));
      // The same name with another TTL: RabbitMQ's inequivalent arg, explained as such (the
      // engine's refusal cause, not the reply text).
      await page.fill('[data-testid="q-x-message-ttl"]', '5000');
      await page.click('[data-testid="edit-queue-add"]');
      const err = page.locator('[data-testid="edit-queue-form"] [data-testid="edit-error"]');
      await err.waitFor();
      assert.match(await err.textContent(), /406 PRECONDITION_FAILED - inequivalent arg 'x-message-ttl' for queue 'wait\.10s\.queue'/);
      assert.match(await err.locator('.alert-explain').textContent(), /already exists with other properties/);
      await top(t);
      await t.screenshot('queue-added');
    },
  },
  {
    name: 'invalid arguments show RabbitMQ\'s 406 next to the field and change nothing',
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await openEditor(t);
      const nodes = await page.locator('[data-testid="topology"] .node').count();
      await page.fill('[data-testid="q-name"]', 'bad.queue');
      await page.fill('[data-testid="q-x-message-ttl"]', '-1');
      await page.click('[data-testid="edit-queue-add"]');
      const err = page.locator('[data-testid="edit-queue-form"] [data-testid="edit-error"]');
      await err.waitFor();
      assert.equal(await err.getAttribute('data-field'), 'x-message-ttl');
      assert.equal(await err.getAttribute('data-code'), '406');
      assert.match(await err.textContent(),
        /406 PRECONDITION_FAILED - invalid arg 'x-message-ttl' for queue 'bad\.queue' in vhost '\/': \{value_negative,-1\}/);
      assert.match(await err.textContent(), /whole number of milliseconds/);
      assert.equal(await page.locator('[data-testid="q-x-message-ttl"]').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.locator('[data-testid="node-q:bad.queue"]').count(), 0);
      assert.equal(await page.locator('[data-testid="topology"] .node').count(), nodes);
      // x-overflow bogus, then quorum + exclusive: each at its own field.
      await page.fill('[data-testid="q-x-message-ttl"]', '');
      await page.fill('[data-testid="q-x-overflow"]', 'bogus');
      await page.click('[data-testid="edit-queue-add"]');
      await page.waitForSelector('[data-testid="edit-error"][data-field="x-overflow"]');
      assert.match(await err.textContent(), /invalid arg 'x-overflow' .*: invalid_overflow/);
      await page.fill('[data-testid="q-x-overflow"]', '');
      await page.selectOption('[data-testid="q-type"]', 'quorum');
      await page.check('[data-testid="q-exclusive"]');
      await page.click('[data-testid="edit-queue-add"]');
      await page.waitForSelector('[data-testid="edit-error"][data-field="exclusive"]');
      assert.match(await err.textContent(), /invalid property 'exclusive-owner' for queue 'bad\.queue'/);
      // In Chinese, the explanation is translated and RabbitMQ's text is not.
      await page.click('[data-testid="lang-zh"]');
      assert.match(await err.textContent(), /仲裁队列/);
      assert.match(await err.textContent(), /PRECONDITION_FAILED/);
      await page.click('[data-testid="lang-en"]');
      await page.locator('[data-testid="edit-queue-form"]').scrollIntoViewIfNeeded();
      await t.screenshot('queue-refused');
    },
  },
  {
    name: 'delete a binding; add one back through the form',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await page.click('[data-testid="edit-open"]');
      await t.partsReady();
      const bindings = page.locator('[data-testid="edit-binding"]');
      const n = await bindings.count();
      assert.ok(n >= 2, `only ${n} bindings listed`);
      const first = (await bindings.first().textContent()).trim();
      const edgeLabels = async () => page.locator('[data-testid="topology"] .edge-labels').textContent();
      const before = await edgeLabels();
      await page.click('[data-testid="del-b-0"]');
      await page.waitForFunction((k) => document.querySelectorAll('[data-testid="edit-binding"]').length === k, n - 1);
      assert.notEqual(await edgeLabels(), before);
      const json = JSON.parse(await page.locator('[data-testid="scenario-json"]').inputValue());
      assert.equal(json.topology.bindings.length, n - 1);
      // A binding to a queue that does not exist: RabbitMQ's 404 at the destination.
      await page.click('[data-testid="edit-binding-open"]');
      await page.fill('[data-testid="b-destination"]', 'no.such.queue');
      await page.click('[data-testid="edit-binding-add"]');
      const err = page.locator('[data-testid="edit-binding-form"] [data-testid="edit-error"]');
      await err.waitFor();
      assert.equal(await err.getAttribute('data-field'), 'destination');
      assert.match(await err.textContent(), /404 NOT_FOUND - no queue 'no\.such\.queue' in vhost '\/'/);
      assert.ok(first.length > 0);
      await top(t);
    },
  },
  {
    name: 'in 中文 the gallery shows Chinese preset names',
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await page.click('[data-testid="lang-zh"]');
      assert.equal((await page.locator('[data-testid="preset-head-of-line-blocking"] .preset-name').textContent()).trim(), '队头阻塞');
      assert.match(await page.locator('[data-testid="preset-fix-delayed-plugin"] .preset-desc').textContent(), /x-delayed-message/);
      assert.match(await page.locator('[data-testid="preset-order-timeout-queue-ttl"] .preset-name').textContent(), /订单超时/);
      await page.click('[data-testid="preset-head-of-line-blocking"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="scenario-name"]')?.textContent.trim() === '队头阻塞');
      assert.match(await page.locator('[data-testid="watch"]').textContent(), /只有队头的消息会过期/);
      assert.equal((await page.locator('[data-testid="edit-open"]').textContent()).trim(), '编辑拓扑');
      await page.click('[data-testid="lang-en"]');
      assert.equal((await page.locator('[data-testid="scenario-name"]').textContent()).trim(), 'Head-of-line blocking');
      await top(t);
    },
  },
];
