// Browser test runner: headless Debian Chromium through playwright-core.
//
//   BASE_URL=http://127.0.0.1:8080/ node tests/browser/run.mjs [FILTER]
//
// Runs, in sequence, the tests exported by every tests/browser/*.test.mjs (sorted by file
// name). A test file exports `tests`, an array of { name, run(t), timeout?, allowConsole? }:
//   t.page        a fresh page (own browser context, desktop viewport 1440x900)
//   t.goto(path)  opens BASE_URL + path and waits until the app has mounted and drawn its
//                 deferred parts (t.partsReady(page?): <html data-parts="ready">)
//   t.baseUrl, t.assert (node:assert/strict), t.screenshot(label) (desktop + phone PNGs)
//   t.axe(label, opts?)  checks the page as it is now with axe-core at desktop and phone
//                 size, every frame, and throws listing each violation (tests/browser/a11y.mjs)
// A test may set `locale` ('zh-CN': the browser's language, which the app follows).
// A test fails if run() throws, times out, or the page logs any console error, page error
// or failed request, or one of Leptos's warnings about signals (`REACTIVE_WARNING`: a
// signal read outside a reactive tracking context, or after it was disposed; a build with
// debug assertions logs them, as `scripts/serve-check.sh`'s) (allowConsole: [RegExp]
// excuses matching messages). After every test,
// pass or fail, the page is saved as tests/artifacts/<file>--<test>--desktop.png (1440x900)
// and --phone.png (390x844); with DELAYLAB_SCREENSHOTS=failed (CI) only a failed test's
// (two full-page shots per test, about a fifth of the suite's time). FILTER keeps tests whose "file › name" contains it (or one of
// its `|`-separated parts: `smoke.test.mjs|page-infra.test.mjs`).
// DELAYLAB_BROWSER_JOBS=N (default 1; scripts/test.sh: 2) runs N tests at a time, each in
// its own context of the one browser, printing each as it ends; a file that exports
// `solo = true` (what it measures is time: frame rates, load times under emulation, a long
// computation's slices) has its tests run afterwards, one at a time.
// The last line printed is exactly `N passed, M failed`; the exit code is 1 if M > 0.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { axeCheck, VIEWPORTS } from './a11y.mjs';
import { partsReady } from './parts.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Leptos's warnings of a signal misused (reactive_graph's debug-build messages). */
const REACTIVE_WARNING = /outside a reactive tracking context|has already been disposed|reactive (?:graph|owner)/i;
const ROOT = path.resolve(HERE, '..', '..');
const ARTIFACTS = path.join(ROOT, 'tests', 'artifacts');
const BASE_URL = new URL(process.env.BASE_URL || 'http://127.0.0.1:8080/').href;
const FILTER = process.argv[2] || '';
/** `all` (default: every test's page is saved) or `failed` (only a failed test's). */
const SCREENSHOTS = process.env.DELAYLAB_SCREENSHOTS || 'all';
if (!['all', 'failed'].includes(SCREENSHOTS)) {
  console.log(`DELAYLAB_SCREENSHOTS=${SCREENSHOTS}: expected all or failed`);
  process.exit(2);
}
const DEFAULT_TIMEOUT_MS = 60_000;
const JOBS = Number(process.env.DELAYLAB_BROWSER_JOBS || 1);
if (!Number.isInteger(JOBS) || JOBS < 1 || JOBS > 8) {
  console.log(`DELAYLAB_BROWSER_JOBS=${process.env.DELAYLAB_BROWSER_JOBS}: expected a whole number from 1 to 8`);
  process.exit(2);
}
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let passed = 0;
let failed = 0;
const finish = () => {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
};

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
const ms = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)}s`;

// Collect the tests.
const files = fs.readdirSync(HERE).filter((f) => f.endsWith('.test.mjs')).sort();
const queue = [];
for (const file of files) {
  let mod;
  try {
    mod = await import(pathToFileURL(path.join(HERE, file)).href);
  } catch (e) {
    console.log(`FAIL ${file}: cannot load: ${e.stack || e}`);
    failed++;
    continue;
  }
  if (!Array.isArray(mod.tests)) {
    console.log(`FAIL ${file}: does not export an array \`tests\``);
    failed++;
    continue;
  }
  for (const test of mod.tests) {
    const title = `${file} › ${test.name}`;
    if (!FILTER || FILTER.split('|').some((f) => title.includes(f))) queue.push({ file, title, ...test, solo: mod.solo === true });
  }
}
if (queue.length === 0) {
  console.log(failed ? 'no runnable browser tests' : `no browser tests found${FILTER ? ` matching "${FILTER}"` : ''}`);
  if (!failed) failed = 1; // running nothing is a failure
  finish();
}

fs.mkdirSync(ARTIFACTS, { recursive: true });
for (const f of fs.readdirSync(ARTIFACTS)) {
  if (/--(desktop|phone)\.png$/.test(f)) fs.rmSync(path.join(ARTIFACTS, f));
}

let browser;
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
} catch (e) {
  console.log(`cannot launch Chromium: ${e.message || e}`);
  failed += queue.length;
  finish();
}
const solo = queue.filter((t) => t.solo);
const shared = queue.filter((t) => !t.solo);
console.log(`browser tests against ${BASE_URL} (${queue.length} tests in ${files.length} files; ${JOBS} at a time, then ${solo.length} alone)`);

// JOBS workers take the shared tests in order; then the solo ones, one by one.
let next = 0;
const worker = async () => {
  while (next < shared.length) await runTest(shared[next++]);
};
await Promise.all(Array.from({ length: Math.min(JOBS, shared.length) }, worker));
for (const test of solo) await runTest(test);

await browser.close().catch(() => {});
finish();

async function runTest(test) {
  const t0 = Date.now();
  const problems = [];
  const allowed = (msg) => (test.allowConsole || []).some((re) => re.test(msg));
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, ...(test.locale ? { locale: test.locale } : {}) });
  const page = await context.newPage();
  page.on('console', (m) => {
    const warned = m.type() === 'warning' && REACTIVE_WARNING.test(m.text());
    if ((m.type() !== 'error' && !warned) || allowed(m.text())) return;
    const where = m.location()?.url;
    problems.push(`console error: ${m.text()}${where ? ` [${where}]` : ''}`);
  });
  page.on('pageerror', (e) => {
    const msg = e.message || String(e);
    if (!allowed(msg)) problems.push(`page error: ${msg}`);
  });
  page.on('requestfailed', (r) => {
    const err = r.failure()?.errorText || '';
    if (err.includes('ERR_ABORTED')) return; // navigation away, not a failure
    const msg = `request failed: ${r.url()} ${err}`;
    if (!allowed(msg)) problems.push(msg);
  });

  const shotBase = path.join(ARTIFACTS, `${slug(test.file.replace(/\.test\.mjs$/, ''))}--${slug(test.name)}`);
  const t = {
    page,
    baseUrl: BASE_URL,
    assert,
    async goto(p = '', { ready = 'body > :not(script)' } = {}) {
      const response = await page.goto(new URL(p, BASE_URL).href, { waitUntil: 'load' });
      assert.ok(response && response.ok(), `GET ${p || '/'} answered ${response && response.status()}`);
      if (ready) await page.waitForSelector(ready, { state: 'attached', timeout: 30_000 });
      await this.partsReady();
      return response;
    },
    partsReady: (p = page) => partsReady(p),
    axe: (label, opts) => axeCheck(page, label, opts),
    async screenshot(label) {
      const base = label ? `${shotBase}--${slug(label)}` : shotBase;
      const files = [];
      for (const [name, vp] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(vp);
        await page.waitForTimeout(100);
        const file = `${base}--${name}.png`;
        await page.screenshot({ path: file, fullPage: true });
        files.push(file);
      }
      await page.setViewportSize(VIEWPORTS.desktop);
      return files;
    },
  };

  let error = null;
  let timer;
  try {
    const timeout = test.timeout || DEFAULT_TIMEOUT_MS;
    await Promise.race([
      Promise.resolve().then(() => test.run(t)),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeout} ms`)), timeout);
      }),
    ]);
    await page.waitForTimeout(200); // let late console errors arrive
  } catch (e) {
    error = e;
  } finally {
    clearTimeout(timer);
  }
  if (SCREENSHOTS === 'all' || error || problems.length > 0) {
    try {
      await t.screenshot();
    } catch (e) {
      problems.push(`screenshot failed: ${e.message || e}`);
    }
  }
  await context.close().catch(() => {});

  if (!error && problems.length === 0) {
    passed++;
    console.log(`ok   ${test.title} (${ms(t0)})`);
  } else {
    failed++;
    console.log(`FAIL ${test.title} (${ms(t0)})`);
    if (error) console.log(`     ${String(error.stack || error).split('\n').join('\n     ')}`);
    for (const p of problems) console.log(`     ${p}`);
  }
}
