/**
 * The GFX11 draw pipeline on the shader model: what happens to a DRAW_INDEX_AUTO / DRAW_INDEX_2 /
 * indirect draw the PM4 command processor executes (src/amd/cp/cp.ts `onDraw`).
 *
 *  1. GE: index fetch (auto indices or the index buffer at its VA, 8/16/32-bit), primitive
 *     assembly with restart (src/amd/gfx/primitive-assembly.ts), subgroups of at most GE_CNTL
 *     VERTS/PRIMS_PER_SUBGRP (and one wave) with vertices deduplicated in first-use order.
 *  2. NGG primitive shader waves (GS stage, PC from SPI_SHADER_PGM_LO/HI_ES), initial state from
 *     src/amd/gfx/spi.ts. The wave sends GS_ALLOC_REQ, exports pos0 per vertex lane and prim per
 *     primitive lane, and stores its parameters into the attribute ring with buffer stores
 *     (SPI_ATTRIBUTE_RING_BASE; subgroup offset in s5). Exports before GS_ALLOC_REQ and lanes past
 *     the allocated counts are diagnosed and dropped.
 *  3. PA/SC: clip, viewport, top-left MSAA rasterization, quads and PS waves (src/amd/gfx).
 *  4. PS waves: SGPR/VGPR layout and LDS parameter preload (spi.ts), PS_wave_id counters per
 *     packer. Each wave's MRT/Z exports are kept until the stage ends and then committed in
 *     launch (rasterization) order, so images do not depend on the scheduling order.
 *  5. DB (early Z before the PS when DB_SHADER_CONTROL allows it, else late Z; stencil) and CB (formats, blending) per covered sample (db.ts, cb.ts).
 *
 * Hooks: `onPsWave` receives every PS wave at launch (before its first instruction) with its
 * packed quads, packer and wave id: POPS attaches its state there.
 */
import { LDS_ALLOC } from '../exec/lds-alloc.gen.js';
import { ldsAllocBytes } from './spi.js';
import type { Diagnostics } from '../../core/diagnostics.js';
import type { Memory } from '../../core/memory.js';
import { f32 } from '../../core/float.js';
import { gfx11 } from '../isa/gfx11/index.js';
import { gfx10 } from '../isa/gfx10/index.js';
import { gfx9 } from '../isa/gfx9/index.js';
import { Program, type Op } from '../engine/program.js';
import { WAVE_STATE_SEED, type ExecEnv } from '../engine/env.js';
import { setExportSink, type ExportEvent } from '../exec/exp.js';
import { Wave, SREG } from '../wave/wave.js';
import { APERTURE } from '../exec/vmem.js';
import type { DrawRecord } from '../cp/cp.js';
import type { Pm4Gen } from '../cp/regdb.js';
import { assemble, primKind, type IndexType, type Primitive } from './primitive-assembly.js';
import { decodePaState, type PaState } from './state.js';
import { Setup, barycentrics, type SetupPrim } from './setup.js';
import { rasterize, type Quad } from './raster.js';
import { primMaskM0 } from '../exec/vintrp.js';
import { packWaves, psInputVgprs, type PsWave } from './waves.js';
import { GfxRegs } from './regs.js';
import { decodeColorTargets, exportColor, readSample, writeSample, blend, type ColorTarget } from './cb.js';
import { decodeDepthState, decodeZOrder, depthStencilTest, earlyDepthStencil, renderBackendOf, zpassCounting, type ZOrder } from './db.js';
import { DEFAULT_RENDER_BACKENDS } from '../cp/queries.js';
import {
  attrRingBytes, attrRingOffset, gsTgInfo, mergedWaveInfo, packPrimVertices, psLdsBytes, psPrimMask, psWaveCountSgpr, PsWaveIds,
  unpackPrimExport,
} from './spi.js';
import { POPS_GENS, type PopsChip } from './pops-config.js';
import { PopsDraw, popsGenOf, type PopsDrawReport, type PopsDrawState } from './pops-draw.js';
import type { PopsCacheStats } from './pops-cache.js';
import type { CacheHook } from '../engine/cache-hook.js';
import type { PopsTrace } from './pops-run.js';
import type { InstructionTracer } from '../sq/trace.js';
import type { WaveTimeline } from '../sq/timeline.js';
import { prng, Sq } from '../sq/scheduler.js';
import { setMessageSink } from '../exec/msg.js';
import { runLegacyVs, type StageHost, type StageRun } from './vs.js';
import { ParamCache, preloadParams, type VertexOutput } from './param-cache.js';

/** A code region in GPU memory the shader stages may point at. */
export interface ShaderCode {
  readonly va: number;
  readonly words: Uint32Array;
  readonly name?: string;
}

/** What the PS-wave launch hook receives (POPS attaches here). */
export interface PsLaunch {
  readonly wave: Wave;
  readonly ps: PsWave;
  readonly draw: DrawRecord;
  /** Index of the draw in this pipeline and of the PS wave in the draw (launch order). */
  readonly drawIndex: number;
  readonly waveIndex: number;
  readonly se: number;
  readonly packer: number;
  readonly psWaveId: number;
  /** First SGPR after the ones the SPI wrote (for further launch arguments). */
  readonly nextSgpr: number;
  readonly regs: GfxRegs;
}

export interface DrawOptions {
  readonly order?: 'roundrobin' | 'random';
  readonly seed?: number;
  /** Wave-instruction budget over all draws (default 50 million). */
  readonly maxInstructions?: number;
  /** SPI_PS_MAX_WAVE_ID.MAX_WAVE_ID (not in the PM4-visible register set): default 0x3ff. */
  readonly psMaxWaveId?: number;
  readonly shaderEngines?: number;
  readonly onPsWave?: (l: PsLaunch) => void;
  readonly engine?: 'fast' | 'interp';
  /** POPS draws record their waves' ordered sections here (Chrome trace). */
  readonly popsTrace?: PopsTrace;
  /** Trace every wave-instruction of every stage (`gpusim draw --trace`, amd/sq/trace.ts); the waves step op by op. */
  readonly tracer?: InstructionTracer;
  /** Record each stage's scheduler turns and barriers (`gpusim draw --timeline`, amd/sq/timeline.ts). */
  readonly timeline?: WaveTimeline;
  /** GFX11 PA_SC_VRS_SURFACE_CNTL_1 as the kernel programs it (MMIO, not PM4): FORCE_SC_VRS_RATE_FINE_POPS. */
  readonly paScVrsSurfaceCntl1?: number;
  /** Render backends (occlusion counters, one per RB; default DEFAULT_RENDER_BACKENDS, as the CP). */
  readonly renderBackends?: number;
  /**
   * POPS draws' PS waves see memory through the per-CU L0 / per-SE L1 / L2 model (default on;
   * false: coherent memory). See src/amd/gfx/pops-draw.ts.
   */
  readonly popsCaches?: boolean;
  /**
   * The chip, for POPS's hardware-bug workarounds (Vega10/Raven DB_DFSM_CONTROL.
   * POPS_DRAIN_PS_ON_OVERLAP at 8x+, Navi1x PARTIAL_SQUAD_LAUNCH_CONTROL); default: none applies.
   */
  readonly popsChip?: PopsChip;
}

export interface DrawStats {
  draws: number;
  primitives: number;
  gsWaves: number;
  psWaves: number;
  gsInstructions: number;
  psInstructions: number;
  quads: number;
  /** Samples that passed the depth/stencil test and were written. */
  samplesWritten: number;
  /** Covered pixels shaded (lanes that were not helpers). */
  pixelsShaded: number;
  /** Samples the early depth/stencil test (before the PS) rejected (db.ts decodeZOrder). */
  earlyZRejected?: number;
  aborted: boolean;
}

interface Subgroup {
  readonly index: number;
  /** Vertex ids (index values) in first-use order. */
  readonly verts: number[];
  /** Primitives: local vertex indices, global primitive id. */
  readonly prims: { v: number[]; primId: number }[];
  attrOffset: number;
}

/** The graphics pipeline of one GPU (GFX11), fed draw records by the command processor. */

/** The generation number of a PM4 generation name (the LDS table's key). */
const GFX_NUM: Readonly<Record<Pm4Gen, 9 | 10 | 11>> = { gfx9: 9, gfx103: 10, gfx11: 11 };

export class GfxPipeline {
  readonly gen: Pm4Gen;
  readonly mem: Memory;
  readonly diag: Diagnostics;
  readonly codes: readonly ShaderCode[];
  readonly opts: DrawOptions;
  readonly stats: DrawStats = { draws: 0, primitives: 0, gsWaves: 0, psWaves: 0, gsInstructions: 0, psInstructions: 0, quads: 0, samplesWritten: 0, pixelsShaded: 0, aborted: false };
  private readonly clock = { t: 0 };
  /** The DB's samples-passed counters per render backend (occlusion queries read them). */
  private readonly zpass: number[];
  private readonly waveIds: PsWaveIds;
  private readonly programs = new Map<string, Program>();
  private waveCounter = 0;
  /** What vs.ts needs of the pipeline (programs, wave ids, the shared scheduler). */
  private readonly stageHost: StageHost;
  private seedStep = 0;
  /** The POPS hardware, created by the first draw with PRIMITIVE_ORDERED_PIXEL_SHADER. */
  private popsDraw: PopsDraw | null = null;

  constructor(gen: Pm4Gen, mem: Memory, diag: Diagnostics, codes: readonly ShaderCode[], opts: DrawOptions = {}) {
    this.gen = gen;
    this.mem = mem;
    this.diag = diag;
    this.codes = codes;
    this.opts = opts;
    this.zpass = new Array<number>(Math.max(1, opts.renderBackends ?? DEFAULT_RENDER_BACKENDS)).fill(0);
    this.waveIds = new PsWaveIds(opts.shaderEngines ?? 2, POPS_GENS[gen].packersPerSe, opts.psMaxWaveId ?? 0x3ff);
    this.stageHost = {
      gen: this.gen,
      mem: this.mem,
      diag: this.diag,
      stats: this.stats,
      program: (pc, ws, vgprs, stage, where) => this.program(pc, ws, vgprs, stage, where),
      nextWaveId: () => this.waveCounter++,
      run: (waves, program, stage) => this.runWaves(waves, program, stage ?? 'VS'),
    };
  }

  /** The pipeline's model clock (wave-instructions issued by every stage so far): timelines read it. */
  get now(): number {
    return this.clock.t;
  }

  /** The samples-passed counters of the render backends: what a ZPASS event writes (CpOptions.zpassCounts). */
  zpassCounts(): readonly number[] {
    return this.zpass.slice();
  }

  /** Per-draw POPS statistics (empty when no draw used POPS). */
  get pops(): PopsDrawReport[] {
    return this.popsDraw?.report() ?? [];
  }

  /** The POPS draws' cache statistics (null when no draw used POPS or the model is off). */
  get popsCache(): PopsCacheStats | null {
    return this.popsDraw?.cacheStats() ?? null;
  }

  private popsBegin(drawIndex: number, regs: GfxRegs): PopsDrawState | null {
    const read = (r: string): number => (regs.db.get(r) ? regs.raw(r) : 0);
    if (!regs.db.get('DB_SHADER_CONTROL') || regs.field('DB_SHADER_CONTROL', 'PRIMITIVE_ORDERED_PIXEL_SHADER') !== 1) return null;
    const gen = popsGenOf(this.gen);
    if (!gen) return null;
    this.popsDraw ??= new PopsDraw({
      gen, diag: this.diag, shaderEngines: this.opts.shaderEngines ?? 2, packerOf: (x, y) => this.waveIds.packerOf(x, y),
      ...(this.opts.popsTrace ? { trace: this.opts.popsTrace } : {}),
      ...(this.opts.paScVrsSurfaceCntl1 !== undefined ? { paScVrsSurfaceCntl1: this.opts.paScVrsSurfaceCntl1 } : {}),
      mem: this.mem, caches: this.opts.popsCaches !== false, seed: this.opts.seed ?? 1,
      ...(this.opts.popsChip ? { chip: this.opts.popsChip } : {}),
    });
    return this.popsDraw.begin(drawIndex, read, (r, f) => (regs.db.get(r)?.fields.some((x) => x.name === f) ? regs.enumOf(r, f) : ''));
  }

  /**
   * Run one stage's waves on the SQ's scheduler (amd/sq/scheduler.ts): the pipeline's clock, the
   * draws' budget, a seed per stage run; `before`/`after` per instruction (POPS) step op by op.
   */
  private runWaves(waves: readonly Wave[], program: Program, stage: string, before?: (w: Wave, op: Op) => void, after?: (w: Wave) => void): StageRun {
    const seed = (this.opts.seed ?? 1) + this.seedStep++;
    const t = this.opts.tracer;
    if (t !== undefined) {
      // The trace around the stage's own hooks: its line shows what the instruction and the hooks did.
      const b0 = before;
      const a0 = after;
      const prefix = `${stage} `;
      before = b0 ? (w, op) => (b0(w, op), t.before(w, op)) : t.before;
      after = a0 ? (w) => (a0(w), t.after(w, prefix)) : (w) => t.after(w, prefix);
    }
    const observer = this.opts.timeline?.stage(stage) ?? null;
    const sq = new Sq({ diag: this.diag, clock: this.clock, budget: this.budgetLeft(), engine: this.opts.engine ?? 'fast', before, after, observer });
    sq.runStage(waves, program, this.opts.order === 'random' ? prng(seed) : null);
    if (sq.aborted) this.stats.aborted = true;
    return { instructions: sq.executed, aborted: sq.aborted };
  }

  private budgetLeft(): number {
    return (this.opts.maxInstructions ?? 50_000_000) - this.stats.gsInstructions - this.stats.psInstructions;
  }

  /** `cacheHook`: the program's memory instructions report their cache policy to it (POPS draws). */
  private program(pc: number, waveSize: 32 | 64, vgprs: number, stage: string, where: Record<string, number | string>, cacheHook?: CacheHook): Program | null {
    const code = this.codes.find((c) => pc >= c.va && pc < c.va + c.words.length * 4);
    if (!code) {
      this.diag.report({ id: 'amd.spi.no-code', severity: 'error', where: { ...where, pc: '0x' + pc.toString(16) }, message: `${stage} program address 0x${pc.toString(16)} is in no loaded shader; the stage does not run` });
      return null;
    }
    const key = `${code.va}:${waveSize}:${vgprs}${cacheHook ? ':cached' : ''}`;
    let p = this.programs.get(key);
    if (!p) {
      const clock = this.clock;
      const target = this.gen === 'gfx11' ? gfx11 : this.gen === 'gfx103' ? gfx10 : gfx9;
      const env: ExecEnv = { space: target.space, diag: this.diag, seed: WAVE_STATE_SEED, waveSize, vgprs, now: () => clock.t, engine: this.opts.engine ?? 'fast', ...(cacheHook ? { cacheHook } : {}) };
      p = new Program(target, code.va, code.words, env);
      this.programs.set(key, p);
    }
    return p;
  }

  /** Execute one draw. */
  draw(rec: DrawRecord): void {
    const where = { offset: rec.offset, level: rec.level };
    if (this.stats.aborted) return;
    const snap = rec.state;
    const read = (name: string): number => {
      try { return snap.get(name); } catch { return 0; }
    };
    const regs = new GfxRegs(this.gen, read);
    const stages = regs.raw('VGT_SHADER_STAGES_EN');
    const ngg = regs.field('VGT_SHADER_STAGES_EN', 'PRIMGEN_EN', stages) === 1;
    if (this.gen === 'gfx11' && !ngg) {
      this.diag.report({ id: 'amd.ge.not-ngg', severity: 'error', where, message: 'VGT_SHADER_STAGES_EN.PRIMGEN_EN = 0: GFX11 draws run through NGG primitive shaders only; nothing drawn' });
      return;
    }
    // Executed: NGG (GFX11, GFX10.3) and the real hardware VS without tessellation or a legacy GS.
    const F = (f: string): number => regs.field('VGT_SHADER_STAGES_EN', f, stages);
    const unsupported = this.gen === 'gfx9' && ngg ? 'PRIMGEN_EN (GFX9 has no NGG pipeline gpusim runs)'
      : F('LS_EN') || F('HS_EN') ? 'tessellation (LS_EN/HS_EN)'
      : !ngg && (F('ES_EN') || F('GS_EN')) ? 'a legacy geometry shader (ES_EN/GS_EN)'
      : !ngg && F('VS_EN') !== 0 ? `VS_EN = ${F('VS_EN')} (only the real VS stage, VS_STAGE_REAL, runs)` : '';
    if (unsupported) {
      this.diag.report({ id: 'amd.draw.gen-not-executed', severity: 'info', where, message: `${rec.packet}: ${this.gen} ${unsupported} is not modelled; the draw is recorded, not run` });
      return;
    }
    const drawIndex = this.stats.draws++;
    const paRegs = new Proxy({}, { get: (_t, name) => (typeof name === 'string' && regs.db.get(name) ? read(name) : undefined) }) as Record<string, number>;
    const st = decodePaState(this.gen, paRegs, this.diag);
    const kind = primKind(rec.primType);
    if (!kind) {
      this.diag.report({ id: 'amd.pa.prim-type-unsupported', severity: 'error', where: { ...where, VGT_PRIMITIVE_TYPE: rec.primType }, message: `primitive type ${rec.primType} is not assembled by the model; nothing drawn` });
      return;
    }
    const indices = this.fetchIndices(rec, where);
    const itype: IndexType = rec.kind === 'auto' || rec.kind === 'indirect' ? 32 : rec.indexSize === 1 ? 8 : rec.indexSize === 2 ? 16 : 32;
    const prims = assemble(rec.primType, indices, { restartEnable: st.restartEnable, restartIndex: st.restartIndex, indexType: itype, provokingLast: st.provokingLast }, this.diag);
    for (let inst = 0; inst < Math.max(1, rec.instanceCount) && !this.stats.aborted; inst++) {
      this.drawInstance(rec, drawIndex, regs, st, prims, kind === 'point' ? 1 : kind === 'line' ? 2 : 3, inst, where); // the start instance reaches the shader through a user SGPR (DRAW_INDIRECT writes it)
    }
  }

  private fetchIndices(rec: DrawRecord, where: Record<string, number>): number[] {
    const n = Math.min(rec.count, 1 << 24);
    if (rec.count > n) this.diag.report({ id: 'amd.ge.draw-too-large', severity: 'error', where, message: `${rec.packet} draws ${rec.count} vertices; gpusim caps a draw at 16M` });
    if (rec.indexBase === undefined) return Array.from({ length: n }, (_, i) => i);
    const size = rec.indexSize ?? 2;
    const base = rec.indexBase + (rec.firstIndex ?? 0) * size;
    const out: number[] = [];
    let faulted = false;
    for (let i = 0; i < n; i++) {
      const va = base + i * size;
      if (!this.mem.find(va, size)) {
        if (!faulted) this.diag.report({ id: 'amd.ge.index-fetch-fault', severity: 'error', where: { ...where, va: '0x' + va.toString(16) }, message: `index ${i} at 0x${va.toString(16)} is in no mapped memory; it reads 0` });
        faulted = true;
        out.push(0);
        continue;
      }
      out.push(size === 1 ? this.mem.read8(va) : size === 2 ? this.mem.read16(va) : this.mem.read32(va));
    }
    return out;
  }

  private subgroups(prims: readonly Primitive[], maxV: number, maxP: number): Subgroup[] {
    const out: Subgroup[] = [];
    let cur: Subgroup | null = null;
    let map = new Map<number, number>();
    for (const p of prims) {
      const fresh = p.v.filter((v, i) => !map.has(v) && p.v.indexOf(v) === i).length;
      if (!cur || cur.prims.length >= maxP || cur.verts.length + fresh > maxV) {
        cur = { index: out.length, verts: [], prims: [], attrOffset: 0 };
        out.push(cur);
        map = new Map();
      }
      const local = p.v.map((v) => {
        let l = map.get(v);
        if (l === undefined) {
          l = cur!.verts.length;
          map.set(v, l);
          cur!.verts.push(v);
        }
        return l;
      });
      cur.prims.push({ v: local, primId: p.primId });
    }
    return out;
  }

  private drawInstance(rec: DrawRecord, drawIndex: number, regs: GfxRegs, st: PaState, prims: readonly Primitive[], nv: number, instanceId: number, where: Record<string, number>): void {
    const ngg = regs.field('VGT_SHADER_STAGES_EN', 'PRIMGEN_EN') === 1;
    const vo = ngg ? this.nggStage(rec, regs, st, prims, nv, instanceId, where) : runLegacyVs(this.stageHost, regs, prims, instanceId, where);
    if (!vo || this.stats.aborted) return;
    this.shade(rec, drawIndex, regs, st, vo, where);
  }

  /**
   * NGG primitive shader waves (GFX11, and GFX10.3 with PRIMGEN_EN). GFX10.3 differs as data:
   * subgroup sizes in GE_CNTL.VERT_GRP_SIZE/PRIM_GRP_SIZE, s0/s1 = SPI_SHADER_USER_DATA_ADDR_LO/HI_GS,
   * s5 the scratch offset (0) instead of gs_attr_offset, the primitive's vertex indices as 16-bit
   * pairs (v0 = v0 | v1 << 16, v1 = v2), and parameters exported with `exp paramN` per vertex lane
   * into the parameter cache instead of stored to the attribute ring.
   */
  private nggStage(rec: DrawRecord, regs: GfxRegs, st: PaState, prims: readonly Primitive[], nv: number, instanceId: number, where: Record<string, number>): VertexOutput | null {
    const gfx11 = this.gen === 'gfx11';
    const gsW32 = regs.field('VGT_SHADER_STAGES_EN', 'GS_W32_EN') === 1;
    const gsWs: 32 | 64 = gsW32 ? 32 : 64;
    const ge = regs.raw('GE_CNTL');
    const maxV = Math.min(gsWs, regs.field('GE_CNTL', gfx11 ? 'VERTS_PER_SUBGRP' : 'VERT_GRP_SIZE', ge) || gsWs);
    const maxP = Math.min(gsWs, regs.field('GE_CNTL', gfx11 ? 'PRIMS_PER_SUBGRP' : 'PRIM_GRP_SIZE', ge) || gsWs);
    if (maxV < nv) {
      this.diag.report({ id: 'amd.ge.subgroup-too-small', severity: 'error', where, message: `GE_CNTL.${gfx11 ? 'VERTS_PER_SUBGRP' : 'VERT_GRP_SIZE'} = ${maxV} cannot hold one primitive of ${nv} vertices; nothing drawn` });
      return null;
    }
    const sgs = this.subgroups(prims, maxV, maxP);
    const params = regs.field('SPI_VS_OUT_CONFIG', 'VS_EXPORT_COUNT') + 1;
    const ringBase = gfx11 ? regs.raw('SPI_ATTRIBUTE_RING_BASE') * 65536 : 0;
    let off = 0;
    for (const sg of sgs) {
      sg.attrOffset = off;
      off += attrRingBytes(sg.verts.length, params);
    }
    if (gfx11) {
      const ringSize = (regs.field('SPI_ATTRIBUTE_RING_SIZE', 'MEM_SIZE') + 1) * 65536;
      if (off > ringSize && ringBase !== 0) {
        this.diag.report({ id: 'amd.spi.attr-ring-overflow', severity: 'warning', where, message: `the draw's attribute data (${off} bytes) exceeds SPI_ATTRIBUTE_RING_SIZE (${ringSize}); the hardware would wait for space, gpusim keeps going` });
      }
    }

    const pc = regs.addr256('SPI_SHADER_PGM_LO_ES', 'SPI_SHADER_PGM_HI_ES', 'MEM_BASE');
    const r1 = regs.raw('SPI_SHADER_PGM_RSRC1_GS');
    const r2 = regs.raw('SPI_SHADER_PGM_RSRC2_GS');
    const vgprs = Math.min(256, (regs.field('SPI_SHADER_PGM_RSRC1_GS', 'VGPRS', r1) + 1) * (gsW32 ? 8 : 4));
    const prog = this.program(pc, gsWs, vgprs, 'NGG primitive shader', where);
    if (!prog) return null;
    const userSgprs = regs.field('SPI_SHADER_PGM_RSRC2_GS', 'USER_SGPR', r2) | (regs.field('SPI_SHADER_PGM_RSRC2_GS', 'USER_SGPR_MSB', r2) << 5);
    const gsComp = regs.field('SPI_SHADER_PGM_RSRC1_GS', 'GS_VGPR_COMP_CNT', r1);
    const esComp = regs.field('SPI_SHADER_PGM_RSRC2_GS', 'ES_VGPR_COMP_CNT', r2);
    // LDS_SIZE counts the generation's granules (lds-alloc.gen.ts); the allocation rounds up to its block.
    const ldsGen = LDS_ALLOC[GFX_NUM[this.gen]];
    const ldsBytes = ldsAllocBytes(GFX_NUM[this.gen], regs.field('SPI_SHADER_PGM_RSRC2_GS', 'LDS_SIZE', r2) * ldsGen.ldsSizeGranule);
    if (ldsBytes > ldsGen.maxBytes) {
      this.diag.report({ id: 'amd.draw.lds-too-large', severity: 'error', where, message: `SPI_SHADER_PGM_RSRC2_GS.LDS_SIZE asks for ${ldsBytes} bytes of LDS; ${this.gen} allows ${ldsGen.maxBytes}: the draw is not run` });
      return null;
    }
    const mode = modeOf(regs, 'SPI_SHADER_PGM_RSRC1_GS', r1);
    const s01 = gfx11 ? [regs.raw('SPI_SHADER_PGM_LO_GS'), regs.raw('SPI_SHADER_PGM_HI_GS')] : [regs.raw('SPI_SHADER_USER_DATA_ADDR_LO_GS'), regs.raw('SPI_SHADER_USER_DATA_ADDR_HI_GS')];
    const sgOut: NggOut[] = sgs.map((sg) => ({ sg, pos: new Float64Array(4 * sg.verts.length).fill(NaN), posSet: new Uint8Array(sg.verts.length), prim: new Uint32Array(sg.prims.length), primSet: new Uint8Array(sg.prims.length), alloc: null, cache: gfx11 ? null : new ParamCache(sg.verts.length, params) }));
    const gsWaves: Wave[] = [];
    const byWave = new Map<Wave, NggOut>();
    for (const o of sgOut) {
      const sg = o.sg;
      const w = new Wave({ waveSize: gsWs, vgprs, pc, sharedBase: APERTURE.SHARED, privateBase: APERTURE.PRIVATE, mode, status: 0 }, this.mem, new Uint8Array(Math.max(ldsBytes, 0)), { wg: [sg.index, 0, 0], waveInGroup: 0, id: this.waveCounter++ });
      w.peers = [w];
      const s = w.s;
      s[0] = s01[0]!; s[1] = s01[1]!;
      s[2] = gsTgInfo(sg.index, sg.verts.length, sg.prims.length);
      s[3] = mergedWaveInfo(sg.verts.length, sg.prims.length, 0, 1);
      s[4] = 0;
      s[5] = gfx11 ? Math.floor((sg.attrOffset) / 512) & 0x7fff : 0;
      s[6] = s[7] = 0;
      for (let i = 0; i < userSgprs && 8 + i < 106; i++) s[8 + i] = regs.raw(`SPI_SHADER_USER_DATA_GS_${i}`);
      const put = (reg: number, lane: number, v: number): void => {
        if (reg < vgprs) w.v[reg * gsWs + lane] = v >>> 0;
      };
      for (let l = 0; l < sg.prims.length; l++) {
        const pv = sg.prims[l]!.v;
        if (gfx11) put(0, l, packPrimVertices(pv));
        else {
          put(0, l, ((pv[0] ?? 0) & 0xffff) | (((pv[1] ?? 0) & 0xffff) << 16));
          put(1, l, (pv[2] ?? 0) & 0xffff);
        }
        if (gsComp >= 1) put(2, l, sg.prims[l]!.primId);
      }
      for (let l = 0; l < sg.verts.length; l++) {
        put(5, l, sg.verts[l]!);
        if (esComp >= 3) put(8, l, instanceId);
      }
      const lanes = Math.max(sg.verts.length, sg.prims.length);
      setExec(w, lanes);
      byWave.set(w, o);
      setExportSink(w, { export: (wv, e) => this.gsExport(wv, e, byWave.get(wv)!) });
      setMessageSink(w, { message: (wv, simm16, mpc) => this.gsMessage(wv, simm16, mpc, byWave.get(wv)!) });
      gsWaves.push(w);
    }
    this.stats.gsWaves += gsWaves.length;
    const gsRun = this.stageHost.run(gsWaves, prog, 'GS');
    this.stats.gsInstructions += gsRun.instructions;
    if (gsRun.aborted) return null;

    // The exported primitives over the subgroups' vertices, concatenated.
    let total = 0;
    for (const o of sgOut) total += o.sg.verts.length;
    const positions = new Float64Array(4 * total);
    const where1 = new Int32Array(total);
    const local1 = new Int32Array(total);
    const kind = primKind(rec.primType)!;
    const out: Primitive[] = [];
    let base = 0;
    sgOut.forEach((o, si) => {
      const sg = o.sg;
      for (let l = 0; l < sg.verts.length; l++) { where1[base + l] = si; local1[base + l] = l; }
      if (!o.alloc) {
        this.diag.report({ id: 'amd.ngg.no-alloc-req', severity: 'error', where: { ...where, subgroup: sg.index }, message: 'the NGG wave ended without s_sendmsg GS_ALLOC_REQ: the subgroup exports nothing (on hardware the primitive stream stalls)' });
        base += sg.verts.length;
        return;
      }
      positions.set(o.pos, 4 * base);
      for (let l = 0; l < sg.prims.length; l++) {
        if (!o.primSet[l]) continue;
        const d = unpackPrimExport(o.prim[l]!);
        if (d.nullPrim) continue;
        const local = d.v.slice(0, nv);
        if (local.some((v) => v >= o.alloc!.v || !o.posSet[v])) {
          this.diag.report({ id: 'amd.ngg.prim-vertex-not-exported', severity: 'error', where: { ...where, subgroup: sg.index, lane: l }, message: `primitive export of lane ${l} names vertex ${local.find((v) => v >= o.alloc!.v || !o.posSet[v])}, which has no position export within the GS_ALLOC_REQ vertex count; the primitive is dropped` });
          continue;
        }
        out.push({ v: local.map((v) => base + v), provoking: st.provokingLast ? nv - 1 : 0, primId: sg.prims[l]!.primId, kind });
      }
      base += sg.verts.length;
    });
    const mem = this.mem;
    return {
      positions, prims: out, params,
      param: (v, p, dst) => {
        const o = sgOut[where1[v]!]!;
        if (o.cache) { o.cache.read(local1[v]!, p, dst); return; }
        const va = ringBase + o.sg.attrOffset + attrRingOffset(local1[v]!, p, params);
        for (let ch = 0; ch < 4; ch++) dst[ch] = mem.find(va + 4 * ch, 4) ? mem.readF32(va + 4 * ch) : 0;
      },
    };
  }

  /** Clip/setup/rasterize the vertex stage's primitives, launch PS waves, then DB/CB. */
  private shade(rec: DrawRecord, drawIndex: number, regs: GfxRegs, st: PaState, vo: VertexOutput, where: Record<string, number>): void {
    const setup = new Setup(st);
    const quads: Quad[] = [];
    for (const prim of vo.prims) {
      this.stats.primitives++;
      const sp = setup.run(prim, vo.positions);
      if (!sp) continue;
      rasterize(sp, st, (q) => quads.push(q));
    }
    this.stats.quads += quads.length;

    // --- PS waves ------------------------------------------------------------------------------
    const psW32 = this.gen !== 'gfx9' && regs.field('SPI_PS_IN_CONTROL', 'PS_W32_EN') === 1;
    const psWs: 32 | 64 = psW32 ? 32 : 64;
    // Early Z (DB_SHADER_CONTROL): depth/stencil before the PS; rejected samples launch no lanes.
    const zOrder = decodeZOrder(regs);
    const launchQuads = zOrder.early ? this.earlyZ(regs, st, quads) : quads;
    const pops = this.popsBegin(drawIndex, regs);
    const psWaves = pops ? this.popsDraw!.pack(pops, launchQuads, psWs, 16) : packWaves(launchQuads, psWs, { maxPrimsPerWave: 16 });
    if (!psWaves.length) return;
    const ppc = regs.addr256('SPI_SHADER_PGM_LO_PS', 'SPI_SHADER_PGM_HI_PS', 'MEM_BASE');
    const p1 = regs.raw('SPI_SHADER_PGM_RSRC1_PS');
    const p2 = regs.raw('SPI_SHADER_PGM_RSRC2_PS');
    // A PS wave's LDS: the vertex parameters of its primitives, then EXTRA_LDS_SIZE (in the
    // generation's granule: 1 KiB on GFX11, 512 bytes before), allocated in the generation's blocks.
    const psGen = LDS_ALLOC[GFX_NUM[this.gen]];
    const psExtra = regs.field('SPI_SHADER_PGM_RSRC2_PS', 'EXTRA_LDS_SIZE', p2) * psGen.psExtraGranule;
    const psLds = (prims: number): number => ldsAllocBytes(GFX_NUM[this.gen], psLdsBytes(prims) + psExtra);
    if (psLds(16) > psGen.maxBytes) {
      this.diag.report({ id: 'amd.draw.lds-too-large', severity: 'error', where, message: `a PS wave's parameters and EXTRA_LDS_SIZE (${psExtra} bytes) need ${psLds(16)} bytes of LDS; ${this.gen} allows ${psGen.maxBytes}: the draw's pixels are not shaded` });
      return;
    }
    const pvgprs = Math.min(256, (regs.field('SPI_SHADER_PGM_RSRC1_PS', 'VGPRS', p1) + 1) * (psW32 ? 8 : 4));
    const caches = pops ? this.popsDraw!.caches : null;
    const pprog = this.program(ppc, psWs, pvgprs, 'pixel shader', where, caches ?? undefined);
    if (!pprog) return;
    const pUser = regs.field('SPI_SHADER_PGM_RSRC2_PS', 'USER_SGPR', p2) | (regs.field('SPI_SHADER_PGM_RSRC2_PS', 'USER_SGPR_MSB', p2) << 5);
    const waveCnt = regs.field('SPI_SHADER_PGM_RSRC2_PS', 'WAVE_CNT_EN', p2) === 1;
    const pmode = modeOf(regs, 'SPI_SHADER_PGM_RSRC1_PS', p1);
    const numInterp = regs.field('SPI_PS_IN_CONTROL', 'NUM_INTERP');
    const cntl = Array.from({ length: numInterp }, (_, i) => regs.raw(`SPI_PS_INPUT_CNTL_${i}`));
    this.checkPsInputs(cntl, where);
    const results: PsResult[] = [];
    const list: Wave[] = [];
    // LDS: the parameters of each distinct primitive of a wave, in order. Every wave's LDS is a
    // slice of one zeroed allocation for the draw (thousands of small off-heap arrays were a third
    // of the launch loop's time); the slices are whole allocation blocks, so dword-aligned.
    const distinctOf = psWaves.map((ps) => {
      const distinct: SetupPrim[] = [];
      for (const q of ps.quads) if (distinct[distinct.length - 1] !== q.sp) distinct.push(q.sp);
      return distinct;
    });
    const ldsStore = new ArrayBuffer(distinctOf.reduce((a, d) => a + psLds(d.length), 0));
    let ldsAt = 0;
    for (let wi = 0; wi < psWaves.length; wi++) {
      const ps = psWaves[wi]!;
      const distinct = distinctOf[wi]!;
      const lds = new Uint8Array(ldsStore, ldsAt, psLds(distinct.length));
      ldsAt += lds.length;
      const ldv = new DataView(ldsStore, lds.byteOffset, lds.length);
      distinct.forEach((sp, p) => preloadParams(ldv, p, sp, vo, cntl));
      const [se, packer] = this.waveIds.packerOf(ps.quads[0]!.x, ps.quads[0]!.y);
      const wmem = pops ? this.popsDraw!.memFor(se, this.mem) : this.mem;
      const w = new Wave({ waveSize: psWs, vgprs: pvgprs, pc: ppc, sharedBase: APERTURE.SHARED, privateBase: APERTURE.PRIVATE, mode: pmode, status: 0 }, wmem, lds, { wg: [wi, 0, 0], waveInGroup: 0, id: this.waveCounter++ });
      w.peers = [w];
      let sg = 0;
      for (; sg < pUser && sg < 106; sg++) w.s[sg] = regs.raw(`SPI_SHADER_USER_DATA_PS_${sg}`);
      // PRIM_MASK is the M0 value the interpolation ops read: GFX9/GFX10 keep new_prim_mask in M0[30:16] (vintrp.ts).
      w.s[sg++] = this.gen === 'gfx11' ? psPrimMask(ps) : primMaskM0(this.gen === 'gfx9' ? 9 : 10, ps.newPrimMask);
      const [psWaveId, psWaveIndex] = this.waveIds.take(se, packer);
      if (waveCnt) w.s[sg++] = psWaveCountSgpr(psWaveId, psWaveIndex);
      if (pops) sg = Math.max(sg, this.popsDraw!.launch(pops, w, ps, sg, this.clock.t));
      const { vgprs: init } = psInputVgprs(ps, st);
      w.v.set(init.subarray(0, Math.min(init.length, w.v.length)));
      // EXEC = the covered lanes (wave-state seed, "EXEC initialization": the threads active in
      // the wave). Helper lanes of partially covered quads have their inputs written but start
      // off; a shader that needs them for derivatives turns them on with s_wqm (whole quad mode).
      w.s[SREG.EXEC_LO] = ps.liveLo >>> 0;
      w.s[SREG.EXEC_HI] = psWs === 64 ? ps.liveHi >>> 0 : 0;
      const res: PsResult = { ps, mrt: new Map(), mrtz: null };
      results.push(res);
      setExportSink(w, { export: (wv, e) => this.psExport(wv, e, res) });
      this.opts.onPsWave?.({ wave: w, ps, draw: rec, drawIndex, waveIndex: wi, se, packer, psWaveId, nextSgpr: sg, regs });
      list.push(w);
    }
    this.stats.psWaves += list.length;
    const popsDraw = pops ? this.popsDraw : null;
    // POPS draws run on the same scheduler with the POPS hooks around each instruction.
    const psRun = popsDraw
      ? this.runWaves(list, pprog, 'PS', (w, op) => popsDraw.beforeInstruction(w, op.inst, this.clock.t), (w) => popsDraw.afterInstruction(w, this.clock.t))
      : this.runWaves(list, pprog, 'PS');
    popsDraw?.endDraw();
    this.stats.psInstructions += psRun.instructions;
    this.commit(regs, st, results, zOrder);
  }

  /** The early depth/stencil pass (db.ts earlyDepthStencil) with the pipeline's sample depths. */
  private earlyZ(regs: GfxRegs, st: PaState, quads: Quad[]): Quad[] {
    const depth = decodeDepthState(regs, st.numSamples);
    if (!depth.zEnable && !depth.stencilEnable) return quads;
    const b = new Float64Array(5);
    const ns = st.numSamples;
    const r = earlyDepthStencil(this.mem, depth, quads, ns, (q, p, s) => {
      const [sx, sy] = ns === 1 ? [0.5, 0.5] : [0.5 + st.sampleLocs[p]![2 * s]! / 16, 0.5 + st.sampleLocs[p]![2 * s + 1]! / 16];
      barycentrics(q.sp, q.x + (p & 1) + sx, q.y + (p >> 1) + sy, b, st.perspCorrDis);
      return b[4]!;
    });
    this.stats.earlyZRejected = (this.stats.earlyZRejected ?? 0) + r.samplesKilled;
    return r.quads;
  }

  /** SPI_PS_INPUT_CNTL features the model does not interpolate (said once per draw). */
  private checkPsInputs(cntl: readonly number[], where: Record<string, number>): void {
    cntl.forEach((c, i) => {
      const cyl = this.gen === 'gfx11' ? 0 : (c >>> 13) & 15;
      if ((c >>> 17) & 1 || cyl || (c >>> 19) & 1) {
        this.diag.report({ id: 'amd.spi.ps-input-unsupported', severity: 'warning', where: { ...where, input: i, SPI_PS_INPUT_CNTL: '0x' + c.toString(16) }, message: `SPI_PS_INPUT_CNTL_${i}: ${(c >>> 17) & 1 ? 'PT_SPRITE_TEX' : cyl ? 'CYL_WRAP' : 'FP16_INTERP_MODE'} is not modelled; the input is loaded as a plain 32-bit parameter` });
      }
    });
  }

  /** An s_sendmsg of an NGG wave (message sink, exec/msg.ts): GS_ALLOC_REQ (id 9) reserves the subgroup's export space. */
  private gsMessage(w: Wave, simm16: number, pc: number, o: { alloc: null | { v: number; p: number } }): void {
    if ((simm16 & 0xff) !== 9) return;
    const m0 = w.s[SREG.M0]!;
    if (o.alloc) {
      this.diag.report({ id: 'amd.ngg.alloc-req-twice', severity: 'error', where: { pc, wave: w.id }, message: 'GS_ALLOC_REQ sent twice by one subgroup; the second is ignored' });
      return;
    }
    o.alloc = { v: m0 & 0x7ff, p: (m0 >>> 12) & 0x7ff };
  }

  private gsExport(w: Wave, e: ExportEvent, o: NggOut): void {
    const ws = w.waveSize;
    if (e.kind !== 'pos' && e.kind !== 'prim' && e.kind !== 'null' && !(e.kind === 'param' && o.cache)) {
      this.diag.report({ id: 'amd.exp.target-stage', severity: 'error', where: { pc: e.pc, wave: w.id }, message: `exp ${e.kind}${e.index}: an NGG primitive shader exports positions, primitives${o.cache ? ' and parameters' : ''} only; dropped` });
      return;
    }
    if (e.kind === 'null') return;
    if (!o.alloc) {
      this.diag.report({ id: 'amd.ngg.export-before-alloc', severity: 'error', where: { pc: e.pc, wave: w.id }, message: `exp ${e.kind}${e.kind === 'prim' ? '' : e.index} before s_sendmsg GS_ALLOC_REQ: the hardware has no space for it (a hang); dropped` });
      return;
    }
    if (e.kind === 'param') {
      if (e.index >= o.cache!.params) {
        this.diag.report({ id: 'amd.vs.param-past-export-count', severity: 'error', where: { pc: e.pc, wave: w.id }, message: `exp param${e.index}: SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT allows ${o.cache!.params} parameter(s); dropped` });
        return;
      }
      o.cache!.store(e, ws, Math.min(o.alloc.v, o.sg.verts.length));
      return;
    }
    const limit = e.kind === 'pos' ? o.alloc.v : o.alloc.p;
    let over = -1;
    for (let l = 0; l < ws; l++) {
      if (!(l < 32 ? (e.execLo >>> l) & 1 : (e.execHi >>> (l - 32)) & 1)) continue;
      if (l >= limit) {
        if (over < 0) over = l;
        continue;
      }
      if (e.kind === 'prim') {
        if (l < o.prim.length) { o.prim[l] = e.data[l]!; o.primSet[l] = 1; }
      } else if (e.index === 0 && l < o.posSet.length) {
        for (let c = 0; c < 4; c++) o.pos[4 * l + c] = (e.en >> c) & 1 ? f32(e.data[c * ws + l]!) : c === 3 ? 1 : 0;
        o.posSet[l] = 1;
      }
    }
    if (over >= 0) this.diag.report({ id: 'amd.ngg.export-past-alloc', severity: 'error', where: { pc: e.pc, wave: w.id }, message: `exp ${e.kind}: lane ${over} is past the ${limit} ${e.kind === 'pos' ? 'vertices' : 'primitives'} GS_ALLOC_REQ allocated; dropped` });
  }

  private psExport(w: Wave, e: ExportEvent, res: PsResult): void {
    if (e.kind === 'mrt') res.mrt.set(e.index, e.compr ? uncompress(e, w.waveSize) : e);
    else if (e.kind === 'mrtz') res.mrtz = e;
    else if (e.kind !== 'null') this.diag.report({ id: 'amd.exp.target-stage', severity: 'error', where: { pc: e.pc, wave: w.id }, message: `exp ${e.kind}${e.index}: a pixel shader exports colour (mrt), depth (mrtz) or null; dropped` });
  }

  /** DB + CB for the PS waves of one draw, in launch order. */
  private commit(regs: GfxRegs, st: PaState, results: readonly PsResult[], zOrder?: ZOrder): void {
    const early = zOrder?.early ?? false;
    let killedEarly = false;
    let zExportIgnored = false;
    const ns = st.numSamples;
    const targets = decodeColorTargets(regs, ns, this.diag);
    const depth = decodeDepthState(regs, ns, this.diag);
    const counting = zpassCounting(regs);
    const rbs = this.zpass.length;
    const k = new Float64Array([f32(regs.raw('CB_BLEND_RED')), f32(regs.raw('CB_BLEND_GREEN')), f32(regs.raw('CB_BLEND_BLUE')), f32(regs.raw('CB_BLEND_ALPHA'))]);
    const b = new Float64Array(5);
    const src = new Float64Array(4), dst = new Float64Array(4), out = new Float64Array(4);
    for (const r of results) {
      const ps = r.ps;
      const ws = ps.waveSize;
      for (let q = 0; q < ps.quads.length; q++) {
        const quad = ps.quads[q]!;
        for (let p = 0; p < 4; p++) {
          const lane = 4 * q + p;
          const m = quad.coverage[p]!;
          if (!m) continue;
          this.stats.pixelsShaded++;
          const on = (e: ExportEvent): boolean => (lane < 32 ? ((e.execLo >>> lane) & 1) === 1 : ((e.execHi >>> (lane - 32)) & 1) === 1);
          // A lane killed before its exports writes nothing.
          const anyExport = [...r.mrt.values()].some(on) || (r.mrtz !== null && on(r.mrtz));
          if (!anyExport) {
            // A lane of a wave that exports elsewhere but not here was discarded.
            if (early && (r.mrt.size > 0 || r.mrtz !== null)) killedEarly = true;
            continue;
          }
          const x = quad.x + (p & 1), y = quad.y + (p >> 1);
          for (let s = 0; s < ns; s++) {
            if (!((m >>> s) & 1)) continue;
            let z: number;
            if (depth.zExport && r.mrtz && on(r.mrtz)) z = f32(r.mrtz.data[lane]!);
            else {
              const [sx, sy] = ns === 1 ? [0.5, 0.5] : [0.5 + st.sampleLocs[p]![2 * s]! / 16, 0.5 + st.sampleLocs[p]![2 * s + 1]! / 16];
              barycentrics(quad.sp, x + sx, y + sy, b, st.perspCorrDis);
              z = b[4]!;
            }
            if ((depth.zEnable || depth.stencilEnable) && (x >= depth.width || y >= depth.height)) continue;
            if (early) {
              // Already tested and written before the PS: an exported depth comes too late.
              if (depth.zExport && r.mrtz && on(r.mrtz)) zExportIgnored = true;
            } else if ((depth.zEnable || depth.stencilEnable) && !depthStencilTest(this.mem, depth, x, y, s, z, quad.sp.front)) continue;
            // Passed depth/stencil (early or late) and not discarded: the occlusion counters count it.
            if (counting) this.zpass[renderBackendOf(x, y, rbs)]!++;
            let wrote = false;
            for (const t of targets) {
              if (!t) continue;
              const e = r.mrt.get(t.index);
              if (!e || !on(e) || x >= t.width || y >= t.height) continue;
              if (!exportColor(t.exportFormat, e.data[lane]!, e.data[ws + lane]!, e.data[2 * ws + lane]!, e.data[3 * ws + lane]!, src)) continue;
              writeColor(this.mem, t, x, y, s, src, dst, out, k);
              wrote = true;
            }
            if (wrote || depth.zEnable) this.stats.samplesWritten++;
          }
        }
      }
    }
    if (killedEarly && zOrder && !zOrder.killEnable && (depth.zEnable || depth.stencilEnable)) {
      this.diag.report({ id: 'amd.db.kill-without-kill-enable', severity: 'error', where: { DB_SHADER_CONTROL: regs.raw('DB_SHADER_CONTROL') }, message: 'the pixel shader discarded covered pixels but DB_SHADER_CONTROL.KILL_ENABLE = 0: early Z already wrote their depth/stencil' });
    }
    if (zExportIgnored) {
      this.diag.report({ id: 'amd.db.early-z-depth-export', severity: 'warning', where: { DB_SHADER_CONTROL: regs.raw('DB_SHADER_CONTROL') }, message: 'the pixel shader exported depth under early Z (DEPTH_BEFORE_SHADER = 1): the test and write already used the interpolated depth, the export is ignored' });
    }
  }
}

interface NggOut {
  readonly sg: Subgroup;
  readonly pos: Float64Array;
  readonly posSet: Uint8Array;
  readonly prim: Uint32Array;
  readonly primSet: Uint8Array;
  alloc: null | { v: number; p: number };
  /** GFX10.3: the parameter cache `exp paramN` fill (GFX11 stores to the attribute ring). */
  readonly cache: ParamCache | null;
}

interface PsResult {
  readonly ps: PsWave;
  readonly mrt: Map<number, ExportEvent>;
  mrtz: ExportEvent | null;
}

function writeColor(mem: Memory, t: ColorTarget, x: number, y: number, s: number, src: Float64Array, dst: Float64Array, out: Float64Array, k: Float64Array): void {
  if (t.blend) {
    readSample(mem, t, x, y, s, dst);
    blend(t.blend, t.format === 'R8G8B8A8_UNORM', src, dst, k, out);
    writeSample(mem, t, x, y, s, out, t.writeMask);
  } else writeSample(mem, t, x, y, s, src, t.writeMask);
}

/**
 * A GFX9/GFX10 compressed colour export (compr: f16 pairs, channels 0/1 in vsrc0, 2/3 in vsrc1) in
 * the layout GFX11 exports 16-bit formats with (dword 0 = vsrc0, dword 1 = vsrc1), which is what
 * SPI_SHADER_FP16_ABGR etc. decode (cb.ts exportColor).
 */
function uncompress(e: ExportEvent, ws: number): ExportEvent {
  const data = new Uint32Array(4 * ws);
  data.set(e.data.subarray(0, ws), 0);
  data.set(e.data.subarray(2 * ws, 3 * ws), ws);
  return { ...e, data, compr: false, en: ((e.en & 3) ? 1 : 0) | ((e.en & 12) ? 2 : 0) };
}

function setExec(w: Wave, lanes: number): void {
  let lo = 0, hi = 0;
  for (let l = 0; l < lanes && l < w.waveSize; l++) {
    if (l < 32) lo |= 1 << l;
    else hi |= 1 << (l - 32);
  }
  w.s[SREG.EXEC_LO] = lo >>> 0;
  w.s[SREG.EXEC_HI] = w.waveSize === 64 ? hi >>> 0 : 0;
}

/** MODE at launch from SPI_SHADER_PGM_RSRC1_*: FLOAT_MODE [7:0], DX10_CLAMP bit 8, IEEE bit 9. */
function modeOf(r: GfxRegs, reg: string, v: number): number {
  return (r.field(reg, 'FLOAT_MODE', v) & 0xff) | (r.field(reg, 'DX10_CLAMP', v) << 8) | (r.field(reg, 'IEEE_MODE', v) << 9);
}

