// The RabbitMQ version selector and the badge (issues 12, 23, 27): 3.10, 4.0 and 4.3 are
// checked against live brokers (3.10.8, 4.0.5, 4.3.6) and say so; 3.13, 4.1, 4.2 and 4.4
// say their rules come from RabbitMQ's source, not checked against a live broker. The notes mark each
// difference seen live or read in the source, and a change of version reloads the
// scenario on it and goes into the share link.
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
    name: 'a 4.0 preset is checked against a live 4.0.5; its notes say which differences were seen live',
    async run(t) {
      await t.goto('#poison-message-3-10-vs-4-0', { ready: '[data-testid="app"]' });
      await t.page.waitForFunction((sel) => document.querySelector(sel)?.value === '4.0', picker);
      const text = await t.page.locator(badge).textContent();
      t.assert.match(text, /Checked against a live RabbitMQ 4\.0\.5/);
      t.assert.doesNotMatch(text, /not checked against a live broker/);
      await t.page.click(badge);
      const notes = t.page.locator('[data-testid="version-notes"] li');
      t.assert.ok((await notes.count()) >= 5, 'the 4.0 notes list the applied rows');
      // D8 (the default delivery limit) was seen on the live 4.0.5; D17 only read in the source.
      const d8 = notes.filter({ hasText: /^D8 / });
      t.assert.equal(await d8.getAttribute('data-live'), 'true');
      t.assert.match(await d8.textContent(), /seen live \(4\.0\.5, v08a/);
      const d17 = notes.filter({ hasText: /^D17 / });
      t.assert.equal(await d17.getAttribute('data-live'), 'false');
      t.assert.match(await d17.textContent(), /read in the source/);
      await t.screenshot('4-0-notes');
    },
  },
  {
    name: 'a 4.2 scenario says its rules come from the source, not a live broker; nothing is marked seen live; 4.4 lists its source-read rules',
    async run(t) {
      await t.goto('#poison-message-3-10-vs-4-0', { ready: '[data-testid="app"]' });
      await t.page.waitForFunction((sel) => document.querySelector(sel)?.value === '4.0', picker);
      await t.page.selectOption(picker, '4.2');
      await t.page.waitForFunction((sel) => /not checked against a live broker/.test(document.querySelector(sel)?.textContent ?? ''), badge);
      const text = await t.page.locator(badge).textContent();
      t.assert.match(text, /RabbitMQ 4\.2 \(4\.2\.9\): From RabbitMQ's source, not checked against a live broker/);
      t.assert.doesNotMatch(text, /Checked against/);
      await t.page.click(badge);
      const notes = t.page.locator('[data-testid="version-notes"] li');
      t.assert.ok((await notes.count()) >= 5);
      t.assert.equal(await t.page.locator('[data-testid="version-notes"] li[data-live="true"]').count(), 0);
      // 4.3: checked on 4.3.6, and its D22 note says what 4.3.0-4.3.5 did.
      await t.page.selectOption(picker, '4.3');
      await t.page.waitForFunction((sel) => /Checked against a live RabbitMQ 4\.3\.6/.test(document.querySelector(sel)?.textContent ?? ''), badge);
      const d22 = t.page.locator('[data-testid="version-notes"] li').filter({ hasText: /^D22 / });
      t.assert.equal(await d22.getAttribute('data-live'), 'true');
      t.assert.match(await d22.textContent(), /4\.3\.0 to 4\.3\.5 refuse it/);
      // 4.4 (the seventh version): read in the source, its rows graded as the source reading was.
      await t.page.selectOption(picker, '4.4');
      await t.page.waitForFunction((sel) => /RabbitMQ 4\.4 \(4\.4\.0\): From RabbitMQ's source, not checked against a live broker/.test(document.querySelector(sel)?.textContent ?? ''), badge);
      t.assert.equal(await t.page.locator('[data-testid="version-notes"] li[data-live="true"]').count(), 0);
      const d34 = t.page.locator('[data-testid="version-notes"] li').filter({ hasText: /^D34 / });
      t.assert.match(await d34.textContent(), /x-opt-delivery-time/);
      t.assert.match(await d34.textContent(), /run on the state machine/);
      const d40 = t.page.locator('[data-testid="version-notes"] li').filter({ hasText: /^D40 / });
      t.assert.match(await d40.textContent(), /unconfirmed/);
      // The same words in Chinese.
      await t.page.click('[data-testid="lang-zh"]');
      await t.page.waitForFunction((sel) => /已对照真实的 RabbitMQ 4\.3\.6 验证/.test(document.querySelector(sel)?.textContent ?? ''), badge);
      await t.page.selectOption(picker, '4.1');
      await t.page.waitForFunction((sel) => /依据 RabbitMQ 的源码,未对照真实的 Broker 验证/.test(document.querySelector(sel)?.textContent ?? ''), badge);
      await t.page.click('[data-testid="lang-en"]');
    },
  },
  {
    name: 'a 3.10 preset is checked live; choosing 4.0 reloads it on 4.0 and the share link keeps it',
    async run(t) {
      await t.goto('#head-of-line-blocking', { ready: '[data-testid="app"]' });
      t.assert.equal(await t.page.locator(picker).inputValue(), '3.10');
      t.assert.match(await t.page.locator(badge).textContent(), /Checked against a live RabbitMQ 3\.10\.8/);
      await t.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(t.baseUrl).origin });
      await t.page.selectOption(picker, '4.0');
      await t.page.waitForFunction((sel) => /RabbitMQ 4\.0\.5/.test(document.querySelector(sel)?.textContent ?? ''), badge);
      t.assert.equal(await t.page.locator('[data-testid="clock"]').first().textContent().then((s) => s.trim()), '0:00:00.000');
      const json = await t.page.locator('[data-testid="scenario-json"]').inputValue();
      t.assert.equal(JSON.parse(json).broker, '4.0', 'the scenario now names its version');
      const link = await copyLink(t.page);
      const p = await t.page.context().newPage();
      await p.goto(link);
      await p.waitForSelector(picker);
      await p.waitForFunction((sel) => document.querySelector(sel)?.value === '4.0', picker);
      await p.close();
      // Back to 3.10: `broker` leaves the scenario again (an absent broker is 3.10).
      await t.page.selectOption(picker, '3.10');
      await t.page.waitForFunction((sel) => /RabbitMQ 3\.10\.8/.test(document.querySelector(sel)?.textContent ?? ''), badge);
      const again = JSON.parse(await t.page.locator('[data-testid="scenario-json"]').inputValue());
      t.assert.equal(again.broker, undefined);
    },
  },
];
