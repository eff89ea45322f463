// Trunk post_build hook (Trunk.toml [[hooks]]), run on the staging folder before Trunk
// moves it to dist/ (issue 13 item 5):
//   0. builds the app's wasm, split into a start-up module and chunks (scripts/
//      build-app.sh), into a folder named by its content (`app-<sha256 prefix>/`: a
//      cached page never mixes files of two builds) and points index.html's boot script
//      at it (`data-js="{app}/app.js"` -> `./app-1a2b.../app.js`);
//   1. writes the static first paint (scripts/first-paint.mjs) at the start of <body>;
//   2. makes sure the wasm, its JS glue and the chunks' loader are preloaded from <head>,
//      so the fetches start while the HTML is still parsing (a missing hint is added,
//      never a second copy);
//   3. release builds only: minifies boot.js (scripts/minify-js.mjs, as build-app.sh
//      does the app's JS), then writes FILE.gz and FILE.br (brotli quality 11) beside every
//      compressible file, for hosts that serve precompressed files (scripts/
//      static-server.mjs does). The .gz is zopfli's (npm @gfx/zopfli, package.json): a
//      gzip stream any client reads, about 5% smaller than zlib's -9 (the wasm is most of
//      a first load on a slow line); zlib -9 when that package is not installed.
//
//   TRUNK_STAGING_DIR=dist TRUNK_PROFILE=release node scripts/dist-post.mjs   (by hand)
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { firstPaintHtml, FIRST_PAINT_ID } from './first-paint.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where index.html's boot script names the app's folder, until it is built. */
const APP_PLACEHOLDER = '{app}';
/** How many hex digits of the content's SHA-256 name the app's folder. */
const APP_HASH_DIGITS = 16;
/** The chunks' loader, written by the splitter (scripts/build-app.sh). */
const SPLIT_LOADER = '__wasm_split.js';

/** zopfli's passes over each block: 5 gets nearly all of its gain at a third of the time of 15. */
const ZOPFLI_ITERATIONS = 5;

/** Files worth compressing (images and fonts here are tiny or already compressed). */
const COMPRESSIBLE = /\.(html|js|mjs|css|wasm|json|svg|txt|md|map)$/;

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error('dist-post: TRUNK_STAGING_DIR is not set (this runs as a Trunk post_build hook)');
  process.exit(2);
}
const release = process.env.TRUNK_PROFILE === 'release';

function fail(msg) {
  console.error(`dist-post: ${msg}`);
  process.exit(1);
}

// 0: the app, in a folder named by its content.
function appFolder() {
  const building = path.join(staging, 'app.building');
  try {
    const mode = release ? 'release' : process.env.TRUNK_PROFILE === 'serve' ? 'serve' : 'debug';
    execFileSync('bash', [path.join(ROOT, 'scripts', 'build-app.sh'), building, mode], { stdio: 'inherit' });
  } catch (e) {
    fail(`scripts/build-app.sh failed (${e.status === null ? e.signal : `exit ${e.status}`}; its output is above)`);
  }
  const hash = crypto.createHash('sha256');
  for (const f of walk(building, [], () => true).sort()) {
    hash.update(path.relative(building, f));
    hash.update('\0');
    hash.update(fs.readFileSync(f));
  }
  const name = `app-${hash.digest('hex').slice(0, APP_HASH_DIGITS)}`;
  fs.renameSync(building, path.join(staging, name));
  return name;
}

// 1 + 2: the page.
const indexPath = path.join(staging, 'index.html');
let html = fs.readFileSync(indexPath, 'utf8');
if (!html.includes(`data-js="${APP_PLACEHOLDER}/`)) fail(`index.html's boot script has no data-js="${APP_PLACEHOLDER}/..." to fill`);
const app = appFolder();
// "./": boot.js import()s data-js, and a bare "app-…/app.js" is not a module URL.
html = html.replaceAll(`"${APP_PLACEHOLDER}/`, `"./${app}/`);
if (html.includes(`id="${FIRST_PAINT_ID}"`)) fail('index.html already has the first paint (hook ran twice?)');
const body = html.match(/<body[^>]*>/);
if (!body) fail('index.html has no <body>');
html = html.replace(body[0], `${body[0]}\n  ${firstPaintHtml()}\n`);

const loader = html.match(/<script[^>]*data-js="([^"]+)"[^>]*data-wasm="([^"]+)"/);
if (!loader) fail('index.html has no boot script with data-js and data-wasm');
const [, js, wasm] = loader;
const hints = [];
if (!new RegExp(`<link[^>]*rel="modulepreload"[^>]*href="${js}"`).test(html)) {
  hints.push(`<link rel="modulepreload" href="${js}" crossorigin="anonymous" />`);
}
if (!new RegExp(`<link[^>]*rel="preload"[^>]*href="${wasm}"`).test(html)) {
  hints.push(`<link rel="preload" href="${wasm}" as="fetch" type="application/wasm" crossorigin="anonymous" />`);
}
const loaderJs = `./${app}/${SPLIT_LOADER}`;
if (fs.existsSync(path.join(staging, loaderJs)) && !new RegExp(`<link[^>]*rel="modulepreload"[^>]*href="${loaderJs}"`).test(html)) {
  hints.push(`<link rel="modulepreload" href="${loaderJs}" crossorigin="anonymous" />`);
}
if (hints.length) html = html.replace('</head>', `  ${hints.join('\n  ')}\n</head>`);
fs.writeFileSync(indexPath, html);

// 3: precompressed copies.
function walk(dir, out = [], keep = (name) => COMPRESSIBLE.test(name)) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out, keep);
    else if (keep(e.name)) out.push(p);
  }
  return out;
}
async function gzipper() {
  try {
    const { gzipAsync } = await import('@gfx/zopfli');
    return { name: 'zopfli', gzip: (data) => gzipAsync(data, { numiterations: ZOPFLI_ITERATIONS }) };
  } catch {
    return { name: 'zlib -9', gzip: async (data) => zlib.gzipSync(data, { level: 9 }) };
  }
}
if (release) {
  // boot.js minified like the app's own JS (build-app.sh), before its compressed copies.
  const boot = path.join(staging, 'boot.js');
  if (fs.existsSync(boot)) {
    try {
      execFileSync('node', [path.join(ROOT, 'scripts', 'minify-js.mjs'), boot], { stdio: 'inherit' });
    } catch (e) {
      fail(`scripts/minify-js.mjs failed on boot.js (${e.status === null ? e.signal : `exit ${e.status}`})`);
    }
  }
  let files = 0;
  const gzip = await gzipper();
  for (const f of walk(staging)) {
    const data = fs.readFileSync(f);
    const gz = Buffer.from(await gzip.gzip(data));
    if (!zlib.gunzipSync(gz).equals(data)) fail(`${f}: the ${gzip.name} copy does not unzip to the file`);
    const br = zlib.brotliCompressSync(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        [zlib.constants.BROTLI_PARAM_MODE]: f.endsWith('.wasm')
          ? zlib.constants.BROTLI_MODE_GENERIC
          : zlib.constants.BROTLI_MODE_TEXT,
      },
    });
    fs.writeFileSync(`${f}.gz`, gz);
    fs.writeFileSync(`${f}.br`, br);
    files++;
    if (/\.(wasm|js)$/.test(f) && !f.includes(`${path.sep}www${path.sep}`)) {
      console.log(`dist-post: ${path.basename(f)}: ${data.length} bytes, gzip ${gz.length}, brotli ${br.length}`);
    }
  }
  console.log(`dist-post: first paint written, ${hints.length} preload hint(s) added, ${files} files precompressed (gzip by ${gzip.name}, brotli 11)`);
} else {
  console.log(`dist-post: first paint written, ${hints.length} preload hint(s) added (no precompression: ${process.env.TRUNK_PROFILE || 'debug'} build)`);
}
