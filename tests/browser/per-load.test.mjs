// What a view keeps for the loaded scenario (delaylab_playground::per_load): the user's
// own values survive a restart of the same scenario and give way to the view's
// suggestion when another scenario loads. No effect rewrites them (issue 13, item 1).

const ready = { ready: '[data-testid="topology"] .node' };
const top = (t) => t.page.evaluate(() => window.scrollTo(0, 0));

/** The translate of a topology node, as [x, y]. */
async function at(page, id) {
  const tr = await page.locator(`[data-testid="node-${id}"]`).getAttribute('transform');
  const m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(tr || '');
  return m ? [Number(m[1]), Number(m[2])] : null;
}

export const tests = [
  {
    name: 'a dragged box stays over a restart; a new scenario lays out afresh',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      const id = 'q:order.delay.queue';
      const node = page.locator(`[data-testid="node-${id}"]`);
      await node.waitFor();
      const before = await at(page, id);
      assert.ok(before, 'the node has a position');
      // Keyboard moves are the drag without a pointer: two steps right.
      await node.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      const moved = await at(page, id);
      assert.ok(moved[0] > before[0], `moved right: ${before} -> ${moved}`);
      await page.click('[data-testid="restart"]');
      assert.deepEqual(await at(page, id), moved, 'a restart keeps the arrangement');
      // Another scenario, then back: the arrangement belonged to the first load.
      await page.click('[data-testid="preset-sandbox"]');
      await page.click('[data-testid="preset-head-of-line-blocking"]');
      await node.waitFor();
      assert.deepEqual(await at(page, id), before, 'a new load lays out from scratch');
      await top(t);
    },
  },
  {
    name: 'the binding form suggests the scenario\'s ends until the user types one',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await page.click('[data-testid="edit-open"]');
      await t.partsReady();
      await page.click('[data-testid="edit-binding-open"]');
      const source = page.locator('[data-testid="b-source"]');
      const suggested = await source.inputValue();
      assert.ok(suggested.length > 0, 'an exchange is suggested');
      await page.fill('[data-testid="b-source"]', 'my.exchange');
      await page.click('[data-testid="restart"]');
      assert.equal(await source.inputValue(), 'my.exchange', 'typed text survives a restart');
      await page.click('[data-testid="preset-sandbox"]');
      await page.waitForFunction(
        (s) => document.querySelector('[data-testid="b-source"]')?.value !== s,
        'my.exchange',
      );
      assert.notEqual(await source.inputValue(), 'my.exchange', 'a new scenario suggests again');
      await top(t);
    },
  },
  {
    name: 'a copied link and the JSON editor\'s own edits belong to their scenario',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking', ready);
      await page.click('[data-testid="copy-link"]');
      await page.locator('[data-testid="share-link"]').waitFor();
      const json = page.locator('[data-testid="scenario-json"]');
      await page.locator('#json-h').click();
      const original = await json.inputValue();
      await json.fill('{ "edited": true }');
      await page.click('[data-testid="restart"]');
      assert.equal(await json.inputValue(), '{ "edited": true }', 'edits survive a restart');
      await page.click('[data-testid="preset-sandbox"]');
      await page.waitForFunction(() => !document.querySelector('[data-testid="share-link"]'));
      const now = await json.inputValue();
      assert.notEqual(now, '{ "edited": true }', 'a new scenario shows its own JSON');
      assert.notEqual(now, original);
      assert.ok(JSON.parse(now).topology, 'the sandbox as JSON');
      await top(t);
    },
  },
];
