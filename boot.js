// Starts the wasm app. Trunk.toml's pattern_script writes
//   <script type="module" src="boot.js" data-js="...js" data-wasm="..._bg.wasm">
// instead of Trunk's default inline loader, so that index.html's Content-Security-Policy
// can forbid inline scripts (script-src 'self' 'wasm-unsafe-eval').
const tag = document.querySelector('script[data-wasm][data-js]');
const { default: init } = await import(tag.dataset.js);
const wasm = await init({ module_or_path: tag.dataset.wasm });
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
