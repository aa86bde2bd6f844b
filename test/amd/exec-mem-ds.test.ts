/**
 * DS (LDS) and SMEM semantics, one wave, written in assembly. Expected values follow the RDNA3
 * ISA definitions of each opcode (computed here on the CPU) and the wave-state seed's memory
 * rules (LDS out of range, alignment modes, MEMVIOL on misaligned atomics, VGPR/SGPR range rules).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm, type AsmRun } from './exec-harness.js';
import { Memory } from '../../src/core/memory.js';
import { swizzleSource } from '../../src/amd/exec/ds.js';
import { HWREG } from '../../src/amd/wave/wave.js';
import { TRAPSTS } from '../../src/amd/exec/trap.js';

const L32 = Array.from({ length: 32 }, (_, l) => l);
const ids = (r: AsmRun, id: string) => r.diags.filter((d) => d.id === id);
const lds32 = (r: AsmRun, a: number) => new DataView(r.wave.lds.buffer).getUint32(a, true);
const f32u = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;
const f64w = (x: number) => Array.from(new Uint32Array(new Float64Array([x]).buffer));

test('ds_store/load b32..b128 with offsets, sub-dword and d16 forms', () => {
  const r = runAsm(`
    ds_store_b32 v0, v1 offset:16
    ds_load_b32 v2, v0 offset:16
    ds_store_b128 v0, v[4:7] offset:1024
    ds_load_b64 v[8:9], v0 offset:1028
    ds_load_b96 v[20:22], v0 offset:1024
    ds_load_i8 v10, v0 offset:1027
    ds_load_u8 v16, v0 offset:1027
    ds_load_u16 v11, v0 offset:1026
    ds_load_i16 v12, v0 offset:1026
    ds_load_u8_d16_hi v13, v0 offset:1024
    ds_load_i8_d16 v14, v0 offset:1027
    ds_load_u16_d16 v15, v0 offset:1024
    ds_store_b16_d16_hi v0, v17 offset:2048
    ds_store_b8 v0, v17 offset:2050
    ds_load_b32 v18, v0 offset:2048
    s_waitcnt lgkmcnt(0)
    s_endpgm`, {
    vgpr: {
      0: L32.map((l) => l * 16), 1: L32.map((l) => l * 7 + 1),
      4: L32.map((l) => 0x80a0b0c0 + l), 5: L32.map((l) => 0x11223344 * (l + 1)), 6: L32.map((l) => l << 20), 7: 0xdeadbeef,
      13: 0x1234, 14: 0xabcd0000, 15: 0x55550000, 17: 0xbeef00a5,
    },
  });
  for (const l of L32) {
    assert.equal(r.v(2, l), l * 7 + 1);
    assert.equal(lds32(r, l * 16 + 16), l * 7 + 1);
    const x4 = (0x80a0b0c0 + l) >>> 0;
    assert.equal(r.v(8, l), (0x11223344 * (l + 1)) >>> 0);
    assert.equal(r.v(9, l), (l << 20) >>> 0);
    assert.deepEqual([r.v(20, l), r.v(21, l), r.v(22, l)], [x4, (0x11223344 * (l + 1)) >>> 0, (l << 20) >>> 0]);
    assert.equal(r.v(10, l), 0xffffff80); // byte 3 = 0x80 sign-extended
    assert.equal(r.v(16, l), 0x80);
    assert.equal(r.v(11, l), 0x80a0);
    assert.equal(r.v(12, l), 0xffff80a0);
    assert.equal(r.v(13, l), ((x4 & 0xff) << 16 | 0x1234) >>> 0);
    assert.equal(r.v(14, l), 0xabcdff80); // sign-extended byte in the low half, high half kept
    assert.equal(r.v(15, l), (0x55550000 | (x4 & 0xffff)) >>> 0);
    assert.equal(r.v(18, l), 0x00a5beef); // d16_hi b16 wrote 0xbeef at +0, b8 wrote 0xa5 at +2
  }
  assert.equal(r.wave.lgkmcnt, 0);
});

test('ds 2addr, stride64 and storexchg_2addr', () => {
  const r = runAsm(`
    ds_store_2addr_b32 v0, v1, v2 offset0:1 offset1:3
    ds_store_2addr_stride64_b64 v0, v[4:5], v[6:7] offset0:1 offset1:2
    ds_load_2addr_b32 v[8:9], v0 offset0:1 offset1:3
    ds_load_2addr_stride64_b64 v[10:13], v0 offset0:1 offset1:2
    ds_load_2addr_stride64_b32 v[14:15], v0 offset0:2 offset1:4
    ds_storexchg_2addr_rtn_b32 v[16:17], v0, v20, v21 offset0:1 offset1:3
    ds_load_2addr_b32 v[18:19], v0 offset0:1 offset1:3
    s_waitcnt lgkmcnt(0)
    s_endpgm`, {
    exec: 1,
    vgpr: { 0: 8, 1: 111, 2: 222, 4: 1, 5: 2, 6: 3, 7: 4, 20: 333, 21: 444 },
  });
  assert.deepEqual([r.v(8), r.v(9)], [111, 222]);
  assert.equal(lds32(r, 8 + 4), 333); // after the exchange
  assert.equal(lds32(r, 8 + 12), 444);
  // stride64 b64: unit 8 * 64 = 512 bytes
  assert.deepEqual([lds32(r, 8 + 512), lds32(r, 8 + 516), lds32(r, 8 + 1024), lds32(r, 8 + 1028)], [1, 2, 3, 4]);
  assert.deepEqual([r.v(10), r.v(11), r.v(12), r.v(13)], [1, 2, 3, 4]);
  // stride64 b32: unit 256 bytes -> 8 + 512 and 8 + 1024
  assert.deepEqual([r.v(14), r.v(15)], [1, 3]);
  assert.deepEqual([r.v(16), r.v(17)], [111, 222]);
  assert.deepEqual([r.v(18), r.v(19)], [333, 444]);
});

function atomic(src: string, init: number[], vgpr: Record<number, number | number[]>): AsmRun {
  return runAsm(`${init.map((x, i) => `v_mov_b32 v${40 + i}, ${x >>> 0 === x ? x : x >>> 0}`).join('\n')}
    ${init.map((_, i) => `ds_store_b32 v39, v${40 + i} offset:${4 * i}`).join('\n')}
    ${src}
    s_waitcnt lgkmcnt(0)
    s_endpgm`, { exec: 1, vgpr: { 39: 0, 0: 0, ...vgpr } });
}

test('ds 32-bit atomics follow the ISA definitions (with and without return)', () => {
  const cases: [string, number, number, number, number][] = [
    // op, old, data0, data1, expected new
    ['add_u32', 0xfffffffe, 3, 0, 1],
    ['sub_u32', 1, 3, 0, 0xfffffffe],
    ['rsub_u32', 1, 3, 0, 2],
    ['inc_u32', 3, 3, 0, 0],
    ['inc_u32', 2, 3, 0, 3],
    ['dec_u32', 0, 5, 0, 5],
    ['dec_u32', 7, 5, 0, 5],
    ['dec_u32', 4, 5, 0, 3],
    ['min_i32', 5, 0xfffffffd, 0, 0xfffffffd],
    ['max_i32', 5, 0xfffffffd, 0, 5],
    ['min_u32', 5, 0xfffffffd, 0, 5],
    ['max_u32', 5, 0xfffffffd, 0, 0xfffffffd],
    ['and_b32', 0xf0f0, 0xff00, 0, 0xf000],
    ['or_b32', 0xf0f0, 0xff00, 0, 0xfff0],
    ['xor_b32', 0xf0f0, 0xff00, 0, 0x0ff0],
    ['mskor_b32', 0xff00ff00, 0xffff, 0x1234, 0xff001234],
    ['cmpstore_b32', 7, 9, 7, 9],
    ['cmpstore_b32', 7, 9, 8, 7],
    ['cmpstore_f32', f32u(-0), 9, f32u(0), 9],
    ['add_f32', f32u(1.5), f32u(2.25), 0, f32u(3.75)],
    ['min_f32', f32u(1.5), f32u(-2), 0, f32u(-2)],
    ['max_f32', f32u(1.5), f32u(-2), 0, f32u(1.5)],
  ];
  for (const [op, old, d0, d1, want] of cases) {
    const head = op.slice(0, op.lastIndexOf('_'));
    const tail = op.slice(op.lastIndexOf('_') + 1);
    const two = /mskor|cmpstore/.test(op);
    const rtn = runAtomicPair(`ds_${head}_rtn_${tail} v3, v0, v1${two ? ', v2' : ''}`, old, d0, d1);
    assert.equal(lds32(rtn, 0), want >>> 0, `${op} rtn`);
    assert.equal(rtn.v(3), old >>> 0, `${op} returns the old value`);
    const nort = runAtomicPair(`ds_${op} v0, v1${two ? ', v2' : ''}`, old, d0, d1);
    assert.equal(lds32(nort, 0), want >>> 0, op);
  }
  const wrap = runAtomicPair('ds_wrap_rtn_b32 v3, v0, v1, v2', 10, 4, 100);
  assert.equal(lds32(wrap, 0), 6);
  const wrap2 = runAtomicPair('ds_wrap_rtn_b32 v3, v0, v1, v2', 2, 4, 100);
  assert.equal(lds32(wrap2, 0), 102);
  const x = runAtomicPair('ds_storexchg_rtn_b32 v3, v0, v1', 77, 88, 0);
  assert.deepEqual([lds32(x, 0), x.v(3)], [88, 77]);
});

function runAtomicPair(src: string, old: number, d0: number, d1: number): AsmRun {
  return runAsm(`ds_store_b32 v0, v10
    ${src}
    s_waitcnt lgkmcnt(0)
    s_endpgm`, { exec: 1, vgpr: { 0: 0, 10: old, 1: d0, 2: d1 } });
}

test('ds atomics from every lane to one address serialise; 64-bit and float atomics', () => {
  const r = runAsm(`ds_add_rtn_u32 v2, v0, v1
    s_waitcnt lgkmcnt(0)
    s_endpgm`, { vgpr: { 0: 0, 1: 1 } });
  assert.equal(lds32(r, 0), 32);
  assert.deepEqual(L32.map((l) => r.v(2, l)).sort((a, b) => a - b), L32);

  const run64 = (src: string, old: number[], d0: number[], d1: number[] = [0, 0]) => runAsm(`ds_store_b64 v0, v[10:11]
    ${src}
    s_waitcnt lgkmcnt(0)
    s_endpgm`, { exec: 1, vgpr: { 0: 8, 10: old[0]!, 11: old[1]!, 2: d0[0]!, 3: d0[1]!, 4: d1[0]!, 5: d1[1]! } });
  const mem64 = (r2: AsmRun) => [lds32(r2, 8), lds32(r2, 12)];
  let q = run64('ds_add_rtn_u64 v[6:7], v0, v[2:3]', [0xffffffff, 1], [1, 0]);
  assert.deepEqual(mem64(q), [0, 2]);
  assert.deepEqual([q.v(6), q.v(7)], [0xffffffff, 1]);
  q = run64('ds_sub_u64 v0, v[2:3]', [0, 2], [1, 0]);
  assert.deepEqual(mem64(q), [0xffffffff, 1]);
  q = run64('ds_min_i64 v0, v[2:3]', [0, 0xffffffff], [5, 0]); // -2^32 < 5
  assert.deepEqual(mem64(q), [0, 0xffffffff]);
  q = run64('ds_min_u64 v0, v[2:3]', [0, 0xffffffff], [5, 0]);
  assert.deepEqual(mem64(q), [5, 0]);
  q = run64('ds_max_i64 v0, v[2:3]', [0, 0xffffffff], [5, 0]);
  assert.deepEqual(mem64(q), [5, 0]);
  q = run64('ds_inc_u64 v0, v[2:3]', [5, 0], [5, 0]);
  assert.deepEqual(mem64(q), [0, 0]);
  q = run64('ds_dec_rtn_u64 v[6:7], v0, v[2:3]', [0, 0], [9, 9]);
  assert.deepEqual(mem64(q), [9, 9]);
  q = run64('ds_cmpstore_rtn_b64 v[6:7], v0, v[2:3], v[4:5]', [1, 2], [3, 4], [1, 2]);
  assert.deepEqual(mem64(q), [3, 4]);
  q = run64('ds_cmpstore_b64 v0, v[2:3], v[4:5]', [1, 2], [3, 4], [1, 3]);
  assert.deepEqual(mem64(q), [1, 2]);
  q = run64('ds_mskor_b64 v0, v[2:3], v[4:5]', [0xffffffff, 0xffffffff], [0xff, 0xf0000000], [0x12, 0x30000000]);
  assert.deepEqual(mem64(q), [0xffffff12, 0x3fffffff]);
  q = run64('ds_max_rtn_f64 v[6:7], v0, v[2:3]', f64w(1.5), f64w(2.5));
  assert.deepEqual(mem64(q), f64w(2.5));
  q = run64('ds_min_f64 v0, v[2:3]', f64w(1.5), f64w(-2.5));
  assert.deepEqual(mem64(q), f64w(-2.5));
  q = run64('ds_storexchg_rtn_b64 v[6:7], v0, v[2:3]', [1, 2], [3, 4]);
  assert.deepEqual([...mem64(q), q.v(6), q.v(7)], [3, 4, 1, 2]);
});

test('ds_append / ds_consume count the active lanes at M0 + offset', () => {
  const r = runAsm(`s_mov_b32 m0, 60
    ds_append v1 offset:4
    s_waitcnt lgkmcnt(0)
    ds_consume v2 offset:4
    s_waitcnt lgkmcnt(0)
    s_endpgm`, { exec: 0b1011, vgpr: { 1: 0xaaaa, 2: 0xbbbb } });
  assert.deepEqual([r.v(1, 0), r.v(1, 1), r.v(1, 2), r.v(1, 3)], [0, 0, 0xaaaa, 0]);
  assert.deepEqual([r.v(2, 0), r.v(2, 2), r.v(2, 3)], [3, 0xbbbb, 3]);
  assert.equal(lds32(r, 64), 0);
});

test('ds_swizzle_b32 offset patterns, ds_permute_b32 and ds_bpermute_b32', () => {
  const swz = (offset: string) => runAsm(`ds_swizzle_b32 v1, v2 offset:${offset}
    s_waitcnt lgkmcnt(0)
    s_endpgm`, { vgpr: { 2: L32.map((l) => 100 + l) } });
  let r = swz('swizzle(QUAD_PERM,1,0,3,2)');
  assert.deepEqual(L32.map((l) => r.v(1, l)), L32.map((l) => 100 + (l ^ 1)));
  r = swz('swizzle(BITMASK_PERM,"00p00")'); // MSB first: only bit 2 preserved, the others forced to 0
  assert.deepEqual(L32.map((l) => r.v(1, l)), L32.map((l) => 100 + (l & 4)));
  r = swz('swizzle(BITMASK_PERM,"ppip1")'); // bit 2 inverted, bit 0 forced to 1
  assert.deepEqual(L32.map((l) => r.v(1, l)), L32.map((l) => 100 + (((l ^ 4) | 1) & 31)));
  r = swz(String(0x1f | (4 << 10))); // xor 4
  assert.deepEqual(L32.map((l) => r.v(1, l)), L32.map((l) => 100 + (l ^ 4)));
  r = swz(String(0x1f & 0 | (5 << 5) | (0 << 10))); // and 0, or 5: broadcast lane 5
  assert.deepEqual(L32.map((l) => r.v(1, l)), L32.map(() => 105));
  r = swz(String(0xc000 | (3 << 5))); // rotate left by 3
  assert.deepEqual(L32.map((l) => r.v(1, l)), L32.map((l) => 100 + ((l + 3) & 31)));
  r = swz(String(0xc000 | (1 << 10) | (3 << 5))); // rotate right by 3
  assert.deepEqual(L32.map((l) => r.v(1, l)), L32.map((l) => 100 + ((l - 3) & 31)));
  assert.equal(swizzleSource(0x1f | (1 << 10), 33), 32); // wave64: each 32-lane half on its own
  // bpermute: lane l reads lane (l+1)%32; permute: lane l writes lane (l+1)%32
  r = runAsm(`ds_bpermute_b32 v2, v0, v1
    ds_permute_b32 v3, v0, v1
    s_waitcnt lgkmcnt(0)
    s_endpgm`, { vgpr: { 0: L32.map((l) => ((l + 1) % 32) * 4), 1: L32.map((l) => 100 + l) } });
  assert.deepEqual(L32.map((l) => r.v(2, l)), L32.map((l) => 100 + ((l + 1) % 32)));
  assert.deepEqual(L32.map((l) => r.v(3, l)), L32.map((l) => 100 + ((l + 31) % 32)));
});

test('LDS out of range: writes dropped, reads 0, multi-dword read all zero (reported)', () => {
  const src = `ds_store_b32 v0, v1 offset:1020
    ds_store_b32 v0, v1 offset:1024
    ds_load_b32 v2, v0 offset:1020
    ds_load_b32 v3, v0 offset:1024
    ds_load_b64 v[4:5], v0 offset:1020
    s_waitcnt lgkmcnt(0)
    s_endpgm`;
  const r = runAsm(src, { exec: 1, ldsBytes: 1024, vgpr: { 0: 0, 1: 0x5a5a, 3: 7, 4: 7, 5: 7 } });
  assert.equal(r.v(2), 0x5a5a);
  assert.equal(r.v(3), 0);
  assert.deepEqual([r.v(4), r.v(5)], [0, 0]);
  assert.equal(ids(r, 'gfx11.lds.out-of-range').length, 3);
  const clean = runAsm(src.replace(/offset:1024/g, 'offset:1016').replace('offset:1020\n    s_wait', 'offset:1016\n    s_wait'), { exec: 1, ldsBytes: 1024, vgpr: { 0: 0, 1: 1 } });
  assert.equal(ids(clean, 'gfx11.lds.out-of-range').length, 0);
});

test('LDS alignment modes: unaligned reads bytes, dword forces alignment, strict raises MEMVIOL', () => {
  const src = `ds_store_b64 v1, v[2:3]
    ds_load_b32 v4, v0
    s_waitcnt lgkmcnt(0)
    s_endpgm`;
  const o = { exec: 1, vgpr: { 0: 2, 1: 0, 2: 0x03020100, 3: 0x07060504 } };
  const u = runAsm(src, o);
  assert.equal(u.v(4), 0x05040302);
  assert.equal(u.diags.length, 0);
  const d = runAsm(src, { ...o, alignMode: 'dword' });
  assert.equal(d.v(4), 0x03020100);
  assert.equal(d.diags.length, 0);
  const s = runAsm(src, { ...o, alignMode: 'strict' });
  assert.equal(s.v(4), 0x03020100);
  assert.equal(ids(s, 'gfx11.lds.misaligned').length, 1);
});

test('misaligned LDS atomic raises MEMVIOL and does not modify memory', () => {
  const r = runAsm(`ds_add_u32 v0, v1
    s_waitcnt lgkmcnt(0)
    s_endpgm`, { exec: 1, vgpr: { 0: 2, 1: 5 } });
  assert.equal(ids(r, 'gfx11.mem.misaligned-atomic').length, 1);
  assert.equal(lds32(r, 0), 0);
  assert.equal(lds32(r, 4), 0);
  assert.equal(r.wave.hw[HWREG.TRAPSTS]! & TRAPSTS.EXCP_MEM_VIOL, TRAPSTS.EXCP_MEM_VIOL); // the exception is recorded
  const ok = runAsm(`ds_add_u32 v0, v1
    s_waitcnt lgkmcnt(0)
    s_endpgm`, { exec: 1, vgpr: { 0: 4, 1: 5 } });
  assert.equal(ok.diags.length, 0);
  assert.equal(lds32(ok, 4), 5);
  assert.equal(ok.wave.hw[HWREG.TRAPSTS], 0);
});

test('DS VGPR range rules: destination out of range issues with EXEC=0, source reads VGPR0', () => {
  const r = runAsm(`ds_load_b64 v[7:8], v1
    ds_store_b32 v1, v9 offset:16
    s_endpgm`, { vgprs: 8, exec: 1, vgpr: { 0: 0xabc, 1: 0, 7: 0x77 } });
  assert.equal(r.v(7), 0x77);
  assert.equal(ids(r, 'gfx11.vgpr.dst-out-of-range').length, 1);
  assert.equal(ids(r, 'gfx11.vgpr.src-out-of-range').length, 1);
  assert.equal(lds32(r, 16), 0xabc);
  assert.equal(r.wave.lgkmcnt, 2); // both still counted
});

test('GDS is not available to compute: diagnostic, no effect', () => {
  const r = runAsm(`ds_add_u32 v0, v1 gds
    s_endpgm`, { exec: 1, vgpr: { 0: 0, 1: 5 } });
  assert.equal(ids(r, 'gfx11.ds.gds-unavailable').length, 1);
  assert.equal(lds32(r, 0), 0);
});

test('DS lanes disabled in EXEC do nothing; ds_load/store_addtid use M0 + lane * 4', () => {
  const r = runAsm(`s_mov_b32 m0, 256
    ds_store_addtid_b32 v1 offset:16
    ds_load_addtid_b32 v2 offset:16
    s_waitcnt lgkmcnt(0)
    s_endpgm`, { exec: 0b101, vgpr: { 1: L32.map((l) => l + 1), 2: 9 } });
  assert.deepEqual([lds32(r, 272), lds32(r, 276), lds32(r, 280)], [1, 0, 3]);
  assert.deepEqual([r.v(2, 0), r.v(2, 1), r.v(2, 2)], [1, 9, 3]);
});

// ---- SMEM ----------------------------------------------------------------------------------

function smemMem(): { mem: Memory; base: number } {
  const mem = new Memory();
  const seg = mem.alloc(4096, 'buf');
  for (let i = 0; i < 128; i++) seg.dv.setUint32(4 * i, 0x1000 + i, true);
  return { mem, base: seg.base };
}

test('s_load_b32..b512 and s_buffer_load with offsets, soffset and dword alignment', () => {
  const { mem, base } = smemMem();
  const r = runAsm(`s_load_b32 s4, s[0:1], 0x4
    s_load_b128 s[8:11], s[0:1], 0x10
    s_load_b64 s[12:13], s[0:1], s2 offset:0x8
    s_load_b32 s14, s[0:1], 0x6
    s_load_b512 s[16:31], s[0:1], 0x40
    s_load_b32 s32, s[40:41], -4
    s_buffer_load_b128 s[36:39], s[44:47], 0x8
    s_buffer_load_b32 s33, s[44:47], s2
    s_waitcnt lgkmcnt(0)
    s_endpgm`, {
    mem,
    sgpr: { 0: base % 2 ** 32, 1: Math.floor(base / 2 ** 32), 2: 0x20, 40: (base + 16) % 2 ** 32, 41: Math.floor(base / 2 ** 32), 44: (base + 0x100) % 2 ** 32, 45: Math.floor(base / 2 ** 32), 46: 16, 47: 0 },
  });
  const d = (i: number) => 0x1000 + i;
  assert.equal(r.s(4), d(1));
  assert.deepEqual([r.s(8), r.s(9), r.s(10), r.s(11)], [d(4), d(5), d(6), d(7)]);
  assert.deepEqual([r.s(12), r.s(13)], [d(10), d(11)]); // 0x20 + 0x8
  assert.equal(r.s(14), d(1)); // low two bits ignored
  for (let i = 0; i < 16; i++) assert.equal(r.s(16 + i), d(16 + i));
  assert.equal(r.s(32), d(3));
  // num_records = 16: dwords at byte 8 and 12 exist, 16 and 20 are out of range
  assert.deepEqual([r.s(36), r.s(37), r.s(38), r.s(39)], [d(0x40 + 2), d(0x40 + 3), 0, 0]);
  assert.equal(r.s(33), 0); // soffset 0x20 >= 16
  assert.equal(r.diags.length, 0);
});

test('SMEM destination rules: misaligned tuples use the aligned SGPR; TTMP destinations need PRIV', () => {
  const { mem, base } = smemMem();
  const src = `.long 0xf4080080, 0xf8000000 // s_load_b128 s[2:5], s[0:1], 0x0 (misaligned: the assembler refuses it)
    .long 0xf4001f40, 0xf8000000 // s_load_b32 m0, s[0:1], 0x0 (SMEM cannot load M0)
    s_load_b128 ttmp[0:3], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    s_endpgm`;
  const sg = { 0: base % 2 ** 32, 1: Math.floor(base / 2 ** 32), 108: 9, 125: 0x5a };
  const r = runAsm(src, { mem, sgpr: sg });
  assert.deepEqual([r.s(0), r.s(1), r.s(2), r.s(3)], [0x1000, 0x1001, 0x1002, 0x1003]);
  assert.equal(r.s(108), 9); // user mode: TTMP writes ignored
  assert.equal(ids(r, 'gfx11.sgpr.misaligned').length, 1);
  assert.equal(r.s(125), 0x5a); // M0 kept
  assert.equal(ids(r, 'gfx11.smem.dst-out-of-range').length, 1);
  const p = runAsm(src.split('\n').slice(2).join('\n'), { mem: smemMem().mem, sgpr: { ...sg, 0: smemMem().base % 2 ** 32 }, status: 1 << 5 }); // STATUS.PRIV
  assert.equal(p.diags.length, 0);
  assert.equal(p.s(108), 0x1000); // trap handler (STATUS.PRIV): written
});

test('wave64: bpermute spans 64 lanes, swizzle works per 32-lane half, append counts both EXEC halves', () => {
  const L64 = Array.from({ length: 64 }, (_, l) => l);
  const r = runAsm(`ds_bpermute_b32 v2, v0, v1
    ds_swizzle_b32 v3, v1 offset:swizzle(SWAP,16)
    s_mov_b32 m0, 0
    ds_append v4
    s_waitcnt lgkmcnt(0)
    s_endpgm`, { waveSize: 64, vgpr: { 0: L64.map((l) => ((l + 1) % 64) * 4), 1: L64.map((l) => 100 + l) } });
  assert.deepEqual(L64.map((l) => r.v(2, l)), L64.map((l) => 100 + ((l + 1) % 64)));
  assert.deepEqual(L64.map((l) => r.v(3, l)), L64.map((l) => 100 + (l ^ 16)));
  assert.equal(lds32(r, 0), 64);
});

test('MEMVIOL enters an installed trap handler (it cannot be masked); TTMP0 holds the next PC', () => {
  const r = runAsm(`ds_add_u32 v0, v1
    s_mov_b32 s10, 1
    s_endpgm`, {
    exec: 1, vgpr: { 0: 2, 1: 5 },
    trapHandler: { source: `s_mov_b32 s11, 0x77
      s_endpgm` },
  });
  assert.equal(r.s(11), 0x77);
  assert.equal(r.s(10), 0); // the instruction after the atomic did not run
  assert.equal(ids(r, 'gfx11.mem.misaligned-atomic').length, 1);
});
