// Embed mode (?embed), its postMessage API and the lesson page in www/ (issue 4, parts 5-9).
// The lesson drives its first embed from the page; a host page on another origin
// (localhost vs 127.0.0.1) is ignored unless the embed's `origins=` lists it.

const EMBED = { ready: '[data-testid="embed"] [data-testid="topology"] .node' };
const LESSON = 'www/lesson-head-of-line.html';

/** The same server under the other loopback name: another origin. */
function otherOrigin(baseUrl) {
  const u = new URL(baseUrl);
  u.hostname = u.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return u;
}

async function frameClock(frame) {
  return (await frame.locator('[data-testid="clock"]').textContent())?.trim();
}

async function waitFrameClock(frame, want, timeout = 30_000) {
  const t0 = Date.now();
  for (;;) {
    if ((await frameClock(frame)) === want) return;
    if (Date.now() - t0 > timeout) throw new Error(`clock ${await frameClock(frame)}, wanted ${want}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Opens a host page on `hostOrigin` that frames `src` and records every message the frame
 * posts in window.got. The host is a plain document from the same test server (a file
 * shown as text: no CSP of its own), so that Chromium's local-network checks see a
 * loopback page framing a loopback page. A text document has no favicon link: the
 * browser asks for /favicon.ico, which the test server does not have.
 */
async function openHost(t, hostOrigin, src) {
  await t.page.goto(new URL('/www/lesson.css', hostOrigin).href);
  await t.page.evaluate((url) => {
    window.got = [];
    window.addEventListener('message', (e) => window.got.push({ origin: e.origin, data: e.data }));
    const f = document.createElement('iframe');
    f.id = 'f';
    f.width = '600';
    f.height = '500';
    f.src = url;
    // At the top, in view: browsers pause animation frames of off-screen cross-origin frames.
    document.body.replaceChildren(f);
  }, src);
  const frame = t.page.frameLocator('#f');
  await frame.locator(EMBED.ready).first().waitFor({ timeout: 30_000 });
  return frame;
}

const post = (t, msg) => t.page.evaluate((m) => {
  const f = document.getElementById('f');
  f.contentWindow.postMessage(m, new URL(f.src).origin);
}, msg);

const got = (t) => t.page.evaluate(() => window.got.map((g) => g.data));

async function waitFor(t, pred, what, timeout = 15_000) {
  const t0 = Date.now();
  for (;;) {
    const msgs = await got(t);
    const hit = msgs.find(pred);
    if (hit) return hit;
    if (Date.now() - t0 > timeout) throw new Error(`no ${what}; got ${JSON.stringify(msgs).slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Opens the lesson and waits until every embed has said `ready` to it. */
async function openLesson(t) {
  await t.goto(LESSON, { ready: 'main' });
  for (const demo of ['demo-hol', 'demo-queues', 'demo-plugin']) {
    await t.page.waitForSelector(`[data-testid="${demo}"][data-ready="true"]`, { timeout: 30_000 });
  }
}

export const tests = [
  {
    name: 'lesson page: both embeds are ready',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await openLesson(t);
      const hol = page.frameLocator('[data-testid="frame-hol"]');
      const plugin = page.frameLocator('[data-testid="frame-plugin"]');
      assert.equal(await hol.locator('[data-testid="scenario-name"]').textContent(), 'Head-of-line blocking');
      assert.match(await plugin.locator('[data-testid="scenario-name"]').textContent(), /plugin/);
      assert.match(await page.locator('[data-testid="hol-status"]').textContent(), /live: Head-of-line blocking/);
      // Read-only embeds: no publish form.
      assert.equal(await hol.locator('[data-testid="publish"]').count(), 0);
      // The embeds link to the full playground, without ?embed.
      const href = await hol.locator('[data-testid="open-full"]').getAttribute('href');
      assert.ok(href && !href.includes('embed') && href.includes('#'), `open link ${href}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `lesson scrolls sideways by ${overflow}px`);
    },
  },
  {
    name: 'lesson page drives the DLX embed: seek 6:00, seek 30:00, play delivers',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await openLesson(t);
      const hol = page.frameLocator('[data-testid="frame-hol"]');
      await page.click('[data-testid="seek-6"]');
      await waitFrameClock(hol, '0:06:00.000');
      // B expired but is stuck behind A: overdue in the wait queue, nothing delivered.
      await hol.locator('[data-testid="queue-order.delay.queue"] [data-testid="overdue-count"]', { hasText: '1' })
        .waitFor({ timeout: 10_000 });
      assert.equal(await page.locator('[data-testid="delivered-list"] li').count(), 0);
      await page.click('[data-testid="seek-30"]');
      await waitFrameClock(hol, '0:30:00.000');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="delivered-list"] li').length === 2);
      const items = await page.locator('[data-testid="delivered-list"] li').allTextContents();
      assert.match(items[0], /#1 A → order\.dlx\.queue at 30:00 ✓ on time/);
      assert.match(items[1], /#2 B → order\.dlx\.queue at 30:00 ⚠ 24:00 late \(late_ms 1440000\)/);
      // Back to 6:00 (a replay from 0): the deliveries after 6:00 leave the list.
      await page.click('[data-testid="seek-6"]');
      await waitFrameClock(hol, '0:06:00.000');
      assert.equal(await page.locator('[data-testid="delivered-list"] li').count(), 0);
      // Play at 1000x: A and B arrive by themselves.
      await page.selectOption('select[data-cmd="speed"]', '1000');
      await page.click('button[data-cmd="play"]');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="delivered-list"] li').length === 2,
        null, { timeout: 30_000 });
      await page.click('button[data-cmd="pause"]');
      // The pause is a message the embed takes between two frames: one more frame may run
      // before it (read at once, the clock was a frame behind now and then).
      await page.waitForTimeout(150);
      const clock = await frameClock(hol);
      await page.waitForTimeout(400);
      assert.equal(await frameClock(hol), clock, 'the clock moved after pause');
    },
  },
  {
    name: 'a host on another origin is ignored unless listed in origins=',
    timeout: 90_000,
    allowConsole: [/favicon\.ico/, /status of 404/],
    async run(t) {
      const { assert } = t;
      const host = otherOrigin(t.baseUrl);
      const embedUrl = new URL('?embed&speed=1000#fix-delayed-plugin', t.baseUrl).href;
      let frame = await openHost(t, host, embedUrl);
      await post(t, { type: 'status' });
      await post(t, { type: 'seek', ms: 600000 });
      await post(t, { type: 'play' });
      await t.page.waitForTimeout(1500);
      // `size` (the content's height, nothing else) goes to any parent by design (README,
      // postMessage API): a host that is not allowed hears nothing more.
      const answered = (await got(t)).filter((m) => m.type !== 'size');
      assert.deepEqual(answered, [], 'the embed answered a host it does not allow');
      assert.equal(await frameClock(frame), '0:00:00.000', 'a disallowed host moved the clock');

      // Listed: the same host gets `ready` and drives it.
      const listed = new URL(`?embed&speed=1000&origins=${encodeURIComponent(host.origin)}#fix-delayed-plugin`, t.baseUrl).href;
      frame = await openHost(t, host, listed);
      const ready = await waitFor(t, (m) => m.type === 'ready', 'ready');
      assert.equal(ready.version, 1);
      assert.match(ready.scenario, /plugin/);
      await post(t, { type: 'seek', ms: 360000 });
      const b = await waitFor(t, (m) => m.type === 'delivered', 'delivered');
      assert.deepEqual(b, { type: 'delivered', id: 2, body: 'B', queue: 'order.close.queue', at_ms: 360000, late_ms: 0 });
      await waitFrameClock(frame, '0:06:00.000');
      // Opt in to engine events: A's delivery at 30:00 comes as trace JSON, in batches.
      assert.ok(!(await got(t)).some((m) => m.type === 'event'), 'events sent before subscribing');
      await post(t, { type: 'subscribe', events: true });
      await post(t, { type: 'seek', ms: 1800000 });
      const batch = await waitFor(t, (m) => m.type === 'event' && m.events.some((e) => e.event === 'delivered'), 'event');
      const ev = batch.events.find((e) => e.event === 'delivered');
      assert.equal(ev.msg, 1);
      assert.equal(ev.t_ms, 1800000);
      assert.ok((await got(t)).every((m) => m.type !== 'event' || m.events.length <= 500), 'a batch over the cap');
    },
  },
  {
    // The host's tap belongs to the app, not to a runner: a seek back (a new runner, from
    // the host or from the embed's own Jump box) sends the replayed run from its first
    // event, each once, in order.
    name: 'a seek back replays to a subscribed host every event and delivery, once, in order',
    timeout: 90_000,
    allowConsole: [/favicon\.ico/, /status of 404/],
    async run(t) {
      const { page, assert } = t;
      const frame = await openHost(t, new URL(t.baseUrl), new URL('?embed', t.baseUrl).href);
      await waitFor(t, (m) => m.type === 'ready', 'ready');
      await post(t, { type: 'subscribe', events: true });
      // 40 orders 5 s apart wait 60 s each in one wait queue; "late" (1 s) waits behind the first.
      await post(t, {
        type: 'load',
        scenario: {
          version: 1, name: 'replay', until: '10m',
          topology: {
            exchanges: [{ name: 'dlx', type: 'fanout' }],
            queues: [{ name: 'wait', arguments: { 'x-dead-letter-exchange': 'dlx' } }, { name: 'done' }],
            bindings: [{ source: 'dlx', destination: 'done', destination_type: 'queue', routing_key: '' }],
          },
          consumers: [{ name: 'c', queue: 'done', ack: 'auto' }],
          actions: [
            { at: '0s', publish: { exchange: '', routing_key: 'wait', body: 'm{n}', properties: { expiration: '60000' } },
              repeat: { count: 40, every: '5s' } },
            { at: '2s', publish: { exchange: '', routing_key: 'wait', body: 'late', properties: { expiration: '1000' } } },
          ],
        },
      });
      await waitFor(t, (m) => m.type === 'ready' && m.scenario === 'replay', 'ready after load');
      const mark = async () => (await got(t)).length;
      /** What the host got from message `from` on: the events (flattened) and the deliveries. */
      const since = async (from) => {
        const msgs = (await got(t)).slice(from);
        assert.deepEqual(msgs.filter((m) => m.type === 'dropped'), [], 'over the per-frame caps');
        return {
          events: msgs.filter((m) => m.type === 'event').flatMap((m) => m.events),
          delivered: msgs.filter((m) => m.type === 'delivered'),
        };
      };
      /** Waits until `n` deliveries since `from` and the stream has been quiet a while. */
      const settle = async (from, n) => {
        await page.waitForFunction(([k, want]) => window.got.slice(k).filter((g) => g.data.type === 'delivered').length >= want,
          [from, n], { timeout: 30_000 });
        let len = -1;
        while (len !== (len = await mark())) await page.waitForTimeout(300);
        return since(from);
      };
      const loaded = (await got(t)).findIndex((m) => m.type === 'ready' && m.scenario === 'replay');
      await post(t, { type: 'seek', ms: 300000 });
      await waitFrameClock(frame, '0:05:00.000');
      const run1 = await settle(loaded, 41);
      assert.equal(run1.delivered.length, 41);
      // The load's own events are there, from the topology declared at 0.
      assert.equal(run1.events[0].t_ms, 0);
      assert.ok(run1.events.some((e) => e.event === 'queue_declared' && e.queue === 'wait'),
        `no queue_declared: ${JSON.stringify(run1.events.slice(0, 5))}`);
      assert.deepEqual(run1.delivered.map((d) => d.body).slice(0, 3), ['m1', 'late', 'm2']);
      const upTo = (run, ms) => ({
        events: run.events.filter((e) => e.t_ms <= ms),
        delivered: run.delivered.filter((d) => d.at_ms <= ms),
      });

      // Back to 2:32.5 through the API: a restart, then a replay to there.
      let from = await mark();
      await post(t, { type: 'seek', ms: 152500 });
      await waitFrameClock(frame, '0:02:32.500');
      let run2 = await settle(from, 20);
      assert.equal(run2.delivered.length, 20);
      assert.deepEqual(run2, upTo(run1, 152500), 'the replay differs from the first run');

      // Back to 1:00.5 through the embed's own Jump box: the same seek, the same stream.
      from = await mark();
      await frame.locator('[data-testid="jump-input"]').fill('1:00.5');
      await frame.locator('[data-testid="jump-btn"]').click();
      await waitFrameClock(frame, '0:01:00.500');
      run2 = await settle(from, 2);
      assert.deepEqual(run2, upTo(run1, 60500), 'the Jump box replay differs from the first run');
    },
  },
  {
    name: 'bad host messages get an error reply; a loaded scenario shows hostile text as text',
    timeout: 90_000,
    allowConsole: [/favicon\.ico/, /status of 404/],
    async run(t) {
      const { page, assert } = t;
      const embedUrl = new URL('?embed&panels=clock,topology,queues,log#head-of-line-blocking', t.baseUrl).href;
      const frame = await openHost(t, new URL(t.baseUrl), embedUrl);
      await waitFor(t, (m) => m.type === 'ready', 'ready');
      const errors = async (n) => {
        await page.waitForFunction((k) => window.got.filter((g) => g.data.type === 'error').length >= k, n);
        return (await got(t)).filter((m) => m.type === 'error');
      };
      await post(t, 'play');
      await post(t, { type: 'seek', ms: -5 });
      await post(t, { type: 'speed', value: 0 });
      await post(t, { type: 'fly' });
      await post(t, { type: 'load', scenario: { version: 1, name: 'x', topology: { queues: [{ name: 7 }] } } });
      const e = await errors(5);
      assert.match(e[0].message, /must be an object/);
      assert.equal(e[1].request, 'seek');
      assert.equal(e[2].request, 'speed');
      assert.match(e[3].message, /unknown message type "fly"/);
      assert.equal(e[4].request, 'load');
      assert.match(e[4].message, /^scenario topology\.queues\[0\]\.name/);

      const hostile = '<img src=x onerror="window.parent.pwned=1">';
      await post(t, {
        type: 'load',
        scenario: {
          version: 1, name: `evil ${hostile}`, until: '1m',
          topology: { queues: [{ name: `q${hostile}` }] },
          consumers: [{ name: 'c', queue: `q${hostile}`, ack: 'auto' }],
          actions: [{ at: '1s', publish: { exchange: '', routing_key: `q${hostile}`, body: hostile } }],
        },
      });
      await waitFor(t, (m) => m.type === 'ready' && m.scenario.startsWith('evil'), 'ready after load');
      await post(t, { type: 'seek', ms: 5000 });
      const d = await waitFor(t, (m) => m.type === 'delivered', 'delivered');
      assert.equal(d.body, hostile);
      assert.equal(d.queue, `q${hostile}`);
      assert.equal(await frame.locator('[data-testid="scenario-name"]').textContent(), `evil ${hostile}`);
      assert.equal(await frame.locator('img').count(), 0, 'an <img> was created from a message');
      assert.equal(await page.evaluate(() => window.pwned), undefined);
    },
  },
  {
    name: 'embed fits 320 px and 1200 px wide without sideways scroll',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      for (const width of [320, 1200]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto('about:blank');
        await t.goto('?embed&panels=clock,topology,queues,watch,charts,log#head-of-line-blocking', EMBED);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${width}px: the page scrolls sideways by ${overflow}px`);
        for (const id of ['clock', 'play', 'topology', 'queue-order.delay.queue', 'open-full']) {
          const box = await page.locator(`[data-testid="${id}"]`).first().boundingBox();
          assert.ok(box && box.x >= 0 && box.x + box.width <= width + 0.5, `${width}px: ${id} at ${JSON.stringify(box)}`);
        }
        await page.screenshot({ path: `tests/artifacts/embed--width-${width}.png`, fullPage: true });
      }
      await page.setViewportSize({ width: 1440, height: 900 });
    },
  },
  {
    name: 'the app and the lesson run under a strict CSP that refuses inline scripts',
    // The one refusal this test provokes on purpose.
    allowConsole: [/Content Security Policy/],
    async run(t) {
      const { page, assert } = t;
      for (const [path, ready] of [['', '[data-testid="app"]'], [LESSON, 'main']]) {
        await t.goto(path, { ready });
        const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
        assert.match(csp, /script-src 'self'( 'wasm-unsafe-eval')?;/, `${path}: ${csp}`);
        assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/);
        const ran = await page.evaluate(() => {
          const s = document.createElement('script');
          s.textContent = 'window.inlineRan = true';
          document.body.append(s);
          return window.inlineRan === true;
        });
        assert.equal(ran, false, `${path}: an inline script ran`);
      }
    },
  },
  {
    name: 'bad embed options and a broken link are named as text',
    async run(t) {
      const { page, assert } = t;
      await t.goto('?embed&speed=fast&panels=clock,<b>x</b>#not-a-link-<img src=x>', { ready: '[data-testid="embed"]' });
      const notes = await page.locator('[data-testid="embed-notes"]').textContent();
      assert.match(notes, /speed="fast"/);
      assert.match(notes, /panels: "<b>x<\/b>"/);
      assert.ok(await page.locator('[data-testid="embed-error"]').count() > 0, 'no error for a broken link');
      assert.equal(await page.locator('[data-testid="embed"] img, [data-testid="embed"] b b').count(), 0);
    },
  },
  {
    name: 'the Embed button writes an iframe snippet that opens the same scenario',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', { ready: '[data-testid="topology"] .node' });
      await page.click('[data-testid="preset-fix-delayed-plugin"]');
      await page.click('[data-testid="embed-btn"]');
      const snippet = await page.locator('[data-testid="embed-snippet"]').inputValue();
      const m = snippet.match(/^<iframe src="([^"]+)" title="delaylab: ([^"]+)"/);
      assert.ok(m, `snippet ${snippet}`);
      const src = m[1].replace(/&amp;/g, '&');
      assert.ok(src.startsWith(new URL('?embed', t.baseUrl).href), src);
      await page.goto(src);
      await page.waitForSelector(EMBED.ready, { timeout: 30_000 });
      assert.equal(await page.locator('[data-testid="scenario-name"]').textContent(), m[2]);
      assert.equal(await page.locator('[data-testid="publish"]').count(), 0, 'read-only by default');
    },
  },
];
