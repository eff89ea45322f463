// Helpers of the views*.test.mjs files (issue 22, items 1-3): the clock, the log, the
// version selector, read the way a learner reads the page.

export const ready = { ready: '[data-testid="topology"] .node' };
export const picker = '[data-testid="broker-version"]';

/** Full-page screenshots are taken after each test: start them from the top. */
export const top = (page) => page.evaluate(() => window.scrollTo(0, 0));

export async function jumpTo(page, time) {
  await page.fill('[data-testid="jump-input"]', time);
  await page.click('[data-testid="jump-btn"]');
}

export async function waitClock(page, text, timeout = 60_000) {
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="clock"]')?.textContent?.trim() === want,
    text,
    { timeout },
  );
}

/** Jumps and waits for the clock to show it (`h:mm:ss.mmm`). */
export async function jumpAndWait(page, time, shown, timeout) {
  await jumpTo(page, time);
  await waitClock(page, shown, timeout);
  // The log and figures follow in the same frame; a frame more for the deferred panels.
  await page.waitForTimeout(200);
}

/** Every log line as { kind, label, text } (the log draws the newest 150). */
export async function logLines(page) {
  return page.$$eval('[data-testid="log-line"]', (els) => els.map((e) => ({
    kind: e.dataset.kind,
    label: e.querySelector('.k')?.dataset.label,
    k: e.querySelector('.k')?.textContent ?? '',
    place: e.querySelector('.w')?.textContent ?? '',
    detail: e.querySelector('.d')?.textContent ?? '',
    text: e.textContent,
  })));
}

/** The version selector's value, once it is `want`. */
export async function waitVersion(page, want) {
  await page.waitForFunction((w) => document.querySelector('[data-testid="broker-version"]')?.value === w, want);
}

export const hash = (page) => page.evaluate(() => window.location.hash);
