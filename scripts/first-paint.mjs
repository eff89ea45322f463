// The page's first paint before the wasm arrives (issue 13 item 5): the header, the clock
// controls, the gallery and the starting scenario's description and what-to-watch as
// static HTML, written at build time from the same sources the app reads:
//   - the gallery: the app's sandbox.json first, then scenarios/*.json sorted by file name
//     (build.rs embeds them in that order; the app lists them so);
//   - the UI words: the English side of the app's i18n table (`"key" => ("en", "zh")`
//     arms, or `("key", "en", "zh")` rows).
// The markup mirrors the app's views (src/app/mod.rs App, src/app/panels.rs Header,
// Controls, Gallery, Watch: same elements and classes), so the app's CSS lays it out the
// same; the scenario header's tool buttons (checked.rs, share.rs, embed.rs) are empty
// boxes of their size (style.css .first-paint-tools), and the takeover (src/main.rs removes #first-paint in the task that mounts the
// app) neither flashes nor jumps. The gallery cards are links (`#preset-id`): a click
// before the wasm is ready sets the fragment, which the app loads when it mounts.
// tests/browser/firstload.test.mjs checks that texts and boxes match the app's.
//
//   node scripts/first-paint.mjs        prints the HTML (to look at it)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The element id the app removes when it mounts (src/main.rs FIRST_PAINT_ID). */
export const FIRST_PAINT_ID = 'first-paint';
/** The scenario the app loads first (src/app/mod.rs SANDBOX: the one sandbox.json). */
const SANDBOX = { id: 'sandbox', file: 'sandbox.json' };
/** The speed buttons the controls show (panels.rs Controls), and the speed at start. */
const SPEEDS = [1, 10, 100, 1000, 10000];
const START_SPEED = 1;
/** The clock at start: `clock(0)` (engine report::text::clock, h:mm:ss.mmm). */
const CLOCK_AT_START = '0:00:00.000';
/** Where the topology will be, until the app draws it (English: the static page's language). */
const LOADING = 'Loading the simulation (WebAssembly)…';
/** UI words the static page shows, by their i18n key. */
const KEYS = ['tagline', 'virtual_time', 'controls', 'play', 'step', 'step_hint', 'restart',
  'speed', 'speed_presets', 'jump_to', 'go', 'gallery', 'gallery_hint', 'scenario', 'what_to_watch',
  'json_editor', 'publish'];
/**
 * The collapsed panels below the gallery (src/app/panels/scenario_json.rs ScenarioJson,
 * src/app/edit.rs EditTopology), drawn closed so that on a phone, where the columns stack,
 * the scenario panel below them does not move down when the app takes over. `key`: the
 * summary's text in the app's i18n table that has a `marker` arm.
 */
const FOLDED_PANELS = [
  { cls: 'json-editor', marker: 'tagline', key: 'json_editor' },
  { cls: 'edit-topology', marker: 'tagline', key: 'edit_topology' },
];

/** The timeline under the controls (src/app/timeline.rs TimelineBar): its track, its
 *  marks' row and its one-line note, as at start (no mark found yet), in the table with a
 *  `"tl_label"` arm (crates/playground/src/i18n_infra.rs). */
const TIMELINE = { marker: 'tl_label', keys: ['tl_label', 'tl_none'] };

/** The lesson and quiz links above the gallery (src/app/panels/gallery.rs): their words
 *  are in the table with a `"learn"` arm (crates/playground/src/i18n_page.rs). */
const LEARN = { marker: 'learn', keys: ['learn', 'lesson_link', 'quiz_link'] };

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `grouped(n) + "x"` as the app writes speeds (strategies::report::grouped). */
const speedLabel = (n) => `${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}x`;

/** Files under `dir` whose name passes `keep` (the app's sources may move between crates). */
function sourceFiles(dir, keep, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'target' && e.name !== 'tests') sourceFiles(p, keep, out);
    else if (e.isFile() && keep(e.name)) out.push(p);
  }
  return out;
}
const appSources = (root, keep) => [...sourceFiles(path.join(root, 'src'), keep), ...sourceFiles(path.join(root, 'crates'), keep)];
const rustFiles = (root) => appSources(root, (n) => n.endsWith('.rs'));

/**
 * The English UI words, read from the app's i18n table wherever it lives (src/ or a
 * crate): the file holding `"tagline" => (` or `("tagline", `. A key it lacks is a build error, not a
 * silently wrong page.
 */
export function englishWords(root = ROOT) {
  return tableWords(root, 'tagline', KEYS);
}

/** The English words of the app's `key => ("en", "zh")` (or `(key, "en", "zh")`) table that
 * has a `marker` arm (or row). */
function tableWords(root, marker, keys) {
  const files = rustFiles(root);
  const table = files.map((f) => fs.readFileSync(f, 'utf8')).find((t) => new RegExp(`"${marker}"\\s*=>\\s*\\(|\\(\\s*"${marker}",`).test(t));
  if (!table) throw new Error(`first-paint: no i18n table (a \`"${marker}" => ("en", "zh")\` arm) under src/ or crates/`);
  const words = {};
  const arm = /(?:"([a-z0-9_]+)"\s*=>\s*\(|\(\s*"([a-z0-9_]+)",)\s*"((?:[^"\\]|\\.)*)"/g;
  for (const m of table.matchAll(arm)) words[m[1] ?? m[2]] ??= JSON.parse(`"${m[3]}"`);
  const missing = keys.filter((k) => !(k in words));
  if (missing.length) throw new Error(`first-paint: the i18n table with "${marker}" has no English text for ${missing.join(', ')}`);
  return words;
}

/** The folded panels' closed boxes (FOLDED_PANELS), as the app draws them closed. */
function foldedPanels(root) {
  return FOLDED_PANELS.map((p) => {
    const text = tableWords(root, p.marker, [p.key])[p.key];
    return `
        <section class="panel ${p.cls}" aria-hidden="true"><details><summary>${esc(text)}</summary></details></section>`;
  }).join('');
}

function readScenario(file, id) {
  let s;
  try {
    s = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`first-paint: ${file}: ${e.message}`);
  }
  for (const k of ['name', 'description', 'watch']) {
    if (s[k] !== undefined && typeof s[k] !== 'string') throw new Error(`first-paint: ${file}: $.${k} is not a string`);
  }
  return { id, name: s.name ?? '', description: s.description ?? '', watch: s.watch ?? '', field: s.report !== undefined };
}

/** The gallery as the app lists it: the sandbox, then every preset by file name, less the
 * presets that replay a report (src/app/panels/gallery.rs lists those under "From the
 * field", a section of a chunk fetched once the page works: not on the first paint). */
export function presets(root = ROOT) {
  const dir = path.join(root, 'scenarios');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  const sandbox = appSources(root, (n) => n === SANDBOX.file);
  if (sandbox.length !== 1) throw new Error(`first-paint: want one ${SANDBOX.file} under src/ or crates/, found ${sandbox.length}`);
  return [
    readScenario(sandbox[0], SANDBOX.id),
    ...files.map((f) => readScenario(path.join(dir, f), f.slice(0, -'.json'.length))).filter((p) => !p.field),
  ];
}

/** The static first paint: one element, `#first-paint`, for the start of <body>. */
export function firstPaintHtml(root = ROOT) {
  // No white space between elements where the app's views have none (its texts compare
  // equal); the one space the app writes (after "What to watch:") has no line break.
  return firstPaintSource(root).replace(/>\n\s*</g, '><');
}

function firstPaintSource(root) {
  const w = englishWords(root);
  const learn = tableWords(root, LEARN.marker, LEARN.keys);
  const tl = tableWords(root, TIMELINE.marker, TIMELINE.keys);
  const list = presets(root);
  const start = list[0];
  const cards = list.map((p) => `
          <li><a class="preset" href="#${esc(p.id)}" data-preset="${esc(p.id)}"${p.id === start.id ? ' aria-current="true"' : ''} data-watch="${esc(p.watch)}"><span class="preset-name">${esc(p.name)}</span><span class="preset-desc">${esc(p.description)}</span></a></li>`).join('');
  const speeds = SPEEDS.map((s) => `<button class="small" aria-pressed="${s === START_SPEED}" disabled>${speedLabel(s)}</button>`).join('');
  return `<div class="app first-paint" id="${FIRST_PAINT_ID}" lang="en">
    <header class="top">
      <div class="brand"><h1 class="app-title">delaylab</h1><p class="tagline">${esc(w.tagline)}</p></div>
      <div class="clock" role="timer" aria-live="off"><span class="clock-label">${esc(w.virtual_time)}</span><span class="clock-value">${CLOCK_AT_START}</span></div>
      <div class="langs" role="group" aria-label="Language / 语言"><button class="lang" lang="en" aria-pressed="true" disabled>English</button><button class="lang" lang="zh-CN" aria-pressed="false" disabled>简体中文</button></div>
    </header>
    <section class="controls" aria-label="${esc(w.controls)}">
      <div class="ctl-group"><button class="primary" aria-pressed="false" disabled><span aria-hidden="true">▶ </span>${esc(w.play)}</button><button title="${esc(w.step_hint)}" disabled><span aria-hidden="true">⇥ </span>${esc(w.step)}</button><button disabled><span aria-hidden="true">↺ </span>${esc(w.restart)}</button></div>
      <div class="ctl-group speed"><label for="fp-speed">${esc(w.speed)}</label><input id="fp-speed" type="range" min="0" max="5" step="0.01" value="${Math.log10(START_SPEED)}" disabled /><output class="speed-value" for="fp-speed">${speedLabel(START_SPEED)}</output><div class="presets" role="group" aria-label="${esc(w.speed_presets)}">${speeds}</div></div>
      <div class="ctl-group jump"><label for="fp-jump">${esc(w.jump_to)}</label><input id="fp-jump" placeholder="40:00, 2h17m" size="9" disabled /><button type="button" disabled>${esc(w.go)}</button></div>
      <button type="button" class="small go-publish" disabled>${esc(w.publish)}<span aria-hidden="true"> ↓</span></button>
      <p class="ctl-status first-paint-status" role="status"></p>
      <div class="timeline"><input type="range" class="tl-range" min="0" max="1" value="0" aria-label="${esc(tl.tl_label)}" disabled /><div class="tl-marks" aria-hidden="true"></div><p class="tl-note">${esc(tl.tl_none)}</p></div>
    </section>
    <main class="grid" aria-busy="true">
      <aside class="area-left">
        <section class="panel gallery" aria-labelledby="fp-gallery-h">
          <nav class="learn" aria-label="${esc(learn.learn)}"><a href="www/lesson-head-of-line.html">${esc(learn.lesson_link)}</a><a href="www/quiz-head-of-line.html">${esc(learn.quiz_link)}</a></nav>
          <h2 id="fp-gallery-h">${esc(w.gallery)}</h2>
          <p class="hint">${esc(w.gallery_hint)}</p>
          <ul class="presets-list">${cards}
          </ul>
        </section>${foldedPanels(root)}
      </aside>
      <div class="area-watch">
        <section class="panel watch" aria-labelledby="fp-watch-h">
          <div class="watch-head"><h2 id="fp-watch-h"><span class="muted">${esc(w.scenario)}: </span><span class="first-paint-name">${esc(start.name)}</span></h2><div class="first-paint-tools" aria-hidden="true"></div><div class="first-paint-tool-rows" aria-hidden="true"></div></div>
          <p class="desc first-paint-desc">${esc(start.description)}</p>
          <p class="watch-text"><strong><span aria-hidden="true">◉ </span>${esc(w.what_to_watch)}</strong> <span class="first-paint-watch">${esc(start.watch)}</span></p>
        </section>
      </div>
      <div class="area-topo"><section class="panel first-paint-topo"><p class="hint">${esc(LOADING)}</p></section></div>
    </main>
  </div>`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${firstPaintHtml()}\n`);
}
