/**
 * The JSON frame description `gpusim adreno display` reads: the mode line, the surfaces in
 * memory, the layers (one per SSPP rectangle), the mixer, the DSPP and the commit timeline. Every
 * object is checked for unknown keys (named with their path) and every value for its type and
 * range; a bad file is an InputError of one line. The format is documented in docs/adreno.md
 * ("Display").
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../../core/errors.js';
import { FORMATS, alphaByte, packRgb, writeWord, type Format, type RgbFormat, type YuvFormat } from './format.js';
import { CSC_PRESETS, PIPES, multirectMode, type Csc, type PipeLayer, type PipeName, type Rect, type Surface } from './sspp.js';
import { MAX_BLEND_STAGES, blendMode, type AlphaCfg, type AlphaSel, type BlendConfig, type DimLayer } from './mixer.js';
import { GAMUT_SIZES, IGC_TBL_LEN, PA_VLUT_SIZE, PCC_TERMS, PGC_TBL_LEN, DITHER_MATRIX_SZ, type DsppConfig, type Lut3, type MemColor } from './dspp.js';
import { REG_GROUPS, SEED_TYPICAL_US, type CommitDesc, type RegGroup, type TimelineConfig } from './commit.js';
import type { ModeLine } from './timing.js';
import { defaultPitch, linearToTile6 } from '../ubwc/tile6.js';
import { linearToUbwc, ubwcLayout } from '../ubwc/ubwc.js';

export interface FrameLayer extends PipeLayer {
  readonly stage: number;
  readonly blend: BlendConfig;
}

export interface Frame {
  readonly mode: ModeLine;
  readonly surfaces: ReadonlyMap<string, Surface>;
  readonly layers: readonly FrameLayer[];
  readonly border: readonly [number, number, number, number];
  readonly dims: readonly DimLayer[];
  readonly dspp: DsppConfig;
  readonly timeline: TimelineConfig;
}

type Obj = Record<string, unknown>;

function obj(v: unknown, path: string, keys: readonly string[], required: readonly string[] = []): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new InputError(`${path}: expected an object`);
  for (const k of Object.keys(v)) if (!keys.includes(k)) throw new InputError(`unknown key '${path ? `${path}.` : ''}${k}' (allowed: ${keys.join(', ')})`);
  for (const k of required) if (!(k in v)) throw new InputError(`${path ? `${path}: ` : ''}missing key '${k}'`);
  return v as Obj;
}

function num(v: unknown, path: string, lo = -Infinity, hi = Infinity, int = false): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || (int && !Number.isInteger(v)) || v < lo || v > hi)
    throw new InputError(`${path}: expected ${int ? 'an integer' : 'a number'}${lo > -Infinity ? ` in ${lo}..${hi}` : ''}, got ${JSON.stringify(v)}`);
  return v;
}
const int = (v: unknown, path: string, lo = -Infinity, hi = Infinity): number => num(v, path, lo, hi, true);

function arr(v: unknown, path: string, len?: number): unknown[] {
  if (!Array.isArray(v)) throw new InputError(`${path}: expected an array`);
  if (len !== undefined && v.length !== len) throw new InputError(`${path}: expected ${len} entries, got ${v.length}`);
  return v;
}
const nums = (v: unknown, path: string, len: number | undefined, lo: number, hi: number, isInt = true): number[] => arr(v, path, len).map((x, i) => num(x, `${path}[${i}]`, lo, hi, isInt));

function oneOf<T extends string>(v: unknown, path: string, options: readonly T[]): T {
  if (typeof v !== 'string' || !options.includes(v as T)) throw new InputError(`${path}: expected one of ${options.join(', ')}, got ${JSON.stringify(v)}`);
  return v as T;
}
const bool = (v: unknown, path: string): boolean => {
  if (typeof v !== 'boolean') throw new InputError(`${path}: expected true or false`);
  return v;
};

function rect(v: unknown, path: string): Rect {
  const [x, y, w, h] = nums(v, path, 4, 0, 65535);
  if (!w || !h) throw new InputError(`${path}: width and height must be positive`);
  return { x: x!, y: y!, w: w!, h: h! };
}

function parseMode(v: unknown): ModeLine {
  const m = obj(v, 'mode', ['clock_khz', 'hdisplay', 'hsync_start', 'hsync_end', 'htotal', 'vdisplay', 'vsync_start', 'vsync_end', 'vtotal', 'vrefresh'], ['clock_khz', 'hdisplay', 'hsync_start', 'hsync_end', 'htotal', 'vdisplay', 'vsync_start', 'vsync_end', 'vtotal']);
  const i = (k: string): number => int(m[k], `mode.${k}`, 1, 1 << 24);
  return {
    clockKhz: num(m['clock_khz'], 'mode.clock_khz', 1, 1e7),
    hdisplay: i('hdisplay'), hsyncStart: i('hsync_start'), hsyncEnd: i('hsync_end'), htotal: i('htotal'),
    vdisplay: i('vdisplay'), vsyncStart: i('vsync_start'), vsyncEnd: i('vsync_end'), vtotal: i('vtotal'),
    ...(m['vrefresh'] !== undefined ? { vrefresh: num(m['vrefresh'], 'mode.vrefresh', 1, 1000) } : {}),
  };
}

/** Chroma plane size of a YUV surface. */
export function chromaSize(f: YuvFormat, w: number, h: number): { cw: number; ch: number } {
  return { cw: Math.ceil(w / 2), ch: f.chroma === '420' ? Math.ceil(h / 2) : h };
}

/** Linear planes and pitches of a YUV surface from its Y, Cb and Cr samples. */
export function packYuv(f: YuvFormat, w: number, h: number, y: readonly number[], cb: readonly number[], cr: readonly number[]): { planes: Uint8Array[]; pitches: number[] } {
  const { cw, ch } = chromaSize(f, w, h);
  if (f.layout === 'packed') {
    const p = new Uint8Array(cw * 4 * h);
    for (let r = 0; r < h; r++)
      for (let x = 0; x < w; x++) {
        p[r * cw * 4 + (x >> 1) * 4 + f.packed![(x & 1) * 2]!] = y[r * w + x]!;
        if ((x & 1) === 0) {
          p[r * cw * 4 + (x >> 1) * 4 + f.packed![1]!] = cb[r * cw + (x >> 1)]!;
          p[r * cw * 4 + (x >> 1) * 4 + f.packed![3]!] = cr[r * cw + (x >> 1)]!;
        }
      }
    return { planes: [p], pitches: [cw * 4] };
  }
  const yp = Uint8Array.from(y);
  if (f.layout === 'semiplanar') {
    const uv = new Uint8Array(cw * 2 * ch);
    for (let i = 0; i < cw * ch; i++) {
      uv[i * 2 + (f.cbFirst ? 0 : 1)] = cb[i]!;
      uv[i * 2 + (f.cbFirst ? 1 : 0)] = cr[i]!;
    }
    return { planes: [yp, uv], pitches: [w, cw * 2] };
  }
  return { planes: f.cbFirst ? [yp, Uint8Array.from(cb), Uint8Array.from(cr)] : [yp, Uint8Array.from(cr), Uint8Array.from(cb)], pitches: [w, cw, cw] };
}

/** Tightly packed linear bytes of an RGB surface from per-pixel component values. */
export function packRgbPixels(f: RgbFormat, w: number, h: number, px: (x: number, y: number) => readonly number[]): Uint8Array {
  const out = new Uint8Array(w * h * f.cpp);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const [r, g, b, a] = px(x, y);
      writeWord(out, (y * w + x) * f.cpp, f.cpp, packRgb(f, r!, g!, b!, a ?? 0));
    }
  return out;
}

/** Lay tightly packed RGB bytes out as the surface layout stores them. */
export function layoutRgb(f: RgbFormat, w: number, h: number, lin: Uint8Array, layout: Surface['layout'], pitch?: number): { plane: Uint8Array; pitch: number } {
  if (layout === 'linear') {
    const p = pitch ?? w * f.cpp;
    const out = new Uint8Array(p * h);
    for (let y = 0; y < h; y++) out.set(lin.subarray(y * w * f.cpp, (y + 1) * w * f.cpp), y * p);
    return { plane: out, pitch: p };
  }
  if (layout === 'tile6_3') {
    const p = pitch ?? defaultPitch(w, f.cpp, 'tile6_3');
    return { plane: linearToTile6(lin, w, h, f.cpp, p), pitch: p };
  }
  const lay = ubwcLayout(w, h, f.cpp, pitch);
  const ab = alphaByte(f);
  return { plane: linearToUbwc(lin, lay, ab >= 0 ? { alphaByte: ab } : undefined), pitch: lay.pitch };
}

function parseBuffer(name: string, v: unknown, base: string): Surface {
  const path = `buffers.${name}`;
  const b = obj(v, path, ['format', 'width', 'height', 'layout', 'pitch', 'pixels', 'pattern', 'planes', 'file'], ['format', 'width', 'height']);
  const fname = typeof b['format'] === 'string' ? b['format'] : '';
  const format: Format | undefined = FORMATS.get(fname);
  if (!format) throw new InputError(`${path}.format: unknown format ${JSON.stringify(b['format'])} (known: ${[...FORMATS.keys()].join(', ')})`);
  const w = int(b['width'], `${path}.width`, 1, 8192);
  const h = int(b['height'], `${path}.height`, 1, 8192);
  const layout = b['layout'] === undefined ? 'linear' : oneOf(b['layout'], `${path}.layout`, ['linear', 'tile6_3', 'ubwc'] as const);
  const pitch = b['pitch'] === undefined ? undefined : int(b['pitch'], `${path}.pitch`, 1, 1 << 20);
  const sources = ['pixels', 'pattern', 'planes', 'file'].filter((k) => b[k] !== undefined);
  if (sources.length !== 1) throw new InputError(`${path}: give exactly one of pixels, pattern, planes, file (got ${sources.length ? sources.join(', ') : 'none'})`);
  if (format.kind === 'rgb' && layout !== 'linear' && format.cpp !== 4) throw new InputError(`${path}: ${layout} is modelled for 32-bit formats (the seed's 256-byte macrotile at cpp 4), not ${format.name}`);
  if (format.kind === 'yuv' && layout !== 'linear') throw new InputError(`${path}: tiled/UBWC YUV is not modelled`);
  if (pitch !== undefined && format.kind === 'rgb' && layout === 'linear' && pitch < w * format.cpp) throw new InputError(`${path}.pitch: ${pitch} is less than width * ${format.cpp}`);
  if (pitch !== undefined && format.kind === 'yuv') throw new InputError(`${path}.pitch: YUV surfaces use tight pitches`);
  if (b['file'] !== undefined) {
    if (typeof b['file'] !== 'string') throw new InputError(`${path}.file: expected a path`);
    const file = resolve(base, b['file']);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(file));
    } catch {
      throw new InputError(`${path}.file: cannot read '${b['file']}'`);
    }
    if (format.kind === 'rgb') {
      const p = layout === 'ubwc' ? ubwcLayout(w, h, format.cpp, pitch).pitch : (pitch ?? defaultPitch(w, format.cpp, layout));
      const need = layout === 'ubwc' ? ((l) => l.dataOffset + l.dataSize)(ubwcLayout(w, h, format.cpp, pitch)) : layout === 'tile6_3' ? p * Math.ceil(h / 16) * 16 : p * h;
      if (bytes.length < need) throw new InputError(`${path}.file: ${bytes.length} bytes, the ${layout} surface needs ${need}`);
      return { name, format, width: w, height: h, layout, planes: [bytes], pitches: [p] };
    }
    const { cw, ch } = chromaSize(format, w, h);
    const sizes = format.layout === 'packed' ? [cw * 4 * h] : format.layout === 'semiplanar' ? [w * h, cw * 2 * ch] : [w * h, cw * ch, cw * ch];
    const need = sizes.reduce((a, s) => a + s, 0);
    if (bytes.length < need) throw new InputError(`${path}.file: ${bytes.length} bytes, ${format.name} ${w}x${h} needs ${need}`);
    let off = 0;
    const planes = sizes.map((s) => bytes.subarray(off, (off += s)));
    const pitches = format.layout === 'packed' ? [cw * 4] : format.layout === 'semiplanar' ? [w, cw * 2] : [w, cw, cw];
    return { name, format, width: w, height: h, layout, planes, pitches };
  }
  if (format.kind === 'yuv') {
    if (b['planes'] === undefined) throw new InputError(`${path}: a YUV buffer takes 'planes' {y, cb, cr} (or 'file')`);
    const p = obj(b['planes'], `${path}.planes`, ['y', 'cb', 'cr'], ['y', 'cb', 'cr']);
    const { cw, ch } = chromaSize(format, w, h);
    const y = nums(p['y'], `${path}.planes.y`, w * h, 0, 255);
    const cb = nums(p['cb'], `${path}.planes.cb`, cw * ch, 0, 255);
    const cr = nums(p['cr'], `${path}.planes.cr`, cw * ch, 0, 255);
    return { name, format, width: w, height: h, layout, ...packYuv(format, w, h, y, cb, cr) };
  }
  if (b['planes'] !== undefined) throw new InputError(`${path}.planes: only YUV buffers take planes; give pixels or pattern`);
  const max = [format.r[1], format.g[1], format.b[1], format.a[1]].map((bits) => (1 << bits) - 1);
  let px: (x: number, y: number) => readonly number[];
  if (b['pixels'] !== undefined) {
    const rows = arr(b['pixels'], `${path}.pixels`, w * h).map((p, i) => nums(p, `${path}.pixels[${i}]`, 4, 0, 1023));
    rows.forEach((p, i) => p.forEach((c, k) => { if (c > max[k]! && max[k]! > 0) throw new InputError(`${path}.pixels[${i}][${k}]: ${c} exceeds ${format.name}'s ${max[k]}`); }));
    px = (x, y) => rows[y * w + x]!;
  } else {
    const pat = obj(b['pattern'], `${path}.pattern`, ['kind', 'size', 'colors', 'color'], ['kind']);
    const kind = oneOf(pat['kind'], `${path}.pattern.kind`, ['checker', 'gradient', 'solid'] as const);
    if (kind === 'solid') {
      const c = nums(pat['color'], `${path}.pattern.color`, 4, 0, 1023);
      px = () => c;
    } else if (kind === 'checker') {
      const size = int(pat['size'] ?? 4, `${path}.pattern.size`, 1, 4096);
      const cols = arr(pat['colors'], `${path}.pattern.colors`, 2).map((c, i) => nums(c, `${path}.pattern.colors[${i}]`, 4, 0, 1023));
      px = (x, y) => cols[(Math.floor(x / size) + Math.floor(y / size)) & 1]!;
    } else {
      px = (x, y) => [Math.round((x * max[0]!) / Math.max(1, w - 1)), Math.round((y * max[1]!) / Math.max(1, h - 1)), max[2]! >> 1, max[3]!];
    }
  }
  const { plane, pitch: p } = layoutRgb(format, w, h, packRgbPixels(format, w, h, px), layout, pitch);
  return { name, format, width: w, height: h, layout, planes: [plane], pitches: [p] };
}

function parseCsc(v: unknown, path: string): Csc {
  if (typeof v === 'string') {
    const c = CSC_PRESETS[v];
    if (!c) throw new InputError(`${path}: unknown CSC preset '${v}' (${Object.keys(CSC_PRESETS).join(', ')})`);
    return c;
  }
  const c = obj(v, path, ['matrix', 'pre_bias', 'post_bias', 'pre_clamp', 'post_clamp'], ['matrix']);
  return {
    matrix: nums(c['matrix'], `${path}.matrix`, 9, -4096, 4095),
    preBias: c['pre_bias'] === undefined ? [0, 0, 0] : nums(c['pre_bias'], `${path}.pre_bias`, 3, -512, 511),
    postBias: c['post_bias'] === undefined ? [0, 0, 0] : nums(c['post_bias'], `${path}.post_bias`, 3, -512, 511),
    preClamp: c['pre_clamp'] === undefined ? [0, 255, 0, 255, 0, 255] : nums(c['pre_clamp'], `${path}.pre_clamp`, 6, 0, 255),
    postClamp: c['post_clamp'] === undefined ? [0, 255, 0, 255, 0, 255] : nums(c['post_clamp'], `${path}.post_clamp`, 6, 0, 255),
  };
}

const ALPHA_SELS: readonly AlphaSel[] = ['fg_const', 'bg_const', 'fg_pixel', 'bg_pixel'];

function parseBlend(v: unknown, alpha: number, path: string): BlendConfig {
  if (v === undefined || typeof v === 'string') return blendMode(v === undefined ? 'premultiplied' : oneOf(v, path, ['opaque', 'premultiplied', 'coverage'] as const), alpha);
  const b = obj(v, path, ['fg_alpha', 'bg_alpha', 'fg_const', 'bg_const', 'fg_inv', 'fg_mod', 'fg_inv_mod', 'bg_inv', 'bg_mod', 'bg_inv_mod', 'alpha_out'], ['fg_alpha', 'bg_alpha']);
  const side = (s: 'fg' | 'bg'): AlphaCfg => ({
    sel: oneOf(b[`${s}_alpha`], `${path}.${s}_alpha`, ALPHA_SELS),
    inv: b[`${s}_inv`] === undefined ? false : bool(b[`${s}_inv`], `${path}.${s}_inv`),
    mod: b[`${s}_mod`] === undefined ? false : bool(b[`${s}_mod`], `${path}.${s}_mod`),
    invMod: b[`${s}_inv_mod`] === undefined ? false : bool(b[`${s}_inv_mod`], `${path}.${s}_inv_mod`),
  });
  return {
    fg: side('fg'),
    bg: side('bg'),
    fgConst: b['fg_const'] === undefined ? 255 : int(b['fg_const'], `${path}.fg_const`, 0, 255),
    bgConst: b['bg_const'] === undefined ? 0 : int(b['bg_const'], `${path}.bg_const`, 0, 255),
    alphaOut: b['alpha_out'] === undefined ? 'fg' : oneOf(b['alpha_out'], `${path}.alpha_out`, ['fg', 'bg'] as const),
  };
}

function parseLayers(v: unknown, surfaces: Map<string, Surface>, mode: ModeLine): FrameLayer[] {
  const layers = arr(v, 'layers').map((lv, i): FrameLayer & { multirect?: 'parallel' | 'time_mx' } => {
    const path = `layers[${i}]`;
    const l = obj(lv, path, ['name', 'pipe', 'rect', 'buffer', 'solid_fill', 'src', 'dst', 'rot90', 'flip_lr', 'flip_ud', 'deinterlace', 'scaler', 'chroma_upsample', 'csc', 'stage', 'blend', 'alpha', 'multirect'], ['pipe', 'stage']);
    const pipe = oneOf(l['pipe'], `${path}.pipe`, PIPES) as PipeName;
    const name = l['name'] === undefined ? `${pipe}${l['rect'] ? '.rect1' : ''}` : String(l['name']);
    if ((l['buffer'] === undefined) === (l['solid_fill'] === undefined)) throw new InputError(`${path}: give either buffer or solid_fill`);
    let surface: Surface | undefined;
    if (l['buffer'] !== undefined) {
      surface = surfaces.get(String(l['buffer']));
      if (!surface) throw new InputError(`${path}.buffer: no buffer named ${JSON.stringify(l['buffer'])}`);
    }
    const solid = l['solid_fill'] === undefined ? undefined : (nums(l['solid_fill'], `${path}.solid_fill`, 4, 0, 255) as unknown as [number, number, number, number]);
    const deint = l['deinterlace'] === undefined ? undefined : oneOf(l['deinterlace'], `${path}.deinterlace`, ['even', 'odd'] as const);
    const fieldH = surface ? (deint === undefined ? surface.height : Math.floor((surface.height - (deint === 'odd' ? 1 : 0) + 1) / 2)) : 0;
    const src = l['src'] !== undefined ? rect(l['src'], `${path}.src`) : surface ? { x: 0, y: 0, w: surface.width, h: fieldH } : undefined;
    const rot90 = l['rot90'] === undefined ? false : bool(l['rot90'], `${path}.rot90`);
    const dst = l['dst'] !== undefined ? rect(l['dst'], `${path}.dst`) : src ? { x: 0, y: 0, w: rot90 ? src.h : src.w, h: rot90 ? src.w : src.h } : undefined;
    if (!dst) throw new InputError(`${path}: a solid fill needs dst`);
    if (dst.x + dst.w > mode.hdisplay || dst.y + dst.h > mode.vdisplay) throw new InputError(`${path}.dst: ${dst.w}x${dst.h}+${dst.x}+${dst.y} exceeds the mixer output ${mode.hdisplay}x${mode.vdisplay}`);
    const alpha = l['alpha'] === undefined ? 255 : int(l['alpha'], `${path}.alpha`, 0, 255);
    const layer: FrameLayer & { multirect?: 'parallel' | 'time_mx' } = {
      name,
      pipe,
      rect: l['rect'] === undefined ? 0 : (int(l['rect'], `${path}.rect`, 0, 1) as 0 | 1),
      ...(surface ? { surface } : {}),
      ...(solid ? { solidFill: solid } : {}),
      src: src ?? dst,
      dst,
      rot90,
      flipLr: l['flip_lr'] === undefined ? false : bool(l['flip_lr'], `${path}.flip_lr`),
      flipUd: l['flip_ud'] === undefined ? false : bool(l['flip_ud'], `${path}.flip_ud`),
      ...(deint ? { deinterlace: deint } : {}),
      scaler: l['scaler'] === undefined ? 'bilinear' : oneOf(l['scaler'], `${path}.scaler`, ['nearest', 'bilinear'] as const),
      chromaUpsample: l['chroma_upsample'] === undefined ? 'bilinear' : oneOf(l['chroma_upsample'], `${path}.chroma_upsample`, ['replicate', 'bilinear'] as const),
      csc: l['csc'] === undefined ? CSC_PRESETS['bt601_limited']! : parseCsc(l['csc'], `${path}.csc`),
      stage: int(l['stage'], `${path}.stage`, 0, MAX_BLEND_STAGES - 1),
      blend: parseBlend(l['blend'], alpha, `${path}.blend`),
      ...(l['multirect'] !== undefined ? { multirect: oneOf(l['multirect'], `${path}.multirect`, ['parallel', 'time_mx'] as const) } : {}),
    };
    return layer;
  });
  // Multirect pairs: the stated mode must fit the two destination rectangles.
  for (const a of layers)
    for (const b of layers)
      if (a !== b && a.pipe === b.pipe && a.rect === 0 && b.rect === 1) {
        const mode = a.multirect ?? b.multirect ?? multirectMode(a.dst, b.dst);
        const fits = multirectMode(a.dst, b.dst);
        if (fits === null) throw new InputError(`multirect on ${a.pipe}: rects '${a.name}' and '${b.name}' overlap`);
        if (mode === 'parallel' && (a.dst.x < b.dst.x + b.dst.w && b.dst.x < a.dst.x + a.dst.w)) throw new InputError(`multirect on ${a.pipe} (parallel): rects '${a.name}' and '${b.name}' must not share columns`);
        if (mode === 'time_mx' && (a.dst.y < b.dst.y + b.dst.h && b.dst.y < a.dst.y + a.dst.h)) throw new InputError(`multirect on ${a.pipe} (time_mx): rects '${a.name}' and '${b.name}' must not share lines`);
      }
  // Layers on one stage must not overlap (the stage blends one layer per pixel).
  for (const [i, a] of layers.entries())
    for (const b of layers.slice(i + 1))
      if (a.stage === b.stage && a.dst.x < b.dst.x + b.dst.w && b.dst.x < a.dst.x + a.dst.w && a.dst.y < b.dst.y + b.dst.h && b.dst.y < a.dst.y + a.dst.h)
        throw new InputError(`layers '${a.name}' and '${b.name}' overlap on blend stage ${a.stage}`);
  return layers;
}

function parseLut3(v: unknown, path: string, len: number, bits: number): Lut3 {
  const o = obj(v, path, ['r', 'g', 'b', 'gamma']);
  if (o['gamma'] !== undefined) {
    if (o['r'] !== undefined || o['g'] !== undefined || o['b'] !== undefined) throw new InputError(`${path}: give gamma or r/g/b tables, not both`);
    const g = num(o['gamma'], `${path}.gamma`, 0.05, 20);
    const max = (1 << bits) - 1;
    const t = Array.from({ length: len }, (_, i) => Math.round(max * (i / (len - 1)) ** g));
    return [t, t, t];
  }
  const max = (1 << bits) - 1;
  return [nums(o['r'], `${path}.r`, len, 0, max), nums(o['g'], `${path}.g`, len, 0, max), nums(o['b'], `${path}.b`, len, 0, max)];
}

function parseDspp(v: unknown): DsppConfig {
  if (v === undefined) return {};
  const d = obj(v, 'dspp', ['igc', 'pcc', 'hsic', 'memcolor', 'vlut', 'gamut', 'gc', 'dither', 'histogram']);
  const out: { -readonly [K in keyof DsppConfig]: DsppConfig[K] } = {};
  if (d['igc'] !== undefined) out.igc = parseLut3(d['igc'], 'dspp.igc', IGC_TBL_LEN, 12);
  if (d['gc'] !== undefined) out.gc = parseLut3(d['gc'], 'dspp.gc', PGC_TBL_LEN, 10);
  if (d['pcc'] !== undefined) {
    const p = obj(d['pcc'], 'dspp.pcc', ['matrix', 'offset', 'coeffs']);
    if ((p['matrix'] === undefined) === (p['coeffs'] === undefined)) throw new InputError('dspp.pcc: give matrix (3x3, optional offset) or coeffs (3x11)');
    if (p['coeffs'] !== undefined) out.pcc = arr(p['coeffs'], 'dspp.pcc.coeffs', 3).map((r, i) => nums(r, `dspp.pcc.coeffs[${i}]`, PCC_TERMS.length, -16, 16, false));
    else {
      if (p['offset'] !== undefined && p['coeffs'] !== undefined) throw new InputError('dspp.pcc.offset goes with matrix');
      const off = p['offset'] === undefined ? [0, 0, 0] : nums(p['offset'], 'dspp.pcc.offset', 3, -16, 16, false);
      out.pcc = arr(p['matrix'], 'dspp.pcc.matrix', 3).map((r, i) => {
        const [a, b, c] = nums(r, `dspp.pcc.matrix[${i}]`, 3, -16, 16, false);
        return [off[i]!, a!, b!, c!, 0, 0, 0, 0, 0, 0, 0];
      });
    }
  }
  if (d['hsic'] !== undefined) {
    const h = obj(d['hsic'], 'dspp.hsic', ['hue', 'saturation', 'value', 'contrast']);
    out.hsic = {
      hue: h['hue'] === undefined ? 0 : num(h['hue'], 'dspp.hsic.hue', -360, 360),
      saturation: h['saturation'] === undefined ? 1 : num(h['saturation'], 'dspp.hsic.saturation', 0, 16),
      value: h['value'] === undefined ? 0 : num(h['value'], 'dspp.hsic.value', -1, 1),
      contrast: h['contrast'] === undefined ? 1 : num(h['contrast'], 'dspp.hsic.contrast', 0, 16),
    };
  }
  if (d['memcolor'] !== undefined)
    out.memcolor = arr(d['memcolor'], 'dspp.memcolor').map((mv, i): MemColor => {
      const p = `dspp.memcolor[${i}]`;
      const m = obj(mv, p, ['name', 'hue', 'sat', 'val', 'hue_adjust', 'sat_adjust', 'val_adjust', 'protect'], ['name', 'hue']);
      const range = (k: string, lo: number, hi: number, dflt: [number, number]): [number, number] => (m[k] === undefined ? dflt : (nums(m[k], `${p}.${k}`, 2, lo, hi, false) as [number, number]));
      return {
        name: oneOf(m['name'], `${p}.name`, ['skin', 'sky', 'foliage'] as const),
        hue: range('hue', 0, 360, [0, 360]),
        sat: range('sat', 0, 1, [0, 1]),
        val: range('val', 0, 1, [0, 1]),
        hueAdjust: m['hue_adjust'] === undefined ? 0 : num(m['hue_adjust'], `${p}.hue_adjust`, -360, 360),
        satAdjust: m['sat_adjust'] === undefined ? 1 : num(m['sat_adjust'], `${p}.sat_adjust`, 0, 16),
        valAdjust: m['val_adjust'] === undefined ? 1 : num(m['val_adjust'], `${p}.val_adjust`, 0, 16),
        protect: new Set(m['protect'] === undefined ? [] : arr(m['protect'], `${p}.protect`).map((x, j) => oneOf(x, `${p}.protect[${j}]`, ['hue', 'sat', 'val', 'cont'] as const))),
      };
    });
  if (d['vlut'] !== undefined) out.vlut = nums(d['vlut'], 'dspp.vlut', PA_VLUT_SIZE, 0, 1023);
  if (d['gamut'] !== undefined) {
    const g = obj(d['gamut'], 'dspp.gamut', ['size', 'entries'], ['size', 'entries']);
    const size = int(g['size'], 'dspp.gamut.size', 0, 17);
    if (!(GAMUT_SIZES as readonly number[]).includes(size)) throw new InputError(`dspp.gamut.size: must be 17, 13 or 5, got ${size}`);
    out.gamut = { size, entries: arr(g['entries'], 'dspp.gamut.entries', size ** 3).map((e, i) => nums(e, `dspp.gamut.entries[${i}]`, 3, 0, 4095)) };
  }
  if (d['dither'] !== undefined) {
    const t = obj(d['dither'], 'dspp.dither', ['matrix', 'bits'], ['matrix', 'bits']);
    const bits = typeof t['bits'] === 'number' ? [t['bits'], t['bits'], t['bits']] : t['bits'];
    out.dither = { matrix: nums(t['matrix'], 'dspp.dither.matrix', DITHER_MATRIX_SZ, 0, 15), bits: nums(bits, 'dspp.dither.bits', 3, 4, 10) as unknown as [number, number, number] };
  }
  if (d['histogram'] !== undefined) out.histogram = bool(d['histogram'], 'dspp.histogram');
  return out;
}

const GROUPS = Object.keys(REG_GROUPS) as RegGroup[];

/** The register groups a frame programs: every block it uses. */
export function groupsOf(f: Pick<Frame, 'layers' | 'dims' | 'dspp'>): RegGroup[] {
  const g: RegGroup[] = ['sspp', 'mixer', 'border'];
  if (f.layers.some((l) => l.surface && (l.src.w !== l.dst.w || l.src.h !== l.dst.h || l.rot90))) g.push('scaler');
  if (f.layers.some((l) => l.surface?.format.kind === 'yuv')) g.push('csc');
  if (f.dims.length) g.push('dim');
  for (const k of ['igc', 'pcc', 'hsic', 'memcolor', 'vlut', 'gamut', 'gc', 'dither', 'histogram'] as const) if (f.dspp[k] !== undefined) g.push(k);
  return g;
}

function parseTimeline(v: unknown, dflt: RegGroup[]): TimelineConfig {
  const t = v === undefined ? {} : obj(v, 'timeline', ['frames', 'vsync_irq', 'pingpong_done_before_vsync_us', 'commits']);
  const commits: CommitDesc[] =
    t['commits'] === undefined
      ? [{ startUs: 0, program: dflt, direct: 'after_pingpong' }]
      : arr(t['commits'], 'timeline.commits').map((cv, i) => {
          const p = `timeline.commits[${i}]`;
          const c = obj(cv, p, ['start_us', 'program', 'direct'], ['start_us']);
          return {
            startUs: num(c['start_us'], `${p}.start_us`, 0, 1e9),
            program: c['program'] === undefined ? dflt : arr(c['program'], `${p}.program`).map((g, j) => oneOf(g, `${p}.program[${j}]`, GROUPS)),
            direct: c['direct'] === undefined ? 'after_pingpong' : oneOf(c['direct'], `${p}.direct`, ['after_pingpong', 'with_postproc'] as const),
          };
        });
  return {
    ...(t['frames'] !== undefined ? { frames: int(t['frames'], 'timeline.frames', 1, 1000) } : {}),
    vsyncIrq: t['vsync_irq'] === undefined ? 'vblank_end' : oneOf(t['vsync_irq'], 'timeline.vsync_irq', ['vblank_start', 'vblank_end'] as const),
    pingpongBeforeVsyncUs: t['pingpong_done_before_vsync_us'] === undefined ? SEED_TYPICAL_US.pingpongBeforeVsync : num(t['pingpong_done_before_vsync_us'], 'timeline.pingpong_done_before_vsync_us', 0, 1e6),
    commits,
  };
}

/** Parse a frame description (already JSON-parsed); `base` resolves buffer files. */
export function parseFrame(json: unknown, base = '.'): Frame {
  const f = obj(json, '', ['mode', 'buffers', 'layers', 'mixer', 'dspp', 'timeline'], ['mode', 'layers']);
  const mode = parseMode(f['mode']);
  const surfaces = new Map<string, Surface>();
  if (f['buffers'] !== undefined) for (const [k, v] of Object.entries(obj(f['buffers'], 'buffers', Object.keys(f['buffers'] as object)))) surfaces.set(k, parseBuffer(k, v, base));
  const layers = parseLayers(f['layers'], surfaces, mode);
  const m = f['mixer'] === undefined ? {} : obj(f['mixer'], 'mixer', ['out_size', 'border_color', 'dim_layers']);
  if (m['out_size'] !== undefined) {
    // mixer-out: one mixer drives the whole interface, so its output is the mode's active area.
    const [w, h] = nums(m['out_size'], 'mixer.out_size', 2, 1, 65535);
    if (w !== mode.hdisplay || h !== mode.vdisplay) throw new InputError(`mixer.out_size ${w}x${h} must equal the mode's active ${mode.hdisplay}x${mode.vdisplay}`);
  }
  const border = m['border_color'] === undefined ? ([0, 0, 0, 255] as const) : (() => {
    const c = nums(m['border_color'], 'mixer.border_color', 4, 0, 1023);
    if (c[3]! > 255) throw new InputError('mixer.border_color[3]: alpha is 8-bit (0..255)');
    return c as unknown as [number, number, number, number];
  })();
  const dims: DimLayer[] = m['dim_layers'] === undefined ? [] : arr(m['dim_layers'], 'mixer.dim_layers').map((dv, i) => {
    const p = `mixer.dim_layers[${i}]`;
    const d = obj(dv, p, ['stage', 'rect', 'color', 'alpha'], ['stage', 'rect', 'alpha']);
    const r = rect(d['rect'], `${p}.rect`);
    if (r.x + r.w > mode.hdisplay || r.y + r.h > mode.vdisplay) throw new InputError(`${p}.rect exceeds the mixer output ${mode.hdisplay}x${mode.vdisplay}`);
    return { stage: int(d['stage'], `${p}.stage`, 0, MAX_BLEND_STAGES - 1), rect: r, color: (d['color'] === undefined ? [0, 0, 0] : nums(d['color'], `${p}.color`, 3, 0, 1023)) as unknown as [number, number, number], alpha: int(d['alpha'], `${p}.alpha`, 0, 255) };
  });
  const dspp = parseDspp(f['dspp']);
  const timeline = parseTimeline(f['timeline'], groupsOf({ layers, dims, dspp }));
  return { mode, surfaces, layers, border, dims, dspp, timeline };
}

export function readFrame(file: string): Frame {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new InputError(`cannot read '${file}'`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new InputError(`not JSON: ${(e as Error).message}`, file);
  }
  try {
    return parseFrame(json, dirname(resolve(file)));
  } catch (e) {
    if (e instanceof InputError) throw new InputError(e.message, file);
    throw e;
  }
}
