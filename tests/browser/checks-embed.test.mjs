// An embed reports its scenario's checks to the host page (issue 24 item 4): a `checks`
// message with each check's id, label and state, at the start of a run and whenever a
// state changes; the embed can show the Checks panel itself (`panels=...,checks`).
import { SCENARIO } from './checks-common.mjs';

/**
 * A host page on the test server's own origin that frames `src` and keeps every message
 * the frame posts in window.got (a plain text document made a page: no CSP of its own).
 */
async function openHost(t, src) {
  await t.page.goto(new URL('/www/lesson.css', t.baseUrl).href);
  await t.page.evaluate((url) => {
    window.got = [];
    window.addEventListener('message', (e) => window.got.push(e.data));
    // A host page as a lesson would be (a title, a language, a main with a heading), so
    // that an accessibility check of it looks at the embed.
    document.title = 'A host page';
    document.documentElement.lang = 'en';
    const main = document.createElement('main');
    const h1 = document.createElement('h1');
    h1.textContent = 'A host page';
    const f = document.createElement('iframe');
    f.id = 'f';
    f.title = 'delaylab';
    f.width = '600';
    f.height = '700';
    f.src = url;
    main.append(h1, f);
    document.body.replaceChildren(main);
  }, new URL(src, t.baseUrl).href);
  const frame = t.page.frameLocator('#f');
  await frame.locator('[data-testid="embed"]').waitFor({ timeout: 30_000 });
  return frame;
}

const post = (t, msg) => t.page.evaluate((m) => {
  const f = document.getElementById('f');
  f.contentWindow.postMessage(m, new URL(f.src).origin);
}, msg);

/** The `checks` messages so far, each as ["id:status@at_ms", ...]. */
const checksMessages = (t) => t.page.evaluate(() => window.got.filter((m) => m.type === 'checks')
  .map((m) => m.checks.map((c) => `${c.id}:${c.status}@${c.at_ms}`)));

async function waitChecks(t, want, timeout = 20_000) {
  const t0 = Date.now();
  for (;;) {
    const all = await checksMessages(t);
    if (all.some((m) => JSON.stringify(m) === JSON.stringify(want))) return all;
    if (Date.now() - t0 > timeout) throw new Error(`no checks message ${JSON.stringify(want)}; got ${JSON.stringify(all)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const PENDING = ['b-by-6:pending@null', 'overdue-at-10:pending@null', 'b-late:pending@null', 'c-closed:pending@null'];

export const tests = [
  {
    name: 'the host hears `checks`: all pending on load, then each change as the clock moves, again after a seek back',
    timeout: 90_000,
    // The host is a text document: the browser asks for /favicon.ico, which the server lacks.
    allowConsole: [/favicon\.ico/, /status of 404/],
    async run(t) {
      const { assert } = t;
      const frame = await openHost(t, '?embed&panels=clock,checks');
      await post(t, { type: 'load', scenario: SCENARIO });
      await waitChecks(t, PENDING);
      const first = (await t.page.evaluate(() => window.got.find((m) => m.type === 'checks'))).checks[0];
      assert.equal(first.label, 'B is closed by 6:00');
      assert.equal(first.kind, 'delivered');
      assert.equal(first.expected, 'B delivered by 0:06:00.000');
      // The embed shows them too.
      await frame.locator('[data-testid="check"][data-id="b-by-6"][data-status="pending"]').waitFor();

      await post(t, { type: 'seek', ms: 600_000 });
      await waitChecks(t, ['b-by-6:failed@360000', 'overdue-at-10:passed@600000', 'b-late:pending@null', 'c-closed:pending@null']);
      await frame.locator('[data-testid="check"][data-id="b-by-6"][data-status="failed"]').waitFor();
      const failed = (await t.page.evaluate(() => window.got.filter((m) => m.type === 'checks').at(-1))).checks[0];
      assert.deepEqual(failed.seen, { kind: 'nothing' });
      assert.match(failed.text, /^failed at 0:06:00\.000/);

      // Every message is one frame's latest states: no two in a row are the same.
      const all = await checksMessages(t);
      for (let i = 1; i < all.length; i++) assert.notDeepEqual(all[i], all[i - 1], `message ${i} repeats`);

      // Back in time: a new run, all pending again, then the same decisions.
      const before = all.length;
      await post(t, { type: 'seek', ms: 120_000 });
      await t.page.waitForFunction((n) => window.got.filter((m) => m.type === 'checks').length > n, before);
      const after = await checksMessages(t);
      assert.deepEqual(after[before], PENDING);
      await t.screenshot('embed');
      await t.axe('embed with its Checks panel');
    },
  },
  {
    name: 'a scenario without checks sends none; the embed\'s panel says so, in Chinese',
    timeout: 60_000,
    allowConsole: [/favicon\.ico/, /status of 404/],
    async run(t) {
      const { assert } = t;
      const frame = await openHost(t, '?embed&lang=zh&panels=clock,checks');
      await post(t, { type: 'status' });
      await t.page.waitForFunction(() => window.got.some((m) => m.type === 'status'));
      const { checks, ...without } = SCENARIO;
      assert.ok(checks.length > 0);
      await post(t, { type: 'load', scenario: without });
      await t.page.waitForFunction(() => window.got.filter((m) => m.type === 'ready').length >= 2);
      // From here on (what the start-up scenario said before is not this one's).
      await t.page.evaluate(() => { window.got = []; });
      await post(t, { type: 'seek', ms: 2_400_000 });
      await t.page.waitForFunction(() => window.got.some((m) => m.type === 'delivered'), null, { timeout: 20_000 });
      assert.deepEqual(await checksMessages(t), []);
      await frame.locator('[data-testid="checks-none"]').waitFor();
      assert.match(await frame.locator('[data-testid="checks-none"]').textContent(), /没有声明检查/);
    },
  },
];
