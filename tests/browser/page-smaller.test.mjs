// The smaller items of issue 22: `order-{n}` numbers single publishes across publishes,
// Jump takes compound durations (and names a bad one), the sandbox's clock stops when
// nothing is left to happen, and the strategies table shows its parameters column whole;
// a gallery card's name and description wrap inside its card in both languages (a long
// RabbitMQ setting, `consumer_timeout_response`, ran past the card's edge, and in Chinese
// a description's exchange name, seen 2026-12-07).

const ready = { ready: '[data-testid="topology"] .node' };

const clockText = async (page) => (await page.locator('[data-testid="clock"]').first().textContent()).trim();

async function jumpTo(page, time) {
  await page.fill('[data-testid="jump-input"]', time);
  await page.click('[data-testid="jump-btn"]');
}

/** The gallery cards' names and descriptions that run past the card (text wider than its
 * box; a description is cut at three lines, not at the card's side). */
const namesPastTheCard = (page) => page.$$eval('.gallery .preset-name, .gallery .preset-desc', (ns) => ns
  .filter((n) => n.getClientRects().length && n.scrollWidth > n.clientWidth + 1)
  .map((n) => `${n.textContent.trim()}: ${n.scrollWidth} px in ${n.clientWidth}`));

export const tests = [
  {
    name: 'every gallery card\'s name and description wrap inside its card, English and Chinese, desktop and phone',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      for (const [vp, size] of [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
        await page.setViewportSize(size);
        for (const lang of ['en', 'zh']) {
          await page.click(`[data-testid="lang-${lang}"]`);
          // The cards' names in that language (the Chinese ones are fetched: zh-texts.json).
          await page.waitForFunction((zh) => [...document.querySelectorAll('.gallery .preset-name')]
            .some((n) => /[\u4e00-\u9fff]/.test(n.textContent)) === zh, lang === 'zh');
          assert.ok(await page.locator('.gallery .preset-name').count() >= 10, 'the gallery has its cards');
          assert.deepEqual(await namesPastTheCard(page), [], `${lang}, ${vp}: names past their card`);
        }
      }
    },
  },
  {
    name: 'three single publishes of order-{n} are order-1, order-2, order-3',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      assert.equal(await page.inputValue('[data-testid="pub-body"]'), 'order-{n}');
      for (let i = 0; i < 3; i++) await page.click('[data-testid="publish-btn"]');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="log-line"][data-kind="published"]').length === 3);
      const bodies = await page.$$eval('[data-testid="log-line"][data-kind="published"]', (els) => els.map((e) => e.dataset.body));
      assert.deepEqual(bodies.sort(), ['order-1', 'order-2', 'order-3']);
    },
  },
  {
    name: 'Jump takes 2h17m, and names the part of a bad time that is not one',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await jumpTo(page, '2h17m');
      await page.waitForFunction(() => document.querySelector('[data-testid="clock"]').textContent.trim() === '2:17:00.000');
      assert.equal(await page.locator('[data-testid="jump-error"]').count(), 0);
      await jumpTo(page, '2h17x');
      const err = page.locator('[data-testid="jump-error"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="jump-error"]')?.textContent?.includes('17x'));
      assert.match(await err.textContent(), /"17x".*2h17m/);
      assert.equal(await page.getAttribute('[data-testid="jump-input"]', 'aria-invalid'), 'true');
      assert.equal(await clockText(page), '2:17:00.000', 'a bad time moves nothing');
      await page.click('[data-testid="lang-zh"]');
      assert.match(await err.textContent(), /请输入时间/);
    },
  },
  {
    name: 'the sandbox clock stops once nothing is left to happen, and says so',
    timeout: 60_000,
    async run(t) {
      const { page, assert } = t;
      await t.goto('', ready);
      // One order that waits 5 s, played at 100x: expired, dead-lettered, delivered, acked.
      await page.click('[data-testid="quick-5000"]');
      await page.click('[data-testid="publish-btn"]');
      await page.click('[data-testid="speed-100"]');
      await page.click('[data-testid="play"]');
      const note = page.locator('[data-testid="quiet-stop"]');
      await note.waitFor({ timeout: 20_000 });
      assert.equal(await page.getAttribute('[data-testid="play"]', 'aria-pressed'), 'false');
      const at = await clockText(page);
      // Stopped at the last thing that happened: the ack, a handling time after delivery.
      const acked = await page.$$eval('[data-testid="log-line"][data-kind="acked"] .t', (els) => els.map((e) => e.textContent.trim()));
      assert.equal(acked.length, 1);
      assert.equal(at, acked[0].length < at.length ? `0:${acked[0]}` : acked[0], `stopped at ${at}, acked ${acked}`);
      assert.match(await note.textContent(), new RegExp(`Nothing is left to happen.*${at.replace(/\./g, '\\.')}`));
      await page.waitForTimeout(600);
      assert.equal(await clockText(page), at, 'the clock ran on');
      // Play again: time runs on, and the note goes.
      await page.click('[data-testid="play"]');
      await page.waitForFunction((a) => document.querySelector('[data-testid="clock"]').textContent.trim() !== a, at);
      assert.equal(await note.count(), 0);
    },
  },
  {
    name: 'the strategies table shows its parameters column whole at 1440 and 1280 px',
    timeout: 90_000,
    async run(t) {
      const { page, assert } = t;
      for (const vp of [{ width: 1440, height: 900 }, { width: 1280, height: 800 }]) {
        await page.setViewportSize(vp);
        await t.goto('', { ready: '[data-testid="strategies"]' });
        await page.locator('[data-testid="strategies"]').scrollIntoViewIfNeeded();
        await page.locator('[data-testid="strat-body"]').waitFor();
        await page.fill('[data-testid="strat-count"]', '200');
        await page.click('[data-testid="strat-run"]');
        await page.waitForFunction(
          () => document.querySelector('[data-testid="strat-status"]')?.textContent.trim() === 'done',
          null, { timeout: 30_000 });
        const cut = await page.evaluate(() => {
          const wrap = document.querySelector('.strat-table-wrap').getBoundingClientRect();
          return [...document.querySelectorAll('[data-testid="strat-table"] tbody tr')].map((tr) => {
            const td = tr.lastElementChild;
            const r = td.getBoundingClientRect();
            return { row: tr.dataset.testid, text: td.textContent.trim(), past: Math.round(r.right - wrap.right), hidden: td.scrollWidth - td.clientWidth };
          }).filter((c) => c.past > 1 || c.hidden > 1);
        });
        assert.deepEqual(cut, [], `${vp.width} px: parameters cut off`);
      }
      await page.locator('[data-testid="strat-table"]').scrollIntoViewIfNeeded();
      await t.screenshot('strategies-table');
    },
  },
];
