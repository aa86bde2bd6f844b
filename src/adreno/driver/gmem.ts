/**
 * The GMEM (tiled) form of a described scene: the sysmem driver's stream (driver/sysmem.ts)
 * becomes the pass's draw IB — its RM6_BYPASS marker and window-scissor writes turned into CP_NOPs
 * of the same size, since the GMEM pass sets both per bin — and rb/gmem-pass.ts emits the
 * tiled pass around it: bins from the GMEM size (or `--bin WxH`), the binning pass with VSC
 * streams when there are two bins or more, per-bin draws into GMEM and resolves (BLIT events) of
 * every colour target and the depth buffer to the sysmem images the sysmem path writes.
 */
import { decodeHeader, opcode, pkt7 } from '../cp/pm4.js';
import { gmemInfo } from '../rb/gmem.js';
import { emitGmemPass, gmemBudget, type GmemTarget } from '../rb/gmem-pass.js';
import { CmdStream } from '../cp/builder.js';
import { decodeFields, encodeFields, enumValue, gpuRegs } from '../regs/db.js';
import { binLayout, type BinLayout } from '../vsc/vsc.js';
import type { BuiltDraw, GfxScene } from './sysmem.js';

export interface GmemDrawOptions {
  /** A fixed bin size (multiples of 32x16); default: the largest that fits GMEM. */
  readonly bin?: { readonly w: number; readonly h: number };
  /** Hardware binning (VSC streams); default: when there are at least two bins. */
  readonly binning?: boolean;
}

export interface GmemDraw {
  readonly streamIova: number;
  readonly streamDwords: number;
  readonly layout: BinLayout;
  readonly binning: boolean;
}

const DEPTH_FMT: Record<string, string> = { DEPTH6_16: 'FMT6_16_UNORM', DEPTH6_24_8: 'FMT6_Z24_UNORM_S8_UINT', DEPTH6_32: 'FMT6_32_FLOAT' };

/**
 * Turn the sysmem stream's own mode / window packets into NOPs (the GMEM pass owns them) and find
 * where its post-pass work starts: the CCU flush before the MSAA resolve CP_BLITs, which read the
 * finished targets and so run after the tiled pass, not inside every bin. Returns that dword index.
 */
function stripBypass(b: BuiltDraw): number {
  const flushEv = enumValue('vgt_event_type', 'PC_CCU_FLUSH_COLOR_TS', b.gen);
  const eventOp = opcode('CP_EVENT_WRITE', b.gen), blitOp = opcode('CP_BLIT', b.gen);
  let lastFlush = -1, tail = b.stream.length;
  const db = gpuRegs(b.gen);
  const regs = new Set(['GRAS_SC_WINDOW_SCISSOR_TL', 'GRAS_SC_WINDOW_SCISSOR_BR'].map((n) => db.reg(n)));
  const marker = opcode('CP_SET_MARKER', b.gen), nop = opcode('CP_NOP', b.gen);
  for (let k = 0; k < b.stream.length;) {
    const at = b.streamIova + 4 * k;
    const h = decodeHeader(b.mem.read32(at), b.gen);
    if (h.type < 0) throw new Error(`sysmem stream: bad header at dword ${k}`);
    if ((h.type === 7 && h.opcode === marker) || (h.type === 4 && h.count === 1 && regs.has(h.reg))) b.mem.write32(at, pkt7(nop, h.count));
    if (h.type === 7 && h.opcode === eventOp && ((b.mem.read32(at + 4) & 0xff) === flushEv)) lastFlush = k;
    if (h.type === 7 && h.opcode === blitOp && tail === b.stream.length) tail = lastFlush >= 0 ? lastFlush : k;
    k += 1 + h.count;
  }
  return tail;
}

/** Build the GMEM pass for a scene already built for sysmem (its memory gains the pass and the VSC buffers). */
export function gmemDraw(b: BuiltDraw, sc: GfxScene, o: GmemDrawOptions = {}): GmemDraw {
  const info = gmemInfo(sc.gpuId);
  const s = sc.samples;
  // UBWC targets resolve through RB_BLIT_DST_INFO.FLAGS and RB_BLIT_FLAG_DST (rb/gmem-pass.ts).
  const targets: GmemTarget[] = b.targets.map((t) => ({ iova: t.base, pitch: t.pitch, format: t.format, samples: s, tile: t.tile === 'tile6_3' ? 'TILE6_3' : 'TILE6_LINEAR', ...(t.ubwc ? { flags: { iova: t.ubwc.flags, pitch: t.ubwc.flagPitch } } : {}) }));
  // A UBWC depth buffer resolves as a UBWC colour target does (TILE6_3, RB_BLIT_FLAG_DST).
  if (b.depth && sc.depth) targets.push({ iova: b.depth.base, pitch: b.depth.pitch, format: DEPTH_FMT[sc.depth.format]!, samples: s, depth: true, ...(b.depth.ubwc ? { tile: 'TILE6_3', flags: { iova: b.depth.ubwc.flags, pitch: b.depth.ubwc.flagPitch } } : {}) });
  if (b.stencil) throw new Error('GMEM rendering of a separate stencil buffer is not modelled');
  const cpps = [...b.targets.map((t) => t.cpp * s), ...(b.depth && sc.depth ? [b.depth.cpp * s] : [])];
  const layout = binLayout({ width: sc.width, height: sc.height, cpps, budget: gmemBudget(sc.gpuId), alignW: info.tileAlignW, alignH: info.tileAlignH, maxW: info.tileMaxW, maxH: info.tileMaxH, numPipes: info.numVscPipes, ...(o.bin ? { bin: o.bin } : {}) });
  if (b.feedback) gmemFeedback(b, sc, layout);
  const tail = stripBypass(b);
  // Transform feedback runs once, in the binning pass (turnip's use_hw_binning: its commands run
  // under RENDER_MODE SYSMEM | BINNING), so a scene with it always has one.
  const xfb = sc.draws.some((d) => d.xfb);
  if (xfb && o.binning === false) throw new Error('transform feedback needs the binning pass (its commands run in SYSMEM or BINNING mode only, as turnip emits them)');
  const binning = o.binning ?? (xfb || layout.nx * layout.ny >= 2);
  const pitch = 0x1000;
  const vscSeg = binning ? b.mem.alloc(pitch * 64 + 0x100, 'vsc', 0x1000) : undefined;
  const cs = emitGmemPass(new CmdStream(b.gen), {
    gpuId: sc.gpuId,
    layout,
    targets,
    samples: s,
    draws: { iova: b.streamIova, sizeDwords: tail },
    ...(vscSeg ? { vsc: { drawStrm: vscSeg.base, drawPitch: pitch, primStrm: vscSeg.base + 32 * pitch, primPitch: pitch, sizeAddr: vscSeg.base + 64 * pitch } } : {}),
  });
  // After the pass: the sysmem stream's post-pass work (MSAA resolves), as an IB.
  if (tail < b.stream.length) cs.indirectBuffer(b.streamIova + 4 * tail, b.stream.length - tail);
  const dw = cs.dwords();
  const seg = b.mem.alloc(dw.length * 4, 'gmem pass', 0x1000, new Uint8Array(dw.buffer.slice(0)));
  return { streamIova: seg.base, streamDwords: dw.length, layout, binning };
}

/**
 * A feedback loop in GMEM mode, as turnip (tu_emit_input_attachments, "patched for gmem") and fd6
 * (patch_fb_read_gmem) emit it: the FS reads the tile itself, through a descriptor rewritten to
 * TILE6_2 (no swap) at the GMEM address + the target's GMEM offset, PITCH the bin width x cpp x
 * samples, dwords 3 and 6..15 zero, DEPTH 1, WIDTH / HEIGHT the framebuffer's (the coordinates stay
 * framebuffer pixels; SP_TP_WINDOW_OFFSET, written per bin with RB_WINDOW_OFFSET, places the bin).
 * The bin width and the buffers' offsets are the same in every bin, so one descriptor serves all.
 * GRAS_SC_CNTL: fd6's GMEM choice for a coherent framebuffer fetch, FLUSH_PER_OVERLAP (the register
 * XML: "used in GMEM mode for coherent blending"), unless the scene overrides it.
 */
function gmemFeedback(b: BuiltDraw, sc: GfxScene, layout: BinLayout): void {
  const fb = b.feedback!;
  const gen = b.gen;
  const va = gmemInfo(sc.gpuId).gmemVa;
  for (const { iova, target } of fb.descs) {
    // target -1: the depth buffer (its GMEM buffer follows the colour targets'; turnip's depth
    // input attachment: the view's format kept, TILE6_2 at the attachment's GMEM offset).
    const t = target < 0 ? b.depth! : b.targets[target]!;
    const d0 = decodeFields('A6XX_TEX_CONST.0', b.mem.read32(iova), 0, gen);
    const base = va + layout.bases[target < 0 ? b.targets.length : target]!;
    const d = new Uint32Array(16);
    d[0] = encodeFields('A6XX_TEX_CONST.0', { ...d0, TILE_MODE: 'TILE6_2', SWAP: 'WZYX' }, gen);
    d[1] = b.mem.read32(iova + 4);
    d[2] = encodeFields('A6XX_TEX_CONST.2', { TYPE: 'A6XX_TEX_2D', PITCH: layout.binW * t.cpp * sc.samples }, gen);
    d[4] = encodeFields('A6XX_TEX_CONST.4', { BASE_LO: base % 2 ** 32 }, gen);
    d[5] = encodeFields('A6XX_TEX_CONST.5', { BASE_HI: Math.floor(base / 2 ** 32), DEPTH: 1 }, gen);
    d.forEach((w, k) => b.mem.write32(iova + 4 * k, w));
  }
  const at = b.streamIova + 4 * fb.scCntlAt;
  const h = decodeHeader(b.mem.read32(at), gen);
  const db = gpuRegs(gen), sc0 = db.reg('GRAS_SC_CNTL');
  if (h.type !== 4 || h.reg !== sc0) throw new Error('sysmem stream: GRAS_SC_CNTL not where the feedback loop wrote it');
  b.mem.write32(at + 4, encodeFields(db.at(sc0)!.type, { CCUSINGLECACHELINESIZE: 2, SINGLE_PRIM_MODE: sc.state.singlePrimMode ?? 'FLUSH_PER_OVERLAP' }, gen));
}
