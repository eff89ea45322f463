// An honest badge, per scenario (issue 29 item 4): it says what was checked against a
// live broker for this scenario on this version (the rules it uses that the conformance
// suite ran live), the plugin's rules apart (from its source and recorded facts), and on
// a version with no live broker here that its rules come from RabbitMQ's source. It read
// "✓ Checked against a live RabbitMQ 3.10.8" beside plugin scenarios.
import { picker, ready, top, waitVersion } from './views-lib.mjs';

const badge = '[data-testid="checked-badge"]';

export const tests = [
  {
    name: 'the plugin preset on 3.10: partly checked live, the plugin\'s rules from its source; the panel lists each rule',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#fix-delayed-plugin', ready);
      await waitVersion(page, '3.10');
      const text = (await page.locator(badge).textContent()).trim();
      assert.equal(text, "◐1 of 2 rules this scenario uses checked against a live RabbitMQ 3.10.8; the plugin's rules: from its source and recorded facts, not a live broker");
      assert.match(await page.locator(badge).getAttribute('class'), /partly/);
      await page.click(badge);
      const used = page.locator('[data-testid="live-used"]');
      await used.first().waitFor();
      const plugin = used.filter({ hasText: /delayed-message plugin's rules/ });
      assert.equal(await plugin.getAttribute('data-live'), 'false');
      assert.match(await plugin.textContent(), /not checked against a live broker/);
      const live = page.locator('[data-testid="live-used"][data-live="true"]');
      assert.equal(await live.count(), 1);
      assert.match(await live.textContent(), /checked live: x01/);
      await t.axe('badge panel');
      await page.click('[data-testid="lang-zh"]');
      assert.match(await page.locator(badge).textContent(), /这个场景用到的 2 条规则中有 1 条已对照真实的 RabbitMQ 3\.10\.8 验证;插件的规则:依据其源码和记录的事实,未对照真实 Broker/);
      await page.click('[data-testid="lang-en"]');
      await page.click('[data-testid="checked-close"]');
      await top(page);
    },
  },
  {
    name: 'head-of-line on 4.3: every rule it uses checked live; on 4.1 from RabbitMQ\'s source',
    async run(t) {
      const { page, assert } = t;
      await t.goto('#head-of-line-blocking@4.3', ready);
      await waitVersion(page, '4.3');
      assert.match(await page.locator(badge).textContent(), /^✓Checked against a live RabbitMQ 4\.3\.6: all \d+ rules this scenario uses$/);
      await page.click(badge);
      const rows = page.locator('[data-testid="live-used"]');
      await rows.first().waitFor();
      assert.equal(await page.locator('[data-testid="live-used"][data-live="false"]').count(), 0);
      assert.match(await rows.filter({ hasText: /head-of-line|Head-of-line|only the head/i }).first().textContent(), /r02a-head-of-line/);
      await page.click('[data-testid="checked-close"]');
      await page.selectOption(picker, '4.1');
      await page.waitForFunction((sel) => /4\.1\.8/.test(document.querySelector(sel)?.textContent ?? ''), badge);
      assert.equal((await page.locator(badge).textContent()).trim(), "ⓘRabbitMQ 4.1.8: from RabbitMQ's source, not checked against a live broker");
      await top(page);
    },
  },
];
