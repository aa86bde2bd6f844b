/**
 * MUBUF/MTBUF on each generation read that generation's V# (buffer.ts, layouts generated from Mesa's
 * gfx11-rsrc.json / gfx10-rsrc.json / gfx9.json): FORMAT numbering (GFX11_FORMAT, GFX10_FORMAT, GFX9
 * DATA_FORMAT + NUM_FORMAT), MTBUF's format field, SWIZZLE_ENABLE's width (GFX10's bit 30 is
 * CACHE_SWIZZLE), OOB_SELECT on GFX10+ and GFX9's fixed raw/structured/private range rules.
 * Expected values come from the ISA's addressing formulas, computed here independently.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm } from './exec-harness.js';
import { Memory, type Segment } from '../../src/core/memory.js';
import { targets } from '../../src/amd/isa/targets.js';
import type { IsaTarget } from '../../src/amd/isa/target.js';
import { bufFormatByName, bufGenOf, packVsharp, type VsharpFields } from '../../src/amd/exec/buffer.js';
import { BUF_FORMATS_GFX9_UNSUPPORTED, OOB_SELECT } from '../../src/amd/exec/buffer-formats.gen.js';

interface Gen { readonly name: string; readonly gfx: 9 | 10 | 11; readonly target: IsaTarget; readonly ws: 32 | 64; readonly ld: string; readonly st: string }
const GENS: readonly Gen[] = [
  { name: 'gfx1100', gfx: 11, target: targets.gfx1100!, ws: 32, ld: 'buffer_load_b32', st: 'buffer_store_b32' },
  { name: 'gfx1030', gfx: 10, target: targets.gfx1030!, ws: 32, ld: 'buffer_load_dword', st: 'buffer_store_dword' },
  { name: 'gfx900', gfx: 9, target: targets.gfx900!, ws: 64, ld: 'buffer_load_dword', st: 'buffer_store_dword' },
];
const byName = (n: string): Gen => GENS.find((g) => g.name === n)!;

function memWith(n = 4096): { mem: Memory; seg: Segment } {
  const mem = new Memory();
  const seg = mem.alloc(n, 'buf');
  for (let i = 0; i < n / 4; i++) seg.dv.setUint32(4 * i, 0x10000 + i, true);
  return { mem, seg };
}
const dw = (byte: number): number => 0x10000 + byte / 4;
const sg = (g: Gen, v: VsharpFields): Record<number, number> => Object.fromEntries(packVsharp(bufGenOf(g.gfx), v).map((x, i) => [i, x]));

test('each generation numbers the same buffer format differently; buffer_load_format reads it through its own table', () => {
  const vals = GENS.map((g) => bufFormatByName(bufGenOf(g.gfx), '8_8_8_8_UNORM'));
  assert.equal(new Set(vals).size, 3, `values ${vals.join(', ')}`);
  for (const g of GENS) {
    const { mem, seg } = memWith();
    seg.dv.setUint32(16, 0xff804000, true); // X=0x00 Y=0x40 Z=0x80 W=0xff
    const fmt = bufFormatByName(bufGenOf(g.gfx), '8_8_8_8_UNORM')!;
    const r = runAsm(`buffer_load_format_xyzw v[4:7], v0, s[0:3], 0 offen\ns_waitcnt vmcnt(0)\ns_endpgm`, {
      target: g.target, waveSize: g.ws, execHi: 0, mem, exec: 1, sgpr: sg(g, { base: seg.base, records: 4096, format: fmt }), vgpr: { 0: 16 },
    });
    assert.deepEqual([4, 5, 6, 7].map((k) => r.vf(k)), [0, 0x40 / 255, 0x80 / 255, 1].map((x) => Math.fround(x)), g.name);
    assert.equal(r.diags.length, 0, g.name);
  }
});

test('gfx900: 32_32 + FLOAT as DATA_FORMAT/NUM_FORMAT; a pair no format defines is diagnosed (gfx11.buffer.invalid-format), loads 0', () => {
  const g = byName('gfx900');
  const { mem, seg } = memWith();
  const fmt = bufFormatByName(bufGenOf(9), '32_32_FLOAT')!;
  assert.equal(fmt, 11 | (7 << 4)); // BUF_DATA_FORMAT_32_32 | BUF_NUM_FORMAT_FLOAT << 4
  const ok = runAsm(`buffer_load_format_xy v[4:5], v0, s[0:3], 0 offen\ns_waitcnt vmcnt(0)\ns_endpgm`, { target: g.target, waveSize: 64, execHi: 0, mem, exec: 1, sgpr: sg(g, { base: seg.base, records: 4096, format: fmt }), vgpr: { 0: 8 } });
  assert.deepEqual([ok.v(4), ok.v(5)], [dw(8), dw(12)]);
  assert.equal(ok.diags.length, 0);
  const bad = Number(Object.entries(BUF_FORMATS_GFX9_UNSUPPORTED).find(([, n]) => n === '32_UNORM')![0]);
  const r = runAsm(`buffer_load_format_x v4, v0, s[0:3], 0 offen\ns_waitcnt vmcnt(0)\ns_endpgm`, { target: g.target, waveSize: 64, execHi: 0, mem, exec: 1, sgpr: sg(g, { base: seg.base, records: 4096, format: bad }), vgpr: { 0: 8, 4: 7 } });
  assert.equal(r.v(4), 0);
  assert.deepEqual(r.diags.map((d) => d.id), ['gfx11.buffer.invalid-format']);
});

test('MTBUF format field: GFX9 dfmt | nfmt << 4, GFX10 unified FORMAT, GFX11 its own numbering', () => {
  const cases: Record<string, string> = {
    gfx900: 'format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_UINT]',
    gfx1030: 'format:[BUF_FMT_16_16_UINT]',
    gfx1100: 'format:[BUF_FMT_16_16_UINT]',
  };
  for (const g of GENS) {
    const { mem, seg } = memWith();
    seg.dv.setUint32(20, 0xbeef1234, true);
    const r = runAsm(`tbuffer_load_format_xy v[4:5], v0, s[0:3], 0 ${cases[g.name]} offen\ns_waitcnt vmcnt(0)\ns_endpgm`, {
      target: g.target, waveSize: g.ws, execHi: 0, mem, exec: 1, sgpr: sg(g, { base: seg.base, records: 4096 }), vgpr: { 0: 20 },
    });
    assert.deepEqual([r.v(4), r.v(5)], [0x1234, 0xbeef], g.name);
    assert.equal(r.diags.length, 0, g.name);
  }
});

test('swizzle: GFX9/GFX10 have a 1-bit SWIZZLE_ENABLE (4-byte elements); GFX10 CACHE_SWIZZLE (bit 30) changes no address', () => {
  for (const g of GENS) {
    const { mem, seg } = memWith(65536);
    // stride 12, index stride 8, element 4: index i, offset o -> (i/8*12 + o/4*4)*8 + (i%8)*4 + o%4
    const words = packVsharp(bufGenOf(g.gfx), { base: seg.base, stride: 12, swizzle: 1, records: 100, indexStride: 0, oob: OOB_SELECT.STRUCTURED });
    if (g.gfx === 10) words[1] = (words[1]! | (1 << 30)) >>> 0; // CACHE_SWIZZLE
    const lanes = 8;
    const r = runAsm(`${g.ld} v2, v[0:1], s[0:3], 0 idxen offen\ns_waitcnt vmcnt(0)\ns_endpgm`, {
      target: g.target, waveSize: g.ws, execHi: 0, mem, exec: 0xff, sgpr: Object.fromEntries(words.map((x, i) => [i, x])),
      vgpr: { 0: Array.from({ length: g.ws }, (_, l) => l * 3), 1: 4 },
    });
    for (let l = 0; l < lanes; l++) {
      const i = l * 3, o = 4;
      const byte = (Math.floor(i / 8) * 12 + Math.floor(o / 4) * 4) * 8 + (i % 8) * 4 + (o % 4);
      assert.equal(r.v(2, l), dw(byte), `${g.name} lane ${l}`);
    }
  }
});

test('gfx1030 range checks follow the V#\'s OOB_SELECT (GFX10 layout: bits 29:28)', () => {
  const g = byName('gfx1030');
  const { mem, seg } = memWith();
  const run = (oob: number, records: number) => runAsm(`${g.ld} v2, v[0:1], s[0:3], 0 idxen offen\ns_waitcnt vmcnt(0)\ns_endpgm`, {
    target: g.target, waveSize: 32, mem, exec: 0b111, sgpr: sg(g, { base: seg.base, stride: 16, records, oob }), vgpr: { 0: [0, 1, 2], 1: [0, 20, 4] },
  });
  // STRUCTURED_WITH_OFFSET: index < 2 and offset + 4 <= stride.
  let r = run(OOB_SELECT.STRUCTURED_WITH_OFFSET, 2);
  assert.deepEqual([0, 1, 2].map((l) => r.v(2, l)), [dw(0), 0, 0]);
  // STRUCTURED: index < 2 only.
  r = run(OOB_SELECT.STRUCTURED, 2);
  assert.deepEqual([0, 1, 2].map((l) => r.v(2, l)), [dw(0), dw(36), 0]);
  // RAW: index * stride + offset + 4 <= num_records bytes (lanes 1 and 2 end at byte 40).
  r = run(OOB_SELECT.RAW, 40);
  assert.deepEqual([0, 1, 2].map((l) => r.v(2, l)), [dw(0), dw(36), dw(36)]);
  r = run(OOB_SELECT.RAW, 39);
  assert.deepEqual([0, 1, 2].map((l) => r.v(2, l)), [dw(0), 0, 0]);
  // DISABLED: only num_records == 0 is out of range.
  r = run(OOB_SELECT.DISABLED, 1);
  assert.deepEqual([0, 1, 2].map((l) => r.v(2, l)), [dw(0), dw(36), dw(36)]);
});

test('gfx900 range checks: structured with idxen and STRIDE != 0, raw bytes otherwise, none for ADD_TID private buffers', () => {
  const g = byName('gfx900');
  const { mem, seg } = memWith();
  // Structured: index >= num_records is out; the offset is not checked against the stride.
  let r = runAsm(`${g.ld} v2, v[0:1], s[0:3], 0 idxen offen\ns_waitcnt vmcnt(0)\ns_endpgm`, {
    target: g.target, waveSize: 64, execHi: 0, mem, exec: 0b111, sgpr: sg(g, { base: seg.base, stride: 16, records: 2 }), vgpr: { 0: [0, 1, 2], 1: [0, 20, 4] },
  });
  assert.deepEqual([0, 1, 2].map((l) => r.v(2, l)), [dw(0), dw(36), 0]);
  // Raw (no idxen): num_records in bytes; a dword past it reads 0, a store past it is dropped.
  r = runAsm(`${g.ld} v2, v0, s[0:3], 0 offen\n${g.ld} v3, v0, s[0:3], 0 offen offset:4\n${g.st} v5, v4, s[0:3], 0 offen\ns_waitcnt vmcnt(0)\ns_endpgm`, {
    target: g.target, waveSize: 64, execHi: 0, mem, exec: 1, sgpr: sg(g, { base: seg.base, stride: 16, records: 64 }), vgpr: { 0: 60, 4: 64, 5: 0xabcd },
  });
  assert.deepEqual([r.v(2), r.v(3)], [dw(60), 0]);
  assert.equal(seg.dv.getUint32(64, true), dw(64));
  // ADD_TID_ENABLE without idxen: a private (scratch) buffer, not range checked; DATA_FORMAT holds
  // STRIDE[17:14] (here 0: stride 16).
  r = runAsm(`${g.ld} v2, v0, s[0:3], 0 offen\ns_waitcnt vmcnt(0)\ns_endpgm`, {
    target: g.target, waveSize: 64, execHi: 0, mem, exec: 0xf, sgpr: sg(g, { base: seg.base, stride: 16, records: 4, addTid: true }), vgpr: { 0: 4 },
  });
  assert.deepEqual([0, 1, 2, 3].map((l) => r.v(2, l)), [0, 1, 2, 3].map((l) => dw(16 * l + 4)));
});

test('gfx900 ADD_TID_ENABLE: DATA_FORMAT extends STRIDE (bits 17:14)', () => {
  const g = byName('gfx900');
  const { mem, seg } = memWith(1 << 20);
  const words = packVsharp(bufGenOf(9), { base: seg.base, stride: 4, records: 0xffffffff, addTid: true });
  words[3] = (words[3]! & ~(15 << 15)) | (1 << 15); // DATA_FORMAT = 1: stride 4 + (1 << 14)
  const r = runAsm(`${g.ld} v2, off, s[0:3], 0\ns_waitcnt vmcnt(0)\ns_endpgm`, {
    target: g.target, waveSize: 64, execHi: 0, mem, exec: 0b11, sgpr: Object.fromEntries(words.map((x, i) => [i, x])),
  });
  assert.deepEqual([r.v(2, 0), r.v(2, 1)], [dw(0), dw(4 + (1 << 14))]);
});

test('the draw scene packs each generation\'s V# (format names per generation)', () => {
  for (const g of GENS) {
    const G = bufGenOf(g.gfx);
    const f = bufFormatByName(G, '32_32_32_32_FLOAT');
    assert.ok(f !== undefined, g.name);
    const w = packVsharp(G, { base: 0x1234_5678_9000, stride: 32, records: 3, format: f, oob: OOB_SELECT.STRUCTURED });
    assert.equal(w[0], 0x5678_9000);
    assert.equal(w[1]! & 0xffff, 0x1234);
    assert.equal((w[1]! >>> 16) & 0x3fff, 32);
    assert.equal(w[2], 3);
    if (g.gfx === 9) assert.equal(((w[3]! >>> 15) & 15) | (((w[3]! >>> 12) & 7) << 4), f);
    else if (g.gfx === 10) assert.equal((w[3]! >>> 12) & 127, f);
    else assert.equal((w[3]! >>> 12) & 63, f);
  }
});
