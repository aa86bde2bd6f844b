/**
 * cat5 texture instructions through descriptors (sam, samb, saml, samgq, gather4r/g/b/a, isam,
 * isaml, isamm, getsize, getbuf, getinfo): the texture (A6XX_TEX_CONST, 16 dwords) and sampler (A6XX_TEX_SAMP, 4 dwords) are
 * read with the register database's field names, the texel address goes through fdl6's layout
 * (ubwc/tile6.ts: TILE6_LINEAR / TILE6_3, mip levels), the texel format is read from its
 * a6xx_format name.
 *
 * Which descriptor (facts from the isaspec cat5 XML and Mesa's ir3 compiler):
 * - plain: t# / s# immediates index the SB6_CS_TEX state (CP_LOAD_STATE6 constants / samplers);
 * - s2en (DESC_MODE CAT5_UNIFORM / CAT5_NONUNIFORM): SRC3 is a half vec2, sampler then texture;
 * - bindless (CAT5_BINDLESS_(NON)UNIFORM): SRC3 is a full vec2, texture then sampler, both in
 *   descriptor set BASE; CAT5_BINDLESS_IMM: sampler in SRC3 bits 0-3, texture bits 4-7;
 *   the A1 modes take the sampler's set from a1.x bits 0-2 and (CAT5_BINDLESS_A1_IMM) the
 *   texture index (a6xx) or the sampler index (a7xx) from a1.x bits 3-10, the other one from SRC3.
 *   A set's descriptors sit at SP_CS_BINDLESS_BASE[set].ADDR, 2 << DESC_SIZE dwords apart.
 *
 * Sampling (sam family): coordinates in SRC1 (x, y, then z with .3d), then the array layer
 * with .a, then the projector with .p; SRC2 holds integer texel offsets with .o (one per
 * coordinate), then the LOD (saml) or bias (samb). Normalized coordinates are scaled by the
 * level's size unless the sampler has UNNORM_COORDS; nearest picks floor(u), linear blends the
 * 2x2 (2x2x2 with .3d) texels around u - 0.5 with weights rounded to 1/256 (8 sub-texel bits);
 * wrap modes as Vulkan defines them; CLAMP_TO_BORDER texels read the fp32 entry BCOLOR * 128
 * bytes into SP_TP_BORDER_COLOR_BASE_ADDR; SWAP then the SWIZ_* selects. A compute shader has no
 * derivatives: sam's LOD is 0 (plus bias); in a fragment shader (TexContext.quads) it is the implicit
 * LOD of the fiber's 2x2 quad (implicitLod). The LOD is clamped to the sampler's MIN_LOD..MAX_LOD; LOD > 0
 * uses the minification filter and the mip filter (nearest level, or a blend of two with
 * MIPFILTER_LINEAR_*). The descriptor's base is level 0 of the view.
 *
 * Cube maps (TYPE CUBE, DEPTH = cubes): the face from the major axis as Vulkan selects it,
 * layer = face + 6 * cube, clamped to the face's edges. Shadow (.s): the reference follows the
 * coordinates in SRC1; each texel's depth becomes 1 or 0 by the sampler's COMPARE_FUNC
 * (ref OP D) before filtering, the result is (r, 0, 0, 1) before the swizzle.
 *
 * UBWC (FLAG, level 0): the macrotile's flag byte at FLAG_LO/HI + block row * FLAG_BUFFER_PITCH
 * + block column (ubwc/ubwc.ts's flag meaning): stored tiles read as TILE6_3, fast-cleared ones
 * give 0x00/0xff bytes, compressed ones are `adreno.ubwc.compressed-tile` and read as zeros.
 *
 * TILE6_2 (GMEM, the tile being rendered; turnip's input attachments and fd6's framebuffer fetch in
 * GMEM mode): the descriptor's base minus the GPU's GMEM address (rb/gmem.ts `gmemVa`) is the
 * buffer's GMEM offset, PITCH its row pitch; the coordinates are framebuffer pixels, the TP takes
 * off SP_TP_WINDOW_OFFSET (the bin's origin), and the texel is at rb/gmem.ts's `gmemPitchOffset`
 * — the mapping the RB writes GMEM with, so the model's GMEM layout is its TILE6_2 (TexState.gmem).
 * A TILE6_2 base outside GMEM is `adreno.tex.tile6-2-outside-gmem` (read as zeros: the layout of
 * TILE6_2 in memory is not documented); a texel outside the current bin
 * `adreno.tex.gmem-outside-bin` (read at the model's offset: other bins' or buffers' bytes).
 *
 * Not modelled (InputError naming it): seamless filtering across cube faces, UBWC
 * mip levels and cpp 1/2, swaps ZYXW/XYZW, mipmapped 3D textures, formats other than the
 * equal-width UNORM/SNORM/UINT/SINT/FLOAT ones, 5_6_5 / 10_10_10_2 and Z24_UNORM_S8_UINT
 * (its depth).
 */
import { f32, f32bits } from '../../core/float.js';
import { InputError } from '../../core/errors.js';
import type { Memory } from '../../core/memory.js';
import { decodeFields, enumName, type Gen } from '../regs/db.js';
import { alignUp, heightAlign, macrotileDims, pitchAlignLog2, tile6Offset, tile6Supported, TILE6_A630, TILE6_MIN_WIDTH, type Tile6Config } from '../ubwc/tile6.js';
import { decodeFlag } from '../ubwc/ubwc.js';
import { gmemPitchOffset } from '../rb/gmem.js';
import type { Diagnostics } from '../../core/diagnostics.js';
import { f16ToF32, f32ToF16, K, type Instr } from './decode.js';
import { A0, SHARED_HI, SHARED_LO, type Wave } from './wave.js';

/** A bindless descriptor set base (SP_CS_BINDLESS_BASE[n]): address and descriptor stride in bytes. */
export interface BindlessBase {
  readonly addr: number;
  readonly stride: number;
}

/** The texture state CP_EXEC_CS hands the SP: raw descriptors, bindless bases, border colours. */
export interface TexState {
  readonly gen: Gen;
  /** SB6_CS_TEX constants (16-dword A6XX_TEX_CONST) by t#. */
  readonly tex: readonly (Uint32Array | undefined)[];
  /** SB6_CS_TEX samplers (4-dword A6XX_TEX_SAMP) by s#. */
  readonly samp: readonly (Uint32Array | undefined)[];
  /** SP_CS_BINDLESS_BASE[n] by set (undefined: not programmed). */
  readonly bindless: readonly (BindlessBase | undefined)[];
  /** SP_TP_BORDER_COLOR_BASE_ADDR (0: not programmed). */
  readonly border: number;
  /** The SoC's TILE6_3 parameters. */
  readonly tile6?: Tile6Config;
  /** GMEM as the TP sees it (TILE6_2 textures); undefined: no GMEM known for the GPU. */
  readonly gmem?: GmemTexView;
}

/** What a TILE6_2 texture reads: GMEM's bytes, where the GPU maps it, the bin being rendered. */
export interface GmemTexView {
  readonly bytes: Uint8Array;
  /** The GPU address of GMEM byte 0 (rb/gmem.ts GmemInfo.gmemVa). */
  readonly va: number;
  /** SP_TP_WINDOW_OFFSET: the bin's origin, taken off a TILE6_2 fetch's coordinates. */
  readonly window: { readonly x: number; readonly y: number };
  /** The bin in GMEM rendering (GRAS_BIN_CONTROL BINW x BINH); undefined outside a GMEM pass. */
  readonly bin?: { readonly w: number; readonly h: number } | undefined;
}

/** What the cat5 handlers touch outside the wave. */
export interface TexContext {
  /** The wave's fibers are 2x2 quads of fragments (an FS): sam / samb take their LOD from the quad's derivatives. */
  readonly quads?: boolean | undefined;
  readonly textures?: TexState | undefined;
  readonly mem?: Memory | undefined;
  readonly diag?: Diagnostics | undefined;
}

type Kind = 'UNORM' | 'SNORM' | 'UINT' | 'SINT' | 'FLOAT';

interface TexFormat {
  readonly name: string;
  readonly widths: readonly number[];
  readonly kind: Kind;
  readonly cpp: number;
}

const FORMATS = new Map<string, TexFormat | null>();

/** A format from its a6xx_format name: FMT6_<w>_<w>..._<KIND>; undefined when not modelled. */
function texFormat(name: string): TexFormat | undefined {
  let f = FORMATS.get(name);
  if (f === undefined) {
    f = null;
    // Depth/stencil: the depth in the low 24 bits (sampling reads the depth only).
    if (name === 'FMT6_Z24_UNORM_S8_UINT') f = { name, widths: [24], kind: 'UNORM', cpp: 4 };
    // The stencil aspect of D24S8 (turnip's input attachments: swizzle Y,0,0,1): x the depth bits
    // as an integer, y the stencil byte.
    if (name === 'FMT6_Z24_UINT_S8_UINT') f = { name, widths: [24, 8], kind: 'UINT', cpp: 4 };
    const m = /^FMT6_((?:\d+_)+)(UNORM|SNORM|UINT|SINT|FLOAT)$/.exec(name);
    if (m) {
      const widths = m[1]!.slice(0, -1).split('_').map(Number);
      const bits = widths.reduce((a, b) => a + b, 0);
      const equal = widths.every((x) => x === widths[0]) && [8, 16, 32].includes(widths[0]!);
      const packed = m[1] === '5_6_5_' || m[1] === '10_10_10_2_';
      const kind = m[2] as Kind;
      const ok = widths.length <= 4 && (equal || (packed && kind !== 'FLOAT' && kind !== 'SNORM' && kind !== 'SINT')) && (kind !== 'FLOAT' || widths[0] !== 8);
      if (ok && bits % 8 === 0) f = { name, widths, kind, cpp: bits / 8 };
    }
    FORMATS.set(name, f);
  }
  return f ?? undefined;
}

/** Bytes per texel of a format the SP reads, or undefined (the driver lays textures out with it). */
export function texFormatBytes(name: string): number | undefined {
  return texFormat(name)?.cpp;
}

/** A6XX_TEX_CONST as sampling needs it. */
export interface TexDesc {
  readonly type: string;
  readonly format: string;
  readonly fmt: TexFormat | undefined;
  readonly srgb: boolean;
  readonly swap: number;
  readonly swiz: readonly number[];
  readonly tile: string;
  readonly width: number;
  readonly height: number;
  readonly depth: number;
  readonly pitch: number;
  readonly arrayPitch: number;
  readonly levels: number;
  readonly samples: number;
  readonly tileAll: boolean;
  readonly flag: boolean;
  readonly base: number;
  /** UBWC: the flag plane (FLAG_LO/HI) and its pitch in bytes (FLAG_BUFFER_PITCH). */
  readonly flagBase: number;
  readonly flagPitch: number;
}

export function parseTexConst(d: Uint32Array, gen: Gen): TexDesc {
  const f0 = decodeFields('A6XX_TEX_CONST.0', d[0]!, 0, gen);
  const f1 = decodeFields('A6XX_TEX_CONST.1', d[1]!, 0, gen);
  const f2 = decodeFields('A6XX_TEX_CONST.2', d[2]!, 0, gen);
  const f3 = decodeFields('A6XX_TEX_CONST.3', d[3]!, 0, gen);
  const f4 = decodeFields('A6XX_TEX_CONST.4', d[4]!, 0, gen);
  const f5 = decodeFields('A6XX_TEX_CONST.5', d[5]!, 0, gen);
  const f7 = decodeFields('A6XX_TEX_CONST.7', d[7]!, 0, gen);
  const f8 = decodeFields('A6XX_TEX_CONST.8', d[8]!, 0, gen);
  const f10 = decodeFields('A6XX_TEX_CONST.10', d[10]!, 0, gen);
  const type = enumName('a6xx_tex_type', f2['TYPE']!, gen) ?? String(f2['TYPE']);
  const format = enumName('a6xx_format', f0['FMT']!, gen) ?? `FMT6 0x${f0['FMT']!.toString(16)}`;
  const buffer = type === 'A6XX_TEX_BUFFER';
  return {
    type,
    format,
    fmt: texFormat(format),
    srgb: f0['SRGB'] !== 0,
    swap: f0['SWAP']!,
    swiz: [f0['SWIZ_X']!, f0['SWIZ_Y']!, f0['SWIZ_Z']!, f0['SWIZ_W']!],
    tile: enumName('a6xx_tile_mode', f0['TILE_MODE']!, gen) ?? String(f0['TILE_MODE']),
    // A texel buffer's element count is WIDTH + (HEIGHT << 15).
    width: buffer ? f1['WIDTH']! + f1['HEIGHT']! * 2 ** 15 : f1['WIDTH']!,
    height: buffer ? 1 : Math.max(1, f1['HEIGHT']!),
    depth: Math.max(1, f5['DEPTH']!),
    pitch: buffer ? 0 : f2['PITCH']!,
    arrayPitch: f3['ARRAY_PITCH']!,
    levels: f0['MIPLVLS']! + 1,
    samples: 1 << f0['SAMPLES']!,
    tileAll: f3['TILE_ALL'] !== 0,
    flag: f3['FLAG'] !== 0,
    base: f5['BASE_HI']! * 2 ** 32 + f4['BASE_LO']!,
    flagBase: f8['FLAG_HI']! * 2 ** 32 + f7['FLAG_LO']!,
    flagPitch: f10['FLAG_BUFFER_PITCH']!,
  };
}

/** A6XX_TEX_SAMP as sampling needs it. */
export interface SampDesc {
  readonly magLinear: boolean;
  readonly minLinear: boolean;
  readonly mipLinear: boolean;
  readonly wrap: readonly [string, string, string];
  readonly lodBias: number;
  readonly minLod: number;
  readonly maxLod: number;
  readonly unnorm: boolean;
  readonly compare: number;
  readonly bcolor: number;
}

function filterLinear(v: number, gen: Gen): boolean {
  const n = enumName('a6xx_tex_filter', v, gen);
  if (n === 'A6XX_TEX_NEAREST') return false;
  if (n === 'A6XX_TEX_LINEAR') return true;
  throw new InputError(`ir3: sampler filter ${n ?? v} is not modelled (nearest and linear are)`);
}

export function parseTexSamp(d: Uint32Array, gen: Gen): SampDesc {
  const f0 = decodeFields('A6XX_TEX_SAMP.0', d[0]!, 0, gen);
  const f1 = decodeFields('A6XX_TEX_SAMP.1', d[1]!, 0, gen);
  const f2 = decodeFields('A6XX_TEX_SAMP.2', d[2]!, 0, gen);
  const wrap = (v: number): string => enumName('a6xx_tex_clamp', v, gen) ?? `clamp ${v}`;
  // LOD_BIAS is signed fixed point with 8 fraction bits (13 bits); MIN/MAX_LOD unsigned 4.8.
  const bias = f0['LOD_BIAS']!;
  return {
    magLinear: filterLinear(f0['XY_MAG']!, gen),
    minLinear: filterLinear(f0['XY_MIN']!, gen),
    mipLinear: f0['MIPFILTER_LINEAR_NEAR'] !== 0 || f1['MIPFILTER_LINEAR_FAR'] !== 0,
    wrap: [wrap(f0['WRAP_S']!), wrap(f0['WRAP_T']!), wrap(f0['WRAP_R']!)],
    lodBias: (bias >= 4096 ? bias - 8192 : bias) / 256,
    minLod: f1['MIN_LOD']! / 256,
    maxLod: f1['MAX_LOD']! / 256,
    unnorm: f1['UNNORM_COORDS'] !== 0,
    compare: f1['COMPARE_FUNC']!,
    bcolor: f2['BCOLOR']!,
  };
}

// register access (cat5 operands are GPRs) ------------------------------------------------------

function rdReg(w: Wave, n: number, half: boolean, lane: number): number {
  const L = w.lanes;
  if (n >= A0) return w.regs[n * L + lane]!;
  if (half) return w.regs16[((n >> 1) * L + lane) * 2 + (n & 1)]!;
  if (n >= SHARED_LO && n < SHARED_HI) return w.regs[n * L]!;
  return w.regs[n * L + lane]!;
}

function wrReg(w: Wave, n: number, half: boolean, lane: number, v: number): void {
  const L = w.lanes;
  if (half) w.regs16[((n >> 1) * L + lane) * 2 + (n & 1)] = v & 0xffff;
  else if (n >= SHARED_LO && n < SHARED_HI) w.regs[n * L] = v >>> 0;
  else w.regs[n * L + lane] = v >>> 0;
}

const bitsToF = f32;
const fToBits = f32bits;

const fnum = (i: Instr, k: string): number => Number(i.f[k] ?? 0);

/** Component k of a cat5 source vector (SRC1/SRC2) as a float (f16 or f32 by the operand). */
function srcF(w: Wave, i: Instr, s: number, k: number, lane: number): number {
  const o = i.src[s]!;
  const b = rdReg(w, o.n + k, o.half, lane);
  return o.half ? f16ToF32(b) : bitsToF(b);
}

/** Component k of a cat5 source vector as a signed integer. */
function srcI(w: Wave, i: Instr, s: number, k: number, lane: number): number {
  const o = i.src[s]!;
  const b = rdReg(w, o.n + k, o.half, lane);
  return o.half ? (b << 16) >> 16 : b | 0;
}

// descriptors ----------------------------------------------------------------------------------

function state(i: Instr, c: TexContext): TexState {
  if (!c.textures) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: the dispatch has no texture state`);
  return c.textures;
}

function readDwords(i: Instr, c: TexContext, addr: number, n: number, what: string): Uint32Array {
  const seg = c.mem?.find(addr, n * 4);
  if (!seg) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: ${what} at 0x${addr.toString(16)} is not in memory`);
  const out = new Uint32Array(n);
  for (let k = 0; k < n; k++) out[k] = seg.dv.getUint32(addr - seg.base + 4 * k, true);
  return out;
}

function bindlessDesc(i: Instr, c: TexContext, set: number, idx: number, n: number, what: string): Uint32Array {
  const b = state(i, c).bindless[set];
  if (!b) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: bindless ${what} ${idx} of set ${set}, whose SP_CS_BINDLESS_BASE is not programmed`);
  return readDwords(i, c, b.addr + idx * b.stride, n, `bindless ${what} ${idx} of set ${set}`);
}

interface Bound {
  readonly tex: TexDesc;
  readonly samp: SampDesc | undefined;
}

/** The texture (and sampler, when the op has one) a lane's instruction names. */
function bound(w: Wave, i: Instr, c: TexContext, lane: number, cache: Map<string, Bound>, filtered = false): Bound {
  const st = state(i, c);
  // Only filtering reads the sampler (isam names one, but fetches unfiltered).
  const hasSamp = filtered && fnum(i, 'HAS_SAMP') !== 0;
  let texSet = -1;
  let sampSet = -1;
  let t: number;
  let s: number;
  if (!fnum(i, 'S2EN_BINDLESS')) {
    t = fnum(i, 'TEX.TEX');
    s = fnum(i, 'SAMP.SAMP');
  } else {
    const mode = fnum(i, 'DESC_MODE');
    const base = fnum(i, 'BASE.BASE');
    const a1 = w.regs[(A0 + 1) * w.lanes + lane]! & 0xffff;
    const src3 = fnum(i, 'SRC3.SRC.GPR') * 4 + fnum(i, 'SRC3.SRC.SWIZ');
    texSet = sampSet = base;
    switch (mode) {
      case 0: // CAT5_UNIFORM
      case 4: // CAT5_NONUNIFORM: half vec2 (sampler, texture)
        texSet = sampSet = -1;
        s = rdReg(w, src3, true, lane);
        t = rdReg(w, src3 + 1, true, lane);
        break;
      case 1: // CAT5_BINDLESS_A1_UNIFORM
      case 3: // CAT5_BINDLESS_A1_NONUNIFORM
        sampSet = a1 & 7;
        t = rdReg(w, src3, false, lane);
        s = rdReg(w, src3 + 1, false, lane);
        break;
      case 2: // CAT5_BINDLESS_NONUNIFORM
      case 5: // CAT5_BINDLESS_UNIFORM: full vec2 (texture, sampler)
        t = rdReg(w, src3, false, lane);
        s = rdReg(w, src3 + 1, false, lane);
        break;
      case 6: // CAT5_BINDLESS_IMM
        s = fnum(i, 'SRC3.SAMP.SAMP');
        t = fnum(i, 'SRC3.TEX.TEX');
        break;
      default: // 7: CAT5_BINDLESS_A1_IMM
        sampSet = a1 & 7;
        if (i.f['SRC3'] !== undefined && i.f['SRC3.TEX'] === '#cat5-tex-s2en-bindless-a1') {
          t = fnum(i, 'SRC3.TEX.TEX');
          s = (a1 >> 3) & 0xff;
        } else {
          s = fnum(i, 'SRC3.SAMP.SAMP');
          t = (a1 >> 3) & 0xff;
        }
    }
  }
  const key = `${texSet}:${t}:${sampSet}:${hasSamp ? s : -1}`;
  let b = cache.get(key);
  if (b) return b;
  let td: Uint32Array | undefined;
  let sd: Uint32Array | undefined;
  if (texSet < 0) {
    td = st.tex[t];
    if (!td) throw new InputError(`ir3: ${i.name} at pc ${i.pc} uses t#${t}, which the dispatch does not bind (no SB6_CS_TEX descriptor)`);
  } else td = bindlessDesc(i, c, texSet, t, 16, 'texture');
  if (hasSamp) {
    if (sampSet < 0) {
      sd = st.samp[s];
      if (!sd) throw new InputError(`ir3: ${i.name} at pc ${i.pc} uses s#${s}, which the dispatch does not bind (no SB6_CS_TEX sampler)`);
    } else sd = bindlessDesc(i, c, sampSet, s, 4, 'sampler');
  }
  b = { tex: parseTexConst(td, st.gen), samp: sd ? parseTexSamp(sd, st.gen) : undefined };
  cache.set(key, b);
  return b;
}

// texel fetch ----------------------------------------------------------------------------------

interface Level {
  readonly width: number;
  readonly height: number;
  readonly depth: number;
  readonly offset: number;
  readonly pitch: number;
  readonly tiled: boolean;
}

/** fdl6's mip chain from the descriptor's level-0 pitch (pitch >> level, aligned; narrow levels linear). */
function level(i: Instr, t: TexDesc, l: number): Level {
  const fmt = t.fmt!;
  const tiled = t.tile === 'TILE6_3';
  if (t.tile === 'TILE6_2') {
    if (l !== 0) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: mip level ${l} of a TILE6_2 (GMEM) texture is not modelled`);
    return { width: t.width, height: t.height, depth: t.depth, offset: 0, pitch: t.pitch, tiled: false };
  }
  if (t.tile !== 'TILE6_LINEAR' && !tiled) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: tile mode ${t.tile} is not modelled`);
  if (tiled && !tile6Supported(fmt.cpp * t.samples)) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: TILE6_3 with ${fmt.cpp * t.samples} bytes per texel is not modelled`);
  if (t.flag && (!tiled || (fmt.cpp * t.samples !== 4 && fmt.cpp * t.samples !== 8 && fmt.cpp * t.samples !== 16))) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: UBWC (FLAG) is modelled for TILE6_3 with 4, 8 or 16 bytes per texel`);
  if (l === 0) return { width: t.width, height: t.height, depth: t.depth, offset: 0, pitch: t.pitch, tiled };
  if (t.flag) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: mip levels of UBWC textures are not modelled`);
  if (t.type === 'A6XX_TEX_3D') throw new InputError(`ir3: ${i.name} at pc ${i.pc}: mip levels of 3D textures are not modelled`);
  const mode = tiled ? 'tile6_3' : 'linear';
  const align = 2 ** pitchAlignLog2(fmt.cpp * t.samples, mode);
  let offset = 0;
  for (let k = 0; ; k++) {
    const w = Math.max(1, t.width >> k);
    const h = Math.max(1, t.height >> k);
    const lt = tiled && (t.tileAll || w >= TILE6_MIN_WIDTH);
    const pitch = k === 0 ? t.pitch : alignUp(Math.max(1, t.pitch >> k), align);
    if (k === l) return { width: w, height: h, depth: t.depth, offset, pitch, tiled: lt };
    offset += pitch * (lt ? alignUp(h, heightAlign(fmt.cpp * t.samples, mode)) : h);
  }
}

/** Report a problem once per key and diagnostics sink (a tile is read by many fibers). */
const REPORTED = new WeakMap<Diagnostics, Set<string>>();
function reportedOnce(d: Diagnostics, key: string): boolean {
  let s = REPORTED.get(d);
  if (!s) REPORTED.set(d, (s = new Set()));
  if (s.has(key)) return true;
  s.add(key);
  return false;
}

const SRGB = (v: number): number => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);

const ZEROS = new DataView(new ArrayBuffer(16));
const GMEM_DV = new WeakMap<Uint8Array, DataView>();

/**
 * A TILE6_2 texel: GMEM offset (base - the GMEM address) of the buffer, then the RB's mapping at
 * the framebuffer pixel less SP_TP_WINDOW_OFFSET. Outside GMEM: zeros and
 * `adreno.tex.tile6-2-outside-gmem`; outside the bin: `adreno.tex.gmem-outside-bin`.
 */
function gmemTexel(i: Instr, c: TexContext, t: TexDesc, x: number, y: number, z: number, sample: number): { dv: DataView; o: number } {
  const g = state(i, c).gmem;
  const fmt = t.fmt!;
  if (!g) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: TILE6_2 (GMEM) texture on a GPU whose GMEM is not modelled`);
  const report = (id: string, severity: 'error' | 'warning', key: string, message: string): void => {
    if (c.diag && !reportedOnce(c.diag, `${id}:${i.pc}:${key}`)) c.diag.report({ id, severity, where: { pc: i.pc }, message, seed: '004_0583f9f0ffcacefd.txt' });
  };
  const start = t.base - g.va;
  if (start < 0 || start >= g.bytes.length) {
    report('adreno.tex.tile6-2-outside-gmem', 'error', `${t.base}`, `${i.name}: a TILE6_2 texture at 0x${t.base.toString(16)}, outside GMEM (0x${g.va.toString(16)}..0x${(g.va + g.bytes.length).toString(16)}): TILE6_2 is the GMEM layout ("TILE6_2 is what gmem uses") and its byte order in memory is not documented; read as zeros`);
    return { dv: ZEROS, o: 0 };
  }
  const bx = x - g.window.x, by = y - g.window.y;
  if (!g.bin || bx < 0 || by < 0 || bx >= g.bin.w || by >= g.bin.h || z > 0)
    report('adreno.tex.gmem-outside-bin', 'warning', `${t.base}`, `${i.name}: TILE6_2 (GMEM) texel (${x}, ${y}${z ? `, layer ${z}` : ''}) ${g.bin ? `lies outside the bin being rendered (${g.bin.w}x${g.bin.h} at SP_TP_WINDOW_OFFSET ${g.window.x},${g.window.y})` : 'read outside a GMEM render pass'}: GMEM holds another bin's, buffer's or the CCU's bytes there, in TILE6_2's undocumented order; read at the model's offset`);
  // The RB lays a bin buffer out with rows of bin width x cpp x samples (what turnip and fd6 write
  // as PITCH); another pitch reads rows at positions that depend on TILE6_2's undocumented order.
  if (g.bin && t.pitch !== g.bin.w * fmt.cpp * t.samples)
    report('adreno.tex.gmem-pitch-mismatch', 'warning', `${t.base}:pitch`, `${i.name}: TILE6_2 (GMEM) texture PITCH ${t.pitch} is not the bin's row (${g.bin.w} x ${fmt.cpp} bytes x ${t.samples} sample${t.samples > 1 ? 's' : ''} = ${g.bin.w * fmt.cpp * t.samples}, ${fmt.name}): the RB wrote the buffer with that pitch, so texels land on bytes whose meaning depends on TILE6_2's undocumented order; read at the model's offset`);
  const off = gmemPitchOffset(start, x, y, g.window.x, g.window.y, t.pitch, fmt.cpp * t.samples) + sample * fmt.cpp;
  if (off < 0 || off + fmt.cpp > g.bytes.length) return { dv: ZEROS, o: 0 };
  let dv = GMEM_DV.get(g.bytes);
  if (!dv) GMEM_DV.set(g.bytes, (dv = new DataView(g.bytes.buffer, g.bytes.byteOffset, g.bytes.byteLength)));
  return { dv, o: off };
}

/** One texel's components [r, g, b, a] (floats, or integers for UINT/SINT) at (x, y, layer) of a level, sample `sample`. */
function fetch(i: Instr, c: TexContext, t: TexDesc, lv: Level, x: number, y: number, z: number, out: number[], sample = 0): void {
  const fmt = t.fmt!;
  // A multisampled texel holds its samples side by side: fdl6 lays the surface out with
  // cpp x samples bytes per texel.
  const ecpp = fmt.cpp * t.samples;
  const tile6 = state(i, c).tile6 ?? TILE6_A630;
  const buffer = t.type === 'A6XX_TEX_BUFFER';
  let dv: DataView;
  let o: number;
  if (t.tile === 'TILE6_2') ({ dv, o } = gmemTexel(i, c, t, x, y, z, sample));
  else {
    const off = (buffer ? x * fmt.cpp : lv.tiled ? tile6Offset(x, y, lv.pitch, ecpp, tile6) : y * lv.pitch + x * ecpp) + sample * fmt.cpp;
    const addr = t.base + lv.offset + z * t.arrayPitch + off;
    const seg = c.mem?.find(addr, fmt.cpp);
    if (!seg) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: texel (${x}, ${y}, ${z}) at 0x${addr.toString(16)} is not in memory`);
    dv = seg.dv;
    o = addr - seg.base;
  }
  if (t.flag && z === 0 && t.tile !== 'TILE6_2') {
    // UBWC: the macrotile's flag byte (one per 256-byte block, FLAG_BUFFER_PITCH bytes per block row).
    const { w: bw, h: bh } = macrotileDims(ecpp);
    const fa = t.flagBase + Math.floor(y / bh) * t.flagPitch + Math.floor(x / bw);
    const fs = c.mem?.find(fa, 1);
    if (!fs) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: UBWC flag byte at 0x${fa.toString(16)} is not in memory`);
    const flag = decodeFlag(fs.u8[fa - fs.base]!);
    if (flag.kind === 'clear' || flag.bytes !== 256) {
      // A fast-cleared tile: 0x00/0xff bytes from the colour bit (the last byte of 8888 from the
      // alpha bit); a compressed tile's bitstream is not described: reported and read as zeros.
      const key = `${i.pc}:${t.flagBase}:${Math.floor(x / bw)},${Math.floor(y / bh)}`;
      if (flag.kind === 'data' && c.diag && !reportedOnce(c.diag, key))
        c.diag.report({ id: 'adreno.ubwc.compressed-tile', severity: 'warning', where: { pc: i.pc, block: `${Math.floor(x / bw)},${Math.floor(y / bh)}` }, message: `texture macrotile compressed to ${flag.bytes} bytes; the compressed encoding is not modelled, read as zeros`, seed: '004_0583f9f0ffcacefd.txt' });
      const bytes = new Uint8Array(fmt.cpp);
      if (flag.kind === 'clear') for (let q = 0; q < fmt.cpp; q++) bytes[q] = (fmt.cpp === 4 && fmt.widths.length === 4 && q === 3 ? flag.alpha : flag.color) ? 0xff : 0;
      dv = new DataView(bytes.buffer);
      o = 0;
    }
  }
  const int = fmt.kind === 'UINT' || fmt.kind === 'SINT';
  out[0] = 0;
  out[1] = 0;
  out[2] = 0;
  out[3] = 1;
  let bit = 0;
  for (let k = 0; k < fmt.widths.length; k++) {
    const wd = fmt.widths[k]!;
    let raw: number;
    if (wd % 8 === 0) {
      const b = o + bit / 8;
      raw = wd === 8 ? dv.getUint8(b) : wd === 16 ? dv.getUint16(b, true) : wd === 24 ? dv.getUint32(b, true) & 0xffffff : dv.getUint32(b, true);
    } else {
      let all = 0;
      for (let q = fmt.cpp - 1; q >= 0; q--) all = all * 256 + dv.getUint8(o + q);
      raw = Math.floor(all / 2 ** bit) % 2 ** wd;
    }
    bit += wd;
    const max = 2 ** wd;
    let v: number;
    switch (fmt.kind) {
      case 'UNORM':
        v = raw / (max - 1);
        break;
      case 'SNORM':
        v = Math.max((raw >= max / 2 ? raw - max : raw) / (max / 2 - 1), -1);
        break;
      case 'UINT':
        v = raw;
        break;
      case 'SINT':
        v = raw >= max / 2 ? raw - max : raw;
        break;
      default:
        v = wd === 16 ? f16ToF32(raw) : bitsToF(raw);
    }
    out[k] = v;
  }
  if (t.srgb && !int) for (let k = 0; k < 3; k++) out[k] = SRGB(out[k]!);
  if (t.swap === 1) {
    const r = out[0]!;
    out[0] = out[2]!;
    out[2] = r;
  } else if (t.swap !== 0) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: texture swap ${enumName('a3xx_color_swap', t.swap, state(i, c).gen) ?? t.swap} is not modelled`);
}

/** The border colour (the fp32 words of the sampler's border-colour entry). */
function border(i: Instr, c: TexContext, s: SampDesc, int: boolean, out: number[]): void {
  const base = state(i, c).border;
  if (!base) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: CLAMP_TO_BORDER without SP_TP_BORDER_COLOR_BASE_ADDR`);
  const d = readDwords(i, c, base + s.bcolor * 128, 4, 'border colour');
  for (let k = 0; k < 4; k++) out[k] = int ? d[k]! | 0 : bitsToF(d[k]!);
}

/** Vulkan's wrap of an integer texel coordinate; -1 means "border". */
function wrap(mode: string, i: number, size: number): number {
  switch (mode) {
    case 'A6XX_TEX_REPEAT':
      return ((i % size) + size) % size;
    case 'A6XX_TEX_CLAMP_TO_EDGE':
      return Math.min(Math.max(i, 0), size - 1);
    case 'A6XX_TEX_MIRROR_REPEAT': {
      const t = (((i % (2 * size)) + 2 * size) % (2 * size)) - size;
      return size - 1 - (t >= 0 ? t : -1 - t);
    }
    case 'A6XX_TEX_CLAMP_TO_BORDER':
      return i >= 0 && i < size ? i : -1;
    case 'A6XX_TEX_MIRROR_CLAMP':
      return Math.min(i >= 0 ? i : -1 - i, size - 1);
    default:
      throw new InputError(`ir3: wrap mode ${mode} is not modelled`);
  }
}

const QUANT = 256;

/** Filter one level at texel-space coordinates (u, v, w); w is the layer (array) or the slice (3D). */
/** A texel-space coordinate the addressing can use: NaN reads as 0, infinities as +-2^24. */
const finite = (x: number): number => (Number.isNaN(x) ? 0 : Math.min(Math.max(x, -(2 ** 24)), 2 ** 24));

function sampleLevel(i: Instr, c: TexContext, b: Bound, lv: Level, u: number, v: number, r: number, layer: number, linear: boolean, out: number[], cmp?: (d: number) => number): void {
  const s = b.samp!;
  u = finite(u);
  v = finite(v);
  r = finite(r);
  layer = finite(layer);
  const t = b.tex;
  const int = t.fmt!.kind === 'UINT' || t.fmt!.kind === 'SINT';
  const is3d = t.type === 'A6XX_TEX_3D';
  const oneD = t.type === 'A6XX_TEX_1D' || t.type === 'A6XX_TEX_BUFFER';
  const texel = [0, 0, 0, 0];
  const get = (x: number, y: number, z: number): void => {
    const wx = wrap(s.wrap[0], x, lv.width);
    const wy = oneD ? 0 : wrap(s.wrap[1], y, lv.height);
    const wz = is3d ? wrap(s.wrap[2], z, lv.depth) : layer;
    if (wx < 0 || wy < 0 || wz < 0) border(i, c, s, int, texel);
    else fetch(i, c, t, lv, wx, wy, wz, texel);
    if (cmp) {
      texel[0] = cmp(texel[0]!);
      texel[1] = 0;
      texel[2] = 0;
      texel[3] = 1;
    }
  };
  if (!linear || int) {
    get(Math.floor(u), Math.floor(v), Math.floor(r));
    for (let k = 0; k < 4; k++) out[k] = texel[k]!;
    return;
  }
  const axis = (x: number): [number, number] => {
    const p = x - 0.5;
    const f = Math.floor(p);
    return [f, Math.round((p - f) * QUANT) / QUANT];
  };
  const [x0, a] = axis(u);
  const [y0, bb] = oneD ? [0, 0] : axis(v);
  const [z0, g] = is3d ? axis(r) : [0, 0];
  out.fill(0);
  for (let dz = 0; dz < (is3d ? 2 : 1); dz++)
    for (let dy = 0; dy < (oneD ? 1 : 2); dy++)
      for (let dx = 0; dx < 2; dx++) {
        const wgt = (dx ? a : 1 - a) * (oneD ? 1 : dy ? bb : 1 - bb) * (is3d ? (dz ? g : 1 - g) : 1);
        if (wgt === 0) continue;
        get(x0 + dx, y0 + dy, z0 + dz);
        for (let k = 0; k < 4; k++) out[k]! += wgt * texel[k]!;
      }
}

/** SWIZ_X..W: components 0-3, ZERO, ONE. */
function swizzle(t: TexDesc, v: number[]): number[] {
  return t.swiz.map((s) => (s < 4 ? v[s]! : s === 4 ? 0 : 1));
}

/** Write the WRMASK components k to DST + k: f32/f16 bits (by the destination's width) for float results, integer bits for UINT/SINT formats. */
function writeResult(w: Wave, i: Instr, lane: number, v: readonly number[], int: boolean): void {
  const mask = fnum(i, 'WRMASK');
  const half = i.dst.half;
  const n = i.dst.n;
  for (let k = 0; k < 4; k++) {
    if (!(mask & (1 << k))) continue;
    const x = v[k]!;
    let bits: number;
    // Float formats give float bits whatever TYPE says; integer formats their integer bits.
    if (!int) bits = half ? f32ToF16(x) : fToBits(Math.fround(x));
    else bits = x >>> 0;
    wrReg(w, n + k, half, lane, bits);
  }
}

function checkFormat(i: Instr, t: TexDesc): TexFormat {
  if (!t.fmt) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: texture format ${t.format} is not modelled`);
  return t.fmt;
}

/**
 * A multisampled texture read by an op without a sample index (sam*, gather, isam / isaml): which
 * sample (or what mix) the TP returns is not documented — Mesa reads multisampled images only with
 * txf_ms (isamm), including turnip's MSAA input attachments in GMEM. The model returns sample 0.
 */
function checkNoSample(i: Instr, c: TexContext, t: TexDesc): void {
  if (t.samples <= 1 || !c.diag || reportedOnce(c.diag, `adreno.tex.msaa-without-sample:${i.pc}:${t.base}`)) return;
  c.diag.report({ id: 'adreno.tex.msaa-without-sample', severity: 'warning', where: { pc: i.pc }, message: `${i.name}: a ${t.samples}-sample ${t.tile} texture read without a sample index: which sample the TP returns is undocumented (multisampled images are read with isamm, Mesa's txf_ms); read as sample 0` });
}

/**
 * Vulkan's cube face selection: the major axis picks the face (+X -X +Y -Y +Z -Z = 0..5, ties
 * to Z, then Y), then s = (sc / |ma| + 1) / 2, t = (tc / |ma| + 1) / 2 with the spec's sc, tc.
 */
function cubeFace(x: number, y: number, z: number): [number, number, number] {
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  let face: number, sc: number, tc: number, ma: number;
  if (az >= ax && az >= ay) [face, sc, tc, ma] = z >= 0 ? [4, x, -y, az] : [5, -x, -y, az];
  else if (ay >= ax) [face, sc, tc, ma] = y >= 0 ? [2, x, z, ay] : [3, x, -z, ay];
  else [face, sc, tc, ma] = x >= 0 ? [0, -z, -y, ax] : [1, z, -y, ax];
  return [face, (sc / ma + 1) / 2, (tc / ma + 1) / 2];
}

/** The sampler's COMPARE_FUNC as Vulkan applies it: 1 when `ref OP D`, else 0. */
function compareFn(i: Instr, func: number, ref: number): (d: number) => number {
  const ops = [() => false, (d: number) => ref < d, (d: number) => ref === d, (d: number) => ref <= d, (d: number) => ref > d, (d: number) => ref !== d, (d: number) => ref >= d, () => true];
  const op = ops[func];
  if (!op) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: compare function ${func} is not modelled`);
  return (d) => (op(d) ? 1 : 0);
}

// the instructions -----------------------------------------------------------------------------

/**
 * sam / samb / saml / samgq, and gather4r/g/b/a (gather >= 0: that component of the 2x2
 * footprint at level 0, in Vulkan's order (i0,j1) (i1,j1) (i1,j0) (i0,j0), after the swizzle).
 * samgq: SRC1 = coordinates, padded to 4 components, then d/dx and d/dy of each coordinate;
 * LOD = log2 of the longer scaled gradient (Vulkan's isotropic rho).
 */
function sam(lodFrom: 'none' | 'bias' | 'lod' | 'grad', gather = -1): (w: Wave, i: Instr, c: TexContext) => void {
  return (w, i, c) => {
    const shadow = fnum(i, 'SV') !== 0;
    const cache = new Map<string, Bound>();
    const is3d = fnum(i, '3D') !== 0;
    const arr = fnum(i, 'A') !== 0;
    const proj = fnum(i, 'P') !== 0;
    const offs = fnum(i, 'O') !== 0;
    const nc = is3d ? 3 : 2;
    const out = [0, 0, 0, 0];
    const hi = [0, 0, 0, 0];
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      const b = bound(w, i, c, l, cache, true);
      const t = b.tex;
      const s = b.samp!;
      const fmt = checkFormat(i, t);
      checkNoSample(i, c, t);
      const int = fmt.kind === 'UINT' || fmt.kind === 'SINT';
      const co = [0, 0, 0];
      for (let k = 0; k < nc; k++) co[k] = srcF(w, i, 0, k, l);
      // SRC1: coordinates, the shadow reference, the array layer, the projector.
      let layer = 0;
      let ref = 0;
      let k = nc;
      if (shadow) ref = srcF(w, i, 0, k++, l);
      if (arr) layer = srcF(w, i, 0, k++, l);
      if (proj) {
        const q = srcF(w, i, 0, k++, l);
        for (let d = 0; d < nc; d++) co[d] = co[d]! / q;
        ref /= q;
      }
      const cmp = shadow ? compareFn(i, s.compare, ref) : undefined;
      let bs = b;
      if (t.type === 'A6XX_TEX_CUBE') {
        // The face of the major axis; (s, t) on it; layer = face + 6 * cube. Cube maps clamp
        // to the face's edge (seamless filtering across faces is not modelled).
        const [face, fs, ft] = cubeFace(co[0]!, co[1]!, co[2]!);
        co[0] = fs;
        co[1] = ft;
        layer = face + 6 * (arr ? Math.min(Math.max(Math.floor(layer + 0.5), 0), t.depth - 1) : 0);
        bs = { tex: t, samp: { ...s, wrap: ['A6XX_TEX_CLAMP_TO_EDGE', 'A6XX_TEX_CLAMP_TO_EDGE', 'A6XX_TEX_CLAMP_TO_EDGE'] } };
      }
      let k2 = 0;
      const off = [0, 0, 0];
      if (offs) for (let d = 0; d < nc; d++) off[d] = srcI(w, i, 1, k2++, l);
      let lod = lodFrom === 'lod' ? srcF(w, i, 1, k2, l) : 0;
      if (lodFrom === 'bias') lod += srcF(w, i, 1, k2, l);
      if ((lodFrom === 'none' || lodFrom === 'bias') && c.quads) lod += implicitLod(w, i, l, t, s, nc, proj, arr, shadow);
      if (lodFrom === 'grad') {
        const sz = [t.width, t.height, t.depth];
        let rho = 0;
        for (const d of [0, 1]) {
          let q = 0;
          for (let e = 0; e < nc; e++) {
            const g = srcF(w, i, 0, 4 + d * nc + e, l) * (s.unnorm ? 1 : sz[e]!);
            q += g * g;
          }
          rho = Math.max(rho, Math.sqrt(q));
        }
        lod = Math.log2(rho);
      }
      if (gather >= 0) {
        const lv = level(i, t, 0);
        const scale = (x: number, size: number): number => (s.unnorm ? x : x * size);
        const x0 = Math.floor(scale(co[0]!, lv.width) + off[0]! - 0.5);
        const y0 = Math.floor(scale(co[1]!, lv.height) + off[1]! - 0.5);
        const lay = t.type === 'A6XX_TEX_CUBE' ? layer : arr ? Math.min(Math.max(Math.floor(layer + 0.5), 0), t.depth - 1) : 0;
        const res = [0, 0, 0, 0];
        const foot: [number, number][] = [[0, 1], [1, 1], [1, 0], [0, 0]];
        foot.forEach(([dx, dy], q) => {
          sampleLevel(i, c, bs, lv, x0 + dx + 0.5, y0 + dy + 0.5, 0, lay, false, out, cmp);
          res[q] = swizzle(t, out)[gather]!;
        });
        writeResult(w, i, l, res, int);
        continue;
      }
      if (lodFrom !== 'lod') lod += s.lodBias;
      // A NaN LOD (NaN bias or gradients) is taken as 0; +-Infinity clamps like any value.
      lod = Math.min(Math.max(Number.isNaN(lod) ? 0 : lod, s.minLod), s.maxLod);
      const linear = lod > 0 ? s.minLinear : s.magLinear;
      const maxLevel = t.levels - 1;
      const lay = t.type === 'A6XX_TEX_CUBE' ? layer : arr ? Math.min(Math.max(Math.floor(layer + 0.5), 0), t.depth - 1) : 0;
      const one = (lvl: number, dst: number[]): void => {
        const lv = level(i, t, lvl);
        const scale = (x: number, size: number): number => (s.unnorm ? x : x * size);
        const u = scale(co[0]!, lv.width) + off[0]!;
        const v = scale(co[1]!, lv.height) + off[1]!;
        const r = is3d && t.type === 'A6XX_TEX_3D' ? scale(co[2]!, lv.depth) + off[2]! : 0;
        sampleLevel(i, c, bs, lv, u, v, r, lay, linear, dst, cmp);
      };
      if (lod <= 0 || maxLevel === 0) one(0, out);
      else if (!s.mipLinear) one(Math.min(Math.max(Math.ceil(lod + 0.5) - 1, 0), maxLevel), out);
      else {
        const d0 = Math.min(Math.floor(lod), maxLevel);
        const d1 = Math.min(d0 + 1, maxLevel);
        const f = Math.round((lod - Math.floor(lod)) * QUANT) / QUANT;
        one(d0, out);
        if (d1 !== d0 && f > 0) {
          one(d1, hi);
          for (let q = 0; q < 4; q++) out[q] = out[q]! * (1 - f) + hi[q]! * f;
        }
      }
      writeResult(w, i, l, swizzle(t, out), int);
    }
  };
}

/**
 * isam / isaml / isamm: the texel at integer coordinates (x, then y unless .1d, then z or the
 * layer, then for isamm the sample), unfiltered; outside reads 0.
 */
function isam(withLod: boolean, ms = false): (w: Wave, i: Instr, c: TexContext) => void {
  return (w, i, c) => {
    const cache = new Map<string, Bound>();
    // isam's 1D field is bool_inv: the raw bit is 0 for .1d (isaml/isamm have no such field).
    const oneD = i.name === 'isam' && fnum(i, '1D') === 0;
    const is3d = fnum(i, '3D') !== 0;
    const arr = fnum(i, 'A') !== 0;
    const v = [0, 0, 0, 0];
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      const b = bound(w, i, c, l, cache);
      const t = b.tex;
      const fmt = checkFormat(i, t);
      if (!ms) checkNoSample(i, c, t);
      const int = fmt.kind === 'UINT' || fmt.kind === 'SINT';
      const buf = t.type === 'A6XX_TEX_BUFFER';
      let k = 0;
      const x = srcI(w, i, 0, k++, l);
      const y = oneD ? 0 : srcI(w, i, 0, k++, l);
      const z = is3d || arr ? srcI(w, i, 0, k++, l) : 0;
      // isamm: the sample index follows the coordinates (Mesa's txf_ms).
      const smp = ms ? srcI(w, i, 0, k++, l) : 0;
      const lod = withLod ? srcI(w, i, 1, 0, l) : 0;
      const lv = lod >= 0 && lod < t.levels ? level(i, t, lod) : undefined;
      const zmax = is3d || arr ? (t.type === 'A6XX_TEX_CUBE' ? 6 * t.depth : t.depth) : 1;
      if (lv && x >= 0 && x < lv.width && (buf || (y >= 0 && y < lv.height && z >= 0 && z < zmax)) && smp >= 0 && smp < t.samples) fetch(i, c, t, lv, x, buf ? 0 : y, buf ? 0 : z, v, smp);
      else v.fill(0);
      writeResult(w, i, l, swizzle(t, v), int);
    }
  };
}

function eachLane(w: Wave, i: Instr, c: TexContext, f: (b: Bound, lane: number) => readonly number[]): void {
  const cache = new Map<string, Bound>();
  for (let l = 0; l < w.lanes; l++) {
    if (!w.active[l]) continue;
    writeResult(w, i, l, f(bound(w, i, c, l, cache), l), true);
  }
}

/**
 * getsize DST, SRC1 (LOD): width, height, depth at that level (z minified), w the unminified
 * depth (the array size); a texel buffer: its element count.
 */
function getsize(w: Wave, i: Instr, c: TexContext): void {
  eachLane(w, i, c, (b, l) => {
    const t = b.tex;
    if (t.type === 'A6XX_TEX_BUFFER') return [t.width, 1, 1, 1];
    const lod = i.src[0] && i.src[0].kind === K.GPR ? srcI(w, i, 0, 0, l) : 0;
    const m = (x: number): number => Math.max(1, x >> lod);
    return [m(t.width), m(t.height), m(t.depth), t.depth];
  });
}

/** getbuf DST: a texel buffer's element count. */
function getbuf(w: Wave, i: Instr, c: TexContext): void {
  eachLane(w, i, c, (b) => [b.tex.width, 0, 0, 0]);
}

/** OpenCL channel data types getinfo.x returns (the isaspec's getinfo table). */
const CHANNEL_TYPE: Record<string, number> = {
  '8_SNORM': 0, '16_SNORM': 1, '8_UNORM': 2, '16_UNORM': 3, '5_6_5_UNORM': 4, '10_10_10_2_UNORM': 6,
  '8_SINT': 7, '16_SINT': 8, '32_SINT': 9, '8_UINT': 10, '16_UINT': 11, '32_UINT': 12, '16_FLOAT': 13, '32_FLOAT': 14,
  '10_10_10_2_UINT': 16,
};

/**
 * getinfo DST: x the channel data type, y the channel order (a5xx/a6xx table: R 1, RG 3, RGB 6,
 * RGBA 8, BGRA 10 with the WXYZ swap, sRGBA 17), z the number of levels, w the samples.
 */
function getinfo(w: Wave, i: Instr, c: TexContext): void {
  eachLane(w, i, c, (b) => {
    const t = b.tex;
    const fmt = checkFormat(i, t);
    const ws = fmt.widths;
    const key = ws.every((x) => x === ws[0]) ? `${ws[0]}_${fmt.kind}` : `${ws.join('_')}_${fmt.kind}`;
    const type = CHANNEL_TYPE[key];
    if (type === undefined) throw new InputError(`ir3: ${i.name} at pc ${i.pc}: no channel type for ${t.format}`);
    const n = ws.length;
    const order = t.srgb && n === 4 ? 17 : n === 1 ? 1 : n === 2 ? 3 : n === 3 ? 6 : t.swap === 1 ? 10 : 8;
    return [type, order, t.levels, t.samples];
  });
}

/**
 * Screen-space derivatives over quads: fibers 4k..4k+3 are one 2x2 quad, 4k+0 top-left,
 * 4k+1 top-right, 4k+2 bottom-left, 4k+3 bottom-right (x is bit 0 of the fiber, y bit 1: the
 * layout of quad_shuffle.horz / .vert, which swap fiber ^ 1 / ^ 2). Fine (dsxpp.1 / dsypp.1):
 * each fiber differences its own row (column). Coarse (dsx / dsy): the whole quad gets the top
 * row's (left column's) difference. SRC1 components follow WRMASK; f16 or f32 by the operand
 * widths. Inactive or helper fibers of the quad still provide their SRC1 values.
 */
function deriv(axis: 1 | 2, fine: boolean): (w: Wave, i: Instr, c: TexContext) => void {
  return (w, i) => {
    const mask = fnum(i, 'WRMASK') || 1;
    const s = i.src[0]!;
    const out: number[][] = [];
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      const lo = fine ? l & ~axis : l & ~3;
      const hi = lo | axis;
      const v: number[] = [0, 0, 0, 0];
      for (let k = 0; k < 4; k++) {
        if (!(mask & (1 << k))) continue;
        const a = rdReg(w, s.n + k, s.half, lo);
        const b = rdReg(w, s.n + k, s.half, hi);
        v[k] = s.half ? f16ToF32(b) - f16ToF32(a) : Math.fround(bitsToF(b) - bitsToF(a));
      }
      out[l] = v;
    }
    // Results are written after every fiber read its quad (DST may overlap SRC1).
    for (let l = 0; l < w.lanes; l++) if (out[l]) writeResult(w, i, l, out[l]!, false);
  };
}

/**
 * The implicit LOD of sam / samb in a fragment shader: the coordinates (projected, on the cube
 * face for cube maps) differenced across the fiber's quad as dsx / dsy do (coarse: top row and
 * left column), scaled by the level-0 size unless unnormalized: log2(max(|d/dx|, |d/dy|)), as
 * getlod reports it. The sampler's bias is added by the caller.
 */
function implicitLod(w: Wave, i: Instr, l: number, t: TexDesc, s: SampDesc, nc: number, proj: boolean, arr: boolean, shadow: boolean): number {
  const q = l & ~3;
  const coords = (f: number): number[] => {
    const co = [0, 1, 2].slice(0, nc).map((k) => srcF(w, i, 0, k, f));
    if (proj) {
      const p = srcF(w, i, 0, nc + (shadow ? 1 : 0) + (arr ? 1 : 0), f);
      for (let k = 0; k < nc; k++) co[k] = co[k]! / p;
    }
    if (t.type === 'A6XX_TEX_CUBE') {
      const [, fs, ft] = cubeFace(co[0]!, co[1]!, co[2]!);
      return [fs, ft];
    }
    return co;
  };
  const base = coords(q);
  const size = [t.width, t.height, t.depth];
  let rho = 0;
  for (const d of [1, 2]) {
    const o = coords(q + d);
    let sum = 0;
    for (let e = 0; e < base.length; e++) {
      const g = (o[e]! - base[e]!) * (s.unnorm ? 1 : size[e]!);
      sum += g * g;
    }
    rho = Math.max(rho, Math.sqrt(sum));
  }
  return Math.log2(rho);
}

/**
 * getlod: the LOD an implicit-LOD sam would compute, from SRC1's coordinates (2, or 3 with .3d)
 * differenced across the fiber's quad (coarse, as dsx / dsy) and scaled by the level-0 size
 * (unless unnormalized): lambda = log2(max(|d/dx|, |d/dy|)) + the sampler's LOD bias. DST.x is
 * lambda clamped to [MIN_LOD, min(MAX_LOD, levels - 1)] (the level accessed), DST.y lambda
 * unclamped; both signed fixed point with 8 fraction bits (Mesa's ir3 converts them with cov.s32f32
 * and a multiply by 1/256), rounded to nearest. Rounding and the unclamped range for zero
 * derivatives (-infinity: the most negative 32-bit value) are not documented; this is a choice.
 */
function getlod(w: Wave, i: Instr, c: TexContext): void {
  const cache = new Map<string, Bound>();
  const nc = fnum(i, '3D') !== 0 ? 3 : 2;
  const fixed = (x: number): number => (Number.isNaN(x) ? 0 : Math.min(Math.max(Math.round(x * 256), -(2 ** 31)), 2 ** 31 - 1) | 0);
  for (let l = 0; l < w.lanes; l++) {
    if (!w.active[l]) continue;
    const b = bound(w, i, c, l, cache, true);
    const t = b.tex;
    const s = b.samp!;
    const q = l & ~3;
    const size = [t.width, t.height, t.depth];
    let rho = 0;
    for (const d of [1, 2]) {
      let sum = 0;
      for (let e = 0; e < nc; e++) {
        const g = (srcF(w, i, 0, e, q + d) - srcF(w, i, 0, e, q)) * (s.unnorm ? 1 : size[e]!);
        sum += g * g;
      }
      rho = Math.max(rho, Math.sqrt(sum));
    }
    const lambda = Math.log2(rho) + s.lodBias;
    const clamped = Math.min(Math.max(lambda, s.minLod), Math.min(s.maxLod, t.levels - 1));
    writeResult(w, i, l, [fixed(clamped), fixed(lambda), 0, 0], true);
  }
}

/** The cat5 handlers by isaspec leaf name. */
export const TEX_HANDLERS: Record<string, (w: Wave, i: Instr, c: TexContext) => void> = {
  sam: sam('none'),
  samb: sam('bias'),
  saml: sam('lod'),
  samgq: sam('grad'),
  gather4r: sam('none', 0),
  gather4g: sam('none', 1),
  gather4b: sam('none', 2),
  gather4a: sam('none', 3),
  isam: isam(false),
  isaml: isam(true),
  isamm: isam(false, true),
  getsize,
  getbuf,
  getinfo,
  getlod,
  dsx: deriv(1, false),
  dsy: deriv(2, false),
  'dsxpp.1': deriv(1, true),
  'dsypp.1': deriv(2, true),
};
