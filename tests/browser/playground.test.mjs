// The playground: presets, clock, head-of-line blocking, the publish form, the language
// switch. Screenshots of every test (desktop and phone) are written by the runner to
// tests/artifacts/playground--<test>--{desktop,phone}.png.
import { openStory } from './views-lib.mjs';

const ready = { ready: '[data-testid="topology"] .node' };

// Full-page screenshots are taken after each test: start them from the top.
const top = (t) => t.page.evaluate(() => window.scrollTo(0, 0));

async function jumpTo(t, time) {
  const { page } = t;
  await page.fill('[data-testid="jump-input"]', time);
  await page.click('[data-testid="jump-btn"]');
}

async function waitClock(t, text, timeout = 30_000) {
  await t.page.waitForFunction(
    (want) => document.querySelector('[data-testid="clock"]')?.textContent?.trim() === want,
    text,
    { timeout },
  );
}

/** The log lines of one kind for one body, as text (waits for the first one). */
async function logLines(t, kind, body) {
  await t.page.waitForSelector(`[data-testid="log-line"][data-kind="${kind}"][data-body="${body}"]`, { timeout: 10_000 });
  return t.page.$$eval(
    `[data-testid="log-line"][data-kind="${kind}"]`,
    (els, b) => els.filter((e) => e.dataset.body === b).map((e) => e.textContent),
    body,
  );
}

export const tests = [
  {
    name: 'loads with every panel and the gallery',
    async run(t) {
      await t.goto('', ready);
      const { page, assert } = t;
      assert.equal((await page.locator('h1').first().textContent())?.trim(), 'delaylab');
      for (const id of ['clock', 'play', 'step', 'restart', 'speed-slider', 'jump-input', 'topology',
        'publish', 'inspector', 'lateness', 'log', 'watch']) {
        assert.ok(await page.locator(`[data-testid="${id}"]`).count() > 0, `missing ${id}`);
      }
      assert.equal((await page.locator('[data-testid="clock"]').textContent())?.trim(), '0:00:00.000');
      const presets = await page.locator('[data-testid^="preset-"]').count();
      assert.ok(presets >= 17, `only ${presets} presets in the gallery`);
      // The sandbox: a wait queue per delay, each with its TTL and DLX badges.
      assert.match(await page.locator('[data-testid="node-q:order.delay.30m"]').textContent(), /TTL 30m.*DLX/);
      await top(t);
    },
  },
  {
    name: 'head-of-line preset: B overdue, then delivered at 0:30:00.000 not 0:06:00.000',
    timeout: 90_000,
    async run(t) {
      await t.goto('', ready);
      const { page, assert } = t;
      await page.click('[data-testid="preset-head-of-line-blocking"]');
      await page.waitForSelector('[data-testid="node-q:order.delay.queue"]');
      await jumpTo(t, '10:00');
      await waitClock(t, '0:10:00.000');
      // B's TTL has passed at 6:00 but it waits behind A: marked OVERDUE with how late.
      const overdue = page.locator('[data-testid="queue-order.delay.queue"] .chip.overdue');
      assert.equal(await overdue.count(), 1);
      const chipText = await overdue.first().textContent();
      assert.match(chipText, /B/);
      assert.match(chipText, /OVERDUE \+4:00\.0/);
      assert.match(await page.locator('[data-testid="queue-order.delay.queue"] [data-testid="overdue-count"]').textContent(), /1/);

      // Then run at 10,000x to the end (40:00, the scenario's until).
      await page.click('[data-testid="speed-10000"]');
      await page.click('[data-testid="play"]');
      await waitClock(t, '0:40:00.000', 60_000);
      const b = await logLines(t, 'delivered', 'B');
      assert.equal(b.length, 1, `B deliveries: ${JSON.stringify(b)}`);
      assert.match(b[0], /^0:30:00\.000/);
      assert.doesNotMatch(b[0], /0:06:00\.000/);
      assert.match(b[0], /late 0:24:00\.000/);

      // Inspector: B's path and its x-death header.
      await openStory(page, '[data-testid="log-line"][data-kind="delivered"][data-body="B"]');
      const steps = await page.locator('[data-testid="inspector-step"]').allTextContents();
      assert.ok(steps.some((s) => /0:30:00\.000.*delivered/.test(s)), steps.join('\n'));
      assert.ok(steps.some((s) => /0:01:00\.000.*published/.test(s)), steps.join('\n'));
      const headers = await page.locator('[data-testid="delivered-headers"]').textContent();
      assert.match(headers, /x-death/);
      assert.match(headers, /"original-expiration": "300000"/);
      // Lateness: max 24 min.
      assert.equal((await page.locator('[data-testid="late-max"]').textContent()).trim(), '24:00.0');
      await top(t);
    },
  },
  {
    name: 'publish through the form: expiration 5000 is delivered at +5 s; bad values explained',
    timeout: 60_000,
    async run(t) {
      await t.goto('', ready);
      const { page, assert } = t;
      // The sandbox: order.delay.exchange -[10s]-> order.delay.10s (TTL 10 s, DLX) ->
      // order.dlx.queue -> closer; an expiration of 5000 is the lower TTL.
      await page.selectOption('[data-testid="pub-exchange"]', 'order.delay.exchange');
      await page.fill('[data-testid="pub-rk"]', '10s');
      await page.fill('[data-testid="pub-body"]', 'T1');
      await page.click('[data-testid="quick-5000"]');
      assert.equal(await page.inputValue('[data-testid="pub-expiration"]'), '5000');
      await page.click('[data-testid="publish-btn"]');
      await page.waitForSelector('[data-testid="queue-order.delay.10s"] .chip');
      assert.match(await page.locator('[data-testid="queue-order.delay.10s"] .chip').first().textContent(), /T1/);
      await jumpTo(t, '10s');
      await waitClock(t, '0:00:10.000');
      const d = await logLines(t, 'delivered', 'T1');
      assert.equal(d.length, 1, JSON.stringify(d));
      assert.match(d[0], /^0:00:05\.000/);

      // A bad expiration is refused by the broker (406) and explained in words.
      await page.fill('[data-testid="pub-body"]', 'BAD');
      await page.fill('[data-testid="pub-expiration"]', '-5');
      await page.click('[data-testid="publish-btn"]');
      const alert = page.locator('[data-testid="alert"]').last();
      await alert.waitFor();
      const text = await alert.textContent();
      assert.match(text, /406/);
      assert.match(text, /PRECONDITION_FAILED/);
      assert.match(text, /expiration must be a string of digits/);
      // Bad form input: a clear message, no panic.
      await page.fill('[data-testid="pub-headers"]', '{not json');
      await page.click('[data-testid="publish-btn"]');
      assert.match(await page.locator('[data-testid="form-error"]').textContent(), /JSON/);
      // The plugin (its preset, on 3.10): quick delay fills x-delay for an x-delayed-message
      // exchange.
      await page.fill('[data-testid="pub-headers"]', '');
      await page.fill('[data-testid="pub-expiration"]', '');
      await page.click('[data-testid="preset-fix-delayed-plugin"]');
      await page.waitForSelector('[data-testid="node-x:order.delayed.exchange"]');
      await page.selectOption('[data-testid="pub-exchange"]', 'order.delayed.exchange');
      await page.fill('[data-testid="pub-rk"]', 'order.timeout');
      await page.fill('[data-testid="pub-body"]', 'P1');
      await page.click('[data-testid="quick-30000"]');
      assert.equal(await page.inputValue('[data-testid="pub-xdelay"]'), '30000');
      await page.click('[data-testid="publish-btn"]');
      // In the exchange's store with the preset's A (published at 0:00).
      await page.waitForFunction(() => /P1/.test(document.querySelector('[data-testid="delayed-order.delayed.exchange"]')?.textContent ?? ''));
      assert.equal(await page.locator('[data-testid="messages-delayed"]').textContent(), '2');
      await top(t);
    },
  },
  {
    name: 'language switch: Chinese and back',
    async run(t) {
      await t.goto('', ready);
      const { page, assert } = t;
      await page.click('[data-testid="lang-zh"]');
      assert.equal((await page.locator('#publish-h').textContent()).trim(), '发布消息');
      assert.match(await page.locator('[data-testid="play"]').textContent(), /播放/);
      assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
      await page.click('[data-testid="preset-head-of-line-blocking"]');
      await jumpTo(t, '10:00');
      await waitClock(t, '0:10:00.000');
      assert.match(await page.locator('[data-testid="queue-order.delay.queue"] .chip.overdue').textContent(), /已超时/);
      await top(t);
      await t.screenshot('chinese');
      await page.click('[data-testid="lang-en"]');
      assert.equal((await page.locator('#publish-h').textContent()).trim(), 'Publish');
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      await top(t);
    },
  },
  {
    name: 'a link opens a preset; consumers and the JSON editor',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#fix-delayed-plugin', ready);
      await page.waitForFunction(() => document.querySelector('[data-testid="scenario-name"]')?.textContent.includes('delayed'));
      assert.ok(await page.locator('.node.delayed-x').count() > 0);
      // Add a consumer through the consumers panel.
      await page.click('[data-testid="preset-head-of-line-blocking"]');
      await page.waitForFunction(() => location.hash === '#head-of-line-blocking');
      await page.click('[data-testid="consumers"] summary');
      await page.selectOption('[data-testid="cons-queue"]', 'order.delay.queue');
      await page.click('[data-testid="add-consumer"]');
      await page.waitForSelector('[data-testid="stop-worker-1"]');
      await jumpTo(t, '2:00');
      await waitClock(t, '0:02:00.000');
      // The wait queue now has a consumer: A and B are taken at once (no delay at all).
      const a = await logLines(t, 'delivered', 'A');
      assert.match(a[0], /^0:00:00\.000.*worker-1/);
      // The JSON editor reports a syntax error with its line.
      await page.click('.json-editor summary');
      await page.fill('[data-testid="scenario-json"]', '{\n  "version": 1,\n  "name": }');
      await page.click('[data-testid="json-load"]');
      assert.match(await page.locator('[data-testid="json-error"]').textContent(), /line 3/);
      await top(t);
    },
  },
  {
    name: 'checked against RabbitMQ: the panel, and Export definitions downloads definitions.json',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await page.waitForSelector('[data-testid="node-q:order.delay.queue"]');
      // The badge opens the panel: 14 rules checked live, the plugin rules explained.
      const badge = page.locator('[data-testid="checked-badge"]');
      assert.match(await badge.textContent(), /Checked against a live RabbitMQ 3\.10\.8/);
      assert.equal(await badge.getAttribute('aria-expanded'), 'false');
      assert.equal(await page.locator('[data-testid="checked-panel"]').isVisible(), false);
      await badge.click();
      assert.equal(await badge.getAttribute('aria-expanded'), 'true');
      const panel = page.locator('[data-testid="checked-panel"]');
      await panel.waitFor({ state: 'visible' });
      assert.equal(await page.locator('[data-testid="checked-rules"] > li').count(), 14);
      assert.match(await page.locator('[data-testid="checked-plugin"]').textContent(), /15-21.*Debian/s);
      // Keyboard: Escape closes it and gives focus back to the badge; Enter opens it again.
      await page.locator('[data-testid="checked-close"]').focus();
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'checked-badge');
      await page.keyboard.press('Enter');
      await panel.waitFor({ state: 'visible' });
      // In Chinese too.
      await page.click('[data-testid="lang-zh"]');
      assert.match(await badge.textContent(), /已对照真实的 RabbitMQ 3\.10\.8 验证/);
      assert.match(await page.locator('[data-testid="checked-plugin"]').textContent(), /Debian/);
      await page.click('[data-testid="lang-en"]');
      await top(t);
      await t.screenshot('checked-panel');

      // Export definitions: a download of the current scenario's topology.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click('[data-testid="export-defs"]'),
      ]);
      assert.equal(download.suggestedFilename(), 'definitions.json');
      const file = await download.path();
      const defs = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8'));
      for (const k of ['exchanges', 'queues', 'bindings']) assert.ok(Array.isArray(defs[k]), `no ${k}`);
      assert.equal(defs.rabbit_version, '3.10.8');
      assert.ok(defs.queues.some((q) => q.name === 'order.delay.queue'), JSON.stringify(defs.queues));
      assert.ok(defs.exchanges.length > 0 && defs.bindings.length > 0);
      assert.match(await page.locator('[data-testid="export-note"]').textContent(),
        /rabbitmqctl import_definitions definitions\.json/);
      await top(t);
    },
  },
  {
    name: 'compare mode: lateness of each topology',
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await page.click('[data-testid="compare-run"]');
      const hol = await page.locator('[data-testid="compare-head-of-line-blocking"]').textContent();
      const plugin = await page.locator('[data-testid="compare-fix-delayed-plugin"]').textContent();
      const perTtl = await page.locator('[data-testid="compare-fix-one-queue-per-ttl"]').textContent();
      assert.match(hol, /24:00\.0/); // B is 24 min late behind A
      assert.match(hol, /B 0:30:00\.000/);
      assert.match(plugin, /B 0:06:00\.000/);
      assert.doesNotMatch(plugin, /⚠/);
      assert.match(perTtl, /B 0:06:00\.000/);
      await page.locator('[data-testid="compare"]').scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'reduced motion: no flying chips',
    async run(t) {
      const { page, assert } = t;
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await t.goto('', ready);
      await page.fill('[data-testid="pub-body"]', 'calm');
      await page.click('[data-testid="publish-btn"]');
      await page.waitForSelector('[data-testid="log-line"][data-kind="published"][data-body="calm"]');
      assert.equal(await page.locator('.flights g').count(), 0);
    },
  },
  {
    name: 'phone width: panels stack, nothing scrolls sideways',
    async run(t) {
      const { page, assert } = t;
      await page.setViewportSize({ width: 390, height: 844 });
      await t.goto('', ready);
      await page.click('[data-testid="preset-head-of-line-blocking"]');
      await jumpTo(t, '10:00');
      await waitClock(t, '0:10:00.000');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
      const topo = await page.locator('.area-topo').boundingBox();
      const pub = await page.locator('[data-testid="publish"]').boundingBox();
      assert.ok(topo.width <= 390 && pub.width <= 390, 'panels fit the phone width');
      assert.ok(pub.y > topo.y, 'panels stack');
    },
  },
];
