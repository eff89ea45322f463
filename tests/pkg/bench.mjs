// Size and speed of the package (pkg/), measured: prints the gzip size of its wasm + JS
// (goal: at most 150 KB) and the engine's wall time in headless Chromium against the
// native binary on the same workloads, as the ratio wasm / native (goal: at most 1.3x):
//   - scenarios/promotion-burst-200k.json run to its end: `Simulation.runToEnd()` (trace
//     off) against `delaylab run --format json`'s `stats.wall_ms` (the same loop: engine,
//     event stream, result recorder);
//   - 1,000,000 delayed messages through `delaylab bench`'s three topologies
//     (dlx-per-message, dlx-per-queue, plugin): the package's `await compare()` against
//     `delaylab compare --timing` on scenarios/workloads/promotion-burst.json with
//     `--count 1000000` (the engine's `strategies::run`, a real `Sim`, on both sides; the
//     two JSON results must be equal).
// Each figure is the fastest of BENCH_RUNS runs (default 3), native and wasm alternating,
// since load on the machine only ever slows a run down. The ratios are reported, not
// asserted (a timed assertion would flake on a shared machine). The size is deterministic:
// it is reported against the goal and asserted against SIZE_BUDGET_BYTES, a guard against
// growth above today's build (the goal is not met yet: README, "The engine as a JavaScript
// package"). The 1M-message workloads run in compare()'s module (pkg/compare/, all at
// opt-level 3), the preset in the main module (profile pkg-release). Figures also go to
// tests/artifacts/pkg/bench.json.
//
//   node tests/pkg/bench.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ARTIFACTS, DELAYLAB, ROOT, native, openHarness, requirePkg, startServer } from './lib.mjs';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 3));
const SIZE_GOAL_BYTES = 150 * 1000;
/**
 * The guard: today's main module (wasm + JS) is 338.8 KB gzipped (333.9 + 4.9; issue 15
 * item 4: profile pkg-release, compare() in its own module). 360 KB leaves 21 KB (6 %)
 * for the engine to grow and still fails on the regressions that matter: compare() back
 * in the main module (+46 KB) or the whole package at opt-level 3 (+17 KB with compare
 * out, +63 KB in all).
 * Scenario checks (issue 24: their loader, the evaluator sim.checks() runs as events come,
 * its words) added 33 KB: 370.2 KB measured (365.1 + 5.1); 380 KB leaves 10 KB and still
 * catches both regressions above.
 * RabbitMQ 4.4 (issue 27: a seventh profile, the hold of x-opt-delivery-time), the field's
 * rules (issue 28: at-least-once dead letters retried, nack multiple, republish, consumer
 * timeouts) and what was checked live per scenario (issue 29: version::live) added 30 KB:
 * 404.8 KB measured (399.6 + 5.2); 420 KB leaves 15 KB and still catches both regressions
 * above. Not shrunk yet: the goal (150 KB) is further away than it was.
 */
const SIZE_BUDGET_BYTES = 420 * 1000;
/**
 * compare()'s module (pkg/compare/, fetched on its first call; 399.8 KB when it was split
 * out, the size the whole package had): reported, guarded loosely. It holds the whole
 * engine, so it grew with it: scenario checks and the causes a message's story names
 * (issues 22 and 24) made it 440.2 KB; 460 KB leaves 20 KB and still catches the whole
 * package at opt-level 3 (+63 KB). 4.4 and the field's rules (issues 27, 28) made it
 * 471.4 KB: 490 KB.
 */
const COMPARE_BUDGET_BYTES = 490 * 1000;
const RATIO_GOAL = 1.3;
const MESSAGES = 1_000_000;
const TOPOLOGIES = ['dlx-per-message', 'dlx-per-queue', 'plugin'];
const WORKLOAD = 'scenarios/workloads/promotion-burst.json';
const PRESET = 'promotion-burst-200k';

requirePkg();
const figures = { runs: RUNS, size: {}, speed: [] };

// --- size ----------------------------------------------------------------------------------
// What a training page downloads: the main module (wasm + JS); compare()'s module only
// when a page calls compare(). Brotli (quality 11) as hosts serve it precompressed.
const measure = (files) => {
  let gzip = 0;
  let br = 0;
  for (const f of files) {
    const data = fs.readFileSync(path.join(ROOT, 'pkg', f));
    const gz = zlib.gzipSync(data, { level: 9 }).length;
    const b = zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    figures.size[f] = { bytes: data.length, gzip: gz, br: b };
    gzip += gz;
    br += b;
    console.log(`size ${f}: ${data.length} bytes, ${gz} gzipped, ${b} brotli`);
  }
  return { gzip, br };
};
const main = measure(['delaylab_engine_bg.wasm', 'delaylab_engine.js']);
const total = main.gzip;
figures.size.total_gzip = total;
figures.size.total_br = main.br;
console.log(`size total (wasm + JS, gzip -9): ${(total / 1000).toFixed(1)} KB, brotli ${(main.br / 1000).toFixed(1)} KB (goal <= ${SIZE_GOAL_BYTES / 1000} KB: ${total <= SIZE_GOAL_BYTES ? 'met' : 'not met'})`);
const cmp = measure(['compare/delaylab_compare_bg.wasm', 'compare/delaylab_compare.js']);
figures.size.compare_gzip = cmp.gzip;
figures.size.compare_br = cmp.br;
console.log(`size compare() module (fetched on its first call, gzip -9): ${(cmp.gzip / 1000).toFixed(1)} KB, brotli ${(cmp.br / 1000).toFixed(1)} KB`);

// --- speed ---------------------------------------------------------------------------------
const server = await startServer();
const { browser, page, problems } = await openHarness(server.url);
figures.chromium = browser.version();

// The preset: `delaylab run` reports its own wall time for the run (not the printing).
const nativeRunMs = () => {
  const out = path.join(ARTIFACTS, `${PRESET}.bench.json`);
  native(['run', path.join(ROOT, 'scenarios', `${PRESET}.json`), '--format', 'json'], out);
  const fd = fs.openSync(out, 'r');
  const size = fs.fstatSync(fd).size;
  const tail = Buffer.alloc(Math.min(size, 4096));
  fs.readSync(fd, tail, 0, tail.length, size - tail.length);
  fs.closeSync(fd);
  fs.rmSync(out);
  const text = tail.toString('utf8');
  return { ms: Number(text.match(/"wall_ms": ([0-9.]+)/)[1]), events: Number(text.match(/"events": ([0-9]+)/)[1]) };
};
const preset = { workload: `${PRESET} (run to its end)`, native_ms: Infinity, wasm_ms: Infinity };
for (let i = 0; i < RUNS; i++) {
  const n = nativeRunMs();
  const w = await page.evaluate((url) => window.timeScenario(url, 1), `/scenarios/${PRESET}.json`);
  assert.equal(w.events, n.events, 'the package raised as many events as the native run');
  preset.native_ms = Math.min(preset.native_ms, n.ms);
  preset.wasm_ms = Math.min(preset.wasm_ms, w.best);
  preset.events = n.events;
}
figures.speed.push(preset);

// 1M messages through each topology: `delaylab compare --timing` prints each strategy's time.
const nativeCompare = () => {
  const r = spawnSync(DELAYLAB, ['compare', path.join(ROOT, WORKLOAD), '--strategies', TOPOLOGIES.join(','),
    '--count', String(MESSAGES), '--timing', '--format', 'json'], { encoding: 'utf8', maxBuffer: 256 << 20 });
  assert.equal(r.status, 0, r.stderr);
  const ms = {};
  for (const line of r.stderr.split('\n')) {
    const m = line.match(/^(\S+)\s+([0-9.]+) ms$/);
    if (m) ms[m[1]] = Number(m[2]);
  }
  return { ms, doc: JSON.parse(r.stdout) };
};
const rows = Object.fromEntries(TOPOLOGIES.map((t) => [t, { workload: `${MESSAGES} messages, ${t} (compare)`, native_ms: Infinity, wasm_ms: Infinity }]));
const workloadText = fs.readFileSync(path.join(ROOT, WORKLOAD), 'utf8');
for (let i = 0; i < RUNS; i++) {
  const n = nativeCompare();
  const w = await page.evaluate(([text, strategies, count]) => window.dl.compare(text, { strategies, count }),
    [workloadText, TOPOLOGIES, MESSAGES]);
  if (i === 0) assert.deepEqual(w.result, n.doc, 'the package compares exactly as delaylab compare');
  for (const t of TOPOLOGIES) {
    rows[t].native_ms = Math.min(rows[t].native_ms, n.ms[t]);
    rows[t].wasm_ms = Math.min(rows[t].wasm_ms, w.wall_ms[t]);
  }
}
figures.speed.push(...Object.values(rows));

await browser.close();
await server.close();

// --- report --------------------------------------------------------------------------------
console.log(`\nspeed, fastest of ${RUNS} (Chromium ${figures.chromium}):`);
console.log(`${'workload'.padEnd(44)} ${'native ms'.padStart(10)} ${'wasm ms'.padStart(10)} ${'wasm/native'.padStart(12)}`);
for (const r of figures.speed) {
  r.ratio = Math.round((r.wasm_ms / r.native_ms) * 1000) / 1000;
  r.native_ms = Math.round(r.native_ms * 10) / 10;
  r.wasm_ms = Math.round(r.wasm_ms * 10) / 10;
  console.log(`${r.workload.padEnd(44)} ${r.native_ms.toFixed(1).padStart(10)} ${r.wasm_ms.toFixed(1).padStart(10)} ${`${r.ratio.toFixed(2)}x`.padStart(12)}`
    + (r.ratio <= RATIO_GOAL ? '' : `   (over the ${RATIO_GOAL}x goal)`));
}
fs.mkdirSync(ARTIFACTS, { recursive: true });
fs.writeFileSync(path.join(ARTIFACTS, 'bench.json'), `${JSON.stringify(figures, null, 2)}\n`);
assert.deepEqual(problems, [], 'the page logged errors');
assert.ok(total <= SIZE_BUDGET_BYTES, `the package's main module is ${total} bytes gzipped, over its ${SIZE_BUDGET_BYTES}-byte budget`);
assert.ok(cmp.gzip <= COMPARE_BUDGET_BYTES, `compare()'s module is ${cmp.gzip} bytes gzipped, over its ${COMPARE_BUDGET_BYTES}-byte budget`);
console.log('bench: ok (figures in tests/artifacts/pkg/bench.json)');
