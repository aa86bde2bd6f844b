/**
 * Older-generation hardware registers and GFX9's unfused mixed-precision MAD (target/normalize.ts,
 * exec/pre-gfx11.ts, vop3p.ts): GFX10.3 user shaders set FLAT_SCRATCH through s_setreg
 * (HW_REG_FLAT_SCR_LO/HI), GFX9's HW_ID (id 4) reads with Mesa's SQ_WAVE_HW_ID layout, and
 * v_mad_mix_* round the product to f32 where v_fma_mix_* do not; GPR_ALLOC in each generation's layout.
 * Values worked out by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm } from './exec-harness.js';
import { targets } from '../../src/amd/isa/targets.js';

const gfx1030 = targets.gfx1030!;
const gfx900 = targets.gfx900!;

test('gfx1030: s_setreg of HW_REG_FLAT_SCR_LO/HI sets the wave\'s flat scratch base (user-writable on GFX10)', () => {
  const r = runAsm([
    's_mov_b32 s0, 0x12345000', 's_mov_b32 s1, 7',
    's_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s0', 's_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s1',
    's_getreg_b32 s2, hwreg(HW_REG_FLAT_SCR_LO)', 's_getreg_b32 s3, hwreg(HW_REG_FLAT_SCR_HI)',
    's_setreg_imm32_b32 hwreg(HW_REG_FLAT_SCR_LO, 0, 8), 0xab', 's_getreg_b32 s4, hwreg(HW_REG_FLAT_SCR_LO)',
    's_endpgm',
  ].join('\n'), { target: gfx1030, waveSize: 32 });
  assert.deepEqual(r.diags, []);
  assert.equal(r.s(2), 0x12345000);
  assert.equal(r.s(3), 7);
  assert.equal(r.s(4), 0x123450ab);
  assert.equal(r.wave.scratchBase, 7 * 2 ** 32 + 0x123450ab);
});

test('gfx900: s_getreg_b32 HW_REG_HW_ID (id 4) reads ME_ID 1, VM_ID 8, the wave and workgroup ids', () => {
  const r = runAsm('s_getreg_b32 s1, hwreg(HW_REG_HW_ID)\ns_getreg_b32 s2, hwreg(HW_REG_HW_ID, 20, 4)\ns_getreg_b32 s3, hwreg(HW_REG_HW_ID, 30, 2)\ns_endpgm', { target: gfx900, waveSize: 64 });
  assert.deepEqual(r.diags, []);
  // Mesa gfx9 SQ_WAVE_HW_ID: VM_ID [23:20], ME_ID [31:30]; a lone wave 0 of workgroup 0.
  assert.equal(r.s(1), ((1 << 30) | (8 << 20)) >>> 0);
  assert.equal(r.s(2), 8);
  assert.equal(r.s(3), 1);
});

// a = b = 1 + 2^-12 (f32 0x3f800800), c = -(1 + 2^-11): a*b = 1 + 2^-11 + 2^-24 exactly.
const A = 0x3f800800;
const C = 0xbf801000;

test('gfx900: v_mad_mix_f32 rounds the product to f32 first (ties to even drops 2^-24), v_fma_mix_f32 on gfx1030 does not', () => {
  const r = runAsm('v_mad_mix_f32 v0, v1, v2, v3\ns_endpgm', { target: gfx900, waveSize: 64, vgpr: { 1: A, 2: A, 3: C } });
  assert.deepEqual(r.diags, []);
  assert.equal(r.v(0), 0);
  const f = runAsm('v_fma_mix_f32 v0, v1, v2, v3\ns_endpgm', { target: gfx1030, waveSize: 32, vgpr: { 1: A, 2: A, 3: C } });
  assert.equal(f.vf(0), 2 ** -24);
});

test('gfx900: v_mad_mixlo_f16 / v_mad_mixhi_f16 of f16 halves write one half and keep the other', () => {
  // 2 * 3 + 1 = 7 (f16 0x4700) from the low halves (op_sel_hi marks the sources f16).
  const r = runAsm('v_mad_mixlo_f16 v0, v1, v2, v3 op_sel_hi:[1,1,1]\nv_mad_mixhi_f16 v4, v1, v2, v3 op_sel_hi:[1,1,1]\ns_endpgm',
    { target: gfx900, waveSize: 64, vgpr: { 0: 0xbeef0000, 4: 0x0000beef, 1: 0x4000, 2: 0x4200, 3: 0x3c00 } });
  assert.deepEqual(r.diags, []);
  assert.equal(r.v(0), 0xbeef4700);
  assert.equal(r.v(4), 0x4700beef);
});

test('HW_REG_GPR_ALLOC puts VGPR_SIZE where each generation has it: [13:8] gfx900, [15:8] gfx1030, [19:12] gfx1100', () => {
  // 64 VGPRs = 16 units of 4, minus one = 15; 256 VGPRs = 63.
  const cases: readonly [string, 32 | 64, number][] = [['gfx900', 64, 8], ['gfx1030', 32, 8], ['gfx1030', 64, 8], ['gfx1100', 32, 12]];
  for (const [cpu, ws, lo] of cases) {
    for (const [vgprs, size] of [[64, 15], [256, 63]] as const) {
      const r = runAsm('s_getreg_b32 s0, hwreg(HW_REG_GPR_ALLOC)\ns_endpgm', { target: targets[cpu]!, waveSize: ws, vgprs });
      assert.deepEqual(r.diags, [], cpu);
      assert.equal(r.s(0), size << lo, `${cpu} wave${ws} ${vgprs} VGPRs`);
    }
  }
  // GFX9's field is 6 bits wide: the gfx900 read of bits [13:8] is the whole value.
  const g9 = runAsm('s_getreg_b32 s0, hwreg(HW_REG_GPR_ALLOC, 8, 6)\ns_endpgm', { target: gfx900, waveSize: 64, vgprs: 256 });
  assert.equal(g9.s(0), 63);
});
