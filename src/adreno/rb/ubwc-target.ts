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
import type { ColorSurface, Rgba } from './output.js';

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
