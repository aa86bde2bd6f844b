/**
 * The draw front end's register state, decoded from raw register dwords (keyed by Mesa's register
 * names, e.g. `PA_CL_VPORT_XSCALE_1`, `PA_SC_VPORT_SCISSOR_3_TL`) through the generated field
 * layouts in pa-regs.gen.ts. Everything downstream (assembly, clip, raster, quads) reads a `PaState`,
 * never raw bits.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import { PA_REGS } from './pa-regs.gen.js';

export type GfxGen = 'gfx9' | 'gfx103' | 'gfx11';

/** Raw register dwords by Mesa register name; absent registers read as 0. */
export type PaRegisters = Readonly<Record<string, number>>;

/** Seed documents diagnostics cite. */
export const SEED_WAVE_STATE = '001_5e6764f932d07b8a.txt';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
export function asFloat(v: number): number {
  u32[0] = v >>> 0;
  return f32[0]!;
}
export function floatBits(v: number): number {
  f32[0] = v;
  return u32[0]!;
}

type Regs = (typeof PA_REGS)['gfx11'];
type RegName = keyof Regs;
type FieldOf<R extends RegName> = keyof Regs[R]['fields'] & string;

/** Extract field `field` of `reg` (layout of `gen`) from `value`. Layouts shared by array registers use index 0's name. */
export function getField<R extends RegName>(gen: GfxGen, reg: R, field: FieldOf<R>, value: number): number {
  const r = (PA_REGS[gen] as Record<string, { fields: Record<string, readonly [number, number]> }>)[reg];
  const bits = r?.fields[field];
  if (!bits) throw new Error(`${gen}: ${String(reg)}.${field} has no layout`);
  const [lo, hi] = bits;
  const width = hi - lo + 1;
  return width === 32 ? value >>> 0 : (value >>> lo) & ((2 ** width - 1) >>> 0);
}

/** Build a register value from fields (the inverse of getField), for tests and command builders. */
export function makeReg<R extends RegName>(gen: GfxGen, reg: R, fields: Partial<Record<FieldOf<R>, number>>): number {
  const r = (PA_REGS[gen] as Record<string, { fields: Record<string, readonly [number, number]> }>)[reg];
  let v = 0;
  for (const [name, val] of Object.entries(fields) as [string, number][]) {
    const bits = r?.fields[name];
    if (!bits) throw new Error(`${gen}: ${String(reg)}.${name} has no layout`);
    const width = bits[1] - bits[0] + 1;
    const mask = width === 32 ? 0xffffffff : 2 ** width - 1;
    v = (v | ((val & mask) * 2 ** bits[0])) >>> 0;
  }
  return v >>> 0;
}

/** A scissor rectangle in pixels, [x0, x1) x [y0, y1). */
export interface Rect { x0: number; y0: number; x1: number; y1: number }

export interface Viewport { xScale: number; xOffset: number; yScale: number; yOffset: number; zScale: number; zOffset: number }

/** Decoded PA/SPI state of one draw. */
export interface PaState {
  readonly gen: GfxGen;
  /** PA_CL_CLIP_CNTL */
  readonly clipDisable: boolean;
  /** DX_CLIP_SPACE_DEF: z in [0, w] (else [-w, w]). */
  readonly dxClipSpace: boolean;
  readonly zclipNearDisable: boolean;
  readonly zclipFarDisable: boolean;
  /** DX_RASTERIZATION_KILL: nothing is rasterized. */
  readonly rasterizationKill: boolean;
  /** PA_CL_VTE_CNTL */
  readonly vte: { xScale: boolean; xOffset: boolean; yScale: boolean; yOffset: boolean; zScale: boolean; zOffset: boolean; xyPreDivided: boolean; zPreDivided: boolean; wIsReciprocal: boolean };
  /** PA_CL_VPORT_* for viewports 0..15. */
  readonly viewports: readonly Viewport[];
  /** PA_CL_GB_*_ADJ (guard band, multiples of the viewport half-extent). */
  readonly gb: { vertClip: number; vertDisc: number; horzClip: number; horzDisc: number };
  /** PA_SU_SC_MODE_CNTL */
  readonly cullFront: boolean;
  readonly cullBack: boolean;
  /** FACE: 0 = counter-clockwise is front, 1 = clockwise is front. */
  readonly faceCw: boolean;
  readonly provokingLast: boolean;
  readonly perspCorrDis: boolean;
  readonly vtxWindowOffset: boolean;
  /** PA_SU_VTX_CNTL */
  readonly pixCenterHalf: boolean;
  readonly roundMode: number;
  readonly quantMode: number;
  /** PA_SC_AA_CONFIG.MSAA_NUM_SAMPLES as a sample count (1..16). */
  readonly numSamples: number;
  readonly exposedSamples: number;
  readonly msaaEnable: boolean;
  /**
   * Sample offsets from the pixel centre in 1/16 pixel, per pixel of the 2x2 pattern
   * (index (y&1)*2 + (x&1)) and sample: [pixel][2*sample] = x, [pixel][2*sample+1] = y.
   */
  readonly sampleLocs: readonly Int8Array[];
  /** PA_SC_AA_MASK_*: sample mask per pixel of the 2x2 pattern, ANDed into coverage (registers not given: all samples). */
  readonly aaMask: readonly number[];
  /** Samples in centroid priority order (PA_SC_CENTROID_PRIORITY_*.DISTANCE_n). */
  readonly centroidOrder: readonly number[];
  /** Scissors (window offset applied as the registers say). */
  readonly windowOffset: { x: number; y: number };
  readonly screenScissor: Rect;
  readonly windowScissor: Rect;
  readonly genericScissor: Rect;
  readonly vportScissorEnable: boolean;
  readonly vportScissors: readonly Rect[];
  /** SPI_PS_INPUT_ENA / SPI_PS_INPUT_ADDR raw values. */
  readonly psInputEna: number;
  readonly psInputAddr: number;
  /** VGT_MULTI_PRIM_IB_RESET_INDX and the enable (VGT_MULTI_PRIM_IB_RESET_EN on gfx9, PA_SU_SC_MODE_CNTL.MULTI_PRIM_IB_ENA later). */
  readonly restartIndex: number;
  readonly restartEnable: boolean;
  readonly primType: number;
  /** PA_SU_POINT_SIZE (half-size, 12.4 fixed) in pixels: width and height halves. */
  readonly pointHalfWidth: number;
  readonly pointHalfHeight: number;
  /** PA_SU_LINE_CNTL.WIDTH (half-width, 12.4 fixed) in pixels. */
  readonly lineHalfWidth: number;
}

function s4(v: number): number {
  return v & 8 ? (v & 15) - 16 : v & 15;
}

/** Decode the front end's registers. Register combinations the documents call illegal are reported to `diags`. */
export function decodePaState(gen: GfxGen, regs: PaRegisters, diags?: Diagnostics): PaState {
  const r = (name: string): number => (regs[name] ?? 0) >>> 0;
  const clip = r('PA_CL_CLIP_CNTL');
  const vte = r('PA_CL_VTE_CNTL');
  const su = r('PA_SU_SC_MODE_CNTL');
  const vtx = r('PA_SU_VTX_CNTL');
  const aa = r('PA_SC_AA_CONFIG');
  const mode0 = r('PA_SC_MODE_CNTL_0');
  const F = <R extends RegName>(reg: R, field: FieldOf<R>, v: number): number => getField(gen, reg, field, v);

  const viewports: Viewport[] = [];
  for (let i = 0; i < 16; i++) {
    const sfx = i === 0 ? '' : `_${i}`;
    viewports.push({
      xScale: asFloat(r(`PA_CL_VPORT_XSCALE${sfx}`)), xOffset: asFloat(r(`PA_CL_VPORT_XOFFSET${sfx}`)),
      yScale: asFloat(r(`PA_CL_VPORT_YSCALE${sfx}`)), yOffset: asFloat(r(`PA_CL_VPORT_YOFFSET${sfx}`)),
      zScale: asFloat(r(`PA_CL_VPORT_ZSCALE${sfx}`)), zOffset: asFloat(r(`PA_CL_VPORT_ZOFFSET${sfx}`)),
    });
  }

  const log2Samples = F('PA_SC_AA_CONFIG', 'MSAA_NUM_SAMPLES', aa);
  if (log2Samples > 4) {
    diags?.report({
      id: 'amd.pa.aa-config.num-samples-invalid', severity: 'error', where: { register: 'PA_SC_AA_CONFIG', value: aa },
      message: `MSAA_NUM_SAMPLES=${log2Samples} is not a sample count (0..4 = 1..16 samples); rasterizing with 16`,
    });
  }
  const numSamples = 1 << Math.min(log2Samples, 4);
  const exposedSamples = 1 << Math.min(F('PA_SC_AA_CONFIG', 'MSAA_EXPOSED_SAMPLES', aa), 4);

  const sampleLocs: Int8Array[] = [];
  for (const p of ['X0Y0', 'X1Y0', 'X0Y1', 'X1Y1']) {
    const locs = new Int8Array(32);
    for (let k = 0; k < 4; k++) {
      const v = r(`PA_SC_AA_SAMPLE_LOCS_PIXEL_${p}_${k}`);
      for (let s = 0; s < 4; s++) {
        const base = 4 * k + s;
        // Sample base uses the layout S{s}_X/S{s}_Y of register k (all four share one layout shape).
        const reg = `PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_${k}` as RegName;
        const fx = `S${base}_X`;
        const fields = (PA_REGS[gen] as Record<string, { fields: Record<string, readonly [number, number]> }>)[reg]!.fields;
        const bx = fields[fx] ?? fields[`S${s}_X`]!;
        const by = fields[`S${base}_Y`] ?? fields[`S${s}_Y`]!;
        locs[2 * base] = s4(v >>> bx[0]);
        locs[2 * base + 1] = s4(v >>> by[0]);
      }
    }
    sampleLocs.push(locs);
  }

  const pri0 = r('PA_SC_CENTROID_PRIORITY_0');
  const pri1 = r('PA_SC_CENTROID_PRIORITY_1');
  const centroidOrder: number[] = [];
  for (let i = 0; i < 16; i++) centroidOrder.push(((i < 8 ? pri0 : pri1) >>> (4 * (i & 7))) & 15);

  const winOff = r('PA_SC_WINDOW_OFFSET');
  const windowOffset = { x: ((winOff & 0xffff) << 16) >> 16, y: (winOff >> 16) };
  const sc = (tlName: string, brName: string, tlReg: RegName, brReg: RegName, offsetable: boolean): Rect => {
    const tl = r(tlName);
    const br = r(brName);
    const g = (reg: RegName, field: string, v: number): number => getField(gen, reg, field as never, v);
    let x0 = g(tlReg, 'TL_X', tl), y0 = g(tlReg, 'TL_Y', tl), x1 = g(brReg, 'BR_X', br), y1 = g(brReg, 'BR_Y', br);
    if (offsetable && !g(tlReg, 'WINDOW_OFFSET_DISABLE', tl)) {
      x0 += windowOffset.x; x1 += windowOffset.x; y0 += windowOffset.y; y1 += windowOffset.y;
    }
    return { x0, y0, x1, y1 };
  };
  const vportScissors: Rect[] = [];
  for (let i = 0; i < 16; i++) {
    vportScissors.push(sc(`PA_SC_VPORT_SCISSOR_${i}_TL`, `PA_SC_VPORT_SCISSOR_${i}_BR`, 'PA_SC_VPORT_SCISSOR_0_TL', 'PA_SC_VPORT_SCISSOR_0_BR', true));
  }

  const psInputEna = r('SPI_PS_INPUT_ENA');
  const psInputAddr = r('SPI_PS_INPUT_ADDR');
  checkPsInputs(psInputEna, psInputAddr, diags);

  const restartEnable = gen === 'gfx9' ? (r('VGT_MULTI_PRIM_IB_RESET_EN') & 1) !== 0 : F('PA_SU_SC_MODE_CNTL', 'MULTI_PRIM_IB_ENA', su) !== 0;

  return {
    gen,
    clipDisable: F('PA_CL_CLIP_CNTL', 'CLIP_DISABLE', clip) !== 0,
    dxClipSpace: F('PA_CL_CLIP_CNTL', 'DX_CLIP_SPACE_DEF', clip) !== 0,
    zclipNearDisable: F('PA_CL_CLIP_CNTL', 'ZCLIP_NEAR_DISABLE', clip) !== 0,
    zclipFarDisable: F('PA_CL_CLIP_CNTL', 'ZCLIP_FAR_DISABLE', clip) !== 0,
    rasterizationKill: F('PA_CL_CLIP_CNTL', 'DX_RASTERIZATION_KILL', clip) !== 0,
    vte: {
      xScale: F('PA_CL_VTE_CNTL', 'VPORT_X_SCALE_ENA', vte) !== 0, xOffset: F('PA_CL_VTE_CNTL', 'VPORT_X_OFFSET_ENA', vte) !== 0,
      yScale: F('PA_CL_VTE_CNTL', 'VPORT_Y_SCALE_ENA', vte) !== 0, yOffset: F('PA_CL_VTE_CNTL', 'VPORT_Y_OFFSET_ENA', vte) !== 0,
      zScale: F('PA_CL_VTE_CNTL', 'VPORT_Z_SCALE_ENA', vte) !== 0, zOffset: F('PA_CL_VTE_CNTL', 'VPORT_Z_OFFSET_ENA', vte) !== 0,
      xyPreDivided: F('PA_CL_VTE_CNTL', 'VTX_XY_FMT', vte) !== 0,
      zPreDivided: F('PA_CL_VTE_CNTL', 'VTX_Z_FMT', vte) !== 0,
      // VTX_W0_FMT=1: the incoming W is W (the VTE computes 1/W); 0: it is already 1/W.
      wIsReciprocal: F('PA_CL_VTE_CNTL', 'VTX_W0_FMT', vte) === 0,
    },
    viewports,
    gb: {
      vertClip: asFloat(r('PA_CL_GB_VERT_CLIP_ADJ')) || 1, vertDisc: asFloat(r('PA_CL_GB_VERT_DISC_ADJ')) || 1,
      horzClip: asFloat(r('PA_CL_GB_HORZ_CLIP_ADJ')) || 1, horzDisc: asFloat(r('PA_CL_GB_HORZ_DISC_ADJ')) || 1,
    },
    cullFront: F('PA_SU_SC_MODE_CNTL', 'CULL_FRONT', su) !== 0,
    cullBack: F('PA_SU_SC_MODE_CNTL', 'CULL_BACK', su) !== 0,
    faceCw: F('PA_SU_SC_MODE_CNTL', 'FACE', su) !== 0,
    provokingLast: F('PA_SU_SC_MODE_CNTL', 'PROVOKING_VTX_LAST', su) !== 0,
    perspCorrDis: F('PA_SU_SC_MODE_CNTL', 'PERSP_CORR_DIS', su) !== 0,
    vtxWindowOffset: F('PA_SU_SC_MODE_CNTL', 'VTX_WINDOW_OFFSET_ENABLE', su) !== 0,
    pixCenterHalf: F('PA_SU_VTX_CNTL', 'PIX_CENTER', vtx) !== 0,
    roundMode: F('PA_SU_VTX_CNTL', 'ROUND_MODE', vtx),
    quantMode: F('PA_SU_VTX_CNTL', 'QUANT_MODE', vtx),
    numSamples,
    exposedSamples,
    msaaEnable: F('PA_SC_MODE_CNTL_0', 'MSAA_ENABLE', mode0) !== 0,
    sampleLocs,
    centroidOrder,
    aaMask: [
      (regs.PA_SC_AA_MASK_X0Y0_X1Y0 ?? 0xffffffff) & 0xffff, (regs.PA_SC_AA_MASK_X0Y0_X1Y0 ?? 0xffffffff) >>> 16,
      (regs.PA_SC_AA_MASK_X0Y1_X1Y1 ?? 0xffffffff) & 0xffff, (regs.PA_SC_AA_MASK_X0Y1_X1Y1 ?? 0xffffffff) >>> 16,
    ],
    windowOffset,
    screenScissor: sc('PA_SC_SCREEN_SCISSOR_TL', 'PA_SC_SCREEN_SCISSOR_BR', 'PA_SC_SCREEN_SCISSOR_TL', 'PA_SC_SCREEN_SCISSOR_BR', false),
    windowScissor: sc('PA_SC_WINDOW_SCISSOR_TL', 'PA_SC_WINDOW_SCISSOR_BR', 'PA_SC_WINDOW_SCISSOR_TL', 'PA_SC_WINDOW_SCISSOR_BR', true),
    genericScissor: sc('PA_SC_GENERIC_SCISSOR_TL', 'PA_SC_GENERIC_SCISSOR_BR', 'PA_SC_GENERIC_SCISSOR_TL', 'PA_SC_GENERIC_SCISSOR_BR', true),
    vportScissorEnable: F('PA_SC_MODE_CNTL_0', 'VPORT_SCISSOR_ENABLE', mode0) !== 0,
    vportScissors,
    psInputEna,
    psInputAddr,
    restartIndex: r('VGT_MULTI_PRIM_IB_RESET_INDX'),
    restartEnable,
    primType: F('VGT_PRIMITIVE_TYPE', 'PRIM_TYPE', r('VGT_PRIMITIVE_TYPE')),
    pointHalfWidth: F('PA_SU_POINT_SIZE', 'WIDTH', r('PA_SU_POINT_SIZE')) / 16,
    pointHalfHeight: F('PA_SU_POINT_SIZE', 'HEIGHT', r('PA_SU_POINT_SIZE')) / 16,
    lineHalfWidth: F('PA_SU_LINE_CNTL', 'WIDTH', r('PA_SU_LINE_CNTL')) / 16,
  };
}

/** The PERSP_* / LINEAR_* / POS_FIXED_PT bits of SPI_PS_INPUT_ENA (bits 0-6 and 15). */
const IJ_OR_FIXED_PT = 0x7f | 0x8000;

/**
 * SPI_PS_INPUT_ENA/ADDR rules: an item enabled in ENA must also be set in ADDR (wave-state seed, PS
 * VGPR initialisation); and the SPI needs at least one barycentric or POS_FIXED_PT input enabled
 * (the rule Mesa and LLVM enforce when they fill these registers: with none, the PS wave never launches).
 */
export function checkPsInputs(ena: number, addr: number, diags?: Diagnostics): void {
  if (!diags) return;
  const missing = (ena & ~addr) & 0xffff;
  if (missing) {
    diags.report({
      id: 'amd.spi.ps-input-ena-not-in-addr', severity: 'error', where: { SPI_PS_INPUT_ENA: ena, SPI_PS_INPUT_ADDR: addr },
      message: `SPI_PS_INPUT_ENA bits 0x${missing.toString(16)} are not set in SPI_PS_INPUT_ADDR; their VGPR destinations are undefined`,
      seed: SEED_WAVE_STATE,
    });
  }
  if (ena !== 0 && (ena & IJ_OR_FIXED_PT) === 0) {
    diags.report({
      id: 'amd.spi.ps-input-no-ij', severity: 'error', where: { SPI_PS_INPUT_ENA: ena },
      message: 'SPI_PS_INPUT_ENA enables no PERSP_*/LINEAR_* barycentric and no POS_FIXED_PT input; the hardware needs at least one',
    });
  }
}

/** Standard (D3D) sample positions, offsets from the pixel centre in 1/16 pixel, for 1/2/4/8/16 samples. */
export const STANDARD_SAMPLE_LOCATIONS: Readonly<Record<number, readonly (readonly [number, number])[]>> = {
  1: [[0, 0]],
  2: [[4, 4], [-4, -4]],
  4: [[-2, -6], [6, -2], [-6, 2], [2, 6]],
  8: [[1, -3], [-1, 3], [5, 1], [-3, -5], [-5, 5], [-7, -1], [3, 7], [7, -7]],
  16: [[1, 1], [-1, -3], [-3, 2], [4, -1], [-5, -2], [2, 5], [5, 3], [3, -5], [-2, 6], [0, -7], [-4, -6], [-6, 4], [-8, 0], [7, -4], [6, 7], [-7, -8]],
};

/** Register values for an MSAA mode with the standard sample positions (same pattern on all four pixels). */
export function standardMsaaRegisters(gen: GfxGen, samples: 1 | 2 | 4 | 8 | 16): Record<string, number> {
  const locs = STANDARD_SAMPLE_LOCATIONS[samples]!;
  const out: Record<string, number> = {};
  for (const p of ['X0Y0', 'X1Y0', 'X0Y1', 'X1Y1']) {
    for (let k = 0; k < 4; k++) {
      let v = 0;
      for (let s = 0; s < 4; s++) {
        const l = locs[4 * k + s];
        if (!l) continue;
        v |= ((l[0] & 15) << (8 * s)) | ((l[1] & 15) << (8 * s + 4));
      }
      out[`PA_SC_AA_SAMPLE_LOCS_PIXEL_${p}_${k}`] = v >>> 0;
    }
  }
  // Centroid priority: samples by increasing distance from the centre (ties by index).
  const order = locs.map((l, i) => [l[0] * l[0] + l[1] * l[1], i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[1]);
  while (order.length < 16) order.push(order[order.length % locs.length]!);
  let p0 = 0, p1 = 0;
  for (let i = 0; i < 8; i++) p0 |= order[i]! << (4 * i);
  for (let i = 0; i < 8; i++) p1 |= order[8 + i]! << (4 * i);
  out.PA_SC_CENTROID_PRIORITY_0 = p0 >>> 0;
  out.PA_SC_CENTROID_PRIORITY_1 = p1 >>> 0;
  const log2 = Math.log2(samples);
  out.PA_SC_AA_CONFIG = makeReg(gen, 'PA_SC_AA_CONFIG', { MSAA_NUM_SAMPLES: log2, MSAA_EXPOSED_SAMPLES: log2, MAX_SAMPLE_DIST: ({ 1: 0, 2: 4, 4: 6, 8: 7, 16: 8 } as const)[samples] });
  out.PA_SC_MODE_CNTL_0 = makeReg(gen, 'PA_SC_MODE_CNTL_0', { MSAA_ENABLE: samples > 1 ? 1 : 0 });
  return out;
}
