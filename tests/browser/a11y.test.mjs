// Accessibility (issue 22 item 8): axe-core finds no violation, of any impact, on the
// playground, an embed, the lesson and the quiz, in English and Chinese, at desktop
// (1440x900) and phone (390x844) size (t.axe: tests/browser/a11y.mjs). Each check looks at
// the whole document, so views added later are checked too; the playground is checked
// in the states that show most of it: the first screen, after playing, with the
// inspector, the JSON editor, the topology editor, the Export code menu, Compare and the
// strategy comparison open.
// Chinese is the browser's language (the app and the embeds follow navigator.language;
// the quiz is switched by its own button); each test checks that the page took it.

import { openStory } from './views-lib.mjs';

const LANGS = { en: 'en-US', zh: 'zh-CN' };
const ready = { ready: '[data-testid="topology"] .node' };
/** Every panel an embed can show (src/app/embed.rs PANELS). */
const EMBED_PANELS = 'clock,topology,queues,watch,log,charts,inspector,publish,consumers';

/** The document's language is the one asked for (a check in the wrong one proves little). */
async function inLang(t, lang) {
  const got = await t.page.evaluate(() => document.documentElement.lang);
  t.assert.ok(got.toLowerCase().startsWith(lang), `<html lang="${got}">, wanted ${lang}`);
}

async function waitClock(t, want, timeout = 60_000) {
  await t.page.waitForFunction((w) => document.querySelector('[data-testid="clock"]')?.textContent.trim() === w,
    want, { timeout });
}

/** Clicks the button `testid`, waits for `shown`, then jumps to `time` (the clock reads `clock`). */
async function openAt(t, testid, shown, time, clock) {
  await t.page.click(`[data-testid="${testid}"]`);
  await t.page.waitForSelector(shown);
  await t.partsReady();
  await t.page.fill('[data-testid="jump-input"]', time);
  await t.page.click('[data-testid="jump-btn"]');
  await waitClock(t, clock);
}

function playground(lang) {
  return {
    name: `playground (${lang}): first screen, after playing, inspector, JSON and topology editors, export code, compare, strategies`,
    locale: LANGS[lang],
    timeout: 240_000,
    async run(t) {
      const { page } = t;
      await t.goto('', ready);
      await inLang(t, lang);
      await t.axe(`playground ${lang}, first screen`);

      // Head-of-line blocking played to its end at 10,000x: chips, overdue, log, charts, lateness.
      await openAt(t, 'preset-head-of-line-blocking', '[data-testid="node-q:order.delay.queue"]', '10:00', '0:10:00.000');
      await t.axe(`playground ${lang}, head-of-line at 10:00 (B overdue)`);
      await page.click('[data-testid="speed-10000"]');
      await page.click('[data-testid="play"]');
      await waitClock(t, '0:40:00.000');
      await t.axe(`playground ${lang}, after playing to the end`);

      // A message selected: the inspector shows its path.
      await openStory(page, '[data-testid="log-line"][data-kind="delivered"]');
      // ... and the engine's own events under it, unfolded.
      await page.click('.insp-events summary');
      await page.locator('[data-testid="inspector-step"]').first().waitFor();
      await t.axe(`playground ${lang}, inspector open`);

      // The scenario's JSON editor, unfolded.
      await page.click('.json-editor summary');
      await page.locator('[data-testid="scenario-json"]').waitFor({ state: 'visible' });
      await t.axe(`playground ${lang}, JSON editor open`);

      // The topology editor with its queue form.
      await page.click('[data-testid="edit-open"]');
      await page.click('[data-testid="edit-queue-open"]');
      await page.locator('[data-testid="edit-queue-form"]').waitFor({ state: 'visible' });
      await t.axe(`playground ${lang}, topology editor open`);

      // The Export code menu, with its code shown.
      await page.click('[data-testid="export-code"]');
      await page.locator('[data-testid="export-code-panel"]').waitFor({ state: 'visible' });
      await page.locator('[data-testid="code-text"]').waitFor({ state: 'visible' });
      await t.axe(`playground ${lang}, export code menu open`);
      await page.keyboard.press('Escape');

      // Compare: three topologies side by side, played a little.
      await openAt(t, 'compare-live', '[data-testid="lane-head-of-line-blocking"]', '6:30', '0:06:30.000');
      await t.axe(`playground ${lang}, compare at 6:30`);

      // The strategy comparison: its panel is imported when it comes near; one small run.
      await page.locator('[data-testid="strategies"]').scrollIntoViewIfNeeded();
      await page.locator('[data-testid="strat-body"]').waitFor();
      await page.fill('[data-testid="strat-count"]', '1000');
      await page.click('[data-testid="strat-run"]');
      await page.waitForFunction(() => /^(done|完成)$/.test(document.querySelector('[data-testid="strat-status"]')?.textContent.trim() ?? ''),
        null, { timeout: 60_000 });
      await t.axe(`playground ${lang}, strategy comparison run`);
    },
  };
}

function embed(lang) {
  return {
    name: `embed (${lang}): head-of-line blocking, at start and at 10:00`,
    locale: LANGS[lang],
    timeout: 120_000,
    async run(t) {
      await t.goto('?embed#head-of-line-blocking', { ready: '[data-testid="embed"] [data-testid="topology"] .node' });
      await inLang(t, lang);
      await t.axe(`embed ${lang}, at start`);
      // The same embed at 10:00 (B overdue), every panel it offers shown.
      await t.goto(`?embed&start=10m&panels=${EMBED_PANELS}#head-of-line-blocking`,
        { ready: '[data-testid="embed"] [data-testid="topology"] .node' });
      await t.axe(`embed ${lang}, at 10:00 with more panels`);
    },
  };
}

function lesson(lang) {
  return {
    name: `lesson (${lang}): the page and its two embeds`,
    locale: LANGS[lang],
    timeout: 120_000,
    async run(t) {
      const { page } = t;
      await t.goto('www/lesson-head-of-line.html');
      // Both embeds have said `ready` (lesson.js marks each figure).
      await page.waitForSelector('#hol[data-ready="true"]', { timeout: 30_000 });
      await page.waitForSelector('#plugin[data-ready="true"]', { timeout: 30_000 });
      for (const f of page.frames().filter((fr) => fr !== page.mainFrame())) {
        t.assert.ok((await f.evaluate(() => document.documentElement.lang)).toLowerCase().startsWith(lang),
          `embed ${f.url()} is not in ${lang}`);
      }
      await t.axe(`lesson ${lang}`);
      // Driven from the page: the first embed seeks to 30:00 and its deliveries are listed.
      await page.click('[data-testid="seek-30"]');
      await page.locator('[data-testid="delivered-list"] li').first().waitFor({ timeout: 30_000 });
      await t.axe(`lesson ${lang}, after seeking to 30:00`);
    },
  };
}

function quiz(lang) {
  return {
    name: `quiz (${lang}): before and after an answer`,
    locale: LANGS[lang],
    timeout: 120_000,
    async run(t) {
      const { page } = t;
      await t.goto(`www/quiz-head-of-line.html?lang=${lang}`, { ready: '[data-testid="quiz"][data-ready="true"]' });
      await inLang(t, lang);
      await t.axe(`quiz ${lang}`);
      await page.locator('[data-testid="setup-dlx-per-message"]').check();
      await page.locator('[data-testid="answer-B"]').check();
      await page.locator('[data-testid="run"]').click();
      await page.waitForSelector('[data-testid="quiz"][data-ran="dlx-per-message"]');
      await page.waitForFunction(() => !document.querySelector('[data-testid="result"]').hidden);
      await t.axe(`quiz ${lang}, answered`);
    },
  };
}

export const tests = Object.keys(LANGS).flatMap((lang) => [playground(lang), embed(lang), lesson(lang), quiz(lang)]);
