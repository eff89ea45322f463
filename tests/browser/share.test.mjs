// Share links and autosave (issue 4, parts 1-4): "Copy link" opens the same deliveries in
// a fresh browser; names and bodies from a link are text, never HTML; broken links say
// what is wrong and "Start fresh" recovers; a read-only link hides the editing controls;
// the current scenario survives a reload, "Reset" forgets it.
import { openStory } from './views-lib.mjs';

const ready = { ready: '[data-testid="topology"] .node' };
const HOSTILE = '<img src=x onerror=window.__pwned=1>';

const top = (t) => t.page.evaluate(() => window.scrollTo(0, 0));

async function jumpTo(page, time) {
  await page.fill('[data-testid="jump-input"]', time);
  await page.click('[data-testid="jump-btn"]');
}

async function waitClock(page, text, timeout = 30_000) {
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="clock"]')?.textContent?.trim() === want,
    text,
    { timeout },
  );
}

/** The delivered log lines as shown (time, message, place). */
const deliveries = (page) =>
  page.$$eval('[data-testid="log-line"][data-kind="delivered"]', (els) => els.map((e) => e.textContent.trim()));

/** Clicks "Copy link" and returns the link from the read-only field. */
async function copyLink(page) {
  await page.click('[data-testid="copy-link"]');
  const field = page.locator('[data-testid="share-link"]');
  await field.waitFor();
  return field.inputValue();
}

/**
 * Opens `url` in a fresh browser context (no localStorage, no clipboard), runs
 * `check(page)`, and fails on any console error there.
 */
async function inFreshBrowser(t, url, check) {
  const ctx = await t.page.context().browser().newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await ctx.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector(ready.ready, { timeout: 30_000 });
    await t.partsReady(page);
    await check(page);
    t.assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
}

/** Loads `scenario` through the JSON editor (as a user would paste it). */
async function loadJson(page, scenario) {
  await page.click('#json-h');
  await page.fill('[data-testid="scenario-json"]', JSON.stringify(scenario, null, 1));
  await page.click('[data-testid="json-load"]');
  await page.waitForFunction(
    (name) => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() === name,
    scenario.name,
  );
}

const hostile = {
  version: 1,
  name: `Hostile ${HOSTILE}`,
  description: `A queue named ${HOSTILE}`,
  seed: 1,
  topology: {
    exchanges: [],
    queues: [{ name: HOSTILE }],
    bindings: [],
  },
  consumers: [{ name: `c ${HOSTILE}`, queue: HOSTILE, ack: 'auto', prefetch: 0, handle: '0ms', outcome: 'ack' }],
  actions: [{ at: '1s', publish: { exchange: '', routing_key: HOSTILE, body: `body ${HOSTILE}` } }],
};

export const tests = [
  {
    name: 'copy link, open it in a new browser: same scenario, same deliveries',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(t.baseUrl).origin });
      await t.goto('#head-of-line-blocking', ready);
      await jumpTo(page, '40:00');
      await waitClock(page, '0:40:00.000');
      await page.waitForSelector('[data-testid="log-line"][data-kind="delivered"][data-body="B"]');
      const here = await deliveries(page);
      assert.equal(here.length, 2, here.join('\n'));
      assert.match(here.find((l) => /#2 B/.test(l)), /^0:30:00\.000/);

      const link = await copyLink(page);
      assert.ok(link.startsWith(`${t.baseUrl}#v1.`), link);
      assert.ok(link.length <= 400, `${link.length} characters`);
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
      assert.match(await page.locator('[data-testid="share-status"]').textContent(), /copied/i);

      await inFreshBrowser(t, link, async (p) => {
        // The link carries the time the sharer looked at: the new page runs there itself.
        await waitClock(p, '0:40:00.000');
        await p.waitForSelector('[data-testid="log-line"][data-kind="delivered"][data-body="B"]');
        assert.deepEqual(await deliveries(p), here);
        assert.equal((await p.locator('[data-testid="scenario-name"]').textContent()).trim(), 'Head-of-line blocking');
        assert.equal((await p.locator('[data-testid="late-max"]').textContent()).trim(), '24:00.0');
      });
      await top(t);
    },
  },
  {
    name: 'view options travel: speed, language and a read-only view without editing controls',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#fix-delayed-plugin', ready);
      await page.click('[data-testid="speed-100"]');
      await page.click('[data-testid="lang-zh"]');
      await page.check('[data-testid="link-read-only"]');
      const link = await copyLink(page);
      await inFreshBrowser(t, link, async (p) => {
        assert.equal((await p.locator('[data-testid="speed-value"]').textContent()).trim(), '100x');
        assert.equal(await p.evaluate(() => document.documentElement.lang), 'zh-CN');
        await p.waitForSelector('[data-testid="read-only"]');
        assert.equal(await p.locator('[data-testid="publish"]').isVisible(), false);
        assert.equal(await p.locator('[data-testid="scenario-json"]').isVisible(), false);
        assert.equal(await p.locator('[data-testid="add-consumer"]').isVisible(), false);
        for (const stop of await p.locator('[data-testid^="stop-"]').all()) {
          assert.equal(await stop.isVisible(), false);
        }
        // Watching still works.
        await jumpTo(p, '40:00');
        await waitClock(p, '0:40:00.000');
        // The log is redrawn the frame after the clock arrives (Refresh::log_due).
        await p.waitForSelector('[data-testid="log-line"][data-kind="delivered"]');
        assert.ok((await deliveries(p)).length > 0);
      });
      await page.click('[data-testid="lang-en"]');
      await top(t);
    },
  },
  {
    name: 'names and bodies from a link are text: a hostile queue name and body run nothing',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      await loadJson(page, hostile);
      const link = await copyLink(page);
      await inFreshBrowser(t, link, async (p) => {
        await p.waitForFunction(
          (want) => document.querySelector('[data-testid="scenario-name"]')?.textContent?.includes(want),
          HOSTILE,
        );
        await jumpTo(p, '0:05');
        await waitClock(p, '0:00:05.000');
        await p.waitForSelector('[data-testid="log-line"][data-kind="delivered"]');
        const shown = await p.locator('body').innerText();
        // The log shows the body (shortened) as text; the inspector shows all of it.
        assert.ok(shown.includes('body <img src=x'), 'the body is shown as text');
        await openStory(p, '[data-testid="log-line"][data-kind="delivered"]');
        await p.waitForFunction(
          (want) => document.querySelector('[data-testid="inspector"]')?.innerText?.includes(want),
          `body ${HOSTILE}`,
        );
        assert.ok(shown.includes(HOSTILE), 'the queue name is shown as text');
        assert.equal(await p.locator('img[src="x"]').count(), 0);
        assert.equal(await p.evaluate(() => window.__pwned), undefined);
      });
      assert.equal(await page.evaluate(() => window.__pwned), undefined);
      await top(t);
    },
  },
  {
    name: 'truncated, tampered and unknown-version links say what is wrong; Start fresh recovers',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      const link = await copyLink(page);
      const [base, fragment] = link.split('#');
      const mid = 3 + Math.floor((fragment.length - 3) / 2);
      const flip = (c) => (c === 'A' ? 'B' : 'A');
      const cases = [
        ['truncated', fragment.slice(0, fragment.length - 6), /cut short/],
        ['tampered', fragment.slice(0, mid) + flip(fragment[mid]) + fragment.slice(mid + 1), /changed|damaged|invalid/],
        ['unknown version', fragment.replace(/^v1\./, 'v9.'), /version 9/],
        ['bad characters', `${fragment.slice(0, 12)}%3Cb%3E${fragment.slice(12)}`, /cannot be in a link/],
      ];
      for (const [what, bad, says] of cases) {
        await page.goto('about:blank');
        await t.goto(`#${bad}`, ready);
        const notice = page.locator('[data-testid="link-error"]');
        await notice.waitFor();
        const text = await notice.textContent();
        assert.match(text, /could not be opened/, `${what}: ${text}`);
        assert.match(text, says, `${what}: ${text}`);
        // The page behind it works: the sandbox is loaded.
        assert.match(await page.locator('[data-testid="scenario-name"]').textContent(), /Sandbox/);
      }
      // Translated: the same notice in Chinese.
      await page.click('[data-testid="lang-zh"]');
      assert.match(await page.locator('[data-testid="link-error"]').textContent(), /无法打开这个链接/);
      await t.screenshot('bad-link');
      await page.click('[data-testid="lang-en"]');
      await page.click('[data-testid="start-fresh"]');
      await page.locator('[data-testid="link-error"]').waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => location.hash), '');
      assert.match(await page.locator('[data-testid="scenario-name"]').textContent(), /Sandbox/);
      await top(t);
    },
  },
  {
    name: 'autosave: an edited scenario survives a reload; Reset forgets it; bad content is ignored',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      const edited = { ...hostile, name: 'Autosaved scenario 42', description: 'kept across reloads' };
      await loadJson(page, edited);
      await page.waitForFunction(() => localStorage.getItem('delaylab.autosave')?.startsWith('v1.'));
      await page.reload({ waitUntil: 'load' });
      await page.waitForSelector(ready.ready);
      await page.waitForFunction(
        () => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() === 'Autosaved scenario 42',
      );
      assert.equal(await page.locator('[data-testid="link-error"]').count(), 0);

      await page.click('[data-testid="reset"]');
      await page.waitForFunction(() => /Sandbox/.test(document.querySelector('[data-testid="scenario-name"]')?.textContent));
      await page.waitForTimeout(800);
      assert.equal(await page.evaluate(() => localStorage.getItem('delaylab.autosave')), null);
      await page.reload({ waitUntil: 'load' });
      await page.waitForSelector(ready.ready);
      assert.match(await page.locator('[data-testid="scenario-name"]').textContent(), /Sandbox/);

      // Damaged content: a notice, the sandbox, and the bad value removed. Written while
      // the untouched sandbox is open (as another tab would), it stays until the reload:
      // a page that changed nothing never clears the key (CI once lost it to that race).
      await page.evaluate(() => localStorage.setItem('delaylab.autosave', 'v1.garbage!!'));
      await page.waitForTimeout(1000); // more than the autosave's 0.4 s
      assert.equal(await page.evaluate(() => localStorage.getItem('delaylab.autosave')), 'v1.garbage!!');
      await page.reload({ waitUntil: 'load' });
      await page.waitForSelector(ready.ready);
      const notice = await page.locator('[data-testid="link-error"]').textContent();
      assert.match(notice, /autosaved scenario could not be restored/, notice);
      assert.match(await page.locator('[data-testid="scenario-name"]').textContent(), /Sandbox/);
      assert.equal(await page.evaluate(() => localStorage.getItem('delaylab.autosave')), null);
      await page.click('[data-testid="start-fresh"]');
      await top(t);
    },
  },
];
