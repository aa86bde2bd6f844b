/**
 * VALU float semantics (f16/f32/f64) on a single wave, written in assembly: arithmetic under every
 * MODE rounding mode against an exact BigInt reference, denormal flushing, omod/clamp/abs/neg,
 * NaN rules, IEEE_MODE min/max, transcendental special cases from the ISA's examples, frexp/ldexp,
 * the LLVM division macros (div_scale/rcp/fma/div_fmas/div_fixup), conversions and packed ops.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm, type AsmRunOptions } from './exec-harness.js';
import { f16 as f16dec, f16bits, bf16bits } from '../../src/core/float.js';

// ---- bit helpers (test-local)
const f32b = (x: number) => { const a = new Float32Array([x]); return new Uint32Array(a.buffer)[0]!; };
const b2f = (b: number) => new Float32Array(new Uint32Array([b]).buffer)[0]!;
const f64w = (x: number) => { const u = new Uint32Array(new Float64Array([x]).buffer); return [u[0]!, u[1]!] as const; };
const w2d = (lo: number, hi: number) => new Float64Array(new Uint32Array([lo, hi]).buffer)[0]!;
/** Exact binary16 decode. */
const h2f = (b: number) => {
  const s = b & 0x8000 ? -1 : 1, e = (b >> 10) & 31, m = b & 1023;
  return e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
};

// ---- exact reference: value = N * 2^E, rounded to a format under a mode (independent algorithm)
interface Fmt { p: number; emin: number; emax: number }
const F32: Fmt = { p: 24, emin: -126, emax: 127 };
const F64: Fmt = { p: 53, emin: -1022, emax: 1023 };
const F16: Fmt = { p: 11, emin: -14, emax: 15 };
/** A double as N * 2^E. */
function exact(x: number): [bigint, number] {
  if (x === 0) return [0n, 0];
  const [lo, hi] = f64w(x);
  const e = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (e) m |= 1n << 52n;
  return [hi >>> 31 ? -m : m, (e || 1) - 1075];
}
function addX(a: [bigint, number], b: [bigint, number]): [bigint, number] {
  const e = Math.min(a[1], b[1]);
  return [(a[0] << BigInt(a[1] - e)) + (b[0] << BigInt(b[1] - e)), e];
}
const mulX = (a: [bigint, number], b: [bigint, number]): [bigint, number] => [a[0] * b[0], a[1] + b[1]];
/** Round N*2^E to `f` under FP_ROUND mode (0 RNE, 1 +inf, 2 -inf, 3 zero); zero results get `zsign`. */
function roundRef([N, E]: [bigint, number], f: Fmt, mode: number, zsign = false): number {
  if (N === 0n) return zsign ? -0 : 0;
  const neg = N < 0n;
  const M = neg ? -N : N;
  const L = M.toString(2).length;
  const e = L - 1 + E;
  const q = Math.max(e, f.emin) - (f.p - 1);
  let kept = M;
  let qq = E;
  if (q > E) {
    const sh = BigInt(q - E);
    kept = M >> sh;
    const rem = M - (kept << sh);
    const half = 1n << (sh - 1n);
    let up = false;
    if (mode === 0) up = rem > half || (rem === half && (kept & 1n) === 1n);
    else if (mode === 1) up = rem > 0n && !neg;
    else if (mode === 2) up = rem > 0n && neg;
    if (up) kept += 1n;
    qq = q;
  }
  let v = Number(kept) * 2 ** qq;
  const max = (2 - 2 ** (1 - f.p)) * 2 ** f.emax;
  if (v > max) {
    const toInf = mode === 0 || (mode === 1 && !neg) || (mode === 2 && neg);
    v = toInf ? Infinity : max;
  }
  return neg ? -v : v;
}
/** Seeded PRNG (xorshift32). */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>>= 0);
  };
}
const LANES = 32;
function run(src: string, o: AsmRunOptions = {}) {
  return runAsm(`${src}\ns_endpgm`, o);
}
/** MODE with FP_ROUND = r for both f32 and f16/f64, all denormals kept. */
const modeRound = (r: number) => (r | (r << 2) | 0xf0) >>> 0;

/** Random finite f32 values with a spread of exponents (incl. denormals). */
function randF32(next: () => number): number {
  const sign = next() & 1 ? 0x80000000 : 0;
  const r = next() % 8;
  const exp = r === 0 ? 0 : r < 3 ? 1 + (next() % 254) : 120 + (next() % 16);
  return b2f((sign | (exp << 23) | (next() & 0x7fffff)) >>> 0);
}
function randF64(next: () => number): number {
  const sign = next() & 1 ? 0x80000000 : 0;
  const r = next() % 8;
  const exp = r === 0 ? 0 : r < 3 ? 1 + (next() % 2046) : 1015 + (next() % 16);
  return w2d(next(), (sign | (exp << 20) | (next() & 0xfffff)) >>> 0);
}
function randF16(next: () => number): number {
  const r = next() % 8;
  const exp = r === 0 ? 0 : r < 3 ? 1 + (next() % 30) : 12 + (next() % 6);
  return ((next() & 1 ? 0x8000 : 0) | (exp << 10) | (next() & 0x3ff)) & 0xffff;
}

test('core binary16 conversions: every value round-trips, ties go to even, anything past a tie goes up', () => {
  for (let i = 0; i < 65536; i++) {
    const x = f16dec(i);
    if (Number.isNaN(x)) continue;
    assert.equal(x, h2f(i));
    assert.equal(f16bits(x), i);
  }
  for (let i = 0; i < 0x7bff; i++) {
    const a = h2f(i), b = h2f(i + 1);
    const mid = (a + b) / 2;
    assert.equal(f16bits(mid), i & 1 ? i + 1 : i);
    assert.equal(f16bits(mid + (b - a) * 2 ** -30), i + 1); // not exact in binary32: the slow path
    assert.equal(f16bits(mid - (b - a) * 2 ** -30), i);
  }
  assert.equal(f16bits(65520), 0x7c00);
  assert.equal(f16bits(65519.99), 0x7bff);
  assert.equal(bf16bits(1 + 2 ** -8), 0x3f80); // tie to even
  assert.equal(bf16bits(1 + 2 ** -8 + 2 ** -40), 0x3f81); // past the tie, below binary32 precision
  assert.equal(bf16bits(1 + 3 * 2 ** -8), 0x3f82);
});

// ---- f32 arithmetic under all rounding modes, against the exact reference
const OPS32: [string, number, (a: number, b: number, c: number) => [bigint, number]][] = [
  ['v_add_f32 v3, v0, v1', 2, (a, b) => addX(exact(a), exact(b))],
  ['v_sub_f32 v3, v0, v1', 2, (a, b) => addX(exact(a), exact(-b))],
  ['v_subrev_f32 v3, v0, v1', 2, (a, b) => addX(exact(b), exact(-a))],
  ['v_mul_f32 v3, v0, v1', 2, (a, b) => mulX(exact(a), exact(b))],
  ['v_fma_f32 v3, v0, v1, v2', 3, (a, b, c) => addX(mulX(exact(a), exact(b)), exact(c))],
];
for (const [asm, , ref] of OPS32) {
  test(`f32 rounding modes: ${asm}`, () => {
    const next = rng(asm.length * 7919);
    for (let mode = 0; mode < 4; mode++) {
      const a = Array.from({ length: LANES }, () => randF32(next));
      const b = Array.from({ length: LANES }, () => randF32(next));
      const c = a.map((x, i) => (i % 3 === 0 ? -x * b[i]! : randF32(next))); // cancellation cases
      const r = run(asm, { vgprF32: { 0: a, 1: b, 2: c }, mode: modeRound(mode) });
      for (let l = 0; l < LANES; l++) {
        const e = roundRef(ref(Math.fround(a[l]!), Math.fround(b[l]!), Math.fround(c[l]!)), F32, mode, mode === 2);
        const got = r.vf(3, l);
        if (e === 0 && got === 0) continue; // signed zero of exact cancellation checked separately
        assert.equal(got, e, `${asm} mode ${mode} lane ${l}: ${a[l]} ${b[l]} ${c[l]}`);
      }
    }
  });
}
test('f32 fma rounds once (a double-rounding case of the double path)', () => {
  // a*b = 1 + 2^-11 + 2^-24 exactly: an f32 tie; + 2^-80 breaks it upward. Via a double the
  // 2^-80 is lost and the tie goes to even (down); a single rounding goes up.
  const a = 1 + 2 ** -12;
  const r = run('v_fma_f32 v3, v0, v0, v1', { vgprF32: { 0: a, 1: 2 ** -80 } });
  assert.equal(r.vf(3), roundRef(addX(mulX(exact(a), exact(a)), exact(2 ** -80)), F32, 0));
  assert.equal(r.vf(3), 1 + 2 ** -11 + 2 ** -23);
});
// ---- f64 and f16 arithmetic under all rounding modes
const OPS64: [string, (a: number, b: number, c: number) => [bigint, number]][] = [
  ['v_add_f64 v[6:7], v[0:1], v[2:3]', (a, b) => addX(exact(a), exact(b))],
  ['v_mul_f64 v[6:7], v[0:1], v[2:3]', (a, b) => mulX(exact(a), exact(b))],
  ['v_fma_f64 v[6:7], v[0:1], v[2:3], v[4:5]', (a, b, c) => addX(mulX(exact(a), exact(b)), exact(c))],
];
for (const [asm, ref] of OPS64) {
  test(`f64 rounding modes: ${asm}`, () => {
    const next = rng(asm.length * 104729);
    for (let mode = 0; mode < 4; mode++) {
      const a = Array.from({ length: LANES }, () => randF64(next));
      const b = Array.from({ length: LANES }, () => randF64(next));
      // cancellation cases, and tiny products with tiny addends (results in the denormal range)
      const c = a.map((x, i) => (i % 3 === 0 ? -x * b[i]! : i % 7 === 1 || i % 8 === 5 ? randF64(next) * 2 ** -1000 : randF64(next)));
      for (let i = 5; i < LANES; i += 8) (a[i] = a[i]! * 2 ** -500), (b[i] = b[i]! * 2 ** -500 || 2 ** -520);
      const w = (xs: number[], k: 0 | 1) => xs.map((x) => f64w(x)[k]);
      const r = run(asm, { vgpr: { 0: w(a, 0), 1: w(a, 1), 2: w(b, 0), 3: w(b, 1), 4: w(c, 0), 5: w(c, 1) }, mode: modeRound(mode) });
      for (let l = 0; l < LANES; l++) {
        const [x, y, z] = [a[l]!, b[l]!, c[l]!];
        const e = roundRef(ref(x, y, z), F64, mode, mode === 2);
        const got = w2d(r.v(6, l), r.v(7, l));
        if (e === 0 && got === 0) continue;
        assert.equal(got, e, `${asm} mode ${mode} lane ${l}: ${x} ${y} ${z}`);
      }
    }
  });
}
const OPS16: [string, (a: number, b: number, c: number) => [bigint, number]][] = [
  ['v_add_f16 v3, v0, v1', (a, b) => addX(exact(a), exact(b))],
  ['v_sub_f16 v3, v0, v1', (a, b) => addX(exact(a), exact(-b))],
  ['v_subrev_f16 v3, v0, v1', (a, b) => addX(exact(b), exact(-a))],
  ['v_mul_f16 v3, v0, v1', (a, b) => mulX(exact(a), exact(b))],
  ['v_fma_f16 v3, v0, v1, v2', (a, b, c) => addX(mulX(exact(a), exact(b)), exact(c))],
];
for (const [asm, ref] of OPS16) {
  test(`f16 rounding modes: ${asm}`, () => {
    const next = rng(asm.length * 31337);
    for (let mode = 0; mode < 4; mode++) {
      const a = Array.from({ length: LANES }, () => randF16(next));
      const b = Array.from({ length: LANES }, () => randF16(next));
      const c = Array.from({ length: LANES }, () => randF16(next));
      const r = run(asm, { vgpr: { 0: a, 1: b, 2: c, 3: 0xabcd0000 }, mode: modeRound(mode) });
      for (let l = 0; l < LANES; l++) {
        const e = roundRef(ref(h2f(a[l]!), h2f(b[l]!), h2f(c[l]!)), F16, mode, mode === 2);
        const got = r.v(3, l);
        assert.equal(got >>> 16, 0xabcd, 'high half kept');
        if (e === 0 && h2f(got & 0xffff) === 0) continue;
        assert.equal(h2f(got & 0xffff), e, `${asm} mode ${mode} lane ${l}`);
      }
    }
  });
}
test('exact zero sums: +0 in round-to-nearest, -0 toward -inf', () => {
  const r0 = run('v_add_f32 v3, v0, v1', { vgprF32: { 0: 1.5, 1: -1.5 } });
  assert.equal(r0.v(3), 0);
  const r2 = run('v_add_f32 v3, v0, v1', { vgprF32: { 0: 1.5, 1: -1.5 }, mode: modeRound(2) });
  assert.ok(r2.v(3) === 0 || r2.v(3) === 0x80000000);
});
test('f32 overflow under directed rounding stops at the largest finite value', () => {
  const big = 3e38;
  const rz = run('v_add_f32 v3, v0, v1', { vgprF32: { 0: big, 1: big }, mode: modeRound(3) });
  assert.equal(rz.v(3), 0x7f7fffff);
  const rn = run('v_add_f32 v3, v0, v1', { vgprF32: { 0: big, 1: big } });
  assert.equal(rn.v(3), 0x7f800000);
  const rd = run('v_mul_f32 v3, v0, v1', { vgprF32: { 0: big, 1: -big }, mode: modeRound(1) });
  assert.equal(rd.v(3), 0xff7fffff);
});

test('MODE changed by the program (s_round_mode, s_setreg, s_denorm_mode) applies to the next VALU op', () => {
  const o = { vgprF32: { 0: 1, 1: 2 ** -30 } };
  assert.equal(run('v_add_f32 v3, v0, v1', o).vf(3), 1);
  assert.equal(run('s_round_mode 0x5\nv_add_f32 v3, v0, v1', o).vf(3), 1 + 2 ** -23); // toward +inf
  assert.equal(run('s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0xa\nv_sub_f32 v3, v1, v0', o).vf(3), -1); // toward -inf: -(1 - 2^-30) rounds to -1
  const d = run('s_denorm_mode 0\nv_add_f32 v3, v0, 0', { vgpr: { 0: 0x10 } });
  assert.equal(d.v(3), 0);
});

// ---- denormals: FP_DENORM (f32 bits 5:4, f16/f64 bits 7:6): 0 flush in+out, 1 out, 2 in, 3 none
test('f32 denormal controls: input flush, output flush, both kept', () => {
  const d = b2f(0x00000010); // a denormal
  const none = run('v_add_f32 v3, v0, 0', { vgprF32: { 0: d }, mode: 0x30 });
  assert.equal(none.v(3), 0x10);
  const flushIn = run('v_add_f32 v3, v0, 0', { vgprF32: { 0: d }, mode: 0x20 });
  assert.equal(flushIn.v(3), 0);
  const flushOut = run('v_mul_f32 v3, v0, v1', { vgprF32: { 0: 2 ** -100, 1: 2 ** -30 }, mode: 0x10 });
  assert.equal(flushOut.v(3), 0);
  const keepOut = run('v_mul_f32 v3, v0, v1', { vgprF32: { 0: 2 ** -100, 1: 2 ** -30 }, mode: 0x20 });
  assert.equal(keepOut.vf(3), 2 ** -130);
  const neg = run('v_mul_f32 v3, v0, v1', { vgprF32: { 0: -(2 ** -100), 1: 2 ** -30 }, mode: 0x00 });
  assert.equal(neg.v(3), 0x80000000); // flushed to a zero of the same sign
  // f32 flush does not touch f64 (bits 7:6)
  const [lo, hi] = f64w(2 ** -1050);
  const f64keep = run('v_add_f64 v[4:5], v[0:1], 0', { vgpr: { 0: lo, 1: hi }, mode: 0xc0 });
  assert.equal(w2d(f64keep.v(4), f64keep.v(5)), 2 ** -1050);
  const f64flush = run('v_add_f64 v[4:5], v[0:1], 0', { vgpr: { 0: lo, 1: hi }, mode: 0x30 });
  assert.equal(w2d(f64flush.v(4), f64flush.v(5)), 0);
  const h = run('v_mul_f16 v3, v0, v1', { vgpr: { 0: 0x0001, 1: 0x3c00 }, mode: 0x30 });
  assert.equal(h.v(3) & 0xffff, 0);
  const hk = run('v_mul_f16 v3, v0, v1', { vgpr: { 0: 0x0001, 1: 0x3c00 }, mode: 0xf0 });
  assert.equal(hk.v(3) & 0xffff, 1);
});
test('transcendental f32 ops flush denormals whatever MODE says; v_sin keeps them', () => {
  const d = b2f(0x00000100);
  const r = run('v_sqrt_f32 v3, v0\nv_rcp_f32 v4, v1\nv_sin_f32 v5, v0', { vgprF32: { 0: d, 1: 2 ** 127 }, mode: 0xf0 });
  assert.equal(r.v(3), 0);
  assert.equal(r.v(4), 0); // 2^-127 is denormal: flushed
  assert.ok(r.vf(5) > 0);
});

// ---- modifiers
test('abs/neg/omod/clamp on f32, f64 and f16 (VOP3)', () => {
  const r = run('v_add_f32_e64 v3, -|v0|, v1 mul:2\nv_add_f32_e64 v4, v0, v1 clamp\nv_mul_f32_e64 v5, v0, v1 div:2\nv_add_f32_e64 v6, -v0, v1 mul:4 clamp', { vgprF32: { 0: -3, 1: 0.25 } });
  assert.equal(r.vf(3), (-3 + 0.25) * 2);
  assert.equal(r.vf(4), 0);
  assert.equal(r.vf(5), -0.375);
  assert.equal(r.vf(6), 1);
  const [lo, hi] = f64w(-2.5);
  const d = run('v_add_f64 v[4:5], |v[0:1]|, -v[2:3] mul:2\nv_mul_f64 v[6:7], v[0:1], v[2:3] clamp', { vgpr: { 0: lo, 1: hi, 2: 0, 3: 0x3fe00000 } });
  assert.equal(w2d(d.v(4), d.v(5)), (2.5 - 0.5) * 2);
  assert.equal(w2d(d.v(6), d.v(7)), 0);
  const h = run('v_mul_f16_e64 v3, -v0, v1 clamp\nv_add_f16_e64 v4, |v0|, v1 mul:2', { vgpr: { 0: 0xbc00, 1: 0x3800 } });
  assert.equal(h.v(3) & 0xffff, 0x3800); // -(-1) * 0.5 = 0.5
  assert.equal(h.v(4) & 0xffff, 0x4200); // (1 + 0.5) * 2 = 3
});
test('clamp of NaN: 0 under DX10_CLAMP, NaN passes through without it', () => {
  const nanIn = { vgpr: { 0: 0x7fc00001, 1: 0x3f800000 } };
  const dx = run('v_mul_f32_e64 v3, v0, v1 clamp', { ...nanIn, mode: 0x3f0 });
  assert.equal(dx.v(3), 0);
  const nodx = run('v_mul_f32_e64 v3, v0, v1 clamp', { ...nanIn, mode: 0x2f0 });
  assert.equal(nodx.v(3), 0x7fc00001);
});
test('NaN results: input NaNs propagate quieted (payload kept); generated NaNs are 0xffc00000', () => {
  const r = run('v_add_f32 v3, v0, v1\nv_add_f32 v4, v1, v2\nv_mul_f32 v5, v2, 0\nv_cvt_f64_f32 v[6:7], v0\nv_cvt_f16_f32 v8, v0',
    { vgpr: { 0: 0x7f800123, 1: 0x3f800000, 2: 0x7f800000 } });
  assert.equal(r.v(3), 0x7fc00123);
  assert.equal(r.v(4), 0x7f800000);
  assert.equal(r.v(5), 0xffc00000);
  assert.equal(r.v(7), 0x7ff80024);
  assert.equal(r.v(6), 0x60000000);
  assert.equal(r.v(8) & 0xffff, 0x7e00);
  const d = run('v_add_f64 v[4:5], v[0:1], v[2:3]', { vgpr: { 0: 0, 1: 0x7ff00000, 2: 0, 3: 0xfff00000 } });
  assert.deepEqual([d.v(4), d.v(5)], [0, 0xfff80000]);
});

// ---- GFX11 true16 halves for float ops (hand-encoded: LLVM 19 prints these encodings as fake16)
test('true16 e32 source halves: bit 7 of a 16-bit VGPR source selects .h (v_cvt_f32_f16, v_cmp_lt_f16)', () => {
  // LLVM 19 (fake16) decodes these with an "Invalid register" remark; the hardware reads v2.h.
  // (e32 16-bit destinations >= v128 do not decode at all, as in LLVM: the decoder refuses them.)
  const o = { vgpr: { 1: 0x11112222, 2: 0x40003c00, 3: 0x3800bc00, 4: 0x3f800000 } };
  const cvt = run('.long 0x7e021782', o); // v_cvt_f32_f16 v1, v2.h
  assert.equal(cvt.vf(1), 2);
  const cmp = run('.long 0x7c020782', { ...o, exec: 1 }); // v_cmp_lt_f16 vcc_lo, v2.h, v3.l : 2 < -1
  assert.equal(cmp.s(106), 0);
  const cmp2 = run('.long 0x7c020702', { ...o, exec: 1 }); // v_cmp_lt_f16 vcc_lo, v2.l, v3.l : 1 < -1
  assert.equal(cmp2.s(106), 0);
  const gt = run('.long 0x7c080782', { ...o, exec: 1 }); // v_cmp_gt_f16 vcc_lo, v2.h, v3.l : 2 > -1
  assert.equal(gt.s(106), 1);
});
test('VOP3 op_sel on f16 ops: source halves and the destination half', () => {
  // v_add_f16_e64 v1, v2, v3 op_sel:[1,0,1]: v2.h + v3.l into v1.h
  const r = run('.long 0xd5324801, 0x00020702', { vgpr: { 1: 0x11112222, 2: 0x40003c00, 3: 0x3800bc00 } });
  assert.equal(r.v(1), 0x3c002222); // 2 + -1 = 1
});

// ---- min / max
test('v_max_f32/v_min_f32: IEEE_MODE quiets sNaN, a qNaN loses to a number, -0 < +0', () => {
  const sn = 0x7f800001, qn = 0x7fc00002, one = 0x3f800000;
  const ieee = 0x2f0, dx = 0x0f0;
  const cases: [string, number, number, number, number][] = [
    ['v_max_f32 v3, v0, v1', sn, one, ieee, 0x7fc00001],
    ['v_max_f32 v3, v0, v1', one, sn, ieee, 0x7fc00001],
    ['v_max_f32 v3, v0, v1', qn, one, ieee, one],
    ['v_max_f32 v3, v0, v1', qn, sn, ieee, 0x7fc00001], // the sNaN wins over a qNaN
    ['v_max_f32 v3, v0, v1', sn, one, dx, one],
    ['v_min_f32 v3, v0, v1', one, qn, dx, one],
    ['v_max_f32 v3, v0, v1', 0x80000000, 0, ieee, 0],
    ['v_min_f32 v3, v0, v1', 0, 0x80000000, ieee, 0x80000000],
    ['v_min_f32 v3, v0, v1', one, 0x40000000, ieee, one],
  ];
  for (const [asm, a, b, mode, want] of cases) {
    const r = run(asm, { vgpr: { 0: a, 1: b }, mode });
    assert.equal(r.v(3), want, `${asm} ${a.toString(16)} ${b.toString(16)} mode ${mode.toString(16)}`);
  }
});
test('three-input float selects: min3/max3/med3/maxmin/minmax for f32 and f16', () => {
  const vals = [[1, 5, 3], [-2, -7, 4], [0.5, 0.25, 0.75], [9, 9, 1], [3, -3, 0]];
  const med = (a: number, b: number, c: number) => [a, b, c].sort((x, y) => x - y)[1]!;
  const ops: [string, (a: number, b: number, c: number) => number][] = [
    ['min3', (a, b, c) => Math.min(a, b, c)], ['max3', (a, b, c) => Math.max(a, b, c)], ['med3', med],
    ['maxmin', (a, b, c) => Math.min(Math.max(a, b), c)], ['minmax', (a, b, c) => Math.max(Math.min(a, b), c)],
  ];
  for (const [op, ref] of ops) {
    const r = run(`v_${op}_f32 v3, v0, v1, v2\nv_${op}_f16 v4, v5, v6, v7`, {
      vgprF32: { 0: vals.map((v) => v[0]!), 1: vals.map((v) => v[1]!), 2: vals.map((v) => v[2]!) },
      vgpr: { 5: vals.map((v) => f16of(v[0]!)), 6: vals.map((v) => f16of(v[1]!)), 7: vals.map((v) => f16of(v[2]!)) },
    });
    vals.forEach((v, l) => {
      assert.equal(r.vf(3, l), ref(v[0]!, v[1]!, v[2]!), `${op} f32 lane ${l}`);
      assert.equal(h2f(r.v(4, l) & 0xffff), ref(v[0]!, v[1]!, v[2]!), `${op} f16 lane ${l}`);
    });
  }
  const n = run('v_med3_f32 v3, v0, v1, v2', { vgpr: { 0: 0x7fc00000, 1: 0x40000000, 2: 0x3f800000 } });
  assert.equal(n.vf(3), 1); // a NaN input: min3 of the three
});
/** Exact small f16 encodings for test values. */
function f16of(x: number): number {
  if (x === 0) return Object.is(x, -0) ? 0x8000 : 0;
  const s = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  return s | ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
}
test('v_max_f64/v_min_f64/v_max_f16/v_min_f16', () => {
  const [alo, ahi] = f64w(-1.5), [blo, bhi] = f64w(2.25);
  const r = run('v_max_f64 v[4:5], v[0:1], v[2:3]\nv_min_f64 v[6:7], v[0:1], v[2:3]\nv_max_f16 v8, v9, v10\nv_min_f16 v11, v9, v10',
    { vgpr: { 0: alo, 1: ahi, 2: blo, 3: bhi, 9: 0xc000, 10: 0x3c00 } });
  assert.equal(w2d(r.v(4), r.v(5)), 2.25);
  assert.equal(w2d(r.v(6), r.v(7)), -1.5);
  assert.equal(r.v(8) & 0xffff, 0x3c00);
  assert.equal(r.v(11) & 0xffff, 0xc000);
});

// ---- transcendental special cases (the ISA's functional examples)
test('transcendental special cases (f32), from the ISA examples', () => {
  const cases: [string, number, number][] = [
    ['v_exp_f32', 0xff800000, 0], ['v_exp_f32', 0x80000000, 0x3f800000], ['v_exp_f32', 0x7f800000, 0x7f800000],
    ['v_log_f32', 0xff800000, 0xffc00000], ['v_log_f32', 0xbf800000, 0xffc00000], ['v_log_f32', 0x80000000, 0xff800000],
    ['v_log_f32', 0, 0xff800000], ['v_log_f32', 0x3f800000, 0], ['v_log_f32', 0x7f800000, 0x7f800000],
    ['v_rcp_f32', 0xff800000, 0x80000000], ['v_rcp_f32', 0xc0000000, 0xbf000000], ['v_rcp_f32', 0x80000000, 0xff800000],
    ['v_rcp_f32', 0, 0x7f800000], ['v_rcp_f32', 0x7f800000, 0],
    ['v_rcp_iflag_f32', 0x40800000, 0x3e800000],
    ['v_rsq_f32', 0xff800000, 0xffc00000], ['v_rsq_f32', 0x80000000, 0xff800000], ['v_rsq_f32', 0, 0x7f800000],
    ['v_rsq_f32', 0x40800000, 0x3f000000], ['v_rsq_f32', 0x7f800000, 0],
    ['v_sqrt_f32', 0xff800000, 0xffc00000], ['v_sqrt_f32', 0x80000000, 0x80000000], ['v_sqrt_f32', 0, 0],
    ['v_sqrt_f32', 0x40800000, 0x40000000], ['v_sqrt_f32', 0x7f800000, 0x7f800000],
    ['v_sin_f32', 0xff800000, 0xffc00000], ['v_sin_f32', 0xff7fffff, 0], ['v_sin_f32', 0x80000000, 0x80000000],
    ['v_sin_f32', 0x3e800000, 0x3f800000], ['v_sin_f32', 0x7f800000, 0xffc00000],
    ['v_cos_f32', 0xff800000, 0xffc00000], ['v_cos_f32', 0xff7fffff, 0x3f800000], ['v_cos_f32', 0x80000000, 0x3f800000],
    ['v_cos_f32', 0x3e800000, 0], ['v_cos_f32', 0x7f800000, 0xffc00000],
  ];
  for (const [op, x, want] of cases) {
    const r = run(`${op} v3, v0`, { vgpr: { 0: x } });
    assert.equal(r.v(3), want, `${op}(${x.toString(16)})`);
  }
});
test('transcendental special cases (f16), from the ISA examples', () => {
  const cases: [string, number, number][] = [
    ['v_rcp_f16', 0xfc00, 0x8000], ['v_rcp_f16', 0xc000, 0xb800], ['v_rcp_f16', 0x8000, 0xfc00], ['v_rcp_f16', 0, 0x7c00], ['v_rcp_f16', 0x7c00, 0],
    ['v_sqrt_f16', 0xfc00, 0xfe00], ['v_sqrt_f16', 0x8000, 0x8000], ['v_sqrt_f16', 0x4400, 0x4000], ['v_sqrt_f16', 0x7c00, 0x7c00],
    ['v_rsq_f16', 0xfc00, 0xfe00], ['v_rsq_f16', 0x8000, 0xfc00], ['v_rsq_f16', 0x4400, 0x3800], ['v_rsq_f16', 0x7c00, 0],
    ['v_log_f16', 0xfc00, 0xfe00], ['v_log_f16', 0xbc00, 0xfe00], ['v_log_f16', 0x8000, 0xfc00], ['v_log_f16', 0x3c00, 0], ['v_log_f16', 0x7c00, 0x7c00],
    ['v_exp_f16', 0xfc00, 0], ['v_exp_f16', 0x8000, 0x3c00], ['v_exp_f16', 0x7c00, 0x7c00],
    ['v_sin_f16', 0xfc00, 0xfe00], ['v_sin_f16', 0xfbff, 0], ['v_sin_f16', 0x8000, 0x8000], ['v_sin_f16', 0x3400, 0x3c00], ['v_sin_f16', 0x7bff, 0],
    ['v_cos_f16', 0xfc00, 0xfe00], ['v_cos_f16', 0xfbff, 0x3c00], ['v_cos_f16', 0x8000, 0x3c00], ['v_cos_f16', 0x3400, 0], ['v_cos_f16', 0x7bff, 0x3c00],
  ];
  for (const [op, x, want] of cases) {
    const r = run(`${op} v3, v0`, { vgpr: { 0: x, 3: 0 } });
    assert.equal(r.v(3) & 0xffff, want, `${op}(${x.toString(16)})`);
  }
});
test('f64 rcp/rsq/sqrt and a generic exp/log/sin accuracy check', () => {
  const [lo, hi] = f64w(4);
  const r = run('v_rcp_f64 v[2:3], v[0:1]\nv_rsq_f64 v[4:5], v[0:1]\nv_sqrt_f64 v[6:7], v[0:1]', { vgpr: { 0: lo, 1: hi } });
  assert.equal(w2d(r.v(2), r.v(3)), 0.25);
  assert.equal(w2d(r.v(4), r.v(5)), 0.5);
  assert.equal(w2d(r.v(6), r.v(7)), 2);
  const x = [0.3, -1.7, 5.5, 10.25];
  const t = run('v_exp_f32 v3, v0\nv_log_f32 v4, v1\nv_sin_f32 v5, v0\nv_cos_f32 v6, v0', { vgprF32: { 0: x, 1: x.map(Math.abs) } });
  x.forEach((v, l) => {
    const fv = Math.fround(v);
    const ulp = (y: number) => Math.abs(y) * 2 ** -22 + 1e-38;
    assert.ok(Math.abs(t.vf(3, l) - 2 ** fv) <= ulp(2 ** fv));
    assert.ok(Math.abs(t.vf(4, l) - Math.log2(Math.abs(fv))) <= ulp(Math.log2(Math.abs(fv))));
    assert.ok(Math.abs(t.vf(5, l) - Math.sin(2 * Math.PI * fv)) < 1e-6);
    assert.ok(Math.abs(t.vf(6, l) - Math.cos(2 * Math.PI * fv)) < 1e-6);
  });
});

// ---- rounding to integers, fract, frexp, ldexp
test('trunc/floor/ceil/rndne/fract for f32, f64, f16', () => {
  const xs = [2.5, 3.5, -2.5, -0.375, 7.75, -7.75, 0.5, -0.5];
  const rne = (x: number) => { const f = Math.floor(x); const d = x - f; const r = d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f; return r; };
  const ops: [string, (x: number) => number][] = [['trunc', Math.trunc], ['floor', Math.floor], ['ceil', Math.ceil], ['rndne', rne], ['fract', (x) => x - Math.floor(x)]];
  for (const [op, ref] of ops) {
    const r = run(`v_${op}_f32 v3, v0\nv_${op}_f64 v[4:5], v[6:7]\nv_${op}_f16 v8, v9`, {
      vgprF32: { 0: xs }, vgpr: { 6: xs.map((x) => f64w(x)[0]), 7: xs.map((x) => f64w(x)[1]), 9: xs.map(f16of) },
    });
    xs.forEach((x, l) => {
      const e = ref(x);
      assert.equal(Math.abs(r.vf(3, l) - e), 0, `${op}_f32(${x})`);
      assert.equal(Math.abs(w2d(r.v(4, l), r.v(5, l)) - e), 0, `${op}_f64(${x})`);
      assert.equal(Math.abs(h2f(r.v(8, l) & 0xffff) - e), 0, `${op}_f16(${x})`);
    });
  }
  const f = run('v_fract_f32 v3, v0\nv_fract_f32 v4, v1', { vgprF32: { 0: -1e-10, 1: Infinity } });
  assert.equal(f.v(3), 0x3f7fffff); // clamped below 1.0
  assert.equal(f.v(4) & 0x7fc00000, 0x7fc00000);
});
test('frexp_mant/frexp_exp (f32, f64, f16) and ldexp (f32, f64, f16)', () => {
  const xs = [8, -0.75, 1, 3e-40, 0, 1000];
  const fx = (x: number) => { if (x === 0) return [0, 0]; let e = Math.floor(Math.log2(Math.abs(x))) + 1; let m = x / 2 ** e; if (Math.abs(m) >= 1) (m /= 2), e++; if (Math.abs(m) < 0.5) (m *= 2), e--; return [m, e]; };
  const r = run('v_frexp_mant_f32 v3, v0\nv_frexp_exp_i32_f32 v4, v0\nv_frexp_mant_f64 v[6:7], v[8:9]\nv_frexp_exp_i32_f64 v5, v[8:9]',
    { vgprF32: { 0: xs }, vgpr: { 8: xs.map((x) => f64w(x)[0]), 9: xs.map((x) => f64w(x)[1]) } });
  xs.forEach((x, l) => {
    const [m, e] = fx(Math.fround(x));
    assert.equal(r.vf(3, l), m, `mant f32 ${x}`);
    assert.equal(r.v(4, l) | 0, e, `exp f32 ${x}`);
    const [m64, e64] = fx(x);
    assert.equal(w2d(r.v(6, l), r.v(7, l)), m64);
    assert.equal(r.v(5, l) | 0, e64);
  });
  const h = run('v_frexp_mant_f16 v3, v0\nv_frexp_exp_i16_f16 v4, v0\nv_ldexp_f16 v5, v0, v1', { vgpr: { 0: 0x4a00, 1: 0xfffe, 3: 0, 4: 0, 5: 0 } });
  assert.equal(h.v(3), 0x3a00); // 12 = 0.75 * 2^4
  assert.equal(h.v(4), 4);
  assert.equal(h.v(5), 0x4200); // 12 * 2^-2 = 3
  const inf = run('v_frexp_mant_f32 v3, v0\nv_frexp_exp_i32_f32 v4, v0', { vgpr: { 0: 0xff800000 } });
  assert.equal(inf.v(3), 0xff800000);
  assert.equal(inf.v(4), 0);
  const l = run('v_ldexp_f32 v3, v0, v1\nv_ldexp_f64 v[4:5], v[6:7], v1', { vgprF32: { 0: 1.5 }, vgpr: { 1: -130, 6: 0, 7: 0x3ff80000 } });
  assert.equal(l.vf(3), roundRef(exact(1.5 * 2 ** -130), F32, 0));
  assert.equal(w2d(l.v(4), l.v(5)), 1.5 * 2 ** -130);
});

// ---- the LLVM division macros
test('f32 division macro (div_scale, rcp, fma, fmac, div_fmas, div_fixup) gives a/b correctly rounded', () => {
  const next = rng(4242);
  const a = Array.from({ length: LANES }, (_, i) => (i < 4 ? [1, 0, 5, 2 ** -140][i]! : randF32(next)));
  const b = Array.from({ length: LANES }, (_, i) => (i < 4 ? [3, 0, 0, 7][i]! : randF32(next)));
  const src = `
v_div_scale_f32 v2, null, v1, v1, v0
v_div_scale_f32 v5, vcc_lo, v0, v1, v0
v_rcp_f32 v3, v2
v_fma_f32 v4, -v2, v3, 1.0
v_fmac_f32 v3, v4, v3
v_mul_f32 v4, v5, v3
v_fma_f32 v6, -v2, v4, v5
v_fmac_f32 v4, v6, v3
v_fma_f32 v2, -v2, v4, v5
v_div_fmas_f32 v2, v2, v3, v4
v_div_fixup_f32 v2, v2, v1, v0`;
  const r = run(src, { vgprF32: { 0: a, 1: b } });
  for (let l = 0; l < LANES; l++) {
    const want = Math.fround(Math.fround(a[l]!) / Math.fround(b[l]!));
    if (Number.isNaN(want)) assert.ok(Number.isNaN(r.vf(2, l)));
    else assert.equal(r.vf(2, l), want, `lane ${l}: ${a[l]} / ${b[l]}`);
  }
});
test('f64 division macro gives a/b correctly rounded', () => {
  const next = rng(777);
  // incl. quotients in the denormal range (2^-1060 / 3, 1e-300 / 1e20) and near overflow
  const special: [number, number][] = [[1, 3], [0, 0], [2 ** -1060, 3], [1e-300, 1e20], [1e300, 1e-10], [5, 2 ** -1070]];
  const a = Array.from({ length: LANES }, (_, i) => (i < special.length ? special[i]![0] : randF64(next)));
  const b = Array.from({ length: LANES }, (_, i) => (i < special.length ? special[i]![1] : randF64(next)));
  const src = `
v_div_scale_f64 v[4:5], null, v[2:3], v[2:3], v[0:1]
v_rcp_f64 v[6:7], v[4:5]
v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0
v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]
v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0
v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]
v_div_scale_f64 v[8:9], vcc_lo, v[0:1], v[2:3], v[0:1]
v_mul_f64 v[10:11], v[8:9], v[6:7]
v_fma_f64 v[4:5], -v[4:5], v[10:11], v[8:9]
v_div_fmas_f64 v[4:5], v[4:5], v[6:7], v[10:11]
v_div_fixup_f64 v[0:1], v[4:5], v[2:3], v[0:1]`;
  const w = (xs: number[], k: 0 | 1) => xs.map((x) => f64w(x)[k]);
  const r = run(src, { vgpr: { 0: w(a, 0), 1: w(a, 1), 2: w(b, 0), 3: w(b, 1) } });
  for (let l = 0; l < LANES; l++) {
    const want = a[l]! / b[l]!;
    const got = w2d(r.v(0, l), r.v(1, l));
    if (Number.isNaN(want)) assert.ok(Number.isNaN(got));
    else assert.equal(got, want, `lane ${l}: ${a[l]} / ${b[l]}`);
  }
});
test('div_fixup special cases and div_scale flags (f32, f16)', () => {
  const r = run('v_div_fixup_f32 v3, v0, v1, v2\nv_div_scale_f32 v4, s10, v5, v5, v6', { vgprF32: { 0: 1, 1: 0, 2: -5, 5: 1, 6: 2 ** -127 } });
  assert.equal(r.vf(3), -Infinity); // x/0 with sign
  const h = run('v_div_fixup_f16 v3, v0, v1, v2', { vgpr: { 0: 0x3c00, 1: 0, 2: 0, 3: 0 } });
  assert.equal(h.v(3) & 0xffff, 0xfe00); // 0/0
});

// ---- f32/f16 accumulate forms and special multiplies
test('v_fmac_f32/v_fmac_f16 accumulate into D; v_fmamk/v_fmaak take the literal', () => {
  const r = run('v_fmac_f32 v3, v0, v1\nv_fmamk_f32 v4, v0, 0x40000000, v1\nv_fmaak_f32 v5, v0, v1, 0x40000000', { vgprF32: { 0: 3, 1: 0.5, 3: 10 } });
  assert.equal(r.vf(3), 11.5);
  assert.equal(r.vf(4), 6.5);
  assert.equal(r.vf(5), 3.5);
  const h = run('v_fmac_f16 v3, v0, v1\nv_fmamk_f16 v4, v0, 0x4000, v1\nv_fmaak_f16 v5, v0, v1, 0x4000', { vgpr: { 0: 0x4200, 1: 0x3800, 3: 0x12344900, 4: 0, 5: 0 } });
  assert.equal(r.vf(3), 11.5);
  assert.equal(h.v(3), 0x123449c0); // 3 * 0.5 + 10 = 11.5 in the low half; high half kept
  assert.equal(h.v(4) & 0xffff, 0x4680); // 3*2 + 0.5
  assert.equal(h.v(5) & 0xffff, 0x4300); // 3*0.5 + 2
});
test('DX9-zero multiplies and v_mullit_f32', () => {
  const r = run('v_mul_dx9_zero_f32 v3, v0, v1\nv_fma_dx9_zero_f32 v4, v0, v1, v2\nv_fmac_dx9_zero_f32 v5, v0, v1\nv_mullit_f32 v6, v2, v2, v0',
    { vgprF32: { 0: 0, 1: Infinity, 2: 2, 5: 7 } });
  assert.equal(r.vf(3), 0);
  assert.equal(r.vf(4), 2);
  assert.equal(r.vf(5), 7);
  assert.equal(r.vf(6), -3.4028234663852886e38); // S2 <= 0
});
test('cube map ops follow the major axis', () => {
  const r = run('v_cubeid_f32 v3, v0, v1, v2\nv_cubesc_f32 v4, v0, v1, v2\nv_cubetc_f32 v5, v0, v1, v2\nv_cubema_f32 v6, v0, v1, v2',
    { vgprF32: { 0: [0.5, -3, 0.1], 1: [-2, 1, 0.2], 2: [1, 0.5, -4] } });
  assert.deepEqual([r.vf(3, 0), r.vf(4, 0), r.vf(5, 0), r.vf(6, 0)], [3, 0.5, -1, -4]);
  assert.deepEqual([r.vf(3, 1), r.vf(4, 1), r.vf(5, 1), r.vf(6, 1)], [1, 0.5, -1, -6]);
  assert.deepEqual([r.vf(3, 2), r.vf(4, 2), r.vf(5, 2), r.vf(6, 2)], [5, Math.fround(-0.1), Math.fround(-0.2), -8]);
});
test('v_trig_preop_f64 returns 53-bit segments of 2/pi', () => {
  const [lo, hi] = f64w(1);
  const r = run('v_trig_preop_f64 v[2:3], v[0:1], 0\nv_trig_preop_f64 v[4:5], v[0:1], 1\nv_trig_preop_f64 v[6:7], v[0:1], 2', { vgpr: { 0: lo, 1: hi } });
  const s0 = w2d(r.v(2), r.v(3)), s1 = w2d(r.v(4), r.v(5)), s2 = w2d(r.v(6), r.v(7));
  assert.ok(s0 <= 2 / Math.PI && 2 / Math.PI - s0 <= 2 ** -53);
  assert.ok(s1 > 0 && s1 < 2 ** -53 && s2 < 2 ** -106);
  assert.equal(s0 + s1, 2 / Math.PI);
});
test('dot2 and packed fmac: v_dot2acc_f32_f16, v_dot2_f16_f16, v_dot2_bf16_bf16, v_pk_fmac_f16', () => {
  const r = run('v_dot2acc_f32_f16 v3, v0, v1\nv_dot2_f16_f16 v4, v0, v1, v2\nv_pk_fmac_f16 v5, v0, v1\nv_dot2_bf16_bf16 v6, v7, v8, v9',
    { vgpr: { 0: 0x40003c00, 1: 0x42003800, 2: 0x3c00, 3: 0x3f800000, 4: 0, 5: 0x3c003c00, 6: 0, 7: 0x40003f80, 8: 0x40403f00, 9: 0x3f80 } });
  assert.equal(r.vf(3), 1 * 0.5 + 2 * 3 + 1);
  assert.equal(r.v(4) & 0xffff, 0x4780); // 0.5 + 6 + 1 = 7.5
  assert.equal(r.v(5), 0x47003e00); // lo 1*0.5+1 = 1.5, hi 2*3+1 = 7
  assert.equal(r.v(6) & 0xffff, 0x40f0); // bf16: 1*0.5 + 2*3 + 1 = 7.5
  // op_sel[2] picks S2's half, op_sel[3] D's half (LLVM has no spelling for op_sel[1:0] here)
  const s = run('v_dot2_f16_f16 v4, v0, v1, v2 op_sel:[0,0,1,1]', { vgpr: { 0: 0x40003c00, 1: 0x42003800, 2: 0x3c000000, 4: 0x1234 } });
  assert.equal(s.v(4), 0x47801234);
  // op_sel[1:0] set as well (hand-encoded): ignored on the packed 32-bit sources
  const t = run('.long 0xd6667804, 0x040a0300', { vgpr: { 0: 0x40003c00, 1: 0x42003800, 2: 0x3c000000, 4: 0x1234 } });
  assert.equal(t.v(4), 0x47801234);
});

// ---- conversions
test('float <-> integer conversions truncate and saturate; NaN -> 0', () => {
  const xs = [1.9, -1.9, 3e9, -3e9, NaN, Infinity, -Infinity, 65535.5];
  const sat = (x: number, lo: number, hi: number) => (Number.isNaN(x) ? 0 : Math.max(lo, Math.min(hi, Math.trunc(x))));
  const r = run('v_cvt_i32_f32 v3, v0\nv_cvt_u32_f32 v4, v0\nv_cvt_i32_f64 v5, v[6:7]\nv_cvt_u32_f64 v8, v[6:7]\nv_cvt_nearest_i32_f32 v9, v0\nv_cvt_floor_i32_f32 v10, v0',
    { vgprF32: { 0: xs }, vgpr: { 6: xs.map((x) => f64w(x)[0]), 7: xs.map((x) => f64w(x)[1]) } });
  xs.forEach((x, l) => {
    const fx = Math.fround(x);
    assert.equal(r.v(3, l) | 0, sat(fx, -2147483648, 2147483647), `i32 ${x}`);
    assert.equal(r.v(4, l), sat(fx, 0, 4294967295), `u32 ${x}`);
    assert.equal(r.v(5, l) | 0, sat(x, -2147483648, 2147483647));
    assert.equal(r.v(8, l), sat(x, 0, 4294967295));
    assert.equal(r.v(9, l) | 0, sat(Math.floor(Math.fround(fx + 0.5)), -2147483648, 2147483647));
    assert.equal(r.v(10, l) | 0, sat(Math.floor(fx), -2147483648, 2147483647));
  });
  const h = run('v_cvt_i16_f16 v3, v0\nv_cvt_u16_f16 v4, v0\nv_cvt_f16_i16 v5, v1\nv_cvt_f16_u16 v6, v1', { vgpr: { 0: 0xc500, 1: 0xfffd, 3: 0, 4: 0, 5: 0, 6: 0 } });
  assert.equal(h.v(3), 0xfffb); // -5
  assert.equal(h.v(4), 0); // saturated at 0
  assert.equal(h.v(5), 0xc200); // -3
  assert.equal(h.v(6), 0x7c00); // 65533 rounds to inf in f16
});
test('integer -> float conversions round under MODE (cvt_f32_u32, cvt_f32_i32, cvt_f64_*, ubyte, off_f32_i4)', () => {
  const big = 0x1000001; // 2^24 + 1: not representable in f32
  const rn = run('v_cvt_f32_u32 v3, v0\nv_cvt_f32_i32 v4, v1', { vgpr: { 0: big, 1: -big } });
  assert.equal(rn.vf(3), 2 ** 24);
  assert.equal(rn.vf(4), -(2 ** 24));
  const ru = run('v_cvt_f32_u32 v3, v0\nv_cvt_f32_i32 v4, v1', { vgpr: { 0: big, 1: -big }, mode: modeRound(1) });
  assert.equal(ru.vf(3), 2 ** 24 + 2);
  assert.equal(ru.vf(4), -(2 ** 24));
  const d = run('v_cvt_f64_u32 v[2:3], v0\nv_cvt_f64_i32 v[4:5], v1', { vgpr: { 0: 0xffffffff, 1: -7 } });
  assert.equal(w2d(d.v(2), d.v(3)), 4294967295);
  assert.equal(w2d(d.v(4), d.v(5)), -7);
  const b = run('v_cvt_f32_ubyte0 v3, v0\nv_cvt_f32_ubyte1 v4, v0\nv_cvt_f32_ubyte2 v5, v0\nv_cvt_f32_ubyte3 v6, v0\nv_cvt_off_f32_i4 v7, v1\nv_cvt_off_f32_i4 v8, v2',
    { vgpr: { 0: 0x80ff1203, 1: 0x9, 2: 0x7 } });
  assert.deepEqual([b.vf(3), b.vf(4), b.vf(5), b.vf(6), b.vf(7), b.vf(8)], [3, 0x12, 255, 128, -0.4375, 0.4375]);
});
test('float <-> float conversions: f32->f16 and f64->f32 round under MODE, f16->f32 and f32->f64 are exact', () => {
  const x = 1 + 2 ** -11 + 2 ** -20; // above the f16 midpoint
  for (let mode = 0; mode < 4; mode++) {
    const r = run('v_cvt_f16_f32 v3, v0\nv_cvt_f32_f64 v4, v[6:7]', { vgprF32: { 0: x }, vgpr: { 3: 0, 6: f64w(1 + 2 ** -24 + 2 ** -40)[0], 7: f64w(1 + 2 ** -24 + 2 ** -40)[1] }, mode: modeRound(mode) });
    assert.equal(h2f(r.v(3) & 0xffff), roundRef(exact(Math.fround(x)), F16, mode), `f32->f16 mode ${mode}`);
    assert.equal(r.vf(4), roundRef(exact(1 + 2 ** -24 + 2 ** -40), F32, mode), `f64->f32 mode ${mode}`);
  }
  const e = run('v_cvt_f32_f16 v3, v0\nv_cvt_f64_f32 v[4:5], v1', { vgpr: { 0: 0x0001, 1: 0x00000001 } });
  assert.equal(e.vf(3), 2 ** -24);
  assert.equal(w2d(e.v(4), e.v(5)), 2 ** -149);
});
test('packed conversions: pk_rtz_f16_f32, pk_norm (f16/f32), pk_i16/u16_f32, pack_b32_f16 with op_sel and neg', () => {
  const r = run('v_cvt_pk_rtz_f16_f32 v3, v0, v1\nv_cvt_pk_norm_i16_f32 v4, v0, v2\nv_cvt_pk_norm_u16_f32 v5, v0, v2\nv_cvt_pk_i16_f32 v6, v1, v2\nv_cvt_pk_u16_f32 v7, v1, v2',
    { vgprF32: { 0: 1 + 2 ** -11 + 2 ** -20, 1: -70000, 2: 0.5 } });
  assert.equal(r.v(3), ((0xfbff << 16) | 0x3c00) >>> 0); // toward zero: 1.0 and -65504
  assert.equal(r.v(4), (16384 << 16 | 32767) >>> 0); // 0.5 * 32767 = 16383.5 -> 16384 (even)
  assert.equal(r.v(5), (32768 << 16 | 65535) >>> 0);
  assert.equal(r.v(6), 0x8000); // -70000 -> -32768, 0.5 -> 0
  assert.equal(r.v(7), 0);
  const h = run('v_cvt_pk_norm_i16_f16 v3, v0, v1\nv_cvt_pk_norm_u16_f16 v4, v0, v1\nv_cvt_norm_i16_f16 v5, v1\nv_cvt_norm_u16_f16 v6, v0\nv_pack_b32_f16 v7, v0, -v1\nv_pack_b32_f16 v8, v0, v1 op_sel:[1,0,0]',
    { vgpr: { 0: 0x3c00bc00, 1: 0x3800, 5: 0, 6: 0 } });
  assert.equal(h.v(3), ((16384 << 16) | 0x8001) >>> 0); // -1 -> -32767
  assert.equal(h.v(4), (32768 << 16) >>> 0);
  assert.equal(h.v(5) & 0xffff, 16384);
  assert.equal(h.v(6) & 0xffff, 0);
  assert.equal(h.v(7), ((0xb800 << 16) | 0xbc00) >>> 0);
  assert.equal(h.v(8), ((0x3800 << 16) | 0x3c00) >>> 0);
});
