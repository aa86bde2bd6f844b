/**
 * SDWA execution on gfx900 and gfx1030 (src/amd/target/normalize.ts, valu-core.ts sdwaSelect):
 * each source select (BYTE_0..3, WORD_0/1, DWORD) with and without sext, each dst_sel with each
 * dst_unused, SGPR/constant sources, abs/neg/clamp/omod, the VOPC destination (VCC or an SGPR with
 * SD) and VOP2's implicit VCC (carry-out, cndmask). Written in each generation's assembly, assembled
 * by gpusim; expected values are worked out by hand from the ISA guides' SDWA definitions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm } from './exec-harness.js';
import { targets } from '../../src/amd/isa/targets.js';
import { SREG } from '../../src/amd/wave/wave.js';

const GENS = [
  { name: 'gfx1030', target: targets.gfx1030!, waveSize: 32 as const, vcc: 'vcc_lo' },
  { name: 'gfx900', target: targets.gfx900!, waveSize: 64 as const, vcc: 'vcc' },
];

const SELS = ['BYTE_0', 'BYTE_1', 'BYTE_2', 'BYTE_3', 'WORD_0', 'WORD_1', 'DWORD'] as const;
const X = 0x89a4c3f2; // bytes f2 c3 a4 89: BYTE_0/1 and WORD_1 negative as signed, BYTE_2... a4 negative too

/** Hand-computed source selects of X (zero- and sign-extended). */
const ZEXT: Readonly<Record<string, number>> = {
  BYTE_0: 0xf2, BYTE_1: 0xc3, BYTE_2: 0xa4, BYTE_3: 0x89, WORD_0: 0xc3f2, WORD_1: 0x89a4, DWORD: X,
};
const SEXT: Readonly<Record<string, number>> = {
  BYTE_0: 0xfffffff2, BYTE_1: 0xffffffc3, BYTE_2: 0xffffffa4, BYTE_3: 0xffffff89, WORD_0: 0xffffc3f2, WORD_1: 0xffff89a4, DWORD: X,
};

for (const g of GENS) {
  const run = (src: string, o: Parameters<typeof runAsm>[1] = {}) => runAsm(`${src}\ns_endpgm`, { target: g.target, waveSize: g.waveSize, ...o });
  const full = 'dst_sel:DWORD dst_unused:UNUSED_PRESERVE';

  test(`${g.name}: SDWA source selects, zero- and sign-extended (v_mov_b32_sdwa, v_add_u32/v_add_nc_u32 src1)`, () => {
    const add = g.name === 'gfx900' ? 'v_add_u32_sdwa' : 'v_add_nc_u32_sdwa';
    for (const sel of SELS) {
      const r = run(`v_mov_b32_sdwa v1, v0 ${full} src0_sel:${sel}\nv_mov_b32_sdwa v2, sext(v0) ${full} src0_sel:${sel}\n` +
        `${add} v3, v4, v0 ${full} src0_sel:DWORD src1_sel:${sel}\n${add} v5, v4, sext(v0) ${full} src0_sel:DWORD src1_sel:${sel}`,
      { vgpr: { 0: X, 4: 1 } });
      assert.equal(r.v(1), ZEXT[sel], `v_mov ${sel}`);
      assert.equal(r.v(2), SEXT[sel], `v_mov sext ${sel}`);
      assert.equal(r.v(3), (ZEXT[sel]! + 1) >>> 0, `add src1 ${sel}`);
      assert.equal(r.v(5), (SEXT[sel]! + 1) >>> 0, `add src1 sext ${sel}`);
      assert.deepEqual(r.diags, []);
    }
  });

  test(`${g.name}: SDWA dst_sel with UNUSED_PAD, UNUSED_SEXT and UNUSED_PRESERVE`, () => {
    const OLD = 0x11223344;
    // v_mov_b32 of 0x000080f5: the low byte f5 (negative), the low word 80f5 (negative).
    const val = 0x000080f5;
    const want: Record<string, [number, number, number]> = {
      // [PAD, SEXT, PRESERVE]
      BYTE_0: [0x000000f5, 0xfffffff5, 0x112233f5],
      BYTE_1: [0x0000f500, 0xfffff500, 0x1122f544],
      BYTE_2: [0x00f50000, 0xfff50000, 0x11f53344],
      BYTE_3: [0xf5000000, 0xf5000000, 0xf5223344],
      WORD_0: [0x000080f5, 0xffff80f5, 0x112280f5],
      WORD_1: [0x80f50000, 0x80f50000, 0x80f53344],
      DWORD: [val, val, val],
    };
    const unused = ['UNUSED_PAD', 'UNUSED_SEXT', 'UNUSED_PRESERVE'];
    for (const sel of SELS) {
      for (let u = 0; u < 3; u++) {
        const r = run(`v_mov_b32_sdwa v1, v0 dst_sel:${sel} dst_unused:${unused[u]} src0_sel:DWORD`, { vgpr: { 0: val, 1: OLD } });
        assert.equal(r.v(1), want[sel]![u], `${sel} ${unused[u]}`);
      }
    }
    // A positive field sign-extends with zeros.
    const r = run('v_mov_b32_sdwa v1, v0 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:DWORD', { vgpr: { 0: 0x75, 1: OLD } });
    assert.equal(r.v(1), 0x7500);
  });

  test(`${g.name}: SDWA writes only lanes active in EXEC (dst_sel merge included)`, () => {
    const r = run('s_mov_b32 exec_lo, 5\nv_mov_b32_sdwa v1, v0 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0', { vgpr: { 0: 0xab, 1: 0x12345678 } });
    assert.equal(r.v(1, 0), 0x00ab5678);
    assert.equal(r.v(1, 1), 0x12345678);
    assert.equal(r.v(1, 2), 0x00ab5678);
  });

  test(`${g.name}: SDWA float ops: abs/neg and clamp; conversions of a selected byte`, () => {
    const r = run(`v_add_f32_sdwa v2, -v0, |v1| clamp ${full} src0_sel:DWORD src1_sel:DWORD`, { vgprF32: { 0: 0.25, 1: -2 } });
    assert.equal(r.vf(2), 1); // -0.25 + 2 = 1.75, clamped to 1
    const r2 = run(`v_add_f32_sdwa v2, -v0, |v1| ${full} src0_sel:DWORD src1_sel:DWORD`, { vgprF32: { 0: 0.25, 1: -2 } });
    assert.equal(r2.vf(2), 1.75);
    // BYTE_2 of X is 0xa4: 164 unsigned, -92 sign-extended.
    const r3 = run(`v_cvt_f32_u32_sdwa v2, v0 ${full} src0_sel:BYTE_2\nv_cvt_f32_i32_sdwa v3, sext(v0) ${full} src0_sel:BYTE_2`, { vgpr: { 0: X } });
    assert.equal(r3.vf(2), 164);
    assert.equal(r3.vf(3), -92);
  });

  test(`${g.name}: SDWA word selects into dst WORD_1 (gfx900 v_add_u16; gfx1030, whose 16-bit adds are VOP3-only, v_or_b32)`, () => {
    const add = g.name === 'gfx900' ? 'v_add_u16_sdwa' : 'v_add_nc_u16_sdwa';
    const line = g.name === 'gfx900'
      ? `${add} v2, v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:BYTE_0`
      : null;
    if (!line) {
      // gfx1030 has no v_add_nc_u16 SDWA form (VOP3 only): use v_or_b32 for the same merge.
      const r = run('v_or_b32_sdwa v2, v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:BYTE_0', { vgpr: { 0: 0x12340000, 1: 0x0000ff01, 2: 0xaaaabbbb } });
      assert.equal(r.v(2), 0x1235bbbb);
      return;
    }
    const r = run(line, { vgpr: { 0: 0x12340000, 1: 0x0000ff01, 2: 0xaaaabbbb } });
    assert.equal(r.v(2), 0x1235bbbb);
  });

  test(`${g.name}: SDWA SGPR and constant sources, with selects`, () => {
    const r = run(`v_or_b32_sdwa v2, s4, 1 ${full} src0_sel:BYTE_1 src1_sel:DWORD`, { sgpr: { 4: 0x0000ab00 } });
    assert.equal(r.v(2), 0xab | 1);
    const r2 = run(`v_mov_b32_sdwa v2, s4 ${full} src0_sel:WORD_1`, { sgpr: { 4: 0xfedc0000 } });
    assert.equal(r2.v(2), 0xfedc);
  });

  test(`${g.name}: SDWA VOPC writes VCC (SD = 0) or an SGPR destination (SD = 1) from selected operands`, () => {
    const lanes = Array.from({ length: g.waveSize }, (_, l) => l << 8);
    // BYTE_1 of v0 is the lane number: lanes 6.. compare greater than 5.
    const want = g.waveSize === 32 ? [0xffffffc0] : [0xffffffc0, 0xffffffff];
    const r = run(`v_cmp_gt_u32_sdwa ${g.vcc}, v0, v1 src0_sel:BYTE_1 src1_sel:DWORD`, { vgpr: { 0: lanes, 1: 5 } });
    assert.equal(r.s(SREG.VCC_LO), want[0]);
    if (g.waveSize === 64) assert.equal(r.s(SREG.VCC_HI), want[1]);
    const sd = g.waveSize === 32 ? 's8' : 's[8:9]';
    const r2 = run(`v_cmp_gt_u32_sdwa ${sd}, v0, v1 src0_sel:BYTE_1 src1_sel:DWORD`, { vgpr: { 0: lanes, 1: 5 } });
    assert.equal(r2.s(8), want[0]);
    if (g.waveSize === 64) assert.equal(r2.s(9), want[1]);
    assert.equal(r2.s(SREG.VCC_LO), 0);
  });

  test(`${g.name}: SDWA VOP2 with implicit VCC: v_cndmask_b32 reads it, the carry add writes it`, () => {
    const r = run(`s_mov_b32 vcc_lo, 2\ns_mov_b32 vcc_hi, 0\nv_cndmask_b32_sdwa v2, v0, v1, ${g.vcc} ${full} src0_sel:BYTE_0 src1_sel:BYTE_1`,
      { vgpr: { 0: 0x1122, 1: 0x3344 }, exec: 3, execHi: 0 });
    assert.equal(r.v(2, 0), 0x22); // VCC bit 0 clear: src0 BYTE_0
    assert.equal(r.v(2, 1), 0x33); // VCC bit 1 set: src1 BYTE_1
    const carry = g.name === 'gfx900' ? `v_add_co_u32_sdwa v2, vcc, v0, v1 ${full} src0_sel:DWORD src1_sel:BYTE_0` : null;
    if (carry) {
      const r2 = run(carry, { vgpr: { 0: 0xffffff00, 1: 0x1ff } });
      assert.equal(r2.v(2), 0xffffffff); // + 0xff, no carry
      assert.equal(r2.s(SREG.VCC_LO), 0);
      const r3 = run(carry, { vgpr: { 0: 0xffffff01, 1: 0x1ff } });
      assert.equal(r3.v(2), 0);
      assert.equal(r3.s(SREG.VCC_LO), 0xffffffff);
    }
  });
}

test('gfx900: SDWA omod (mul:2) applies to the float result', () => {
  const r = runAsm('v_add_f32_sdwa v2, v0, v1 mul:2 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD\ns_endpgm', { target: targets.gfx900!, waveSize: 64, vgprF32: { 0: 1.5, 1: 0.25 } });
  assert.equal(r.vf(2), 3.5);
});
