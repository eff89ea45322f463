// Drives the lesson's first embedded simulation through delaylab's postMessage API
// (README, "Embedding") and lists its deliveries; marks each embed (head-of-line, one
// queue per delay on 4.3, the plugin on 4.2) live once it says `ready`. Everything received is shown with textContent: a message is data, never HTML.
'use strict';

(() => {
  const ORIGIN = window.location.origin; // the embeds are served from this same origin
  const NAMES = ['hol', 'queues', 'plugin'];
  const figures = Object.fromEntries(NAMES.map((n) => [n, document.getElementById(n)]));
  const frames = Object.fromEntries(NAMES.map((n) => [n, document.getElementById(`${n}-frame`)]));
  const list = document.querySelector('[data-testid="delivered-list"]');
  const empty = document.querySelector('[data-testid="delivered-empty"]');
  const errorNote = document.querySelector('[data-testid="host-error"]');
  const controls = figures.hol.querySelectorAll('[data-cmd]');
  const delivered = new Map(); // message id -> delivery, kept in delivery order

  const clock = (ms) => {
    const s = Math.floor(ms / 1000);
    const mm = String(Math.floor(s / 60) % 60).padStart(2, '0');
    const ss = String(s % 60).padStart(2, '0');
    const h = Math.floor(s / 3600);
    return h > 0 ? `${h}:${mm}:${ss}` : `${Math.floor(s / 60)}:${ss}`;
  };

  function send(msg) {
    frames.hol.contentWindow.postMessage(msg, ORIGIN);
  }

  function render() {
    const items = [...delivered.values()].sort((a, b) => a.at_ms - b.at_ms || a.id - b.id);
    list.replaceChildren(...items.map((d) => {
      const li = document.createElement('li');
      li.dataset.body = String(d.body);
      li.className = d.late_ms > 0 ? 'late' : 'on-time';
      const what = document.createElement('b');
      what.textContent = `#${d.id} ${d.body}`;
      const where = document.createElement('span');
      where.textContent = ` → ${d.queue} at ${clock(d.at_ms)}`;
      const late = document.createElement('span');
      late.className = 'lateness';
      late.textContent = d.late_ms > 0 ? ` ⚠ ${clock(d.late_ms)} late (late_ms ${d.late_ms})` : ' ✓ on time';
      li.append(what, where, late);
      return li;
    }));
    empty.hidden = items.length > 0;
  }

  function markReady(name, msg) {
    figures[name].dataset.ready = 'true';
    const status = document.querySelector(`[data-testid="${name}-status"]`);
    status.textContent = `● live: ${msg.scenario}`;
    if (name === 'hol') controls.forEach((c) => { c.disabled = false; });
  }

  window.addEventListener('message', (event) => {
    if (event.origin !== ORIGIN) return;
    const name = Object.keys(frames).find((k) => frames[k].contentWindow === event.source);
    const msg = event.data;
    if (!name || !msg || typeof msg !== 'object') return;
    if (msg.type === 'ready' || msg.type === 'status') markReady(name, msg);
    if (name !== 'hol') return;
    if (msg.type === 'delivered') {
      delivered.set(msg.id, msg);
      render();
    } else if (msg.type === 'error') {
      errorNote.textContent = `⚠ ${msg.message}`;
      errorNote.hidden = false;
    }
  });

  figures.hol.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-cmd]');
    if (!button) return;
    errorNote.hidden = true;
    const cmd = button.dataset.cmd;
    if (cmd === 'seek') {
      const ms = Number(button.dataset.ms);
      // Seeking back replays from 0: what is after the new time has not happened yet.
      for (const [id, d] of delivered) if (d.at_ms > ms) delivered.delete(id);
      render();
      send({ type: 'seek', ms });
    } else {
      send({ type: cmd });
    }
  });

  figures.hol.querySelector('select[data-cmd="speed"]').addEventListener('change', (event) => {
    send({ type: 'speed', value: Number(event.target.value) });
  });

  // A `ready` sent before this script ran would be missed: ask again once each frame loads.
  for (const frame of Object.values(frames)) {
    frame.addEventListener('load', () => frame.contentWindow.postMessage({ type: 'status' }, ORIGIN));
  }

  render();
})();
