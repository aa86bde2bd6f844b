/**
 * RATs (Evergreen/Cayman UAVs) as surfaces: a RAT is bound through the colour-buffer registers
 * CB_COLORn_BASE, PITCH, SLICE, VIEW, INFO, ATTRIB and DIM (0x028C60 + 0x3C * n, RATs 0..11), and
 * STORE_TYPED converts the four channels of its data GPR to the surface's FORMAT / NUMBER_TYPE /
 * COMP_SWAP at the texel the index GPR's x / y / z name. Pure functions of the seven register dwords
 * and memory; the wave (machine.ts) supplies the GPRs and turns faults into diagnostics.
 *
 * Field positions are the Evergreen register layout (Mesa's evergreend.h). The COLOR_* format numbers
 * equal the texture unit's FMT_* numbers (TEX_FORMATS), so the component widths come from that table.
 * Choices where the documents leave room:
 * - Only linear surfaces are addressed (ARRAY_MODE 0/1): texel (x, y, slice) at
 *   BASE * 256 + (slice * (SLICE_TILE_MAX + 1) * 64 + y * (PITCH_TILE_MAX + 1) * 8 + x) * bytesPerTexel,
 *   slice = z (arrays: y for 1D arrays) + VIEW.SLICE_START.
 * - A coordinate past DIM.WIDTH_MAX / HEIGHT_MAX or VIEW.SLICE_MAX is dropped (D3D's rule for UAV
 *   writes) and reported. A BUFFER surface (RESOURCE_TYPE 0) is addressed by x alone, checked against
 *   the whole DIM dword as the last element index (Mesa's Vulkan driver for Evergreen writes the
 *   element count - 1 there).
 * - Conversions follow the D3D11 functional spec's rules: FLOAT -> UNORM clamps to [0, 1] (NaN 0),
 *   scales by 2^n - 1, adds 0.5 and truncates; SNORM clamps to [-1, 1], scales by 2^(n-1) - 1 and
 *   rounds half away from zero; 16-bit floats round to nearest even. UINT / SINT values narrower than
 *   32 bits saturate (gpusim's choice: the documents do not say whether the CB wraps or clamps).
 * - COMP_SWAP follows the component orders Mesa's r600_translate_colorswap assigns (memory component 0
 *   is the lowest-addressed one): 4 components STD RGBA, ALT BGRA, STD_REV ABGR, ALT_REV ARGB;
 *   2 components STD XY, STD_REV YX, ALT X..W, ALT_REV W..X; 1 component STD X, ALT_REV W.
 * - COMP_MASK masks shader channels: a masked channel's memory component keeps its old bits.
 */
import { f16bits, f32 } from '../../core/float.js';
import { InputError } from '../../core/errors.js';
import { TEX_FORMATS } from '../isa/opcodes.gen.js';
import { texFormat } from './tex.js';

const bits = (v: number, lo: number, n: number): number => (v >>> lo) & (n === 32 ? 0xffffffff : (1 << n) - 1);

export const RAT_NUMBER = { UNORM: 0, SNORM: 1, USCALED: 2, SSCALED: 3, UINT: 4, SINT: 5, SRGB: 6, FLOAT: 7 } as const;
export const RAT_SWAP = { STD: 0, ALT: 1, STD_REV: 2, ALT_REV: 3 } as const;
export const RAT_RESOURCE = { BUFFER: 0, TEXTURE1D: 1, TEXTURE1DARRAY: 2, TEXTURE2D: 3, TEXTURE2DARRAY: 4, TEXTURE3D: 5 } as const;
/**
 * The COLOR_* number of CB_COLORn_INFO.FORMAT for a name such as 'COLOR_8_8_8_8': the colour formats
 * share the texture unit's FMT_* numbers (evergreend.h), so they come from the generated TEX_FORMATS.
 */
export function colorFormat(name: string): number {
  const f = TEX_FORMATS.find((x) => x.name === name.replace(/^COLOR_/, 'FMT_'));
  if (!f) throw new InputError(`no colour format ${name} (known: ${TEX_FORMATS.map((x) => x.name.replace('FMT_', 'COLOR_')).join(', ')})`);
  return f.format;
}

/** A RAT surface decoded from its seven CB_COLORn_* dwords (BASE, PITCH, SLICE, VIEW, INFO, ATTRIB, DIM). */
export interface RatSurface {
  /** Byte address (BASE * 256). */
  readonly base: number;
  /** Row pitch in texels ((PITCH_TILE_MAX + 1) * 8). */
  readonly pitch: number;
  /** Slice size in texels ((SLICE_TILE_MAX + 1) * 64). */
  readonly slice: number;
  readonly sliceStart: number;
  readonly sliceMax: number;
  readonly endian: number;
  readonly format: number;
  readonly arrayMode: number;
  readonly numberType: number;
  readonly compSwap: number;
  readonly resourceType: number;
  readonly widthMax: number;
  readonly heightMax: number;
  /** The whole DIM dword (a buffer's last element index). */
  readonly dim: number;
}

export function decodeRat(w: ArrayLike<number>): RatSurface {
  const view = w[3]! >>> 0, info = w[4]! >>> 0, dim = w[6]! >>> 0;
  return {
    base: (w[0]! >>> 0) * 256,
    pitch: (bits(w[1]! >>> 0, 0, 11) + 1) * 8,
    slice: (bits(w[2]! >>> 0, 0, 22) + 1) * 64,
    sliceStart: bits(view, 0, 11),
    sliceMax: bits(view, 13, 11),
    endian: bits(info, 0, 2),
    format: bits(info, 2, 6),
    arrayMode: bits(info, 8, 4),
    numberType: bits(info, 12, 3),
    compSwap: bits(info, 15, 2),
    resourceType: bits(info, 27, 3),
    widthMax: bits(dim, 0, 16),
    heightMax: bits(dim, 16, 16),
    dim,
  };
}

/** Field values for building a RAT binding (tests, tools): the inverse of decodeRat. */
export interface RatSurfaceFields {
  base?: number; pitch?: number; slice?: number; sliceStart?: number; sliceMax?: number; endian?: number; format: number;
  arrayMode?: number; numberType: number; compSwap?: number; resourceType?: number;
  /** Texels (width, height) of an image; for a BUFFER the element count. */
  width: number; height?: number;
}
export function encodeRat(f: RatSurfaceFields): Uint32Array {
  const w = new Uint32Array(7);
  const buffer = (f.resourceType ?? RAT_RESOURCE.BUFFER) === RAT_RESOURCE.BUFFER;
  const pitch = f.pitch ?? Math.ceil(f.width / 8) * 8;
  const height = f.height ?? 1;
  w[0] = (f.base ?? 0) / 256;
  w[1] = pitch / 8 - 1;
  w[2] = (f.slice ?? Math.ceil((pitch * height) / 64) * 64) / 64 - 1;
  w[3] = (f.sliceStart ?? 0) | ((f.sliceMax ?? 0) << 13);
  w[4] = ((f.endian ?? 0) | (f.format << 2) | ((f.arrayMode ?? 1) << 8) | (f.numberType << 12) | ((f.compSwap ?? 0) << 15) |
    (1 << 26) | ((f.resourceType ?? RAT_RESOURCE.BUFFER) << 27)) >>> 0;
  w[6] = buffer ? f.width - 1 : ((f.width - 1) | ((height - 1) << 16)) >>> 0;
  return w;
}

/** Why a typed store could not be served (the wave turns it into a diagnostic). */
export type RatFault = { readonly id: 'r600.rat.format' | 'r600.rat.out-of-range' | 'r600.mem.out-of-range'; readonly message: string };

/** Shader channel stored in memory component k, per COMP_SWAP and component count (Mesa's orders). */
const SWAPS: Readonly<Record<number, readonly (readonly number[] | undefined)[]>> = {
  1: [[0], undefined, undefined, [3]],
  2: [[0, 1], [0, 3], [1, 0], [3, 0]],
  4: [[0, 1, 2, 3], [2, 1, 0, 3], [3, 2, 1, 0], [3, 0, 1, 2]],
};

/** The surface's component widths and swap, or why STORE_TYPED cannot convert to it. */
export function ratLayout(s: RatSurface): { readonly widths: readonly number[]; readonly swap: readonly number[]; readonly bpp: number } | RatFault {
  const fmt = texFormat(s.format);
  const bad = (why: string): RatFault => ({ id: 'r600.rat.format', message: `STORE_TYPED: ${why}` });
  if (!fmt || fmt.bits.some((n) => n !== 8 && n !== 16 && n !== 32)) return bad(`CB_COLOR_INFO.FORMAT ${s.format} is not modelled`);
  const nt = s.numberType;
  if (fmt.float !== (nt === RAT_NUMBER.FLOAT)) return bad(`NUMBER_TYPE ${nt} does not fit FORMAT ${fmt.name.replace('FMT_', 'COLOR_')}`);
  if (nt === RAT_NUMBER.USCALED || nt === RAT_NUMBER.SSCALED || nt === RAT_NUMBER.SRGB) return bad(`NUMBER_TYPE ${nt} (USCALED/SSCALED/SRGB) is not modelled`);
  if (s.endian !== 0) return bad(`ENDIAN ${s.endian} (byte swapping) is not modelled`);
  if (s.arrayMode > 1) return bad(`ARRAY_MODE ${s.arrayMode} (tiled) is not modelled`);
  if (s.resourceType > RAT_RESOURCE.TEXTURE3D) return bad(`RESOURCE_TYPE ${s.resourceType} is reserved`);
  const swap = SWAPS[fmt.bits.length]?.[s.compSwap];
  if (!swap) return bad(`COMP_SWAP ${s.compSwap} is not defined for ${fmt.bits.length}-component ${fmt.name.replace('FMT_', 'COLOR_')}`);
  return { widths: fmt.bits, swap, bpp: fmt.bits.reduce((a, b) => a + b, 0) / 8 };
}

/** A 32-bit channel pattern converted to an n-bit component of NUMBER_TYPE nt (as an unsigned number). */
export function ratComponent(v: number, n: number, nt: number): number {
  const max = 2 ** n - 1;
  switch (nt) {
    case RAT_NUMBER.FLOAT: return n === 32 ? v >>> 0 : f16bits(f32(v));
    case RAT_NUMBER.UNORM: {
      const x = f32(v);
      return Number.isNaN(x) ? 0 : Math.floor(Math.min(Math.max(x, 0), 1) * max + 0.5);
    }
    case RAT_NUMBER.SNORM: {
      const x = f32(v);
      if (Number.isNaN(x)) return 0;
      const c = Math.min(Math.max(x, -1), 1) * (2 ** (n - 1) - 1);
      const r = c >= 0 ? Math.floor(c + 0.5) : Math.ceil(c - 0.5);
      return r < 0 ? r + 2 ** n : r;
    }
    case RAT_NUMBER.UINT: return Math.min(v >>> 0, max);
    default: { // SINT
      const r = Math.min(Math.max(v | 0, -(2 ** (n - 1))), 2 ** (n - 1) - 1);
      return r < 0 ? r + 2 ** n : r;
    }
  }
}

/**
 * STORE_TYPED of one work-item: channels `value(0..3)` (32-bit patterns) converted to the surface at
 * (x, y, z); channels outside `mask` keep their memory bits. Returns a fault instead of writing.
 */
export function storeTyped(s: RatSurface, mem: DataView, x: number, y: number, z: number, value: (ch: number) => number, mask: number): RatFault | undefined {
  const lay = ratLayout(s);
  if ('id' in lay) return lay;
  const rt = s.resourceType;
  let sl = 0;
  if (rt === RAT_RESOURCE.TEXTURE1D || rt === RAT_RESOURCE.BUFFER) y = 0;
  if (rt === RAT_RESOURCE.TEXTURE1DARRAY) { sl = y; y = 0; }
  if (rt === RAT_RESOURCE.TEXTURE2DARRAY || rt === RAT_RESOURCE.TEXTURE3D) sl = z;
  const outside = rt === RAT_RESOURCE.BUFFER ? x < 0 || x > s.dim
    : x < 0 || x > s.widthMax || y < 0 || y > s.heightMax || sl < 0 || (rt !== RAT_RESOURCE.TEXTURE1D && rt !== RAT_RESOURCE.TEXTURE2D && sl + s.sliceStart > s.sliceMax);
  if (outside) return { id: 'r600.rat.out-of-range', message: `STORE_TYPED at (${x}, ${y}, ${sl}) lies outside the RAT (DIM ${s.widthMax + 1}x${s.heightMax + 1}, slices ${s.sliceStart}..${s.sliceMax}); dropped` };
  const addr = s.base + (((sl + (rt === RAT_RESOURCE.BUFFER ? 0 : s.sliceStart)) * s.slice + y * s.pitch) + x) * lay.bpp;
  if (addr < 0 || addr + lay.bpp > mem.byteLength) return { id: 'r600.mem.out-of-range', message: `STORE_TYPED texel at byte ${addr} lies outside memory (${mem.byteLength} bytes)` };
  let at = addr;
  for (let k = 0; k < lay.widths.length; k++) {
    const n = lay.widths[k]!, ch = lay.swap[k]!;
    if ((mask >> ch) & 1) {
      const c = ratComponent(value(ch), n, s.numberType);
      if (n === 32) mem.setUint32(at, c, true);
      else if (n === 16) mem.setUint16(at, c, true);
      else mem.setUint8(at, c);
    }
    at += n / 8;
  }
  return undefined;
}

const ENUMS: Readonly<Record<string, Readonly<Record<string, number>>>> = { numberType: RAT_NUMBER, compSwap: RAT_SWAP, resourceType: RAT_RESOURCE };
const NUMERIC = ['base', 'width', 'height', 'pitch', 'slice', 'sliceStart', 'sliceMax', 'endian', 'arrayMode'];

/**
 * A binding written by name (the run manifest's `rats` entries): format 'COLOR_8_8_8_8' (or its
 * number), numberType 'UNORM' / 'SNORM' / 'UINT' / 'SINT' / 'FLOAT'..., compSwap 'STD' / 'ALT' /
 * 'STD_REV' / 'ALT_REV', resourceType 'BUFFER' / 'TEXTURE2D'..., width, height, pitch, sliceStart,
 * sliceMax, endian, arrayMode as numbers. Returns the seven CB_COLORn_* dwords.
 */
export function encodeRatByName(fields: Readonly<Record<string, string | number>>, where: string): Uint32Array {
  const bad = (k: string, msg: string): never => {
    throw new InputError(`${where}.${k}: ${msg}`);
  };
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'format') out[k] = typeof v === 'number' ? v : colorFormat(v);
    else if (ENUMS[k]) {
      const e = ENUMS[k]!;
      const n = typeof v === 'number' ? v : e[v];
      if (n === undefined || !Object.values(e).includes(n)) bad(k, `${JSON.stringify(v)} is not one of ${Object.keys(e).join(', ')}`);
      out[k] = n!;
    } else if (NUMERIC.includes(k)) {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) bad(k, 'must be a non-negative integer');
      out[k] = v as number;
    } else bad(k, `unknown field (expected format, ${Object.keys(ENUMS).join(', ')}, ${NUMERIC.join(', ')})`);
  }
  if (out.format === undefined) bad('format', 'missing (e.g. "COLOR_8_8_8_8")');
  if (out.numberType === undefined) bad('numberType', 'missing (e.g. "UNORM")');
  if (!out.width) bad('width', 'missing (texels, or elements of a buffer)');
  if (out.pitch !== undefined && out.pitch % 8) bad('pitch', 'must be a multiple of 8 texels (PITCH_TILE_MAX)');
  if (out.base !== undefined && out.base % 256) bad('base', 'must be a multiple of 256 bytes');
  return encodeRat(out as unknown as RatSurfaceFields);
}
