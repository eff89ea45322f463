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
