// What the training pages in www/ that run the engine themselves share (the quiz, the
// exercise): text put in as nodes (never HTML), times as they write them, and the English /
// 中文 switch (`?lang=`, else the last choice, else English).

/** Sets an element's text; `code` in backticks becomes <code> (built as nodes, never HTML). */
export function setText(el, text) {
  el.replaceChildren(...String(text).split('`').map((part, i) => {
    if (i % 2 === 0) return document.createTextNode(part);
    const code = document.createElement('code');
    code.textContent = part;
    return code;
  }));
}

/** A virtual time as the pages write it: `6:00`, `30:00`, `0:06.500`. */
export const clock = (ms) => {
  const s = Math.floor(ms / 1000);
  const frac = ms % 1000;
  const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  return frac ? `${text}.${String(frac).padStart(3, '0')}` : text;
};

const HTML_LANG = { en: 'en', zh: 'zh-CN' };
/** The choice is shared by the pages (one learner, one language). */
const STORAGE_KEY = 'delaylab.quiz.lang';

/** A page's words in both languages (`text.en`, `text.zh`: key -> string or function). */
export class Languages {
  constructor(text) {
    this.text = text;
    this.lang = 'en';
  }

  /** The word (or the function that makes it) for `key` in the current language. */
  t(key) {
    return this.text[this.lang][key];
  }

  /**
   * Wires the page's [data-lang] buttons and applies the wanted language; `onChange` then
   * runs after every switch, once every [data-i18n] element has its words.
   */
  start(onChange) {
    this.onChange = onChange;
    for (const b of document.querySelectorAll('[data-lang]')) b.addEventListener('click', () => this.apply(b.dataset.lang));
    const wanted = new URLSearchParams(window.location.search).get('lang')
      || (() => { try { return localStorage.getItem(STORAGE_KEY); } catch { return null; } })();
    this.apply(this.text[wanted] ? wanted : 'en');
  }

  apply(next) {
    this.lang = next;
    document.documentElement.lang = HTML_LANG[next];
    for (const el of document.querySelectorAll('[data-i18n]')) {
      const v = this.t(el.dataset.i18n);
      if (typeof v === 'string') setText(el, v);
    }
    for (const b of document.querySelectorAll('[data-lang]')) b.setAttribute('aria-pressed', String(b.dataset.lang === next));
    document.title = `${this.t('title')} · delaylab`;
    try { localStorage.setItem(STORAGE_KEY, next); } catch { /* private mode: not remembered */ }
    this.onChange?.();
  }
}

/** How often the build status is read while scripts/serve.sh builds the engine package. */
const BUILD_POLL_MS = 3000;
const BUILD_WORDS = {
  en: {
    building: (dir, ago, total, log) => `The engine package (${dir}/) is still being built by scripts/serve.sh: started ${ago} min ago, usually about ${total} min in all on two idle cores (log: ${log}). This page goes on by itself when it is ready; no need to reload.`,
    ready: (dir) => `The engine package (${dir}/) is built: loading it…`,
    failed: (dir, log) => `scripts/serve.sh could not build the engine package (${dir}/): see ${log}.`,
    missing: (dir) => `The engine package (${dir}/) was not built with this page: run bash scripts/build-js.sh and build the page again (or run bash scripts/serve.sh).`,
  },
  zh: {
    building: (dir, ago, total, log) => `引擎包(${dir}/)仍在由 scripts/serve.sh 构建:${ago} 分钟前开始,在两个空闲 CPU 核上通常共需约 ${total} 分钟(日志:${log})。构建完成后本页会自动继续,无需刷新。`,
    ready: (dir) => `引擎包(${dir}/)已构建完成,正在加载…`,
    failed: (dir, log) => `scripts/serve.sh 未能构建引擎包(${dir}/):见 ${log}。`,
    missing: (dir) => `引擎包(${dir}/)没有随本页构建:运行 bash scripts/build-js.sh,再重新构建页面(或运行 bash scripts/serve.sh)。`,
  },
};

/** serve-status.js as it is now (a fresh copy), or "missing" when there is none. */
async function buildStatus(url) {
  try {
    return (await import(`${url}?t=${Date.now()}`)).default;
  } catch {
    return { state: 'missing' };
  }
}

/**
 * Imports the engine package (../pkg/) and starts it; its exports. While
 * scripts/serve.sh is still building it, a placeholder stands in its place
 * (scripts/build-page.mjs): `onWait(text)` then says so in the page's language (`words`,
 * a Languages) every few seconds, and the package is imported again once
 * `serve-status.js` says it is ready. A failed or missing build throws with what to run.
 */
export async function loadEngine(words, onWait) {
  const url = new URL('../pkg/delaylab_engine.js', import.meta.url).href;
  for (let attempt = 0; ; attempt += 1) {
    const m = await import(attempt ? `${url}?built=${Date.now()}` : url);
    const ph = m.delaylabPlaceholder;
    if (!ph) {
      await m.default();
      return m;
    }
    for (;;) {
      const st = await buildStatus(ph.status);
      const w = BUILD_WORDS[words.lang] || BUILD_WORDS.en;
      if (st.state === 'ready') {
        onWait(w.ready(ph.dir));
        break;
      }
      if (st.state !== 'building') throw new Error(st.state === 'failed' ? w.failed(ph.dir, st.log) : w.missing(ph.dir));
      const ago = Math.max(0, Math.round((Date.now() - st.started_ms) / 60000));
      onWait(w.building(ph.dir, ago, Math.max(1, Math.ceil(st.expected_s / 60)), st.log));
      await new Promise((r) => setTimeout(r, BUILD_POLL_MS));
    }
  }
}
