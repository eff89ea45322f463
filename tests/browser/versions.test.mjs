// The RabbitMQ version selector and the badge (issue 12): 3.10 is the live-checked
// profile; another version says where its rules come from, lists the applied differences,
// and a change of version reloads the scenario on it and goes into the share link.
const badge = '[data-testid="checked-badge"]';
const picker = '[data-testid="broker-version"]';

/** Clicks "Copy link" and returns the link from the read-only field. */
async function copyLink(page) {
  await page.click('[data-testid="copy-link"]');
  const field = page.locator('[data-testid="share-link"]');
  await field.waitFor();
  return field.inputValue();
}

export const tests = [
  {
    name: 'a 4.2 preset says its rules are from source and release notes, and lists them',
    async run(t) {
      await t.goto('#upgrade-to-4-3-delayed-orders', { ready: '[data-testid="app"]' });
      await t.page.waitForFunction((sel) => document.querySelector(sel)?.value === '4.2', picker);
      const text = await t.page.locator(badge).textContent();
      t.assert.match(text, /RabbitMQ 4\.2/);
      t.assert.match(text, /not a live broker/);
      t.assert.doesNotMatch(text, /Checked against/);
      await t.page.click(badge);
      const notes = t.page.locator('[data-testid="version-notes"] li');
      t.assert.ok((await notes.count()) >= 5, 'the 4.0 notes list the applied rows');
      const all = (await notes.allTextContents()).join('\n');
      t.assert.match(all, /D8/, 'the default delivery limit of 20 (D8) is among them');
    },
  },
  {
    name: 'a 3.10 preset is checked live; choosing 4.2 reloads it on 4.2 and the share link keeps it',
    async run(t) {
      await t.goto('#head-of-line-blocking', { ready: '[data-testid="app"]' });
      t.assert.equal(await t.page.locator(picker).inputValue(), '3.10');
      t.assert.match(await t.page.locator(badge).textContent(), /Checked against RabbitMQ 3\.10\.8/);
      await t.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(t.baseUrl).origin });
      await t.page.selectOption(picker, '4.2');
      await t.page.waitForFunction((sel) => /not a live broker/.test(document.querySelector(sel)?.textContent ?? ''), badge);
      t.assert.equal(await t.page.locator('[data-testid="clock"]').first().textContent().then((s) => s.trim()), '0:00:00.000');
      const json = await t.page.locator('[data-testid="scenario-json"]').inputValue();
      t.assert.equal(JSON.parse(json).broker, '4.2', 'the scenario now names its version');
      const link = await copyLink(t.page);
      const p = await t.page.context().newPage();
      await p.goto(link);
      await p.waitForSelector(picker);
      await p.waitForFunction((sel) => document.querySelector(sel)?.value === '4.2', picker);
      await p.close();
      // Back to 3.10: `broker` leaves the scenario again (an absent broker is 3.10).
      await t.page.selectOption(picker, '3.10');
      await t.page.waitForFunction((sel) => /Checked against/.test(document.querySelector(sel)?.textContent ?? ''), badge);
      const again = JSON.parse(await t.page.locator('[data-testid="scenario-json"]').inputValue());
      t.assert.equal(again.broker, undefined);
    },
  },
];
