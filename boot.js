// Starts the wasm app. Trunk.toml's pattern_script writes
//   <script type="module" src="boot.js" data-js="...js" data-wasm="..._bg.wasm">
// instead of Trunk's default inline loader, so that index.html's Content-Security-Policy
// can forbid inline scripts (script-src 'self' 'wasm-unsafe-eval').

// Until the app mounts, the page shows its static first paint (#first-paint, written at
// build time by scripts/first-paint.mjs; src/main.rs removes it on mount). Its gallery
// cards are links (#preset-id): keep the static card marked and the scenario's texts in
// step with the fragment, so a link to a preset or a click before the wasm is ready
// shows that preset at once; the app loads it from the fragment when it mounts.
const firstPaint = document.getElementById('first-paint');
if (firstPaint && new URLSearchParams(location.search).has('embed')) {
  firstPaint.remove(); // an embed is a compact page of its own, not the playground
} else if (firstPaint) {
  const show = () => {
    if (!firstPaint.isConnected) return removeEventListener('hashchange', show); // app mounted
    const id = decodeURIComponent(location.hash.slice(1)) || 'sandbox';
    const cards = [...firstPaint.querySelectorAll('a.preset[data-preset]')];
    const card = cards.find((a) => a.dataset.preset === id);
    if (!card) return; // a share link or anything else: the app reads it
    for (const a of cards) {
      if (a === card) a.setAttribute('aria-current', 'true');
      else a.removeAttribute('aria-current');
    }
    const text = (sel, value) => {
      const el = firstPaint.querySelector(sel);
      if (el) el.textContent = value;
    };
    text('.first-paint-name', card.querySelector('.preset-name')?.textContent ?? '');
    text('.first-paint-desc', card.querySelector('.preset-desc')?.textContent ?? '');
    text('.first-paint-watch', card.dataset.watch ?? '');
  };
  show();
  addEventListener('hashchange', show);
}

// A Chinese page's texts (the presets' and the UI words' Chinese) are data the app fetches
// once it has mounted (src/app/zh_fetch.rs: they are not in the start-up wasm). On a
// browser in Chinese, which the app follows (browser_lang in src/app/mod.rs), or an embed
// asked for in Chinese (?lang=zh), the download starts now, beside the wasm's, and the
// app's fetch takes the preloaded response (same URL, same mode): the page is not English
// for a round trip after the mount.
if (/^zh/i.test(navigator.language || '') || new URLSearchParams(location.search).get('lang') === 'zh') {
  const hint = document.createElement('link');
  hint.rel = 'preload';
  hint.as = 'fetch';
  hint.href = 'zh-texts.json';
  hint.crossOrigin = 'anonymous';
  document.head.append(hint);
}

const tag = document.querySelector('script[data-wasm][data-js]');
const { default: init } = await import(tag.dataset.js);
const wasm = await init({ module_or_path: tag.dataset.wasm });
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
