/**
 * DSPP, the destination surface processor pipe (seed 004, "Display Pipeline"; sde_hw_dspp.h and
 * the uapi msm_drm_pp.h for table sizes): post-blending processing of the whole mixer output, in
 * this order:
 *
 *   IGC     inverse gamma: 256 entries per channel, 12-bit values; the 10-bit input indexes
 *           entry x >> 2 and interpolates linearly over the 4 steps to the next entry. After
 *           IGC the pipe carries 12 bits (without IGC: the 10-bit value bit-replicated).
 *   PCC     panel colour correction: per output channel 11 coefficients over the normalised
 *           input (c, r, g, b, rg, gb, rb, rgb, rr, gg, bb: the 3x3 matrix plus constant,
 *           cross and square terms, i.e. the 3x11 polynomial form), clamped to [0, 1].
 *   PA      picture adjustment in HSV: memory colours (skin, sky, foliage: a hue/sat/val
 *           region, an adjustment, and which global adjustments they are protected from),
 *           HSIC (hue rotation in degrees, saturation gain, value offset, contrast gain about
 *           0.5), then the value LUT (vlut, 256 entries, 10-bit).
 *   gamut   3D LUT, 17, 13 or 5 points per axis, 12-bit entries, trilinear interpolation.
 *   GC      gamma correction: 512 entries per channel, 10-bit values; the 12-bit input indexes
 *           entry x >> 3 and interpolates over 8 steps. Output 10 bits (without GC: x >> 2).
 *   histogram  256 bins of max(R, G, B) >> 2 of the GC output.
 *   dither  4x4 matrix of thresholds 0..15 scaled to the dropped bits: out =
 *           min(2^bits - 1, (x + (m[y%4][x%4] << shift >> 4)) >> shift), shift = 10 - bits.
 *
 * Without dither the 10-bit output is truncated to 8 bits for the image; with dither the
 * panel's bits are expanded back to 8 by bit replication. Not modelled: six-zone, AD, sharpening,
 * temporal dither (one frame is composed), the dither "strength" the seed mentions without a
 * definition.
 */
import { expandBits } from './format.js';

export const IGC_TBL_LEN = 256;
export const PGC_TBL_LEN = 512;
export const PA_VLUT_SIZE = 256;
export const HIST_BINS = 256;
export const DITHER_MATRIX_SZ = 16;
/** 3D LUT points per axis: GAMUT_3D_MODE_17, _13, _5. */
export const GAMUT_SIZES = [17, 13, 5] as const;

export type Lut3 = readonly [readonly number[], readonly number[], readonly number[]];

/** PCC coefficient order per output channel. */
export const PCC_TERMS = ['c', 'r', 'g', 'b', 'rg', 'gb', 'rb', 'rgb', 'rr', 'gg', 'bb'] as const;

export interface MemColor {
  readonly name: 'skin' | 'sky' | 'foliage';
  /** Degrees [lo, hi] (wrapping when lo > hi), and [lo, hi] in 0..1 for saturation and value. */
  readonly hue: readonly [number, number];
  readonly sat: readonly [number, number];
  readonly val: readonly [number, number];
  readonly hueAdjust: number;
  readonly satAdjust: number;
  readonly valAdjust: number;
  readonly protect: ReadonlySet<'hue' | 'sat' | 'val' | 'cont'>;
}

export interface Hsic {
  readonly hue: number;
  readonly saturation: number;
  readonly value: number;
  readonly contrast: number;
}

export interface DsppConfig {
  readonly igc?: Lut3;
  /** [R, G, B] rows of 11 coefficients in PCC_TERMS order. */
  readonly pcc?: readonly (readonly number[])[];
  readonly hsic?: Hsic;
  readonly memcolor?: readonly MemColor[];
  readonly vlut?: readonly number[];
  readonly gamut?: { readonly size: number; readonly entries: readonly (readonly number[])[] };
  readonly gc?: Lut3;
  readonly dither?: { readonly matrix: readonly number[]; readonly bits: readonly [number, number, number] };
  readonly histogram?: boolean;
}

export interface DsppResult {
  /** 8-bit RGB for the image. */
  readonly rgb8: Uint8Array;
  /** The panel's values (10-bit, or the dither's bits), 3 per pixel. */
  readonly panel: Uint16Array;
  readonly histogram?: Uint32Array;
}

/** Look up a 1D LUT with linear interpolation: input `x` of `inBits`, table of `len` entries. */
export function lut1d(lut: readonly number[], x: number, inBits: number): number {
  const stepBits = inBits - Math.log2(lut.length);
  const i = x >> stepBits;
  const frac = x & ((1 << stepBits) - 1);
  const a = lut[i]!;
  const b = lut[Math.min(i + 1, lut.length - 1)]!;
  return a + Math.floor(((b - a) * frac) / (1 << stepBits));
}

export function rgbToHsv(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  let h = 0;
  if (d > 0) {
    if (max === r) h = 60 * (((g - b) / d + 6) % 6);
    else if (max === g) h = 60 * ((b - r) / d + 2);
    else h = 60 * ((r - g) / d + 4);
  }
  return [h, max === 0 ? 0 : d / max, max];
}

export function hsvToRgb(h: number, s: number, v: number): [number, number, number] {
  h = ((h % 360) + 360) % 360;
  const c = v * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = v - c;
  const k = Math.floor(h / 60);
  const [r, g, b] = k === 0 ? [c, x, 0] : k === 1 ? [x, c, 0] : k === 2 ? [0, c, x] : k === 3 ? [0, x, c] : k === 4 ? [x, 0, c] : [c, 0, x];
  return [r + m, g + m, b + m];
}

const clamp01 = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : v);
const inRange = (v: number, [lo, hi]: readonly [number, number]): boolean => v >= lo && v <= hi;
const inHue = (h: number, [lo, hi]: readonly [number, number]): boolean => (lo <= hi ? h >= lo && h <= hi : h >= lo || h <= hi);

/** The PA block on one normalised RGB pixel. */
export function pictureAdjust(c: DsppConfig, rgb: [number, number, number]): [number, number, number] {
  let [h, s, v] = rgbToHsv(rgb[0], rgb[1], rgb[2]);
  const mc = c.memcolor?.find((m) => inHue(h, m.hue) && inRange(s, m.sat) && inRange(v, m.val));
  const p = mc?.protect;
  if (c.hsic) {
    if (!p?.has('hue')) h += c.hsic.hue;
    if (!p?.has('sat')) s = clamp01(s * c.hsic.saturation);
    if (!p?.has('cont')) v = clamp01((v - 0.5) * c.hsic.contrast + 0.5);
    if (!p?.has('val')) v = clamp01(v + c.hsic.value);
  }
  if (mc) {
    h += mc.hueAdjust;
    s = clamp01(s * mc.satAdjust);
    v = clamp01(v * mc.valAdjust);
  }
  if (c.vlut) {
    const x = v * 255;
    const i = Math.min(254, Math.floor(x));
    const f = x - i;
    v = clamp01((c.vlut[i]! * (1 - f) + c.vlut[i + 1]! * f) / 1023);
  }
  return hsvToRgb(h, s, v);
}

/** Trilinear lookup of a 12-bit RGB triple in an N^3 table (index ((r * N) + g) * N + b). */
export function gamutLookup(size: number, entries: readonly (readonly number[])[], r: number, g: number, b: number, out: number[]): void {
  const pos = [r, g, b].map((x) => (x * (size - 1)) / 4095);
  const i0 = pos.map((p) => Math.min(size - 2, Math.floor(p)));
  const f = pos.map((p, k) => p - i0[k]!);
  for (let c = 0; c < 3; c++) {
    let acc = 0;
    for (let corner = 0; corner < 8; corner++) {
      const dr = (corner >> 2) & 1;
      const dg = (corner >> 1) & 1;
      const db = corner & 1;
      const w = (dr ? f[0]! : 1 - f[0]!) * (dg ? f[1]! : 1 - f[1]!) * (db ? f[2]! : 1 - f[2]!);
      acc += w * entries[((i0[0]! + dr) * size + i0[1]! + dg) * size + i0[2]! + db]![c]!;
    }
    out[c] = Math.min(4095, Math.max(0, Math.round(acc)));
  }
}

/** Dither one 10-bit component at (x, y) to `bits`. */
export function ditherValue(v: number, bits: number, matrix: readonly number[], x: number, y: number): number {
  const shift = 10 - bits;
  if (shift <= 0) return v;
  const t = (matrix[(y & 3) * 4 + (x & 3)]! << shift) >> 4;
  return Math.min((1 << bits) - 1, (v + t) >> shift);
}

/** Run the DSPP over the mixer output (4 x Uint16 per pixel, 10-bit colour). */
export function runDspp(c: DsppConfig, mixed: Uint16Array, width: number, height: number): DsppResult {
  const n = width * height;
  const rgb8 = new Uint8Array(n * 3);
  const panel = new Uint16Array(n * 3);
  const histogram = c.histogram ? new Uint32Array(HIST_BINS) : undefined;
  const pa = !!(c.hsic || c.memcolor?.length || c.vlut);
  const v = [0, 0, 0];
  const g3 = [0, 0, 0];
  /** PCC terms in PCC_TERMS order (the constant term is 1). */
  const terms = new Float64Array(11);
  terms[0] = 1;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      const x = mixed[i * 4 + k]!;
      v[k] = c.igc ? lut1d(c.igc[k]!, x, 10) : expandBits(x, 10, 12);
    }
    if (c.pcc) {
      const r = v[0]! / 4095;
      const g = v[1]! / 4095;
      const b = v[2]! / 4095;
      terms[1] = r; terms[2] = g; terms[3] = b;
      terms[4] = r * g; terms[5] = g * b; terms[6] = r * b; terms[7] = r * g * b;
      terms[8] = r * r; terms[9] = g * g; terms[10] = b * b;
      for (let k = 0; k < 3; k++) {
        const row = c.pcc[k]!;
        let sum = 0;
        for (let j = 0; j < 11; j++) sum += terms[j]! * row[j]!;
        v[k] = Math.round(clamp01(sum) * 4095);
      }
    }
    if (pa) {
      const out = pictureAdjust(c, [v[0]! / 4095, v[1]! / 4095, v[2]! / 4095]);
      for (let k = 0; k < 3; k++) v[k] = Math.round(clamp01(out[k]!) * 4095);
    }
    if (c.gamut) {
      gamutLookup(c.gamut.size, c.gamut.entries, v[0]!, v[1]!, v[2]!, g3);
      for (let k = 0; k < 3; k++) v[k] = g3[k]!;
    }
    for (let k = 0; k < 3; k++) v[k] = c.gc ? lut1d(c.gc[k]!, v[k]!, 12) : v[k]! >> 2;
    if (histogram) histogram[Math.max(v[0]!, v[1]!, v[2]!) >> 2]!++;
    const x = i % width;
    const y = Math.floor(i / width);
    for (let k = 0; k < 3; k++) {
      if (c.dither) {
        const bits = c.dither.bits[k]!;
        const d = ditherValue(v[k]!, bits, c.dither.matrix, x, y);
        panel[i * 3 + k] = d;
        rgb8[i * 3 + k] = expandBits(d, Math.min(bits, 10), 8);
      } else {
        panel[i * 3 + k] = v[k]!;
        rgb8[i * 3 + k] = v[k]! >> 2;
      }
    }
  }
  return histogram ? { rgb8, panel, histogram } : { rgb8, panel };
}
