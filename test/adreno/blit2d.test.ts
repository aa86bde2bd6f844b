/**
 * CP_BLIT / BLIT_OP_SCALE executed by the CP from the 2D registers: streams built with the
 * repo's stream builder, memory checked against pixels computed here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { enumValue } from '../../src/adreno/regs/db.js';
import { defaultPitch, linearToTile6, tile6ToLinear } from '../../src/adreno/ubwc/tile6.js';
import { linearToUbwc, ubwcLayout, ubwcToLinear } from '../../src/adreno/ubwc/ubwc.js';

const E = (e: string, v: string): number => enumValue(e, v, 'a6xx')!;
const OP_SCALE = E('cp_blit_cmd', 'BLIT_OP_SCALE');

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) >>> 24);
}

interface Surf { fmt: string; tile?: 'TILE6_LINEAR' | 'TILE6_3'; iova: number; pitch: number; flags?: { iova: number; pitch: number }; samples?: string; filter?: boolean; average?: boolean; width?: number; height?: number }

function blitStream(o: { dst: Surf; src?: Surf; solid?: { ifmt: string; c: number[] }; dstRect: [number, number, number, number]; srcRect?: [number, number, number, number]; rbCntlOverride?: number }): CmdStream {
  const cs = new CmdStream();
  const cntl = { SOLID_COLOR: !!o.solid, COLOR_FORMAT: o.dst.fmt, IFMT: o.solid?.ifmt ?? 'R2D_UNORM8' };
  cs.reg('GRAS_2D_BLIT_CNTL', cntl);
  if (o.rbCntlOverride !== undefined) cs.reg('RB_2D_BLIT_CNTL', o.rbCntlOverride);
  else cs.reg('RB_2D_BLIT_CNTL', cntl);
  const [x0, y0, x1, y1] = o.dstRect;
  cs.reg('GRAS_2D_DST_TL', { X: x0, Y: y0 }).reg('GRAS_2D_DST_BR', { X: x1, Y: y1 });
  cs.reg('RB_2D_DST_INFO', { COLOR_FORMAT: o.dst.fmt, TILE_MODE: o.dst.tile ?? 'TILE6_LINEAR', FLAGS: !!o.dst.flags });
  cs.reg64('RB_2D_DST', o.dst.iova).reg('RB_2D_DST_PITCH', o.dst.pitch / 64);
  if (o.dst.flags) cs.reg64('RB_2D_DST_FLAGS', o.dst.flags.iova).reg('RB_2D_DST_FLAGS_PITCH', o.dst.flags.pitch / 64);
  cs.reg('SP_2D_DST_FORMAT', { COLOR_FORMAT: o.dst.fmt, NORM: true });
  if (o.solid) cs.regs32('RB_2D_SRC_SOLID_C0', o.solid.c);
  if (o.src) {
    const [a, b, c, d] = o.srcRect!;
    cs.reg('GRAS_2D_SRC_TL_X', a << 8).reg('GRAS_2D_SRC_TL_Y', b << 8).reg('GRAS_2D_SRC_BR_X', c << 8).reg('GRAS_2D_SRC_BR_Y', d << 8);
    cs.reg('SP_PS_2D_SRC_INFO', { COLOR_FORMAT: o.src.fmt, TILE_MODE: o.src.tile ?? 'TILE6_LINEAR', FLAGS: !!o.src.flags, SAMPLES: o.src.samples ?? 'MSAA_ONE', FILTER: !!o.src.filter, SAMPLES_AVERAGE: !!o.src.average });
    cs.reg('SP_PS_2D_SRC_SIZE', { WIDTH: o.src.width!, HEIGHT: o.src.height! });
    cs.reg64('SP_PS_2D_SRC', o.src.iova).reg('SP_PS_2D_SRC_PITCH', { PITCH: o.src.pitch });
    if (o.src.flags) cs.reg64('SP_PS_2D_SRC_FLAGS', o.src.flags.iova).reg('SP_PS_2D_SRC_FLAGS_PITCH', o.src.flags.pitch / 64);
  }
  return cs.pkt('CP_BLIT', [OP_SCALE]);
}

function run(L: Layout, cs: CmdStream): { mem: Memory; diag: Diagnostics } {
  const ib = L.place(cs, 'ib');
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, Math.max(b.data.length, 4), b.label, b.data.slice());
  const diag = new Diagnostics();
  const cp = new CommandProcessor(mem, { diag });
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  return { mem, diag };
}

const ids = (d: Diagnostics): string[] => d.list.filter((x) => x.severity !== 'info').map((x) => x.id);

test('solid clear: UNORM8 into linear 8888 and FLOAT16 into TILE6_3 16_16_16_16_FLOAT', () => {
  const L = new Layout();
  const W = 32, H = 8;
  const pitch = defaultPitch(W, 4, 'linear');
  const dst = L.reserve(pitch * H, 'dst');
  const { mem, diag } = run(L, blitStream({ dst: { fmt: 'FMT6_8_8_8_8_UNORM', iova: dst, pitch }, solid: { ifmt: 'R2D_UNORM8', c: [0x10, 0x20, 0x30, 0xff] }, dstRect: [2, 1, 9, 5] }));
  assert.deepEqual(ids(diag), []);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const inside = x >= 2 && x <= 9 && y >= 1 && y <= 5;
      assert.deepEqual([...mem.readBytes(dst + y * pitch + x * 4, 4)], inside ? [0x10, 0x20, 0x30, 0xff] : [0, 0, 0, 0], `(${x},${y})`);
    }

  const L2 = new Layout();
  const p2 = defaultPitch(16, 8, 'tile6_3');
  const d2 = L2.reserve(p2 * 16, 'dst');
  // halves of 1.0, -2.0, 0.5, 0.25
  const r2 = run(L2, blitStream({ dst: { fmt: 'FMT6_16_16_16_16_FLOAT', tile: 'TILE6_3', iova: d2, pitch: p2 }, solid: { ifmt: 'R2D_FLOAT16', c: [0x3c00, 0xc000, 0x3800, 0x3400] }, dstRect: [0, 0, 15, 3] }));
  assert.deepEqual(ids(r2.diag), []);
  const lin = tile6ToLinear(r2.mem.readBytes(d2, p2 * 16), 16, 4, 8, p2);
  const dv = new DataView(lin.buffer);
  for (let i = 0; i < 64; i++) assert.deepEqual([0, 1, 2, 3].map((c) => dv.getUint16(i * 8 + c * 2, true)), [0x3c00, 0xc000, 0x3800, 0x3400]);
});

/** Expected packing of RGBA unorm8 bytes into each destination format, computed here. */
/** Half-float bits of a normal value in (2^-14, 1]: exponent, then the mantissa rounded (no ties occur for k/255). */
const half = (v: number): number => {
  if (v === 0) return 0;
  const e = Math.floor(Math.log2(v));
  return ((e + 15) << 10) + Math.round(v * 2 ** (10 - e)) - 1024;
};
const EXPECT: Record<string, (c: number[]) => number[]> = {
  FMT6_8_8_8_8_UNORM: (c) => c,
  FMT6_8_UNORM: (c) => [c[0]!],
  FMT6_5_6_5_UNORM: (c) => { const v = Math.round(c[0]! * 31 / 255) | (Math.round(c[1]! * 63 / 255) << 5) | (Math.round(c[2]! * 31 / 255) << 11); return [v & 0xff, v >> 8]; },
  FMT6_10_10_10_2_UNORM: (c) => { const v = (Math.round(c[0]! * 1023 / 255) + Math.round(c[1]! * 1023 / 255) * 2 ** 10 + Math.round(c[2]! * 1023 / 255) * 2 ** 20 + Math.round(c[3]! * 3 / 255) * 2 ** 30); return [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, Math.floor(v / 2 ** 24) & 0xff]; },
  FMT6_32_FLOAT: (c) => [...new Uint8Array(new Float32Array([c[0]! / 255]).buffer)],
  FMT6_16_16_16_16_FLOAT: (c) => c.flatMap((v) => { const h = half(v / 255); return [h & 0xff, h >> 8]; }),
};
const CPP: Record<string, number> = { FMT6_8_8_8_8_UNORM: 4, FMT6_8_UNORM: 1, FMT6_5_6_5_UNORM: 2, FMT6_10_10_10_2_UNORM: 4, FMT6_32_FLOAT: 4, FMT6_16_16_16_16_FLOAT: 8 };

test('copy with format conversion: 8888 source to each modelled format, linear and TILE6_3 destinations', () => {
  const W = 32, H = 8;
  const r = rng(7);
  const src = new Uint8Array(W * H * 4).map(() => r());
  for (const [fmt, cpp] of Object.entries(CPP))
    for (const tile of ['TILE6_LINEAR', 'TILE6_3'] as const) {
      const L = new Layout();
      const sp = defaultPitch(W, 4, 'tile6_3');
      const s = L.place(linearToTile6(src, W, H, 4, sp), 'src').iova;
      const mode = tile === 'TILE6_3' ? 'tile6_3' : 'linear';
      const dp = defaultPitch(W, cpp, mode);
      const d = L.reserve(dp * 32, 'dst');
      const { mem, diag } = run(L, blitStream({ dst: { fmt, tile, iova: d, pitch: dp }, src: { fmt: 'FMT6_8_8_8_8_UNORM', tile: 'TILE6_3', iova: s, pitch: sp, width: W, height: H }, dstRect: [0, 0, W - 1, H - 1], srcRect: [0, 0, W - 1, H - 1] }));
      assert.deepEqual(ids(diag), [], fmt);
      const out = tile === 'TILE6_3' ? tile6ToLinear(mem.readBytes(d, dp * 32), W, H, cpp, dp) : mem.readBytes(d, dp * H);
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          const o = tile === 'TILE6_3' ? (y * W + x) * cpp : y * dp + x * cpp;
          assert.deepEqual([...out.subarray(o, o + cpp)], EXPECT[fmt]!([...src.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)]), `${fmt} ${tile} (${x},${y})`);
        }
    }
});

test('scaling: nearest 2x up, bilinear 2x down (exact 2x2 averages)', () => {
  const r = rng(11);
  const W = 16, H = 8;
  const src = new Uint8Array(W * H * 4).map(() => r() & 0xfc);
  const L = new Layout();
  const s = L.place(src, 'src').iova;
  const d = L.reserve(64 * 4 * 16, 'up');
  const d2 = L.reserve(64 * 4 * 4, 'down');
  const base = { fmt: 'FMT6_8_8_8_8_UNORM', iova: s, pitch: W * 4, width: W, height: H } as const;
  const cs = blitStream({ dst: { fmt: 'FMT6_8_8_8_8_UNORM', iova: d, pitch: 256 }, src: base, dstRect: [0, 0, 31, 15], srcRect: [0, 0, 15, 7] });
  const cs2 = blitStream({ dst: { fmt: 'FMT6_8_8_8_8_UNORM', iova: d2, pitch: 256 }, src: { ...base, filter: true }, dstRect: [0, 0, 7, 3], srcRect: [0, 0, 15, 7] });
  const both = new CmdStream().raw(...cs.dwords(), ...cs2.dwords());
  const { mem, diag } = run(L, both);
  assert.deepEqual(ids(diag), []);
  const px = (x: number, y: number): number[] => [...src.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)];
  for (let y = 0; y < 16; y++) for (let x = 0; x < 32; x++) assert.deepEqual([...mem.readBytes(d + y * 256 + x * 4, 4)], px(x >> 1, y >> 1));
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 8; x++) {
      const want = [0, 1, 2, 3].map((c) => (px(2 * x, 2 * y)[c]! + px(2 * x + 1, 2 * y)[c]! + px(2 * x, 2 * y + 1)[c]! + px(2 * x + 1, 2 * y + 1)[c]!) / 4);
      assert.deepEqual([...mem.readBytes(d2 + y * 256 + x * 4, 4)], want, `(${x},${y})`);
    }
});

test('MSAA source is resolved: 4 samples averaged (SAMPLES_AVERAGE), sample 0 otherwise', () => {
  const r = rng(3);
  const W = 8, H = 4;
  const src = new Uint8Array(W * H * 16).map(() => r() & 0xfc);
  const L = new Layout();
  const s = L.place(src, 'src').iova;
  const d = L.reserve(256 * H, 'dst');
  const d2 = L.reserve(256 * H, 'dst0');
  const m = { fmt: 'FMT6_8_8_8_8_UNORM', iova: s, pitch: W * 16, width: W, height: H, samples: 'MSAA_FOUR' } as const;
  const cs = new CmdStream().raw(
    ...blitStream({ dst: { fmt: 'FMT6_8_8_8_8_UNORM', iova: d, pitch: 256 }, src: { ...m, average: true }, dstRect: [0, 0, W - 1, H - 1], srcRect: [0, 0, W - 1, H - 1] }).dwords(),
    ...blitStream({ dst: { fmt: 'FMT6_8_8_8_8_UNORM', iova: d2, pitch: 256 }, src: m, dstRect: [0, 0, W - 1, H - 1], srcRect: [0, 0, W - 1, H - 1] }).dwords(),
  );
  const { mem, diag } = run(L, cs);
  assert.deepEqual(ids(diag), []);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 16;
      const want = [0, 1, 2, 3].map((c) => (src[o + c]! + src[o + 4 + c]! + src[o + 8 + c]! + src[o + 12 + c]!) / 4);
      assert.deepEqual([...mem.readBytes(d + y * 256 + x * 4, 4)], want);
      assert.deepEqual([...mem.readBytes(d2 + y * 256 + x * 4, 4)], [...src.subarray(o, o + 4)]);
    }
});

test('UBWC source (fast-cleared and stored blocks) to linear, and into a fast-cleared UBWC destination', () => {
  const W = 48, H = 8;
  const r = rng(5);
  const lin = new Uint8Array(W * H * 4).map(() => r());
  for (let y = 0; y < 4; y++) for (let x = 16; x < 32; x++) lin.set([255, 255, 255, 0], (y * W + x) * 4); // one clearable block
  const lay = ubwcLayout(W, H, 4);
  const L = new Layout();
  const s = L.place(linearToUbwc(lin, lay, { alphaByte: 3 }), 'src').iova;
  const d = L.reserve(256 * H, 'dst');
  const dstLin = new Uint8Array(W * H * 4).fill(0xff); // all white opaque: every block fast-clears
  const du = L.place(linearToUbwc(dstLin, lay, { alphaByte: 3 }), 'dstubwc').iova;
  const srcS = { fmt: 'FMT6_8_8_8_8_UNORM', tile: 'TILE6_3', iova: s + lay.dataOffset, pitch: lay.pitch, flags: { iova: s, pitch: lay.metaPitch }, width: W, height: H } as const;
  const cs = new CmdStream().raw(
    ...blitStream({ dst: { fmt: 'FMT6_8_8_8_8_UNORM', iova: d, pitch: 256 }, src: srcS, dstRect: [0, 0, W - 1, H - 1], srcRect: [0, 0, W - 1, H - 1] }).dwords(),
    ...blitStream({ dst: { fmt: 'FMT6_8_8_8_8_UNORM', tile: 'TILE6_3', iova: du + lay.dataOffset, pitch: lay.pitch, flags: { iova: du, pitch: lay.metaPitch } }, src: srcS, dstRect: [4, 2, 19, 5], srcRect: [4, 2, 19, 5] }).dwords(),
  );
  const { mem, diag } = run(L, cs);
  assert.deepEqual(ids(diag), []);
  assert.equal(mem.read8(s + 1), 0x01 | (0 << 2) | (1 << 3)); // block 1 was fast-cleared (colour 1, alpha 0)
  for (let y = 0; y < H; y++) assert.deepEqual([...mem.readBytes(d + y * 256, W * 4)], [...lin.subarray(y * W * 4, (y + 1) * W * 4)]);
  const back = ubwcToLinear(mem.readBytes(du, lay.dataOffset + lay.dataSize), lay, { alphaByte: 3 }, new Diagnostics(), 'dst');
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const inside = x >= 4 && x <= 19 && y >= 2 && y <= 5;
      assert.deepEqual([...back.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)], inside ? [...lin.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)] : [255, 255, 255, 255], `(${x},${y})`);
    }
  assert.equal(mem.read8(du + 2), 0x0d); // block 2 untouched: still fast-cleared
  assert.equal(mem.read8(du + 0), 0x1f); // touched blocks stored whole
});

test('unsupported formats / layouts are reported with stable ids and write nothing', () => {
  const cases: Array<[string, Partial<Surf>, string]> = [
    ['adreno.blit.format-unsupported', { fmt: 'FMT6_16_16_16_16_UNORM' }, 'dst'],
    ['adreno.blit.tile6-2-destination', { tile: 'TILE6_2' as 'TILE6_3' }, 'dst'],
    ['adreno.blit.ubwc-linear', { flags: { iova: 0x1000_0000, pitch: 64 } }, 'dst'],
  ];
  for (const [id, patch] of cases) {
    const L = new Layout();
    const d = L.reserve(4096, 'dst');
    const { mem, diag } = run(L, blitStream({ dst: { fmt: 'FMT6_8_8_8_8_UNORM', iova: d, pitch: 256, ...patch }, solid: { ifmt: 'R2D_UNORM8', c: [1, 2, 3, 4] }, dstRect: [0, 0, 3, 3] }));
    assert.deepEqual(ids(diag), [id]);
    assert.deepEqual([...mem.readBytes(d, 16)], new Array(16).fill(0));
  }
  const L = new Layout();
  const d = L.reserve(4096, 'dst');
  const { diag } = run(L, blitStream({ dst: { fmt: 'FMT6_8_8_8_8_UNORM', iova: d, pitch: 256 }, solid: { ifmt: 'R2D_UNORM8', c: [1, 2, 3, 4] }, dstRect: [0, 0, 3, 3], rbCntlOverride: 0 }));
  assert.ok(ids(diag).includes('adreno.blit.cntl-mismatch'));
});
