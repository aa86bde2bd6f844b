/**
 * Images and samplers of a `gpusim run` manifest (GFX9, GFX10.3, GFX11 code objects): an image is
 * a buffer of texels laid out as the target generation's addrlib lays out a linear surface
 * (src/amd/exec/image-layout.ts: rows aligned to 256 bytes, array or depth slices one after the
 * other), described by a T# in that generation's layout and format numbering (the tables the MIMG
 * semantics read, src/amd/exec/mimg*.gen.ts). A sampler is an S#. A kernel argument naming either
 * passes the GPU address of its descriptor (32 bytes for a T#, 16 for an S#), as a pointer in the
 * constant address space: OpenCL image2d_t/sampler_t on AMDGPU, or `__constant uint8 *`.
 */
import { InputError } from '../core/errors.js';
import { imageGen } from '../amd/exec/mimg.js';
import { linearLayout } from '../amd/exec/image-layout.js';
import type { RsrcBits } from '../amd/exec/mimg-rsrc.gen.js';

export const IMAGE_TYPES = ['1d', '2d', '3d', '1d_array', '2d_array'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
/** SQ_RSRC_IMG_TYPE per image type (the same numbers on GFX9..GFX11). */
const TYPE_CODE: Readonly<Record<ImageType, number>> = { '1d': 8, '2d': 9, '3d': 10, '1d_array': 12, '2d_array': 13 };

export interface ImageSpec {
  readonly name: string;
  /** The buffer holding the texels. */
  readonly buffer: string;
  readonly type: ImageType;
  /** A format name of the target's image format table, e.g. 32_32_32_32_FLOAT, 8_8_8_8_UNORM, 16_16_16_16_FLOAT. */
  readonly format: string;
  readonly width: number;
  readonly height: number;
  /** 3D: depth in slices; arrays: layers; 1 otherwise. */
  readonly depth: number;
  readonly levels: number;
}

export const SAMPLER_ADDRESS = ['repeat', 'mirror', 'clamp', 'border'] as const;
export interface SamplerSpec {
  readonly name: string;
  readonly normalized: boolean;
  readonly filter: 'nearest' | 'linear';
  readonly address: (typeof SAMPLER_ADDRESS)[number];
  readonly mip: 'none' | 'nearest' | 'linear';
}

type Fail = (field: string, msg: string) => never;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
function count(v: unknown, field: string, fail: Fail, min: number, max: number): number {
  if (!Number.isInteger(v) || (v as number) < min || (v as number) > max) fail(field, `must be an integer in ${min}..${max}`);
  return v as number;
}
function oneOf<T extends string>(v: unknown, field: string, fail: Fail, names: readonly T[]): T {
  if (typeof v !== 'string' || !(names as readonly string[]).includes(v)) fail(field, `must be one of ${names.join(', ')}`);
  return v as T;
}

const IMAGE_KEYS = ['buffer', 'type', 'format', 'width', 'height', 'depth', 'layers', 'levels'];
/** Validate the manifest's `images` object (buffer names must exist). */
export function parseImages(v: unknown, buffers: ReadonlySet<string>, fail: Fail): ImageSpec[] {
  if (!isObj(v)) return fail('images', 'must be an object of name -> {buffer, type, format, width, height, depth|layers, levels}');
  return Object.entries(v).map(([name, o]) => {
    const f = `images.${name}`;
    if (buffers.has(name)) fail(f, 'an image cannot have the name of a buffer');
    if (!isObj(o)) return fail(f, 'must be an object {buffer, type, format, width, ...}');
    for (const k of Object.keys(o)) if (!IMAGE_KEYS.includes(k)) fail(`${f}.${k}`, `unknown field (expected ${IMAGE_KEYS.join(', ')})`);
    if (typeof o.buffer !== 'string' || !buffers.has(o.buffer)) fail(`${f}.buffer`, `${JSON.stringify(o.buffer)} is not a buffer`);
    const type = oneOf(o.type ?? '2d', `${f}.type`, fail, IMAGE_TYPES);
    if (typeof o.format !== 'string' || o.format === '') fail(`${f}.format`, 'must be a format name such as 32_32_32_32_FLOAT');
    const width = count(o.width, `${f}.width`, fail, 1, 16384);
    const height = type === '1d' || type === '1d_array' ? count(o.height ?? 1, `${f}.height`, fail, 1, 1) : count(o.height ?? 1, `${f}.height`, fail, 1, 16384);
    if (o.depth !== undefined && type !== '3d') fail(`${f}.depth`, 'only 3d images have a depth (arrays: layers)');
    if (o.layers !== undefined && !type.endsWith('_array')) fail(`${f}.layers`, 'only 1d_array and 2d_array images have layers');
    const depth = type === '3d' ? count(o.depth ?? 1, `${f}.depth`, fail, 1, 8192) : type.endsWith('_array') ? count(o.layers ?? 1, `${f}.layers`, fail, 1, 8192) : 1;
    const levels = count(o.levels ?? 1, `${f}.levels`, fail, 1, 15);
    if (type === '3d' && levels > 1) fail(`${f}.levels`, '3D mip chains are not modelled (one level)');
    const maxLevels = Math.floor(Math.log2(Math.max(width, height))) + 1;
    if (levels > maxLevels) fail(`${f}.levels`, `a ${width}x${height} image has at most ${maxLevels} levels`);
    return { name, buffer: o.buffer as string, type, format: o.format as string, width, height, depth, levels };
  });
}

const SAMPLER_KEYS = ['normalized', 'filter', 'address', 'mip'];
/** Validate the manifest's `samplers` object. */
export function parseSamplers(v: unknown, taken: ReadonlySet<string>, fail: Fail): SamplerSpec[] {
  if (!isObj(v)) return fail('samplers', 'must be an object of name -> {normalized, filter, address, mip}');
  return Object.entries(v).map(([name, o]) => {
    const f = `samplers.${name}`;
    if (taken.has(name)) fail(f, 'a sampler cannot have the name of a buffer or an image');
    if (!isObj(o)) return fail(f, 'must be an object {normalized, filter, address, mip}');
    for (const k of Object.keys(o)) if (!SAMPLER_KEYS.includes(k)) fail(`${f}.${k}`, `unknown field (expected ${SAMPLER_KEYS.join(', ')})`);
    if (o.normalized !== undefined && typeof o.normalized !== 'boolean') fail(`${f}.normalized`, 'must be true or false');
    return {
      name, normalized: o.normalized !== false,
      filter: oneOf(o.filter ?? 'nearest', `${f}.filter`, fail, ['nearest', 'linear'] as const),
      address: oneOf(o.address ?? 'clamp', `${f}.address`, fail, SAMPLER_ADDRESS),
      mip: oneOf(o.mip ?? 'none', `${f}.mip`, fail, ['none', 'nearest', 'linear'] as const),
    };
  });
}

function pack(layout: Readonly<Record<string, RsrcBits>>, words: number, fields: Readonly<Record<string, number>>): number[] {
  const w = new Array<number>(words).fill(0);
  for (const [k, v] of Object.entries(fields)) {
    const d = layout[k];
    if (!d) continue;
    w[d.word] = (w[d.word]! + (v % 2 ** d.width) * 2 ** d.lo) >>> 0;
  }
  return w;
}

/** Texel size in bytes of a format of generation `gfx` (undefined: no such name). */
export function imageFormat(gfx: number, name: string): { code: number; bytes: number } | undefined {
  for (const [k, v] of Object.entries(imageGen(gfx).F)) if (v.name === name) return { code: Number(k), bytes: v.bytes };
  return undefined;
}

/** Bytes the texels of an image take in its generation's linear layout (every level, slice and layer). */
export function imageBytes(gfx: number, im: ImageSpec): number {
  const fmt = imageFormat(gfx, im.format);
  if (!fmt) throw new InputError(`images.${im.name}.format: '${im.format}' is not an image format of this target`);
  if (256 % fmt.bytes !== 0) throw new InputError(`images.${im.name}.format: ${im.format} (${fmt.bytes}-byte texels) has no linear layout gpusim models`);
  const G = imageGen(gfx);
  return linearLayout(G.rule, im.width, im.height, fmt.bytes, im.levels).sliceBytes * im.depth;
}

/** The T# (8 dwords) of an image whose texels start at `va` (256-byte aligned), for generation `gfx`. */
export function imageDescriptor(gfx: number, im: ImageSpec, va: number): number[] {
  const G = imageGen(gfx);
  const fmt = imageFormat(gfx, im.format)!;
  const L = linearLayout(G.rule, im.width, im.height, fmt.bytes, im.levels);
  // GFX9: one WIDTH field and PITCH = addrlib's epitch - 1 (row pitch, or the mip chain height);
  // GFX10.3+: WIDTH_LO/HI, the aligned pitch derived from WIDTH (DEPTH is the last slice / depth - 1).
  const size: Record<string, number> = G.R.WIDTH ? { WIDTH: im.width - 1, PITCH: L.epitch - 1 } : { WIDTH_LO: (im.width - 1) & 3, WIDTH_HI: (im.width - 1) >> 2 };
  const w = pack(G.R, 8, {
    BASE_ADDRESS_HI: Math.floor(va / 2 ** 40), FORMAT: fmt.code, ...size, HEIGHT: im.height - 1,
    DST_SEL_X: 4, DST_SEL_Y: 5, DST_SEL_Z: 6, DST_SEL_W: 7, TYPE: TYPE_CODE[im.type],
    DEPTH: im.depth - 1, MAX_MIP: im.levels - 1, LAST_LEVEL: im.levels - 1,
  });
  w[0] = Math.floor(va / 256) % 2 ** 32;
  return w;
}

/** The S# (4 dwords) of a sampler for generation `gfx`. */
export function samplerDescriptor(gfx: number, s: SamplerSpec): number[] {
  const G = imageGen(gfx);
  // SQ_TEX_WRAP, SQ_TEX_MIRROR, SQ_TEX_CLAMP_LAST_TEXEL, SQ_TEX_CLAMP_BORDER (transparent black).
  const wrap = { repeat: 0, mirror: 1, clamp: 2, border: 6 }[s.address];
  const lin = s.filter === 'linear' ? 1 : 0;
  const mip = { none: 0, nearest: 1, linear: 2 }[s.mip];
  return pack(G.S, 4, {
    CLAMP_X: wrap, CLAMP_Y: wrap, CLAMP_Z: wrap, XY_MAG_FILTER: lin, XY_MIN_FILTER: lin, Z_FILTER: lin + 1,
    FORCE_UNNORMALIZED: s.normalized ? 0 : 1, MIP_FILTER: mip, MAX_LOD: mip ? 15 * 256 : 0,
  });
}
