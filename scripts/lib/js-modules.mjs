// The engine's JS modules (scripts/build-js.sh) by folder, with the file a page imports,
// and the placeholder that stands in for one not built yet (scripts/build-page.mjs writes
// it; scripts/serve.sh replaces it when the module is built): it exports
// `delaylabPlaceholder` (its folder, and where `serve-status.js` is) and a default init
// that rejects, so that a page that imports it says "still being built"
// (src/app/lazy_module.rs, www/training.js) instead of meeting a 404.
// `serve-status.js`, at the page's root, says how the build goes: "missing" (nobody builds
// it), or what scripts/serve.sh writes: "building" (with `started_ms`, `expected_s`,
// `log`), "ready" or "failed" (with `log`).

export const JS_MODULES = {
  pkg: 'delaylab_engine.js',
  'pkg-export': 'delaylab_export.js',
  'pkg-strategies': 'delaylab_strategies_view.js',
};

export const STATUS_FILE = 'serve-status.js';

/** The placeholder module for `dir`/`entry`. */
export const placeholder = (dir, entry) => `// A placeholder written by scripts/build-page.mjs: ${dir}/ was not built when the page was
// (scripts/serve.sh builds it in the background and puts the real module here).
export const delaylabPlaceholder = {
  dir: ${JSON.stringify(dir)},
  status: new URL('../${STATUS_FILE}', import.meta.url).href,
};
export default function init() {
  return Promise.reject(new Error(${JSON.stringify(`${dir}/${entry} is not built yet`)}));
}
`;
