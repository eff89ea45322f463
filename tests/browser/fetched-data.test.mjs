// Data the page fetches instead of carrying it in the start-up wasm (issue 29 item 10): the
// presets' Chinese texts (zh-texts.json, src/app/zh_fetch.rs) and the field presets' files
// and the gallery presets below its fold (scenarios/ID.json, src/app/preset_fetch.rs), and
// the UI words' Chinese (zh-texts.json's words). A Chinese browser gets the texts preloaded
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
      // The UI's words come from the same file (their Chinese is not in the start-up wasm):
      // the first screen's (the Play button) and a panel's in a chunk (the Publish form's).
      await page.waitForFunction(() => document.body.innerText.includes('播放'));
      await page.getByRole('heading', { name: '发布消息' }).waitFor({ timeout: 30_000 });
      assert.equal(asked.length, 1, 'the words did not ask for the file again');
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

// A gallery card below the list's fold (issue 29 item 10: only the first screen's presets
// are in the start-up wasm): its file is not downloaded with the page, a click fetches it
// and opens the scenario; a file that cannot be fetched is named, and the scenario shown stays.
const BELOW = 'order-timeout-queue-ttl';
const belowFile = new RegExp(`/scenarios/${BELOW}\\.json$`);
tests.push(
  {
    name: 'a gallery preset below the fold: not downloaded with the page, fetched and opened when its card is clicked',
    async run(t) {
      const { page, assert } = t;
      const asked = [];
      page.on('request', (r) => { if (belowFile.test(new URL(r.url()).pathname)) asked.push(r.url()); });
      await t.goto('#head-of-line-blocking', { ready: '[data-testid="topology"] .node' });
      await page.waitForFunction((want) => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() === want, HOL_EN);
      assert.equal(asked.length, 0, `fetched before it was opened: ${asked.join(', ')}`);
      const card = page.locator(`[data-testid="preset-${BELOW}"]`);
      const name = (await card.locator('.preset-name').innerText()).trim();
      await card.click();
      await page.waitForFunction((want) => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() === want, name, { timeout: 30_000 });
      assert.equal(asked.length, 1, `one download: ${asked.join(', ')}`);
      await page.locator('[data-testid="topology"] .node').first().waitFor();
    },
  },
  {
    name: 'a gallery preset below the fold whose file cannot be fetched: the error names the file and the scenario shown stays',
    allowConsole: [belowFile, /Failed to load resource|net::ERR_FAILED|status of 404/i],
    async run(t) {
      const { page, assert } = t;
      await page.route(belowFile, (route) => route.fulfill({ status: 404, body: 'gone' }));
      await t.goto('#head-of-line-blocking', { ready: '[data-testid="topology"] .node' });
      await page.waitForFunction((want) => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() === want, HOL_EN);
      await page.locator(`[data-testid="preset-${BELOW}"]`).click();
      const error = page.locator('.gallery [role="alert"]');
      await error.waitFor();
      assert.match(await error.innerText(), new RegExp(`${BELOW}: the scenario could not be loaded: scenarios/${BELOW}\\.json`));
      assert.equal(await page.evaluate(scenarioName), HOL_EN);
    },
  },
);
