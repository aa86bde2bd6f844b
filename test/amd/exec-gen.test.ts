/**
 * GFX10.3 (gfx1030) and GFX9 (gfx900) execution differences (src/amd/target/normalize.ts,
 * exec/pre-gfx11.ts), each written in the generation's own assembly and assembled with gpusim's
 * assembler for that target: operand numbers (M0/NULL), s_waitcnt layouts, GFX9 SMEM offsets,
 * renamed and GFX9-only opcodes, 16-bit high halves, GFX9 V_CMPX, legacy MAD, s_memrealtime,
 * pre-GFX11 s_sendmsg ids. Expected values follow the ISA definitions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm, TRAP_VA } from './exec-harness.js';
import { targets } from '../../src/amd/isa/targets.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { assemble, decodeAt } from '../../src/amd/isa/target.js';
import { normalize, waitcntToGfx11 } from '../../src/amd/target/normalize.js';
import { SREG } from '../../src/amd/wave/wave.js';
import { Memory } from '../../src/core/memory.js';
import { CLOCKS_PER_REALTIME_TICK } from '../../src/amd/exec/hwreg.js';

const gfx1030 = targets.gfx1030!;
const gfx900 = targets.gfx900!;
const GENS = [
  { name: 'gfx1030', target: gfx1030, waveSize: 32 as const, vcc: 'vcc_lo' },
  { name: 'gfx900', target: gfx900, waveSize: 64 as const, vcc: 'vcc' },
];

const ids = (r: { diags: readonly { id: string }[] }) => r.diags.map((d) => d.id);

for (const g of GENS) {
  const run = (src: string, o: Parameters<typeof runAsm>[1] = {}) => runAsm(`${src}\ns_endpgm`, { target: g.target, waveSize: g.waveSize, ...o });

  test(`${g.name}: M0 is operand 124 and reads/writes the wave's M0; writes to 125 are dropped`, () => {
    const r = run('s_mov_b32 m0, 0x1234\ns_mov_b32 s1, m0\ns_add_u32 s2, m0, 1');
    assert.equal(r.s(SREG.M0), 0x1234);
    assert.equal(r.s(1), 0x1234);
    assert.equal(r.s(2), 0x1235);
    assert.deepEqual(ids(r), []);
  });

  test(`${g.name}: s_waitcnt counters re-laid in GFX11's layout`, () => {
    for (const text of ['s_waitcnt vmcnt(1) lgkmcnt(2)', 's_waitcnt vmcnt(37)', 's_waitcnt expcnt(3)', 's_waitcnt lgkmcnt(0)', 's_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)']) {
      const old = decodeAt(g.target, assemble(g.target, text), 0);
      const n = normalize(old, g.target.space);
      const want = decodeAt(gfx11, assemble(gfx11, text), 0).fields.simm16;
      // Counters the old layout cannot express keep their all-ones "no wait" value; compare field by field.
      const f = (v: number) => ({ exp: v & 7, lgkm: (v >>> 4) & 0x3f, vm: (v >>> 10) & 0x3f });
      const got = f(n.fields.simm16!);
      const exp = f(want!);
      assert.equal(got.vm, exp.vm, `${text} vmcnt`);
      assert.equal(got.exp, exp.exp, `${text} expcnt`);
      if (g.name === 'gfx1030' || exp.lgkm < 15) assert.equal(got.lgkm, exp.lgkm, `${text} lgkmcnt`);
      else assert.equal(got.lgkm, 15, `${text} lgkmcnt (4 bits on GFX9)`);
    }
  });

  test(`${g.name}: renamed opcodes run as their GFX11 twins (v_ffbh_u32, s_ff1_i32_b32, s_andn2_b32, v_cvt_rpi_i32_f32)`, () => {
    const r = run('v_ffbh_u32 v1, v0\ns_ff1_i32_b32 s1, s0\ns_andn2_b32 s2, s3, s4\nv_cvt_rpi_i32_f32 v2, v3', { vgpr: { 0: 0x00f00000 }, vgprF32: { 3: 2.5 }, sgpr: { 0: 0x80, 3: 0xff, 4: 0x0f } });
    assert.equal(r.v(1), 8);
    assert.equal(r.s(1), 7);
    assert.equal(r.s(2), 0xf0);
    assert.equal(r.v(2), 3); // floor(2.5 + 0.5)
  });

  if (g.name === 'gfx900') test(`${g.name}: v_mad_f32 rounds the product before adding (not fused)`, () => {
    // (1 + 2^-23)^2 - 1: fused 2^-22 + 2^-46; the f32 product 1 + 2^-22 leaves exactly 2^-22.
    const r = run('v_mad_f32 v3, v0, v1, v2\nv_fma_f32 v4, v0, v1, v2', { vgpr: { 0: 0x3f800001, 1: 0x3f800001, 2: 0xbf800000 } });
    assert.equal(r.vf(3), 2 ** -22);
    assert.equal(r.vf(4), Math.fround(2 ** -22 + 2 ** -46));
  });

  // GFX10.3 dropped the f32 MAD/MAC opcodes.
  if (g.name === 'gfx900') test(`${g.name}: v_madmk_f32 / v_madak_f32 / v_mac_f32`, () => {
    const r = run('v_madmk_f32 v2, v0, 0x40400000, v1\nv_madak_f32 v3, v0, v1, 0x40400000\nv_mov_b32 v4, 1.0\nv_mac_f32 v4, v0, v1', { vgprF32: { 0: 2, 1: 5 } });
    assert.equal(r.vf(2), 2 * 3 + 5);
    assert.equal(r.vf(3), 2 * 5 + 3);
    assert.equal(r.vf(4), 2 * 5 + 1);
  });

  // gfx900's SMEM table does not decode s_memrealtime (opcode 37) yet.
  if (g.name === 'gfx1030') test(`${g.name}: s_memrealtime samples REALTIME (100 MHz) into a 64-bit SGPR pair`, () => {
    const nops = 60;
    const r = run(`${'s_nop 0\n'.repeat(nops)}s_memrealtime s[4:5]\ns_waitcnt lgkmcnt(0)`);
    assert.equal(r.s(4), Math.floor(nops / CLOCKS_PER_REALTIME_TICK));
    assert.equal(r.s(5), 0);
  });

  test(`${g.name}: s_sendmsg with a geometry message id fires ${g.name === 'gfx900' ? 'gfx9' : 'gfx10'}.sendmsg.unknown; MSG_INTERRUPT is quiet`, () => {
    const id = g.name === 'gfx900' ? 'gfx9.sendmsg.unknown' : 'gfx10.sendmsg.unknown';
    const bad = run('s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)');
    assert.deepEqual(ids(bad), [id]);
    const quiet = run('s_sendmsg sendmsg(MSG_INTERRUPT)');
    assert.deepEqual(ids(quiet), []);
    // GFX11's DEALLOC_VGPRS is id 3 = GS_DONE here: it must not release the VGPRs.
    assert.equal(bad.wave.vgprsReleased, false);
  });

  test(`${g.name}: s_load_dword with an immediate and an SGPR offset`, () => {
    const mem = new Memory();
    const seg = mem.alloc(64, 'buf');
    for (let i = 0; i < 16; i++) mem.write32(seg.base + 4 * i, 0x100 + i);
    const lo = seg.base % 0x1_0000_0000;
    const hi = Math.floor(seg.base / 0x1_0000_0000);
    const r = run('s_load_dword s0, s[4:5], 0x8\ns_load_dword s1, s[4:5], s3\ns_load_dwordx2 s[8:9], s[4:5], 0x10\ns_waitcnt lgkmcnt(0)', { mem, sgpr: { 4: lo, 5: hi, 3: 12 } });
    assert.equal(r.s(0), 0x102);
    assert.equal(r.s(1), 0x103);
    assert.equal(r.s(8), 0x104);
    assert.equal(r.s(9), 0x105);
  });

  test(`${g.name}: ds_write_b32 / ds_read2_b32 run as ds_store_b32 / ds_load_2addr_b32`, () => {
    const r = run('v_mov_b32 v1, 0x55\nv_mov_b32 v2, 0x66\nds_write_b32 v0, v1\nds_write_b32 v0, v2 offset:8\nds_read2_b32 v[4:5], v0 offset1:2\ns_waitcnt lgkmcnt(0)', { vgpr: { 0: 0 }, exec: 1, execHi: 0 });
    assert.equal(r.v(4), 0x55);
    assert.equal(r.v(5), 0x66);
  });

  test(`${g.name}: a 16-bit VOP2 result into v130 (no true16 halves before GFX11)`, () => {
    const r = run('v_add_f16 v130, v1, v2', { vgpr: { 1: 0x3c00, 2: 0x4000, 130: 0xdead0000 } });
    // 1.0 + 2.0 = 3.0 (0x4200); GFX9 zeroes the high half, GFX10 keeps it.
    assert.equal(r.v(130), g.name === 'gfx900' ? 0x4200 : (0xdead4200 >>> 0));
    assert.equal(r.v(2), 0x4000);
  });
}

test('gfx900: v_add_co_u32 / v_addc_co_u32 through VCC (a 64-bit add)', () => {
  const r = runAsm('v_add_co_u32 v4, vcc, v0, v2\nv_addc_co_u32 v5, vcc, v1, v3, vcc\ns_endpgm', { target: gfx900, waveSize: 64, vgpr: { 0: 0xffffffff, 1: 1, 2: 2, 3: 3 } });
  assert.equal(r.v(4), 1);
  assert.equal(r.v(5), 5);
  assert.equal(r.s(SREG.VCC_LO), 0);
});

test('gfx900: v_add_u32 is the carry-less add; v_sub_u32 / v_subrev_u32; v_subrev_u16', () => {
  const r = runAsm('v_add_u32 v2, v0, v1\nv_sub_u32 v3, v0, v1\nv_subrev_u32 v4, v0, v1\nv_subrev_u16 v5, v0, v1\ns_endpgm', { target: gfx900, waveSize: 64, vgpr: { 0: 0xffffffff, 1: 3 } });
  assert.equal(r.v(2), 2);
  assert.equal(r.v(3), 0xfffffffc);
  assert.equal(r.v(4), 4);
  assert.equal(r.v(5), 4);
});

test('gfx900: V_CMPX writes VCC as well as EXEC; gfx1030 leaves VCC alone', () => {
  const lanes = Array.from({ length: 64 }, (_, l) => l);
  const r9 = runAsm('v_cmpx_gt_u32 vcc, v0, 5\ns_endpgm', { target: gfx900, waveSize: 64, vgpr: { 0: lanes } });
  // lanes 6..63 pass
  assert.equal(r9.s(SREG.EXEC_LO), 0xffffffc0);
  assert.equal(r9.s(SREG.EXEC_HI), 0xffffffff);
  assert.equal(r9.s(SREG.VCC_LO), 0xffffffc0);
  assert.equal(r9.s(SREG.VCC_HI), 0xffffffff);
  const r10 = runAsm('s_mov_b32 vcc_lo, 7\nv_cmpx_gt_u32 v0, 5\ns_endpgm', { target: gfx1030, waveSize: 32, vgpr: { 0: lanes } });
  assert.equal(r10.s(SREG.EXEC_LO), 0xffffffc0);
  assert.equal(r10.s(SREG.VCC_LO), 7);
});

test('gfx900: v_mac_f16 keeps the high half (GFX9 changed it), v_add_u16 zeroes it', () => {
  const r = runAsm('v_mac_f16 v3, v1, v2\nv_add_u16 v4, v1, v2\ns_endpgm', { target: gfx900, waveSize: 64, vgpr: { 1: 0x4000, 2: 0x4200, 3: 0xbeef3c00, 4: 0xbeef0000 } });
  assert.equal(r.v(3), (0xbeef0000 | 0x4700) >>> 0); // 2 * 3 + 1 = 7
  assert.equal(r.v(4), 0x8200);
});

test('gfx1030: v_dot4c_i32_i8 accumulates signed byte products', () => {
  const r = runAsm('v_dot4c_i32_i8 v2, v0, v1\ns_endpgm', { target: gfx1030, waveSize: 32, vgpr: { 0: 0x02fd7f80, 1: 0x03ff0102, 2: 10 } });
  // bytes (lo..hi): a = -128, 127, -3, 2; b = 2, 1, -1, 3
  assert.equal(r.v(2) | 0, 10 + (-128 * 2) + 127 * 1 + (-3 * -1) + 2 * 3);
});

test('waitcntToGfx11: GFX9 vmcnt high bits [15:14] and 4-bit lgkmcnt', () => {
  // vmcnt 0x2a = 10 in [3:0] + 2 in [15:14]; expcnt 5; lgkmcnt 9
  const v = 0xa | (5 << 4) | (9 << 8) | (2 << 14);
  const n = waitcntToGfx11(9, v);
  assert.equal((n >>> 10) & 0x3f, 0x2a);
  assert.equal(n & 7, 5);
  assert.equal((n >>> 4) & 0x3f, 9);
  const n10 = waitcntToGfx11(10, v | (0x30 << 8));
  assert.equal((n10 >>> 4) & 0x3f, 0x39);
});

for (const g of GENS) {
  test(`${g.name}: HW_REG_TMA_LO/HI and TBA_LO read the trap addresses in the trap handler, 0 in user code`, () => {
    const tma = 0x1234_5678_9abc;
    const r = runAsm('s_getreg_b32 s20, hwreg(HW_REG_TMA_LO)\ns_trap 2\ns_endpgm', {
      target: g.target, waveSize: g.waveSize,
      trapHandler: { source: 's_getreg_b32 s10, hwreg(HW_REG_TMA_LO)\ns_getreg_b32 s11, hwreg(HW_REG_TMA_HI)\ns_getreg_b32 s12, hwreg(HW_REG_TBA_LO)\ns_getreg_b32 s13, hwreg(HW_REG_TMA_HI, 4, 8)\ns_endpgm', tma },
    });
    assert.equal(r.s(20), 0);
    assert.equal(r.s(10), 0x5678_9abc);
    assert.equal(r.s(11), 0x1234);
    assert.equal(r.s(12), TRAP_VA % 0x1_0000_0000);
    assert.equal(r.s(13), (0x1234 >>> 4) & 0xff);
    assert.deepEqual(ids(r), []);
  });
}
