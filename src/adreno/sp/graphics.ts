/**
 * The SP's graphics stages: the VS over vertices and the FS over fragments, on the ir3 core
 * (decode.ts / exec.ts) with what HLSQ preloads. VS lanes start with the VFD's input registers
 * (vfd/fetch.ts); their outputs are read from registers at the end (SP_VS_OUT / SP_VS_VPC_DST,
 * vpc/varyings.ts). FS lanes start with i/j at the registers HLSQ_CONTROL_3/4_REG name; varyings
 * come from the primitive's vertices through bary.f (interpolated with the lane's i/j: weights
 * 1 - i - j, i, j of the primitive's vertices 0, 1, 2) and flat.b (the provoking vertex). A lane
 * that `kill`s is discarded; colour outputs are read from SP_FS_OUTPUT[i].REG.
 *
 * bary.f / flat.b are bound here on each FS (they need the primitive), over whatever exec.ts binds.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import { InputError } from '../../core/errors.js';
import { decodeShader, f32ToF16, f16ToF32, type Instr } from './decode.js';
import { bind, step, type SpContext } from './exec.js';
import { SyncChecker } from './check.js';
import { SHARED_HI, SHARED_LO, Wave } from './wave.js';

/** A shader as HLSQ hands it over: code, const file, register footprint. */
export interface StageProgram {
  readonly gpuId: number;
  readonly words: Uint32Array;
  readonly consts: Uint32Array;
  readonly fullRegs: number;
  readonly halfRegs: number;
  /** Memory for ldg/stg, texture views. */
  readonly mem?: SpContext['mem'];
  readonly textures?: SpContext['textures'];
  readonly ubo?: SpContext['ubo'];
}

export interface StageStats {
  waves: number;
  instructions: number;
  fiberInstructions: number;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const fromBits = (b: number): number => {
  u32[0] = b;
  return f32[0]!;
};
const toBits = (x: number): number => {
  f32[0] = x;
  return u32[0]!;
};

/** Read full component n of a lane (shared registers r48..r55 live in lane 0). */
export function readComp(w: Wave, n: number, lane: number): number {
  if (n >= SHARED_LO && n < SHARED_HI) return w.regs[n * w.lanes]!;
  return w.regs[n * w.lanes + lane]!;
}
function writeComp(w: Wave, n: number, lane: number, v: number): void {
  w.regs[n * w.lanes + lane] = v;
}
function writeHalf(w: Wave, h: number, lane: number, v: number): void {
  w.regs16[((h >> 1) * w.lanes + lane) * 2 + (h & 1)] = v & 0xffff;
}
function readHalf(w: Wave, h: number, lane: number): number {
  return w.regs16[((h >> 1) * w.lanes + lane) * 2 + (h & 1)]!;
}

interface Prepared {
  readonly code: Instr[];
  readonly ctx: SpContext;
  readonly checker: SyncChecker | undefined;
}

function prepare(p: StageProgram, diag: Diagnostics, check: boolean, quads = false): Prepared {
  const code = decodeShader(p.words, p.gpuId);
  const missing = bind(code).filter((n) => n !== 'bary.f' && n !== 'flat.b');
  if (missing.length) throw new InputError(`ir3: not implemented: ${missing.join(' ')}`);
  const ctx: SpContext = {
    consts: p.consts.slice(),
    ibo: [],
    ubo: p.ubo ?? [],
    mem: p.mem,
    textures: p.textures,
    shared: new DataView(new ArrayBuffer(0)),
    diag,
    maxReg: p.fullRegs,
    maxHalf: p.halfRegs,
    barGen: 0,
    quads,
  };
  return { code, ctx, checker: check ? new SyncChecker(diag, p.fullRegs, ctx.consts.length) : undefined };
}

/** Run one wave to completion (no barriers in graphics stages). */
function runWave(w: Wave, pr: Prepared, budget: number, stats: StageStats): void {
  const { code, ctx, checker } = pr;
  for (;;) {
    const pc = w.select();
    if (pc < 0 || pc >= code.length) break;
    const i = code[pc]!;
    w.fiberInstrs += w.nActive;
    checker?.before(w, i);
    step(w, i, ctx);
    checker?.after(w, i);
    if (w.issued > budget) throw new InputError(`ir3: wave exceeds the instruction budget (${budget}) at pc ${pc}: a runaway loop?`);
  }
  stats.waves++;
  stats.instructions += w.issued;
  stats.fiberInstructions += w.fiberInstrs;
}

const BUDGET = 1 << 20;

/**
 * Run the VS on vertices: `inputs[v]` are the register writes of vertex v (component, dword);
 * returns, per vertex, the dwords of the components `outComps` asks for.
 */
export function runVertexShader(p: StageProgram, inputs: readonly (readonly (readonly [number, number])[])[], outComps: readonly number[], diag: Diagnostics, stats: StageStats, opts: { waveSize?: number; check?: boolean } = {}): Uint32Array[] {
  const pr = prepare(p, diag, opts.check ?? true);
  const L = opts.waveSize ?? 64;
  const out: Uint32Array[] = [];
  for (let base = 0; base < inputs.length; base += L) {
    const w = new Wave(L, 0, stats.waves);
    const n = Math.min(L, inputs.length - base);
    for (let l = 0; l < n; l++) {
      w.pc[l] = 0;
      for (const [c, v] of inputs[base + l]!) writeComp(w, c, l, v);
    }
    runWave(w, pr, BUDGET, stats);
    for (let l = 0; l < n; l++) {
      const o = new Uint32Array(outComps.length);
      outComps.forEach((c, k) => (o[k] = readComp(w, c, l)));
      out.push(o);
    }
  }
  return out;
}

/** The varyings one FS lane interpolates: its primitive's three vertices (VPC locations) and the provoking one. */
export interface LaneVaryings {
  readonly v: readonly [Float32Array, Float32Array, Float32Array];
  readonly provoking: Float32Array;
}

/**
 * What HLSQ loads into an FS lane's registers before it starts (a3xx_regid component numbers,
 * 0xfc = none; the enables of GRAS_CNTL / RB_RENDER_CONTROL0/1 are applied by the caller):
 * HLSQ_CONTROL_3_REG / _4_REG i/j pairs, XYCOORDREGID / ZWCOORDREGID (RB_RENDER_CONTROL0
 * COORD_MASK says which of x, y, z, w), and HLSQ_CONTROL_2_REG FACEREGID / SAMPLEID (half
 * registers) / SAMPLEMASK (full).
 */
export interface FsPreload {
  readonly ijPersp: number;
  readonly ijLinear: number;
  readonly ijPerspCentroid?: number;
  readonly ijLinearCentroid?: number;
  readonly ijPerspSample?: number;
  readonly ijLinearSample?: number;
  readonly xyCoord?: number;
  readonly zwCoord?: number;
  /** COORD_MASK: bit 0..3 = x, y, z, w. */
  readonly coordMask?: number;
  readonly face?: number;
  readonly sampleId?: number;
  readonly sampleMask?: number;
}

export interface FsLane {
  readonly ijPersp: readonly [number, number];
  readonly ijLinear: readonly [number, number];
  readonly ijPerspCentroid?: readonly [number, number];
  readonly ijLinearCentroid?: readonly [number, number];
  readonly ijPerspSample?: readonly [number, number];
  readonly ijLinearSample?: readonly [number, number];
  /** Window x, y in 1/16 pixel (unsigned, as the hardware hands them: x * 16 + 8 at a pixel centre). */
  readonly xy?: readonly [number, number];
  /** Window z and 1/w (floats). */
  readonly zw?: readonly [number, number];
  readonly front?: boolean;
  readonly sampleId?: number;
  readonly sampleMask?: number;
  readonly vary: LaneVaryings;
}

/** What a fragment lane leaves: killed, or its output dwords (4 per render target, as f32 bits). */
export interface FsResult {
  readonly killed: boolean;
  readonly colors: Float32Array[];
  /** Written depth (SP_FS_OUTPUT_CNTL0 DEPTH_REGID), if any. */
  readonly depth?: number;
  /** Written sample mask (ANDed with the coverage), if any. */
  readonly sampleMask?: number;
}

export interface FsOutputs {
  /** Per render target: the output register (component number) and whether it is half precision. */
  readonly mrt: readonly { readonly regid: number; readonly half: boolean }[];
  readonly depthRegid: number;
  /** Written coverage (SP_FS_OUTPUT_CNTL0 SAMPMASK_REGID with RB_FS_OUTPUT_CNTL0 FRAG_WRITES_SAMPMASK), 0xfc = none. */
  readonly sampleMaskRegid?: number;
}

/** Whether a VPC location is disabled for the FS (VPC_VAR[i].DISABLE bit = location). */
export type VarDisabled = (loc: number) => boolean;

/** Run the FS over lanes (one per fragment), in waves of `waveSize` (SP_FS_CTRL_REG0 THREADSIZE). */
export function runFragmentShader(p: StageProgram, pre: FsPreload, lanes: readonly FsLane[], outputs: FsOutputs, disabled: VarDisabled, diag: Diagnostics, stats: StageStats, opts: { waveSize?: number; check?: boolean } = {}): FsResult[] {
  const pr = prepare(p, diag, opts.check ?? true, true);
  const L = opts.waveSize ?? 64;
  const results: FsResult[] = [];
  let waveLanes: readonly FsLane[] = [];
  let killed = new Uint8Array(L);
  let disabledReported = false;
  const vary = (lane: number, loc: number, v: number): number => {
    if (loc < 0 || loc >= 128 || disabled(loc)) {
      if (!disabledReported) {
        disabledReported = true;
        diag.report({ id: 'adreno.vpc.varying-disabled', severity: 'warning', where: { location: loc }, message: `the FS reads VPC location ${loc}, which VPC_VAR_DISABLE disables (or no vertex output fills): it reads 0`, seed: '004_0583f9f0ffcacefd.txt' });
      }
      return 0;
    }
    const lv = waveLanes[lane]!.vary;
    return v < 0 ? lv.provoking[loc]! : lv.v[v]![loc]!;
  };
  const baryF = (w: Wave, i: Instr): void => {
    const [s1, s2] = i.src as [Instr['src'][number], Instr['src'][number]];
    for (let k = 0; k <= i.rpt; k++) {
      const loc = s1.imm + (s1.r ? k : 0);
      for (let l = 0; l < w.lanes; l++) {
        if (!w.active[l]) continue;
        const ii = fromBits(readComp(w, s2.n, l));
        const jj = fromBits(readComp(w, s2.n + 1, l));
        const x = Math.fround(vary(l, loc, 0) * (1 - ii - jj) + vary(l, loc, 1) * ii + vary(l, loc, 2) * jj);
        if (i.dst.half) w.regs16[(((i.dst.n + k) >> 1) * w.lanes + l) * 2 + ((i.dst.n + k) & 1)] = f32ToF16(x);
        else writeComp(w, i.dst.n + k, l, toBits(x));
      }
    }
  };
  const flatB = (w: Wave, i: Instr): void => {
    const s1 = i.src[0]!;
    for (let k = 0; k <= i.rpt; k++) {
      const loc = s1.imm + (s1.r ? k : 0);
      for (let l = 0; l < w.lanes; l++) if (w.active[l]) writeComp(w, i.dst.n + k, l, toBits(vary(l, loc, -1)));
    }
  };
  for (const i of pr.code) {
    if (i.name === 'bary.f') i.exec = baryF as unknown as Instr['exec'];
    else if (i.name === 'flat.b') i.exec = flatB as unknown as Instr['exec'];
    else if (i.name === 'kill') {
      const orig = i.exec as unknown as (w: Wave, i: Instr, c: SpContext) => void;
      i.exec = ((w: Wave, ins: Instr, c: SpContext) => {
        orig(w, ins, c);
        for (let l = 0; l < w.lanes; l++) if (w.active[l] && w.pc[l] === -1) killed[l] = 1;
      }) as unknown as Instr['exec'];
    }
  }
  for (let base = 0; base < lanes.length; base += L) {
    const w = new Wave(L, 0, stats.waves);
    const n = Math.min(L, lanes.length - base);
    waveLanes = lanes.slice(base, base + n);
    killed = new Uint8Array(L);
    for (let l = 0; l < n; l++) {
      w.pc[l] = 0;
      const f = waveLanes[l]!;
      if (pre.ijPersp < 0xfc) {
        writeComp(w, pre.ijPersp, l, toBits(f.ijPersp[0]));
        writeComp(w, pre.ijPersp + 1, l, toBits(f.ijPersp[1]));
      }
      if (pre.ijLinear < 0xfc) {
        writeComp(w, pre.ijLinear, l, toBits(f.ijLinear[0]));
        writeComp(w, pre.ijLinear + 1, l, toBits(f.ijLinear[1]));
      }
      const ij = (r: number | undefined, v: readonly [number, number] | undefined): void => {
        if (r === undefined || r >= 0xfc || !v) return;
        writeComp(w, r, l, toBits(v[0]));
        writeComp(w, r + 1, l, toBits(v[1]));
      };
      ij(pre.ijPerspCentroid, f.ijPerspCentroid);
      ij(pre.ijLinearCentroid, f.ijLinearCentroid);
      ij(pre.ijPerspSample, f.ijPerspSample);
      ij(pre.ijLinearSample, f.ijLinearSample);
      const cm = pre.coordMask ?? 0;
      if (pre.xyCoord !== undefined && pre.xyCoord < 0xfc && f.xy)
        for (let c = 0; c < 2; c++) if ((cm >> c) & 1) writeComp(w, pre.xyCoord + c, l, f.xy[c]! >>> 0);
      if (pre.zwCoord !== undefined && pre.zwCoord < 0xfc && f.zw)
        for (let c = 0; c < 2; c++) if ((cm >> (c + 2)) & 1) writeComp(w, pre.zwCoord + c, l, toBits(f.zw[c]!));
      // Front-facing: a half register, 0 for front faces and -1 for back faces.
      if (pre.face !== undefined && pre.face < 0xfc) writeHalf(w, pre.face, l, f.front === false ? 0xffff : 0);
      if (pre.sampleId !== undefined && pre.sampleId < 0xfc) writeHalf(w, pre.sampleId, l, f.sampleId ?? 0);
      if (pre.sampleMask !== undefined && pre.sampleMask < 0xfc) writeComp(w, pre.sampleMask, l, (f.sampleMask ?? 0) >>> 0);
    }
    runWave(w, pr, BUDGET, stats);
    for (let l = 0; l < n; l++) {
      const colors = outputs.mrt.map((o) => {
        const c = new Float32Array(4);
        for (let k = 0; k < 4; k++) c[k] = o.half ? f16ToF32(readHalf(w, o.regid + k, l)) : fromBits(readComp(w, o.regid + k, l));
        return c;
      });
      const sm = outputs.sampleMaskRegid ?? 0xfc;
      results.push({ killed: killed[l] === 1, colors, ...(outputs.depthRegid < 0xfc ? { depth: fromBits(readComp(w, outputs.depthRegid, l)) } : {}), ...(sm < 0xfc ? { sampleMask: readComp(w, sm, l) } : {}) });
    }
  }
  return results;
}
