/**
 * The GMEM-mode render pass a driver emits (the order of freedreno's fd6_gmem.c, written from its
 * steps, not its code): tile init (LRZ_FLUSH, CP_SKIP_IB2_ENABLE_*, RB_CCU_CNTL with the CCU
 * colour cache at the top of GMEM, the buffers' BASE_GMEM), the optional binning pass
 * (RM6_BINNING, VSC_* registers, the draws once, visibility override off after it), then per bin:
 * RM6_GMEM, GRAS_SC_WINDOW_SCISSOR / GRAS_2D_RESOLVE_CNTL_*, CP_SET_BIN_DATA5 (binning) or the
 * visibility override, RB/SP window offsets, restores and clears (BLIT events), the draws,
 * RM6_RESOLVE and the resolves (BLIT events); at the end LRZ_FLUSH and PC_CCU_RESOLVE_TS.
 * A target may resolve with the 2D engine instead (`resolve2d`): fd6's `fd6_resolve_tile` steps
 * (CP_BLIT from a TILE6_2 source in GMEM, destination the whole surface clipped per bin by
 * RB_2D_BLIT_CNTL.SCISSOR to GRAS_2D_RESOLVE_CNTL_*, CACHE_INVALIDATE before, a CCU colour flush
 * after).
 */
import type { CmdStream } from '../cp/builder.js';
import { gmemInfo } from './gmem.js';
import { FMT6_MODELLED, fmt6ByName } from './fmt6.js';
import { pipeOf, type BinLayout } from '../vsc/vsc.js';

/** One GMEM buffer (a colour MRT or the depth buffer) and its memory image. */
export interface GmemTarget {
  readonly iova: number;
  /** Bytes per row in memory. */
  readonly pitch: number;
  /** FMT6_* name, e.g. FMT6_8_8_8_8_UNORM, FMT6_Z24_UNORM_S8_UINT. */
  readonly format: string;
  readonly tile?: 'TILE6_LINEAR' | 'TILE6_3';
  readonly flags?: { readonly iova: number; readonly pitch: number };
  /** Samples of the memory image (1 = resolve to single-sampled). */
  readonly samples?: number;
  readonly depth?: boolean;
  /** Restore (memory -> GMEM) at the start of each bin. */
  readonly load?: boolean;
  /** Restore from this linear image instead of the target's own (e.g. a multisampled one). */
  readonly loadFrom?: { readonly iova: number; readonly pitch: number; readonly samples?: number };
  /** Clear value packed in the format (RB_BLIT_CLEAR_COLOR_DW0..3) and its CLEAR_MASK. */
  readonly clear?: { readonly dw: readonly number[]; readonly mask?: number };
  /** Resolve (GMEM -> memory) at the end of each bin (default true). */
  readonly store?: boolean;
  /** Resolve takes sample 0 instead of averaging. */
  readonly sample0?: boolean;
  /** Resolve with CP_BLIT from a TILE6_2 source in GMEM (fd6_resolve_tile) instead of a BLIT event. */
  readonly resolve2d?: boolean;
}

export interface VscBuffers {
  readonly drawStrm: number;
  readonly drawPitch: number;
  readonly primStrm: number;
  readonly primPitch: number;
  /** VSC_DRAW_STRM_SIZE_ADDRESS: one dword per pipe. */
  readonly sizeAddr: number;
}

export interface GmemPassOptions {
  readonly gpuId: number;
  readonly layout: BinLayout;
  /** Targets, in the order of layout.bases. */
  readonly targets: readonly GmemTarget[];
  /** Samples per pixel in GMEM. */
  readonly samples?: number;
  /** The draws (an IB2 of draw commands), run in the binning pass and in every bin. */
  readonly draws?: { readonly iova: number; readonly sizeDwords: number };
  /** Hardware binning: the VSC buffers (pitch - 64 is the limit, as freedreno sets it). */
  readonly vsc?: VscBuffers;
}

const MSAA = ['MSAA_ONE', 'MSAA_TWO', 'MSAA_FOUR'];
const msaa = (n: number): string => MSAA[Math.log2(n)] ?? 'MSAA_ONE';

/** RB_CCU_CNTL for GMEM rendering: the colour cache (a quarter of the sysmem size per CCU) at the top of GMEM. */
export function ccuCntlGmem(gpuId: number): Record<string, number | string> {
  const info = gmemInfo(gpuId);
  const colour = info.numCcu * (info.ccuColorBytes >> 2);
  const off = info.gmemBytes - colour;
  return { COLOR_OFFSET: off % 2 ** 21, COLOR_OFFSET_HI: Math.floor(off / 2 ** 21), COLOR_CACHE_SIZE: 'CCU_CACHE_SIZE_QUARTER' };
}

/** GMEM bytes available for bins on a GPU (everything below the CCU colour cache). */
export function gmemBudget(gpuId: number): number {
  const info = gmemInfo(gpuId);
  return info.gmemBytes - info.numCcu * (info.ccuColorBytes >> 2);
}

function setBinSize(cs: CmdStream, w: number, h: number, mode: string): void {
  cs.reg('GRAS_BIN_CONTROL', { BINW: w, BINH: h, RENDER_MODE: mode });
  cs.reg('RB_BIN_CONTROL', { BINW: w, BINH: h, RENDER_MODE: mode });
  cs.reg('RB_BIN_CONTROL2', { BINW: w, BINH: h });
}

function blitSurface(cs: CmdStream, t: GmemTarget, base: number): void {
  cs.reg('RB_BLIT_DST_INFO', { TILE_MODE: t.tile ?? 'TILE6_LINEAR', SAMPLES: msaa(t.samples ?? 1), COLOR_FORMAT: t.format, FLAGS: !!t.flags });
  cs.reg64('RB_BLIT_DST', t.iova).reg('RB_BLIT_DST_PITCH', t.pitch / 64);
  if (t.flags) cs.reg64('RB_BLIT_FLAG_DST', t.flags.iova).reg('RB_BLIT_FLAG_DST_PITCH', { PITCH: t.flags.pitch });
  cs.reg('RB_BLIT_BASE_GMEM', base);
}

/** The 2D engine's resolve of one bin buffer (fd6_resolve_tile's registers; colour formats). */
function resolve2d(cs: CmdStream, t: GmemTarget, L: BinLayout, base: number, gpuId: number, samples: number): void {
  if (!FMT6_MODELLED.includes(t.format) || t.depth) throw new Error(`gmem-pass: a 2D-engine resolve of ${t.format}${t.depth ? ' (depth)' : ''} is not built`);
  const f = fmt6ByName(t.format);
  const ifmt = /FLOAT/.test(t.format) ? (f.cpp / f.comps >= 4 ? 'R2D_FLOAT32' : 'R2D_FLOAT16') : 'R2D_UNORM8';
  const cntl = { COLOR_FORMAT: t.format, SCISSOR: true, IFMT: ifmt };
  cs.reg('GRAS_2D_DST_TL', { X: 0, Y: 0 }).reg('GRAS_2D_DST_BR', { X: L.width - 1, Y: L.height - 1 });
  // Source coordinates: framebuffer pixels (the registers hold them << 8).
  cs.reg('GRAS_2D_SRC_TL_X', 0).reg('GRAS_2D_SRC_BR_X', (L.width - 1) << 8).reg('GRAS_2D_SRC_TL_Y', 0).reg('GRAS_2D_SRC_BR_Y', (L.height - 1) << 8);
  cs.reg('GRAS_2D_BLIT_CNTL', cntl).reg('RB_2D_BLIT_CNTL', cntl);
  cs.reg('RB_2D_DST_INFO', { COLOR_FORMAT: t.format, TILE_MODE: t.tile ?? 'TILE6_LINEAR', FLAGS: !!t.flags });
  cs.reg64('RB_2D_DST', t.iova).reg('RB_2D_DST_PITCH', t.pitch / 64).reg('SP_2D_DST_FORMAT', { COLOR_FORMAT: t.format, NORM: true });
  if (t.flags) cs.reg64('RB_2D_DST_FLAGS', t.flags.iova).reg('RB_2D_DST_FLAGS_PITCH', t.flags.pitch / 64);
  cs.reg('SP_PS_2D_SRC_INFO', { COLOR_FORMAT: t.format, TILE_MODE: 'TILE6_2', SAMPLES: msaa(samples), SAMPLES_AVERAGE: samples > 1 && !t.sample0, UNK20: true, UNK22: true });
  cs.reg('SP_PS_2D_SRC_SIZE', { WIDTH: L.width, HEIGHT: L.height });
  cs.reg64('SP_PS_2D_SRC', gmemInfo(gpuId).gmemVa + base).reg('SP_PS_2D_SRC_PITCH', { PITCH: L.binW * f.cpp * samples });
  cs.event('CACHE_INVALIDATE').waitForIdle();
  cs.pkt('CP_BLIT', [0x3]); // BLIT_OP_SCALE
  cs.waitForIdle().event('PC_CCU_FLUSH_COLOR_TS');
}

/** Append a whole GMEM render pass to `cs`. */
export function emitGmemPass(cs: CmdStream, o: GmemPassOptions): CmdStream {
  const L = o.layout;
  const samples = o.samples ?? 1;
  const fbX1 = L.width - 1, fbY1 = L.height - 1;
  cs.event('LRZ_FLUSH');
  cs.skipIb2EnableGlobal(false).skipIb2EnableLocal(true);
  cs.waitForIdle();
  cs.reg('RB_CCU_CNTL', ccuCntlGmem(o.gpuId));
  let mrt = 0;
  o.targets.forEach((t, i) => {
    if (t.depth) cs.reg('RB_DEPTH_BUFFER_BASE_GMEM', L.bases[i]!);
    else cs.reg(`RB_MRT[${mrt++}].BASE_GMEM`, L.bases[i]!);
  });
  cs.reg('RB_BLIT_GMEM_MSAA_CNTL', { SAMPLES: msaa(samples) });
  const binning = !!(o.vsc && o.draws);
  if (binning) {
    const v = o.vsc!;
    setBinSize(cs, L.binW, L.binH, 'BINNING_PASS');
    cs.reg('GRAS_SC_WINDOW_SCISSOR_TL', { X: 0, Y: 0 }).reg('GRAS_SC_WINDOW_SCISSOR_BR', { X: fbX1, Y: fbY1 });
    cs.setMarker('RM6_BINNING').pkt('CP_SET_VISIBILITY_OVERRIDE', [1]).setMode(1).waitForIdle();
    cs.reg('VSC_BIN_SIZE', { WIDTH: L.binW, HEIGHT: L.binH }).reg64('VSC_DRAW_STRM_SIZE_ADDRESS', v.sizeAddr);
    cs.reg('VSC_BIN_COUNT', { NX: L.nx, NY: L.ny });
    const cfg = Array.from({ length: 32 }, (_, i) => {
      const p = L.pipes[i];
      return p ? (p.x | (p.y << 10) | (p.w << 20) | (p.h << 26)) >>> 0 : 0;
    });
    cs.regs32('VSC_PIPE_CONFIG[0].REG', cfg);
    cs.reg64('VSC_PRIM_STRM_ADDRESS', v.primStrm).reg('VSC_PRIM_STRM_PITCH', v.primPitch).reg('VSC_PRIM_STRM_LIMIT', v.primPitch - 64);
    cs.reg64('VSC_DRAW_STRM_ADDRESS', v.drawStrm).reg('VSC_DRAW_STRM_PITCH', v.drawPitch).reg('VSC_DRAW_STRM_LIMIT', v.drawPitch - 64);
    cs.reg('RB_WINDOW_OFFSET', { X: 0, Y: 0 }).reg('SP_TP_WINDOW_OFFSET', { X: 0, Y: 0 });
    cs.indirectBuffer(o.draws!.iova, o.draws!.sizeDwords);
    cs.event('CACHE_FLUSH_TS').waitForIdle().waitForMe();
    cs.pkt('CP_SET_VISIBILITY_OVERRIDE', [0]).setMode(0).waitForIdle();
    cs.skipIb2EnableGlobal(true);
  }
  setBinSize(cs, L.binW, L.binH, 'RENDERING_PASS');
  for (let by = 0; by < L.ny; by++) {
    for (let bx = 0; bx < L.nx; bx++) {
      const x0 = bx * L.binW, y0 = by * L.binH;
      const x1 = Math.min(x0 + L.binW, L.width) - 1, y1 = Math.min(y0 + L.binH, L.height) - 1;
      cs.setMarker('RM6_GMEM');
      cs.reg('GRAS_SC_WINDOW_SCISSOR_TL', { X: x0, Y: y0 }).reg('GRAS_SC_WINDOW_SCISSOR_BR', { X: x1, Y: y1 });
      cs.reg('GRAS_2D_RESOLVE_CNTL_1', { X: x0, Y: y0 }).reg('GRAS_2D_RESOLVE_CNTL_2', { X: x1, Y: y1 });
      if (binning) {
        const v = o.vsc!;
        const at = pipeOf(L.pipes, bx, by)!;
        const pipe = L.pipes[at.p]!;
        const d0 = ((pipe.w * pipe.h) << 16) | (at.n << 22);
        const a = v.drawStrm + at.p * v.drawPitch, s = v.sizeAddr + 4 * at.p, pr = v.primStrm + at.p * v.primPitch;
        cs.waitForMe().setMode(0);
        cs.pkt('CP_SET_BIN_DATA5', [d0 >>> 0, a >>> 0, Math.floor(a / 2 ** 32), s >>> 0, Math.floor(s / 2 ** 32), pr >>> 0, Math.floor(pr / 2 ** 32)]);
        cs.pkt('CP_SET_VISIBILITY_OVERRIDE', [0]);
      } else cs.pkt('CP_SET_VISIBILITY_OVERRIDE', [1]);
      for (const r of ['RB_WINDOW_OFFSET', 'RB_WINDOW_OFFSET2', 'SP_WINDOW_OFFSET', 'SP_TP_WINDOW_OFFSET']) cs.reg(r, { X: x0, Y: y0 });
      cs.setMode(0);
      // Tile setup: restores, then clears.
      cs.reg('RB_BLIT_SCISSOR_TL', { X: 0, Y: 0 }).reg('RB_BLIT_SCISSOR_BR', { X: fbX1, Y: fbY1 });
      o.targets.forEach((t, i) => {
        if (!t.load) return;
        cs.reg('RB_BLIT_INFO', { GMEM: true, UNK0: true, DEPTH: !!t.depth });
        blitSurface(cs, t.loadFrom ? { iova: t.loadFrom.iova, pitch: t.loadFrom.pitch, format: t.format, samples: t.loadFrom.samples ?? 1 } : t, L.bases[i]!);
        cs.event('BLIT');
      });
      o.targets.forEach((t, i) => {
        if (!t.clear) return;
        cs.reg('RB_BLIT_DST_INFO', { TILE_MODE: 'TILE6_LINEAR', SAMPLES: msaa(samples), COLOR_FORMAT: t.format });
        cs.reg('RB_BLIT_INFO', { GMEM: true, DEPTH: !!t.depth, CLEAR_MASK: t.clear.mask ?? (t.depth ? 1 : 0xf) });
        cs.reg('RB_BLIT_BASE_GMEM', L.bases[i]!).reg('RB_UNKNOWN_88D0', 0);
        cs.regs32('RB_BLIT_CLEAR_COLOR_DW0', [0, 1, 2, 3].map((k) => t.clear!.dw[k] ?? 0));
        cs.event('BLIT');
      });
      if (o.draws) cs.indirectBuffer(o.draws.iova, o.draws.sizeDwords);
      // Resolve.
      cs.pkt('CP_SET_DRAW_STATE', [(1 << 18) >>> 0, 0, 0]);
      cs.skipIb2EnableLocal(false);
      cs.setMarker('RM6_RESOLVE');
      o.targets.forEach((t, i) => {
        if (t.store === false) return;
        if (t.resolve2d) return resolve2d(cs, t, L, L.bases[i]!, o.gpuId, samples);
        cs.reg('RB_BLIT_INFO', { DEPTH: !!t.depth, SAMPLE_0: !!t.sample0 });
        blitSurface(cs, t, L.bases[i]!);
        cs.event('BLIT');
      });
      cs.skipIb2EnableLocal(true);
    }
  }
  cs.reg('GRAS_LRZ_CNTL', { ENABLE: true });
  cs.event('LRZ_FLUSH');
  cs.event('PC_CCU_RESOLVE_TS');
  cs.skipIb2EnableGlobal(false);
  cs.setMarker('RM6_BYPASS');
  return cs;
}
