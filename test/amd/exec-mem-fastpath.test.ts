// Memory fast paths (flat.ts, ds.ts, buffer.ts, smem.ts under the 'fast' engine) against the
// reference interpreter: the same program on the same memory under both engines must leave the
// same VGPRs, SGPRs, memory bytes, LDS bytes, counters, fault count and diagnostics, both where
// the fast path applies (every lane aligned, in range, in one segment) and where it must step
// aside (misaligned, out of range, a segment edge, unmapped memory, an aperture, partial EXEC).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { APERTURE } from '../../src/amd/exec/vmem.js';
import { memFallbacks } from '../../src/amd/engine/fast-mem.js';
import { runAsm, type AsmRunOptions } from './exec-harness.js';

const lo = (x: number) => x % 0x1_0000_0000;
const hi = (x: number) => Math.floor(x / 0x1_0000_0000);

/** A memory with one 4 KiB buffer of a known pattern, the same layout every call. */
function world(): { mem: Memory; base: number } {
  const mem = new Memory();
  const seg = mem.alloc(4096, 'buf');
  for (let i = 0; i < 1024; i++) seg.dv.setUint32(i * 4, (0x1000 + i * 7) >>> 0, true);
  return { mem, base: seg.base };
}

function lanes(f: (l: number) => number, n = 64): number[] {
  return Array.from({ length: n }, (_, l) => f(l) >>> 0);
}

/** Run under both engines on fresh identical worlds and compare everything observable. */
function same(name: string, src: string, opts: (base: number) => AsmRunOptions, expectFast?: (r: ReturnType<typeof runAsm>, base: number) => void, fellBack?: boolean): void {
  let fallbacks = 0;
  const runs = (['fast', 'interp'] as const).map((engine) => {
    const { mem, base } = world();
    const o = opts(base);
    const n0 = memFallbacks.n;
    const r = runAsm(src, { ...o, mem, engine, ldsBytes: o.ldsBytes ?? 1024 });
    if (engine === 'fast') fallbacks = memFallbacks.n - n0;
    return { r, base, bytes: Uint8Array.from(mem.find(base, 4096)!.u8) };
  });
  // The generated global/flat/DS handlers (fast-mem.ts) count each instruction they hand back.
  if (fellBack !== undefined) assert.equal(fallbacks > 0, fellBack, `${name}: ${fallbacks} instructions fell back to the reference`);
  const [f, i] = runs as [typeof runs[0], typeof runs[0]];
  assert.deepEqual(f.r.wave.v, i.r.wave.v, `${name}: VGPRs`);
  assert.deepEqual(f.r.wave.s, i.r.wave.s, `${name}: SGPRs`);
  assert.deepEqual(f.bytes, i.bytes, `${name}: memory`);
  assert.deepEqual(f.r.wave.lds, i.r.wave.lds, `${name}: LDS`);
  assert.equal(f.r.mem.faults, i.r.mem.faults, `${name}: faults`);
  assert.deepEqual([f.r.wave.vmcnt, f.r.wave.vscnt, f.r.wave.lgkmcnt, f.r.wave.laneOps], [i.r.wave.vmcnt, i.r.wave.vscnt, i.r.wave.lgkmcnt, i.r.wave.laneOps], `${name}: counters`);
  assert.deepEqual(f.r.diags.map((d) => [d.id, d.where, d.message]), i.r.diags.map((d) => [d.id, d.where, d.message]), `${name}: diagnostics`);
  expectFast?.(f.r, f.base);
}

const G = (base: number, per: (l: number) => number, extra: Partial<AsmRunOptions> = {}): AsmRunOptions => ({
  vgpr: { 0: lanes((l) => lo(base + per(l))), 1: lanes((l) => hi(base + per(l))), 2: lanes((l) => 0xabc00000 + l), 3: lanes((l) => l * 3), 4: lanes((l) => l * 5), 5: lanes((l) => l) },
  ...extra,
});

const GLOBAL = `global_load_b32 v10, v[0:1], off
  global_load_b64 v[12:13], v[0:1], off offset:8
  global_load_b128 v[16:19], v[0:1], off offset:-16
  global_store_b32 v[0:1], v2, off offset:4
  global_store_b64 v[0:1], v[2:3], off offset:2048
  flat_load_b32 v20, v[0:1]
  flat_store_b96 v[0:1], v[2:4] offset:1024
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_endpgm`;

test('global/flat dword loads and stores: in range (fast) and at the edges (reference)', () => {
  same('aligned', GLOBAL, (b) => G(b, (l) => 64 + 8 * l), (r) => assert.equal(r.v(10, 1), 0x1000 + 18 * 7), false);
  same('wave64 partial exec', GLOBAL, (b) => G(b, (l) => 64 + 4 * l, { waveSize: 64, exec: 0xf0f0f0f0, execHi: 0x0000ffff }), undefined, false);
  same('misaligned lane', GLOBAL, (b) => G(b, (l) => (l === 5 ? 66 : 64 + 4 * l)), undefined, true);
  same('straddling the segment end', GLOBAL, (b) => G(b, (l) => 4096 - 64 + 8 * l), undefined, true);
  same('unmapped', GLOBAL, (b) => G(b, (l) => 0x10_0000 + 4 * l), undefined, true);
  same('saddr form', `global_load_b32 v10, v5, s[0:1] offset:16
    global_store_b32 v5, v2, s[0:1] offset:512
    s_waitcnt vmcnt(0)
    s_endpgm`, (b) => ({ ...G(b, () => 0), sgpr: { 0: lo(b), 1: hi(b) }, vgpr: { 5: lanes((l) => 4 * l), 2: lanes((l) => 0x5000 + l) } }), undefined, false);
  // A load over its own address registers, with the last lane failing: every lane checked first.
  const self = `global_load_b64 v[0:1], v[0:1], off
    s_waitcnt vmcnt(0)
    s_endpgm`;
  same('load over its address, clean', self, (b) => G(b, (l) => 8 * l), undefined, false);
  same('load over its address, last lane unmapped', self, (b) => G(b, (l) => (l === 31 ? 0x20_0000 : 8 * l)), undefined, true);
  // Lanes before the failing one were loaded over their addresses: those are put back first.
  same('load over its address, a middle lane misaligned', self, (b) => G(b, (l) => (l === 17 ? 8 * l + 2 : 8 * l)), undefined, true);
  same('load over its address, wave64 partial exec, lane 45 unmapped', self, (b) => G(b, (l) => (l === 45 ? 0x20_0000 : 8 * l), { waveSize: 64, exec: 0xf0f0f0f0, execHi: 0x0000ffff }), undefined, true);
  same('load over its address, wave64 partial exec, clean', self, (b) => G(b, (l) => 8 * l, { waveSize: 64, exec: 0xf0f0f0f0, execHi: 0x0000ffff }), undefined, false);
  for (const [name, src] of [['b32 over the low dword', 'global_load_b32 v0, v[0:1], off offset:4'], ['b32 over the high dword', 'global_load_b32 v1, v[0:1], off'],
    ['b128 over both', 'global_load_b128 v[0:3], v[0:1], off offset:16']]) {
    same(`${name}, lane 9 past the end`, `${src}\n    s_waitcnt vmcnt(0)\n    s_endpgm`, (b) => G(b, (l) => (l === 9 ? 4096 : 16 * l)), undefined, true);
    same(`${name}, clean`, `${src}\n    s_waitcnt vmcnt(0)\n    s_endpgm`, (b) => G(b, (l) => 16 * l), undefined, false);
  }
  // Offsets from the low address dword: an immediate offset carrying into the high dword (the
  // segment starts at a 4 GiB boundary), lanes on both sides of it, a negative offset below the start.
  const one = (op: string) => `${op}\n    s_waitcnt vmcnt(0)\n    s_endpgm`;
  same('offset carrying into the high dword', one('global_load_b32 v10, v[0:1], off offset:16'), (b) => G(b, (l) => -16 + 4 * (l & 3)), (r) => assert.equal(r.v(10, 1), 0x1000 + 7), false);
  same('byte offset carrying into the high dword', one('global_load_u8 v10, v[0:1], off offset:16'), (b) => G(b, (l) => -16 + (l & 15)), undefined, false);
  same('store with an offset carrying into the high dword', one('global_store_b32 v[0:1], v2, off offset:8'), (b) => G(b, (l) => -8 + 4 * (l & 1)), undefined, false);
  same('lanes on both sides of the 4 GiB line', one('global_load_b32 v10, v[0:1], off offset:16'), (b) => G(b, (l) => -16 + 4 * l), undefined, true);
  same('wave64, a lane below the segment', one('global_load_b64 v[10:11], v[0:1], off offset:-8'), (b) => G(b, (l) => (l === 40 ? 4 : 8 + 8 * l), { waveSize: 64 }), undefined, true);
  same('saddr with a large VGPR offset', one('global_load_b32 v10, v5, s[0:1] offset:-4'), (b) => ({ ...G(b, () => 0), sgpr: { 0: lo(b - 0x100), 1: hi(b - 0x100) }, vgpr: { 5: lanes((l) => 0x104 + 4 * l) } }), undefined, false);
  same('saddr, a lane past 2^32', one('global_load_b32 v10, v5, s[0:1]'), (b) => ({ ...G(b, () => 0), sgpr: { 0: lo(b - 0x100), 1: hi(b - 0x100) }, vgpr: { 5: lanes((l) => (l === 3 ? 0xfffffffc : 0x100 + 4 * l)) } }), undefined, true);
  same('flat into the LDS aperture', `flat_store_b32 v[0:1], v2
    flat_load_b32 v10, v[0:1] offset:4
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_endpgm`, () => ({ vgpr: { 0: lanes((l) => lo(APERTURE.SHARED + 4 * l)), 1: lanes((l) => hi(APERTURE.SHARED + 4 * l)), 2: lanes((l) => l + 1) } }), undefined, true);
});

test('global/flat byte loads (u8, i8): any alignment in range (fast), the edges (reference)', () => {
  const BYTES = `global_load_u8 v10, v[0:1], off
    global_load_i8 v11, v[0:1], off offset:1
    global_load_i8 v12, v[0:1], off offset:-3
    flat_load_u8 v13, v[0:1] offset:2
    flat_load_i8 v14, v[0:1] offset:7
    global_load_u8 v15, v5, s[2:3] offset:5
    global_load_i8 v16, v5, s[2:3]
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_endpgm`;
  const B = (b: number, per: (l: number) => number, extra: Partial<AsmRunOptions> = {}) => ({ ...G(b, per, extra), sgpr: { 2: lo(b), 3: hi(b) }, vgpr: { ...G(b, per).vgpr, 5: lanes((l) => 3 * l + 1) } });
  // Odd addresses, bytes >= 0x80 (the pattern's low bytes reach 0x8c): sign extension matters.
  same('odd addresses', BYTES, (b) => B(b, (l) => 77 + 13 * l), (r) => assert.equal(r.v(12, 1), ((0x1000 + 22 * 7) >>> 16) & 0xff), false);
  same('wave64 partial exec', BYTES, (b) => B(b, (l) => 300 + 5 * l, { waveSize: 64, exec: 0xf0f0f0f0, execHi: 0x0000ffff }), undefined, false);
  same('last byte of the segment', `global_load_u8 v10, v[0:1], off
    s_waitcnt vmcnt(0)
    s_endpgm`, (b) => G(b, (l) => 4064 + l), undefined, false);
  same('past the segment end', BYTES, (b) => B(b, (l) => 4096 - 20 + l), undefined, true);
  same('unmapped', BYTES, (b) => B(b, (l) => 0x10_0000 + l), undefined, true);
  const self = `global_load_i8 v0, v[0:1], off offset:3
    s_waitcnt vmcnt(0)
    s_endpgm`;
  same('byte load over its address, clean', self, (b) => G(b, (l) => 8 * l), undefined, false);
  same('byte load over its address, last lane unmapped', self, (b) => G(b, (l) => (l === 31 ? 0x20_0000 : 8 * l)), undefined, true);
  same('flat byte load in the LDS aperture', `flat_load_u8 v10, v[0:1] offset:3
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_endpgm`, () => ({ vgpr: { 0: lanes((l) => lo(APERTURE.SHARED + 4 * l)), 1: lanes((l) => hi(APERTURE.SHARED + 4 * l)) } }), undefined, true);
});

const DS = `ds_store_b32 v0, v2
  ds_load_b32 v10, v0 offset:4
  ds_store_b64 v0, v[2:3] offset:256
  ds_load_b64 v[12:13], v0 offset:256
  ds_store_2addr_b32 v0, v2, v3 offset0:1 offset1:9
  ds_load_2addr_b32 v[14:15], v0 offset0:1 offset1:9
  ds_store_2addr_stride64_b64 v0, v[2:3], v[4:5] offset1:1
  ds_load_2addr_b64 v[16:19], v0 offset1:64
  ds_add_u32 v0, v5 offset:8
  ds_add_rtn_u32 v20, v0, v5 offset:8
  ds_max_rtn_u32 v21, v0, v3 offset:8
  s_waitcnt lgkmcnt(0)
  s_endpgm`;

test('DS loads, stores, 2addr forms and 32-bit atomics: in range (fast) and at the edges (reference)', () => {
  const D = (per: (l: number) => number, extra: Partial<AsmRunOptions> = {}) => (b: number) => ({ ...G(b, () => 0), vgpr: { ...G(b, () => 0).vgpr, 0: lanes(per) }, ldsBytes: 2048, ...extra });
  same('aligned', DS, D((l) => 4 * l), (r) => assert.equal(r.v(10, 0), 0xabc00001), false);
  same('same address in every lane', DS, D(() => 16), undefined, false);
  same('wave64 partial exec', DS, D((l) => 8 * l, { waveSize: 64, exec: 0x12345678, execHi: 0x9abcdef0 }), undefined, false);
  same('misaligned lane', DS, D((l) => (l === 3 ? 2 : 4 * l)), undefined, true);
  same('out of range', DS, D((l) => 1024 + 32 * l), undefined, true);
  same('address wraps past 2^32', DS, D((l) => (l === 7 ? 0xfffffffc : 4 * l)), undefined, true);
  const self = `ds_load_2addr_b32 v[0:1], v0 offset1:4
    s_waitcnt lgkmcnt(0)
    s_endpgm`;
  same('2addr load over its address', self, D((l) => 4 * l), undefined, false);
  same('2addr load over its address, last lane out of range', self, D((l) => (l === 31 ? 4096 : 4 * l)), undefined, true);
});

test('scratch dword loads and stores: in range (fast) and outside the lane (reference)', () => {
  const src = `scratch_store_b32 v0, v2, off
    scratch_load_b32 v10, v0, off
    scratch_store_b64 v0, v[2:3], off offset:8
    scratch_load_b64 v[12:13], v0, off offset:8
    s_waitcnt vmcnt(0)
    s_endpgm`;
  same('in range', src, (b) => ({ ...G(b, () => 0), vgpr: { ...G(b, () => 0).vgpr, 0: lanes((l) => 4 * (l % 4)) }, scratchPerLane: 64 }));
  same('past the lane', src, (b) => ({ ...G(b, () => 0), vgpr: { ...G(b, () => 0).vgpr, 0: lanes((l) => (l === 9 ? 60 : 4)) }, scratchPerLane: 64 }));
  same('misaligned', src, (b) => ({ ...G(b, () => 0), vgpr: { ...G(b, () => 0).vgpr, 0: lanes((l) => (l === 9 ? 6 : 4)) }, scratchPerLane: 64 }));
});

test('buffer dword loads and stores and s_load: in range (fast) and out of range (reference)', () => {
  const src = `buffer_load_b32 v10, v0, s[0:3], 0 offen offset:4
    buffer_load_b64 v[12:13], v0, s[0:3], s4 offen
    buffer_store_b32 v2, v0, s[0:3], 0 offen offset:1024
    buffer_load_b32 v[14:15], v0, s[0:3], 0 offen tfe
    s_load_b64 s[8:9], s[6:7], 0x10
    s_load_b128 s[12:15], s[6:7], 0xff8
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_endpgm`;
  const V = (b: number, records: number, off: (l: number) => number) => ({
    vgpr: { 0: lanes(off), 2: lanes((l) => 0x7000 + l) },
    sgpr: { 0: lo(b), 1: hi(b) & 0xffff, 2: records, 3: (20 << 12) | (3 << 28), 4: 8, 6: lo(b), 7: hi(b) },
  });
  same('in range', src, (b) => V(b, 4096, (l) => 4 * l), (r) => assert.equal(r.v(10, 2), 0x1000 + 3 * 7));
  same('records cut the wave', src, (b) => V(b, 100, (l) => 4 * l));
  same('misaligned offset', src, (b) => V(b, 4096, (l) => (l === 1 ? 5 : 4 * l)));
  same('swizzled V#', src, (b) => { const o = V(b, 4096, (l) => 4 * l); return { ...o, sgpr: { ...o.sgpr, 1: (hi(b) & 0xffff) | (16 << 16) | (1 << 30) } }; });
});

test('generated memory handlers: destinations over their address/data registers, shared addresses, EXEC=0', () => {
  const glob = `global_load_b32 v1, v[0:1], off offset:4
    global_load_b128 v[0:3], v[6:7], off
    global_store_b32 v[8:9], v2, off
    global_store_b64 v[8:9], v[4:5], off offset:16
    s_waitcnt vmcnt(0)
    s_endpgm`;
  const GG = (b: number, exec?: number) => ({
    ...(exec !== undefined ? { exec } : {}),
    vgpr: {
      0: lanes((l) => lo(b + 8 * l)), 1: lanes((l) => hi(b + 8 * l)), 2: lanes((l) => 0x700 + l), 4: lanes((l) => 0x900 + l), 5: lanes((l) => 0xa00 + l),
      6: lanes((l) => lo(b + 16 * l)), 7: lanes((l) => hi(b + 16 * l)),
      // Every lane stores to the same dword: the last active lane's value stays.
      8: lanes(() => lo(b + 32)), 9: lanes(() => hi(b + 32)),
    },
  });
  same('overlaps, one address for all lanes', glob, (b) => GG(b), undefined, false);
  same('same, partial EXEC', glob, (b) => GG(b, 0x0ff00ff0), undefined, false);
  same('EXEC=0', glob, (b) => GG(b, 0), undefined, true);
  const dsSrc = `ds_store_b128 v0, v[2:5]
    ds_load_b128 v[0:3], v0
    ds_add_rtn_u32 v5, v6, v5 offset:512
    ds_add_rtn_u32 v6, v6, v5 offset:512
    ds_cmpstore_rtn_b32 v20, v7, v3, v4 offset:8
    ds_dec_rtn_u32 v21, v7, v4 offset:8
    ds_min_i32 v7, v2 offset:8
    ds_store_2addr_b64 v7, v[2:3], v[4:5] offset0:3 offset1:3
    ds_load_2addr_stride64_b32 v[7:8], v7 offset0:1 offset1:2
    s_waitcnt lgkmcnt(0)
    s_endpgm`;
  const DD = (exec?: number) => () => ({
    ...(exec !== undefined ? { exec } : {}),
    ldsBytes: 2048,
    vgpr: {
      0: lanes((l) => 16 * l), 2: lanes((l) => 0xfffffff0 + l), 3: lanes((l) => l & 3), 4: lanes((l) => (l * 7) & 15), 5: lanes((l) => l + 1),
      6: lanes((l) => 4 * (l & 7)), 7: lanes((l) => 4 * (l & 1)),
    },
  });
  same('DS overlaps and shared addresses', dsSrc, DD(), undefined, false);
  same('DS, partial EXEC', dsSrc, DD(0x80000001), undefined, false);
  same('DS, EXEC=0', dsSrc, DD(0), undefined, true);
});
