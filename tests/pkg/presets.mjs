// The package (pkg/, `bash scripts/build-js.sh`) in headless Chromium against the native
// binary (target/release/delaylab):
//   - every preset (scenarios/*.json) run to its `until` through the package gives the
//     same result JSON as `delaylab run --format json` (byte for byte, the wall time aside);
//   - the trace lines of `drainEvents()` are `delaylab run --trace`'s;
//   - a bad scenario throws the loader's `path: message`; a refused command throws
//     RabbitMQ's code and text; `linkOf` is `delaylab link`'s link and `scenarioOfLink`
//     reads it back; the README's example runs and prints what it says.
//
//   node tests/pkg/presets.mjs        (scripts/test.sh runs it after build-js.sh)
//
// The last line is `N passed, M failed`; the exit code is 1 if M > 0.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, ROOT, native, openHarness, presetStems, requirePkg, startServer } from './lib.mjs';

requirePkg();
const server = await startServer();
const { browser, page, problems } = await openHarness(server.url);
let passed = 0;
let failed = 0;
const check = async (name, fn) => {
  const t0 = Date.now();
  const before = problems.length;
  try {
    const note = await fn();
    assert.deepEqual(problems.slice(before), [], 'the page logged errors');
    passed++;
    console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)}s)${note ? `: ${note}` : ''}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}\n     ${String(e.stack || e).split('\n').join('\n     ')}`);
    for (const p of problems.slice(before)) console.log(`     ${p}`);
  }
};

// --- every preset: package result = native result -----------------------------------------
const stems = presetStems();
for (const stem of stems) {
  await check(`preset ${stem}: package result = delaylab run --format json`, async () => {
    const nativeFile = path.join(ARTIFACTS, 'native', `${stem}.result.json`);
    native(['run', path.join(ROOT, 'scenarios', `${stem}.json`), '--format', 'json'], nativeFile);
    const r = await page.evaluate(([s, n]) => window.runAndCompare(s, n),
      [`/scenarios/${stem}.json`, `/tests/artifacts/pkg/native/${stem}.result.json`]);
    assert.ok(r.same, `the results differ at ${r.diff}`);
    fs.rmSync(nativeFile); // the big ones are 170 MB
    return `${r.bytes} bytes of JSON, ${r.ms.toFixed(0)} ms in wasm`;
  });
}

// --- the trace ---------------------------------------------------------------------------
await check('drainEvents() gives the lines of delaylab run --trace', async () => {
  const stem = 'plugin-mandatory-late-binding';
  const traceFile = path.join(ARTIFACTS, `${stem}.trace.jsonl`);
  native(['run', path.join(ROOT, 'scenarios', `${stem}.json`), '--format', 'json', '--trace', traceFile]);
  const want = fs.readFileSync(traceFile, 'utf8').trimEnd().split('\n');
  const got = await page.evaluate(async (url) => {
    const sim = window.dl.Simulation.fromJson(await (await fetch(url)).text());
    const lines = [];
    // Drained in steps of a minute, as a page drawing a timeline would.
    for (let t = 0; t <= sim.untilMs(); t += 60_000) {
      sim.advanceTo(t);
      for (const e of sim.drainEvents()) lines.push(JSON.stringify(e));
    }
    sim.advanceTo(sim.untilMs());
    for (const e of sim.drainEvents()) lines.push(JSON.stringify(e));
    return lines;
  }, `/scenarios/${stem}.json`);
  assert.equal(got.length, want.length, 'event count');
  for (let i = 0; i < want.length; i++) {
    // Same fields and values; JSON.stringify may order integer-like keys first, so compare parsed.
    assert.deepEqual(JSON.parse(got[i]), JSON.parse(want[i]), `trace line ${i + 1}`);
  }
  return `${want.length} events`;
});

// --- errors ------------------------------------------------------------------------------
await check('a bad scenario throws the loader message with its JSON path', async () => {
  const bad = JSON.stringify({ topology: { queues: [{ name: 7 }] } });
  const badFile = path.join(ARTIFACTS, 'bad-scenario.json');
  fs.writeFileSync(badFile, bad);
  let cli = '';
  try {
    native(['run', badFile]);
  } catch (e) {
    cli = String(e.stderr || '').trim();
  }
  const got = await page.evaluate((text) => {
    try {
      window.dl.Simulation.fromJson(text);
      return null;
    } catch (e) {
      return { isError: e instanceof Error, message: e.message, path: e.path };
    }
  }, bad);
  assert.ok(got && got.isError, 'fromJson threw an Error');
  assert.equal(got.path, 'topology.queues[0].name');
  assert.ok(got.message.startsWith('topology.queues[0].name: '), got.message);
  assert.equal(cli, `${badFile}: ${got.message}`, 'the CLI says the same after the file name');
  return got.message;
});

await check('handle(): refusals throw RabbitMQ code and text; commands act', async () => {
  const got = await page.evaluate(async () => {
    const sim = window.dl.Simulation.fromJson(await (await fetch('/scenarios/head-of-line-blocking.json')).text());
    sim.advanceTo(120_000);
    const refusal = (cmd) => {
      try {
        sim.handle(cmd);
        return null;
      } catch (e) {
        return { isError: e instanceof Error, message: e.message, code: e.code, text: e.text, scope: e.scope, path: e.path };
      }
    };
    const out = {
      badExpiration: refusal({ publish: { exchange: 'order.delay.exchange', routing_key: 'order.create', body: 'X', properties: { expiration: 'abc' } } }),
      noExchange: refusal({ publish: { exchange: 'no.such.exchange', routing_key: 'k', body: 'Y' } }),
      noQueue: refusal({ add_consumer: { name: 'late', queue: 'no.such.queue', ack: 'auto' } }),
      malformed: refusal({ publish: { properties: { expiration: 5 } } }),
      accepted: refusal({ publish: { exchange: 'order.delay.exchange', routing_key: 'order.create', body: 'C', properties: { expiration: '60000' } } }),
      asText: refusal(JSON.stringify({ stop_consumer: 'closer' })),
      badTime: (() => { try { sim.advanceTo(-1); return null; } catch (e) { return e.message; } })(),
    };
    const snap = sim.snapshot();
    out.waiting = snap.queues.find((q) => q.name === 'order.delay.queue').head.map((m) => m.body);
    out.closer = snap.consumers.find((c) => c.name === 'closer');
    sim.runToEnd();
    out.result = JSON.parse(sim.resultJson());
    return out;
  });
  assert.deepEqual(got.badExpiration, { isError: true, message: "406 PRECONDITION_FAILED - invalid expiration 'abc': no_integer",
    code: 406, text: "PRECONDITION_FAILED - invalid expiration 'abc': no_integer", scope: 'channel', path: undefined });
  assert.equal(got.noExchange.code, 404);
  assert.match(got.noExchange.text, /^NOT_FOUND - no exchange 'no.such.exchange'/);
  assert.equal(got.noQueue.code, 404);
  assert.match(got.noQueue.text, /no queue 'no.such.queue'/);
  assert.equal(got.malformed.path, 'publish.properties.expiration');
  assert.equal(got.malformed.code, undefined);
  assert.equal(got.accepted, null);
  assert.equal(got.asText, null);
  assert.match(got.badTime, /advanceTo\(ms\): expected a whole number/);
  assert.deepEqual(got.waiting, ['A', 'B', 'C']);
  assert.equal(got.closer.stopped, true);
  // The refusals are in the result too, as `delaylab run` lists errors.
  assert.deepEqual(got.result.errors.map((e) => e.code), [406, 404, 404]);
  assert.deepEqual(got.result.deliveries.map((d) => d.body), [], 'nobody consumes once closer stopped');
  assert.equal(got.result.final.queues['order.dlx.queue'].ready, 3);
  return got.badExpiration.message;
});

// --- share links -------------------------------------------------------------------------
await check('linkOf = delaylab link, and scenarioOfLink reads it back', async () => {
  const stem = 'head-of-line-blocking';
  const file = path.join(ROOT, 'scenarios', `${stem}.json`);
  const base = 'https://delaylab.example/';
  const cliLink = native(['link', file, '--base', base]).trim();
  const got = await page.evaluate(async ([url, b, link]) => {
    const text = await (await fetch(url)).text();
    const mine = window.dl.linkOf(text, b);
    const back = window.dl.scenarioOfLink(link);
    const fragment = window.dl.linkOf(text);
    let bad = null;
    try { window.dl.scenarioOfLink(link.slice(0, -6)); } catch (e) { bad = e.message; }
    const a = window.dl.Simulation.fromJson(text);
    const z = window.dl.Simulation.fromJson(back);
    a.runToEnd();
    z.runToEnd();
    const norm = (s) => s.replace(/"wall_ms": [0-9.eE+-]+/, '');
    return { mine, fragment, same: norm(a.resultJson()) === norm(z.resultJson()), bad };
  }, [`/scenarios/${stem}.json`, base, cliLink]);
  assert.equal(got.mine, cliLink);
  assert.equal(`${base}${got.fragment}`, cliLink, 'without a base: just the fragment');
  assert.ok(got.same, 'the scenario read back from the link runs the same');
  assert.match(got.bad ?? '', /^bad link: /);
  return `${cliLink.length} characters; cut short: ${got.bad}`;
});

// --- compare(): its own module, fetched on the first call --------------------------------
await check('compare() loads pkg/compare/ on its first call and compares as delaylab compare', async () => {
  const workload = 'scenarios/workloads/promotion-burst.json';
  const want = JSON.parse(native(['compare', path.join(ROOT, workload), '--strategies',
    'dlx-per-queue,timing-wheel', '--count', '300', '--format', 'json']));
  const got = await page.evaluate(async (url) => {
    const wasm = () => performance.getEntriesByType('resource').map((e) => e.name)
      .filter((n) => n.endsWith('.wasm')).map((n) => new URL(n).pathname);
    const before = wasm();
    const pending = window.dl.compare(await (await fetch(url)).text(),
      { strategies: ['dlx-per-queue', 'timing-wheel'], count: 300 });
    const isPromise = pending instanceof Promise;
    const { result } = await pending;
    return { before, after: wasm(), isPromise, result };
  }, `/${workload}`);
  assert.ok(got.isPromise, 'compare() returns a promise');
  assert.deepEqual(got.before, ['/pkg/delaylab_engine_bg.wasm'], 'before compare() only the main module is fetched');
  assert.ok(got.after.includes('/pkg/compare/delaylab_compare_bg.wasm'), `compare() fetched its module: ${got.after}`);
  assert.deepEqual(got.result, want);
  return `${got.result.strategies.length} strategies, modules ${got.after.join(', ')}`;
});

// --- the README's example ----------------------------------------------------------------
await check("pkg/README.md's example runs and prints what the README says", async () => {
  const readme = fs.readFileSync(path.join(ROOT, 'pkg', 'README.md'), 'utf8');
  const html = readme.match(/```html\n([\s\S]*?)```/)?.[1];
  assert.ok(html, 'the README has an html example');
  fs.writeFileSync(path.join(ROOT, 'pkg', 'readme-example.html'),
    html.replace("'./pkg/delaylab_engine.js'", "'./delaylab_engine.js'"));
  try {
    await page.goto(new URL('pkg/readme-example.html', server.url).href, { waitUntil: 'load' });
    await page.waitForFunction(() => document.getElementById('out')?.textContent, null, { timeout: 30_000 });
    const out = await page.locator('#out').textContent();
    assert.equal(out, ['6:00: 2 waiting, 1 overdue behind the head',
      'A delivered at 30 min, 0 min late', 'B delivered at 30 min, 24 min late'].join('\n'));
    return out.split('\n').join(' / ');
  } finally {
    fs.rmSync(path.join(ROOT, 'pkg', 'readme-example.html'), { force: true });
  }
});

await browser.close();
await server.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
