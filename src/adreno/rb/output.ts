/**
 * RB (seed 004 "RB", "Depth Formats"): per-sample depth and stencil tests (RB_DEPTH_CNTL,
 * RB_STENCIL_CONTROL / REF / MASK / WRMASK), blending (RB_MRT[i].CONTROL, BLEND_CONTROL,
 * RB_BLEND_*_F32, RB_BLEND_CNTL SAMPLE_MASK) and the render-target writes (RB_MRT[i].BUF_INFO /
 * PITCH / BASE; FMT6 through rb/fmt6.ts, TILE6_LINEAR or TILE6_3 through ubwc/tile6.ts). In
 * sysmem a multisampled surface stores the samples of a pixel next to each other (cpp x samples
 * per pixel, as fdl6 lays them out).
 *
 * Surfaces are an interface: sysmem surfaces over GPU memory here; the GMEM path supplies its own.
 */
import type { Memory } from '../../core/memory.js';
import { surfaceOffset, type Tile6Config, type TileMode } from '../ubwc/tile6.js';
import type { Fmt6 } from './fmt6.js';
import { clampZ, type ZRange } from '../gras/zclamp.js';

export type Rgba = [number, number, number, number];

/** A colour surface: samples of pixels as RGBA floats. */
export interface ColorSurface {
  readonly fmt: Fmt6;
  /** UNORM formats clamp blend inputs to [0, 1]. */
  readonly unorm: boolean;
  read(x: number, y: number, s: number): Rgba;
  write(x: number, y: number, s: number, c: Rgba): void;
}

/** A depth surface (D16, D24 in Z24S8, D32F) with the stencil it carries (Z24S8) or a separate S8 plane. */
export interface DepthSurface {
  readonly format: 'DEPTH6_16' | 'DEPTH6_24_8' | 'DEPTH6_32';
  readDepth(x: number, y: number, s: number): number;
  writeDepth(x: number, y: number, s: number, z: number): void;
}
export interface StencilSurface {
  readStencil(x: number, y: number, s: number): number;
  writeStencil(x: number, y: number, s: number, v: number): void;
}

/** Where a sysmem surface lives. */
export interface SysmemPlacement {
  readonly mem: Memory;
  readonly base: number;
  /** Row pitch in bytes. */
  readonly pitch: number;
  readonly cpp: number;
  readonly samples: number;
  readonly tile: TileMode;
  readonly tile6: Tile6Config;
}

function addr(p: SysmemPlacement, x: number, y: number, s: number): number {
  return p.base + surfaceOffset(x, y, p.pitch, p.cpp * p.samples, p.tile, p.tile6) + s * p.cpp;
}

export function sysmemColor(p: SysmemPlacement, fmt: Fmt6, swap: (c: Rgba) => Rgba): ColorSurface {
  // The surface lies in one mapped segment (the CP checked): unpack / pack in place.
  const seg = p.mem.find(p.base, 1);
  const at = (x: number, y: number, s: number): [Uint8Array, number] | undefined => {
    const a = addr(p, x, y, s);
    return seg && a + fmt.cpp <= seg.end ? [seg.u8, a - seg.base] : undefined;
  };
  return {
    fmt,
    unorm: fmt.name.endsWith('_UNORM'),
    read(x, y, s) {
      const w = at(x, y, s);
      return swap(w ? fmt.unpack(w[0], w[1]) : fmt.unpack(p.mem.readBytes(addr(p, x, y, s), fmt.cpp), 0));
    },
    write(x, y, s, c) {
      const w = at(x, y, s);
      if (w) return fmt.pack(swap(c), w[0], w[1]);
      const b = new Uint8Array(fmt.cpp);
      fmt.pack(swap(c), b, 0);
      p.mem.writeBytes(addr(p, x, y, s), b);
    },
  };
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function sysmemDepth(p: SysmemPlacement, format: DepthSurface['format']): DepthSurface & StencilSurface {
  return {
    format,
    readDepth(x, y, s) {
      const a = addr(p, x, y, s);
      if (format === 'DEPTH6_16') return p.mem.read16(a) / 0xffff;
      if (format === 'DEPTH6_24_8') return (p.mem.read32(a) & 0xffffff) / 0xffffff;
      u32[0] = p.mem.read32(a);
      return f32[0]!;
    },
    writeDepth(x, y, s, z) {
      const a = addr(p, x, y, s);
      if (format === 'DEPTH6_16') p.mem.write16(a, Math.round(z * 0xffff));
      else if (format === 'DEPTH6_24_8') p.mem.write32(a, ((p.mem.read32(a) & 0xff000000) | Math.round(z * 0xffffff)) >>> 0);
      else {
        f32[0] = z;
        p.mem.write32(a, u32[0]!);
      }
    },
    // Z24S8 keeps the stencil in the top byte.
    readStencil(x, y, s) {
      return p.mem.read32(addr(p, x, y, s)) >>> 24;
    },
    writeStencil(x, y, s, v) {
      const a = addr(p, x, y, s);
      p.mem.write32(a, ((p.mem.read32(a) & 0xffffff) | ((v & 0xff) << 24)) >>> 0);
    },
  };
}

/** The separate S8 plane (RB_STENCIL_INFO SEPARATE_STENCIL): one byte per sample. */
export function sysmemStencil(p: SysmemPlacement): StencilSurface {
  return {
    readStencil: (x, y, s) => p.mem.read8(addr(p, x, y, s)),
    writeStencil: (x, y, s, v) => p.mem.write8(addr(p, x, y, s), v & 0xff),
  };
}

/** Depth values as the format stores them, so comparisons see what is stored. */
export function quantizeDepth(format: DepthSurface['format'], z: number): number {
  if (format === 'DEPTH6_16') return Math.round(Math.min(1, Math.max(0, z)) * 0xffff) / 0xffff;
  if (format === 'DEPTH6_24_8') return Math.round(Math.min(1, Math.max(0, z)) * 0xffffff) / 0xffffff;
  return Math.fround(z);
}

/** adreno_compare_func by value: NEVER LESS EQUAL LEQUAL GREATER NOTEQUAL GEQUAL ALWAYS. */
export function compare(func: number, a: number, b: number): boolean {
  switch (func & 7) {
    case 0: return false;
    case 1: return a < b;
    case 2: return a === b;
    case 3: return a <= b;
    case 4: return a > b;
    case 5: return a !== b;
    case 6: return a >= b;
    default: return true;
  }
}

/** adreno_stencil_op by value. */
export function stencilOp(op: number, cur: number, ref: number): number {
  switch (op & 7) {
    case 0: return cur;
    case 1: return 0;
    case 2: return ref & 0xff;
    case 3: return Math.min(255, cur + 1);
    case 4: return Math.max(0, cur - 1);
    case 5: return ~cur & 0xff;
    case 6: return (cur + 1) & 0xff;
    default: return (cur - 1) & 0xff;
  }
}

export interface StencilFace {
  readonly func: number;
  readonly fail: number;
  readonly zpass: number;
  readonly zfail: number;
  readonly ref: number;
  readonly mask: number;
  readonly wrmask: number;
}

export interface DepthStencilState {
  readonly zTest: boolean;
  readonly zWrite: boolean;
  readonly zFunc: number;
  readonly stencil: boolean;
  readonly front: StencilFace;
  readonly back: StencilFace;
  /** RB_STENCIL_CONTROL STENCIL_ENABLE_BF: back faces use the BF state. */
  readonly twoSided: boolean;
  /** RB_DEPTH_CNTL Z_BOUNDS_ENABLE: RB_Z_BOUNDS_MIN / _MAX against the stored depth. */
  readonly zBounds?: readonly [number, number];
  /** RB_DEPTH_CNTL Z_CLAMP_ENABLE: the fragment's depth clamped to RB_Z_CLAMP_MIN / _MAX before the test and write (gras/zclamp.ts). */
  readonly zClamp?: ZRange;
}

export interface MrtBlend {
  readonly blend: boolean;
  readonly componentEnable: number;
  /** adreno_rb_blend_factor / a3xx_rb_blend_opcode values. */
  readonly rgbSrc: number;
  readonly rgbOp: number;
  readonly rgbDst: number;
  readonly aSrc: number;
  readonly aOp: number;
  readonly aDst: number;
  /** RB_MRT[i].CONTROL ROP_ENABLE: the a3xx_rop_code ROP_CODE (replaces blending). */
  readonly rop?: number;
}

/** adreno_rb_blend_factor by value (src, dst, constant colours, the second source colour of dual-source blending). */
export function blendFactor(f: number, src: Rgba, dst: Rgba, k: Rgba, comp: number, src1?: Rgba): number {
  const a = comp === 3;
  switch (f) {
    case 0: return 0;
    case 1: return 1;
    case 4: return src[comp]!;
    case 5: return 1 - src[comp]!;
    case 6: return src[3];
    case 7: return 1 - src[3];
    case 8: return dst[comp]!;
    case 9: return 1 - dst[comp]!;
    case 10: return dst[3];
    case 11: return 1 - dst[3];
    case 12: return k[comp]!;
    case 13: return 1 - k[comp]!;
    case 14: return k[3];
    case 15: return 1 - k[3];
    case 16: return a ? 1 : Math.min(src[3], 1 - dst[3]);
    // SRC1 factors (dual-source blending): without a second colour they read as NaN (the caller reports).
    case 20: return src1 ? src1[comp]! : NaN;
    case 21: return src1 ? 1 - src1[comp]! : NaN;
    case 22: return src1 ? src1[3] : NaN;
    case 23: return src1 ? 1 - src1[3] : NaN;
    default: return NaN;
  }
}

function blendOp(op: number, s: number, d: number): number {
  switch (op) {
    case 0: return s + d;
    case 1: return s - d;
    case 2: return d - s;
    case 3: return Math.min(s, d);
    default: return Math.max(s, d);
  }
}

/** Blend a source colour over a destination (MIN/MAX ignore the factors). */
export function blend(b: MrtBlend, src: Rgba, dst: Rgba, k: Rgba, src1?: Rgba): Rgba {
  const out: Rgba = [0, 0, 0, 0];
  for (let c = 0; c < 4; c++) {
    const a = c === 3;
    const op = a ? b.aOp : b.rgbOp;
    const sf = blendFactor(a ? b.aSrc : b.rgbSrc, src, dst, k, c, src1);
    const df = blendFactor(a ? b.aDst : b.rgbDst, src, dst, k, c, src1);
    out[c] = op >= 3 ? blendOp(op, src[c]!, dst[c]!) : blendOp(op, src[c]! * sf, dst[c]! * df);
  }
  return out;
}

/** sRGB transfer functions (RB_SRGB_CNTL: the RB decodes the destination and encodes what it writes). */
export const srgbToLinear = (v: number): number => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
export const linearToSrgb = (v: number): number => (v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055);

/** Bits per component and kind of a colour format from its FMT6 name (8_8_8_8_UNORM: [8, 8, 8, 8], UNORM). */
export function formatBits(name: string): { widths: number[]; kind: string } {
  const parts = name.replace(/^FMT6_/, '').split('_');
  return { widths: parts.filter((p) => /^\d+$/.test(p)).map(Number), kind: parts.filter((p) => !/^\d+$/.test(p)).join('_') };
}

/**
 * A logic op (a3xx_rop_code: bit (s << 1 | d) of the code is the result for source bit s and
 * destination bit d) on the stored integer values of a normalized or integer format; float
 * formats ignore it (the source is written). UNORM values are the format's codes.
 */
export function logicOp(code: number, fmtName: string, src: Rgba, dst: Rgba): Rgba {
  const { widths, kind } = formatBits(fmtName);
  if (kind !== 'UNORM') return src;
  const out: Rgba = [...dst];
  widths.forEach((w, c) => {
    const max = 2 ** w - 1;
    const s = Math.round(Math.min(1, Math.max(0, Number.isNaN(src[c]!) ? 0 : src[c]!)) * max);
    const d = Math.round(dst[c]! * max);
    const r = ((code & 1 ? ~s & ~d : 0) | (code & 2 ? ~s & d : 0) | (code & 4 ? s & ~d : 0) | (code & 8 ? s & d : 0)) & max;
    out[c] = r / max;
  });
  return out;
}

export interface RbTargets {
  readonly colors: readonly (ColorSurface | undefined)[];
  readonly depth?: DepthSurface;
  readonly stencil?: StencilSurface;
}

export interface RbState {
  readonly ds: DepthStencilState;
  readonly mrt: readonly MrtBlend[];
  readonly blendConst: Rgba;
  /** RB_BLEND_CNTL SAMPLE_MASK. */
  readonly sampleMask: number;
  readonly samples: number;
  /** RB_SRGB_CNTL SRGB_MRTn, bit per target. */
  readonly srgb?: number;
  /** RB_FS_OUTPUT_CNTL0 DUAL_COLOR_IN_ENABLE: the FS's second output is the SRC1 colour of target 0. */
  readonly dualSource?: boolean;
}

export interface RbStats {
  samplesPassed: number;
  samplesWritten: number;
}

const UNIT_Z = { min: 0, max: 1 };

/** One fragment through depth/stencil, blend and the colour writes. */
export function rbFragment(st: RbState, t: RbTargets, x: number, y: number, mask: number, z: Float32Array, front: boolean, colors: readonly Float32Array[], stats: RbStats): void {
  mask &= st.sampleMask;
  const ds = st.ds;
  const face = !front && ds.twoSided ? ds.back : ds.front;
  const d = t.depth;
  for (let s = 0; s < st.samples; s++) {
    if (!(mask & (1 << s))) continue;
    // Depth bounds (before stencil and depth): the stored depth within [min, max], else the sample is dropped.
    if (ds.zBounds && d) {
      const stored = d.readDepth(x, y, s);
      if (stored < ds.zBounds[0] || stored > ds.zBounds[1]) continue;
    }
    let sval = 0;
    if (ds.stencil && t.stencil) {
      sval = t.stencil.readStencil(x, y, s);
      if (!compare(face.func, face.ref & face.mask, sval & face.mask)) {
        t.stencil.writeStencil(x, y, s, (sval & ~face.wrmask) | (stencilOp(face.fail, sval, face.ref) & face.wrmask));
        continue;
      }
    }
    let zpass = true;
    let zq = 0;
    if (ds.zTest && d) {
      // Clamped to RB_Z_CLAMP with Z_CLAMP_ENABLE, else to [0, 1]: the a6xx RB clamps by itself
      // (fd6 forces the clamp on with [0, 1] only from a7xx on, "the hw doesn't do the clamping for us").
      zq = quantizeDepth(d.format, clampZ(z[s]!, ds.zClamp ?? UNIT_Z));
      zpass = compare(ds.zFunc, zq, d.readDepth(x, y, s));
    }
    if (ds.stencil && t.stencil) {
      const nv = stencilOp(zpass ? face.zpass : face.zfail, sval, face.ref);
      t.stencil.writeStencil(x, y, s, (sval & ~face.wrmask) | (nv & face.wrmask));
    }
    if (!zpass) continue;
    stats.samplesPassed++;
    if (ds.zTest && ds.zWrite && d) d.writeDepth(x, y, s, zq);
    const src1 = st.dualSource && colors[1] ? ([colors[1][0]!, colors[1][1]!, colors[1][2]!, colors[1][3]!] as Rgba) : undefined;
    t.colors.forEach((surf, i) => {
      const b = st.mrt[i];
      const src = colors[i];
      // Dual-source: the second FS output is target 0's SRC1 colour, not a target of its own.
      if (!surf || !b || !src || !b.componentEnable || (st.dualSource && i > 0)) return;
      let c: Rgba = [src[0]!, src[1]!, src[2]!, src[3]!];
      if (surf.unorm) c = c.map((v) => (Number.isNaN(v) ? 0 : Math.min(1, Math.max(0, v)))) as Rgba;
      const raw = surf.read(x, y, s);
      const srgb = ((st.srgb ?? 0) >> i) & 1;
      const dst: Rgba = srgb ? [srgbToLinear(raw[0]), srgbToLinear(raw[1]), srgbToLinear(raw[2]), raw[3]] : raw;
      if (b.rop !== undefined) c = logicOp(b.rop, surf.fmt.name, c, raw);
      else if (b.blend) c = blend(b, c, dst, st.blendConst, src1);
      if (srgb && b.rop === undefined) for (let k = 0; k < 3; k++) c[k] = linearToSrgb(Math.min(1, Math.max(0, c[k]!)));
      for (let k = 0; k < 4; k++) if (!(b.componentEnable & (1 << k))) c[k] = raw[k]!;
      surf.write(x, y, s, c);
      stats.samplesWritten++;
    });
  }
}
