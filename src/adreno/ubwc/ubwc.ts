/**
 * UBWC ("flags" in the register names): seed 004, "Formats". A UBWC surface is tiled (UBWC
 * requires tiling) and carries one flag byte per 256-byte macrotile:
 *   - bit 4 set: not fast-cleared; (low 4 bits + 1) * 16 bytes is the compressed size
 *     (0x11 means 32 bytes; 0x1f means 256 bytes, i.e. stored uncompressed);
 *   - bit 4 clear: fast-cleared; the low 4 bits hold the clear values: for 8888 colour (and
 *     D24S8) bit 0 is always 1, bit 1 always 0, bit 2 the alpha value and bit 3 the colour value.
 *
 * The plane layout follows freedreno's fdl6 (facts): UBWC block = the macrotile (16x4 pixels at
 * cpp 4, 8x4 at cpp 8, 4x4 at cpp 16); the flag plane's pitch is the block count per row
 * aligned to 64 bytes, its height the block rows aligned to 16, its size aligned to 4096, and it
 * comes first in the buffer, the tiled pixel plane after it.
 *
 * Not modelled: the compressed bitstream of a tile shorter than 256 bytes (the seed does not
 * describe it): such a tile is reported (`adreno.ubwc.compressed-tile`) and read as zeros.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import { InputError } from '../../core/errors.js';
import { alignUp, defaultPitch, macrotileDims, paddedHeight, tile6Offset, TILE6_A630, type Tile6Config } from './tile6.js';

const SEED = '004_0583f9f0ffcacefd.txt';

export const UBWC_META_PITCH_ALIGN = 64;
export const UBWC_META_HEIGHT_ALIGN = 16;
export const UBWC_PLANE_SIZE_ALIGN = 4096;

export interface UbwcLayout {
  readonly cpp: number;
  readonly width: number;
  readonly height: number;
  /** Flag plane: bytes per row of blocks, rows, byte size (aligned to 4096). */
  readonly metaPitch: number;
  readonly metaHeight: number;
  readonly metaSize: number;
  /** Pixel plane: offset (= metaSize), pitch in bytes, size. */
  readonly dataOffset: number;
  readonly pitch: number;
  readonly dataSize: number;
  readonly blocksX: number;
  readonly blocksY: number;
}

export function ubwcLayout(width: number, height: number, cpp: number, pitch?: number): UbwcLayout {
  // fdl6 sizes flag blocks as the 256-byte block for cpp 4/8/16 only (cpp 1/2 use 16x4 flag
  // blocks over 32-pixel-wide tiles, and R8G8 is special): those are not modelled.
  if (cpp !== 4 && cpp !== 8 && cpp !== 16) throw new InputError(`UBWC is modelled for 4, 8 and 16 bytes per pixel, not ${cpp}`);
  const { w, h } = macrotileDims(cpp);
  const blocksX = Math.ceil(width / w);
  const blocksY = Math.ceil(height / h);
  const metaPitch = alignUp(blocksX, UBWC_META_PITCH_ALIGN);
  const metaHeight = alignUp(blocksY, UBWC_META_HEIGHT_ALIGN);
  const metaSize = alignUp(metaPitch * metaHeight, UBWC_PLANE_SIZE_ALIGN);
  const p = pitch ?? defaultPitch(width, cpp, 'tile6_3');
  return { cpp, width, height, metaPitch, metaHeight, metaSize, dataOffset: metaSize, pitch: p, dataSize: p * paddedHeight(height, 'tile6_3', cpp), blocksX, blocksY };
}

/** What a flag byte says about its macrotile. */
export type UbwcFlag =
  | { readonly kind: 'clear'; readonly color: 0 | 1; readonly alpha: 0 | 1; readonly bit0: number; readonly bit1: number }
  | { readonly kind: 'data'; readonly bytes: number };

export function decodeFlag(f: number): UbwcFlag {
  if (f & 0x10) return { kind: 'data', bytes: ((f & 0xf) + 1) * 16 };
  return { kind: 'clear', color: ((f >> 3) & 1) as 0 | 1, alpha: ((f >> 2) & 1) as 0 | 1, bit0: f & 1, bit1: (f >> 1) & 1 };
}

export function clearFlag(color: 0 | 1, alpha: 0 | 1): number {
  return 0x1 | (alpha << 2) | (color << 3);
}

/** The flag byte that stores a tile uncompressed (256 bytes = (0xf + 1) * 16). */
export const FLAG_UNCOMPRESSED = 0x1f;

/** Offset in the flag plane of the flag byte of the macrotile holding pixel (x, y): one byte per block, `metaPitch` bytes per block row. */
export function flagOffset(x: number, y: number, cpp: number, metaPitch: number): number {
  const { w, h } = macrotileDims(cpp);
  return Math.floor(y / h) * metaPitch + Math.floor(x / w);
}

/** Bytes of the flag plane a surface of `height` rows uses: the block rows times the pitch. */
export function flagPlaneBytes(height: number, cpp: number, metaPitch: number): number {
  return Math.ceil(height / macrotileDims(cpp).h) * metaPitch;
}

/**
 * How an 8888 pixel is cleared: which byte of the pixel is alpha (or -1 without alpha), the
 * colour bytes get 0x00 / 0xff from the colour bit, alpha from the alpha bit. A multisampled
 * pixel (samples side by side) has its alpha at that byte of every 4-byte sample.
 */
export interface ClearPixel {
  readonly alphaByte: number;
}

/**
 * Read a UBWC surface (flag plane then tiled pixel plane, as `ubwcLayout` places them) into tightly
 * packed linear pixels (width*cpp per row). Fast-cleared tiles are filled from the clear bits
 * (8888 formats: `clear` names the alpha byte); tiles of fewer than 256 bytes are reported.
 */
export function ubwcToLinear(buf: Uint8Array, lay: UbwcLayout, clear: ClearPixel | undefined, diag: Diagnostics, where: string, cfg: Tile6Config = TILE6_A630): Uint8Array {
  const { cpp, width, height } = lay;
  const { w, h } = macrotileDims(cpp);
  const out = new Uint8Array(width * height * cpp);
  const need = lay.dataOffset + lay.dataSize;
  if (buf.length < need) throw new RangeError(`${where}: UBWC surface needs ${need} bytes, has ${buf.length}`);
  for (let by = 0; by < lay.blocksY; by++)
    for (let bx = 0; bx < lay.blocksX; bx++) {
      const f = buf[flagOffset(bx * w, by * h, cpp, lay.metaPitch)]!;
      const flag = decodeFlag(f);
      for (let py = 0; py < h; py++)
        for (let px = 0; px < w; px++) {
          const x = bx * w + px;
          const y = by * h + py;
          if (x >= width || y >= height) continue;
          const o = (y * width + x) * cpp;
          if (flag.kind === 'data') {
            if (flag.bytes === 256) {
              const a = lay.dataOffset + tile6Offset(x, y, lay.pitch, cpp, cfg);
              out.set(buf.subarray(a, a + cpp), o);
            }
          } else {
            for (let b = 0; b < cpp; b++) out[o + b] = (clear && b % 4 === clear.alphaByte ? flag.alpha : flag.color) ? 0xff : 0;
          }
        }
      if (flag.kind === 'data' && flag.bytes !== 256)
        diag.report({ id: 'adreno.ubwc.compressed-tile', severity: 'warning', where: { surface: where, block: `${bx},${by}`, flag: `0x${f.toString(16)}` }, message: `macrotile (${bx},${by}) is compressed to ${flag.bytes} bytes; the compressed encoding is not modelled, read as zeros`, seed: SEED });
      if (flag.kind === 'clear' && (flag.bit0 !== 1 || flag.bit1 !== 0))
        diag.report({ id: 'adreno.ubwc.clear-bits', severity: 'warning', where: { surface: where, block: `${bx},${by}`, flag: `0x${f.toString(16)}` }, message: `fast-clear flag 0x${f.toString(16)}: bit 0 must be 1 and bit 1 must be 0 for 8888 colour`, seed: SEED });
    }
  return out;
}

/**
 * The flag byte a writer stores for one macrotile, as the a6xx render backend resolves a UBWC
 * colour buffer: a macrotile whose every pixel has all colour bytes 0x00 or all 0xff (the same
 * for each pixel) and the alpha byte 0x00 or 0xff is fast-cleared (8888 formats, `clear` given),
 * every other tile is stored whole (0x1f). `px(x, y)` gives the bytes of the block's pixel
 * (block-relative), or undefined for a pixel outside the image (it does not count).
 */
export function encodeBlockFlag(px: (x: number, y: number) => Uint8Array | undefined, cpp: number, clear: ClearPixel | undefined): number {
  if (!clear) return FLAG_UNCOMPRESSED;
  const { w, h } = macrotileDims(cpp);
  let color = -1;
  let alpha = -1;
  for (let py = 0; py < h; py++)
    for (let px_ = 0; px_ < w; px_++) {
      const p = px(px_, py);
      if (!p) continue;
      for (let b = 0; b < cpp; b++) {
        const v = p[b]!;
        if (v !== 0 && v !== 0xff) return FLAG_UNCOMPRESSED;
        const bit = v ? 1 : 0;
        if (b % 4 === clear.alphaByte) { if (alpha === -1) alpha = bit; else if (alpha !== bit) return FLAG_UNCOMPRESSED; }
        else if (color === -1) color = bit; else if (color !== bit) return FLAG_UNCOMPRESSED;
      }
    }
  return clearFlag(color === 1 ? 1 : 0, alpha === 1 || (alpha === -1 && color === 1) ? 1 : 0);
}

/**
 * Write tightly packed linear pixels as a UBWC surface (flag bytes from `encodeBlockFlag`; the
 * pixels of a fast-cleared tile are not stored).
 */
export function linearToUbwc(src: Uint8Array, lay: UbwcLayout, clear: ClearPixel | undefined, cfg: Tile6Config = TILE6_A630): Uint8Array {
  const { cpp, width, height } = lay;
  const { w, h } = macrotileDims(cpp);
  const out = new Uint8Array(lay.dataOffset + lay.dataSize);
  for (let by = 0; by < lay.blocksY; by++)
    for (let bx = 0; bx < lay.blocksX; bx++) {
      const at = (px: number, py: number): Uint8Array | undefined => {
        const x = bx * w + px, y = by * h + py;
        if (x >= width || y >= height) return undefined;
        const o = (y * width + x) * cpp;
        return src.subarray(o, o + cpp);
      };
      const flag = encodeBlockFlag(at, cpp, clear);
      out[by * lay.metaPitch + bx] = flag;
      if (flag !== FLAG_UNCOMPRESSED) continue;
      for (let py = 0; py < h; py++)
        for (let px = 0; px < w; px++) {
          const p = at(px, py);
          if (p) out.set(p, lay.dataOffset + tile6Offset(bx * w + px, by * h + py, lay.pitch, cpp, cfg));
        }
    }
  return out;
}
