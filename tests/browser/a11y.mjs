// Accessibility check of whatever a page shows now, by axe-core (npm, pinned in
// package.json): `t.axe(label)` in a browser test (tests/browser/run.mjs), or
// `axeCheck(page, label)` from here.
//
// axe's source is evaluated in every frame of the page (the page itself and its iframes:
// the lesson's embeds) through the DevTools protocol, which the pages' strict CSP
// (script-src 'self') does not govern: an inline <script> with the same source
// (page.addScriptTag({ content })) is refused by it. Each frame is checked on its own
// (`iframes: false`: axe's frame-to-frame messages would reach the embed's postMessage
// API), with every rule axe enables by default (WCAG 2.x A and AA, best practices). A
// check looks at the whole document, not at chosen markup, so it covers views added
// later too; it is run at each viewport asked for (desktop 1440x900 and phone 390x844 by
// default), since a phone layout hides, moves and restyles parts.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The viewports of the browser tests (run.mjs shares them). */
export const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };

/** Nodes listed per rule in a failure message (the count says how many more). */
const MAX_NODES_SHOWN = 6;
/** How long one frame's axe run may take before the check fails (a large page takes ~2 s). */
const AXE_TIMEOUT_MS = 30_000;

let source = null;
const axeSource = () => (source ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));

/** Waits until a resize has been laid out and drawn (two animation frames, then a beat). */
async function settled(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForTimeout(150);
}

/** axe's violations in one frame: [{ id, impact, help, nodes: [{ target, summary }] }]. */
async function frameViolations(frame, options) {
  if (!(await frame.evaluate(() => typeof window.axe === 'object'))) {
    await frame.evaluate(axeSource());
  }
  return frame.evaluate(async ({ exclude, rules, timeout }) => {
    const context = exclude.length ? { include: [document], exclude: exclude.map((s) => [s]) } : document;
    const run = window.axe.run(context, {
      resultTypes: ['violations'],
      iframes: false,
      ...(rules ? { rules } : {}),
    });
    const late = new Promise((_, reject) => setTimeout(() => reject(new Error(`axe.run took over ${timeout} ms`)), timeout));
    const result = await Promise.race([run, late]);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.map((x) => (Array.isArray(x) ? x.join(' >> ') : x)).join(' | '),
        summary: (n.failureSummary || '').replace(/\s+/g, ' ').trim(),
      })),
    }));
  }, { exclude: options.exclude || [], rules: options.rules || null, timeout: AXE_TIMEOUT_MS });
}

/** One readable line per rule and node. */
export function formatViolations(found) {
  const lines = [];
  for (const { where, violations } of found) {
    for (const v of violations) {
      lines.push(`${where}: ${v.id} (${v.impact}): ${v.help} [${v.nodes.length} node${v.nodes.length === 1 ? '' : 's'}]`);
      for (const n of v.nodes.slice(0, MAX_NODES_SHOWN)) lines.push(`    ${n.target}: ${n.summary}`);
      if (v.nodes.length > MAX_NODES_SHOWN) lines.push(`    ... and ${v.nodes.length - MAX_NODES_SHOWN} more`);
    }
  }
  return lines.join('\n');
}

/**
 * Checks the page as it is now with axe-core, at each of `viewports` (names of VIEWPORTS),
 * in every frame; throws an Error listing every violation (rule, impact, target, summary)
 * if there is any, of any impact. Leaves the page at the desktop viewport. Options:
 *   viewports  ['desktop', 'phone'] by default
 *   exclude    CSS selectors axe skips (say why where you use it)
 *   rules      axe's per-rule options, e.g. { 'color-contrast': { enabled: false } }
 * Resolves to the number of (frame, viewport) checks run.
 */
export async function axeCheck(page, label, { viewports = ['desktop', 'phone'], exclude, rules } = {}) {
  const found = [];
  let checks = 0;
  for (const name of viewports) {
    const vp = VIEWPORTS[name];
    if (!vp) throw new Error(`axe: no viewport "${name}" (have ${Object.keys(VIEWPORTS).join(', ')})`);
    await page.setViewportSize(vp);
    await settled(page);
    for (const frame of page.frames()) {
      if (frame.isDetached() || !/^https?:/.test(frame.url())) continue;
      const violations = await frameViolations(frame, { exclude, rules });
      checks++;
      const where = `${label} @${name}${frame === page.mainFrame() ? '' : ` (frame ${new URL(frame.url()).search || frame.url()})`}`;
      if (violations.length) found.push({ where, violations });
    }
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  if (found.length) {
    const n = found.reduce((k, f) => k + f.violations.length, 0);
    throw new Error(`axe: ${n} accessibility violation${n === 1 ? '' : 's'}\n${formatViolations(found)}`);
  }
  return checks;
}
