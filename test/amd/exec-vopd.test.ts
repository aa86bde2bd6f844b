/**
 * VOPD (v_dual_X :: v_dual_Y) semantics in assembly: every X and Y op against the RDNA3 ISA
 * definition of its VOP2/VOP1 twin computed here, the read-all-then-write ordering, the shared
 * literal (fmaak/fmamk K and src0 literals), VCC for cndmask, EXEC, wave64, and the rules: a
 * source VGPR out of range reads VGPRaddr % 4 (wave-state seed), a destination out of range writes
 * nothing, and bank conflicts are diagnosed (each rule with a test that stays quiet on clean code).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm, type AsmRunOptions } from './exec-harness.js';
import { VOPD_X, VOPD_Y } from '../../src/amd/isa/gfx11/vopd.gen.js';
import { assembleLine } from '../../src/amd/isa/target.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';

/**
 * A VOPD pair llvm-mc (and gpusim's assembler) refuses for its banks, as `.long` words: a legal
 * pair assembled, then the Y half's src0 (`srcY0`, dword 1 [8:0]) or vsrc1 (dword 1 [16:9]) set.
 */
function conflicting(legal: string, field: 'srcY0' | 'vsrcY1', vgpr: number): string {
  const w = assembleLine(gfx11, legal);
  w[1] = field === 'srcY0' ? ((w[1]! & ~0x1ff) | (256 + vgpr)) >>> 0 : ((w[1]! & ~(0xff << 9)) | (vgpr << 9)) >>> 0;
  return `.long ${w.map((x) => '0x' + x.toString(16)).join(', ')}`;
}

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const fbits = (x: number): number => ((F32[0] = x), U32[0]!);
const fval = (b: number): number => ((U32[0] = b >>> 0), F32[0]!);
/** binary16 bits of an exact normal value. */
function h(x: number): number {
  if (x === 0) return 0;
  const s = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  return s | ((e + 15) << 10) | ((a / 2 ** e - 1) * 1024);
}

const N = 8;
const A = [1.5, -2, 0, 3.25, Infinity, -0, 7, 0.125];
const B = [2, 0.5, Infinity, -1, 0, 4, -0.25, 8];
const D = [1, 2, 3, 4, 5, 6, 7, 8];
const I0 = [5, 0xffffffff, 0x80000000, 31, 7, 0x12345678, 1, 0];
const I1 = [3, 2, 0xffff0000, 0x0f0f0f0f, 0xffffffff, 0x87654321, 0x80000000, 9];
const K = 0x40400000; // 3.0
const Kv = 3;
const VCC = 0b10110010;

/** Per-lane reference for an op: float ops return a number (NaN allowed), bit ops a u32 via {u}. */
type Ref = (a: number, b: number, d: number, l: number) => number | { u: number };
const FLOAT_OPS: Record<string, Ref> = {
  v_dual_fmac_f32: (a, b, d) => a * b + d,
  v_dual_fmaak_f32: (a, b) => a * b + Kv,
  v_dual_fmamk_f32: (a, b) => a * Kv + b,
  v_dual_mul_f32: (a, b) => a * b,
  v_dual_add_f32: (a, b) => a + b,
  v_dual_sub_f32: (a, b) => a - b,
  v_dual_subrev_f32: (a, b) => b - a,
  v_dual_mul_dx9_zero_f32: (a, b) => (a === 0 || b === 0 ? 0 : a * b),
  v_dual_mov_b32: (a) => a,
  v_dual_cndmask_b32: (a, b, _d, l) => ((VCC >>> l) & 1 ? b : a),
  v_dual_max_f32: (a, b) => (a > b || (a === b && Object.is(b, -0)) ? a : b),
  v_dual_min_f32: (a, b) => (a < b || (a === b && Object.is(a, -0)) ? a : b),
};
const INT_OPS: Record<string, (a: number, b: number) => number> = {
  v_dual_add_nc_u32: (a, b) => (a + b) >>> 0,
  v_dual_lshlrev_b32: (a, b) => (b << (a & 31)) >>> 0,
  v_dual_and_b32: (a, b) => (a & b) >>> 0,
};

/** Operand text of an op in a slot: dst, src0, vsrc1. */
function opText(op: string, d: number, s0: number, s1: number): string {
  const sh = VOPD_X[Object.keys(VOPD_X).find((k) => VOPD_X[Number(k)]!.mnemonic === op) as unknown as number]?.shape
    ?? Object.values(VOPD_Y).find((o) => o.mnemonic === op)!.shape;
  const parts = sh.map((s) => (s === 'vdst' ? `v${d}` : s === 'src0' ? `v${s0}` : s === 'vsrc1' ? `v${s1}` : '0x' + K.toString(16)));
  return `${op} ${parts.join(', ')}`;
}

function run(src: string, o: AsmRunOptions = {}) {
  return runAsm(`${src}\ns_endpgm`, { exec: (1 << N) - 1, ...o });
}
function checkF(got: number, want: number, what: string): void {
  const w = Math.fround(want);
  if (Number.isNaN(w)) assert.ok(Number.isNaN(fval(got)), what);
  else assert.equal(got, fbits(w), what);
}

test('every VOPD op in the X slot and in the Y slot computes its VALU twin', () => {
  // X reads v0/v1 (banks 0/1) and writes v10; Y reads v5/v6 (banks 1/2) and writes v11.
  const fv = { 0: A, 1: B, 5: A, 6: B, 10: D, 11: D, 4: A };
  const iv = { 0: I0, 1: I1, 5: I0, 6: I1, 4: I0 };
  const xs = new Set(Object.values(VOPD_X).map((o) => o.mnemonic));
  const ys = new Set(Object.values(VOPD_Y).map((o) => o.mnemonic));
  for (const op of [...new Set([...xs, ...ys])]) {
    if (op === 'v_dual_dot2acc_f32_f16') continue; // packed f16 operands: below
    for (const slot of ['x', 'y'] as const) {
      if (slot === 'x' ? !xs.has(op) : !ys.has(op)) continue;
      const src = slot === 'x' ? `${opText(op, 10, 0, 1)} :: v_dual_mov_b32 v11, v5` : `v_dual_mov_b32 v10, v4 :: ${opText(op, 11, 5, 6)}`;
      const dst = slot === 'x' ? 10 : 11;
      const isInt = op in INT_OPS;
      const x = run(src, isInt ? { vgpr: iv } : { vgprF32: fv, sgpr: { 106: VCC } });
      for (let l = 0; l < N; l++) {
        if (isInt) assert.equal(x.v(dst, l), INT_OPS[op]!(I0[l]!, I1[l]!), `${src} lane ${l}`);
        else checkF(x.v(dst, l), FLOAT_OPS[op]!(A[l]!, B[l]!, D[l]!, l) as number, `${src} lane ${l}`);
      }
      assert.deepEqual(x.diags.map((d) => d.id), [], src);
    }
  }
});

test('v_dual_dot2acc_f32_f16 accumulates packed f16 products into its destination (both slots)', () => {
  const a = Array.from({ length: N }, (_, l) => ((h(l + 1) | (h(-0.5) << 16)) >>> 0));
  const b = Array.from({ length: N }, (_, l) => ((h(2) | (h(l) << 16)) >>> 0));
  const d = Array.from({ length: N }, (_, l) => fbits(l * 0.25));
  const x = run('v_dual_dot2acc_f32_f16 v10, v0, v1 :: v_dual_dot2acc_f32_f16 v11, v5, v6', { vgpr: { 0: a, 1: b, 5: a, 6: b, 10: d, 11: d } });
  for (let l = 0; l < N; l++) {
    const want = (l + 1) * 2 + -0.5 * l + l * 0.25;
    assert.equal(x.vf(10, l), want);
    assert.equal(x.vf(11, l), want);
  }
});

test('both halves read every source before either writes; literals and constants are shared', () => {
  // swap through the pair: X writes v4 which Y reads, Y writes v1 which X reads
  const s = run('v_dual_mov_b32 v4, v1 :: v_dual_mov_b32 v1, v4', { vgpr: { 1: 11, 4: 44 } });
  assert.equal(s.v(4), 11);
  assert.equal(s.v(1), 44);
  // fmac in X accumulates into v2 while Y reads the old v2
  const f = run('v_dual_fmac_f32 v2, v0, v1 :: v_dual_mov_b32 v3, v2', { vgprF32: { 0: 2, 1: 3, 2: 1 } });
  assert.equal(f.vf(2), 7);
  assert.equal(f.vf(3), 1);
  // one literal serves src0 of X and the K of Y
  const k = run('v_dual_mov_b32 v10, 0x40400000 :: v_dual_fmaak_f32 v11, v5, v6, 0x40400000', { vgprF32: { 5: 2, 6: 5 } });
  assert.equal(k.vf(10), 3);
  assert.equal(k.vf(11), 13);
  const c = run('v_dual_mov_b32 v10, s3 :: v_dual_mul_f32 v11, 1.0, v6', { sgpr: { 3: 77 }, vgprF32: { 6: 2.5 } });
  assert.equal(c.v(10), 77);
  assert.equal(c.vf(11), 2.5);
});

test('EXEC masks both halves; wave64 runs all 64 lanes', () => {
  const x = run('v_dual_cndmask_b32 v10, v0, v1 :: v_dual_and_b32 v11, v5, v6', { vgpr: { 0: 1, 1: 2, 5: 0xff, 6: 0x0f, 10: 9, 11: 9 }, sgpr: { 106: 0b100 }, exec: 0b101 });
  assert.deepEqual([x.v(10, 0), x.v(10, 1), x.v(10, 2)], [1, 9, 2]);
  assert.deepEqual([x.v(11, 0), x.v(11, 1), x.v(11, 2)], [0x0f, 9, 0x0f]);
  const lanes = Array.from({ length: 64 }, (_, l) => l);
  // LLVM has no wave64 VOPD text (llvm-mc: "instruction requires wavesize=32"): the words come from wave32 text.
  const w = runAsm('v_dual_mov_b32 v10, v0 :: v_dual_lshlrev_b32 v11, v5, v6\ns_endpgm', { waveSize: 64, asmWave: 32, vgpr: { 0: lanes, 5: 1, 6: lanes }, execHi: 0x80000000 });
  assert.equal(w.v(10, 63), 63);
  assert.equal(w.v(11, 63), 126);
  assert.equal(w.v(10, 40), 0);
  // wave64 cndmask reads the 64-bit VCC
  const c = runAsm('v_dual_cndmask_b32 v10, v0, v1 :: v_dual_mov_b32 v11, v5\ns_endpgm', { waveSize: 64, asmWave: 32, vgpr: { 0: 1, 1: 2 }, sgpr: { 106: 1, 107: 0x80000000 } });
  assert.deepEqual([c.v(10, 0), c.v(10, 1), c.v(10, 62), c.v(10, 63)], [2, 1, 1, 2]);
});

test('a source VGPR out of range reads VGPRaddr % 4 (not VGPR0), diagnosed; in range stays quiet', () => {
  const vg = { 0: 100, 1: 101, 2: 102, 3: 103, 5: 5, 6: 6 };
  const x = runAsm('v_dual_mov_b32 v10, v18 :: v_dual_add_nc_u32 v11, v5, v23\ns_endpgm', { vgprs: 16, vgpr: vg });
  assert.equal(x.v(10), 102); // 18 % 4
  assert.equal(x.v(11), 5 + 103); // 23 % 4
  assert.deepEqual(x.diags.map((d) => d.id), ['gfx11.vopd.src-out-of-range', 'gfx11.vopd.src-out-of-range']);
  const q = runAsm('v_dual_mov_b32 v10, v2 :: v_dual_add_nc_u32 v11, v5, v3\ns_endpgm', { vgprs: 16, vgpr: vg });
  assert.deepEqual(q.diags, []);
  assert.equal(q.v(10), 102);
});

test('a destination out of range writes neither half', () => {
  const x = runAsm('v_dual_mov_b32 v10, v0 :: v_dual_mov_b32 v17, v5\ns_endpgm', { vgprs: 16, vgpr: { 0: 1, 5: 2, 10: 9 } });
  assert.equal(x.v(10), 9);
  assert.deepEqual(x.diags.map((d) => d.id), ['gfx11.vgpr.dst-out-of-range']);
});

test('bank conflicts between the halves are diagnosed', () => {
  // srcX0 v0 and srcY0 v4 share bank 0
  const x = run(conflicting('v_dual_mov_b32 v10, v0 :: v_dual_mov_b32 v11, v5', 'srcY0', 4), { vgpr: { 0: 1, 4: 2 } });
  assert.deepEqual(x.diags.map((d) => d.id), ['gfx11.vopd.bank-conflict']);
  assert.equal(x.v(10), 1);
  assert.equal(x.v(11), 2);
  const y = run(conflicting('v_dual_add_f32 v10, v0, v1 :: v_dual_add_nc_u32 v11, v6, v10', 'vsrcY1', 9), {});
  assert.deepEqual(y.diags.map((d) => d.id), ['gfx11.vopd.bank-conflict']);
});
