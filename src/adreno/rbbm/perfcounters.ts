/**
 * RBBM performance counters of the a6xx blocks (seed 004, "Performance Counters"): each block
 * has select registers (<BLOCK>_PERFCTR_<BLOCK>_SEL[i]) naming one of its countables
 * (a6xx_<block>_perfcounter_select, from the register database generated from freedreno's XML)
 * and free-running 64-bit counters RBBM_PERFCTR_<BLOCK>[i]. How many of each a block has is
 * read from the register database too (the arrays' lengths), never typed here.
 *
 * The model counts events, not cycles: the countables in MODELLED advance by what the CP and
 * the pipeline did (the list says what each one counts); every other countable reads 0 and is
 * reported "not modelled" by `gpusim adreno perf`. The CP's own countables are cp.ts's
 * (`CommandProcessor.countables`), read through the same selection here.
 *
 * Time: the model's time is the CP's cycle count (`CommandProcessor.cycles`, one per packet
 * dword plus fixed costs) taken at MODEL_CLOCK_HZ; the always-on timer (RBBM_ALWAYSON_COUNTER,
 * PERF_RBBM_ALWAYS_ON) runs at 19.2 MHz (the XO clock) over that time.
 */
import { enumName, type Gen, type RegisterSpace } from '../regs/db.js';

/** One block: its select registers, counters and countable enum (names as the XML spells them). */
export interface PerfBlock {
  readonly name: string;
  readonly sel: string;
  readonly ctr: string;
  readonly countables: string;
}

/** The a6xx blocks with RBBM counters (the CP's are cp.ts's: CP_PERFCTR_CP_SEL / RBBM_PERFCTR_CP). */
export const PERF_BLOCKS: readonly PerfBlock[] = [
  { name: 'RBBM', sel: 'RBBM_PERFCTR_RBBM_SEL', ctr: 'RBBM_PERFCTR_RBBM', countables: 'a6xx_rbbm_perfcounter_select' },
  { name: 'PC', sel: 'PC_PERFCTR_PC_SEL', ctr: 'RBBM_PERFCTR_PC', countables: 'a6xx_pc_perfcounter_select' },
  { name: 'VFD', sel: 'VFD_PERFCTR_VFD_SEL', ctr: 'RBBM_PERFCTR_VFD', countables: 'a6xx_vfd_perfcounter_select' },
  { name: 'HLSQ', sel: 'HLSQ_PERFCTR_HLSQ_SEL', ctr: 'RBBM_PERFCTR_HLSQ', countables: 'a6xx_hlsq_perfcounter_select' },
  { name: 'VPC', sel: 'VPC_PERFCTR_VPC_SEL', ctr: 'RBBM_PERFCTR_VPC', countables: 'a6xx_vpc_perfcounter_select' },
  { name: 'TSE', sel: 'GRAS_PERFCTR_TSE_SEL', ctr: 'RBBM_PERFCTR_TSE', countables: 'a6xx_tse_perfcounter_select' },
  { name: 'RAS', sel: 'GRAS_PERFCTR_RAS_SEL', ctr: 'RBBM_PERFCTR_RAS', countables: 'a6xx_ras_perfcounter_select' },
  { name: 'UCHE', sel: 'UCHE_PERFCTR_UCHE_SEL', ctr: 'RBBM_PERFCTR_UCHE', countables: 'a6xx_uche_perfcounter_select' },
  { name: 'TP', sel: 'TPL1_PERFCTR_TP_SEL', ctr: 'RBBM_PERFCTR_TP', countables: 'a6xx_tp_perfcounter_select' },
  { name: 'SP', sel: 'SP_PERFCTR_SP_SEL', ctr: 'RBBM_PERFCTR_SP', countables: 'a6xx_sp_perfcounter_select' },
  { name: 'RB', sel: 'RB_PERFCTR_RB_SEL', ctr: 'RBBM_PERFCTR_RB', countables: 'a6xx_rb_perfcounter_select' },
  { name: 'VSC', sel: 'VSC_PERFCTR_VSC_SEL', ctr: 'RBBM_PERFCTR_VSC', countables: 'a6xx_vsc_perfcounter_select' },
  { name: 'CCU', sel: 'RB_PERFCTR_CCU_SEL', ctr: 'RBBM_PERFCTR_CCU', countables: 'a6xx_ccu_perfcounter_select' },
  { name: 'LRZ', sel: 'GRAS_PERFCTR_LRZ_SEL', ctr: 'RBBM_PERFCTR_LRZ', countables: 'a6xx_lrz_perfcounter_select' },
  { name: 'CMP', sel: 'RB_PERFCTR_CMP_SEL', ctr: 'RBBM_PERFCTR_CMP', countables: 'a6xx_cmp_perfcounter_select' },
];

/** The CP block (its totals live in CommandProcessor.countables, indexed by countable value). */
export const CP_BLOCK: PerfBlock = { name: 'CP', sel: 'CP_PERFCTR_CP_SEL', ctr: 'RBBM_PERFCTR_CP', countables: 'a6xx_cp_perfcounter_select' };

/** The clock the model's CP cycles are taken at: the a630's top GPU frequency (710 MHz). */
export const MODEL_CLOCK_HZ = 710e6;
/** The always-on timer's clock (19.2 MHz XO). */
export const ALWAYS_ON_HZ = 19.2e6;
/** Always-on timer ticks after `cycles` model cycles. */
export function alwaysOnTicks(cycles: number): number {
  return Math.floor((cycles * ALWAYS_ON_HZ) / MODEL_CLOCK_HZ);
}

/** The countables the model counts, and what advances them. Everything else reads 0. */
export const MODELLED: Readonly<Record<string, string>> = {
  PERF_CP_ALWAYS_COUNT: 'CP cycles (packet dwords plus fixed costs)',
  PERF_CP_BUSY_CYCLES: 'CP cycles while executing',
  PERF_CP_BUSY_GFX_CORE_IDLE: 'CP cycles (the core never runs ahead of the CP here)',
  PERF_CP_SQE_IDLE: 'CP cycles spent polling (CP_WAIT_*)',
  PERF_RBBM_ALWAYS_COUNT: 'CP cycles',
  PERF_RBBM_ALWAYS_ON: '19.2 MHz ticks over the model time',
  PERF_PC_3D_DRAWCALLS: 'draws run (not the binning pass)',
  PERF_PC_2D_DRAWCALLS: 'CP_BLIT operations',
  PERF_PC_VIS_STREAMS_LOADED: 'CP_SET_BIN_DATA5 visibility streams',
  PERF_PC_IA_VERTICES: 'vertices assembled',
  PERF_PC_VS_INVOCATIONS: 'vertex shader invocations',
  PERF_PC_IA_PRIMITIVES: 'primitives assembled',
  PERF_VFD_TOTAL_VERTICES: 'vertices fetched',
  PERF_VFDP_VS_STAGE_WAVES: 'vertex shader waves',
  PERF_HLSQ_COMPUTE_DRAWCALLS: 'CP_EXEC_CS dispatches run',
  PERF_HLSQ_CS_INVOCATIONS: 'compute invocations (groups x workgroup size)',
  PERF_VPC_PC_PRIMITIVES: 'primitives from PC',
  PERF_TSE_INPUT_PRIM: 'primitives into setup',
  PERF_TSE_FACENESS_CULLED_PRIM: 'primitives face-culled',
  PERF_SP_VS_INSTRUCTIONS: 'VS wave-instructions',
  PERF_SP_FS_INSTRUCTIONS: 'FS wave-instructions',
  PERF_SP_CS_INSTRUCTIONS: 'CS wave-instructions',
  PERF_SP_WAVE_CONTEXTS: 'waves launched (VS + FS + CS)',
  PERF_SP_PIXELS_KILLED: 'fragments discarded by the FS',
  PERF_RB_PS_INVOCATIONS: 'fragments shaded',
  PERF_RB_Z_PASS: 'samples passing depth/stencil',
  PERF_RB_C_WRITE: 'samples written to colour',
  PERF_RB_2D_VALID_PIXELS: 'CP_BLIT pixels',
  PERF_TP_2D_OUTPUT_PIXELS: 'CP_BLIT pixels read from a source (copies and scales, not solid fills)',
};

export interface PerfHost {
  readonly gen: Gen;
  readonly regsDb: RegisterSpace;
  readReg(off: number): number;
  /** Set a register without side effects (counter registers are RBBM's). */
  setReg(off: number, v: number): void;
}

/** Number of counters of a block in a register space: the select and counter arrays' common length. */
export function blockCounters(db: RegisterSpace, b: PerfBlock): number {
  let n = 0;
  while (n < 64 && db.offsetOf(`${b.sel}[${n}]`) !== undefined && db.offsetOf(`${b.ctr}[${n}]`) !== undefined) n++;
  return n;
}

/** One mark: the totals after a draw, dispatch or blit (deltas give the per-operation counts). */
export interface PerfMark {
  readonly kind: 'draw' | 'dispatch' | 'blit';
  readonly packet: string;
  readonly iova: number;
  readonly totals: ReadonlyMap<string, number>;
  /** Where it ran: sysmem (bypass), the binning pass, or a GMEM bin (with its window). */
  readonly where?: PerfWhere;
}

/** The pass of an operation; GMEM: the bin's number in its render pass, GRAS_SC_WINDOW_SCISSOR and RB_WINDOW_OFFSET. */
export interface PerfWhere {
  readonly pass: 'sysmem' | 'binning' | 'gmem';
  readonly bin?: number;
  readonly window?: { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number };
  readonly offset?: { readonly x: number; readonly y: number };
}

export class BlockCounters {
  /** Totals by countable name (RBBM-side blocks; the CP's are merged in by `snapshot`). */
  readonly totals = new Map<string, number>();
  /** Totals after each draw / dispatch / blit, when `keepMarks` is set. */
  readonly marks: PerfMark[] = [];
  keepMarks = false;
  /** The GMEM bin being rendered: CP_SET_MARKER RM6_GMEM starts the next one, RM6_BINNING / RM6_BYPASS a new render pass. */
  bin = -1;

  add(countable: string, n = 1): void {
    if (n) this.totals.set(countable, (this.totals.get(countable) ?? 0) + n);
  }

  /** All totals by name: these plus the CP's (raw countables by value) and the timers. */
  snapshot(cpCountables: Float64Array, cycles: number, gen: Gen): Map<string, number> {
    const m = new Map(this.totals);
    for (let v = 0; v < cpCountables.length; v++) {
      const c = cpCountables[v]!;
      const name = c ? enumName(CP_BLOCK.countables, v, gen) : undefined;
      if (name) m.set(name, c);
    }
    m.set('PERF_RBBM_ALWAYS_COUNT', cycles);
    m.set('PERF_RBBM_ALWAYS_ON', alwaysOnTicks(cycles));
    return m;
  }

  mark(kind: PerfMark['kind'], packet: string, iova: number, cpCountables: Float64Array, cycles: number, gen: Gen, where?: PerfWhere): void {
    if (this.keepMarks) this.marks.push({ kind, packet, iova, totals: this.snapshot(cpCountables, cycles, gen), ...(where ? { where } : {}) });
  }

  /** Write every RBBM_PERFCTR_<block>[i] from its select register (before register reads), and the always-on timer. */
  sync(h: PerfHost, cycles: number): void {
    if (h.gen !== 'a6xx') return;
    const put = (off: number, v: number): void => {
      h.setReg(off, v >>> 0);
      h.setReg(off + 1, Math.floor(v / 2 ** 32) >>> 0);
    };
    for (const b of PERF_BLOCKS) {
      const n = blockCounters(h.regsDb, b);
      for (let i = 0; i < n; i++) {
        const name = enumName(b.countables, h.readReg(h.regsDb.reg(`${b.sel}[${i}]`)), h.gen);
        const v = name === 'PERF_RBBM_ALWAYS_COUNT' ? cycles : name === 'PERF_RBBM_ALWAYS_ON' ? alwaysOnTicks(cycles) : (name && this.totals.get(name)) || 0;
        put(h.regsDb.reg(`${b.ctr}[${i}]`), v);
      }
    }
    const lo = h.regsDb.offsetOf('RBBM_ALWAYSON_COUNTER_LO');
    const hi = h.regsDb.offsetOf('RBBM_ALWAYSON_COUNTER_HI');
    if (lo !== undefined && hi !== undefined) {
      const t = alwaysOnTicks(cycles);
      h.setReg(lo, t >>> 0);
      h.setReg(hi, Math.floor(t / 2 ** 32) >>> 0);
    }
  }
}
