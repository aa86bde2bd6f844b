/**
 * a6xx surface layouts (seed 004, "Formats"): TILE6_LINEAR and TILE6_3, and the alignments
 * freedreno's fdl6 layout uses for them.
 *
 * TILE6_3: a macrotile is always 256 bytes; at cpp 4 it covers 16x4 pixels, at cpp 8 8x4 and at
 * cpp 16 4x4, the pixels inside in z-order (Morton order, x bit first). The seed says the
 * macrotiles themselves cover the image "in a very unique order ... a strange-looking space
 * filling curve" without giving it: here macrotiles are placed row-major along the pitch, which
 * is the one assumption of this file (it changes where a macrotile lives, not what it holds).
 */
import { InputError } from '../../core/errors.js';

export type TileMode = 'linear' | 'tile6_3';

/** Macrotile size in pixels for a cpp (bytes per pixel); 256 bytes each (seed). */
export function macrotileDims(cpp: number): { w: number; h: number } {
  switch (cpp) {
    case 4: return { w: 16, h: 4 };
    case 8: return { w: 8, h: 4 };
    case 16: return { w: 4, h: 4 };
    default: throw new InputError(`TILE6_3 is modelled for 4, 8 and 16 bytes per pixel (the seed's macrotiles), not ${cpp}`);
  }
}

/** Morton (z-order) index of (x, y) inside a w x h macrotile: x and y bits interleaved, x first, leftover x bits on top. */
export function zOrder(x: number, y: number, w: number, h: number): number {
  let idx = 0;
  let bit = 0;
  let xb = 0;
  let yb = 0;
  const xbits = Math.log2(w);
  const ybits = Math.log2(h);
  while (xb < xbits || yb < ybits) {
    if (xb < xbits) idx |= ((x >> xb++) & 1) << bit++;
    if (yb < ybits) idx |= ((y >> yb++) & 1) << bit++;
  }
  return idx;
}

/** fdl6 alignments for a tiled level (cpp >= 4): pitch in 64-pixel steps, height in 16 rows. */
export const TILE6_PITCH_ALIGN_PX = 64;
export const TILE6_HEIGHT_ALIGN = 16;

export function alignUp(v: number, a: number): number {
  return Math.ceil(v / a) * a;
}

/** Byte offset of pixel (x, y) in a TILE6_3 surface with `pitch` bytes per row of pixels. */
export function tile6Offset(x: number, y: number, pitch: number, cpp: number): number {
  const { w, h } = macrotileDims(cpp);
  const tilesPerRow = pitch / (w * cpp);
  const tile = Math.floor(y / h) * tilesPerRow + Math.floor(x / w);
  return tile * 256 + zOrder(x % w, y % h, w, h) * cpp;
}

/** Offset of the 256-byte macrotile (tx, ty) in a TILE6_3 surface. */
export function macrotileOffset(tx: number, ty: number, pitch: number, cpp: number): number {
  const { w } = macrotileDims(cpp);
  return (ty * (pitch / (w * cpp)) + tx) * 256;
}

/** Default pitch (bytes) of a surface: linear width*cpp; tiled aligned to 64 pixels. */
export function defaultPitch(width: number, cpp: number, mode: TileMode): number {
  return mode === 'linear' ? width * cpp : alignUp(width, TILE6_PITCH_ALIGN_PX) * cpp;
}

/** Rows allocated: tiled surfaces are padded to 16 rows. */
export function paddedHeight(height: number, mode: TileMode): number {
  return mode === 'linear' ? height : alignUp(height, TILE6_HEIGHT_ALIGN);
}

/** Rearrange tightly packed linear pixels (width*cpp per row) into a TILE6_3 surface. */
export function linearToTile6(src: Uint8Array, width: number, height: number, cpp: number, pitch: number): Uint8Array {
  const out = new Uint8Array(pitch * paddedHeight(height, 'tile6_3'));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) out.set(src.subarray((y * width + x) * cpp, (y * width + x + 1) * cpp), tile6Offset(x, y, pitch, cpp));
  return out;
}
