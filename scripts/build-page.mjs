// The playground's page without Trunk, for a first `scripts/serve.sh` on a machine that
// has no Trunk yet (installing it takes ~10 minutes; the tests install it):
//
//   node scripts/build-page.mjs OUT_DIR [debug|serve|release]
//
// (serve: the optimised build without LTO that scripts/serve.sh serves, Cargo.toml's
// [profile.serve]; release: the one CI and a host serve.)
//
// Does what `trunk build` does with this index.html (Trunk.toml), into OUT_DIR:
//   <link data-trunk rel="css" href=F>       -> F copied, a plain stylesheet link to it
//   <link data-trunk rel="copy-file" href=F> -> F copied
//   <link data-trunk rel="copy-dir" href=D>  -> D copied; one of the engine's JS modules not
//                                               built yet gets a placeholder
//                                               (scripts/lib/js-modules.mjs) that serve.sh
//                                               replaces when it is built
//   <link data-trunk rel="rust" data-trunk-skip> -> dropped (the app is the hook's)
// then runs Trunk's post_build hook, scripts/dist-post.mjs (the app's split wasm from
// scripts/build-app.sh, the first paint, preload hints; release: precompressed copies).
// A data-trunk link of any other kind stops the build with its name: teach it here too.
// Trunk adds a content hash and an integrity attribute to stylesheet names; a static
// server that sends `Cache-Control: no-cache` (scripts/static-server.mjs) needs neither.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JS_MODULES, STATUS_FILE, placeholder } from './lib/js-modules.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [outArg, mode = 'debug'] = process.argv.slice(2);
if (!outArg || !['debug', 'serve', 'release'].includes(mode)) {
  console.error('usage: node scripts/build-page.mjs OUT_DIR [debug|serve|release]');
  process.exit(2);
}
const out = path.resolve(outArg);
const fail = (msg) => {
  console.error(`build-page: ${msg}`);
  process.exit(1);
};
/** A path from index.html, kept inside the repository. */
const source = (href) => {
  const p = path.resolve(ROOT, href);
  if (!p.startsWith(ROOT + path.sep)) fail(`index.html links outside the repository: ${href}`);
  return p;
};
const attr = (tag, name) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const missing = [];
let html = fs.readFileSync(path.join(ROOT, 'index.html'), 'utf8');
html = html.replace(/^[ \t]*<link\b[^>]*\sdata-trunk\b[^>]*>[ \t]*\n?/gm, (tag) => {
  const rel = attr(tag, 'rel');
  const href = attr(tag, 'href');
  const indent = tag.match(/^[ \t]*/)[0];
  switch (rel) {
    case 'css':
      fs.copyFileSync(source(href), path.join(out, path.basename(href)));
      return `${indent}<link rel="stylesheet" href="${path.basename(href)}" />\n`;
    case 'copy-file':
      fs.copyFileSync(source(href), path.join(out, path.basename(href)));
      return '';
    case 'copy-dir':
      if (fs.existsSync(source(href))) fs.cpSync(source(href), path.join(out, path.basename(href)), { recursive: true });
      else {
        missing.push(href);
        const entry = JS_MODULES[href];
        if (entry) {
          fs.mkdirSync(path.join(out, href), { recursive: true });
          fs.writeFileSync(path.join(out, href, entry), placeholder(href, entry));
        }
      }
      return '';
    case 'rust':
      if (!/\sdata-trunk-skip\b/.test(tag)) fail(`a Rust link Trunk would build: ${tag.trim()} (the app is built by scripts/build-app.sh)`);
      return '';
    default:
      return fail(`index.html has a data-trunk link this script does not know: ${tag.trim()}`);
  }
});
if (/<[a-z][^>]*\sdata-trunk[\s=/>]/i.test(html.replace(/<!--[\s\S]*?-->/g, ''))) {
  fail('index.html has a data-trunk element that is not a <link> on a line of its own');
}
fs.writeFileSync(path.join(out, 'index.html'), html);
if (missing.length) {
  fs.writeFileSync(path.join(out, STATUS_FILE), 'export default {"state":"missing"};\n');
  console.log(`build-page: not built yet, placeholders instead: ${missing.join(', ')}`);
}

try {
  execFileSync('node', [path.join(ROOT, 'scripts', 'dist-post.mjs')], {
    stdio: 'inherit',
    env: { ...process.env, TRUNK_STAGING_DIR: out, TRUNK_PROFILE: mode },
  });
} catch (e) {
  fail(`scripts/dist-post.mjs failed (${e.status === null ? e.signal : `exit ${e.status}`}; its output is above)`);
}
