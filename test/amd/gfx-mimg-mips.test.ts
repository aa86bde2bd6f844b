/**
 * MIMG mip maps: the addrlib linear mip layout (levels smallest first, pitch aligned to 256
 * bytes), LOD selection for image_sample (quad derivatives), image_sample_l / _lz / _b, the T#
 * BASE_LEVEL/LAST_LEVEL/MAX_MIP and the S# MIN_LOD/MAX_LOD/LOD_BIAS/MIP_FILTER, against a reference
 * sampler written here from the GL/Vulkan LOD rules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { LINEAR_RULES, linearLayout } from '../../src/amd/exec/image-layout.js';
import { SQ_IMG_RSRC, SQ_IMG_SAMP, type RsrcBits } from '../../src/amd/exec/mimg-rsrc.gen.js';
import { BUF_FORMATS } from '../../src/amd/exec/buffer-formats.gen.js';
import { runAsm } from './exec-harness.js';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEPTH_COMPARE } from '../../src/amd/exec/mimg.js';
import { f16bits } from '../../src/core/float.js';

/** Mesa's register database (../shared/ref), read when present. */
const GFX9_JSON = fileURLToPath(new URL('../../../../shared/ref/mesa-amd-registers/gfx9.json', import.meta.url));

const W = 16, H = 8, LEVELS = 5; // 16x8, 8x4, 4x2, 2x1, 1x1
const TEX = 0x2000_0000;
const R32F = Number(Object.entries(BUF_FORMATS).find(([, v]) => v.name === '32_FLOAT')![0]);

function desc(layout: Readonly<Record<string, RsrcBits>>, words: number, fields: Readonly<Record<string, number>>, word0 = 0): number[] {
  const w = new Array<number>(words).fill(0);
  w[0] = word0 >>> 0;
  for (const [k, v] of Object.entries(fields)) {
    const d = layout[k]!;
    w[d.word] = (w[d.word]! + (v % 2 ** d.width) * 2 ** d.lo) >>> 0;
  }
  return w;
}

/** Texel value: level * 100 + y * 10 + x, distinct everywhere. */
const texel = (level: number, x: number, y: number): number => level * 100 + y * 10 + x;

function texture(): Memory {
  const mem = new Memory();
  mem.map(TEX, 0x10000, 'tex');
  for (const [i, l] of linearLayout(LINEAR_RULES[11], W, H, 4, LEVELS).levels.entries()) {
    for (let y = 0; y < l.height; y++) for (let x = 0; x < l.width; x++) mem.writeF32(TEX + l.offset + (y * l.pitch + x) * 4, texel(i, x, y));
  }
  return mem;
}

interface Samp { mip?: number; minLod?: number; maxLod?: number; bias?: number; base?: number; last?: number; maxMip?: number }

function sgprs(o: Samp): Record<number, number> {
  const t = desc(SQ_IMG_RSRC, 8, {
    FORMAT: R32F, WIDTH_LO: (W - 1) & 3, WIDTH_HI: (W - 1) >> 2, HEIGHT: H - 1, DST_SEL_X: 4, DST_SEL_Y: 5, DST_SEL_Z: 6, DST_SEL_W: 7, TYPE: 9,
    BASE_LEVEL: o.base ?? 0, LAST_LEVEL: o.last ?? LEVELS - 1, MAX_MIP: o.maxMip ?? LEVELS - 1,
  }, TEX / 256);
  const s = desc(SQ_IMG_SAMP, 4, {
    CLAMP_X: 2, CLAMP_Y: 2, MIP_FILTER: o.mip ?? 1, MIN_LOD: Math.round((o.minLod ?? 0) * 256), MAX_LOD: Math.round((o.maxLod ?? 15) * 256),
    LOD_BIAS: Math.round((o.bias ?? 0) * 256) & 0x3fff,
  });
  const out: Record<number, number> = {};
  [...t, ...s].forEach((v, i) => { out[i] = v; });
  return out;
}

/** Reference: point-sampled texel of a level at normalized (u, v), clamp to the last texel. */
function point(level: number, u: number, v: number): number {
  const w = Math.max(1, W >> level), h = Math.max(1, H >> level);
  const x = Math.min(w - 1, Math.max(0, Math.floor(u * w))), y = Math.min(h - 1, Math.max(0, Math.floor(v * h)));
  return texel(level, x, y);
}

/** Reference LOD -> value with point min/mag filters (GL 8.14: nearest level ceil(lod + 1/2) - 1; linear blends two). */
function ref(lod: number, u: number, v: number, o: Samp): number {
  const base = o.base ?? 0, top = (o.last ?? LEVELS - 1) - base;
  const l = Math.min(o.maxLod ?? 15, Math.max(o.minLod ?? 0, lod + (o.bias ?? 0)));
  if (l <= 0) return point(base, u, v);
  if ((o.mip ?? 1) === 2) {
    const l0 = Math.min(top, Math.floor(l)), l1 = Math.min(top, l0 + 1), fr = Math.min(1, l - l0);
    return l1 === l0 ? point(base + l0, u, v) : point(base + l0, u, v) * (1 - fr) + point(base + l1, u, v) * fr;
  }
  const lv = (o.mip ?? 1) === 1 ? Math.min(top, Math.max(0, Math.ceil(l + 0.5) - 1)) : 0;
  return point(base + lv, u, v);
}

const f32 = (x: number): number => Math.fround(x);

test('linear mip layout: addrlib order (smallest level first) and 256-byte pitch alignment', () => {
  // 16x8 R32 (pitch alignment 64 texels): 1x1 at 0, 2x1 at 256, 4x2 at 512, 8x4 at 1024, 16x8 at 2048.
  assert.deepEqual(linearLayout(LINEAR_RULES[11], 16, 8, 4, 5).levels.map((l) => [l.offset, l.pitch, l.width, l.height]), [[2048, 64, 16, 8], [1024, 64, 8, 4], [512, 64, 4, 2], [256, 64, 2, 1], [0, 64, 1, 1]]);
  // 300x2 RGBA8 (alignment 64 texels): level 0 pitch 320.
  assert.deepEqual(linearLayout(LINEAR_RULES[11], 300, 2, 4, 2).levels.map((l) => [l.offset, l.pitch]), [[192 * 4, 320], [0, 192]]);
  // One level: the pitch is aligned too (5 RGBA8 texels -> 64), a slice is pitch x height.
  assert.deepEqual(linearLayout(LINEAR_RULES[11], 5, 3, 4, 1), { levels: [{ offset: 0, pitch: 64, width: 5, height: 3 }], sliceBytes: 64 * 3 * 4, epitch: 64 });
});

const LODS = [-1, 0, 0.25, 0.5, 0.75, 1, 1.4, 1.6, 2, 2.5, 3, 3.7, 4, 6, 0.1, 1.9];
const U = LODS.map((_, i) => (i * 0.0625 + 0.03) % 1);
const V = LODS.map((_, i) => ((i * 7) % 16) / 16 + 0.02);

for (const o of [{ mip: 1 }, { mip: 2 }, { mip: 0 }, { mip: 1, base: 1, last: 3 }, { mip: 2, base: 2, last: 2 }, { mip: 1, minLod: 1.5, maxLod: 2.5 }, { mip: 2, bias: 0.75 }, { mip: 1, bias: -1.5 }] as Samp[]) {
  test(`image_sample_l with ${JSON.stringify(o)}: every lane matches the reference`, () => {
    const r = runAsm('image_sample_l v10, v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\ns_waitcnt vmcnt(0)\ns_endpgm', {
      mem: texture(), sgpr: sgprs(o), vgprF32: { 0: U, 1: V, 2: LODS },
    });
    assert.deepEqual(r.diags, []);
    for (let l = 0; l < LODS.length; l++) assert.equal(r.vf(10, l), f32(ref(Math.fround(LODS[l]!), U[l]!, V[l]!, o)), `lane ${l} lod ${LODS[l]}`); // the LOD operand is an f32
  });
}

test('image_sample: the LOD comes from the quad derivatives; _b adds its bias; _lz samples the base level', () => {
  // Quad q (lanes 4q..4q+3) steps 2^q texels of the base level per pixel in x: LOD q. Quad 4: steps of 1.5 texels in y.
  const u: number[] = [], v: number[] = [], lods: number[] = [];
  for (let q = 0; q < 8; q++) {
    const step = q < 4 ? 2 ** q / W : 0.5 / W, vstep = q === 4 ? 1.5 / H : 0.25 / H;
    const u0 = 0.1 + q * 0.05, v0 = 0.2 + q * 0.03;
    for (let p = 0; p < 4; p++) { u.push(Math.fround(u0 + (p & 1) * step)); v.push(Math.fround(v0 + (p >> 1) * vstep)); }
    // The derivatives of the f32 coordinates the lanes hold, in base-level texels.
    const i = 4 * q;
    const dx = Math.hypot((u[i + 1]! - u[i]!) * W, (v[i + 1]! - v[i]!) * H), dy = Math.hypot((u[i + 2]! - u[i]!) * W, (v[i + 2]! - v[i]!) * H);
    lods.push(Math.log2(Math.max(dx, dy)));
  }
  const mem = texture();
  for (const o of [{ mip: 1 }, { mip: 2 }] as Samp[]) {
    const s = runAsm('image_sample v10, v[0:1], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\ns_waitcnt vmcnt(0)\ns_endpgm', { mem, sgpr: sgprs(o), vgprF32: { 0: u, 1: v } });
    const b = runAsm('image_sample_b v10, v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\ns_waitcnt vmcnt(0)\ns_endpgm', { mem, sgpr: sgprs(o), vgprF32: { 0: 1, 1: u, 2: v } });
    const z = runAsm('image_sample_lz v10, v[0:1], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\ns_waitcnt vmcnt(0)\ns_endpgm', { mem, sgpr: sgprs(o), vgprF32: { 0: u, 1: v } });
    for (const r of [s, b, z]) assert.deepEqual(r.diags, []);
    for (let l = 0; l < 32; l++) {
      const lod = lods[l >> 2]!;
      assert.equal(s.vf(10, l), f32(ref(lod, u[l]!, v[l]!, o)), `sample lane ${l} lod ${lod}`);
      assert.equal(b.vf(10, l), f32(ref(lod + 1, u[l]!, v[l]!, o)), `sample_b lane ${l}`);
      assert.equal(z.vf(10, l), f32(point(0, u[l]!, v[l]!)), `sample_lz lane ${l}`);
    }
    // The quads really reach different levels (point mip filter: the texel's hundreds are its level).
    if (o.mip === 1) assert.deepEqual([0, 4, 8, 12, 16].map((l) => Math.floor(s.vf(10, l) / 100)), [0, 1, 2, 3, 1]);
  }
});

test('image_load reads BASE_LEVEL; a view outside the resource\'s levels is diagnosed once and writes 0', () => {
  const mem = texture();
  const ok = runAsm('image_load v10, v[0:1], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D\ns_waitcnt vmcnt(0)\ns_endpgm', { mem, sgpr: sgprs({ base: 2, last: 4 }), vgpr: { 0: [0, 1, 3], 1: [0, 1, 1] } });
  assert.deepEqual(ok.diags, []);
  assert.deepEqual([0, 1, 2].map((l) => ok.vf(10, l)), [texel(2, 0, 0), texel(2, 1, 1), texel(2, 3, 1)]);
  for (const o of [{ base: 3, last: 2 }, { last: 5, maxMip: 4 }] as Samp[]) {
    const bad = runAsm('image_sample_l v10, v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\ns_waitcnt vmcnt(0)\ns_endpgm', { mem, sgpr: sgprs(o), vgprF32: { 0: 0.5, 1: 0.5, 2: 1, 10: 7 } });
    assert.deepEqual(bad.diags.map((d) => d.id), ['gfx11.mimg.unsupported']);
    assert.match(bad.diags[0]!.message, /BASE_LEVEL .* LAST_LEVEL .* MAX_MIP/);
    assert.equal(bad.vf(10, 0), 0);
  }
});

test('image_load_mip / image_store_mip address the level in the VGPR after the coordinates (from BASE_LEVEL; past LAST_LEVEL misses)', () => {
  const mem = texture();
  // Lane l: level l % 4 (relative to BASE_LEVEL 1), texel (1, 0) or (0, 0) when the level is 1 texel wide.
  const mips = Array.from({ length: 32 }, (_, l) => l % 4);
  const xs = mips.map((m) => (Math.max(1, W >> (m + 1)) > 1 ? 1 : 0));
  const r = runAsm('image_load_mip v4, v[0:2], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\ns_endpgm', { mem, sgpr: sgprs({ base: 1, last: 3 }), vgpr: { 0: xs, 1: 0, 2: mips } });
  assert.deepEqual(r.diags.map((d) => d.id), []);
  for (let l = 0; l < 32; l++) {
    const level = mips[l]! + 1;
    assert.equal(r.vf(4, l), level <= 3 ? texel(level, xs[l]!, 0) : 0, `lane ${l} level ${level}`);
  }
  // Store 7.25 at (1, 1) of level 2 (BASE_LEVEL 1 + mip 1); a store at mip 5 (past LAST_LEVEL) is dropped.
  const s = runAsm('image_store_mip v4, v[0:2], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\ns_endpgm', { mem, sgpr: sgprs({ base: 1, last: 3 }), exec: 0b11, vgpr: { 0: 1, 1: 1, 2: [1, 5], 4: 0x40e80000 } });
  assert.deepEqual(s.diags.map((d) => d.id), []);
  const l2 = linearLayout(LINEAR_RULES[11], W, H, 4, LEVELS).levels[2]!;
  assert.equal(mem.readF32(TEX + l2.offset + (1 * l2.pitch + 1) * 4), 7.25);
});

test('image_sample_d / _d_cl take the LOD from explicit derivatives; _cl clamps it from below (MinLod)', () => {
  const lods = [-1, 0, 1, 2, 3, 4, 1, 2];
  // Lanes 0..5: ds/dx = 2^lod / W (x footprint); lanes 6, 7: dt/dy = 2^lod / H (y footprint).
  const d = lods.map((lod, l) => (l < 6 ? [2 ** lod / W, 0, 0, 0] : [0, 0, 0, 2 ** lod / H]));
  const us = lods.map((_, l) => 0.03 + l * 0.11), vs = lods.map((_, l) => 0.9 - l * 0.1);
  const clamp = lods.map((_, l) => [0, 2, 0.6, 3, 0, 1, 2.5, 0][l]!);
  const vgprF32 = { 0: d.map((x) => x[0]!), 1: d.map((x) => x[1]!), 2: d.map((x) => x[2]!), 3: d.map((x) => x[3]!), 4: us, 5: vs, 6: clamp };
  const o: Samp = { mip: 1 };
  const r = runAsm('image_sample_d v10, v[0:5], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\nimage_sample_d_cl v11, v[0:6], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\ns_waitcnt vmcnt(0)\ns_endpgm', {
    mem: texture(), sgpr: sgprs(o), vgprF32, exec: 0xff,
  });
  assert.deepEqual(r.diags, []);
  for (let l = 0; l < lods.length; l++) {
    assert.equal(r.vf(10, l), f32(ref(lods[l]!, f32(us[l]!), f32(vs[l]!), o)), `sample_d lane ${l}`);
    assert.equal(r.vf(11, l), f32(ref(Math.max(Math.max(0, lods[l]!), f32(clamp[l]!)), f32(us[l]!), f32(vs[l]!), o)), `sample_d_cl lane ${l}`);
  }
  // image_sample_cl: one coordinate for the whole quad (no footprint, LOD 0), so the clamp decides.
  const c = runAsm('image_sample_cl v10, v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\ns_waitcnt vmcnt(0)\ns_endpgm', {
    mem: texture(), sgpr: sgprs(o), vgprF32: { 0: 0.4, 1: 0.3, 2: clamp }, exec: 0xff,
  });
  assert.deepEqual(c.diags, []);
  for (let l = 0; l < 8; l++) assert.equal(c.vf(10, l), f32(ref(f32(clamp[l]!), f32(0.4), f32(0.3), o)), `sample_cl lane ${l}`);
});

test('image_sample_*_o: the offset VGPR (x [5:0], y [13:8], signed) moves the texel before clamping, at the level sampled', () => {
  const offs = [[1, -1], [-2, 3], [31, 0], [-32, -32], [0, 0], [5, 2], [-1, 7], [3, -4]] as const;
  const packed = offs.map(([x, y]) => ((x & 63) | ((y & 63) << 8)) >>> 0);
  const us = offs.map((_, l) => 0.1 + l * 0.1), vs = offs.map((_, l) => 0.8 - l * 0.09);
  const o: Samp = { mip: 1 };
  // Reference: nearest texel of the level, offset, clamped to the last texel (CLAMP_X/Y = 2).
  const at = (level: number, u: number, v: number, ox: number, oy: number): number => {
    const w = Math.max(1, W >> level), h = Math.max(1, H >> level);
    const x = Math.min(w - 1, Math.max(0, Math.floor(u * w) + ox)), y = Math.min(h - 1, Math.max(0, Math.floor(v * h) + oy));
    return texel(level, x, y);
  };
  // _lz_o at level 0; _l_o at LOD 1 (MIP_FILTER point: level 1).
  const r = runAsm('image_sample_lz_o v10, v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\nimage_sample_l_o v11, v[0:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\ns_waitcnt vmcnt(0)\ns_endpgm', {
    mem: texture(), sgpr: sgprs(o), vgpr: { 0: packed }, vgprF32: { 1: us, 2: vs, 3: 1 }, exec: 0xff,
  });
  assert.deepEqual(r.diags, []);
  for (let l = 0; l < offs.length; l++) {
    assert.equal(r.vf(10, l), at(0, f32(us[l]!), f32(vs[l]!), offs[l]![0], offs[l]![1]), `lz_o lane ${l}`);
    assert.equal(r.vf(11, l), at(1, f32(us[l]!), f32(vs[l]!), offs[l]![0], offs[l]![1]), `l_o lane ${l}`);
  }
});

test('image_sample_c_lz / _c_lz_o compare the reference with the texel by S# DEPTH_COMPARE_FUNC (1 pass, 0 fail)', () => {
  // Lane l samples texel (l % 8, 2) of level 0 (value 20 + x) with a reference below, equal to or above it.
  const xs = Array.from({ length: 24 }, (_, l) => l % 8);
  const us = xs.map((x) => (x + 0.5) / W), vs = xs.map(() => 2.5 / H);
  const refs = xs.map((x, l) => 20 + x + [-1, 0, 1][Math.floor(l / 8)]!);
  const ops: ((r: number, t: number) => boolean)[] = [() => false, (r, t) => r < t, (r, t) => r === t, (r, t) => r <= t, (r, t) => r > t, (r, t) => r !== t, (r, t) => r >= t, () => true];
  for (let fn = 0; fn < 8; fn++) {
    const sgpr = sgprs({ mip: 1 });
    sgpr[8] = (sgpr[8]! | (fn << SQ_IMG_SAMP.DEPTH_COMPARE_FUNC!.lo)) >>> 0;
    const r = runAsm('image_sample_c_lz v10, v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\nimage_sample_c_lz_o v11, v[3:6], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\ns_waitcnt vmcnt(0)\ns_endpgm', {
      mem: texture(), sgpr, exec: 0xffffff, vgpr: { 3: 1 }, vgprF32: { 0: refs, 1: us, 2: vs, 4: refs, 5: us, 6: vs },
    });
    assert.deepEqual(r.diags, []);
    for (let l = 0; l < 24; l++) {
      assert.equal(r.vf(10, l), ops[fn]!(refs[l]!, 20 + xs[l]!) ? 1 : 0, `func ${fn} lane ${l}`);
      // _o with offset x = +1: the texel to the right (clamped at the last column).
      assert.equal(r.vf(11, l), ops[fn]!(refs[l]!, 20 + Math.min(W - 1, xs[l]! + 1)) ? 1 : 0, `func ${fn} lane ${l} (offset)`);
    }
  }
});

test('DEPTH_COMPARE follows SQ_TEX_DEPTH_COMPARE of Mesa\'s register database', { skip: !existsSync(GFX9_JSON) && 'ref/mesa-amd-registers absent' }, () => {
  const enums = (JSON.parse(readFileSync(GFX9_JSON, 'utf8')) as { enums: Record<string, { entries: { name: string; value: number }[] }> }).enums;
  const e = enums.SQ_TEX_DEPTH_COMPARE!.entries;
  const expect: Record<string, (r: number, t: number) => boolean> = {
    NEVER: () => false, LESS: (r, t) => r < t, EQUAL: (r, t) => r === t, LESSEQUAL: (r, t) => r <= t,
    GREATER: (r, t) => r > t, NOTEQUAL: (r, t) => r !== t, GREATEREQUAL: (r, t) => r >= t, ALWAYS: () => true,
  };
  assert.equal(e.length, 8);
  for (const { name, value } of e) {
    const want = expect[name.replace('SQ_TEX_DEPTH_COMPARE_', '')]!;
    for (const [r, t] of [[0, 1], [1, 1], [2, 1]]) assert.equal(DEPTH_COMPARE[value]!(r!, t!), want(r!, t!), `${name} (${r}, ${t})`);
  }
});

test('image_gather4_lz / _l / _c_lz_o return one channel of the 2x2 footprint in the order (i0,j1), (i1,j1), (i1,j0), (i0,j0)', () => {
  const us = [0.03, 0.5, 0.97, 0.26, 0.7, 0.125, 0.55, 0.9], vs = [0.05, 0.5, 0.95, 0.3, 0.12, 0.81, 0.44, 0.6];
  const clampTo = (i: number, n: number) => Math.min(n - 1, Math.max(0, i));
  const foot = (level: number, u: number, v: number, ox = 0, oy = 0): number[] => {
    const w = Math.max(1, W >> level), h = Math.max(1, H >> level);
    const i0 = Math.floor(u * w - 0.5) + ox, j0 = Math.floor(v * h - 0.5) + oy;
    return [[i0, j0 + 1], [i0 + 1, j0 + 1], [i0 + 1, j0], [i0, j0]].map(([i, j]) => texel(level, clampTo(i!, w), clampTo(j!, h)));
  };
  const sgpr = sgprs({ mip: 1 });
  sgpr[8] = (sgpr[8]! | (1 << SQ_IMG_SAMP.DEPTH_COMPARE_FUNC!.lo)) >>> 0; // LESS (only the _c form reads it)
  const r = runAsm([
    'image_gather4_lz v[10:13], v[0:1], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D',
    'image_gather4_l v[14:17], v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D',
    'image_gather4_c_lz_o v[18:21], v[3:6], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D',
    's_waitcnt vmcnt(0)', 's_endpgm',
  ].join('\n'), { mem: texture(), sgpr, exec: 0xff, vgpr: { 3: 1 }, vgprF32: { 0: us, 1: vs, 2: 1, 4: 25, 5: us, 6: vs } });
  assert.deepEqual(r.diags, []);
  for (let l = 0; l < us.length; l++) {
    const u = f32(us[l]!), v = f32(vs[l]!);
    assert.deepEqual([10, 11, 12, 13].map((k) => r.vf(k, l)), foot(0, u, v), `gather4_lz lane ${l}`);
    assert.deepEqual([14, 15, 16, 17].map((k) => r.vf(k, l)), foot(1, u, v), `gather4_l lane ${l}`);
    assert.deepEqual([18, 19, 20, 21].map((k) => r.vf(k, l)), foot(0, u, v, 1, 0).map((t) => (25 < t ? 1 : 0)), `gather4_c_lz_o lane ${l}`);
  }
});

test('image_sample_d_g16: 16-bit derivatives packed (ds/dx | dt/dx << 16), (ds/dy | dt/dy << 16)', () => {
  const lods = [-1, 0, 1, 2, 3, 4, 1, 2];
  const half = (x: number) => f16bits(x);
  // Lanes 0..5: ds/dx = 2^lod / W in the low half of the first VGPR; lanes 6, 7: dt/dy = 2^lod / H in the high half of the second.
  const d0 = lods.map((lod, l) => (l < 6 ? half(2 ** lod / W) : 0));
  const d1 = lods.map((lod, l) => (l < 6 ? 0 : (half(2 ** lod / H) << 16) >>> 0));
  const us = lods.map((_, l) => 0.03 + l * 0.11), vs = lods.map((_, l) => 0.9 - l * 0.1);
  const o: Samp = { mip: 1 };
  const r = runAsm('image_sample_d_g16 v10, v[0:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\ns_waitcnt vmcnt(0)\ns_endpgm', {
    mem: texture(), sgpr: sgprs(o), vgpr: { 0: d0, 1: d1 }, vgprF32: { 2: us, 3: vs }, exec: 0xff,
  });
  assert.deepEqual(r.diags, []);
  for (let l = 0; l < lods.length; l++) assert.equal(r.vf(10, l), f32(ref(lods[l]!, f32(us[l]!), f32(vs[l]!), o)), `lane ${l}`);
});
