// Minifies the page's own JavaScript in place for a release build (issue 29 item 10: the
// start-up's JS is part of a first load's bytes): wasm-bindgen's glue (app.js), the
// chunks' loader (__wasm_split.js) and their snippets (scripts/build-app.sh), and boot.js
// (scripts/dist-post.mjs). terser (npm, package.json), every file an ES module.
//
//   node scripts/minify-js.mjs FILE.js...
//
// Measured on 2026-12-07's build, gzip -9 before -> after: app.js 9,912 -> 7,634 B,
// __wasm_split.js 1,079 -> 602, boot.js 1,423 -> 652.
//
// What must survive, and does: the names a wasm module imports are property names of
// the imports object (`imports.wbg.__wbg_…`), which terser does not mangle; exports are
// kept as written; `new URL('app_bg.wasm', import.meta.url)` and import() paths are
// strings. A file terser cannot parse fails the build, naming it.
import fs from 'node:fs';
import { minify } from 'terser';

const OPTIONS = {
  module: true,
  compress: { passes: 2 },
  mangle: true,
  format: { comments: false },
};

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('minify-js: usage: node scripts/minify-js.mjs FILE.js...');
  process.exit(2);
}
for (const file of files) {
  const code = fs.readFileSync(file, 'utf8');
  let out;
  try {
    out = await minify(code, OPTIONS);
  } catch (e) {
    console.error(`minify-js: ${file}: ${e.message}${e.line ? ` (line ${e.line}, column ${e.col})` : ''}`);
    process.exit(1);
  }
  if (typeof out.code !== 'string' || out.code.length === 0) {
    console.error(`minify-js: ${file}: terser returned no code`);
    process.exit(1);
  }
  fs.writeFileSync(file, out.code);
}
