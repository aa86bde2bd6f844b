/**
 * GFX9/GFX10.3 parameter interpolation executed (src/amd/exec/vintrp.ts): LDS preloaded through
 * the shared layout (paramAddr) for two primitives, M0 from primMaskM0, and every lane's result
 * checked against a CPU reference of the ISA formulas (P0 + I*P10, + J*P20; f16 forms on the LDS
 * dword halves). Also: EXEC masking, GFX9 zeroing / GFX10 keeping an f16 result's high half,
 * the VOP3 modifiers, and the LDS out-of-range diagnostic (firing and quiet).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { targets } from '../../src/amd/isa/targets.js';
import { paramAddr, primMaskM0, primOfQuad, type ParamVertex } from '../../src/amd/exec/vintrp.js';
import { f16, f16bits, f32, f32bits } from '../../src/core/float.js';
import type { Wave } from '../../src/amd/wave/wave.js';
import { runAsm } from './exec-harness.js';

const gfx9 = targets.gfx900!;
const gfx10 = targets.gfx1030!;

/** Per primitive p, attribute a, channel c: P0, P10, P20 (exact in f16 and f32). */
const P = (p: number, a: number, c: number): [number, number, number] => [1.5 + p + 0.25 * c - a, 2 - p * 0.5 + c, -0.5 + 0.125 * a - 0.25 * p];

function preload(w: Wave, prims: number, f16Hi = false): void {
  for (let p = 0; p < prims; p++) for (let a = 0; a < 4; a++) for (let c = 0; c < 4; c++) {
    P(p, a, c).forEach((x, v) => {
      const at = paramAddr(0, p, a, v as ParamVertex, c);
      // attributes 0/1 as f32, 2/3 as two f16 (low: x, high: -x)
      if (a < 2) w.ldsView.setUint32(at, f32bits(x), true);
      else w.ldsView.setUint32(at, (f16bits(x) | (f16bits(f16Hi ? -x : x) << 16)) >>> 0, true);
    });
  }
}

const I = (l: number) => 0.25 * (l % 4) + 0.0625 * (l >> 2);
const J = (l: number) => 0.5 - 0.125 * (l % 4);
const fma32 = (a: number, b: number, c: number) => Math.fround(a * b + c); // exact inputs: a*b+c is exact in double

for (const [t, ws, gfx] of [[gfx10, 32, 10], [gfx9, 64, 9]] as const) {
  // quads 2 and 5 start primitives 1 and 2
  const m0 = primMaskM0(gfx, (1 << 2) | (1 << 5));
  const primOf = (l: number) => primOfQuad(gfx, m0, l >> 2);
  const vgpr = { 0: Array.from({ length: ws }, (_, l) => f32bits(I(l))), 1: Array.from({ length: ws }, (_, l) => f32bits(J(l))), 9: 0xdead0000 };

  test(`${t.mcpu}: v_interp_p1/p2/mov_f32 interpolate each quad's primitive`, () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map((q) => primOfQuad(gfx, m0, q)), [0, 0, 1, 1, 1, 2, 2, 2]);
    const r = runAsm([
      's_mov_b32 m0, s0',
      'v_interp_p1_f32 v2, v0, attr1.z', 'v_interp_p2_f32 v2, v1, attr1.z',
      'v_interp_mov_f32 v3, p0, attr0.y', 'v_interp_mov_f32 v4, p10, attr1.w', 'v_interp_mov_f32_e64 v5, p20, attr0.x',
      'v_interp_p1_f32_e64 v6, -v0, attr0.w', 'v_interp_p2_f32_e64 v6, v1, attr0.w clamp',
      's_endpgm',
    ].join('\n'), { target: t, waveSize: ws, sgpr: { 0: m0 }, vgpr, onWave: (w) => preload(w, 3) });
    assert.deepEqual(r.diags.map((d) => d.id), []);
    for (let l = 0; l < ws; l++) {
      const p = primOf(l);
      const [a0, a10, a20] = P(p, 1, 2);
      assert.equal(r.vf(2, l), fma32(a20, J(l), fma32(a10, I(l), a0)), `lane ${l} p1/p2`);
      assert.equal(r.vf(3, l), P(p, 0, 1)[0]);
      assert.equal(r.vf(4, l), P(p, 1, 3)[1]);
      assert.equal(r.vf(5, l), P(p, 0, 0)[2]);
      const [b0, b10, b20] = P(p, 0, 3);
      assert.equal(r.vf(6, l), Math.min(1, Math.max(0, fma32(b20, J(l), fma32(b10, -I(l), b0)))), `lane ${l} neg/clamp`);
    }
  });

  test(`${t.mcpu}: f16 interpolation (p1ll, p1lv, p2_f16) reads the LDS dword's low or high half`, () => {
    const r = runAsm([
      's_mov_b32 m0, s0',
      'v_interp_p1ll_f16 v2, v0, attr2.y', 'v_mov_b32 v3, v9', 'v_interp_p2_f16 v3, v1, attr2.y, v2',
      'v_interp_p1ll_f16 v4, v0, attr3.x high', 'v_mov_b32 v5, v9', 'v_interp_p2_f16 v5, v1, attr3.x, v4 high',
      'v_mov_b32 v6, 0x3c00', 'v_interp_p1lv_f16 v7, v0, attr2.z, v6',
      's_endpgm',
    ].join('\n'), { target: t, waveSize: ws, sgpr: { 0: m0 }, vgpr, onWave: (w) => preload(w, 3, true) });
    assert.deepEqual(r.diags.map((d) => d.id), []);
    const hi = gfx === 9 ? 0 : 0xdead0000;
    for (let l = 0; l < ws; l++) {
      const p = primOf(l);
      const [a0, a10, a20] = P(p, 2, 1);
      const t1 = fma32(a10, I(l), a0);
      assert.equal(r.vf(2, l), t1, `lane ${l} p1ll`);
      assert.equal(r.v(3, l), (hi | f16bits(a20 * J(l) + t1)) >>> 0, `lane ${l} p2_f16`);
      const [b0, b10, b20] = P(p, 3, 0).map((x) => -x) as [number, number, number];
      const t2 = fma32(b10, I(l), b0);
      assert.equal(r.vf(4, l), t2, `lane ${l} p1ll high`);
      assert.equal(f16(r.v(5, l) & 0xffff), f16(f16bits(b20 * J(l) + t2)), `lane ${l} p2_f16 high`);
      assert.equal(r.vf(7, l), fma32(P(p, 2, 2)[1], I(l), 1), `lane ${l} p1lv`);
    }
  });

  test(`${t.mcpu}: lanes off in EXEC keep their VGPRs`, () => {
    const r = runAsm('s_mov_b32 m0, s0\nv_interp_p1_f32 v9, v0, attr0.x\ns_endpgm', { target: t, waveSize: ws, sgpr: { 0: m0 }, vgpr, exec: 0x0000f0f0, execHi: 0, onWave: (w) => preload(w, 3) });
    for (let l = 0; l < ws; l++) {
      const onLane = l < 32 && ((0xf0f0 >>> l) & 1) === 1;
      if (onLane) assert.equal(r.vf(9, l), fma32(P(primOf(l), 0, 0)[1], I(l), P(primOf(l), 0, 0)[0]));
      else assert.equal(r.v(9, l), 0xdead0000);
    }
  });

  test(`${t.mcpu}: an interpolation past the wave's LDS reads 0 and reports amd.vintrp.lds-out-of-range`, () => {
    const r = runAsm('s_mov_b32 m0, s0\nv_interp_mov_f32 v2, p0, attr0.x\ns_endpgm', { target: t, waveSize: ws, sgpr: { 0: 0xfff0 }, vgpr, ldsBytes: 0x1000 });
    assert.deepEqual(r.diags.map((d) => d.id), ['amd.vintrp.lds-out-of-range']);
    assert.equal(r.v(2, 0), 0);
    assert.equal(f32(r.v(2, 0)), 0);
  });
}
