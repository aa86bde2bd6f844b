/**
 * VOP3P semantics on a single wave, in assembly: packed 16-bit integer and float ops with their
 * op_sel/op_sel_hi/neg_lo/neg_hi/clamp modifiers, dot products, v_fma_mix*, the DPP forms, and
 * WMMA (wave32 and wave64) against a CPU matrix multiply over the RDNA3 ISA's lane layout.
 * Also the VINTERP arithmetic and LDSDIR loads, and the coverage of the generated tables.
 * Expected values come from the ISA definitions evaluated here (seeded pseudo-random inputs).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm, type AsmRunOptions } from './exec-harness.js';
import { VOP3P_OPS } from '../../src/amd/isa/gfx11/vop3p.gen.js';
import { VOPD_X, VOPD_Y } from '../../src/amd/isa/gfx11/vopd.gen.js';
import { VINTERP_OPS } from '../../src/amd/isa/gfx11/vinterp.gen.js';
import { LDSDIR_OPS } from '../../src/amd/isa/gfx11/ldsdir.gen.js';
import { implemented } from '../../src/amd/engine/registry.js';
import '../../src/amd/engine/bind.js';

// ---- reference helpers (independent of gpusim's float code)
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const fbits = (x: number): number => ((F32[0] = x), U32[0]!);
const fval = (b: number): number => ((U32[0] = b >>> 0), F32[0]!);
/** binary16 bits of a value exactly representable as a normal f16 (or zero). */
function h(x: number): number {
  if (x === 0) return Object.is(x, -0) ? 0x8000 : 0;
  const s = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  const m = (a / 2 ** e - 1) * 1024;
  assert.ok(Number.isInteger(m) && e >= -14 && e <= 15, `${x} is not an exact normal f16`);
  return s | ((e + 15) << 10) | m;
}
/** binary16 bits -> value. */
function hv(b: number): number {
  const s = b & 0x8000 ? -1 : 1;
  const e = (b >>> 10) & 31;
  const m = b & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}
const bfv = (b: number): number => fval((b & 0xffff) << 16);
const pack = (lo: number, hi: number): number => ((lo & 0xffff) | ((hi & 0xffff) << 16)) >>> 0;
const s16 = (x: number): number => (x << 16) >> 16;

const N = 8;
function run(src: string, o: AsmRunOptions = {}) {
  return runAsm(`${src}\ns_endpgm`, { exec: (1 << N) - 1, ...o });
}
function lanes(r: () => number, f: (x: number) => number = (x) => x): number[] {
  return Array.from({ length: N }, () => f(r()) >>> 0);
}

// ---------------------------------------------------------------------------------------------
// packed integer ops

const PK_INT: [string, number, (a: number, b: number, c: number) => number][] = [
  ['v_pk_mad_i16', 3, (a, b, c) => s16(a) * s16(b) + s16(c)],
  ['v_pk_mad_u16', 3, (a, b, c) => a * b + c],
  ['v_pk_mul_lo_u16', 2, (a, b) => a * b],
  ['v_pk_add_i16', 2, (a, b) => a + b],
  ['v_pk_sub_i16', 2, (a, b) => a - b],
  ['v_pk_add_u16', 2, (a, b) => a + b],
  ['v_pk_sub_u16', 2, (a, b) => a - b],
  ['v_pk_lshlrev_b16', 2, (a, b) => b << (a & 15)],
  ['v_pk_lshrrev_b16', 2, (a, b) => b >>> (a & 15)],
  ['v_pk_ashrrev_i16', 2, (a, b) => s16(b) >> (a & 15)],
  ['v_pk_max_i16', 2, (a, b) => Math.max(s16(a), s16(b))],
  ['v_pk_min_i16', 2, (a, b) => Math.min(s16(a), s16(b))],
  ['v_pk_max_u16', 2, (a, b) => Math.max(a, b)],
  ['v_pk_min_u16', 2, (a, b) => Math.min(a, b)],
];

test('packed 16-bit integer ops: both halves, default op_sel_hi', () => {
  const r = rng(1);
  const A = lanes(r), B = lanes(r), C = lanes(r);
  for (const [op, n, f] of PK_INT) {
    const src = n === 3 ? `${op} v3, v0, v1, v2` : `${op} v3, v0, v1`;
    const x = run(src, { vgpr: { 0: A, 1: B, 2: C } });
    for (let l = 0; l < N; l++) {
      const lo = f(A[l]! & 0xffff, B[l]! & 0xffff, C[l]! & 0xffff);
      const hi = f(A[l]! >>> 16, B[l]! >>> 16, C[l]! >>> 16);
      assert.equal(x.v(3, l), pack(lo, hi), `${src} lane ${l}`);
    }
  }
});

test('packed op_sel / op_sel_hi select the half each operation reads', () => {
  const A = [0x00020001], B = [0x00400030];
  for (let os = 0; os < 4; os++) {
    for (let oh = 0; oh < 4; oh++) {
      const src = `v_pk_add_u16 v3, v0, v1 op_sel:[${os & 1},${os >> 1}] op_sel_hi:[${oh & 1},${oh >> 1}]`;
      const x = run(src, { vgpr: { 0: A, 1: B }, exec: 1 });
      const half = (v: number, hiSel: number) => (hiSel ? v >>> 16 : v & 0xffff);
      const lo = half(A[0]!, os & 1) + half(B[0]!, os >> 1);
      const hi = half(A[0]!, oh & 1) + half(B[0]!, oh >> 1);
      assert.equal(x.v(3), pack(lo, hi), src);
    }
  }
});

test('packed integer clamp saturates; the other lanes and EXEC-off lanes keep their value', () => {
  const x = run('v_pk_add_i16 v3, v0, v1 clamp', { vgpr: { 0: pack(0x7fff, 0x8000), 1: pack(5, 0xffff), 3: 0x12345678 }, exec: 0b01 });
  assert.equal(x.v(3, 0), pack(0x7fff, 0x8000));
  assert.equal(x.v(3, 1), 0x12345678);
  const y = run('v_pk_sub_u16 v3, v0, v1 clamp', { vgpr: { 0: pack(3, 0xfff0), 1: pack(5, 0x0f) }, exec: 1 });
  assert.equal(y.v(3), pack(0, 0xfff0 - 0x0f));
  const z = run('v_pk_mad_u16 v3, v0, v1, v2 clamp', { vgpr: { 0: pack(0x100, 2), 1: pack(0x100, 3), 2: pack(0, 4) }, exec: 1 });
  assert.equal(z.v(3), pack(0xffff, 10));
});

// ---------------------------------------------------------------------------------------------
// packed f16 ops

test('packed f16 add/mul/fma/min/max with neg_lo/neg_hi and clamp', () => {
  const a = pack(h(1.5), h(-2)), b = pack(h(0.25), h(3)), c = pack(h(4), h(-0.5));
  const cases: [string, number][] = [
    ['v_pk_add_f16 v3, v0, v1', pack(h(1.75), h(1))],
    ['v_pk_mul_f16 v3, v0, v1', pack(h(0.375), h(-6))],
    ['v_pk_fma_f16 v3, v0, v1, v2', pack(h(4.375), h(-6.5))],
    ['v_pk_min_f16 v3, v0, v1', pack(h(0.25), h(-2))],
    ['v_pk_max_f16 v3, v0, v1', pack(h(1.5), h(3))],
    ['v_pk_add_f16 v3, v0, v1 neg_lo:[1,0] neg_hi:[0,1]', pack(h(-1.25), h(-5))],
    ['v_pk_mul_f16 v3, v0, v1 neg_lo:[1,1] neg_hi:[1,0]', pack(h(0.375), h(6))],
    ['v_pk_fma_f16 v3, v0, v1, v2 neg_lo:[0,0,1] neg_hi:[0,0,1]', pack(h(-3.625), h(-5.5))],
    ['v_pk_add_f16 v3, v0, v1 clamp', pack(h(1), h(1))],
    ['v_pk_mul_f16 v3, v0, v1 clamp', pack(h(0.375), 0)],
    ['v_pk_max_f16 v3, v0, v1 op_sel:[1,1] op_sel_hi:[0,0]', pack(h(3), h(1.5))],
  ];
  for (const [src, want] of cases) assert.equal(run(src, { vgpr: { 0: a, 1: b, 2: c }, exec: 1 }).v(3), want, src);
});

test('packed f16: inline float constants are binary16 in the low half (high half 0), literals are the whole dword', () => {
  const a = pack(h(1), h(2));
  assert.equal(run('v_pk_add_f16 v3, v0, 1.0', { vgpr: { 0: a }, exec: 1 }).v(3), pack(h(2), h(2)));
  assert.equal(run('v_pk_add_f16 v3, v0, 1.0 op_sel_hi:[1,0]', { vgpr: { 0: a }, exec: 1 }).v(3), pack(h(2), h(3)));
  assert.equal(run('v_pk_mul_f16 v3, v0, 0x44004200', { vgpr: { 0: a }, exec: 1 }).v(3), pack(h(3), h(8)));
  assert.equal(run('v_pk_add_u16 v3, v0, -1', { vgpr: { 0: pack(5, 7) }, exec: 1 }).v(3), pack(4, 6));
});

test('packed f16 rounding follows MODE (f16 round mode in bits 3:2) and NaNs propagate quieted', () => {
  // lo: 1 + 2^-11 is a tie between 1 and 1+2^-10; hi: 1 - 2^-12 a tie between 1-2^-11 and 1
  const a = pack(h(1), h(1)), b = pack(h(2 ** -11), h(-(2 ** -12)));
  assert.equal(run('v_pk_add_f16 v3, v0, v1', { vgpr: { 0: a, 1: b }, exec: 1 }).v(3), pack(0x3c00, 0x3c00));
  const up = run('v_pk_add_f16 v3, v0, v1', { vgpr: { 0: a, 1: b }, exec: 1, mode: 0xf0 | (1 << 2) });
  assert.equal(up.v(3), pack(0x3c01, 0x3c00));
  const dn = run('v_pk_add_f16 v3, v0, v1', { vgpr: { 0: a, 1: b }, exec: 1, mode: 0xf0 | (2 << 2) });
  assert.equal(dn.v(3), pack(0x3c00, 0x3bff));
  const nan = run('v_pk_add_f16 v3, v0, v1', { vgpr: { 0: pack(0x7c01, h(1)), 1: pack(h(1), 0xfc00) }, exec: 1 });
  assert.equal(nan.v(3), pack(0x7e01, 0xfc00));
  // f16 denormals: MODE.FP_DENORM[7:6] = 3 keeps them, 0 flushes inputs and outputs (sign kept)
  const dn16 = { vgpr: { 0: pack(0x0003, 0x8001), 1: pack(0x0001, 0x8000) }, exec: 1 };
  assert.equal(run('v_pk_add_f16 v3, v0, v1', { ...dn16, mode: 0xf0 }).v(3), pack(0x0004, 0x8001));
  assert.equal(run('v_pk_add_f16 v3, v0, v1', { ...dn16, mode: 0x30 }).v(3), pack(0, 0x8000));
  // min/max: a NaN operand yields the other (IEEE minNum/maxNum)
  const mm = run('v_pk_max_f16 v3, v0, v1', { vgpr: { 0: pack(0x7e00, h(-0)), 1: pack(h(2), h(0)) }, exec: 1 });
  assert.equal(mm.v(3), pack(h(2), h(0)));
  // an sNaN under MODE.IEEE (bit 9) gives that operand quieted; without IEEE the number wins
  const sn = { vgpr: { 0: pack(0x7d00, h(1)), 1: pack(h(2), 0xfc01) }, exec: 1 };
  assert.equal(run('v_pk_min_f16 v3, v0, v1', { ...sn, mode: 0x2f0 }).v(3), pack(0x7f00, 0xfe01));
  assert.equal(run('v_pk_min_f16 v3, v0, v1', { ...sn, mode: 0x0f0 }).v(3), pack(h(2), h(1)));
});

// ---------------------------------------------------------------------------------------------
// dot products

test('v_dot2_f32_f16 / v_dot2_f32_bf16 with op_sel, neg and the f32 accumulator', () => {
  const a = pack(h(1.5), h(-2)), b = pack(h(4), h(0.5));
  const c = fbits(10);
  assert.equal(run('v_dot2_f32_f16 v3, v0, v1, v2', { vgpr: { 0: a, 1: b, 2: c }, exec: 1 }).vf(3), 1.5 * 4 - 2 * 0.5 + 10);
  assert.equal(run('v_dot2_f32_f16 v3, v0, v1, v2 op_sel:[1,0,0] op_sel_hi:[0,1,0]', { vgpr: { 0: a, 1: b, 2: c }, exec: 1 }).vf(3), -2 * 4 + 1.5 * 0.5 + 10);
  assert.equal(run('v_dot2_f32_f16 v3, v0, v1, v2 neg_lo:[1,0,1]', { vgpr: { 0: a, 1: b, 2: c }, exec: 1 }).vf(3), -1.5 * 4 - 2 * 0.5 - 10);
  assert.equal(run('v_dot2_f32_f16 v3, v0, v1, v2 clamp', { vgpr: { 0: a, 1: b, 2: c }, exec: 1 }).vf(3), 1);
  const r = rng(7);
  const A = lanes(r), B = lanes(r), C = lanes(r, (x) => fbits((x % 1000) / 8));
  const x = run('v_dot2_f32_bf16 v3, v0, v1, v2', { vgpr: { 0: A, 1: B, 2: C } });
  for (let l = 0; l < N; l++) {
    const want = bfv(A[l]!) * bfv(B[l]!) + bfv(A[l]! >>> 16) * bfv(B[l]! >>> 16) + fval(C[l]!);
    const got = x.vf(3, l);
    if (Number.isNaN(want)) assert.ok(Number.isNaN(got));
    else assert.equal(got, Math.fround(want), `lane ${l}`);
  }
});

test('integer dot products: iu signedness from neg_lo, u variants, clamp', () => {
  const r = rng(3);
  const A = lanes(r), B = lanes(r), C = lanes(r, (x) => x >> 8);
  const dot = (a: number, b: number, bits: number, sa: boolean, sb: boolean) => {
    let s = 0;
    for (let i = 0; i < 32 / bits; i++) {
      const ea = (a >>> (i * bits)) & ((1 << bits) - 1), eb = (b >>> (i * bits)) & ((1 << bits) - 1);
      const va = sa && ea >= 1 << (bits - 1) ? ea - (1 << bits) : ea;
      const vb = sb && eb >= 1 << (bits - 1) ? eb - (1 << bits) : eb;
      s += va * vb;
    }
    return s;
  };
  const cases: [string, number, boolean, boolean][] = [
    ['v_dot4_i32_iu8 v3, v0, v1, v2 neg_lo:[1,1,0]', 8, true, true],
    ['v_dot4_i32_iu8 v3, v0, v1, v2 neg_lo:[0,1,0]', 8, false, true],
    ['v_dot4_i32_iu8 v3, v0, v1, v2', 8, false, false],
    ['v_dot4_u32_u8 v3, v0, v1, v2', 8, false, false],
    ['v_dot8_i32_iu4 v3, v0, v1, v2 neg_lo:[1,1,0]', 4, true, true],
    ['v_dot8_i32_iu4 v3, v0, v1, v2 neg_lo:[1,0,0]', 4, true, false],
    ['v_dot8_u32_u4 v3, v0, v1, v2', 4, false, false],
  ];
  for (const [src, bits, sa, sb] of cases) {
    const x = run(src, { vgpr: { 0: A, 1: B, 2: C } });
    for (let l = 0; l < N; l++) assert.equal(x.v(3, l), (dot(A[l]!, B[l]!, bits, sa, sb) + (C[l]! | 0)) >>> 0, `${src} lane ${l}`);
  }
  assert.equal(run('v_dot4_i32_iu8 v3, v0, v1, v2 neg_lo:[1,1,0] clamp', { vgpr: { 0: 0x7f7f7f7f, 1: 0x7f7f7f7f, 2: 0x7fffff00 }, exec: 1 }).v(3), 0x7fffffff);
  assert.equal(run('v_dot4_u32_u8 v3, v0, v1, v2 clamp', { vgpr: { 0: 0xffffffff, 1: 0xffffffff, 2: 0xffffff00 }, exec: 1 }).v(3), 0xffffffff);
  assert.equal(run('v_dot4_u32_u8 v3, v0, v1, v2', { vgpr: { 0: 0xffffffff, 1: 0xffffffff, 2: 0xffffff00 }, exec: 1 }).v(3), (0xffffff00 + 4 * 255 * 255) >>> 0);
});

// ---------------------------------------------------------------------------------------------
// fma_mix

test('v_fma_mix_f32 / mixlo / mixhi: f32 or f16 halves per op_sel_hi/op_sel, neg and abs (neg_hi)', () => {
  const v0 = pack(h(1.5), h(-3)), v1 = pack(h(2), h(0.25)), v2 = fbits(0.75);
  const o = { vgpr: { 0: v0, 1: v1, 2: v2, 3: 0xdead0000 >>> 0 }, exec: 1 };
  assert.equal(run('v_fma_mix_f32 v3, v0, v1, v2 op_sel_hi:[1,1,0]', o).vf(3), 1.5 * 2 + 0.75);
  assert.equal(run('v_fma_mix_f32 v3, v0, v1, v2 op_sel:[1,1,0] op_sel_hi:[1,1,0]', o).vf(3), -3 * 0.25 + 0.75);
  assert.equal(run('v_fma_mix_f32 v3, -v0, |v1|, v2 op_sel:[1,1,0] op_sel_hi:[1,1,0]', o).vf(3), 3 * 0.25 + 0.75);
  assert.equal(run('v_fma_mix_f32 v3, |v0|, v1, -v2 op_sel:[1,0,0] op_sel_hi:[1,1,0]', o).vf(3), 3 * 2 - 0.75);
  // f32 operands (op_sel_hi = 0): the whole dword
  const f = { vgpr: { 0: fbits(1.25), 1: fbits(-4), 2: pack(0, h(8)) }, exec: 1 };
  assert.equal(run('v_fma_mix_f32 v3, v0, v1, v2 op_sel:[0,0,1] op_sel_hi:[0,0,1]', f).vf(3), 1.25 * -4 + 8);
  const lo = run('v_fma_mixlo_f16 v3, v0, v1, v2 op_sel_hi:[1,1,0]', o).v(3);
  assert.equal(lo, (0xdead0000 | h(3.75)) >>> 0);
  const hi = run('v_fma_mixhi_f16 v3, v0, v1, v2 op_sel_hi:[1,1,0]', { ...o, vgpr: { ...o.vgpr, 3: 0x1234 } }).v(3);
  assert.equal(hi, (h(3.75) << 16 | 0x1234) >>> 0);
  assert.equal(run('v_fma_mix_f32 v3, v0, v1, v2 op_sel_hi:[1,1,0] clamp', o).vf(3), 1);
  // the f32 sum of f16 products rounds once: 2^-24 * 2^-24 + 1 stays 1 in nearest, steps up in +inf mode
  const t = { vgpr: { 0: pack(1, 0), 1: pack(1, 0), 2: fbits(1) }, exec: 1 };
  assert.equal(run('v_fma_mix_f32 v3, v0, v1, v2 op_sel_hi:[1,1,0]', { ...t, mode: 0x3f0 }).v(3), fbits(1));
  assert.equal(run('v_fma_mix_f32 v3, v0, v1, v2 op_sel_hi:[1,1,0]', { ...t, mode: 0x3f1 }).v(3), fbits(1) + 1);
});

// ---------------------------------------------------------------------------------------------
// DPP forms

test('VOP3P DPP16/DPP8 (dot2_f32_f16, fma_mix): src0 lane permutation and row mask', () => {
  const A = Array.from({ length: N }, (_, l) => pack(h(l + 1), h(1)));
  const o = { vgpr: { 0: A, 1: pack(h(1), h(0)), 2: 0, 3: 0xcccccccc } };
  const x = run('v_dot2_f32_f16_e64_dpp v3, v0, v1, v2 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf', o);
  for (let l = 0; l < N; l++) assert.equal(x.vf(3, l), (l & ~3) + (3 - (l & 3)) + 1, `quad_perm lane ${l}`);
  const y = run('v_dot2_f32_f16_e64_dpp v3, v0, v1, v2 dpp8:[7,6,5,4,3,2,1,0]', o);
  for (let l = 0; l < N; l++) assert.equal(y.vf(3, l), 7 - l + 1, `dpp8 lane ${l}`);
  const z = run('v_fma_mix_f32_e64_dpp v3, v0, v1, v2 op_sel_hi:[1,1,0] row_shl:1 row_mask:0xf bank_mask:0x1', o);
  for (let l = 0; l < N; l++) assert.equal(z.v(3, l), l < 4 ? fbits(l + 2) : 0xcccccccc, `row_shl/bank_mask lane ${l}`);
});

// ---------------------------------------------------------------------------------------------
// WMMA

type AB = 'f16' | 'bf16' | 'iu8' | 'iu4';
/** Place A (row-major 16x16) and B (k-major 16x16) into lanes per the ISA layout, replicated in every 16-lane group. */
function wmmaInputs(ab: AB, A: number[], B: number[], ws: 32 | 64, aReg: number, bReg: number): Record<number, number[]> {
  const per = ab === 'iu4' ? 8 : ab === 'iu8' ? 4 : 2;
  const bits = 32 / per;
  const out: Record<number, number[]> = {};
  for (let r = 0; r < 16 / per; r++) {
    out[aReg + r] = new Array(ws).fill(0);
    out[bReg + r] = new Array(ws).fill(0);
  }
  for (let l = 0; l < ws; l++) {
    const i = l & 15;
    for (let k = 0; k < 16; k++) {
      const r = Math.floor(k / per), sh = (k % per) * bits, mask = (1 << bits) - 1;
      out[aReg + r]![l] = (out[aReg + r]![l]! | ((A[i * 16 + k]! & mask) << sh)) >>> 0;
      out[bReg + r]![l] = (out[bReg + r]![l]! | ((B[k * 16 + i]! & mask) << sh)) >>> 0;
    }
  }
  return out;
}
/** (m, n) -> [VGPR offset, lane] of C/D: wave32 row 2v + l/16; wave64 = two wave32 halves. */
function cdSlot(m: number, n: number, ws: 32 | 64): [number, number] {
  const v = m >> 1;
  return ws === 32 ? [v, n + 16 * (m & 1)] : [v & 3, n + 16 * (m & 1) + 32 * (v >> 2)];
}

for (const ws of [32, 64] as const) {
  test(`WMMA wave${ws}: f32 <- f16/bf16, f16/bf16 <- f16/bf16 (op_sel halves), i32 <- iu8/iu4 (signedness, clamp)`, () => {
    const r = rng(ws);
    const nd = ws === 32 ? 8 : 4;
    // C/D are 8-VGPR tuples in wave32 and 4 in wave64, as llvm-mc reads them (+wavefrontsize64).
    const t = nd;
    const exec = { exec: 0xffffffff, execHi: 0xffffffff };
    // f16 inputs: small integers/halves so the sums are exact
    const smallF = () => ((r() % 17) - 8) / 2;
    const Af = Array.from({ length: 256 }, smallF), Bf = Array.from({ length: 256 }, smallF), Cf = Array.from({ length: 256 }, smallF);
    const ref = (A: number[], B: number[], C: number[], m: number, n: number) => {
      let s = C[m * 16 + n]!;
      for (let k = 0; k < 16; k++) s += A[m * 16 + k]! * B[k * 16 + n]!;
      return s;
    };
    const cVgprs = (enc: (x: number) => number, half: 'lo' | 'hi' | 'full', base: number[]): Record<number, number[]> => {
      const o: Record<number, number[]> = {};
      for (let v = 0; v < nd; v++) o[16 + v] = new Array(ws).fill(half === 'full' ? 0 : 0x5a5a5a5a);
      for (let m = 0; m < 16; m++) for (let n = 0; n < 16; n++) {
        const [v, l] = cdSlot(m, n, ws);
        const b = enc(base[m * 16 + n]!);
        const old = o[16 + v]![l]!;
        o[16 + v]![l] = half === 'full' ? b >>> 0 : half === 'lo' ? ((old & 0xffff0000) | b) >>> 0 : ((old & 0xffff) | (b << 16)) >>> 0;
      }
      return o;
    };
    const bfb = (x: number) => fbits(x) >>> 16;
    /** x (exact in f32) rounded to bfloat16, nearest even. */
    const bfr = (x: number) => {
      const b = fbits(x);
      let hi = b >>> 16;
      const lo = b & 0xffff;
      if (lo > 0x8000 || (lo === 0x8000 && (hi & 1) === 1)) hi++;
      return bfv(hi);
    };
    for (const [name, ab, enc, dec, rnd] of [['f16', 'f16', h, hv, (x: number) => x], ['bf16', 'bf16', bfb, bfv, bfr]] as const) {
      const vg = { ...wmmaInputs(ab, Af.map(enc), Bf.map(enc), ws, 0, 8), ...cVgprs(fbits, 'full', Cf) };
      const x = runAsm(`v_wmma_f32_16x16x16_${name} v[24:${23 + t}], v[0:7], v[8:15], v[16:${15 + t}]\ns_endpgm`, { waveSize: ws, vgpr: vg, ...exec });
      assert.deepEqual(x.diags.map((d) => d.id), []);
      for (let m = 0; m < 16; m++) for (let n = 0; n < 16; n++) {
        const [v, l] = cdSlot(m, n, ws);
        assert.equal(x.vf(24 + v, l), ref(Af, Bf, Cf, m, n), `f32_${name} (${m},${n})`);
      }
      // 16-bit result in the low / high half (op_sel[2]); the other half is kept
      for (const hi of [false, true]) {
        const vg16 = { ...wmmaInputs(ab, Af.map(enc), Bf.map(enc), ws, 0, 8), ...cVgprs(enc, hi ? 'hi' : 'lo', Cf) };
        const y = runAsm(`v_wmma_${name}_16x16x16_${name} v[16:${15 + t}], v[0:7], v[8:15], v[16:${15 + t}]${hi ? ' op_sel:[0,0,1]' : ''}\ns_endpgm`, { waveSize: ws, vgpr: vg16, ...exec });
        for (let m = 0; m < 16; m++) for (let n = 0; n < 16; n++) {
          const [v, l] = cdSlot(m, n, ws);
          const d = y.v(16 + v, l);
          assert.equal(dec(hi ? d >>> 16 : d & 0xffff), rnd(ref(Af, Bf, Cf, m, n)), `${name} (${m},${n}) hi=${hi}`);
          assert.equal(hi ? d & 0xffff : d >>> 16, 0x5a5a, 'other half kept');
        }
      }
    }
    // integer
    for (const [ab, bits] of [['iu8', 8], ['iu4', 4]] as const) {
      const Ai = Array.from({ length: 256 }, () => r() & ((1 << bits) - 1));
      const Bi = Array.from({ length: 256 }, () => r() & ((1 << bits) - 1));
      const Ci = Array.from({ length: 256 }, () => (r() | 0) >> 4);
      const sx = (x: number) => (x >= 1 << (bits - 1) ? x - (1 << bits) : x);
      const regs = ab === 'iu8' ? 4 : 2;
      for (const [mods, sa, sb] of [['', false, false], [' neg_lo:[1,1,0]', true, true], [' neg_lo:[0,1,0]', false, true]] as const) {
        const vg = { ...wmmaInputs(ab, Ai, Bi, ws, 0, 8), ...cVgprs((x) => x, 'full', Ci) };
        const x = runAsm(`v_wmma_i32_16x16x16_${ab} v[24:${23 + t}], v[0:${regs - 1}], v[8:${7 + regs}], v[16:${15 + t}]${mods}\ns_endpgm`, { waveSize: ws, vgpr: vg, ...exec });
        const A2 = Ai.map((v) => (sa ? sx(v) : v)), B2 = Bi.map((v) => (sb ? sx(v) : v));
        for (let m = 0; m < 16; m++) for (let n = 0; n < 16; n++) {
          const [v, l] = cdSlot(m, n, ws);
          assert.equal(x.v(24 + v, l), ref(A2, B2, Ci, m, n) >>> 0, `${ab}${mods} (${m},${n})`);
        }
      }
      // clamp saturates the i32 result
      const big = Array.from({ length: 256 }, () => 0x7fffff00);
      const ones = Array.from({ length: 256 }, () => (1 << (bits - 1)) - 1);
      const vg = { ...wmmaInputs(ab, ones, ones, ws, 0, 8), ...cVgprs((x) => x, 'full', big) };
      const c = runAsm(`v_wmma_i32_16x16x16_${ab} v[24:${23 + t}], v[0:${regs - 1}], v[8:${7 + regs}], v[16:${15 + t}] clamp\ns_endpgm`, { waveSize: ws, vgpr: vg, ...exec });
      assert.equal(c.v(24, 0), 0x7fffffff);
    }
  });
}

test('WMMA: inline constant C, and the EXEC / lane-replication diagnostics (quiet on clean code)', () => {
  const A = Array.from({ length: 256 }, () => 1), B = Array.from({ length: 256 }, () => 1);
  const vg = wmmaInputs('f16', A.map(h), B.map(h), 32, 0, 8);
  const x = runAsm('v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], 1.0\ns_endpgm', { vgpr: vg });
  assert.equal(x.vf(16, 0), 17);
  assert.equal(x.vf(23, 31), 17);
  assert.deepEqual(x.diags, []);
  const y = runAsm('v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], 0\ns_endpgm', { vgpr: vg, exec: 0xffff });
  assert.deepEqual(y.diags.map((d) => d.id), ['gfx11.wmma.exec-not-full']);
  assert.equal(y.vf(16, 31), 16, 'WMMA computes every lane whatever EXEC');
  // D overlapping A: every input is read before D is written
  const ov = runAsm('v_wmma_f32_16x16x16_f16 v[0:7], v[0:7], v[8:15], 0\ns_endpgm', { vgpr: vg });
  for (let l = 0; l < 32; l++) assert.equal(ov.vf(l & 7, l), 16, `in-place lane ${l}`);
  const bad = { ...vg, 3: vg[3]!.map((v, l) => (l === 20 ? v ^ 1 : v)) };
  const z = runAsm('v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], 0\ns_endpgm', { vgpr: bad });
  assert.deepEqual(z.diags.map((d) => d.id), ['gfx11.wmma.ab-lanes-differ']);
});

test('VOP3P out-of-range VGPRs: a source reads VGPR0, a destination makes the op a NOP (diagnosed; quiet in range)', () => {
  const src = runAsm('v_pk_add_u16 v3, v9, v1\ns_endpgm', { vgprs: 8, vgpr: { 0: pack(1, 2), 1: pack(10, 20), 9: 0 }, exec: 1 });
  assert.equal(src.v(3), pack(11, 22));
  assert.deepEqual(src.diags.map((d) => d.id), ['gfx11.vgpr.src-out-of-range']);
  const dst = runAsm('v_fma_mix_f32 v9, v0, v1, v2\ns_endpgm', { vgprs: 8, exec: 1 });
  assert.deepEqual(dst.diags.map((d) => d.id), ['gfx11.vgpr.dst-out-of-range']);
  const wm = runAsm('v_wmma_f32_16x16x16_f16 v[4:11], v[0:7], v[8:15], 0\ns_endpgm', { vgprs: 8 });
  assert.deepEqual([...new Set(wm.diags.map((d) => d.id))].sort(), ['gfx11.vgpr.dst-out-of-range', 'gfx11.vgpr.src-out-of-range']);
  const ok = runAsm('v_pk_add_u16 v3, v7, v1\nv_fma_mix_f32 v7, v0, v1, v2\ns_endpgm', { vgprs: 8, exec: 1 });
  assert.deepEqual(ok.diags, []);
});

// ---------------------------------------------------------------------------------------------
// VINTERP / LDSDIR

test('v_interp_p10/p2 (f32, f16, rtz): quad-relative P0/P10/P20 reads', () => {
  // per quad: lane 0 P0, lane 1 P10, lane 2 P20 (as lds_param_load leaves them)
  const P = [1.5, 0.25, -2, 0, 10, 3, 0.5, 0];
  const I = [0.5, 0.25, 2, 4, 1, -1, 8, 0.125];
  const J = [2, 4, 0.5, 1, 0.25, 2, 1, 3];
  const o = { vgprF32: { 0: P, 1: I, 2: J } };
  const x = run('v_interp_p10_f32 v3, v0, v1, v0\nv_interp_p2_f32 v4, v0, v2, v3', o);
  for (let l = 0; l < N; l++) {
    const q = l & ~3;
    const t = Math.fround(P[q + 1]! * I[l]! + P[q]!);
    assert.equal(x.vf(3, l), t, `p10 lane ${l}`);
    assert.equal(x.vf(4, l), Math.fround(P[q + 2]! * J[l]! + t), `p2 lane ${l}`);
  }
  // vdst aliasing a quad-read source: every lane reads before any writes
  const y = run('v_interp_p10_f32 v0, v0, v1, v0', o);
  for (let l = 0; l < N; l++) assert.equal(y.vf(0, l), Math.fround(P[(l & ~3) + 1]! * I[l]! + P[l & ~3]!), `alias lane ${l}`);
  // f16 variants: P in f16 halves (high half via op_sel), I/J f32, p2 writes an f16 half
  const Ph = P.map((p) => pack(0, h(p)));
  const z = run('v_interp_p10_f16_f32 v3, v0, v1, v0 op_sel:[1,0,1,0]\nv_interp_p2_f16_f32 v4, v0, v2, v3 op_sel:[1,0,0,1]', { vgpr: { 0: Ph, 4: 0x1111 }, vgprF32: { 1: I, 2: J } });
  for (let l = 0; l < N; l++) {
    const q = l & ~3;
    const t = P[q + 1]! * I[l]! + P[q]!;
    assert.equal(z.vf(3, l), t, `p10_f16 lane ${l}`);
    assert.equal(z.v(4, l), ((h(P[q + 2]! * J[l]! + t) << 16) | 0x1111) >>> 0, `p2_f16 lane ${l}`);
  }
  // 1 * 3*2^-12 + 1 = 1 + 3/4 ulp: nearest gives 1 + 2^-10, rtz 1
  const w = run('v_interp_p2_rtz_f16_f32 v4, v0, v1, v2\nv_interp_p2_f16_f32 v5, v0, v1, v2', { vgpr: { 0: h(1), 4: 0, 5: 0 }, vgprF32: { 1: 3 * 2 ** -12, 2: 1 }, exec: 0b100 });
  assert.equal(w.v(4, 2) & 0xffff, 0x3c00);
  assert.equal(w.v(5, 2) & 0xffff, 0x3c01);
});

test('lds_direct_load: M0 address and data type, broadcast to active lanes; lds_param_load quad layout', () => {
  // the harness allocates zeroed LDS: write it through ds_store first
  const prog = (m0: number) => `v_mov_b32 v0, 0\nv_mov_b32 v1, 0x8281f0e1\nds_store_b32 v0, v1 offset:16\ns_waitcnt lgkmcnt(0)\ns_mov_b32 m0, ${m0}\nlds_direct_load v3\ns_endpgm`;
  const cases: [number, number][] = [[0x00010, 0xe1], [0x10011, 0x81f0], [0x20010, 0x8281f0e1], [0x40013, 0xffffff82], [0x50012, 0xffff8281]];
  for (const [m0, want] of cases) {
    const x = runAsm(prog(m0), { exec: 0b1011, vgpr: { 3: 0xcccccccc } });
    assert.equal(x.v(3, 0), want, `m0 0x${m0.toString(16)}`);
    assert.equal(x.v(3, 3), want);
    assert.equal(x.v(3, 2), 0xcccccccc, 'inactive lane kept');
    assert.deepEqual(x.diags.map((d) => d.id), []);
  }
  const oor = runAsm('lds_direct_load v3\ns_endpgm', { sgpr: { 125: 0x2fffe }, ldsBytes: 1024, vgpr: { 3: 5 } });
  assert.deepEqual(oor.diags.map((d) => d.id), ['gfx11.ldsdir.out-of-range']);
  assert.equal(oor.v(3), 0);
  // lds_param_load attr1.y: quad q reads primitive p (new_prim_mask in M0[31:17]); lanes P0, P10, P20, 0
  const stride = 32 * 48;
  const stores: string[] = ['v_mov_b32 v0, 0'];
  const val = (p: number, vtx: number) => 100 * p + vtx + 1;
  for (let p = 0; p < 2; p++) for (let vtx = 0; vtx < 3; vtx++) {
    stores.push(`v_mov_b32 v1, ${val(p, vtx)}`, `ds_store_b32 v0, v1 offset:${64 + p * stride + 48 + vtx * 16 + 4}`);
  }
  const src = `${stores.join('\n')}\ns_waitcnt lgkmcnt(0)\ns_mov_b32 m0, ${64 | (1 << 17)}\nlds_param_load v3, attr1.y\ns_endpgm`;
  const y = runAsm(src, { exec: 0xff });
  for (let l = 0; l < 8; l++) {
    const p = l >> 2;
    assert.equal(y.v(3, l), (l & 3) === 3 ? 0 : val(p, l & 3), `param lane ${l}`);
  }
});

// ---------------------------------------------------------------------------------------------

test('coverage: every VOP3P, VOPD, VINTERP and LDSDIR mnemonic of the gfx1100 tables has semantics', () => {
  const have = new Set(implemented());
  const names = [
    ...Object.values(VOP3P_OPS).map((o) => o.mnemonic),
    ...Object.values(VOPD_X).map((o) => o.mnemonic),
    ...Object.values(VOPD_Y).map((o) => o.mnemonic),
    ...Object.values(VINTERP_OPS).map((o) => o.mnemonic),
    ...Object.values(LDSDIR_OPS).map((o) => o.mnemonic),
  ];
  /** Mnemonics deliberately without semantics, with the reason. */
  const LEFT: Record<string, string> = {};
  const missing = [...new Set(names)].filter((n) => !have.has(n) && !(n in LEFT));
  assert.deepEqual(missing, []);
});
