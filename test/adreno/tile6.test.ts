/**
 * TILE6_3 layout against the documented algorithm (Mesa fdl6 tiled memcpy description), written
 * here a second way: per-axis xor masks in 256-byte units, as that description states them
 * (x: x0 -> 0b111, x1 -> 0b010 below cpp 16, x>>1 -> bit 3; y: y0 -> 0b110, y1 -> 0b011,
 * 8-channel adds x2 -> 0b100 and y2 -> 0b100), plus the bank bits of the macrotile row.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TILE6_A630, TILE6_A660, defaultPitch, linearToTile6, mipLayout, tile6Offset, tile6ToLinear, type Tile6Config } from '../../src/adreno/ubwc/tile6.js';

const BLOCK: Record<number, [number, number]> = { 1: [32, 8], 2: [32, 4], 4: [16, 4], 8: [8, 4], 16: [4, 4] };

function expected(x: number, y: number, pitch: number, cpp: number, cfg: Tile6Config): number {
  const [bw, bh] = BLOCK[cpp]!;
  const bx = Math.floor(x / bw), by = Math.floor(y / bh);
  const px = x % bw, py = y % bh;
  // pixel index bits: x0 y0 x1 y1 x2 x3 x4 y2
  const pix = [px & 1, py & 1, (px >> 1) & 1, (py >> 1) & 1, (px >> 2) & 1, (px >> 3) & 1, (px >> 4) & 1, (py >> 2) & 1].reduce((a, b, i) => a + b * 2 ** i, 0);
  const eight = cfg.macrotileMode === '8ch';
  let xm = ((bx & 1) ? 0b111 : 0) ^ ((bx >> 1) << 3);
  if (cpp < 16) xm ^= bx & (eight ? 0b110 : 0b010);
  let ym = ((by & 1) ? 0b110 : 0) ^ (((by >> 1) & 1) ? 0b011 : 0);
  if (eight && cpp < 16) ym ^= by & 0b100;
  // bank bits: macrotile-row bit k into byte bit hbb-1+k when the 4 KiB-macrotile stride allows
  const stride = pitch / (bw * 4 * cpp);
  const off = cpp === 1 ? 1 : 0;
  const mty = by >> 2;
  let bank = 0;
  const lv: Array<[number, number, number]> = [[0b010, 0, 12], [0b100, 1, 11], [0b001, 2, 10]];
  for (const [lvl, bit, sub] of lv) {
    const k = cfg.highestBankBit - sub + off;
    if (cfg.bankSwizzleLevels & lvl && stride % 2 ** Math.max(0, k) === 0 && ((mty >> bit) & 1)) bank |= 1 << (cfg.highestBankBit - 1 + bit);
  }
  return mty * pitch * bh * 4 + (((xm ^ ym) << 8) ^ bank) + pix * cpp;
}

test('TILE6_3 addresses match the documented xor algorithm (a630 4-channel and a660 8-channel)', () => {
  for (const cfg of [TILE6_A630, TILE6_A660])
    for (const cpp of [1, 2, 4, 8, 16])
      for (const widthPx of [64, 256, 2048 * 16 / cpp]) {
        const pitch = defaultPitch(widthPx, cpp, 'tile6_3');
        for (const [x, y] of [[0, 0], [1, 0], [0, 1], [5, 3], [17, 5], [33, 9], [widthPx - 1, 70], [40, 130], [widthPx - 3, 1000]])
          assert.equal(tile6Offset(x!, y!, pitch, cpp, cfg), expected(x!, y!, pitch, cpp, cfg), `cpp ${cpp} pitch ${pitch} (${x},${y}) ${cfg.macrotileMode}`);
      }
});

test('TILE6_3 bank swizzle really fires on a wide surface (a630, hbb 15)', () => {
  // cpp 4, pitch 8192 px -> 128 4-KiB macrotiles per row: levels 2 and 3 both apply.
  const pitch = 8192 * 4;
  const plain = 16 * pitch; // macrotile row 1 without bank bits
  assert.equal(tile6Offset(0, 16, pitch, 4, TILE6_A630), plain ^ (1 << 14));
  assert.equal(tile6Offset(0, 32, pitch, 4, TILE6_A630) - 32 * pitch, 1 << 15);
});

test('TILE6_3 is a bijection and round-trips for every cpp', () => {
  for (const cfg of [TILE6_A630, TILE6_A660])
    for (const cpp of [1, 2, 4, 8, 16]) {
      const w = 70, h = 37;
      const pitch = defaultPitch(w, cpp, 'tile6_3');
      const lin = new Uint8Array(w * h * cpp);
      let s = 12345;
      for (let i = 0; i < lin.length; i++) { s = (s * 1103515245 + 12345) >>> 0; lin[i] = s >>> 24; }
      const tiled = linearToTile6(lin, w, h, cpp, pitch, cfg);
      assert.deepEqual(tile6ToLinear(tiled, w, h, cpp, pitch, cfg), lin);
      const seen = new Set<number>();
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) seen.add(tile6Offset(x, y, pitch, cpp, cfg));
      assert.equal(seen.size, w * h);
    }
});

test('fdl6 mip layout: pitch/height alignment and the linear tail below 16 px unless TILE_ALL', () => {
  const m = mipLayout(100, 50, 4, 4, 'tile6_3');
  assert.deepEqual(m.map((l) => [l.width, l.mode, l.pitch]), [[100, 'tile6_3', 512], [50, 'tile6_3', 256], [25, 'tile6_3', 256], [12, 'linear', 256]]);
  assert.deepEqual(m.map((l) => l.size), [512 * 64, 256 * 32, 256 * 16, 256 * 8]); // 50->64, 25->32, 12->16; last padded to 4 rows: 6 -> 8
  assert.equal(m[1]!.offset, m[0]!.size);
  assert.equal(mipLayout(100, 50, 4, 4, 'tile6_3', true)[3]!.mode, 'tile6_3');
  assert.equal(defaultPitch(100, 1, 'tile6_3'), 128); // cpp 1: 128-byte pitch steps
  assert.equal(defaultPitch(100, 2, 'tile6_3'), 256);
  assert.equal(defaultPitch(10, 4, 'linear'), 256);
});
