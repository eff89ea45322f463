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
  // The log and figures follow in the same frame, the deferred panels a frame or more later.
  await settled(page);
}

/**
 * Waits until the page's layout holds still: every panel's place and size, the page's
 * height and the number of log lines the same over 3 frames in a row, 50 ms apart. A click
 * while a panel above grows lands its mouseup on another element than its mousedown, and
 * the browser then sends the click to neither (a CI run under load, 2026-12-05: a log line
 * was focused and its story never opened).
 */
export async function settled(page, timeoutMs = 10_000) {
  await page.evaluate(async (limit) => {
    const t0 = performance.now();
    const shape = () => [...document.querySelectorAll('section.panel, [data-testid="log-line"]')]
      .slice(0, 400)
      .map((e) => { const r = e.getBoundingClientRect(); return `${Math.round(r.top)},${Math.round(r.height)}`; })
      .join(';') + `|${document.documentElement.scrollHeight}`;
    let last = shape();
    let still = 0;
    while (still < 3 && performance.now() - t0 < limit) {
      await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50)));
      const now = shape();
      still = now === last ? still + 1 : 0;
      last = now;
    }
  }, timeoutMs);
}

/**
 * Clicks the first element matching `line` (a log line) until `shown` appears (the
 * inspector's story), at most `tries` times, the layout settled before each click. One
 * click can be lost when a panel grows between its mousedown and its mouseup; selecting is
 * idempotent (a second click on the selected line keeps it selected), so a retry is safe.
 */
export async function openStory(page, line, shown = '[data-testid="story-step"]', tries = 4) {
  for (let attempt = 1; ; attempt += 1) {
    await settled(page);
    await page.locator(line).first().click();
    try {
      await page.locator(shown).first().waitFor({ timeout: 7_500 });
      return;
    } catch (e) {
      if (attempt >= tries) throw e;
    }
  }
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
