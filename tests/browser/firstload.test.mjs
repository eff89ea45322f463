// The first load (issue 13 item 5): the static first paint (scripts/first-paint.mjs) is
// the app's page before the wasm arrives, the app takes it over without a jump (same
// texts, same boxes), a click on a static gallery card before then is kept; and how long
// a first load takes on dist/ (DIST_DIR, default ./dist) served by scripts/static-server.mjs
// under Chromium's network emulation with the cache off, on a fast and a slow connection:
// with gzip (the goals' host) and with the .br copies. The load times are printed, not
// asserted (the goals, judged on the median of 3 loads: FCP <= 1.0 s and working <= 3.0 s
// at 1.6 Mbps / 150 ms, working <= 1.0 s at 10 Mbps / 40 ms; a shared machine's timing
// would make a timed assertion flake); asserted are one download of the start-up wasm per
// load (the preload is used),
// the encoding, that none of the modules the app imports when needed is requested before
// it is working, and that none of the app's chunks (scripts/build-app.sh) is requested
// before the start-up module has arrived (they follow the mount; their count and bytes
// are printed).
// "Working" = the app's gallery card for PRESET is there and a click on it has loaded that
// scenario (its name shows), measured from navigation start. Two clocks are printed: what
// the driver sees (its wait for the card, checked in the page at every frame (waitCard),
// Playwright's click, its check for the name at every frame; each time read by the check
// that saw the card or the name, not a round trip later) and, beside
// it, the page's own times (`in page`:
// performance.now() when the app's root appeared, when the click arrived, when the name
// showed), taken by an init script and a MutationObserver, free of that overhead.
// "Working if clicked at mount" adds to the mount the page's own time from click to name: when a
// click the moment the cards are live would show the scenario, free of the driver's delay to click.
// The takeover without a jump is checked at the desktop and at the phone size (390 px,
// where the columns stack and every panel above the scenario panel counts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/static-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = process.env.DIST_DIR || path.join(ROOT, 'dist');
const PRESET = 'head-of-line-blocking';
const PRESET_NAME = JSON.parse(fs.readFileSync(path.join(ROOT, 'scenarios', `${PRESET}.json`), 'utf8')).name;
/** Chromium's network emulation: throughput in bytes per second, latency per request. */
const NETWORKS = [
  { name: '10 Mbps / 40 ms', latency: 40, down: 10e6 / 8, up: 5e6 / 8, goal: { working: 1000 } },
  { name: '1.6 Mbps / 150 ms', latency: 150, down: 1.6e6 / 8, up: 0.75e6 / 8, goal: { fcp: 1000, working: 3000 } },
];
/** Loads per network and viewport; the goals are judged on their median (issue 29: "median of 3"). */
const RUNS = 3;
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
/** The viewports measured per encoding (br: the desktop only, to keep the test short). */
const VIEWPORTS = { gzip: { desktop: DESKTOP, phone: PHONE }, br: { desktop: DESKTOP } };
/** Boxes of the static page and the app may differ by sub-pixel rounding only. */
const BOX_TOLERANCE_PX = 1;

const waitName = (page, name, timeout = 60_000) => page.waitForFunction(
  // The page's clock when the name showed (not a round trip later).
  (want) => document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() === want && performance.now(),
  name,
  { timeout },
);

/** Until the app's card for PRESET is in the page, checked in the page at every frame.
 * Not `locator.waitFor`: Playwright (1.65, `retryWithProgressAndBackoff`) checks at 0, 20,
 * 50, 100 and 100 ms, then every 500 ms, so on a load of 3 s a card that came at 2.93 s
 * was seen at 3.27 s (the driver's "working" was 0.23-0.34 s after the page's own mount,
 * 2026-12-07): the wait measured its own schedule, not the page. */
const waitCard = (page, timeout = 60_000) => page.waitForFunction(
  // The page's clock when the card was found (read after the click: no round trip between).
  (sel) => document.querySelector(sel) !== null && performance.now(),
  `[data-testid="preset-${PRESET}"]`,
  { polling: 'raf', timeout },
);

/** The boxes and texts of what both pages show, read from the page's root element. */
function layout(page, rootSel) {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel);
    const box = (e) => {
      if (!e) return null; // not on this page: the comparison names it
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y + scrollY, w: r.width, h: r.height };
    };
    const one = (s) => root.querySelector(s);
    const text = (e) => e?.textContent.replace(/\s+/g, ' ').trim();
    // The gallery without its "From the field" section: the app mounts it from a chunk,
    // below the cards (nothing above it moves), so the static page has none.
    const galleryText = (e) => {
      if (!e) return e;
      const copy = e.cloneNode(true);
      copy.querySelectorAll('[data-testid="field"]').forEach((f) => f.remove());
      return text(copy);
    };
    return {
      boxes: {
        header: box(one('header.top')),
        title: box(one('.app-title')),
        clock: box(one('.clock-value')),
        controls: box(one('.controls')),
        gallery: box(one('.gallery')),
        'scenario JSON (folded)': box(one('.json-editor')),
        'edit the topology (folded)': box(one('.edit-topology')),
        'scenario description': box(one('.watch .desc')),
        'what to watch': box(one('.watch-text')),
        ...Object.fromEntries([...root.querySelectorAll('.presets-list > li')].map((li, i) => [`card ${i + 1}`, box(li)])),
      },
      watchTop: box(one('.watch')),
      texts: {
        header: text(one('header.top')),
        gallery: galleryText(one('.gallery')),
        desc: text(one('.watch .desc')),
        watch: text(one('.watch-text')),
        play: text(one('[data-testid="play"], .controls .primary')),
      },
    };
  }, rootSel);
}

/** Holds every wasm response until `release()` (the page waits as on a slow network).
 * `release.startup()` lets all but the app's chunks (split_*.wasm, chunk_*.wasm) in; they
 * wait for `release()`. */
async function holdWasm(page) {
  let release, releaseChunks;
  const held = new Promise((r) => { release = r; });
  const chunksHeld = new Promise((r) => { releaseChunks = r; });
  await page.route(/\.wasm$/, async (route) => {
    await held;
    if (/\/(split|chunk)_[^/]*\.wasm$/.test(route.request().url())) await chunksHeld;
    await route.continue();
  });
  const all = () => { release(); releaseChunks(); };
  all.startup = release;
  return all;
}

/** The page's own clock (see the header): when the app appeared, the click, the name. */
function pageTimes({ name }) {
  const t = {};
  window.__firstLoad = t;
  addEventListener('click', () => { t.click ??= performance.now(); }, true);
  new MutationObserver(() => {
    if (t.app === undefined && document.querySelector('[data-testid="app"]')) t.app = performance.now();
    if (t.click !== undefined && t.named === undefined
      && document.querySelector('[data-testid="scenario-name"]')?.textContent?.trim() === name) t.named = performance.now();
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

async function measure(browser, url, net, viewport) {
  const context = await browser.newContext({ viewport });
  try {
    const page = await context.newPage();
    await page.addInitScript(pageTimes, { name: PRESET_NAME });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    const cdp = await context.newCDPSession(page);
    const wasm = { requests: 0, bytes: 0, encoding: '', lazy: [], chunks: [], chunkBytes: 0 };
    const ids = new Set();
    const chunkIds = new Set();
    // The modules the app imports when needed (pkg-export/, pkg-strategies/): a first load
    // must not wait for them. The comparison's may be fetched once the loaded scenario's
    // page brings its panel near the screen (after the click), so each request's wall
    // time is kept and compared with the page's own "working" moment below.
    const isLazy = (url) => url.endsWith('.wasm') && /\/pkg[^/]*\//.test(new URL(url).pathname);
    // The app's own chunks (scripts/build-app.sh: split_*.wasm, chunk_*.wasm beside the
    // start-up module): fetched by the running app, so never before it mounted.
    const isChunk = (url) => /\/app-[^/]+\/(split|chunk)_[^/]*\.wasm$/.test(new URL(url).pathname);
    cdp.on('Network.requestWillBeSent', (e) => {
      if (isLazy(e.request.url)) wasm.lazy.push({ url: e.request.url, wallMs: e.wallTime * 1000 });
      if (isChunk(e.request.url)) wasm.chunks.push({ url: e.request.url, wallMs: e.wallTime * 1000, ts: e.timestamp });
    });
    cdp.on('Network.responseReceived', (e) => {
      if (isChunk(e.response.url)) chunkIds.add(e.requestId);
      if (!e.response.url.endsWith('.wasm') || isLazy(e.response.url) || isChunk(e.response.url)) return;
      ids.add(e.requestId);
      wasm.requests++;
      const h = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
      wasm.encoding = h['content-encoding'] || 'identity';
    });
    cdp.on('Network.loadingFinished', (e) => {
      if (ids.has(e.requestId)) {
        wasm.bytes += e.encodedDataLength;
        wasm.finishedTs = e.timestamp;
      }
      if (chunkIds.has(e.requestId)) wasm.chunkBytes += e.encodedDataLength;
    });
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: net.latency, downloadThroughput: net.down, uploadThroughput: net.up,
    });
    await page.goto(url, { waitUntil: 'commit' });
    const card = page.locator(`[data-testid="preset-${PRESET}"]`);
    const found = await waitCard(page);
    await card.click();
    const mounted = await found.jsonValue();
    const working = await (await waitName(page, PRESET_NAME)).jsonValue();
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN);
    const inPage = await page.evaluate(() => ({ ...window.__firstLoad, origin: performance.timeOrigin }));
    const workingWallMs = inPage.origin + (inPage.named ?? working);
    wasm.early = wasm.lazy.filter((r) => r.wallMs < workingWallMs).map((r) => r.url);
    wasm.late = wasm.lazy.filter((r) => r.wallMs >= workingWallMs).map((r) => r.url);
    // CDP's monotonic timestamps: a chunk requested before the start-up module was in.
    wasm.chunksEarly = wasm.chunks.filter((r) => !(r.ts >= wasm.finishedTs)).map((r) => r.url);
    wasm.chunksBeforeWorking = wasm.chunks.filter((r) => r.wallMs < workingWallMs).length;
    if (errors.length) throw new Error(`console errors at ${net.name}: ${errors.join('; ')}`);
    return { fcp, mounted, working, wasm, inPage };
  } finally {
    await context.close();
  }
}

const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** The sizes of dist/'s wasm modules: raw, and the .gz and .br copies the host serves
 * (the app's chunks summed in one line). */
function wasmSizes() {
  const out = [];
  const chunks = { n: 0, raw: 0, gz: 0, br: 0 };
  const size = (f) => (fs.existsSync(f) ? fs.statSync(f).size : NaN);
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^(split|chunk)_.*\.wasm$/.test(e.name)) {
        chunks.n++;
        chunks.raw += size(p);
        chunks.gz += size(`${p}.gz`);
        chunks.br += size(`${p}.br`);
      } else if (e.name.endsWith('.wasm')) {
        out.push(`${path.relative(DIST, p)}: ${size(p)} B raw, ${size(`${p}.gz`)} B gzip, ${size(`${p}.br`)} B br`);
      }
    }
  };
  walk(DIST);
  out.push(`the app's ${chunks.n} chunks: ${chunks.raw} B raw, ${chunks.gz} B gzip, ${chunks.br} B br`);
  return out.sort();
}

/** The takeover at one viewport: texts equal, no box moved (see the first test). */
async function takeover(t, page) {
  const { assert } = t;
  const release = await holdWasm(page);
  await page.goto(t.baseUrl, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('#first-paint');
  assert.equal(await page.locator('[data-testid="app"]').count(), 0, 'the app mounted while its wasm was held');
  const before = await layout(page, '#first-paint');
  // The start-up module only: what chunks mount (the gallery's "From the field" section,
  // below the cards) comes later, and a chunk that came before the measure grew the
  // gallery on a phone one run in a few (a race, not a jump).
  release.startup();
  await page.waitForSelector('[data-testid="app"]');
  assert.equal(await page.locator('#first-paint').count(), 0, 'the static first paint is still there after the mount');
  const after = await layout(page, '[data-testid="app"]');
  release();
  assert.deepEqual(before.texts, after.texts, 'the static page says what the app says');
  const moved = [];
  for (const [k, a] of Object.entries(after.boxes)) {
    const b = before.boxes[k];
    if (!a) { moved.push(`${k}: not in the app`); continue; }
    if (!b) { moved.push(`${k}: not in the static page`); continue; }
    const d = Math.max(...['x', 'y', 'w', 'h'].map((q) => Math.abs(a[q] - b[q])));
    if (d > BOX_TOLERANCE_PX) moved.push(`${k}: ${JSON.stringify(b)} -> ${JSON.stringify(a)}`);
  }
  assert.deepEqual(moved, [], 'boxes moved at the takeover: make scripts/first-paint.mjs and its style.css rules follow the app');
  const w = ['x', 'y', 'w'].map((q) => Math.abs(after.watchTop[q] - before.watchTop[q]));
  assert.ok(Math.max(...w) <= BOX_TOLERANCE_PX, `the scenario panel moved: ${JSON.stringify(before.watchTop)} -> ${JSON.stringify(after.watchTop)}`);
  return { boxes: Object.keys(after.boxes).length, before: before.watchTop, after: after.watchTop };
}

// Run alone, after the others (tests/browser/run.mjs: what it measures is time: load times under network emulation and the first paint's takeover).
export const solo = true;

export const tests = [
  {
    name: 'static first paint: the app takes it over without a jump (desktop and phone)',
    async run(t) {
      const desk = await takeover(t, t.page);
      console.log(`     first paint, desktop: ${desk.boxes} boxes kept their place; scenario panel height ${desk.before.h.toFixed(0)} -> ${desk.after.h.toFixed(0)} px`);
      const context = await t.page.context().browser().newContext({ viewport: PHONE });
      try {
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
        const phone = await takeover(t, page);
        t.assert.deepEqual(errors, [], 'console errors on the phone');
        console.log(`     first paint, phone: ${phone.boxes} boxes kept their place; scenario panel at y ${phone.before.y.toFixed(0)} -> ${phone.after.y.toFixed(0)} px`);
      } finally {
        await context.close();
      }
    },
  },
  {
    name: 'static first paint: a gallery click before the wasm is ready is kept',
    async run(t) {
      const { page, assert } = t;
      const release = await holdWasm(page);
      await page.goto(t.baseUrl, { waitUntil: 'domcontentloaded' });
      const card = page.locator(`#first-paint a.preset[data-preset="${PRESET}"]`);
      await card.click();
      // The static page follows at once (boot.js), the app loads it when it mounts.
      await page.waitForFunction(
        (want) => document.querySelector('#first-paint .first-paint-name')?.textContent === want,
        PRESET_NAME,
      );
      assert.equal(await card.getAttribute('aria-current'), 'true');
      release();
      await waitName(page, PRESET_NAME);
      assert.equal(await page.locator(`[data-testid="preset-${PRESET}"]`).getAttribute('aria-current'), 'true');
      assert.equal(new URL(page.url()).hash, `#${PRESET}`);
    },
  },
  {
    name: 'load times under network emulation (gzip and br, cache off): printed',
    timeout: 300_000,
    async run(t) {
      const { assert } = t;
      assert.ok(fs.existsSync(path.join(DIST, 'index.html')), `no ${DIST}/index.html (build dist/ first)`);
      const browser = t.page.context().browser();
      for (const line of wasmSizes()) console.log(`     ${line}`);
      // gzip: the goals' host; br: a host serving the .br copies (Chromium asks for br).
      for (const encoding of ['gzip', 'br']) {
        const log = [];
        const server = await serve(DIST, { brotli: encoding === 'br', log });
        try {
          for (const net of NETWORKS) {
            for (const [vpName, viewport] of Object.entries(VIEWPORTS[encoding])) {
              const runs = [];
              for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, server.url, net, viewport));
              const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
              const mid = (k) => median(runs.map((r) => r[k]));
              const w = runs[0].wasm;
              const goals = Object.entries(net.goal).map(([k, v]) => `${k} <= ${s(v)}: ${mid(k) <= v ? 'met' : 'NOT met'}`).join(', ');
              const inPage = (k) => runs.map((r) => s(r.inPage?.[k] ?? NaN)).join(' / ');
              const pageWorking = median(runs.map((r) => r.inPage?.named ?? NaN));
              // A click the moment the cards are live: the app's mount plus the page's own
              // time from click to name (without the driver's round trips to click).
              const atReady = runs.map((r) => (r.inPage ? r.inPage.app + (r.inPage.named - r.inPage.click) : NaN));
              const readyWorking = median(atReady);
              const pageGoal = net.goal.working
                ? ` [in page: working <= ${s(net.goal.working)}: ${pageWorking <= net.goal.working ? 'met' : 'NOT met'}; clicked at mount: ${readyWorking <= net.goal.working ? 'met' : 'NOT met'}]`
                : '';
              console.log(`     ${encoding}, ${net.name}, ${vpName}: FCP ${runs.map((r) => s(r.fcp)).join(' / ')}, `
                + `app mounted ${runs.map((r) => s(r.mounted)).join(' / ')}, working ${runs.map((r) => s(r.working)).join(' / ')} `
                + `(wasm ${w.bytes} B ${w.encoding}, ${w.requests} request${w.requests === 1 ? '' : 's'})${encoding === 'gzip' ? ` [${goals}]` : ''}`);
              console.log(`       in page: app mounted ${inPage('app')}, clicked ${inPage('click')}, working ${inPage('named')}, `
                + `working if clicked at mount ${atReady.map(s).join(' / ')}${encoding === 'gzip' ? pageGoal : ''}`);
              // The preload and the loader must share one download, never fetch it twice.
              for (const r of runs) assert.equal(r.wasm.requests, 1, `the wasm was fetched ${r.wasm.requests} times`);
              const late = [...new Set(runs.flatMap((r) => r.wasm.late.map((u) => new URL(u).pathname)))];
              if (late.length) console.log(`       fetched once working (the loaded scenario brought its panel near): ${late.join(', ')}`);
              for (const r of runs) assert.deepEqual(r.wasm.early, [], `a first load fetched a module the app imports when needed before it was working (${vpName})`);
              // The start-up module alone is on the way to working; its chunks follow the mount.
              for (const r of runs) assert.deepEqual(r.wasm.chunksEarly, [], `a chunk was requested before the start-up module had arrived (${vpName})`);
              console.log(`       chunks: ${runs.map((r) => `${r.wasm.chunks.length} fetched (${r.wasm.chunksBeforeWorking} before working), ${r.wasm.chunkBytes} B`).join(' / ')}`);
              for (const r of runs) assert.ok(r.fcp <= r.working, `first paint ${r.fcp} after working ${r.working}`);
            }
          }
        } finally {
          await server.close();
        }
        const wasm = log.find((l) => l.path.endsWith('.wasm'));
        assert.ok(wasm && wasm.encoding === encoding, `the wasm was not served as ${encoding}: ${JSON.stringify(wasm)}`);
      }
    },
  },
];
