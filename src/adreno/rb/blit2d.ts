/**
 * The a6xx 2D engine: CP_BLIT with BLIT_OP_SCALE over the GRAS/SP/RB 2D registers (seed 004,
 * "2D Clear and Blit"). GRAS_2D_DST_TL/BR (inclusive) give the destination rectangle; with
 * RB_2D_BLIT_CNTL.SOLID_COLOR it is filled with RB_2D_SRC_SOLID_C0..C3 (one component per
 * register, encoded as BLIT_CNTL.IFMT says), otherwise GRAS_2D_SRC_TL/BR select the source
 * rectangle of the SP_PS_2D_SRC surface, scaled to the destination (nearest, or bilinear when
 * SP_PS_2D_SRC_INFO.FILTER is set, sampling pixel centres, clamped to SP_PS_2D_SRC_SIZE).
 * Pixels convert through RGBA floats between the FMT6 formats of fmt6.ts; a multisampled source
 * (samples stored together in a pixel of cpp * samples bytes, as fdl6 lays it out) is always
 * resolved: averaged when SAMPLES_AVERAGE is set, else sample 0. Surfaces are TILE6_LINEAR,
 * TILE6_3 or TILE6_3 + UBWC (flag byte per 256-byte block, one row of flags per block row at
 * *_FLAGS_PITCH); a UBWC destination block is decoded and stored whole (flag 0x1f) before it is
 * written. What is not modelled is reported with a stable id and the blit is not performed.
 *
 * A TILE6_2 source is the tile being rendered, in GMEM: the drivers' CP_BLIT resolves (fd6's
 * `fd6_resolve_tile` for formats the BLIT event cannot resolve, turnip's `store_cp_blit` for
 * unaligned render areas) point SP_PS_2D_SRC at gmem_base + the buffer's GMEM offset with PITCH
 * bin width x cpp x samples and framebuffer coordinates, and set RB_2D_BLIT_CNTL.SCISSOR so the
 * destination is clipped to GRAS_2D_RESOLVE_CNTL_1/2 (the bin, written per bin with the window
 * scissor). The source pixel is read with rb/gmem-layout.ts's mapping less SP_TP_WINDOW_OFFSET,
 * exactly as a TILE6_2 texture (sp/tex.ts): the 2D source is fetched by the TP (newer register
 * XML names SP_PS_2D_SRC_* TPL1_A2D_SRC_TEXTURE_*), a6xx has no 2D window offset of its own
 * (SP_PS_2D_WINDOW_OFFSET is a7xx only) and the drivers write SP_TP_WINDOW_OFFSET = the bin origin.
 * So a 2D resolve gives the bytes of the equivalent BLIT-event resolve.
 */
import type { Memory } from '../../core/memory.js';
import { decodeFields, enumName, enumValue, type Gen, type RegisterSpace } from '../regs/db.js';
import { macrotileDims, tile6Offset, tile6Supported, TILE6_A630, type Tile6Config } from '../ubwc/tile6.js';
import { decodeFlag, encodeBlockFlag, FLAG_UNCOMPRESSED, flagOffset, type ClearPixel } from '../ubwc/ubwc.js';
import { applySwap, bitsToFloat, fmt6, halfToFloat, type Fmt6 } from './fmt6.js';
import { gmemPitchOffset } from './gmem-layout.js';

type Rgba = [number, number, number, number];

/** What the 2D engine needs from the command processor that runs it (cp/handlers-draw.ts). */
export interface BlitHost {
  readonly mem: Memory;
  readonly gen: Gen;
  readonly regsDb: RegisterSpace;
  readReg(off: number): number;
  report(id: string, severity: 'error' | 'warning' | 'info', message: string): void;
  /** GMEM, for a TILE6_2 source (rb/gmem.ts Gmem); undefined: not modelled for the GPU. */
  readonly gmem?: { readonly bytes: Uint8Array; readonly info: { readonly gpuId: number; readonly gmemVa: number } } | undefined;
  /** GMEM rendering (RM6_BINNING / RM6_GMEM until RM6_BYPASS): the bin is GRAS_BIN_CONTROL's. */
  readonly gmemRendering?: boolean;
}

/** A TILE6_2 source: GMEM bytes, the buffer's GMEM offset, the bin being rendered. */
export interface GmemSource {
  readonly bytes: Uint8Array;
  /** SP_PS_2D_SRC less the GPU's GMEM address. */
  readonly offset: number;
  /** SP_TP_WINDOW_OFFSET: the bin's origin. */
  readonly window: { readonly x: number; readonly y: number };
  /** GRAS_BIN_CONTROL's bin in GMEM rendering; undefined outside a GMEM pass. */
  readonly bin?: { readonly w: number; readonly h: number };
}

export interface Surface {
  readonly role: 'source' | 'destination';
  readonly fmt: Fmt6;
  readonly swap: number;
  readonly base: number;
  readonly pitch: number;
  readonly tiled: boolean;
  readonly samples: number;
  /** cpp * samples: the layout's bytes per pixel. */
  readonly ecpp: number;
  readonly flags?: { readonly base: number; readonly pitch: number };
  /** TILE6_2: the surface is a bin buffer in GMEM (source only). */
  readonly gmem?: GmemSource;
}

const TILE6_3 = enumValue('a6xx_tile_mode', 'TILE6_3', 'a6xx');
const TILE6_LINEAR = enumValue('a6xx_tile_mode', 'TILE6_LINEAR', 'a6xx');
const TILE6_2 = enumValue('a6xx_tile_mode', 'TILE6_2', 'a6xx');
const OP_SCALE = enumValue('cp_blit_cmd', 'BLIT_OP_SCALE', 'a6xx');
const IFMT_UNORM8 = enumValue('a6xx_2d_ifmt', 'R2D_UNORM8', 'a6xx');
const IFMT_FLOAT16 = enumValue('a6xx_2d_ifmt', 'R2D_FLOAT16', 'a6xx');
const IFMT_FLOAT32 = enumValue('a6xx_2d_ifmt', 'R2D_FLOAT32', 'a6xx');

export class Unsupported extends Error {
  readonly id: string;
  constructor(id: string, message: string) {
    super(message);
    this.id = id;
  }
}

export function reg(cp: BlitHost, name: string): number {
  return cp.readReg(cp.regsDb.reg(name));
}

/** A register's value through its own low/high/shr (plain registers with a bit range). */
export function regScalar(cp: BlitHost, name: string, signed = false): number {
  const info = cp.regsDb.at(cp.regsDb.reg(name))!;
  const w = info.high - info.low + 1;
  let v = Math.floor((cp.readReg(info.offset) >>> 0) / 2 ** info.low) % 2 ** w;
  if (signed && v >= 2 ** (w - 1)) v -= 2 ** w;
  return v * 2 ** info.shr;
}

export function fields(cp: BlitHost, name: string): Record<string, number> {
  const info = cp.regsDb.at(cp.regsDb.reg(name))!;
  return decodeFields(info.type, cp.readReg(info.offset), 0, cp.gen);
}

export function addr64(cp: BlitHost, name: string): number {
  const o = cp.regsDb.reg(name);
  return cp.readReg(o + 1) * 2 ** 32 + cp.readReg(o);
}

export function surface(cp: BlitHost, role: Surface['role'], info: Record<string, number>, base: number, pitch: number, flagBase: number, flagPitch: number, fmtOf: (v: number) => Fmt6 | undefined = fmt6): Surface {
  const f = fmtOf(info['COLOR_FORMAT']!);
  if (!f) throw new Unsupported('adreno.blit.format-unsupported', `${role} format ${enumName('a6xx_format', info['COLOR_FORMAT']!, cp.gen) ?? info['COLOR_FORMAT']} is not modelled by the 2D engine`);
  const swap = info['COLOR_SWAP']!;
  if (applySwap([0, 0, 0, 0], swap) === undefined || (swap !== 0 && f.comps < 3)) throw new Unsupported('adreno.blit.swap-unsupported', `${role} COLOR_SWAP ${enumName('a3xx_color_swap', swap, cp.gen)} is not modelled for ${f.name}`);
  const samples = 2 ** (info['SAMPLES'] ?? 0);
  const ecpp = f.cpp * samples;
  const tm = info['TILE_MODE']!;
  if (tm === TILE6_2) return { role, fmt: f, swap, base, pitch, tiled: false, samples, ecpp, gmem: gmemSource(cp, role, info, base) };
  if (tm !== TILE6_LINEAR && tm !== TILE6_3) throw new Unsupported('adreno.blit.tile-mode-unsupported', `${role} TILE_MODE ${enumName('a6xx_tile_mode', tm, cp.gen)} is not modelled`);
  const tiled = tm === TILE6_3;
  if (tiled && !tile6Supported(ecpp)) throw new Unsupported('adreno.blit.tile-mode-unsupported', `${role}: TILE6_3 with ${ecpp} bytes per pixel is not modelled`);
  const ubwc = info['FLAGS'] === 1;
  if (ubwc && !tiled) throw new Unsupported('adreno.blit.ubwc-linear', `${role}: UBWC (FLAGS) requires TILE6_3 (seed: "ubwc requires tiling")`);
  if (ubwc && ecpp !== 4 && ecpp !== 8 && ecpp !== 16) throw new Unsupported('adreno.blit.ubwc-unsupported', `${role}: UBWC with ${ecpp} bytes per pixel is not modelled`);
  if (info['SRGB']) throw new Unsupported('adreno.blit.srgb-unsupported', `${role}: SRGB conversion is not modelled`);
  return { role, fmt: f, swap, base, pitch, tiled, samples, ecpp, ...(ubwc ? { flags: { base: flagBase, pitch: flagPitch } } : {}) };
}

/**
 * A TILE6_2 surface of the 2D engine: only as the source, in GMEM (what fd6 and turnip emit). A
 * TILE6_2 destination (no driver writes GMEM with CP_BLIT; the 2D engine writes through the CCU),
 * a TILE6_2 base outside GMEM (TILE6_2 has no documented layout in memory) and UBWC flags on GMEM
 * are undocumented: reported, the blit not performed.
 */
function gmemSource(cp: BlitHost, role: Surface['role'], info: Record<string, number>, base: number): GmemSource {
  if (role === 'destination') throw new Unsupported('adreno.blit.tile6-2-destination', `destination TILE_MODE TILE6_2: the 2D engine writing GMEM is undocumented (fd6 and turnip only read GMEM with CP_BLIT, as a TILE6_2 source; they write it with BLIT events and draws)`);
  const g = cp.gmem;
  if (!g) throw new Unsupported('adreno.blit.tile-mode-unsupported', `source TILE_MODE TILE6_2 (GMEM) on a GPU whose GMEM is not modelled`);
  if (info['FLAGS'] === 1) throw new Unsupported('adreno.blit.ubwc-unsupported', `source TILE6_2 with UBWC FLAGS: GMEM holds no flag buffer (no driver sets FLAGS on a GMEM source)`);
  const offset = base - g.info.gmemVa;
  if (offset < 0 || offset >= g.bytes.length) throw new Unsupported('adreno.blit.tile6-2-outside-gmem', `source TILE_MODE TILE6_2 at 0x${base.toString(16)}, outside the a${g.info.gpuId}'s GMEM (0x${g.info.gmemVa.toString(16)}..0x${(g.info.gmemVa + g.bytes.length).toString(16)}): TILE6_2 is the GMEM layout, undocumented in system memory`);
  const win = fields(cp, 'SP_TP_WINDOW_OFFSET');
  const bc = fields(cp, 'GRAS_BIN_CONTROL');
  const bin = cp.gmemRendering && bc['BINW'] && bc['BINH'] ? { w: bc['BINW'], h: bc['BINH'] } : undefined;
  return { bytes: g.bytes, offset, window: { x: win['X'] ?? 0, y: win['Y'] ?? 0 }, ...(bin ? { bin } : {}) };
}

export function offsetOf(s: Surface, x: number, y: number, cfg: Tile6Config): number {
  return s.base + (s.tiled ? tile6Offset(x, y, s.pitch, s.ecpp, cfg) : y * s.pitch + x * s.ecpp);
}

/** Pixel access to a memory surface (linear, TILE6_3, UBWC); shared with the GMEM BLIT event (gmem.ts). */
export class Engine {
  private readonly warned = new Set<string>();
  private readonly cp: BlitHost;
  private readonly cfg: Tile6Config;
  constructor(cp: BlitHost, cfg: Tile6Config) {
    this.cp = cp;
    this.cfg = cfg;
  }

  warnOnce(id: string, msg: string): void {
    if (this.warned.has(id)) return;
    this.warned.add(id);
    this.cp.report(id, 'warning', msg);
  }

  flagAddr(s: Surface, x: number, y: number): number {
    return s.flags!.base + flagOffset(x, y, s.ecpp, s.flags!.pitch);
  }

  /**
   * The fast-clear encoding of a surface's pixels (the seed's: 8888 UNORM, alpha in byte 3 of each
   * sample, "and D24S8": FMT6_Z24_UNORM_S8_UINT with the stencil byte in the alpha place), if it has one.
   */
  static clearOf(s: Surface): ClearPixel | undefined {
    return s.fmt.name === 'FMT6_8_8_8_8_UNORM' || s.fmt.name === 'FMT6_Z24_UNORM_S8_UINT' ? { alphaByte: 3 } : undefined;
  }

  /**
   * After whole pixels of a UBWC surface were stored (every touched block materialized, 0x1f):
   * give each block the rectangle x0..x1, y0..y1 touches the flag a UBWC writer stores for its
   * pixels (`encodeBlockFlag`: uniform 0x00 / 0xff blocks become fast-clears). The whole block is
   * read back from the pixel plane, so the encoding is lossless whatever part was written.
   * Returns the number of blocks fast-cleared.
   */
  compress(s: Surface, x0: number, y0: number, x1: number, y1: number): number {
    const clear = Engine.clearOf(s);
    if (!s.flags || !clear || x1 < x0 || y1 < y0) return 0;
    const { w, h } = macrotileDims(s.ecpp);
    let n = 0;
    for (let by = Math.floor(y0 / h) * h; by <= y1; by += h)
      for (let bx = Math.floor(x0 / w) * w; bx <= x1; bx += w) {
        const fa = this.flagAddr(s, bx, by);
        if (this.cp.mem.read8(fa) !== FLAG_UNCOMPRESSED) continue;
        const flag = encodeBlockFlag((px, py) => this.cp.mem.readBytes(offsetOf(s, bx + px, by + py, this.cfg), s.ecpp), s.ecpp, clear);
        if (flag !== FLAG_UNCOMPRESSED) {
          this.cp.mem.write8(fa, flag);
          n++;
        }
      }
    return n;
  }

  /**
   * A TILE6_2 source pixel: the GMEM mapping every GMEM agent uses (rb/gmem-layout.ts) at the
   * framebuffer pixel less SP_TP_WINDOW_OFFSET. A pixel outside the bin being rendered (or any
   * outside a GMEM pass) is `adreno.blit.gmem-outside-bin`: read at the model's offset, whose
   * value depends on TILE6_2's undocumented order; beyond GMEM, zeros.
   */
  gmemPixel(s: Surface, x: number, y: number): Uint8Array {
    const g = s.gmem!;
    const bx = x - g.window.x, by = y - g.window.y;
    if (!g.bin || bx < 0 || by < 0 || bx >= g.bin.w || by >= g.bin.h)
      this.warnOnce('adreno.blit.gmem-outside-bin', `${s.role} TILE6_2 (GMEM) pixel (${x}, ${y}) ${g.bin ? `lies outside the bin being rendered (${g.bin.w}x${g.bin.h} at SP_TP_WINDOW_OFFSET ${g.window.x},${g.window.y})` : 'read outside a GMEM render pass'}: GMEM holds another bin's, buffer's or the CCU's bytes there, in TILE6_2's undocumented order; read at the model's offset`);
    const o = gmemPitchOffset(g.offset, x, y, g.window.x, g.window.y, s.pitch, s.ecpp);
    if (o < 0 || o + s.ecpp > g.bytes.length) return new Uint8Array(s.ecpp);
    return g.bytes.slice(o, o + s.ecpp);
  }

  /** Raw bytes of one pixel (all samples) as memory holds them, UBWC flags applied. */
  rawPixel(s: Surface, x: number, y: number): Uint8Array {
    if (s.gmem) return this.gmemPixel(s, x, y);
    if (s.flags) {
      const f = this.cp.mem.read8(this.flagAddr(s, x, y));
      const d = decodeFlag(f);
      if (d.kind === 'clear') {
        if (!Engine.clearOf(s)) {
          this.warnOnce('adreno.blit.ubwc-clear-format', `${s.role}: fast-clear flag 0x${f.toString(16)} on ${s.fmt.name}: only 8888 (and D24S8) clear encodings are known (seed), read as zeros`);
          return new Uint8Array(s.ecpp);
        }
        const out = new Uint8Array(s.ecpp);
        for (let b = 0; b < s.ecpp; b++) out[b] = ((b % 4 === 3 ? d.alpha : d.color) ? 0xff : 0);
        return out;
      }
      if (d.bytes !== 256) {
        this.warnOnce('adreno.blit.ubwc-compressed-tile', `${s.role}: block compressed to ${d.bytes} bytes; the compressed encoding is not modelled, read as zeros`);
        return new Uint8Array(s.ecpp);
      }
    }
    return this.cp.mem.readBytes(offsetOf(s, x, y, this.cfg), s.ecpp);
  }

  /** Resolved RGBA of a source pixel. */
  fetch(s: Surface, x: number, y: number, average: boolean): Rgba {
    const raw = this.rawPixel(s, x, y);
    const n = average ? s.samples : 1;
    const acc: Rgba = [0, 0, 0, 0];
    for (let k = 0; k < n; k++) {
      const c = s.fmt.unpack(raw, k * s.fmt.cpp);
      for (let i = 0; i < 4; i++) acc[i] += c[i]! / n;
    }
    return applySwap(acc, s.swap)!;
  }

  /** Make a UBWC destination block stored whole (flag 0x1f) so single pixels can be written. */
  materialize(s: Surface, x: number, y: number): void {
    const fa = this.flagAddr(s, x, y);
    if (this.cp.mem.read8(fa) === FLAG_UNCOMPRESSED) return;
    const { w, h } = macrotileDims(s.ecpp);
    const bx = Math.floor(x / w) * w, by = Math.floor(y / h) * h;
    const pixels: Uint8Array[] = [];
    for (let py = 0; py < h; py++) for (let px = 0; px < w; px++) pixels.push(this.rawPixel(s, bx + px, by + py));
    this.cp.mem.write8(fa, FLAG_UNCOMPRESSED);
    let i = 0;
    for (let py = 0; py < h; py++) for (let px = 0; px < w; px++) this.cp.mem.writeBytes(offsetOf(s, bx + px, by + py, this.cfg), pixels[i++]!);
  }

  /** Write the raw bytes of one pixel (all samples), materializing a UBWC block first. */
  storeRaw(s: Surface, x: number, y: number, b: Uint8Array): void {
    if (s.flags) this.materialize(s, x, y);
    this.cp.mem.writeBytes(offsetOf(s, x, y, this.cfg), b);
  }

  store(s: Surface, x: number, y: number, c: Rgba): void {
    if (s.flags) this.materialize(s, x, y);
    const b = new Uint8Array(s.ecpp);
    s.fmt.pack(applySwap(c, s.swap)!, b, 0);
    this.cp.mem.writeBytes(offsetOf(s, x, y, this.cfg), b);
  }
}

function solidComponent(cp: BlitHost, ifmt: number, v: number): number {
  if (ifmt === IFMT_UNORM8) return (v & 0xff) / 255;
  if (ifmt === IFMT_FLOAT16) return halfToFloat(v & 0xffff);
  if (ifmt === IFMT_FLOAT32) return bitsToFloat(v);
  throw new Unsupported('adreno.blit.ifmt-unsupported', `solid colour with IFMT ${enumName('a6xx_2d_ifmt', ifmt, cp.gen) ?? ifmt} is not modelled`);
}

export interface BlitResult {
  readonly pixels: number;
}

/** Execute CP_BLIT from the 2D registers of the bank being filled; undefined when not performed. */
export function execBlit2d(cp: BlitHost, op: number, cfg: Tile6Config = TILE6_A630): BlitResult | undefined {
  if (op !== OP_SCALE) {
    cp.report('adreno.blit.op-unmodelled', 'warning', `CP_BLIT op ${enumName('cp_blit_cmd', op, cp.gen) ?? op}: only BLIT_OP_SCALE (what a6xx drivers emit) is modelled; not performed`);
    return undefined;
  }
  try {
    return run(cp, cfg);
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    cp.report(e.id, 'error', `${e.message}; CP_BLIT not performed`);
    return undefined;
  }
}

function run(cp: BlitHost, cfg: Tile6Config): BlitResult {
  const gcntl = reg(cp, 'GRAS_2D_BLIT_CNTL');
  const rcntl = reg(cp, 'RB_2D_BLIT_CNTL');
  if (gcntl !== rcntl) cp.report('adreno.blit.cntl-mismatch', 'warning', `GRAS_2D_BLIT_CNTL 0x${gcntl.toString(16)} differs from RB_2D_BLIT_CNTL 0x${rcntl.toString(16)} (the seed: "same as"); RB's is used`);
  const cntl = fields(cp, 'RB_2D_BLIT_CNTL');
  if (cntl['ROTATE']) throw new Unsupported('adreno.blit.rotate-unsupported', `BLIT_CNTL.ROTATE ${enumName('a6xx_rotation', cntl['ROTATE']!, cp.gen)} is not modelled`);
  const tl = fields(cp, 'GRAS_2D_DST_TL');
  const br = fields(cp, 'GRAS_2D_DST_BR');
  const dx0 = tl['X']!, dy0 = tl['Y']!, dx1 = br['X']!, dy1 = br['Y']!;
  // RB_2D_BLIT_CNTL.SCISSOR: the destination is clipped to GRAS_2D_RESOLVE_CNTL_1/2 (inclusive),
  // which the drivers write per bin with GRAS_SC_WINDOW_SCISSOR ("take into account the window
  // scissor which is set per-tile", fd6). The source mapping keeps the unclipped rectangle.
  let cx0 = dx0, cy0 = dy0, cx1 = dx1, cy1 = dy1;
  if (cntl['SCISSOR']) {
    const s1 = fields(cp, 'GRAS_2D_RESOLVE_CNTL_1'), s2 = fields(cp, 'GRAS_2D_RESOLVE_CNTL_2');
    cx0 = Math.max(dx0, s1['X']!); cy0 = Math.max(dy0, s1['Y']!);
    cx1 = Math.min(dx1, s2['X']!); cy1 = Math.min(dy1, s2['Y']!);
  }
  const dinfo = fields(cp, 'RB_2D_DST_INFO');
  if (dinfo['SAMPLES']) throw new Unsupported('adreno.blit.dst-msaa', 'the 2D engine resolves: a multisampled destination is not modelled');
  const dst = surface(cp, 'destination', dinfo, addr64(cp, 'RB_2D_DST'), regScalar(cp, 'RB_2D_DST_PITCH'), addr64(cp, 'RB_2D_DST_FLAGS'), regScalar(cp, 'RB_2D_DST_FLAGS_PITCH'));
  const eng = new Engine(cp, cfg);
  if (cx1 < cx0 || cy1 < cy0) return { pixels: 0 };
  let pixels = 0;
  if (cntl['SOLID_COLOR']) {
    const c0 = cp.regsDb.reg('RB_2D_SRC_SOLID_C0');
    const c = [0, 1, 2, 3].map((i) => solidComponent(cp, cntl['IFMT']!, cp.readReg(c0 + i))) as Rgba;
    for (let y = cy0; y <= cy1; y++) for (let x = cx0; x <= cx1; x++, pixels++) eng.store(dst, x, y, c);
    eng.compress(dst, cx0, cy0, cx1, cy1);
    return { pixels };
  }
  const sinfo = fields(cp, 'SP_PS_2D_SRC_INFO');
  const ssize = fields(cp, 'SP_PS_2D_SRC_SIZE');
  const spitch = fields(cp, 'SP_PS_2D_SRC_PITCH')['PITCH']!;
  const src = surface(cp, 'source', sinfo, addr64(cp, 'SP_PS_2D_SRC'), spitch, addr64(cp, 'SP_PS_2D_SRC_FLAGS'), regScalar(cp, 'SP_PS_2D_SRC_FLAGS_PITCH'));
  const sw = Math.max(1, ssize['WIDTH']!), sh = Math.max(1, ssize['HEIGHT']!);
  const sx0 = regScalar(cp, 'GRAS_2D_SRC_TL_X', true), sx1 = regScalar(cp, 'GRAS_2D_SRC_BR_X', true);
  const sy0 = regScalar(cp, 'GRAS_2D_SRC_TL_Y', true), sy1 = regScalar(cp, 'GRAS_2D_SRC_BR_Y', true);
  const scaleX = (sx1 - sx0 + 1) / (dx1 - dx0 + 1);
  const scaleY = (sy1 - sy0 + 1) / (dy1 - dy0 + 1);
  const avg = sinfo['SAMPLES_AVERAGE'] === 1;
  const clampX = (v: number): number => Math.min(sw - 1, Math.max(0, v));
  const clampY = (v: number): number => Math.min(sh - 1, Math.max(0, v));
  const bilinear = sinfo['FILTER'] === 1;
  for (let y = cy0; y <= cy1; y++) {
    const v = sy0 + (y - dy0 + 0.5) * scaleY;
    for (let x = cx0; x <= cx1; x++, pixels++) {
      const u = sx0 + (x - dx0 + 0.5) * scaleX;
      let c: Rgba;
      if (!bilinear) c = eng.fetch(src, clampX(Math.floor(u)), clampY(Math.floor(v)), avg);
      else {
        const fu = u - 0.5, fv = v - 0.5;
        const x0 = Math.floor(fu), y0 = Math.floor(fv);
        const ax = fu - x0, ay = fv - y0;
        const p00 = eng.fetch(src, clampX(x0), clampY(y0), avg), p10 = eng.fetch(src, clampX(x0 + 1), clampY(y0), avg);
        const p01 = eng.fetch(src, clampX(x0), clampY(y0 + 1), avg), p11 = eng.fetch(src, clampX(x0 + 1), clampY(y0 + 1), avg);
        c = [0, 1, 2, 3].map((i) => (p00[i]! * (1 - ax) + p10[i]! * ax) * (1 - ay) + (p01[i]! * (1 - ax) + p11[i]! * ax) * ay) as Rgba;
      }
      eng.store(dst, x, y, c);
    }
  }
  eng.compress(dst, cx0, cy0, cx1, cy1);
  return { pixels };
}
