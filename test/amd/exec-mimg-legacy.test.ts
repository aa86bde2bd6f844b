/**
 * MIMG on gfx1030: image_load, image_store and image_sample run through mimg.ts with GFX10.3's
 * own T#/S# layouts and FORMAT numbering (mimg-gfx10.gen.ts, from Mesa's gfx10-rsrc JSON). The
 * descriptors are packed here from those generated field tables; results are checked against
 * the image contents (and a nearest-sampling reference).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partialTargets } from '../../src/amd/isa/targets.js';
import { IMG_FORMATS_GFX10, SQ_IMG_RSRC_GFX10, SQ_IMG_SAMP_GFX10 } from '../../src/amd/exec/mimg-gfx10.gen.js';
import type { RsrcBits } from '../../src/amd/exec/mimg-rsrc.gen.js';
import { Memory } from '../../src/core/memory.js';
import { f32, f32bits } from '../../src/core/float.js';
import { runAsm } from './exec-harness.js';

const gfx10 = partialTargets.gfx1030!;
const W = 4, H = 4;
const TEX = [0.0, 1.0, 0.25, 0.5, 0.75, 0.125, 1.0, 0.0, 0.5, 0.5, 0.0, 0.875, 0.375, 0.625, 0.25, 1.0];

function pack(words: number[], f: RsrcBits | undefined, v: number): void {
  if (!f) throw new Error('field missing from the generated layout');
  words[f.word] = (words[f.word]! | ((v & (2 ** f.width - 1)) << f.lo)) >>> 0;
}

function setup(): { mem: Memory; sgpr: Record<number, number>; base: number } {
  const mem = new Memory();
  const seg = mem.alloc(4096, 'image');
  TEX.forEach((x, i) => mem.write32(seg.base + 4 * i, f32bits(x)));
  const R = SQ_IMG_RSRC_GFX10;
  const fmt = Number(Object.entries(IMG_FORMATS_GFX10).find(([, e]) => e.name === '32_FLOAT')![0]);
  const t = new Array<number>(8).fill(0);
  t[0] = Math.floor(seg.base / 256) >>> 0;
  pack(t, R.BASE_ADDRESS_HI, Math.floor(seg.base / 2 ** 40));
  pack(t, R.FORMAT, fmt);
  pack(t, R.WIDTH_LO, (W - 1) & 3);
  pack(t, R.WIDTH_HI, (W - 1) >> 2);
  pack(t, R.HEIGHT, H - 1);
  pack(t, R.DST_SEL_X, 4); // SQ_SEL_X
  pack(t, R.DST_SEL_Y, 0);
  pack(t, R.DST_SEL_Z, 0);
  pack(t, R.DST_SEL_W, 1);
  pack(t, R.TYPE, 9); // SQ_RSRC_IMG_2D
  const s = new Array<number>(4).fill(0);
  pack(s, SQ_IMG_SAMP_GFX10.CLAMP_X, 2); // clamp to the last texel
  pack(s, SQ_IMG_SAMP_GFX10.CLAMP_Y, 2);
  const sgpr: Record<number, number> = {};
  t.forEach((x, i) => { sgpr[i] = x; });
  s.forEach((x, i) => { sgpr[8 + i] = x; });
  return { mem, sgpr, base: seg.base };
}

const lanes = 16;
const X = Array.from({ length: 32 }, (_, l) => l % W);
const Y = Array.from({ length: 32 }, (_, l) => Math.floor(l / W) % H);

test('gfx1030 image_load reads texels through the GFX10 T# (FORMAT, size, DST_SEL)', () => {
  const { mem, sgpr } = setup();
  const r = runAsm('image_load v[4:5], v[0:1], s[0:7] dmask:0x9 dim:SQ_RSRC_IMG_2D unorm\ns_endpgm', { target: gfx10, waveSize: 32, mem, sgpr, vgpr: { 0: X, 1: Y } });
  assert.deepEqual(r.diags.map((d) => d.id), []);
  for (let l = 0; l < lanes; l++) {
    assert.equal(r.vf(4, l), TEX[Y[l]! * W + X[l]!], `lane ${l} x`);
    assert.equal(r.vf(5, l), 1, `lane ${l} w (DST_SEL_W = 1)`);
  }
});

test('gfx1030 image_sample (nearest, clamp) matches the reference; image_store writes the texel', () => {
  const { mem, sgpr, base } = setup();
  const u = Array.from({ length: 32 }, (_, l) => f32bits((l % 6) * 0.2 - 0.1));
  const v = Array.from({ length: 32 }, (_, l) => f32bits(Math.floor(l / 6) * 0.3));
  const r = runAsm('image_sample v4, v[0:1], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\ns_endpgm', { target: gfx10, waveSize: 32, mem, sgpr, vgpr: { 0: u, 1: v } });
  assert.deepEqual(r.diags.map((d) => d.id), []);
  for (let l = 0; l < 32; l++) {
    const c = (q: number, n: number) => Math.min(n - 1, Math.max(0, Math.floor(q * n)));
    assert.equal(r.vf(4, l), TEX[c(f32(v[l]!), H) * W + c(f32(u[l]!), W)], `lane ${l}`);
  }
  const s = runAsm('image_store v4, v[0:1], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\ns_endpgm', { target: gfx10, waveSize: 32, mem, sgpr, vgpr: { 0: 2, 1: 3, 4: f32bits(7.5) }, exec: 1 });
  assert.deepEqual(s.diags.map((d) => d.id), []);
  assert.equal(f32(mem.read32(base + 4 * (3 * W + 2))), 7.5);
});
