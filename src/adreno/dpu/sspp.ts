/**
 * SSPP, the source surface processor pipes (seed 004, "Display Pipeline"; the kernel's
 * sde_hw_sspp.h): each pipe reads a layer from memory and does the little per-layer work there
 * is before blending. Stages, in order:
 *
 *   fetch    the source rectangle from a linear, TILE6_3 or UBWC surface (ubwc/), optionally one
 *            field of an interlaced surface (deinterlace: every other line, even or odd);
 *   unpack   RGB components to 10 bits by bit replication, alpha to 8 bits;
 *   YUV      chroma upsampling (replicate, or bilinear with chroma sited between luma samples:
 *            weights 3:1 per axis) then CSC (yuv->rgb, 3x3 matrix in S4.9 fixed point with
 *            pre-bias, clamps and post-bias), the 8-bit result unpacked to 10 bits;
 *   format   rot90 (clockwise) then flip h/v;
 *   scaler   to the destination size: phase step src/dst with 21 fraction bits, sample centres
 *            aligned, nearest or bilinear (8-bit weights, horizontal then vertical);
 *   solidfill  instead of all of the above, a constant ARGB8888 colour;
 *   multirect  one DMA pipe fetching two rectangles (rect 0 and rect 1) of one format, unscaled,
 *            side by side (parallel) or one above the other (time-multiplexed).
 *
 * Pipes are those of an SDM845-class DPU: VIG0-3 (scaler, CSC, YUV, rotation) and DMA0-3 (RGB
 * only, no scaler, multirect). Not modelled: sharpening, QoS, the pixel-extension and
 * per-pipe igc/histogram "placeholders" the seed lists.
 */
import { InputError } from '../../core/errors.js';
import type { Diagnostics } from '../../core/diagnostics.js';
import { expandBits, readWord, unpackRgb, alphaByte, type Format, type RgbFormat, type YuvFormat } from './format.js';
import { ubwcLayout, ubwcToLinear } from '../ubwc/ubwc.js';
import { tile6Offset, type Tile6Config } from '../ubwc/tile6.js';

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** A surface in memory: one to three planes as stored, with their pitches in bytes. */
export interface Surface {
  readonly name: string;
  readonly format: Format;
  readonly width: number;
  readonly height: number;
  readonly layout: 'linear' | 'tile6_3' | 'ubwc';
  readonly planes: readonly Uint8Array[];
  /** Pitch of each plane (for tiled and UBWC surfaces: the pixel plane's pitch). */
  readonly pitches: readonly number[];
  /** The SoC's TILE6_3 bank parameters for tiled and UBWC surfaces (default: a630 / sdm845's). */
  readonly tile6?: Tile6Config;
}

export type PipeName = `VIG${0 | 1 | 2 | 3}` | `DMA${0 | 1 | 2 | 3}`;
export const PIPES: readonly PipeName[] = ['VIG0', 'VIG1', 'VIG2', 'VIG3', 'DMA0', 'DMA1', 'DMA2', 'DMA3'];
export const isVig = (p: PipeName): boolean => p.startsWith('VIG');

/** The scaler's limits (SDE catalogue: MAX_SSPP_UPSCALE 20, MAX_SSPP_DOWNSCALE 4). */
export const MAX_UPSCALE = 20;
export const MAX_DOWNSCALE = 4;
/** Fraction bits of the scaler's phase step. */
export const PHASE_STEP_BITS = 21;

/** CSC: rows give R, G, B from (Y, Cb, Cr); coefficients S4.9 (512 = 1.0). */
export interface Csc {
  readonly matrix: readonly number[];
  readonly preBias: readonly number[];
  readonly postBias: readonly number[];
  /** [lo, hi] per input component, applied before the bias; per output after. */
  readonly preClamp: readonly number[];
  readonly postClamp: readonly number[];
}

/**
 * Presets. bt601_limited is the DPU's own YUV2RGB_601L table; the others are the BT.601 full-range
 * and BT.709 limited-range equations rounded to S4.9.
 */
export const CSC_PRESETS: Readonly<Record<string, Csc>> = {
  bt601_limited: { matrix: [0x254, 0, 0x331, 0x254, -201, -416, 0x254, 0x409, 0], preBias: [-16, -128, -128], postBias: [0, 0, 0], preClamp: [16, 235, 16, 240, 16, 240], postClamp: [0, 255, 0, 255, 0, 255] },
  bt601_full: { matrix: [512, 0, 718, 512, -176, -366, 512, 907, 0], preBias: [0, -128, -128], postBias: [0, 0, 0], preClamp: [0, 255, 0, 255, 0, 255], postClamp: [0, 255, 0, 255, 0, 255] },
  bt709_limited: { matrix: [596, 0, 918, 596, -109, -273, 596, 1082, 0], preBias: [-16, -128, -128], postBias: [0, 0, 0], preClamp: [16, 235, 16, 240, 16, 240], postClamp: [0, 255, 0, 255, 0, 255] },
};

export interface PipeLayer {
  readonly name: string;
  readonly pipe: PipeName;
  readonly rect: 0 | 1;
  readonly surface?: Surface;
  /** ARGB colour for solid fill, as [r, g, b, a] 8-bit. */
  readonly solidFill?: readonly [number, number, number, number];
  readonly src: Rect;
  readonly dst: Rect;
  readonly rot90: boolean;
  readonly flipLr: boolean;
  readonly flipUd: boolean;
  readonly deinterlace?: 'even' | 'odd';
  readonly scaler: 'nearest' | 'bilinear';
  readonly chromaUpsample: 'replicate' | 'bilinear';
  readonly csc: Csc;
}

/** A pipe's output: dst-sized, 4 x Uint16 per pixel (R, G, B 10-bit; A 8-bit). */
export interface LayerImage {
  readonly w: number;
  readonly h: number;
  readonly px: Uint16Array;
}

const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);

/** The surface's planes as tightly packed linear bytes (tiled and UBWC surfaces read through their layout). */
export function linearPlanes(s: Surface, diag: Diagnostics): { planes: Uint8Array[]; pitches: number[] } {
  if (s.layout === 'linear') return { planes: [...s.planes], pitches: [...s.pitches] };
  if (s.format.kind !== 'rgb') throw new InputError(`${s.name}: tiled and UBWC sources are modelled for RGB formats only`);
  const cpp = s.format.cpp;
  if (s.layout === 'ubwc') {
    const lay = ubwcLayout(s.width, s.height, cpp, s.pitches[0]);
    const ab = alphaByte(s.format);
    if (s.planes[0]!.length < lay.dataOffset + lay.dataSize) throw new InputError(`${s.name}: UBWC surface needs ${lay.dataOffset + lay.dataSize} bytes, has ${s.planes[0]!.length}`);
    return { planes: [ubwcToLinear(s.planes[0]!, lay, ab >= 0 ? { alphaByte: ab } : undefined, diag, s.name, s.tile6)], pitches: [s.width * cpp] };
  }
  const out = new Uint8Array(s.width * s.height * cpp);
  const src = s.planes[0]!;
  for (let y = 0; y < s.height; y++)
    for (let x = 0; x < s.width; x++) {
      const o = tile6Offset(x, y, s.pitches[0]!, cpp, s.tile6);
      out.set(src.subarray(o, o + cpp), (y * s.width + x) * cpp);
    }
  return { planes: [out], pitches: [s.width * cpp] };
}

/** Lines of the surface the pipe sees: all, or one field. */
function fieldLine(y: number, d: PipeLayer['deinterlace']): number {
  return d === undefined ? y : 2 * y + (d === 'odd' ? 1 : 0);
}

/** Apply a CSC to one (Y, Cb, Cr) sample, 8-bit in and out. */
export function applyCsc(c: Csc, y: number, cb: number, cr: number, out: number[]): void {
  const inp = [clamp(y, c.preClamp[0]!, c.preClamp[1]!) + c.preBias[0]!, clamp(cb, c.preClamp[2]!, c.preClamp[3]!) + c.preBias[1]!, clamp(cr, c.preClamp[4]!, c.preClamp[5]!) + c.preBias[2]!];
  for (let i = 0; i < 3; i++) {
    const acc = c.matrix[i * 3]! * inp[0]! + c.matrix[i * 3 + 1]! * inp[1]! + c.matrix[i * 3 + 2]! * inp[2]!;
    out[i] = clamp(Math.floor((acc + 256) / 512) + c.postBias[i]!, c.postClamp[i * 2]!, c.postClamp[i * 2 + 1]!);
  }
}

/** Fetch the source rectangle (after deinterlace) in the pipe domain. */
function fetch(l: PipeLayer, diag: Diagnostics): LayerImage {
  const { w, h } = l.src;
  const px = new Uint16Array(w * h * 4);
  const s = l.surface!;
  const { planes, pitches } = linearPlanes(s, diag);
  if (s.format.kind === 'rgb') {
    const f: RgbFormat = s.format;
    for (let y = 0; y < h; y++) {
      const row = fieldLine(l.src.y + y, l.deinterlace);
      for (let x = 0; x < w; x++) unpackRgb(f, readWord(planes[0]!, row * pitches[0]! + (l.src.x + x) * f.cpp, f.cpp), px, (y * w + x) * 4);
    }
    return { w, h, px };
  }
  const f: YuvFormat = s.format;
  const sub = f.chroma === '420' ? 2 : 1; // vertical subsampling (horizontal is always 2)
  // Sample readers in surface coordinates (lines of the field when deinterlacing).
  const lumaAt = (x: number, y: number): number => {
    const row = fieldLine(y, l.deinterlace);
    if (f.layout === 'packed') return planes[0]![row * pitches[0]! + (x >> 1) * 4 + f.packed![(x & 1) * 2]!]!;
    return planes[0]![row * pitches[0]! + x]!;
  };
  const cw = Math.ceil(s.width / 2);
  const fieldH = l.deinterlace === undefined ? s.height : Math.floor((s.height - (l.deinterlace === 'odd' ? 1 : 0) + 1) / 2);
  const ch = Math.ceil(fieldH / sub);
  const chromaAt = (cx: number, cy: number, which: 0 | 1): number => {
    cx = clamp(cx, 0, cw - 1);
    cy = clamp(cy, 0, ch - 1);
    const row = fieldLine(cy, l.deinterlace);
    if (f.layout === 'packed') return planes[0]![row * pitches[0]! + cx * 4 + f.packed![which === 0 ? 1 : 3]!]!;
    if (f.layout === 'semiplanar') return planes[1]![row * pitches[1]! + cx * 2 + ((which === 0) === f.cbFirst ? 0 : 1)]!;
    const plane = (which === 0) === f.cbFirst ? 1 : 2;
    return planes[plane]![row * pitches[plane]! + cx]!;
  };
  const chroma = (x: number, y: number, which: 0 | 1): number => {
    if (l.chromaUpsample === 'replicate') return chromaAt(x >> 1, Math.floor(y / sub), which);
    // Chroma sited midway between its luma samples: neighbours weighted 3:1 on each subsampled axis.
    const hx0 = (x & 1) === 0 ? (x >> 1) - 1 : x >> 1;
    const hx1 = hx0 + 1;
    const wx0 = (x & 1) === 0 ? 1 : 3;
    if (sub === 1) return (wx0 * chromaAt(hx0, y, which) + (4 - wx0) * chromaAt(hx1, y, which) + 2) >> 2;
    const vy0 = (y & 1) === 0 ? (y >> 1) - 1 : y >> 1;
    const wy0 = (y & 1) === 0 ? 1 : 3;
    const a = chromaAt(hx0, vy0, which);
    const b = chromaAt(hx1, vy0, which);
    const c = chromaAt(hx0, vy0 + 1, which);
    const d = chromaAt(hx1, vy0 + 1, which);
    return (wx0 * wy0 * a + (4 - wx0) * wy0 * b + wx0 * (4 - wy0) * c + (4 - wx0) * (4 - wy0) * d + 8) >> 4;
  };
  const rgb = [0, 0, 0];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const sx = l.src.x + x;
      const sy = l.src.y + y;
      applyCsc(l.csc, lumaAt(sx, sy), chroma(sx, sy, 0), chroma(sx, sy, 1), rgb);
      const o = (y * w + x) * 4;
      px[o] = expandBits(rgb[0]!, 8, 10);
      px[o + 1] = expandBits(rgb[1]!, 8, 10);
      px[o + 2] = expandBits(rgb[2]!, 8, 10);
      px[o + 3] = 255;
    }
  return { w, h, px };
}

/** rot90 (clockwise) then flips. */
export function orient(img: LayerImage, rot90: boolean, flipLr: boolean, flipUd: boolean): LayerImage {
  if (!rot90 && !flipLr && !flipUd) return img;
  const w = rot90 ? img.h : img.w;
  const h = rot90 ? img.w : img.h;
  const px = new Uint16Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const ox = flipLr ? w - 1 - x : x;
      const oy = flipUd ? h - 1 - y : y;
      // Clockwise: output (ox, oy) comes from source column oy, row (srcH - 1 - ox).
      const sx = rot90 ? oy : ox;
      const sy = rot90 ? img.h - 1 - ox : oy;
      px.set(img.px.subarray((sy * img.w + sx) * 4, (sy * img.w + sx) * 4 + 4), (y * w + x) * 4);
    }
  return { w, h, px };
}

/** One axis of the scaler: `n` outputs from `m` inputs of `get(i, c)`. */
function scaleAxis(m: number, n: number, filter: 'nearest' | 'bilinear', get: (i: number, c: number) => number, put: (j: number, c: number, v: number) => void): void {
  const one = 2 ** PHASE_STEP_BITS;
  const step = Math.floor((m * one) / n);
  for (let j = 0; j < n; j++) {
    // Centre of output j in input units (fixed point), minus half a pixel.
    const p = Math.floor(((2 * j + 1) * step) / 2) - one / 2;
    for (let c = 0; c < 4; c++) {
      if (filter === 'nearest') {
        put(j, c, get(clamp(Math.floor((p + one / 2) / one), 0, m - 1), c));
        continue;
      }
      const i0 = Math.floor(p / one);
      const f = Math.floor((p - i0 * one) / 2 ** (PHASE_STEP_BITS - 8));
      const a = get(clamp(i0, 0, m - 1), c);
      const b = get(clamp(i0 + 1, 0, m - 1), c);
      put(j, c, (a * (256 - f) + b * f + 128) >> 8);
    }
  }
}

export function scale(img: LayerImage, w: number, h: number, filter: 'nearest' | 'bilinear'): LayerImage {
  if (img.w === w && img.h === h) return img;
  const tmp = new Uint16Array(w * img.h * 4);
  for (let y = 0; y < img.h; y++) scaleAxis(img.w, w, filter, (i, c) => img.px[(y * img.w + i) * 4 + c]!, (j, c, v) => void (tmp[(y * w + j) * 4 + c] = v));
  const px = new Uint16Array(w * h * 4);
  for (let x = 0; x < w; x++) scaleAxis(img.h, h, filter, (i, c) => tmp[(i * w + x) * 4 + c]!, (j, c, v) => void (px[(j * w + x) * 4 + c] = v));
  return { w, h, px };
}

/** Everything a pipe does to one layer: fetch (or solid fill), orient, scale. */
export function runPipe(l: PipeLayer, diag: Diagnostics): LayerImage {
  if (l.solidFill) {
    const px = new Uint16Array(l.dst.w * l.dst.h * 4);
    const [r, g, b, a] = l.solidFill;
    for (let i = 0; i < l.dst.w * l.dst.h; i++) px.set([expandBits(r, 8, 10), expandBits(g, 8, 10), expandBits(b, 8, 10), a], i * 4);
    return { w: l.dst.w, h: l.dst.h, px };
  }
  const img = orient(fetch(l, diag), l.rot90, l.flipLr, l.flipUd);
  return scale(img, l.dst.w, l.dst.h, l.scaler);
}

/** Check a pipe's capabilities and the multirect rules; throws InputError naming the layer. */
export function checkPipes(layers: readonly PipeLayer[]): void {
  const byPipe = new Map<PipeName, PipeLayer[]>();
  for (const l of layers) {
    const list = byPipe.get(l.pipe) ?? [];
    list.push(l);
    byPipe.set(l.pipe, list);
    const oriented = l.rot90 ? { w: l.src.h, h: l.src.w } : { w: l.src.w, h: l.src.h };
    const scaled = !l.solidFill && (oriented.w !== l.dst.w || oriented.h !== l.dst.h);
    if (!isVig(l.pipe)) {
      if (scaled) throw new InputError(`layer '${l.name}': ${l.pipe} has no scaler (src ${oriented.w}x${oriented.h}, dst ${l.dst.w}x${l.dst.h}); use a VIG pipe`);
      if (l.surface?.format.kind === 'yuv') throw new InputError(`layer '${l.name}': ${l.pipe} cannot read YUV (${l.surface.format.name}); use a VIG pipe`);
      if (l.rot90) throw new InputError(`layer '${l.name}': ${l.pipe} cannot rotate by 90; use a VIG pipe`);
    }
    if (scaled) {
      for (const [s, d, axis] of [[oriented.w, l.dst.w, 'width'], [oriented.h, l.dst.h, 'height']] as const) {
        if (d > s * MAX_UPSCALE) throw new InputError(`layer '${l.name}': ${axis} upscale ${s} -> ${d} exceeds ${MAX_UPSCALE}x`);
        if (d * MAX_DOWNSCALE < s) throw new InputError(`layer '${l.name}': ${axis} downscale ${s} -> ${d} exceeds ${MAX_DOWNSCALE}x`);
      }
    }
    if (l.surface) {
      const fh = l.deinterlace === undefined ? l.surface.height : Math.floor((l.surface.height - (l.deinterlace === 'odd' ? 1 : 0) + 1) / 2);
      if (l.src.x < 0 || l.src.y < 0 || l.src.w <= 0 || l.src.h <= 0 || l.src.x + l.src.w > l.surface.width || l.src.y + l.src.h > fh)
        throw new InputError(`layer '${l.name}': src rect ${l.src.w}x${l.src.h}+${l.src.x}+${l.src.y} is outside '${l.surface.name}' (${l.surface.width}x${fh}${l.deinterlace ? `, ${l.deinterlace} field` : ''})`);
      if (l.surface.format.kind === 'yuv' && (l.surface.layout !== 'linear')) throw new InputError(`layer '${l.name}': tiled/UBWC YUV is not modelled`);
    }
  }
  for (const [pipe, list] of byPipe) {
    if (list.length === 1) {
      if (list[0]!.rect !== 0) throw new InputError(`layer '${list[0]!.name}': rect 1 of ${pipe} without rect 0`);
      continue;
    }
    if (list.length > 2) throw new InputError(`${pipe} is used by ${list.length} layers; a pipe fetches one rectangle, or two in multirect`);
    const [a, b] = list as [PipeLayer, PipeLayer];
    if (isVig(pipe)) throw new InputError(`layers '${a.name}' and '${b.name}' share ${pipe}: multirect is a DMA pipe feature`);
    if (a.rect === b.rect) throw new InputError(`layers '${a.name}' and '${b.name}' are both rect ${a.rect} of ${pipe}`);
    const fa = a.solidFill ? 'solidfill' : a.surface!.format.name;
    const fb = b.solidFill ? 'solidfill' : b.surface!.format.name;
    if (fa !== fb) throw new InputError(`multirect on ${pipe}: both rects read one format, got ${fa} and ${fb}`);
  }
}

/** Multirect mode of a pair: side by side (parallel) or stacked (time-multiplexed); null if they overlap. */
export function multirectMode(a: Rect, b: Rect): 'parallel' | 'time_mx' | null {
  const xOverlap = a.x < b.x + b.w && b.x < a.x + a.w;
  const yOverlap = a.y < b.y + b.h && b.y < a.y + a.h;
  if (!xOverlap) return 'parallel';
  if (!yOverlap) return 'time_mx';
  return null;
}
