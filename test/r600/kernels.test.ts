/**
 * Every OpenCL kernel in kernels/r600/src, compiled by clang-19 for cypress (and the cayman subset),
 * runs on the r600 model and matches a CPU reference written here in TypeScript: integers exactly,
 * floats within the stated ULP bound. Inputs are seeded; each run must be diagnostic-free, and the
 * random wave order must give the same bytes as round-robin.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { mulberry32, type ArgSpec, type ElemType } from '../../src/runtime/manifest.js';
import { runR600Kernel, type R600Buffer } from '../../src/runtime/r600.js';
import { loadR600Object } from '../../src/r600/isa/object.js';
import { R600_FIXTURE_CHIPS } from './disasm.test.js';
import { R600_CHIPS } from '../../src/r600/isa/opcodes.gen.js';

/** The kernels build.sh compiles for redwood, juniper, cedar and sumo. */
const R600_SUBSET = ['vadd', 'loop_break', 'nested_loop', 'divergent_loop', 'lds_reduce', 'collatz', 'switch_case', 'helper_call'];

type Arr = Int32Array | Uint32Array | Float32Array;
interface Spec {
  readonly kernel?: string;
  readonly grid: [number, number, number];
  readonly block: [number, number, number];
  readonly buffers: Record<string, Arr>;
  readonly args: ArgSpec[];
  /** Expected outputs, by buffer name. */
  readonly expect: (b: Record<string, Arr>) => Record<string, Arr>;
  readonly ulp?: number;
}

const f = Math.fround;
const rnd = (seed: number) => mulberry32(seed);
function ints(n: number, seed: number, lo: number, hi: number): Int32Array {
  const r = rnd(seed);
  return Int32Array.from({ length: n }, () => lo + Math.floor(r() * (hi - lo + 1)));
}
function uints(n: number, seed: number): Uint32Array {
  const r = rnd(seed);
  return Uint32Array.from({ length: n }, () => Math.floor(r() * 4294967296) >>> 0);
}
function floats(n: number, seed: number, lo: number, hi: number, step = 0.25): Float32Array {
  const r = rnd(seed);
  return Float32Array.from({ length: n }, () => lo + Math.floor(r() * ((hi - lo) / step)) * step);
}
const buf = (name: string): ArgSpec => ({ kind: 'buffer', name });
const i32 = (v: number): ArgSpec => ({ kind: 'scalar', type: 'i32', value: v });
const f32a = (v: number): ArgSpec => ({ kind: 'scalar', type: 'f32', value: v });
const typeOf = (a: Arr): ElemType => (a instanceof Float32Array ? 'f32' : a instanceof Uint32Array ? 'u32' : 'i32');

const N = 256;
const SPECS: Record<string, () => Spec> = {
  vadd: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { c: new Float32Array(N), a: floats(N, 1, -8, 8), b: floats(N, 2, -8, 8) },
    args: [buf('c'), buf('a'), buf('b'), i32(200)],
    expect: ({ a, b }) => ({ c: Float32Array.from({ length: N }, (_, i) => (i < 200 ? f(a![i]! + b![i]!) : 0)) }),
  }),
  saxpy: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { y: floats(N, 3, -4, 4), x: floats(N, 4, -4, 4) },
    args: [buf('y'), buf('x'), f32a(1.5)],
    expect: ({ y, x }) => ({ y: Float32Array.from({ length: N }, (_, i) => f(f(1.5 * x![i]!) + y![i]!)) }),
  }),
  iadd: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { c: new Int32Array(N), a: ints(N, 5, -1e9, 1e9), b: ints(N, 6, -1e9, 1e9) },
    args: [buf('c'), buf('a'), buf('b')],
    expect: ({ a, b }) => ({ c: Int32Array.from({ length: N }, (_, i) => (a![i]! + b![i]!) | 0) }),
  }),
  int_ops: () => ({
    grid: [128, 1, 1], block: [64, 1, 1],
    buffers: { out: new Uint32Array(128 * 8), a: uints(128, 7), b: uints(128, 8) },
    args: [buf('out'), buf('a'), buf('b')],
    expect: ({ a, b }) => {
      const o = new Uint32Array(128 * 8);
      for (let i = 0; i < 128; i++) {
        const x = a![i]! >>> 0, y = (b![i]! | 1) >>> 0;
        o.set([Math.imul(x, y), x ^ (y << 3), (x >>> 5) & y, (x | 0) >> 7, x > y ? x : y, Math.min(x, y), x - y, ~x | (y & 0xff00)], 8 * i);
      }
      return { out: o };
    },
  }),
  branch: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(N), in: ints(N, 9, -1000, 1000) },
    args: [buf('out'), buf('in')],
    expect: (b) => ({ out: b.in!.map((v) => (v > 0 ? v * 3 : -v + 7)) as Int32Array }),
  }),
  nested_if: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(N), in: ints(N, 10, 0, 100000) },
    args: [buf('out'), buf('in')],
    expect: (b) => ({
      out: b.in!.map((v) => (v & 1 ? (v & 2 ? (v & 4 ? 7 : 6) : 5) : v & 8 ? 3 : v >> 4)) as Int32Array,
    }),
  }),
  loop_sum: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(N), in: ints(16, 11, -50, 50) },
    args: [buf('out'), buf('in'), i32(13)],
    expect: (b) => ({ out: Int32Array.from({ length: N }, (_, i) => { let s = 0; for (let k = 0; k < 13; k++) s += b.in![k]! * (i + k); return s; }) }),
  }),
  divergent_loop: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(N) },
    args: [buf('out')],
    expect: () => ({ out: Int32Array.from({ length: N }, (_, i) => { let s = 0; for (let k = 0; k < (i & 15); k++) s += k * k; return s; }) }),
  }),
  loop_break: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(N), in: ints(40, 12, -3, 20) },
    args: [buf('out'), buf('in'), i32(40)],
    expect: (b) => ({
      out: Int32Array.from({ length: N }, (_, i) => { let s = 0; for (let k = 0; k < 40; k++) { const v = b.in![(i + k) % 40]!; if (v < 0) break; s += v; } return s; }),
    }),
  }),
  loop_continue: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(N), in: ints(30, 13, 0, 1000) },
    args: [buf('out'), buf('in'), i32(30)],
    expect: (b) => ({
      out: Int32Array.from({ length: N }, (_, i) => { let s = 0; for (let k = 0; k < 30; k++) { const v = b.in![k]! ^ i; if (v & 1) continue; s += v; } return s; }),
    }),
  }),
  collatz: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Uint32Array(N) },
    args: [buf('out')],
    expect: () => ({
      out: Uint32Array.from({ length: N }, (_, g) => { let n = g + 1, st = 0; while (n !== 1 && st < 1000) { n = n & 1 ? 3 * n + 1 : n >>> 1; st++; } return st; }),
    }),
  }),
  early_return: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(N), in: ints(N, 14, -50, 200) },
    args: [buf('out'), buf('in')],
    expect: (b) => ({ out: b.in!.map((v) => (v < 0 ? -1 : v > 100 ? 100 : v * 2)) as Int32Array }),
  }),
  nested_loop: () => ({
    grid: [128, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(128) },
    args: [buf('out'), i32(9)],
    expect: () => ({
      out: Int32Array.from({ length: 128 }, (_, i) => { let s = 0; for (let a = 0; a < 9; a++) for (let b = 0; b <= (i & 7); b++) { if (((a + b) & 3) === 3) break; s += a * b + 1; } return s; }),
    }),
  }),
  float_ops: () => ({
    grid: [128, 1, 1], block: [64, 1, 1],
    buffers: { out: new Float32Array(128 * 6), a: floats(128, 15, -16, 16), b: floats(128, 16, -16, 16) },
    args: [buf('out'), buf('a'), buf('b')],
    expect: ({ a, b }) => {
      const o = new Float32Array(128 * 6);
      for (let i = 0; i < 128; i++) {
        const x = a![i]!, y = b![i]!;
        o.set([f(x * y), f(x - y), Math.max(x, y), Math.min(x, y), f(Math.abs(x) + Math.floor(y)), f(f(x * y) + 1.5)], 6 * i);
      }
      return { out: o };
    },
  }),
  convert: () => ({
    grid: [128, 1, 1], block: [64, 1, 1],
    buffers: { fo: new Float32Array(256), io: new Int32Array(128), a: ints(128, 17, -100000, 100000), b: floats(128, 18, -1000, 1000, 0.125) },
    args: [buf('fo'), buf('io'), buf('a'), buf('b')],
    expect: ({ a, b }) => ({
      fo: Float32Array.from({ length: 256 }, (_, k) => (k & 1 ? f(a![k >> 1]! >>> 0) : f(a![k >> 1]!))),
      io: Int32Array.from(b!, (v) => Math.trunc(v)),
    }),
  }),
  select: () => ({
    kernel: 'select_k',
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Float32Array(N), a: floats(N, 19, -4, 4, 0.5), b: floats(N, 20, -4, 4, 0.5) },
    args: [buf('out'), buf('a'), buf('b')],
    expect: ({ a, b }) => ({ out: Float32Array.from({ length: N }, (_, i) => { const x = a![i]!, y = b![i]!; return x > y ? f(x - y) : x === y ? 0 : f(y * 2); }) }),
  }),
  lds_reverse: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(N), in: ints(N, 21, -1e6, 1e6) },
    args: [buf('out'), buf('in')],
    expect: (b) => ({ out: Int32Array.from({ length: N }, (_, g) => b.in![(g & ~63) + 63 - (g & 63)]!) }),
  }),
  lds_reduce: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(N / 64), in: ints(N, 22, -1000, 1000) },
    args: [buf('out'), buf('in')],
    expect: (b) => ({ out: Int32Array.from({ length: N / 64 }, (_, g) => (b.in as Int32Array).slice(g * 64, g * 64 + 64).reduce((s, v) => s + v, 0)) }),
  }),
  vec4: () => ({
    kernel: 'vec4k',
    grid: [64, 1, 1], block: [64, 1, 1],
    buffers: { out: new Float32Array(256), a: floats(256, 23, -8, 8), b: floats(256, 24, -8, 8) },
    args: [buf('out'), buf('a'), buf('b')],
    expect: ({ a, b }) => ({ out: Float32Array.from({ length: 256 }, (_, k) => f(f(a![k]! * b![k]!) + [1, 2, 3, 4][k & 3]!)) }),
  }),
  constant_table: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(N), in: ints(N, 25, 0, 1000) },
    args: [buf('out'), buf('in')],
    expect: (b) => { const t = [3, 1, 4, 1, 5, 9, 2, 6]; return { out: Int32Array.from({ length: N }, (_, i) => t[b.in![i]! & 7]! * 10 + t[i & 7]!) }; },
  }),
  grid2d: () => ({
    grid: [32, 8, 1], block: [16, 4, 1],
    buffers: { out: new Int32Array(256) },
    args: [buf('out')],
    expect: () => ({
      out: Int32Array.from({ length: 256 }, (_, k) => { const x = k % 32, y = Math.floor(k / 32); return Math.floor(x / 16) * 1000 + Math.floor(y / 4) * 100 + (x % 16) * 10 + (y % 4); }),
    }),
  }),
  switch_case: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(N), in: ints(N, 26, -1000, 1000) },
    args: [buf('out'), buf('in')],
    expect: (b) => ({ out: b.in!.map((v) => [v + 1, v * 5, v - 9, v ^ 0x55, 42, v << 2, 42, 42][v & 7]!) as Int32Array }),
  }),
  private_array: () => ({
    grid: [128, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(128), in: ints(512, 27, -100, 100) },
    args: [buf('out'), buf('in')],
    expect: (b) => ({
      out: Int32Array.from({ length: 128 }, (_, i) => { const p = [0, 1, 2, 3].map((k) => b.in![4 * i + k]! * (k + 1)); return p[b.in![i]! & 3]! + p[(i + 1) & 3]!; }),
    }),
  }),
  helper_call: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(N), in: ints(N, 28, -1000, 1000) },
    args: [buf('out'), buf('in')],
    expect: (b) => { const poly = (x: number): number => (Math.imul(Math.imul(x, x), 3) + x * 2 - 7) | 0; return { out: Int32Array.from({ length: N }, (_, i) => (poly(b.in![i]!) + poly(i)) | 0) }; },
  }),
  matmul: () => ({
    grid: [16, 16, 1], block: [16, 4, 1],
    buffers: { c: new Float32Array(256), a: floats(256, 29, -2, 2, 0.5), b: floats(256, 30, -2, 2, 0.5) },
    args: [buf('c'), buf('a'), buf('b'), i32(16)],
    expect: ({ a, b }) => ({
      c: Float32Array.from({ length: 256 }, (_, k) => { const r = k >> 4, c = k & 15; let s = 0; for (let q = 0; q < 16; q++) s = f(s + f(a![r * 16 + q]! * b![q * 16 + c]!)); return s; }),
    }),
  }),
  bitcount: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Uint32Array(N), in: uints(N, 31) },
    args: [buf('out'), buf('in')],
    expect: (b) => ({ out: Uint32Array.from(b.in!, (v) => { let c = 0; for (let x = v >>> 0; x; x >>>= 1) c += x & 1; return c; }) }),
  }),
  transcend: () => ({
    grid: [64, 1, 1], block: [64, 1, 1],
    buffers: { out: new Float32Array(256), a: floats(64, 32, 0.25, 64, 0.25) },
    args: [buf('out'), buf('a')],
    ulp: 4,
    expect: ({ a }) => ({
      out: Float32Array.from({ length: 256 }, (_, k) => { const x = a![k >> 2]!; return [Math.sqrt(x), 1 / x, 2 ** f(x * 0.25), Math.log2(x)][k & 3]!; }),
    }),
  }),
  atomic_add: () => ({
    kernel: 'atomic_add_k',
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { counter: new Int32Array(4), in: ints(N, 33, -100, 100) },
    args: [buf('counter'), buf('in')],
    expect: (b) => ({ counter: Int32Array.from([(b.in as Int32Array).reduce((s, v) => s + v, 0), 0, 0, 0]) }),
  }),
  atomic_cmpxchg: () => ({
    kernel: 'atomic_cmpxchg_k',
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { slots: ints(N, 35, 0, 3), expect: ints(N, 36, 0, 3) },
    args: [buf('slots'), buf('expect')],
    expect: (b) => ({ slots: Int32Array.from(b.slots as Int32Array, (v, i) => (v === b.expect![i] ? i + 1000 : v)) }),
  }),
  lds_atomic: () => ({
    grid: [N, 1, 1], block: [64, 1, 1],
    buffers: { out: new Int32Array(16), in: ints(N, 34, 0, 1000) },
    args: [buf('out'), buf('in')],
    expect: (b) => {
      const o = new Int32Array(16);
      b.in!.forEach((v, g) => o[(g >> 6) * 4 + (v & 3)]!++);
      return { out: o };
    },
  }),
};

function runSpec(mcpu: string, name: string, order: 'roundrobin' | 'random' = 'roundrobin', seed = 1) {
  const spec = SPECS[name]!();
  const obj = loadR600Object(readFileSync(join(ROOT, 'kernels/r600/bin', mcpu, `${name}.o`)), name);
  const buffers: R600Buffer[] = Object.entries(spec.buffers).map(([n, a]) => ({ name: n, type: typeOf(a), data: new Uint8Array(a.buffer.slice(0)) }));
  const run = runR600Kernel({ object: obj, kernel: spec.kernel, grid: spec.grid, block: spec.block, buffers, args: spec.args }, { order, seed });
  return { spec, run };
}

function ulpDiff(a: number, b: number): number {
  if (Number.isNaN(a) && Number.isNaN(b)) return 0;
  const ia = new Int32Array(new Float32Array([a]).buffer)[0]!;
  const ib = new Int32Array(new Float32Array([b]).buffer)[0]!;
  const oa = ia < 0 ? 0x80000000 - ia : ia;
  const ob = ib < 0 ? 0x80000000 - ib : ib;
  return Math.abs(oa - ob);
}

test('at least 25 cypress kernels have a CPU reference', () => {
  assert.ok(Object.keys(SPECS).length >= 25);
  for (const k of Object.keys(SPECS)) assert.ok(existsSync(join(ROOT, 'kernels/r600/bin/cypress', `${k}.o`)), k);
});

for (const mcpu of R600_FIXTURE_CHIPS) {
  for (const name of Object.keys(SPECS)) {
    if (!existsSync(join(ROOT, 'kernels/r600/bin', mcpu, `${name}.o`))) continue;
    test(`${mcpu}/${name} matches the CPU reference`, () => {
      const { spec, run } = runSpec(mcpu, name);
      assert.deepEqual(run.diagnostics.map((d) => `${d.id}: ${d.message}`), []);
      const inputs: Record<string, Arr> = {};
      for (const [n, a] of Object.entries(spec.buffers)) inputs[n] = a;
      const want = spec.expect(inputs);
      for (const [n, w] of Object.entries(want)) {
        const ctor = w.constructor as new (b: ArrayBuffer) => Arr;
        const got = new ctor(run.buffers[n]!.slice().buffer);
        if (w instanceof Float32Array) {
          const bad: string[] = [];
          for (let i = 0; i < w.length; i++) if (ulpDiff(got[i]!, f(w[i]!)) > (spec.ulp ?? 0)) bad.push(`[${i}] got ${got[i]} want ${w[i]}`);
          assert.deepEqual(bad.slice(0, 8), [], `${n}: ${bad.length} mismatches`);
        } else {
          const bad: string[] = [];
          for (let i = 0; i < w.length; i++) if (got[i] !== w[i]) bad.push(`[${i}] got ${got[i]} want ${w[i]}`);
          assert.deepEqual(bad.slice(0, 8), [], `${n}: ${bad.length} mismatches`);
        }
      }
    });
  }
}

test('random wave order gives the same bytes as round-robin for every kernel', () => {
  for (const name of Object.keys(SPECS)) {
    const a = runSpec('cypress', name, 'roundrobin');
    const b = runSpec('cypress', name, 'random', 7);
    assert.deepEqual(b.run.buffers, a.run.buffers, name);
  }
});

test('cedar runs 32-wide waves: the same kernels need twice the waves of cypress and give the same bytes', () => {
  for (const name of ['vadd', 'lds_reduce', 'divergent_loop']) {
    const a = runSpec('cypress', name);
    const b = runSpec('cedar', name);
    assert.equal(b.run.result?.waveSize, 32, name);
    assert.equal(b.run.result?.waves, 2 * a.run.result!.waves, name);
    assert.deepEqual(b.run.buffers, a.run.buffers, name);
    assert.deepEqual(b.run.diagnostics, [], name);
  }
  assert.equal(R600_CHIPS.find((c) => c.mcpu === 'cedar')?.waveSize, 32);
  assert.equal(R600_CHIPS.find((c) => c.mcpu === 'rs880')?.waveSize, 16);
  for (const mcpu of ['cypress', 'juniper', 'redwood', 'sumo', 'cayman', 'rv770']) assert.equal(R600_CHIPS.find((c) => c.mcpu === mcpu)?.waveSize, 64, mcpu);
});

test('redwood/juniper/cedar/sumo: LLVM emits cypress\'s program bytes; the chips differ only in data (R600_CHIPS)', () => {
  for (const mcpu of ['redwood', 'juniper', 'cedar', 'sumo']) {
    const names = R600_SUBSET.filter((n) => existsSync(join(ROOT, 'kernels/r600/bin', mcpu, `${n}.o`)));
    assert.equal(names.length, R600_SUBSET.length, mcpu);
    for (const name of names) {
      const a = loadR600Object(readFileSync(join(ROOT, 'kernels/r600/bin', mcpu, `${name}.o`)), name);
      const b = loadR600Object(readFileSync(join(ROOT, 'kernels/r600/bin/cypress', `${name}.o`)), name);
      assert.equal(a.mcpu, mcpu);
      assert.deepEqual(a.text, b.text, `${mcpu}/${name}`);
      assert.deepEqual(a.config, b.config, `${mcpu}/${name} .AMDGPU.config (STACK_SIZE...)`);
    }
    assert.equal(R600_CHIPS.find((c) => c.mcpu === mcpu)?.fp64, false, mcpu);
  }
  assert.equal(R600_CHIPS.find((c) => c.mcpu === 'cypress')?.fp64, true);
  assert.equal(R600_CHIPS.find((c) => c.mcpu === 'cayman')?.fp64, true);
});
