/**
 * UBWC colour render targets (seed 004, "RB": `RB_MRT_FLAG_BUFFER_*` "addr of ubwc metadata",
 * `RB_RENDER_CNTL` "enable ubwc writes"; "Formats": "ubwc requires tiling", one flag byte per
 * 256-byte macrotile).
 *
 * An MRT is written compressed when RB_RENDER_CNTL.FLAG_MRTS has its bit (freedreno's
 * update_render_cntl sets it for every UBWC colour buffer) and RB_MRT[i].BUF_INFO says TILE6_3;
 * its flag plane is at RB_MRT_FLAG_BUFFER[i].ADDR with RB_MRT_FLAG_BUFFER[i].PITCH bytes per row
 * of blocks. The pixel access is the 2D engine's (blit2d.ts `Engine`: a fast-cleared block reads
 * as its clear value, a block is materialized — decoded and stored whole, flag 0x1f — before a
 * pixel of it is written), and after the draw every block it touched gets the flag a UBWC writer
 * stores (ubwc.ts `encodeBlockFlag`), so the flag plane holds the encodings ubwc.ts reads: one
 * description of the layout for the RB, the 2D engine, the BLIT event, the TP and the display.
 *
 * Depth (RB_RENDER_CNTL.FLAG_DEPTH, RB_DEPTH_FLAG_BUFFER_BASE / _PITCH, the same pitch encoding as
 * the MRTs' per fdl6_view_init): `ubwcDepth` stores D24S8 / D32F samples (D16 at 2 or 4 samples)
 * the same way, as the TILE6_3 pixel plane the UBWC layout requires, with the depth formats' colour
 * names (FMT6_Z24_UNORM_S8_UINT, FMT6_32_FLOAT, FMT6_16_UNORM) for the Engine: D24S8 blocks whose
 * depth bytes and stencil byte are each uniform 0x00 / 0xff are fast-cleared with the 8888 encoding
 * (the seed: "for 8888 colour (and D24S8)", the stencil byte in the alpha place), other formats'
 * blocks are stored whole (no clear encoding is described for them).
 *
 * `checkFlagBuffer` is the RB's and the BLIT event's check of a flag buffer against its surface:
 * `adreno.rb.ubwc-flag-pitch` (a row of flags narrower than the surface's row of blocks: rows
 * overwrite each other), `adreno.rb.ubwc-flag-overlap` (the flag plane lies inside the pixel
 * plane: the writes corrupt each other), `adreno.rb.ubwc-flag-unmapped` (no memory there).
 */
import type { Memory } from '../../core/memory.js';
import { macrotileDims, type Tile6Config } from '../ubwc/tile6.js';
import { flagPlaneBytes } from '../ubwc/ubwc.js';
import { Engine, type BlitHost, type Surface } from './blit2d.js';
import type { Fmt6 } from './fmt6.js';
import type { ColorSurface, DepthSurface, Rgba, StencilSurface } from './output.js';
import { enumValue } from '../regs/db.js';

export interface FlagProblem {
  readonly id: 'adreno.rb.ubwc-flag-pitch' | 'adreno.rb.ubwc-flag-overlap' | 'adreno.rb.ubwc-flag-unmapped';
  readonly message: string;
}

/** A UBWC surface's planes as the registers place them, and the image rows / columns it is used for. */
export interface FlagBufferUse {
  readonly what: string;
  readonly base: number;
  readonly pitch: number;
  /** Bytes per pixel, samples included. */
  readonly ecpp: number;
  readonly flagBase: number;
  readonly flagPitch: number;
  readonly width: number;
  readonly height: number;
}

const hex = (v: number): string => `0x${v.toString(16)}`;

/** What is wrong with a flag buffer (empty when nothing). */
export function checkFlagBuffer(mem: Memory, u: FlagBufferUse): FlagProblem[] {
  const out: FlagProblem[] = [];
  const { w, h } = macrotileDims(u.ecpp);
  const blocksX = Math.ceil(u.width / w);
  if (u.flagPitch < blocksX)
    out.push({ id: 'adreno.rb.ubwc-flag-pitch', message: `${u.what}: flag buffer pitch ${u.flagPitch} bytes is less than the ${blocksX} blocks of ${w}x${h} pixels in a ${u.width}-pixel row: rows of flags overwrite each other` });
  const flagLen = flagPlaneBytes(u.height, u.ecpp, Math.max(u.flagPitch, blocksX));
  // The pixel plane: whole 16-row macrotile rows (seed: "a macrotile is always 256 bytes", four block rows per macrotile row).
  const dataLen = u.pitch * Math.ceil(u.height / (4 * h)) * 4 * h;
  if (u.flagBase < u.base + dataLen && u.flagBase + flagLen > u.base)
    out.push({ id: 'adreno.rb.ubwc-flag-overlap', message: `${u.what}: flag buffer ${hex(u.flagBase)}..${hex(u.flagBase + flagLen)} overlaps the pixel plane ${hex(u.base)}..${hex(u.base + dataLen)}: flag and pixel writes corrupt each other` });
  if (!mem.find(u.flagBase, flagLen))
    out.push({ id: 'adreno.rb.ubwc-flag-unmapped', message: `${u.what}: flag buffer ${hex(u.flagBase)}..${hex(u.flagBase + flagLen)} is not in mapped memory` });
  return out;
}

/** A colour surface written through UBWC; `finish` encodes the flags of the blocks written (after the draw). */
export interface UbwcColorSurface extends ColorSurface {
  readonly ubwc: true;
  /** Returns the number of blocks the draw left fast-cleared. */
  finish(): number;
}

/** Scratch for the float depth format's bytes. */
const SCRATCH_U8 = new Uint8Array(4);
const SCRATCH = new DataView(SCRATCH_U8.buffer);

export function isUbwcColor(s: ColorSurface | undefined): s is UbwcColorSurface {
  return !!s && (s as Partial<UbwcColorSurface>).ubwc === true;
}

export interface UbwcPlacement {
  readonly base: number;
  readonly pitch: number;
  readonly samples: number;
  readonly flags: { readonly base: number; readonly pitch: number };
}

/** The RB's view of a UBWC MRT (samples of a pixel side by side, as in sysmem). */
export function ubwcColor(host: BlitHost, cfg: Tile6Config, p: UbwcPlacement, fmt: Fmt6, swap: (c: Rgba) => Rgba): UbwcColorSurface {
  const ecpp = fmt.cpp * p.samples;
  const s: Surface = { role: 'destination', fmt, swap: 0, base: p.base, pitch: p.pitch, tiled: true, samples: p.samples, ecpp, flags: p.flags };
  const eng = new Engine(host, cfg);
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  return {
    ubwc: true,
    fmt,
    unorm: fmt.name.endsWith('_UNORM'),
    read(x, y, smp) {
      return swap(fmt.unpack(eng.rawPixel(s, x, y), smp * fmt.cpp));
    },
    write(x, y, smp, c) {
      const raw = eng.rawPixel(s, x, y);
      fmt.pack(swap(c), raw, smp * fmt.cpp);
      eng.storeRaw(s, x, y, raw);
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    },
    finish() {
      const n = eng.compress(s, x0, y0, x1, y1);
      x0 = y0 = Infinity;
      x1 = y1 = -1;
      return n;
    },
  };
}

/** The colour format name the 2D engine and the BLIT event use for a depth format (fd6's depth-as-colour formats). */
export const DEPTH_AS_COLOR: Readonly<Record<DepthSurface['format'], string>> = { DEPTH6_16: 'FMT6_16_UNORM', DEPTH6_24_8: 'FMT6_Z24_UNORM_S8_UINT', DEPTH6_32: 'FMT6_32_FLOAT' };

/** A UBWC depth buffer (with the stencil of D24S8); `finish` encodes the flags of the blocks written. */
export interface UbwcDepthSurface extends DepthSurface, StencilSurface {
  readonly ubwc: true;
  finish(): number;
}

export function isUbwcDepth(s: DepthSurface | undefined): s is UbwcDepthSurface {
  return !!s && (s as Partial<UbwcDepthSurface>).ubwc === true;
}

/** The RB's view of a UBWC depth buffer: samples of a pixel side by side, values as sysmemDepth stores them. */
export function ubwcDepth(host: BlitHost, cfg: Tile6Config, p: UbwcPlacement, format: DepthSurface['format']): UbwcDepthSurface {
  const cpp = format === 'DEPTH6_16' ? 2 : 4;
  const name = DEPTH_AS_COLOR[format];
  // Only the raw bytes pass through the Engine (pack / unpack are never called).
  const never = (): never => { throw new Error(`${name}: the depth surface moves raw bytes only`); };
  const fmt: Fmt6 = { name, value: enumValue('a6xx_format', name, host.gen) ?? 0, cpp, comps: 1, unpack: never, pack: never };
  const s: Surface = { role: 'destination', fmt, swap: 0, base: p.base, pitch: p.pitch, tiled: true, samples: p.samples, ecpp: cpp * p.samples, flags: p.flags };
  const eng = new Engine(host, cfg);
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  const store = (x: number, y: number, raw: Uint8Array): void => {
    eng.storeRaw(s, x, y, raw);
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  };
  return {
    ubwc: true,
    format,
    // Little-endian bytes read and written in place (a DataView made per sample was ~5% of a
    // UBWC depth draw); the float format through one scratch view.
    readDepth(x, y, smp) {
      const raw = eng.rawPixel(s, x, y);
      if (format === 'DEPTH6_16') return (raw[smp * 2]! | (raw[smp * 2 + 1]! << 8)) / 0xffff;
      const o = smp * 4;
      if (format === 'DEPTH6_24_8') return (raw[o]! | (raw[o + 1]! << 8) | (raw[o + 2]! << 16)) / 0xffffff;
      SCRATCH_U8.set(raw.subarray(o, o + 4));
      return SCRATCH.getFloat32(0, true);
    },
    writeDepth(x, y, smp, z) {
      const raw = eng.rawPixel(s, x, y);
      if (format === 'DEPTH6_16') {
        const v = Math.round(z * 0xffff);
        raw[smp * 2] = v & 0xff;
        raw[smp * 2 + 1] = (v >>> 8) & 0xff;
      } else if (format === 'DEPTH6_24_8') {
        // The stencil byte (bits 31:24) stays (a value past 24 bits spills into it, as it did).
        const o = smp * 4;
        const v = ((((raw[o + 3]! << 24) & 0xff000000) | Math.round(z * 0xffffff)) >>> 0);
        raw[o] = v & 0xff;
        raw[o + 1] = (v >>> 8) & 0xff;
        raw[o + 2] = (v >>> 16) & 0xff;
        raw[o + 3] = v >>> 24;
      } else {
        SCRATCH.setFloat32(0, z, true);
        raw.set(SCRATCH_U8, smp * 4);
      }
      store(x, y, raw);
    },
    // D24S8 keeps the stencil in the top byte of each sample.
    readStencil(x, y, smp) {
      return eng.rawPixel(s, x, y)[smp * 4 + 3]!;
    },
    writeStencil(x, y, smp, val) {
      const raw = eng.rawPixel(s, x, y);
      raw[smp * 4 + 3] = val & 0xff;
      store(x, y, raw);
    },
    finish() {
      const n = eng.compress(s, x0, y0, x1, y1);
      x0 = y0 = Infinity;
      x1 = y1 = -1;
      return n;
    },
  };
}
