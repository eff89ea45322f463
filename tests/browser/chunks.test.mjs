// The app's chunks (src/app/chunks.rs, split by scripts/build-app.sh): the parts of the
// page below or beside the first screen come in once the page works, and a chunk that
// cannot be fetched says so where its panels would be, with "Try again", instead of a
// blank page or a dead one; the first screen keeps working meanwhile.

/** The chunk of the page's lower panels and the scenario tools' panels. */
const PAGE_CHUNK = /\/app-[^/]+\/split_page\.wasm$/;
/** The topology diagram's chunk (issue 29 item 10: out of the start-up module). */
const TOPOLOGY_CHUNK = /\/app-[^/]+\/split_topology\.wasm$/;
/** Any other chunk's door (split_<name>.wasm; the chunk_<n>.wasm files hold code that
 * doors share and are fetched with them). */
const OTHER_DOOR = /\/app-[^/]+\/split_(?!topology\.)[^/]*\.wasm$/;
/** What the splitter's loader and the browser say when a fetch is refused. */
const FETCH_REFUSED = [/split_(page|topology)\.wasm/, /Failed to fetch|failed to load|TypeError|net::ERR_FAILED|WebAssembly/i];

export const tests = [
  {
    name: 'the lower panels arrive after the mount: publish, queues and the log are there',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', { ready: '[data-testid="app"]' });
      await page.locator('[data-testid="publish"]').waitFor();
      for (const sel of ['[data-testid="publish"]', '.area-queues .panel', '.area-wide .panel']) {
        assert.ok(await page.locator(sel).count() > 0, `${sel} is not on the page`);
      }
      assert.equal(await page.locator('[data-testid="deferred-error"]').count(), 0);
    },
  },
  {
    // Failed before the topology became a chunk: its diagram was drawn at the mount.
    name: 'the topology is a chunk, fetched first: a card loads its scenario before it comes, then it draws that scenario',
    async run(t) {
      const { page, assert } = t;
      let release;
      const held = new Promise((r) => { release = r; });
      let requested = false;
      const othersRequested = [];
      await page.route(TOPOLOGY_CHUNK, async (route) => { requested = true; await held; await route.continue(); });
      page.on('request', (r) => { if (OTHER_DOOR.test(r.url())) othersRequested.push(r.url().split('/').pop()); });
      // Not t.goto: it waits for every deferred part, and one is held here.
      await page.goto(t.baseUrl, { waitUntil: 'load' });
      await page.locator('[data-testid="app"]').waitFor({ state: 'attached' });
      await page.locator('[data-testid="preset-order-timeout-queue-ttl"]').click();
      await page.waitForFunction(() => /30 min/.test(document.querySelector('[data-testid="scenario-name"]')?.textContent ?? ''));
      // Requested once the page was first idle (deferred.rs), held here.
      for (let i = 0; !requested && i < 100; i++) await page.waitForTimeout(50);
      assert.ok(requested, 'the topology chunk was not requested within 5 s of the mount');
      assert.equal(await page.locator('[data-testid="topology"]').count(), 0, 'the topology was drawn without its chunk');
      // The first screen's chunk goes first (Deferred first): the lower panels' and the
      // share codec's (fetched at the mount before 2026-12-07) wait for it.
      await page.waitForTimeout(1_000);
      assert.deepEqual(othersRequested, [], 'chunks requested while the topology\'s was on its way');
      release();
      // The scenario loaded meanwhile, not the one the page opened with.
      await page.locator('[data-testid="topology"] [data-testid="node-q:order.dlx.queue"]').waitFor();
      await t.partsReady();
      assert.equal(await page.locator('[data-testid="deferred-error"]').count(), 0);
    },
  },
  {
    name: 'a chunk that cannot be fetched: its places say so, Try again brings the panels',
    allowConsole: FETCH_REFUSED,
    async run(t) {
      const { page, assert } = t;
      let refuse = true;
      await page.route(PAGE_CHUNK, (route) => (refuse ? route.abort('failed') : route.continue()));
      await t.goto('#head-of-line-blocking', { ready: '[data-testid="app"]' });
      const errors = page.locator('[data-testid="deferred-error"]');
      await errors.first().waitFor();
      assert.match(await errors.first().innerText(), /could not be loaded/);
      assert.equal(await page.locator('[data-testid="publish"]').count(), 0);
      // The first screen still works: a gallery card loads its scenario.
      await page.locator('[data-testid="preset-order-timeout-queue-ttl"]').click();
      await page.waitForFunction(() => /30 min/.test(document.querySelector('[data-testid="scenario-name"]')?.textContent ?? ''));
      refuse = false;
      const publishArea = page.locator('.area-right [data-testid="deferred-error"] button');
      await publishArea.click();
      await page.locator('[data-testid="publish"]').waitFor();
      assert.equal(await page.locator('.area-right [data-testid="deferred-error"]').count(), 0);
    },
  },
];
