/** Shared set-up for the gfx front-end tests: a W x H target with the registers a driver would set. */
import { DI_PT } from '../../src/amd/gfx/pa-regs.gen.js';
import { decodePaState, floatBits, makeReg, standardMsaaRegisters, type GfxGen, type PaState } from '../../src/amd/gfx/state.js';
import { runFrontEnd, type FrontEndDraw } from '../../src/amd/gfx/frontend.js';
import type { Diagnostics } from '../../src/core/diagnostics.js';

export const GENS: readonly GfxGen[] = ['gfx9', 'gfx103', 'gfx11'];

export interface TargetOpts {
  gen?: GfxGen;
  w?: number;
  h?: number;
  samples?: 1 | 2 | 4 | 8 | 16;
  /** Guard band adjust (1 = clip at the viewport edges). */
  gb?: number;
  extra?: Record<string, number>;
}

export function targetRegs(o: TargetOpts = {}): Record<string, number> {
  const gen = o.gen ?? 'gfx11';
  const w = o.w ?? 16, h = o.h ?? 16;
  const gb = o.gb ?? 32;
  return {
    PA_CL_CLIP_CNTL: makeReg(gen, 'PA_CL_CLIP_CNTL', { DX_CLIP_SPACE_DEF: 1 }),
    PA_CL_VTE_CNTL: makeReg(gen, 'PA_CL_VTE_CNTL', {
      VPORT_X_SCALE_ENA: 1, VPORT_X_OFFSET_ENA: 1, VPORT_Y_SCALE_ENA: 1, VPORT_Y_OFFSET_ENA: 1,
      VPORT_Z_SCALE_ENA: 1, VPORT_Z_OFFSET_ENA: 1, VTX_W0_FMT: 1,
    }),
    PA_CL_VPORT_XSCALE: floatBits(w / 2), PA_CL_VPORT_XOFFSET: floatBits(w / 2),
    PA_CL_VPORT_YSCALE: floatBits(h / 2), PA_CL_VPORT_YOFFSET: floatBits(h / 2),
    PA_CL_VPORT_ZSCALE: floatBits(1), PA_CL_VPORT_ZOFFSET: floatBits(0),
    PA_CL_GB_VERT_CLIP_ADJ: floatBits(gb), PA_CL_GB_HORZ_CLIP_ADJ: floatBits(gb),
    PA_CL_GB_VERT_DISC_ADJ: floatBits(1), PA_CL_GB_HORZ_DISC_ADJ: floatBits(1),
    PA_SU_VTX_CNTL: makeReg(gen, 'PA_SU_VTX_CNTL', { PIX_CENTER: 1, ROUND_MODE: 2, QUANT_MODE: 5 }),
    PA_SC_SCREEN_SCISSOR_TL: 0, PA_SC_SCREEN_SCISSOR_BR: makeReg(gen, 'PA_SC_SCREEN_SCISSOR_BR', { BR_X: w, BR_Y: h }),
    PA_SC_WINDOW_SCISSOR_TL: 0, PA_SC_WINDOW_SCISSOR_BR: makeReg(gen, 'PA_SC_WINDOW_SCISSOR_BR', { BR_X: w, BR_Y: h }),
    PA_SC_GENERIC_SCISSOR_TL: 0, PA_SC_GENERIC_SCISSOR_BR: makeReg(gen, 'PA_SC_GENERIC_SCISSOR_BR', { BR_X: w, BR_Y: h }),
    VGT_PRIMITIVE_TYPE: DI_PT.DI_PT_TRILIST,
    SPI_PS_INPUT_ENA: 0x2, SPI_PS_INPUT_ADDR: 0x2,
    ...standardMsaaRegisters(gen, o.samples ?? 1),
    ...o.extra,
  };
}

export function target(o: TargetOpts = {}, diags?: Diagnostics): PaState {
  return decodePaState(o.gen ?? 'gfx11', targetRegs(o), diags);
}

/** Window coordinates (pixels) -> clip-space position with w (x_ndc = 2x/W - 1). */
export function clipPos(st: PaState, pts: readonly (readonly [number, number, number?, number?])[]): number[] {
  const vp = st.viewports[0]!;
  const out: number[] = [];
  for (const [x, y, z = 0.5, w = 1] of pts) out.push(((x - vp.xOffset) / vp.xScale) * w, ((y - vp.yOffset) / vp.yScale) * w, z * w, w);
  return out;
}

/** Per-pixel, per-sample hit counts of a draw: [y*W + x] -> counts per sample. */
export function hitCounts(st: PaState, d: FrontEndDraw, w: number, h: number): Uint8Array[] {
  const r = runFrontEnd(st, d);
  const hits = Array.from({ length: w * h }, () => new Uint8Array(st.numSamples));
  for (const q of r.quads) {
    for (let p = 0; p < 4; p++) {
      const x = q.x + (p & 1), y = q.y + (p >> 1);
      const m = q.coverage[p]!;
      for (let s = 0; s < st.numSamples; s++) if ((m >>> s) & 1) hits[y * w + x]![s]!++;
    }
  }
  return hits;
}
