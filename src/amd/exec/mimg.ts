/**
 * MIMG: image_load(_mip), image_store(_mip) and image_sample (GFX11) through a T# (8 SGPRs at srsrc*4) and,
 * for sampling, an S# (4 SGPRs at ssamp*4); descriptor layouts from mimg-rsrc.gen.ts (Mesa's
 * gfx11-rsrc JSON), texel formats from the GFX11_FORMAT table of buffer-formats.gen.ts.
 *
 * Modelled: dim 1D/2D/1D_ARRAY/2D_ARRAY, 32-bit addresses and data (no a16/d16; TFE/LWE return a
 * status VGPR of 0 after the data: no partially resident textures, no LOD warnings), linear
 * images (SW_MODE 0) of 1/2/4/8/16-byte texels, DST_SEL swizzles, dmask packing (one VGPR per
 * enabled channel, in channel order). Where levels and slices lie is the generation's addrlib
 * linear layout (image-layout.ts): rows aligned to 256 bytes; GFX10.3/GFX11 mip chains smallest
 * level first, each level with its own aligned pitch; a one-level 1D/2D T# may carry a larger
 * pitch in DEPTH/PITCH_MSB (GFX10.3+). Array layers (the coordinate after x/y) address slice
 * BASE_ARRAY + layer of the T#, up to DEPTH (the last slice); image_load/store layers outside
 * the view read 0 / are dropped, sampled layers are rounded to nearest even and clamped.
 * image_load/store take integer texel coordinates at BASE_LEVEL and ignore texels outside it
 * (loads return 0, as robust buffer access does); image_load_mip/store_mip take the level
 * (relative to BASE_LEVEL) in the address VGPR after the coordinates (levels past LAST_LEVEL miss). image_sample(_l/_lz/_b)
 * (and _cl, _b_cl, _d, _d_cl, _cd, _cd_cl: explicit derivatives before the coordinates, a
 * minimum-LOD clamp after them) take f32 coordinates, normalized unless the unorm bit or S# FORCE_UNNORMALIZED; LOD from the
 * quad's derivatives (lanes 4q..4q+3 = TL, TR, BL, BR; log2 of the larger of the x and y
 * footprints in BASE_LEVEL texels), the explicit LOD (_l), 0 (_lz), plus the bias operand (_b) and
 * S# LOD_BIAS, clamped to S# MIN_LOD..MAX_LOD; LOD <= 0 uses XY_MAG_FILTER at BASE_LEVEL, above it
 * XY_MIN_FILTER with MIP_FILTER none / point (level ceil(LOD + 0.5) - 1) / linear (two levels
 * blended), levels clamped to BASE_LEVEL..LAST_LEVEL; unnormalized coordinates sample BASE_LEVEL.
 * Addressing per CLAMP_X/Y (SQ_TEX_WRAP, SQ_TEX_MIRROR, SQ_TEX_CLAMP_LAST_TEXEL, SQ_TEX_CLAMP_BORDER
 * with a transparent black border); point or bilinear filters (weights in doubles, result rounded
 * to f32; the hardware's reduced LOD and weight precision is not modelled).
 * Anything else is diagnosed once (`gfx11.mimg.unsupported`) and the instruction writes 0.
 * VGPRs past the allocation (wave-state seed): a load/sample whose returned VGPRs (popcount(DMASK),
 * D16-packed, + 1 for TFE/LWE) run past it is issued with EXEC=0 (`gfx11.vgpr.dst-out-of-range`);
 * store data and address VGPRs past it read VGPR0 (`gfx11.vgpr.src-out-of-range`).
 * GFX10.3 (gfx1030) waves read their own descriptor layouts and FORMAT numbering
 * (mimg-gfx10.gen.ts, from Mesa's gfx10-rsrc JSON as mapped for gfx103); the semantics are the same.
 * GFX9 (gfx900) waves read GFX9's layouts (mimg-gfx9.gen.ts, from Mesa's gfx9 JSON): one WIDTH
 * field, DATA_FORMAT/NUM_FORMAT pairs, T# PITCH (the row pitch - 1 of a one-level image, the mip
 * chain height - 1 of a mip chain, whose levels GFX9 stacks at the aligned level-0 pitch) and, as
 * GFX9 MIMG has no dim field, 1D/2D/1D_ARRAY/2D_ARRAY from T# TYPE (the da bit is not needed);
 * the address VGPRs are consecutive from vaddr, as many as the opcode and that type need (the
 * encoding does not record the width).
 */
import type { Instruction } from '../isa/types.js';
import type { MimgDecoded } from '../isa/gfx11/memory-mimg.js';
import type { Wave } from '../wave/wave.js';
import { OncePerDispatch, WAVE_STATE_SEED, type ExecEnv } from '../engine/env.js';
import { storeCounter } from '../target/space.js';
import { define, type Bound, type Finding } from '../engine/registry.js';
import { withCachePolicy } from '../engine/cache-hook.js';
import { ATOMIC32, CNT_MAX, dstInRange, laneOn, srcRows } from './vmem.js';
import { mimgDst } from '../isa/gfx11/memory-mimg.js';
import { SQ_IMG_RSRC, SQ_IMG_SAMP, type RsrcBits } from './mimg-rsrc.gen.js';
import { BUF_FORMATS, type BufFormat } from './buffer-formats.gen.js';
import { IMG_FORMATS_GFX10, SQ_IMG_RSRC_GFX10, SQ_IMG_SAMP_GFX10 } from './mimg-gfx10.gen.js';
import { IMG_FORMATS_GFX9, SQ_IMG_RSRC_GFX9, SQ_IMG_SAMP_GFX9 } from './mimg-gfx9.gen.js';
import { f16, f16bits, f32, f32bits } from '../../core/float.js';
import { diagAt } from './operands.js';
import { LINEAR_RULES, linearLayout, type LinearLayout, type LinearRule, type MipLevel } from './image-layout.js';

function get(w: Wave, base: number, f: RsrcBits | undefined): number {
  if (!f) return 0;
  const v = w.s[base + f.word]! >>> 0;
  return f.width === 32 ? v : Math.floor(v / 2 ** f.lo) % 2 ** f.width;
}

interface Image {
  base: number; width: number; height: number; bytes: number; bits: readonly number[]; nfmt: string; dst: number[]; ok: string;
  /** Row pitch in texels of the level being addressed. */
  pitch: number;
  /** The resource's levels (MAX_MIP + 1) and the view's BASE_LEVEL..LAST_LEVEL. */
  levels: readonly MipLevel[]; baseLevel: number; lastLevel: number;
  /** 1 or 2 when the T# decides (GFX9), 0 when the instruction's dim does. */
  dims: number;
  /** GFX9: the T# TYPE is an array (1D_ARRAY / 2D_ARRAY). */
  array: boolean;
  /** Array slices: bytes between slices, the view's first slice (BASE_ARRAY) and last slice (DEPTH). */
  sliceBytes: number; firstSlice: number; lastSlice: number;
}

/**
 * A generation's descriptor layouts and FORMAT table; `typeDims`: the image's dimensionality
 * comes from T# TYPE (GFX9, no MIMG dim field) rather than the instruction.
 */
export interface ImageGen {
  readonly R: Readonly<Record<string, RsrcBits>>; readonly S: Readonly<Record<string, RsrcBits>>; readonly F: Readonly<Record<number, BufFormat>>; readonly typeDims?: boolean;
  /** The generation's linear layout rule (image-layout.ts). */
  readonly rule: LinearRule;
}
type Gen = ImageGen;
const GFX11: Gen = { R: SQ_IMG_RSRC, S: SQ_IMG_SAMP, F: BUF_FORMATS, rule: LINEAR_RULES[11] };
const GFX10: Gen = { R: SQ_IMG_RSRC_GFX10, S: SQ_IMG_SAMP_GFX10, F: IMG_FORMATS_GFX10, rule: LINEAR_RULES[10] };
const GFX9: Gen = { R: SQ_IMG_RSRC_GFX9, S: SQ_IMG_SAMP_GFX9, F: IMG_FORMATS_GFX9, typeDims: true, rule: LINEAR_RULES[9] };

/** The descriptor layouts of a wave's generation (by its operand space). */
export function imageGen(gfx: number): ImageGen {
  return gfx === 9 ? GFX9 : gfx === 10 ? GFX10 : GFX11;
}

/** SQ_RSRC_IMG_TYPE values (the same on GFX9..GFX11). */
const IMG_1D = 8, IMG_2D = 9, IMG_1D_ARRAY = 12, IMG_2D_ARRAY = 13;

function readTsharp(w: Wave, r: number, G: Gen): Image {
  const R = G.R;
  const base = (w.s[r]! >>> 0) * 256 + get(w, r, R.BASE_ADDRESS_HI) * 2 ** 40;
  const width = (R.WIDTH ? get(w, r, R.WIDTH) : get(w, r, R.WIDTH_LO) | (get(w, r, R.WIDTH_HI) << 2)) + 1;
  const height = get(w, r, R.HEIGHT) + 1;
  const maxMip = get(w, r, R.MAX_MIP);
  const baseLevel = get(w, r, R.BASE_LEVEL), lastLevel = get(w, r, R.LAST_LEVEL);
  const fmt = G.F[get(w, r, R.FORMAT)];
  const dst = [get(w, r, R.DST_SEL_X), get(w, r, R.DST_SEL_Y), get(w, r, R.DST_SEL_Z), get(w, r, R.DST_SEL_W)];
  const type = get(w, r, R.TYPE);
  const depth = get(w, r, R.DEPTH), firstSlice = get(w, r, R.BASE_ARRAY);
  const bytes = fmt?.bytes ?? 4;
  // The row pitch / chain height a T# carries: GFX9 PITCH (epitch), GFX10.3+ DEPTH + PITCH_MSB for one-level 1D/2D.
  const epitch = G.rule.pitchField === 'PITCH' ? get(w, r, R.PITCH) + 1 : (depth | (get(w, r, R.PITCH_MSB) << 13)) + 1;
  const typeArray = type === IMG_1D_ARRAY || type === IMG_2D_ARRAY;
  let ok = '';
  if (!fmt || fmt.packed || !(fmt.nfmt === 'unorm' || fmt.nfmt === 'float' || fmt.nfmt === 'uint') || fmt.bits.some((b) => b !== 8 && b !== 16 && b !== 32)) ok = `T# FORMAT ${get(w, r, R.FORMAT)} (${fmt?.name ?? 'unknown'}) is not modelled for images`;
  else if (get(w, r, R.SW_MODE) !== 0) ok = `T# SW_MODE ${get(w, r, R.SW_MODE)}: only linear (0) images are modelled`;
  else if (G.typeDims && type !== IMG_1D && type !== IMG_2D && !typeArray) ok = `T# TYPE ${type} is not modelled (SQ_RSRC_IMG_1D/2D/1D_ARRAY/2D_ARRAY only)`;
  else if (256 % fmt.bytes !== 0) ok = `T# FORMAT ${fmt.name}: linear layouts of ${fmt.bytes}-byte texels are not modelled`;
  else if (baseLevel > lastLevel || lastLevel > maxMip) ok = `T# BASE_LEVEL ${baseLevel} / LAST_LEVEL ${lastLevel} / MAX_MIP ${maxMip}: the view's levels must lie in 0..MAX_MIP with BASE_LEVEL <= LAST_LEVEL`;
  let layout: LinearLayout;
  if (G.rule.pitchField === 'PITCH') {
    // GFX9: one level: PITCH is the row pitch; a mip chain: the chain height (the row pitch is the aligned WIDTH).
    layout = linearLayout(G.rule, width, height, bytes, maxMip + 1, maxMip > 0 ? undefined : epitch);
    if (!ok && maxMip === 0 && epitch < width) ok = `T# PITCH ${epitch} is below WIDTH ${width}`;
    if (!ok && maxMip > 0 && epitch < layout.epitch) ok = `T# PITCH ${epitch}: a GFX9 linear mip chain of ${maxMip + 1} levels needs PITCH (the chain height) >= ${layout.epitch} rows`;
    if (maxMip > 0) layout = { ...layout, sliceBytes: layout.levels[0]!.pitch * epitch * bytes };
  } else {
    // GFX10.3+: a custom pitch in DEPTH/PITCH_MSB counts for one-level 1D/2D images when it exceeds WIDTH.
    const custom = maxMip === 0 && (type === IMG_1D || type === IMG_2D) && epitch > width;
    layout = linearLayout(G.rule, width, height, bytes, maxMip + 1, custom ? epitch : undefined);
  }
  const dims = G.typeDims ? (type === IMG_2D || type === IMG_2D_ARRAY ? 2 : 1) : 0;
  const lastSlice = typeArray ? depth : 0;
  return { base, width, height, bytes, bits: fmt?.bits ?? [32], nfmt: fmt?.nfmt ?? 'float', dst, ok, pitch: layout.levels[0]!.pitch, levels: layout.levels, baseLevel, lastLevel, dims, array: G.typeDims === true && typeArray, sliceBytes: layout.sliceBytes, firstSlice, lastSlice };
}

/** The image seen at one mip level (base, size and pitch of that level). */
function atLevel(im: Image, level: number): Image {
  if (im.levels.length === 1) return im;
  const l = im.levels[level]!;
  return { ...im, base: im.base + l.offset, width: l.width, height: l.height, pitch: l.pitch };
}

/**
 * Depth compare (sample_c*): S# DEPTH_COMPARE_FUNC by its SQ_TEX_DEPTH_COMPARE value (Mesa's
 * register database: NEVER, LESS, EQUAL, LESSEQUAL, GREATER, NOTEQUAL, GREATEREQUAL, ALWAYS), the
 * reference value OP the texel's first channel; 1 or 0 per texel, before filtering (PCF).
 */
export const DEPTH_COMPARE: readonly ((ref: number, t: number) => boolean)[] = [
  () => false, (r, t) => r < t, (r, t) => r === t, (r, t) => r <= t, (r, t) => r > t, (r, t) => r !== t, (r, t) => r >= t, () => true,
];
/** The current lane's compare: function index (-1: none) and reference value. */
const CMP = { fn: -1, ref: 0 };

/** Texel (x, y) as 4 channels after DST_SEL. */
function fetch(w: Wave, im: Image, x: number, y: number, out: Float64Array, off: number): void {
  const raw = [0, 0, 0, 1];
  if (x >= 0 && y >= 0 && x < im.width && y < im.height) {
    let a = im.base + off + (y * im.pitch + x) * im.bytes;
    im.bits.forEach((b, c) => {
      const v = b === 8 ? w.mem.read8(a) : b === 16 ? w.mem.read16(a) : w.mem.read32(a);
      a += b / 8;
      raw[c] = im.nfmt === 'unorm' ? v / (2 ** b - 1) : im.nfmt === 'float' ? (b === 16 ? f16(v) : b === 32 ? f32(v) : v) : v;
    });
  } else raw[3] = 0;
  // sample_c: the first channel becomes the compare result (a border texel compares its 0).
  if (CMP.fn >= 0) raw[0] = DEPTH_COMPARE[CMP.fn]!(CMP.ref, raw[0]!) ? 1 : 0;
  for (let c = 0; c < 4; c++) {
    const s = im.dst[c]!;
    out[c] = s === 0 ? 0 : s === 1 ? 1 : s >= 4 ? raw[s - 4]! : 0;
  }
}

function store(w: Wave, im: Image, x: number, y: number, v: readonly number[], off: number): void {
  if (x < 0 || y < 0 || x >= im.width || y >= im.height) return;
  let a = im.base + off + (y * im.pitch + x) * im.bytes;
  im.bits.forEach((b, c) => {
    const x0 = v[c] ?? 0;
    let bits: number;
    if (im.nfmt === 'unorm') { const n = f32(x0); bits = !(n > 0) ? 0 : n >= 1 ? 2 ** b - 1 : Math.floor(n * (2 ** b - 1) + 0.5); } else if (im.nfmt === 'float') bits = b === 16 ? f16bits(f32(x0)) : x0;
    else bits = x0;
    if (b === 8) w.mem.write8(a, bits & 0xff);
    else if (b === 16) w.mem.write16(a, bits & 0xffff);
    else w.mem.write32(a, bits >>> 0);
    a += b / 8;
  });
}

function wrap(mode: number, i: number, n: number): number {
  switch (mode) {
    case 0: return ((i % n) + n) % n;
    case 1: { const p = ((i % (2 * n)) + 2 * n) % (2 * n); return p < n ? p : 2 * n - 1 - p; }
    case 2: return Math.min(n - 1, Math.max(0, i));
    default: return i < 0 || i >= n ? -1 : i; // border: outside reads the border (0)
  }
}

function addrRegs(inst: Instruction): number[] {
  const d = inst.info as MimgDecoded;
  const out: number[] = [];
  for (const [r, n] of d.addr) for (let k = 0; k < n; k++) out.push(r + k);
  return out;
}

/** MIMG dim values: 1D, 2D, 1D_ARRAY, 2D_ARRAY (GFX10+; GFX9 decodes dim 0 and its T# TYPE decides). */
const DIM_1D = 0, DIM_2D = 1, DIM_1D_ARRAY = 4, DIM_2D_ARRAY = 5;

function unsupported(inst: Instruction): string {
  const f = inst.fields;
  if (f.a16 || f.d16) return 'a16/d16 are not modelled';
  if (f.dim !== DIM_1D && f.dim !== DIM_2D && f.dim !== DIM_1D_ARRAY && f.dim !== DIM_2D_ARRAY) return `dim ${f.dim} is not modelled (1D, 2D, 1D_ARRAY and 2D_ARRAY only)`;
  return '';
}

/** Round to nearest even (the array-layer rounding of sampled coordinates). */
function rne(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Fixed-point S# fields: MIN_LOD/MAX_LOD unsigned 4.8, LOD_BIAS signed 6.8 (Mesa's util_unsigned_fixed/util_signed_fixed encodings). */
const ufix8 = (v: number): number => v / 256;
const sfix8 = (v: number, width: number): number => (v >= 2 ** (width - 1) ? v - 2 ** width : v) / 256;

/** Point or bilinear filtering of one level at coordinates already in that level's texel space. */
/** The current lane's texel offsets (sample *_o), added to the integer texel coordinates before wrapping. */
const OFS = new Int32Array(2);

/** gather4*: the channel gathered (-1: not a gather). */
const GATHER = { comp: -1 };

function filterLevel(w: Wave, im: Image, u: number, v: number, dims: number, bilinear: boolean, cx: number, cy: number, out: Float64Array, t: Float64Array, off: number): void {
  if (GATHER.comp >= 0) {
    // gather4: one channel of the bilinear footprint's texels, in the order (i0,j1), (i1,j1), (i1,j0), (i0,j0).
    const i0 = Math.floor(u - 0.5) + OFS[0]!, j0 = dims === 2 ? Math.floor(v - 0.5) + OFS[1]! : 0;
    const ps = [[i0, j0 + 1], [i0 + 1, j0 + 1], [i0 + 1, j0], [i0, j0]] as const;
    for (let k = 0; k < 4; k++) {
      const x = wrap(cx, ps[k]![0], im.width), y = dims === 2 ? wrap(cy, ps[k]![1], im.height) : 0;
      fetch(w, im, x < 0 ? -1 : x, y < 0 ? -1 : y, t, off);
      out[k] = t[GATHER.comp]!;
    }
    return;
  }
  if (!bilinear) {
    const x = wrap(cx, Math.floor(u) + OFS[0]!, im.width), y = dims === 2 ? wrap(cy, Math.floor(v) + OFS[1]!, im.height) : 0;
    fetch(w, im, x < 0 ? -1 : x, y < 0 ? -1 : y, out, off);
    return;
  }
  const fu = u - 0.5, fv = dims === 2 ? v - 0.5 : 0;
  const a = fu - Math.floor(fu), b = fv - Math.floor(fv);
  const x0 = Math.floor(fu) + OFS[0]!, y0 = Math.floor(fv) + (dims === 2 ? OFS[1]! : 0);
  out.fill(0);
  for (const [dx, dy, wt] of [[0, 0, (1 - a) * (1 - b)], [1, 0, a * (1 - b)], [0, 1, (1 - a) * b], [1, 1, a * b]] as const) {
    if (wt === 0) continue;
    const x = wrap(cx, x0 + dx, im.width), y = dims === 2 ? wrap(cy, y0 + dy, im.height) : 0;
    fetch(w, im, x < 0 ? -1 : x, y < 0 ? -1 : y, t, off);
    for (let c = 0; c < 4; c++) out[c]! += wt * t[c]!;
  }
}

const SAMPLES0 = ['sample', 'sample_l', 'sample_lz', 'sample_b', 'sample_cl', 'sample_b_cl', 'sample_d', 'sample_d_cl', 'sample_cd', 'sample_cd_cl'] as const;
const GATHERS0 = ['gather4', 'gather4_l', 'gather4_lz', 'gather4_b', 'gather4_cl', 'gather4_b_cl'] as const;
const SAMPLES = [...SAMPLES0, ...SAMPLES0.map((k) => k.replace(/^sample/, 'sample_c')), ...GATHERS0, ...GATHERS0.map((k) => k.replace(/^gather4/, 'gather4_c'))];
const WITH_O = [...SAMPLES, ...SAMPLES.map((k) => `${k}_o`)];
// _g16: the derivative variants with 16-bit derivatives (GFX10.3+).
const G16 = WITH_O.filter((k) => /_c?d(_|$)/.test(k.replace(/^sample_c(?=_|$)/, 'sample'))).map((k) => `${k}_g16`);
for (const kind of ['load', 'store', 'load_mip', 'store_mip', ...WITH_O, ...G16]) {
  // _g16: ds/dx, dt/dx packed in one VGPR (low, high half) and ds/dy, dt/dy in the next (1D: one each).
  const g16 = kind.endsWith('_g16');
  // gather4*: addressed like the sample variant of the same suffixes; returns 4 VGPRs (one channel,
  // the lowest DMASK bit, of the 2x2 footprint) from the level the LOD selects (never blended).
  const gather = kind.startsWith('gather4');
  const sampling = kind.startsWith('sample') || gather;
  // _o: a texel-offset VGPR first (x [5:0], y [13:8], signed), added at every level sampled.
  const offsets = kind.replace(/_g16$/, '').endsWith('_o');
  // sample_c*: a depth-compare reference VGPR after the offset and bias.
  const compare = /^(sample|gather4)_c(_|$)/.test(kind);
  const bk = kind.replace(/_g16$/, '').replace(/_o$/, '').replace(/^(sample|gather4)_c(?=_|$)/, '$1').replace(/^gather4/, 'sample');
  // Sample variants: _b bias VGPR first; _d/_cd explicit derivatives (ds/dx, dt/dx, ds/dy, dt/dy;
  // coarse or fine is the same here) before the coordinates; _l explicit LOD / _cl minimum-LOD
  // clamp after them.
  const bias = /_b(_|$)/.test(bk);
  const deriv = /_c?d(_|$)/.test(bk);
  const clampLod = bk.endsWith('_cl');
  const implicitLod = bk === 'sample' || bk === 'sample_b' || bk === 'sample_cl' || bk === 'sample_b_cl';
  // _mip: the level (relative to BASE_LEVEL) is the address VGPR after the coordinates and layer.
  const mip = kind.endsWith('_mip');
  const isStore = kind === 'store' || kind === 'store_mip';
  const isLoad = kind === 'load' || kind === 'load_mip';
  // Wrapped for the memory-hierarchy hook (POPS draws): GLC/DLC/SLC of image loads and stores reach
  // the cache model as those of FLAT/MUBUF do (identity without a hook).
  define(`image_${kind}`, (inst, env: ExecEnv) => withCachePolicy(inst, env, bindImage(inst, env), isStore));
  function bindImage(inst: Instruction, env: ExecEnv): Bound {
    const f = inst.fields;
    const ws = env.waveSize;
    const findings: Finding[] = [];
    const why = unsupported(inst);
    const G = imageGen(env.space.gfx);
    // GFX9 records no address width: the VGPRs run on from vaddr, as many as the T# type needs
    // (up to bias + 4 derivatives + 3 coordinates + clamp).
    const regs = G.typeDims ? Array.from({ length: 9 }, (_, k) => f.vaddr! + k) : addrRegs(inst);
    const instDims = f.dim === DIM_1D || f.dim === DIM_1D_ARRAY ? 1 : 2, instArray = f.dim === DIM_1D_ARRAY || f.dim === DIM_2D_ARRAY;
    const dmask = f.dmask! & 15;
    const chans = gather ? [0, 1, 2, 3] : [0, 1, 2, 3].filter((c) => (dmask >> c) & 1);
    const gatherComp = dmask ? 31 - Math.clz32(dmask & -dmask) : 0;
    if (!chans.length && !isStore) chans.push(0);
    // Address VGPRs: [bias] [derivatives] u [v] [layer] [lod | clamp | mip].
    const biasAt = offsets ? 1 : 0;
    const zAt = biasAt + (bias ? 1 : 0);
    const bodyBase = zAt + (compare ? 1 : 0);
    const vdata = f.vdata!;
    const cnt = isStore ? storeCounter(env.space) : 'vmcnt';
    // Wave-state seed, VGPR out of range: a returning instruction whose destination (every VGPR it
    // may return: popcount(DMASK), packed by D16, plus the TFE/LWE status VGPR) runs past the
    // allocation is issued with EXEC=0 (counted, nothing read or written). Sources past it (store
    // data, address VGPRs) read VGPR0 for each register out of range, as other VMEM does.
    if (!isStore && !dstInRange(env, inst, vdata, mimgDst(gather, dmask, f.d16 ?? 0, f.tfe || f.lwe ? 1 : 0), findings)) {
      return { cls: 'vmem', findings, run: (w) => { if (w[cnt] < CNT_MAX) w[cnt]++; } };
    }
    const status = !isStore && (f.tfe === 1 || f.lwe === 1);
    const srcOut = (r: number): number => (r >= env.vgprs ? 0 : r);
    const dataRow = chans.map((_, k) => srcOut(vdata + k) * ws);
    if (isStore && vdata + chans.length > env.vgprs) srcRows(env, inst, vdata, chans.length, 'data', findings);
    if (!G.typeDims && regs.some((r) => r >= env.vgprs)) srcRows(env, inst, regs[0]!, regs.length, 'address', findings);
    for (let k = 0; k < regs.length; k++) regs[k] = srcOut(regs[k]!);
    const srsrc = f.srsrc! * 4;
    const ssamp = (f.ssamp ?? 0) * 4;
    const px = new Float64Array(4), t = new Float64Array(4), t2 = new Float64Array(4);
    const warn = new OncePerDispatch(env);
    const srcWarn = new OncePerDispatch(env);
    return {
      cls: 'vmem',
      findings,
      run: (w) => {
        const pc = w.pc - inst.size;
        if (w[cnt] < CNT_MAX) w[cnt]++;
        const im = readTsharp(w, srsrc, G);
        const dims = im.dims || instDims;
        // Array layer after the coordinates (GFX9: the T# TYPE says array; GFX10+: the dim).
        const array = G.typeDims ? im.array : instArray;
        const coords = dims + (array ? 1 : 0);
        const bodyAt = bodyBase + (deriv ? (g16 ? 2 : 2 * dims) : 0);
        const need = bodyAt + coords + (bk === 'sample_l' || mip || clampLod ? 1 : 0);
        // GFX9: how many address VGPRs the T# type needs is known only now (those past the allocation read VGPR0).
        if (G.typeDims && f.vaddr! + need > env.vgprs && srcWarn.due) {
          srcWarn.fire();
          env.diag.report({ id: 'gfx11.vgpr.src-out-of-range', severity: 'warning', where: { pc, wave: w.id }, seed: WAVE_STATE_SEED, message: `${inst.mnemonic}: address v${f.vaddr}..v${f.vaddr! + need - 1} is past the ${env.vgprs} allocated VGPRs; the hardware reads VGPR0 for each register out of range` });
        }
        const bad = why || im.ok
          || (array && im.firstSlice > im.lastSlice ? `T# BASE_ARRAY ${im.firstSlice} is past DEPTH ${im.lastSlice} (the last slice)` : '');
        if (bad) {
          if (warn.due) diagAt(env, w, pc, 'gfx11.mimg.unsupported', `${inst.mnemonic}: ${bad}; the instruction writes 0`);
          warn.fire();
          if (!isStore) for (let l = 0; l < ws; l++) if (laneOn(w, l)) for (let k = 0; k < chans.length; k++) w.v[(vdata + k) * ws + l] = 0;
          return;
        }
        const v = w.v;
        const S = G.S;
        const unnorm = f.unorm === 1 || (sampling && get(w, ssamp, S.FORCE_UNNORMALIZED) === 1);
        const cx = get(w, ssamp, S.CLAMP_X), cy = get(w, ssamp, S.CLAMP_Y);
        const magLinear = get(w, ssamp, S.XY_MAG_FILTER) === 1, minLinear = get(w, ssamp, S.XY_MIN_FILTER) !== 0;
        const mipFilter = get(w, ssamp, S.MIP_FILTER);
        const cmpFn = get(w, ssamp, S.DEPTH_COMPARE_FUNC);
        const minLod = ufix8(get(w, ssamp, S.MIN_LOD)), maxLod = ufix8(get(w, ssamp, S.MAX_LOD));
        const lodBias = sfix8(get(w, ssamp, S.LOD_BIAS), S.LOD_BIAS?.width ?? 14);
        const base = atLevel(im, im.baseLevel);
        const reg = (k: number, l: number): number => f32(v[regs[bodyAt + k]! * ws + l]!);
        let n = 0;
        const slices = im.lastSlice - im.firstSlice;
        for (let l = 0; l < ws; l++) {
          if (!laneOn(w, l)) continue;
          n++;
          // Slice: BASE_ARRAY + the layer; load/store layers outside the view miss (0 / dropped), sampled ones clamp.
          let layer = 0;
          if (array) layer = sampling ? Math.min(slices, Math.max(0, rne(reg(dims, l)))) : v[regs[bodyAt + dims]! * ws + l]! | 0;
          const inSlice = layer >= 0 && layer <= slices;
          const off = (im.firstSlice + layer) * im.sliceBytes;
          // _mip: levels past LAST_LEVEL miss like texels outside the level (load 0, store dropped).
          let at = base, inLevel = true;
          if (mip) {
            const lv = im.baseLevel + (v[regs[coords]! * ws + l]! >>> 0);
            inLevel = lv <= im.lastLevel;
            if (inLevel) at = atLevel(im, lv);
          }
          if (isStore) {
            const x = v[regs[0]! * ws + l]!, y = dims === 2 ? v[regs[1]! * ws + l]! : 0;
            const data = [0, 0, 0, 0];
            chans.forEach((c, k) => { data[c] = v[dataRow[k]! + l]!; });
            if (inSlice && inLevel) store(w, at, x, y, data, off);
            continue;
          }
          if (isLoad) {
            const x = v[regs[0]! * ws + l]! | 0, y = dims === 2 ? v[regs[1]! * ws + l]! | 0 : 0;
            fetch(w, at, inSlice && inLevel ? x : -1, y, px, off);
          } else {
            // Normalized coordinates scale by each level's size; unnormalized ones address the base level only.
            const u = reg(0, l), vv = dims === 2 ? reg(1, l) : 0;
            const o = offsets ? v[regs[0]! * ws + l]! : 0;
            OFS[0] = (o << 26) >> 26;
            OFS[1] = (o << 18) >> 26;
            CMP.fn = compare ? cmpFn : -1;
            GATHER.comp = gather ? gatherComp : -1;
            CMP.ref = compare ? f32(v[regs[zAt]! * ws + l]!) : 0;
            let lod = 0;
            if (!unnorm) {
              if (deriv) {
                // Explicit derivatives, scaled to base-level texels.
                const d = g16
                  ? (k: number): number => { const r = v[regs[bodyBase + (k >= dims ? 1 : 0)]! * ws + l]!; return f16(k % dims === 1 ? r >>> 16 : r & 0xffff); }
                  : (k: number): number => f32(v[regs[bodyBase + k]! * ws + l]!);
                const ux = d(0) * base.width, vx = dims === 2 ? d(1) * base.height : 0;
                const uy = d(dims) * base.width, vy = dims === 2 ? d(dims + 1) * base.height : 0;
                lod = Math.log2(Math.max(Math.hypot(ux, vx), Math.hypot(uy, vy)));
              } else if (implicitLod) {
                // Implicit LOD from the quad's derivatives (lanes 4q..4q+3: TL, TR, BL, BR) in base-level texels.
                const q = l & ~3;
                const ux = (reg(0, q + 1) - reg(0, q)) * base.width, uy = (reg(0, q + 2) - reg(0, q)) * base.width;
                const vx = dims === 2 ? (reg(1, q + 1) - reg(1, q)) * base.height : 0, vy = dims === 2 ? (reg(1, q + 2) - reg(1, q)) * base.height : 0;
                lod = Math.log2(Math.max(Math.hypot(ux, vx), Math.hypot(uy, vy)));
              } else if (bk === 'sample_l') lod = reg(coords, l);
              if (bias) lod += f32(v[regs[biasAt]! * ws + l]!);
              lod = Math.min(maxLod, Math.max(minLod, lod + lodBias));
              if (Number.isNaN(lod)) lod = minLod;
              // _cl: the clamp is a minimum LOD (SPIR-V MinLod): no level finer than it.
              if (clampLod) lod = Math.max(lod, reg(coords, l));
            }
            const top = im.lastLevel - im.baseLevel;
            if (lod <= 0 || unnorm) {
              filterLevel(w, base, unnorm ? u : u * base.width, unnorm ? vv : vv * base.height, dims, magLinear, cx, cy, px, t, off);
            } else if (mipFilter === 2 && top > 0 && !gather) {
              // Linear between the two nearest levels.
              const l0 = Math.min(top, Math.floor(lod)), l1 = Math.min(top, l0 + 1), fr = Math.min(1, lod - l0);
              const i0 = atLevel(im, im.baseLevel + l0), i1 = atLevel(im, im.baseLevel + l1);
              filterLevel(w, i0, u * i0.width, vv * i0.height, dims, minLinear, cx, cy, px, t, off);
              if (fr > 0 && l1 !== l0) {
                filterLevel(w, i1, u * i1.width, vv * i1.height, dims, minLinear, cx, cy, t2, t, off);
                for (let c = 0; c < 4; c++) px[c] = px[c]! * (1 - fr) + t2[c]! * fr;
              }
            } else {
              // MIP_FILTER point: the nearest level (ceil(lod + 0.5) - 1); none: the base level.
              const lv = mipFilter === 1 || (gather && mipFilter === 2) ? Math.min(top, Math.max(0, Math.ceil(lod + 0.5) - 1)) : 0;
              const il = atLevel(im, im.baseLevel + lv);
              filterLevel(w, il, u * il.width, vv * il.height, dims, minLinear, cx, cy, px, t, off);
            }
          }
          chans.forEach((c, k) => {
            const val = px[c]!;
            v[(vdata + k) * ws + l] = im.nfmt === 'uint' && (isLoad || gather) ? val >>> 0 : f32bits(val);
          });
          // TFE/LWE: the status VGPR after the data. Every texel is resident (no PRT) and no LOD
          // warning applies, so it is 0.
          if (status) v[(vdata + chans.length) * ws + l] = 0;
        }
        CMP.fn = -1;
        GATHER.comp = -1;
        OFS[0] = 0;
        OFS[1] = 0;
        w.laneOps += n;
      },
    };
  }
}

/**
 * Image atomics on one 32-bit channel (R32 UINT/SINT/FLOAT images): the texel at integer (x, y,
 * layer) of BASE_LEVEL gets the buffer atomics' operation (vmem.ts) with VDATA (cmpswap: VDATA =
 * new value, VDATA+1 = compare value); with GLC the pre-op value returns to VDATA. Texels outside
 * the level or the view's slices are not touched and return 0. 64-bit image atomics (DMASK 0x3, or
 * 0xf for cmpswap) are reported `gfx11.mimg.unsupported` and do nothing. Returning atomics whose
 * VDATA (+ TFE/LWE) passes the VGPR allocation are issued with EXEC=0 (wave-state seed: VDST is
 * checked only for atomics that return); a non-returning atomic's VDATA past it reads VGPR0.
 */
const IMAGE_ATOMICS: Readonly<Record<string, string>> = {
  swap: 'swap', cmpswap: 'cmpswap', add: 'add', sub: 'sub', smin: 'min_i', umin: 'min_u', smax: 'max_i', umax: 'max_u',
  and: 'and', or: 'or', xor: 'xor', inc: 'inc', dec: 'dec', fcmpswap: 'cmpswap_f', fmin: 'min_f', fmax: 'max_f',
};
for (const [op, key] of Object.entries(IMAGE_ATOMICS)) {
  define(`image_atomic_${op}`, (inst, env: ExecEnv) => {
    const f = inst.fields;
    const ws = env.waveSize;
    const findings: Finding[] = [];
    const G = imageGen(env.space.gfx);
    const cmp = op.endsWith('cmpswap');
    const glc = f.glc === 1;
    const dmask = f.dmask! & 15;
    const wide = cmp ? dmask === 0xf : dmask === 0x3;
    const fn = ATOMIC32[key]!;
    const cnt = glc ? 'vmcnt' : storeCounter(env.space);
    const vdata = f.vdata!;
    if (glc && !dstInRange(env, inst, vdata, (wide ? 2 : 1) + (f.tfe || f.lwe ? 1 : 0), findings)) {
      return { cls: 'vmem', findings, run: (w) => { if (w[cnt] < CNT_MAX) w[cnt]++; } };
    }
    const ndata = (wide ? 2 : 1) * (cmp ? 2 : 1);
    if (vdata + ndata > env.vgprs) srcRows(env, inst, vdata, ndata, 'data', findings);
    const dataRow = (k: number): number => (vdata + k >= env.vgprs ? 0 : vdata + k) * ws;
    const addr = G.typeDims ? Array.from({ length: 4 }, (_, k) => f.vaddr! + k) : addrRegs(inst);
    const regs = addr.map((r) => (r >= env.vgprs ? 0 : r));
    if (!G.typeDims && addr.some((r) => r >= env.vgprs)) srcRows(env, inst, addr[0]!, addr.length, 'address', findings);
    const instDims = f.dim === DIM_1D || f.dim === DIM_1D_ARRAY ? 1 : 2, instArray = f.dim === DIM_1D_ARRAY || f.dim === DIM_2D_ARRAY;
    const why = unsupported(inst) || (wide ? '64-bit image atomics are not modelled' : '');
    const warn = new OncePerDispatch(env);
    return {
      cls: 'vmem',
      findings,
      run: (w) => {
        const pc = w.pc - inst.size;
        if (w[cnt] < CNT_MAX) w[cnt]++;
        const im = readTsharp(w, f.srsrc! * 4, G);
        const bad = why || im.ok || (im.bytes !== 4 || im.bits.length !== 1 ? `T# FORMAT: image atomics need one 32-bit channel` : '');
        if (bad) {
          if (warn.due) diagAt(env, w, pc, 'gfx11.mimg.unsupported', `${inst.mnemonic}: ${bad}; the instruction does nothing`);
          warn.fire();
          return;
        }
        const dims = im.dims || instDims;
        const array = G.typeDims ? im.array : instArray;
        const base = atLevel(im, im.baseLevel);
        const slices = im.lastSlice - im.firstSlice;
        const v = w.v;
        let n = 0;
        for (let l = 0; l < ws; l++) {
          if (!laneOn(w, l)) continue;
          n++;
          const x = v[regs[0]! * ws + l]! | 0, y = dims === 2 ? v[regs[1]! * ws + l]! | 0 : 0;
          const layer = array ? v[regs[dims]! * ws + l]! | 0 : 0;
          let old = 0;
          if (x >= 0 && y >= 0 && x < base.width && y < base.height && layer >= 0 && layer <= slices) {
            const a = base.base + (im.firstSlice + layer) * im.sliceBytes + (y * base.pitch + x) * 4;
            old = w.mem.read32(a);
            w.mem.write32(a, fn(old, v[dataRow(0) + l]!, cmp ? v[dataRow(1) + l]! : 0) >>> 0);
          }
          if (glc) v[vdata * ws + l] = old;
        }
        w.laneOps += n;
      },
    };
  });
}
