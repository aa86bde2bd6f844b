/**
 * FLAT / GLOBAL / SCRATCH and MUBUF / MTBUF semantics, one wave, written in assembly. Expected
 * values follow the RDNA3 ISA definitions (addressing, V# fields, range checking, format
 * conversion) computed here on the CPU, and the wave-state seed's memory rules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm, type AsmRun } from './exec-harness.js';
import { Memory, type Segment } from '../../src/core/memory.js';
import { APERTURE } from '../../src/amd/exec/vmem.js';
import { decodeComponent, encodeComponent } from '../../src/amd/exec/buffer.js';
import { BUF_FORMATS } from '../../src/amd/exec/buffer-formats.gen.js';
import { f16bits } from '../../src/core/float.js';
import { HWREG } from '../../src/amd/wave/wave.js';
import { TRAPSTS } from '../../src/amd/exec/trap.js';

const L32 = Array.from({ length: 32 }, (_, l) => l);
const ids = (r: AsmRun, id: string) => r.diags.filter((d) => d.id === id);
const lo = (x: number) => x % 2 ** 32;
const hi = (x: number) => Math.floor(x / 2 ** 32);
const f32u = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;

function memWith(n = 4096): { mem: Memory; seg: Segment } {
  const mem = new Memory();
  const seg = mem.alloc(n, 'buf');
  for (let i = 0; i < n / 4; i++) seg.dv.setUint32(4 * i, 0x10000 + i, true);
  return { mem, seg };
}

test('global loads/stores: 64-bit VGPR address, saddr + VGPR offset, signed offsets, sub-dword and d16', () => {
  const { mem, seg } = memWith();
  seg.dv.setUint32(0x800, 0x80a0b0c0, true);
  const r = runAsm(`global_load_b32 v4, v[0:1], off offset:-4
    global_load_b96 v[5:7], v2, s[0:1] offset:8
    global_load_i8 v8, v3, s[0:1] offset:3
    global_load_u16 v9, v3, s[0:1] offset:2
    global_load_d16_hi_i8 v10, v3, s[0:1] offset:3
    global_load_d16_b16 v11, v3, s[0:1]
    global_store_b32 v2, v12, s[0:1] offset:0x400
    global_store_d16_hi_b16 v2, v12, s[0:1] offset:0x600
    global_store_b8 v2, v12, s[0:1] offset:0x603
    s_waitcnt vmcnt(0)
    s_endpgm`, {
    mem,
    sgpr: { 0: lo(seg.base), 1: hi(seg.base) },
    vgpr: {
      0: L32.map((l) => lo(seg.base + 8 + 4 * l)), 1: hi(seg.base), 2: L32.map((l) => 16 * l), 3: 0x800,
      10: 0x1234, 11: 0xabcd0000, 12: L32.map((l) => 0x11220000 + l),
    },
  });
  for (const l of L32) {
    assert.equal(r.v(4, l), 0x10000 + 1 + l);
    assert.deepEqual([r.v(5, l), r.v(6, l), r.v(7, l)], [0, 1, 2].map((k) => 0x10000 + 4 * l + 2 + k));
    assert.equal(seg.dv.getUint32(0x400 + 16 * l, true), 0x11220000 + l);
    assert.equal(seg.dv.getUint16(0x600 + 16 * l, true), 0x1122);
    assert.equal(seg.dv.getUint8(0x603 + 16 * l), l);
  }
  assert.equal(r.v(8), 0xffffff80);
  assert.equal(r.v(9), 0x80a0);
  assert.equal(r.v(10), 0xff801234);
  assert.equal(r.v(11), 0xabcdb0c0);
  assert.equal(r.wave.vmcnt, 0);
  assert.equal(r.wave.vscnt, 3); // stores count on VS_CNT until s_waitcnt_vscnt
});

test('flat addresses route by aperture: shared -> LDS, private -> the lane scratch, else global', () => {
  const { mem, seg } = memWith();
  const sh = APERTURE.SHARED;
  const pr = APERTURE.PRIVATE;
  const r = runAsm(`flat_store_b32 v[0:1], v6
    flat_store_b32 v[2:3], v6
    flat_store_b32 v[4:5], v6
    flat_load_b32 v7, v[0:1]
    flat_load_b32 v8, v[2:3]
    scratch_load_b32 v9, off, off offset:8
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_endpgm`, {
    mem, scratchPerLane: 64,
    vgpr: {
      0: L32.map((l) => lo(sh + 4 * l)), 1: hi(sh), 2: lo(pr + 8), 3: hi(pr), 4: L32.map((l) => lo(seg.base + 4 * l)), 5: hi(seg.base),
      6: L32.map((l) => 500 + l),
    },
  });
  for (const l of L32) {
    assert.equal(new DataView(r.wave.lds.buffer).getUint32(4 * l, true), 500 + l);
    assert.equal(seg.dv.getUint32(4 * l, true), 500 + l);
    assert.equal(r.v(7, l), 500 + l);
    assert.equal(r.v(8, l), 500 + l); // each lane has its own scratch
    assert.equal(r.v(9, l), 500 + l);
  }
});

test('scratch: VGPR (sve) + SGPR + offset addressing per lane; out-of-segment accesses reported', () => {
  const r = runAsm(`scratch_store_b64 v0, v[2:3], s4 offset:4
    scratch_load_b64 v[4:5], off, s5 offset:8
    scratch_load_b32 v6, v1, off
    s_waitcnt vmcnt(0)
    s_endpgm`, { scratchPerLane: 32, sgpr: { 4: 4, 5: 4 }, vgpr: { 0: 4, 1: 12, 2: L32.map((l) => l), 3: L32.map((l) => 100 + l) } });
  for (const l of L32) {
    assert.deepEqual([r.v(4, l), r.v(5, l)], [l, 100 + l]);
    assert.equal(r.v(6, l), l); // v1 = 12: the first dword stored
  }
  assert.equal(r.diags.length, 0);
  const bad = runAsm(`scratch_load_b32 v1, off, off offset:64
    s_waitcnt vmcnt(0)
    s_endpgm`, { scratchPerLane: 32, vgpr: { 1: 5 } });
  assert.equal(bad.v(1), 0);
  assert.equal(ids(bad, 'gfx11.scratch.out-of-range').length, 1);
});

test('global/flat atomics: return with glc, cmpswap data layout, 64-bit, float, csub', () => {
  const { mem, seg } = memWith();
  const dv = seg.dv;
  const at = (o: number, v: number) => dv.setUint32(o, v >>> 0, true);
  at(0, 10); at(4, 7); at(8, 0xffffffff); at(12, 1); at(16, f32u(1.5)); at(20, 5); at(24, 3); at(28, 4);
  const r = runAsm(`global_atomic_add_u32 v10, v0, v1, s[0:1] glc
    global_atomic_cmpswap_b32 v11, v0, v[2:3], s[0:1] offset:4 glc
    global_atomic_add_u64 v[12:13], v0, v[4:5], s[0:1] offset:8 glc
    global_atomic_max_f32 v0, v6, s[0:1] offset:16
    global_atomic_csub_u32 v14, v0, v7, s[0:1] offset:20 glc
    flat_atomic_cmpswap_b64 v[15:16], v[20:21], v[22:25] glc
    s_waitcnt vmcnt(0)
    s_endpgm`, {
    mem, exec: 1,
    sgpr: { 0: lo(seg.base), 1: hi(seg.base) },
    vgpr: { 0: 0, 1: 5, 2: 99, 3: 7, 4: 1, 5: 0, 6: f32u(2.5), 7: 9, 20: lo(seg.base + 24), 21: hi(seg.base), 22: 0xaa, 23: 0xbb, 24: 3, 25: 4 },
  });
  assert.deepEqual([dv.getUint32(0, true), r.v(10)], [15, 10]);
  assert.deepEqual([dv.getUint32(4, true), r.v(11)], [99, 7]); // DATA[0] = new value, DATA[1] = compare
  assert.deepEqual([dv.getUint32(8, true), dv.getUint32(12, true), r.v(12), r.v(13)], [0, 2, 0xffffffff, 1]);
  assert.equal(dv.getFloat32(16, true), 2.5);
  assert.deepEqual([dv.getUint32(20, true), r.v(14)], [0, 5]); // 5 < 9 -> clamps at 0
  assert.deepEqual([dv.getUint32(24, true), dv.getUint32(28, true), r.v(15), r.v(16)], [0xaa, 0xbb, 3, 4]);
  assert.equal(r.diags.length, 0);
  const m2 = memWith();
  const mis = runAsm(`global_atomic_add_u32 v0, v1, s[0:1] offset:2
    s_endpgm`, { mem: m2.mem, exec: 1, sgpr: { 0: lo(seg.base), 1: hi(seg.base) }, vgpr: { 0: 0, 1: 1 } });
  assert.equal(ids(mis, 'gfx11.mem.misaligned-atomic').length, 1);
  assert.equal(mis.wave.hw[HWREG.TRAPSTS]! & TRAPSTS.EXCP_MEM_VIOL, TRAPSTS.EXCP_MEM_VIOL);
  assert.equal(r.wave.hw[HWREG.TRAPSTS], 0);
});

test('VMEM alignment modes and VGPR range rules; addtid addressing', () => {
  const { mem, seg } = memWith();
  const src = `global_load_b32 v1, v0, s[0:1] offset:2
    s_waitcnt vmcnt(0)
    s_endpgm`;
  const o = { mem, exec: 1, sgpr: { 0: lo(seg.base), 1: hi(seg.base) }, vgpr: { 0: 0 } };
  assert.equal(runAsm(src, o).v(1), ((0x10001 & 0xffff) << 16 | 0x10000 >>> 16) >>> 0);
  assert.equal(runAsm(src, { ...o, alignMode: 'dword' }).v(1), 0x10000);
  assert.equal(ids(runAsm(src, { ...o, alignMode: 'dword-strict' }), 'gfx11.mem.misaligned').length, 1);
  const oor = runAsm(`global_load_b64 v[7:8], v0, s[0:1]
    global_store_b32 v0, v9, s[0:1] offset:64
    s_endpgm`, { ...o, vgprs: 8, vgpr: { 0: 0, 7: 0x77 } });
  assert.equal(oor.v(7), 0x77);
  assert.equal(oor.wave.vmcnt, 1);
  assert.equal(ids(oor, 'gfx11.vgpr.dst-out-of-range').length, 1);
  assert.equal(ids(oor, 'gfx11.vgpr.src-out-of-range').length, 1);
  assert.equal(seg.dv.getUint32(64, true), 0); // data from VGPR0 (= 0)
  const t = runAsm(`global_load_addtid_b32 v1, s[0:1] offset:16
    s_waitcnt vmcnt(0)
    s_endpgm`, { mem, sgpr: { 0: lo(seg.base), 1: hi(seg.base) } });
  assert.deepEqual(L32.map((l) => t.v(1, l)), L32.map((l) => (l === 12 ? 0 : 0x10004 + l))); // byte 64 was stored above
});

// ---- buffers ---------------------------------------------------------------------------------

interface Vs { base: number; stride?: number; swz?: number; records: number; format?: number; istride?: number; addTid?: boolean; oob?: number }
function vsharp(v: Vs): Record<number, number> {
  const w1 = (hi(v.base) & 0xffff) | ((v.stride ?? 0) << 16) | ((v.swz ?? 0) << 30);
  const w3 = ((v.format ?? 20) << 12) | ((v.istride ?? 0) << 21) | ((v.addTid ? 1 : 0) << 23) | ((v.oob ?? 3) << 28);
  return { 0: lo(v.base), 1: w1 >>> 0, 2: v.records >>> 0, 3: w3 >>> 0 };
}

test('raw buffer (stride 0, OOB raw): offen + soffset + inst offset, dword-wise range checks', () => {
  const { mem, seg } = memWith();
  const r = runAsm(`buffer_load_b32 v1, v0, s[0:3], s4 offen offset:4
    buffer_load_b64 v[2:3], v5, s[0:3], 0 offen
    buffer_store_b32 v7, v6, s[0:3], 0 offen
    buffer_store_b32 v7, v6, s[0:3], 0 offen offset:64
    buffer_load_b32 v[8:9], v0, s[0:3], 0 offen tfe
    s_waitcnt vmcnt(0)
    s_endpgm`, {
    mem, exec: 1,
    sgpr: { ...vsharp({ base: seg.base, records: 64 }), 4: 8 },
    vgpr: { 0: 4, 5: 60, 6: 32, 7: 0xabcd, 9: 7 },
  });
  assert.equal(r.v(1), 0x10000 + 4); // base + soffset 8 + offset 4 + inst 4 = byte 16
  assert.deepEqual([r.v(2), r.v(3)], [0x10000 + 15, 0]); // second dword at byte 64 is out of range
  assert.equal(seg.dv.getUint32(32, true), 0xabcd);
  assert.equal(seg.dv.getUint32(96, true), 0x10000 + 24); // store past num_records dropped
  assert.deepEqual([r.v(8), r.v(9)], [0x10001, 0]); // tfe status dword is written 0
});

test('structured buffers: idxen, stride, num_records in records, ADD_TID_ENABLE, swizzle', () => {
  const { mem, seg } = memWith(65536);
  const dw = (b: number) => 0x10000 + b / 4;
  let r = runAsm(`buffer_load_b32 v2, v[0:1], s[0:3], 0 idxen offen offset:4
    s_waitcnt vmcnt(0)
    s_endpgm`, {
    mem, exec: 0b111,
    sgpr: vsharp({ base: seg.base, stride: 32, records: 2, oob: 1 }),
    vgpr: { 0: [0, 1, 2], 1: 8 },
  });
  assert.deepEqual([r.v(2, 0), r.v(2, 1), r.v(2, 2)], [dw(12), dw(44), 0]); // index 2 >= 2 records
  r = runAsm(`buffer_load_b32 v2, v0, s[0:3], 0 offen
    s_waitcnt vmcnt(0)
    s_endpgm`, { mem, sgpr: vsharp({ base: seg.base, stride: 16, records: 0xffffffff, addTid: true, oob: 1 }), vgpr: { 0: 4 } });
  assert.deepEqual(L32.map((l) => r.v(2, l)), L32.map((l) => dw(16 * l + 4)));
  // Swizzled: element 4 bytes (SWIZZLE_ENABLE=1), index stride 8 (INDEX_STRIDE=0), stride 12
  r = runAsm(`buffer_load_b32 v2, v[0:1], s[0:3], 0 idxen offen
    s_waitcnt vmcnt(0)
    s_endpgm`, {
    mem, exec: 0xff,
    sgpr: vsharp({ base: seg.base, stride: 12, swz: 1, records: 100, istride: 0, oob: 1 }),
    vgpr: { 0: [0, 1, 7, 8, 9, 3, 3, 3], 1: [0, 0, 0, 0, 0, 4, 8, 12] },
  });
  const swz = (index: number, off: number) => (Math.floor(index / 8) * 12 + Math.floor(off / 4) * 4) * 8 + (index % 8) * 4 + (off % 4);
  const want = [[0, 0], [1, 0], [7, 0], [8, 0], [9, 0], [3, 4], [3, 8], [3, 12]].map(([i, o]) => dw(swz(i!, o!)));
  assert.deepEqual(Array.from({ length: 8 }, (_, l) => r.v(2, l)), want);
});

test('buffer format conversion: load/store_format and tbuffer with the generated GFX11 format table', () => {
  const { mem, seg } = memWith();
  const dv = seg.dv;
  dv.setUint32(0, 0x80ff4000, true); // 8_8_8_8: x=0x00, y=0x40, z=0xff, w=0x80
  dv.setUint16(16, f16bits(1.5), true);
  dv.setUint16(18, f16bits(-2), true);
  const unorm8 = 42; // FORMAT_8_8_8_8_UNORM
  assert.equal(BUF_FORMATS[unorm8]!.name, '8_8_8_8_UNORM');
  const r = runAsm(`buffer_load_format_xyzw v[0:3], off, s[0:3], 0
    buffer_load_format_xy v[4:5], off, s[4:7], 0
    tbuffer_load_format_xyzw v[6:9], off, s[0:3], 0 format:[BUF_FMT_16_16_FLOAT] offset:16
    tbuffer_load_format_x v10, off, s[0:3], 0 format:[BUF_FMT_8_8_8_8_SINT]
    buffer_load_d16_format_xyz v[11:12], off, s[0:3], 0
    tbuffer_store_format_xyzw v[20:23], off, s[0:3], 0 format:[BUF_FMT_2_10_10_10_UNORM] offset:32
    tbuffer_store_format_xy v[24:25], off, s[0:3], 0 format:[BUF_FMT_16_16_SNORM] offset:48
    buffer_store_d16_format_xy v26, off, s[8:11], 0 offset:64
    s_waitcnt vmcnt(0)
    s_endpgm`, {
    mem, exec: 1,
    sgpr: { ...vsharp({ base: seg.base, records: 4096, format: unorm8 }), ...shift(vsharp({ base: seg.base, records: 4096, format: 5 }), 4), ...shift(vsharp({ base: seg.base, records: 4096, format: 29 }), 8) },
    vgpr: { 12: 0x77770000, 20: f32u(1), 21: f32u(0.5), 22: f32u(-1), 23: f32u(1), 24: f32u(-1), 25: f32u(0.25), 26: (f16bits(0.75) | (f16bits(-3) << 16)) >>> 0 },
  });
  assert.deepEqual([0, 1, 2, 3].map((k) => r.v(k)), [0, 0x40 / 255, 1, 0x80 / 255].map((x) => f32u(x)));
  assert.deepEqual([r.v(4), r.v(5)], [0x00, 0]); // 8_UINT: x = byte 0, y is missing -> 0
  assert.deepEqual([6, 7, 8, 9].map((k) => r.v(k)), [f32u(1.5), f32u(-2), 0, f32u(1)]); // missing z = 0, w = 1.0
  assert.equal(r.v(10), 0);
  assert.equal(r.v(11), (f16bits(0) | (f16bits(0x40 / 255) << 16)) >>> 0);
  assert.equal(r.v(12), (0x77770000 | f16bits(1)) >>> 0); // d16 xyz: z in the low half of the second VGPR
  assert.equal(dv.getUint32(32, true), (1023 | (512 << 10) | (0 << 20) | (3 << 30)) >>> 0); // unorm clamps -1 to 0
  assert.deepEqual([dv.getUint16(48, true), dv.getUint16(50, true)], [(-32767 & 0xffff), 8192]);
  assert.deepEqual([dv.getUint16(64, true), dv.getUint16(66, true)], [f16bits(0.75), f16bits(-3)]);
  // conversions of the packed small floats
  assert.equal(decodeComponent(0x3c0, 11, 'float'), f32u(1)); // 11-bit: exponent 15, mantissa 0
  assert.equal(encodeComponent(f32u(1), 10, 'float'), 0x1e0);
  assert.equal(decodeComponent(0x80, 8, 'snorm'), f32u(-1)); // -128 clamps to -1.0
});

function shift(o: Record<number, number>, by: number): Record<number, number> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [Number(k) + by, v]));
}

test('buffer atomics (glc returns the old value in vdata), buffer_load_lds, invalid formats', () => {
  const { mem, seg } = memWith();
  const r = runAsm(`buffer_atomic_add_u32 v0, v1, s[0:3], 0 offen glc
    buffer_atomic_cmpswap_b64 v[2:5], v1, s[0:3], 0 offen offset:8 glc
    buffer_atomic_max_i32 v6, v1, s[0:3], 0 offen offset:4
    s_mov_b32 m0, 64
    buffer_load_lds_b32 v1, s[0:3], 0 offen
    s_waitcnt vmcnt(0)
    s_endpgm`, {
    mem, exec: 1,
    sgpr: vsharp({ base: seg.base, records: 4096 }),
    vgpr: { 0: 5, 1: 0, 2: 1, 3: 2, 4: 0x10002, 5: 0x10003, 6: 0xffffffff },
  });
  assert.deepEqual([seg.dv.getUint32(0, true), r.v(0)], [0x10005, 0x10000]);
  assert.deepEqual([seg.dv.getUint32(8, true), seg.dv.getUint32(12, true), r.v(2), r.v(3)], [1, 2, 0x10002, 0x10003]);
  assert.equal(seg.dv.getUint32(4, true), 0x10001); // max_i32 with -1 keeps the old value
  assert.equal(new DataView(r.wave.lds.buffer).getUint32(64, true), 0x10005);
  const bad = runAsm(`buffer_load_format_x v0, off, s[0:3], 0
    s_waitcnt vmcnt(0)
    s_endpgm`, { mem, exec: 1, sgpr: vsharp({ base: seg.base, records: 64, format: 0 }), vgpr: { 0: 9 } });
  assert.equal(bad.v(0), 0);
  assert.equal(ids(bad, 'gfx11.buffer.invalid-format').length, 1);
});

test('buffer scratch through a private-segment V# (ADD_TID_ENABLE, STRIDE = bytes per lane) aliases scratch_*', () => {
  // The V# dispatch.ts builds for the private_segment_buffer user SGPRs.
  const scratchPerLane = 48;
  const probe = runAsm('s_endpgm', { scratchPerLane });
  const base = probe.wave.scratchBase; // a fresh Memory places scratch at the same address every run
  const r = runAsm(`scratch_store_b32 off, v1, off offset:20
    buffer_load_b32 v2, off, s[0:3], 0 offset:20
    buffer_store_b32 v3, off, s[0:3], s4 offset:4
    scratch_load_b32 v4, off, off offset:12
    s_waitcnt vmcnt(0)
    s_endpgm`, {
    scratchPerLane,
    sgpr: { ...vsharp({ base, stride: scratchPerLane, records: 0xffffffff, addTid: true }), 4: 8 },
    vgpr: { 1: L32.map((l) => 7 * l + 1), 3: L32.map((l) => 1000 + l) },
  });
  assert.equal(r.wave.scratchBase, base);
  assert.deepEqual(L32.map((l) => r.v(2, l)), L32.map((l) => 7 * l + 1));
  assert.deepEqual(L32.map((l) => r.v(4, l)), L32.map((l) => 1000 + l));
});

test('wave64 global access uses both EXEC halves; EXEC=0 still issues (counts) without touching memory', () => {
  const { mem, seg } = memWith();
  const L64 = Array.from({ length: 64 }, (_, l) => l);
  const r = runAsm(`global_load_b32 v1, v0, s[0:1]
    global_store_b32 v0, v2, s[0:1] offset:1024
    s_waitcnt vmcnt(0)
    s_endpgm`, { mem, waveSize: 64, exec: 0x0000ffff, execHi: 0xffff0000, sgpr: { 0: lo(seg.base), 1: hi(seg.base) }, vgpr: { 0: L64.map((l) => 4 * l), 1: 7, 2: L64.map((l) => 900 + l) } });
  const on = (l: number) => l < 16 || l >= 48;
  assert.deepEqual(L64.map((l) => r.v(1, l)), L64.map((l) => (on(l) ? 0x10000 + l : 7)));
  assert.deepEqual(L64.map((l) => seg.dv.getUint32(1024 + 4 * l, true)), L64.map((l) => (on(l) ? 900 + l : 0x10000 + 256 + l)));
  const z = runAsm(`global_store_b32 v0, v2, s[0:1]
    global_load_b32 v1, v0, s[0:1]
    s_endpgm`, { mem, exec: 0, sgpr: { 0: lo(seg.base), 1: hi(seg.base) }, vgpr: { 0: 0, 1: 7, 2: 5 } });
  assert.deepEqual([z.wave.vmcnt, z.wave.vscnt, z.v(1), seg.dv.getUint32(0, true)], [1, 1, 7, 0x10000]);
});
