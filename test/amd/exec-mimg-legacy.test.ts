/**
 * MIMG on gfx1030 and gfx900: image_load, image_store and image_sample run through mimg.ts with
 * each generation's own T#/S# layouts and format numbering (mimg-gfx10.gen.ts from Mesa's
 * gfx10-rsrc JSON; mimg-gfx9.gen.ts from Mesa's gfx9 JSON: one WIDTH field, DATA_FORMAT and
 * NUM_FORMAT, PITCH, and 1D/2D from T# TYPE since GFX9 MIMG has no dim field). The descriptors
 * are packed here from those generated field tables; results are checked against the image
 * contents (and a nearest-sampling reference).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { targets } from '../../src/amd/isa/targets.js';
import type { IsaTarget } from '../../src/amd/isa/target.js';
import { IMG_FORMATS_GFX10, SQ_IMG_RSRC_GFX10, SQ_IMG_SAMP_GFX10 } from '../../src/amd/exec/mimg-gfx10.gen.js';
import { IMG_FORMATS_GFX9, SQ_IMG_RSRC_GFX9, SQ_IMG_SAMP_GFX9 } from '../../src/amd/exec/mimg-gfx9.gen.js';
import type { RsrcBits } from '../../src/amd/exec/mimg-rsrc.gen.js';
import type { BufFormat } from '../../src/amd/exec/buffer-formats.gen.js';
import { Memory } from '../../src/core/memory.js';
import { f32, f32bits } from '../../src/core/float.js';
import { runAsm } from './exec-harness.js';

const W = 4, H = 4;
const TEX = [0.0, 1.0, 0.25, 0.5, 0.75, 0.125, 1.0, 0.0, 0.5, 0.5, 0.0, 0.875, 0.375, 0.625, 0.25, 1.0];

function pack(words: number[], f: RsrcBits | undefined, v: number): void {
  if (!f) throw new Error('field missing from the generated layout');
  words[f.word] = (words[f.word]! | ((v & (2 ** f.width - 1)) << f.lo)) >>> 0;
}

interface Gen {
  readonly name: string; readonly target: IsaTarget; readonly waveSize: 32 | 64;
  readonly R: Readonly<Record<string, RsrcBits>>; readonly S: Readonly<Record<string, RsrcBits>>; readonly F: Readonly<Record<number, BufFormat>>;
  /** The dim modifier this target's assembly takes for a 2D image ('' on GFX9: the T# TYPE says so). */
  readonly dim2d: string;
  /** Write the width (and, on GFX9, the row pitch in texels) into a T#. */
  readonly size: (t: number[], width: number, pitch: number) => void;
  /** The row pitch the hardware derives from WIDTH (GFX10.3: 256 bytes = 64 32-bit texels), or undefined when the T# carries it (GFX9). */
  readonly derivedPitch?: number;
}

const GENS: readonly Gen[] = [
  {
    name: 'gfx1030', target: targets.gfx1030!, waveSize: 32, R: SQ_IMG_RSRC_GFX10, S: SQ_IMG_SAMP_GFX10, F: IMG_FORMATS_GFX10, dim2d: ' dim:SQ_RSRC_IMG_2D',
    size: (t, width) => { pack(t, SQ_IMG_RSRC_GFX10.WIDTH_LO, (width - 1) & 3); pack(t, SQ_IMG_RSRC_GFX10.WIDTH_HI, (width - 1) >> 2); },
    derivedPitch: 64,
  },
  {
    name: 'gfx900', target: targets.gfx900!, waveSize: 64, R: SQ_IMG_RSRC_GFX9, S: SQ_IMG_SAMP_GFX9, F: IMG_FORMATS_GFX9, dim2d: '',
    size: (t, width, pitch) => { pack(t, SQ_IMG_RSRC_GFX9.WIDTH, width - 1); pack(t, SQ_IMG_RSRC_GFX9.PITCH, pitch - 1); },
  },
];

/** A W x H 32_FLOAT image (rows `pitch` texels apart on GFX9, the derived pitch on GFX10.3) and a clamp-to-edge nearest sampler at s[8:11]. */
function setup(g: Gen, pitch = W, type = 9, format = '32_FLOAT'): { mem: Memory; sgpr: Record<number, number>; base: number; rowPitch: number } {
  const mem = new Memory();
  const seg = mem.alloc(4096, 'image');
  const rowPitch = g.derivedPitch ?? pitch;
  TEX.forEach((x, i) => mem.write32(seg.base + 4 * (Math.floor(i / W) * rowPitch + (i % W)), f32bits(x)));
  const R = g.R;
  const fmt = Number(Object.entries(g.F).find(([, e]) => e.name === format)![0]);
  const t = new Array<number>(8).fill(0);
  t[0] = Math.floor(seg.base / 256) >>> 0;
  pack(t, R.BASE_ADDRESS_HI, Math.floor(seg.base / 2 ** 40));
  pack(t, R.FORMAT, fmt);
  g.size(t, W, pitch);
  pack(t, R.HEIGHT, H - 1);
  pack(t, R.DST_SEL_X, 4); // SQ_SEL_X
  pack(t, R.DST_SEL_Y, 0);
  pack(t, R.DST_SEL_Z, 0);
  pack(t, R.DST_SEL_W, 1);
  pack(t, R.TYPE, type); // SQ_RSRC_IMG_2D (9) or 1D (8)
  const s = new Array<number>(4).fill(0);
  pack(s, g.S.CLAMP_X, 2); // clamp to the last texel
  pack(s, g.S.CLAMP_Y, 2);
  const sgpr: Record<number, number> = {};
  t.forEach((x, i) => { sgpr[i] = x; });
  s.forEach((x, i) => { sgpr[8 + i] = x; });
  return { mem, sgpr, base: seg.base, rowPitch };
}

const X = Array.from({ length: 64 }, (_, l) => l % W);
const Y = Array.from({ length: 64 }, (_, l) => Math.floor(l / W) % H);
const near = (q: number, n: number): number => Math.min(n - 1, Math.max(0, Math.floor(q * n)));

for (const g of GENS) {
  test(`${g.name} image_load reads texels through its own T# (FORMAT, size, DST_SEL)`, () => {
    const { mem, sgpr } = setup(g);
    const r = runAsm(`image_load v[4:5], v[0:1], s[0:7] dmask:0x9${g.dim2d} unorm\ns_endpgm`, { target: g.target, waveSize: g.waveSize, mem, sgpr, vgpr: { 0: X, 1: Y } });
    assert.deepEqual(r.diags.map((d) => d.id), []);
    for (let l = 0; l < g.waveSize; l++) {
      assert.equal(r.vf(4, l), TEX[Y[l]! * W + X[l]!], `lane ${l} x`);
      assert.equal(r.vf(5, l), 1, `lane ${l} w (DST_SEL_W = 1)`);
    }
  });

  test(`${g.name} image_sample (nearest, clamp) matches the reference; image_store writes the texel`, () => {
    const { mem, sgpr, base, rowPitch } = setup(g);
    const u = Array.from({ length: 64 }, (_, l) => f32bits((l % 6) * 0.2 - 0.1));
    const v = Array.from({ length: 64 }, (_, l) => f32bits(Math.floor(l / 6) * 0.3 - 0.2));
    const r = runAsm(`image_sample v4, v[0:1], s[0:7], s[8:11] dmask:0x1${g.dim2d}\ns_endpgm`, { target: g.target, waveSize: g.waveSize, mem, sgpr, vgpr: { 0: u, 1: v } });
    assert.deepEqual(r.diags.map((d) => d.id), []);
    for (let l = 0; l < g.waveSize; l++) assert.equal(r.vf(4, l), TEX[near(f32(v[l]!), H) * W + near(f32(u[l]!), W)], `lane ${l}`);
    const s = runAsm(`image_store v4, v[0:1], s[0:7] dmask:0x1${g.dim2d} unorm\ns_endpgm`, { target: g.target, waveSize: g.waveSize, mem, sgpr, vgpr: { 0: 2, 1: 3, 4: f32bits(7.5) }, exec: 1, execHi: 0 });
    assert.deepEqual(s.diags.map((d) => d.id), []);
    assert.equal(f32(mem.read32(base + 4 * (3 * rowPitch + 2))), 7.5);
  });

  test(`${g.name} image_sample_l / image_sample_lz on a one-level image and a bilinear sampler`, () => {
    const { mem, sgpr } = setup(g);
    sgpr[10] = (sgpr[10]! | (1 << g.S.XY_MAG_FILTER!.lo) | (1 << g.S.XY_MIN_FILTER!.lo)) >>> 0; // bilinear
    const u = Array.from({ length: 64 }, (_, l) => f32bits(0.125 + (l % 3) * 0.25));
    const v = Array.from({ length: 64 }, (_, l) => f32bits(0.375));
    const lod = f32bits(3);
    for (const src of [`image_sample_l v4, v[0:2], s[0:7], s[8:11] dmask:0x1${g.dim2d}`, `image_sample_lz v4, v[0:1], s[0:7], s[8:11] dmask:0x1${g.dim2d}`]) {
      const r = runAsm(`${src}\ns_endpgm`, { target: g.target, waveSize: g.waveSize, mem, sgpr, vgpr: { 0: u, 1: v, 2: lod } });
      assert.deepEqual(r.diags.map((d) => d.id), [], src);
      for (let l = 0; l < 3; l++) {
        // u = 0.125 + 0.25 l lies between texel columns; v = 0.375 between rows 0 and 1 (bilinear, clamped at the edge)
        const fx = f32(u[l]!) * W - 0.5, fy = 0.375 * H - 0.5;
        const x0 = Math.floor(fx), y0 = Math.floor(fy), a = fx - x0, b = fy - y0;
        const tx = (x: number, y: number): number => TEX[Math.min(H - 1, Math.max(0, y)) * W + Math.min(W - 1, Math.max(0, x))]!;
        const want = (1 - a) * (1 - b) * tx(x0, y0) + a * (1 - b) * tx(x0 + 1, y0) + (1 - a) * b * tx(x0, y0 + 1) + a * b * tx(x0 + 1, y0 + 1);
        assert.ok(Math.abs(r.vf(4, l) - want) < 1e-6, `${src} lane ${l}: ${r.vf(4, l)} vs ${want}`);
      }
    }
  });
}

for (const g of GENS) {
  // Wave-state seed: a load whose returned VGPRs (popcount(DMASK), D16-packed, + TFE/LWE) run past
  // the allocation is issued with EXEC=0: nothing is written, the problem is the destination.
  const load = (text: string, vgprs: number) => {
    const { mem, sgpr } = setup(g);
    return runAsm(`${text.replace('{dim}', g.dim2d)}\ns_endpgm`, { target: g.target, waveSize: g.waveSize, vgprs, mem, sgpr, vgpr: { 0: X, 1: Y, 6: 0xdead, 7: 0xbeef } });
  };
  const ids = (r: { diags: readonly { id: string }[] }) => r.diags.map((d) => d.id);

  test(`${g.name} image_load with its destination past the VGPR allocation is nullified (dst-out-of-range)`, () => {
    const r = load('image_load v[6:9], v[0:1], s[0:7] dmask:0xf{dim} unorm', 8);
    assert.deepEqual(ids(r), ['gfx11.vgpr.dst-out-of-range']);
    assert.match(r.diags[0]!.message, /destination v6\.\.v9 is past the 8 allocated VGPRs/);
    for (let l = 0; l < g.waveSize; l++) {
      assert.equal(r.v(6, l), 0xdead, `lane ${l}: v6 untouched`);
      assert.equal(r.v(7, l), 0xbeef, `lane ${l}: v7 untouched`);
    }
  });

  test(`${g.name} image_load out-of-range check counts DMASK's channels, not the register field`, () => {
    // dmask 0x9: two VGPRs (v6, v7) inside an 8-VGPR allocation: runs and stays quiet.
    const r = load('image_load v[6:7], v[0:1], s[0:7] dmask:0x9{dim} unorm', 8);
    assert.deepEqual(ids(r), []);
    for (let l = 0; l < g.waveSize; l++) assert.equal(r.vf(6, l), TEX[Y[l]! * W + X[l]!], `lane ${l}`);
  });

  test(`${g.name} image_load out-of-range check counts the TFE/LWE status VGPR and D16 packing`, () => {
    for (const [text, fires] of [
      ['image_load v[6:8], v[0:1], s[0:7] dmask:0x9{dim} unorm tfe', true], // 2 + 1 > 8 - 6
      // LLVM's operand width leaves LWE out; the hardware returns the status VGPR for it too.
      ['image_load v[6:7], v[0:1], s[0:7] dmask:0x9{dim} unorm lwe', true],
      ['image_load v[6:7], v[0:1], s[0:7] dmask:0x1{dim} unorm tfe', false], // 1 + 1
      ['image_load v7, v[0:1], s[0:7] dmask:0x3{dim} unorm d16', false], // two 16-bit channels in one VGPR
      ['image_load v[7:8], v[0:1], s[0:7] dmask:0x7{dim} unorm d16', true], // three -> two VGPRs
    ] as const) {
      const r = load(text, 8);
      assert.equal(ids(r).includes('gfx11.vgpr.dst-out-of-range'), fires, text);
      assert.ok(!ids(r).includes('gfx11.vgpr.src-out-of-range'), `${text}: a destination problem, not a source one`);
      if (fires) assert.deepEqual(ids(r), ['gfx11.vgpr.dst-out-of-range'], text);
    }
  });

  test(`${g.name} image_load with TFE returns the texel and a status VGPR of 0 (resident)`, () => {
    const r = load('image_load v[6:7], v[0:1], s[0:7] dmask:0x1{dim} unorm tfe', 8);
    assert.deepEqual(ids(r), []);
    for (let l = 0; l < g.waveSize; l++) {
      assert.equal(r.vf(6, l), TEX[Y[l]! * W + X[l]!], `lane ${l}`);
      assert.equal(r.v(7, l), 0, `lane ${l} status`);
    }
  });

  test(`${g.name} image_store data past the allocation reads VGPR0 (a source problem; the store happens)`, () => {
    const { mem, sgpr, base, rowPitch } = setup(g);
    const r = runAsm(`image_store v[7:8], v[0:1], s[0:7] dmask:0x9 unorm${g.dim2d}\ns_endpgm`, { target: g.target, waveSize: g.waveSize, vgprs: 8, mem, sgpr, vgpr: { 0: 2, 1: 3, 7: f32bits(6.5) }, exec: 1, execHi: 0 });
    assert.deepEqual(ids(r), ['gfx11.vgpr.src-out-of-range']);
    assert.equal(f32(mem.read32(base + 4 * (3 * rowPitch + 2))), 6.5);
  });
}

for (const g of GENS) {
  test(`${g.name} image atomics on a 32_UINT image: add/umax/cmpswap, GLC returns the pre-op value`, () => {
    const { mem, sgpr, base, rowPitch } = setup(g, W, 9, '32_UINT');
    const at = (x: number, y: number) => base + 4 * (y * rowPitch + x);
    const before = [0, 1, 2, 3].map((x) => mem.read32(at(x, 1)));
    // lanes 0..3 hit (l, 1); lane 4 is outside the 4x4 image (x = 9): untouched, returns 0.
    const xs = [0, 1, 2, 3, 9], ys = [1, 1, 1, 1, 1];
    const r = runAsm(`image_atomic_add v4, v[0:1], s[0:7] dmask:0x1${g.dim2d} unorm glc\ns_endpgm`, { target: g.target, waveSize: g.waveSize, mem, sgpr, exec: 0b11111, execHi: 0, vgpr: { 0: xs, 1: ys, 4: 5 } });
    assert.deepEqual(r.diags.map((d) => d.id), []);
    for (let l = 0; l < 4; l++) {
      assert.equal(r.v(4, l), before[l], `lane ${l} returns the old texel`);
      assert.equal(mem.read32(at(l, 1)), (before[l]! + 5) >>> 0, `lane ${l} texel`);
    }
    assert.equal(r.v(4, 4), 0);
    // cmpswap: lane 0 compares with the current value (swaps to 77), lane 1 with a wrong one (keeps it).
    const cur = [0, 1].map((x) => mem.read32(at(x, 1)));
    const c = runAsm(`image_atomic_cmpswap v[4:5], v[0:1], s[0:7] dmask:0x3${g.dim2d} unorm glc\ns_endpgm`, { target: g.target, waveSize: g.waveSize, mem, sgpr, exec: 0b11, execHi: 0, vgpr: { 0: [0, 1], 1: 1, 4: 77, 5: [cur[0]!, cur[1]! ^ 1] } });
    assert.deepEqual(c.diags.map((d) => d.id), []);
    assert.equal(mem.read32(at(0, 1)), 77);
    assert.equal(mem.read32(at(1, 1)), cur[1]);
    assert.equal(c.v(4, 0), cur[0]);
    // Without GLC nothing returns; umax keeps the larger.
    const u = runAsm(`image_atomic_umax v4, v[0:1], s[0:7] dmask:0x1${g.dim2d} unorm\ns_endpgm`, { target: g.target, waveSize: g.waveSize, mem, sgpr, exec: 0b1, execHi: 0, vgpr: { 0: 0, 1: 1, 4: 1000 } });
    assert.deepEqual(u.diags.map((d) => d.id), []);
    assert.equal(mem.read32(at(0, 1)), 1000);
    assert.equal(u.v(4, 0), 1000);
  });

  test(`${g.name} a returning image atomic with VDATA past the allocation is nullified; a non-returning one is not`, () => {
    const { mem, sgpr, base, rowPitch } = setup(g, W, 9, '32_UINT');
    const a = base + 4 * rowPitch;
    const old = mem.read32(a);
    const r = runAsm(`image_atomic_add v4, v[0:1], s[0:7] dmask:0x1${g.dim2d} unorm glc\ns_endpgm`, { target: g.target, waveSize: g.waveSize, vgprs: 4, mem, sgpr, exec: 1, execHi: 0, vgpr: { 0: 0, 1: 1 } });
    assert.deepEqual(r.diags.map((d) => d.id), ['gfx11.vgpr.dst-out-of-range']);
    assert.equal(mem.read32(a), old);
    // Without GLC VDATA is a source: it reads VGPR0 (here x = 2) and the add happens.
    const old2 = mem.read32(a + 8);
    const s = runAsm(`image_atomic_add v4, v[0:1], s[0:7] dmask:0x1${g.dim2d} unorm\ns_endpgm`, { target: g.target, waveSize: g.waveSize, vgprs: 4, mem, sgpr, exec: 1, execHi: 0, vgpr: { 0: 2, 1: 1 } });
    assert.deepEqual(s.diags.map((d) => d.id), ['gfx11.vgpr.src-out-of-range']);
    assert.equal(mem.read32(a + 8), (old2 + 2) >>> 0);
  });
}

test('gfx900: the row pitch comes from T# PITCH, 1D images from T# TYPE', () => {
  const g = GENS[1]!;
  const { mem, sgpr } = setup(g, 64);
  const r = runAsm('image_load v[4:5], v[0:1], s[0:7] dmask:0x9 unorm\ns_endpgm', { target: g.target, waveSize: 64, mem, sgpr, vgpr: { 0: X, 1: Y } });
  assert.deepEqual(r.diags.map((d) => d.id), []);
  for (let l = 0; l < 64; l++) assert.equal(r.vf(4, l), TEX[Y[l]! * W + X[l]!], `lane ${l}`);
  // TYPE SQ_RSRC_IMG_1D: only v0 is read, the row is 0 whatever v1 holds.
  const one = setup(g, W, 8);
  const r1 = runAsm('image_load v4, v0, s[0:7] dmask:0x1 unorm\ns_endpgm', { target: g.target, waveSize: 64, mem: one.mem, sgpr: one.sgpr, vgpr: { 0: X, 1: Y } });
  assert.deepEqual(r1.diags.map((d) => d.id), []);
  for (let l = 0; l < 64; l++) assert.equal(r1.vf(4, l), TEX[X[l]!], `lane ${l}`);
});

// GFX9 arrays, mip chains and the T# layouts it cannot address: gfx-mimg-layout.test.ts.
