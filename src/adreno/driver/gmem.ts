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
import { enumValue, gpuRegs } from '../regs/db.js';
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
  // turnip reads a GMEM-mode feedback loop from GMEM itself (a TILE6_2 descriptor at the tile):
  // not modelled, and the sysmem image would hold the pass's start, not the tile.
  if (sc.fs.feedback?.length) throw new Error('an FS that samples its own colour target reads GMEM through a TILE6_2 descriptor in GMEM mode, which is not modelled: render it with --mode sysmem');
  const info = gmemInfo(sc.gpuId);
  const s = sc.samples;
  // UBWC targets resolve through RB_BLIT_DST_INFO.FLAGS and RB_BLIT_FLAG_DST (rb/gmem-pass.ts).
  const targets: GmemTarget[] = b.targets.map((t) => ({ iova: t.base, pitch: t.pitch, format: t.format, samples: s, tile: t.tile === 'tile6_3' ? 'TILE6_3' : 'TILE6_LINEAR', ...(t.ubwc ? { flags: { iova: t.ubwc.flags, pitch: t.ubwc.flagPitch } } : {}) }));
  // A UBWC depth buffer resolves as a UBWC colour target does (TILE6_3, RB_BLIT_FLAG_DST).
  if (b.depth && sc.depth) targets.push({ iova: b.depth.base, pitch: b.depth.pitch, format: DEPTH_FMT[sc.depth.format]!, samples: s, depth: true, ...(b.depth.ubwc ? { tile: 'TILE6_3', flags: { iova: b.depth.ubwc.flags, pitch: b.depth.ubwc.flagPitch } } : {}) });
  if (b.stencil) throw new Error('GMEM rendering of a separate stencil buffer is not modelled');
  const cpps = [...b.targets.map((t) => t.cpp * s), ...(b.depth && sc.depth ? [b.depth.cpp * s] : [])];
  const layout = binLayout({ width: sc.width, height: sc.height, cpps, budget: gmemBudget(sc.gpuId), alignW: info.tileAlignW, alignH: info.tileAlignH, maxW: info.tileMaxW, maxH: info.tileMaxH, numPipes: info.numVscPipes, ...(o.bin ? { bin: o.bin } : {}) });
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
