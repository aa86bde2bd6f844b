/**
 * Primitive Ordered Pixel Shading: per-generation facts and the draw configuration
 * (seed 002_d00ee82034762a57.txt, "Configuring POPS", "Hardware bug workarounds").
 *
 * Register fields come from pops-regs.gen.ts (generated from Mesa's register JSON); this file
 * only says what they mean for POPS on each generation.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import { POPS_ENUMS, POPS_REGS } from './pops-regs.gen.js';

export const POPS_SEED = '002_d00ee82034762a57.txt';

export type PopsGen = 'gfx9' | 'gfx103' | 'gfx11';

/** What differs between generations in the shader-side protocol. */
export interface PopsGenInfo {
  readonly gen: PopsGen;
  /** COLLISION_WAVEID packer field: [28] on GFX9, [29:28] on GFX10+. */
  readonly packerShift: number;
  readonly packerBits: number;
  /** Packers per shader engine (what the packer field can name). */
  readonly packersPerSe: number;
  /** GFX9 reports the newest overlapped wave ID one too low when it is behind the wraparound. */
  readonly newestOffByOne: boolean;
  /** Waves wait on wave IDs (GFX9-10.3) or on the export-ready flag (GFX11). */
  readonly waitBy: 'wave-id' | 'export-ready';
  /** Entering sets the packer in MODE[25:24] (GFX9) or HW_REG_POPS_PACKER (GFX10.3). */
  readonly packerReg: 'mode' | 'pops-packer' | 'none';
  /** Exit by s_sendmsg MSG_ORDERED_PS_DONE / s_endpgm_ordered_ps_done, or the last export with done (GFX11). */
  readonly exitBy: 'ordered-ps-done' | 'export-done';
  /** Exiting the ordered section wakes waves sleeping in the wait loop (GFX10+). */
  readonly exitWakesSleepers: boolean;
  /** INTRAWAVE_COLLISION exists (GFX9-10.3); GFX11 always puts overlapping invocations in different waves. */
  readonly intrawave: boolean;
  /** The DB_SHADER_CONTROL field that selects the interlock sample count. */
  readonly granularityField: 'POPS_OVERLAP_NUM_SAMPLES' | 'OVERRIDE_INTRINSIC_RATE';
}

export const POPS_GENS: Readonly<Record<PopsGen, PopsGenInfo>> = {
  gfx9: {
    gen: 'gfx9', packerShift: 28, packerBits: 1, packersPerSe: 2, newestOffByOne: true, waitBy: 'wave-id',
    packerReg: 'mode', exitBy: 'ordered-ps-done', exitWakesSleepers: false, intrawave: true,
    granularityField: 'POPS_OVERLAP_NUM_SAMPLES',
  },
  gfx103: {
    gen: 'gfx103', packerShift: 28, packerBits: 2, packersPerSe: 4, newestOffByOne: false, waitBy: 'wave-id',
    packerReg: 'pops-packer', exitBy: 'ordered-ps-done', exitWakesSleepers: true, intrawave: true,
    granularityField: 'POPS_OVERLAP_NUM_SAMPLES',
  },
  gfx11: {
    gen: 'gfx11', packerShift: 28, packerBits: 2, packersPerSe: 4, newestOffByOne: false, waitBy: 'export-ready',
    packerReg: 'none', exitBy: 'export-done', exitWakesSleepers: true, intrawave: false,
    granularityField: 'OVERRIDE_INTRINSIC_RATE',
  },
};

/** Read a generated field of a register value; 0 when the generation has no such field. */
export function regField(gen: PopsGen, reg: string, field: string, value: number): number {
  const f = POPS_REGS[gen][reg]?.fields[field];
  if (!f) return 0;
  const w = f[1] - f[0] + 1;
  return w >= 32 ? value >>> 0 : (value >>> f[0]) & ((1 << w) - 1);
}

/** Place a value into a generated field (throws when the generation has no such field). */
export function setField(gen: PopsGen, reg: string, field: string, value: number, into = 0): number {
  const f = POPS_REGS[gen][reg]?.fields[field];
  if (!f) throw new Error(`${gen} has no ${reg}.${field}`);
  const w = f[1] - f[0] + 1;
  const mask = ((1 << w) - 1) << f[0];
  return ((into & ~mask) | ((value << f[0]) & mask)) >>> 0;
}

export function hasField(gen: PopsGen, reg: string, field: string): boolean {
  return POPS_REGS[gen][reg]?.fields[field] !== undefined;
}

/** The register values of a draw that POPS looks at (absent = 0). */
export interface PopsDrawRegs {
  readonly DB_SHADER_CONTROL?: number;
  readonly SPI_SHADER_PGM_RSRC2_PS?: number;
  readonly PA_SC_SHADER_CONTROL?: number;
  readonly PA_SC_AA_CONFIG?: number;
  readonly DB_Z_INFO?: number;
  readonly DB_DFSM_CONTROL?: number;
  readonly PA_SC_BINNER_CNTL_0?: number;
  readonly SPI_SHADER_COL_FORMAT?: number;
  readonly SPI_SHADER_Z_FORMAT?: number;
  readonly DB_RENDER_OVERRIDE2?: number;
  /**
   * GFX11 PA_SC_VRS_SURFACE_CNTL_1 (a configuration register the kernel programs, not in Mesa's
   * JSON: its FORCE_SC_VRS_RATE_FINE_POPS field comes from pops-regs-extra.json with its source).
   */
  readonly PA_SC_VRS_SURFACE_CNTL_1?: number;
}

/**
 * The chip, for the hardware-bug workarounds: CHIP_VEGA10 and CHIP_RAVEN (GFX9, drain on 8x+
 * MSAA), CHIP_NAVI10/12/14 (GFX10.1, decoded with the GFX10.3 tables, whose layout of the fields
 * involved the generator checks equal).
 */
export type PopsChip = 'vega10' | 'raven' | 'navi10' | 'navi12' | 'navi14' | 'other';

/**
 * Variable-rate shading as the draw requests it (the rate the PA would use without POPS).
 * `forceScVrsRateFinePops` overrides PA_SC_VRS_SURFACE_CNTL_1.FORCE_SC_VRS_RATE_FINE_POPS when given
 * (tests); otherwise the bit is read from `PopsDrawRegs.PA_SC_VRS_SURFACE_CNTL_1`.
 */
export interface PopsVrs {
  readonly rateX: 1 | 2 | 4;
  readonly rateY: 1 | 2 | 4;
  readonly forceScVrsRateFinePops?: boolean;
}

/** A draw's POPS state, decoded. */
export interface PopsDrawConfig {
  readonly gen: PopsGen;
  /** DB_SHADER_CONTROL.PRIMITIVE_ORDERED_PIXEL_SHADER. */
  readonly enabled: boolean;
  /**
   * Interlock granularity in coverage samples: 1 = pixel interlock, N > 1 = sample interlock
   * over sample indices 0..N-1 (log2 field: POPS_OVERLAP_NUM_SAMPLES or OVERRIDE_INTRINSIC_RATE).
   */
  readonly interlockSamples: number;
  /** Rasterization coverage samples exposed to the shader (PA_SC_AA_CONFIG.MSAA_EXPOSED_SAMPLES, log2 decoded). */
  readonly exposedSamples: number;
  /** COLLISION_WAVEID loaded (both SPI_SHADER_PGM_RSRC2_PS and PA_SC_SHADER_CONTROL). */
  readonly loadCollisionWaveId: boolean;
  /** INTRAWAVE_COLLISION loaded (GFX9-10.3, both registers). */
  readonly loadIntrawaveCollision: boolean;
  /** DB_SHADER_CONTROL.EXEC_IF_OVERLAPPED (GFX9-10.3): accepted, no modelled effect. */
  readonly execIfOverlapped: boolean;
  /** PA_SC_BINNER_CNTL_0.BIN_MAPPING_MODE == BIN_MAP_MODE_POPS (2), GFX10+: accepted, no modelled effect. */
  readonly binMapPops: boolean;
  /** Export buffer space allocated: some SPI_SHADER_COL_FORMAT.COLn_EXPORT_FORMAT or SPI_SHADER_Z_FORMAT non-zero. */
  readonly exportAllocated: boolean;
  /** The shading rate the draw runs at under POPS (GFX10.3 forces 1x1; GFX11 with FORCE_SC_VRS_RATE_FINE_POPS too). */
  readonly shadingRate: readonly [number, number];
}

/**
 * Decode a draw's POPS registers and report the configuration hazards of the seed:
 * - pops.config.arg-half-enabled: an argument enabled in only one of RSRC2_PS / PA_SC_SHADER_CONTROL;
 * - pops.config.intrawave-gfx11: INTRAWAVE_COLLISION requested on GFX11 (the concept is gone);
 * - pops.config.rate-enable-missing: GFX11 OVERRIDE_INTRINSIC_RATE_ENABLE not set under POPS;
 * - pops.config.overlap-samples: interlock sample count neither 1 nor MSAA_EXPOSED_SAMPLES;
 * - pops.config.z-num-samples: GFX11 DB_Z_INFO.NUM_SAMPLES differs from MSAA_EXPOSED_SAMPLES;
 * - pops.config.drain-missing: Vega10/Raven with >= 8 raster or depth samples and
 *   DB_DFSM_CONTROL.POPS_DRAIN_PS_ON_OVERLAP clear;
 * - pops.config.pslc-missing: Navi10/12/14 with POPS_DRAIN_PS_ON_OVERLAP set and
 *   DB_RENDER_OVERRIDE2.PARTIAL_SQUAD_LAUNCH_CONTROL not PSLC_ON_HANG_ONLY;
 * - pops.export.no-allocation: GFX10+ without export buffer space (seed "Export requirements");
 * - pops.vrs.forced-1x1 (GFX10.3) / pops.vrs.coarse-interlock (GFX11 without
 *   FORCE_SC_VRS_RATE_FINE_POPS): a coarse shading rate requested with POPS (warnings).
 */
export function decodePopsDraw(gen: PopsGen, r: PopsDrawRegs, diags?: Diagnostics, chip: PopsChip = 'other', vrs?: PopsVrs): PopsDrawConfig {
  const dbsc = r.DB_SHADER_CONTROL ?? 0;
  const enabled = regField(gen, 'DB_SHADER_CONTROL', 'PRIMITIVE_ORDERED_PIXEL_SHADER', dbsc) === 1;
  const info = POPS_GENS[gen];
  const log2 = regField(gen, 'DB_SHADER_CONTROL', info.granularityField, dbsc);
  const exposedLog2 = regField(gen, 'PA_SC_AA_CONFIG', 'MSAA_EXPOSED_SAMPLES', r.PA_SC_AA_CONFIG ?? 0);
  const rsrc = r.SPI_SHADER_PGM_RSRC2_PS ?? 0;
  const pasc = r.PA_SC_SHADER_CONTROL ?? 0;
  const arg = (f: string): [boolean, boolean] =>
    [regField(gen, 'SPI_SHADER_PGM_RSRC2_PS', f, rsrc) === 1, regField(gen, 'PA_SC_SHADER_CONTROL', f, pasc) === 1];
  const [cwR, cwP] = arg('LOAD_COLLISION_WAVEID');
  const [iwR, iwP] = arg('LOAD_INTRAWAVE_COLLISION');
  const cfg: PopsDrawConfig = {
    gen, enabled,
    interlockSamples: 1 << log2,
    exposedSamples: 1 << exposedLog2,
    loadCollisionWaveId: cwR && cwP,
    loadIntrawaveCollision: info.intrawave && iwR && iwP,
    execIfOverlapped: regField(gen, 'DB_SHADER_CONTROL', 'EXEC_IF_OVERLAPPED', dbsc) === 1,
    binMapPops: regField(gen, 'PA_SC_BINNER_CNTL_0', 'BIN_MAPPING_MODE', r.PA_SC_BINNER_CNTL_0 ?? 0) === 2,
    exportAllocated: (r.SPI_SHADER_COL_FORMAT ?? 0) !== 0 || regField(gen, 'SPI_SHADER_Z_FORMAT', 'Z_EXPORT_FORMAT', r.SPI_SHADER_Z_FORMAT ?? 0) !== 0,
    shadingRate: [vrs?.rateX ?? 1, vrs?.rateY ?? 1],
  };
  const finePops = vrs?.forceScVrsRateFinePops ?? regField(gen, 'PA_SC_VRS_SURFACE_CNTL_1', 'FORCE_SC_VRS_RATE_FINE_POPS', r.PA_SC_VRS_SURFACE_CNTL_1 ?? 0) === 1;
  if (enabled && vrs && (gen === 'gfx103' || finePops)) (cfg as { shadingRate: readonly [number, number] }).shadingRate = [1, 1];
  if (!diags || !enabled) return cfg;
  const rep = (id: string, message: string, severity: 'error' | 'warning' = 'error'): void =>
    diags.report({ id, severity, where: { gen }, message, seed: POPS_SEED });
  for (const [name, a, b] of [['COLLISION_WAVEID', cwR, cwP], ['INTRAWAVE_COLLISION', iwR, iwP]] as const) {
    if (a !== b) {
      rep('pops.config.arg-half-enabled',
        `LOAD_${name} is enabled in ${a ? 'SPI_SHADER_PGM_RSRC2_PS' : 'PA_SC_SHADER_CONTROL'} only; POPS arguments must be enabled in both, the shader does not receive ${name}`);
    }
  }
  if (!info.intrawave && iwR && iwP) {
    rep('pops.config.intrawave-gfx11', 'LOAD_INTRAWAVE_COLLISION under POPS on GFX11: overlapping invocations are always in different waves there', 'warning');
  }
  if (gen === 'gfx11' && regField(gen, 'DB_SHADER_CONTROL', 'OVERRIDE_INTRINSIC_RATE_ENABLE', dbsc) !== 1) {
    rep('pops.config.rate-enable-missing', 'GFX11 POPS needs DB_SHADER_CONTROL.OVERRIDE_INTRINSIC_RATE_ENABLE = 1 (OVERRIDE_INTRINSIC_RATE is the interlock granularity)');
  }
  if (log2 !== 0 && log2 !== exposedLog2) {
    rep('pops.config.overlap-samples',
      `${info.granularityField} = ${log2} (${1 << log2} samples) is neither 0 (pixel interlock) nor PA_SC_AA_CONFIG.MSAA_EXPOSED_SAMPLES = ${exposedLog2}`);
  }
  const zLog2 = regField(gen, 'DB_Z_INFO', 'NUM_SAMPLES', r.DB_Z_INFO ?? 0);
  if (gen === 'gfx11' && zLog2 !== exposedLog2) {
    rep('pops.config.z-num-samples',
      `GFX11 POPS takes the coverage sample count from DB_Z_INFO.NUM_SAMPLES = ${zLog2}; it must equal MSAA_EXPOSED_SAMPLES = ${exposedLog2} even without a depth target`);
  }
  const rasterLog2 = regField(gen, 'PA_SC_AA_CONFIG', 'MSAA_NUM_SAMPLES', r.PA_SC_AA_CONFIG ?? 0);
  if (gen === 'gfx9' && (chip === 'vega10' || chip === 'raven') && (rasterLog2 >= 3 || zLog2 >= 3) &&
      regField(gen, 'DB_DFSM_CONTROL', 'POPS_DRAIN_PS_ON_OVERLAP', r.DB_DFSM_CONTROL ?? 0) !== 1) {
    rep('pops.config.drain-missing',
      `${chip}: POPS with 8 or more raster or depth samples needs DB_DFSM_CONTROL.POPS_DRAIN_PS_ON_OVERLAP = 1 (hardware bug, may hang)`);
  }
  if (gen === 'gfx103' && (chip === 'navi10' || chip === 'navi12' || chip === 'navi14') &&
      regField(gen, 'DB_DFSM_CONTROL', 'POPS_DRAIN_PS_ON_OVERLAP', r.DB_DFSM_CONTROL ?? 0) === 1 &&
      regField(gen, 'DB_RENDER_OVERRIDE2', 'PARTIAL_SQUAD_LAUNCH_CONTROL', r.DB_RENDER_OVERRIDE2 ?? 0) !== POPS_ENUMS.PSLC_ON_HANG_ONLY) {
    rep('pops.config.pslc-missing',
      `${chip} (GFX10.1): POPS with DB_DFSM_CONTROL.POPS_DRAIN_PS_ON_OVERLAP = 1 needs DB_RENDER_OVERRIDE2.PARTIAL_SQUAD_LAUNCH_CONTROL = PSLC_ON_HANG_ONLY (${POPS_ENUMS.PSLC_ON_HANG_ONLY}) to avoid a hang`);
  }
  if (gen !== 'gfx9' && !cfg.exportAllocated) {
    rep('pops.export.no-allocation',
      `no export buffer space is allocated (SPI_SHADER_COL_FORMAT and SPI_SHADER_Z_FORMAT are 0): under POPS ${gen === 'gfx11' ? 'GFX11 hangs' : 'GFX10 runs the shader without the synchronization'}; set some COLn_EXPORT_FORMAT, e.g. SPI_SHADER_32_R (${POPS_ENUMS.SPI_SHADER_32_R})`);
  }
  if (vrs && (vrs.rateX > 1 || vrs.rateY > 1)) {
    if (gen === 'gfx103') {
      rep('pops.vrs.forced-1x1', `GFX10.3 forces a 1x1 shading rate when PRIMITIVE_ORDERED_PIXEL_SHADER is set: the requested ${vrs.rateX}x${vrs.rateY} rate is ignored (fragmentShadingRateWithFragmentShaderInterlock must be false)`, 'warning');
    } else if (gen === 'gfx11' && !finePops) {
      rep('pops.vrs.coarse-interlock',
        `GFX11 POPS at a ${vrs.rateX}x${vrs.rateY} shading rate interlocks per fine pixel: coarse invocations that cover no common fine pixel are not ordered (no fragmentShaderShadingRateInterlock); set PA_SC_VRS_SURFACE_CNTL_1.FORCE_SC_VRS_RATE_FINE_POPS for 1x1`, 'warning');
    }
  }
  return cfg;
}
