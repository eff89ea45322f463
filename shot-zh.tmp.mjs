import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const p = await b.newPage({ viewport: { width: 1440, height: 900 } });
await p.goto('http://127.0.0.1:8391/#head-of-line-blocking');
await p.waitForSelector('[data-testid="topology"] .node');
await p.click('[data-testid="lang-zh"]');
await p.waitForTimeout(200);
await p.screenshot({ path: '/tmp/look-edit/zh-desktop.png' });
await b.close();
