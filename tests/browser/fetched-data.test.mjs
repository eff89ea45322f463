// Data the page fetches instead of carrying it in the start-up wasm (issue 29 item 10): the
// presets' Chinese texts (zh-texts.json, src/app/zh_fetch.rs) and the field presets' files
// (scenarios/ID.json, src/app/preset_fetch.rs). A Chinese browser gets the texts preloaded
// beside the wasm (boot.js), and a fetch that fails says so in words, with the file's name,
// and keeps the page working: never a blank page or a silent English one.

const HOL_ZH = '队头阻塞';
const HOL_EN = 'Head-of-line blocking';
const holName = (page) => page.locator('[data-testid="preset-head-of-line-blocking"] .preset-name').innerText();
const scenarioName = () => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() ?? '';
/** What Chromium logs for a refused request. */
const REFUSED = [/zh-texts\.json|field-default-delivery-limit\.json/, /Failed to load resource|net::ERR_FAILED|status of 404/i];

/** Records, in the page, when the app took the first paint over (#first-paint removed). */
const RECORD_MOUNT = () => {
  let seen = false;
  new MutationObserver((_, obs) => {
    if (document.getElementById('first-paint')) seen = true;
    else if (seen) {
      window.__mountedAt = performance.now();
      obs.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
};

export const tests = [
  {
    name: 'a Chinese browser: the texts are fetched once, started before the mount, and the gallery shows Chinese names',
    locale: 'zh-CN',
    async run(t) {
      const { page, assert } = t;
      const asked = [];
      page.on('request', (r) => { if (r.url().endsWith('/zh-texts.json')) asked.push(r.url()); });
      await page.addInitScript(RECORD_MOUNT);
      await t.goto('', { ready: '[data-testid="preset-head-of-line-blocking"]' });
      await page.waitForFunction((want) => document.querySelector('[data-testid="preset-head-of-line-blocking"] .preset-name')?.textContent === want, HOL_ZH);
      assert.equal(asked.length, 1, `zh-texts.json requested ${asked.length} times`);
      const [started, mounted] = await page.evaluate(() => [
        performance.getEntriesByType('resource').find((e) => e.name.endsWith('/zh-texts.json'))?.startTime,
        window.__mountedAt,
      ]);
      assert.ok(started !== undefined, 'no resource timing for zh-texts.json');
      assert.ok(mounted !== undefined, 'the mount was not seen');
      assert.ok(started < mounted, `zh-texts.json asked at ${started} ms, after the mount at ${mounted} ms (not preloaded)`);
    },
  },
  {
    name: 'an English browser does not preload the Chinese texts (they come when the page is idle)',
    async run(t) {
      const { page, assert } = t;
      await t.goto('', { ready: '[data-testid="preset-head-of-line-blocking"]' });
      assert.equal(await holName(page), HOL_EN);
      assert.equal(await page.locator('link[rel="preload"][href="zh-texts.json"]').count(), 0);
    },
  },
  {
    name: 'zh-texts.json cannot be fetched: the Chinese page says so and shows the English names',
    locale: 'zh-CN',
    allowConsole: REFUSED,
    async run(t) {
      const { page, assert } = t;
      await page.route(/\/zh-texts\.json$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
      await t.goto('#head-of-line-blocking', { ready: '[data-testid="topology"] .node' });
      const error = page.locator('.gallery [role="alert"]');
      await error.waitFor();
      const text = await error.innerText();
      assert.match(text, /场景的中文文本未能加载/);
      assert.match(text, /zh-texts\.json/);
      assert.match(text, /404/);
      assert.equal(await holName(page), HOL_EN);
      // The page works: the scenario is there, in the UI's Chinese.
      assert.equal(await page.evaluate(scenarioName), HOL_EN);
    },
  },
  {
    name: 'a field preset whose file cannot be fetched: the error names it and the scenario shown stays',
    allowConsole: REFUSED,
    async run(t) {
      const { page, assert } = t;
      await page.route(/\/scenarios\/field-default-delivery-limit\.json$/, (route) => route.abort('failed'));
      await t.goto('#head-of-line-blocking', { ready: '[data-testid="topology"] .node' });
      await page.waitForFunction((want) => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() === want, HOL_EN);
      await page.evaluate(() => { location.hash = '#field-default-delivery-limit'; });
      const error = page.locator('.gallery [role="alert"]');
      await error.waitFor();
      assert.match(await error.innerText(), /field-default-delivery-limit: the scenario could not be loaded: scenarios\/field-default-delivery-limit\.json/);
      assert.equal(await page.evaluate(scenarioName), HOL_EN);
      // Once the file can be fetched, the same link opens it.
      await page.unroute(/\/scenarios\/field-default-delivery-limit\.json$/);
      await page.evaluate(() => { location.hash = '#head-of-line-blocking'; });
      await page.evaluate(() => { location.hash = '#field-default-delivery-limit'; });
      await page.waitForFunction((was) => {
        const n = document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim();
        return n && n !== was;
      }, HOL_EN, { timeout: 30_000 });
    },
  },
];
