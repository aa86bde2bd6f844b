// The fast tier's f32 rounding (exec/valu-f32.ts nearestF32Store: Math.fround unless the double x is
// an f32 midpoint) against the reference rounding (core/float.ts roundF32), on the cases where a
// double rounding could go wrong: ties hidden by the double (both remainder signs, odd and even
// neighbours), ties in the f32 denormal range, overflow around the largest finite value,
// infinities, signed zeros; then both engines on v_fma/v_fmac/v_add/v_mul lanes built from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nearestF32Store, F32_OPS } from '../../src/amd/exec/valu-f32.js';
import { f32, f32bits, roundF32 } from '../../src/core/float.js';
import { mulberry32 } from '../../src/runtime/manifest.js';
import { runAsm } from './exec-harness.js';
import { snap, diffSnap } from './engine-state.js';

/** The fast store as a function (x, e) -> bits, and the rare path's call count. */
const calls = { n: 0 };
const OU = new Uint32Array(1);
const OF = new Float32Array(OU.buffer);
const store = new Function('OU', 'OF', 'round', `return (x, e) => { ${nearestF32Store('x', 'e', 'OF[0]', 'OU[0]', 'round')} return OU[0]; };`)(
  OU, OF, (x: number, e: number, m: number) => (calls.n++, roundF32(x, e, m)),
) as (x: number, e: number) => number;

/** The engines' exact double and remainder of a*b + c (the fma description's statements). */
const fmaXe = new Function(`return (a, b, c) => { let x = 0, e = 0; ${F32_OPS.get('v_fma_f32')!.body([{ u: '0', f: 'a' }, { u: '0', f: 'b' }, { u: '0', f: 'c' }])} return [x, e]; };`)() as (a: number, b: number, c: number) => [number, number];

/** (a, b, c) f32 triples whose a*b + c rounds to a double on an f32 midpoint with a nonzero remainder. */
function tieTriples(): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (const k of [0, 20, -20, 100, -100, 126, -126]) {
    for (const odd of [0, 1]) {
      for (const sa of [1, -1]) {
        for (const sc of [1, -1]) {
          // c = (1 + odd ulp) 2^k; a*b = half an ulp of c minus (or plus) 2^-30 of it.
          const c = sc * (1 + odd * 2 ** -23) * 2 ** k;
          const a = sa * 2 ** (k - 24) * (1 + 2 ** -15);
          out.push([a, 1 - 2 ** -15, c], [a, 1 + 2 ** -15, c]);
        }
      }
    }
  }
  // Denormal results: c a multiple of 2^-149 below 2^-126, a*b = 2^-150 (1 -/+ 2^-46).
  for (const j of [0, 1, 2, 3, 1 << 22, (1 << 23) - 1]) {
    for (const s of [1, -1]) {
      const c = s * (2 ** -127 + j * 2 ** -149);
      for (const b of [1 - 2 ** -23, 1 + 2 ** -23]) out.push([2 ** -75 * (1 + 2 ** -23), 2 ** -75 * b, c], [-(2 ** -75) * (1 + 2 ** -23), 2 ** -75 * b, c]);
    }
  }
  return out.map(([a, b, c]) => [Math.fround(a), Math.fround(b), Math.fround(c)]);
}

const MAX = f32(0x7f7fffff);
/** Sums around the overflow threshold 2^128 - 2^103 (the midpoint between MAX and 2^128). */
const overflowPairs: [number, number][] = [
  [MAX, 2 ** 103], [MAX, 2 ** 103 - 2 ** 80], [MAX, 2 ** 103 + 2 ** 80], [MAX, 2 ** 102], [MAX, MAX], [-MAX, -(2 ** 103)], [-MAX, -(2 ** 102)],
  [MAX, 2 ** 104], [MAX, -MAX], [MAX, f32(0x73000000)],
];

test('fast f32 rounding: every constructed tie, denormal, overflow and special case gives roundF32 bits', () => {
  const cases: [number, number][] = [];
  for (const [a, b, c] of tieTriples()) {
    const [x, e] = fmaXe(a, b, c);
    cases.push([x, e]);
  }
  const ties = cases.filter(([x, e]) => e !== 0 && Math.fround(x) !== x && f32bits(Math.fround(x)) !== roundF32(x, e, 0)).length;
  assert.ok(ties >= 20, `${ties} cases where Math.fround alone is wrong`);
  for (const [p, q] of overflowPairs) {
    const [x, e] = fmaXe(p, 1, q);
    cases.push([x, e]);
  }
  for (const x of [Infinity, -Infinity, 0, -0, 2 ** -150, -(2 ** -150), 2 ** -151, 3 * 2 ** -151, 1, 1 + 2 ** -24, MAX]) cases.push([x, 0]);
  for (const [x, e] of cases) assert.equal(store(x, e), roundF32(x, e, 0), `x ${x} e ${e}`);
});

test('fast f32 rounding: random sums and products of f32 values agree, and take the rare path only on inexact midpoints', () => {
  const r = mulberry32(24);
  const f = () => {
    const k = r();
    const m = (r() * 2 - 1) * 2 ** Math.floor(r() * 60 - 30);
    return Math.fround(k < 0.1 ? m * 2 ** -110 : k < 0.15 ? m * 2 ** 100 : m);
  };
  calls.n = 0;
  let midpoints = 0;
  for (let i = 0; i < 200_000; i++) {
    const [x, e] = fmaXe(f(), f(), f());
    const fx = Math.fround(x);
    const d = x - fx;
    if (e !== 0 && d !== 0 && Math.fround(x + d) === x + d) midpoints++;
    assert.equal(store(x, e), roundF32(x, e, 0), `x ${x} e ${e}`);
  }
  assert.equal(calls.n, midpoints);
});

test('fast f32 rounding: both engines equal on fma/fmac/add/mul lanes at ties, denormals and overflow', () => {
  const lanes: [number, number, number][] = [...tieTriples(), ...overflowPairs.map(([p, q]) => [p, 1, q] as [number, number, number])];
  const src = ['v_fma_f32 v3, v0, v1, v2', 'v_mul_f32_e32 v4, v0, v1', 'v_add_f32_e32 v5, v4, v2', 'v_sub_f32_e32 v6, v2, v4', 'v_fmac_f32_e32 v2, v0, v1', 's_endpgm'].join('\n');
  let checked = 0;
  for (let k = 0; k < lanes.length; k += 32) {
    const chunk = lanes.slice(k, k + 32);
    while (chunk.length < 32) chunk.push([1, 1, 1]);
    const o = { vgprs: 8, vgprF32: { 0: chunk.map((t) => t[0]), 1: chunk.map((t) => t[1]), 2: chunk.map((t) => t[2]) } };
    const a = runAsm(src, { ...o, engine: 'interp' });
    const b = runAsm(src, { ...o, engine: 'fast' });
    assert.equal(diffSnap(snap(a.wave), snap(b.wave)), null, `lanes from ${k}`);
    for (let l = 0; l < chunk.length; l++) {
      const [x, e] = fmaXe(...chunk[l]!);
      assert.equal(b.wave.v[3 * 32 + l], roundF32(x, e, 0), `v_fma lane ${k + l}`);
      checked++;
    }
  }
  assert.equal(checked, Math.ceil(lanes.length / 32) * 32);
});

test('fast f32 ops store straight to the destination: a NaN lane mid-wave leaves the reference result', () => {
  // Each op writes lanes before the NaN lane first; the reference redo must see the old sources
  // (the destination is a source for fmac, the aliased add and max) and give every lane its bits.
  const src = ['v_fmac_f32_e32 v2, v0, v1', 'v_add_f32_e32 v3, v3, v1', 'v_max_f32_e32 v4, v4, v0', 'v_mul_f32_e32 v5, v0, v1', 'v_fma_f32 v6, v0, v1, v6', 's_endpgm'].join('\n');
  const qnan = 0x7fc01234, snan = 0x7f800011;
  for (const waveSize of [32, 64] as const) {
    for (const nanLane of [0, 17, 45]) {
      if (nanLane >= waveSize) continue;
      for (const exec of [0xffffffff, 0xfffdffff, 0x5555aaaa]) {
        const n = waveSize;
        const bits = (k: number) => Array.from({ length: n }, (_, l) => f32bits(Math.fround(1 + l / 7 + k / 3)));
        const a = bits(0);
        a[nanLane] = nanLane % 2 === 0 ? qnan : snan;
        const o = { vgprs: 8, waveSize, exec, execHi: exec, vgpr: { 0: a, 1: bits(1), 2: bits(2), 3: bits(3), 4: bits(4), 6: bits(6) } };
        const i = runAsm(src, { ...o, engine: 'interp' });
        const f = runAsm(src, { ...o, engine: 'fast' });
        assert.equal(diffSnap(snap(i.wave), snap(f.wave)), null, `wave${waveSize} NaN lane ${nanLane} exec ${exec.toString(16)}`);
      }
    }
  }
});
