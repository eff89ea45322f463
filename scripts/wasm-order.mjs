// Orders a wasm module's functions so that alike bodies sit next to each other, for a
// smaller gzip (issue 29 item 10: the start-up module is most of a first load's bytes).
//
//   node scripts/wasm-order.mjs IN.wasm OUT.wasm
//   wasm-opt --reorder-functions-by-name -Oz OUT.wasm -o FINAL.wasm    (scripts/build-app.sh)
//
// Why: deflate finds a repeat only within its last 32 KB. The linker lays functions out
// in its own order, so the monomorphized copies of one generic function (tachys' `build`
// and `rebuild` for each view type, `Map::next` for each closure) lie far apart, each out
// of the others' window. Placed one after the other, each copy costs little more than a
// reference back. Measured on the start-up module of 2026-12-07 (wasm-opt -Oz after each
// order; gzip -9 / zopfli as dist-post.mjs writes it): the linker's order 492.6 / 471.0 KB,
// wasm-opt's by name 477.6 KB / -, by name without the symbol hash 476.2 / -, each most
// alike to the last placed 475.4 / 455.1, to any of the last 16 placed (this) 473.1 / -;
// the raw size is unchanged (1,244,724 bytes).
//
// How: each function body is summarized by a MinHash signature of its 6-byte windows
// (SIGNATURE_HASHES values; two signatures agree in about the share of windows the
// bodies share). The order is greedy: from the first function, always the not yet
// placed function most alike to one of the last 16 placed (what deflate's window still
// holds of them), a tie to the one first in the module. The functions are then renamed
// by their place ("f000042") in a new name section, which wasm-opt's
// --reorder-functions-by-name follows; -Oz keeps the order and drops the names. Nothing else in the module is touched: exports, imports, the table
// and the data keep their names and places, so the glue (app.js) and the chunks, which
// reach the module through its exports and table, see the same module.
//
// Deterministic (fixed hash seeds, ties by index), no dependencies; about 8 s for the
// start-up module's 5,900 functions (the greedy step compares every pair once).
import fs from 'node:fs';

/** MinHash values per body: 128 tells apart bodies that share 5 % of their windows more. */
const SIGNATURE_HASHES = 128;
/** Bytes per window: 6 measured best of 3, 4, 6 and 8 (gzip -9 within 0.3 %). */
const WINDOW_BYTES = 6;
/** The functions placed last that a candidate is compared with: of 1, 4, 8, 16 and 32,
 * 16 gave the smallest module (gzip -9 475.4 KB with 1, 473.1 with 16). */
const WINDOW_FUNCTIONS = 16;
/** The most functions ordered: the greedy step is quadratic (5,900 take 8 s, 20,000 would
 * take about 90). A larger module keeps the linker's order, said on stderr. */
const MAX_FUNCTIONS = 20_000;

function fail(msg) {
  console.error(`wasm-order: ${msg}`);
  process.exit(1);
}

/** An unsigned LEB128 at `at`: [value, next offset]. */
function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (at >= bytes.length) throw new Error('a LEB128 number runs past the end');
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
    if (shift > 35) throw new Error('a LEB128 number is too long');
  }
}

function encodeLeb(value) {
  const out = [];
  do {
    let b = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) b |= 0x80;
    out.push(b);
  } while (value > 0);
  return Buffer.from(out);
}

/** The module's sections, and the imported function count and function bodies. */
export function readModule(bytes) {
  const magic = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(magic)) throw new Error('not a wasm module (version 1)');
  const sections = [];
  let importedFunctions = 0;
  const bodies = [];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, start] = leb(bytes, at + 1);
    const end = start + size;
    if (end > bytes.length) throw new Error(`section ${id} runs past the end`);
    let name = null;
    if (id === 0) {
      const [len, p] = leb(bytes, start);
      name = bytes.subarray(p, p + len).toString();
    }
    sections.push({ id, name, headerStart: at, end });
    if (id === 2) importedFunctions = countImportedFunctions(bytes, start);
    if (id === 10) {
      let [count, p] = leb(bytes, start);
      for (let i = 0; i < count; i++) {
        let len;
        [len, p] = leb(bytes, p);
        bodies.push(bytes.subarray(p, p + len));
        p += len;
      }
    }
    at = end;
  }
  return { sections, importedFunctions, bodies };
}

function countImportedFunctions(bytes, at) {
  let [count, p] = leb(bytes, at);
  let functions = 0;
  const skipLimits = () => {
    const flags = bytes[p++];
    [, p] = leb(bytes, p);
    if (flags & 1) [, p] = leb(bytes, p);
  };
  for (let i = 0; i < count; i++) {
    for (let s = 0; s < 2; s++) {
      let len;
      [len, p] = leb(bytes, p);
      p += len;
    }
    const kind = bytes[p++];
    if (kind === 0) {
      [, p] = leb(bytes, p);
      functions++;
    } else if (kind === 1) {
      p++; // reference type
      skipLimits();
    } else if (kind === 2) {
      skipLimits();
    } else if (kind === 3) {
      p += 2; // value type, mutability
    } else if (kind === 4) {
      p++; // tag attribute
      [, p] = leb(bytes, p);
    } else {
      throw new Error(`import kind ${kind} unknown`);
    }
  }
  return functions;
}

/** Each body's MinHash signature, SIGNATURE_HASHES values a body. */
function signatures(bodies) {
  const k = SIGNATURE_HASHES;
  const seeds = Array.from({ length: k }, (_, i) => (Math.imul(i + 1, 0x9e3779b1) ^ 0x85ebca6b) >>> 0);
  const sig = new Uint32Array(bodies.length * k).fill(0xffffffff);
  for (let f = 0; f < bodies.length; f++) {
    const body = bodies[f];
    const base = f * k;
    for (let p = 0; p + WINDOW_BYTES <= body.length; p++) {
      let h = 2166136261; // FNV-1a of the window
      for (let q = 0; q < WINDOW_BYTES; q++) h = Math.imul(h ^ body[p + q], 16777619);
      for (let i = 0; i < k; i++) {
        let x = Math.imul(h ^ seeds[i], 0x85ebca6b); // murmur3's finalizer, one seed a hash
        x ^= x >>> 13;
        x = Math.imul(x, 0xc2b2ae35);
        x ^= x >>> 16;
        x >>>= 0;
        if (x < sig[base + i]) sig[base + i] = x;
      }
    }
  }
  return sig;
}

/** The greedy order: each next function the one most alike to any of the last
 * WINDOW_FUNCTIONS placed (deflate looks back 32 KB, some 150 functions, not one). */
export function order(bodies) {
  const n = bodies.length;
  const k = SIGNATURE_HASHES;
  const w = WINDOW_FUNCTIONS;
  const sig = signatures(bodies);
  // recent[f * w + slot]: how alike f is to the function placed in that slot of the window.
  const recent = new Uint16Array(n * w);
  const placed = new Uint8Array(n);
  const out = [];
  let last = 0;
  for (let step = 0; step < n; step++) {
    if (step > 0) {
      let best = -1;
      let bestScore = -1;
      for (let f = 0; f < n; f++) {
        if (placed[f]) continue;
        let score = 0;
        for (let i = f * w; i < f * w + w; i++) if (recent[i] > score) score = recent[i];
        if (score > bestScore) {
          bestScore = score;
          best = f;
        }
      }
      last = best;
    }
    placed[last] = 1;
    out.push(last);
    const slot = step % w;
    const a = last * k;
    for (let f = 0; f < n; f++) {
      if (placed[f]) continue;
      let alike = 0;
      const b = f * k;
      for (let i = 0; i < k; i++) alike += sig[a + i] === sig[b + i] ? 1 : 0;
      recent[f * w + slot] = alike;
    }
  }
  return out;
}

/** The module with its name section replaced by one naming each function by its place. */
export function renamed(bytes, module, places) {
  const digits = String(places.length).length;
  const entries = [];
  for (let f = 0; f < places.length; f++) {
    const name = Buffer.from(`f${String(places[f]).padStart(digits, '0')}`);
    entries.push(encodeLeb(module.importedFunctions + f), encodeLeb(name.length), name);
  }
  const names = Buffer.concat([encodeLeb(places.length), ...entries]);
  const subsection = Buffer.concat([Buffer.from([1]), encodeLeb(names.length), names]);
  const content = Buffer.concat([encodeLeb(4), Buffer.from('name'), subsection]);
  const kept = module.sections
    .filter((s) => !(s.id === 0 && s.name === 'name'))
    .map((s) => bytes.subarray(s.headerStart, s.end));
  return Buffer.concat([bytes.subarray(0, 8), ...kept, Buffer.from([0]), encodeLeb(content.length), content]);
}

function main() {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) fail('usage: node scripts/wasm-order.mjs IN.wasm OUT.wasm');
  let bytes;
  try {
    bytes = fs.readFileSync(input);
  } catch (e) {
    fail(`cannot read ${input}: ${e.message}`);
  }
  let module;
  try {
    module = readModule(bytes);
  } catch (e) {
    fail(`${input}: ${e.message}`);
  }
  let sequence;
  if (module.bodies.length > MAX_FUNCTIONS) {
    console.error(`wasm-order: ${input}: ${module.bodies.length} functions, more than ${MAX_FUNCTIONS}: left in the linker's order`);
    sequence = module.bodies.map((_, f) => f);
  } else {
    sequence = order(module.bodies);
  }
  const places = new Array(sequence.length);
  sequence.forEach((f, place) => { places[f] = place; });
  fs.writeFileSync(output, renamed(bytes, module, places));
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) main();
