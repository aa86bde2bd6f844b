/**
 * Opcodes only GFX9 (gfx900) or GFX10.3 (gfx1030) have, which ran into gpusim.unimplemented before
 * `gpusim amd coverage` measured them: GFX9's legacy 16-bit VOP3 ops, v_mad_legacy_f32, the
 * constant 16-bit compares, v_cvt_pkaccum_u8_f32, s_ff0, scalar stores and atomics; GFX10.3's signed/16-bit dot products,
 * f64 atomics and v_illegal. Written in each generation's assembly (llvm-mc-19 accepts every line);
 * expected values are worked out here from the ISA definitions, on both engines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm } from './exec-harness.js';
import { targets } from '../../src/amd/isa/targets.js';
import { Memory } from '../../src/core/memory.js';
import { SREG } from '../../src/amd/wave/wave.js';
import { f32bits } from '../../src/core/float.js';
import { bufGenOf, packVsharp } from '../../src/amd/exec/buffer.js';

const gfx900 = targets.gfx900!;
const gfx1030 = targets.gfx1030!;
const ENGINES = ['interp', 'fast'] as const;
const ids = (r: { diags: readonly { id: string }[] }) => r.diags.map((d) => d.id);
const f64words = (x: number): [number, number] => { const b = new DataView(new ArrayBuffer(8)); b.setFloat64(0, x, true); return [b.getUint32(0, true), b.getUint32(4, true)]; };
const f64of = (lo: number, hi: number): number => { const b = new DataView(new ArrayBuffer(8)); b.setUint32(0, lo, true); b.setUint32(4, hi, true); return b.getFloat64(0, true); };

for (const engine of ENGINES) {
  const run9 = (src: string, o: Parameters<typeof runAsm>[1] = {}) => runAsm(`${src}\ns_endpgm`, { target: gfx900, waveSize: 64, engine, ...o });
  const run10 = (src: string, o: Parameters<typeof runAsm>[1] = {}) => runAsm(`${src}\ns_endpgm`, { target: gfx1030, waveSize: 32, engine, ...o });

  test(`gfx900 (${engine}): v_mad_legacy_u16 / _i16 compute S0*S1+S2 in 16 bits and zero the high half`, () => {
    // lane 0: 5*7+3 = 38; lane 1: 300*300+5 = 90005 -> 90005 & 0xffff = 24469. High halves of the sources are ignored.
    const r = run9('v_mad_legacy_u16 v2, v0, v1, v3', { vgpr: { 0: [0x12340005, 0xabcd012c], 1: [0xffff0007, 0x0001012c], 3: [0xaaaa0003, 0x5], 2: 0xbeef0000 } });
    assert.equal(r.v(2, 0), 38);
    assert.equal(r.v(2, 1), 24469);
    // (-3) * 7 + 1 = -20 -> 0xffec, high half zero.
    const s = run9('v_mad_legacy_i16 v2, v0, v1, v3', { vgpr: { 0: 0xfffd, 1: 7, 3: 1, 2: 0xbeef0000 } });
    assert.equal(s.v(2, 0), 0xffec);
    assert.deepEqual(ids(r), []);
    assert.deepEqual(ids(s), []);
  });

  test(`gfx900 (${engine}): v_mad_legacy_f16, v_fma_legacy_f16, v_div_fixup_legacy_f16 (f16 results, high half zeroed)`, () => {
    // 1.5 * 2.0 + 0.25 = 3.25 = 0x4280 (exact in f16, so MAD and FMA agree).
    for (const op of ['v_mad_legacy_f16', 'v_fma_legacy_f16']) {
      const r = run9(`${op} v2, v0, v1, v3`, { vgpr: { 0: 0x11113e00, 1: 0x22224000, 3: 0x33333400, 2: 0xbeef0000 } });
      assert.equal(r.v(2, 0), 0x4280, op);
      assert.deepEqual(ids(r), [], op);
    }
    // div_fixup(quotient 2.0, denominator 3.0, numerator 6.0) = 2.0; denominator 0, numerator 1 -> +inf.
    const d = run9('v_div_fixup_legacy_f16 v2, v0, v1, v3', { vgpr: { 0: [0x4000, 0x4000], 1: [0x4200, 0x0000], 3: [0x4600, 0x3c00], 2: 0xbeef0000 } });
    assert.equal(d.v(2, 0), 0x4000);
    assert.equal(d.v(2, 1), 0x7c00);
  });

  test(`gfx900 (${engine}): v_mad_legacy_f32 follows the DX9 rule 0 * x = 0 (also for inf and NaN)`, () => {
    const r = run9('v_mad_legacy_f32 v2, v0, v1, v3', {
      vgpr: { 0: [f32bits(2), 0, 0x7fc00000], 1: [f32bits(3), 0x7f800000, 0], 3: [f32bits(1), f32bits(1), f32bits(2)] },
    });
    assert.equal(r.vf(2, 0), 7);
    assert.equal(r.vf(2, 1), 1);
    assert.equal(r.vf(2, 2), 2);
  });

  test(`gfx900 (${engine}): constant 16-bit compares and v_cmpx_tru_* (VCC written too, as GFX9 V_CMPX does)`, () => {
    const all = 0xffffffff;
    const t = run9('v_cmp_t_u16 vcc, v0, v1\ns_mov_b64 s[4:5], vcc\nv_cmp_f_i16 vcc, v0, v1\ns_mov_b64 s[6:7], vcc\nv_cmp_t_i16_e64 s[8:9], v0, v1');
    assert.equal(t.s(4), all);
    assert.equal(t.s(5), all);
    assert.equal(t.s(6), 0);
    assert.equal(t.s(7), 0);
    assert.equal(t.s(8), all);
    const x = run9('v_cmpx_tru_f32 vcc, v0, v1', { exec: 0x0000ffff, execHi: 0 });
    assert.equal(x.s(SREG.EXEC_LO), 0xffff);
    assert.equal(x.s(SREG.VCC_LO), 0xffff);
    const f = run9('v_cmpx_f_u16 vcc, v0, v1');
    assert.equal(f.s(SREG.EXEC_LO), 0);
    assert.equal(f.s(SREG.EXEC_HI), 0);
    assert.deepEqual(ids(t), []);
  });

  test(`gfx900 (${engine}): v_cvt_pkaccum_u8_f32 packs u8(S0) into byte S1[1:0] of VDST, keeping the others`, () => {
    // 200.4 -> 200 (0xc8) into byte 2 of 0x11223344; 300 saturates to 255 into byte 0; NaN -> 0 into byte 3.
    const r = run9('v_cvt_pkaccum_u8_f32 v2, v0, v1', { vgpr: { 0: [f32bits(200.4), f32bits(300), 0x7fc00000], 1: [2, 4, 3], 2: 0x11223344 } });
    assert.equal(r.v(2, 0), 0x11c83344);
    assert.equal(r.v(2, 1), 0x112233ff);
    assert.equal(r.v(2, 2), 0x00223344);
  });

  test(`gfx900 (${engine}): scalar stores and atomics (s_store_dword*, s_buffer_store_dword, s_atomic_*, s_buffer_atomic_*)`, () => {
    const mem = new Memory();
    const seg = mem.alloc(256, 'data');
    for (let i = 0; i < 64; i++) mem.write32(seg.base + 4 * i, 0x100 + i);
    const lo = seg.base % 2 ** 32, hi = Math.floor(seg.base / 2 ** 32);
    const r = run9([
      's_store_dwordx2 s[4:5], s[2:3], 0x8',
      's_buffer_store_dword s4, s[8:11], 0x4',
      's_buffer_store_dword s4, s[8:11], 0x40', // past NUM_RECORDS (0x40 bytes): dropped
      's_atomic_add s6, s[2:3], 0x10 glc',
      's_atomic_cmpswap s[12:13], s[2:3], 0x14 glc',
      's_atomic_umax_x2 s[14:15], s[2:3], 0x18 glc',
      's_buffer_atomic_swap s7, s[8:11], 0x3c glc',
      's_dcache_wb',
      's_waitcnt lgkmcnt(0)',
    ].join('\n'), {
      mem,
      sgpr: {
        2: lo, 3: hi, 4: 0xaaaa0001, 5: 0xbbbb0002, 6: 5, 12: 0x77, 13: 0x105, 14: 0x200, 15: 0,
        7: 0x5a5a, 8: lo, 9: hi & 0xffff, 10: 0x40, 11: 0,
      },
    });
    assert.deepEqual(ids(r), []);
    const m = (byte: number) => mem.read32(seg.base + byte);
    assert.equal(m(0x8), 0xaaaa0001);
    assert.equal(m(0xc), 0xbbbb0002);
    assert.equal(m(0x4), 0xaaaa0001);
    assert.equal(m(0x40), 0x100 + 16); // the out-of-range buffer store did not land
    assert.equal(m(0x10), 0x104 + 5); // add: old 0x104 + 5
    assert.equal(r.s(6), 0x104); // glc: the pre-op value
    assert.equal(m(0x14), 0x77); // cmpswap: old 0x105 == compare 0x105 -> new 0x77
    assert.equal(r.s(12), 0x105);
    // umax_x2 on the qword (0x106, 0x107) vs (0x200, 0): the old one is larger (high dword 0x107).
    assert.equal(m(0x18), 0x106);
    assert.equal(m(0x1c), 0x107);
    assert.equal(r.s(14), 0x106);
    assert.equal(r.s(15), 0x107);
    assert.equal(m(0x3c), 0x5a5a); // buffer swap
    assert.equal(r.s(7), 0x100 + 15);
  });

  for (const [name, run] of [['gfx900', run9], ['gfx1030', run10]] as const) {
    test(`${name} (${engine}): s_ff0_i32_b32 / _b64 find the first zero bit from the LSB (-1 when none)`, () => {
      const r = run('s_ff0_i32_b32 s1, s0\ns_ff0_i32_b32 s4, s5\ns_ff0_i32_b64 s6, s[2:3]\ns_ff0_i32_b64 s7, s[8:9]', {
        sgpr: { 0: 0x000000ff, 5: 0xffffffff, 2: 0xffffffff, 3: 0xfffffffe, 8: 0xffffffff, 9: 0xffffffff },
      });
      assert.equal(r.s(1), 8);
      assert.equal(r.s(4), 0xffffffff);
      assert.equal(r.s(6), 32);
      assert.equal(r.s(7), 0xffffffff);
    });
  }

  test(`gfx1030 (${engine}): v_dot2_i32_i16 / v_dot2_u32_u16 / v_dot4_i32_i8 / v_dot8_i32_i4`, () => {
    // halves (-2, 3) . (5, -4) + 10 = -10 - 12 + 10 = -12; unsigned: 65534*5 + 3*65532 + 10 = 524276.
    const a = run10('v_dot2_i32_i16 v2, v0, v1, v3\nv_dot2_u32_u16 v4, v0, v1, v3', { vgpr: { 0: 0x0003fffe, 1: 0xfffc0005, 3: 10 } });
    assert.equal(a.v(2, 0) | 0, -12);
    assert.equal(a.v(4, 0), 524276);
    // bytes (2, 1, -1, -128) . (4, 3, 2, 127) = 8 + 3 - 2 - 16256 = -16247.
    const b = run10('v_dot4_i32_i8 v2, v0, v1, v3', { vgpr: { 0: 0x80ff0102, 1: 0x7f020304, 3: 0 } });
    assert.equal(b.v(2, 0) | 0, -16247);
    // nibbles: n0 1*7, n6 (-1)*7, n7 (-8)*7 = 7 - 7 - 56 = -56.
    const c = run10('v_dot8_i32_i4 v2, v0, v1, v3', { vgpr: { 0: 0x8f000001, 1: 0x77000007, 3: 0 } });
    assert.equal(c.v(2, 0) | 0, -56);
    // clamp saturates the signed sum: 0x7fffffff + 4*1*1 -> 0x7fffffff.
    const d = run10('v_dot4_i32_i8 v2, v0, v1, v3 clamp', { vgpr: { 0: 0x01010101, 1: 0x01010101, 3: 0x7fffffff } });
    assert.equal(d.v(2, 0), 0x7fffffff);
    assert.deepEqual(ids(a), []);
  });

  test(`gfx1030 (${engine}): f64 atomics (fmax_x2 / fmin_x2 / fcmpswap_x2) on global, flat and buffer`, () => {
    const mem = new Memory();
    const seg = mem.alloc(256, 'data');
    const put = (off: number, x: number) => { const [lo, hi] = f64words(x); mem.write32(seg.base + off, lo); mem.write32(seg.base + off + 4, hi); };
    const get = (off: number) => f64of(mem.read32(seg.base + off), mem.read32(seg.base + off + 4));
    put(0, 1.5); put(8, 1.5); put(16, 0); put(24, 4);
    const addr = (off: number) => ({ lo: (seg.base + off) % 2 ** 32, hi: Math.floor((seg.base + off) / 2 ** 32) });
    const [d25l, d25h] = f64words(2.5), [d9l, d9h] = f64words(9), [nzl, nzh] = f64words(-0), [d3l, d3h] = f64words(3);
    const r = run10([
      'global_atomic_fmax_x2 v[4:5], v[0:1], v[2:3], off glc',
      'flat_atomic_fmin_x2 v[6:7], v[8:9], v[2:3] glc',
      'global_atomic_fcmpswap_x2 v[10:11], v[12:15], off',
      'buffer_atomic_fmin_x2 v[16:17], off, s[8:11], 0 glc',
      's_waitcnt vmcnt(0) lgkmcnt(0)',
    ].join('\n'), {
      mem, exec: 1,
      vgpr: {
        0: addr(0).lo, 1: addr(0).hi, 2: d25l, 3: d25h, 8: addr(8).lo, 9: addr(8).hi,
        // fcmpswap_x2 data: new value 9.0, compare value -0.0 (equal to the +0.0 in memory as floats).
        10: addr(16).lo, 11: addr(16).hi, 12: d9l, 13: d9h, 14: nzl, 15: nzh, 16: d3l, 17: d3h,
      },
      // V# at s[8:11]: a raw buffer of 8 bytes at seg + 24.
      sgpr: Object.fromEntries(packVsharp(bufGenOf(10), { base: seg.base + 24, records: 8 }).map((x, i) => [8 + i, x])),
    });
    assert.deepEqual(ids(r), []);
    assert.equal(get(0), 2.5);
    assert.equal(f64of(r.v(4, 0), r.v(5, 0)), 1.5); // glc returns the old value
    assert.equal(get(8), 1.5);
    assert.equal(f64of(r.v(6, 0), r.v(7, 0)), 1.5);
    assert.equal(get(16), 9);
    assert.equal(get(24), 3);
    assert.equal(f64of(r.v(16, 0), r.v(17, 0)), 4);
  });

  test(`gfx1030 (${engine}): v_illegal raises an illegal-instruction exception (the wave halts without a handler)`, () => {
    const r = run10('v_mov_b32 v1, 5\nv_illegal\nv_mov_b32 v1, 7');
    assert.deepEqual(ids(r), ['gfx11.illegal-instruction']);
    assert.equal(r.v(1, 0), 5);
    assert.equal(r.wave.state, 'halted');
    const clean = run10('v_mov_b32 v1, 5\nv_clrexcp');
    assert.deepEqual(ids(clean), []);
    assert.equal(clean.v(1, 0), 5);
  });
}
