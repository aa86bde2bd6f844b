/**
 * Linear image layouts per generation (image-layout.ts) as the MIMG instructions address them:
 * rows aligned to 256 bytes on gfx900, gfx1030 and gfx1100 (an image whose width is not a
 * multiple of the alignment loads, stores and samples right), GFX10.3/GFX11's custom pitch in
 * T# DEPTH/PITCH_MSB, GFX9's stacked mip chain with PITCH = the chain height, and array slices on
 * all three. Texels are written at addresses worked out here by hand from addrlib's rules (see
 * the comments), not with the layout code under test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { targets } from '../../src/amd/isa/targets.js';
import type { IsaTarget } from '../../src/amd/isa/target.js';
import { SQ_IMG_RSRC, SQ_IMG_SAMP, type RsrcBits } from '../../src/amd/exec/mimg-rsrc.gen.js';
import { BUF_FORMATS, type BufFormat } from '../../src/amd/exec/buffer-formats.gen.js';
import { IMG_FORMATS_GFX10, SQ_IMG_RSRC_GFX10, SQ_IMG_SAMP_GFX10 } from '../../src/amd/exec/mimg-gfx10.gen.js';
import { IMG_FORMATS_GFX9, SQ_IMG_RSRC_GFX9, SQ_IMG_SAMP_GFX9 } from '../../src/amd/exec/mimg-gfx9.gen.js';
import { LINEAR_RULES, linearLayout } from '../../src/amd/exec/image-layout.js';
import { Memory } from '../../src/core/memory.js';
import { f32bits } from '../../src/core/float.js';
import { runAsm } from './exec-harness.js';

interface Gen {
  readonly name: string; readonly target: IsaTarget;
  readonly R: Readonly<Record<string, RsrcBits>>; readonly S: Readonly<Record<string, RsrcBits>>; readonly F: Readonly<Record<number, BufFormat>>;
  /** Assembly suffix for a 2D image and a 2D array (GFX9: no dim field, the T# TYPE decides). */
  readonly d2: string; readonly d2a: string;
}
const GENS: readonly Gen[] = [
  { name: 'gfx1100', target: targets.gfx1100!, R: SQ_IMG_RSRC, S: SQ_IMG_SAMP, F: BUF_FORMATS, d2: ' dim:SQ_RSRC_IMG_2D', d2a: ' dim:SQ_RSRC_IMG_2D_ARRAY' },
  { name: 'gfx1030', target: targets.gfx1030!, R: SQ_IMG_RSRC_GFX10, S: SQ_IMG_SAMP_GFX10, F: IMG_FORMATS_GFX10, d2: ' dim:SQ_RSRC_IMG_2D', d2a: ' dim:SQ_RSRC_IMG_2D_ARRAY' },
  { name: 'gfx900', target: targets.gfx900!, R: SQ_IMG_RSRC_GFX9, S: SQ_IMG_SAMP_GFX9, F: IMG_FORMATS_GFX9, d2: '', d2a: ' da' },
];
const BASE = 0x3000_0000;

function words(layout: Readonly<Record<string, RsrcBits>>, n: number, fields: Readonly<Record<string, number>>, word0 = 0): number[] {
  const w = new Array<number>(n).fill(0);
  w[0] = word0 >>> 0;
  for (const [k, v] of Object.entries(fields)) {
    const d = layout[k];
    if (!d) throw new Error(`no field ${k}`);
    w[d.word] = (w[d.word]! + (v % 2 ** d.width) * 2 ** d.lo) >>> 0;
  }
  return w;
}

/** T# of a 32_FLOAT image at BASE (plus extra fields) and a point, clamp-to-edge S# with mip point filtering, as SGPRs 0..11. */
function sgprs(g: Gen, width: number, height: number, extra: Readonly<Record<string, number>> = {}): Record<number, number> {
  const fmt = Number(Object.entries(g.F).find(([, e]) => e.name === '32_FLOAT')![0]);
  const size: Record<string, number> = g.R.WIDTH ? { WIDTH: width - 1 } : { WIDTH_LO: (width - 1) & 3, WIDTH_HI: (width - 1) >> 2 };
  const t = words(g.R, 8, { FORMAT: fmt, ...size, HEIGHT: height - 1, DST_SEL_X: 4, TYPE: 9, ...extra }, BASE / 256);
  const s = words(g.S, 4, { CLAMP_X: 2, CLAMP_Y: 2, MIP_FILTER: 1, MAX_LOD: 15 * 256 });
  const out: Record<number, number> = {};
  [...t, ...s].forEach((v, i) => { out[i] = v; });
  return out;
}

/** Memory with BASE mapped and filled with a poison value (so a wrong pitch or offset reads it). */
function memory(bytes: number): Memory {
  const mem = new Memory();
  mem.map(BASE, Math.ceil(bytes / 65536) * 65536, 'image');
  for (let a = 0; a < bytes; a += 4) mem.writeF32(BASE + a, -7);
  return mem;
}

/** Lanes over a w x h grid: x, y per lane (lanes past w*h repeat texel 0). */
function grid(w: number, h: number): { xs: number[]; ys: number[] } {
  const xs = Array.from({ length: 64 }, (_, l) => (l < w * h ? l % w : 0));
  const ys = Array.from({ length: 64 }, (_, l) => (l < w * h ? Math.floor(l / w) : 0));
  return { xs, ys };
}

test('linear layouts: addrlib pitch, mip and slice placement per generation (worked by hand)', () => {
  // Every generation aligns linear rows to 256 bytes: 70 texels of 4 bytes -> 128, of 1 byte -> 256, of 16 bytes -> 80.
  for (const gen of [9, 10, 11] as const) {
    assert.equal(linearLayout(LINEAR_RULES[gen], 70, 3, 4).levels[0]!.pitch, 128);
    assert.equal(linearLayout(LINEAR_RULES[gen], 70, 3, 1).levels[0]!.pitch, 256);
    assert.equal(linearLayout(LINEAR_RULES[gen], 70, 3, 16).levels[0]!.pitch, 80);
    assert.equal(linearLayout(LINEAR_RULES[gen], 70, 3, 4).sliceBytes, 128 * 3 * 4);
  }
  // GFX9, 10x5 R32 with 3 levels: one column at pitch 64; stored heights 5, ceil(5/2) = 3, 2 (the
  // logical sizes are 10x5, 5x2, 2x1), so the levels start at rows 0, 5, 8; the chain is 10 rows.
  const g9 = linearLayout(LINEAR_RULES[9], 10, 5, 4, 3);
  assert.deepEqual(g9.levels.map((l) => [l.offset, l.pitch, l.width, l.height]), [[0, 64, 10, 5], [5 * 256, 64, 5, 2], [8 * 256, 64, 2, 1]]);
  assert.equal(g9.epitch, 10);
  assert.equal(g9.sliceBytes, 10 * 256);
  // GFX10.3/GFX11, the same image: smallest level first, each level's rows 256 bytes: 2x1 at 0, 5x2 at 256, 10x5 at 768.
  for (const gen of [10, 11] as const) {
    const l = linearLayout(LINEAR_RULES[gen], 10, 5, 4, 3);
    assert.deepEqual(l.levels.map((x) => [x.offset, x.pitch, x.width, x.height]), [[768, 64, 10, 5], [256, 64, 5, 2], [0, 64, 2, 1]]);
    assert.equal(l.sliceBytes, 768 + 5 * 256);
  }
});

for (const g of GENS) {
  test(`${g.name}: a 5x3 image (width not a multiple of the 64-texel alignment) loads, stores and samples at the 256-byte pitch`, () => {
    // Rows 256 bytes (64 texels) apart; GFX9's T# carries that pitch (PITCH = 63), GFX10.3/GFX11 derive it.
    const mem = memory(3 * 256);
    for (let y = 0; y < 3; y++) for (let x = 0; x < 5; x++) mem.writeF32(BASE + y * 256 + x * 4, y * 10 + x);
    const sg = sgprs(g, 5, 3, g.R.PITCH ? { PITCH: 63 } : {});
    const { xs, ys } = grid(5, 3);
    const r = runAsm(`image_load v4, v[0:1], s[0:7] dmask:0x1${g.d2} unorm\ns_endpgm`, { target: g.target, waveSize: 64, mem, sgpr: sg, vgpr: { 0: xs, 1: ys } });
    assert.deepEqual(r.diags.map((d) => d.id), []);
    for (let l = 0; l < 15; l++) assert.equal(r.vf(4, l), ys[l]! * 10 + xs[l]!, `load lane ${l}`);
    const u = xs.map((x) => f32bits((x + 0.5) / 5)), v = ys.map((y) => f32bits((y + 0.5) / 3));
    const s = runAsm(`image_sample v4, v[0:1], s[0:7], s[8:11] dmask:0x1${g.d2}\ns_endpgm`, { target: g.target, waveSize: 64, mem, sgpr: sg, vgpr: { 0: u, 1: v } });
    assert.deepEqual(s.diags.map((d) => d.id), []);
    for (let l = 0; l < 15; l++) assert.equal(s.vf(4, l), ys[l]! * 10 + xs[l]!, `sample lane ${l}`);
    const st = runAsm(`image_store v4, v[0:1], s[0:7] dmask:0x1${g.d2} unorm\ns_endpgm`, { target: g.target, waveSize: 64, mem, sgpr: sg, vgpr: { 0: 4, 1: 2, 4: f32bits(99.5) }, exec: 1, execHi: 0 });
    assert.deepEqual(st.diags.map((d) => d.id), []);
    assert.equal(mem.readF32(BASE + 2 * 256 + 4 * 4), 99.5);
  });

  test(`${g.name}: 2D array slices (BASE_ARRAY + layer up to DEPTH; loads past it read 0, samples round to even and clamp)`, () => {
    // A 5x3 R32 slice is 3 rows of 256 bytes: slice s at 768 s. Texel value s * 100 + y * 10 + x.
    const mem = memory(4 * 768);
    for (let s = 0; s < 4; s++) for (let y = 0; y < 3; y++) for (let x = 0; x < 5; x++) mem.writeF32(BASE + s * 768 + y * 256 + x * 4, s * 100 + y * 10 + x);
    const sg = sgprs(g, 5, 3, { TYPE: 13, BASE_ARRAY: 1, DEPTH: 2, ...(g.R.PITCH ? { PITCH: 63 } : {}) });
    const layers = Array.from({ length: 64 }, (_, l) => l % 4); // layer 3 -> slice 4: past DEPTH 2
    const xs = Array.from({ length: 64 }, (_, l) => (l >> 2) % 5), ys = Array.from({ length: 64 }, (_, l) => (l >> 4) % 3);
    const r = runAsm(`image_load v4, v[0:2], s[0:7] dmask:0x1${g.d2a} unorm\ns_endpgm`, { target: g.target, waveSize: 64, mem, sgpr: sg, vgpr: { 0: xs, 1: ys, 2: layers } });
    assert.deepEqual(r.diags.map((d) => d.id), []);
    for (let l = 0; l < 64; l++) assert.equal(r.vf(4, l), layers[l]! >= 2 ? 0 : (1 + layers[l]!) * 100 + ys[l]! * 10 + xs[l]!, `load lane ${l}`);
    // Sampled layers: 0.5 -> 0 (even), 1.5 -> 2 -> clamped to 1, -3 -> 0, 0.7 -> 1.
    const lf = [0.5, 1.5, -3, 0.7], lw = [0, 1, 0, 1];
    const s = runAsm(`image_sample v4, v[0:2], s[0:7], s[8:11] dmask:0x1${g.d2a}\ns_endpgm`, {
      target: g.target, waveSize: 64, mem, sgpr: sg,
      vgpr: { 0: xs.map((x) => f32bits((x + 0.5) / 5)), 1: ys.map((y) => f32bits((y + 0.5) / 3)), 2: layers.map((k) => f32bits(lf[k]!)) },
    });
    assert.deepEqual(s.diags.map((d) => d.id), []);
    for (let l = 0; l < 64; l++) assert.equal(s.vf(4, l), (1 + lw[layers[l]!]!) * 100 + ys[l]! * 10 + xs[l]!, `sample lane ${l}`);
    // A store to layer 1 lands in slice 2; one to layer 2 (past DEPTH) is dropped.
    const st = runAsm(`image_store v4, v[0:2], s[0:7] dmask:0x1${g.d2a} unorm\ns_endpgm`, { target: g.target, waveSize: 64, mem, sgpr: sg, vgpr: { 0: 3, 1: 1, 2: [1, 2], 4: [f32bits(55), f32bits(66)] }, exec: 3, execHi: 0 });
    assert.deepEqual(st.diags.map((d) => d.id), []);
    assert.equal(mem.readF32(BASE + 2 * 768 + 256 + 12), 55);
    assert.equal(mem.readF32(BASE + 3 * 768 + 256 + 12), 300 + 10 + 3);
  });
}

for (const g of GENS) {
  test(`${g.name}: 1D array slices are one 256-byte row apart (x, then the layer)`, () => {
    // A 5-texel R32 1D slice is one aligned row: slice s at 256 s. Value s * 100 + x.
    const mem = memory(3 * 256);
    for (let s = 0; s < 3; s++) for (let x = 0; x < 5; x++) mem.writeF32(BASE + s * 256 + x * 4, s * 100 + x);
    const sg = sgprs(g, 5, 1, { TYPE: 12, DEPTH: 2, ...(g.R.PITCH ? { PITCH: 63 } : {}) });
    const xs = Array.from({ length: 64 }, (_, l) => l % 5), layers = Array.from({ length: 64 }, (_, l) => Math.floor(l / 5) % 3);
    const dim = g.name === 'gfx900' ? ' da' : ' dim:SQ_RSRC_IMG_1D_ARRAY';
    const r = runAsm(`image_load v4, v[0:1], s[0:7] dmask:0x1${dim} unorm\ns_endpgm`, { target: g.target, waveSize: 64, mem, sgpr: sg, vgpr: { 0: xs, 1: layers } });
    assert.deepEqual(r.diags.map((d) => d.id), []);
    for (let l = 0; l < 64; l++) assert.equal(r.vf(4, l), layers[l]! * 100 + xs[l]!, `lane ${l}`);
  });
}

for (const g of GENS.filter((x) => x.name !== 'gfx900')) {
  test(`${g.name}: a one-level 2D T# with a pitch in DEPTH/PITCH_MSB above WIDTH uses it`, () => {
    // pitch 128 (DEPTH 127) and pitch 8256 (pitch - 1 = 8255: DEPTH = 8255 & 0x1fff = 63, PITCH_MSB = 1).
    for (const [pitch, fields] of [[128, { DEPTH: 127 }], [8256, { DEPTH: 63, PITCH_MSB: 1 }], [64, { DEPTH: 3 }]] as const) {
      const mem = memory(3 * pitch * 4);
      for (let y = 0; y < 3; y++) for (let x = 0; x < 5; x++) mem.writeF32(BASE + (y * pitch + x) * 4, y * 10 + x);
      const { xs, ys } = grid(5, 3);
      const r = runAsm(`image_load v4, v[0:1], s[0:7] dmask:0x1${g.d2} unorm\ns_endpgm`, { target: g.target, waveSize: 64, mem, sgpr: sgprs(g, 5, 3, fields), vgpr: { 0: xs, 1: ys } });
      assert.deepEqual(r.diags.map((d) => d.id), []);
      // DEPTH 3 (a pitch of 4, not above WIDTH 5) leaves the derived 64.
      for (let l = 0; l < 15; l++) assert.equal(r.vf(4, l), ys[l]! * 10 + xs[l]!, `pitch ${pitch} lane ${l}`);
    }
  });
}

test('gfx900: a linear mip chain stacks its levels at the level-0 pitch; PITCH holds the chain height', () => {
  const g = GENS[2]!;
  // 10x5 R32, 3 levels, 2 layers. Rows of 256 bytes; levels at rows 0, 5, 8 (stored heights 5, 3, 2);
  // chain 10 rows = 2560 bytes per slice. Texel value s * 1000 + level * 100 + y * 10 + x.
  const start = [0, 5, 8], size = [[10, 5], [5, 2], [2, 1]] as const;
  const mem = memory(2 * 2560);
  for (let s = 0; s < 2; s++) for (let i = 0; i < 3; i++) for (let y = 0; y < size[i]![1]; y++) for (let x = 0; x < size[i]![0]; x++) mem.writeF32(BASE + s * 2560 + (start[i]! + y) * 256 + x * 4, s * 1000 + i * 100 + y * 10 + x);
  for (let i = 0; i < 3; i++) {
    const [w, h] = size[i]!;
    const { xs, ys } = grid(w, h);
    // image_load reads BASE_LEVEL.
    const r = runAsm('image_load v4, v[0:1], s[0:7] dmask:0x1 unorm\ns_endpgm', { target: g.target, waveSize: 64, mem, sgpr: sgprs(g, 10, 5, { PITCH: 9, MAX_MIP: 2, LAST_LEVEL: 2, BASE_LEVEL: i }), vgpr: { 0: xs, 1: ys } });
    assert.deepEqual(r.diags.map((d) => d.id), []);
    for (let l = 0; l < w * h; l++) assert.equal(r.vf(4, l), i * 100 + ys[l]! * 10 + xs[l]!, `level ${i} load lane ${l}`);
    // image_sample_l at LOD i (MIP_FILTER point) on layer 1 of a 2D array.
    const u = xs.map((x) => f32bits((x + 0.5) / w)), v = ys.map((y) => f32bits((y + 0.5) / h));
    const s = runAsm('image_sample_l v4, v[0:3], s[0:7], s[8:11] dmask:0x1 da\ns_endpgm', { target: g.target, waveSize: 64, mem, sgpr: sgprs(g, 10, 5, { PITCH: 9, MAX_MIP: 2, LAST_LEVEL: 2, TYPE: 13, DEPTH: 1 }), vgpr: { 0: u, 1: v, 2: f32bits(1), 3: f32bits(i) } });
    assert.deepEqual(s.diags.map((d) => d.id), []);
    for (let l = 0; l < w * h; l++) assert.equal(s.vf(4, l), 1000 + i * 100 + ys[l]! * 10 + xs[l]!, `level ${i} layer 1 sample lane ${l}`);
  }
});

test('gfx1100 / gfx1030: a slice of a mipped array is the whole chain (smallest level first)', () => {
  // 10x5 R32, 3 levels: 2x1 at 0, 5x2 at 256, 10x5 at 768; a slice is 2048 bytes.
  const start = [768, 256, 0], size = [[10, 5], [5, 2], [2, 1]] as const;
  const mem = memory(2 * 2048);
  for (let s = 0; s < 2; s++) for (let i = 0; i < 3; i++) for (let y = 0; y < size[i]![1]; y++) for (let x = 0; x < size[i]![0]; x++) mem.writeF32(BASE + s * 2048 + start[i]! + y * 256 + x * 4, s * 1000 + i * 100 + y * 10 + x);
  for (const g of GENS.slice(0, 2)) {
    for (let i = 0; i < 3; i++) {
      const [w, h] = size[i]!;
      const { xs, ys } = grid(w, h);
      const u = xs.map((x) => f32bits((x + 0.5) / w)), v = ys.map((y) => f32bits((y + 0.5) / h));
      const s = runAsm(`image_sample_l v4, v[0:3], s[0:7], s[8:11] dmask:0x1${g.d2a}\ns_endpgm`, { target: g.target, waveSize: 64, mem, sgpr: sgprs(g, 10, 5, { MAX_MIP: 2, LAST_LEVEL: 2, TYPE: 13, DEPTH: 1 }), vgpr: { 0: u, 1: v, 2: f32bits(1), 3: f32bits(i) } });
      assert.deepEqual(s.diags.map((d) => d.id), []);
      for (let l = 0; l < w * h; l++) assert.equal(s.vf(4, l), 1000 + i * 100 + ys[l]! * 10 + xs[l]!, `${g.name} level ${i} lane ${l}`);
    }
  }
});

test('gfx900: T# layouts it cannot address are diagnosed once and write 0', () => {
  const g = GENS[2]!;
  const cases: [Readonly<Record<string, number>>, RegExp][] = [
    [{ PITCH: 3 }, /PITCH 4 is below WIDTH 5/],
    [{ PITCH: 4, MAX_MIP: 2, LAST_LEVEL: 2 }, /needs PITCH \(the chain height\) >= 6 rows/],
    [{ PITCH: 63, TYPE: 11 }, /TYPE 11 is not modelled/],
    [{ PITCH: 63, TYPE: 10, MAX_MIP: 1, LAST_LEVEL: 1 }, /3D mip chains are not modelled/],
    [{ PITCH: 63, TYPE: 13, BASE_ARRAY: 3, DEPTH: 2 }, /BASE_ARRAY 3 is past DEPTH 2/],
  ];
  for (const [fields, why] of cases) {
    const r = runAsm('image_load v4, v[0:2], s[0:7] dmask:0x1 unorm\ns_endpgm', { target: g.target, waveSize: 64, mem: memory(4096), sgpr: sgprs(g, 5, 3, fields), vgpr: { 0: 1, 1: 1, 4: 0x12345678 } });
    const d = r.diags.filter((x) => x.id === 'gfx11.mimg.unsupported');
    assert.equal(d.length, 1, why.source);
    assert.match(d[0]!.message, why);
    assert.equal(r.v(4, 0), 0);
  }
});
