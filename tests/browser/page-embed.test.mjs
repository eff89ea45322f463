// Embeds and pages (issue 22 item 6): the Embed snippet opens at the state Copy link
// describes (time, published messages), its height shows the panels it lists, the
// DLX edge stays clear of the delayed exchange in an 800 px embed, the lesson's
// embed shows its queues, and the playground links to the lesson and the quiz.

const ready = { ready: '[data-testid="topology"] .node' };
const EMBED_READY = '[data-testid="embed"] [data-testid="topology"] .node';

async function waitClock(page, want, timeout = 30_000) {
  await page.waitForFunction(
    (w) => document.querySelector('[data-testid="clock"]')?.textContent?.trim() === w,
    want,
    { timeout },
  );
}

async function jumpTo(page, time) {
  await page.fill('[data-testid="jump-input"]', time);
  await page.click('[data-testid="jump-btn"]');
}

/** The Embed box's snippet, parsed: src, and the height the frame starts at (its script
 * then fits it to the embed's `size` messages: page-infra.test.mjs). */
async function snippet(page) {
  await page.click('[data-testid="embed-btn"]');
  const box = page.locator('[data-testid="embed-snippet"]');
  await box.waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="embed-snippet"]')?.value?.startsWith('<iframe'));
  const text = await box.inputValue();
  const src = /src="([^"]+)"/.exec(text)[1].replace(/&amp;/g, '&');
  const height = Number(/height:(\d+)px/.exec(text)[1]);
  return { text, src, height };
}

/** A host page (a file of the test server) framing `src` at `width` x `height`. */
async function host(t, src, width, height) {
  await t.page.goto(new URL('/www/lesson.css', t.baseUrl).href);
  await t.page.evaluate(({ url, w, h }) => {
    const f = document.createElement('iframe');
    f.id = 'f';
    f.width = String(w);
    f.height = String(h);
    f.style.border = '0';
    f.src = url;
    document.body.style.margin = '0';
    document.body.replaceChildren(f);
  }, { url: src, w: width, h: height });
  const frame = t.page.frameLocator('#f');
  await frame.locator(EMBED_READY).first().waitFor({ timeout: 30_000 });
  return t.page.frames().find((f) => f.url().includes('embed'));
}

export const tests = [
  {
    name: 'the embed snippet opens at the time and with the messages Copy link keeps',
    timeout: 90_000,
    allowConsole: [/favicon\.ico/, /status of 404/],
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      // Three orders, each waiting 30 minutes in the wait queue.
      await page.click('[data-testid="quick-1800000"]');
      for (let i = 0; i < 3; i++) await page.click('[data-testid="publish-btn"]');
      await jumpTo(page, '10:00');
      await waitClock(page, '0:10:00.000');
      const { src } = await snippet(page);
      const frame = await host(t, src, 800, 900);
      await frame.waitForFunction(() => document.querySelector('[data-testid="clock"]')?.textContent?.trim() === '0:10:00.000',
        null, { timeout: 30_000 });
      const chips = await frame.$$eval('[data-testid="chip"] .chip-body', (els) => els.map((e) => e.textContent.trim()));
      assert.deepEqual(chips.slice(0, 3), ['order-1', 'order-2', 'order-3'], `queued: ${chips}`);
    },
  },
  {
    name: 'the snippet\'s starting height shows every panel it lists, the queues included',
    timeout: 90_000,
    allowConsole: [/favicon\.ico/, /status of 404/],
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      const { src, height } = await snippet(page);
      assert.match(src, /panels=clock,topology,queues/);
      for (const width of [800, 600, 1000]) {
        const frame = await host(t, src, width, height);
        const bottoms = await frame.evaluate(() => ({
          queues: document.querySelector('.panel.queues')?.getBoundingClientRect().bottom,
          topology: document.querySelector('.panel.topo')?.getBoundingClientRect().bottom,
          inner: window.innerHeight,
        }));
        assert.ok(bottoms.queues, 'a queues panel');
        assert.ok(bottoms.topology <= bottoms.inner && bottoms.queues <= bottoms.inner + 1,
          `at ${width} px in a ${height} px frame: ${JSON.stringify(bottoms)}`);
      }
    },
  },
  {
    name: 'in an 800 px embed the DLX edge and its label keep off the delayed exchange',
    timeout: 60_000,
    allowConsole: [/favicon\.ico/, /status of 404/],
    async run(t) {
      const { assert } = t;
      // The sandbox no longer has the plugin (issue 22: it teaches what runs on 4.3): the
      // preset with both a DLX wait queue and the delayed exchange takes its place.
      const frame = await host(t, new URL('?embed#plugin-node-lost', t.baseUrl).href, 800, 1000);
      await frame.waitForSelector('.node.delayed-x');
      const hit = await frame.evaluate(() => {
        const delayed = document.querySelector('.node.delayed-x');
        const box = delayed.querySelector('.box');
        const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(delayed.getAttribute('transform'));
        const r = { x: +m[1], y: +m[2], w: +box.getAttribute('width'), h: +box.getAttribute('height') };
        const inside = (p) => p.x > r.x + 2 && p.x < r.x + r.w - 2 && p.y > r.y + 2 && p.y < r.y + r.h - 2;
        const out = { through: 0, label: false, edges: 0 };
        for (const path of document.querySelectorAll('.edges .edge.dlx path')) {
          out.edges++;
          const len = path.getTotalLength();
          for (let i = 0; i <= 100; i++) if (inside(path.getPointAtLength((len * i) / 100))) out.through++;
        }
        for (const label of document.querySelectorAll('.edge-labels .edge.dlx text')) {
          const b = label.getBBox();
          const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]];
          if (corners.some(([x, y]) => inside({ x, y }))) out.label = true;
        }
        return out;
      });
      assert.ok(hit.edges >= 1, 'a DLX edge is drawn');
      assert.equal(hit.through, 0, 'points of the DLX edge inside the delayed exchange');
      assert.equal(hit.label, false, 'the DLX label covers the delayed exchange');
      await t.page.locator('#f').scrollIntoViewIfNeeded();
      await t.screenshot('embed-800');
    },
  },
  {
    name: 'the lesson\'s first embed shows the queues panel once seeked to 6:00',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('www/lesson-head-of-line.html', { ready: 'main' });
      await page.waitForSelector('[data-testid="demo-hol"][data-ready="true"]', { timeout: 30_000 });
      await page.click('[data-testid="seek-6"]');
      const frame = page.frames().find((f) => f.url().includes('head-of-line-blocking'));
      await frame.waitForSelector('[data-testid="queue-order.delay.queue"] [data-testid="overdue-count"]');
      const seen = await frame.evaluate(() => {
        const q = document.querySelector('[data-testid="queue-order.delay.queue"]').getBoundingClientRect();
        return { bottom: q.bottom, inner: window.innerHeight };
      });
      assert.ok(seen.bottom <= seen.inner, `the overdue queue is below the frame's fold: ${JSON.stringify(seen)}`);
    },
  },
  {
    name: 'the playground links to the lesson and the quiz, in both languages',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      const lesson = page.locator('[data-testid="lesson-link"]');
      const quiz = page.locator('[data-testid="quiz-link"]');
      assert.match(await lesson.textContent(), /Lesson/);
      assert.match(await quiz.textContent(), /Quiz/);
      await page.click('[data-testid="lang-zh"]');
      assert.match(await lesson.textContent(), /课程/);
      assert.match(await quiz.textContent(), /小测验/);
      assert.match(await quiz.getAttribute('href'), /quiz-head-of-line\.html\?lang=zh$/);
      await quiz.click();
      await page.waitForSelector('[data-testid="quiz"]');
      // The page's module script sets the language once it runs, after the static page is
      // parsed (seen on a loaded machine: still "en" when the quiz element appeared).
      await page.waitForFunction(() => document.documentElement.lang === 'zh-CN', null, { timeout: 10_000 })
        .catch(() => {});
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
      await page.goBack();
      await page.waitForSelector(ready.ready);
      await lesson.click();
      await page.waitForSelector('[data-testid="demo-hol"]');
    },
  },
];
