/**
 * TILE6_3 and UBWC as seed 004 describes them (256-byte macrotiles in z-order, one flag byte per
 * macrotile: bit 4 = not fast-cleared with (low bits + 1) * 16 bytes, else clear bits) and fdl6's
 * plane layout; and a frame composing a UBWC surface through the display pipeline.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { macrotileDims, tile6Offset, zOrder } from '../../src/adreno/ubwc/tile6.js';
import { decodeFlag, linearToUbwc, ubwcLayout, ubwcToLinear } from '../../src/adreno/ubwc/ubwc.js';
import { parseFrame } from '../../src/adreno/dpu/frame.js';
import { composeFrame } from '../../src/adreno/dpu/display.js';

test('TILE6_3: 256-byte macrotiles of 16x4 / 8x4 / 4x4 pixels, z-order inside', () => {
  assert.deepEqual(macrotileDims(4), { w: 16, h: 4 });
  assert.deepEqual(macrotileDims(8), { w: 8, h: 4 });
  assert.deepEqual(macrotileDims(16), { w: 4, h: 4 });
  // Interleaved bits x0 y0 x1 y1 x2 x3 (16x4).
  const z = (x: number, y: number): number => (x & 1) | ((y & 1) << 1) | (((x >> 1) & 1) << 2) | (((y >> 1) & 1) << 3) | (((x >> 2) & 1) << 4) | (((x >> 3) & 1) << 5);
  for (let y = 0; y < 4; y++) for (let x = 0; x < 16; x++) assert.equal(zOrder(x, y, 16, 4), z(x, y));
  // At cpp 16 each 2x2 is packed together: pixels 0..3 are (0,0) (1,0) (0,1) (1,1).
  assert.deepEqual([[0, 0], [1, 0], [0, 1], [1, 1], [2, 0]].map(([x, y]) => zOrder(x!, y!, 4, 4)), [0, 1, 2, 3, 4]);
  // Pixel (17, 5) at cpp 4, pitch 64 px: block (1, 1) of macrotile row 0; b0 = x0^y1 = 1,
  // b1 = x0^y1^y0 ^ x1 = 0, b2 = x0^y0 = 0 -> block slot 1 (a630, no bank bits at this pitch).
  assert.equal(tile6Offset(17, 5, 256, 4), 1 * 256 + z(1, 1) * 4);
});

test('UBWC flag byte: size in 16-byte units or fast-clear bits', () => {
  assert.deepEqual(decodeFlag(0x11), { kind: 'data', bytes: 32 }); // the seed's example
  assert.deepEqual(decodeFlag(0x1f), { kind: 'data', bytes: 256 });
  assert.deepEqual(decodeFlag(0b1101), { kind: 'clear', color: 1, alpha: 1, bit0: 1, bit1: 0 });
  assert.deepEqual(decodeFlag(0b0101), { kind: 'clear', color: 0, alpha: 1, bit0: 1, bit1: 0 });
});

test('UBWC layout: flag plane pitch 64, height 16, size 4096 aligned, before the pixel plane', () => {
  const l = ubwcLayout(100, 20, 4);
  assert.equal(l.blocksX, Math.ceil(100 / 16));
  assert.equal(l.blocksY, Math.ceil(20 / 4));
  assert.equal(l.metaPitch, 64);
  assert.equal(l.metaHeight, 16);
  assert.equal(l.metaSize, 4096);
  assert.equal(l.dataOffset, 4096);
  assert.equal(l.pitch, 128 * 4); // 100 px aligned up to 64 px
  assert.equal(l.dataSize, 128 * 4 * 32); // 20 rows aligned up to 16
  assert.equal(ubwcLayout(16 * 70, 4, 4).metaPitch, 128);
});

test('UBWC read: a hand-built surface with a data tile, a clear tile and flag checks', () => {
  const l = ubwcLayout(32, 4, 4);
  const buf = new Uint8Array(l.dataOffset + l.dataSize);
  buf[0] = 0x1f; // tile 0 stored whole
  buf[1] = 0b0001; // tile 1 cleared: colour 0, alpha 0
  // Tile 0: pixel (x, y) at z-order index, value (x, y, x + y, 0x80) in RGBA byte order.
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 16; x++) {
      const zi = (x & 1) | ((y & 1) << 1) | (((x >> 1) & 1) << 2) | (((y >> 1) & 1) << 3) | (((x >> 2) & 1) << 4) | (((x >> 3) & 1) << 5);
      buf.set([x, y, x + y, 0x80], l.dataOffset + zi * 4);
    }
  const d = new Diagnostics();
  const lin = ubwcToLinear(buf, l, { alphaByte: 3 }, d, 's');
  assert.equal(d.size, 0);
  assert.deepEqual([...lin.subarray((2 * 32 + 5) * 4, (2 * 32 + 5) * 4 + 4)], [5, 2, 7, 0x80]);
  assert.deepEqual([...lin.subarray((3 * 32 + 20) * 4, (3 * 32 + 20) * 4 + 4)], [0, 0, 0, 0]);
  buf[1] = 0b1101; // white, opaque
  assert.deepEqual([...ubwcToLinear(buf, l, { alphaByte: 3 }, d, 's').subarray(20 * 4, 21 * 4)], [255, 255, 255, 255]);
  assert.equal(d.size, 0, 'quiet on valid flags');
  buf[1] = 0b1000; // bit 0 must be 1
  buf[0] = 0x13; // 64 bytes: compressed
  ubwcToLinear(buf, l, { alphaByte: 3 }, d, 's');
  assert.deepEqual([...d.counts.keys()].sort(), ['adreno.ubwc.clear-bits', 'adreno.ubwc.compressed-tile']);
});

test('UBWC write: uniform 0/0xff tiles fast-clear, others stored whole; reads back', () => {
  const l = ubwcLayout(48, 4, 4);
  const lin = new Uint8Array(48 * 4 * 4);
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 48; x++) {
      const o = (y * 48 + x) * 4;
      if (x < 16) lin.set([255, 255, 255, 255], o);
      else if (x < 32) lin.set([0, 0, 0, 255], o);
      else lin.set([x, y, 9, 200], o);
    }
  const buf = linearToUbwc(lin, l, { alphaByte: 3 });
  assert.deepEqual([...buf.subarray(0, 3)], [0b1101, 0b0101, 0x1f]);
  assert.deepEqual(ubwcToLinear(buf, l, { alphaByte: 3 }, new Diagnostics(), 's'), lin);
});

test('a frame composes a UBWC surface (fast-cleared and stored tiles) through SSPP, mixer and DSPP', () => {
  const pixels: number[][] = [];
  for (let y = 0; y < 8; y++) for (let x = 0; x < 32; x++) pixels.push(x < 16 ? [255, 255, 255, 255] : [x * 7, y * 30, 200 - x, 255]);
  const frame = parseFrame({
    mode: { clock_khz: 100, hdisplay: 40, hsync_start: 41, hsync_end: 42, htotal: 44, vdisplay: 10, vsync_start: 11, vsync_end: 12, vtotal: 13 },
    buffers: { rt: { format: 'ABGR8888', width: 32, height: 8, layout: 'ubwc', pixels } },
    layers: [{ pipe: 'DMA0', buffer: 'rt', dst: [4, 1, 32, 8], stage: 0, blend: 'opaque' }],
    mixer: { border_color: [400, 0, 1023, 255] },
  });
  const s = frame.surfaces.get('rt')!;
  assert.equal(s.planes[0]![0], 0b1101, 'the white tile is fast-cleared');
  assert.equal(s.planes[0]![1], 0x1f);
  const r = composeFrame(frame);
  assert.equal(r.diag.size, 0);
  // Without DSPP processing: 8-bit -> 10-bit by replication -> opaque blend -> >> 2 = the source byte.
  for (let y = 0; y < 10; y++)
    for (let x = 0; x < 40; x++) {
      const inside = x >= 4 && x < 36 && y >= 1 && y < 9;
      const want = inside ? pixels[(y - 1) * 32 + x - 4]!.slice(0, 3) : [400 >> 2, 0, 1023 >> 2];
      assert.deepEqual([...r.dspp.rgb8.subarray((y * 40 + x) * 3, (y * 40 + x) * 3 + 3)], want, `${x},${y}`);
    }
});
