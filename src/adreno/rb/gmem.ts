/**
 * GMEM, the on-chip tile memory, and the RB's `BLIT` event that clears it, loads it from system
 * memory ("restore") and stores it back ("resolve") — seed 004, "GMEM Clear and Blit", "Caches"
 * (CCU) and "Depth Formats" (event blit).
 *
 * Sizes: GMEM per SoC is what the kernel reports to freedreno (a630 1 MiB, a650 1 MiB + 128 KiB,
 * a660 1.5 MiB); the CCU count per SoC and the per-CCU cache sizes come from freedreno's device
 * table (a6xx: 64 KiB colour and 64 KiB depth per CCU in sysmem mode; RB_CCU_CNTL.COLOR_CACHE_SIZE
 * divides it: QUARTER = the seed's 16 KiB per CCU for GMEM rendering).
 *
 * RB_CCU_CNTL places the CCU caches inside GMEM: colour at COLOR_OFFSET (COLOR_OFFSET_HI adds bit
 * 21), depth at DEPTH_OFFSET (sysmem rendering only, seed: "not used when gmem rendering"). A
 * BLIT event (or a GMEM draw, `Gmem.checkWrite`) writing into a live CCU range is the diagnostic
 * `adreno.gmem.ccu-overlap`: on hardware the CCU's resolve traffic and the tile data corrupt
 * each other.
 *
 * The BLIT event reads RB_BLIT_INFO: GMEM with CLEAR_MASK = clear (RB_BLIT_CLEAR_COLOR_DW0..3 hold
 * the value packed in RB_BLIT_DST_INFO's format; CLEAR_MASK selects components, for depth formats
 * bit 0 depth and bit 1 stencil), GMEM without CLEAR_MASK = restore (memory -> GMEM), no GMEM =
 * resolve (GMEM -> memory). The rectangle is RB_BLIT_SCISSOR_TL/BR (inclusive) intersected with
 * the bin at RB_WINDOW_OFFSET2 of RB_BIN_CONTROL2's size. The memory side is RB_BLIT_DST_INFO
 * (TILE6_LINEAR / TILE6_3 / UBWC FLAGS, SAMPLES, COLOR_SWAP), RB_BLIT_DST, RB_BLIT_DST_PITCH,
 * RB_BLIT_FLAG_DST(_PITCH), addressed through the 2D engine's surface code (blit2d.ts); a UBWC
 * resolve gives its blocks the flags ubwc.ts encodes and checks the flag buffer (ubwc-target.ts). GMEM holds
 * RB_BLIT_GMEM_MSAA_CNTL.SAMPLES samples per pixel; a resolve to a single-sampled destination
 * averages them (SAMPLE_0 takes sample 0), which needs a format the 2D engine converts.
 *
 * GMEM pixel layout (model choice): freedreno gives GMEM surfaces the TILE6_2 mode with a pitch of
 * bin width x cpp (fd6_gmem.c's fb-read descriptor); TILE6_2's internal swizzle is not documented,
 * so a pixel of a bin lives at BASE_GMEM + ((y - win.y) * binW + (x - win.x)) * cpp * samples,
 * samples of a pixel together. Every GMEM user (BLIT event, RB draws, and the TP's TILE6_2
 * fetches in sp/tex.ts) goes through `gmemOffset` / `gmemPitchOffset`, so this layout is the
 * model's TILE6_2: images leaving GMEM and texels read from it are byte-exact whatever the
 * hardware's internal order; only direct views of GMEM bytes would differ (docs/adreno.md).
 */
import { enumName, type Gen, type RegisterSpace } from '../regs/db.js';
import { TILE6_A630, type Tile6Config } from '../ubwc/tile6.js';
import { addr64, Engine, fields, offsetOf, regScalar, surface, Unsupported, type BlitHost, type Surface } from './blit2d.js';
import { fmt6, type Fmt6 } from './fmt6.js';
import { checkFlagBuffer } from './ubwc-target.js';
import { gmemOffset } from './gmem-layout.js';
import type { Caches } from '../cache/caches.js';

/** Per-SoC GMEM facts. */
export interface GmemInfo {
  readonly gpuId: number;
  readonly gmemBytes: number;
  readonly numCcu: number;
  /** Per-CCU cache sizes at CCU_CACHE_SIZE_FULL (freedreno sysmem_per_ccu_*_cache_size). */
  readonly ccuColorBytes: number;
  readonly ccuDepthBytes: number;
  /** freedreno's tile alignment (tile_align_w/h) and a6xx's largest bin (tile_max_w/h). */
  readonly tileAlignW: number;
  readonly tileAlignH: number;
  readonly tileMaxW: number;
  readonly tileMaxH: number;
  readonly numVscPipes: number;
  /** a6xx sub-generation (freedreno's a6xx_gen1..gen4 templates). */
  readonly subGen: 1 | 2 | 3 | 4;
  /**
   * The GPU address of GMEM byte 0 for the TP (the kernel's MSM_PARAM_GMEM_BASE, which turnip and
   * fd6 add to a buffer's GMEM offset in a TILE6_2 descriptor): 0x100000 before the a650 family
   * (the kernel also sets UCHE_GMEM_RANGE_MIN/MAX to it), 0 on a650 / a660.
   */
  readonly gmemVa: number;
}

const KiB = 1024;
const INFOS: readonly GmemInfo[] = [
  { gpuId: 630, gmemBytes: 1024 * KiB, numCcu: 2, ccuColorBytes: 64 * KiB, ccuDepthBytes: 64 * KiB, tileAlignW: 32, tileAlignH: 16, tileMaxW: 1024, tileMaxH: 1008, numVscPipes: 32, subGen: 1, gmemVa: 0x100000 },
  { gpuId: 650, gmemBytes: 1152 * KiB, numCcu: 3, ccuColorBytes: 64 * KiB, ccuDepthBytes: 64 * KiB, tileAlignW: 96, tileAlignH: 16, tileMaxW: 1024, tileMaxH: 1008, numVscPipes: 32, subGen: 3, gmemVa: 0 },
  { gpuId: 660, gmemBytes: 1536 * KiB, numCcu: 3, ccuColorBytes: 64 * KiB, ccuDepthBytes: 64 * KiB, tileAlignW: 96, tileAlignH: 16, tileMaxW: 1024, tileMaxH: 1008, numVscPipes: 32, subGen: 4, gmemVa: 0 },
];

export function gmemInfo(gpuId: number): GmemInfo {
  const i = INFOS.find((x) => x.gpuId === gpuId);
  if (!i) throw new Error(`no GMEM facts for a${gpuId} (modelled: ${INFOS.map((x) => 'a' + x.gpuId).join(', ')})`);
  return i;
}

export function gmemModelled(gpuId: number): boolean {
  return INFOS.some((x) => x.gpuId === gpuId);
}

/** Bits per component of an FMT6 format, from its name (FMT6_8_8_8_8_UNORM -> [8,8,8,8], FMT6_Z24_UNORM_S8_UINT -> [24,8]). */
export function formatWidths(name: string): number[] {
  const w: number[] = [];
  let typed = false;
  for (const t of name.replace(/^FMT6_/, '').split('_')) {
    if (/^\d+$/.test(t) && !typed) w.push(Number(t));
    else if (/^[ZSX]\d+$/.test(t)) w.push(Number(t.slice(1)));
    else typed = true;
  }
  return w;
}

/** A format the BLIT event moves as bytes (any cpp); converts only through fmt6 when known. */
function rawFormat(value: number, gen: Gen): Fmt6 | undefined {
  const known = fmt6(value);
  if (known) return known;
  const name = enumName('a6xx_format', value, gen);
  if (!name) return undefined;
  const bits = formatWidths(name).reduce((a, b) => a + b, 0);
  if (bits === 0 || bits % 8) return undefined;
  const fail = (): never => { throw new Unsupported('adreno.gmem.format-convert', `${name}: the BLIT event would have to convert or average samples of a format the model does not decode`); };
  return { name, value, cpp: bits / 8, comps: formatWidths(name).length, unpack: fail, pack: fail };
}

export interface CcuRange {
  readonly kind: 'colour' | 'depth';
  readonly start: number;
  readonly end: number;
}

/** The CCU ranges RB_CCU_CNTL puts in GMEM (colour always; depth only in sysmem rendering). */
export function ccuRanges(cntl: Record<string, number>, info: GmemInfo, gmemRendering: boolean): CcuRange[] {
  const colorOff = (cntl['COLOR_OFFSET'] ?? 0) + (cntl['COLOR_OFFSET_HI'] ?? 0) * 2 ** 21;
  const depthOff = (cntl['DEPTH_OFFSET'] ?? 0) + (cntl['DEPTH_OFFSET_HI'] ?? 0) * 2 ** 21;
  const colorSize = info.numCcu * (info.ccuColorBytes >> (cntl['COLOR_CACHE_SIZE'] ?? 0));
  const depthSize = info.numCcu * (info.ccuDepthBytes >> (cntl['DEPTH_CACHE_SIZE'] ?? 0));
  const r: CcuRange[] = [{ kind: 'colour', start: colorOff, end: colorOff + colorSize }];
  if (!gmemRendering) r.push({ kind: 'depth', start: depthOff, end: depthOff + depthSize });
  return r;
}

/** The GMEM byte offset of pixel (x, y) of a bin surface (see the layout note above; gmem-layout.ts). */
export { gmemOffset, gmemPitchOffset } from './gmem-layout.js';

/** What the BLIT event needs from the CP besides the 2D engine's host interface. */
export interface GmemHost extends BlitHost {
  readonly gmem: Gmem;
  /** Resolves write through the CCU colour cache; restores read memory uncached (cache/caches.ts). */
  readonly caches?: Caches;
  /** GMEM rendering (CP_SET_MARKER RM6_GMEM, until RM6_BYPASS). */
  readonly gmemRendering: boolean;
}

/** The GMEM of one GPU: bytes, and the writers' checks against the CCU ranges. */
export class Gmem {
  readonly info: GmemInfo;
  readonly bytes: Uint8Array;
  /** Byte counts moved by BLIT events (perf: clears, restores, resolves). */
  readonly stats = { clears: 0, restores: 0, resolves: 0, pixels: 0 };
  private readonly warned = new Set<string>();

  constructor(gpuId: number) {
    this.info = gmemInfo(gpuId);
    this.bytes = new Uint8Array(this.info.gmemBytes);
  }

  /**
   * Check a write of `len` bytes at GMEM offset `off` (once per kind per event): outside GMEM,
   * or into a CCU range RB_CCU_CNTL placed there. Returns false when it cannot be performed.
   */
  checkWrite(host: BlitHost & { readonly gmemRendering: boolean }, off: number, len: number, what: string): boolean {
    if (off < 0 || off + len > this.bytes.length) {
      this.once(host, 'adreno.gmem.out-of-range', 'error', `${what}: GMEM bytes 0x${off.toString(16)}..0x${(off + len).toString(16)} lie outside the a${this.info.gpuId}'s ${this.bytes.length / KiB} KiB GMEM; dropped`);
      return false;
    }
    const cntl = fields(host, 'RB_CCU_CNTL');
    for (const r of ccuRanges(cntl, this.info, host.gmemRendering)) {
      if (off < r.end && off + len > r.start) {
        this.once(host, 'adreno.gmem.ccu-overlap', 'error', `${what}: GMEM bytes 0x${off.toString(16)}..0x${(off + len).toString(16)} overlap the CCU ${r.kind} cache RB_CCU_CNTL places at 0x${r.start.toString(16)}..0x${r.end.toString(16)} (${host.gmemRendering ? 'GMEM' : 'sysmem'} rendering): the cache and the tile data corrupt each other`);
        break;
      }
    }
    return true;
  }

  /** Reset the once-per-event warnings (each BLIT event or draw reports afresh). */
  beginEvent(): void {
    this.warned.clear();
  }

  private once(host: BlitHost, id: string, sev: 'error' | 'warning', msg: string): void {
    if (this.warned.has(id)) return;
    this.warned.add(id);
    host.report(id, sev, msg);
  }
}

export interface BlitEventResult {
  readonly op: 'clear' | 'restore' | 'resolve';
  readonly pixels: number;
  /** A resolve: the memory it wrote (row pieces or 256-byte blocks, merged). */
  readonly spans?: readonly { readonly base: number; readonly len: number }[];
}

/** Execute CP_EVENT_WRITE BLIT from the RB_BLIT_* registers of the bank being filled. */
export function execBlitEvent(host: GmemHost, cfg: Tile6Config = TILE6_A630): BlitEventResult | undefined {
  host.gmem.beginEvent();
  try {
    return runBlitEvent(host, cfg);
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    host.report(e.id, 'error', `${e.message}; BLIT event not performed`);
    return undefined;
  }
}

const SAMPLES = (v: number | undefined): number => 2 ** (v ?? 0);

function runBlitEvent(host: GmemHost, cfg: Tile6Config): BlitEventResult {
  const g = host.gmem;
  const info = fields(host, 'RB_BLIT_INFO');
  const dinfo = fields(host, 'RB_BLIT_DST_INFO');
  const bin = fields(host, 'RB_BIN_CONTROL2');
  const binW = bin['BINW']!, binH = bin['BINH']!;
  const win = fields(host, 'RB_WINDOW_OFFSET2');
  const wx = win['X']!, wy = win['Y']!;
  const tl = fields(host, 'RB_BLIT_SCISSOR_TL'), br = fields(host, 'RB_BLIT_SCISSOR_BR');
  const base = regScalar(host, 'RB_BLIT_BASE_GMEM');
  const op: BlitEventResult['op'] = info['GMEM'] ? (info['CLEAR_MASK'] ? 'clear' : 'restore') : 'resolve';
  if (binW === 0 || binH === 0) throw new Unsupported('adreno.gmem.no-bin-size', `BLIT event (${op}) with RB_BIN_CONTROL2 ${binW}x${binH}: the event covers the bin RB_BIN_CONTROL2 sizes`);
  const x0 = Math.max(tl['X']!, wx), y0 = Math.max(tl['Y']!, wy);
  const x1 = Math.min(br['X']!, wx + binW - 1), y1 = Math.min(br['Y']!, wy + binH - 1);
  const fmt = rawFormat(dinfo['COLOR_FORMAT']!, host.gen);
  if (!fmt) throw new Unsupported('adreno.gmem.format-unsupported', `RB_BLIT_DST_INFO format ${enumName('a6xx_format', dinfo['COLOR_FORMAT']!, host.gen) ?? dinfo['COLOR_FORMAT']} has no known size`);
  const gs = op === 'clear' ? SAMPLES(dinfo['SAMPLES']) : SAMPLES(fields(host, 'RB_BLIT_GMEM_MSAA_CNTL')['SAMPLES']);
  const gcpp = fmt.cpp * gs;
  if (x1 < x0 || y1 < y0) return { op, pixels: 0 };
  const what = `BLIT event (${op}, ${fmt.name}, BASE_GMEM 0x${base.toString(16)})`;
  // Every GMEM byte this event touches: rows of the rectangle.
  const first = gmemOffset(base, x0, y0, wx, wy, binW, gcpp);
  const last = gmemOffset(base, x1, y1, wx, wy, binW, gcpp) + gcpp;
  if (op === 'resolve') {
    if (first < 0 || last > g.bytes.length) throw new Unsupported('adreno.gmem.out-of-range', `${what}: reads GMEM bytes 0x${first.toString(16)}..0x${last.toString(16)}, outside the a${g.info.gpuId}'s ${g.bytes.length / KiB} KiB GMEM`);
  } else if (!g.checkWrite(host, first, last - first, what)) return { op, pixels: 0 };
  let pixels = 0;
  if (op === 'clear') {
    const mask = clearMask(fmt, info['CLEAR_MASK']!, info['DEPTH'] === 1);
    const val = new Uint8Array(16);
    const c0 = host.regsDb.reg('RB_BLIT_CLEAR_COLOR_DW0');
    for (let i = 0; i < 4; i++) new DataView(val.buffer).setUint32(4 * i, host.readReg(c0 + i) >>> 0, true);
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++, pixels++) {
        const o = gmemOffset(base, x, y, wx, wy, binW, gcpp);
        for (let s = 0; s < gs; s++) for (let b = 0; b < fmt.cpp; b++) {
          const at = o + s * fmt.cpp + b;
          g.bytes[at] = (g.bytes[at]! & ~mask[b]!) | (val[b]! & mask[b]!);
        }
      }
    }
    g.stats.clears++;
    g.stats.pixels += pixels;
    return { op, pixels };
  }
  const dst: Surface = surface(host, op === 'restore' ? 'source' : 'destination', dinfo, addr64(host, 'RB_BLIT_DST'), regScalar(host, 'RB_BLIT_DST_PITCH'), addr64(host, 'RB_BLIT_FLAG_DST'), fields(host, 'RB_BLIT_FLAG_DST_PITCH')['PITCH']!, (v) => rawFormat(v, host.gen));
  const eng = new Engine(host, cfg);
  const ms = dst.samples;
  if (dst.flags && op === 'resolve')
    for (const pr of checkFlagBuffer(host.mem, { what, base: dst.base, pitch: dst.pitch, ecpp: dst.ecpp, flagBase: dst.flags.base, flagPitch: dst.flags.pitch, width: br['X']! + 1, height: br['Y']! + 1 })) host.report(pr.id, 'error', pr.message);
  // The memory the event reads or writes (a resolve also returns it: cp/handlers-feedback.ts).
  const spans = host.caches || op === 'resolve' ? memorySpans(dst, x0, y0, x1, y1, cfg) : [];
  if (host.caches) {
    for (const sp of spans) {
      if (op === 'restore') host.caches.read(sp.base, sp.len, 'the BLIT event restore (uncached)');
      else host.caches.willWrite('ccu-color', sp.base, sp.len, 'the BLIT event resolve');
    }
  }
  if (op === 'restore') {
    if (ms !== gs) throw new Unsupported('adreno.gmem.restore-samples', `restore of a ${ms}-sample surface into GMEM holding ${gs} samples (RB_BLIT_GMEM_MSAA_CNTL): a load copies samples, it cannot resolve`);
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++, pixels++) g.bytes.set(eng.rawPixel(dst, x, y), gmemOffset(base, x, y, wx, wy, binW, gcpp));
    g.stats.restores++;
  } else {
    if (ms !== gs && ms !== 1) throw new Unsupported('adreno.gmem.resolve-samples', `resolve of ${gs} GMEM samples into a ${ms}-sample surface`);
    const average = ms === 1 && gs > 1 && info['SAMPLE_0'] !== 1;
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++, pixels++) {
        const o = gmemOffset(base, x, y, wx, wy, binW, gcpp);
        if (ms === gs) eng.storeRaw(dst, x, y, g.bytes.slice(o, o + gcpp));
        else if (!average) eng.storeRaw(dst, x, y, g.bytes.slice(o, o + fmt.cpp));
        else {
          const acc = [0, 0, 0, 0];
          for (let s = 0; s < gs; s++) {
            const c = fmt.unpack(g.bytes, o + s * fmt.cpp);
            for (let i = 0; i < 4; i++) acc[i] += c[i]! / gs;
          }
          const b = new Uint8Array(fmt.cpp);
          fmt.pack(acc, b, 0);
          eng.storeRaw(dst, x, y, b);
        }
      }
    }
    // UBWC: the resolved blocks get the flags a UBWC writer stores (fast-clears where uniform).
    if (dst.flags) eng.compress(dst, x0, y0, x1, y1);
    g.stats.resolves++;
    g.stats.pixels += pixels;
    return { op, pixels, spans };
  }
  g.stats.pixels += pixels;
  return { op, pixels };
}

/** The memory a rectangle of a surface occupies: row pieces when linear, 256-byte blocks when tiled, merged. */
function memorySpans(s: Surface, x0: number, y0: number, x1: number, y1: number, cfg: Tile6Config): { base: number; len: number }[] {
  if (!s.tiled) return Array.from({ length: y1 - y0 + 1 }, (_, k) => ({ base: s.base + (y0 + k) * s.pitch + x0 * s.ecpp, len: (x1 - x0 + 1) * s.ecpp }));
  const blocks = new Set<number>();
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) blocks.add(Math.floor(offsetOf(s, x, y, cfg) / 256) * 256);
  const sorted = [...blocks].sort((a, b) => a - b);
  const out: { base: number; len: number }[] = [];
  for (const b of sorted) {
    const last = out[out.length - 1];
    if (last && last.base + last.len === b) last.len += 256;
    else out.push({ base: b, len: 256 });
  }
  return out;
}

/** Per-byte write mask of a clear: components CLEAR_MASK selects (depth formats: bit 0 depth, bit 1 stencil). */
function clearMask(fmt: Fmt6, cm: number, depth: boolean): Uint8Array {
  const widths = formatWidths(fmt.name);
  const m = new Uint8Array(fmt.cpp);
  let bit = 0;
  widths.forEach((w, i) => {
    const on = depth ? (i === 0 ? cm & 1 : cm & 2) : (cm >> i) & 1;
    for (let k = 0; k < w; k++, bit++) if (on) m[bit >> 3] = m[bit >> 3]! | (1 << (bit & 7));
  });
  if (widths.length === 1 && !depth && (cm & 1)) m.fill(0xff);
  return m;
}

