// Phone (issue 22 item 7), at 390 x 844: the clock controls wrap onto the screen, the
// topology fits its frame, publishing is reachable without scrolling past every panel;
// and the counters in the topology's boxes are at least 11 px, on a phone and a desktop.

const ready = { ready: '[data-testid="topology"] .node' };
const PHONE = { width: 390, height: 844 };

/** Rendered px of the topology's counters: the info line's font size times the scale the
 *  drawing is shown at (its CSS width over its viewBox width). */
const counterPx = (page) => page.evaluate(() => {
  const svg = document.querySelector('[data-testid="topology"]');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const sizes = [...svg.querySelectorAll('.node .info')]
    .filter((t) => t.textContent.trim())
    .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  return { min: Math.min(...sizes), n: sizes.length };
});

/** Opens `at` afresh (a new document: a fragment change alone would not reload). */
async function open(t, at) {
  await t.page.goto('about:blank');
  await t.goto(at, ready);
}

export const tests = [
  {
    name: 'phone: the controls wrap onto the screen, speed presets and Jump included',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await page.setViewportSize(PHONE);
      await t.goto('', ready);
      const out = await page.evaluate(() => {
        const c = document.querySelector('.controls');
        const off = [...c.querySelectorAll('button, input, output, label')]
          .filter((e) => e.getClientRects().length)
          .filter((e) => { const r = e.getBoundingClientRect(); return r.right > window.innerWidth + 0.5 || r.left < -0.5; })
          .map((e) => e.dataset.testid || e.textContent.trim() || e.id);
        return { off, scrolls: c.scrollWidth - c.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth };
      });
      assert.deepEqual(out.off, [], 'controls past the screen\'s edge');
      assert.ok(out.scrolls <= 0, `the controls scroll sideways by ${out.scrolls} px`);
      assert.ok(out.page <= 0, `the page scrolls sideways by ${out.page} px`);
      for (const id of ['speed-10000', 'jump-input', 'jump-btn']) {
        assert.ok(await page.locator(`[data-testid="${id}"]`).isVisible(), id);
      }
      // Still usable: 10,000x and a jump from the wrapped row.
      await page.click('[data-testid="speed-10000"]');
      await page.fill('[data-testid="jump-input"]', '5m');
      await page.click('[data-testid="jump-btn"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="clock"]').textContent.trim() === '0:05:00.000');
    },
  },
  {
    name: 'phone: the topology fits its frame, every box in view without scrolling sideways',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await page.setViewportSize(PHONE);
      for (const at of ['', '#head-of-line-blocking', '#fix-delayed-plugin']) {
        await open(t, at);
        const fit = await page.evaluate(() => {
          const frame = document.querySelector('.topo-scroll');
          const f = frame.getBoundingClientRect();
          const clipped = [...document.querySelectorAll('[data-testid="topology"] .node .box')]
            .map((b) => b.getBoundingClientRect())
            .filter((r) => r.left < f.left - 0.5 || r.right > f.right + 0.5).length;
          return { scroll: frame.scrollWidth - frame.clientWidth, clipped };
        });
        assert.equal(fit.clipped, 0, `${at || 'sandbox'}: boxes cut by the frame`);
        assert.ok(fit.scroll <= 0, `${at || 'sandbox'}: the frame scrolls sideways by ${fit.scroll} px`);
      }
      await page.locator('.panel.topo').scrollIntoViewIfNeeded();
      await t.screenshot('phone-topology');
    },
  },
  {
    name: 'phone: the publish form comes right after the topology, before the queues and the rest',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await page.setViewportSize(PHONE);
      await t.goto('', ready);
      const y = await page.evaluate(() => {
        const top = (sel) => document.querySelector(sel).getBoundingClientRect().top + window.scrollY;
        return {
          topo: top('.panel.topo'), publish: top('[data-testid="publish"]'), queues: top('.panel.queues'),
          gallery: top('.panel.gallery'), log: top('[data-testid="log"]'), page: document.documentElement.scrollHeight,
        };
      });
      assert.ok(y.publish > y.topo && y.publish < y.queues && y.publish < y.log,
        `panel tops: ${JSON.stringify(y)}`);
      // The Publish link in the controls takes the reader there from anywhere.
      await page.click('[data-testid="go-publish"]');
      await page.waitForFunction(() => {
        const r = document.querySelector('[data-testid="publish-btn"]').getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      });
    },
  },
  {
    name: 'topology counters are at least 11 px on a desktop and a phone',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      for (const vp of [{ width: 1440, height: 900 }, PHONE]) {
        await page.setViewportSize(vp);
        for (const at of ['', '#head-of-line-blocking']) {
          await open(t, at);
          const px = await counterPx(page);
          assert.ok(px.n >= 2, 'counters drawn');
          assert.ok(px.min >= 11, `${vp.width} px, ${at || 'sandbox'}: counters at ${px.min.toFixed(2)} px`);
        }
      }
    },
  },
];
