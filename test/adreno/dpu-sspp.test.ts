/**
 * SSPP against hand-computed pixels: surfaces are written byte by byte here (not by the model's
 * packers), and the expected values come from the documented formulas written out in the test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { InputError } from '../../src/core/errors.js';
import { FORMATS } from '../../src/adreno/dpu/format.js';
import { CSC_PRESETS, runPipe, checkPipes, type PipeLayer, type Surface } from '../../src/adreno/dpu/sspp.js';
import { parseFrame } from '../../src/adreno/dpu/frame.js';

/** 8-bit to 10-bit by bit replication. */
const to10 = (v: number): number => v * 4 + (v >> 6);

function layer(surface: Surface | undefined, o: Partial<PipeLayer> = {}): PipeLayer {
  const w = surface?.width ?? 1;
  const h = surface?.height ?? 1;
  return { name: 'l', pipe: 'VIG0', rect: 0, ...(surface ? { surface } : {}), src: { x: 0, y: 0, w, h }, dst: { x: 0, y: 0, w, h }, rot90: false, flipLr: false, flipUd: false, scaler: 'bilinear', chromaUpsample: 'replicate', csc: CSC_PRESETS['bt601_limited']!, ...o };
}
const rgbSurface = (format: string, w: number, h: number, bytes: number[]): Surface => ({ name: 's', format: FORMATS.get(format)!, width: w, height: h, layout: 'linear', planes: [Uint8Array.from(bytes)], pitches: [(bytes.length / h) | 0] });
const px = (img: { px: Uint16Array; w: number }, x: number, y: number): number[] => [...img.px.subarray((y * img.w + x) * 4, (y * img.w + x) * 4 + 4)];

test('SSPP unpacks RGB formats: byte order and bit replication to 10 bits', () => {
  const d = new Diagnostics();
  // ARGB8888 is B, G, R, A in memory; ABGR8888 is R, G, B, A; RGBA8888 is A, B, G, R.
  assert.deepEqual(px(runPipe(layer(rgbSurface('ARGB8888', 1, 1, [0x10, 0x20, 0x30, 0x40])), d), 0, 0), [to10(0x30), to10(0x20), to10(0x10), 0x40]);
  assert.deepEqual(px(runPipe(layer(rgbSurface('ABGR8888', 1, 1, [0x10, 0x20, 0x30, 0x40])), d), 0, 0), [to10(0x10), to10(0x20), to10(0x30), 0x40]);
  assert.deepEqual(px(runPipe(layer(rgbSurface('RGBA8888', 1, 1, [0x40, 0x30, 0x20, 0x10])), d), 0, 0), [to10(0x10), to10(0x20), to10(0x30), 0x40]);
  // XRGB: alpha reads as opaque.
  assert.deepEqual(px(runPipe(layer(rgbSurface('XRGB8888', 1, 1, [1, 2, 3, 0])), d), 0, 0), [to10(3), to10(2), to10(1), 255]);
  // RGB565 0x552a little-endian: R = 0b01010 (10), G = 0b101001 (41), B = 0b01010 (10).
  const w565 = (10 << 11) | (41 << 5) | 10;
  const r5 = (10 << 5) | 10; // 5 -> 10 bits: the value twice
  const g6 = (41 << 4) | (41 >> 2); // 6 -> 10 bits: the value, then its top 4 bits
  assert.deepEqual(px(runPipe(layer(rgbSurface('RGB565', 1, 1, [w565 & 0xff, w565 >> 8])), d), 0, 0), [r5, g6, r5, 255]);
  // ARGB1555 with A = 1 -> 255; ARGB4444 alpha 0x9 -> 0x99.
  assert.equal(px(runPipe(layer(rgbSurface('ARGB1555', 1, 1, [0, 0x80])), d), 0, 0)[3], 255);
  assert.equal(px(runPipe(layer(rgbSurface('ARGB4444', 1, 1, [0, 0x90])), d), 0, 0)[3], 0x99);
  // ARGB2101010: 10-bit components as stored, 2-bit alpha 2 -> 0b10101010.
  const w10 = 2 * 2 ** 30 + 700 * 2 ** 20 + 300 * 2 ** 10 + 5;
  const b10 = [w10 & 0xff, (w10 >>> 8) & 0xff, (w10 >>> 16) & 0xff, w10 >>> 24];
  assert.deepEqual(px(runPipe(layer(rgbSurface('ARGB2101010', 1, 1, b10)), d), 0, 0), [700, 300, 5, 0xaa]);
  // RGB888 is B, G, R in memory.
  assert.deepEqual(px(runPipe(layer(rgbSurface('RGB888', 1, 1, [7, 8, 9])), d), 0, 0), [to10(9), to10(8), to10(7), 255]);
});

test('SSPP YUV: NV12 through the BT.601 limited-range CSC (S4.9, pre-bias -16/-128/-128)', () => {
  const Y = [16, 235, 81, 145];
  const cb = 90;
  const cr = 240;
  const s: Surface = { name: 'nv12', format: FORMATS.get('NV12')!, width: 2, height: 2, layout: 'linear', planes: [Uint8Array.from(Y), Uint8Array.of(cb, cr)], pitches: [2, 2] };
  const img = runPipe(layer(s), new Diagnostics());
  const c255 = (v: number): number => Math.min(255, Math.max(0, v));
  for (let i = 0; i < 4; i++) {
    const y = Y[i]! - 16;
    const u = cb - 128;
    const v = Math.min(cr, 240) - 128;
    // R = 1.164 Y + 1.596 Cr, G = 1.164 Y - 0.391 Cb - 0.813 Cr, B = 1.164 Y + 2.018 Cb, in 1/512 units.
    const R = c255(Math.floor((596 * y + 817 * v + 256) / 512));
    const G = c255(Math.floor((596 * y - 201 * u - 416 * v + 256) / 512));
    const B = c255(Math.floor((596 * y + 1033 * u + 256) / 512));
    assert.deepEqual(px(img, i % 2, i >> 1), [to10(R), to10(G), to10(B), 255], `pixel ${i}`);
  }
});

/** A CSC that passes Cb to R, Cr to G and Y to B, to see the upsampled chroma directly. */
const PASS = { matrix: [0, 512, 0, 0, 0, 512, 512, 0, 0], preBias: [0, 0, 0], postBias: [0, 0, 0], preClamp: [0, 255, 0, 255, 0, 255], postClamp: [0, 255, 0, 255, 0, 255] };

test('SSPP chroma upsampling: replicate and bilinear (chroma sited midway between luma pairs)', () => {
  const cbs = [40, 120, 200, 80]; // 2x2 chroma of a 4x4 NV12 image
  const crs = [10, 20, 30, 250];
  const uv = cbs.flatMap((c, i) => [c, crs[i]!]);
  const s: Surface = { name: 'nv12', format: FORMATS.get('NV12')!, width: 4, height: 4, layout: 'linear', planes: [new Uint8Array(16).fill(100), Uint8Array.from(uv)], pitches: [4, 4] };
  const rep = runPipe(layer(s, { csc: PASS, chromaUpsample: 'replicate' }), new Diagnostics());
  const bil = runPipe(layer(s, { csc: PASS, chromaUpsample: 'bilinear' }), new Diagnostics());
  // Weight of chroma sample i for luma position x: chroma i sits at luma 2i + 0.5; the two
  // nearest samples share by distance (edge samples repeat).
  const weights = (x: number): [number, number, number][] => {
    const out: [number, number, number][] = [];
    for (let i = -1; i <= 2; i++) {
      const d = Math.abs(x - (2 * i + 0.5));
      if (d < 2) out.push([Math.min(1, Math.max(0, i)), 1 - d / 2, d]);
    }
    return out;
  };
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 4; x++) {
      assert.equal(px(rep, x, y)[0], to10(cbs[(y >> 1) * 2 + (x >> 1)]!));
      let acc = 0;
      for (const [cx, wx] of weights(x)) for (const [cy, wy] of weights(y)) acc += wx * wy * cbs[cy * 2 + cx]!;
      assert.equal(px(bil, x, y)[0], to10(Math.floor(acc + 0.5)), `bilinear Cb at ${x},${y}`);
      assert.equal(px(bil, x, y)[2], to10(100));
    }
});

test('SSPP packed 4:2:2 and three-plane formats read the right bytes', () => {
  // UYVY: Cb Y0 Cr Y1.
  const s: Surface = { name: 'uyvy', format: FORMATS.get('UYVY')!, width: 2, height: 1, layout: 'linear', planes: [Uint8Array.of(50, 60, 70, 80)], pitches: [4] };
  const img = runPipe(layer(s, { csc: PASS }), new Diagnostics());
  assert.deepEqual(px(img, 0, 0).slice(0, 3), [to10(50), to10(70), to10(60)]);
  assert.deepEqual(px(img, 1, 0).slice(0, 3), [to10(50), to10(70), to10(80)]);
  // YVU420: Y plane, then Cr, then Cb.
  const p: Surface = { name: 'yv12', format: FORMATS.get('YVU420')!, width: 2, height: 2, layout: 'linear', planes: [Uint8Array.of(1, 2, 3, 4), Uint8Array.of(9), Uint8Array.of(7)], pitches: [2, 1, 1] };
  assert.deepEqual(px(runPipe(layer(p, { csc: PASS }), new Diagnostics()), 1, 1).slice(0, 3), [to10(7), to10(9), to10(4)]);
});

const grid = (w: number, h: number): Surface => rgbSurface('ABGR8888', w, h, Array.from({ length: w * h }, (_, i) => [i + 1, 0, 0, 255]).flat());
const reds = (img: { px: Uint16Array; w: number; h: number }): number[][] => Array.from({ length: img.h }, (_, y) => Array.from({ length: img.w }, (_, x) => px(img, x, y)[0]!));

test('SSPP rot90 (clockwise) and flips', () => {
  // Source  1 2 3   rotated clockwise:  4 1
  //         4 5 6                       5 2
  //                                     6 3
  const s = grid(3, 2);
  const r = (o: Partial<PipeLayer>): number[][] => reds(runPipe(layer(s, { dst: { x: 0, y: 0, w: o.rot90 ? 2 : 3, h: o.rot90 ? 3 : 2 }, ...o }), new Diagnostics()));
  const v = (rows: number[][]): number[][] => rows.map((row) => row.map(to10));
  assert.deepEqual(r({ rot90: true }), v([[4, 1], [5, 2], [6, 3]]));
  assert.deepEqual(r({ flipLr: true }), v([[3, 2, 1], [6, 5, 4]]));
  assert.deepEqual(r({ flipUd: true }), v([[4, 5, 6], [1, 2, 3]]));
  assert.deepEqual(r({ rot90: true, flipLr: true }), v([[1, 4], [2, 5], [3, 6]]));
});

test('SSPP scaler: centre-aligned bilinear and nearest, 21-bit phase step', () => {
  // Two red values 100 and 900 (10-bit, from 8-bit 25 and 225) upscaled 2 -> 4.
  const s = rgbSurface('ABGR8888', 2, 1, [25, 0, 0, 255, 225, 0, 0, 255]);
  const a = to10(25);
  const b = to10(225);
  const bil = reds(runPipe(layer(s, { dst: { x: 0, y: 0, w: 4, h: 1 } }), new Diagnostics()))[0]!;
  // Output centres fall at (j + 0.5) * 2/4 - 0.5 = -0.25, 0.25, 0.75, 1.25 source pixels.
  const lerp = (t: number): number => (t <= 0 ? a : t >= 1 ? b : Math.floor((a * (1 - t) + b * t) + 0.5));
  assert.deepEqual(bil, [-0.25, 0.25, 0.75, 1.25].map(lerp));
  const near = reds(runPipe(layer(s, { dst: { x: 0, y: 0, w: 4, h: 1 }, scaler: 'nearest' }), new Diagnostics()))[0]!;
  assert.deepEqual(near, [a, a, b, b]);
  // 4 -> 2 downscale: centres at 0.5 and 2.5 -> the mean of each pair.
  const s4 = rgbSurface('ABGR8888', 4, 1, [10, 0, 0, 255, 30, 0, 0, 255, 50, 0, 0, 255, 70, 0, 0, 255]);
  const down = reds(runPipe(layer(s4, { dst: { x: 0, y: 0, w: 2, h: 1 } }), new Diagnostics()))[0]!;
  assert.deepEqual(down, [Math.floor((to10(10) + to10(30)) / 2 + 0.5), Math.floor((to10(50) + to10(70)) / 2 + 0.5)]);
});

test('SSPP deinterlace reads one field (every other line), solid fill needs no memory', () => {
  const s = grid(1, 4); // lines 1, 2, 3, 4
  const odd = reds(runPipe(layer(s, { deinterlace: 'odd', src: { x: 0, y: 0, w: 1, h: 2 }, dst: { x: 0, y: 0, w: 1, h: 2 } }), new Diagnostics()));
  assert.deepEqual(odd, [[to10(2)], [to10(4)]]);
  const even = reds(runPipe(layer(s, { deinterlace: 'even', src: { x: 0, y: 0, w: 1, h: 2 }, dst: { x: 0, y: 0, w: 1, h: 2 } }), new Diagnostics()));
  assert.deepEqual(even, [[to10(1)], [to10(3)]]);
  const fill = runPipe(layer(undefined, { solidFill: [255, 128, 0, 77], dst: { x: 0, y: 0, w: 2, h: 2 } }), new Diagnostics());
  assert.deepEqual(px(fill, 1, 1), [1023, to10(128), 0, 77]);
});

test('SSPP pipe capabilities and multirect rules are input errors', () => {
  const s = grid(2, 2);
  assert.throws(() => checkPipes([layer(s, { pipe: 'DMA0', dst: { x: 0, y: 0, w: 4, h: 4 } })]), /DMA0 has no scaler/);
  assert.throws(() => checkPipes([layer(s, { pipe: 'VIG0', dst: { x: 0, y: 0, w: 50, h: 2 } })]), /upscale 2 -> 50 exceeds 20x/);
  assert.throws(() => checkPipes([layer(s, { pipe: 'VIG0' }), layer(s, { pipe: 'VIG0', rect: 1 })]), /multirect is a DMA pipe feature/);
  const other = rgbSurface('RGB565', 2, 2, new Array(8).fill(0));
  assert.throws(() => checkPipes([layer(s, { pipe: 'DMA0' }), layer(other, { pipe: 'DMA0', rect: 1, dst: { x: 4, y: 0, w: 2, h: 2 } })]), /both rects read one format/);
  assert.doesNotThrow(() => checkPipes([layer(s, { pipe: 'DMA0' }), layer(s, { pipe: 'DMA0', rect: 1, dst: { x: 4, y: 0, w: 2, h: 2 } })]));
  const mode = { clock_khz: 100, hdisplay: 8, hsync_start: 9, hsync_end: 10, htotal: 11, vdisplay: 8, vsync_start: 9, vsync_end: 10, vtotal: 11 };
  const buf = { format: 'ABGR8888', width: 2, height: 2, pattern: { kind: 'solid', color: [1, 2, 3, 255] } };
  const frame = (l2: object): unknown => ({ mode, buffers: { a: buf }, layers: [{ pipe: 'DMA0', buffer: 'a', dst: [0, 0, 2, 2], stage: 0 }, { pipe: 'DMA0', rect: 1, buffer: 'a', stage: 1, ...l2 }] });
  assert.throws(() => parseFrame(frame({ dst: [1, 1, 2, 2] })), /overlap/);
  assert.throws(() => parseFrame(frame({ dst: [0, 4, 2, 2], multirect: 'parallel' })), /must not share columns/);
  assert.doesNotThrow(() => parseFrame(frame({ dst: [0, 4, 2, 2], multirect: 'time_mx' })));
  assert.throws(() => parseFrame(frame({ dst: [4, 0, 2, 2], multirect: 'time_mx' })), (e: unknown) => e instanceof InputError && /must not share lines/.test(e.message));
});
