// Shared by the package tests (tests/pkg/*.mjs): a static server over the project root
// (pkg/, scenarios/, tests/pkg/, tests/artifacts/pkg/ only, on 127.0.0.1, a port the OS
// picks), headless Debian Chromium through playwright-core, and the native binary.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ARTIFACTS = path.join(ROOT, 'tests', 'artifacts', 'pkg');
export const DELAYLAB = process.env.DELAYLAB || path.join(ROOT, 'target', 'release', 'delaylab');
const SERVED = ['pkg/', 'scenarios/', 'tests/pkg/', 'tests/artifacts/pkg/'];
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json', '.html': 'text/html; charset=utf-8', '.ts': 'text/plain', '.md': 'text/plain' };
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function requirePkg() {
  const entry = path.join(ROOT, 'pkg', 'delaylab_engine.js');
  if (!fs.existsSync(entry)) {
    console.log(`FAIL ${entry} missing: run bash scripts/build-js.sh first`);
    process.exit(1);
  }
  if (!fs.existsSync(DELAYLAB)) {
    console.log(`FAIL ${DELAYLAB} missing: run cargo build --release first`);
    process.exit(1);
  }
}

export function startServer() {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '');
    const file = path.resolve(ROOT, rel);
    if (!SERVED.some((p) => rel.startsWith(p)) || !file.startsWith(ROOT + path.sep) || !fs.existsSync(file)
        || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
      'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

// A page on tests/pkg/harness.html with the package imported as `window.dl`, failing on
// any console error, page error or failed request (collected in `problems`).
export async function openHarness(base) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS,
  });
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message || e}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText || ''}`));
  await page.goto(new URL('tests/pkg/harness.html', base).href, { waitUntil: 'load' });
  await page.waitForFunction(() => window.dlReady === true || window.dlError, null, { timeout: 60_000 });
  const err = await page.evaluate(() => window.dlError && String(window.dlError));
  if (err) throw new Error(`the package did not load: ${err}`);
  return { browser, page, problems };
}

// Runs the native binary; stdout to `outFile` when given (results can be 170 MB), else returned.
export function native(args, outFile) {
  if (outFile) {
    fs.mkdirSync(path.dirname(outFile), { recursive: true });
    const fd = fs.openSync(outFile, 'w');
    try {
      execFileSync(DELAYLAB, args, { stdio: ['ignore', fd, 'inherit'] });
    } finally {
      fs.closeSync(fd);
    }
    return null;
  }
  return execFileSync(DELAYLAB, args, { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
}

export const presetStems = () => fs.readdirSync(path.join(ROOT, 'scenarios'))
  .filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
