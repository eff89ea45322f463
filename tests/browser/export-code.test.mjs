// The "Export code" menu (issue 14 item 1, src/app/panels/export_code.rs): the button beside
// "Export definitions" opens a panel; every exporter language is offered (Spring marked as
// checked by golden files only); Python and Java show the scenario's arguments, highlighted; the code
// is copied, downloaded as one file and as a zip of the project (its entries checked with
// Python's zipfile, which verifies every CRC); comments follow the UI language; Escape
// closes the panel and gives the focus back; what the export leaves out is listed. The
// exporter is a module of its own (pkg-export/, crates/export-js), fetched only when the
// menu opens; a failed fetch says so in the panel.
import { execFileSync } from 'node:child_process';

const ready = { ready: '[data-testid="topology"] .node' };
const top = (t) => t.page.evaluate(() => window.scrollTo(0, 0));
const PRESET = 'order-timeout-queue-ttl';
/** The arguments the program must declare as the scenario has them. */
const ARGS = ['x-message-ttl', 'x-dead-letter-exchange', 'x-dead-letter-routing-key', 'order.delay.queue', '1800000'];
const CJK = /[\u4e00-\u9fff]/;

/** [{name, size, mode}] of the zip at `file` (Python's zipfile; testzip checks the CRCs). */
function zipEntries(file) {
  const py = `
import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
bad = z.testzip()
if bad: sys.exit("bad CRC: " + bad)
print(json.dumps([{"name": i.filename, "size": i.file_size, "mode": i.external_attr >> 16,
                   "text": z.read(i).decode("utf-8")} for i in z.infolist()]))`;
  return JSON.parse(execFileSync('python3', ['-c', py, file], { encoding: 'utf8' }));
}

async function openMenu(t) {
  const { page, assert } = t;
  const btn = page.locator('[data-testid="export-code"]');
  assert.equal(await btn.getAttribute('aria-expanded'), 'false');
  await btn.click();
  await page.locator('[data-testid="export-code-panel"]').waitFor({ state: 'visible' });
  assert.equal(await btn.getAttribute('aria-expanded'), 'true');
}

const codeText = (page) => page.locator('[data-testid="code-text"]').textContent();

async function pick(t, lang) {
  const { page } = t;
  await page.click(`[data-testid="code-lang-${lang}"]`);
  await page.waitForSelector(`[data-testid="code-text"][data-lang="${lang}"]`);
}

export const tests = [
  {
    name: 'export code: languages, Python and Java with the scenario arguments, copy, file and zip downloads',
    async run(t) {
      const { page, assert } = t;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await t.goto(`#${PRESET}`, ready);
      await openMenu(t);
      // Every language of the exporter, in its order, each one usable; Spring says it is not run.
      const langs = await page.locator('.code-langs button').evaluateAll((bs) => bs.map((b) => ({
        id: b.dataset.testid, disabled: b.disabled, text: b.textContent,
      })));
      assert.deepEqual(langs.map((l) => l.id), ['java', 'spring', 'python', 'node', 'go', 'rust'].map((l) => `code-lang-${l}`));
      for (const l of langs) assert.equal(l.disabled, false, l.id);
      const spring = langs.find((l) => l.id === 'code-lang-spring');
      assert.match(spring.text, /not run here: checked by golden files/);

      for (const lang of ['python', 'rust', 'java']) { // Java last: the copy and downloads below are of its files
        await pick(t, lang);
        const code = await codeText(page);
        for (const a of ARGS) assert.ok(code.includes(a), `${lang}: no ${a} in the code`);
        // Highlighted: comments, strings and keywords are spans of their own.
        for (const k of ['tk-com', 'tk-str', 'tk-kw']) {
          assert.ok(await page.locator(`[data-testid="code-text"] .${k}`).count() > 0, `${lang}: no .${k}`);
        }
        assert.ok(!CJK.test(code), `${lang}: Chinese comments in the English export`);
        assert.match(await page.locator('[data-testid="code-left-out"]').textContent(), /Nothing left out/);
      }

      // Copy: the clipboard holds the file shown (Scenario.java).
      await page.click('[data-testid="code-copy"]');
      await page.waitForFunction(() => /Copied/.test(document.querySelector('[data-testid="code-done"]')?.textContent || ''));
      const clip = await page.evaluate(() => navigator.clipboard.readText());
      assert.equal(clip.replace(/\r\n/g, '\n'), await codeText(page));

      // One file: the program as shown.
      const fs = await import('node:fs');
      const [one] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="code-download"]')]);
      assert.equal(one.suggestedFilename(), 'Scenario.java');
      assert.equal(fs.readFileSync(await one.path(), 'utf8'), await codeText(page));

      // The other file of the project is a tab of its own: run.sh.
      await page.click('.code-files [data-file="run.sh"]');
      assert.match(await codeText(page), /^#!/);
      const [sh] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="code-download"]')]);
      assert.equal(sh.suggestedFilename(), 'run.sh');

      // The zip: every file of the project under one folder, run.sh executable.
      const [zip] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="code-zip"]')]);
      const folder = `delaylab-${PRESET}-java`;
      assert.equal(zip.suggestedFilename(), `${folder}.zip`);
      const entries = zipEntries(await zip.path());
      const names = entries.map((e) => e.name).sort();
      assert.deepEqual(names, [`${folder}/Scenario.java`, `${folder}/run.sh`]);
      const java = entries.find((e) => e.name.endsWith('Scenario.java'));
      for (const a of ARGS) assert.ok(java.text.includes(a), `zip: no ${a}`);
      assert.equal(entries.find((e) => e.name.endsWith('run.sh')).mode & 0o111, 0o111, 'run.sh is not executable');
      assert.match(await page.locator('[data-testid="code-done"]').textContent(), new RegExp(`${folder}\\.zip`));
      await top(t);
      await t.screenshot('export-code-java');
    },
  },
  {
    name: 'export code: Chinese comments in zh, the left-out list, keyboard',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#plugin-node-restart', ready);
      await page.click('[data-testid="lang-zh"]');
      await openMenu(t);
      await pick(t, 'python');
      const code = await codeText(page);
      const comments = await page.locator('[data-testid="code-text"] .tk-com').allTextContents();
      assert.ok(comments.some((c) => CJK.test(c)), 'no Chinese comment in zh');
      assert.ok(code.includes('x-delayed-type'), 'the delayed exchange argument is missing');
      // restart_node cannot be done by a client: listed above the code (the exporter's words).
      const left = page.locator('[data-testid="code-left-out"]');
      assert.match(await left.textContent(), /未导出/);
      assert.match(await left.locator('li').first().textContent(), /restart_node/);
      // The UI language switches the comments of an open export.
      await page.click('[data-testid="lang-en"]');
      await page.waitForFunction(() => !/[\u4e00-\u9fff]/.test(
        [...document.querySelectorAll('[data-testid="code-text"] .tk-com')].map((e) => e.textContent).join('')));
      // Keyboard: Escape closes the panel and gives the focus back to the button.
      await page.locator('[data-testid="code-lang-java"]').focus();
      await page.keyboard.press('Escape');
      await page.locator('[data-testid="export-code-panel"]').waitFor({ state: 'hidden' });
      await page.waitForFunction(() => document.activeElement?.dataset.testid === 'export-code', null, { timeout: 2000 })
        .catch(() => {});
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'export-code');
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="export-code-panel"]').waitFor({ state: 'visible' });
      // On a phone the panel fits the screen: nothing wider than 390 px but the code's own scroll.
      await page.setViewportSize({ width: 390, height: 844 });
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `the page scrolls sideways on a phone: ${wide} px`);
      await page.setViewportSize({ width: 1440, height: 900 });
      await top(t);
    },
  },
  {
    name: 'export code: the exporter is fetched when the menu opens, not before; a failed fetch says so',
    // The 404 below is the browser's own console line.
    allowConsole: [/404|Failed to load|pkg-export/],
    async run(t) {
      const { page, assert } = t;
      const fetched = [];
      page.on('request', (r) => { if (r.url().includes('/pkg-export/')) fetched.push(r.url()); });
      // The fetch fails: the panel must say so, never stay blank.
      await page.route('**/pkg-export/**', (route) => route.fulfill({ status: 404, body: 'gone' }));
      await t.goto(`#${PRESET}`, ready);
      await page.waitForTimeout(300);
      assert.deepEqual(fetched, [], 'the exporter was fetched before the menu opened');
      await openMenu(t);
      const err = page.locator('[data-testid="code-error"]');
      await err.waitFor({ state: 'visible' });
      assert.match(await err.textContent(), /exporter could not be fetched \(check the connection.*pkg-export\/delaylab_export\.js/);
      assert.equal(await page.locator('[data-testid="code-text"]').count(), 0);
      assert.ok(fetched.some((u) => u.endsWith('/pkg-export/delaylab_export.js')), `${fetched}`);
    },
  },
  {
    name: 'export code: "loading the exporter" until its module is in, then the code; later languages reuse it',
    async run(t) {
      const { page, assert } = t;
      const fetched = [];
      page.on('request', (r) => { if (r.url().includes('/pkg-export/')) fetched.push(r.url()); });
      // Hold the module back until the loading line has been seen.
      let release;
      const held = new Promise((r) => { release = r; });
      await page.route('**/pkg-export/delaylab_export.js', async (route) => { await held; await route.continue(); });
      await t.goto(`#${PRESET}`, ready);
      await openMenu(t);
      const loading = page.locator('[data-testid="code-loading"]');
      await loading.waitFor({ state: 'visible' });
      assert.match(await loading.textContent(), /Loading the exporter/);
      release();
      await page.locator('[data-testid="code-text"]').waitFor({ state: 'visible' });
      assert.equal(await loading.count(), 0);
      for (const lang of ['go', 'node']) await pick(t, lang);
      await page.click('[data-testid="export-code-close"]');
      await openMenu(t);
      await pick(t, 'java');
      const js = fetched.filter((u) => u.endsWith('/delaylab_export.js'));
      const wasm = fetched.filter((u) => u.endsWith('/delaylab_export_bg.wasm'));
      assert.equal(js.length, 1, `the module was fetched ${js.length} times`);
      assert.equal(wasm.length, 1, `the exporter's wasm was fetched ${wasm.length} times`);
    },
  },
];
