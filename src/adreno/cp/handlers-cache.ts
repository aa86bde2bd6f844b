/**
 * Which memory the RB writes through the CCU and the 2D engine reads through the TP, by the
 * registers of the bank being filled (cache/caches.ts keeps the shadows). Surfaces are taken as
 * whole rows up to the window scissor's (or the 2D rectangle's) bottom, tiled ones rounded up to
 * 16-row macrotile rows.
 */
import { decodeFields, enumName } from '../regs/db.js';
import type { CommandProcessor } from './cp.js';
import { arrayLength } from './exec.js';
import { regScalar } from '../rb/blit2d.js';

function f(cp: CommandProcessor, name: string, field: string): number {
  const o = cp.regsDb.reg(name);
  return decodeFields(cp.regsDb.at(o)!.type, cp.readReg(o), 0, cp.gen)[field] ?? 0;
}
function raw(cp: CommandProcessor, name: string): number {
  return cp.readReg(cp.regsDb.reg(name));
}
function addr(cp: CommandProcessor, name: string): number {
  const o = cp.regsDb.reg(name);
  return cp.readReg(o + 1) * 2 ** 32 + cp.readReg(o);
}
const rows = (h: number, tiled: boolean): number => (tiled ? Math.ceil(h / 16) * 16 : h);

/** A range a sysmem draw's RB writes: through which CCU cache, and what it is. */
export interface DrawWrite {
  readonly kind: 'ccu-color' | 'ccu-depth';
  readonly base: number;
  readonly len: number;
  readonly what: string;
  /** Part of a UBWC MRT (its pixels or its flag plane): flags and data reach memory separately. */
  readonly ubwc?: boolean;
}

/** The ranges a sysmem draw writes: its MRTs (CCU colour, UBWC flag planes too) and depth / stencil (CCU depth). */
export function sysmemDrawRanges(cp: CommandProcessor): DrawWrite[] {
  const out: DrawWrite[] = [];
  const h = f(cp, 'GRAS_SC_WINDOW_SCISSOR_BR', 'Y') + 1;
  // A count past RB_MRT[] is adreno.rb.mrt-count-beyond-array at the draw (the draw is not run).
  const n = Math.min(f(cp, 'RB_FS_OUTPUT_CNTL1', 'MRT'), arrayLength(cp, 'RB_MRT[%].BASE'));
  for (let i = 0; i < n; i++) {
    const tiled = enumName('a6xx_tile_mode', f(cp, `RB_MRT[${i}].BUF_INFO`, 'COLOR_TILE_MODE'), cp.gen) !== 'TILE6_LINEAR';
    const ubwc = ((f(cp, 'RB_RENDER_CNTL', 'FLAG_MRTS') >> i) & 1) === 1;
    out.push({ kind: 'ccu-color', base: addr(cp, `RB_MRT[${i}].BASE`), len: raw(cp, `RB_MRT[${i}].PITCH`) * 64 * rows(h, tiled), what: `MRT${i}`, ...(ubwc ? { ubwc } : {}) });
    // UBWC (RB_RENDER_CNTL FLAG_MRTS): the flag plane too, one row of flags per 4 pixel rows.
    if (ubwc) out.push({ kind: 'ccu-color', base: addr(cp, `RB_MRT_FLAG_BUFFER[${i}].ADDR`), len: f(cp, `RB_MRT_FLAG_BUFFER[${i}].PITCH`, 'PITCH') * Math.ceil(h / 4), what: `MRT${i} flags`, ubwc });
  }
  const depthUbwc = f(cp, 'RB_RENDER_CNTL', 'FLAG_DEPTH') === 1;
  if (enumName('a6xx_depth_format', f(cp, 'RB_DEPTH_BUFFER_INFO', 'DEPTH_FORMAT'), cp.gen) !== 'DEPTH6_NONE' && f(cp, 'RB_DEPTH_CNTL', 'Z_WRITE_ENABLE'))
    out.push({ kind: 'ccu-depth', base: addr(cp, 'RB_DEPTH_BUFFER_BASE'), len: raw(cp, 'RB_DEPTH_BUFFER_PITCH') * 64 * rows(h, true), what: 'depth', ...(depthUbwc ? { ubwc: true } : {}) });
  // UBWC depth (RB_RENDER_CNTL FLAG_DEPTH): its flag plane through the same cache.
  if (depthUbwc && f(cp, 'RB_DEPTH_CNTL', 'Z_WRITE_ENABLE'))
    out.push({ kind: 'ccu-depth', base: addr(cp, 'RB_DEPTH_FLAG_BUFFER_BASE'), len: f(cp, 'RB_DEPTH_FLAG_BUFFER_PITCH', 'PITCH') * Math.ceil(h / 4), what: 'depth flags', ubwc: true });
  if (f(cp, 'RB_STENCIL_INFO', 'SEPARATE_STENCIL') && f(cp, 'RB_STENCIL_CONTROL', 'STENCIL_ENABLE'))
    out.push({ kind: 'ccu-depth', base: addr(cp, 'RB_STENCIL_BUFFER_BASE'), len: raw(cp, 'RB_STENCIL_BUFFER_PITCH') * 64 * rows(h, true), what: 'stencil' });
  return out;
}

/**
 * The parts of [base, base + len) in mapped memory: the caches keep and compare only those (an
 * access elsewhere faults, reads 0 and writes nothing), so a pitch register of 2^32 - 1 does not
 * ask for terabytes of shadow, nor a fault per unmapped byte. An unmapped byte in the range is
 * still one read fault (adreno.cp.iova-fault), at the first such byte.
 */
function mappedParts(cp: CommandProcessor, base: number, len: number): { base: number; len: number }[] {
  const out: { base: number; len: number }[] = [];
  for (const s of cp.mem.segments) {
    const lo = Math.max(base, s.base), hi = Math.min(base + len, s.end);
    if (lo < hi) out.push({ base: lo, len: hi - lo });
  }
  out.sort((a, b) => a.base - b.base);
  let at = base;
  for (const m of out) {
    if (m.base > at) break;
    at = m.base + m.len;
  }
  if (at < base + len) cp.mem.read8(at);
  return out;
}

/** A sysmem draw is about to write its MRTs (CCU colour) and depth / stencil (CCU depth). */
export function sysmemDrawWrites(cp: CommandProcessor, what: string): void {
  for (const w of sysmemDrawRanges(cp)) for (const m of mappedParts(cp, w.base, w.len)) cp.caches.willWrite(w.kind, m.base, m.len, `${what} (${w.what})`);
}

/** CP_BLIT: the source is read through the TP's L1 (and UCHE), the destination written through the CCU colour cache. Returns whether a source is read (not a solid fill). */
export function blit2dAccess(cp: CommandProcessor): boolean {
  const dTiled = f(cp, 'RB_2D_DST_INFO', 'TILE_MODE') !== 0;
  const dRows = rows(f(cp, 'GRAS_2D_DST_BR', 'Y') + 1, dTiled);
  const source = !f(cp, 'RB_2D_BLIT_CNTL', 'SOLID_COLOR');
  // A TILE6_2 source is GMEM (rb/blit2d.ts), not memory behind UCHE.
  if (source && f(cp, 'SP_PS_2D_SRC_INFO', 'TILE_MODE') !== 2) {
    const sTiled = f(cp, 'SP_PS_2D_SRC_INFO', 'TILE_MODE') !== 0;
    const base = addr(cp, 'SP_PS_2D_SRC');
    // The rows the source rectangle reaches (+1 for a bilinear neighbour), within SP_PS_2D_SRC_SIZE
    // (turnip writes 0x3fff there when not scaling: "src size does not matter").
    const srcRows = Math.floor(Math.max(0, regScalar(cp, 'GRAS_2D_SRC_BR_Y', true))) + 1 + f(cp, 'SP_PS_2D_SRC_INFO', 'FILTER');
    const len = f(cp, 'SP_PS_2D_SRC_PITCH', 'PITCH') * rows(Math.min(Math.max(1, f(cp, 'SP_PS_2D_SRC_SIZE', 'HEIGHT')), srcRows), sTiled);
    if (len > 0) {
      cp.caches.l1Read(base, len, 'CP_BLIT source');
      for (const m of mappedParts(cp, base, len)) cp.caches.read(m.base, m.len, 'CP_BLIT source (TP / UCHE)', ['uche']);
    }
    // A UBWC source's flag plane (one row of flags per 4 pixel rows).
    const flen = raw(cp, 'SP_PS_2D_SRC_FLAGS_PITCH') * 64 * Math.ceil(Math.max(1, f(cp, 'SP_PS_2D_SRC_SIZE', 'HEIGHT')) / 4);
    if (f(cp, 'SP_PS_2D_SRC_INFO', 'FLAGS') && flen > 0) {
      cp.caches.l1Read(addr(cp, 'SP_PS_2D_SRC_FLAGS'), flen, 'CP_BLIT source flags');
      for (const m of mappedParts(cp, addr(cp, 'SP_PS_2D_SRC_FLAGS'), flen)) cp.caches.read(m.base, m.len, 'CP_BLIT source flags (TP / UCHE)', ['uche']);
    }
  }
  const dlen = raw(cp, 'RB_2D_DST_PITCH') * 64 * dRows;
  if (dlen > 0) for (const m of mappedParts(cp, addr(cp, 'RB_2D_DST'), dlen)) cp.caches.willWrite('ccu-color', m.base, m.len, 'CP_BLIT');
  return source;
}
