// The wasm tier's encoder and description compiler (src/amd/engine/wasm/): modules it writes are
// valid WebAssembly (WebAssembly.validate) and compute what JavaScript computes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bytes, FuncBuilder, encodeModule, uleb, sleb, OP, I32, F64 } from '../../src/amd/engine/wasm/encoder.js';
import { parseStatements, SubsetError } from '../../src/amd/engine/wasm/jsub.js';
import { Lowerer } from '../../src/amd/engine/wasm/lower.js';
import { INT_OPS } from '../../src/amd/exec/valu-int.js';
import { F32_OPS } from '../../src/amd/exec/valu-f32.js';
import { mulberry32 } from '../../src/runtime/manifest.js';
import { Wasm as WebAssembly } from '../../src/amd/engine/wasm/api.js';

test('LEB128: known encodings', () => {
  const u = (x: number) => { const o = new Bytes(); uleb(o, x); return [...o.bytes()]; };
  const s = (x: number) => { const o = new Bytes(); sleb(o, x); return [...o.bytes()]; };
  assert.deepEqual(u(0), [0]);
  assert.deepEqual(u(127), [0x7f]);
  assert.deepEqual(u(128), [0x80, 0x01]);
  assert.deepEqual(u(624485), [0xe5, 0x8e, 0x26]);
  assert.deepEqual(s(-1), [0x7f]);
  assert.deepEqual(s(63), [0x3f]);
  assert.deepEqual(s(64), [0xc0, 0x00]);
  assert.deepEqual(s(-64), [0x40]);
  assert.deepEqual(s(-123456), [0xc0, 0xbb, 0x78]);
  assert.deepEqual(u(2 ** 35 + 5), [0x85, 0x80, 0x80, 0x80, 0x80, 0x01]);
  assert.deepEqual(s(-65), [0xbf, 0x7f]);
  // A buffer grows past its first allocation, keeping what it held.
  const big = new Bytes();
  for (let i = 0; i < 5000; i++) uleb(big, i % 128);
  big.append(Uint8Array.of(1, 2, 3));
  assert.equal(big.n, 5003);
  assert.deepEqual([...big.bytes().subarray(4998)], [4998 % 128, 4999 % 128, 1, 2, 3]);
});

test('encoder: an add function validates and runs; a broken body does not validate', () => {
  const fb = new FuncBuilder(2);
  fb.get(0).get(1).op(OP.i32_add);
  const bytes = encodeModule({ funcs: [{ type: { params: [I32, I32], results: [I32] }, body: fb, export: 'add' }] });
  assert.ok(WebAssembly.validate(bytes));
  const add = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports['add'] as (a: number, b: number) => number;
  assert.equal(add(2, 40), 42);
  const bad = new FuncBuilder(0);
  bad.op(OP.i32_add);
  assert.equal(WebAssembly.validate(encodeModule({ funcs: [{ type: { params: [], results: [I32] }, body: bad }] })), false);
  // An imported memory.
  const m = new FuncBuilder(1);
  m.get(0).mem(OP.i32_load, 2, 8);
  const mb = encodeModule({ memory: { module: 'm', name: 'mem', minPages: 1 }, funcs: [{ type: { params: [I32], results: [I32] }, body: m, export: 'ld' }] });
  assert.ok(WebAssembly.validate(mb));
  const mem = new WebAssembly.Memory({ initial: 1 });
  new Uint32Array(mem.buffer)[3] = 0xdeadbeef;
  const ld = new WebAssembly.Instance(new WebAssembly.Module(mb), { m: { mem } }).exports['ld'] as (o: number) => number;
  assert.equal(ld(4) >>> 0, 0xdeadbeef);
});

test('encoder: a closed scope gives its locals back by type; a rewind forgets new ones and gives back reused ones', () => {
  const fb = new FuncBuilder(2);
  const keep = fb.local(I32);
  assert.equal(keep, 2);
  const sc = fb.scope();
  const a = fb.local(I32), b = fb.local(F64), c = fb.local(I32);
  assert.deepEqual([a, b, c], [3, 4, 5]);
  fb.close(sc);
  // The next code's locals are those, by type (an f64 is not an i32's), then new ones.
  const sc2 = fb.scope();
  const x = fb.local(I32), w = fb.local(F64);
  assert.ok(x === a || x === c);
  assert.equal(w, b);
  // A lowering that threw half way: `n` (new) is dropped, `v` (reused) is free again.
  const m = fb.mark();
  const v = fb.local(I32);
  assert.equal(v, x === a ? c : a);
  const n = fb.local(I32);
  assert.equal(n, 6);
  fb.rewind(m);
  assert.equal(fb.local(I32), v, 'the reused local is free again');
  assert.equal(fb.local(I32), 6, 'the new one was forgotten: declared anew');
  fb.close(sc2);
  // Declared: keep, a, b, c and the new one (five locals after the two params).
  fb.get(0);
  const bytes = encodeModule({ funcs: [{ type: { params: [I32, I32], results: [I32] }, body: fb, export: 'f' }] });
  assert.ok(WebAssembly.validate(bytes));
});

/** Compile `text` (assigning r) over sources a, b, c (uint32) to a function returning ToInt32(r). */
function compileInt(text: string): (a: number, b: number, c: number, ci: number) => number {
  const fb = new FuncBuilder(4);
  const r = fb.local(F64);
  const c = fb.local(F64);
  const names = new Map([['a', { local: 0, kind: 'u' as const }], ['b', { local: 1, kind: 'u' as const }], ['cc', { local: 2, kind: 'u' as const }],
    ['ci', { local: 3, kind: 'u' as const }], ['r', { local: r, kind: 'f' as const }], ['c', { local: c, kind: 'f' as const }]]);
  new Lowerer(fb, names).stmts(parseStatements(text));
  fb.get(r).sat(6).op(OP.i32_wrap_i64);
  const bytes = encodeModule({ funcs: [{ type: { params: [I32, I32, I32, I32], results: [I32] }, body: fb, export: 'f' }] });
  assert.ok(WebAssembly.validate(bytes), text);
  return new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports['f'] as (a: number, b: number, c: number, ci: number) => number;
}

test('description compiler: every 32-bit integer VALU description computes what its JavaScript computes', () => {
  const rng = mulberry32(11);
  const vals = [0, 1, 31, 32, 0x7fffffff, 0x80000000, 0xffffffff, 0xffffff, 0x800000];
  const pickV = () => (rng() < 0.4 ? vals[Math.floor(rng() * vals.length)]! : Math.floor(rng() * 0x1_0000_0000));
  const h = { mulhiU32: 'mulhiU32', popcnt: 'popcnt' };
  let n = 0;
  for (const [name, op] of INT_OPS) {
    if (op.kind !== 'i32' || op.srcs.some((s) => s !== 'b32')) continue;
    const names = ['a', 'b', 'cc'];
    const text = op.body(op.srcs.map((_, k) => ({ u: names[k]!, h: 'x' })), h);
    const wasm = compileInt(text);
    const js = new Function('a', 'b', 'cc', 'ci', 'mulhiU32', 'popcnt', `let r = 0, c = false; ${text} return r | 0;`) as (...x: unknown[]) => number;
    const mulhi = (x: number, y: number) => Number((BigInt(x >>> 0) * BigInt(y >>> 0)) >> 32n);
    const pop = (x: number) => { let k = 0; for (let v = x >>> 0; v !== 0; v &= v - 1) k++; return k; };
    for (let i = 0; i < 300; i++) {
      const a = pickV(), b = pickV(), cc = pickV(), ci = i & 1;
      assert.equal(wasm(a, b, cc, ci), js(a, b, cc, ci, mulhi, pop), `${name}(${a}, ${b}, ${cc}, ci ${ci})`);
    }
    n++;
  }
  assert.ok(n >= 30, `${n} descriptions compiled`);
});

test('description compiler: every f32 description parses; text outside the subset is refused', () => {
  for (const [name, op] of F32_OPS) {
    const s = Array.from({ length: 3 }, (_, k) => ({ u: `S${k}u`, f: `S${k}f` }));
    assert.doesNotThrow(() => parseStatements(op.body(s)), name);
  }
  assert.throws(() => parseStatements('for (;;) {}'), SubsetError);
  assert.throws(() => parseStatements('r = a[1];'), SubsetError);
});
