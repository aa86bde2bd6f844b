/**
 * POPS inside the PM4 draw pipeline (`gpusim draw`, src/amd/gfx/pipeline.ts): a draw whose
 * DB_SHADER_CONTROL.PRIMITIVE_ORDERED_PIXEL_SHADER is set has its PS waves formed, argued and
 * ordered by the POPS model (seed 002_d00ee82034762a57.txt):
 *
 * - configuration: `decodePopsDraw` once per draw (its diagnostics included);
 * - wave formation: each packer forms its own waves from its quads in rasterization order, a
 *   quad overlapping an earlier quad of the wave (pixel or sample interlock) starts a new wave
 *   (GFX11) or a new layer (GFX9-10.3 with INTRAWAVE_COLLISION); waves are launched in the order
 *   of their first quad;
 * - arguments: COLLISION_WAVEID and INTRAWAVE_COLLISION in the SGPRs after the ones the SPI already
 *   wrote (user data, PRIM_MASK, the wave count), each only when enabled in both
 *   SPI_SHADER_PGM_RSRC2_PS and PA_SC_SHADER_CONTROL; the order COLLISION_WAVEID then
 *   INTRAWAVE_COLLISION after PRIM_MASK follows Mesa's PS argument order;
 * - execution: `attachPops` ties each executor wave to its POPS state, so s_wait_event,
 *   src_pops_exiting_wave_id, s_setreg, s_sleep, ORDERED_PS_DONE, exp and s_endpgm drive the
 *   ordered sections, with the pops.* diagnostics;
 * - memory: with `mem` given, POPS draws' PS waves run on compute units (`computeUnitsPerSe` per
 *   shader engine, picked by a seeded draw among the CUs of the wave's SE) that see memory through
 *   the L0/L1/L2 model of pops-cache.ts (one model for the pipeline, so lines stay cached across
 *   draws): plain reads hit the CU's L0 / the shader array's GL1, GLC/DLC bypass and evict them
 *   (per generation), stores write through to L2 when their counter lets them land, loads stay in
 *   flight while VM_CNT counts them. After each draw every in-flight store lands (the end-of-pipe
 *   wait); clean lines stay: a plain first read in a later draw can still hit a stale line;
 * - statistics per draw and an optional Chrome trace (`PopsTrace`, one process per packer).
 *
 * The pipeline's packer mapping (`packerOf`) is the PopsUnit's, so PS_wave_id counters and POPS
 * wave IDs name the same packer for a wave.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import type { Wave } from '../wave/wave.js';
import { attachPops, popsBeforeInstruction } from '../exec/pops-exec.js';
import type { Instruction } from '../isa/types.js';
import { packWaves, type PsWave } from './waves.js';
import type { Quad } from './raster.js';
import { decodePopsDraw, POPS_GENS, POPS_SEED, type PopsChip, type PopsDrawConfig, type PopsDrawRegs, type PopsGen, type PopsVrs } from './pops-config.js';
import { PopsError, PopsUnit, type PopsDrawStats, type PopsQuad, type PopsWave } from './pops.js';
import { popsRng, type PopsTrace } from './pops-run.js';
import { PopsCaches, popsCacheShape, type PopsCacheStats } from './pops-cache.js';
import type { Memory } from '../../core/memory.js';

/** Registers POPS reads from a draw's state (absent ones read 0). */
const DRAW_REGS: readonly (keyof PopsDrawRegs)[] = [
  'DB_SHADER_CONTROL', 'SPI_SHADER_PGM_RSRC2_PS', 'PA_SC_SHADER_CONTROL', 'PA_SC_AA_CONFIG', 'DB_Z_INFO', 'DB_DFSM_CONTROL',
  'PA_SC_BINNER_CNTL_0', 'SPI_SHADER_COL_FORMAT', 'SPI_SHADER_Z_FORMAT', 'DB_RENDER_OVERRIDE2',
];

/** The PM4 generation names of the pipeline mapped to POPS's. */
export function popsGenOf(gen: string): PopsGen | null {
  return gen === 'gfx11' ? 'gfx11' : gen === 'gfx103' || gen === 'gfx10.3' ? 'gfx103' : gen === 'gfx9' ? 'gfx9' : null;
}

export interface PopsDrawOptions {
  readonly gen: PopsGen;
  readonly diag: Diagnostics;
  readonly shaderEngines: number;
  /** The pipeline's screen-position -> [SE, packer] mapping. */
  readonly packerOf: (x: number, y: number) => readonly [number, number];
  readonly trace?: PopsTrace;
  /** The chip, for the hardware-bug workarounds (default: none applies). */
  readonly chip?: PopsChip;
  /** GFX11 PA_SC_VRS_SURFACE_CNTL_1 as the kernel programmed it (default 0: FORCE_SC_VRS_RATE_FINE_POPS clear). */
  readonly paScVrsSurfaceCntl1?: number;
  /** The pipeline's memory (L2): given, POPS waves see it through the L0/L1 model (`caches` false: coherent). */
  readonly mem?: Memory;
  readonly caches?: boolean;
  /** Compute units per shader engine (default 4: two shader arrays of 2 CUs, each with its L1, on GFX10+). */
  readonly computeUnitsPerSe?: number;
  /** Seed of the CU choice and of the memory latencies (default 1). */
  readonly seed?: number;
}


/** A register field's enum name in the draw's state ('' when unnamed or absent). */
export type EnumRead = (reg: string, field: string) => string;

/**
 * The shading rate a GFX11 draw requests through PA_SC_VRS_OVERRIDE_CNTL (combiner OVERRIDE with
 * VRS_RATE), by the enum names of Mesa's register JSON; undefined when it requests none.
 */
export function requestedVrs(enumOf: EnumRead): PopsVrs | undefined {
  if (enumOf('PA_SC_VRS_OVERRIDE_CNTL', 'VRS_OVERRIDE_RATE_COMBINER_MODE') !== 'SC_VRS_COMB_MODE_OVERRIDE') return undefined;
  const m = /_(\d)X(\d)$/.exec(enumOf('PA_SC_VRS_OVERRIDE_CNTL', 'VRS_RATE'));
  if (!m) return undefined;
  return { rateX: Number(m[1]) as 1 | 2 | 4, rateY: Number(m[2]) as 1 | 2 | 4 };
}

/** One draw's POPS state in the pipeline. */
export interface PopsDrawState {
  readonly drawIndex: number;
  readonly config: PopsDrawConfig;
}

/** What `--pops-trace` and the statistics print per draw. */
export interface PopsDrawReport extends PopsDrawStats {
  readonly draw: number;
  readonly interlock: 'pixel' | 'sample';
  readonly interlockSamples: number;
}

export class PopsDraw {
  readonly unit: PopsUnit;
  readonly gen: PopsGen;
  private readonly o: PopsDrawOptions;
  private readonly configs = new Map<number, PopsDrawConfig>();
  private readonly byWave = new WeakMap<Wave, PopsWave>();
  /** The L0/L1/L2 model POPS waves see memory through (null: coherent memory). */
  readonly caches: PopsCaches | null;
  private readonly cusPerSe: number;
  private readonly rnd: () => number;

  constructor(o: PopsDrawOptions) {
    this.gen = o.gen;
    // A pipeline mapping with more packers per SE than the generation has folds onto its packers.
    const per = POPS_GENS[o.gen].packersPerSe;
    const packerOf = (x: number, y: number): readonly [number, number] => {
      const [se, p] = o.packerOf(x, y);
      return [se, p % per];
    };
    this.o = { ...o, packerOf };
    this.unit = new PopsUnit({ gen: o.gen, shaderEngines: o.shaderEngines, packerOf, diagnostics: o.diag });
    this.cusPerSe = o.computeUnitsPerSe ?? 4;
    this.rnd = popsRng((o.seed ?? 1) ^ 0x9e3779b9);
    const cus = o.shaderEngines * this.cusPerSe;
    this.caches = o.mem && o.caches !== false
      ? new PopsCaches(o.mem, { computeUnits: cus, seed: o.seed ?? 1, ...popsCacheShape(o.gen, cus, this.cusPerSe) })
      : null;
  }

  /**
   * The memory a PS wave of shader engine `se` sees: a view through the caches of a compute unit of
   * that SE (seeded choice), or the pipeline's memory without the cache model.
   */
  memFor(se: number, fallback: Memory): Memory {
    if (!this.caches) return fallback;
    const cu = (se % this.o.shaderEngines) * this.cusPerSe + Math.floor(this.rnd() * this.cusPerSe);
    return this.caches.viewFor(cu);
  }

  /** Cache statistics over the pipeline's POPS draws so far (null without the model). */
  cacheStats(): PopsCacheStats | null {
    return this.caches?.stats() ?? null;
  }

  /**
   * Decode the draw's POPS registers (once per draw: instances share it). Returns the state when
   * POPS is on for the draw, null otherwise.
   */
  begin(drawIndex: number, read: (reg: string) => number, enumOf?: EnumRead): PopsDrawState | null {
    let cfg = this.configs.get(drawIndex);
    if (!cfg) {
      const r: Record<string, number> = {};
      for (const k of DRAW_REGS) r[k] = read(k) >>> 0;
      r['PA_SC_VRS_SURFACE_CNTL_1'] = (this.o.paScVrsSurfaceCntl1 ?? 0) >>> 0;
      const vrs = enumOf ? requestedVrs(enumOf) : undefined;
      cfg = decodePopsDraw(this.gen, r as PopsDrawRegs, this.o.diag, this.o.chip ?? 'other', vrs);
      this.configs.set(drawIndex, cfg);
    }
    return cfg.enabled ? { drawIndex, config: cfg } : null;
  }

  /**
   * Form the PS waves of one draw: per packer in rasterization order, overlapping quads split into
   * new waves (or layers with INTRAWAVE_COLLISION); launch order = order of each wave's first quad.
   */
  pack(s: PopsDrawState, quads: readonly Quad[], waveSize: 32 | 64, maxPrimsPerWave: number): PsWave[] {
    const per = new Map<string, { first: number[]; quads: Quad[] }>();
    quads.forEach((q, i) => {
      const [se, p] = this.o.packerOf(q.x, q.y);
      const key = `${se}:${p}`;
      let g = per.get(key);
      if (!g) per.set(key, (g = { first: [], quads: [] }));
      g.first.push(i);
      g.quads.push(q);
    });
    const intrawave = s.config.loadIntrawaveCollision && POPS_GENS[this.gen].intrawave;
    const out: { at: number; w: PsWave }[] = [];
    for (const g of per.values()) {
      const waves = packWaves(g.quads, waveSize, { maxPrimsPerWave, overlap: intrawave ? 'intrawave' : 'split', sampleInterlock: s.config.interlockSamples > 1 });
      let k = 0;
      for (const w of waves) {
        out.push({ at: g.first[k]!, w });
        k += w.quads.length;
      }
    }
    out.sort((a, b) => a.at - b.at);
    return out.map((x) => x.w);
  }

  /**
   * A PS wave of a POPS draw is launched (before its first instruction): compute its POPS
   * arguments, load them at `sgpr` on, tie the wave to its POPS state. Returns the next free SGPR,
   * or -1 when the model refused the wave (reported; the wave runs without POPS).
   */
  launch(s: PopsDrawState, wave: Wave, ps: PsWave, sgpr: number, clock: number): number {
    const quads: PopsQuad[] = ps.quads.map((q) => ({
      x: q.x, y: q.y, coverage: [q.coverage[0]!, q.coverage[1]!, q.coverage[2]!, q.coverage[3]!], primitive: q.sp.prim.primId,
    }));
    let pw: PopsWave;
    try {
      pw = this.unit.launchWave(s.config, quads, ps.waveSize, s.drawIndex);
    } catch (e) {
      if (!(e instanceof PopsError)) throw e;
      this.o.diag.report({ id: 'pops.draw.wave-refused', severity: 'error', where: { draw: s.drawIndex, wave: wave.id }, message: `${e.message}; the wave runs without POPS ordering`, seed: POPS_SEED });
      return -1;
    }
    if (s.config.loadCollisionWaveId && sgpr < 106) wave.s[sgpr++] = pw.collisionWaveId;
    if (s.config.loadIntrawaveCollision && sgpr < 106) wave.s[sgpr++] = pw.intrawaveCollision;
    attachPops(wave, this.unit, pw);
    this.byWave.set(wave, pw);
    this.o.trace?.launch(pw, pw.se * POPS_GENS[this.gen].packersPerSe + pw.packer, clock);
    return sgpr;
  }

  /** Before each instruction of a PS wave (subgroup operations inside the intrawave loop; loads returning). */
  beforeInstruction(wave: Wave, inst: Instruction, clock: number): void {
    if (this.gen !== 'gfx11') popsBeforeInstruction(wave, inst, wave.pc);
    this.caches?.beforeInstruction(wave, clock);
  }

  /** After each instruction of a PS wave (stores and loads retiring by their counters, trace transitions, the wave's end). */
  afterInstruction(wave: Wave, clock: number): void {
    const c = this.caches;
    if (c) {
      c.afterInstruction(wave, clock);
      if (wave.state === 'ended' || wave.state === 'halted') c.waveEnded(wave, this.rnd);
    }
    const t = this.o.trace;
    if (!t) return;
    const pw = this.byWave.get(wave);
    if (!pw) return;
    if (wave.state === 'ended' || wave.state === 'halted') t.end(pw, clock);
    else t.observe(pw, clock);
  }

  /** The draw's waves all ended: every store in flight lands in L2 (the caches hold no dirty data). */
  endDraw(): void {
    this.caches?.drainAll();
  }

  /** Statistics of every POPS draw so far, in draw order. */
  report(): PopsDrawReport[] {
    return [...this.configs.entries()].filter(([, c]) => c.enabled).sort((a, b) => a[0] - b[0]).map(([d, c]) => ({
      draw: d, interlock: c.interlockSamples > 1 ? 'sample' as const : 'pixel' as const, interlockSamples: c.interlockSamples, ...this.unit.drawStats(d),
    }));
  }
}
