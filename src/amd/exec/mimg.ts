/**
 * MIMG: image_load(_mip), image_store(_mip) and image_sample (GFX11) through a T# (8 SGPRs at srsrc*4) and,
 * for sampling, an S# (4 SGPRs at ssamp*4); descriptor layouts from mimg-rsrc.gen.ts (Mesa's
 * gfx11-rsrc JSON), texel formats from the GFX11_FORMAT table of buffer-formats.gen.ts.
 *
 * Modelled: dim 1D/2D/3D/1D_ARRAY/2D_ARRAY (3D: one level; z picks the depth slice, sampled z
 * filtered like x/y with CLAMP_Z); 32-bit or A16 addresses (16-bit halves packed as LLVM lays them
 * out, addrSlots); 32-bit or D16 data (two 16-bit channels per VGPR, lower channel low: f16 for
 * float/UNORM/SNORM formats, the low 16 bits of UINT/SINT); TFE/LWE return a status VGPR of 0
 * after the data (no partially resident textures, no LOD warnings); linear images (SW_MODE 0) of
 * 1/2/4/8/16-byte texels in UNORM/SNORM/FLOAT/UINT/SINT; DST_SEL swizzles; dmask packing (one VGPR
 * per enabled channel, in channel order). image_load/store(_mip)_pck(_sgn) move each channel's
 * raw bits (zero- or sign-extended) with no format conversion. image_get_resinfo and
 * image_get_lod: see their definitions below. Where levels and slices lie is the generation's addrlib
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
  /** T# DEPTH + 1: a 3D image's depth in slices of sliceBytes (one level). */
  depth: number;
  /** T# TYPE, for image_get_resinfo on GFX9. */
  type: number;
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
const IMG_1D = 8, IMG_2D = 9, IMG_3D = 10, IMG_1D_ARRAY = 12, IMG_2D_ARRAY = 13;

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
  if (!fmt || fmt.packed || !(fmt.nfmt === 'unorm' || fmt.nfmt === 'snorm' || fmt.nfmt === 'float' || fmt.nfmt === 'uint' || fmt.nfmt === 'sint') || fmt.bits.some((b) => b !== 8 && b !== 16 && b !== 32)) ok = `T# FORMAT ${get(w, r, R.FORMAT)} (${fmt?.name ?? 'unknown'}) is not modelled for images`;
  else if (get(w, r, R.SW_MODE) !== 0) ok = `T# SW_MODE ${get(w, r, R.SW_MODE)}: only linear (0) images are modelled`;
  else if (G.typeDims && type !== IMG_1D && type !== IMG_2D && type !== IMG_3D && !typeArray) ok = `T# TYPE ${type} is not modelled (SQ_RSRC_IMG_1D/2D/3D/1D_ARRAY/2D_ARRAY only)`;
  else if (type === IMG_3D && maxMip > 0) ok = `T# TYPE 3D with MAX_MIP ${maxMip}: 3D mip chains are not modelled (one level only)`;
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
  const dims = G.typeDims ? (type === IMG_3D ? 3 : type === IMG_2D || type === IMG_2D_ARRAY ? 2 : 1) : 0;
  const lastSlice = typeArray ? depth : 0;
  return { base, width, height, bytes, bits: fmt?.bits ?? [32], nfmt: fmt?.nfmt ?? 'float', dst, ok, pitch: layout.levels[0]!.pitch, levels: layout.levels, baseLevel, lastLevel, dims, array: G.typeDims === true && typeArray, sliceBytes: layout.sliceBytes, firstSlice, lastSlice, depth: depth + 1, type };
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
/** image_load_pck / _pck_sgn: 0 converted by the number format, 1 raw channel bits zero-extended, 2 sign-extended. */
const RAW = { mode: 0 };

/** Sign-extend the low `b` bits. */
const sext = (v: number, b: number): number => (b >= 32 ? v | 0 : (v << (32 - b)) >> (32 - b));

/** A channel's `b` bits as the number format reads them (UNORM/SNORM to [0,1]/[-1,1], SINT sign-extended). */
function convert(nfmt: string, b: number, v: number): number {
  switch (nfmt) {
    case 'unorm': return v / (2 ** b - 1);
    case 'snorm': return Math.max(-1, sext(v, b) / (2 ** (b - 1) - 1));
    case 'float': return b === 16 ? f16(v) : b === 32 ? f32(v) : v;
    case 'sint': return sext(v, b);
    default: return v;
  }
}

/** Texel (x, y) as 4 channels after DST_SEL. */
function fetch(w: Wave, im: Image, x: number, y: number, out: Float64Array, off: number): void {
  const raw = [0, 0, 0, 1];
  if (x >= 0 && y >= 0 && x < im.width && y < im.height) {
    let a = im.base + off + (y * im.pitch + x) * im.bytes;
    im.bits.forEach((b, c) => {
      const v = b === 8 ? w.mem.read8(a) : b === 16 ? w.mem.read16(a) : w.mem.read32(a);
      a += b / 8;
      raw[c] = RAW.mode === 1 ? v : RAW.mode === 2 ? sext(v, b) : convert(im.nfmt, b, v);
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
    if (RAW.mode) bits = x0;
    else if (im.nfmt === 'unorm') { const n = f32(x0); bits = !(n > 0) ? 0 : n >= 1 ? 2 ** b - 1 : Math.floor(n * (2 ** b - 1) + 0.5); } else if (im.nfmt === 'snorm') {
      // [-1, 1] to the signed range, rounded to nearest (half away from zero), NaN to 0.
      const n = f32(x0), m = 2 ** (b - 1) - 1;
      bits = !(n === n) ? 0 : n >= 1 ? m : n <= -1 ? -m : Math.sign(n) * Math.floor(Math.abs(n) * m + 0.5);
    } else if (im.nfmt === 'float') bits = b === 16 ? f16bits(f32(x0)) : x0;
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

/** MIMG dim values: 1D, 2D, 3D, 1D_ARRAY, 2D_ARRAY (GFX10+; GFX9 decodes dim 0 and its T# TYPE decides). */
const DIM_1D = 0, DIM_2D = 1, DIM_3D = 2, DIM_1D_ARRAY = 4, DIM_2D_ARRAY = 5;

function unsupported(inst: Instruction): string {
  const f = inst.fields;
  // R128 (GFX10+): a 4-dword T#, whose layout is not in the register database the T# comes from.
  if (f.r128) return 'r128 (a 128-bit T#) is not modelled';
  if (f.dim !== DIM_1D && f.dim !== DIM_2D && f.dim !== DIM_3D && f.dim !== DIM_1D_ARRAY && f.dim !== DIM_2D_ARRAY) return `dim ${f.dim} is not modelled (1D, 2D, 3D, 1D_ARRAY and 2D_ARRAY only)`;
  return '';
}

/** The dimensionality and arrayness an instruction's dim field gives (GFX10+). */
const dimOf = (dim: number): number => (dim === DIM_3D ? 3 : dim === DIM_1D || dim === DIM_1D_ARRAY ? 1 : 2);
const arrayOf = (dim: number): boolean => dim === DIM_1D_ARRAY || dim === DIM_2D_ARRAY;

/**
 * Address components (a16: 16-bit halves of the address VGPRs): slot = dword index * 4 + part,
 * part 0 the whole dword, 1 its low half, 2 its high half. The order is LLVM's image address
 * layout: [offset] [bias] [z-compare] [derivatives d/dx, then d/dy] [coordinates, layer, then
 * lod / clamp / mip / fragment]. With a16 the bias is a 16-bit value alone in its dword and the
 * coordinate group is packed in pairs; with 16-bit derivatives (`g16`: the _g16 opcodes, or A16 on
 * GFX9, which has no G16 and makes derivatives 16-bit with the addresses; GFX10.3+ keeps them 32-bit
 * under A16, as llvm-mc's address sizes show) each derivative group is packed in pairs (an odd one
 * alone in the low half); offset and z-compare stay 32-bit.
 */
interface AddrSlots { off: number; bias: number; z: number; dx: number[]; dy: number[]; body: number[]; dwords: number }
function addrSlots(offset: boolean, bias: boolean, compare: boolean, nDeriv: number, g16: boolean, a16: boolean, nBody: number): AddrSlots {
  let k = 0;
  const one = (half: boolean): number => (k++ << 2) | (half ? 1 : 0);
  const group = (n: number, packed: boolean): number[] => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(packed ? ((k + (i >> 1)) << 2) | (1 + (i & 1)) : (k + i) << 2);
    k += packed ? (n + 1) >> 1 : n;
    return out;
  };
  const off = offset ? one(false) : -1;
  const b = bias ? one(a16) : -1;
  const z = compare ? one(false) : -1;
  const dx = group(nDeriv, g16), dy = group(nDeriv, g16);
  const body = group(nBody, a16);
  return { off, bias: b, z, dx, dy, body, dwords: k };
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
const OFS = new Int32Array(3);

/** gather4*: the channel gathered (-1: not a gather). */
const GATHER = { comp: -1 };

function filterLevel(w: Wave, im: Image, u: number, v: number, dims: number, bilinear: boolean, cx: number, cy: number, out: Float64Array, t: Float64Array, off: number): void {
  if (GATHER.comp >= 0) {
    // gather4: one channel of the bilinear footprint's texels, in the order (i0,j1), (i1,j1), (i1,j0), (i0,j0).
    const i0 = Math.floor(u - 0.5) + OFS[0]!, j0 = dims >= 2 ? Math.floor(v - 0.5) + OFS[1]! : 0;
    const ps = [[i0, j0 + 1], [i0 + 1, j0 + 1], [i0 + 1, j0], [i0, j0]] as const;
    for (let k = 0; k < 4; k++) {
      const x = wrap(cx, ps[k]![0], im.width), y = dims >= 2 ? wrap(cy, ps[k]![1], im.height) : 0;
      fetch(w, im, x < 0 ? -1 : x, y < 0 ? -1 : y, t, off);
      out[k] = t[GATHER.comp]!;
    }
    return;
  }
  if (!bilinear) {
    const x = wrap(cx, Math.floor(u) + OFS[0]!, im.width), y = dims >= 2 ? wrap(cy, Math.floor(v) + OFS[1]!, im.height) : 0;
    fetch(w, im, x < 0 ? -1 : x, y < 0 ? -1 : y, out, off);
    return;
  }
  const fu = u - 0.5, fv = dims >= 2 ? v - 0.5 : 0;
  const a = fu - Math.floor(fu), b = fv - Math.floor(fv);
  const x0 = Math.floor(fu) + OFS[0]!, y0 = Math.floor(fv) + (dims >= 2 ? OFS[1]! : 0);
  out.fill(0);
  for (const [dx, dy, wt] of [[0, 0, (1 - a) * (1 - b)], [1, 0, a * (1 - b)], [0, 1, (1 - a) * b], [1, 1, a * b]] as const) {
    if (wt === 0) continue;
    const x = wrap(cx, x0 + dx, im.width), y = dims >= 2 ? wrap(cy, y0 + dy, im.height) : 0;
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
// _pck: no format conversion (each channel's raw bits, zero- or, _sgn, sign-extended to 32 bits).
const PCK = ['load_pck', 'load_pck_sgn', 'load_mip_pck', 'load_mip_pck_sgn', 'store_pck', 'store_mip_pck'];

/** A16 address reads: slot (addrSlots) of lane l, as raw bits, a float (f32 or f16) or an integer (32-bit signed or 16-bit unsigned). */
function slotBits(v: Uint32Array, regs: readonly number[], ws: number, s: number, l: number): number {
  const x = v[(regs[s >> 2] ?? 0) * ws + l]!;
  const p = s & 3;
  return p === 0 ? x : p === 1 ? x & 0xffff : x >>> 16;
}
const slotF = (v: Uint32Array, regs: readonly number[], ws: number, s: number, l: number): number => ((s & 3) === 0 ? f32(slotBits(v, regs, ws, s, l)) : f16(slotBits(v, regs, ws, s, l)));
const slotI = (v: Uint32Array, regs: readonly number[], ws: number, s: number, l: number): number => ((s & 3) === 0 ? slotBits(v, regs, ws, s, l) | 0 : slotBits(v, regs, ws, s, l));

/** A returned channel value as its VGPR bits: integers for UINT/SINT loads and pck, f32 otherwise; D16: the 16-bit form (f16, or the low 16 bits of an integer). */
function resultBits(val: number, int: boolean, d16: boolean): number {
  if (d16) return int ? val & 0xffff : f16bits(val);
  return int ? val >>> 0 : f32bits(val);
}

for (const kind of ['load', 'store', 'load_mip', 'store_mip', ...PCK, ...WITH_O, ...G16, 'get_lod']) {
  // _g16: ds/dx, dt/dx packed in one VGPR (low, high half) and ds/dy, dt/dy in the next (1D: one each).
  const g16 = kind.endsWith('_g16');
  // gather4*: addressed like the sample variant of the same suffixes; returns 4 VGPRs (one channel,
  // the lowest DMASK bit, of the 2x2 footprint) from the level the LOD selects (never blended).
  const gather = kind.startsWith('gather4');
  // get_lod: addressed like image_sample; returns (clamped LOD, unclamped LOD, 0, 0) as floats.
  const getLod = kind === 'get_lod';
  const sampling = kind.startsWith('sample') || gather || getLod;
  const pck = kind.includes('_pck');
  const rawMode = pck ? (kind.endsWith('_sgn') ? 2 : 1) : 0;
  // _o: a texel-offset VGPR first (x [5:0], y [13:8], z [21:16], signed), added at every level sampled.
  const offsets = kind.replace(/_g16$/, '').endsWith('_o');
  // sample_c*: a depth-compare reference VGPR after the offset and bias.
  const compare = /^(sample|gather4)_c(_|$)/.test(kind);
  const bk = getLod ? 'sample' : kind.replace(/_g16$/, '').replace(/_o$/, '').replace(/^(sample|gather4)_c(?=_|$)/, '$1').replace(/^gather4/, 'sample');
  // Sample variants: _b bias VGPR first; _d/_cd explicit derivatives (ds/dx, dt/dx, ds/dy, dt/dy;
  // coarse or fine is the same here) before the coordinates; _l explicit LOD / _cl minimum-LOD
  // clamp after them.
  const bias = /_b(_|$)/.test(bk);
  const deriv = /_c?d(_|$)/.test(bk);
  const clampLod = bk.endsWith('_cl');
  const implicitLod = bk === 'sample' || bk === 'sample_b' || bk === 'sample_cl' || bk === 'sample_b_cl';
  // _mip: the level (relative to BASE_LEVEL) is the address VGPR after the coordinates and layer.
  const mip = kind.includes('_mip');
  const isStore = kind.startsWith('store');
  const isLoad = kind.startsWith('load');
  // Wrapped for the memory-hierarchy hook (POPS draws): GLC/DLC/SLC of image loads and stores reach
  // the cache model as those of FLAT/MUBUF do (identity without a hook).
  define(`image_${kind}`, (inst, env: ExecEnv) => withCachePolicy(inst, env, bindImage(inst, env), isStore));
  function bindImage(inst: Instruction, env: ExecEnv): Bound {
    const f = inst.fields;
    const ws = env.waveSize;
    const findings: Finding[] = [];
    const why = unsupported(inst);
    const G = imageGen(env.space.gfx);
    const a16 = f.a16 === 1;
    // D16 (packed): two 16-bit channels per VGPR, the lower channel in the low half (pck and get_lod have no D16 form).
    const d16 = f.d16 === 1 && !pck && !getLod;
    // GFX9 records no address width: the VGPRs run on from vaddr, as many as the T# type needs
    // (up to offset + bias + compare + 6 derivatives + 3 coordinates + clamp).
    const regs = G.typeDims ? Array.from({ length: 13 }, (_, k) => f.vaddr! + k) : addrRegs(inst);
    const instDims = dimOf(f.dim ?? 0), instArray = arrayOf(f.dim ?? 0);
    const dmask = f.dmask! & 15;
    const chans = gather ? [0, 1, 2, 3] : [0, 1, 2, 3].filter((c) => (dmask >> c) & 1);
    const gatherComp = dmask ? 31 - Math.clz32(dmask & -dmask) : 0;
    if (!chans.length && !isStore) chans.push(0);
    const nData = d16 ? (chans.length + 1) >> 1 : chans.length;
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
    const dataRow = Array.from({ length: nData }, (_, k) => srcOut(vdata + k) * ws);
    if (isStore && vdata + nData > env.vgprs) srcRows(env, inst, vdata, nData, 'data', findings);
    if (!G.typeDims && regs.some((r) => r >= env.vgprs)) srcRows(env, inst, regs[0]!, regs.length, 'address', findings);
    for (let k = 0; k < regs.length; k++) regs[k] = srcOut(regs[k]!);
    const srsrc = f.srsrc! * 4;
    const ssamp = (f.ssamp ?? 0) * 4;
    const px = new Float64Array(4), t = new Float64Array(4), t2 = new Float64Array(4), t3 = new Float64Array(4);
    // Results are written after every lane has read its address: the implicit LOD reads the quad's
    // other lanes, whose address VGPRs the destination may overlap.
    const nOut = nData + (status ? 1 : 0);
    // The address layout per (dims, array) (GFX9 learns them from the T# at run time).
    const slotCache: (AddrSlots | undefined)[] = [];
    const res = new Uint32Array(nOut * ws);
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
        const three = dims === 3;
        // Array layer after the coordinates (GFX9: the T# TYPE says array; GFX10+: the dim).
        const array = G.typeDims ? im.array : instArray;
        const coords = dims + (array ? 1 : 0);
        const key = dims * 2 + (array ? 1 : 0);
        const A = slotCache[key] ??= addrSlots(offsets, bias, compare, deriv ? dims : 0, g16 || (a16 && G.typeDims === true), a16, coords + (bk === 'sample_l' || mip || clampLod ? 1 : 0));
        // GFX9: how many address VGPRs the T# type needs is known only now (those past the allocation read VGPR0).
        if (G.typeDims && f.vaddr! + A.dwords > env.vgprs && srcWarn.due) {
          srcWarn.fire();
          env.diag.report({ id: 'gfx11.vgpr.src-out-of-range', severity: 'warning', where: { pc, wave: w.id }, seed: WAVE_STATE_SEED, message: `${inst.mnemonic}: address v${f.vaddr}..v${f.vaddr! + A.dwords - 1} is past the ${env.vgprs} allocated VGPRs; the hardware reads VGPR0 for each register out of range` });
        }
        const bad = why || im.ok
          || (array && im.firstSlice > im.lastSlice ? `T# BASE_ARRAY ${im.firstSlice} is past DEPTH ${im.lastSlice} (the last slice)` : '')
          || (three && (gather || array) ? 'gather4 and arrays of 3D images are not modelled' : '');
        if (bad) {
          if (warn.due) diagAt(env, w, pc, 'gfx11.mimg.unsupported', `${inst.mnemonic}: ${bad}; the instruction writes 0`);
          warn.fire();
          if (!isStore) for (let l = 0; l < ws; l++) if (laneOn(w, l)) for (let k = 0; k < nData; k++) w.v[(vdata + k) * ws + l] = 0;
          return;
        }
        const v = w.v;
        const S = G.S;
        const unnorm = f.unorm === 1 || (sampling && get(w, ssamp, S.FORCE_UNNORMALIZED) === 1);
        const cx = get(w, ssamp, S.CLAMP_X), cy = get(w, ssamp, S.CLAMP_Y), cz = get(w, ssamp, S.CLAMP_Z);
        const magLinear = get(w, ssamp, S.XY_MAG_FILTER) === 1, minLinear = get(w, ssamp, S.XY_MIN_FILTER) !== 0;
        const mipFilter = get(w, ssamp, S.MIP_FILTER);
        const cmpFn = get(w, ssamp, S.DEPTH_COMPARE_FUNC);
        const minLod = ufix8(get(w, ssamp, S.MIN_LOD)), maxLod = ufix8(get(w, ssamp, S.MAX_LOD));
        const lodBias = sfix8(get(w, ssamp, S.LOD_BIAS), S.LOD_BIAS?.width ?? 14);
        const base = atLevel(im, im.baseLevel);
        const B = A.body;
        const rf = (k: number, l: number): number => slotF(v, regs, ws, B[k]!, l);
        const ri = (k: number, l: number): number => slotI(v, regs, ws, B[k]!, l);
        // One level, filtered: 3D images filter along z too (z with CLAMP_Z and the x/y filter; one level only).
        const filt = (il: Image, u: number, vv: number, rz: number, lin: boolean, out: Float64Array, off: number): void => {
          if (!three) { filterLevel(w, il, u, vv, dims, lin, cx, cy, out, t, off); return; }
          const slice = (z: number, o: Float64Array): void => {
            if (z < 0) fetch(w, il, -1, 0, o, off);
            else filterLevel(w, il, u, vv, 2, lin, cx, cy, o, t, off + z * il.sliceBytes);
          };
          if (!lin) { slice(wrap(cz, Math.floor(rz) + OFS[2]!, il.depth), out); return; }
          const fz = rz - 0.5, c = fz - Math.floor(fz), z0 = Math.floor(fz) + OFS[2]!;
          slice(wrap(cz, z0, il.depth), out);
          if (c > 0) {
            slice(wrap(cz, z0 + 1, il.depth), t3);
            for (let q = 0; q < 4; q++) out[q] = out[q]! * (1 - c) + t3[q]! * c;
          }
        };
        RAW.mode = rawMode;
        let n = 0;
        const slices = im.lastSlice - im.firstSlice;
        const intResult = pck || ((isLoad || gather) && (im.nfmt === 'uint' || im.nfmt === 'sint'));
        for (let l = 0; l < ws; l++) {
          if (!laneOn(w, l)) continue;
          n++;
          // Slice: BASE_ARRAY + the layer; load/store layers outside the view miss (0 / dropped), sampled ones clamp.
          // 3D: the z coordinate picks the depth slice (outside the depth misses like x and y).
          let layer = 0;
          if (array) layer = sampling ? Math.min(slices, Math.max(0, rne(rf(dims, l)))) : ri(dims, l);
          let inSlice = layer >= 0 && layer <= slices;
          let off = three ? 0 : (im.firstSlice + layer) * im.sliceBytes;
          if (three && !sampling) {
            const z = ri(2, l);
            inSlice = z >= 0 && z < im.depth;
            off = z * im.sliceBytes;
          }
          // _mip: levels past LAST_LEVEL miss like texels outside the level (load 0, store dropped).
          let at = base, inLevel = true;
          if (mip) {
            const lv = im.baseLevel + (ri(coords, l) >>> 0);
            inLevel = lv <= im.lastLevel;
            if (inLevel) at = atLevel(im, lv);
          }
          if (isStore) {
            const x = ri(0, l), y = dims >= 2 ? ri(1, l) : 0;
            const data = [0, 0, 0, 0];
            chans.forEach((c, k) => {
              if (!d16) { data[c] = v[dataRow[k]! + l]!; return; }
              const h = (v[dataRow[k >> 1]! + l]! >>> (k & 1 ? 16 : 0)) & 0xffff;
              // D16 data: f16 for float/UNORM/SNORM formats, a 16-bit integer (SINT sign-extended) otherwise.
              data[c] = pck || im.nfmt === 'uint' ? h : im.nfmt === 'sint' ? sext(h, 16) : f32bits(f16(h));
            });
            if (inSlice && inLevel) store(w, at, x, y, data, off);
            continue;
          }
          if (isLoad) {
            const x = ri(0, l), y = dims >= 2 ? ri(1, l) : 0;
            fetch(w, at, inSlice && inLevel ? x : -1, y, px, off);
          } else {
            // Normalized coordinates scale by each level's size; unnormalized ones address the base level only.
            const u = rf(0, l), vv = dims >= 2 ? rf(1, l) : 0, rz = three ? rf(2, l) : 0;
            const o = offsets ? slotBits(v, regs, ws, A.off, l) : 0;
            OFS[0] = (o << 26) >> 26;
            OFS[1] = (o << 18) >> 26;
            OFS[2] = (o << 10) >> 26;
            CMP.fn = compare ? cmpFn : -1;
            GATHER.comp = gather ? gatherComp : -1;
            CMP.ref = compare ? slotF(v, regs, ws, A.z, l) : 0;
            let lod = 0, rawLod = 0;
            if (!unnorm) {
              const dd = (a: number, b: number, c: number): number => Math.hypot(a * base.width, b * base.height, c * base.depth);
              if (deriv) {
                // Explicit derivatives, scaled to base-level texels.
                const dx = (k: number): number => (k < dims ? slotF(v, regs, ws, A.dx[k]!, l) : 0);
                const dy = (k: number): number => (k < dims ? slotF(v, regs, ws, A.dy[k]!, l) : 0);
                lod = Math.log2(Math.max(dd(dx(0), dx(1), dx(2)), dd(dy(0), dy(1), dy(2))));
              } else if (implicitLod) {
                // Implicit LOD from the quad's derivatives (lanes 4q..4q+3: TL, TR, BL, BR) in base-level texels.
                const q = l & ~3;
                const c = (k: number, m: number): number => (k < dims ? rf(k, q + m) - rf(k, q) : 0);
                lod = Math.log2(Math.max(dd(c(0, 1), c(1, 1), c(2, 1)), dd(c(0, 2), c(1, 2), c(2, 2))));
              } else if (bk === 'sample_l') lod = rf(coords, l);
              if (bias) lod += slotF(v, regs, ws, A.bias, l);
              rawLod = lod + lodBias;
              lod = Math.min(maxLod, Math.max(minLod, rawLod));
              if (Number.isNaN(lod)) lod = minLod;
              // _cl: the clamp is a minimum LOD (SPIR-V MinLod): no level finer than it.
              if (clampLod) lod = Math.max(lod, rf(coords, l));
            }
            const top = im.lastLevel - im.baseLevel;
            if (getLod) {
              // (clamped, unclamped): the LOD the sample would use, clamped by the sampler and the view's levels; the computed one.
              px[0] = unnorm ? 0 : Math.min(top, Math.max(0, lod));
              px[1] = unnorm ? 0 : rawLod;
              px[2] = 0;
              px[3] = 0;
            } else if (lod <= 0 || unnorm) {
              filt(base, unnorm ? u : u * base.width, unnorm ? vv : vv * base.height, unnorm ? rz : rz * base.depth, magLinear, px, off);
            } else if (mipFilter === 2 && top > 0 && !gather) {
              // Linear between the two nearest levels.
              const l0 = Math.min(top, Math.floor(lod)), l1 = Math.min(top, l0 + 1), fr = Math.min(1, lod - l0);
              const i0 = atLevel(im, im.baseLevel + l0), i1 = atLevel(im, im.baseLevel + l1);
              filt(i0, u * i0.width, vv * i0.height, rz * i0.depth, minLinear, px, off);
              if (fr > 0 && l1 !== l0) {
                filt(i1, u * i1.width, vv * i1.height, rz * i1.depth, minLinear, t2, off);
                for (let c = 0; c < 4; c++) px[c] = px[c]! * (1 - fr) + t2[c]! * fr;
              }
            } else {
              // MIP_FILTER point: the nearest level (ceil(lod + 0.5) - 1); none: the base level.
              const lv = mipFilter === 1 || (gather && mipFilter === 2) ? Math.min(top, Math.max(0, Math.ceil(lod + 0.5) - 1)) : 0;
              const il = atLevel(im, im.baseLevel + lv);
              filt(il, u * il.width, vv * il.height, rz * il.depth, minLinear, px, off);
            }
          }
          if (d16) {
            for (let k = 0; k < chans.length; k += 2) {
              const lo = resultBits(px[chans[k]!]!, intResult, true), hi = k + 1 < chans.length ? resultBits(px[chans[k + 1]!]!, intResult, true) : 0;
              res[(k >> 1) * ws + l] = (lo | (hi << 16)) >>> 0;
            }
          } else chans.forEach((c, k) => { res[k * ws + l] = resultBits(px[c]!, intResult, false); });
          // TFE/LWE: the status VGPR after the data. Every texel is resident (no PRT) and no LOD
          // warning applies, so it is 0.
          if (status) res[nData * ws + l] = 0;
        }
        if (!isStore) for (let l = 0; l < ws; l++) if (laneOn(w, l)) for (let k = 0; k < nOut; k++) v[(vdata + k) * ws + l] = res[k * ws + l]!;
        RAW.mode = 0;
        CMP.fn = -1;
        GATHER.comp = -1;
        OFS[0] = 0;
        OFS[1] = 0;
        OFS[2] = 0;
        w.laneOps += n;
      },
    };
  }
}

/** SQ_RSRC_IMG_TYPE of a GFX10+ dim (1D, 2D, 3D, CUBE, 1D_ARRAY, 2D_ARRAY, 2D_MSAA, 2D_MSAA_ARRAY). */
const TYPE_OF_DIM = [IMG_1D, IMG_2D, IMG_3D, 11, IMG_1D_ARRAY, IMG_2D_ARRAY, 14, 15];

/**
 * image_get_resinfo: the view's size at mip level BASE_LEVEL + the address VGPR (16-bit with a16),
 * as integers (width, height, depth or layers, levels) packed by DMASK like a load. The layout of
 * the result is D3D's resinfo, which the instruction implements: 1D (w, 0, 0), 1D_ARRAY (w,
 * layers, 0), 2D (w, h, 0), 2D_ARRAY (w, h, layers), 3D (w, h, d); each size max(1, size >> level)
 * (Mesa's ac_nir_lower_resinfo minifies the same T# fields); layers = DEPTH - BASE_ARRAY + 1; levels
 * = LAST_LEVEL - BASE_LEVEL + 1; a level past LAST_LEVEL returns sizes of 0. The dimensionality is
 * the instruction's dim (GFX10+) or the T# TYPE (GFX9). No memory is read: any FORMAT or SW_MODE.
 */
define('image_get_resinfo', (inst, env: ExecEnv) => {
  const f = inst.fields;
  const ws = env.waveSize;
  const findings: Finding[] = [];
  const G = imageGen(env.space.gfx);
  const dmask = f.dmask! & 15;
  const chans = [0, 1, 2, 3].filter((c) => (dmask >> c) & 1);
  if (!chans.length) chans.push(0);
  const vdata = f.vdata!;
  if (!dstInRange(env, inst, vdata, mimgDst(false, dmask, 0, f.tfe || f.lwe ? 1 : 0), findings)) {
    return { cls: 'vmem', findings, run: (w) => { if (w.vmcnt < CNT_MAX) w.vmcnt++; } };
  }
  const status = f.tfe === 1 || f.lwe === 1;
  const addr = f.vaddr! >= env.vgprs ? 0 : f.vaddr!;
  if (f.vaddr! >= env.vgprs) srcRows(env, inst, f.vaddr!, 1, 'address', findings);
  const a16 = f.a16 === 1;
  const srsrc = f.srsrc! * 4;
  const R = G.R;
  return {
    cls: 'vmem',
    findings,
    run: (w) => {
      if (w.vmcnt < CNT_MAX) w.vmcnt++;
      const type = G.typeDims ? get(w, srsrc, R.TYPE) : TYPE_OF_DIM[f.dim ?? 0]!;
      const width = (R.WIDTH ? get(w, srsrc, R.WIDTH) : get(w, srsrc, R.WIDTH_LO) | (get(w, srsrc, R.WIDTH_HI) << 2)) + 1;
      const height = get(w, srsrc, R.HEIGHT) + 1;
      const depth = get(w, srsrc, R.DEPTH), baseArray = get(w, srsrc, R.BASE_ARRAY);
      const baseLevel = get(w, srsrc, R.BASE_LEVEL), lastLevel = get(w, srsrc, R.LAST_LEVEL);
      const levels = lastLevel - baseLevel + 1;
      const layers = depth - baseArray + 1;
      const v = w.v;
      const out = [0, 0, 0, 0];
      let n = 0;
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        n++;
        const raw = v[addr * ws + l]!;
        const lv = baseLevel + (a16 ? raw & 0xffff : raw >>> 0);
        const inRange = lv <= lastLevel;
        const mini = (s: number): number => (inRange ? Math.max(1, Math.floor(s / 2 ** lv)) : 0);
        out[0] = mini(width);
        out[1] = type === IMG_1D ? 0 : type === IMG_1D_ARRAY ? layers : mini(height);
        out[2] = type === IMG_3D ? mini(depth + 1) : type === IMG_2D_ARRAY ? layers : 0;
        out[3] = levels;
        chans.forEach((c, k) => { v[(vdata + k) * ws + l] = out[c]! >>> 0; });
        if (status) v[(vdata + chans.length) * ws + l] = 0;
      }
      w.laneOps += n;
    },
  };
});

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
    const instDims = dimOf(f.dim ?? 0), instArray = arrayOf(f.dim ?? 0);
    const why = unsupported(inst) || (wide ? '64-bit image atomics are not modelled' : '');
    const a16 = f.a16 === 1;
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
        // Coordinates (16-bit halves with a16), then the layer; 3D: z picks the depth slice.
        const B = addrSlots(false, false, false, 0, false, a16, dims + (array ? 1 : 0)).body;
        const base = atLevel(im, im.baseLevel);
        const slices = im.lastSlice - im.firstSlice;
        const v = w.v;
        let n = 0;
        for (let l = 0; l < ws; l++) {
          if (!laneOn(w, l)) continue;
          n++;
          const x = slotI(v, regs, ws, B[0]!, l), y = dims >= 2 ? slotI(v, regs, ws, B[1]!, l) : 0;
          const z = dims === 3 ? slotI(v, regs, ws, B[2]!, l) : 0;
          const layer = array ? slotI(v, regs, ws, B[dims]!, l) : 0;
          let old = 0;
          if (x >= 0 && y >= 0 && x < base.width && y < base.height && layer >= 0 && layer <= slices && z >= 0 && z < (dims === 3 ? im.depth : 1)) {
            const a = base.base + (dims === 3 ? z : im.firstSlice + layer) * im.sliceBytes + (y * base.pitch + x) * 4;
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

/** MIMG dim values of multi-sampled images (GFX10+). */
const DIM_2D_MSAA = 6, DIM_2D_MSAA_ARRAY = 7;

/**
 * image_msaa_load (GFX11): one channel (the lowest DMASK bit) of four consecutive samples,
 * fragment index f .. f + 3, of texel (x, y[, layer]) of a 2D_MSAA / 2D_MSAA_ARRAY image, into
 * four VGPRs (two with D16; + 1 status VGPR of 0 with TFE/LWE); addresses x, y, [layer], fragment
 * index (16-bit halves with A16). The sample count is 2^LAST_LEVEL, as Mesa's image descriptors
 * encode MSAA (LAST_LEVEL = MAX_MIP = log2(samples)). Model choice for the surface: gpusim's CB
 * layout (src/amd/gfx/cb.ts): sample s of pixel (x, y) at base + ((y * width + x) * samples + s)
 * * bytes, layers of width * height * samples texels from BASE_ARRAY (no FMASK, no tiling; real
 * MSAA surfaces are always tiled). Samples at or past the count, texels outside the image and
 * layers outside the view read 0.
 */
define('image_msaa_load', (inst, env: ExecEnv) => {
  const f = inst.fields;
  const ws = env.waveSize;
  const findings: Finding[] = [];
  const G = imageGen(env.space.gfx);
  const dmask = f.dmask! & 15;
  const chan = dmask ? 31 - Math.clz32(dmask & -dmask) : 0;
  const d16 = f.d16 === 1;
  const status = f.tfe === 1 || f.lwe === 1;
  const nData = d16 ? 2 : 4;
  const vdata = f.vdata!;
  if (!dstInRange(env, inst, vdata, nData + (status ? 1 : 0), findings)) {
    return { cls: 'vmem', findings, run: (w) => { if (w.vmcnt < CNT_MAX) w.vmcnt++; } };
  }
  const addr = addrRegs(inst);
  const regs = addr.map((r) => (r >= env.vgprs ? 0 : r));
  if (addr.some((r) => r >= env.vgprs)) srcRows(env, inst, addr[0]!, addr.length, 'address', findings);
  const array = f.dim === DIM_2D_MSAA_ARRAY;
  const why = f.r128 ? 'r128 (a 128-bit T#) is not modelled' : f.dim !== DIM_2D_MSAA && !array ? `dim ${f.dim}: image_msaa_load needs 2D_MSAA or 2D_MSAA_ARRAY` : '';
  const B = addrSlots(false, false, false, 0, false, f.a16 === 1, array ? 4 : 3).body;
  const warn = new OncePerDispatch(env);
  const px = new Float64Array(4);
  return {
    cls: 'vmem',
    findings,
    run: (w) => {
      const pc = w.pc - inst.size;
      if (w.vmcnt < CNT_MAX) w.vmcnt++;
      const im = readTsharp(w, f.srsrc! * 4, G);
      const bad = why || im.ok;
      if (bad) {
        if (warn.due) diagAt(env, w, pc, 'gfx11.mimg.unsupported', `${inst.mnemonic}: ${bad}; the instruction writes 0`);
        warn.fire();
      }
      const samples = 2 ** im.lastLevel;
      // The surface as rows of width * samples texels: sample s of x is texel x * samples + s.
      const rows: Image = { ...im, width: im.width * samples, pitch: im.width * samples };
      const layerBytes = im.width * im.height * samples * im.bytes;
      const intResult = im.nfmt === 'uint' || im.nfmt === 'sint';
      const v = w.v;
      const res = new Uint32Array(5 * ws);
      let n = 0;
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        n++;
        const x = slotI(v, regs, ws, B[0]!, l), y = slotI(v, regs, ws, B[1]!, l);
        const layer = array ? slotI(v, regs, ws, B[2]!, l) : 0;
        const frag = slotI(v, regs, ws, B[array ? 3 : 2]!, l);
        const out = [0, 0, 0, 0];
        const inView = !bad && x >= 0 && x < im.width && layer >= 0 && layer <= (array ? im.depth - 1 : 0) - im.firstSlice; // T# DEPTH: the last slice
        for (let k = 0; k < 4; k++) {
          const s = frag + k;
          if (!inView || s < 0 || s >= samples) continue;
          fetch(w, rows, x * samples + s, y, px, (im.firstSlice + layer) * layerBytes);
          out[k] = px[chan]!;
        }
        if (d16) {
          for (let k = 0; k < 2; k++) res[k * ws + l] = (resultBits(out[2 * k]!, intResult, true) | (resultBits(out[2 * k + 1]!, intResult, true) << 16)) >>> 0;
        } else for (let k = 0; k < 4; k++) res[k * ws + l] = resultBits(out[k]!, intResult, false);
        if (status) res[nData * ws + l] = 0;
      }
      const nOut = nData + (status ? 1 : 0);
      for (let l = 0; l < ws; l++) if (laneOn(w, l)) for (let k = 0; k < nOut; k++) v[(vdata + k) * ws + l] = res[k * ws + l]!;
      w.laneOps += n;
    },
  };
});
