/**
 * Draws in SYSMEM (bypass) mode: at CP_DRAW_INDX_OFFSET / CP_DRAW_INDIRECT / CP_DRAW_INDX_INDIRECT
 * the registers of the bank being filled and the loaded VS/FS state become a `DrawJob`
 * (pc/draw.ts) and run into the render targets RB_MRT[i] / RB_DEPTH_BUFFER / RB_STENCIL_BUFFER
 * name in GPU memory. In GMEM and BINNING modes the draw is only recorded (the tiled path runs
 * `gatherDraw` with its own surfaces). What a draw lacks (no shader, buffers outside memory) is
 * said by `adreno.cp.draw-not-run`; documented illegal states have their own ids.
 */
import { clampProblems, type DepthClampState } from '../gras/zclamp.js';
import { decodeFields, enumName, type RegisterSpace } from '../regs/db.js';

const hasReg = (regs: RegisterSpace, name: string): boolean => {
  try {
    regs.reg(name);
    return true;
  } catch {
    return false;
  }
};
import { fmt6, type Fmt6 } from '../rb/fmt6.js';
import { checkFlagBuffer, isUbwcColor, isUbwcDepth, ubwcColor, ubwcDepth } from '../rb/ubwc-target.js';
import { sysmemColor, sysmemDepth, sysmemStencil, type ColorSurface, type DepthSurface, type RbState, type RbTargets, type StencilFace, type StencilSurface } from '../rb/output.js';
import { STANDARD_SAMPLES, intersect, type Rect } from '../gras/raster.js';
import { DrawBudget, DrawBudgetError, runDrawJob, type DrawJob, type DrawLimits, type DrawResult } from '../pc/draw.js';
import type { IndexSource } from '../pc/assemble.js';
import { vertexFormat, type VfdState } from '../vfd/fetch.js';
import { vsOutputs } from '../vpc/varyings.js';
import type { FsPreload, StageProgram } from '../sp/graphics.js';
import type { CommandProcessor } from './cp.js';
import { a64, arrayLength, need } from './exec.js';
import type { PacketRecord } from './walker.js';
import { InputError } from '../../core/errors.js';
import { isGmemTexture, withFeedback, withGmemFeedback } from './handlers-feedback.js';
import { loadConsts, loadState6, resolveTexConst, stateData, texState, unitDwords } from './handlers-compute.js';
import type { TileMode } from '../ubwc/tile6.js';
import type { PrimBox, VscReader } from '../vsc/vsc.js';
import { binningJob, fillBoxes, gmemTargets } from './handlers-gmem.js';
import { guardbandValue } from '../gras/guardband.js';
import { lrzHook } from './handlers-lrz.js';
import { drawStreamOut } from './handlers-so.js';

/** VS / FS state loaded by CP_LOAD_STATE6_GEOM / _FRAG (SB6_VS_SHADER, SB6_FS_SHADER). */
export interface GfxStageState {
  shader: Uint32Array | undefined;
  readonly consts: Uint32Array;
  /** Texture descriptors (ST6_CONSTANTS into SB6_xS_TEX, 16 dwords) and samplers (ST6_SHADER, 4 dwords), by slot. */
  readonly tex: (Uint32Array | undefined)[];
  readonly samp: (Uint32Array | undefined)[];
}
const STAGES = new WeakMap<CommandProcessor, Record<'vs' | 'fs', GfxStageState>>();
export function gfxState(cp: CommandProcessor): Record<'vs' | 'fs', GfxStageState> {
  let s = STAGES.get(cp);
  if (!s) {
    s = { vs: { shader: undefined, consts: new Uint32Array(256 * 4), tex: [], samp: [] }, fs: { shader: undefined, consts: new Uint32Array(256 * 4), tex: [], samp: [] } };
    STAGES.set(cp, s);
  }
  return s;
}

/** The state blocks of the VS / FS. */
const GFX_BLOCKS: readonly string[] = ['SB6_VS_SHADER', 'SB6_FS_SHADER', 'SB6_VS_TEX', 'SB6_FS_TEX'];

/**
 * CP_LOAD_STATE6 / _GEOM / _FRAG: recorded and loaded into the CS blocks by `loadState6`, then
 * the VS / FS blocks (SB6_VS/FS_SHADER shader and constants, SB6_VS/FS_TEX descriptors and samplers).
 */
export function loadState6Gfx(cp: CommandProcessor, r: PacketRecord): number {
  loadState6(cp, r);
  const f = decodeFields('CP_LOAD_STATE6.0', r.payload[0]!, 0, cp.gen);
  const block = enumName('a6xx_state_block', f['STATE_BLOCK']!, cp.gen) ?? '';
  const type = enumName('a6xx_state_type', f['STATE_TYPE']!, cp.gen) ?? '';
  const src = enumName('a6xx_state_src', f['STATE_SRC']!, cp.gen) ?? '';
  if (!GFX_BLOCKS.includes(block) || (type !== 'ST6_SHADER' && type !== 'ST6_CONSTANTS')) return 0;
  const data = stateData(cp, r, src, f['NUM_UNIT']! * unitDwords(block, type), `${block} ${type}`);
  if (data) loadGfxState(cp, r, block, type, f['DST_OFF']!, data);
  return 0;
}

function loadGfxState(cp: CommandProcessor, r: PacketRecord, block: string, type: string, dst: number, data: Uint32Array): void {
  const st = gfxState(cp)[block.startsWith('SB6_VS') ? 'vs' : 'fs'];
  if (block.endsWith('_TEX')) {
    const ud = type === 'ST6_SHADER' ? 4 : 16;
    const arr = type === 'ST6_SHADER' ? st.samp : st.tex;
    for (let k = 0; k * ud < data.length; k++) arr[dst + k] = data.slice(k * ud, k * ud + ud);
    return;
  }
  if (type === 'ST6_SHADER') st.shader = data;
  else if (type === 'ST6_CONSTANTS') loadConsts(cp, r, st.consts, dst, data, `${block} ${type}`);
}

/** One draw the pipeline ran (or did not). */
export interface DrawRun {
  readonly iova: number;
  readonly packet: string;
  readonly ran: boolean;
  readonly missing: readonly string[];
  readonly result?: DrawResult;
}
const RUNS = new WeakMap<CommandProcessor, DrawRun[]>();
/** The draws a CP ran, in order. */
export function drawRuns(cp: CommandProcessor): DrawRun[] {
  let r = RUNS.get(cp);
  if (!r) RUNS.set(cp, (r = []));
  return r;
}

const BUDGETS = new WeakMap<CommandProcessor, DrawBudget>();
/** The work and memory budget of a CP's draws (pc/draw.ts; the defaults unless `setDrawLimits` was called). */
export function drawBudget(cp: CommandProcessor): DrawBudget {
  let b = BUDGETS.get(cp);
  if (!b) BUDGETS.set(cp, (b = new DrawBudget()));
  return b;
}
/** Set the limits of a CP's draws (`gpusim adreno run --max-*`); the counts start again. */
export function setDrawLimits(cp: CommandProcessor, limits: Partial<DrawLimits>): void {
  BUDGETS.set(cp, new DrawBudget(limits));
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const asFloat = (b: number): number => {
  u32[0] = b;
  return f32[0]!;
};

/** Register access by name for one draw. */
class Regs {
  readonly cp: CommandProcessor;
  readonly db: RegisterSpace;
  constructor(cp: CommandProcessor, db: RegisterSpace) {
    this.cp = cp;
    this.db = db;
  }
  raw(name: string): number {
    return this.cp.readReg(this.db.reg(name));
  }
  f(name: string, field: string): number {
    const o = this.db.reg(name);
    return decodeFields(this.db.at(o)!.type, this.cp.readReg(o), 0, this.cp.gen)[field] ?? 0;
  }
  float(name: string): number {
    return asFloat(this.raw(name));
  }
  addr(name: string): number {
    const o = this.db.reg(name);
    return this.cp.readReg(o + 1) * 2 ** 32 + this.cp.readReg(o);
  }
  e(enumType: string, v: number): string {
    return enumName(enumType, v, this.cp.gen) ?? String(v);
  }
}

/** The draw's counts from the packet (indirect forms read them from memory). */
export interface DrawParams {
  readonly initiator: number;
  readonly instances: number;
  readonly count: number;
  readonly firstIndex: number;
  readonly indexBase: number;
  readonly maxIndices: number;
  readonly vertexOffset?: number;
  readonly firstInstance?: number;
  /** CP_DRAW_INDIRECT_MULTI: the sub-draw's index and DST_OFF (the VS constant vec4 it fills; 0: none). */
  readonly drawId?: number;
  readonly dstOff?: number;
}

/** CP_DRAW_INDIRECT_MULTI's a6xx_draw_indirect_opcode values (adreno_pm4.xml). */
const MULTI_OPS: Readonly<Record<number, { indexed: boolean; counted: boolean; dwords: number }>> = {
  2: { indexed: false, counted: false, dwords: 6 }, // INDIRECT_OP_NORMAL: INDIRECT @3, STRIDE @5
  4: { indexed: true, counted: false, dwords: 9 }, // INDIRECT_OP_INDEXED: INDEX @3, MAX_INDICES @5, INDIRECT @6, STRIDE @8
  6: { indexed: false, counted: true, dwords: 8 }, // INDIRECT_OP_INDIRECT_COUNT: INDIRECT @3, INDIRECT_COUNT @5, STRIDE @7
  7: { indexed: true, counted: true, dwords: 11 }, // INDIRECT_OP_INDIRECT_COUNT_INDEXED: INDEX @3, MAX_INDICES @5, INDIRECT @6, INDIRECT_COUNT @8, STRIDE @10
};

/**
 * The draws a packet makes: one for the direct and single indirect forms, DRAW_COUNT (or
 * min(DRAW_COUNT, the dword at INDIRECT_COUNT)) for CP_DRAW_INDIRECT_MULTI; undefined with
 * `missing` said when the parameters are not in memory or the form is not modelled.
 */
export function drawParamsList(cp: CommandProcessor, r: PacketRecord, missing: string[]): Iterable<DrawParams> | undefined {
  const p = r.payload;
  const rd = (addr: number, n: number, what = 'indirect parameters'): number[] | undefined => {
    const seg = cp.mem.find(addr, n * 4);
    if (!seg) {
      missing.push(`${what} at 0x${addr.toString(16)} not in memory`);
      return undefined;
    }
    return Array.from({ length: n }, (_, k) => seg.dv.getUint32(addr - seg.base + 4 * k, true));
  };
  // VkDrawIndirectCommand: vertexCount, instanceCount, firstVertex, firstInstance.
  const direct = (initiator: number, d: number[], extra: Partial<DrawParams> = {}): DrawParams => ({ initiator, count: d[0]!, instances: d[1]!, firstIndex: 0, indexBase: 0, maxIndices: 0, vertexOffset: d[2]!, firstInstance: d[3]!, ...extra });
  // VkDrawIndexedIndirectCommand: indexCount, instanceCount, firstIndex, vertexOffset, firstInstance.
  const indexed = (initiator: number, base: number, max: number, d: number[], extra: Partial<DrawParams> = {}): DrawParams => ({ initiator, count: d[0]!, instances: d[1]!, firstIndex: d[2]!, indexBase: base, maxIndices: max, vertexOffset: d[3]! | 0, firstInstance: d[4]!, ...extra });
  if (r.name === 'CP_DRAW_INDX_OFFSET') {
    need(cp, r, 3);
    return [{ initiator: p[0]!, instances: p[1]!, count: p[2]!, firstIndex: p[3] ?? 0, indexBase: a64(p, 4), maxIndices: p[6] ?? 0 }];
  }
  if (r.name === 'CP_DRAW_INDIRECT') {
    need(cp, r, 3);
    const d = rd(a64(p, 1), 4);
    return d && [direct(p[0]!, d)];
  }
  if (r.name === 'CP_DRAW_INDX_INDIRECT') {
    need(cp, r, 6);
    const d = rd(a64(p, 4), 5);
    return d && [indexed(p[0]!, a64(p, 1), p[3]!, d)];
  }
  if (r.name === 'CP_DRAW_INDIRECT_MULTI') {
    need(cp, r, 3);
    const op = p[1]! & 0xf;
    const dstOff = (p[1]! >>> 8) & 0x3fff;
    const form = MULTI_OPS[op];
    if (!form) {
      missing.push(`CP_DRAW_INDIRECT_MULTI OPCODE ${op} (not an a6xx_draw_indirect_opcode)`);
      return undefined;
    }
    need(cp, r, form.dwords);
    const stride = p[form.dwords - 1]!;
    const params = form.indexed ? a64(p, 6) : a64(p, 3);
    let n = p[2]!;
    if (form.counted) {
      const c = rd(form.indexed ? a64(p, 8) : a64(p, 5), 1, 'INDIRECT_COUNT');
      if (!c) return undefined;
      n = Math.min(n, c[0]!);
    }
    const budget = drawBudget(cp);
    // Read lazily, one sub-draw at a time: DRAW_COUNT may be 2^32 - 1.
    return (function* (): Generator<DrawParams> {
      for (let k = 0; k < n; k++) {
        // Each sub-draw costs at least one vertex of the run's budget, so DRAW_COUNT cannot spin.
        budget.charge('vertices', 1, `${r.name} at 0x${r.iova.toString(16)}`, `sub-draw ${k} of ${n}`);
        const d = rd(params + k * stride, form.indexed ? 5 : 4, `sub-draw ${k}'s parameters`);
        if (!d) return;
        yield form.indexed ? indexed(p[0]!, a64(p, 3), p[5]!, d, { drawId: k, dstOff }) : direct(p[0]!, d, { drawId: k, dstOff });
      }
    })();
  }
  if (r.name === 'CP_DRAW_AUTO') {
    need(cp, r, 6);
    // The vertex count is (the byte counter at NUM_VERTICES_BASE - NUM_VERTICES_OFFSET) / STRIDE:
    // a stream-out buffer's filled size (freedreno's draw_emit_xfb; turnip's end of transform
    // feedback turns FLUSH_SO_n's dword offset into it with CP_MEM_TO_REG / CP_REG_TO_MEM).
    const base = a64(p, 2);
    const stride = p[5]!;
    const c = rd(base, 1, 'CP_DRAW_AUTO byte counter');
    if (!c) return undefined;
    if (stride === 0) {
      missing.push('CP_DRAW_AUTO STRIDE 0 (no vertex size to divide the byte count by)');
      return undefined;
    }
    const bytes = Math.max(0, c[0]! - p[4]!);
    cp.report('adreno.cp.draw-auto-counter', 'info', `CP_DRAW_AUTO at 0x${r.iova.toString(16)}: ${Math.floor(bytes / stride)} vertices from the byte counter at 0x${base.toString(16)} (${c[0]} - NUM_VERTICES_OFFSET ${p[4]}) / STRIDE ${stride}`);
    return [{ initiator: p[0]!, instances: p[1]!, count: Math.floor(bytes / stride), firstIndex: 0, indexBase: 0, maxIndices: 0 }];
  }
  missing.push(`${r.name} is not modelled`);
  return undefined;
}

function footprintCheck(cp: CommandProcessor, what: string, regid: number, comps: number, full: number, id: string): void {
  if (regid >= 0xfc) return;
  if (((regid + comps - 1) >> 2) >= full) cp.report(id, 'error', `${what} r${regid >> 2}.${'xyzw'[regid & 3]} is beyond the register footprint (FULLREGFOOTPRINT ${full}): its value is undefined`);
}

/** Depth clamp (gras/zclamp.ts): GRAS_CL_CNTL / RB_DEPTH_CNTL Z_CLAMP_ENABLE and their ranges, with the diagnostics. */
function depthClamp(cp: CommandProcessor, R: Regs): DepthClampState {
  const grasOn = R.f('GRAS_CL_CNTL', 'Z_CLAMP_ENABLE') === 1, rbOn = R.f('RB_DEPTH_CNTL', 'Z_CLAMP_ENABLE') === 1;
  const gras = { min: R.float('GRAS_CL_Z_CLAMP[0].MIN'), max: R.float('GRAS_CL_Z_CLAMP[0].MAX') };
  const rb = { min: R.float('RB_Z_CLAMP_MIN'), max: R.float('RB_Z_CLAMP_MAX') };
  for (const p of clampProblems(grasOn, gras, rbOn, rb)) cp.report(p.id, p.severity, p.message);
  return { ...(grasOn ? { gras } : {}), ...(rbOn ? { rb } : {}) };
}

/**
 * RB state beyond depth/stencil and blend: sRGB targets (RB_SRGB_CNTL, the same as SP_SRGB_CNTL),
 * dual-source blending (DUAL_COLOR_IN_ENABLE in SP_FS_OUTPUT_CNTL0, RB_FS_OUTPUT_CNTL0,
 * RB_BLEND_CNTL, SP_BLEND_CNTL), with the diagnostics of their inconsistent or illegal states;
 * logic ops with blending, and depth tests or bounds without Z_READ_ENABLE (RB_DEPTH_CNTL's doc).
 */
function rbExtras(cp: CommandProcessor, R: Regs): { srgb: number; dualSource: boolean } {
  // Past the 8 RB_MRT registers the draw is not run (adreno.rb.mrt-count-beyond-array).
  const nMrt = Math.min(R.f('RB_FS_OUTPUT_CNTL1', 'MRT'), arrayLength(cp, 'RB_MRT[%].BASE'));
  let srgb = 0, spSrgb = 0;
  for (let i = 0; i < 8; i++) {
    srgb |= R.f('RB_SRGB_CNTL', `SRGB_MRT${i}`) << i;
    spSrgb |= R.f('SP_SRGB_CNTL', `SRGB_MRT${i}`) << i;
  }
  if (srgb !== spSrgb) cp.report('adreno.rb.srgb-mismatch', 'warning', `RB_SRGB_CNTL 0x${srgb.toString(16)} and SP_SRGB_CNTL 0x${spSrgb.toString(16)} differ (they are one state): RB_SRGB_CNTL is used`);
  for (let i = 0; i < nMrt; i++) {
    if (!((srgb >> i) & 1)) continue;
    const fmt = R.e('a6xx_format', R.f(`RB_MRT[${i}].BUF_INFO`, 'COLOR_FORMAT'));
    if (!/^FMT6_8(_8)*_UNORM$/.test(fmt)) cp.report('adreno.rb.srgb-format', 'error', `RB_SRGB_CNTL SRGB_MRT${i} on ${fmt}: sRGB targets are 8-bit UNORM formats; the conversion is undefined (applied anyway)`);
  }
  const dualRegs = [['SP_FS_OUTPUT_CNTL0', R.f('SP_FS_OUTPUT_CNTL0', 'DUAL_COLOR_IN_ENABLE')], ['RB_FS_OUTPUT_CNTL0', R.f('RB_FS_OUTPUT_CNTL0', 'DUAL_COLOR_IN_ENABLE')], ['RB_BLEND_CNTL', R.f('RB_BLEND_CNTL', 'DUAL_COLOR_IN_ENABLE')], ['SP_BLEND_CNTL', R.f('SP_BLEND_CNTL', 'DUAL_COLOR_IN_ENABLE')]] as const;
  const dualSource = dualRegs[1][1] === 1;
  if (dualRegs.some(([, v]) => v !== dualRegs[0][1])) cp.report('adreno.rb.dual-source-mismatch', 'warning', `DUAL_COLOR_IN_ENABLE differs: ${dualRegs.map(([n, v]) => `${n} ${v}`).join(', ')} (RB_FS_OUTPUT_CNTL0 is used)`);
  const SRC1 = new Set([20, 21, 22, 23]);
  for (let i = 0; i < nMrt; i++) {
    const c = `RB_MRT[${i}].CONTROL`;
    const b = `RB_MRT[${i}].BLEND_CONTROL`;
    if (R.f(c, 'ROP_ENABLE') && R.f(c, 'BLEND')) cp.report('adreno.rb.rop-with-blend', 'warning', `RB_MRT[${i}].CONTROL enables both ROP and BLEND: a logic op replaces blending (blending is ignored)`);
    if (!R.f(c, 'BLEND')) continue;
    const uses = ['RGB_SRC_FACTOR', 'RGB_DEST_FACTOR', 'ALPHA_SRC_FACTOR', 'ALPHA_DEST_FACTOR'].filter((k) => SRC1.has(R.f(b, k)));
    if (uses.length && (!dualSource || i > 0)) cp.report('adreno.rb.src1-without-dual', 'error', `RB_MRT[${i}].BLEND_CONTROL ${uses.join(', ')} use the SRC1 colour ${dualSource ? 'on a target other than 0 (dual-source blending has one)' : 'without RB_FS_OUTPUT_CNTL0 DUAL_COLOR_IN_ENABLE'}: the factor is undefined (NaN)`);
  }
  const zTest = R.f('RB_DEPTH_CNTL', 'Z_TEST_ENABLE') === 1;
  const func = R.e('adreno_compare_func', R.f('RB_DEPTH_CNTL', 'ZFUNC'));
  const needsRead = (zTest && func !== 'FUNC_ALWAYS' && func !== 'FUNC_NEVER') || R.f('RB_DEPTH_CNTL', 'Z_BOUNDS_ENABLE') === 1;
  if (needsRead && !R.f('RB_DEPTH_CNTL', 'Z_READ_ENABLE')) cp.report('adreno.rb.z-read-disabled', 'warning', `RB_DEPTH_CNTL ${zTest ? `ZFUNC ${func}` : 'Z_BOUNDS_ENABLE'} needs the stored depth but Z_READ_ENABLE is off: what the RB compares against is undefined (the stored depth is used)`);
  return { srgb, dualSource };
}

/**
 * The FS's coverage output: SP_FS_OUTPUT_CNTL0 SAMPMASK_REGID where RB_FS_OUTPUT_CNTL0
 * FRAG_WRITES_SAMPMASK says the FS writes it (turnip and fd6 set both from the same output);
 * one without the other is a diagnostic (the register is used only with the RB bit).
 */
function fsSampleMaskOut(cp: CommandProcessor, R: Regs): number {
  const r = R.f('SP_FS_OUTPUT_CNTL0', 'SAMPMASK_REGID');
  const on = R.f('RB_FS_OUTPUT_CNTL0', 'FRAG_WRITES_SAMPMASK') === 1;
  if (on !== r < 0xfc) cp.report('adreno.rb.sampmask-output-mismatch', 'warning', on ? 'RB_FS_OUTPUT_CNTL0 FRAG_WRITES_SAMPMASK without SP_FS_OUTPUT_CNTL0 SAMPMASK_REGID: the written mask is undefined (coverage kept)' : `SP_FS_OUTPUT_CNTL0 SAMPMASK_REGID r${r >> 2}.${'xyzw'[r & 3]} without RB_FS_OUTPUT_CNTL0 FRAG_WRITES_SAMPMASK: the RB ignores the mask`);
  return on && r < 0xfc ? r : 0xfc;
}

const IJ = ['IJ_PERSP_PIXEL', 'IJ_LINEAR_PIXEL', 'IJ_PERSP_CENTROID', 'IJ_LINEAR_CENTROID', 'IJ_PERSP_SAMPLE', 'IJ_LINEAR_SAMPLE'] as const;

/**
 * What HLSQ preloads into the FS (fd6 / turnip program them together): the i/j pairs of
 * HLSQ_CONTROL_3/4_REG where GRAS_CNTL enables them, frag coord (HLSQ_CONTROL_4_REG
 * XYCOORDREGID / ZWCOORDREGID, GRAS_CNTL COORD_MASK), and HLSQ_CONTROL_2_REG FACEREGID /
 * SAMPLEID / SAMPLEMASK where RB_RENDER_CONTROL1 FACENESS / SAMPLEID / SAMPLEMASK enable them.
 * GRAS_CNTL and RB_RENDER_CONTROL0 (and GRAS_ / RB_SAMPLE_CNTL) are two copies of one state: a
 * difference is a diagnostic; a register named with its enable off is not loaded (a diagnostic).
 */
function fsPreload(cp: CommandProcessor, R: Regs, full: number, half: number, missing: string[]): { preload: FsPreload; perSample: boolean; fragCoordSample: boolean } {
  const differs = [...IJ, 'COORD_MASK'].filter((k) => R.f('GRAS_CNTL', k) !== R.f('RB_RENDER_CONTROL0', k));
  if (differs.length) cp.report('adreno.gras.render-control-mismatch', 'warning', `GRAS_CNTL and RB_RENDER_CONTROL0 differ in ${differs.join(', ')}: the rasterizer and the RB disagree on the FS inputs (GRAS_CNTL is used)`);
  const perSample = R.f('GRAS_SAMPLE_CNTL', 'PER_SAMP_MODE') === 1;
  if (perSample !== (R.f('RB_SAMPLE_CNTL', 'PER_SAMP_MODE') === 1)) cp.report('adreno.gras.sample-cntl-mismatch', 'warning', `GRAS_SAMPLE_CNTL PER_SAMP_MODE ${+perSample} but RB_SAMPLE_CNTL PER_SAMP_MODE ${1 - +perSample}: per-sample shading is undefined (GRAS_SAMPLE_CNTL is used)`);
  const mode = R.f('RB_RENDER_CONTROL1', 'FRAGCOORDSAMPLEMODE');
  const modeName = R.e('a6xx_fragcoord_sample_mode', mode);
  if (modeName !== 'FRAGCOORD_CENTER' && modeName !== 'FRAGCOORD_SAMPLE') cp.report('adreno.rb.fragcoord-sample-mode', 'error', `RB_RENDER_CONTROL1 FRAGCOORDSAMPLEMODE ${mode} is not FRAGCOORD_CENTER (0) or FRAGCOORD_SAMPLE (3): frag coord is undefined (the centre is used)`);
  // One sysval: its register where the enable is set; named but not enabled is not loaded.
  const val = (reg: string, field: string, enabled: boolean, what: string, comps: number, isHalf: boolean): number => {
    const r = R.f(reg, field);
    if (r >= 0xfc) return 0xfc;
    if (!enabled) {
      cp.report('adreno.sp.sysval-not-enabled', 'warning', `${reg} ${field} names ${isHalf ? 'h' : ''}r${r >> 2}.${'xyzw'[r & 3]} but ${what} is off: HLSQ does not load it (the FS reads whatever the register holds)`);
      return 0xfc;
    }
    const foot = isHalf ? half : full;
    if (((r + comps - 1) >> 2) >= foot) cp.report('adreno.sp.fs-sysval-beyond-footprint', 'error', `${reg} ${field} ${isHalf ? 'h' : ''}r${r >> 2}.${'xyzw'[r & 3]} is beyond the FS register footprint (${isHalf ? 'HALF' : 'FULL'}REGFOOTPRINT ${foot}): its value is undefined`);
    return r;
  };
  const ij = (k: (typeof IJ)[number]): number => val(k.endsWith('SAMPLE') ? 'HLSQ_CONTROL_4_REG' : 'HLSQ_CONTROL_3_REG', k, R.f('GRAS_CNTL', k) === 1, `GRAS_CNTL ${k}`, 2, false);
  const coordMask = R.f('GRAS_CNTL', 'COORD_MASK');
  const rc1 = (k: string): boolean => R.f('RB_RENDER_CONTROL1', k) === 1;
  for (const k of ['CENTERRHW', 'POSTDEPTHCOVERAGE', 'LINELENGTHEN', 'FOVEATION']) if (rc1(k)) missing.push(`RB_RENDER_CONTROL1 ${k} (not modelled)`);
  return {
    preload: {
      ijPersp: ij('IJ_PERSP_PIXEL'), ijLinear: ij('IJ_LINEAR_PIXEL'),
      ijPerspCentroid: ij('IJ_PERSP_CENTROID'), ijLinearCentroid: ij('IJ_LINEAR_CENTROID'),
      ijPerspSample: ij('IJ_PERSP_SAMPLE'), ijLinearSample: ij('IJ_LINEAR_SAMPLE'),
      xyCoord: val('HLSQ_CONTROL_4_REG', 'XYCOORDREGID', (coordMask & 3) !== 0, 'GRAS_CNTL COORD_MASK x/y', 2, false),
      zwCoord: val('HLSQ_CONTROL_4_REG', 'ZWCOORDREGID', (coordMask & 12) !== 0, 'GRAS_CNTL COORD_MASK z/w', 2, false),
      coordMask,
      face: val('HLSQ_CONTROL_2_REG', 'FACEREGID', rc1('FACENESS'), 'RB_RENDER_CONTROL1 FACENESS', 1, true),
      sampleId: val('HLSQ_CONTROL_2_REG', 'SAMPLEID', rc1('SAMPLEID'), 'RB_RENDER_CONTROL1 SAMPLEID', 1, true),
      sampleMask: val('HLSQ_CONTROL_2_REG', 'SAMPLEMASK', rc1('SAMPLEMASK'), 'RB_RENDER_CONTROL1 SAMPLEMASK', 1, false),
    },
    perSample,
    fragCoordSample: modeName === 'FRAGCOORD_SAMPLE',
  };
}

/** Gather the draw's job from the registers and loaded state; `missing` says why not. */
export function gatherDraw(cp: CommandProcessor, r: PacketRecord, params?: DrawParams): { job?: DrawJob; missing: string[] } {
  const R = new Regs(cp, cp.regsDb);
  const missing: string[] = [];
  let dp = params;
  if (!dp) for (const first of drawParamsList(cp, r, missing) ?? []) {
    dp = first;
    break;
  }
  if (!dp) {
    if (!missing.length) missing.push(`${r.name}: no draws (DRAW_COUNT 0)`);
    return { missing };
  }
  // CP_DRAW_INDIRECT_MULTI DST_OFF: the VS constant vec4 there is {draw_id, first_vertex, first_instance, 0}.
  if (dp.dstOff && dp.dstOff * 4 < gfxState(cp).vs.consts.length) gfxState(cp).vs.consts.set([dp.drawId ?? 0, (dp.vertexOffset ?? 0) >>> 0, dp.firstInstance ?? 0, 0].slice(0, Math.max(0, gfxState(cp).vs.consts.length - dp.dstOff * 4)), dp.dstOff * 4);
  const ini = decodeFields('vgt_draw_initiator_a4xx', dp.initiator, 0, cp.gen);
  const prim = R.e('pc_di_primtype', ini['PRIM_TYPE']!);
  const srcSel = R.e('pc_di_src_sel', ini['SOURCE_SELECT']!);
  const st = gfxState(cp);

  // Shaders: loaded state, else SP_xS_OBJ_START + SP_xS_INSTRLEN.
  const program = (stage: 'vs' | 'fs'): StageProgram | undefined => {
    const S = stage.toUpperCase();
    const instrlen = R.raw(`SP_${S}_INSTRLEN`);
    let words = st[stage].shader;
    if (!words && instrlen) {
      const addr = R.addr(`SP_${S}_OBJ_START`);
      const seg = cp.mem.find(addr, instrlen * 128);
      if (seg) words = new Uint32Array(seg.u8.slice(addr - seg.base, addr - seg.base + instrlen * 128).buffer);
      else missing.push(`${stage.toUpperCase()} shader at 0x${addr.toString(16)} not in memory`);
    }
    if (!words) return undefined;
    const cntl = stage === 'vs' ? 'HLSQ_VS_CNTL' : 'HLSQ_FS_CNTL';
    // Texture descriptors: an all-zero one is an unused slot; a texture outside memory is missing
    // (a TILE6_2 one reads GMEM: sp/tex.ts checks it against GMEM).
    st[stage].tex.forEach((d, k) => {
      if (!d || d.every((x) => x === 0) || isGmemTexture(d, cp.gen)) return;
      const t = resolveTexConst(d, cp.gen);
      if (!cp.mem.find(t.base, Math.max(1, t.size))) missing.push(`${S} texture ${k}: ${t.size} bytes at 0x${t.base.toString(16)} not in memory`);
    });
    return {
      textures: texState(cp, st[stage].tex, st[stage].samp, 'SP_BINDLESS_BASE'),
      gpuId: cp.gpuId,
      words,
      consts: st[stage].consts.slice(0, R.f(cntl, 'CONSTLEN') * 4),
      fullRegs: R.f(`SP_${S}_CTRL_REG0`, 'FULLREGFOOTPRINT'),
      halfRegs: R.f(`SP_${S}_CTRL_REG0`, 'HALFREGFOOTPRINT'),
      mem: cp.mem,
    };
  };
  const vsEnabled = R.f('HLSQ_VS_CNTL', 'ENABLED') === 1;
  const vs = vsEnabled ? program('vs') : undefined;
  if (!vs) {
    // A stream that never programmed the VS (compute-only or synthetic) is not run; one that
    // enabled the VS without any code is the illegal "draw with no shader loaded".
    if (vsEnabled && !missing.length) cp.report('adreno.sp.no-shader', 'error', `${r.name}: HLSQ_VS_CNTL ENABLED but no vertex shader (SP_VS_INSTRLEN ${R.raw('SP_VS_INSTRLEN')}, nothing loaded into SB6_VS_SHADER): the draw does nothing`);
    missing.push(vsEnabled ? 'vertex shader code' : 'vertex shader (HLSQ_VS_CNTL not enabled)');
    return { missing };
  }
  const fsEnabled = R.f('HLSQ_FS_CNTL', 'ENABLED') === 1;
  const fs = fsEnabled ? program('fs') : undefined;

  // VFD.
  // FETCH_CNT / DECODE_CNT are 6-bit fields over arrays of VFD_ATTRS registers: a count past
  // the array names registers that do not exist (undefined), so the draw is not run.
  let nFetch = R.f('VFD_CONTROL_0', 'FETCH_CNT');
  let nDecode = R.f('VFD_CONTROL_0', 'DECODE_CNT');
  for (const [what, n, arr] of [['FETCH_CNT', nFetch, 'VFD_FETCH[%].BASE'], ['DECODE_CNT', nDecode, 'VFD_DECODE[%].INSTR'], ['DECODE_CNT', nDecode, 'VFD_DEST_CNTL[%].INSTR']] as const) {
    if (n === 0 || hasReg(cp.regsDb, arr.replace('%', String(n - 1)))) continue;
    let len = 0;
    while (hasReg(cp.regsDb, arr.replace('%', String(len)))) len++;
    cp.report('adreno.vfd.count-beyond-array', 'error', `VFD_CONTROL_0 ${what} ${n} exceeds the ${len} ${arr.replace('[%]', '[]')} registers: the draw is undefined (not run)`);
    missing.push(`VFD_CONTROL_0 ${what} ${n} (past the ${len} registers)`);
    nFetch = Math.min(nFetch, len);
    nDecode = Math.min(nDecode, len);
  }
  const fetch = Array.from({ length: nFetch }, (_, i) => ({ base: R.addr(`VFD_FETCH[${i}].BASE`), size: R.raw(`VFD_FETCH[${i}].SIZE`), stride: R.raw(`VFD_FETCH[${i}].STRIDE`) }));
  const decode = Array.from({ length: nDecode }, (_, i) => {
    const n = `VFD_DECODE[${i}].INSTR`;
    return { idx: R.f(n, 'IDX'), offset: R.f(n, 'OFFSET'), instanced: R.f(n, 'INSTANCED') === 1, format: R.e('a6xx_format', R.f(n, 'FORMAT')), swap: R.f(n, 'SWAP'), float: R.f(n, 'FLOAT') === 1, stepRate: R.raw(`VFD_DECODE[${i}].STEP_RATE`) };
  });
  const dest = Array.from({ length: nDecode }, (_, i) => ({ writemask: R.f(`VFD_DEST_CNTL[${i}].INSTR`, 'WRITEMASK'), regid: R.f(`VFD_DEST_CNTL[${i}].INSTR`, 'REGID') }));
  decode.forEach((d, i) => {
    if (!vertexFormat(d.format)) missing.push(`VFD_DECODE[${i}] format ${d.format} (not modelled)`);
    if (d.idx >= nFetch) cp.report('adreno.vfd.fetch-index', 'error', `VFD_DECODE[${i}].INSTR IDX ${d.idx} names no fetch (VFD_CONTROL_0 FETCH_CNT ${nFetch}): the attribute is not fetched`);
    footprintCheck(cp, `VFD_DEST_CNTL[${i}] REGID`, dest[i]!.regid, 32 - Math.clz32(dest[i]!.writemask), vs.fullRegs, 'adreno.vfd.dest-beyond-footprint');
    const f = fetch[d.idx];
    if (f && !cp.mem.find(f.base, Math.max(1, f.size))) missing.push(`vertex buffer ${d.idx}: ${f.size} bytes at 0x${f.base.toString(16)} not in memory`);
  });
  const vfd: VfdState = {
    fetch,
    decode,
    dest,
    regVertexId: R.f('VFD_CONTROL_1', 'REGID4VTX'),
    regInstanceId: R.f('VFD_CONTROL_1', 'REGID4INST'),
    indexOffset: dp.vertexOffset ?? (R.raw('VFD_INDEX_OFFSET') | 0),
    instanceStart: dp.firstInstance ?? R.raw('VFD_INSTANCE_START_OFFSET'),
    addVertex: R.f('VFD_ADD_OFFSET', 'VERTEX') === 1,
    addInstance: R.f('VFD_ADD_OFFSET', 'INSTANCE') === 1,
  };

  // Index stream.
  let indices: IndexSource;
  if (srcSel === 'DI_SRC_SEL_AUTO_INDEX' || (srcSel === 'DI_SRC_SEL_AUTO_XFB' && r.name === 'CP_DRAW_AUTO')) indices = { kind: 'auto', first: 0, count: dp.count };
  else if (srcSel === 'DI_SRC_SEL_DMA') {
    const size = ([1, 2, 4] as const)[ini['INDEX_SIZE']!] ?? 4;
    const avail = Math.max(0, dp.maxIndices - dp.firstIndex);
    const addr = dp.indexBase + dp.firstIndex * size;
    const bytes = Math.min(avail, dp.count) * size;
    const seg = bytes ? cp.mem.find(addr, bytes) : null;
    if (bytes && !seg) missing.push(`index buffer: ${bytes} bytes at 0x${addr.toString(16)} not in memory`);
    indices = { kind: 'dma', size, count: dp.count, bytes: seg ? seg.u8.subarray(addr - seg.base, addr - seg.base + bytes) : new Uint8Array(0) };
    if (dp.count > avail) cp.report('adreno.pc.index-oob', 'warning', `${r.name}: ${dp.count} indices from FIRST_INDX ${dp.firstIndex} but MAX_INDICES ${dp.maxIndices}: the indices past it read 0`);
  } else {
    missing.push(`index source ${srcSel}`);
    return { missing };
  }

  // VS outputs and VPC.
  // OUT is a 6-bit count over SP_VS_OUT[] (two outputs a register) and SP_VS_VPC_DST[] (four):
  // a count past them names registers that do not exist, so the draw is not run.
  let nOut = R.f('SP_VS_PRIMITIVE_CNTL', 'OUT');
  for (const [arr, per] of [['SP_VS_OUT[%].REG', 2], ['SP_VS_VPC_DST[%].REG', 4]] as const) {
    if (nOut === 0 || hasReg(cp.regsDb, arr.replace('%', String((nOut - 1) / per | 0)))) continue;
    let len = 0;
    while (hasReg(cp.regsDb, arr.replace('%', String(len)))) len++;
    cp.report('adreno.vpc.out-count-beyond-array', 'error', `SP_VS_PRIMITIVE_CNTL OUT ${nOut} exceeds the ${len * per} outputs the ${len} ${arr.replace('[%]', '[]')} registers hold: the draw is undefined (not run)`);
    missing.push(`SP_VS_PRIMITIVE_CNTL OUT ${nOut} (past the ${len * per} outputs)`);
    nOut = Math.min(nOut, len * per);
  }
  const outs = vsOutputs(
    nOut,
    (i) => ({ a: [R.f(`SP_VS_OUT[${i}].REG`, 'A_REGID'), R.f(`SP_VS_OUT[${i}].REG`, 'A_COMPMASK')], b: [R.f(`SP_VS_OUT[${i}].REG`, 'B_REGID'), R.f(`SP_VS_OUT[${i}].REG`, 'B_COMPMASK')] }),
    (i) => R.raw(`SP_VS_VPC_DST[${i}].REG`),
  );
  outs.forEach((o, k) => footprintCheck(cp, `SP_VS_OUT[${k >> 1}] ${k & 1 ? 'B' : 'A'}_REGID`, o.regid, 32 - Math.clz32(o.compmask), vs.fullRegs, 'adreno.vpc.out-beyond-footprint'));
  const posLoc = R.f('VPC_VS_PACK', 'POSITIONLOC');
  if (!outs.some((o) => o.loc === posLoc && o.compmask === 0xf)) cp.report('adreno.vpc.no-position', 'error', `no VS output writes all of VPC_VS_PACK POSITIONLOC ${posLoc}..${posLoc + 3}: positions are undefined (read as 0)`);

  // GRAS.
  const samplesEnum = R.e('a3xx_msaa_samples', R.f('GRAS_RAS_MSAA_CNTL', 'SAMPLES'));
  const nSamples = ({ MSAA_ONE: 1, MSAA_TWO: 2, MSAA_FOUR: 4, MSAA_EIGHT: 8 } as Record<string, number>)[samplesEnum] ?? 1;
  let samplePos = STANDARD_SAMPLES[nSamples];
  if (R.f('RB_SAMPLE_CONFIG', 'LOCATION_ENABLE')) {
    samplePos = Array.from({ length: nSamples }, (_, s) => {
      const reg = `RB_SAMPLE_LOCATION_${s >> 2}`;
      // fixed:4 fields: 0..15/16 from the pixel's top-left corner.
      return [R.f(reg, `SAMPLE_${s & 3}_X`) / 16 - 0.5, R.f(reg, `SAMPLE_${s & 3}_Y`) / 16 - 0.5] as const;
    });
  }
  if (!samplePos) {
    missing.push(`${nSamples}x MSAA with the standard positions (not modelled)`);
    return { missing };
  }
  const sc = (n: string, sep: string): Rect => ({ x0: R.f(`${n}${sep}TL`, 'X'), y0: R.f(`${n}${sep}TL`, 'Y'), x1: R.f(`${n}${sep}BR`, 'X'), y1: R.f(`${n}${sep}BR`, 'Y') });
  const scissor = intersect(sc('GRAS_SC_SCREEN_SCISSOR[0]', '.'), sc('GRAS_SC_VIEWPORT_SCISSOR[0]', '.'), sc('GRAS_SC_WINDOW_SCISSOR', '_'));

  // FS.
  // SP_FS_OUTPUT_CNTL1 / RB_FS_OUTPUT_CNTL1 MRT are 4-bit counts over 8-entry arrays: past them
  // the draw names registers that do not exist (undefined), so it is not run.
  let fsOutN = R.f('SP_FS_OUTPUT_CNTL1', 'MRT');
  for (const [cntl, arr] of [['SP_FS_OUTPUT_CNTL1', 'SP_FS_OUTPUT[%].REG'], ['RB_FS_OUTPUT_CNTL1', 'RB_MRT[%].BASE']] as const) {
    const n = R.f(cntl, 'MRT');
    const len = arrayLength(cp, arr);
    if (n <= len) continue;
    cp.report('adreno.rb.mrt-count-beyond-array', 'error', `${cntl} MRT ${n} exceeds the ${len} ${arr.replace('[%]', '[]')} registers: the draw is undefined (not run)`);
    missing.push(`${cntl} MRT ${n} (past the ${len} registers)`);
    if (cntl === 'SP_FS_OUTPUT_CNTL1') fsOutN = len;
  }
  // Dual-source blending reads a second output (SP_FS_OUTPUT[1]) whatever the MRT count.
  if (R.f('RB_FS_OUTPUT_CNTL0', 'DUAL_COLOR_IN_ENABLE')) fsOutN = Math.max(fsOutN, 2);
  const mrt = Array.from({ length: fsOutN }, (_, i) => ({ regid: R.f(`SP_FS_OUTPUT[${i}].REG`, 'REGID'), half: R.f(`SP_FS_OUTPUT[${i}].REG`, 'HALF_PRECISION') === 1 }));
  if (fs) mrt.forEach((m, i) => footprintCheck(cp, `SP_FS_OUTPUT[${i}] REGID`, m.regid, 4, fs.fullRegs, 'adreno.sp.fs-out-beyond-footprint'));
  const pre = fs ? fsPreload(cp, R, fs.fullRegs, fs.halfRegs, missing) : { preload: { ijPersp: 0xfc, ijLinear: 0xfc }, perSample: false, fragCoordSample: false };

  // RB.
  const face = (bf: boolean): StencilFace => ({
    func: R.f('RB_STENCIL_CONTROL', bf ? 'FUNC_BF' : 'FUNC'),
    fail: R.f('RB_STENCIL_CONTROL', bf ? 'FAIL_BF' : 'FAIL'),
    zpass: R.f('RB_STENCIL_CONTROL', bf ? 'ZPASS_BF' : 'ZPASS'),
    zfail: R.f('RB_STENCIL_CONTROL', bf ? 'ZFAIL_BF' : 'ZFAIL'),
    ref: R.f('RB_STENCILREF', bf ? 'BFREF' : 'REF'),
    mask: R.f('RB_STENCILMASK', bf ? 'BFMASK' : 'MASK'),
    wrmask: R.f('RB_STENCILWRMASK', bf ? 'BFWRMASK' : 'WRMASK'),
  });
  const zc = depthClamp(cp, R);
  const rb: RbState = {
    ds: {
      zTest: R.f('RB_DEPTH_CNTL', 'Z_TEST_ENABLE') === 1,
      zWrite: R.f('RB_DEPTH_CNTL', 'Z_WRITE_ENABLE') === 1,
      zFunc: R.f('RB_DEPTH_CNTL', 'ZFUNC'),
      stencil: R.f('RB_STENCIL_CONTROL', 'STENCIL_ENABLE') === 1,
      ...(R.f('RB_DEPTH_CNTL', 'Z_BOUNDS_ENABLE') ? { zBounds: [R.float('RB_Z_BOUNDS_MIN'), R.float('RB_Z_BOUNDS_MAX')] as const } : {}),
      ...(zc.rb ? { zClamp: zc.rb } : {}),
      twoSided: R.f('RB_STENCIL_CONTROL', 'STENCIL_ENABLE_BF') === 1,
      front: face(false),
      back: face(true),
    },
    mrt: Array.from({ length: 8 }, (_, i) => {
      const c = `RB_MRT[${i}].CONTROL`;
      const b = `RB_MRT[${i}].BLEND_CONTROL`;
      return { ...(R.f(c, 'ROP_ENABLE') ? { rop: R.f(c, 'ROP_CODE') } : {}), blend: R.f(c, 'BLEND') === 1, componentEnable: R.f(c, 'COMPONENT_ENABLE'), rgbSrc: R.f(b, 'RGB_SRC_FACTOR'), rgbOp: R.f(b, 'RGB_BLEND_OPCODE'), rgbDst: R.f(b, 'RGB_DEST_FACTOR'), aSrc: R.f(b, 'ALPHA_SRC_FACTOR'), aOp: R.f(b, 'ALPHA_BLEND_OPCODE'), aDst: R.f(b, 'ALPHA_DEST_FACTOR') };
    }),
    blendConst: [R.float('RB_BLEND_RED_F32'), R.float('RB_BLEND_GREEN_F32'), R.float('RB_BLEND_BLUE_F32'), R.float('RB_BLEND_ALPHA_F32')],
    sampleMask: R.f('RB_BLEND_CNTL', 'SAMPLE_MASK') || 0xffff,
    samples: nSamples,
    ...rbExtras(cp, R),
  };
  if (rb.ds.stencil && R.e('a6xx_depth_format', R.f('RB_DEPTH_BUFFER_INFO', 'DEPTH_FORMAT')) === 'DEPTH6_16' && !R.f('RB_STENCIL_INFO', 'SEPARATE_STENCIL'))
    cp.report('adreno.rb.d16-stencil', 'error', 'stencil test with DEPTH6_16 and no separate stencil buffer: D16_UNORM_S8_UINT is unsupported (seed "Depth Formats"); no stencil is kept');

  // Guardband (gras/guardband.ts): clip planes at |x| <= HORZ w and |y| <= VERT w.
  const viewport = { xoffset: R.float('GRAS_CL_VPORT[0].XOFFSET'), xscale: R.float('GRAS_CL_VPORT[0].XSCALE'), yoffset: R.float('GRAS_CL_VPORT[0].YOFFSET'), yscale: R.float('GRAS_CL_VPORT[0].YSCALE'), zoffset: R.float('GRAS_CL_VPORT[0].ZOFFSET'), zscale: R.float('GRAS_CL_VPORT[0].ZSCALE') };
  const guardband = { x: guardbandValue(R.f('GRAS_CL_GUARDBAND_CLIP_ADJ', 'HORZ')), y: guardbandValue(R.f('GRAS_CL_GUARDBAND_CLIP_ADJ', 'VERT')) };
  const job: DrawJob = {
    prim,
    indices,
    instances: dp.instances,
    restart: R.f('PC_PRIMITIVE_CNTL_0', 'PRIMITIVE_RESTART') === 1,
    restartIndex: R.raw('PC_RESTART_INDEX'),
    provokingLast: R.f('PC_PRIMITIVE_CNTL_0', 'PROVOKING_VTX_LAST') === 1,
    vfd,
    read: (addr, len) => cp.mem.readBytes(addr, len),
    vs,
    vsOutputs: outs,
    posLoc,
    rasterDiscard: R.f('PC_RASTER_CNTL', 'DISCARD') === 1,
    clip: { clipDisable: R.f('GRAS_CL_CNTL', 'CLIP_DISABLE') === 1, znearDisable: R.f('GRAS_CL_CNTL', 'ZNEAR_CLIP_DISABLE') === 1, zfarDisable: R.f('GRAS_CL_CNTL', 'ZFAR_CLIP_DISABLE') === 1, zeroOneZ: R.f('GRAS_CL_CNTL', 'ZERO_GB_SCALE_Z') === 1, guardband },
    viewport,
    cullFront: R.f('GRAS_SU_CNTL', 'CULL_FRONT') === 1,
    cullBack: R.f('GRAS_SU_CNTL', 'CULL_BACK') === 1,
    frontCw: R.f('GRAS_SU_CNTL', 'FRONT_CW') === 1,
    pointSize: Math.max(1, (R.raw('GRAS_SU_POINT_SIZE') << 16 >> 16) / 16),
    lineHalfWidth: Math.max(0.5, R.f('GRAS_SU_CNTL', 'LINEHALFWIDTH') / 4),
    ...(R.f('GRAS_SU_CNTL', 'POLY_OFFSET') ? { polyOffset: { scale: R.float('GRAS_SU_POLY_OFFSET_SCALE'), units: R.float('GRAS_SU_POLY_OFFSET_OFFSET'), clamp: R.float('GRAS_SU_POLY_OFFSET_OFFSET_CLAMP'), format: R.e('a6xx_depth_format', R.f('GRAS_SU_DEPTH_BUFFER_INFO', 'DEPTH_FORMAT')) } } : {}),
    ...(zc.gras ? { zClamp: zc.gras } : {}),
    scissor,
    samplePos,
    fs,
    fsWave: R.e('a6xx_threadsize', R.f('SP_FS_CTRL_REG0', 'THREADSIZE')) === 'THREAD128' ? 128 : 64,
    fsPreload: pre.preload,
    perSample: pre.perSample,
    fragCoordSample: pre.fragCoordSample,
    fsOutputs: { mrt, depthRegid: R.f('RB_FS_OUTPUT_CNTL0', 'FRAG_WRITES_Z') ? R.f('SP_FS_OUTPUT_CNTL0', 'DEPTH_REGID') : 0xfc, sampleMaskRegid: fsSampleMaskOut(cp, R) },
    varDisable: Uint32Array.from([0, 1, 2, 3].map((i) => R.raw(`VPC_VAR[${i}].DISABLE`))),
    rb,
    budget: drawBudget(cp),
    label: `${r.name}${dp.drawId !== undefined ? ` draw ${dp.drawId}` : ''} at 0x${r.iova.toString(16)}`,
  };
  return { job, missing };
}

const TILE: Record<string, TileMode | undefined> = { TILE6_LINEAR: 'linear', TILE6_3: 'tile6_3' };

/** The sysmem render targets the RB registers name (undefined entries: not written). */
export function sysmemTargets(cp: CommandProcessor, job: DrawJob, missing: string[]): RbTargets {
  const R = new Regs(cp, cp.regsDb);
  const samples = job.rb.samples;
  const colors: (ColorSurface | undefined)[] = [];
  const nMrt = Math.min(R.f('RB_FS_OUTPUT_CNTL1', 'MRT'), arrayLength(cp, 'RB_MRT[%].BASE'));
  const h = job.scissor.y1 + 1;
  for (let i = 0; i < nMrt; i++) {
    const info = `RB_MRT[${i}].BUF_INFO`;
    const fmtV = R.f(info, 'COLOR_FORMAT');
    const f: Fmt6 | undefined = fmt6(fmtV);
    const tile = TILE[R.e('a6xx_tile_mode', R.f(info, 'COLOR_TILE_MODE'))];
    const swap = R.f(info, 'COLOR_SWAP');
    if (!f || !tile || swap > 1) {
      missing.push(`MRT${i}: format ${R.e('a6xx_format', fmtV)}, ${R.e('a6xx_tile_mode', R.f(info, 'COLOR_TILE_MODE'))}, swap ${swap} (not modelled)`);
      colors.push(undefined);
      continue;
    }
    const base = R.addr(`RB_MRT[${i}].BASE`);
    const pitch = R.raw(`RB_MRT[${i}].PITCH`) * 64; // the register holds pitch >> 6
    if (!cp.mem.find(base, Math.max(1, pitch * h))) missing.push(`MRT${i}: ${pitch * h} bytes at 0x${base.toString(16)} not in memory`);
    const sw = swap === 1 ? (c: [number, number, number, number]) => [c[2], c[1], c[0], c[3]] as [number, number, number, number] : (c: [number, number, number, number]) => c;
    if ((R.f('RB_RENDER_CNTL', 'FLAG_MRTS') >> i) & 1) {
      // UBWC (rb/ubwc-target.ts): TILE6_3 pixels plus the RB_MRT_FLAG_BUFFER flag plane.
      const ecpp = f.cpp * samples;
      if (tile !== 'tile6_3' || (ecpp !== 4 && ecpp !== 8 && ecpp !== 16)) {
        missing.push(`MRT${i}: RB_RENDER_CNTL.FLAG_MRTS enables UBWC on a ${tile === 'tile6_3' ? `${ecpp}-byte-per-pixel surface (modelled: 4, 8, 16)` : 'TILE6_LINEAR surface (seed: "ubwc requires tiling")'}`);
        colors.push(undefined);
        continue;
      }
      const flags = { base: R.addr(`RB_MRT_FLAG_BUFFER[${i}].ADDR`), pitch: R.f(`RB_MRT_FLAG_BUFFER[${i}].PITCH`, 'PITCH') };
      for (const pr of checkFlagBuffer(cp.mem, { what: `MRT${i}`, base, pitch, ecpp, flagBase: flags.base, flagPitch: flags.pitch, width: job.scissor.x1 + 1, height: h })) {
        cp.report(pr.id, 'error', pr.message);
        if (pr.id === 'adreno.rb.ubwc-flag-unmapped') missing.push(pr.message);
      }
      colors.push(ubwcColor(cp, cp.tile6, { base, pitch, samples, flags }, f, sw));
      continue;
    }
    colors.push(sysmemColor({ mem: cp.mem, base, pitch, cpp: f.cpp, samples, tile, tile6: cp.tile6 }, f, sw));
  }
  let depth: DepthSurface | undefined;
  let stencil: StencilSurface | undefined;
  const dfmt = R.e('a6xx_depth_format', R.f('RB_DEPTH_BUFFER_INFO', 'DEPTH_FORMAT'));
  if (dfmt === 'DEPTH6_16' || dfmt === 'DEPTH6_24_8' || dfmt === 'DEPTH6_32') {
    const cpp = dfmt === 'DEPTH6_16' ? 2 : 4;
    const base = R.addr('RB_DEPTH_BUFFER_BASE');
    const pitch = R.raw('RB_DEPTH_BUFFER_PITCH') * 64;
    if (!cp.mem.find(base, Math.max(1, pitch * h))) missing.push(`depth buffer: ${pitch * h} bytes at 0x${base.toString(16)} not in memory`);
    const d = R.f('RB_RENDER_CNTL', 'FLAG_DEPTH') ? ubwcDepthTarget(cp, R, { base, pitch, cpp, samples, width: job.scissor.x1 + 1, height: h, format: dfmt }, missing) : sysmemDepth({ mem: cp.mem, base, pitch, cpp, samples, tile: 'linear', tile6: cp.tile6 }, dfmt);
    if (d) depth = d;
    if (d && dfmt === 'DEPTH6_24_8') stencil = d;
  }
  if (R.f('RB_STENCIL_INFO', 'SEPARATE_STENCIL')) {
    const base = R.addr('RB_STENCIL_BUFFER_BASE');
    const pitch = R.raw('RB_STENCIL_BUFFER_PITCH') * 64;
    if (!cp.mem.find(base, Math.max(1, pitch * h))) missing.push(`stencil buffer: ${pitch * h} bytes at 0x${base.toString(16)} not in memory`);
    stencil = sysmemStencil({ mem: cp.mem, base, pitch, cpp: 1, samples, tile: 'linear', tile6: cp.tile6 });
  }
  return { colors, ...(depth ? { depth } : {}), ...(stencil ? { stencil } : {}) };
}

/**
 * A UBWC depth buffer (rb/ubwc-target.ts `ubwcDepth`): RB_RENDER_CNTL.FLAG_DEPTH, the flag plane at
 * RB_DEPTH_FLAG_BUFFER_BASE with RB_DEPTH_FLAG_BUFFER_PITCH bytes per block row, the TILE6_3 pixel
 * plane at RB_DEPTH_BUFFER_BASE (UBWC requires tiling; RB_DEPTH_BUFFER_INFO has no tile mode on
 * a6xx). The flag buffer is checked as the MRTs' are; on gen1 / gen2 (a615..a640, a680) depth
 * bounds without the depth test on a UBWC buffer is turnip's depth_bounds_require_depth_test_quirk.
 */
function ubwcDepthTarget(cp: CommandProcessor, R: Regs, d: { base: number; pitch: number; cpp: number; samples: number; width: number; height: number; format: DepthSurface['format'] }, missing: string[]): (DepthSurface & StencilSurface) | undefined {
  const ecpp = d.cpp * d.samples;
  if (ecpp !== 4 && ecpp !== 8 && ecpp !== 16) {
    missing.push(`depth buffer: RB_RENDER_CNTL.FLAG_DEPTH enables UBWC on a ${ecpp}-byte-per-pixel surface (modelled: 4, 8, 16)`);
    return undefined;
  }
  const flags = { base: R.addr('RB_DEPTH_FLAG_BUFFER_BASE'), pitch: R.f('RB_DEPTH_FLAG_BUFFER_PITCH', 'PITCH') };
  for (const pr of checkFlagBuffer(cp.mem, { what: 'depth buffer', base: d.base, pitch: d.pitch, ecpp, flagBase: flags.base, flagPitch: flags.pitch, width: d.width, height: d.height })) {
    cp.report(pr.id, 'error', pr.message);
    if (pr.id === 'adreno.rb.ubwc-flag-unmapped') missing.push(pr.message);
  }
  const gpu = cp.gpuId;
  if (gpu >= 615 && gpu < 650 || gpu === 680) {
    if (R.f('RB_DEPTH_CNTL', 'Z_BOUNDS_ENABLE') && !R.f('RB_DEPTH_CNTL', 'Z_TEST_ENABLE'))
      cp.report('adreno.rb.ubwc-depth-bounds-without-test', 'warning', `a${gpu}: RB_DEPTH_CNTL Z_BOUNDS_ENABLE without Z_TEST_ENABLE on a UBWC depth buffer: these GPUs need the depth test on for the bounds test (turnip enables it with FUNC_ALWAYS); the result is unpredictable (the model applies the bounds)`);
  }
  return ubwcDepth(cp, cp.tile6, { base: d.base, pitch: d.pitch, samples: d.samples, flags }, d.format);
}

/** Renders a draw in GMEM / BINNING mode instead of the built-in tiled path (a hook per CP). */
export type TiledDrawHook = (cp: CommandProcessor, r: PacketRecord) => void;
const TILED = new WeakMap<CommandProcessor, TiledDrawHook>();
/** Install a renderer of GMEM / BINNING draws on a CP (without one, handlers-gmem.ts's path runs). */
export function setTiledDrawHook(cp: CommandProcessor, hook: TiledDrawHook | undefined): void {
  if (hook) TILED.set(cp, hook);
  else TILED.delete(cp);
}

/**
 * Execute a draw packet (called by the draw handlers before the draw is recorded): SYSMEM into
 * memory, GMEM into the GMEM buffers (handlers-gmem.ts); in BINNING the triangles' screen boxes
 * are returned for the VSC and nothing is drawn. An installed tiled hook replaces the GMEM and
 * BINNING paths.
 */
export function execDraw(cp: CommandProcessor, r: PacketRecord, vsc?: VscReader): PrimBox[] | undefined {
  const hook = cp.mode !== 'SYSMEM' ? TILED.get(cp) : undefined;
  if (hook) {
    hook(cp, r);
    return undefined;
  }
  const runs = drawRuns(cp);
  const missing: string[] = [];
  const list = drawParamsList(cp, r, missing);
  if (!list) {
    if (cp.mode !== 'BINNING') {
      cp.report('adreno.cp.draw-not-run', 'info', `${r.name} not executed: ${missing.join('; ')}`);
      runs.push({ iova: r.iova, packet: r.name, ran: false, missing });
    }
    return undefined;
  }
  const boxes: PrimBox[] = [];
  // Primitives before this sub-draw (the binning pass numbers them across the packet's draws).
  let base = 0;
  let ranAll = true;
  for (const dp of list) {
    const name = dp.drawId !== undefined ? `${r.name} draw ${dp.drawId}` : r.name;
    if (cp.mode === 'BINNING') {
      const { job, missing } = gatherDraw(cp, r, dp);
      if (!job || missing.length) return undefined;
      // Stream-out runs in the binning pass (fd6 / turnip enable it there, not in the bins).
      const so = drawStreamOut(cp, r, job, name, dp.drawId);
      const res = runDrawJob({ ...binningJob(job, boxes, base), ...(so ? { streamOut: so.emit } : {}) }, { colors: [] }, cp.diag);
      so?.finish();
      base += res.assembled;
      fillBoxes(boxes, base);
      continue;
    }
    const { job, missing } = gatherDraw(cp, r, dp);
    const targets = job ? (cp.mode === 'GMEM' ? gmemTargets(cp, job, missing) : sysmemTargets(cp, job, missing)) : undefined;
    if (!job || !targets || missing.length) {
      cp.report('adreno.cp.draw-not-run', 'info', `${name} not executed: ${missing.join('; ')}`);
      runs.push({ iova: r.iova, packet: r.name, ran: false, missing });
      ranAll = false;
      continue;
    }
    try {
      const lrz = lrzHook(cp, job, targets, cp.lrzDraw);
      // GMEM with a visibility stream: primitives outside this bin are skipped.
      const from = base;
      const visible = vsc?.prims ? (k: number): boolean => vsc.primVisible(from + k) : undefined;
      // Sysmem: an FS sampling what the draw writes runs as GRAS_SC_CNTL SINGLE_PRIM_MODE says (handlers-feedback.ts).
      // GMEM: a TILE6_2 texture of a buffer the draw writes in GMEM is the loop; a texture of a
      // sysmem image the pass resolves is checked at the resolve.
      const fjob = cp.mode === 'SYSMEM' ? withFeedback(cp, job, name) : cp.mode === 'GMEM' ? withGmemFeedback(cp, job, name) : job;
      const so = drawStreamOut(cp, r, job, name, dp.drawId);
      const result = runDrawJob({ ...fjob, ...(lrz ? { lrz } : {}), ...(visible ? { visible } : {}), ...(so ? { streamOut: so.emit } : {}) }, targets, cp.diag);
      so?.finish();
      for (const c of targets.colors) if (isUbwcColor(c)) c.finish();
      if (isUbwcDepth(targets.depth)) targets.depth.finish();
      base += result.assembled;
      cp.vscSkippedPrims += result.binSkipped;
      if (result.fetchOutOfBounds) cp.report('adreno.vfd.fetch-oob', 'warning', `${name}: ${result.fetchOutOfBounds} attribute fetch(es) past VFD_FETCH SIZE read 0`);
      runs.push({ iova: r.iova, packet: r.name, ran: true, missing, result });
    } catch (e) {
      // Over the run's budget: the whole run stops with the one line naming the limit.
      if (!(e instanceof InputError) || e instanceof DrawBudgetError || cp.computeErrors === 'throw') throw e;
      ranAll = false;
      cp.report('adreno.cp.draw-failed', 'error', `${name}: the SP stopped: ${e.message}`);
      runs.push({ iova: r.iova, packet: r.name, ran: false, missing: [e.message] });
    }
  }
  if (missing.length && cp.mode !== 'BINNING') {
    // A CP_DRAW_INDIRECT_MULTI sub-draw whose parameters are not in memory ends the packet.
    cp.report('adreno.cp.draw-not-run', 'info', `${r.name} not executed from there: ${missing.join('; ')}`);
    runs.push({ iova: r.iova, packet: r.name, ran: false, missing });
    ranAll = false;
  }
  if (vsc?.prims && ranAll && base !== vsc.prims.count)
    cp.report('adreno.vsc.prim-count', 'warning', `${r.name} at 0x${r.iova.toString(16)}: the visibility stream has ${vsc.prims.count} primitive(s) for this draw, the render pass assembled ${base}: primitives past the stream are drawn everywhere`);
  return cp.mode === 'BINNING' ? boxes : undefined;
}
