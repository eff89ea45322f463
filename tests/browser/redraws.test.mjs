// Speed as felt (issue 29 item 10): what the page redraws while the clock plays fast. In
// the 200,000-order preset's release at 1000x the frame rate fell to about 35 a second on
// a slower host: the lateness chart drew its 300 dots anew on every figures update, every
// log redraw built 150 new lines and every snapshot 60 new chips a queue. Now the dots
// are kept (their attributes follow), the log draws its newest 40 lines and each queue its
// first 12 chips while the clock moves, and all of them once it has stood still for a
// frame (so the frame answering Pause is not the one drawing them); the "+N more not
// shown" under a queue counts the ready messages without a chip. The release's first
// frame built all 300 dots at once (60-90 ms); now, while the clock moves, at most 30 new
// dots are built a frame, and the rest a frame after it stops. The frame rate itself is
// measured by zz-frames-200k.test.mjs.

import { jumpTo, ready, waitClock } from './views-lib.mjs';

const CHIPS = '[data-testid="queue-order.delay.queue"] [data-testid="chip"]';
const LINES = '[data-testid="log-line"]';

const count = (page, sel) => page.evaluate((s) => document.querySelectorAll(s).length, sel);

/** The delay queue's card at one instant: ready messages, chips drawn, "+N more not shown". */
const card = (page) => page.evaluate(() => {
  const el = document.querySelector('[data-testid="queue-order.delay.queue"]');
  const ready = Number(el.querySelector('.counts .count b')?.textContent);
  const chips = el.querySelectorAll('[data-testid="chip"]').length;
  const more = Number(/^\+(\d+)/.exec(el.querySelector('.more')?.textContent?.trim() ?? '')?.[1] ?? 0);
  return { ready, chips, more };
});

export const tests = [
  {
    name: 'the lateness chart keeps its dots as deliveries come in: only what changed is set',
    timeout: 240_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#promotion-burst-200k', ready);
      await jumpTo(page, '1:01:00');
      await waitClock(page, '1:01:00.000', 90_000);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="late-dot"]').length === 300, null, { timeout: 30_000 });
      const before = await page.evaluate(() => {
        const dots = [...document.querySelectorAll('[data-testid="late-dot"]')];
        dots.forEach((d, i) => { d.__kept = i; });
        // What a kept dot never changes, set again (each setAttribute is a record).
        window.__resets = 0;
        new MutationObserver((ms) => { window.__resets += ms.length; }).observe(
          document.querySelector('[data-testid="late-chart"]'),
          { subtree: true, attributes: true, attributeFilter: ['data-testid', 'role', 'data-i', 'r'] },
        );
        return dots[150].getAttribute('aria-label');
      });
      await jumpTo(page, '1:03:00');
      await waitClock(page, '1:03:00.000', 90_000);
      // The figures follow the new deliveries: the dot at place 150 is another one now...
      await page.waitForFunction(
        (name) => document.querySelectorAll('[data-testid="late-dot"]')[150]?.getAttribute('aria-label') !== name,
        before,
        { timeout: 30_000 },
      );
      // ...in the same elements, each still at its place, nothing set that did not change.
      const kept = await page.evaluate(() => [...document.querySelectorAll('[data-testid="late-dot"]')].map((d) => d.__kept));
      assert.equal(kept.length, 300);
      assert.deepEqual(kept, kept.map((_, i) => i), 'every dot element was kept at its place');
      assert.equal(await page.evaluate(() => window.__resets), 0, 'attributes that did not change were set again');
      // Its name and title say the delivery now drawn there.
      const now = await page.evaluate(() => {
        const d = document.querySelectorAll('[data-testid="late-dot"]')[150];
        return { name: d.getAttribute('aria-label'), title: d.querySelector('title').textContent, msg: d.getAttribute('data-msg') };
      });
      assert.equal(now.title, now.name);
      assert.ok(now.name.startsWith(`#${now.msg} `), JSON.stringify(now));
    },
  },
  {
    name: 'while the clock plays fast the log draws its newest 40 lines and a queue its first 12 chips; all once it stops',
    timeout: 240_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#promotion-burst-200k', ready);
      await page.click('[data-testid="speed-1000"]');
      await page.click('[data-testid="play"]');
      await page.waitForFunction(() => /^0:0[2-9]/.test(document.querySelector('[data-testid="clock"]')?.textContent?.trim() ?? ''), null, { timeout: 60_000 });
      // Sampled over a few frames while it plays (the log redraws every 700 ms).
      let lines = 0;
      let chips = 0;
      for (let i = 0; i < 10; i++) {
        lines = Math.max(lines, await count(page, LINES));
        chips = Math.max(chips, await count(page, CHIPS));
        await page.waitForTimeout(150);
      }
      assert.ok(lines > 0 && lines <= 40, `log lines while playing: ${lines}`);
      assert.ok(chips > 0 && chips <= 12, `chips while playing: ${chips}`);
      // What is not drawn is counted as not shown.
      const playing = await card(page);
      assert.equal(playing.more, playing.ready - playing.chips, JSON.stringify(playing));
      await page.click('[data-testid="play"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="play"]')?.getAttribute('aria-pressed') !== 'true');
      // Stopped: every line and chip the views keep.
      await page.waitForFunction((s) => document.querySelectorAll(s).length === 150, LINES, { timeout: 10_000 });
      await page.waitForFunction((s) => document.querySelectorAll(s).length === 60, CHIPS, { timeout: 10_000 });
      assert.match(await page.locator('[data-testid="log"]').innerText(), /150 \/ /);
      const still = await card(page);
      assert.deepEqual(still, { ready: still.ready, chips: 60, more: still.ready - 60 });
    },
  },
  {
    name: 'as the release begins at 1000x the lateness chart builds at most 30 dots a frame; all 300 once paused',
    timeout: 240_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#promotion-burst-200k', ready);
      await jumpTo(page, '0:59:50');
      await waitClock(page, '0:59:50.000', 90_000);
      const before = await count(page, '[data-testid="late-dot"]');
      assert.ok(before < 30, `${before} dots before the release`);
      await page.click('[data-testid="speed-1000"]');
      // The dots drawn at every frame, recorded in the page.
      await page.evaluate(() => {
        const rec = { counts: [], clocks: [] };
        window.__dots = rec;
        const tick = () => {
          rec.counts.push(document.querySelectorAll('[data-testid="late-dot"]').length);
          rec.clocks.push(document.querySelector('[data-testid="clock"]')?.textContent?.trim() ?? '');
          if (!rec.stop && rec.counts.length < 2000) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      await page.click('[data-testid="play"]');
      // Until the chart has grown twice (a figures update comes at most every 0.5 s while
      // the clock moves: a fast host plays through a short window between two of them),
      // or the release is 10 minutes in.
      await page.waitForFunction(() => {
        const r = window.__dots;
        return (r.counts.at(-1) ?? 0) >= 60 || (r.clocks.at(-1) ?? '') >= '1:10:00';
      }, null, { timeout: 60_000, polling: 50 });
      // Recorded while playing only: Pause draws the rest at once, as it should.
      await page.evaluate(() => { window.__dots.stop = true; });
      await page.click('[data-testid="play"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="play"]')?.getAttribute('aria-pressed') !== 'true');
      const rec = await page.evaluate(() => window.__dots);
      const grew = rec.counts.slice(1).map((n, i) => n - rec.counts[i]);
      const most = Math.max(...grew);
      assert.ok(most > 0, `no dot was built while playing: ${rec.counts.join(' ')}`);
      assert.ok(most <= 30, `${most} dots built in one frame: ${rec.counts.join(' ')}`);
      // Stopped: every place has its dot.
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="late-dot"]').length === 300, null, { timeout: 10_000 });
    },
  },
];
