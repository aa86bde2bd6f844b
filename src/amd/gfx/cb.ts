/**
 * CB, the colour backend: render targets from CB_COLORn_* (format from CB_COLORn_INFO's enums),
 * the pixel shader's colour exports converted by SPI_SHADER_COL_FORMAT, blending by
 * CB_BLENDn_CONTROL with CB_BLEND_RED..ALPHA, the write mask CB_TARGET_MASK & CB_SHADER_MASK.
 *
 * Surfaces are linear in gpusim (tiling/DCC/FMASK are not modelled): the byte address of sample s
 * of pixel (x, y) is base + ((y * width + x) * samples + s) * bytesPerSample, with width/height
 * from CB_COLORn_ATTRIB2.MIP0_WIDTH/HEIGHT + 1 and samples the rasterizer's sample count.
 * Formats modelled: COLOR_8_8_8_8/NUMBER_UNORM/SWAP_STD (R8G8B8A8_UNORM),
 * COLOR_16_16_16_16/NUMBER_FLOAT (R16G16B16A16_FLOAT), COLOR_32/NUMBER_FLOAT (R32_FLOAT).
 * Blend maths is in f32-rounded doubles; UNORM targets clamp source, destination and result to
 * [0, 1] and store round(x * 255); float targets store the nearest f16 / f32.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import type { Memory } from '../../core/memory.js';
import { f16, f16bits, f32, f32bits } from '../../core/float.js';
import type { GfxRegs } from './regs.js';

export type ColorFormatName = 'R8G8B8A8_UNORM' | 'R16G16B16A16_FLOAT' | 'R32_FLOAT';

export const COLOR_FORMATS: Readonly<Record<ColorFormatName, { format: string; number: string; bytes: number; channels: number }>> = {
  R8G8B8A8_UNORM: { format: 'COLOR_8_8_8_8', number: 'NUMBER_UNORM', bytes: 4, channels: 4 },
  R16G16B16A16_FLOAT: { format: 'COLOR_16_16_16_16', number: 'NUMBER_FLOAT', bytes: 8, channels: 4 },
  R32_FLOAT: { format: 'COLOR_32', number: 'NUMBER_FLOAT', bytes: 4, channels: 1 },
};

export interface ColorTarget {
  readonly index: number;
  readonly va: number;
  readonly width: number;
  readonly height: number;
  readonly samples: number;
  readonly format: ColorFormatName;
  readonly bytes: number;
  /** Channel write mask (CB_TARGET_MASK & CB_SHADER_MASK), bit c = channel c (R, G, B, A). */
  readonly writeMask: number;
  readonly exportFormat: string;
  readonly blend: BlendState | null;
}

export interface BlendState {
  readonly colorSrc: string; readonly colorDst: string; readonly colorFn: string;
  readonly alphaSrc: string; readonly alphaDst: string; readonly alphaFn: string;
}

const rnd = Math.fround;

/** Decode the bound colour targets (null where a target is off or not modelled). */
export function decodeColorTargets(r: GfxRegs, samples: number, diag?: Diagnostics): (ColorTarget | null)[] {
  const out: (ColorTarget | null)[] = [];
  const mode = r.enumOf('CB_COLOR_CONTROL', 'MODE');
  for (let i = 0; i < 8; i++) {
    const info = r.raw(`CB_COLOR${i}_INFO`);
    const fmt = r.enumOf(`CB_COLOR${i}_INFO`, 'FORMAT', info);
    const exportFormat = r.enumOf('SPI_SHADER_COL_FORMAT', `COL${i}_EXPORT_FORMAT`);
    const tmask = (r.raw('CB_TARGET_MASK') >>> (4 * i)) & 15;
    const smask = (r.raw('CB_SHADER_MASK') >>> (4 * i)) & 15;
    if (mode !== 'CB_NORMAL' || fmt === 'COLOR_INVALID' || fmt === '' || tmask === 0 || exportFormat === 'SPI_SHADER_ZERO') {
      out.push(null);
      continue;
    }
    const num = r.enumOf(`CB_COLOR${i}_INFO`, 'NUMBER_TYPE', info);
    const swap = r.enumOf(`CB_COLOR${i}_INFO`, 'COMP_SWAP', info);
    const name = (Object.keys(COLOR_FORMATS) as ColorFormatName[]).find((k) => COLOR_FORMATS[k].format === fmt && COLOR_FORMATS[k].number === num);
    if (!name || (name !== 'R32_FLOAT' && swap !== 'SWAP_STD')) {
      diag?.report({ id: 'amd.cb.format-unsupported', severity: 'error', where: { target: i, format: fmt, number: num, swap }, message: `CB_COLOR${i}_INFO: ${fmt}/${num}/${swap} is not a colour format gpusim models (R8G8B8A8_UNORM, R16G16B16A16_FLOAT, R32_FLOAT); target ${i} is not written` });
      out.push(null);
      continue;
    }
    const b = r.raw(`CB_BLEND${i}_CONTROL`);
    const F = (f: string): string => r.enumOf(`CB_BLEND${i}_CONTROL`, f, b);
    let blend: BlendState | null = null;
    if (r.field(`CB_BLEND${i}_CONTROL`, 'ENABLE', b)) {
      const sep = r.field(`CB_BLEND${i}_CONTROL`, 'SEPARATE_ALPHA_BLEND', b) === 1;
      blend = {
        colorSrc: F('COLOR_SRCBLEND'), colorDst: F('COLOR_DESTBLEND'), colorFn: F('COLOR_COMB_FCN'),
        alphaSrc: sep ? F('ALPHA_SRCBLEND') : F('COLOR_SRCBLEND'), alphaDst: sep ? F('ALPHA_DESTBLEND') : F('COLOR_DESTBLEND'), alphaFn: sep ? F('ALPHA_COMB_FCN') : F('COLOR_COMB_FCN'),
      };
      for (const f of [blend.colorSrc, blend.colorDst, blend.alphaSrc, blend.alphaDst]) {
        if (/SRC1|INV_SRC1/.test(f) || f === '') {
          diag?.report({ id: 'amd.cb.blend-factor-unsupported', severity: 'error', where: { target: i, factor: f }, message: `CB_BLEND${i}_CONTROL uses ${f || 'a reserved factor'}: dual-source and reserved factors are not modelled; blending reads it as ZERO` });
        }
      }
    }
    const a2 = r.raw(`CB_COLOR${i}_ATTRIB2`);
    out.push({
      index: i, va: r.addr256(`CB_COLOR${i}_BASE`, `CB_COLOR${i}_BASE_EXT`, 'BASE_256B'),
      width: r.field(`CB_COLOR${i}_ATTRIB2`, 'MIP0_WIDTH', a2) + 1, height: r.field(`CB_COLOR${i}_ATTRIB2`, 'MIP0_HEIGHT', a2) + 1,
      samples, format: name, bytes: COLOR_FORMATS[name].bytes, writeMask: tmask & smask, exportFormat, blend,
    });
  }
  return out;
}

/** The RGBA a colour export carries under SPI_SHADER_COL_FORMAT (missing channels 0, alpha 1). */
export function exportColor(exportFormat: string, c0: number, c1: number, c2: number, c3: number, out: Float64Array): boolean {
  switch (exportFormat) {
    case 'SPI_SHADER_32_ABGR': out[0] = f32(c0); out[1] = f32(c1); out[2] = f32(c2); out[3] = f32(c3); return true;
    case 'SPI_SHADER_32_R': out[0] = f32(c0); out[1] = 0; out[2] = 0; out[3] = 1; return true;
    case 'SPI_SHADER_32_GR': out[0] = f32(c0); out[1] = f32(c1); out[2] = 0; out[3] = 1; return true;
    case 'SPI_SHADER_32_AR': out[0] = f32(c0); out[1] = 0; out[2] = 0; out[3] = f32(c1); return true;
    case 'SPI_SHADER_FP16_ABGR':
      out[0] = f16(c0 & 0xffff); out[1] = f16(c0 >>> 16); out[2] = f16(c1 & 0xffff); out[3] = f16(c1 >>> 16);
      return true;
    default: return false;
  }
}

/** Read sample `s` of pixel (x, y) as RGBA. */
export function readSample(mem: Memory, t: ColorTarget, x: number, y: number, s: number, out: Float64Array): void {
  const a = t.va + ((y * t.width + x) * t.samples + s) * t.bytes;
  switch (t.format) {
    case 'R8G8B8A8_UNORM': {
      const v = mem.read32(a);
      for (let c = 0; c < 4; c++) out[c] = ((v >>> (8 * c)) & 0xff) / 255;
      break;
    }
    case 'R16G16B16A16_FLOAT': {
      const lo = mem.read32(a), hi = mem.read32(a + 4);
      out[0] = f16(lo & 0xffff); out[1] = f16(lo >>> 16); out[2] = f16(hi & 0xffff); out[3] = f16(hi >>> 16);
      break;
    }
    case 'R32_FLOAT': out[0] = f32(mem.read32(a)); out[1] = 0; out[2] = 0; out[3] = 1; break;
  }
}

function unorm8(x: number): number {
  if (!(x > 0)) return 0;
  if (x >= 1) return 255;
  return Math.floor(x * 255 + 0.5);
}

/** Write channels enabled in `mask` of sample `s` of pixel (x, y). */
export function writeSample(mem: Memory, t: ColorTarget, x: number, y: number, s: number, rgba: Float64Array, mask: number): void {
  const a = t.va + ((y * t.width + x) * t.samples + s) * t.bytes;
  switch (t.format) {
    case 'R8G8B8A8_UNORM': {
      let v = mem.read32(a);
      for (let c = 0; c < 4; c++) if ((mask >> c) & 1) v = (v & ~(0xff << (8 * c))) | (unorm8(rgba[c]!) << (8 * c));
      mem.write32(a, v >>> 0);
      break;
    }
    case 'R16G16B16A16_FLOAT': {
      for (let c = 0; c < 4; c++) if ((mask >> c) & 1) mem.write16(a + 2 * c, f16bits(rgba[c]!));
      break;
    }
    case 'R32_FLOAT': if (mask & 1) mem.write32(a, f32bits(rgba[0]!)); break;
  }
}

function factor(name: string, src: Float64Array, dst: Float64Array, k: Float64Array, c: number): number {
  const alpha = c === 3;
  switch (name) {
    case 'BLEND_ZERO': return 0;
    case 'BLEND_ONE': return 1;
    case 'BLEND_SRC_COLOR': return src[c]!;
    case 'BLEND_ONE_MINUS_SRC_COLOR': return 1 - src[c]!;
    case 'BLEND_SRC_ALPHA': return src[3]!;
    case 'BLEND_ONE_MINUS_SRC_ALPHA': return 1 - src[3]!;
    case 'BLEND_DST_ALPHA': return dst[3]!;
    case 'BLEND_ONE_MINUS_DST_ALPHA': return 1 - dst[3]!;
    case 'BLEND_DST_COLOR': return dst[c]!;
    case 'BLEND_ONE_MINUS_DST_COLOR': return 1 - dst[c]!;
    case 'BLEND_SRC_ALPHA_SATURATE': return alpha ? 1 : Math.min(src[3]!, 1 - dst[3]!);
    case 'BLEND_CONSTANT_COLOR': return k[c]!;
    case 'BLEND_ONE_MINUS_CONSTANT_COLOR': return 1 - k[c]!;
    case 'BLEND_CONSTANT_ALPHA': return k[3]!;
    case 'BLEND_ONE_MINUS_CONSTANT_ALPHA': return 1 - k[3]!;
    default: return 0;
  }
}

function combine(fn: string, s: number, d: number): number {
  switch (fn) {
    case 'COMB_DST_PLUS_SRC': return s + d;
    case 'COMB_SRC_MINUS_DST': return s - d;
    case 'COMB_DST_MINUS_SRC': return d - s;
    case 'COMB_MIN_DST_SRC': return Math.min(s, d);
    case 'COMB_MAX_DST_SRC': return Math.max(s, d);
    default: return s;
  }
}

/** Blend `src` over `dst` into `out` (channel by channel, f32 rounding after each step). */
export function blend(b: BlendState, unorm: boolean, src: Float64Array, dst: Float64Array, k: Float64Array, out: Float64Array): void {
  const cl = (x: number): number => (unorm ? Math.min(1, Math.max(0, x)) : x);
  const s = new Float64Array(4), d = new Float64Array(4), kk = new Float64Array(4);
  for (let c = 0; c < 4; c++) { s[c] = cl(src[c]!); d[c] = cl(dst[c]!); kk[c] = cl(k[c]!); }
  for (let c = 0; c < 4; c++) {
    const a = c === 3;
    const fn = a ? b.alphaFn : b.colorFn;
    // MIN/MAX ignore the factors (D3D/Vulkan semantics).
    if (fn === 'COMB_MIN_DST_SRC' || fn === 'COMB_MAX_DST_SRC') { out[c] = cl(combine(fn, s[c]!, d[c]!)); continue; }
    const fs = rnd(factor(a ? b.alphaSrc : b.colorSrc, s, d, kk, c));
    const fd = rnd(factor(a ? b.alphaDst : b.colorDst, s, d, kk, c));
    out[c] = cl(rnd(combine(fn, rnd(s[c]! * fs), rnd(d[c]! * fd))));
  }
}
