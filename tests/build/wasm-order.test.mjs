// scripts/wasm-order.mjs (the function order that makes the start-up module gzip smaller):
// a module keeps what it does, its alike functions end up side by side once wasm-opt
// follows the names it writes, and what is not a wasm module is refused by name.
//   node --test tests/build/
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';
import { readModule } from '../../scripts/wasm-order.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const ORDER = path.join(ROOT, 'scripts', 'wasm-order.mjs');

// Two alike functions (sums of many terms) with an unlike one (a loop) between them, and a
// table entry and a call, whose indices must follow the functions as they move.
const alike = (name, k) => `(func $${name} (export "${name}") (param $x i32) (result i32)
    ${Array.from({ length: 24 }, (_, i) => `(local.set $x (i32.add (local.get $x) (i32.mul (local.get $x) (i32.const ${i + k}))))`).join('\n    ')}
    (local.get $x))`;
const WAT = `(module
  (table 1 funcref)
  (elem (i32.const 0) $b)
  (type $t (func (param i32) (result i32)))
  ${alike('a', 3)}
  (func $loop (export "loop") (param $n i32) (result i32) (local $s i32)
    (block $done (loop $again
      (br_if $done (i32.eqz (local.get $n)))
      (local.set $s (i32.xor (local.get $s) (i32.rotl (local.get $n) (i32.const 7))))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $again)))
    (local.get $s))
  (func $viaTable (export "via_table") (param $x i32) (result i32)
    (call_indirect (type $t) (local.get $x) (i32.const 0)))
  (func $callsLoop (export "calls_loop") (param $x i32) (result i32)
    (call $loop (local.get $x)))
  ${alike('b', 5)})`;

function tmp() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'wasm-order-'));
}

async function run(file) {
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(file));
  const e = instance.exports;
  return [7, 1000, -3].map((x) => [e.a(x), e.b(x), e.loop(Math.abs(x)), e.via_table(x), e.calls_loop(Math.abs(x))]);
}

test('the ordered module does what the module did, alike functions side by side', async () => {
  const dir = tmp();
  const wat = path.join(dir, 'm.wat');
  fs.writeFileSync(wat, WAT);
  const plain = path.join(dir, 'm.wasm');
  execFileSync(path.join(BIN, 'wasm-as'), [wat, '-o', plain]);
  const ordered = path.join(dir, 'ordered.wasm');
  execFileSync('node', [ORDER, plain, ordered]);
  const final = path.join(dir, 'final.wasm');
  execFileSync(path.join(BIN, 'wasm-opt'), ['--reorder-functions-by-name', ordered, '-o', final]);
  assert.deepEqual(await run(final), await run(plain));
  const before = readModule(fs.readFileSync(plain)).bodies.map((b) => Buffer.from(b));
  const after = readModule(fs.readFileSync(final)).bodies.map((b) => Buffer.from(b));
  assert.equal(after.length, before.length);
  // $a and $b are the two largest bodies: first and last in the module, adjacent after.
  const big = (bodies) => bodies.map((b, i) => [b.length, i]).sort((x, y) => y[0] - x[0]).slice(0, 2).map(([, i]) => i).sort();
  assert.deepEqual(big(before), [0, 4]);
  const [i, j] = big(after);
  assert.equal(j - i, 1, `the alike functions are at ${i} and ${j}`);
});

test('what is not a wasm module is refused, naming the file', () => {
  const dir = tmp();
  const bad = path.join(dir, 'not.wasm');
  fs.writeFileSync(bad, 'hello');
  const r = spawnSync('node', [ORDER, bad, path.join(dir, 'out.wasm')], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /wasm-order: .*not\.wasm: not a wasm module/);
  assert.equal(fs.existsSync(path.join(dir, 'out.wasm')), false);
});
