/**
 * The texture unit of the R600 family, as Evergreen/Cayman describe it: texture resources (the eight
 * SQ_TEX_RESOURCE_WORD0..7 dwords of a T#), samplers (SQ_TEX_SAMPLER_WORD0..2), texel formats,
 * addressing modes, point/bilinear/mip filtering and depth compare. Pure functions of the resource,
 * the sampler and memory; the wave (machine.ts) supplies coordinates, derivatives and diagnostics.
 *
 * Field positions are the Evergreen register layout. Choices where the documents leave room:
 * - Only linear layouts are addressed (ARRAY_MODE 0 LINEAR_GENERAL, 1 LINEAR_ALIGNED); texel (x, y, z)
 *   of a level is at base + ((z * height + y) * pitch + x) * bytesPerTexel, with pitch = PITCH field
 *   for level 0 and the level's width rounded up to 8 texels (the PITCH granularity) for levels >= 1.
 *   Level 1 starts at MIP_ADDRESS * 256, each next level right after the previous one.
 * - Bilinear weights are exact (float64) rather than the hardware's fixed-point fractions.
 * - Depth compare (SAMPLE_C*) compares per texel before filtering and returns the result in all four
 *   channels before the resource swizzle.
 */
import { TEX_FORMATS } from '../isa/opcodes.gen.js';

const bits = (v: number, lo: number, n: number): number => (v >>> lo) & ((1 << n) - 1);
const sext = (v: number, n: number): number => (v << (32 - n)) >> (32 - n);

export const TEX_DIM = { D1: 0, D2: 1, D3: 2, CUBEMAP: 3, D1_ARRAY: 4, D2_ARRAY: 5, D2_MSAA: 6, D2_ARRAY_MSAA: 7 } as const;

/** A decoded texture resource (T#). */
export interface TexResource {
  readonly dim: number;
  /** Level-0 pitch in texels ((PITCH + 1) * 8). */
  readonly pitch: number;
  readonly width: number;
  readonly height: number;
  /** Depth (3D) or array layers (arrays), TEX_DEPTH + 1. */
  readonly depth: number;
  readonly arrayMode: number;
  /** Byte addresses of level 0 and level 1 (BASE_ADDRESS / MIP_ADDRESS * 256). */
  readonly base: number;
  readonly mipBase: number;
  /** FORMAT_COMP_X..W: 0 unsigned, 1 signed, 2 unsigned biased. */
  readonly comp: readonly [number, number, number, number];
  /** NUM_FORMAT_ALL: 0 norm, 1 int, 2 scaled. */
  readonly numFormat: number;
  /** DST_SEL_X..W of the resource: 0..3 channel, 4 zero, 5 one. */
  readonly dstSel: readonly [number, number, number, number];
  readonly baseLevel: number;
  readonly lastLevel: number;
  readonly baseArray: number;
  readonly lastArray: number;
  readonly format: number;
  /** Cayman LOG2_NUM_FRAGMENTS (word4 bits 15:14). */
  readonly log2Fragments: number;
  /** 0 invalid texture, 1 invalid buffer, 2 valid texture, 3 valid buffer. */
  readonly type: number;
}

export function decodeTexResource(w: ArrayLike<number>): TexResource {
  const w0 = w[0]! >>> 0, w1 = w[1]! >>> 0, w4 = w[4]! >>> 0, w5 = w[5]! >>> 0, w7 = w[7]! >>> 0;
  return {
    dim: bits(w0, 0, 3),
    pitch: (bits(w0, 6, 12) + 1) * 8,
    width: bits(w0, 18, 14) + 1,
    height: bits(w1, 0, 14) + 1,
    depth: bits(w1, 14, 13) + 1,
    arrayMode: bits(w1, 28, 4),
    base: (w[2]! >>> 0) * 256,
    mipBase: (w[3]! >>> 0) * 256,
    comp: [bits(w4, 0, 2), bits(w4, 2, 2), bits(w4, 4, 2), bits(w4, 6, 2)],
    numFormat: bits(w4, 8, 2),
    log2Fragments: bits(w4, 14, 2),
    dstSel: [bits(w4, 16, 3), bits(w4, 19, 3), bits(w4, 22, 3), bits(w4, 25, 3)],
    baseLevel: bits(w4, 28, 4),
    lastLevel: bits(w5, 0, 4),
    baseArray: bits(w5, 4, 13),
    lastArray: bits(w5, 17, 13),
    format: bits(w7, 0, 6),
    type: bits(w7, 30, 2),
  };
}

/** Field values for building a T# (tests, tools): the inverse of decodeTexResource. */
export interface TexResourceFields {
  dim?: number; pitch?: number; width: number; height?: number; depth?: number; arrayMode?: number; base: number; mipBase?: number;
  comp?: readonly number[]; numFormat?: number; dstSel?: readonly number[]; baseLevel?: number; lastLevel?: number;
  baseArray?: number; lastArray?: number; format: number; type?: number;
}
export function encodeTexResource(f: TexResourceFields): Uint32Array {
  const w = new Uint32Array(8);
  const pitch = f.pitch ?? Math.ceil(f.width / 8) * 8;
  const comp = f.comp ?? [0, 0, 0, 0];
  const sel = f.dstSel ?? [0, 1, 2, 3];
  w[0] = (f.dim ?? TEX_DIM.D2) | ((pitch / 8 - 1) << 6) | ((f.width - 1) << 18);
  w[1] = ((f.height ?? 1) - 1) | (((f.depth ?? 1) - 1) << 14) | ((f.arrayMode ?? 1) << 28);
  w[2] = f.base / 256;
  w[3] = (f.mipBase ?? 0) / 256;
  w[4] = comp[0]! | (comp[1]! << 2) | (comp[2]! << 4) | (comp[3]! << 6) | ((f.numFormat ?? 0) << 8) | (sel[0]! << 16) | (sel[1]! << 19) | (sel[2]! << 22) | (sel[3]! << 25) | ((f.baseLevel ?? 0) << 28);
  w[5] = (f.lastLevel ?? 0) | ((f.baseArray ?? 0) << 4) | ((f.lastArray ?? 0) << 17);
  w[7] = f.format | ((f.type ?? 2) << 30);
  return w;
}

export const TEX_CLAMP = {
  WRAP: 0, MIRROR: 1, CLAMP_LAST_TEXEL: 2, MIRROR_ONCE_LAST_TEXEL: 3, CLAMP_HALF_BORDER: 4, MIRROR_ONCE_HALF_BORDER: 5,
  CLAMP_BORDER: 6, MIRROR_ONCE_BORDER: 7,
} as const;

/** A decoded sampler (SQ_TEX_SAMPLER_WORD0..2). */
export interface TexSampler {
  readonly clamp: readonly [number, number, number];
  /** XY_MAG_FILTER / XY_MIN_FILTER: 0 point, 1 bilinear (2, 3 anisotropic: filtered bilinearly here). */
  readonly magFilter: number;
  readonly minFilter: number;
  /** Z_FILTER: 0 none (the XY filter), 1 point, 2 linear. */
  readonly zFilter: number;
  /** MIP_FILTER: 0 none, 1 point, 2 linear. */
  readonly mipFilter: number;
  /** BORDER_COLOR_TYPE: 0 transparent black, 1 opaque black, 2 opaque white, 3 register. */
  readonly borderType: number;
  /** DEPTH_COMPARE_FUNCTION: NEVER LESS EQUAL LESSEQUAL GREATER NOTEQUAL GREATEREQUAL ALWAYS. */
  readonly compare: number;
  /** MIN_LOD / MAX_LOD (u4.6) and LOD_BIAS (s5.8) as numbers. */
  readonly minLod: number;
  readonly maxLod: number;
  readonly lodBias: number;
}

export function decodeTexSampler(w: ArrayLike<number>): TexSampler {
  const w0 = w[0]! >>> 0, w1 = w[1]! >>> 0, w2 = w[2]! >>> 0;
  return {
    clamp: [bits(w0, 0, 3), bits(w0, 3, 3), bits(w0, 6, 3)],
    magFilter: bits(w0, 9, 2),
    minFilter: bits(w0, 11, 2),
    zFilter: bits(w0, 13, 2),
    mipFilter: bits(w0, 15, 2),
    borderType: bits(w0, 20, 2),
    compare: bits(w0, 22, 3),
    minLod: bits(w1, 0, 12) / 64,
    maxLod: bits(w1, 12, 12) / 64,
    lodBias: sext(bits(w2, 0, 14), 14) / 256,
  };
}

export interface TexSamplerFields {
  clamp?: readonly number[]; magFilter?: number; minFilter?: number; zFilter?: number; mipFilter?: number; borderType?: number;
  compare?: number; minLod?: number; maxLod?: number; lodBias?: number;
}
export function encodeTexSampler(f: TexSamplerFields): Uint32Array {
  const c = f.clamp ?? [0, 0, 0];
  const w = new Uint32Array(3);
  w[0] = c[0]! | (c[1]! << 3) | (c[2]! << 6) | ((f.magFilter ?? 0) << 9) | ((f.minFilter ?? 0) << 11) | ((f.zFilter ?? 0) << 13) | ((f.mipFilter ?? 0) << 15) | ((f.borderType ?? 0) << 20) | ((f.compare ?? 0) << 22);
  w[1] = Math.round((f.minLod ?? 0) * 64) | (Math.round((f.maxLod ?? 15) * 64) << 12);
  w[2] = Math.round((f.lodBias ?? 0) * 256) & 0x3fff;
  return w;
}

const formats = new Map(TEX_FORMATS.map((f) => [f.format, f]));
export const texFormat = (format: number): (typeof TEX_FORMATS)[number] | undefined => formats.get(format);

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function half(h: number): number {
  const e = (h >>> 10) & 31, m = h & 1023, s = h & 0x8000 ? -1 : 1;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/** Why a fetch could not be served (the wave turns it into a diagnostic). */
export type TexFault = { readonly id: 'r600.tex.format' | 'r600.tex.unsupported' | 'r600.tex.out-of-range'; readonly message: string };

/** One level's geometry. */
export interface TexLevel {
  readonly base: number;
  readonly pitch: number;
  readonly width: number;
  readonly height: number;
  readonly depth: number;
}

export function texLevel(r: TexResource, level: number): TexLevel {
  const is3d = r.dim === TEX_DIM.D3;
  const dims = (l: number): [number, number, number] => [Math.max(1, r.width >> l), r.dim === TEX_DIM.D1 || r.dim === TEX_DIM.D1_ARRAY ? 1 : Math.max(1, r.height >> l), is3d ? Math.max(1, r.depth >> l) : r.depth];
  const bpp = bytesPerTexel(r.format);
  if (level === 0) {
    const [w, h, d] = dims(0);
    return { base: r.base, pitch: r.pitch, width: w, height: h, depth: d };
  }
  let addr = r.mipBase;
  for (let l = 1; l < level; l++) {
    const [w, h, d] = dims(l);
    addr += Math.ceil(w / 8) * 8 * h * d * bpp;
  }
  const [w, h, d] = dims(level);
  return { base: addr, pitch: Math.ceil(w / 8) * 8, width: w, height: h, depth: d };
}

export function bytesPerTexel(format: number): number {
  const f = formats.get(format);
  return f ? f.bits.reduce((a, b) => a + b, 0) / 8 : 0;
}

/**
 * Read texel (x, y, z) of a level into out[0..3] as numbers: floats for NORM/SCALED/FLOAT formats,
 * 32-bit integer patterns (as unsigned numbers) for NUM_FORMAT INT. Missing components read 0, W 1.
 * Returns a fault when the texel lies outside memory or the format is unknown.
 */
export function readTexel(r: TexResource, lv: TexLevel, mem: DataView, x: number, y: number, z: number, out: Float64Array): TexFault | undefined {
  const f = formats.get(r.format);
  if (!f) return { id: 'r600.tex.format', message: `texture DATA_FORMAT ${r.format} is not modelled` };
  const bpp = bytesPerTexel(r.format);
  const addr = lv.base + ((z * lv.height + y) * lv.pitch + x) * bpp;
  if (addr < 0 || addr + bpp > mem.byteLength) return { id: 'r600.tex.out-of-range', message: `texel (${x}, ${y}, ${z}) at byte ${addr} lies outside memory (${mem.byteLength} bytes)` };
  const isInt = r.numFormat === 1;
  out[0] = 0; out[1] = 0; out[2] = 0; out[3] = isInt ? 1 : 1.0;
  let bit = 0;
  for (let k = 0; k < f.bits.length; k++) {
    const n = f.bits[k]!;
    let raw: number;
    if (n === 32) raw = mem.getUint32(addr + bit / 8, true);
    else {
      // Components up to 16 bits inside at most 4 bytes.
      const byte = addr + (bit >>> 3);
      let word = 0;
      for (let b = 0; b < 4 && byte + b < addr + bpp; b++) word |= mem.getUint8(byte + b) << (8 * b);
      raw = (word >>> (bit & 7)) & ((1 << n) - 1);
    }
    bit += n;
    const comp = r.comp[k]!;
    let v: number;
    if (f.float) v = n === 32 ? ((u32[0] = raw), f32[0]!) : half(raw);
    else if (isInt) v = comp === 1 ? sext(raw, n) >>> 0 : raw >>> 0;
    else {
      const sv = comp === 1 ? (n === 32 ? raw | 0 : sext(raw, n)) : comp === 2 ? raw - 2 ** (n - 1) : raw;
      if (r.numFormat === 2) v = sv;
      else v = comp === 0 ? sv / (2 ** n - 1) : Math.max(sv / (2 ** (n - 1) - 1), -1);
    }
    out[k] = v;
  }
  return undefined;
}

/** Index of texel i along an axis of `size` texels under CLAMP mode m, or -1 for the border color. */
export function wrapIndex(m: number, i: number, size: number): number {
  switch (m) {
    case TEX_CLAMP.WRAP: return ((i % size) + size) % size;
    case TEX_CLAMP.MIRROR: {
      const p = ((i % (2 * size)) + 2 * size) % (2 * size);
      return p < size ? p : 2 * size - 1 - p;
    }
    case TEX_CLAMP.CLAMP_LAST_TEXEL: return i < 0 ? 0 : i >= size ? size - 1 : i;
    case TEX_CLAMP.MIRROR_ONCE_LAST_TEXEL: {
      const j = i < 0 ? -1 - i : i;
      return j >= size ? size - 1 : j;
    }
    default: return i < 0 || i >= size ? -1 : i;
  }
}

/** The texel-space coordinate u after the mode's float-domain part (mirror once, half border). */
export function preWrap(m: number, u: number, size: number): number {
  let v = u;
  if (m === TEX_CLAMP.MIRROR_ONCE_HALF_BORDER || m === TEX_CLAMP.MIRROR_ONCE_BORDER) v = Math.abs(v);
  if (m === TEX_CLAMP.CLAMP_HALF_BORDER || m === TEX_CLAMP.MIRROR_ONCE_HALF_BORDER) v = Math.min(Math.max(v, -0.5), size + 0.5);
  return v;
}

/** DEPTH_COMPARE_FUNCTION applied as `reference OP texel`. */
export function depthCompare(fn: number, ref: number, texel: number): boolean {
  switch (fn) {
    case 0: return false;
    case 1: return ref < texel;
    case 2: return ref === texel;
    case 3: return ref <= texel;
    case 4: return ref > texel;
    case 5: return ref !== texel;
    case 6: return ref >= texel;
    default: return true;
  }
}

/** Per-axis taps of a point or linear filter: texel indices (-1 = border) and weights. */
function taps(mode: number, u: number, size: number, linear: boolean, idx: Int32Array, wt: Float64Array): number {
  const v = preWrap(mode, u, size);
  if (!linear) {
    idx[0] = wrapIndex(mode, Math.floor(v), size);
    wt[0] = 1;
    return 1;
  }
  const x = v - 0.5;
  const i0 = Math.floor(x);
  const a = x - i0;
  idx[0] = wrapIndex(mode, i0, size);
  idx[1] = wrapIndex(mode, i0 + 1, size);
  wt[0] = 1 - a;
  wt[1] = a;
  return 2;
}

const tapI = [new Int32Array(2), new Int32Array(2), new Int32Array(2)];
const tapW = [new Float64Array(2), new Float64Array(2), new Float64Array(2)];
const texel = new Float64Array(4);

export interface SampleParams {
  /** Texel-space coordinates at this level (offsets applied). */
  readonly u: number;
  readonly v: number;
  readonly w: number;
  /** Array layer (arrays) or 0. */
  readonly layer: number;
  readonly linearXY: boolean;
  readonly linearZ: boolean;
  /** Border color (after BORDER_COLOR_TYPE). */
  readonly border: ArrayLike<number>;
  /** Depth compare: function and reference, or compare < 0 for none. */
  readonly compare: number;
  readonly ref: number;
}

/** Filter one level; adds weight * result into acc[0..3]. */
export function sampleLevel(r: TexResource, lv: TexLevel, s: TexSampler, mem: DataView, p: SampleParams, weight: number, acc: Float64Array): TexFault | undefined {
  const dims = r.dim === TEX_DIM.D1 || r.dim === TEX_DIM.D1_ARRAY ? 1 : r.dim === TEX_DIM.D3 ? 3 : 2;
  const intFmt = r.numFormat === 1;
  const nx = taps(s.clamp[0], p.u, lv.width, p.linearXY && !intFmt, tapI[0]!, tapW[0]!);
  const ny = dims >= 2 ? taps(s.clamp[1], p.v, lv.height, p.linearXY && !intFmt, tapI[1]!, tapW[1]!) : ((tapI[1]![0] = 0), (tapW[1]![0] = 1), 1);
  const nz = dims === 3 ? taps(s.clamp[2], p.w, lv.depth, p.linearZ && !intFmt, tapI[2]!, tapW[2]!) : ((tapI[2]![0] = p.layer), (tapW[2]![0] = 1), 1);
  for (let c = 0; c < nz; c++) {
    for (let b = 0; b < ny; b++) {
      for (let a = 0; a < nx; a++) {
        const wgt = weight * tapW[0]![a]! * tapW[1]![b]! * tapW[2]![c]!;
        if (wgt === 0) continue;
        const x = tapI[0]![a]!, y = tapI[1]![b]!, z = tapI[2]![c]!;
        if (x < 0 || y < 0 || z < 0) for (let k = 0; k < 4; k++) texel[k] = p.border[k]!;
        else {
          const fault = readTexel(r, lv, mem, x, y, z, texel);
          if (fault) return fault;
        }
        if (p.compare >= 0) texel.fill(depthCompare(p.compare, p.ref, texel[0]!) ? 1 : 0);
        for (let k = 0; k < 4; k++) acc[k]! += wgt * texel[k]!;
      }
    }
  }
  return undefined;
}

/**
 * GATHER4: the X component of the four texels of the bilinear footprint, in (u0,v1) (u1,v1) (u1,v0)
 * (u0,v0) order; with a depth compare (GATHER4_C*) each texel's compare result (1 or 0) instead.
 */
export function gatherLevel(r: TexResource, lv: TexLevel, s: TexSampler, mem: DataView, p: SampleParams, out: Float64Array): TexFault | undefined {
  taps(s.clamp[0], p.u, lv.width, true, tapI[0]!, tapW[0]!);
  taps(s.clamp[1], p.v, lv.height, true, tapI[1]!, tapW[1]!);
  const order = [[0, 1], [1, 1], [1, 0], [0, 0]] as const;
  for (let k = 0; k < 4; k++) {
    const x = tapI[0]![order[k]![0]]!, y = tapI[1]![order[k]![1]]!;
    let v: number;
    if (x < 0 || y < 0) v = p.border[0]!;
    else {
      const fault = readTexel(r, lv, mem, x, y, p.layer, texel);
      if (fault) return fault;
      v = texel[0]!;
    }
    out[k] = p.compare >= 0 ? (depthCompare(p.compare, p.ref, v) ? 1 : 0) : v;
  }
  return undefined;
}
