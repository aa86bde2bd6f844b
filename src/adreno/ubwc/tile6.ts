/**
 * a6xx surface layouts (seed 004, "Formats"): TILE6_LINEAR and TILE6_3, with freedreno's fdl6
 * pitch / height alignment, mip levels and the linear-tail rule.
 *
 * TILE6_3 address of a pixel, four levels (facts from Mesa's fdl6 layout and its tiled memcpy):
 *   1. pixel inside a 256-byte block: byte offset = cpp * index, index bits (low to high)
 *      x0 y0 x1 y1 x2 x3 x4 y2, of which a block uses as many as it has (block 32x8 at cpp 1,
 *      32x4 at cpp 2, 16x4 at cpp 4, 8x4 at cpp 8, 4x4 at cpp 16) — the seed's "z-order";
 *   2. block inside a 2 KiB half-macrotile of 2x4 blocks (block coordinates bx, by): offset
 *      bits b0 = x0^y1, b1 = x0^y1^y0, b2 = x0^y0 (xor bank swizzle). Below cpp 16 the
 *      "macrotile mode" adds: 4-channel b1 ^= x1; 8-channel b1 ^= x1 and b2 ^= x2^y2;
 *   3. half-macrotiles run left to right: block bits bx>>1 sit at b3 and above;
 *   4. rows of macrotiles (4 block rows) are pitch * 4 * blockHeight bytes apart, and up to three
 *      macrotile-row bits are xor'ed into the byte offset at highest_bank_bit-1 .. +1 when the
 *      number of 4-block macrotiles per row is aligned enough ("bank swizzle levels" 2, 3, 1).
 * This is the seed's "strange-looking space filling curve". The mode, highest bank bit and
 * levels are set by the kernel per SoC (a630/sdm845: 4-channel, hbb 15, levels 2+3; a660/sm8350:
 * 8-channel, hbb 16, levels 2+3); `Tile6Config` carries them.
 *
 * TILE6_2 (the GMEM layout) is not a memory layout here: sp/tex.ts reads a TILE6_2 texture from
 * GMEM through rb/gmem.ts's mapping; `tile6Supported` covers TILE6_3 only.
 */
import { InputError } from '../../core/errors.js';

export type TileMode = 'linear' | 'tile6_3';

/** Kernel-programmed tiling parameters (RBBM_NC_MODE_CNTL and the UBWC config). */
export interface Tile6Config {
  readonly macrotileMode: '4ch' | '8ch';
  readonly highestBankBit: number;
  /** Bit 0: level 1, bit 1: level 2, bit 2: level 3 bank swizzling. */
  readonly bankSwizzleLevels: number;
}

export const TILE6_A630: Tile6Config = { macrotileMode: '4ch', highestBankBit: 15, bankSwizzleLevels: 0b110 };
export const TILE6_A660: Tile6Config = { macrotileMode: '8ch', highestBankBit: 16, bankSwizzleLevels: 0b110 };

export function tile6ConfigFor(gpu: string): Tile6Config {
  return gpu === 'a660' ? TILE6_A660 : TILE6_A630;
}

/** 256-byte block size in pixels for a cpp (bytes per pixel, samples included). */
export function macrotileDims(cpp: number): { w: number; h: number } {
  switch (cpp) {
    case 1: return { w: 32, h: 8 };
    case 2: return { w: 32, h: 4 };
    case 4: return { w: 16, h: 4 };
    case 8: return { w: 8, h: 4 };
    case 16: return { w: 4, h: 4 };
    default: throw new InputError(`TILE6_3 is modelled for 1, 2, 4, 8 and 16 bytes per pixel, not ${cpp}`);
  }
}

export function tile6Supported(cpp: number): boolean {
  return cpp === 1 || cpp === 2 || cpp === 4 || cpp === 8 || cpp === 16;
}

/** Pixel index inside a block: bits x0 y0 x1 y1 x2 x3 x4 y2 (w, h limit which are used). */
export function zOrder(x: number, y: number, w: number, h: number): number {
  void w; void h;
  return (x & 1) | ((y & 1) << 1) | (((x >> 1) & 1) << 2) | (((y >> 1) & 1) << 3) | (((x >> 2) & 7) << 4) | (((y >> 2) & 1) << 7);
}

export function alignUp(v: number, a: number): number {
  return Math.ceil(v / a) * a;
}

/** Which macrotile-row bits are xor'ed into the address (bit k = macrotile row bit k). */
export function bankMask(pitch: number, cpp: number, cfg: Tile6Config): number {
  const { w } = macrotileDims(cpp);
  const off = cpp === 1 ? 1 : 0;
  const stride = pitch / (4 * w * cpp); // 4 KiB macrotiles per row
  const aligned = (k: number): boolean => k <= 0 || stride % 2 ** k === 0;
  let m = 0;
  if (cfg.bankSwizzleLevels & 0b010 && aligned(cfg.highestBankBit - 12 + off)) m |= 0b001;
  if (cfg.bankSwizzleLevels & 0b100 && aligned(cfg.highestBankBit - 11 + off)) m |= 0b010;
  if (cfg.bankSwizzleLevels & 0b001 && aligned(cfg.highestBankBit - 10 + off)) m |= 0b100;
  return m;
}

/** Byte offset of the 256-byte block (bx, by) in a TILE6_3 surface. */
export function blockOffset(bx: number, by: number, pitch: number, cpp: number, cfg: Tile6Config = TILE6_A630): number {
  const { h } = macrotileDims(cpp);
  const x0 = bx & 1, x1 = (bx >> 1) & 1, x2 = (bx >> 2) & 1;
  const y0 = by & 1, y1 = (by >> 1) & 1, y2 = (by >> 2) & 1;
  let b0 = x0 ^ y1;
  let b1 = x0 ^ y1 ^ y0;
  let b2 = x0 ^ y0;
  if (cpp < 16) {
    b1 ^= x1;
    if (cfg.macrotileMode === '8ch') b2 ^= x2 ^ y2;
  }
  const inHalf = (b0 | (b1 << 1) | (b2 << 2)) * 256;
  const half = (bx >> 1) * 2048;
  const mty = Math.floor(by / 4);
  const bank = (mty & bankMask(pitch, cpp, cfg)) * 2 ** (cfg.highestBankBit - 1);
  return mty * pitch * 4 * h + ((half + inHalf) ^ bank);
}

/** Byte offset of pixel (x, y) in a TILE6_3 surface with `pitch` bytes per row of pixels. */
export function tile6Offset(x: number, y: number, pitch: number, cpp: number, cfg: Tile6Config = TILE6_A630): number {
  const { w, h } = macrotileDims(cpp);
  return blockOffset(Math.floor(x / w), Math.floor(y / h), pitch, cpp, cfg) + zOrder(x % w, y % h, w, h) * cpp;
}

/** Minimum width for a tiled level (FDL_MIN_UBWC_WIDTH): narrower levels are linear unless TILE_ALL. */
export const TILE6_MIN_WIDTH = 16;

/** log2 of the pitch alignment in bytes (fdl6): tiled cpp1: 7, cpp2: 8, else 6 + log2(cpp); linear 6 + log2(cpp). */
export function pitchAlignLog2(cpp: number, mode: TileMode): number {
  const shift = Math.log2(cpp);
  if (mode === 'linear') return shift + 6;
  if (cpp === 1) return 7;
  if (cpp === 2) return 8;
  return shift + 6;
}

/** Height alignment of a tiled level: 16 rows, 32 at cpp 1; linear 1. */
export function heightAlign(cpp: number, mode: TileMode): number {
  return mode === 'linear' ? 1 : cpp === 1 ? 32 : 16;
}

/** Default pitch (bytes) of level 0 as fdl6 lays it out. */
export function defaultPitch(width: number, cpp: number, mode: TileMode): number {
  return alignUp(width * cpp, 2 ** pitchAlignLog2(cpp, mode));
}

/** Rows allocated for a level. */
export function paddedHeight(height: number, mode: TileMode, cpp = 4): number {
  return alignUp(height, heightAlign(cpp, mode));
}

export interface MipLevel {
  readonly level: number;
  readonly width: number;
  readonly height: number;
  readonly mode: TileMode;
  readonly offset: number;
  readonly pitch: number;
  readonly size: number;
}

/**
 * fdl6 layout of a single-layer 2D image's mip chain (no UBWC): level pitch = pitch0 >> level
 * aligned to the level-0 pitch alignment, levels narrower than 16 px linear unless tileAll,
 * tiled levels padded in height, the last level padded to 4 rows (16x4 blit over-fetch).
 */
export function mipLayout(width0: number, height0: number, cpp: number, levels: number, mode: TileMode, tileAll = false): MipLevel[] {
  const align = 2 ** pitchAlignLog2(cpp, mode);
  const pitch0 = alignUp(width0 * cpp, align);
  const out: MipLevel[] = [];
  let offset = 0;
  for (let l = 0; l < levels; l++) {
    const w = Math.max(1, width0 >> l);
    const h = Math.max(1, height0 >> l);
    const m: TileMode = mode !== 'linear' && !tileAll && w < TILE6_MIN_WIDTH ? 'linear' : mode;
    const pitch = alignUp(Math.max(1, pitch0 >> l), align);
    let rows = m === 'linear' ? h : alignUp(h, heightAlign(cpp, mode));
    if (l === levels - 1) rows = alignUp(rows, 4);
    out.push({ level: l, width: w, height: h, mode: m, offset, pitch, size: rows * pitch });
    offset += rows * pitch;
  }
  return out;
}

/** Byte offset of (x, y) in a level of either mode. */
export function surfaceOffset(x: number, y: number, pitch: number, cpp: number, mode: TileMode, cfg: Tile6Config = TILE6_A630): number {
  return mode === 'linear' ? y * pitch + x * cpp : tile6Offset(x, y, pitch, cpp, cfg);
}

/** Rearrange tightly packed linear pixels (width*cpp per row) into a TILE6_3 surface. */
export function linearToTile6(src: Uint8Array, width: number, height: number, cpp: number, pitch: number, cfg: Tile6Config = TILE6_A630): Uint8Array {
  const out = new Uint8Array(pitch * paddedHeight(height, 'tile6_3', cpp));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) out.set(src.subarray((y * width + x) * cpp, (y * width + x + 1) * cpp), tile6Offset(x, y, pitch, cpp, cfg));
  return out;
}

/** Read a TILE6_3 surface back into tightly packed linear pixels. */
export function tile6ToLinear(src: Uint8Array, width: number, height: number, cpp: number, pitch: number, cfg: Tile6Config = TILE6_A630): Uint8Array {
  const out = new Uint8Array(width * height * cpp);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = tile6Offset(x, y, pitch, cpp, cfg);
      out.set(src.subarray(o, o + cpp), (y * width + x) * cpp);
    }
  return out;
}
